"""Output ports: the lazy FIFO fast path, and the dispatch to held ports.

A plain FIFO port is served at a constant cell time, so a cell's departure time is fixed
the moment it is admitted: ``depart = max(arrival, busy_until) + cell_time``. Such a port
therefore never schedules a departure event: :func:`drain` retires the cells whose
departure is over before the buffer state is read, and the cell is forwarded (put on the
next hop's channel with its departure time) at once. This is exact for FIFO service
without removal of queued cells.

The cells still queued at ``t`` are those departing after ``t``, and they depart one cell
time apart, back from ``busy_until``: ``ceil((busy_until - t) / cell_time)`` of them. A
port whose policy reads only that number (tail drop, PPD, EPD) keeps nothing per cell
(``P_RING_CAP = 0``). A policy that reads each VC's share of the buffer (Selective Drop,
FBA) needs to know whose cells leave, so its port keeps a ring of ``((port, VC) slot,
departure time)`` per queued cell.

A discipline that removes cells after their arrival (randomized tail drop, drop from front)
makes the port a *held* port (``P_HELD`` = ``HELD_CELLS``, :mod:`atmtcp.kernel.held_ports`):
it keeps the cells themselves and forwards each one by a departure event. A slotted port
otherwise (``SLOT_ENDS``) holds only the arrivals of the current slot, to admit them in a
random order at the slot's end, and admits them as this path does
(:func:`atmtcp.kernel.held_ports.lazy_slot_end`). The compiler chooses the path per port,
so the fast path costs nothing when those options are off.
"""
from .cells import (  # noqa: F401  (alloc_packet, channel_pop, channel_take, free_record, release_packet_if_done: re-exported)
    alloc_packet, channel_pop, channel_push_train, channel_take, forward_cell, free_record, release_packet_if_done,
)
from .faults import keep_fault_args
from .held_ports import admit_held
from .lazy_fifo import admit_lazy, drain
from .jit import jit, jit_inline
from .layout import (
    CH_CDV_NS, G_NOW, G_NSAMPLES, G_SAMPLE_NS, PKT_NCELLS, P_BUSY_UNTIL, P_CELL_NS, P_CAPACITY, P_CELLS_IN, P_CELLS_OUT,
    P_HANDOVER_AT, P_HELD, HELD_CELLS, LAZY_FIFO, P_IP_FREE, P_IP_NS, P_MAX_QUEUE, P_POLICY, P_QUEUE, P_RING_CAP,
    P_TRACE, PV_NORMAL, TAIL, V_CELLS_SENT, V_NHOPS,
)
from .state import (
    itab, ivec, nonneg, T_CHAN, T_G, T_OSAMPLE, T_PKT, T_PORT, T_PV_STATE, T_QSAMPLE, T_VC, T_VC_CHAN, T_VC_DELAY,
    T_VC_PORT, T_VC_PV,
)


@jit_inline
def admit_cell(S, v, hop, k, idx, t, seq):
    """Cell ``idx`` of packet ``k`` of VC ``v`` arrives at the port of hop ``hop`` by the event keyed
    ``(t, seq)``."""
    port = itab(S, T_PORT)
    vc_port = itab(S, T_VC_PORT)
    hop = nonneg(hop)
    p = nonneg(vc_port[v, hop])
    if port[p, P_HELD] != LAZY_FIFO:
        admit_held(S, p, v, hop, k, idx, t, seq)
    else:
        admit_lazy(S, p, v, hop, k, idx, t)


NIC_NOT_TAIL_DROP = ("a NIC must be a tail-drop FIFO port with room for the packet "
                     "(port, policy, cells queued):")
""":func:`transmit_cells`' error for a NIC state no model builds (:mod:`atmtcp.kernel.faults`)."""


@jit
def transmit_cells(S, v, k, t):
    """Segment packet ``k`` into cells and hand them to the NIC port of VC ``v``.

    A NIC with an IP service time (``P_IP_NS > 0``, cheon 2: "The packet inter-arrival
    time of active sources onto the ATM adaptation layer is dominated by the IP service
    rate ... The IP buffer size is set to infinity") hands over one packet per service
    time, in FIFO order, and its cells follow at the line rate; else the cells enter at
    ``t``. A NIC is a lazy FIFO port, so admitting cells at a later time than ``t`` is
    exact: every later packet of the NIC is handed over later still. A NIC is a lazy tail-drop FIFO on
    an infinite buffer (:func:`atmtcp.compile.cell_ports.port_specs` gives every NIC ``PortConfig(None)``),
    which accepts every cell, so the packet's cells are counted in at once (one drain, no decision per
    cell) and forwarded one cell time apart, as :func:`admit_lazy` would. A NIC state built otherwise
    stops the run with a ``ValueError`` naming the port, its policy code and its queue: deciding such a
    NIC's cells here would inline :func:`admit_lazy`, and with it every policy, into this function, a
    copy that cost 40 s and 59 s of CPU in two side-by-side cold compiles of the kernel (docs/speed.md,
    issue 39) for a path no model reaches.

    A packet handed over after the event's time (an IP service time, or a receiver's ACK delay: ``t``
    is then later than the clock) puts the NIC's counters at its handover, ahead of the clock: a
    traced NIC first records its samples before that time (:func:`sample_before_handover`).
    """
    v = nonneg(v)
    k = nonneg(k)
    pkt = itab(S, T_PKT)
    port = itab(S, T_PORT)
    vc = itab(S, T_VC)
    p = nonneg(itab(S, T_VC_PORT)[v, 0])
    service = port[p, P_IP_NS]
    if service > 0:
        t = max(t, port[p, P_IP_FREE])
        port[p, P_IP_FREE] = t + service
    if port[p, P_TRACE] != 0 and t > ivec(S, T_G)[G_NOW]:
        sample_before_handover(S, p, t)
    n = pkt[k, PKT_NCELLS]
    vc[v, V_CELLS_SENT] += n
    drain(S, p, t)
    x = port[p, P_QUEUE]
    if (port[p, P_POLICY] == TAIL and port[p, P_RING_CAP] == 0 and x + n < port[p, P_CAPACITY]
            and ivec(S, T_PV_STATE)[itab(S, T_VC_PV)[v, 0]] == PV_NORMAL):
        # Tail drop below a full buffer accepts every cell in its normal state (cell_decision), and
        # the cells arrive at one instant, so after one drain each would find nothing to retire: the
        # packet's cells are counted in at once, each leaving one cell time after the one before.
        port[p, P_CELLS_IN] += n
        port[p, P_QUEUE] = x + n
        if x + n > port[p, P_MAX_QUEUE]:
            port[p, P_MAX_QUEUE] = x + n
        depart = max(t, port[p, P_BUSY_UNTIL])
        cell_ns = port[p, P_CELL_NS]
        port[p, P_BUSY_UNTIL] = depart + n * cell_ns
        if vc[v, V_NHOPS] > 1:  # on to a port (else vc_chan is -1: the NIC is the VC's last port)
            ch = nonneg(itab(S, T_VC_CHAN)[v, 0])
            if itab(S, T_CHAN)[ch, CH_CDV_NS] == 0:
                # the cells follow one another on the link, as one entry (a train)
                channel_push_train(S, ch, depart + cell_ns + itab(S, T_VC_DELAY)[v, 0], cell_ns, v, 1, k, n)
                return
        for idx in range(n):
            depart += cell_ns
            forward_cell(S, v, 0, k, idx, depart)
        return
    keep_fault_args(S, 3, p, port[p, P_POLICY], x)
    raise ValueError(NIC_NOT_TAIL_DROP)


@jit_inline
def record_sample(S, p, i, t):
    """Row ``i`` of traced port ``p``'s samples: its queue length and cumulative departures at ``t``."""
    port = itab(S, T_PORT)
    col = port[p, P_TRACE] - 1
    if port[p, P_HELD] != HELD_CELLS:
        drain(S, p, t)
    itab(S, T_QSAMPLE)[i, col] = port[p, P_QUEUE]
    itab(S, T_OSAMPLE)[i, col] = port[p, P_CELLS_OUT]


@jit
def sample_before_handover(S, p, handover):
    """Traced NIC ``p`` is handed a packet at ``handover``, later than the clock (``G_NOW``): record
    its samples from now (or from its previous handover, ``P_HANDOVER_AT``, if later: those before
    were recorded then) to before ``handover``, while its counters hold only the packets handed over
    by then.

    :func:`transmit_cells` drains the NIC at the handover time, so its queue and departures run
    ahead of the clock until then; a sample read from them at its own time would count the cells
    that leave before the handover as gone already (with cheon's IP service rate a whole packet, or
    several, within one sample of 1 us: issue 23), and show a packet queued that the IP layer (or a
    lakshman receiver's ACK delay) still holds. Here the NIC is drained at each sampling instant of
    that range in turn (none earlier than a drain before it: drains at increasing times compose, and
    the drain at the handover leaves the state one drain would) and the sample recorded;
    :func:`sample_ports` skips these samples when their time comes, as it finds the handover after
    their time."""
    g = ivec(S, T_G)
    port = itab(S, T_PORT)
    step = g[G_SAMPLE_NS]
    i = (max(g[G_NOW], port[p, P_HANDOVER_AT]) + step - 1) // step
    while i < g[G_NSAMPLES] and i * step < handover:
        record_sample(S, p, i, i * step)
        i += 1
    port[p, P_HANDOVER_AT] = max(port[p, P_HANDOVER_AT], handover)


@jit
def sample_ports(S, i, t):
    """Record queue length and cumulative departures of the traced ports at sample ``i``. A NIC whose
    last packet is handed over after ``t`` (``P_HANDOVER_AT``) had this sample recorded before that
    packet came (:func:`sample_before_handover`)."""
    port = itab(S, T_PORT)
    for p in range(port.shape[0]):
        if port[p, P_TRACE] != 0 and t >= port[p, P_HANDOVER_AT]:
            record_sample(S, p, i, t)
