"""Held ports: output ports that keep their cells and forward each one by a departure event,
and slotted ports, which keep a slot's arrivals until the slot's end.

The lazy FIFO path of :mod:`atmtcp.kernel.ports` forwards a cell the moment it is
admitted, which is exact only while no queued cell is ever removed or reordered. Two
options of :class:`atmtcp.model.PortConfig` break that, and make the compiler give the
port this path instead (``P_HELD`` = ``HELD_CELLS``):

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
  manner"; open slotted cell-level simulators resolve contention the same way. A slotted port
  takes its input channels' cells itself at its slot ends (:func:`pull_arrivals`) instead of
  receiving each by an arrival event: the same cells, in the same order, in fewer events.
  Without randomized tail drop or drop from front no admitted cell is ever removed, so its
  departure is fixed at its admission: such a port (``SLOT_ENDS``) admits a slot's arrivals as
  a lazy FIFO port at the slot's end, each leaving at a later slot end, and has an event only
  at the end of a slot with arrivals (:func:`lazy_slot_end`). A held slotted port
  (``HELD_CELLS``) has one at every slot end while it holds cells (:func:`end_of_slot`).
  Both admit the same cells at the same slot ends in the same random order; a cell of a
  ``SLOT_ENDS`` port takes its event sequence number on the next link at its admission rather
  than at its departure, which reorders events of the same nanosecond (issue 39: the golden
  runs' metrics over 200 seeds are unchanged in distribution, ``benchmarks/equivalence.py``).

All random choices draw from the run's seeded stream (:mod:`atmtcp.kernel.rng`).
A held cell is stored as ``((port, VC) slot, packet << 24 | hop << 16 | cell index)``.
``pv_front`` marks, per (port, VC) slot, the frame whose remaining cells the port drops: at the
front (Frame-Front, packet index + 1) or on arrival (randomized PPD, packet serial + 1).
"""
from .cells import drop_cell, forward_cell, free_record, port_decision, schedule_port_event, slot_end
from .lazy_fifo import admit_lazy
from .heap import heap_pop, heap_push, heap_replace_top, next_seq
from .jit import jit, jit_inline, jit_inline_ir
from .layout import (
    ACCEPT, CAPTURED, CELL_GAP, CELL_HOP, CELL_IDX, CELL_LEFT, CELL_NEXT, CELL_PKT, CELL_SEQ, CELL_TIME, CELL_VC,
    CH_FREE, CH_HEAD, CH_LEN, CH_PARKED, CH_PARKED_IN_HEAP, CH_PARKED_OUT, CH_PULL_NEXT,
    DROP_OVERFLOW, DROP_PARTIAL, DROP_THRESHOLD, EV_CHANNEL, FRONT_FRAME, PKT_NCELLS, P_FRONT, G_STATUS,
    G_STATUS_ARG, PKT_SERIAL, P_ACTIVE_VCS, P_CELL_NS, P_CELLS_IN, P_POLICY, PPD, PV_NORMAL,
    P_CELLS_OUT, P_EVENT_AT, P_FAN_IN, P_MAX_QUEUE, P_PEND_BASE, P_PEND_CAP, P_PEND_LEN,
    P_PEND_LOW_AT, P_QUEUE, P_RING_BASE, P_RING_CAP, P_RING_HEAD, P_RING_LEN, P_RING_LOW_AT,
    INFINITE, SLOT_ENDS, P_HELD, P_PULL_CAND, P_PULL_HEAD, P_PULL_LB, P_SLOTTED, PE_CELL, PE_NFIELDS, PE_SEQ,
    PE_SLOT_END, PE_TIME, PE_VC, PEND_FULL, PEND_LOW, RING_FULL, RING_LOW,
)
from .rings import ring_offset
from .rng import random_below
from .state import (
    itab, ivec, nonneg, T_CELL, T_CHAN, T_G, T_H_SEQ, T_PEND, T_PKT, T_PORT, T_PV_COUNT, T_PV_FRONT, T_PV_STATE,
    T_PV_VC, T_RING_CELL, T_RING_PV, T_VC_PV,
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
def reschedule_port_event(S, p, at):
    """Move the event of port ``p`` that is being handled, still the heap's earliest entry, to ``at``:
    one sift instead of a pop and a push. The heap then holds the same keys as after the pop and the
    push, so the events come out in the same order."""
    itab(S, T_PORT)[p, P_EVENT_AT] = at
    heap_replace_top(S, at, next_seq(S))


@jit_inline_ir
def room_for_one(S, p, n, low_at, capacity, full, low):
    """Whether a list of port ``p`` holding ``n`` entries (its ring or its pending list: the port's columns
    ``low_at`` and ``capacity``) takes one more. A full list sets status ``full`` (a margin too small: a
    bug); one at its low mark sets ``low``, which stops the run after this event so that Python grows it."""
    g = ivec(S, T_G)
    port = itab(S, T_PORT)
    if n >= port[p, low_at]:
        if n == port[p, capacity]:
            g[G_STATUS] = full
            g[G_STATUS_ARG] = p
            return False
        g[G_STATUS] |= low
    return True


@jit_inline
def enqueue(S, p, v, hop, k, idx):
    """Append a cell at the tail of port ``p``; False (status set) if the ring is full. An
    infinite buffer's ring that reaches ``P_RING_LOW_AT`` stops the run after this event."""
    port = itab(S, T_PORT)
    pv_count = ivec(S, T_PV_COUNT)
    ring_cell = ivec(S, T_RING_CELL)
    pv = nonneg(itab(S, T_VC_PV)[v, hop])
    n = port[p, P_RING_LEN]
    if not room_for_one(S, p, n, P_RING_LOW_AT, P_RING_CAP, RING_FULL, RING_LOW):
        return False
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
def pend_insert(S, p, v, cell, time, seq):
    """Put an arrival at slotted port ``p`` (VC ``v``, packed ``cell``, event key ``(time, seq)``) on its
    pending list, in key order: the order in which arrival events would have put it there. False (status
    set) if the list is full; a list that reaches ``P_PEND_LOW_AT`` stops the run after this event."""
    pend = itab(S, T_PEND)
    port = itab(S, T_PORT)
    n = port[p, P_PEND_LEN]
    if not room_for_one(S, p, n, P_PEND_LOW_AT, P_PEND_CAP, PEND_FULL, PEND_LOW):
        return False
    base = port[p, P_PEND_BASE]
    row = base + n
    while row > base and (pend[row - 1, PE_TIME] > time
                          or (pend[row - 1, PE_TIME] == time and pend[row - 1, PE_SEQ] > seq)):
        for f in range(PE_NFIELDS):
            pend[row, f] = pend[row - 1, f]
        row -= 1
    cell_ns = port[p, P_CELL_NS]
    pend[row, PE_VC] = v
    pend[row, PE_CELL] = cell
    pend[row, PE_SLOT_END] = slot_end(time, cell_ns)
    pend[row, PE_TIME] = time
    pend[row, PE_SEQ] = seq
    port[p, P_PEND_LEN] = n + 1
    return True


@jit_inline
def park_inputs(S, p, parked):
    """Slotted port ``p`` starts (``parked`` true) or stops pulling its input channels at its slot ends
    (:func:`pull_arrivals`). Starting, a channel with entries keeps its head event in the heap until
    that event comes (CH_PARKED_IN_HEAP); stopping, a channel whose head left the heap puts it back,
    keyed as before, so that the heap holds what it would have held had the port never pulled."""
    chan = itab(S, T_CHAN)
    cell = itab(S, T_CELL)
    port = itab(S, T_PORT)
    port[p, P_PULL_CAND] = 0
    port[p, P_PULL_LB] = INFINITE
    link = port[p, P_PULL_HEAD]
    while link != 0:
        ch = nonneg(link - 1)
        if parked:
            chan[ch, CH_PARKED] = CH_PARKED_IN_HEAP if chan[ch, CH_LEN] > 0 else CH_PARKED_OUT
        else:
            if chan[ch, CH_PARKED] == CH_PARKED_OUT and chan[ch, CH_LEN] > 0:
                head = nonneg(chan[ch, CH_HEAD])
                heap_push(S, cell[head, CELL_TIME], cell[head, CELL_SEQ], EV_CHANNEL, ch)
            chan[ch, CH_PARKED] = CH_FREE
        link = chan[ch, CH_PULL_NEXT]


@jit_inline
def take_pulled(S, p, ch, time, seq):
    """Take the head of pulled channel ``ch``, keyed ``(time, seq)``, onto slotted port ``p``'s pending
    list, as :func:`atmtcp.kernel.cells.channel_take` and an arrival event would have. False if the
    list was full (status set)."""
    v, packed = take_pulled_head(S, ch, time, seq)
    return pend_insert(S, p, v, packed, time, seq)


@jit_inline
def take_pulled_head(S, ch, time, seq):
    """Take the head of pulled channel ``ch``, keyed ``(time, seq)``: its VC and packed cell. The train's
    step and the record's release repeat :func:`atmtcp.kernel.cells.channel_take`'s: one function for
    both, tried, cost the rows without a slotted port 3-5 % more instructions (NOTES.md)."""
    chan = itab(S, T_CHAN)
    cell = itab(S, T_CELL)
    e = nonneg(chan[ch, CH_HEAD])
    v = nonneg(cell[e, CELL_VC])
    packed = pack_cell(cell[e, CELL_PKT], cell[e, CELL_HOP], cell[e, CELL_IDX])
    left = cell[e, CELL_LEFT]
    if left > 0:  # a train: its next cell, one gap and one sequence number later, stays the head
        cell[e, CELL_TIME] = time + cell[e, CELL_GAP]
        cell[e, CELL_SEQ] = seq + 1
        cell[e, CELL_IDX] += 1
        cell[e, CELL_LEFT] = left - 1
    else:
        chan[ch, CH_HEAD] = cell[e, CELL_NEXT]
        chan[ch, CH_LEN] -= 1
        free_record(S, e)
    return v, packed


@jit
def scan_pulled(S, p, t, seq):
    """Find the earliest head of slotted port ``p``'s pulled channels: make its channel the candidate and
    the earliest head time among the others the bound (``P_PULL_CAND``, ``P_PULL_LB``); take it if it
    is keyed before ``(t, seq)``. True if a cell was taken (then look again)."""
    chan = itab(S, T_CHAN)
    cell = itab(S, T_CELL)
    port = itab(S, T_PORT)
    best = -1
    best_time = INFINITE
    best_seq = 0
    second = INFINITE
    link = port[p, P_PULL_HEAD]
    while link != 0:
        ch = nonneg(link - 1)
        if chan[ch, CH_PARKED] == CH_PARKED_OUT and chan[ch, CH_LEN] > 0:
            e = nonneg(chan[ch, CH_HEAD])
            time = cell[e, CELL_TIME]
            if best < 0 or time < best_time or (time == best_time and cell[e, CELL_SEQ] < best_seq):
                second = min(second, best_time)
                best, best_time, best_seq = ch, time, cell[e, CELL_SEQ]
            else:
                second = min(second, time)
        link = chan[ch, CH_PULL_NEXT]
    port[p, P_PULL_CAND] = best + 1
    port[p, P_PULL_LB] = second
    if best < 0 or not (best_time < t or (best_time == t and best_seq < seq)):
        return False
    return take_pulled(S, p, nonneg(best), best_time, best_seq)


@jit_inline
def pull_arrivals(S, p, t, seq):
    """Slotted port ``p``'s event keyed ``(t, seq)``: take from its pulled input channels, earliest key
    first, every entry keyed before it onto the pending list, as their arrival events would have put
    them there (an arrival at a busy slotted port only joins the list). A pulled channel's entries have
    no events: in a congested slotted port those were half of the run's events. The candidate's head is
    taken without a look at the others while it is due and earlier than the bound on theirs
    (``P_PULL_LB``); else :func:`scan_pulled` looks at every pulled channel."""
    chan = itab(S, T_CHAN)
    cell = itab(S, T_CELL)
    port = itab(S, T_PORT)
    while True:
        cand = port[p, P_PULL_CAND] - 1
        if cand >= 0 and chan[cand, CH_LEN] > 0:
            e = nonneg(chan[cand, CH_HEAD])
            time = cell[e, CELL_TIME]
            if time < port[p, P_PULL_LB] and (time < t or (time == t and cell[e, CELL_SEQ] < seq)):
                if not take_pulled(S, p, nonneg(cand), time, cell[e, CELL_SEQ]):
                    return
                continue
        if port[p, P_PULL_LB] > t or not scan_pulled(S, p, t, seq):
            return


@jit_inline
def admit_held(S, p, v, hop, k, idx, t, seq):
    """A cell arrives at held port ``p`` by the event keyed ``(t, seq)``: a slotted port keeps it for
    the slot's end (and, if idle, starts pulling its inputs); else it is decided at once, and an idle
    port starts transmitting it."""
    p = nonneg(p)
    v = nonneg(v)
    hop = nonneg(hop)
    k = nonneg(k)
    port = itab(S, T_PORT)
    if port[p, P_SLOTTED] != 0:
        if pend_insert(S, p, v, pack_cell(k, hop, idx), t, seq):
            cell_ns = port[p, P_CELL_NS]
            end = slot_end(t, cell_ns)
            if port[p, P_EVENT_AT] < 0:
                schedule_port_event(S, p, end)
                park_inputs(S, p, True)
            elif end < port[p, P_EVENT_AT]:  # a SLOT_ENDS port's next event is later (lazy_slot_end)
                schedule_port_event(S, p, end)
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
def slot_arrivals(S, p, t):
    """How many of slotted port ``p``'s pending arrivals are of the slot that ends at ``t`` (they come
    first), put in random order (:func:`order_slot_arrivals`)."""
    pend = itab(S, T_PEND)
    port = itab(S, T_PORT)
    base = port[p, P_PEND_BASE]
    n = port[p, P_PEND_LEN]
    m = 0
    while m < n and pend[base + m, PE_SLOT_END] <= t:
        m += 1
    order_slot_arrivals(S, p, m)
    return m


@jit_inline
def forget_admitted(S, p, m):
    """Take the first ``m`` arrivals (admitted or dropped) off slotted port ``p``'s pending list; returns
    how many stay."""
    pend = itab(S, T_PEND)
    port = itab(S, T_PORT)
    base = port[p, P_PEND_BASE]
    n = port[p, P_PEND_LEN]
    for i in range(m, n):
        for f in range(PE_NFIELDS):
            pend[base + i - m, f] = pend[base + i, f]
    port[p, P_PEND_LEN] = n - m
    return n - m


@jit_inline
def end_of_slot(S, p, t):
    """Slot end at slotted port ``p``, once the cell in service has finished (:func:`port_event`):
    admit the slot's arrivals in random order; the next cell starts its transmission."""
    pend = itab(S, T_PEND)
    port = itab(S, T_PORT)
    base = port[p, P_PEND_BASE]
    m = slot_arrivals(S, p, t)
    for i in range(m):
        k, hop, idx = unpack_cell(pend[base + i, PE_CELL])
        accept_held(S, p, pend[base + i, PE_VC], hop, k, idx, t)
    left = forget_admitted(S, p, m)
    if port[p, P_QUEUE] > 0:
        reschedule_port_event(S, p, t + port[p, P_CELL_NS])
    elif left > 0:
        reschedule_port_event(S, p, pend[base, PE_SLOT_END])
    else:
        heap_pop(S)
        park_inputs(S, p, False)


@jit_inline_ir
def only_arrival(S, ch, t):
    """Whether pulled channel ``ch`` brings exactly one cell in the slot that ends at ``t``: its head
    arrives before ``t`` and the entry after it (the train's next cell, or the next record) at ``t`` or
    later."""
    chan = itab(S, T_CHAN)
    cell = itab(S, T_CELL)
    if chan[ch, CH_LEN] == 0:
        return False
    e = nonneg(chan[ch, CH_HEAD])
    if cell[e, CELL_TIME] >= t:
        return False
    if cell[e, CELL_LEFT] > 0:
        return cell[e, CELL_TIME] + cell[e, CELL_GAP] >= t
    return chan[ch, CH_LEN] == 1 or cell[nonneg(cell[e, CELL_NEXT]), CELL_TIME] >= t


@jit_inline
def admit_slot_arrivals(S, p, t):
    """Admit the pending arrivals of SLOT_ENDS port ``p`` whose slot ends at ``t``, in random order, as a
    lazy FIFO port would; returns how many stay pending (for later slots)."""
    pend = itab(S, T_PEND)
    base = itab(S, T_PORT)[p, P_PEND_BASE]
    m = slot_arrivals(S, p, t)
    for i in range(m):
        k, hop, idx = unpack_cell(pend[base + i, PE_CELL])
        admit_lazy(S, p, pend[base + i, PE_VC], hop, k, idx, t)
    return forget_admitted(S, p, m)


@jit_inline
def lazy_slot_end(S, p, t):
    """The end of a slot with arrivals at SLOT_ENDS port ``p`` (a slotted port without randomized tail
    drop or drop from front): admit the slot's arrivals in random order as a lazy FIFO port would
    (:func:`atmtcp.kernel.lazy_fifo.admit_lazy` at the slot's end, so each departs at a slot end), then
    move the event to the end of the next slot with an arrival, pending or at the head of a pulled
    channel, or drop it. An event whose time is not ``P_EVENT_AT`` was overtaken by an earlier one
    (an arrival due before it) and is dropped."""
    port = itab(S, T_PORT)
    pend = itab(S, T_PEND)
    if port[p, P_EVENT_AT] != t:
        heap_pop(S)
        return
    port[p, P_EVENT_AT] = -1
    chan = itab(S, T_CHAN)
    cell = itab(S, T_CELL)
    cand = port[p, P_PULL_CAND] - 1
    base = port[p, P_PEND_BASE]
    n = port[p, P_PEND_LEN]
    alone = n == 0 and cand >= 0 and port[p, P_PULL_LB] >= t and only_arrival(S, cand, t)
    if not alone:
        pull_arrivals(S, p, t, ivec(S, T_H_SEQ)[0])
        cand = port[p, P_PULL_CAND] - 1
        n = admit_slot_arrivals(S, p, t)
    else:  # the candidate's head is the slot's one arrival: admitted without the pending list
        e = nonneg(chan[cand, CH_HEAD])
        v, packed = take_pulled_head(S, cand, cell[e, CELL_TIME], cell[e, CELL_SEQ])
        k, hop, idx = unpack_cell(packed)
        admit_lazy(S, p, v, hop, k, idx, t)
    cell_ns = port[p, P_CELL_NS]
    due = pend[base, PE_SLOT_END] - cell_ns if n > 0 else INFINITE
    if cand >= 0 and chan[cand, CH_LEN] > 0:
        due = min(due, cell[nonneg(chan[cand, CH_HEAD]), CELL_TIME])
    due = min(due, port[p, P_PULL_LB])
    if due < t + cell_ns:  # due in the next slot (never before t): its end without a division
        reschedule_port_event(S, p, t + cell_ns)
    elif due < INFINITE:
        reschedule_port_event(S, p, slot_end(due, cell_ns))
    else:  # no event until a pulled channel has a head (cells.note_pulled_head) or an arrival by event
        heap_pop(S)
        port[p, P_EVENT_AT] = INFINITE


@jit_inline
def port_event(S, p, t):
    """The departure (or slot-end) event of held port ``p``. The event stays the heap's earliest
    entry while it is handled (every event it schedules comes later), and leaves it at the end:
    re-keyed to the port's next event (:func:`reschedule_port_event`) or popped."""
    p = nonneg(p)
    port = itab(S, T_PORT)
    if port[p, P_HELD] == SLOT_ENDS:
        lazy_slot_end(S, p, t)
        return
    port[p, P_EVENT_AT] = -1
    slotted = port[p, P_SLOTTED] != 0
    if slotted:
        pull_arrivals(S, p, t, ivec(S, T_H_SEQ)[0])
    if not slotted or port[p, P_QUEUE] > 0:
        send_head(S, p, t)  # one call site for both: it inlines the forwarding of a cell
    if slotted:
        end_of_slot(S, p, t)
    elif port[p, P_QUEUE] > 0:
        reschedule_port_event(S, p, t + port[p, P_CELL_NS])
    else:
        heap_pop(S)
