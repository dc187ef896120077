"""The cell ports of a run on a :class:`~atmtcp.model.Network`: which ones the kernel simulates (the
others are folded into the routes' delays, see :mod:`atmtcp.compile.cells`), the capacity of their
rings and pending lists, and the ``port`` and ``portf`` tables (:mod:`atmtcp.kernel.ports`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import model as m
from ..kernel import layout as L
from ..kernel.aal5 import packet_cells
from .core import NS, Growth, Margins, ack_bytes, bases, cell_time_ns
from .routes import Router

INITIAL_INFINITE_RING = 16384
"""Cells an infinite buffer's ring holds at first, at most (less where the windows crossing
the port bound its queue lower); it grows when it runs low (see :class:`~atmtcp.compile.Growth`)."""


@dataclass
class PortSpec:
    """One output port: its node, link rate and delay, configuration, and whether it is a NIC."""

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
        return self.config.randomized_tail or self.config.drop_from_front != "none"


def port_specs(network: m.Network) -> dict[str, PortSpec]:
    """Every output port of ``network``, by name: a host's is its NIC (an infinite FIFO buffer), a
    switch's has its configuration (``network.ports``, else ``network.switch_port``)."""
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


def upstream_ports(routes: list[list[str]]) -> dict[str, set[str]]:
    """Per port on a route, the ports whose cells it receives (its input ports)."""
    upstream: dict[str, set[str]] = {}
    for route in routes:
        upstream.setdefault(route[0], set())
        for before, port in zip(route[:-1], route[1:]):
            upstream.setdefault(port, set()).add(before)
    return upstream


def foldable(specs: dict[str, PortSpec], upstream: dict[str, set[str]]) -> set[str]:
    """Ports that provably never queue (see :mod:`atmtcp.compile.cells`).

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


@dataclass
class CellRoutes:
    """A run's VCs and the ports they cross: what the routes decide."""

    specs: dict[str, PortSpec]
    vc_routes: list[tuple[int, int, list[str]]]   # per VC: connection, is_ack, port names
    fan_in: dict[str, int]                        # per port on a route: its input ports (at least 1)
    folded: set[str]
    kernel_ports: list[str]                       # the simulated ports: kernel index -> name
    index: dict[str, int]                         # name -> kernel index


def cell_routes(run: m.Run) -> CellRoutes:
    """Route each connection's data and ACK VCs (VC 2c and 2c + 1) and fold the ports that never
    queue; the kernel simulates the other ports on the routes, in link order."""
    specs = port_specs(run.network)
    router = Router(run.network)
    vc_routes = []
    for c, conn in enumerate(run.connections):
        vc_routes.append((c, 0, router.route(conn.src, conn.dst)))
        vc_routes.append((c, 1, router.route(conn.dst, conn.src)))
    upstream = upstream_ports([r for _, _, r in vc_routes])
    folded = foldable(specs, upstream)
    on_routes = {name for _, _, r in vc_routes for name in r}
    kernel_ports = [name for name in specs if name not in folded and name in on_routes]
    fan_in = {name: max(1, len(ups)) for name, ups in upstream.items()}
    index = {name: i for i, name in enumerate(kernel_ports)}
    return CellRoutes(specs, vc_routes, fan_in, folded, kernel_ports, index)


def window_cells(tcp: m.TcpConfig, cells_per_segment: int) -> int:
    """Cells of a window of segments, and two more segments."""
    return (tcp.rcv_wnd // tcp.mss + 2) * cells_per_segment


def ring_demand(run: m.Run, routes: CellRoutes) -> dict[str, int]:
    """Per simulated port: a bound on what can pile up in it, two windows of each VC through it."""
    demand = {name: 0 for name in routes.kernel_ports}
    overhead, ack = run.aal5.overhead_bytes, ack_bytes(run)
    for c, is_ack, route in routes.vc_routes:
        tcp = run.connections[c].tcp
        per_seg = packet_cells(28, ack) if is_ack else packet_cells(tcp.mss, overhead)  # 28: 3 SACK blocks
        for name in route:
            if name in demand:
                demand[name] += 2 * window_cells(tcp, per_seg)
    return demand


@dataclass
class Rings:
    """Per simulated port: the most it queues (a finite buffer's size, else a bound that grows),
    its ring's capacity (0 where the policy keeps none) and its pending list's (0 unless slotted)."""

    queue_bound: list[int]
    ring_cap: list[int]
    pend_cap: list[int]


def ring_sizes(run: m.Run, routes: CellRoutes, margins: Margins, growth: Growth) -> Rings:
    """The ring capacity per port: the buffer, or a bound on what can pile up in an infinite one."""
    demand = ring_demand(run, routes)
    specs, fan_in = routes.specs, routes.fan_in
    pend_cap = [int((64 + 4 * fan_in[name]) * growth.pending.get(name, 1)) + margins.pending
                if specs[name].config.slotted else 0 for name in routes.kernel_ports]
    queue_bound, ring_cap = [], []
    for i, name in enumerate(routes.kernel_ports):
        spec = specs[name]
        k = spec.config.buffer_cells
        if k is None:
            bound = int(min(demand[name], INITIAL_INFINITE_RING) * growth.rings.get(name, 1)) + 64
            room = bound + margins.ring[i] + pend_cap[i]  # the first event fits (Margins.ring_of)
        else:
            bound = room = k
        queue_bound.append(bound)
        ring_cap.append(room if spec.held or spec.config.policy.reads_vc_shares else 0)
    return Rings(queue_bound, ring_cap, pend_cap)


def data_sessions(routes: CellRoutes) -> dict[str, int]:
    """Per simulated port: the connections whose data cross it."""
    sessions = {name: 0 for name in routes.kernel_ports}
    for _c, is_ack, route in routes.vc_routes:
        for name in route:
            if name in sessions and not is_ack:
                sessions[name] += 1
    return sessions


@dataclass
class PortTables:
    """The ``port`` and ``portf`` tables, and the rows of the slotted ports' pending lists."""

    port: np.ndarray
    portf: np.ndarray
    pend_rows: int


def port_tables(run: m.Run, routes: CellRoutes, rings: Rings) -> PortTables:
    """One row per simulated port: its buffer and cell time, drop policy, ring and pending list,
    trace column, and what makes it held (:mod:`atmtcp.kernel.held_ports`)."""
    sessions = data_sessions(routes)
    n_port = len(routes.kernel_ports)
    port = np.zeros((n_port, L.P_NFIELDS), np.int64)
    portf = np.zeros((n_port, L.PF_NFIELDS), np.float64)
    ring_base = bases(rings.ring_cap)
    pend_rows = 0
    traced = [p for p in run.trace.ports]
    for i, name in enumerate(routes.kernel_ports):
        spec = routes.specs[name]
        k = spec.config.buffer_cells
        port[i, L.P_CAPACITY] = L.INFINITE if k is None else k
        port[i, L.P_CELL_NS] = cell_time_ns(spec.rate_bps)
        write_drop_policy(port, portf, i, spec.config.policy, k, sessions[name])
        port[i, L.P_DROP_TIMER_AT] = -1
        if spec.is_nic and run.network.ip_service_pps is not None:
            port[i, L.P_IP_NS] = int(round(NS / run.network.ip_service_pps))
        port[i, L.P_RING_BASE] = ring_base[i]
        port[i, L.P_RING_CAP] = rings.ring_cap[i]
        port[i, L.P_TRACE] = traced.index(name) + 1 if name in traced else 0
        write_held(port, i, spec, routes.fan_in[name])
        port[i, L.P_EVENT_AT] = L.INFINITE if port[i, L.P_HELD] == L.SLOT_ENDS else -1
        if spec.config.slotted:
            port[i, L.P_PEND_BASE] = pend_rows
            port[i, L.P_PEND_CAP] = rings.pend_cap[i]
            pend_rows += port[i, L.P_PEND_CAP]
    for name in traced:
        if name not in routes.index:
            allowed = "a simulated port: " + ", ".join(routes.kernel_ports)
            raise m.ModelError("TraceConfig", "ports", name, allowed)
    return PortTables(port, portf, pend_rows)


def write_drop_policy(port: np.ndarray, portf: np.ndarray, i: int, policy: m.DropPolicy, k: int | None,
                      sessions: int) -> None:
    """Port ``i``'s drop-policy columns (:mod:`atmtcp.kernel.policies`): ``policy`` at a buffer of
    ``k`` cells (None: infinite) crossed by the data of ``sessions`` connections, as the policy's
    record gives them (:meth:`atmtcp.model.PolicyRecord.kernel_columns`)."""
    ints, floats = policy.kernel_columns(k, sessions)
    for column, value in ints.items():
        port[i, column] = value
    for column, value in floats.items():
        portf[i, column] = value


def write_held(port: np.ndarray, i: int, spec: PortSpec, fan_in: int) -> None:
    """Port ``i``'s columns of a held port (:mod:`atmtcp.kernel.held_ports`): held, slotted, drop
    from front, and its fan-in for randomized tail drop (else its ``fan_in`` input ports)."""
    port[i, L.P_HELD] = L.HELD_CELLS if spec.held else L.SLOT_ENDS if spec.config.slotted else L.LAZY_FIFO
    port[i, L.P_SLOTTED] = int(spec.config.slotted)
    port[i, L.P_FRONT] = m.FRONT_DROPS.index(spec.config.drop_from_front)
    if spec.config.randomized_tail:
        port[i, L.P_FAN_IN] = spec.config.fan_in or fan_in
