"""Explicit Window Adaptation (ewa 3): an ATM access point rewrites the advertised window of every
ACK returning to the sources of a queue's data, as a function of the queue's free buffer.

ewa 3: "If the current value in the receiver's advertised window, which is set by the destination
system, exceeds the feedback value computed in the AAP, the receiver's advertised window is marked
down to the feedback value", with

    W'_r(t) = max(min(W_r(t), f(B_e(t))), MSS)                         (3.1)

where ``B_e(t) = B - Q(t)`` is the empty buffer "when a returning ack arrives at an AAP", and f is
logarithmic, ``f(B_e) = alpha log2(B - Q)`` (3.4), or linear, ``alpha (B - Q)`` (3.3), "B and
the buffer occupancy Q(t) ... expressed in terms of number of packets rather than bytes". "The
window size computed by Eq. (3.1) is used to modify the returning acknowledgements, regardless of
the connections they belong to": no per-connection state.

Section 3.2 adapts alpha: a first-order filter of the queue, ``avg <- (1 - g) avg + g Q`` with
``g = 1/128`` "at a sampling point"; every T = 10 ms, ``alpha += w_up`` (1/8) if the average is below
the low threshold (20 % of the buffer) and ``alpha *= w_down`` (1 - 1/32) if it is above the high one
(60 %); alpha starts at 1.

Choices where the paper is silent (also in :class:`atmtcp.internetwork.Ewa`):

- The sampling points of the average are the ACKs EWA processes (the moments it reads the queue),
  each before its feedback is computed; the period T is an event of its own (``EV_EWA``), from
  t = T on, whether ACKs pass or not.
- f is in packets; the window in bytes is f x the connection's MSS, rounded *down* to the unit
  of the scaled window field (RFC 1323: the field carries ``window >> scale``, so the AAP can only
  write multiples of ``1 << scale`` bytes; rounding down never advertises more than f). The
  minimum, MSS, is rounded *up* to that unit, so that one segment always fits.
- ``B_e`` of at most one packet (a full buffer) gives f = 0 with the logarithm (log2 1 = 0), so
  the window is the MSS minimum.
"""
import numpy as np

from .heap import heap_push, next_seq
from .jit import jit
from .layout import (
    C_MSS, EV_EWA, EWA_LINEAR, FL_EWA_QUEUE, FL_WND_UNIT, PKT_WND, RQ_EWA, RQ_EWA_ACKS, RQ_EWA_BUFFER,
    RQ_EWA_MARKED_DOWN, RQ_EWA_PERIOD_NS, RQ_PKTS, RQF_EWA_ALPHA, RQF_EWA_AVG, RQF_EWA_DOWN, RQF_EWA_GAIN,
    RQF_EWA_HIGH, RQF_EWA_LOW, RQF_EWA_UP, V_CONN,
)
from .router_policies import filtered_average
from .state import ftab, itab, T_CONN, T_FLOW, T_PKT, T_RQ, T_RQF, T_VC


# --- the formulas, as pure functions --------------------------------------------------------------------
@jit
def feedback_packets(kind, alpha, free_packets):
    """f(B_e) in packets: ``alpha log2(B_e)`` (eq. 3.4) or, for ``kind == EWA_LINEAR``, ``alpha B_e``
    (eq. 3.3). A free space of at most one packet gives 0 with the logarithm."""
    if kind == EWA_LINEAR:
        return alpha * free_packets
    if free_packets <= 1:
        return 0.0
    return alpha * np.log2(free_packets)


@jit
def rewritten_window(advertised, feedback_bytes, mss, unit):
    """Eq. 3.1, ``max(min(W_r, f), MSS)`` in bytes, as the scaled window field can carry it: f
    rounded down to a multiple of ``unit`` (``1 << window scale``), the MSS rounded up to one."""
    marked = min(advertised, (feedback_bytes // unit) * unit)
    least = -(-mss // unit) * unit
    return max(marked, least)


@jit
def adapted_alpha(alpha, average, low, high, w_up, w_down):
    """One period T of ewa 3.2: "If the average buffer occupancy is below the low threshold, then,
    alpha is increased by a small constant quantity w_up ... If the average buffer occupancy
    exceeds the high threshold, then alpha is reduced multiplicatively"."""
    if average < low:
        return alpha + w_up
    if average > high:
        return alpha * w_down
    return alpha


# --- the access point ---------------------------------------------------------------------------------------
@jit
def queue_feedback(S, q):
    """f(B - Q) in packets for queue ``q`` now (what an ACK passing at this instant gets, before
    eq. 3.1's min and max)."""
    rq = itab(S, T_RQ)
    free = max(rq[q, RQ_EWA_BUFFER] - rq[q, RQ_PKTS], 0)
    return feedback_packets(rq[q, RQ_EWA], ftab(S, T_RQF)[q, RQF_EWA_ALPHA], free)


@jit
def rewrite_ack(S, v, k, t):
    """ACK ``k`` of flow ``v`` enters, on its way back to the source, the router whose queue
    ``FL_EWA_QUEUE`` carries the connection's data: sample the average queue (section 3.2), then
    mark the advertised window down to eq. 3.1's value (see the module docstring)."""
    q = itab(S, T_FLOW)[v, FL_EWA_QUEUE]
    rq = itab(S, T_RQ)
    rqf = ftab(S, T_RQF)
    pkt = itab(S, T_PKT)
    rqf[q, RQF_EWA_AVG] = filtered_average(rqf[q, RQF_EWA_AVG], rq[q, RQ_PKTS], rqf[q, RQF_EWA_GAIN])
    mss = itab(S, T_CONN)[itab(S, T_VC)[v, V_CONN], C_MSS]
    feedback_bytes = np.int64(queue_feedback(S, q) * mss)
    advertised = pkt[k, PKT_WND]
    window = rewritten_window(advertised, feedback_bytes, mss, itab(S, T_FLOW)[v, FL_WND_UNIT])
    rq[q, RQ_EWA_ACKS] += 1
    if window < advertised:
        rq[q, RQ_EWA_MARKED_DOWN] += 1
    pkt[k, PKT_WND] = window


@jit
def schedule_ewa(S):
    """The first period T of every queue whose alpha adapts (at t = T)."""
    rq = itab(S, T_RQ)
    for q in range(rq.shape[0]):
        if rq[q, RQ_EWA] != 0 and rq[q, RQ_EWA_PERIOD_NS] > 0:
            heap_push(S, rq[q, RQ_EWA_PERIOD_NS], next_seq(S), EV_EWA, q)


@jit
def ewa_period(S, q, t):
    """EV_EWA: the end of a period T at queue ``q``: adapt alpha (section 3.2), schedule the next."""
    rqf = ftab(S, T_RQF)
    rqf[q, RQF_EWA_ALPHA] = adapted_alpha(rqf[q, RQF_EWA_ALPHA], rqf[q, RQF_EWA_AVG], rqf[q, RQF_EWA_LOW],
                                         rqf[q, RQF_EWA_HIGH], rqf[q, RQF_EWA_UP], rqf[q, RQF_EWA_DOWN])
    heap_push(S, t + itab(S, T_RQ)[q, RQ_EWA_PERIOD_NS], next_seq(S), EV_EWA, q)
