"""Turn a :class:`~atmtcp.model.Run` on an :class:`~atmtcp.internetwork.Internetwork` into the
kernel's tables for the packet path (:mod:`atmtcp.kernel.packets`).

Routes are fewest-hop (:class:`atmtcp.compile.routes.Router`). Along a route, each port is one of:

- a host's NIC: an IP link with an infinite buffer (a lazy port);
- a router's IP port (towards a host or a router): whole packets at the link's rate;
- an ATM access point (a router's port towards an ATM switch): AAL5 cells at the VC's rate;
- an ATM switch's port: no kernel port. The ATM network is rate-controlled and loses nothing
  (:class:`~atmtcp.internetwork.Internetwork`), so a switch port adds one cell time (its cell's
  transmission) and its link's delay to the route, as a folded cell port does
  (:func:`atmtcp.compile.cells.folded_delay_ns`).

A flow's VC at an access point is named by the router where its route leaves the ATM network
(the far AAP): connections between the same pair of AAPs share a VC (ewa 2). A router port with a
finite buffer or per-VC queues gets queues (one, or one per VC; :mod:`atmtcp.compile.router_ports`);
any other is lazy.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .. import model as m
from ..kernel import layout as L
from ..kernel.aal5 import CELL_BYTES
from ..kernel.tables import Zeros
from .connections import application_table, connection_state, scoreboard_capacity
from .core import (
    NS, Channels, Compiled, Growth, Margins, Sizes, cell_time_ns, check_memory, connection_framing,
    pack_state, sampling, sized_tables, trace_records, vc_row,
)
from .router_ports import Queues, RouterPortSpec, port_specs, router_queues, router_tables
from .routes import Router, bottleneck_port

PACKETS_IN_FLIGHT_SLACK = 4096
"""Records added to the channel-entry and packet pools beyond two windows per connection (the
pools grow in the paused run when they run low: :mod:`atmtcp.grow`)."""


class Flow(NamedTuple):
    """One direction of a connection (data or ACKs): its kernel hops (its route's ports but the ATM
    switches'), the delay in ns from a departure at each hop to the arrival at the next, the delay
    after the last hop, and for each hop the router where the route leaves the ATM network after it
    ('' if it enters none)."""

    conn: int
    is_ack: int
    hops: list[str]
    delays: list[int]
    tail: int
    egress: list[str]


def _hops(route: list[str], specs: dict[str, RouterPortSpec]) -> tuple[list[str], list[int], int, list[str]]:
    """The hops, delays, tail and egress routers of ``route`` (see :class:`Flow`)."""
    hops, delays, egress = [], [], []
    pending = 0
    for i, name in enumerate(route):
        spec = specs[name]
        if spec.kind == "atm":
            pending += cell_time_ns(spec.rate_bps) + int(round(spec.delay_s * NS))
            continue
        if hops:
            delays.append(pending)
        hops.append(name)
        egress.append(next((p.split("->")[0] for p in route[i + 1:] if specs[p].kind != "atm"), "")
                      if spec.kind == "aap" else "")
        pending = int(round(spec.delay_s * NS))
    return hops, delays, pending, egress


def _atm_ports_after(route: list[str], hop: str, specs: dict[str, RouterPortSpec]) -> int:
    """The ATM switch ports right after ``hop`` on ``route`` (each sends the hop's cells again)."""
    count = 0
    for name in route[route.index(hop) + 1:]:
        if specs[name].kind != "atm":
            break
        count += 1
    return count


def packet_flows(run: m.Run, specs: dict[str, RouterPortSpec]) -> tuple[list[Flow], dict[str, int]]:
    """Each connection's data flow (VC 2c) and ACK flow (2c + 1), and per kernel hop the ATM switch
    ports right after it."""
    router = Router(run.network)
    flows, atm_after = [], {}
    for c, conn in enumerate(run.connections):
        for is_ack, (a, b) in enumerate(((conn.src, conn.dst), (conn.dst, conn.src))):
            route = router.route(a, b)
            flows.append(Flow(c, is_ack, *_hops(route, specs)))
            for hop in flows[-1].hops:
                atm_after[hop] = _atm_ports_after(route, hop, specs)
    return flows, atm_after


def _ip_bytes(run: m.Run, c: int, is_ack: int) -> int:
    """The IP datagram of connection ``c``'s data (MSS + TCP/IP headers) or ACKs (the headers)."""
    header = run.aal5.tcpip_header_bytes
    return header if is_ack else run.connections[c].tcp.mss + header


@dataclass
class FlowTables:
    """Per flow: its row of ``vc`` and ``flow`` and, per hop, its router port, its queue (-1 at a
    lazy port), the channel to the next hop and the delay to it; the channels; the queue of each
    (flow, hop) that has one."""

    vc: np.ndarray
    flow: np.ndarray
    flow_rport: np.ndarray
    flow_rq: np.ndarray
    vc_chan: np.ndarray
    vc_delay: np.ndarray
    channels: Channels = field(default_factory=Channels)
    queue_at: dict[tuple[int, int], int] = field(default_factory=dict)

    def tables(self) -> dict:
        """These kernel tables; ``vc_port`` and ``vc_pv`` have no cell port (-1)."""
        no_cell_port = np.full((self.vc.shape[0], 1), -1, np.int64)
        return dict(vc=self.vc, flow=self.flow, flow_rport=self.flow_rport, flow_rq=self.flow_rq,
                    vc_chan=self.vc_chan, vc_delay=self.vc_delay, chan=self.channels.table(),
                    vc_port=no_cell_port, vc_pv=no_cell_port.copy())


def flow_tables(run: m.Run, flows: list[Flow], index: dict[str, int], queues: Queues) -> FlowTables:
    """The flows' hops, queues, delays and channels: one channel per (port, next port, delay) that
    some flow takes, and a delivery channel per flow."""
    n_vc, max_hops = len(flows), max(len(f.hops) for f in flows)
    t = FlowTables(np.zeros((n_vc, L.V_NFIELDS), np.int64), np.zeros((n_vc, L.FL_NFIELDS), np.int64),
                   np.full((n_vc, max_hops), -1, np.int64), np.full((n_vc, max_hops), -1, np.int64),
                   np.full((n_vc, max_hops), -1, np.int64), np.zeros((n_vc, max_hops), np.int64))
    for v, (c, is_ack, hops, delays, tail, egress) in enumerate(flows):
        for h, (name, far) in enumerate(zip(hops, egress)):
            t.flow_rport[v, h] = index[name]
            if queues.specs[name].queued:
                t.flow_rq[v, h] = t.queue_at[(v, h)] = queues.of[queues.key(name, far)]
            if h + 1 < len(hops):
                t.vc_delay[v, h] = delays[h]
                t.vc_chan[v, h] = t.channels.shared((index[name], index[hops[h + 1]], delays[h]), -1)
        vc_row(t.vc[v], run, c, is_ack, tail, t.channels.add(-1))
        t.vc[v, L.V_NHOPS] = 0   # no cell port: the packet path
        t.flow[v, L.FL_IP_BYTES] = _ip_bytes(run, c, is_ack)
        t.flow[v, L.FL_PAYLOAD] = 0 if is_ack else run.connections[c].tcp.mss
        t.flow[v, L.FL_NHOPS] = len(hops)
    return t


def _set_ewa_acks(flow: np.ndarray, flows: list[Flow], queue_at: dict, rq: np.ndarray, run: m.Run) -> None:
    """Each ACK flow whose data crosses a queue with EWA: the hop at which it enters that queue's
    router on its way back (ewa 3: the AAP rewrites "the returning acknowledgements"), the queue,
    and the unit of the connection's scaled window field."""
    flow[:, L.FL_EWA_HOP] = -1
    for v, (c, is_ack, hops, _d, _t, _e) in enumerate(flows):
        if is_ack:
            continue
        ewa_hops = [(name, queue_at[(v, h)]) for h, name in enumerate(hops)
                    if (v, h) in queue_at and rq[queue_at[(v, h)], L.RQ_EWA] != L.EWA_OFF]
        if not ewa_hops:
            continue
        name, q = ewa_hops[0]
        router = name.split("->")[0]
        ack = next(a for a, f in enumerate(flows) if f.conn == c and f.is_ack)
        back = [h for h, hop in enumerate(flows[ack].hops) if hop.split("->")[0] == router]
        if back:
            flow[ack, L.FL_EWA_HOP] = back[0]
            flow[ack, L.FL_EWA_QUEUE] = q
            flow[ack, L.FL_WND_UNIT] = 1 << run.connections[c].tcp.window_scale


def measured_rate_bps(spec: RouterPortSpec, queues: Queues) -> float:
    """The cell rate of the measured port ``spec``: its link's, at most its VCs' rates together."""
    vcs_at_bottleneck = max(1, len(set(queues.at(spec.name))))
    return min(CELL_BYTES * 8 * NS / cell_time_ns(spec.rate_bps),
               vcs_at_bottleneck * CELL_BYTES * 8 * NS / spec.cell_gap_ns())


def sampled_queues(run: m.Run, names: list[str], queues: Queues, rq: np.ndarray) -> list[int]:
    """The queues of the traced router ports (each must have a buffer), each given its columns of
    the samples; every connection is sampled after them (:func:`sampled_application`)."""
    specs = queues.specs
    for name in run.trace.ports:
        if name not in names or not specs[name].queued:
            allowed = ", ".join(n for n in names if specs[n].queued) or "none in this run"
            raise m.ModelError("TraceConfig", "ports", name, f"a router port with a buffer: {allowed}")
    sampled = [q for q, qname in enumerate(queues.names) if qname.split(":")[0] in run.trace.ports]
    per_queue, n_fields = len(L.QUEUE_SAMPLE_FIELDS), len(L.EWA_SAMPLE_FIELDS)
    for i, q in enumerate(sampled):
        rq[q, L.RQ_SAMPLE_COL] = per_queue * i + 1
        rq[q, L.RQ_FSAMPLE_COL] = n_fields * i + 1
    return sampled


def sample_columns(run: m.Run, sampled: list[int]) -> int:
    """Columns of ``rsample``: those of the ``sampled`` queues, then every connection's (none
    without a sampled queue)."""
    per_queue, width = len(L.QUEUE_SAMPLE_FIELDS), len(L.SAMPLED_CONNECTION_FIELDS)
    return (per_queue * len(sampled) + width * len(run.connections)) if sampled else 0


def sampled_application(run: m.Run, sampled: list[int]) -> np.ndarray:
    """The ``app`` table, with each connection's first column of the samples."""
    app = application_table(run)
    per_queue, width = len(L.QUEUE_SAMPLE_FIELDS), len(L.SAMPLED_CONNECTION_FIELDS)
    if sampled:
        app[:, L.APP_SAMPLE_COL] = per_queue * len(sampled) + 1 + width * np.arange(len(run.connections))
    return app


def packet_margins(run: m.Run) -> Margins:
    """One event's worst use (:class:`~atmtcp.compile.Margins`): a window of packets and a few more."""
    largest = max(c.tcp.rcv_wnd // c.tcp.mss + 4 for c in run.connections)
    return Margins(largest + 8, largest + 4, np.zeros(0, np.int64))


def packet_sizes(run: m.Run, margins: Margins, n_chan: int, n_ports: int, sampled: list[int],
                 growth: Growth) -> Sizes:
    """The pools: two windows per connection and :data:`PACKETS_IN_FLIGHT_SLACK`; the heap: a
    few entries per channel, connection and router port; each times its ``growth``, plus one
    event's ``margins``."""
    in_flight = 2 * sum(c.tcp.rcv_wnd // c.tcp.mss + 4 for c in run.connections) + PACKETS_IN_FLIGHT_SLACK
    pool = int(in_flight * growth.cells) + margins.cells
    packet_pool = int(in_flight * growth.packets) + margins.packets
    heap = int((n_chan + 8 * len(run.connections) + 64 + n_ports) * growth.heap) + margins.heap
    n_samples, sample_ns = sampling(run, bool(sampled))
    return Sizes(pool, packet_pool, heap, scoreboard_capacity(run), trace_records(run), n_samples, sample_ns)


def compile_packets(run: m.Run, growth: Growth) -> Compiled:
    """Allocate and fill the kernel state of ``run`` on an Internetwork (see the module docstring);
    ``growth`` multiplies the growable sizes, each with one event's margin on top."""
    specs = port_specs(run.network)
    flows, atm_after = packet_flows(run, specs)
    names = list(dict.fromkeys(h for f in flows for h in f.hops))
    index = {name: i for i, name in enumerate(names)}
    queues = router_queues(specs, ((name, far, _ip_bytes(run, f.conn, f.is_ack))
                                   for f in flows for name, far in zip(f.hops, f.egress)))
    routers = router_tables(run, names, queues)
    flow_t = flow_tables(run, flows, index, queues)
    _set_ewa_acks(flow_t.flow, flows, flow_t.queue_at, routers.rq, run)
    data_routes = [f.hops for f in flows if not f.is_ack]
    bottleneck = bottleneck_port(specs, data_routes)  # the router port most data flows share (L1 in ewa)
    routers.rport[index[bottleneck], L.RP_MEASURED] = 1
    sampled = sampled_queues(run, names, queues, routers.rq)
    margins = packet_margins(run)
    sizes = packet_sizes(run, margins, len(flow_t.channels.dst), len(names), sampled, growth)
    n_columns, ring_rows = sample_columns(run, sampled), int(routers.rq[:, L.RQ_RING_CAP].sum())
    check_memory(sizes, len(run.connections), 8 * (2 * ring_rows + sizes.n_samples * n_columns))
    kernel_state, state = pack_state(dict(
        sized_tables(run, sizes, margins), **connection_state(run, sizes.scoreboard),
        app=sampled_application(run, sampled), **flow_t.tables(),
        rport=routers.rport, rq=routers.rq, rqf=routers.rqf, rq_ring=Zeros((ring_rows, 2)),
        rsample=Zeros((sizes.n_samples, n_columns)),
        rfsample=Zeros((sizes.n_samples, len(L.EWA_SAMPLE_FIELDS) * len(sampled))),
    ), margins)
    return Compiled(
        state, kernel_state, [], [], [], [0] * len(flows), bottleneck,
        measured_rate_bps(specs[bottleneck], queues),
        connection_framing(run), np.array([bottleneck in r for r in data_routes]), sizes.n_samples,
        sizes.sample_ns, margins, growth, router_ports=names, router_queues=queues.names,
        sampled_queues=[queues.names[q] for q in sampled],
        atm_hops_after=[1 + atm_after[name] if specs[name].kind == "aap" else 0 for name in names],
    )
