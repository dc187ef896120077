"""The cell path: packet and cell pools, channels, output ports, AAL5 reassembly.

Output ports are FIFO and served at a constant cell time, so a cell's departure time is
fixed the moment it is admitted: ``depart = max(arrival, busy_until) + cell_time``. The
kernel therefore never schedules a departure event. Each port keeps a ring of
``(VC, departure time)`` for the cells it holds; :func:`drain` retires the ones whose
departure is over before the buffer state is read. This is exact for FIFO service
without removal of queued cells; a discipline that removes or reorders queued cells
(drop from front, per-VC round robin) adds a departure event of its own instead of the
lazy drain.

After its last congestible port a VC's path is a fixed delay (the compiler folds ports
that can never queue into the delays), so AAL5 reassembly runs when the cell leaves that
port and only complete packets are put on the VC's delivery channel.
"""
from .heap import heap_pop, heap_push, heap_replace_top, next_seq
from .state import ftab, itab, ivec, T_CELL, T_CHAN, T_DROPLOG, T_G, T_OSAMPLE, T_PKT, T_PORT, T_PORTF, T_PV_COUNT, T_PV_STATE, T_QSAMPLE, T_RING_T, T_RING_VC, T_VC, T_VC_CHAN, T_VC_DELAY, T_VC_PORT
from .jit import jit, jit_inline
from .layout import (
    ACCEPT, CELL_POOL_FULL, CH_HEAD, CH_LEN, CH_TAIL, E_HOP, E_IDX, E_NEXT, E_PKT, E_SEQ,
    E_TIME, E_VC, EV_CHANNEL, G_CELL_FREE, G_DROPLOG_LEN, G_DROPLOG_TRUNCATED, G_PKT_FREE,
    G_PKT_SERIAL, G_STATUS, G_STATUS_ARG, K_ALIVE, K_NCELLS, K_NEXT_FREE, K_NSACK,
    K_PENDING, K_SEQ, K_SERIAL, K_VC, K_WND, P_ACTIVE_VCS, P_BUSY_UNTIL, P_CAPACITY,
    P_CELL_NS, P_CELLS_IN, P_CELLS_OUT, P_DROP_OVERFLOW, P_KEEP_EOM, P_MAX_QUEUE,
    P_POLICY, P_QUEUE, P_RING_BASE, P_RING_CAP, P_RING_HEAD, P_RING_LEN, P_THRESHOLD,
    P_TRACE, PACKET_POOL_FULL, PF_Z, RING_FULL, V_CELLS_PAST_LAST, V_CELLS_SENT, V_DELIVERY_CHAN,
    V_FRAMES_BAD, V_FRAMES_OK, V_NHOPS, V_RS_COUNT, V_RS_OK, V_RS_SERIAL, V_TAIL_NS,
)
from .policies import cell_decision


# --- packet pool ---------------------------------------------------------------------------------
@jit_inline
def alloc_packet(S, vc, seq, wnd, ncells):
    """Take a packet record from the pool; returns its index or -1 (status set) if empty."""
    g = ivec(S, T_G)
    pkt = itab(S, T_PKT)
    k = g[G_PKT_FREE]
    if k < 0:
        g[G_STATUS] = PACKET_POOL_FULL
        return -1
    g[G_PKT_FREE] = pkt[k, K_NEXT_FREE]
    pkt[k, K_VC] = vc
    pkt[k, K_SERIAL] = g[G_PKT_SERIAL]
    g[G_PKT_SERIAL] += 1
    pkt[k, K_SEQ] = seq
    pkt[k, K_WND] = wnd
    pkt[k, K_NCELLS] = ncells
    pkt[k, K_ALIVE] = ncells
    pkt[k, K_PENDING] = 0
    pkt[k, K_NSACK] = 0
    return k


@jit_inline
def release_packet_if_done(S, k):
    """Return packet ``k`` to the pool once no cell of it is alive and it is not being delivered."""
    g = ivec(S, T_G)
    pkt = itab(S, T_PKT)
    if pkt[k, K_ALIVE] == 0 and pkt[k, K_PENDING] == 0:
        pkt[k, K_NEXT_FREE] = g[G_PKT_FREE]
        g[G_PKT_FREE] = k


# --- channels ------------------------------------------------------------------------------------
@jit_inline
def channel_push(S, ch, time, vc, hop, k, idx):
    """Append a cell (``idx >= 0``) or a whole packet (``idx == -1``) to channel ``ch``.

    Channels are FIFO and their entries arrive in time order, so only a channel's head
    needs a place in the event heap.
    """
    cell = itab(S, T_CELL)
    chan = itab(S, T_CHAN)
    g = ivec(S, T_G)
    e = g[G_CELL_FREE]
    if e < 0:
        g[G_STATUS] = CELL_POOL_FULL
        return
    g[G_CELL_FREE] = cell[e, E_NEXT]
    seq = next_seq(S)
    cell[e, E_TIME] = time
    cell[e, E_SEQ] = seq
    cell[e, E_VC] = vc
    cell[e, E_HOP] = hop
    cell[e, E_PKT] = k
    cell[e, E_IDX] = idx
    cell[e, E_NEXT] = -1
    if chan[ch, CH_LEN] == 0:
        chan[ch, CH_HEAD] = e
        heap_push(S, time, seq, EV_CHANNEL, ch)
    else:
        cell[chan[ch, CH_TAIL], E_NEXT] = e
    chan[ch, CH_TAIL] = e
    chan[ch, CH_LEN] += 1


@jit_inline
def channel_pop(S, ch):
    """Take the head entry of channel ``ch`` (the heap's top event) and re-key the heap."""
    cell = itab(S, T_CELL)
    chan = itab(S, T_CHAN)
    e = chan[ch, CH_HEAD]
    chan[ch, CH_HEAD] = cell[e, E_NEXT]
    chan[ch, CH_LEN] -= 1
    if chan[ch, CH_LEN] > 0:
        head = chan[ch, CH_HEAD]
        heap_replace_top(S, cell[head, E_TIME], cell[head, E_SEQ])
    else:
        heap_pop(S)
    return e


@jit_inline
def free_record(S, e):
    """Return channel entry ``e`` to the pool."""
    cell = itab(S, T_CELL)
    g = ivec(S, T_G)
    cell[e, E_NEXT] = g[G_CELL_FREE]
    g[G_CELL_FREE] = e


# --- output ports --------------------------------------------------------------------------------
@jit_inline
def drain(S, p, t):
    """Retire the cells of port ``p`` whose transmission has ended by time ``t``."""
    port = itab(S, T_PORT)
    pv_count = itab(S, T_PV_COUNT)
    ring_t = ivec(S, T_RING_T)
    ring_vc = ivec(S, T_RING_VC)
    n = port[p, P_RING_LEN]
    head = port[p, P_RING_HEAD]
    base = port[p, P_RING_BASE]
    cap = port[p, P_RING_CAP]
    gone = 0
    while gone < n and ring_t[base + head] <= t:
        v = ring_vc[base + head]
        y = pv_count[p, v] - 1
        pv_count[p, v] = y
        if y == 0:
            port[p, P_ACTIVE_VCS] -= 1
        head += 1
        if head == cap:
            head = 0
        gone += 1
    if gone > 0:
        port[p, P_RING_HEAD] = head
        port[p, P_RING_LEN] = n - gone
        port[p, P_QUEUE] -= gone
        port[p, P_CELLS_OUT] += gone


@jit
def log_drop(S, t, p, v, reason):
    """Append a drop event to the drop log of traced ports."""
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
    g[G_DROPLOG_LEN] = n + 1


@jit
def admit_cell(S, v, hop, k, idx, t):
    """Cell ``idx`` of packet ``k`` of VC ``v`` arrives at the port of hop ``hop`` at ``t``."""
    g = ivec(S, T_G)
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    portf = ftab(S, T_PORTF)
    pv_count = itab(S, T_PV_COUNT)
    pv_state = itab(S, T_PV_STATE)
    ring_t = ivec(S, T_RING_T)
    ring_vc = ivec(S, T_RING_VC)
    vc = itab(S, T_VC)
    vc_chan = itab(S, T_VC_CHAN)
    vc_delay = itab(S, T_VC_DELAY)
    vc_port = itab(S, T_VC_PORT)
    p = vc_port[v, hop]
    drain(S, p, t)
    port[p, P_CELLS_IN] += 1
    x = port[p, P_QUEUE]
    y = pv_count[p, v]
    decision, state = cell_decision(
        port[p, P_POLICY], port[p, P_KEEP_EOM], pv_state[p, v], x,
        port[p, P_CAPACITY], port[p, P_THRESHOLD], portf[p, PF_Z], y,
        port[p, P_ACTIVE_VCS], idx == 0, idx == pkt[k, K_NCELLS] - 1,
    )
    pv_state[p, v] = state
    if decision != ACCEPT:
        port[p, P_DROP_OVERFLOW + decision] += 1
        log_drop(S, t, p, v, decision)
        pkt[k, K_ALIVE] -= 1
        release_packet_if_done(S, k)
        return
    n = port[p, P_RING_LEN]
    cap = port[p, P_RING_CAP]
    if n == cap:
        g[G_STATUS] = RING_FULL
        g[G_STATUS_ARG] = p
        return
    depart = max(t, port[p, P_BUSY_UNTIL]) + port[p, P_CELL_NS]
    port[p, P_BUSY_UNTIL] = depart
    slot = port[p, P_RING_HEAD] + n
    if slot >= cap:
        slot -= cap
    ring_vc[port[p, P_RING_BASE] + slot] = v
    ring_t[port[p, P_RING_BASE] + slot] = depart
    port[p, P_RING_LEN] = n + 1
    port[p, P_QUEUE] = x + 1
    if x + 1 > port[p, P_MAX_QUEUE]:
        port[p, P_MAX_QUEUE] = x + 1
    pv_count[p, v] = y + 1
    if y == 0:
        port[p, P_ACTIVE_VCS] += 1
    if hop == vc[v, V_NHOPS] - 1:
        reassemble(S, v, k, idx, depart)
    else:
        channel_push(S, vc_chan[v, hop], depart + vc_delay[v, hop], v, hop + 1, k, idx)


@jit
def transmit_cells(S, v, k, t):
    """Segment packet ``k`` into cells and hand them to the NIC port of VC ``v`` at ``t``."""
    pkt = itab(S, T_PKT)
    vc = itab(S, T_VC)
    n = pkt[k, K_NCELLS]
    vc[v, V_CELLS_SENT] += n
    for idx in range(n):
        admit_cell(S, v, 0, k, idx, t)


@jit
def reassemble(S, v, k, idx, t):
    """AAL5 reassembly of VC ``v``: a frame is good only if it is exactly one whole packet.

    A frame ends at an EOM cell. If a packet lost its EOM cell its remaining cells run into
    the next packet's frame and both are discarded, as in a real AAL5 receiver (length or
    CRC check fails). A good frame goes onto the VC's delivery channel.
    """
    pkt = itab(S, T_PKT)
    vc = itab(S, T_VC)
    serial = pkt[k, K_SERIAL]
    vc[v, V_CELLS_PAST_LAST] += 1
    count = vc[v, V_RS_COUNT]
    if count == 0:
        vc[v, V_RS_SERIAL] = serial
        ok = idx == 0
    else:
        ok = vc[v, V_RS_OK] == 1 and serial == vc[v, V_RS_SERIAL] and idx == count
    count += 1
    pkt[k, K_ALIVE] -= 1
    ncells = pkt[k, K_NCELLS]
    if idx == ncells - 1:
        if ok and count == ncells:
            vc[v, V_FRAMES_OK] += 1
            pkt[k, K_PENDING] = 1
            channel_push(S, vc[v, V_DELIVERY_CHAN], t + vc[v, V_TAIL_NS], v, -1, k, -1)
        else:
            vc[v, V_FRAMES_BAD] += 1
        count = 0
    vc[v, V_RS_COUNT] = count
    vc[v, V_RS_OK] = 1 if ok else 0
    release_packet_if_done(S, k)


@jit
def sample_ports(S, i, t):
    """Record queue length and cumulative departures of the traced ports at sample ``i``."""
    osample = itab(S, T_OSAMPLE)
    port = itab(S, T_PORT)
    qsample = itab(S, T_QSAMPLE)
    for p in range(port.shape[0]):
        col = port[p, P_TRACE] - 1
        if col >= 0:
            drain(S, p, t)
            qsample[i, col] = port[p, P_QUEUE]
            osample[i, col] = port[p, P_CELLS_OUT]
