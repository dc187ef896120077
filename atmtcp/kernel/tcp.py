"""TCP sender and receiver over one flow-state row (``conn[c, :]``, ``connf[c, :]``).

The four flavours are rows of a table over three axes (after ns-3's TCP):

============  =====================  ==============================
flavour       loss detection         recovery
============  =====================  ==============================
vanilla       timeout only           slow start, go-back-N
reno          3 duplicate ACKs       fast retransmit + fast recovery
newreno       3 duplicate ACKs       + partial ACKs (RECOVER)
sack          3 dup ACKs + SACK      New Reno + PIPE (goyal1998 5.4.1-2)
============  =====================  ==============================

Segments are always full size (persistent sources); sequence numbers are bytes from 0,
and ``seq // mss`` indexes the scoreboards.

Timers follow 4.4BSD's tick-based retransmission timer, which goyal1998 section 2 describes
("the number of ticks of the timer"): an RTT sample is ``1 + tick boundaries crossed``,
smoothed with Jacobson/Karels in scaled integers (srtt x8, rttvar x4), and a timer armed
at ``t`` for ``n`` ticks expires at the ``n``-th tick boundary after ``t``. 4.4BSD times one
segment per window; with ``C_TIMESTAMPS`` (lakshman 3: "We also assumed the timestamp option ...
Round trip times were estimated ignoring ambiguous ACKs as in [8]") every ACK of new data gives
a sample, from the send time it echoes (:func:`timestamp_sample`).
"""
from .aal5 import packet_cells
from .heap import heap_push, next_seq
from .state import btab, ftab, fvec, itab, ivec, nonneg, unliteral, T_APP, T_CONN, T_CONNF, T_G, T_PKT, T_RB, T_RSACK, T_SB, T_TRACE_I, T_TRACE_T, T_TRACE_V, T_VC, T_LOSS
from .jit import jit
from .layout import (
    A_SEND_LIMIT, C_ACK_COUNT, C_ACK_DELAY_NS, C_ACK_VC, C_ACKS_SENT, C_BYTES_SENT, C_DATA_VC, C_DELACK,
    C_DELACK_DEADLINE, C_DELACK_NS, C_DELACK_PENDING, C_DELACK_QUEUED, C_DUPACKS,
    C_FAST_RETRANSMITS, C_FLAVOR, C_GRAN_NS, C_HIGH_SACK, C_HOLE_PTR, C_IN_RECOVERY,
    C_INCREASE_N, C_INCREASE_RULE, C_LAST_RCVD_SEG, C_MAX_CWND, C_MSS, C_OOO_SEGS, C_PIPE,
    C_RCV_NXT, C_RCV_WND, C_RECOVER, C_RECOVERY_OPENS, C_RETRANSMITS, C_RTT_SEQ, C_RTT_START, C_RTT_TIMING,
    C_RTT_SAMPLES, C_RTTMIN, C_RTTVAR, C_RXTCUR, C_RXTMAX, C_RXTSHIFT, C_SB_MASK, C_SEGS_SENT, C_SND_MAX,
    C_SND_NXT, C_SND_UNA, C_SRTT, C_START_NS, C_TIMEOUTS, C_TIMER_DEADLINE, C_TIMER_QUEUED,
    C_MEASURE_NS, C_NLOSS, C_SCRIPTED_LOSSES, C_SEGS_RECEIVED, C_SEND_HIGH, C_SND_WND, C_SSTHRESH_RULE, C_TIMEOUT_GUARD,
    C_SACK_PIPE_START, C_TICK_PHASE_NS, C_TIMESTAMPS, C_TRACE, C_TS_RECENT,
    EV_DELACK, EV_RTO, F_CWND, F_SSTHRESH, G_TRACE_LEN, G_TRACE_T0, G_TRACE_T1,
    G_TRACE_TRUNCATED, INC_BSD, INC_FLOAT, INC_INTEGER, K_NSACK, K_S0, K_SEQ, K_TS, K_WND, NEWRENO, PIPE_CWND, RENO,
    RS_L0, RS_NBLK, RS_R0, SACK, SS_BSD, TR_ACK_RCVD, TR_CWND, TR_FAST_RETRANSMIT, TR_SEQ_SENT,
    TR_SSTHRESH, TR_TIMEOUT, V_DATA_CELLS, V_HEADER_BYTES, VANILLA,
)
from .packets import transmit
from .ports import alloc_packet

SACKED = 1
RETRANSMITTED = 2
MAX_RXTSHIFT = 12

cells_for = jit(packet_cells)
"""AAL5 cells of a packet (:func:`atmtcp.kernel.aal5.packet_cells`), compiled for the kernel."""


# --- traces --------------------------------------------------------------------------------------
@jit
def trace(S, c, kind, value, t):
    """Record ``value`` of ``kind`` for a traced connection inside the trace window."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    g = ivec(S, T_G)
    trace_i = itab(S, T_TRACE_I)
    trace_t = ivec(S, T_TRACE_T)
    trace_v = fvec(S, T_TRACE_V)
    if conn[c, C_TRACE] == 0 or t < g[G_TRACE_T0] or t > g[G_TRACE_T1]:
        return
    n = g[G_TRACE_LEN]
    if n >= trace_t.shape[0]:
        g[G_TRACE_TRUNCATED] = 1
        return
    trace_t[n] = t
    trace_i[n, 0] = c
    trace_i[n, 1] = kind
    trace_v[n] = value
    g[G_TRACE_LEN] = n + 1


@jit
def trace_window(S, c, t):
    """Record cwnd and ssthresh of a traced connection."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    if conn[c, C_TRACE] != 0:
        trace(S, c, unliteral(TR_CWND), connf[c, F_CWND], t)
        trace(S, c, unliteral(TR_SSTHRESH), connf[c, F_SSTHRESH], t)


# --- timers: one heap entry per armed timer, re-queued when the deadline moved -------------------
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
def rto_arm(S, c, t):
    """(Re)start the retransmission timer for ``rxtcur`` ticks of the host's clock (ticks at
    ``C_TICK_PHASE_NS + k * C_GRAN_NS``)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    g = conn[c, C_GRAN_NS]
    phase = conn[c, C_TICK_PHASE_NS]
    deadline = ((t - phase) // g + conn[c, C_RXTCUR]) * g + phase
    schedule_timer(S, c, deadline, C_TIMER_DEADLINE, C_TIMER_QUEUED, EV_RTO)


@jit
def clamp(x, lo, hi):
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


# --- congestion window ---------------------------------------------------------------------------
@jit
def open_window(S, c):
    """Window growth on an ACK of new data: slow start, or the configured linear increase.

    Slow start adds one segment per ACK (goyal1998 section 2). Congestion avoidance adds
    ``mss*mss/cwnd`` per ACK: in floating point (``float``), as 4.4BSD with its extra
    ``mss/8`` (``bsd``), in integer bytes, which stalls once ``mss*mss < cwnd``
    (``integer``; goyal1997 "A problem in slow start implementations"), or in integer bytes
    once every N ACKs (``integer_every_n``, the slides' Solution 1). Slow start lasts while
    ``cwnd < ssthresh`` (goyal1998 2: "until CWND reaches Ssthresh"); under ``bsd`` while
    ``cwnd <= ssthresh``, 4.4BSD's ``if (cw > tp->snd_ssthresh)`` before the linear increment.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    cwnd = connf[c, F_CWND]
    rule = conn[c, C_INCREASE_RULE]
    ssthresh = connf[c, F_SSTHRESH]
    if cwnd < ssthresh or (rule == INC_BSD and cwnd == ssthresh):
        cwnd += mss
    else:
        if rule == INC_FLOAT:
            cwnd += mss * mss / cwnd
        elif rule == INC_BSD:
            cwnd += (mss * mss) // int(cwnd) + mss // 8
        elif rule == INC_INTEGER:
            cwnd += (mss * mss) // int(cwnd)
        else:
            n = conn[c, C_ACK_COUNT] + 1
            if n >= conn[c, C_INCREASE_N]:
                cwnd += (n * mss * mss) // int(cwnd)
                n = 0
            conn[c, C_ACK_COUNT] = n
    connf[c, F_CWND] = min(cwnd, conn[c, C_MAX_CWND])


@jit
def halve_window(S, c):
    """ssthresh after a loss, in whole segments, at least two; RCVWND is the window the
    receiver's last ACK advertised (``C_SND_WND``).

    - ``half_cwnd``: goyal1998 section 2, ``ssthresh = max{2, min{CWND/2, RCVWND}}``;
    - ``bsd``: 4.4BSD-Lite's ``min(snd_wnd, snd_cwnd) / 2 / t_maxseg`` (tcp_input.c and
      tcp_timer.c), which differs once cwnd exceeds the advertised window.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    wnd = float(conn[c, C_SND_WND])
    if conn[c, C_SSTHRESH_RULE] == SS_BSD:
        half = min(connf[c, F_CWND], wnd) / 2.0
    else:
        half = min(connf[c, F_CWND] / 2.0, wnd)
    connf[c, F_SSTHRESH] = max(2, int(half // mss)) * mss


# --- sending -------------------------------------------------------------------------------------
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
    if conn[c, C_TIMER_DEADLINE] < 0:
        rto_arm(S, c, t)
    trace(S, c, unliteral(TR_SEQ_SENT), seq, t)
    if first_transmission and conn[c, C_NLOSS] > 0 and scripted_loss(S, c, seq):
        conn[c, C_SCRIPTED_LOSSES] += 1
        return
    k = alloc_packet(S, v, seq, 0, vc[v, V_DATA_CELLS])
    if k >= 0:
        pkt = itab(S, T_PKT)
        pkt[k, K_TS] = t if first_transmission else -1  # Karn: a retransmission's echo is ambiguous
        transmit(S, v, k, t)


@jit
def next_hole(S, c):
    """First segment below the highest SACKed one that is neither SACKed nor retransmitted."""
    conn = itab(S, T_CONN)
    sb = btab(S, T_SB)
    mask = conn[c, C_SB_MASK]
    seg = max(conn[c, C_HOLE_PTR], conn[c, C_SND_UNA] // conn[c, C_MSS])
    high = conn[c, C_HIGH_SACK]
    while seg < high:
        if sb[c, seg & mask] == 0:
            conn[c, C_HOLE_PTR] = seg
            return seg
        seg += 1
    conn[c, C_HOLE_PTR] = seg
    return -1


@jit
def retransmit_hole(S, c, seg, t):
    """Retransmit segment ``seg`` and mark it in the scoreboard."""
    conn = itab(S, T_CONN)
    sb = btab(S, T_SB)
    sb[c, seg & conn[c, C_SB_MASK]] |= RETRANSMITTED
    conn[c, C_HOLE_PTR] = seg + 1
    send_segment(S, c, seg * conn[c, C_MSS], t)


@jit
def sack_output(S, c, t):
    """goyal1998 5.4.1: while PIPE < CWND, send holes first, then new data."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    limit = min(conn[c, C_SND_UNA] + conn[c, C_SND_WND], itab(S, T_APP)[c, A_SEND_LIMIT])
    while conn[c, C_PIPE] < connf[c, F_CWND]:
        seg = next_hole(S, c)
        if seg >= 0:
            retransmit_hole(S, c, seg, t)
        else:
            nxt = conn[c, C_SND_NXT]
            if nxt + mss > limit:
                return
            conn[c, C_SND_NXT] = nxt + mss
            send_segment(S, c, nxt, t)
        conn[c, C_PIPE] += mss


@jit
def tcp_output(S, c, t):
    """Send what the window allows: ``min(cwnd, advertised window)`` beyond ``snd_una``, and
    nothing at or above the application's send limit once it has closed or is OFF
    (:mod:`atmtcp.kernel.applications`). The advertised window is the last ACK's: a smaller one
    "takes effect immediately" (ewa 3.1), and a window that shrank below what is in flight sends
    nothing until the ACKs catch up; cwnd itself is not changed by it (4.4BSD: it grows on every
    ACK of new data up to the largest window the scale allows)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    if t < conn[c, C_START_NS]:
        return
    if conn[c, C_FLAVOR] == SACK and conn[c, C_IN_RECOVERY] == 1:
        sack_output(S, c, t)
        return
    mss = conn[c, C_MSS]
    window = min(int(connf[c, F_CWND]), conn[c, C_SND_WND])
    limit = min(conn[c, C_SND_UNA] + window, itab(S, T_APP)[c, A_SEND_LIMIT])  # a closed application sends no new data
    while conn[c, C_SND_NXT] + mss <= limit:
        nxt = conn[c, C_SND_NXT]
        conn[c, C_SND_NXT] = nxt + mss
        send_segment(S, c, nxt, t)


# --- loss recovery -------------------------------------------------------------------------------
@jit
def fast_retransmit(S, c, t):
    """Third duplicate ACK: halve, remember RECOVER, retransmit the first unacked segment.

    Reno and New Reno set ``cwnd = ssthresh + 3`` segments (goyal1998 5.1). For SACK,
    goyal1998 gives two starting values of PIPE:

    - 5.4.1: "When the third duplicate ACK is received, PIPE is set to the value of CWND
      and CWND is reduced by half", with "When a segment is sent, PIPE is incremented by
      one" (which would count the fast retransmission on top: CWND + 1);
    - 5.4.2: "It retransmits the segment, and sets PIPE to CWND - 3, and sets CWND to
      CWND/2".

    ``TcpConfig.sack_pipe_start`` chooses. ``"cwnd"`` is 5.4.1 as written: PIPE = CWND, and
    the fast retransmission, a segment sent, adds one. ``"cwnd-3"`` is 5.4.2: PIPE = CWND - 3
    segments, the fast retransmission included (nothing is added for it). The three duplicate ACKs are three segments that have left
    the pipe, and only this start makes 5.4.1's own statement true that the PIPE
    algorithm "is equivalent to inflating the CWND by one segment for every duplicate
    ACK". With ``W`` = CWND at the loss (in segments), Reno has ``cwnd = W/2 + 3 + k``
    after ``k`` more duplicate ACKs and ``W + s`` segments unacknowledged after sending
    ``s`` new ones, and may send while ``W + s < W/2 + 3 + k``, i.e. while
    ``W - 3 - k + s < W/2``: PIPE = W - 3, decremented per duplicate ACK and incremented
    per segment sent, below the halved CWND. So with a single loss both send the same new
    segments during recovery, and 5.4.2's analysis holds ("CWND/2 - CWND/n" segments in
    the first RTT, one RTT for n >= 4). 5.4.1's start (CWND, +1 for the retransmission)
    sends four segments fewer. Either way PIPE starts from the bytes actually outstanding when they
    are fewer than CWND, since it "indicates how many bytes are currently in the network
    pipe" and CWND may exceed the receiver's window.

    A segment already marked as retransmitted in the SACK table is not retransmitted
    again (5.4.1: "When the sender retransmits a segment, it marks the segment as
    retransmitted in the table. If a retransmitted segment is lost, the sender times-out";
    the entries "remain in the table until the segment is ACKed"). This happens when a
    segment sent during an earlier recovery (above its RECOVER) was lost, retransmitted
    from the SACK information in that recovery, and its duplicate ACKs after the recovery
    ended start this one: the window is halved again (a loss in a later window), but the
    retransmission already in flight is not duplicated.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    una = conn[c, C_SND_UNA]
    cwnd_before = connf[c, F_CWND]
    halve_window(S, c)
    conn[c, C_FAST_RETRANSMITS] += 1
    conn[c, C_RECOVER] = conn[c, C_SND_MAX]
    conn[c, C_IN_RECOVERY] = 1
    conn[c, C_RTT_TIMING] = 0
    trace(S, c, unliteral(TR_FAST_RETRANSMIT), una, t)
    if conn[c, C_FLAVOR] == SACK:
        in_pipe = min(int(cwnd_before), conn[c, C_SND_MAX] - una)
        literal = conn[c, C_SACK_PIPE_START] == PIPE_CWND
        # 5.4.1: PIPE = CWND; 5.4.2: PIPE = CWND - 3, the fast retransmission inside it (see the docstring)
        conn[c, C_PIPE] = in_pipe if literal else max(in_pipe - 3 * mss, 0)
        connf[c, F_CWND] = connf[c, F_SSTHRESH]
        conn[c, C_HOLE_PTR] = una // mss
        sb = btab(S, T_SB)
        if (sb[c, (una // mss) & conn[c, C_SB_MASK]] & RETRANSMITTED) == 0:
            conn[c, C_TIMER_DEADLINE] = -1  # 4.4BSD clears the timer; sending re-arms it
            retransmit_hole(S, c, una // mss, t)
            if literal:
                conn[c, C_PIPE] += mss  # 5.4.1: "When a segment is sent, PIPE is incremented by one"
        # else: already retransmitted (5.4.1); the running timer covers that retransmission
    else:
        conn[c, C_TIMER_DEADLINE] = -1  # 4.4BSD clears the timer; sending re-arms it
        send_segment(S, c, una, t)
        connf[c, F_CWND] = connf[c, F_SSTHRESH] + 3 * mss


@jit
def clear_scoreboard(S, c, first_seg, end_seg):
    """Forget SACK and retransmission marks for segments ``[first_seg, end_seg)``."""
    conn = itab(S, T_CONN)
    sb = btab(S, T_SB)
    mask = conn[c, C_SB_MASK]
    for seg in range(first_seg, end_seg):
        sb[c, seg & mask] = 0


@jit
def on_timeout(S, c, t):
    """Retransmission timeout: back off, ssthresh from goyal1998 section 2, cwnd = 1
    segment, go back N; SACK forgets its scoreboard (goyal1998 5.4.1)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    una = conn[c, C_SND_UNA]
    conn[c, C_TIMEOUTS] += 1
    conn[c, C_SEND_HIGH] = conn[c, C_SND_MAX]  # RFC 2582 send_high (see duplicate_ack)
    trace(S, c, unliteral(TR_TIMEOUT), una, t)
    back_off(S, c)
    halve_window(S, c)
    connf[c, F_CWND] = mss
    conn[c, C_DUPACKS] = 0
    conn[c, C_IN_RECOVERY] = 0
    conn[c, C_RTT_TIMING] = 0
    conn[c, C_SND_NXT] = una
    if conn[c, C_FLAVOR] == SACK:
        clear_scoreboard(S, c, una // mss, conn[c, C_SND_MAX] // mss)
        conn[c, C_HIGH_SACK] = una // mss
        conn[c, C_HOLE_PTR] = una // mss
    trace_window(S, c, t)
    rto_arm(S, c, t)
    tcp_output(S, c, t)


@jit
def mark_sacked(S, c, k):
    """Mark the SACK blocks of ACK packet ``k`` in the sender's scoreboard.

    Walks in from both edges of each block and stops at segments already marked, so each
    segment is marked once; an unmarked run enclosed by marked ones can only be a
    retransmission that filled a hole, which is never retransmitted again anyway.
    """
    c = nonneg(c)
    k = nonneg(k)
    conn = itab(S, T_CONN)
    pkt = itab(S, T_PKT)
    sb = btab(S, T_SB)
    mss = conn[c, C_MSS]
    mask = conn[c, C_SB_MASK]
    lo_limit = conn[c, C_SND_UNA] // mss
    hi_limit = conn[c, C_SND_MAX] // mss
    for b in range(pkt[k, K_NSACK]):
        lo = max(pkt[k, K_S0 + 2 * b] // mss, lo_limit)
        hi = min(pkt[k, K_S0 + 2 * b + 1] // mss, hi_limit)
        seg = hi - 1
        while seg >= lo and (sb[c, seg & mask] & SACKED) == 0:
            sb[c, seg & mask] |= SACKED
            seg -= 1
        seg = lo
        while seg < hi and (sb[c, seg & mask] & SACKED) == 0:
            sb[c, seg & mask] |= SACKED
            seg += 1
        if hi > conn[c, C_HIGH_SACK]:
            conn[c, C_HIGH_SACK] = hi


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
def new_ack(S, c, ack, t, echo):
    """An ACK above ``snd_una`` (echoing the send time ``echo``, see :func:`timestamp_sample`):
    RTT sample, leave or continue recovery, grow the window."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    una = conn[c, C_SND_UNA]
    flavor = conn[c, C_FLAVOR]
    if conn[c, C_TIMESTAMPS] == 1:
        timestamp_sample(S, c, echo, t)
    elif conn[c, C_RTT_TIMING] == 1 and ack > conn[c, C_RTT_SEQ]:
        rtt_sample(S, c, t)
    conn[c, C_SND_UNA] = ack
    if conn[c, C_SND_NXT] < ack:
        conn[c, C_SND_NXT] = ack
    if flavor == SACK:
        clear_scoreboard(S, c, una // mss, ack // mss)
    if conn[c, C_IN_RECOVERY] == 1:
        if flavor == RENO or ack >= conn[c, C_RECOVER]:
            conn[c, C_IN_RECOVERY] = 0  # fast recovery: cwnd = ssthresh, then linear increase
            conn[c, C_DUPACKS] = 0
            connf[c, F_CWND] = connf[c, F_SSTHRESH]
            if conn[c, C_RECOVERY_OPENS] == 1:
                open_window(S, c)
        elif flavor == NEWRENO:
            # partial ACK (goyal1998 5.3): retransmit the next expected segment at once;
            # deflate by the data acknowledged and add one segment back (RFC 2582).
            connf[c, F_CWND] = max(connf[c, F_CWND] - (ack - una) + mss, float(mss))
            send_segment(S, c, ack, t)
        else:
            conn[c, C_PIPE] -= 2 * mss  # 5.4.1: "When a partial ACK is received, PIPE is decremented by two"
    else:
        conn[c, C_DUPACKS] = 0
        open_window(S, c)
    if ack >= conn[c, C_SND_MAX]:
        conn[c, C_TIMER_DEADLINE] = -1
    else:
        rto_arm(S, c, t)


@jit
def duplicate_ack(S, c, t):
    """An ACK for ``snd_una`` while data is outstanding. Vanilla TCP ignores it.

    With the timeout guard (New Reno and SACK by default), three duplicate ACKs trigger a
    fast retransmit only if they acknowledge data above ``send_high``, the highest byte
    sent before the last timeout (Hoe; RFC 2582 "send_high"): after a timeout, go-back-N
    re-sends segments the receiver already holds, and their duplicate ACKs are no sign of
    a new loss.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    flavor = conn[c, C_FLAVOR]
    if flavor == VANILLA:
        return
    dupacks = conn[c, C_DUPACKS] + 1
    conn[c, C_DUPACKS] = dupacks
    if conn[c, C_IN_RECOVERY] == 1:
        if flavor == SACK:
            conn[c, C_PIPE] -= conn[c, C_MSS]
        else:
            connf[c, F_CWND] += conn[c, C_MSS]
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
    ack = pkt[k, K_SEQ]
    conn[c, C_SND_WND] = pkt[k, K_WND]
    trace(S, c, unliteral(TR_ACK_RCVD), ack, t)
    if conn[c, C_FLAVOR] == SACK and pkt[k, K_NSACK] > 0:
        mark_sacked(S, c, k)
    una = conn[c, C_SND_UNA]
    if ack > una:
        new_ack(S, c, ack, t, pkt[k, K_TS])
    elif ack == una and conn[c, C_SND_MAX] > una:
        duplicate_ack(S, c, t)
    trace_window(S, c, t)
    tcp_output(S, c, t)


# --- receiver ------------------------------------------------------------------------------------
@jit
def expand_block(S, c, seg):
    """The run ``[left, right)`` of buffered out-of-order segments containing ``seg``."""
    conn = itab(S, T_CONN)
    rb = btab(S, T_RB)
    mask = conn[c, C_SB_MASK]
    lo_limit = conn[c, C_RCV_NXT] // conn[c, C_MSS]
    left = seg
    while left - 1 > lo_limit and rb[c, (left - 1) & mask] != 0:
        left -= 1
    right = seg + 1
    while rb[c, right & mask] != 0 and right - lo_limit <= mask:
        right += 1
    return left, right


@jit
def first_buffered_segment(S, c):
    """Lowest buffered out-of-order segment (used when the SACK memory is empty)."""
    conn = itab(S, T_CONN)
    rb = btab(S, T_RB)
    mask = conn[c, C_SB_MASK]
    seg = conn[c, C_RCV_NXT] // conn[c, C_MSS] + 1
    while rb[c, seg & mask] == 0:
        seg += 1
    return seg


@jit
def build_sack_blocks(S, c, k):
    """Fill ACK ``k`` with at most 3 SACK blocks, the most recent first (goyal1998 5.4.1).

    The first block holds the most recently received segment; the others repeat the
    previously reported blocks that are still above ``rcv_nxt`` and not merged into the
    first (RFC 2018). Blocks are remembered in segments in ``rsack``.
    """
    c = nonneg(c)
    k = nonneg(k)
    conn = itab(S, T_CONN)
    pkt = itab(S, T_PKT)
    rb = btab(S, T_RB)
    rsack = itab(S, T_RSACK)
    mss = conn[c, C_MSS]
    mask = conn[c, C_SB_MASK]
    floor_seg = conn[c, C_RCV_NXT] // mss
    old_n = rsack[c, RS_NBLK]
    ol0 = rsack[c, RS_L0]
    or0 = rsack[c, RS_R0]
    ol1 = rsack[c, RS_L0 + 2]
    or1 = rsack[c, RS_R0 + 2]
    ol2 = rsack[c, RS_L0 + 4]
    or2 = rsack[c, RS_R0 + 4]
    n = 0
    seg = conn[c, C_LAST_RCVD_SEG]
    if seg > floor_seg and rb[c, seg & mask] != 0:
        left, right = expand_block(S, c, seg)
        n = 1
    elif old_n == 0:
        left, right = expand_block(S, c, first_buffered_segment(S, c))
        n = 1
    else:
        left, right = -1, -1
    if n == 1:
        rsack[c, RS_L0] = left
        rsack[c, RS_R0] = right
    for i in range(old_n):
        if n == 3:
            break
        bl = ol0 if i == 0 else (ol1 if i == 1 else ol2)
        br = or0 if i == 0 else (or1 if i == 1 else or2)
        if bl <= floor_seg or (left <= br and bl <= right):
            continue
        rsack[c, RS_L0 + 2 * n] = bl
        rsack[c, RS_R0 + 2 * n] = br
        n += 1
    rsack[c, RS_NBLK] = n
    pkt[k, K_NSACK] = n
    for b in range(n):
        pkt[k, K_S0 + 2 * b] = rsack[c, RS_L0 + 2 * b] * mss
        pkt[k, K_S0 + 2 * b + 1] = rsack[c, RS_R0 + 2 * b] * mss


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
    with_sack = conn[c, C_FLAVOR] == SACK and conn[c, C_OOO_SEGS] > 0
    option_bytes = 2 + 2 + 8 * 3 if with_sack else 0  # NOP NOP kind len + up to 3 blocks
    k = alloc_packet(S, v, conn[c, C_RCV_NXT], conn[c, C_RCV_WND],
                     cells_for(option_bytes, vc[v, V_HEADER_BYTES]))
    if k < 0:
        return
    if with_sack:
        build_sack_blocks(S, c, k)
    else:
        rsack[c, RS_NBLK] = 0
    itab(S, T_PKT)[k, K_TS] = conn[c, C_TS_RECENT]
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
    mask = conn[c, C_SB_MASK]
    seq = pkt[k, K_SEQ]
    nxt = conn[c, C_RCV_NXT]
    had_ooo = conn[c, C_OOO_SEGS] > 0
    if seq == nxt:
        conn[c, C_TS_RECENT] = pkt[k, K_TS]  # RFC 1323: TS.Recent from the segment at the left edge
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
