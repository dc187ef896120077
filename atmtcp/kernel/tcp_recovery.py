"""Loss recovery, the third of a TCP's three axes (after ns-3's ``TcpRecoveryOps``: ``EnterRecovery``,
``DoRecovery``, ``ExitRecovery``): what the sender does from the third duplicate ACK until the ACK that
covers RECOVER.

Each connection has one recovery, ``C_RECOVERY`` (``layout.RECOVERY_NAMES``), and each recovery that
enters fast recovery has three functions, kept together below: ``<name>_enter`` (the third duplicate
ACK), ``<name>_dupack`` (a duplicate ACK in recovery) and ``<name>_new_ack`` (an ACK of new data in
recovery: a partial ACK, or a full one that ends it with :func:`exit_recovery`):

====================  ===============================  ===================  ==========================
recovery              enter (3rd dup ACK)              dup ACK in recovery  partial ACK
====================  ===============================  ===================  ==========================
``RECOVERY_NONE``     never (timeout only)
``RECOVERY_RENO``     retransmit, cwnd = ssthresh + 3  cwnd += 1 segment    exit: any new ACK ends it
``RECOVERY_NEWRENO``  as Reno                          as Reno              retransmit the next (5.3)
``RECOVERY_SACK``     PIPE, retransmit the first hole  PIPE -= 1 segment    PIPE -= 2 segments (5.4.1)
====================  ===============================  ===================  ==========================

The three dispatchers, :func:`fast_retransmit`, :func:`on_dupack_in_recovery` and
:func:`on_ack_in_recovery`, have one branch per recovery code and stop the run with a ``ValueError``
naming the connection and the code on any other, as :func:`atmtcp.kernel.policies.decide` does for drop
policies: a new recovery without its branches fails instead of acting as another one
(``tests/kernel/test_recovery_registry.py``). ``RECOVERY_NONE`` is vanilla TCP's: its connections detect
losses by timeout only (``DETECT_TIMEOUT``), so they never reach a dispatcher. A SACK sender in recovery
sends by PIPE (:func:`sack_output`) instead of by the window.
"""
from .faults import keep_fault_args
from .jit import jit
from .layout import (
    APP_SEND_LIMIT, C_DUPACKS, C_FAST_RETRANSMITS, C_HOLE_PTR, C_IN_RECOVERY, C_MSS, C_PIPE, C_RECOVER,
    C_RECOVERY, C_RECOVERY_OPENS, C_RTT_TIMING, C_SACK_PIPE_START, C_SEG_MASK, C_SND_MAX, C_SND_NXT, C_SND_UNA,
    C_SEG_TIMERS, C_SND_WND, C_TIMER_DEADLINE, CF_CWND, CF_SSTHRESH, PIPE_CWND, RECOVERY_NEWRENO, RECOVERY_RENO,
    RECOVERY_SACK, TR_FAST_RETRANSMIT,
)
from .state import btab, ftab, itab, nonneg, T_APP, T_CONN, T_CONNF, T_SB
from .tcp_growth import halve_window, open_window
from .tcp_sack import RETRANSMITTED, next_hole, retransmit_hole
from .tcp_send import send_segment
from .tcp_trace import trace

UNKNOWN_RECOVERY = ("recovery code not in atmtcp.kernel.layout.RECOVERY_NAMES, or one without fast recovery "
                    "(connection, code):")


# --- the dispatchers: one branch per recovery code ----------------------------------------------------
@jit
def fast_retransmit(S, c, t):
    """Third duplicate ACK (goyal1998 5.1): halve, remember RECOVER, the highest sequence number
    sent (5.3), and enter the connection's recovery (its ``<name>_enter``)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    cwnd_before = ftab(S, T_CONNF)[c, CF_CWND]
    halve_window(S, c)
    conn[c, C_FAST_RETRANSMITS] += 1
    conn[c, C_RECOVER] = conn[c, C_SND_MAX]
    conn[c, C_IN_RECOVERY] = 1
    conn[c, C_RTT_TIMING] = 0
    trace(S, c, TR_FAST_RETRANSMIT, conn[c, C_SND_UNA], t)
    recovery = conn[c, C_RECOVERY]
    if recovery == RECOVERY_RENO:
        reno_enter(S, c, cwnd_before, t)
    elif recovery == RECOVERY_NEWRENO:
        newreno_enter(S, c, cwnd_before, t)
    elif recovery == RECOVERY_SACK:
        sack_enter(S, c, cwnd_before, t)
    else:
        keep_fault_args(S, 2, c, recovery, 0)
        raise ValueError(UNKNOWN_RECOVERY)


@jit
def on_dupack_in_recovery(S, c):
    """A duplicate ACK in recovery, one segment that has left the network: the connection's
    ``<name>_dupack``."""
    c = nonneg(c)
    recovery = itab(S, T_CONN)[c, C_RECOVERY]
    if recovery == RECOVERY_RENO:
        reno_dupack(S, c)
    elif recovery == RECOVERY_NEWRENO:
        newreno_dupack(S, c)
    elif recovery == RECOVERY_SACK:
        sack_dupack(S, c)
    else:
        keep_fault_args(S, 2, c, recovery, 0)
        raise ValueError(UNKNOWN_RECOVERY)


@jit
def on_ack_in_recovery(S, c, ack, una, t):
    """An ACK of new data in recovery (``una``: snd_una before it): the connection's ``<name>_new_ack``.
    A full ACK, covering RECOVER, ends every recovery, and Reno's ends at any new ACK; a partial ACK
    keeps New Reno and SACK in it."""
    c = nonneg(c)
    recovery = itab(S, T_CONN)[c, C_RECOVERY]
    if recovery == RECOVERY_RENO:
        reno_new_ack(S, c, ack, una, t)
    elif recovery == RECOVERY_NEWRENO:
        newreno_new_ack(S, c, ack, una, t)
    elif recovery == RECOVERY_SACK:
        sack_new_ack(S, c, ack, una, t)
    else:
        keep_fault_args(S, 2, c, recovery, 0)
        raise ValueError(UNKNOWN_RECOVERY)


@jit
def exit_recovery(S, c):
    """Fast recovery ends: cwnd = ssthresh, then linear increase (goyal1998 5.1, "the TCP sets CWND
    to SSTHRESH, and then does congestion avoidance"); with ``C_RECOVERY_OPENS`` this ACK also opens
    the window as any ACK of new data does (4.4BSD ``tcp_input``)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    conn[c, C_IN_RECOVERY] = 0
    conn[c, C_DUPACKS] = 0
    connf[c, CF_CWND] = connf[c, CF_SSTHRESH]
    if conn[c, C_RECOVERY_OPENS] == 1:
        open_window(S, c)


# --- Reno (goyal1998 5.1) ----------------------------------------------------------------------------------
@jit
def reno_enter(S, c, cwnd_before, t):
    """Reno (New Reno alike): retransmit the first unacknowledged segment and set ``cwnd = ssthresh + 3``
    segments (goyal1998 5.1: "reduces its CWND by half (plus three segments)")."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    if conn[c, C_SEG_TIMERS] == 0:  # per-segment timers keep their deadlines
        conn[c, C_TIMER_DEADLINE] = -1  # 4.4BSD clears the timer; sending re-arms it
    send_segment(S, c, conn[c, C_SND_UNA], t)
    connf[c, CF_CWND] = connf[c, CF_SSTHRESH] + 3 * conn[c, C_MSS]


@jit
def reno_dupack(S, c):
    """Reno (New Reno alike): inflate cwnd by the segment that left (goyal1998 5.1: "for each subsequent
    duplicate ACK, the sender inflates CWND by one")."""
    c = nonneg(c)
    ftab(S, T_CONNF)[c, CF_CWND] += itab(S, T_CONN)[c, C_MSS]


@jit
def reno_new_ack(S, c, ack, una, t):
    """Reno: any ACK of new data ends recovery (goyal1998 5.1)."""
    exit_recovery(S, c)


# --- New Reno (goyal1998 5.3) ------------------------------------------------------------------------------
@jit
def newreno_enter(S, c, cwnd_before, t):
    """New Reno enters as Reno does (:func:`reno_enter`)."""
    reno_enter(S, c, cwnd_before, t)


@jit
def newreno_dupack(S, c):
    """New Reno inflates cwnd as Reno does (:func:`reno_dupack`)."""
    reno_dupack(S, c)


@jit
def newreno_new_ack(S, c, ack, una, t):
    """New Reno: a full ACK (covering RECOVER) ends recovery, a partial one retransmits the next
    segment (:func:`newreno_partial_ack`)."""
    if ack >= itab(S, T_CONN)[nonneg(c), C_RECOVER]:
        exit_recovery(S, c)
    else:
        newreno_partial_ack(S, c, ack, una, t)


@jit
def newreno_partial_ack(S, c, ack, una, t):
    """New Reno's partial ACK (goyal1998 5.3): retransmit the next expected segment at once;
    deflate by the data acknowledged and add one segment back (RFC 2582)."""
    c = nonneg(c)
    mss = itab(S, T_CONN)[c, C_MSS]
    connf = ftab(S, T_CONNF)
    connf[c, CF_CWND] = max(connf[c, CF_CWND] - (ack - una) + mss, float(mss))
    send_segment(S, c, ack, t)


# --- SACK (goyal1998 5.4) ----------------------------------------------------------------------------------
@jit
def sack_enter(S, c, cwnd_before, t):
    """SACK: PIPE from CWND at the loss (``cwnd_before``), cwnd = ssthresh, retransmit the first hole.

    goyal1998 gives two starting values of PIPE:

    - 5.4.1: "When the third duplicate ACK is received, PIPE is set to the value of CWND
      and CWND is reduced by half", with "When a segment is sent, PIPE is incremented by
      one" (which would count the fast retransmission on top: CWND + 1);
    - 5.4.2: "It retransmits the segment, and sets PIPE to CWND - 3, and sets CWND to
      CWND/2".

    ``TcpConfig.sack_pipe_start`` chooses. ``"cwnd"`` is 5.4.1 as written: PIPE = CWND, and
    the fast retransmission, a segment sent, adds one. ``"cwnd-3"`` is 5.4.2: PIPE = CWND - 3
    segments, the fast retransmission included (nothing is added for it). The three duplicate
    ACKs are three segments that have left the pipe, and only this start makes 5.4.1's own
    statement true that the PIPE algorithm "is equivalent to inflating the CWND by one segment
    for every duplicate ACK". With ``W`` = CWND at the loss (in segments), Reno has
    ``cwnd = W/2 + 3 + k`` after ``k`` more duplicate ACKs and ``W + s`` segments
    unacknowledged after sending ``s`` new ones, and may send while ``W + s < W/2 + 3 + k``,
    i.e. while ``W - 3 - k + s < W/2``: PIPE = W - 3, decremented per duplicate ACK and
    incremented per segment sent, below the halved CWND. So with a single loss both send the
    same new segments during recovery, and 5.4.2's analysis holds ("CWND/2 - CWND/n" segments
    in the first RTT, one RTT for n >= 4). 5.4.1's start (CWND, +1 for the retransmission)
    sends four segments fewer. Either way PIPE starts from the bytes actually outstanding when
    they are fewer than CWND, since it "indicates how many bytes are currently in the network
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
    in_pipe = min(int(cwnd_before), conn[c, C_SND_MAX] - una)
    literal = conn[c, C_SACK_PIPE_START] == PIPE_CWND
    # 5.4.1: PIPE = CWND; 5.4.2: PIPE = CWND - 3, the fast retransmission inside it (see the docstring)
    conn[c, C_PIPE] = in_pipe if literal else max(in_pipe - 3 * mss, 0)
    connf[c, CF_CWND] = connf[c, CF_SSTHRESH]
    conn[c, C_HOLE_PTR] = una // mss
    sb = btab(S, T_SB)
    if (sb[c, (una // mss) & conn[c, C_SEG_MASK]] & RETRANSMITTED) == 0:
        if conn[c, C_SEG_TIMERS] == 0:
            conn[c, C_TIMER_DEADLINE] = -1  # 4.4BSD clears the timer; sending re-arms it
        retransmit_hole(S, c, una // mss, t)
        if literal:
            conn[c, C_PIPE] += mss  # 5.4.1: "When a segment is sent, PIPE is incremented by one"
    # else: already retransmitted (5.4.1); the running timer covers that retransmission


@jit
def sack_dupack(S, c):
    """SACK: the segment that left comes out of PIPE (goyal1998 5.4.1: "PIPE is decremented by one
    segment")."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    conn[c, C_PIPE] -= conn[c, C_MSS]


@jit
def sack_new_ack(S, c, ack, una, t):
    """SACK: a full ACK (covering RECOVER) ends recovery; a partial one takes two segments out of PIPE
    (goyal1998 5.4.1: "When a partial ACK is received, PIPE is decremented by two")."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    if ack >= conn[c, C_RECOVER]:
        exit_recovery(S, c)
    else:
        conn[c, C_PIPE] -= 2 * conn[c, C_MSS]


@jit
def sack_output(S, c, t):
    """goyal1998 5.4.1: while PIPE < CWND, send holes first, then new data."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    limit = min(conn[c, C_SND_UNA] + conn[c, C_SND_WND], itab(S, T_APP)[c, APP_SEND_LIMIT])
    while conn[c, C_PIPE] < connf[c, CF_CWND]:
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
