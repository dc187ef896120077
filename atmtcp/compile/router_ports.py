"""The router ports of a run on an :class:`~atmtcp.internetwork.Internetwork`
(:mod:`atmtcp.compile.packets`): what each port sends, its queues (one, or one per VC), and the
``rport``, ``rq`` and ``rqf`` tables (:mod:`atmtcp.kernel.packets`, :mod:`atmtcp.kernel.router_policies`).

Everything a queue cannot hold is refused here, before the kernel runs: a packet larger than the
buffer, a RED threshold above what the buffer holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import model as m
from ..internetwork import RouterPort
from ..kernel import layout as L
from ..kernel.aal5 import packet_cells
from .core import NS, bases, cell_time_ns


@dataclass
class RouterPortSpec:
    """One port of the packet path: where it is, what it sends, its buffer."""

    name: str
    rate_bps: float
    delay_s: float
    kind: str                  # "nic", "ip", "aap" or "atm"
    config: RouterPort

    @property
    def queued(self) -> bool:
        """The port keeps queues and sends by events (else it is lazy)."""
        return not self.config.infinite

    def cell_gap_ns(self, priority_on: bool = False) -> int:
        """Time from one of a VC's cells to its next: the VC's rate, at most the link's (less the
        priority VC's rate while it is on: :mod:`atmtcp.kernel.priority`)."""
        link = cell_time_ns(self.rate_bps)
        rate = self.config.vc_rate_bps
        gap = link if rate is None else max(link, cell_time_ns(rate))
        if priority_on:
            gap = max(gap, cell_time_ns(self.rate_bps - self.config.priority_vc.rate_bps))
        return gap


def _classify(net, name: str) -> str:
    """``nic``, ``ip``, ``aap`` or ``atm`` (an ATM switch's port) for port ``name``."""
    here, there = name.split("->")
    if here in net.hosts:
        return "nic"
    if here in net.atm_switches:
        return "atm"
    return "aap" if there in net.atm_switches else "ip"


def port_specs(net) -> dict[str, RouterPortSpec]:
    """Every port of the Internetwork ``net``, by name: a router's IP or ATM access port has its
    configuration (``net.router_port``), a host's and an ATM switch's an infinite buffer."""
    specs = {}
    for link in net.links:
        for a, b in ((link.a, link.b), (link.b, link.a)):
            name = f"{a}->{b}"
            kind = _classify(net, name)
            config = net.router_port(name) if kind in ("ip", "aap") else RouterPort()
            specs[name] = RouterPortSpec(name, link.rate_bps, link.delay_s, kind, config)
    return specs


@dataclass
class Queues:
    """The router queues: one per VC at a port with ``per_vc_queues``, else one per port with a
    finite buffer; per queue, the sizes of the IP packets of the flows through it."""

    specs: dict[str, RouterPortSpec]
    names: list[str] = field(default_factory=list)
    of: dict[tuple[str, str], int] = field(default_factory=dict)
    sizes: list[list[int]] = field(default_factory=list)

    def key(self, name: str, far: str) -> tuple[str, str]:
        """The queue a flow joins at port ``name`` towards ``far``: the port's own, or its VC's."""
        return name, far if self.specs[name].config.per_vc_queues else ""

    def at(self, name: str) -> list[int]:
        """The queues of port ``name``."""
        return [q for key, q in self.of.items() if key[0] == name]


def router_queues(specs: dict[str, RouterPortSpec], crossings) -> Queues:
    """The queues of the ``crossings`` (port, far AAP, IP packet size) of the flows' packets, numbered
    in the order the flows first reach them (a lazy port has none)."""
    queues = Queues(specs)
    for name, far, size in crossings:
        if not specs[name].queued:
            continue
        key = queues.key(name, far)
        if key not in queues.of:
            queues.of[key] = len(queues.names)
            queues.names.append(f"{name}:{key[1]}" if key[1] else name)
            queues.sizes.append([])
        queues.sizes[queues.of[key]].append(size)
    return queues


def _check_queue(name: str, config: RouterPort, sizes: list[int]) -> None:
    """Refuse a buffer that cannot hold the largest packet through it, and RED thresholds above the
    number of such packets it holds (ewa's thresholds are in packets)."""
    largest = max(sizes)
    if config.buffer_bytes is not None and config.buffer_bytes < largest:
        raise m.ModelError("RouterPort", "buffer_bytes", config.buffer_bytes,
                           f"at least one packet, {largest} bytes (the largest IP packet through {name})")
    policy = config.policy
    if policy.kind == "red" and config.buffer_packets is None:
        holds = config.buffer_bytes // largest
        if not policy.max_th <= holds:
            raise m.ModelError("RouterPolicy", "max_th", policy.max_th,
                               f"at most the {holds} packets of {largest} bytes that buffer_bytes = "
                               f"{config.buffer_bytes} holds at {name}")


def _set_priority_vc(rport: np.ndarray, p: int, spec: RouterPortSpec) -> None:
    """The port's gaps with its priority VC off and on, and its mean periods (ewa 4.5)."""
    rport[p, L.RP_LINK_GAP_NS] = spec.cell_gap_ns()
    prio = spec.config.priority_vc
    if prio is None:
        return
    if not prio.rate_bps < spec.rate_bps:
        raise m.ModelError("PriorityVc", "rate_bps", prio.rate_bps,
                           f"below the rate of the link of {spec.name}, {spec.rate_bps:g} bit/s")
    rport[p, L.RP_PRIORITY_GAP_NS] = spec.cell_gap_ns(priority_on=True)
    rport[p, L.RP_PRIORITY_ON_MEAN_NS] = int(round(prio.mean_on_s * NS))
    rport[p, L.RP_PRIORITY_OFF_MEAN_NS] = int(round(prio.mean_off_s * NS))


def _set_ewa(rq: np.ndarray, rqf: np.ndarray, q: int, config: RouterPort, largest: int) -> None:
    """Queue ``q``'s EWA (:class:`atmtcp.internetwork.Ewa`): B in packets, the thresholds in packets."""
    ewa = config.ewa
    if ewa is None:
        return
    buffer = config.buffer_packets if config.buffer_packets is not None else config.buffer_bytes // largest
    rq[q, L.RQ_EWA] = L.EWA_FEEDBACK_NAMES.index(ewa.feedback)
    rq[q, L.RQ_EWA_ADAPTIVE] = int(ewa.adaptive)
    rq[q, L.RQ_EWA_PERIOD_NS] = int(round(ewa.period_s * NS)) if ewa.adaptive else 0
    rq[q, L.RQ_EWA_BUFFER] = buffer
    rqf[q, L.RQF_EWA_ALPHA] = ewa.alpha
    rqf[q, L.RQF_EWA_GAIN] = ewa.gain
    rqf[q, L.RQF_EWA_LOW] = ewa.low * buffer
    rqf[q, L.RQF_EWA_HIGH] = ewa.high * buffer
    rqf[q, L.RQF_EWA_UP] = ewa.w_up
    rqf[q, L.RQF_EWA_DOWN] = ewa.w_down


def _service_ns(spec: RouterPortSpec, ip_bytes: int, run: m.Run) -> float:
    """Time port ``spec`` takes to send one IP packet of ``ip_bytes`` (its AAL5 cells at an AAP):
    RED's typical transmission time ``s`` for the decay of its average over an idle queue."""
    if spec.kind == "aap":
        cells = packet_cells(ip_bytes - run.aal5.tcpip_header_bytes, run.aal5.overhead_bytes)
        return float(cells * spec.cell_gap_ns())
    return ip_bytes * 8e9 / spec.rate_bps


def _rport_row(rport: np.ndarray, p: int, spec: RouterPortSpec, first_queue: int, n_queues: int) -> None:
    """Router port ``p``: how it sends (whole packets or cells), at what rate, and its queues."""
    rport[p, L.RP_MODE] = L.ROUTE_ATM if spec.kind == "aap" else L.ROUTE_IP
    rport[p, L.RP_PS_PER_BYTE] = int(round(8e12 / spec.rate_bps))
    rport[p, L.RP_CELL_NS] = cell_time_ns(spec.rate_bps)
    rport[p, L.RP_CELL_GAP_NS] = spec.cell_gap_ns()
    rport[p, L.RP_FIRST_Q] = first_queue
    rport[p, L.RP_NQ] = n_queues
    rport[p, L.RP_EVENT_AT] = -1
    rport[p, L.RP_SERVING] = -1
    rport[p, L.RP_RR] = first_queue + n_queues - 1
    _set_priority_vc(rport, p, spec)


def _queue_row(rq: np.ndarray, rqf: np.ndarray, q: int, p: int, spec: RouterPortSpec, sizes: list[int],
               run: m.Run) -> int:
    """Queue ``q`` of router port ``p``: its buffer, policy and EWA; returns its ring's capacity in
    packets (the smallest packets through it fill it)."""
    config = spec.config
    _check_queue(spec.name, config, sizes)
    packet_ns = _service_ns(spec, max(sizes), run)
    rq[q, L.RQ_PORT] = p
    rq[q, L.RQ_POLICY] = L.ROUTER_POLICY_NAMES.index(config.policy.kind)
    rq[q, L.RQ_CAP_BYTES] = L.INFINITE if config.buffer_bytes is None else config.buffer_bytes
    rq[q, L.RQ_CAP_PKTS] = L.INFINITE if config.buffer_packets is None else config.buffer_packets
    rq[q, L.RQ_HEAD_STARTED] = -1
    rq[q, L.RQ_RED_COUNT] = -1
    rq[q, L.RQ_RED_GENTLE] = int(config.policy.gentle)
    rqf[q, L.RQF_MIN_TH] = config.policy.min_th
    rqf[q, L.RQF_MAX_TH] = config.policy.max_th
    rqf[q, L.RQF_MAX_P] = config.policy.max_p
    rqf[q, L.RQF_WEIGHT] = config.policy.weight
    rqf[q, L.RQF_IDLE_PACKET_NS] = packet_ns
    _set_ewa(rq, rqf, q, config, max(sizes))
    return config.buffer_packets if config.buffer_packets is not None else config.buffer_bytes // min(sizes) + 1


@dataclass
class RouterTables:
    """The ``rport``, ``rq`` and ``rqf`` tables."""

    rport: np.ndarray
    rq: np.ndarray
    rqf: np.ndarray


def router_tables(run: m.Run, names: list[str], queues: Queues) -> RouterTables:
    """One row per router port (``names``, in kernel order) and per queue; each port's queues
    follow one another, and each queue's ring follows the one before."""
    rport = np.zeros((len(names), L.RP_NFIELDS), np.int64)
    rq = np.zeros((len(queues.names), L.RQ_NFIELDS), np.int64)
    rqf = np.zeros((len(queues.names), L.RQF_NFIELDS), np.float64)
    ring_cap = []
    first_queue = {}
    for key, q in queues.of.items():
        first_queue.setdefault(key[0], q)
    for p, name in enumerate(names):
        spec = queues.specs[name]
        own = queues.at(name)
        _rport_row(rport, p, spec, first_queue.get(name, 0), len(own))
        for q in own:
            ring_cap.append((q, _queue_row(rq, rqf, q, p, spec, queues.sizes[q], run)))
    caps = np.array([cap for _, cap in sorted(ring_cap)], np.int64)
    rq[:, L.RQ_RING_CAP] = caps
    rq[:, L.RQ_RING_BASE] = bases(caps)
    return RouterTables(rport, rq, rqf)
