"""The retransmission and delayed-ACK timers and the RTT estimate, after 4.4BSD.

Timers follow 4.4BSD's tick-based retransmission timer, which goyal1998 section 2 describes
("the number of ticks of the timer"): an RTT sample is ``1 + tick boundaries crossed``,
smoothed with Jacobson/Karels in scaled integers (srtt x8, rttvar x4), and a timer armed
at ``t`` for ``n`` ticks expires at the ``n``-th tick boundary after ``t``. 4.4BSD times one
segment per window; with ``C_TIMESTAMPS`` (lakshman 3: "We also assumed the timestamp option ...
Round trip times were estimated ignoring ambiguous ACKs as in [8]") every ACK of new data gives
a sample, from the send time it echoes (:func:`timestamp_sample`).

Each armed timer has one entry in the event heap, re-queued when its deadline moved.

With ``C_SEG_TIMERS`` (``TcpConfig.retransmit_timers = "per_segment"``) every segment has its own
retransmission deadline, set when it is (re)transmitted (table ``seg_rto``), as in OPNET 2.4's TCP
that cheon section 2 describes ("each packet being transmitted from the source node has its own RTO
timer"); the connection's timer then only wakes the sender at or before the earliest of them
(:func:`segment_timer_set`, :func:`expired_segment`, :func:`segment_timer_rearm`).
"""
from .heap import heap_push, next_seq
from .jit import jit
from .layout import (
    C_GRAN_NS, C_RTT_SAMPLES, C_RTT_START, C_RTT_TIMING, C_RTTMIN, C_RTTVAR, C_RXTCUR, C_RXTMAX, C_RXTSHIFT,
    C_MSS, C_SEG_MASK, C_SND_MAX, C_SND_UNA, C_SRTT, C_TICK_PHASE_NS, C_TIMER_DEADLINE, C_TIMER_QUEUED,
    EV_RTO,
)
from .state import itab, nonneg, T_CONN, T_SEG_RTO

MAX_RXTSHIFT = 12


@jit
def schedule_timer(S, c, deadline, col_deadline, col_queued, kind):
    """Arm a per-connection timer; reuse its pending heap entry when it is not later."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    conn[c, col_deadline] = deadline
    queued = conn[c, col_queued]
    if queued < 0 or queued > deadline:
        conn[c, col_queued] = deadline
        heap_push(S, deadline, next_seq(S), kind, c)


@jit
def timer_expires(S, c, t, col_deadline, col_queued, kind):
    """Called when a timer's heap entry comes due; True if the timer really expires now."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    if conn[c, col_queued] != t:
        return False  # an entry superseded by an earlier one
    conn[c, col_queued] = -1
    deadline = conn[c, col_deadline]
    if deadline < 0:
        return False
    if deadline > t:
        schedule_timer(S, c, deadline, col_deadline, col_queued, kind)
        return False
    conn[c, col_deadline] = -1
    return True


@jit
def rto_deadline(S, c, t):
    """When a retransmission timer started at ``t`` expires: ``rxtcur`` ticks of the host's clock
    (ticks at ``C_TICK_PHASE_NS + k * C_GRAN_NS``)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    g = conn[c, C_GRAN_NS]
    phase = conn[c, C_TICK_PHASE_NS]
    return ((t - phase) // g + conn[c, C_RXTCUR]) * g + phase


@jit
def rto_arm(S, c, t):
    """(Re)start the retransmission timer for ``rxtcur`` ticks (:func:`rto_deadline`)."""
    schedule_timer(S, c, rto_deadline(S, c, t), C_TIMER_DEADLINE, C_TIMER_QUEUED, EV_RTO)


@jit
def segment_timer_set(S, c, seq, t):
    """Per-segment timers: start segment ``seq``'s own timer at its (re)transmission at ``t``, and
    wake the sender no later than its deadline."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    deadline = rto_deadline(S, c, t)
    itab(S, T_SEG_RTO)[c, nonneg((seq // conn[c, C_MSS]) & conn[c, C_SEG_MASK])] = deadline
    current = conn[c, C_TIMER_DEADLINE]
    if current < 0 or deadline < current:
        schedule_timer(S, c, deadline, C_TIMER_DEADLINE, C_TIMER_QUEUED, EV_RTO)


@jit
def expired_segment(S, c, t):
    """Per-segment timers: the lowest outstanding segment (bytes) whose timer has expired at ``t``; -1: none."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    seg_rto = itab(S, T_SEG_RTO)
    mss = conn[c, C_MSS]
    mask = conn[c, C_SEG_MASK]
    for s in range(conn[c, C_SND_UNA] // mss, conn[c, C_SND_MAX] // mss):
        if seg_rto[c, nonneg(s & mask)] <= t:
            return s * mss
    return -1


@jit
def segment_timer_rearm(S, c):
    """Per-segment timers: wake the sender at the earliest deadline of the outstanding segments
    (the timer stays off when none is outstanding)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    seg_rto = itab(S, T_SEG_RTO)
    mss = conn[c, C_MSS]
    mask = conn[c, C_SEG_MASK]
    earliest = -1
    for s in range(conn[c, C_SND_UNA] // mss, conn[c, C_SND_MAX] // mss):
        d = seg_rto[c, nonneg(s & mask)]
        if earliest < 0 or d < earliest:
            earliest = d
    if earliest >= 0:
        schedule_timer(S, c, earliest, C_TIMER_DEADLINE, C_TIMER_QUEUED, EV_RTO)


@jit
def clamp(x, lo, hi):
    """``x`` bounded to ``[lo, hi]``."""
    return min(max(x, lo), hi)


@jit
def rtt_sample(S, c, t):
    """4.4BSD ``tcp_xmit_timer``: fold one RTT sample (in ticks) into srtt and rttvar."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    g = conn[c, C_GRAN_NS]
    phase = conn[c, C_TICK_PHASE_NS]
    ticks = 1 + (t - phase) // g - (conn[c, C_RTT_START] - phase) // g
    srtt = conn[c, C_SRTT]
    rttvar = conn[c, C_RTTVAR]
    if srtt != 0:
        delta = ticks - 1 - (srtt >> 3)
        srtt += delta
        if srtt <= 0:
            srtt = 1
        if delta < 0:
            delta = -delta
        delta -= rttvar >> 2
        rttvar += delta
        if rttvar <= 0:
            rttvar = 1
    else:
        srtt = ticks << 3
        rttvar = ticks << 1
    conn[c, C_SRTT] = srtt
    conn[c, C_RTTVAR] = rttvar
    conn[c, C_RTT_SAMPLES] += 1
    conn[c, C_RTT_TIMING] = 0
    conn[c, C_RXTSHIFT] = 0
    conn[c, C_RXTCUR] = clamp((srtt >> 3) + rttvar, conn[c, C_RTTMIN], conn[c, C_RXTMAX])


@jit
def timestamp_sample(S, c, echo, t):
    """RFC 1323 round-trip measurement (lakshman 3: "We also assumed the timestamp option"): an
    ACK of new data echoes the send time of the segment that made the receiver send it, and gives
    a sample unless that segment was a retransmission (``echo < 0``): "Round trip times were
    estimated ignoring ambiguous ACKs as in [8]" (Karn and Partridge)."""
    c = nonneg(c)
    if echo >= 0:
        itab(S, T_CONN)[c, C_RTT_START] = echo
        rtt_sample(S, c, t)


@jit
def back_off(S, c):
    """4.4BSD on a timeout: double the timer (up to x64), forget srtt after 4 backoffs."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    shift = min(conn[c, C_RXTSHIFT] + 1, MAX_RXTSHIFT)
    conn[c, C_RXTSHIFT] = shift
    base = (conn[c, C_SRTT] >> 3) + conn[c, C_RTTVAR]
    conn[c, C_RXTCUR] = clamp(base * min(1 << shift, 64), conn[c, C_RTTMIN], conn[c, C_RXTMAX])
    if shift > MAX_RXTSHIFT // 4:
        conn[c, C_RTTVAR] += conn[c, C_SRTT] >> 3
        conn[c, C_SRTT] = 0
