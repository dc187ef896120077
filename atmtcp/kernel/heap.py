"""Binary min-heap of events keyed by (time in ns, insertion sequence).

The sequence number breaks ties between events at the same nanosecond in the order they
were scheduled, which makes every run bit-for-bit repeatable. The heap stays small: it
holds the head of each channel, one entry per armed timer and the sampler, never one
entry per cell (cells wait in their channel's FIFO).
"""
from .state import ivec, nonneg, T_G, T_H_ID, T_H_KIND, T_H_SEQ, T_H_TIME
from .jit import jit_inline_ir
from .layout import G_HEAP_LEN, G_HEAP_LOW_AT, G_SEQ, G_STATUS, HEAP_FULL, HEAP_LOW


@jit_inline_ir
def _put(h_time, h_seq, h_kind, h_id, i, time, seq, kind, ident):
    """Write event ``(time, seq, kind, ident)`` at heap index ``i``."""
    h_time[i] = time
    h_seq[i] = seq
    h_kind[i] = kind
    h_id[i] = ident


@jit_inline_ir
def _sift_up(h_time, h_seq, h_kind, h_id, i, time, seq, kind, ident):
    """Put event ``(time, seq, kind, ident)`` into the hole at ``i``, moving earlier-keyed
    parents down into the hole until its place is found (one write per level, not a swap)."""
    while i > 0:
        parent = nonneg((i - 1) >> 1)
        parent_time = h_time[parent]
        if not (time < parent_time or (time == parent_time and seq < h_seq[parent])):
            break
        _put(h_time, h_seq, h_kind, h_id, i, parent_time, h_seq[parent], h_kind[parent], h_id[parent])
        i = parent
    _put(h_time, h_seq, h_kind, h_id, i, time, seq, kind, ident)


@jit_inline_ir
def _sift_down(h_time, h_seq, h_kind, h_id, n, i, time, seq, kind, ident):
    """Put event ``(time, seq, kind, ident)`` into the hole at ``i`` of a heap of ``n``,
    moving the earlier child up into the hole until its place is found."""
    while True:
        child = nonneg(2 * i + 1)
        if child >= n:
            break
        child_time = h_time[child]
        child_seq = h_seq[child]
        right = nonneg(child + 1)
        if right < n:
            right_time = h_time[right]
            right_seq = h_seq[right]
            if right_time < child_time or (right_time == child_time and right_seq < child_seq):
                child = right
                child_time = right_time
                child_seq = right_seq
        if not (child_time < time or (child_time == time and child_seq < seq)):
            break
        _put(h_time, h_seq, h_kind, h_id, i, child_time, child_seq, h_kind[child], h_id[child])
        i = child
    _put(h_time, h_seq, h_kind, h_id, i, time, seq, kind, ident)


@jit_inline_ir
def next_seq(S):
    """Return a fresh insertion sequence number."""
    g = ivec(S, T_G)
    s = g[G_SEQ]
    g[G_SEQ] = s + 1
    return s


@jit_inline_ir
def heap_push(S, time, seq, kind, ident):
    """Schedule event ``(kind, ident)`` at ``time`` with tie-break ``seq``."""
    g = ivec(S, T_G)
    h_time = ivec(S, T_H_TIME)
    n = nonneg(g[G_HEAP_LEN])
    if n >= g[G_HEAP_LOW_AT]:  # one comparison on the common path, as before the margin
        if n >= h_time.shape[0]:
            g[G_STATUS] = HEAP_FULL
            return
        g[G_STATUS] |= HEAP_LOW  # stop after this event (see layout's status codes)
    g[G_HEAP_LEN] = n + 1
    _sift_up(h_time, ivec(S, T_H_SEQ), ivec(S, T_H_KIND), ivec(S, T_H_ID), n, time, seq, kind, ident)


@jit_inline_ir
def heap_pop(S):
    """Remove the earliest event (read it from index 0 first)."""
    g = ivec(S, T_G)
    n = g[G_HEAP_LEN] - 1
    g[G_HEAP_LEN] = n
    if n > 0:
        n = nonneg(n)
        h_time = ivec(S, T_H_TIME)
        h_seq = ivec(S, T_H_SEQ)
        h_kind = ivec(S, T_H_KIND)
        h_id = ivec(S, T_H_ID)
        _sift_down(h_time, h_seq, h_kind, h_id, n, 0, h_time[n], h_seq[n], h_kind[n], h_id[n])


@jit_inline_ir
def heap_replace_top(S, time, seq):
    """Give the earliest event a new key, keeping its kind and id (one sift, no pop+push)."""
    g = ivec(S, T_G)
    h_kind = ivec(S, T_H_KIND)
    h_id = ivec(S, T_H_ID)
    _sift_down(ivec(S, T_H_TIME), ivec(S, T_H_SEQ), h_kind, h_id, g[G_HEAP_LEN], 0, time, seq, h_kind[0], h_id[0])
