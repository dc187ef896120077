"""A data segment onto the wire: its counters, RTT timing, the retransmission timer, and the
scripted losses of tests and figures (``Connection.lost_segments``).

Segments are always full size (persistent sources); sequence numbers are bytes from 0.
"""
from .jit import jit
from .layout import (
    C_BYTES_SENT, C_DATA_VC, C_MSS, C_NLOSS, C_RETRANSMITS, C_RTT_SEQ, C_RTT_START, C_RTT_TIMING,
    C_SCRIPTED_LOSSES, C_SEG_TIMERS, C_SEGS_SENT, C_SND_MAX, C_TIMER_DEADLINE, PKT_TS, TR_SEQ_SENT, V_DATA_CELLS,
)
from .packets import transmit
from .ports import alloc_packet
from .state import itab, nonneg, T_CONN, T_LOSS, T_PKT, T_VC
from .tcp_timers import rto_arm, segment_timer_set
from .tcp_trace import trace


@jit
def scripted_loss(S, c, seq):
    """True if the first transmission of segment ``seq`` is to be lost (tests, figures)."""
    conn = itab(S, T_CONN)
    loss = itab(S, T_LOSS)
    seg = seq // conn[c, C_MSS]
    for i in range(conn[c, C_NLOSS]):
        if loss[c, i] == seg:
            return True
    return False


@jit
def send_segment(S, c, seq, t):
    """Put the full-size segment starting at ``seq`` on the wire."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    vc = itab(S, T_VC)
    v = conn[c, C_DATA_VC]
    mss = conn[c, C_MSS]
    conn[c, C_SEGS_SENT] += 1
    conn[c, C_BYTES_SENT] += mss
    first_transmission = seq >= conn[c, C_SND_MAX]
    if first_transmission:
        conn[c, C_SND_MAX] = seq + mss
        if conn[c, C_RTT_TIMING] == 0:
            conn[c, C_RTT_TIMING] = 1
            conn[c, C_RTT_SEQ] = seq
            conn[c, C_RTT_START] = t
    else:
        conn[c, C_RETRANSMITS] += 1
    if conn[c, C_SEG_TIMERS] == 1:
        segment_timer_set(S, c, seq, t)
    elif conn[c, C_TIMER_DEADLINE] < 0:
        rto_arm(S, c, t)
    trace(S, c, TR_SEQ_SENT, seq, t)
    if first_transmission and conn[c, C_NLOSS] > 0 and scripted_loss(S, c, seq):
        conn[c, C_SCRIPTED_LOSSES] += 1
        return
    k = alloc_packet(S, v, seq, 0, vc[v, V_DATA_CELLS])
    if k >= 0:
        pkt = itab(S, T_PKT)
        pkt[k, PKT_TS] = t if first_transmission else -1  # Karn: a retransmission's echo is ambiguous
        transmit(S, v, k, t)
