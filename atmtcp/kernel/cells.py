"""The cell path shared by every kind of port: packet and cell pools, channels (with cell
delay variation), the admission decision and drop accounting, forwarding to the next hop,
and AAL5 reassembly.

After its last congestible port a VC's path is a fixed delay (the compiler folds ports
that can never queue into the delays), so AAL5 reassembly runs when the cell leaves that
port and only complete packets are put on the VC's delivery channel.
"""
from .heap import heap_pop, heap_push, heap_replace_top, next_seq
from .jit import jit, jit_inline, jit_inline_ir
from .layout import (
    ACCEPT, CAPTURE, CAPTURED, CELL_POOL_FULL, CELLS_LOW, CH_CDV_NS, CH_FREE, CH_HEAD, CH_LAST_T, CH_LEN,
    CH_DST_PORT, CH_PARKED, CH_PARKED_OUT, CH_TAIL, P_PULL_CAND, P_PULL_LB, P_CELL_NS, P_EVENT_AT, EV_PORT,
    CELL_GAP, CELL_HOP, CELL_IDX, CELL_LEFT, CELL_NEXT, CELL_PKT, CELL_SEQ, CELL_TIME, CELL_VC, EV_CHANNEL,
    G_CELL_FREE, G_CELL_FRESH, G_CELL_RESERVE, G_DROPLOG_LEN, G_DROPLOG_TRUNCATED, G_PKT_FREE, G_PKT_FRESH,
    G_PKT_RESERVE, G_PKT_SERIAL, G_SEQ,
    G_STATUS, PKT_ALIVE, PKT_NCELLS, PKT_NEXT_FREE, PKT_NSACK, PKT_PENDING, PKT_SEQ, PKT_SERIAL, PKT_VC, PKT_WND,
    P_CELLS_IN, P_CAPACITY, P_DROP_OVERFLOW, P_QUEUE, P_TRACE, PACKET_POOL_FULL, PACKETS_LOW,
    V_CELLS_DROPPED, V_CELLS_PAST_LAST,
    V_DELIVERY_CHAN, V_FRAMES_BAD, V_FRAMES_OK, V_FULL_ARRIVALS, V_NHOPS, V_RESYNC, V_RS_COUNT, V_RS_OK,
    V_RS_SERIAL, V_TAIL_NS,
)
from .policies import decide
from .rng import random_below
from .state import (
    itab, ivec, nonneg, T_CELL, T_CHAN, T_DROPLOG, T_G, T_PKT, T_PORT, T_VC, T_VC_CHAN, T_VC_DELAY,
)


# --- the pools' free lists --------------------------------------------------------------------------
@jit_inline_ir
def take_fresh(S, r, size, free_at, fresh_at, reserve_at, full, low):
    """Take record ``r`` of a pool, one never handed out (``g[fresh_at]``, :mod:`.layout`), off the pool's
    free list, which goes on with the next row; False (status ``full``) where ``r`` is the list's end (the
    pool's ``size``). A record of the reserve (``g[reserve_at]``) sets the status bit ``low``: stop after
    this event."""
    g = ivec(S, T_G)
    if r >= g[reserve_at]:
        if r == size:
            g[G_STATUS] = full
            return False
        g[G_STATUS] |= low
    g[free_at] = r + 1
    g[fresh_at] = r + 1
    return True


# --- packet pool ---------------------------------------------------------------------------------
@jit_inline
def alloc_packet(S, vc, seq, wnd, ncells):
    """Take a packet record from the pool; returns its index or -1 (status set) if empty.
    A record of the pool's reserve (``G_PKT_RESERVE``): stop after this event (PACKETS_LOW)."""
    g = ivec(S, T_G)
    pkt = itab(S, T_PKT)
    k = nonneg(g[G_PKT_FREE])
    if k < g[G_PKT_FRESH]:  # a record handed out before: its link is written
        g[G_PKT_FREE] = pkt[k, PKT_NEXT_FREE]
    elif not take_fresh(S, k, pkt.shape[0], G_PKT_FREE, G_PKT_FRESH, G_PKT_RESERVE, PACKET_POOL_FULL, PACKETS_LOW):
        return -1
    pkt[k, PKT_VC] = vc
    pkt[k, PKT_SERIAL] = g[G_PKT_SERIAL]
    g[G_PKT_SERIAL] += 1
    pkt[k, PKT_SEQ] = seq
    pkt[k, PKT_WND] = wnd
    pkt[k, PKT_NCELLS] = ncells
    pkt[k, PKT_ALIVE] = ncells
    pkt[k, PKT_PENDING] = 0
    pkt[k, PKT_NSACK] = 0
    return k


@jit_inline
def release_packet_if_done(S, k):
    """Return packet ``k`` to the pool once no cell of it is alive and it is not being delivered."""
    g = ivec(S, T_G)
    pkt = itab(S, T_PKT)
    if pkt[k, PKT_ALIVE] == 0 and pkt[k, PKT_PENDING] == 0:
        pkt[k, PKT_NEXT_FREE] = g[G_PKT_FREE]
        g[G_PKT_FREE] = k


# --- channels ------------------------------------------------------------------------------------
@jit_inline_ir
def _new_record(S):
    """A record from the cell pool, or -1 (status set) if it is empty. A record of the pool's
    reserve (``G_CELL_RESERVE``): stop after this event (CELLS_LOW)."""
    cell = itab(S, T_CELL)
    g = ivec(S, T_G)
    e = nonneg(g[G_CELL_FREE])
    if e < g[G_CELL_FRESH]:  # a record handed out before: its link is written
        g[G_CELL_FREE] = cell[e, CELL_NEXT]
        return e
    return e if take_fresh(S, e, cell.shape[0], G_CELL_FREE, G_CELL_FRESH, G_CELL_RESERVE, CELL_POOL_FULL,
                           CELLS_LOW) else -1


@jit_inline
def _append(S, ch, e, time, seq, vc, hop, k, idx, left, pullable):
    """Fill record ``e`` and append it to channel ``ch``; a channel that was empty puts its
    head, keyed ``(time, seq)``, into the event heap, unless a slotted port pulls it (``pullable``:
    the caller's channels can lead to a slotted port; a constant, so that LLVM drops the branch where
    they cannot: with the branch, the rows without a slotted port ran 3-15 % more instructions)."""
    cell = itab(S, T_CELL)
    chan = itab(S, T_CHAN)
    ch = nonneg(ch)
    cell[e, CELL_TIME] = time
    cell[e, CELL_SEQ] = seq
    cell[e, CELL_VC] = vc
    cell[e, CELL_HOP] = hop
    cell[e, CELL_PKT] = k
    cell[e, CELL_IDX] = idx
    cell[e, CELL_NEXT] = -1
    cell[e, CELL_LEFT] = left
    if chan[ch, CH_LEN] == 0:
        chan[ch, CH_HEAD] = e
        if not pullable or chan[ch, CH_PARKED] == CH_FREE:
            heap_push(S, time, seq, EV_CHANNEL, ch)
        else:  # its slotted port takes it at a slot end (held_ports.pull_arrivals)
            new_pulled_head(S, ch, time)
    else:
        cell[nonneg(chan[ch, CH_TAIL]), CELL_NEXT] = e
    chan[ch, CH_TAIL] = e
    chan[ch, CH_LEN] += 1


@jit_inline
def channel_push(S, ch, time, vc, hop, k, idx, pullable):
    """Append a cell (``idx >= 0``) or a whole packet (``idx == -1``) to channel ``ch`` (``pullable``: it
    may lead to a slotted port, :func:`_append`).

    Channels are FIFO and their entries arrive in time order, so only a channel's head
    needs a place in the event heap. A channel with cell delay variation (``CH_CDV_NS``,
    from :attr:`atmtcp.model.Link.cdv_s`) adds a seeded random delay to each entry.
    """
    e = _new_record(S)
    if e < 0:
        return
    chan = itab(S, T_CHAN)
    cdv = chan[ch, CH_CDV_NS]
    if cdv > 0:
        # cell delay variation: a uniform extra delay in [0, cdv], never overtaking the
        # channel's previous entry (each link stays FIFO)
        time = max(time + random_below(S, cdv + 1), chan[ch, CH_LAST_T])
        chan[ch, CH_LAST_T] = time
    _append(S, ch, e, time, next_seq(S), vc, hop, k, idx, 0, pullable)


@jit_inline
def channel_push_train(S, ch, time, gap, vc, hop, k, n):
    """Append cells 0 .. ``n - 1`` of packet ``k`` to channel ``ch`` (which has no cell delay
    variation) as one entry, a train: the first at ``time``, each next one ``gap`` ns later.

    The train takes ``n`` consecutive sequence numbers, those its cells would take if pushed one
    by one with nothing scheduled between them (a NIC's packet), and :func:`channel_take` hands
    its cells out one at a time with those keys: the events, their order and so the results are
    those of ``n`` single entries, for one record and one push."""
    e = _new_record(S)
    if e < 0:
        return
    g = ivec(S, T_G)
    seq = g[G_SEQ]
    g[G_SEQ] = seq + n
    itab(S, T_CELL)[e, CELL_GAP] = gap
    _append(S, ch, e, time, seq, vc, hop, k, 0, n - 1, True)


@jit_inline
def channel_take(S, ch):
    """Take the head entry of channel ``ch`` (the heap's top event): returns its VC, hop, packet
    and cell index, and re-keys the heap. A train with cells left stays the head, as its next
    cell, keyed one gap and one sequence number later."""
    cell = itab(S, T_CELL)
    e = nonneg(itab(S, T_CHAN)[nonneg(ch), CH_HEAD])
    v = nonneg(cell[e, CELL_VC])
    hop = cell[e, CELL_HOP]
    k = nonneg(cell[e, CELL_PKT])
    idx = cell[e, CELL_IDX]
    left = cell[e, CELL_LEFT]
    if left > 0:
        time = cell[e, CELL_TIME] + cell[e, CELL_GAP]
        seq = cell[e, CELL_SEQ] + 1
        cell[e, CELL_TIME] = time
        cell[e, CELL_SEQ] = seq
        cell[e, CELL_IDX] = idx + 1
        cell[e, CELL_LEFT] = left - 1
        leave_heap_or_rekey(S, ch, time, seq)
    else:
        channel_pop(S, ch)
        free_record(S, e)
    return v, hop, k, idx


@jit_inline
def channel_pop(S, ch):
    """Take the head entry of channel ``ch`` (the heap's top event) and re-key the heap."""
    cell = itab(S, T_CELL)
    chan = itab(S, T_CHAN)
    e = nonneg(chan[ch, CH_HEAD])
    chan[ch, CH_HEAD] = cell[e, CELL_NEXT]
    chan[ch, CH_LEN] -= 1
    if chan[ch, CH_LEN] > 0:
        head = nonneg(chan[ch, CH_HEAD])
        leave_heap_or_rekey(S, ch, cell[head, CELL_TIME], cell[head, CELL_SEQ])
    else:
        heap_pop(S)
        if chan[ch, CH_PARKED] != CH_FREE:
            chan[ch, CH_PARKED] = CH_PARKED_OUT
    return e


@jit_inline_ir
def leave_heap_or_rekey(S, ch, time, seq):
    """Channel ``ch``'s head event (the heap's top) was taken and an entry keyed ``(time, seq)`` is its
    head now: re-key the event, or, on a channel its slotted port pulls, take it out of the heap, from
    where the port takes the entries at its slot ends (:func:`atmtcp.kernel.held_ports.pull_arrivals`)."""
    chan = itab(S, T_CHAN)
    if chan[ch, CH_PARKED] == CH_FREE:
        heap_replace_top(S, time, seq)
    else:
        heap_pop(S)
        chan[ch, CH_PARKED] = CH_PARKED_OUT
        note_pulled_head(S, ch, time)


@jit_inline_ir
def note_pulled_head(S, ch, time):
    """Pulled channel ``ch`` has a new head at ``time`` that its port did not take: lower the port's bound
    on its other channels' heads (``P_PULL_LB``), unless ``ch`` is the candidate, whose head it reads."""
    port = itab(S, T_PORT)
    p = nonneg(itab(S, T_CHAN)[ch, CH_DST_PORT])
    if port[p, P_PULL_CAND] != ch + 1 and time < port[p, P_PULL_LB]:
        port[p, P_PULL_LB] = time


@jit_inline_ir
def slot_end(t, cell_ns):
    """The end of the slot of ``cell_ns`` in which time ``t`` falls (a time on a slot's end begins the next
    slot)."""
    return (t // cell_ns + 1) * cell_ns


@jit_inline
def schedule_port_event(S, p, at):
    """Push port ``p``'s ``EV_PORT`` event at ``at`` and remember its time in ``P_EVENT_AT``."""
    itab(S, T_PORT)[p, P_EVENT_AT] = at
    heap_push(S, at, next_seq(S), EV_PORT, p)


@jit_inline_ir
def new_pulled_head(S, ch, time):
    """An entry at ``time`` joins pulled channel ``ch``, which was empty: :func:`note_pulled_head`, and if
    it is due before its port's next event (``P_EVENT_AT``; INFINITE: none), schedule the end of its slot
    (the later event is dropped when it comes: :func:`atmtcp.kernel.held_ports.lazy_slot_end`). Only a
    SLOT_ENDS port's event can be that late: a held slotted port's is at the next slot end while it pulls."""
    note_pulled_head(S, ch, time)
    port = itab(S, T_PORT)
    p = nonneg(itab(S, T_CHAN)[ch, CH_DST_PORT])
    cell_ns = port[p, P_CELL_NS]
    if time < port[p, P_EVENT_AT] - cell_ns:
        schedule_port_event(S, p, slot_end(time, cell_ns))


@jit_inline_ir
def free_record(S, e):
    """Return channel entry ``e`` to the pool."""
    cell = itab(S, T_CELL)
    g = ivec(S, T_G)
    cell[e, CELL_NEXT] = g[G_CELL_FREE]
    g[G_CELL_FREE] = e


@jit
def log_drop(S, t, p, v, reason, seq):
    """Append a drop event to the drop log of traced ports (``seq``: the sequence number of the
    cell's segment, or the ACK number of an ACK's cell)."""
    droplog = itab(S, T_DROPLOG)
    g = ivec(S, T_G)
    port = itab(S, T_PORT)
    if port[p, P_TRACE] == 0:
        return
    n = g[G_DROPLOG_LEN]
    if n >= droplog.shape[0]:
        g[G_DROPLOG_TRUNCATED] = 1
        return
    droplog[n, 0] = t
    droplog[n, 1] = p
    droplog[n, 2] = v
    droplog[n, 3] = reason
    droplog[n, 4] = seq
    g[G_DROPLOG_LEN] = n + 1


# --- admission decision, drops, forwarding --------------------------------------------------------
@jit_inline
def port_decision(S, p, v, pv, k, idx, t):
    """Count cell ``idx`` of packet ``k`` (VC ``v``, (port, VC) slot ``pv``) into port ``p``
    at ``t`` and decide it with the port's policy (:func:`atmtcp.kernel.policies.decide`); counts
    an arrival that finds the buffer full.

    Returns ACCEPT or a drop reason, plus ``CAPTURED`` when the refused cell put its VC on
    the drop-list (:func:`drop_cell` logs it). Nothing here calls a function that takes the
    state: such a call, even on a rare branch, slowed the whole inlined cell path by 15 %."""
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    vc = itab(S, T_VC)
    port[p, P_CELLS_IN] += 1
    x = port[p, P_QUEUE]
    eom = idx == pkt[k, PKT_NCELLS] - 1
    decision = decide(S, p, pv, x, idx == 0, eom, t)
    if decision != ACCEPT and x >= port[p, P_CAPACITY]:
        # every arrival at a full buffer is refused here (randomized tail drop may still let
        # it in by dropping another cell), so counting on this branch keeps the path of an
        # admitted cell free of the count
        vc[v, V_FULL_ARRIVALS] += 1
    return decision


@jit
def drop_cell(S, p, v, k, reason, t):
    """Discard a cell of packet ``k`` (VC ``v``) at port ``p`` for ``reason`` (a drop reason,
    plus ``CAPTURED`` if the cell put its VC on the drop-list: logged as a capture first)."""
    p = nonneg(p)
    v = nonneg(v)
    k = nonneg(k)
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    vc = itab(S, T_VC)
    if reason >= CAPTURED:
        reason -= CAPTURED
        log_drop(S, t, p, v, CAPTURE, pkt[k, PKT_SEQ])
    port[p, P_DROP_OVERFLOW + reason] += 1
    vc[v, V_CELLS_DROPPED] += 1
    log_drop(S, t, p, v, reason, pkt[k, PKT_SEQ])
    pkt[k, PKT_ALIVE] -= 1
    release_packet_if_done(S, k)


@jit_inline
def forward_cell(S, v, hop, k, idx, t):
    """Cell ``idx`` of packet ``k`` leaves the port of hop ``hop`` of VC ``v`` at ``t``:
    reassembly after the VC's last simulated port, else on to the next hop's channel."""
    vc = itab(S, T_VC)
    vc_chan = itab(S, T_VC_CHAN)
    vc_delay = itab(S, T_VC_DELAY)
    if hop == vc[v, V_NHOPS] - 1:
        reassemble_cell(S, v, k, idx, t)
    else:
        channel_push(S, vc_chan[v, hop], t + vc_delay[v, hop], v, hop + 1, k, idx, True)


@jit_inline
def reassemble_cell(S, v, k, idx, t):
    """:func:`reassemble`, with its common case inlined into the cell path: a cell that is not the
    last of its packet and starts a frame or continues one whose cells so far are all of packet ``k``
    (nothing ends, nothing is delivered; the frame stays good while each cell is the next one)."""
    pkt = itab(S, T_PKT)
    vc = itab(S, T_VC)
    count = vc[v, V_RS_COUNT]
    serial = pkt[k, PKT_SERIAL]
    if idx < pkt[k, PKT_NCELLS] - 1 and (count == 0 or serial == vc[v, V_RS_SERIAL]):
        vc[v, V_CELLS_PAST_LAST] += 1
        if count == 0:
            vc[v, V_RS_SERIAL] = serial
            ok = idx == 0
        else:
            ok = vc[v, V_RS_OK] == 1 and idx == count
        vc[v, V_RS_OK] = 1 if ok else 0
        vc[v, V_RS_COUNT] = count + 1
        pkt[k, PKT_ALIVE] -= 1
        release_packet_if_done(S, k)
    else:
        reassemble(S, v, k, idx, t)


@jit
def reassemble(S, v, k, idx, t):
    """AAL5 reassembly of VC ``v``: a frame is good only if it is exactly one whole packet.

    A frame ends at an EOM cell. If a packet lost its EOM cell its remaining cells run into
    the next packet's frame and both are discarded, as in a real AAL5 receiver (length or
    CRC check fails). With ``V_RESYNC`` (:attr:`atmtcp.model.Aal5Config.delineation` =
    ``"packet"``) the receiver knows each cell's packet, and a cell of another packet ends the
    frame before it: only the packet that lost cells is discarded (lakshman 3: "Packets with
    lost cells which cannot be successfully reassembled at the ADSU are dropped at the ADSU").
    A good frame goes onto the VC's delivery channel.
    """
    v = nonneg(v)
    k = nonneg(k)
    pkt = itab(S, T_PKT)
    vc = itab(S, T_VC)
    serial = pkt[k, PKT_SERIAL]
    vc[v, V_CELLS_PAST_LAST] += 1
    count = vc[v, V_RS_COUNT]
    if count > 0 and vc[v, V_RESYNC] != 0 and serial != vc[v, V_RS_SERIAL]:
        vc[v, V_FRAMES_BAD] += 1  # the frame before lost its EOM cell
        count = 0
    if count == 0:
        vc[v, V_RS_SERIAL] = serial
        ok = idx == 0
    else:
        ok = vc[v, V_RS_OK] == 1 and serial == vc[v, V_RS_SERIAL] and idx == count
    count += 1
    pkt[k, PKT_ALIVE] -= 1
    ncells = pkt[k, PKT_NCELLS]
    if idx == ncells - 1:
        if ok and count == ncells:
            vc[v, V_FRAMES_OK] += 1
            pkt[k, PKT_PENDING] = 1
            channel_push(S, vc[v, V_DELIVERY_CHAN], t + vc[v, V_TAIL_NS], v, -1, k, -1, False)
        else:
            vc[v, V_FRAMES_BAD] += 1
        count = 0
    vc[v, V_RS_COUNT] = count
    vc[v, V_RS_OK] = 1 if ok else 0
    release_packet_if_done(S, k)
