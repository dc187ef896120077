"""The packet path: IP links, router output ports, and an ATM access point's segmentation onto a
rate-controlled VC (ewa 2, Fig. 1).

A flow whose ``V_NHOPS`` is 0 crosses no cell port: its packets travel whole, from router port to
router port (hop 0 is the sending host's NIC), one channel entry per packet and link
(``CELL_IDX = PACKET_ENTRY``). The cell path of :mod:`atmtcp.kernel.cells` is untouched by it.

- **IP links** carry whole packets: a packet of ``B`` bytes takes ``B x 8 / rate`` on the wire
  (``RP_PS_PER_BYTE`` picoseconds per byte, rounded up to the nanosecond), and arrives at the next
  router when its last bit does, one propagation delay later (ewa 2: "Each of the links in this
  configuration has a capacity of 155 Mbits/sec").
- **An ATM access point** (AAP, ewa 2: "the routers at the boundary between the two networks")
  segments each IP packet with AAL5 into its ``PKT_NCELLS`` cells and sends them onto the ATM link
  at the VC's rate: one cell every ``RP_CELL_GAP_NS`` (>= the link's cell time), so that "the
  service rate the connection receives at the edge of the ATM network is constant". The ATM network
  behind it is rate-controlled and loses nothing ("providing the three VCs with a fair and
  loss-free environment"): a fixed delay per VC (the compiler's), after which the far AAP has the
  whole packet (reassembly) and forwards it on its IP port.
- **Router queues** hold whole packets, FIFO, with a capacity in bytes and in packets (the paper
  counts both: "200 Kbytes", "110 packets"). A port has one queue, or one per VC with round-robin
  service of cells between the backlogged VCs (ewa 2: "per-VC queuing and scheduling in the AAPs to
  provide isolation between the different ATM virtual circuits"; each VC has its own buffer).
  Policies: Drop-Tail, Drop-from-Front and Floyd-Jacobson RED (:func:`admit_packet`).

A port with an infinite buffer and one FIFO never drops and never reorders, so its departures are
fixed on arrival (the *lazy* port, ``RP_NQ = 0``; as the cell path's lazy port): no event. A port
with queues sends by events (EV_ROUTER): one per packet with a single queue, one per cell slot
when VCs share the link round robin.

Explicit Window Adaptation (ewa 3, :mod:`atmtcp.kernel.ewa`) acts in :func:`enter_hop`: an ACK whose
data crosses a queue with EWA has its advertised window (``PKT_WND``) rewritten when it enters that
queue's router on its way back to the source (``FL_EWA_HOP``), "on each TCP acknowledgement".
"""
from .cells import channel_push, release_packet_if_done
from .heap import heap_push, next_seq
from .jit import jit, jit_inline, jit_inline_ir
from .layout import (
    APP_SAMPLE_COL, C_DATA_VC, C_SND_MAX, C_SND_UNA, C_SND_WND, C_TIMEOUTS, DROP_FROM_FRONT, EV_ROUTER, CF_CWND, FL_DROPPED,
    FL_EWA_HOP, FL_IP_BYTES, FL_MEASURED_BYTES, FL_NHOPS, FL_PAYLOAD, FLOYD_JACOBSON_RED, INFINITE, PKT_ALIVE, PKT_NCELLS,
    PKT_PENDING, PACKET_ENTRY, RQ_BYTES, RQ_CAP_BYTES, RQ_CAP_PKTS, RQ_CELLS_LEFT, RQ_DROP_EARLY, RQ_DROP_FORCED, RQ_DROP_FRONT,
    RQ_DROP_OVERFLOW, RQ_HEAD, RQ_HEAD_STARTED, RQ_IDLE_SINCE, RQ_MAX_BYTES, RQ_MAX_PKTS, RQ_NEXT_CELL_AT, RQ_PKTS,
    RQ_PKTS_IN, RQ_POLICY, RQ_RED_COUNT, RQ_RED_GENTLE, RQ_RING_BASE, RQ_RING_CAP, RQ_SAMPLE_COL, RQF_AVG, RQF_IDLE_PACKET_NS,
    RQ_EWA, RQ_FSAMPLE_COL, RQ_PORT, RQF_EWA_ALPHA, RQF_EWA_AVG, RP_LINK_GAP_NS,
    RQF_MAX_P, RQF_MAX_TH, RQF_MIN_TH, RQF_WEIGHT, ROUTE_IP, ROUTER_DROP_COLUMNS, RP_BYTES_OUT, RP_CELL_GAP_NS, RP_CELL_NS,
    RP_CELLS_OUT, RP_EVENT_AT, RP_FIRST_Q, RP_FREE_AT, RP_MEASURED, RP_MODE, RP_NQ, RP_PKTS_IN,
    RP_PKTS_OUT, RP_PS_PER_BYTE, RP_RR, RP_SERVING, V_DELIVERY_CHAN, V_NHOPS, V_TAIL_NS,
)
from .ewa import queue_feedback, rewrite_ack
from .ports import transmit_cells
from .rings import ring_offset
from .rng import random_unit
from .router_policies import red_average, red_decision
from .state import (
    ftab, itab, T_APP, T_CONN, T_CONNF, T_FLOW, T_FLOW_RPORT, T_FLOW_RQ, T_PKT, T_RPORT, T_RQ, T_RQ_RING,
    T_RFSAMPLE, T_RQF, T_RSAMPLE, T_VC, T_VC_CHAN, T_VC_DELAY,
)


# --- entering the network and moving between hops ----------------------------------------------------
@jit_inline
def transmit(S, v, k, t):
    """Hand packet ``k`` of flow ``v`` to its first hop at ``t``: its cells to an ATM host's NIC
    (:func:`atmtcp.kernel.ports.transmit_cells`), or the whole packet to an IP host's NIC. Inlined
    into the TCP sender, so that the cell path calls ``transmit_cells`` as directly as before."""
    if itab(S, T_VC)[v, V_NHOPS] > 0:
        transmit_cells(S, v, k, t)
        return
    pkt = itab(S, T_PKT)
    pkt[k, PKT_ALIVE] = 0    # no cells: the packet lives while it is pending (in flight)
    pkt[k, PKT_PENDING] = 1
    enter_hop(S, v, 0, k, t)


@jit
def enter_hop(S, v, hop, k, t):
    """Packet ``k`` of flow ``v`` reaches the port of hop ``hop`` at ``t``: a lazy port fixes its
    departure at once, a port with queues admits it (:func:`admit_packet`). An ACK entering the
    router of the EWA queue its data crosses is rewritten first (:func:`atmtcp.kernel.ewa.rewrite_ack`)."""
    if hop == itab(S, T_FLOW)[v, FL_EWA_HOP]:
        rewrite_ack(S, v, k, t)
    rport = itab(S, T_RPORT)
    p = itab(S, T_FLOW_RPORT)[v, hop]
    q = itab(S, T_FLOW_RQ)[v, hop]
    rport[p, RP_PKTS_IN] += 1
    if q >= 0:
        admit_packet(S, p, q, v, hop, k, t)
        return
    end, free = packet_service(S, p, v, k, max(t, rport[p, RP_FREE_AT]))
    rport[p, RP_FREE_AT] = free
    depart(S, p, v, hop, k, end)


@jit_inline
def packet_service(S, p, v, k, start):
    """``(end, free)`` of packet ``k`` of flow ``v`` sent by port ``p`` from ``start``: when its
    last bit (IP) or last cell (ATM) has left, and when the port may start its next packet (the
    VC's cell spacing counts from the last cell's start)."""
    rport = itab(S, T_RPORT)
    if rport[p, RP_MODE] == ROUTE_IP:
        end = start + (itab(S, T_FLOW)[v, FL_IP_BYTES] * rport[p, RP_PS_PER_BYTE] + 999) // 1000
        return end, end
    cells = itab(S, T_PKT)[k, PKT_NCELLS]
    gap = rport[p, RP_CELL_GAP_NS]
    return start + (cells - 1) * gap + rport[p, RP_CELL_NS], start + cells * gap


@jit
def depart(S, p, v, hop, k, t):
    """Packet ``k`` of flow ``v`` has left port ``p`` (hop ``hop``) at ``t``: count it, and put it
    on the link to the next hop, or on its delivery channel after the last hop."""
    flow = itab(S, T_FLOW)
    rport = itab(S, T_RPORT)
    vc = itab(S, T_VC)
    rport[p, RP_PKTS_OUT] += 1
    rport[p, RP_BYTES_OUT] += flow[v, FL_IP_BYTES]
    if rport[p, RP_MODE] != ROUTE_IP:
        rport[p, RP_CELLS_OUT] += itab(S, T_PKT)[k, PKT_NCELLS]
    if rport[p, RP_MEASURED] != 0:
        flow[v, FL_MEASURED_BYTES] += flow[v, FL_PAYLOAD]
    if hop == flow[v, FL_NHOPS] - 1:
        channel_push(S, vc[v, V_DELIVERY_CHAN], t + vc[v, V_TAIL_NS], v, -1, k, -1, False)
    else:
        channel_push(S, itab(S, T_VC_CHAN)[v, hop], t + itab(S, T_VC_DELAY)[v, hop], v, hop + 1, k, PACKET_ENTRY,
                     False)  # the packet path's channels lead to router ports


# --- queues: admission and the drop policies ------------------------------------------------------------
@jit_inline_ir
def fits(S, q, size):
    """Room in queue ``q`` for a packet of ``size`` bytes (in bytes and in packets)."""
    rq = itab(S, T_RQ)
    return rq[q, RQ_BYTES] + size <= rq[q, RQ_CAP_BYTES] and rq[q, RQ_PKTS] < rq[q, RQ_CAP_PKTS]


@jit
def admit_packet(S, p, q, v, hop, k, t):
    """Packet ``k`` of flow ``v`` arrives at queue ``q`` of port ``p``: the queue's policy decides.

    - Drop-Tail (ewa 2): "the packet that arrives at a full buffer is dropped".
    - Drop-from-Front (ewa 2.1): "when a packet arrives at a full queue, the packet stored at the
      head of the queue is dropped. If service for the packet at the head of the queue has already
      started, the following packet in the queue is dropped instead. The arriving packet is always
      accepted, using the space freed by the dropped packet" (:func:`drop_from_front`).
    - RED (ewa 2.2, Floyd and Jacobson): the average queue in packets decides an early drop
      (:mod:`atmtcp.kernel.router_policies`), one uniform draw from the run's stream at every
      arrival, so that the stream does not depend on the decisions; a packet RED lets in that finds
      the buffer full is dropped at the tail.
    """
    rq = itab(S, T_RQ)
    size = itab(S, T_FLOW)[v, FL_IP_BYTES]
    rq[q, RQ_PKTS_IN] += 1
    policy = rq[q, RQ_POLICY]
    if policy == FLOYD_JACOBSON_RED:
        rqf = ftab(S, T_RQF)
        avg = red_average(rqf[q, RQF_AVG], rq[q, RQ_PKTS], rqf[q, RQF_WEIGHT], t - rq[q, RQ_IDLE_SINCE],
                          rqf[q, RQF_IDLE_PACKET_NS])
        rqf[q, RQF_AVG] = avg
        drop, forced, count = red_decision(avg, rq[q, RQ_RED_COUNT], rqf[q, RQF_MIN_TH], rqf[q, RQF_MAX_TH],
                                           rqf[q, RQF_MAX_P], rq[q, RQ_RED_GENTLE] == 1, random_unit(S))
        rq[q, RQ_RED_COUNT] = count
        if drop:
            drop_packet(S, q, v, k, RQ_DROP_FORCED if forced else RQ_DROP_EARLY)
            return
    if not fits(S, q, size):
        if policy == DROP_FROM_FRONT:
            drop_from_front(S, q, size)
        if not fits(S, q, size):
            drop_packet(S, q, v, k, RQ_DROP_OVERFLOW)
            return
    enqueue(S, q, v, hop, k, size)
    rport = itab(S, T_RPORT)
    if rport[p, RP_EVENT_AT] < 0:
        start_service(S, p, t)
    elif rport[p, RP_NQ] > 1 and rport[p, RP_SERVING] < 0 and rport[p, RP_EVENT_AT] > t:
        cell_slot(S, p, t)  # the port waits for a VC's cell spacing: the new packet may go now


@jit
def drop_from_front(S, q, size):
    """Drop packets at the front of queue ``q`` until one of ``size`` bytes fits: the head, or the
    packet after it when the head's service has started (ewa 2.1). With packets of one size one
    drop makes room. If only the head in service is left, nothing more can go (the caller then
    drops the arriving packet: a buffer that holds one packet only)."""
    rq = itab(S, T_RQ)
    while not fits(S, q, size):
        position = 1 if rq[q, RQ_HEAD_STARTED] >= 0 else 0
        if rq[q, RQ_PKTS] <= position:
            return
        k, v, _ = remove_queued(S, q, position)
        drop_packet(S, q, v, k, RQ_DROP_FRONT)


@jit
def drop_packet(S, q, v, k, column):
    """Discard packet ``k`` of flow ``v`` at queue ``q``, counted in ``column`` (RQ_DROP_*)."""
    rq = itab(S, T_RQ)
    rq[q, column] += 1
    itab(S, T_FLOW)[v, FL_DROPPED] += 1
    itab(S, T_PKT)[k, PKT_PENDING] = 0
    release_packet_if_done(S, k)


# --- the ring of a queue: (packet, flow << 8 | hop), FIFO from RQ_HEAD ------------------------------------------
@jit_inline_ir
def ring_index(S, q, position):
    """Row of ``rq_ring`` of the packet at ``position`` of queue ``q`` (0: the head)."""
    rq = itab(S, T_RQ)
    return rq[q, RQ_RING_BASE] + ring_offset(rq[q, RQ_HEAD], position, rq[q, RQ_RING_CAP])


@jit
def enqueue(S, q, v, hop, k, size):
    """Put packet ``k`` (flow ``v``, hop ``hop``, ``size`` bytes) at the tail of queue ``q``."""
    rq = itab(S, T_RQ)
    ring = itab(S, T_RQ_RING)
    i = ring_index(S, q, rq[q, RQ_PKTS])
    ring[i, 0] = k
    ring[i, 1] = (v << 8) | hop
    rq[q, RQ_PKTS] += 1
    rq[q, RQ_BYTES] += size
    rq[q, RQ_MAX_PKTS] = max(rq[q, RQ_MAX_PKTS], rq[q, RQ_PKTS])
    rq[q, RQ_MAX_BYTES] = max(rq[q, RQ_MAX_BYTES], rq[q, RQ_BYTES])


@jit
def remove_queued(S, q, position):
    """Take the packet at ``position`` (0: the head) out of queue ``q``; the packets before it move
    back one place. Returns ``(packet, flow, hop)``."""
    rq = itab(S, T_RQ)
    ring = itab(S, T_RQ_RING)
    i = ring_index(S, q, position)
    k = ring[i, 0]
    v = ring[i, 1] >> 8
    hop = ring[i, 1] & 0xFF
    for j in range(position, 0, -1):
        here = ring_index(S, q, j)
        before = ring_index(S, q, j - 1)
        ring[here, 0] = ring[before, 0]
        ring[here, 1] = ring[before, 1]
    rq[q, RQ_HEAD] = ring_offset(rq[q, RQ_HEAD], 1, rq[q, RQ_RING_CAP])
    rq[q, RQ_PKTS] -= 1
    rq[q, RQ_BYTES] -= itab(S, T_FLOW)[v, FL_IP_BYTES]
    return k, v, hop


# --- service -----------------------------------------------------------------------------------------------------
@jit_inline
def schedule_router_event(S, p, at):
    """Push router port ``p``'s ``EV_ROUTER`` event at ``at`` and remember its time in ``RP_EVENT_AT``."""
    itab(S, T_RPORT)[p, RP_EVENT_AT] = at
    heap_push(S, at, next_seq(S), EV_ROUTER, p)


@jit
def start_service(S, p, t):
    """Idle port ``p`` has a packet: send it whole (one queue) or start the round robin of cells."""
    if itab(S, T_RPORT)[p, RP_NQ] == 1:
        start_packet(S, p, t)
    else:
        cell_slot(S, p, t)


@jit
def start_packet(S, p, t):
    """One queue: the head packet's service starts (at ``t``, or when its VC's cell spacing allows)
    and its departure event is scheduled; idle if the queue is empty. From then on it is "in
    service": Drop-from-Front takes the packet behind it."""
    rq = itab(S, T_RQ)
    q = itab(S, T_RPORT)[p, RP_FIRST_Q]
    if rq[q, RQ_PKTS] == 0:
        itab(S, T_RPORT)[p, RP_EVENT_AT] = -1
        return
    ring = itab(S, T_RQ_RING)
    i = ring_index(S, q, 0)
    start = max(t, rq[q, RQ_NEXT_CELL_AT])
    end, free = packet_service(S, p, ring[i, 1] >> 8, ring[i, 0], start)
    rq[q, RQ_NEXT_CELL_AT] = free
    rq[q, RQ_HEAD_STARTED] = start
    schedule_router_event(S, p, end)


@jit
def complete_head(S, p, q, t):
    """The head packet of queue ``q`` has left port ``p`` at ``t``."""
    rq = itab(S, T_RQ)
    k, v, hop = remove_queued(S, q, 0)
    rq[q, RQ_HEAD_STARTED] = -1
    if rq[q, RQ_PKTS] == 0:
        rq[q, RQ_IDLE_SINCE] = t
    depart(S, p, v, hop, k, t)


@jit
def cell_slot(S, p, t):
    """Several queues (one per VC) share the ATM link: at the end of each cell time the port
    finishes the cell on the link, then sends one cell of the next backlogged VC in round-robin
    order whose cell spacing allows it; with none allowed yet, it waits for the earliest."""
    rq = itab(S, T_RQ)
    rport = itab(S, T_RPORT)
    serving = rport[p, RP_SERVING]
    if serving >= 0:
        rport[p, RP_SERVING] = -1
        if rq[serving, RQ_CELLS_LEFT] == 0:
            complete_head(S, p, serving, t)
    first = rport[p, RP_FIRST_Q]
    n = rport[p, RP_NQ]
    wake = INFINITE
    for i in range(1, n + 1):
        q = first + (rport[p, RP_RR] - first + i) % n
        if rq[q, RQ_PKTS] == 0:
            continue
        if rq[q, RQ_NEXT_CELL_AT] > t:
            wake = min(wake, rq[q, RQ_NEXT_CELL_AT])
            continue
        if rq[q, RQ_HEAD_STARTED] < 0:
            rq[q, RQ_HEAD_STARTED] = t
            rq[q, RQ_CELLS_LEFT] = itab(S, T_PKT)[itab(S, T_RQ_RING)[ring_index(S, q, 0), 0], PKT_NCELLS]
        rq[q, RQ_CELLS_LEFT] -= 1
        rq[q, RQ_NEXT_CELL_AT] = t + rport[p, RP_CELL_GAP_NS]
        rport[p, RP_SERVING] = q
        rport[p, RP_RR] = q
        schedule_router_event(S, p, t + rport[p, RP_CELL_NS])
        return
    if wake < INFINITE:
        schedule_router_event(S, p, wake)
    else:
        rport[p, RP_EVENT_AT] = -1


@jit
def router_event(S, p, t):
    """The event of port ``p``: its packet has left (one queue) or its cell slot ended (several).
    An event superseded by an earlier one (a packet arrived while the port waited for a VC's
    spacing) is ignored."""
    rport = itab(S, T_RPORT)
    if rport[p, RP_EVENT_AT] != t:
        return
    rport[p, RP_EVENT_AT] = -1
    if rport[p, RP_NQ] == 1:
        complete_head(S, p, rport[p, RP_FIRST_Q], t)
        start_packet(S, p, t)
    else:
        cell_slot(S, p, t)


# --- samples --------------------------------------------------------------------------------------------------------
@jit
def sample_packet_path(S, i, t):
    """Row ``i`` of ``rsample``: each sampled queue's :data:`atmtcp.kernel.layout.QUEUE_SAMPLE_FIELDS`, each sampled connection's
    :data:`atmtcp.kernel.layout.SAMPLED_CONNECTION_FIELDS`; and of ``rfsample``: each sampled
    queue's :data:`atmtcp.kernel.layout.EWA_SAMPLE_FIELDS`."""
    rsample = itab(S, T_RSAMPLE)
    if rsample.shape[1] == 0:
        return
    rq = itab(S, T_RQ)
    rqf = ftab(S, T_RQF)
    rfsample = ftab(S, T_RFSAMPLE)
    rport = itab(S, T_RPORT)
    for q in range(rq.shape[0]):
        col = rq[q, RQ_SAMPLE_COL] - 1
        if col >= 0:
            rsample[i, col] = rq[q, RQ_BYTES]
            rsample[i, col + 1] = rq[q, RQ_PKTS]
            dropped = 0
            for reason in ROUTER_DROP_COLUMNS:
                dropped += rq[q, reason]
            rsample[i, col + 2] = dropped
            col = rq[q, RQ_FSAMPLE_COL] - 1
            p = rq[q, RQ_PORT]
            rfsample[i, col] = rqf[q, RQF_EWA_ALPHA]
            rfsample[i, col + 1] = rqf[q, RQF_EWA_AVG]
            rfsample[i, col + 2] = queue_feedback(S, q) if rq[q, RQ_EWA] != 0 else 0.0
            rfsample[i, col + 3] = rport[p, RP_LINK_GAP_NS] / rport[p, RP_CELL_GAP_NS]
    app = itab(S, T_APP)
    conn = itab(S, T_CONN)
    flow = itab(S, T_FLOW)
    for c in range(app.shape[0]):
        col = app[c, APP_SAMPLE_COL] - 1
        if col >= 0:
            v = conn[c, C_DATA_VC]
            rsample[i, col] = flow[v, FL_MEASURED_BYTES] if v < flow.shape[0] else 0
            rsample[i, col + 1] = conn[c, C_SND_MAX]
            rsample[i, col + 2] = conn[c, C_SND_UNA]
            rsample[i, col + 3] = int(ftab(S, T_CONNF)[c, CF_CWND])
            rsample[i, col + 4] = conn[c, C_SND_WND]
            rsample[i, col + 5] = flow[v, FL_DROPPED] if v < flow.shape[0] else 0
            rsample[i, col + 6] = conn[c, C_TIMEOUTS]
