"""Positions in the kernel's ring buffers: a port's held cells or queued cells, a router queue's
packets. Each ring is a slice of an arena table (``ring_pv``, ``ring_t``, ``ring_cell``,
``rq_ring``) from a base, with a head slot and a length."""
from .jit import jit_inline_ir


@jit_inline_ir
def ring_offset(head, position, cap):
    """The slot of the entry ``position`` places behind the head (slot ``head``) of a ring of ``cap``
    slots, for ``0 <= head < cap`` and ``0 <= position <= cap``: one wrap at most. Integers only, so
    that inlining it adds no reference counting to the cell path."""
    slot = head + position
    if slot >= cap:
        slot -= cap
    return slot
