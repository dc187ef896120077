"""Drop policies of router queues (whole packets): Floyd-Jacobson RED's average queue and its
decision, as pure functions of the queue's state (the port code in
:mod:`atmtcp.kernel.packets` keeps the state and draws the random number).

Floyd and Jacobson, "Random Early Detection Gateways for Congestion Avoidance" (IEEE/ACM ToN,
1993), section 4, the algorithm for every arriving packet::

    if the queue is nonempty: avg <- (1 - w_q) avg + w_q q
    else: m <- f(time - q_time); avg <- (1 - w_q)^m avg
    if min_th <= avg < max_th:
        increment count
        p_b <- max_p (avg - min_th) / (max_th - min_th)
        p_a <- p_b / (1 - count p_b)
        with probability p_a: mark the arriving packet; count <- 0
    else if max_th <= avg: mark the arriving packet; count <- 0
    else count <- -1

ewa 2.2 describes the same scheme ("No packets are dropped when the average queue size is below
min_th. When the average queue size exceeds max_th, all incoming packets are dropped ... the
incoming packet is dropped with a probability that is a linear function of the average queue
length, varying linearly from zero to a pre-determined maximum value max_p"), marking by loss:
"congestion must be signaled to the source through a packet loss". ``f`` is linear: the idle
time over the transmission time ``s`` of a typical packet, "the number of packets that might
have been transmitted by the gateway during the idle period".
"""
from .jit import jit


@jit
def filtered_average(average, queue, gain):
    """One step of a first-order filter of the queue, ``(1 - g) avg + g Q``: RED's average (weight
    ``w_q``, above) and EWA's (ewa 3.2: "avg(t) = (1 - g) avg(t-) + g Q(t)", gain 1/128)."""
    return (1.0 - gain) * average + gain * queue


@jit
def red_average(avg, queue_packets, weight, idle_ns, packet_ns):
    """The new average queue (packets) at a packet's arrival: the EWMA with weight ``w_q`` of the
    queue ``queue_packets`` found, or, at an empty queue idle for ``idle_ns``, the decay as if
    ``idle_ns / packet_ns`` empty packets had been counted."""
    if queue_packets > 0:
        return filtered_average(avg, queue_packets, weight)
    return avg * (1.0 - weight) ** (idle_ns / packet_ns)


@jit
def red_drop_probability(avg, count, min_th, max_th, max_p, gentle):
    """``p_a`` after ``count`` packets accepted since the last drop (count already incremented for
    this one): ``p_b / (1 - count p_b)``, at most 1. The spacing: drops fall about every ``1 / p_b``
    packets instead of geometrically. ``p_b`` rises linearly from 0 at min_th to max_p at max_th, and
    with ``gentle`` on from max_p at max_th to 1 at 2 max_th (Floyd, "Recommendation on using the
    ``gentle_`` variant of RED", 2000; not in ewa's time, a study only)."""
    if avg < max_th:
        p_b = max_p * (avg - min_th) / (max_th - min_th)
    elif gentle:
        p_b = max_p + (1.0 - max_p) * (avg - max_th) / max_th
    else:
        return 1.0
    if count * p_b >= 1.0:
        return 1.0
    return p_b / (1.0 - count * p_b)


@jit
def red_decision(avg, count, min_th, max_th, max_p, gentle, u):
    """One arriving packet: ``(drop, forced, new count)``, with ``u`` a uniform draw in [0, 1);
    ``forced``: dropped with the average at or above max_th."""
    if avg < min_th:
        return False, False, -1
    if avg >= (2.0 * max_th if gentle else max_th):
        return True, True, 0
    count += 1
    if u < red_drop_probability(avg, count, min_th, max_th, max_p, gentle):
        return True, avg >= max_th, 0
    return False, False, count
