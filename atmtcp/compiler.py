"""Turn a validated :class:`atmtcp.model.Run` into the kernel's arrays.

Routing is by fewest hops (breadth-first, ties broken by link order). Each direction of
each link is an output port at its sending node; a host's port is its NIC, with an
infinite buffer. A switch port through which every cell arrives from one and the same
upstream port of no higher rate can never hold more than the cell in service, so the
compiler folds it into the route's delays (cell time + propagation) instead of
simulating it: this is exact, and it removes most of the events of the papers'
topologies. A port fed by a link with cell delay variation is never folded; a slotted port
(:mod:`atmtcp.kernel.held_ports`) is folded only when its single input is a slotted port of
the same cell time (see :func:`_foldable`), with its delay rounded up to its slot grid.
"""
from __future__ import annotations

import copy
import os
from collections import Counter, deque
from dataclasses import dataclass, field

import numpy as np

from . import model as m
from .kernel import layout as L
from .kernel.aal5 import CELL_BYTES, packet_cells
from .kernel.tables import KernelState, SimState, Zeros, pack
from .metrics import framing

NS = 1_000_000_000
INITIAL_INFINITE_RING = 16384
"""Cells an infinite buffer's ring holds at first, at most (less where the windows crossing
the port bound its queue lower); it grows when it runs low (see :class:`Growth`)."""
UNBOUNDED_CELLS_IN_POOL = 1 << 20
"""At most this many cells of the initial cell pool are set aside for the cells that wait
in infinite buffers (each bounded by the windows that cross it) and travel on the links
(delay / cell time per channel). With thousands of sources these bounds add up to far more
than is ever in flight; the pool grows when it runs low (:class:`Growth`). goyal1998's and
goyal1997's runs stay below it."""
PACKETS_IN_POOL = 1 << 18
"""At most this many packets in the initial packet pool (which also grows when it runs low)."""


@dataclass
class Growth:
    """Multipliers of the growable sizes: the pool of cells, of packets, the event heap, each
    infinite buffer's ring (by port name), each slotted port's list of pending arrivals.

    :func:`compile_run` sizes the tables with them (each size plus one event's
    :class:`Margins`, so that the first event always fits); :mod:`atmtcp.grow` multiplies the
    one of a resource it grows in a paused run (x4), which keeps the record of what grew and
    bounds it (:data:`atmtcp.simulate.MAX_GROWTH`). Fractions are allowed: tests start with
    tiny tables to force growth. Sizes never change a result."""

    cells: float = 1
    packets: float = 1
    heap: float = 1
    rings: dict[str, float] = field(default_factory=dict)
    pending: dict[str, float] = field(default_factory=dict)

    def largest(self) -> float:
        """The largest multiplier (a bound on the growth steps)."""
        return max([self.cells, self.packets, self.heap, *self.rings.values(), *self.pending.values()])


HEAP_MARGIN = 16
"""Heap entries one event can add, at most: the heads of the (at most two) channels it fills
from empty (a burst goes down one VC), a few retransmission and delayed-ACK timer entries
(each re-armed only to an earlier deadline), one port event, one sample."""
PEND_MARGIN = 2
"""Pending arrivals one event can add to a slotted port: one (a cell reaches a switch port by a
channel event of its own; a burst enters only its host's NIC, never slotted)."""


@dataclass
class Margins:
    """What one event can take, at most, of each growable resource; the kernel stops between
    two events when less is left (the ``*_LOW`` statuses), so an event never runs out.

    The worst event is a TCP burst: one ACK lets a sender put up to its advertised window W
    of segments beyond ``snd_una`` on the wire (``tcp_output``), plus one retransmission (fast
    retransmit, New Reno's partial ACK); SACK recovery may resend the holes below the highest
    SACKed segment and send new data, up to 2 W. Each segment takes one packet record and, per
    cell, one record of the cell pool (its NIC forwards each cell onto a channel at once, or
    reassembles it); an ACK takes one packet of a few cells.
    An event at a switch port handles one cell, except a slotted port's slot end, which
    admits all of the slot's pending arrivals into its ring."""

    cells: int
    packets: int
    ring: np.ndarray   # per port, without the pending arrivals a slotted port may admit at once

    heap: int = HEAP_MARGIN
    pending: int = PEND_MARGIN

    def ring_of(self, port: np.ndarray, p: int) -> int:
        """Ring entries one event can add at port ``p`` (row ``port[p]`` of the port table)."""
        return int(self.ring[p] + (port[L.P_PEND_CAP] if port[L.P_SLOTTED] else 0))


def _event_margins(run: m.Run, nic_ports: list[int], n_port: int, overhead: int, ack_bytes: int) -> Margins:
    """:class:`Margins` of ``run``: the largest burst of any connection (see there);
    ``nic_ports``: the kernel index of each VC's first port."""
    bursts = [(2 if c.tcp.flavor == "sack" else 1) * (c.tcp.rcv_wnd // c.tcp.mss + 2) + 2
              for c in run.connections]
    cells = max(b * packet_cells(c.tcp.mss, overhead) for b, c in zip(bursts, run.connections))
    cells += packet_cells(28, ack_bytes) + 8
    ring = np.full(n_port, 2, np.int64)
    ring[nic_ports] = cells  # a NIC takes a whole burst (NICs keep no ring today)
    return Margins(cells, max(bursts) + 2, ring)


def cell_time_ns(rate_bps: float) -> int:
    """Transmission time of one 53-byte cell at ``rate_bps``, rounded to the nanosecond
    (2726 ns at 155.52 Mbps: the rate is 0.013 % higher than nominal)."""
    return max(1, int(round(CELL_BYTES * 8 * NS / rate_bps)))


@dataclass
class PortSpec:
    name: str
    node: str
    rate_bps: float
    delay_s: float
    config: m.PortConfig
    is_nic: bool
    cdv_ns: int = 0

    @property
    def held(self) -> bool:
        """The port holds its cells (:mod:`atmtcp.kernel.held_ports`)."""
        return self.config.slotted or self.config.randomized_tail or self.config.drop_from_front != "none"


@dataclass
class Compiled:
    """Kernel state plus the names needed to label its results."""

    state: SimState                # named views of the kernel's arenas
    kernel_state: KernelState      # what the kernel runs on
    port_names: list[str]          # kernel port index -> "node->neighbor"
    folded_ports: list[str]
    traced_ports: list[str]
    folded_after: list[int]        # per VC: folded ports after its last simulated port
    bottleneck: str                # the port shared by the most data connections (slowest of those)
    bottleneck_bps: float          # its cell rate in bits/s, at the cell time it really has
    framing: np.ndarray            # per connection: TCP payload per link byte (metrics.framing)
    through_bottleneck: np.ndarray  # per connection: its data cross the bottleneck
    n_samples: int
    sample_interval_ns: int
    margins: Margins               # one event's worst use of each growable resource
    growth: Growth                 # the multipliers of the sizes, raised as they grow
    router_ports: list[str] = field(default_factory=list)    # the packet path (atmtcp.packet_compiler):
    router_queues: list[str] = field(default_factory=list)   # kernel index -> name, of ports and queues
    sampled_queues: list[str] = field(default_factory=list)  # the queues of the traced router ports
    atm_hops_after: list[int] = field(default_factory=list)  # per router port: 1 + ATM switch ports after it


def _ports(network: m.Network) -> dict[str, PortSpec]:
    hosts = set(network.hosts)
    overrides = dict(network.ports)
    specs = {}
    for link in network.links:
        for a, b in ((link.a, link.b), (link.b, link.a)):
            name = f"{a}->{b}"
            is_nic = a in hosts
            config = m.PortConfig(None) if is_nic else overrides.get(name, network.switch_port)
            rate = link.rate_bps * (m.SONET_PAYLOAD_FRACTION if network.sonet and not is_nic else 1.0)
            specs[name] = PortSpec(name, a, rate, link.delay_s, config, is_nic, int(round(link.cdv_s * NS)))
    return specs


class Router:
    """Fewest-hop routes of one network (hosts do not forward).

    A breadth-first search from a host with a single link reaches every node through that
    link's other end, so the search tree from that node serves every host attached to it:
    it is computed once per node, and N sources cost O(N) instead of O(N^2). A host with
    several links gets its own search, as before; both give the same routes.
    """

    def __init__(self, network: m.Network):
        self.neighbours: dict[str, list[str]] = {}
        for link in network.links:
            self.neighbours.setdefault(link.a, []).append(link.b)
            self.neighbours.setdefault(link.b, []).append(link.a)
        self.hosts = set(network.hosts)
        self.trees: dict[str, dict[str, str | None]] = {}

    def _tree(self, root: str) -> dict[str, str | None]:
        previous = {root: None}
        queue = deque([root])
        while queue:
            node = queue.popleft()
            if node in self.hosts and node != root:
                continue
            for nxt in self.neighbours.get(node, []):
                if nxt not in previous:
                    previous[nxt] = node
                    queue.append(nxt)
        return previous

    def route(self, src: str, dst: str) -> list[str]:
        """Port names from ``src`` to ``dst`` along a fewest-hop path."""
        first = self.neighbours.get(src, [])
        if src in self.hosts and len(first) == 1 and dst != src:
            hop = first[0]
            if hop == dst:
                return [f"{src}->{dst}"]
            if hop in self.hosts:
                previous = {}
            else:
                if hop not in self.trees:
                    self.trees[hop] = self._tree(hop)
                previous = self.trees[hop]
            if dst not in previous:
                raise m.ModelError("Connection", "dst", dst, f"a host reachable from {src!r}")
            nodes = [dst]
            while nodes[-1] != hop:
                nodes.append(previous[nodes[-1]])
            nodes.append(src)
        else:
            previous = self._tree(src)
            if dst not in previous:
                raise m.ModelError("Connection", "dst", dst, f"a host reachable from {src!r}")
            nodes = [dst]
            while previous[nodes[-1]] is not None:
                nodes.append(previous[nodes[-1]])
        nodes.reverse()
        return [f"{a}->{b}" for a, b in zip(nodes[:-1], nodes[1:])]


MEMORY_FRACTION = 0.75
"""A run whose kernel arrays would take more than this share of the machine's memory is refused."""


def _check_memory(estimated_bytes: int) -> None:
    """Refuse, before allocating, a run whose arrays would not fit in memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return
    if estimated_bytes > MEMORY_FRACTION * total:
        raise m.ModelError("Run", "size", f"{estimated_bytes / 2**30:.1f} GiB of kernel arrays",
                           f"at most {MEMORY_FRACTION:.0%} of this machine's {total / 2**30:.1f} GiB "
                           "(fewer sources, smaller buffers or traces)")


def _upstream(routes: list[list[str]]) -> dict[str, set[str]]:
    """Per port on a route, the ports whose cells it receives (its input ports)."""
    upstream: dict[str, set[str]] = {}
    for route in routes:
        upstream.setdefault(route[0], set())
        for before, port in zip(route[:-1], route[1:]):
            upstream.setdefault(port, set()).add(before)
    return upstream


def _foldable(specs: dict[str, PortSpec], upstream: dict[str, set[str]]) -> set[str]:
    """Ports that provably never queue (see the module docstring).

    A port with a single input port whose link has no delay variation never holds more
    than the cell in service when that input sends no faster than the port drains. A
    slotted port needs more: its input must itself be slotted at the same cell time, so
    that every arrival lands on the same phase of the slot (at most one per slot); an
    unslotted input could put two arrivals into one slot.
    """
    folded = set()
    for name, ups in upstream.items():
        spec = specs[name]
        if spec.is_nic or len(ups) != 1:
            continue
        up = specs[next(iter(ups))]
        if up.cdv_ns > 0:
            continue  # delay variation can bunch cells, which then queue
        if spec.config.buffer_cells is not None and spec.config.policy.may_refuse_at_empty(spec.config.buffer_cells):
            continue
        if spec.config.slotted:
            if up.config.slotted and not up.is_nic and cell_time_ns(up.rate_bps) == cell_time_ns(spec.rate_bps):
                folded.add(name)
        elif up.rate_bps <= spec.rate_bps:
            folded.add(name)
    return folded


def _folded_delay_ns(spec: PortSpec, since_departure_ns: int) -> int:
    """Time from the last simulated departure to the departure from folded port ``spec``,
    for a cell that reached it ``since_departure_ns`` after that departure: one cell time,
    after waiting for the slot's end at a slotted port (the departure was on a slot edge)."""
    cell_ns = cell_time_ns(spec.rate_bps)
    if spec.config.slotted:
        return (since_departure_ns // cell_ns + 2) * cell_ns
    return since_departure_ns + cell_ns


def _window_cells(tcp: m.TcpConfig, cells_per_segment: int) -> int:
    return (tcp.rcv_wnd // tcp.mss + 2) * cells_per_segment


NO_PACKET_PATH = dict(
    flow=Zeros((0, L.FL_NFIELDS)), flow_rport=Zeros((0, 1)), flow_rq=Zeros((0, 1)),
    rport=Zeros((0, L.RP_NFIELDS)), rq=Zeros((0, L.Q_NFIELDS)), rqf=Zeros((0, L.QF_NFIELDS)),
    rq_ring=Zeros((0, 2)), rsample=Zeros((0, 0)), rfsample=Zeros((0, 0)),
)
"""The packet path's tables in a run of cell ports only (:mod:`atmtcp.kernel.packets`): empty."""


def connection_tables(run: m.Run) -> tuple[np.ndarray, np.ndarray, int]:
    """The ``conn`` and ``connf`` tables of ``run``'s connections (connection c's data flow is VC
    2c, its ACKs 2c + 1) and the scoreboards' capacity (a power of two above every window)."""
    n_conn = len(run.connections)
    conn = np.zeros((n_conn, L.C_NFIELDS), np.int64)
    connf = np.zeros((n_conn, L.F_NFIELDS), np.float64)
    sb_cap = 1
    for c_obj in run.connections:
        while sb_cap < c_obj.tcp.rcv_wnd // c_obj.tcp.mss + 4:
            sb_cap *= 2
    trace_set = set(run.trace.connections)
    for c, cobj in enumerate(run.connections):
        tcp = cobj.tcp
        gran = int(round(tcp.granularity_s * NS))
        scale_shift = tcp.window_scale
        rcv_wnd = (tcp.rcv_wnd >> scale_shift) << scale_shift
        initial_rto_ticks = max(1, int(round(tcp.initial_rto_s / tcp.granularity_s)))
        row = conn[c]
        row[L.C_FLAVOR] = m.FLAVORS.index(tcp.flavor)
        row[L.C_MSS] = tcp.mss
        row[L.C_RCV_WND] = rcv_wnd
        row[L.C_MAX_CWND] = 65535 << scale_shift
        row[L.C_GRAN_NS] = gran
        row[L.C_RTTMIN] = tcp.min_rto_ticks
        row[L.C_RXTMAX] = max(tcp.min_rto_ticks, int(round(tcp.max_rto_s / tcp.granularity_s)))
        row[L.C_RTTVAR] = initial_rto_ticks  # 4.4BSD: REXMTVAL = srtt/8 + rttvar = initial RTO
        row[L.C_RXTCUR] = min(max(initial_rto_ticks, row[L.C_RTTMIN]), row[L.C_RXTMAX])
        row[L.C_TIMER_DEADLINE] = -1
        row[L.C_TIMER_QUEUED] = -1
        row[L.C_DATA_VC] = 2 * c
        row[L.C_ACK_VC] = 2 * c + 1
        row[L.C_START_NS] = int(round(cobj.start_s * NS))
        row[L.C_INCREASE_RULE] = m.INCREASE_RULES.index(tcp.increase)
        row[L.C_INCREASE_N] = tcp.increase_every_n
        row[L.C_LAST_RCVD_SEG] = -1
        row[L.C_DELACK] = int(tcp.delayed_ack)
        row[L.C_DELACK_NS] = int(round(tcp.delayed_ack_max_s * NS))
        row[L.C_DELACK_DEADLINE] = -1
        row[L.C_DELACK_QUEUED] = -1
        row[L.C_SB_MASK] = sb_cap - 1
        row[L.C_TRACE] = int(c in trace_set)
        row[L.C_NLOSS] = len(cobj.lost_segments)
        row[L.C_SEND_HIGH] = -1
        row[L.C_TIMEOUT_GUARD] = int(tcp.uses_timeout_guard)
        row[L.C_MEASURE_NS] = int(round(run.warmup_s * NS))
        row[L.C_ACK_DELAY_NS] = int(round(tcp.ack_delay_s * NS))
        row[L.C_TIMESTAMPS] = int(tcp.timestamps)
        row[L.C_SSTHRESH_RULE] = m.SSTHRESH_RULES.index(tcp.ssthresh_rule)
        row[L.C_RECOVERY_OPENS] = int(tcp.recovery_exit_opens)
        row[L.C_SACK_PIPE_START] = m.SACK_PIPE_STARTS.index(tcp.sack_pipe_start)
        row[L.C_TICK_PHASE_NS] = int(round(tcp.tick_phase_s * NS))
        row[L.C_TS_RECENT] = -1
        row[L.C_SND_WND] = rcv_wnd   # until the first ACK: the window of the connection's set-up
        connf[c, L.F_CWND] = tcp.mss
        ssthresh = tcp.initial_ssthresh if tcp.initial_ssthresh is not None else rcv_wnd
        connf[c, L.F_SSTHRESH] = float(ssthresh)
    return conn, connf, sb_cap


def application_table(run: m.Run) -> np.ndarray:
    """The ``app`` table: each connection's close time (INFINITE: never), send limit and, for an
    ON/OFF application, its mean ON and OFF periods."""
    app = np.zeros((len(run.connections), L.A_NFIELDS), np.int64)
    app[:, L.A_SEND_LIMIT] = L.INFINITE
    app[:, L.A_STOP_NS] = [L.INFINITE if c.stop_s is None else int(round(c.stop_s * NS)) for c in run.connections]
    for c, conn in enumerate(run.connections):
        if conn.on_off is not None:
            app[c, L.A_ON_MEAN_NS] = int(round(conn.on_off.mean_on_s * NS))
            app[c, L.A_OFF_MEAN_NS] = int(round(conn.on_off.mean_off_s * NS))
    return app


def global_scalars(run: m.Run, pool: int, packet_pool: int, margins: Margins, n_samples: int,
                   sample_ns: int) -> np.ndarray:
    """The ``g`` vector of a fresh run: end time, the pools' reserves, sampling, the random
    stream's seed, the trace window (the free lists start at record 0)."""
    g = np.zeros(L.G_NFIELDS, np.int64)
    g[L.G_END] = int(round(run.duration_s * NS))
    g[L.G_CELL_RESERVE] = pool - margins.cells
    g[L.G_PKT_RESERVE] = packet_pool - margins.packets
    g[L.G_SAMPLE_NS] = sample_ns
    g[L.G_RNG] = run.seed
    g[L.G_NSAMPLES] = n_samples
    g[L.G_TRACE_T0] = int(round(run.trace.start_s * NS))
    g[L.G_TRACE_T1] = L.INFINITE if run.trace.stop_s == float("inf") else int(round(run.trace.stop_s * NS))
    return g


def compile_run(run: m.Run, growth: Growth | None = None) -> Compiled:
    """Allocate and fill the kernel state for ``run``.

    ``growth`` multiplies the sizes of the growable tables (see :class:`Growth`); each gets one
    event's :class:`Margins` on top, so the first event fits. :mod:`atmtcp.grow` grows a table
    that runs low in the paused run.
    """
    if not isinstance(run.network, m.Network):  # IP networks and ATM access points: whole packets
        from .packet_compiler import compile_internetwork
        return compile_internetwork(run, growth)
    growth = copy.deepcopy(growth) if growth else Growth()
    network = run.network
    specs = _ports(network)
    overhead = run.aal5.overhead_bytes
    ack_bytes = run.aal5.tcpip_header_bytes + run.aal5.llc_bytes + run.aal5.trailer_bytes

    router = Router(network)
    vc_routes = []      # (conn index, is_ack, port names)
    for c, conn in enumerate(run.connections):
        vc_routes.append((c, 0, router.route(conn.src, conn.dst)))
        vc_routes.append((c, 1, router.route(conn.dst, conn.src)))
    upstream = _upstream([r for _, _, r in vc_routes])
    folded = _foldable(specs, upstream)

    on_routes = {name for _, _, r in vc_routes for name in r}
    kernel_ports = [name for name in specs if name not in folded and name in on_routes]
    index = {name: i for i, name in enumerate(kernel_ports)}
    n_port, n_vc, n_conn = len(kernel_ports), len(vc_routes), len(run.connections)

    # --- ring capacity per port: the buffer, or a bound on what can pile up in an infinite one
    demand = {name: 0 for name in kernel_ports}
    for c, is_ack, route in vc_routes:
        tcp = run.connections[c].tcp
        per_seg = packet_cells(28, ack_bytes) if is_ack else packet_cells(tcp.mss, overhead)  # 28: 3 SACK blocks
        for name in route:
            if name in demand:
                demand[name] += 2 * _window_cells(tcp, per_seg)
    fan_in = {name: max(1, len(ups)) for name, ups in upstream.items()}
    margins = _event_margins(run, [index[r[0]] for _, _, r in vc_routes], n_port, overhead, ack_bytes)
    pend_cap = [int((64 + 4 * fan_in[name]) * growth.pending.get(name, 1)) + margins.pending
                if specs[name].config.slotted else 0 for name in kernel_ports]
    queue_bound, ring_cap = [], []
    for i, name in enumerate(kernel_ports):
        spec = specs[name]
        k = spec.config.buffer_cells
        if k is None:
            bound = int(min(demand[name], INITIAL_INFINITE_RING) * growth.rings.get(name, 1)) + 64
            room = bound + margins.ring[i] + pend_cap[i]  # the first event fits (Margins.ring_of)
        else:
            bound = room = k
        queue_bound.append(bound)
        ring_cap.append(room if spec.held or spec.config.policy.reads_vc_shares else 0)
    ring_base = np.concatenate([[0], np.cumsum(ring_cap)[:-1]]).astype(np.int64)

    sessions = {name: 0 for name in kernel_ports}  # connections whose data cross each port
    for _c, is_ack, route in vc_routes:
        for name in route:
            if name in sessions and not is_ack:
                sessions[name] += 1
    port = np.zeros((n_port, L.P_NFIELDS), np.int64)
    portf = np.zeros((n_port, L.PF_NFIELDS), np.float64)
    pend_rows = 0
    traced = [p for p in run.trace.ports]
    for i, name in enumerate(kernel_ports):
        spec = specs[name]
        k = spec.config.buffer_cells
        port[i, L.P_CAPACITY] = L.INFINITE if k is None else k
        port[i, L.P_CELL_NS] = cell_time_ns(spec.rate_bps)
        ints, floats = spec.config.policy.kernel_columns(k, sessions[name])
        for column, value in ints.items():
            port[i, column] = value
        for column, value in floats.items():
            portf[i, column] = value
        if spec.is_nic and network.ip_service_pps is not None:
            port[i, L.P_IP_NS] = int(round(NS / network.ip_service_pps))
        port[i, L.P_RING_BASE] = ring_base[i]
        port[i, L.P_RING_CAP] = ring_cap[i]
        port[i, L.P_TRACE] = traced.index(name) + 1 if name in traced else 0
        port[i, L.P_HELD] = int(spec.held)
        port[i, L.P_SLOTTED] = int(spec.config.slotted)
        port[i, L.P_FRONT] = m.FRONT_DROPS.index(spec.config.drop_from_front)
        if spec.config.randomized_tail:
            port[i, L.P_FAN_IN] = spec.config.fan_in or fan_in[name]
        port[i, L.P_EVENT_AT] = -1
        if spec.config.slotted:
            port[i, L.P_PEND_BASE] = pend_rows
            port[i, L.P_PEND_CAP] = pend_cap[i]
            pend_rows += port[i, L.P_PEND_CAP]
    for name in traced:
        if name not in index:
            allowed = "a simulated port: " + ", ".join(kernel_ports)
            raise m.ModelError("TraceConfig", "ports", name, allowed)

    # --- VCs, hop delays and channels
    max_hops = max(sum(1 for p in r if p in index) for _, _, r in vc_routes)
    vc = np.zeros((n_vc, L.V_NFIELDS), np.int64)
    vc_port = np.full((n_vc, max_hops), -1, np.int64)
    vc_chan = np.full((n_vc, max_hops), -1, np.int64)
    vc_delay = np.zeros((n_vc, max_hops), np.int64)
    vc_pv = np.full((n_vc, max_hops), -1, np.int64)
    pv_vc: list[int] = []  # (port, VC) slots: one per hop of each VC at a simulated port
    channels: dict[tuple, int] = {}
    chan_dst: list[int] = []
    chan_cdv: list[int] = []
    for v, (c, is_ack, route) in enumerate(vc_routes):
        tcp = run.connections[c].tcp
        hops = [p for p in route if p in index]
        delays, cdvs = [], []
        pending = pending_cdv = 0
        for name in route:
            if name in index and name != route[0]:
                delays.append(pending)
                cdvs.append(pending_cdv)
                pending = pending_cdv = 0
            if name in folded:
                pending = _folded_delay_ns(specs[name], pending)
            pending += int(round(specs[name].delay_s * NS))
            pending_cdv += specs[name].cdv_ns
        for h, name in enumerate(hops):
            vc_port[v, h] = index[name]
            vc_pv[v, h] = len(pv_vc)
            pv_vc.append(v)
            if h + 1 < len(hops):
                vc_delay[v, h] = delays[h]
                key = (index[name], index[hops[h + 1]], delays[h], cdvs[h])
                if key not in channels:
                    channels[key] = len(chan_dst)
                    chan_dst.append(index[hops[h + 1]])
                    chan_cdv.append(cdvs[h])
                vc_chan[v, h] = channels[key]
        vc[v, L.V_CONN] = c
        vc[v, L.V_IS_ACK] = is_ack
        vc[v, L.V_NHOPS] = len(hops)
        vc[v, L.V_TAIL_NS] = pending
        vc[v, L.V_DATA_CELLS] = packet_cells(tcp.mss, overhead)
        vc[v, L.V_HEADER_BYTES] = ack_bytes
        vc[v, L.V_DELIVERY_CHAN] = len(chan_dst)
        vc[v, L.V_RESYNC] = int(run.aal5.delineation == "packet")
        chan_dst.append(-1)
        chan_cdv.append(pending_cdv)
    chan = np.zeros((len(chan_dst), L.CH_NFIELDS), np.int64)
    chan[:, L.CH_DST_PORT] = chan_dst
    chan[:, L.CH_CDV_NS] = chan_cdv

    # --- connections
    conn, connf, sb_cap = connection_tables(run)
    trace_set = set(run.trace.connections)

    # --- pools, heap, traces
    finite = sum(b for name, b in zip(kernel_ports, queue_bound) if specs[name].config.buffer_cells is not None)
    infinite = sum(queue_bound) - finite
    on_wire = sum(delay // max(1, port[up, L.P_CELL_NS]) + 2 for (up, _dst, delay, _cdv) in channels)
    pool = int((finite + min(infinite + on_wire, UNBOUNDED_CELLS_IN_POOL) + 4096) * growth.cells) + margins.cells
    segments = sum(c.tcp.rcv_wnd // c.tcp.mss + 2 for c in run.connections)
    packet_pool = min(pool, int((min(4 * segments, PACKETS_IN_POOL) + 4096) * growth.packets) + margins.packets)
    n_trace = run.trace.max_records if trace_set else 0
    n_droplog = run.trace.max_records if traced else 0
    end_ns = int(round(run.duration_s * NS))
    sample_ns = max(1, int(round(run.trace.sample_interval_s * NS)))
    n_samples = end_ns // sample_ns + 1 if traced else 0
    _check_memory(8 * (pool * L.E_NFIELDS + packet_pool * L.K_NFIELDS + 3 * sum(ring_cap)
                       + n_trace * 4 + n_droplog * 5 + n_samples * 2 * len(traced))
                  + 2 * n_conn * sb_cap + 8 * 3 * len(pv_vc))
    heap_cap = int((len(chan_dst) + 8 * n_conn + 64) * growth.heap) + margins.heap

    g = global_scalars(run, pool, packet_pool, margins, n_samples, sample_ns)
    state = SimState(
        g=g, conn=conn, connf=connf,
        rsack=Zeros((n_conn, L.RS_NFIELDS)),
        sb=Zeros((n_conn, sb_cap)), rb=Zeros((n_conn, sb_cap)),
        vc=vc, vc_port=vc_port, vc_chan=vc_chan, vc_delay=vc_delay,
        port=port, portf=portf,
        vc_pv=vc_pv, pv_vc=np.array(pv_vc, np.int64),
        pv_count=Zeros((len(pv_vc),)), pv_state=Zeros((len(pv_vc),)), pv_front=Zeros((len(pv_vc),)),
        ring_pv=Zeros((int(sum(ring_cap)),)), ring_t=Zeros((int(sum(ring_cap)),)),
        ring_cell=Zeros((int(sum(ring_cap)) if port[:, L.P_HELD].any() else 0,)),
        pend=Zeros((pend_rows, L.PE_NFIELDS)),
        chan=chan, cell=Zeros((pool, L.E_NFIELDS)), pkt=Zeros((packet_pool, L.K_NFIELDS)),
        h_time=Zeros((heap_cap,)), h_seq=Zeros((heap_cap,)), h_kind=Zeros((heap_cap,)), h_id=Zeros((heap_cap,)),
        trace_t=Zeros((n_trace,)), trace_i=Zeros((n_trace, 2)), trace_v=Zeros((n_trace,)),
        droplog=Zeros((n_droplog, 5)),
        qsample=Zeros((n_samples, len(traced))), osample=Zeros((n_samples, len(traced))),
        loss=_loss_table(run), app=application_table(run), **NO_PACKET_PATH,
    )
    kernel_state, state = pack(state)
    _free_list(state.cell, L.E_NEXT)
    _free_list(state.pkt, L.K_NEXT_FREE)
    set_low_marks(state, margins)

    data_routes = [r for _, is_ack, r in vc_routes if not is_ack]
    bottleneck = _bottleneck(specs, data_routes)
    folded_after = [len(r) - 1 - max(i for i, p in enumerate(r) if p in index) for _, _, r in vc_routes]
    return Compiled(
        state, kernel_state, kernel_ports, sorted(folded), traced, folded_after, bottleneck,
        CELL_BYTES * 8 * NS / cell_time_ns(specs[bottleneck].rate_bps),
        np.array([framing(c.tcp.mss, overhead) for c in run.connections]),
        np.array([bottleneck in r for r in data_routes]), n_samples, sample_ns, margins, growth,
    )


def _free_list(table: np.ndarray, column: int) -> None:
    """Chain every row of a pool into its free list: row i points to i + 1, the last to the
    pool's size (the list's end). The last rows, the reserve, are thus handed out last."""
    table[:, column] = np.arange(1, table.shape[0] + 1)


def set_low_marks(state: SimState, margins: Margins) -> None:
    """Where the kernel stops a run between two events (the ``*_LOW`` statuses): one event's
    margin below the capacity of the heap, of each infinite buffer's ring and of each pending
    list (the pools have their reserve instead, see ``G_CELL_RESERVE``). A finite buffer's ring
    never grows: its mark is its capacity, where a push fails (its policy drops first, so it
    never does)."""
    g, port = state.g, state.port
    g[L.G_HEAP_LOW_AT] = state.h_time.shape[0] - margins.heap
    for p in range(port.shape[0]):
        infinite = port[p, L.P_CAPACITY] == L.INFINITE
        ring_margin = margins.ring_of(port[p], p) if infinite else 0
        port[p, L.P_RING_LOW_AT] = port[p, L.P_RING_CAP] - ring_margin
        port[p, L.P_PEND_LOW_AT] = port[p, L.P_PEND_CAP] - margins.pending


def _bottleneck(specs: dict[str, PortSpec], data_routes: list[list[str]]) -> str:
    """The port the connections share: the one crossed by the most data routes, the slowest
    of those on a tie, then the first in route order. Efficiency is measured on it
    (goyal1998 3.2 measures C on "a 155.52 Mbps link", the link the sources share)."""
    crossings = Counter(p for r in data_routes for p in dict.fromkeys(r))
    order = {p: i for i, p in enumerate(dict.fromkeys(p for r in data_routes for p in r))}
    return max(order, key=lambda p: (crossings[p], cell_time_ns(specs[p].rate_bps), -order[p]))


def _loss_table(run: m.Run) -> np.ndarray:
    width = max(1, max(len(c.lost_segments) for c in run.connections))
    table = np.full((len(run.connections), width), -1, np.int64)
    for i, c in enumerate(run.connections):
        table[i, :len(c.lost_segments)] = c.lost_segments
    return table
