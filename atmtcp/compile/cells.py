"""Turn a :class:`~atmtcp.model.Run` on a :class:`~atmtcp.model.Network` of cell ports into the
kernel's tables (:mod:`atmtcp.kernel.cells`, :mod:`atmtcp.kernel.ports`).

Routing is by fewest hops (:class:`atmtcp.compile.routes.Router`). Each direction of each link is
an output port at its sending node; a host's port is its NIC, with an infinite buffer. A switch
port through which every cell arrives from one and the same upstream port of no higher rate can
never hold more than the cell in service, so the compiler folds it into the route's delays (cell
time + propagation) instead of simulating it: this is exact, and it removes most of the events of
the papers' topologies. A port fed by a link with cell delay variation is never folded; a slotted
port (:mod:`atmtcp.kernel.held_ports`) is folded only when its single input is a slotted port of
the same cell time (:func:`~atmtcp.compile.cell_ports.foldable`), with its delay rounded up to its
slot grid.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import model as m
from ..kernel import layout as L
from ..kernel.aal5 import CELL_BYTES, packet_cells
from ..kernel.tables import Zeros
from .cell_ports import CellRoutes, PortSpec, PortTables, Rings, cell_routes, port_tables, ring_sizes
from .connections import application_table, connection_state, scoreboard_capacity
from .core import (
    NS, Channels, Compiled, Growth, Margins, Sizes, ack_bytes, cell_time_ns, check_memory, connection_framing,
    pack_state, sampling, sized_tables, trace_records, vc_row,
)
from .routes import bottleneck_port

UNBOUNDED_CELLS_IN_POOL = 1 << 20
"""At most this many cells of the initial cell pool are set aside for the cells that wait
in infinite buffers (each bounded by the windows that cross it) and travel on the links
(delay / cell time per channel). With thousands of sources these bounds add up to far more
than is ever in flight; the pool grows when it runs low (:class:`~atmtcp.compile.Growth`).
goyal1998's and goyal1997's runs stay below it."""
PACKETS_IN_POOL = 1 << 18
"""At most this many packets in the initial packet pool (which also grows when it runs low)."""


def event_margins(run: m.Run, routes: CellRoutes) -> Margins:
    """:class:`~atmtcp.compile.Margins` of ``run``: the largest burst of any connection (see there)."""
    overhead = run.aal5.overhead_bytes
    bursts = [(2 if c.tcp.flavor == "sack" else 1) * (c.tcp.rcv_wnd // c.tcp.mss + 2) + 2
              for c in run.connections]
    cells = max(b * packet_cells(c.tcp.mss, overhead) for b, c in zip(bursts, run.connections))
    cells += packet_cells(28, ack_bytes(run)) + 8
    ring = np.full(len(routes.kernel_ports), 2, np.int64)
    nic_ports = [routes.index[r[0]] for _, _, r in routes.vc_routes]
    ring[nic_ports] = cells  # a NIC takes a whole burst (NICs keep no ring today)
    return Margins(cells, max(bursts) + 2, ring)


def folded_delay_ns(spec: PortSpec, since_departure_ns: int) -> int:
    """Time from the last simulated departure to the departure from folded port ``spec``,
    for a cell that reached it ``since_departure_ns`` after that departure: one cell time,
    after waiting for the slot's end at a slotted port (the departure was on a slot edge)."""
    cell_ns = cell_time_ns(spec.rate_bps)
    if spec.config.slotted:
        return (since_departure_ns // cell_ns + 2) * cell_ns
    return since_departure_ns + cell_ns


def hop_delays(route: list[str], routes: CellRoutes) -> tuple[list[int], list[int], int, int]:
    """Along ``route``: per simulated hop after the first, the delay and delay variation (ns) from
    the departure at the simulated hop before (folded ports and links in between); then the
    same after the last simulated hop (the VC's tail)."""
    delays, cdvs = [], []
    pending = pending_cdv = 0
    for name in route:
        if name in routes.index and name != route[0]:
            delays.append(pending)
            cdvs.append(pending_cdv)
            pending = pending_cdv = 0
        if name in routes.folded:
            pending = folded_delay_ns(routes.specs[name], pending)
        pending += int(round(routes.specs[name].delay_s * NS))
        pending_cdv += routes.specs[name].cdv_ns
    return delays, cdvs, pending, pending_cdv


@dataclass
class VcTables:
    """Per VC: its row of ``vc`` and, per simulated hop, the port, the channel to the next hop, the
    delay to it and the hop's (port, VC) slot; the VC of each slot; the channels."""

    vc: np.ndarray
    vc_port: np.ndarray
    vc_chan: np.ndarray
    vc_delay: np.ndarray
    vc_pv: np.ndarray
    pv_vc: list[int] = field(default_factory=list)
    channels: Channels = field(default_factory=Channels)

    def tables(self) -> dict:
        """These kernel tables, with the (port, VC) slots' state (zeros) and the channels."""
        n_pv = (len(self.pv_vc),)
        return dict(vc=self.vc, vc_port=self.vc_port, vc_chan=self.vc_chan, vc_delay=self.vc_delay,
                    vc_pv=self.vc_pv, pv_vc=np.array(self.pv_vc, np.int64),
                    pv_count=Zeros(n_pv), pv_state=Zeros(n_pv), pv_front=Zeros(n_pv),
                    chan=self.channels.table())


def vc_tables(run: m.Run, routes: CellRoutes) -> VcTables:
    """The VCs' hops, delays and channels: one channel per (port, next port, delay, delay
    variation) that some VC takes, and a delivery channel per VC."""
    index, n_vc = routes.index, len(routes.vc_routes)
    max_hops = max(sum(1 for p in r if p in index) for _, _, r in routes.vc_routes)
    t = VcTables(np.zeros((n_vc, L.V_NFIELDS), np.int64), np.full((n_vc, max_hops), -1, np.int64),
                 np.full((n_vc, max_hops), -1, np.int64), np.zeros((n_vc, max_hops), np.int64),
                 np.full((n_vc, max_hops), -1, np.int64))
    for v, (c, is_ack, route) in enumerate(routes.vc_routes):
        delays, cdvs, tail, tail_cdv = hop_delays(route, routes)
        hops = [p for p in route if p in index]
        for h, name in enumerate(hops):
            t.vc_port[v, h] = index[name]
            t.vc_pv[v, h] = len(t.pv_vc)
            t.pv_vc.append(v)
            if h + 1 < len(hops):
                t.vc_delay[v, h] = delays[h]
                nxt = index[hops[h + 1]]
                key = (index[name], nxt, delays[h], cdvs[h])
                t.vc_chan[v, h] = t.channels.shared(key, nxt, cdvs[h], index[name])
        vc_row(t.vc[v], run, c, is_ack, tail, t.channels.add(-1, tail_cdv))
        t.vc[v, L.V_NHOPS] = len(hops)
        t.vc[v, L.V_RESYNC] = int(run.aal5.delineation == "packet")
    return t


def pull_lists(port: np.ndarray, channels: Channels, margin: int) -> None:
    """Link each slotted port's input channels without delay variation into the list it pulls at its
    slot ends (``P_PULL_HEAD``, ``CH_PULL_NEXT``; :func:`atmtcp.kernel.held_ports.pull_arrivals`), if
    the most they can bring in one slot fits in one event's ``margin`` of the pending list, one arrival
    kept for an arrival event: a channel's cells leave its upstream port one cell time apart or more, so
    at most ``slot // upstream cell time + 1`` of them arrive within one slot, ends included. A port
    with more inputs pulls none, and its arrivals come by events of their own, as before."""
    inputs: dict[int, list[int]] = {}
    for ch, (dst, cdv, src) in enumerate(zip(channels.dst, channels.cdv, channels.src)):
        if dst >= 0 and cdv == 0 and port[dst, L.P_SLOTTED]:
            inputs.setdefault(dst, []).append(ch)
    for p, chans in inputs.items():
        most = sum(port[p, L.P_CELL_NS] // port[channels.src[ch], L.P_CELL_NS] + 1 for ch in chans)
        if most + 1 > margin:
            continue
        port[p, L.P_PULL_HEAD] = chans[0] + 1
        for ch, nxt in zip(chans, chans[1:]):
            channels.pull_next[ch] = nxt + 1
        if port[p, L.P_HELD] == L.SLOT_ENDS:  # pulls for good: its inputs never have events
            channels.parked.update(chans)


def cell_sizes(run: m.Run, routes: CellRoutes, rings: Rings, vcs: VcTables, port: np.ndarray,
               margins: Margins, growth: Growth) -> Sizes:
    """The pools: every finite buffer full, and what waits in the infinite ones and travels on the
    links (at most :data:`UNBOUNDED_CELLS_IN_POOL`); the heap: a few entries per channel and
    connection; each times its ``growth``, plus one event's ``margins``."""
    specs = routes.specs
    finite = sum(b for name, b in zip(routes.kernel_ports, rings.queue_bound)
                 if specs[name].config.buffer_cells is not None)
    infinite = sum(rings.queue_bound) - finite
    on_wire = sum(delay // max(1, port[up, L.P_CELL_NS]) + 2 for (up, _dst, delay, _cdv) in vcs.channels.ids)
    pool = int((finite + min(infinite + on_wire, UNBOUNDED_CELLS_IN_POOL) + 4096) * growth.cells) + margins.cells
    segments = sum(c.tcp.rcv_wnd // c.tcp.mss + 2 for c in run.connections)
    packet_pool = min(pool, int((min(4 * segments, PACKETS_IN_POOL) + 4096) * growth.packets) + margins.packets)
    heap = int((len(vcs.channels.dst) + 8 * len(run.connections) + 64) * growth.heap) + margins.heap
    n_samples, sample_ns = sampling(run, bool(run.trace.ports))
    return Sizes(pool, packet_pool, heap, scoreboard_capacity(run), trace_records(run), n_samples, sample_ns)


def droplog_records(run: m.Run) -> int:
    """Rows of the drop log: its maximum where a port is traced, else none."""
    return run.trace.max_records if run.trace.ports else 0


def port_state_tables(run: m.Run, rings: Rings, ports: PortTables, sizes: Sizes) -> dict:
    """The rings (a held port's cells too, where any port is held), the pending lists, the drop
    log and the samples of the traced ports: all zeros."""
    ring_rows = (int(sum(rings.ring_cap)),)
    samples = (sizes.n_samples, len(run.trace.ports))
    return dict(ring_pv=Zeros(ring_rows), ring_t=Zeros(ring_rows),
                ring_cell=Zeros(ring_rows if (ports.port[:, L.P_HELD] == L.HELD_CELLS).any() else (0,)),
                pend=Zeros((ports.pend_rows, L.PE_NFIELDS)), droplog=Zeros((droplog_records(run), 5)),
                qsample=Zeros(samples), osample=Zeros(samples))


def compile_cells(run: m.Run, growth: Growth) -> Compiled:
    """Allocate and fill the kernel state of ``run`` on cell ports (see the module docstring);
    ``growth`` multiplies the growable sizes, each with one event's margin on top."""
    routes = cell_routes(run)
    margins = event_margins(run, routes)
    rings = ring_sizes(run, routes, margins, growth)
    ports = port_tables(run, routes, rings)
    vcs = vc_tables(run, routes)
    pull_lists(ports.port, vcs.channels, margins.pending)
    sizes = cell_sizes(run, routes, rings, vcs, ports.port, margins, growth)
    traced = list(run.trace.ports)
    check_memory(sizes, len(run.connections),
                 8 * (3 * sum(rings.ring_cap) + droplog_records(run) * 5 + sizes.n_samples * 2 * len(traced))
                 + 8 * 3 * len(vcs.pv_vc))
    kernel_state, state = pack_state(
        dict(sized_tables(run, sizes, margins), **connection_state(run, sizes.scoreboard),
             app=application_table(run), port=ports.port, portf=ports.portf, **vcs.tables(),
             **port_state_tables(run, rings, ports, sizes)), margins)
    data_routes = [r for _, is_ack, r in routes.vc_routes if not is_ack]
    bottleneck = bottleneck_port(routes.specs, data_routes)
    folded_after = [len(r) - 1 - max(i for i, p in enumerate(r) if p in routes.index)
                    for _, _, r in routes.vc_routes]
    return Compiled(
        state, kernel_state, routes.kernel_ports, sorted(routes.folded), traced, folded_after, bottleneck,
        CELL_BYTES * 8 * NS / cell_time_ns(routes.specs[bottleneck].rate_bps), connection_framing(run),
        np.array([bottleneck in r for r in data_routes]), sizes.n_samples, sizes.sample_ns, margins, growth,
    )
