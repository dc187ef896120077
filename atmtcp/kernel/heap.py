"""Binary min-heap of events keyed by (time in ns, insertion sequence).

The sequence number breaks ties between events at the same nanosecond in the order they
were scheduled, which makes every run bit-for-bit repeatable. The heap stays small: it
holds the head of each channel, one entry per armed timer and the sampler, never one
entry per cell (cells wait in their channel's FIFO).
"""
from .state import ivec, T_G, T_H_ID, T_H_KIND, T_H_SEQ, T_H_TIME
from .jit import jit, jit_inline
from .layout import G_HEAP_LEN, G_SEQ, G_STATUS, HEAP_FULL


@jit_inline
def _before(S, i, j):
    h_seq = ivec(S, T_H_SEQ)
    h_time = ivec(S, T_H_TIME)
    ti = h_time[i]
    tj = h_time[j]
    return ti < tj or (ti == tj and h_seq[i] < h_seq[j])


@jit_inline
def _swap(S, i, j):
    h_id = ivec(S, T_H_ID)
    h_kind = ivec(S, T_H_KIND)
    h_seq = ivec(S, T_H_SEQ)
    h_time = ivec(S, T_H_TIME)
    h_time[i], h_time[j] = h_time[j], h_time[i]
    h_seq[i], h_seq[j] = h_seq[j], h_seq[i]
    h_kind[i], h_kind[j] = h_kind[j], h_kind[i]
    h_id[i], h_id[j] = h_id[j], h_id[i]


@jit
def _sift_down(S, i):
    g = ivec(S, T_G)
    n = g[G_HEAP_LEN]
    while True:
        left = 2 * i + 1
        if left >= n:
            return
        child = left
        if left + 1 < n and _before(S, left + 1, left):
            child = left + 1
        if not _before(S, child, i):
            return
        _swap(S, i, child)
        i = child


@jit_inline
def next_seq(S):
    """Return a fresh insertion sequence number."""
    g = ivec(S, T_G)
    s = g[G_SEQ]
    g[G_SEQ] = s + 1
    return s


@jit_inline
def heap_push(S, time, seq, kind, ident):
    """Schedule event ``(kind, ident)`` at ``time`` with tie-break ``seq``."""
    g = ivec(S, T_G)
    h_id = ivec(S, T_H_ID)
    h_kind = ivec(S, T_H_KIND)
    h_seq = ivec(S, T_H_SEQ)
    h_time = ivec(S, T_H_TIME)
    n = g[G_HEAP_LEN]
    if n >= h_time.shape[0]:
        g[G_STATUS] = HEAP_FULL
        return
    h_time[n] = time
    h_seq[n] = seq
    h_kind[n] = kind
    h_id[n] = ident
    g[G_HEAP_LEN] = n + 1
    i = n
    while i > 0:
        parent = (i - 1) >> 1
        if not _before(S, i, parent):
            break
        _swap(S, i, parent)
        i = parent


@jit_inline
def heap_pop(S):
    """Remove the earliest event (read it from index 0 first)."""
    g = ivec(S, T_G)
    n = g[G_HEAP_LEN] - 1
    g[G_HEAP_LEN] = n
    if n > 0:
        _swap(S, 0, n)
        _sift_down(S, 0)


@jit_inline
def heap_replace_top(S, time, seq):
    """Give the earliest event a new key, keeping its kind and id (one sift, no pop+push)."""
    h_seq = ivec(S, T_H_SEQ)
    h_time = ivec(S, T_H_TIME)
    h_time[0] = time
    h_seq[0] = seq
    _sift_down(S, 0)
