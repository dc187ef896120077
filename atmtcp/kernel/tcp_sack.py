"""SACK (goyal1998 5.4.1): the sender's scoreboard and the receiver's SACK blocks, for the
connections whose loss detection is ``DETECT_SACK``.

The scoreboard ``sb[c, seg & C_SEG_MASK]`` marks each segment between ``snd_una`` and
``snd_max`` SACKED and/or RETRANSMITTED ("The sender keeps a table of all the segments sent but not
ACKed"); ``seq // mss`` indexes it. The receiver's buffer ``rb`` marks the out-of-order segments
it holds, and ``rsack`` remembers the blocks its last ACK reported.
"""
from .jit import jit
from .layout import (
    C_HIGH_SACK, C_HOLE_PTR, C_LAST_RCVD_SEG, C_MSS, C_RCV_NXT, C_SEG_MASK, C_SND_MAX, C_SND_UNA,
    PKT_NSACK, PKT_S0, RS_L0, RS_NBLK, RS_R0,
)
from .state import btab, itab, nonneg, T_CONN, T_PKT, T_RB, T_RSACK, T_SB
from .tcp_send import send_segment

SACKED = 1
RETRANSMITTED = 2


# --- the sender's scoreboard ------------------------------------------------------------------------
@jit
def next_hole(S, c):
    """First segment below the highest SACKed one that is neither SACKed nor retransmitted."""
    conn = itab(S, T_CONN)
    sb = btab(S, T_SB)
    mask = conn[c, C_SEG_MASK]
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
    sb[c, seg & conn[c, C_SEG_MASK]] |= RETRANSMITTED
    conn[c, C_HOLE_PTR] = seg + 1
    send_segment(S, c, seg * conn[c, C_MSS], t)


@jit
def clear_scoreboard(S, c, first_seg, end_seg):
    """Forget SACK and retransmission marks for segments ``[first_seg, end_seg)``."""
    conn = itab(S, T_CONN)
    sb = btab(S, T_SB)
    mask = conn[c, C_SEG_MASK]
    for seg in range(first_seg, end_seg):
        sb[c, seg & mask] = 0


@jit
def reset_scoreboard(S, c):
    """A timeout: "When a timeout occurs, the sender resets the SACK table" (goyal1998 5.4.1)."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    mss = conn[c, C_MSS]
    una = conn[c, C_SND_UNA]
    clear_scoreboard(S, c, una // mss, conn[c, C_SND_MAX] // mss)
    conn[c, C_HIGH_SACK] = una // mss
    conn[c, C_HOLE_PTR] = una // mss


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
    mask = conn[c, C_SEG_MASK]
    lo_limit = conn[c, C_SND_UNA] // mss
    hi_limit = conn[c, C_SND_MAX] // mss
    for b in range(pkt[k, PKT_NSACK]):
        lo = max(pkt[k, PKT_S0 + 2 * b] // mss, lo_limit)
        hi = min(pkt[k, PKT_S0 + 2 * b + 1] // mss, hi_limit)
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


# --- the receiver's SACK blocks ----------------------------------------------------------------------
@jit
def expand_block(S, c, seg):
    """The run ``[left, right)`` of buffered out-of-order segments containing ``seg``."""
    conn = itab(S, T_CONN)
    rb = btab(S, T_RB)
    mask = conn[c, C_SEG_MASK]
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
    mask = conn[c, C_SEG_MASK]
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
    mask = conn[c, C_SEG_MASK]
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
    pkt[k, PKT_NSACK] = n
    for b in range(n):
        pkt[k, PKT_S0 + 2 * b] = rsack[c, RS_L0 + 2 * b] * mss
        pkt[k, PKT_S0 + 2 * b + 1] = rsack[c, RS_R0 + 2 * b] * mss
