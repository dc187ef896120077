"""The lazy FIFO port: a cell's departure is fixed the moment it is admitted (:mod:`atmtcp.kernel.ports`
explains why that is exact), so the port schedules no event of its own. A slotted port without randomized
tail drop or drop from front admits its slot's arrivals this way at the slot's end
(:func:`atmtcp.kernel.held_ports.lazy_slot_end`)."""
from .cells import drop_cell, forward_cell, port_decision
from .jit import jit_inline, jit_inline_ir
from .layout import (
    ACCEPT, G_STATUS, G_STATUS_ARG, P_ACTIVE_VCS, P_BUSY_UNTIL, P_CELL_NS, P_CELLS_OUT, P_MAX_QUEUE, P_QUEUE,
    P_RING_BASE, P_RING_CAP, P_RING_HEAD, P_RING_LEN, P_RING_LOW_AT, RING_FULL, RING_LOW,
)
from .rings import ring_offset
from .state import itab, ivec, nonneg, T_G, T_PORT, T_PV_COUNT, T_RING_PV, T_RING_T, T_VC_PV


@jit_inline
def drain(S, p, t):
    """Retire the cells of lazy FIFO port ``p`` whose transmission has ended by time ``t``
    (not for held ports, which retire their cells by their own departure events)."""
    port = itab(S, T_PORT)
    if port[p, P_RING_CAP] == 0:
        x = port[p, P_QUEUE]
        busy = port[p, P_BUSY_UNTIL]
        cell_ns = port[p, P_CELL_NS]
        # the oldest queued cell leaves at busy - (x - 1) cell times: while it has not left,
        # nothing has (a multiplication, where the count below needs a division)
        if x > 0 and busy - (x - 1) * cell_ns <= t:
            left = busy - t
            queued = (left + cell_ns - 1) // cell_ns if left > 0 else 0
            port[p, P_QUEUE] = queued
            port[p, P_CELLS_OUT] += x - queued
        return
    pv_count = ivec(S, T_PV_COUNT)
    ring_t = ivec(S, T_RING_T)
    ring_pv = ivec(S, T_RING_PV)
    n = port[p, P_RING_LEN]
    head = port[p, P_RING_HEAD]
    base = port[p, P_RING_BASE]
    cap = port[p, P_RING_CAP]
    gone = 0
    while gone < n and ring_t[base + head] <= t:
        pv = ring_pv[base + head]
        y = pv_count[pv] - 1
        pv_count[pv] = y
        if y == 0:
            port[p, P_ACTIVE_VCS] -= 1
        head = ring_offset(head, 1, cap)
        gone += 1
    if gone > 0:
        port[p, P_RING_HEAD] = head
        port[p, P_RING_LEN] = n - gone
        port[p, P_QUEUE] -= gone
        port[p, P_CELLS_OUT] += gone


@jit_inline
def admit_lazy(S, p, v, hop, k, idx, t):
    """Cell arrival at lazy FIFO port ``p``: decide, then fix its departure and forward it."""
    g = ivec(S, T_G)
    port = itab(S, T_PORT)
    pv = nonneg(itab(S, T_VC_PV)[v, hop])
    drain(S, p, t)
    decision = port_decision(S, p, v, pv, k, idx, t)
    if decision != ACCEPT:
        drop_cell(S, p, v, k, decision, t)
        return
    cap = port[p, P_RING_CAP]
    if cap > 0 and not ring_push(S, p, pv, t):
        g[G_STATUS] = RING_FULL
        g[G_STATUS_ARG] = p
        return
    x = port[p, P_QUEUE]
    depart = max(t, port[p, P_BUSY_UNTIL]) + port[p, P_CELL_NS]
    port[p, P_BUSY_UNTIL] = depart
    if cap > 0:
        ivec(S, T_RING_T)[port[p, P_RING_BASE] + ring_tail(S, p)] = depart
    port[p, P_QUEUE] = x + 1
    if x + 1 > port[p, P_MAX_QUEUE]:
        port[p, P_MAX_QUEUE] = x + 1
    forward_cell(S, v, hop, k, idx, depart)


@jit_inline_ir
def ring_tail(S, p):
    """Ring index of the last cell of lazy port ``p``."""
    port = itab(S, T_PORT)
    return ring_offset(port[p, P_RING_HEAD], port[p, P_RING_LEN] - 1, port[p, P_RING_CAP])


@jit_inline
def ring_push(S, p, pv, t):
    """Append a cell of (port, VC) slot ``pv`` to the ring of lazy port ``p`` and count it
    into its VC's share; False if the ring is full. An infinite buffer's ring that reaches
    ``P_RING_LOW_AT`` stops the run after this event (RING_LOW)."""
    port = itab(S, T_PORT)
    pv_count = ivec(S, T_PV_COUNT)
    n = port[p, P_RING_LEN]
    cap = port[p, P_RING_CAP]
    if n >= port[p, P_RING_LOW_AT]:
        if n == cap:
            return False
        ivec(S, T_G)[G_STATUS] |= RING_LOW
    ivec(S, T_RING_PV)[port[p, P_RING_BASE] + ring_offset(port[p, P_RING_HEAD], n, cap)] = pv
    port[p, P_RING_LEN] = n + 1
    y = pv_count[pv]
    pv_count[pv] = y + 1
    if y == 0:
        port[p, P_ACTIVE_VCS] += 1
    return True
