"""TCP sender and receiver over one flow-state row (``conn[c, :]``, ``connf[c, :]``): sending,
ACKs in, data in, ACKs out, and the timers' expiries.

The four flavours are rows of a table over three axes (after ns-3's ``TcpCongestionOps`` and
``TcpRecoveryOps``); the compiler writes each connection's codes (:data:`atmtcp.model.FLAVOR_AXES`),
and every branch of the kernel reads the axis it is about:

============  ===================  ==================================
flavour       loss detection       recovery
============  ===================  ==================================
vanilla       ``DETECT_TIMEOUT``   ``RECOVERY_NONE``: go-back-N
reno          ``DETECT_DUPACKS``   ``RECOVERY_RENO``: fast recovery
newreno       ``DETECT_DUPACKS``   ``RECOVERY_NEWRENO``: + partial ACKs
sack          ``DETECT_SACK``      ``RECOVERY_SACK``: PIPE (5.4.1-2)
============  ===================  ==================================

- window growth, the same code for every flavour, its rules per connection (``INC_*``, ``SS_*``,
  ``C_RECOVERY_OPENS``): slow start, congestion avoidance and ssthresh
  (:mod:`atmtcp.kernel.tcp_growth`);
- loss detection: a timeout only, or also three duplicate ACKs (:func:`duplicate_ack`), or also
  the SACK option, whose receiver reports blocks and sender keeps a scoreboard
  (:mod:`atmtcp.kernel.tcp_sack`);
- recovery: enter at the third duplicate ACK, then duplicate, partial and full ACKs
  (:mod:`atmtcp.kernel.tcp_recovery`).

Segments are always full size (persistent sources); sequence numbers are bytes from 0,
and ``seq // mss`` indexes the scoreboards. The timers and the RTT estimate are 4.4BSD's
(:mod:`atmtcp.kernel.tcp_timers`).
"""
from .aal5 import packet_cells
from .jit import jit
from .layout import (
    APP_SEND_LIMIT, C_ACK_DELAY_NS, C_ACK_VC, C_ACKS_SENT, C_DELACK, C_DELACK_DEADLINE, C_DELACK_NS,
    C_DELACK_PENDING, C_DELACK_QUEUED, C_DUPACKS, C_IN_RECOVERY, C_LAST_RCVD_SEG, C_LOSS_DETECTION, C_MEASURE_NS,
    C_MSS, C_OOO_SEGS, C_RCV_NXT, C_RCV_WND, C_RECOVERY, C_RTT_SEQ, C_RTT_TIMING, C_SEG_MASK, C_SEGS_RECEIVED,
    C_SEG_TIMERS, C_SEND_HIGH, C_SND_MAX, C_SND_NXT, C_SND_UNA, C_SND_WND, C_START_NS, C_TIMEOUT_GUARD, C_TIMEOUTS,
    C_TIMER_DEADLINE, C_TIMESTAMPS, C_TS_RECENT, DETECT_SACK, DETECT_TIMEOUT, EV_DELACK, CF_CWND, PKT_NSACK, PKT_SEQ,
    PKT_TS, PKT_WND, RECOVERY_SACK, RS_NBLK, TR_ACK_RCVD, TR_TIMEOUT, V_HEADER_BYTES,
)
from .packets import transmit
from .ports import alloc_packet
from .state import btab, ftab, itab, nonneg, T_APP, T_CONN, T_CONNF, T_PKT, T_RB, T_RSACK, T_VC
from .tcp_growth import halve_window, open_window
from .tcp_recovery import fast_retransmit, on_ack_in_recovery, on_dupack_in_recovery, sack_output
from .tcp_sack import build_sack_blocks, clear_scoreboard, mark_sacked, reset_scoreboard
from .tcp_send import send_segment
from .tcp_timers import (
    back_off, expired_segment, rto_arm, rtt_sample, schedule_timer, segment_timer_rearm, timestamp_sample,
)
from .tcp_trace import trace, trace_window

cells_for = jit(packet_cells)
"""AAL5 cells of a packet (:func:`atmtcp.kernel.aal5.packet_cells`), compiled for the kernel."""


# --- sending -------------------------------------------------------------------------------------
@jit
def tcp_output(S, c, t):
    """Send what the window allows: ``min(cwnd, advertised window)`` beyond ``snd_una``, and
    nothing at or above the application's send limit once it has closed or is OFF
    (:mod:`atmtcp.kernel.applications`). The advertised window is the last ACK's: a smaller one
    "takes effect immediately" (ewa 3.1), and a window that shrank below what is in flight sends
    nothing until the ACKs catch up; cwnd itself is not changed by it (4.4BSD: it grows on every
    ACK of new data up to the largest window the scale allows). A SACK sender in recovery sends
    by PIPE instead (:func:`atmtcp.kernel.tcp_recovery.sack_output`)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    if t < conn[c, C_START_NS]:
        return
    if conn[c, C_RECOVERY] == RECOVERY_SACK and conn[c, C_IN_RECOVERY] == 1:
        sack_output(S, c, t)
        return
    mss = conn[c, C_MSS]
    window = min(int(connf[c, CF_CWND]), conn[c, C_SND_WND])
    limit = min(conn[c, C_SND_UNA] + window, itab(S, T_APP)[c, APP_SEND_LIMIT])  # a closed application sends no new data
    while conn[c, C_SND_NXT] + mss <= limit:
        nxt = conn[c, C_SND_NXT]
        conn[c, C_SND_NXT] = nxt + mss
        send_segment(S, c, nxt, t)


@jit
def time_out(S, c, s, t):
    """The response to a retransmission timeout on segment ``s``, whichever timer fired: a timeout
    counted, ``send_high`` set (RFC 2582, see :func:`duplicate_ack`), back off, ssthresh from goyal1998
    section 2 (:func:`halve_window`), cwnd = 1 segment, recovery left, no RTT timing, and SACK's
    scoreboard forgotten (goyal1998 5.4.1). The caller retransmits."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    conn[c, C_TIMEOUTS] += 1
    conn[c, C_SEND_HIGH] = conn[c, C_SND_MAX]
    trace(S, c, TR_TIMEOUT, s, t)
    back_off(S, c)
    halve_window(S, c)
    connf[c, CF_CWND] = conn[c, C_MSS]
    conn[c, C_DUPACKS] = 0
    conn[c, C_IN_RECOVERY] = 0
    conn[c, C_RTT_TIMING] = 0
    if conn[c, C_LOSS_DETECTION] == DETECT_SACK:
        reset_scoreboard(S, c)
    trace_window(S, c, t)


@jit
def segment_timeout(S, c, t):
    """Per-segment retransmission timers (``TcpConfig.retransmit_timers = "per_segment"``), OPNET
    2.4's TCP as cheon section 2 describes it: "each packet being transmitted from the source node
    has its own RTO timer so that once a timeout occurs, many subsequent timeouts generally follow".

    The sender wakes at the earliest deadline of its outstanding segments. If the lowest outstanding
    segment ``s`` whose own timer has expired exists, the sender times out on it with the usual
    response (a timeout counted, back off, ssthresh, cwnd = 1 segment, recovery left, SACK's
    scoreboard forgotten) and retransmits ``s``, which restarts ``s``'s timer with the backed-off
    RTO. When ``s`` is ``snd_una`` this is :func:`on_timeout`'s go-back-N; a later segment (whose
    timer was started at its own transmission, before the first timeout) is retransmitted alone,
    the window having shrunk to one segment. The segments sent in the round trip before the first
    timeout thus time out in turn unless an ACK covers them first: each is a timeout of its own."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    s = expired_segment(S, c, t)
    if s >= 0:
        una = conn[c, C_SND_UNA]
        time_out(S, c, s, t)
        if s == una:
            conn[c, C_SND_NXT] = una + conn[c, C_MSS]
        send_segment(S, c, s, t)
    segment_timer_rearm(S, c)


@jit
def on_timeout(S, c, t):
    """Retransmission timeout: back off, ssthresh from goyal1998 section 2, cwnd = 1
    segment, go back N; SACK forgets its scoreboard (goyal1998 5.4.1). With per-segment timers
    the connection's timer only wakes the sender (:func:`segment_timeout`)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    if conn[c, C_SEG_TIMERS] == 1:
        segment_timeout(S, c, t)
        return
    una = conn[c, C_SND_UNA]
    time_out(S, c, una, t)
    conn[c, C_SND_NXT] = una
    rto_arm(S, c, t)
    tcp_output(S, c, t)


# --- ACKs in --------------------------------------------------------------------------------------
@jit
def new_ack(S, c, ack, t, echo):
    """An ACK above ``snd_una`` (echoing the send time ``echo``, see
    :func:`atmtcp.kernel.tcp_timers.timestamp_sample`): RTT sample, clear the scoreboard below it,
    continue or leave recovery, or grow the window."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    una = conn[c, C_SND_UNA]
    if conn[c, C_TIMESTAMPS] == 1:
        timestamp_sample(S, c, echo, t)
    elif conn[c, C_RTT_TIMING] == 1 and ack > conn[c, C_RTT_SEQ]:
        rtt_sample(S, c, t)
    conn[c, C_SND_UNA] = ack
    if conn[c, C_SND_NXT] < ack:
        conn[c, C_SND_NXT] = ack
    if conn[c, C_LOSS_DETECTION] == DETECT_SACK:
        mss = conn[c, C_MSS]
        clear_scoreboard(S, c, una // mss, ack // mss)
    if conn[c, C_IN_RECOVERY] == 1:
        on_ack_in_recovery(S, c, ack, una, t)
    else:
        conn[c, C_DUPACKS] = 0
        open_window(S, c)
    if ack >= conn[c, C_SND_MAX]:
        conn[c, C_TIMER_DEADLINE] = -1
    elif conn[c, C_SEG_TIMERS] == 0:  # per-segment timers keep running (segment_timeout)
        rto_arm(S, c, t)


@jit
def duplicate_ack(S, c, t):
    """An ACK for ``snd_una`` while data is outstanding; a connection that detects losses by
    timeout only (vanilla) ignores it.

    With the timeout guard (New Reno and SACK by default), three duplicate ACKs trigger a
    fast retransmit only if they acknowledge data above ``send_high``, the highest byte
    sent before the last timeout (Hoe; RFC 2582 "send_high"): after a timeout, go-back-N
    re-sends segments the receiver already holds, and their duplicate ACKs are no sign of
    a new loss.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    if conn[c, C_LOSS_DETECTION] == DETECT_TIMEOUT:
        return
    dupacks = conn[c, C_DUPACKS] + 1
    conn[c, C_DUPACKS] = dupacks
    if conn[c, C_IN_RECOVERY] == 1:
        on_dupack_in_recovery(S, c)
    elif dupacks == 3 and not (conn[c, C_TIMEOUT_GUARD] == 1 and conn[c, C_SND_UNA] <= conn[c, C_SEND_HIGH]):
        fast_retransmit(S, c, t)


@jit
def sender_receive_ack(S, c, k, t):
    """The sender of connection ``c`` receives ACK packet ``k``; its advertised window becomes the
    send window (RFC 793's SND.WND; ACKs arrive in order here, so each is the newest)."""
    c = nonneg(c)
    k = nonneg(k)
    conn = itab(S, T_CONN)
    pkt = itab(S, T_PKT)
    ack = pkt[k, PKT_SEQ]
    conn[c, C_SND_WND] = pkt[k, PKT_WND]
    trace(S, c, TR_ACK_RCVD, ack, t)
    if conn[c, C_LOSS_DETECTION] == DETECT_SACK and pkt[k, PKT_NSACK] > 0:
        mark_sacked(S, c, k)
    una = conn[c, C_SND_UNA]
    if ack > una:
        new_ack(S, c, ack, t, pkt[k, PKT_TS])
    elif ack == una and conn[c, C_SND_MAX] > una:
        duplicate_ack(S, c, t)
    trace_window(S, c, t)
    tcp_output(S, c, t)


# --- the receiver --------------------------------------------------------------------------------
@jit
def send_ack(S, c, t):
    """Send a cumulative ACK (with SACK blocks when out-of-order data is buffered); its cells reach
    the NIC ``C_ACK_DELAY_NS`` later (0 but in lakshman's runs). Every ACK is delayed alike, so
    the NIC, a FIFO, still receives them in order."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    rsack = itab(S, T_RSACK)
    vc = itab(S, T_VC)
    v = conn[c, C_ACK_VC]
    with_sack = conn[c, C_LOSS_DETECTION] == DETECT_SACK and conn[c, C_OOO_SEGS] > 0
    option_bytes = 2 + 2 + 8 * 3 if with_sack else 0  # NOP NOP kind len + up to 3 blocks
    k = alloc_packet(S, v, conn[c, C_RCV_NXT], conn[c, C_RCV_WND],
                     cells_for(option_bytes, vc[v, V_HEADER_BYTES]))
    if k < 0:
        return
    if with_sack:
        build_sack_blocks(S, c, k)
    else:
        rsack[c, RS_NBLK] = 0
    itab(S, T_PKT)[k, PKT_TS] = conn[c, C_TS_RECENT]
    conn[c, C_ACKS_SENT] += 1
    conn[c, C_DELACK_PENDING] = 0
    conn[c, C_DELACK_DEADLINE] = -1
    transmit(S, v, k, t + conn[c, C_ACK_DELAY_NS])


@jit
def receiver_input(S, c, k, t):
    """The receiver of connection ``c`` gets data segment ``k``.

    In-order data is delivered to the application at once (which makes the advertised
    window constant); out-of-order segments inside the window are buffered and answered
    with an immediate duplicate ACK. With delayed ACKs, in-order data is acknowledged
    every second segment or when the delayed-ACK timer expires.
    """
    c = nonneg(c)
    k = nonneg(k)
    conn = itab(S, T_CONN)
    pkt = itab(S, T_PKT)
    rb = btab(S, T_RB)
    mss = conn[c, C_MSS]
    mask = conn[c, C_SEG_MASK]
    seq = pkt[k, PKT_SEQ]
    nxt = conn[c, C_RCV_NXT]
    had_ooo = conn[c, C_OOO_SEGS] > 0
    if seq == nxt:
        conn[c, C_TS_RECENT] = pkt[k, PKT_TS]  # RFC 1323: TS.Recent from the segment at the left edge
        if t >= conn[c, C_MEASURE_NS]:
            conn[c, C_SEGS_RECEIVED] += 1
        nxt += mss
        while rb[c, (nxt // mss) & mask] != 0:
            rb[c, (nxt // mss) & mask] = 0
            conn[c, C_OOO_SEGS] -= 1
            nxt += mss
        conn[c, C_RCV_NXT] = nxt
        if conn[c, C_DELACK] == 1 and not had_ooo:
            pending = conn[c, C_DELACK_PENDING] + 1
            conn[c, C_DELACK_PENDING] = pending
            if pending < 2:
                if conn[c, C_DELACK_DEADLINE] < 0:
                    schedule_timer(S, c, t + conn[c, C_DELACK_NS], C_DELACK_DEADLINE,
                                   C_DELACK_QUEUED, EV_DELACK)
                return
    elif nxt < seq and seq + mss <= nxt + conn[c, C_RCV_WND]:
        slot = (seq // mss) & mask
        if rb[c, slot] == 0:
            rb[c, slot] = 1
            conn[c, C_OOO_SEGS] += 1
            if t >= conn[c, C_MEASURE_NS]:
                conn[c, C_SEGS_RECEIVED] += 1
        conn[c, C_LAST_RCVD_SEG] = seq // mss
    send_ack(S, c, t)


@jit
def delayed_ack_expires(S, c, t):
    """The delayed-ACK timer of connection ``c`` expired."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    if conn[c, C_DELACK_PENDING] > 0:
        send_ack(S, c, t)
