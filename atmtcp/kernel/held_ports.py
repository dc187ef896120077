"""Held ports: output ports that keep their cells and forward each one by a departure event.

The lazy FIFO path of :mod:`atmtcp.kernel.ports` forwards a cell the moment it is
admitted, which is exact only while no queued cell is ever removed or reordered. Two
options of :class:`atmtcp.model.PortConfig` break that, and make the compiler give the
port this path instead (``P_HELD``):

- **Randomized tail drop** (``P_FAN_IN > 0``), as lakshman section 3 describes it: "when
  a cell arrives to a full buffer instead of dropping the incoming cell (slotting and
  phase effects ensure then that one source will always be the winner in entering the
  buffer), the cell dropped is equiprobably either the incoming cell or one of the first
  few (we used the fan-in factor ...) cells in the end of the buffer (this is only used to
  create buffer space, FIFO ordering is not violated)". The cell in transmission is never
  one of them. With PPD (lakshman's Partial Frame Drop at the Tail, 2.1: "whenever a cell is
  dropped a bit is set so that until the end of that frame all arriving cells from that frame
  are also discarded") a queued cell dropped this way marks its frame (``pv_front`` holds its
  packet's serial + 1), and the frame's cells still to arrive are dropped
  (:func:`drop_marked_arrival`); its cells already queued stay ("no search of the buffer").
- **Drop from front** (``P_FRONT``), lakshman section 3: a cell arriving at a full buffer
  enters, and the cell at the front is dropped (:func:`drop_front`, :func:`remove_held`). The front is the cell
  to be transmitted next: the head at a slotted port's slot end, else the cell behind the
  one in transmission. With ``FRONT_FRAME`` (Partial Frame Drop at the Front) the rest of
  that frame is dropped as it reaches the head of the buffer, before its transmission
  starts (:func:`skip_damaged_frames`), so that "the cell picked for transmission ... is
  always a cell that does not belong to a dropped frame".
- **Slotted service** (``P_SLOTTED``): time at the port runs in slots of one cell time,
  aligned to t = 0. A cell arriving during a slot waits for the slot's end; at each slot
  end the port first completes the transmission of the cell in service (if any), then
  admits the slot's arrivals in a random order (the cells of one VC keep their order), so
  that when one place is freed each arrival of the slot is equally likely to take it.
  lakshman section 3: "The links connected to the switch output port operate in a slotted
  manner"; open slotted cell-level simulators resolve contention the same way.

All random choices draw from the run's seeded stream (:mod:`atmtcp.kernel.rng`).
A held cell is stored as ``((port, VC) slot, packet << 24 | hop << 16 | cell index)``.
``pv_front`` marks, per (port, VC) slot, the frame whose remaining cells the port drops: at the
front (Frame-Front, packet index + 1) or on arrival (randomized PPD, packet serial + 1).
"""
from .cells import drop_cell, forward_cell, port_decision
from .heap import heap_pop, heap_push, heap_replace_top, next_seq
from .jit import jit, jit_inline, jit_inline_ir
from .layout import (
    ACCEPT, CAPTURED, DROP_OVERFLOW, DROP_PARTIAL, DROP_THRESHOLD, EV_PORT, FRONT_FRAME, PKT_NCELLS, P_FRONT, G_STATUS,
    G_STATUS_ARG, PKT_SERIAL, P_ACTIVE_VCS, P_CELL_NS, P_CELLS_IN, P_POLICY, PPD, PV_NORMAL,
    P_CELLS_OUT, P_EVENT_AT, P_FAN_IN, P_MAX_QUEUE, P_PEND_BASE, P_PEND_CAP, P_PEND_LEN,
    P_PEND_LOW_AT, P_QUEUE, P_RING_BASE, P_RING_CAP, P_RING_HEAD, P_RING_LEN, P_RING_LOW_AT,
    P_SLOTTED, PE_CELL, PE_NFIELDS, PE_SLOT_END, PE_VC, PEND_FULL, PEND_LOW, RING_FULL, RING_LOW,
)
from .rings import ring_offset
from .rng import random_below
from .state import (
    itab, ivec, nonneg, T_G, T_PEND, T_PKT, T_PORT, T_PV_COUNT, T_PV_FRONT, T_PV_STATE, T_PV_VC, T_RING_CELL, T_RING_PV,
    T_VC_PV,
)


@jit_inline_ir
def pack_cell(k, hop, idx):
    """One ``int64`` for a held cell: packet ``k``, its ``hop`` and its cell index (:func:`unpack_cell`)."""
    return (k << 24) | (hop << 16) | idx


@jit_inline_ir
def unpack_cell(cell):
    """``(packet, hop, cell index)`` of a packed held cell."""
    return cell >> 24, (cell >> 16) & 0xFF, cell & 0xFFFF


@jit_inline_ir
def ring_slot(S, p, position):
    """Arena index of the ``position``-th held cell of port ``p`` (0 = the head)."""
    port = itab(S, T_PORT)
    return nonneg(port[p, P_RING_BASE] + ring_offset(port[p, P_RING_HEAD], position, port[p, P_RING_CAP]))


@jit_inline
def schedule_port_event(S, p, at):
    """Push port ``p``'s ``EV_PORT`` event at ``at`` and remember its time in ``P_EVENT_AT``."""
    port = itab(S, T_PORT)
    port[p, P_EVENT_AT] = at
    heap_push(S, at, next_seq(S), EV_PORT, p)


@jit_inline
def reschedule_port_event(S, p, at):
    """Move the event of port ``p`` that is being handled, still the heap's earliest entry, to ``at``:
    one sift instead of a pop and a push. The heap then holds the same keys as after the pop and the
    push, so the events come out in the same order."""
    itab(S, T_PORT)[p, P_EVENT_AT] = at
    heap_replace_top(S, at, next_seq(S))


@jit_inline
def enqueue(S, p, v, hop, k, idx):
    """Append a cell at the tail of port ``p``; False (status set) if the ring is full. An
    infinite buffer's ring that reaches ``P_RING_LOW_AT`` stops the run after this event."""
    g = ivec(S, T_G)
    port = itab(S, T_PORT)
    pv_count = ivec(S, T_PV_COUNT)
    ring_cell = ivec(S, T_RING_CELL)
    pv = nonneg(itab(S, T_VC_PV)[v, hop])
    n = port[p, P_RING_LEN]
    if n >= port[p, P_RING_LOW_AT]:
        if n == port[p, P_RING_CAP]:
            g[G_STATUS] = RING_FULL
            g[G_STATUS_ARG] = p
            return False
        g[G_STATUS] |= RING_LOW
    slot = ring_slot(S, p, n)
    ivec(S, T_RING_PV)[slot] = pv
    ring_cell[slot] = pack_cell(k, hop, idx)
    port[p, P_RING_LEN] = n + 1
    port[p, P_QUEUE] += 1
    if port[p, P_QUEUE] > port[p, P_MAX_QUEUE]:
        port[p, P_MAX_QUEUE] = port[p, P_QUEUE]
    if pv_count[pv] == 0:
        port[p, P_ACTIVE_VCS] += 1
    pv_count[pv] += 1
    return True


@jit_inline
def unlink(S, p, pv):
    """Bookkeeping for a cell of (port, VC) slot ``pv`` leaving port ``p``'s buffer (sent or
    dropped)."""
    port = itab(S, T_PORT)
    pv_count = ivec(S, T_PV_COUNT)
    port[p, P_RING_LEN] -= 1
    port[p, P_QUEUE] -= 1
    pv_count[pv] -= 1
    if pv_count[pv] == 0:
        port[p, P_ACTIVE_VCS] -= 1


@jit
def remove_held(S, p, position, reason, t):
    """Discard the held cell at ``position`` of port ``p`` for ``reason`` and close the gap from
    the nearer end (the cells before it move back one place, or those behind it up one), so the
    order of the kept cells does not change and a drop at the front or the tail costs O(1)."""
    ring_cell = ivec(S, T_RING_CELL)
    ring_pv = ivec(S, T_RING_PV)
    port = itab(S, T_PORT)
    slot = ring_slot(S, p, position)
    pv = ring_pv[slot]
    k, _, _ = unpack_cell(ring_cell[slot])
    n = port[p, P_RING_LEN]
    if position < n - 1 - position:
        for i in range(position, 0, -1):
            here = ring_slot(S, p, i)
            before = ring_slot(S, p, i - 1)
            ring_pv[here] = ring_pv[before]
            ring_cell[here] = ring_cell[before]
        port[p, P_RING_HEAD] = ring_offset(port[p, P_RING_HEAD], 1, port[p, P_RING_CAP])
    else:
        for i in range(position, n - 1):
            here = ring_slot(S, p, i)
            behind = ring_slot(S, p, i + 1)
            ring_pv[here] = ring_pv[behind]
            ring_cell[here] = ring_cell[behind]
    unlink(S, p, pv)
    drop_cell(S, p, ivec(S, T_PV_VC)[pv], k, reason, t)


@jit
def randomized_tail(S, p, t):
    """lakshman 3: the buffer is full; drop, with equal probability, the arriving cell or one
    of the last F held cells (F = ``P_FAN_IN``, fewer if fewer wait behind the cell in
    transmission). True if a held cell was dropped, so that the arriving cell enters."""
    port = itab(S, T_PORT)
    n = port[p, P_RING_LEN]
    choices = min(port[p, P_FAN_IN], n - 1)
    if choices <= 0:
        return False
    r = random_below(S, choices + 1)
    if r == 0:
        return False
    if port[p, P_POLICY] == PPD:
        pkt = itab(S, T_PKT)
        slot = ring_slot(S, p, n - r)
        k, _, idx = unpack_cell(ivec(S, T_RING_CELL)[slot])
        if idx != pkt[k, PKT_NCELLS] - 1:
            ivec(S, T_PV_FRONT)[ivec(S, T_RING_PV)[slot]] = pkt[k, PKT_SERIAL] + 1
    remove_held(S, p, n - r, DROP_OVERFLOW, t)
    return True


@jit
def drop_marked_arrival(S, p, v, pv, k, idx, t):
    """Randomized PPD: True (the cell is dropped) if cell ``idx`` of packet ``k`` belongs to a frame
    whose queued cell :func:`randomized_tail` dropped; its EOM clears the mark."""
    pkt = itab(S, T_PKT)
    pv_front = ivec(S, T_PV_FRONT)
    if pv_front[pv] != pkt[k, PKT_SERIAL] + 1:
        return False
    if idx == pkt[k, PKT_NCELLS] - 1:
        pv_front[pv] = 0
    itab(S, T_PORT)[p, P_CELLS_IN] += 1
    drop_cell(S, p, v, k, DROP_PARTIAL, t)
    return True


@jit
def skip_damaged_frames(S, p, position, t):
    """Frame-Front: drop the cells at ``position`` that belong to a frame dropped at the front,
    until a cell of an undamaged frame is there (lakshman 3: "Cells from damaged frames at the
    front of their buffer are dropped till a cell from an undamaged frame is found")."""
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    pv_front = ivec(S, T_PV_FRONT)
    while port[p, P_RING_LEN] > position:
        slot = ring_slot(S, p, position)
        pv = ivec(S, T_RING_PV)[slot]
        k, _, idx = unpack_cell(ivec(S, T_RING_CELL)[slot])
        if pv_front[pv] != k + 1:
            return
        if idx == pkt[k, PKT_NCELLS] - 1:
            pv_front[pv] = 0
        remove_held(S, p, position, DROP_PARTIAL, t)


@jit
def drop_front(S, p, reason, t):
    """lakshman 3: the buffer is full (or RED at the front picked a cell, lakshman 5); drop the
    cell at the front for ``reason`` instead of the arriving one. Frame-Front marks that cell's
    frame, unless the cell was its last. False if only the cell in transmission is held (then
    the arriving cell is dropped)."""
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    position = 0 if port[p, P_SLOTTED] != 0 else 1
    if port[p, P_RING_LEN] <= position:
        return False
    slot = ring_slot(S, p, position)
    k, _, idx = unpack_cell(ivec(S, T_RING_CELL)[slot])
    frame = port[p, P_FRONT] == FRONT_FRAME
    if frame and idx != pkt[k, PKT_NCELLS] - 1:
        ivec(S, T_PV_FRONT)[ivec(S, T_RING_PV)[slot]] = k + 1
    remove_held(S, p, position, reason, t)
    if frame:
        skip_damaged_frames(S, p, position, t)
    return True


@jit_inline
def accept_held(S, p, v, hop, k, idx, t):
    """Decide a cell at held port ``p`` now and hold it if admitted; False if it was not."""
    port = itab(S, T_PORT)
    pv = itab(S, T_VC_PV)[v, hop]
    if port[p, P_FAN_IN] > 0 and ivec(S, T_PV_FRONT)[pv] != 0 and drop_marked_arrival(S, p, v, pv, k, idx, t):
        return False
    decision = port_decision(S, p, v, pv, k, idx, t)
    if port[p, P_FAN_IN] > 0 and (decision == DROP_OVERFLOW or decision == DROP_OVERFLOW + CAPTURED):
        if randomized_tail(S, p, t):  # a queued cell made room: the arriving one enters, its frame intact
            ivec(S, T_PV_STATE)[pv] = PV_NORMAL
            decision = ACCEPT
    elif decision == DROP_OVERFLOW or decision == DROP_THRESHOLD:  # a full buffer; RED's pick
        if port[p, P_FRONT] != 0 and drop_front(S, p, decision, t):
            decision = ACCEPT
    if decision != ACCEPT:
        drop_cell(S, p, v, k, decision, t)
        return False
    was_empty = port[p, P_RING_LEN] == 0
    if not enqueue(S, p, v, hop, k, idx):
        return False
    if was_empty and port[p, P_FRONT] == FRONT_FRAME:
        skip_damaged_frames(S, p, 0, t)  # the cell would start its transmission now
        return port[p, P_RING_LEN] > 0
    return True


@jit_inline
def admit_held(S, p, v, hop, k, idx, t):
    """A cell arrives at held port ``p``: a slotted port keeps it for the slot's end; else it
    is decided at once, and an idle port starts transmitting it."""
    p = nonneg(p)
    v = nonneg(v)
    hop = nonneg(hop)
    k = nonneg(k)
    g = ivec(S, T_G)
    pend = itab(S, T_PEND)
    port = itab(S, T_PORT)
    if port[p, P_SLOTTED] != 0:
        n = port[p, P_PEND_LEN]
        if n >= port[p, P_PEND_LOW_AT]:
            if n == port[p, P_PEND_CAP]:
                g[G_STATUS] = PEND_FULL
                g[G_STATUS_ARG] = p
                return
            g[G_STATUS] |= PEND_LOW
        cell_ns = port[p, P_CELL_NS]
        slot_end = (t // cell_ns + 1) * cell_ns
        row = port[p, P_PEND_BASE] + n
        pend[row, PE_VC] = v
        pend[row, PE_CELL] = pack_cell(k, hop, idx)
        pend[row, PE_SLOT_END] = slot_end
        port[p, P_PEND_LEN] = n + 1
        if port[p, P_EVENT_AT] < 0:
            schedule_port_event(S, p, slot_end)
        return
    if accept_held(S, p, v, hop, k, idx, t) and port[p, P_EVENT_AT] < 0:
        schedule_port_event(S, p, t + port[p, P_CELL_NS])


@jit_inline
def send_head(S, p, t):
    """The cell at the head of held port ``p`` finishes its transmission at ``t``."""
    port = itab(S, T_PORT)
    ring_cell = ivec(S, T_RING_CELL)
    slot = ring_slot(S, p, 0)
    pv = nonneg(ivec(S, T_RING_PV)[slot])
    v = nonneg(ivec(S, T_PV_VC)[pv])
    k, hop, idx = unpack_cell(ring_cell[slot])
    port[p, P_RING_HEAD] = ring_offset(port[p, P_RING_HEAD], 1, port[p, P_RING_CAP])
    unlink(S, p, pv)
    port[p, P_CELLS_OUT] += 1
    forward_cell(S, v, hop, k, idx, t)
    if port[p, P_FRONT] == FRONT_FRAME:
        skip_damaged_frames(S, p, 0, t)  # the next cell starts its transmission now


@jit_inline
def order_slot_arrivals(S, p, m):
    """Shuffle the first ``m`` pending arrivals of port ``p`` (Fisher-Yates, seeded), then
    put the cells of each VC back in their own order on the places the VC drew."""
    pend = itab(S, T_PEND)
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    base = port[p, P_PEND_BASE]
    for i in range(m - 1, 0, -1):
        j = random_below(S, i + 1)
        for f in range(PE_NFIELDS):
            pend[base + i, f], pend[base + j, f] = pend[base + j, f], pend[base + i, f]
    for i in range(m):
        for j in range(i + 1, m):
            if pend[base + j, PE_VC] != pend[base + i, PE_VC]:
                continue
            ki, _, ii = unpack_cell(pend[base + i, PE_CELL])
            kj, _, ij = unpack_cell(pend[base + j, PE_CELL])
            if pkt[kj, PKT_SERIAL] * 65536 + ij < pkt[ki, PKT_SERIAL] * 65536 + ii:
                pend[base + i, PE_CELL], pend[base + j, PE_CELL] = pend[base + j, PE_CELL], pend[base + i, PE_CELL]


@jit_inline
def end_of_slot(S, p, t):
    """Slot end at slotted port ``p``, once the cell in service has finished (:func:`port_event`):
    admit the slot's arrivals in random order; the next cell starts its transmission."""
    pend = itab(S, T_PEND)
    port = itab(S, T_PORT)
    base = port[p, P_PEND_BASE]
    n = port[p, P_PEND_LEN]
    m = 0
    while m < n and pend[base + m, PE_SLOT_END] <= t:
        m += 1
    order_slot_arrivals(S, p, m)
    for i in range(m):
        k, hop, idx = unpack_cell(pend[base + i, PE_CELL])
        accept_held(S, p, pend[base + i, PE_VC], hop, k, idx, t)
    for i in range(m, n):
        for f in range(PE_NFIELDS):
            pend[base + i - m, f] = pend[base + i, f]
    port[p, P_PEND_LEN] = n - m
    if port[p, P_QUEUE] > 0:
        reschedule_port_event(S, p, t + port[p, P_CELL_NS])
    elif n > m:
        reschedule_port_event(S, p, pend[base, PE_SLOT_END])
    else:
        heap_pop(S)


@jit_inline
def port_event(S, p, t):
    """The departure (or slot-end) event of held port ``p``. The event stays the heap's earliest
    entry while it is handled (every event it schedules comes later), and leaves it at the end:
    re-keyed to the port's next event (:func:`reschedule_port_event`) or popped."""
    p = nonneg(p)
    port = itab(S, T_PORT)
    port[p, P_EVENT_AT] = -1
    slotted = port[p, P_SLOTTED] != 0
    if not slotted or port[p, P_QUEUE] > 0:
        send_head(S, p, t)  # one call site for both: it inlines the forwarding of a cell
    if slotted:
        end_of_slot(S, p, t)
    elif port[p, P_QUEUE] > 0:
        reschedule_port_event(S, p, t + port[p, P_CELL_NS])
    else:
        heap_pop(S)
