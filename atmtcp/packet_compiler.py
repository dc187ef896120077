"""Turn a :class:`~atmtcp.model.Run` on an :class:`~atmtcp.internetwork.Internetwork` into the
kernel's arrays for the packet path (:mod:`atmtcp.kernel.packets`).

Routes are fewest-hop (:class:`atmtcp.compiler.Router`). Along a route, each port is one of:

- a host's NIC: an IP link with an infinite buffer (a lazy port);
- a router's IP port (towards a host or a router): whole packets at the link's rate;
- an ATM access point (a router's port towards an ATM switch): AAL5 cells at the VC's rate;
- an ATM switch's port: no kernel port. The ATM network is rate-controlled and loses nothing
  (:class:`~atmtcp.internetwork.Internetwork`), so a switch port adds one cell time (its cell's
  transmission) and its link's delay to the route, as a folded cell port does
  (:func:`atmtcp.compiler._folded_delay_ns`).

A flow's VC at an access point is named by the router where its route leaves the ATM network
(the far AAP): connections between the same pair of AAPs share a VC (ewa 2). A router port with a
finite buffer or per-VC queues gets queues (one, or one per VC); any other is lazy.

Everything a queue cannot hold is refused here, before the kernel runs: a packet larger than the
buffer, a RED threshold above what the buffer holds.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from . import model as m
from .compiler import (
    NS, Compiled, Growth, Margins, Router, _bottleneck, _check_memory, _free_list, _loss_table,
    application_table, cell_time_ns, connection_tables, global_scalars, set_low_marks,
)
from .internetwork import RouterPort
from .kernel import layout as L
from .kernel.aal5 import CELL_BYTES, packet_cells
from .kernel.tables import SimState, Zeros, pack
from .metrics import framing

PACKETS_IN_FLIGHT_SLACK = 4096
"""Records added to the channel-entry and packet pools beyond two windows per connection (the
pools grow in the paused run when they run low: :mod:`atmtcp.grow`)."""


@dataclass
class RouterPortSpec:
    """One port of the packet path: where it is, what it sends, its buffer."""

    name: str
    rate_bps: float
    delay_s: float
    kind: str                  # "nic", "ip" or "aap"
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


def _port_specs(net) -> dict[str, RouterPortSpec]:
    specs = {}
    for link in net.links:
        for a, b in ((link.a, link.b), (link.b, link.a)):
            name = f"{a}->{b}"
            kind = _classify(net, name)
            config = net.router_port(name) if kind in ("ip", "aap") else RouterPort()
            specs[name] = RouterPortSpec(name, link.rate_bps, link.delay_s, kind, config)
    return specs


def _hops(route: list[str], specs: dict[str, RouterPortSpec]) -> tuple[list[str], list[int], int, list[str]]:
    """The kernel hops of ``route`` (its ports but the ATM switches'), the delay in ns from a
    departure at each hop to the arrival at the next, the delay after the last hop, and for each
    hop the router where the route leaves the ATM network after it ('' if it enters none)."""
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


def _ip_bytes(run: m.Run, c: int, is_ack: int) -> int:
    """The IP datagram of connection ``c``'s data (MSS + TCP/IP headers) or ACKs (the headers)."""
    header = run.aal5.tcpip_header_bytes
    return header if is_ack else run.connections[c].tcp.mss + header


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
        m._check(policy.max_th <= holds, "RouterPolicy", "max_th", policy.max_th,
                 f"at most the {holds} packets of {largest} bytes that buffer_bytes = {config.buffer_bytes} "
                 f"holds at {name}")


def _set_priority_vc(rport: np.ndarray, p: int, spec: RouterPortSpec) -> None:
    """The port's gaps with its priority VC off and on, and its mean periods (ewa 4.5)."""
    rport[p, L.RP_LINK_GAP_NS] = spec.cell_gap_ns()
    prio = spec.config.priority_vc
    if prio is None:
        return
    m._check(prio.rate_bps < spec.rate_bps, "PriorityVc", "rate_bps", prio.rate_bps,
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
    rq[q, L.Q_EWA] = L.EWA_FEEDBACK_NAMES.index(ewa.feedback)
    rq[q, L.Q_EWA_ADAPTIVE] = int(ewa.adaptive)
    rq[q, L.Q_EWA_PERIOD_NS] = int(round(ewa.period_s * NS)) if ewa.adaptive else 0
    rq[q, L.Q_EWA_BUFFER] = buffer
    rqf[q, L.QF_EWA_ALPHA] = ewa.alpha
    rqf[q, L.QF_EWA_GAIN] = ewa.gain
    rqf[q, L.QF_EWA_LOW] = ewa.low * buffer
    rqf[q, L.QF_EWA_HIGH] = ewa.high * buffer
    rqf[q, L.QF_EWA_UP] = ewa.w_up
    rqf[q, L.QF_EWA_DOWN] = ewa.w_down


def _set_ewa_acks(flow: np.ndarray, flows: list, queue_at: dict, rq: np.ndarray, run: m.Run) -> None:
    """Each ACK flow whose data crosses a queue with EWA: the hop at which it enters that queue's
    router on its way back (ewa 3: the AAP rewrites "the returning acknowledgements"), the queue,
    and the unit of the connection's scaled window field."""
    flow[:, L.FL_EWA_HOP] = -1
    for v, (c, is_ack, hops, _d, _t, _e) in enumerate(flows):
        if is_ack:
            continue
        ewa_hops = [(name, queue_at[(v, h)]) for h, name in enumerate(hops)
                    if (v, h) in queue_at and rq[queue_at[(v, h)], L.Q_EWA] != L.EWA_OFF]
        if not ewa_hops:
            continue
        name, q = ewa_hops[0]
        router = name.split("->")[0]
        ack = next(a for a, f in enumerate(flows) if f[0] == c and f[1])
        back = [h for h, hop in enumerate(flows[ack][2]) if hop.split("->")[0] == router]
        if back:
            flow[ack, L.FL_EWA_HOP] = back[0]
            flow[ack, L.FL_EWA_QUEUE] = q
            flow[ack, L.FL_WND_UNIT] = 1 << run.connections[c].tcp.window_scale


def compile_internetwork(run: m.Run, growth: Growth | None = None) -> Compiled:
    """Allocate and fill the kernel state of ``run`` on an Internetwork (see the module docstring)."""
    growth = copy.deepcopy(growth) if growth else Growth()
    net = run.network
    specs = _port_specs(net)
    router = Router(net)
    flows = []   # (connection, is_ack, hops, delays, tail, egress)
    atm_after = {}
    for c, conn in enumerate(run.connections):
        for is_ack, (a, b) in enumerate(((conn.src, conn.dst), (conn.dst, conn.src))):
            route = router.route(a, b)
            flows.append((c, is_ack, *_hops(route, specs)))
            for hop in flows[-1][2]:
                atm_after[hop] = _atm_ports_after(route, hop, specs)
    names = list(dict.fromkeys(h for f in flows for h in f[2]))
    index = {name: i for i, name in enumerate(names)}

    # --- queues: one per VC (per_vc_queues) or one per port with a finite buffer
    def queue_key(name: str, far: str) -> tuple[str, str]:
        """The queue a flow joins at port ``name`` towards ``far``: the port's own, or its VC's."""
        return name, far if specs[name].config.per_vc_queues else ""

    queue_names, queue_of = [], {}
    for _c, _is_ack, hops, _d, _t, egress in flows:
        for name, far in zip(hops, egress):
            if specs[name].queued:
                key = queue_key(name, far)
                if key not in queue_of:
                    queue_of[key] = len(queue_names)
                    queue_names.append(f"{name}:{key[1]}" if key[1] else name)
    sizes = {q: [] for q in range(len(queue_names))}
    for c, is_ack, hops, _d, _t, egress in flows:
        for name, far in zip(hops, egress):
            if specs[name].queued:
                sizes[queue_of[queue_key(name, far)]].append(_ip_bytes(run, c, is_ack))

    rport = np.zeros((len(names), L.RP_NFIELDS), np.int64)
    rq = np.zeros((len(queue_names), L.Q_NFIELDS), np.int64)
    rqf = np.zeros((len(queue_names), L.QF_NFIELDS), np.float64)
    ring_cap = []
    first_queue = {}
    for key, q in queue_of.items():
        first_queue.setdefault(key[0], q)
    for p, name in enumerate(names):
        spec = specs[name]
        own = [q for key, q in queue_of.items() if key[0] == name]
        rport[p, L.RP_MODE] = L.ROUTE_ATM if spec.kind == "aap" else L.ROUTE_IP
        rport[p, L.RP_PS_PER_BYTE] = int(round(8e12 / spec.rate_bps))
        rport[p, L.RP_CELL_NS] = cell_time_ns(spec.rate_bps)
        rport[p, L.RP_CELL_GAP_NS] = spec.cell_gap_ns()
        rport[p, L.RP_FIRST_Q] = first_queue.get(name, 0)
        rport[p, L.RP_NQ] = len(own)
        rport[p, L.RP_EVENT_AT] = -1
        rport[p, L.RP_SERVING] = -1
        rport[p, L.RP_RR] = first_queue.get(name, 0) + len(own) - 1
        _set_priority_vc(rport, p, spec)
        for q in own:
            config = spec.config
            _check_queue(name, config, sizes[q])
            packet_ns = _service_ns(spec, max(sizes[q]), run)
            rq[q, L.Q_PORT] = p
            rq[q, L.Q_POLICY] = L.ROUTER_POLICY_NAMES.index(config.policy.kind)
            rq[q, L.Q_CAP_BYTES] = L.INFINITE if config.buffer_bytes is None else config.buffer_bytes
            rq[q, L.Q_CAP_PKTS] = L.INFINITE if config.buffer_packets is None else config.buffer_packets
            rq[q, L.Q_HEAD_STARTED] = -1
            rq[q, L.Q_RED_COUNT] = -1
            rq[q, L.Q_RED_GENTLE] = int(config.policy.gentle)
            rqf[q, L.QF_MIN_TH] = config.policy.min_th
            rqf[q, L.QF_MAX_TH] = config.policy.max_th
            rqf[q, L.QF_MAX_P] = config.policy.max_p
            rqf[q, L.QF_WEIGHT] = config.policy.weight
            rqf[q, L.QF_IDLE_PACKET_NS] = packet_ns
            _set_ewa(rq, rqf, q, config, max(sizes[q]))
            ring_cap.append((q, config.buffer_packets if config.buffer_packets is not None
                             else config.buffer_bytes // min(sizes[q]) + 1))
    caps = np.array([cap for _, cap in sorted(ring_cap)], np.int64)
    rq[:, L.Q_RING_CAP] = caps
    rq[:, L.Q_RING_BASE] = np.concatenate([[0], np.cumsum(caps)[:-1]]).astype(np.int64) if len(caps) else caps

    # --- flows: hops, channels, delays
    n_vc, n_conn = len(flows), len(run.connections)
    max_hops = max(len(f[2]) for f in flows)
    overhead = run.aal5.overhead_bytes
    ack_bytes = run.aal5.tcpip_header_bytes + run.aal5.llc_bytes + run.aal5.trailer_bytes
    vc = np.zeros((n_vc, L.V_NFIELDS), np.int64)
    flow = np.zeros((n_vc, L.FL_NFIELDS), np.int64)
    flow_rport = np.full((n_vc, max_hops), -1, np.int64)
    flow_rq = np.full((n_vc, max_hops), -1, np.int64)
    vc_chan = np.full((n_vc, max_hops), -1, np.int64)
    vc_delay = np.zeros((n_vc, max_hops), np.int64)
    channels: dict[tuple, int] = {}
    queue_at = {}   # (flow, hop) -> its queue
    n_chan = 0
    for v, (c, is_ack, hops, delays, tail, egress) in enumerate(flows):
        for h, (name, far) in enumerate(zip(hops, egress)):
            flow_rport[v, h] = index[name]
            if specs[name].queued:
                flow_rq[v, h] = queue_at[(v, h)] = queue_of[queue_key(name, far)]
            if h + 1 < len(hops):
                vc_delay[v, h] = delays[h]
                key = (index[name], index[hops[h + 1]], delays[h])
                if key not in channels:
                    channels[key] = n_chan
                    n_chan += 1
                vc_chan[v, h] = channels[key]
        vc[v, L.V_CONN] = c
        vc[v, L.V_IS_ACK] = is_ack
        vc[v, L.V_NHOPS] = 0   # no cell port: the packet path
        vc[v, L.V_TAIL_NS] = tail
        vc[v, L.V_DATA_CELLS] = packet_cells(run.connections[c].tcp.mss, overhead)
        vc[v, L.V_HEADER_BYTES] = ack_bytes
        vc[v, L.V_DELIVERY_CHAN] = n_chan
        n_chan += 1
        flow[v, L.FL_IP_BYTES] = _ip_bytes(run, c, is_ack)
        flow[v, L.FL_PAYLOAD] = 0 if is_ack else run.connections[c].tcp.mss
        flow[v, L.FL_NHOPS] = len(hops)
    chan = np.zeros((n_chan, L.CH_NFIELDS), np.int64)
    chan[:, L.CH_DST_PORT] = -1
    _set_ewa_acks(flow, flows, queue_at, rq, run)

    # --- the measured port: the router port most data flows share (the bottleneck, L1 in ewa)
    data_routes = [f[2] for f in flows if not f[1]]
    bottleneck = _bottleneck(specs, data_routes)
    rport[index[bottleneck], L.RP_MEASURED] = 1
    b_spec = specs[bottleneck]
    vcs_at_bottleneck = max(1, len({q for key, q in queue_of.items() if key[0] == bottleneck}))
    bottleneck_bps = min(CELL_BYTES * 8 * NS / cell_time_ns(b_spec.rate_bps),
                         vcs_at_bottleneck * CELL_BYTES * 8 * NS / b_spec.cell_gap_ns())

    # --- samples: the queues of the traced router ports, and every connection
    for name in run.trace.ports:
        if name not in index or not specs[name].queued:
            allowed = ", ".join(n for n in names if specs[n].queued) or "none in this run"
            raise m.ModelError("TraceConfig", "ports", name, f"a router port with a buffer: {allowed}")
    sampled = [q for q, qname in enumerate(queue_names) if qname.split(":")[0] in run.trace.ports]
    n_fields = len(L.EWA_SAMPLE_FIELDS)
    per_queue = len(L.QUEUE_SAMPLE_FIELDS)
    for i, q in enumerate(sampled):
        rq[q, L.Q_SAMPLE_COL] = per_queue * i + 1
        rq[q, L.Q_FSAMPLE_COL] = n_fields * i + 1
    app = application_table(run)
    end_ns = int(round(run.duration_s * NS))
    sample_ns = max(1, int(round(run.trace.sample_interval_s * NS)))
    n_samples = end_ns // sample_ns + 1 if sampled else 0
    width = len(L.SAMPLED_CONNECTION_FIELDS)
    if sampled:
        app[:, L.A_SAMPLE_COL] = per_queue * len(sampled) + 1 + width * np.arange(n_conn)
    n_columns = (per_queue * len(sampled) + width * n_conn) if sampled else 0

    # --- connections, pools, heap, traces
    conn, connf, sb_cap = connection_tables(run)
    bursts = [c.tcp.rcv_wnd // c.tcp.mss + 4 for c in run.connections]
    margins = Margins(max(bursts) + 8, max(bursts) + 4, np.zeros(0, np.int64))
    in_flight = 2 * sum(bursts) + PACKETS_IN_FLIGHT_SLACK
    pool = int(in_flight * growth.cells) + margins.cells
    packet_pool = int(in_flight * growth.packets) + margins.packets
    heap_cap = int((n_chan + 8 * n_conn + 64 + len(names)) * growth.heap) + margins.heap
    trace_set = set(run.trace.connections)
    n_trace = run.trace.max_records if trace_set else 0
    _check_memory(8 * (pool * L.E_NFIELDS + packet_pool * L.K_NFIELDS + 2 * int(caps.sum())
                       + n_trace * 4 + n_samples * n_columns) + 2 * n_conn * sb_cap)

    g = global_scalars(run, pool, packet_pool, margins, n_samples, sample_ns)
    empty_routes = np.full((n_vc, 1), -1, np.int64)
    state = SimState(
        g=g, conn=conn, connf=connf,
        rsack=Zeros((n_conn, L.RS_NFIELDS)), sb=Zeros((n_conn, sb_cap)), rb=Zeros((n_conn, sb_cap)),
        vc=vc, vc_port=empty_routes, vc_chan=vc_chan, vc_delay=vc_delay,
        port=Zeros((0, L.P_NFIELDS)), portf=Zeros((0, L.PF_NFIELDS)),
        vc_pv=empty_routes.copy(), pv_vc=Zeros((0,)), pv_count=Zeros((0,)), pv_state=Zeros((0,)),
        pv_front=Zeros((0,)), ring_pv=Zeros((0,)), ring_t=Zeros((0,)), ring_cell=Zeros((0,)),
        pend=Zeros((0, L.PE_NFIELDS)),
        chan=chan, cell=Zeros((pool, L.E_NFIELDS)), pkt=Zeros((packet_pool, L.K_NFIELDS)),
        h_time=Zeros((heap_cap,)), h_seq=Zeros((heap_cap,)), h_kind=Zeros((heap_cap,)), h_id=Zeros((heap_cap,)),
        trace_t=Zeros((n_trace,)), trace_i=Zeros((n_trace, 2)), trace_v=Zeros((n_trace,)),
        droplog=Zeros((0, 5)), qsample=Zeros((n_samples, 0)), osample=Zeros((n_samples, 0)),
        loss=_loss_table(run), app=app,
        flow=flow, flow_rport=flow_rport, flow_rq=flow_rq, rport=rport, rq=rq, rqf=rqf,
        rq_ring=Zeros((int(caps.sum()), 2)), rsample=Zeros((n_samples, n_columns)),
        rfsample=Zeros((n_samples, n_fields * len(sampled))),
    )
    kernel_state, state = pack(state)
    _free_list(state.cell, L.E_NEXT)
    _free_list(state.pkt, L.K_NEXT_FREE)
    set_low_marks(state, margins)
    return Compiled(
        state, kernel_state, [], [], [], [0] * n_vc, bottleneck, bottleneck_bps,
        np.array([framing(c.tcp.mss, overhead) for c in run.connections]),
        np.array([bottleneck in r for r in data_routes]), n_samples, sample_ns, margins, growth,
        router_ports=names, router_queues=queue_names, sampled_queues=[queue_names[q] for q in sampled],
        atm_hops_after=[1 + atm_after[name] if specs[name].kind == "aap" else 0 for name in names],
    )


def _service_ns(spec: RouterPortSpec, ip_bytes: int, run: m.Run) -> float:
    """Time port ``spec`` takes to send one IP packet of ``ip_bytes`` (its AAL5 cells at an AAP):
    RED's typical transmission time ``s`` for the decay of its average over an idle queue."""
    if spec.kind == "aap":
        cells = packet_cells(ip_bytes - run.aal5.tcpip_header_bytes, run.aal5.overhead_bytes)
        return float(cells * spec.cell_gap_ns())
    return ip_bytes * 8e9 / spec.rate_bps
