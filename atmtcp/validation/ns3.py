"""The ns-3 peer: an atmtcp run translated into ns-3's parameters (no ns-3 needed to translate).

ns-3 (https://www.nsnam.org, the ``ns3`` wheel of PyPI with its cppyy bindings) is a packet-level
simulator: it has no cells. Every scenario we cross-check with it is a *dumbbell*: each source's access
link, one bottleneck link whose output queue is the port our papers study, and each destination's link.
:func:`from_n_source` reads goyal1998's N-source network (:func:`atmtcp.topologies.n_source_network`)
and :func:`from_internetwork` ewa's Fig. 1 (:func:`atmtcp.papers.ewa.shared.scenario.ewa_network`) out of
the very :class:`atmtcp.model.Run` our kernel simulates, so the two sides cannot drift apart.

How a model maps onto ns-3 (each mapping is a function below, tested on its numbers in
``tests/papers/test_validation.py``):

- *An ATM link becomes a point-to-point link whose rate drains an IP packet in the time its AAL5 cells
  take* (:func:`cell_link_rate_bps`): a 1540-byte IP packet is 33 cells, 89.97 us at 155.52 Mbit/s.
  ns-3 puts a 2-byte PPP header on every packet (:data:`PPP_HEADER_BYTES`), so the rate is that of
  (IP + 2) bytes per cell train. It is exact for the data packets (all of one size); an ACK, 40 IP bytes,
  takes 0.9 cell times in ns-3 and 2 in ours (40 + 16 bytes of LLC and trailer are two cells).
- *An IP link* (ewa's links inside the IP networks) carries its IP bytes at the link's rate
  (:func:`ip_link_rate_bps`).
- *A buffer in cells becomes a buffer in whole packets* (:func:`buffer_packets`): the cells over the
  cells per packet, rounded down. ns-3 drops whole packets at a full queue; our tail drop drops cells,
  and a packet that lost a cell still crosses the bottleneck with its other cells (the wasted bandwidth
  of goyal1998 4: "a packet is useless ... if even one of its cells is dropped"). That mechanism ns-3
  lacks: on goyal's UBR rows it is the main expected difference.
- *The queue*: a queue disc (``FifoQueueDisc`` or ``RedQueueDisc``) in front of a device queue of one
  packet; the buffer counts both, so the queue disc gets the buffer less one packet (:func:`queue_of`).
- *The TCP* (:func:`tcp_of`): ns-3's ``TcpNewReno`` window growth (slow start one segment per ACK,
  congestion avoidance segment^2/cwnd per ACK) with ``TcpClassicRecovery`` (cwnd = ssthresh + 3 segments,
  inflated per duplicate ACK, deflated to ssthresh at the end). ns-3 has no Reno recovery: its TCP stays
  in recovery until the data outstanding at the third duplicate ACK are acknowledged (New Reno's partial
  ACKs), where Reno leaves it at the first new ACK. Vanilla TCP (no fast retransmit) is a duplicate-ACK
  threshold no run can reach. What else could not be matched is listed by :func:`unmatched_tcp`.

Seeds. A goyal1998 seed draws only the order in which a slotted port takes one slot's cells (every
source starts at t = 0). ns-3 has no random element in these runs, so its seed draws each source's start
in [0, one packet time at the bottleneck) (:func:`goyal_starts`): the phase of its packets against the
others', which then decides the order in which their packets meet at the bottleneck (ours redraws that
order in every slot). A draw within one cell time would only permute identical sources and leave every
aggregate unchanged. An ewa seed draws the start times (0 for seed 0, else in
[0, 10 ms)) and RED's draws: ns-3 takes the very start times of our run and draws RED's numbers from its
own stream: stream 0 of run number ``seed + 1``, assigned to the queue disc in
:mod:`atmtcp.validation.ns3_run` (ns-3 otherwise numbers its streams across every simulation of a process).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import model as m
from ..internetwork import Internetwork, RouterPort
from ..kernel.aal5 import CELL_BYTES, packet_cells

PPP_HEADER_BYTES = 2
"""ns-3's ``PointToPointNetDevice`` adds a PPP header of 2 bytes to every packet it sends."""
VERSION = "3.44"
"""The ns-3 release of the ``ns3==3.44.post0`` wheel (the ``validate`` extra)."""
NEVER = 1_000_000
"""A duplicate-ACK threshold no run reaches: vanilla TCP has no fast retransmit (goyal1998 2)."""
SEND_AHEAD_SEGMENTS = 4
"""The sending application keeps cwnd plus this many segments written into the socket, so that a closed
connection leaves at most this much unsent data (ewa 2's connections close at 10 and 15 s: "we closed five
of the ten active connections"; ns-3's ``BulkSendApplication`` would leave a full send buffer behind)."""


@dataclass(frozen=True)
class Ns3Link:
    """A point-to-point link (both directions): data rate of the ns-3 device and one-way delay."""

    rate_bps: float
    delay_s: float


@dataclass(frozen=True)
class Ns3Queue:
    """The bottleneck's queue disc: ``fifo`` or ``red``; its limit in packets or bytes (the device's own
    one-packet queue excluded); RED's thresholds (packets), max_p, weight and typical packet (bytes)."""

    kind: str
    limit_packets: int | None = None
    limit_bytes: int | None = None
    min_th: float = 0.0
    max_th: float = 0.0
    max_p: float = 0.0
    weight: float = 0.0
    mean_packet_bytes: int = 0

    def max_size(self) -> str:
        """ns-3's ``MaxSize`` attribute: ``"<n>p"`` or ``"<n>B"``."""
        return f"{self.limit_packets}p" if self.limit_packets is not None else f"{self.limit_bytes}B"


@dataclass(frozen=True)
class Ns3Tcp:
    """ns-3's TCP attributes for one of our :class:`atmtcp.model.TcpConfig` (:func:`tcp_of`)."""

    segment_size: int
    rcv_buf_bytes: int
    window_scaling: bool
    sack: bool
    timestamps: bool
    del_ack_count: int
    del_ack_timeout_s: float
    clock_granularity_s: float
    min_rto_s: float
    initial_rto_s: float
    initial_ssthresh_bytes: int
    retx_threshold: int
    initial_cwnd_segments: int = 1
    congestion_ops: str = "ns3::TcpNewReno"
    recovery_ops: str = "ns3::TcpClassicRecovery"

    def defaults(self) -> dict[str, str]:
        """``Config::SetDefault`` name -> value (as text) for every attribute."""
        return {
            "ns3::TcpL4Protocol::SocketType": self.congestion_ops,
            "ns3::TcpL4Protocol::RecoveryType": self.recovery_ops,
            "ns3::TcpSocket::SegmentSize": str(self.segment_size),
            "ns3::TcpSocket::RcvBufSize": str(self.rcv_buf_bytes),
            "ns3::TcpSocket::SndBufSize": str(max(4 * self.rcv_buf_bytes, 1 << 20)),
            "ns3::TcpSocket::InitialCwnd": str(self.initial_cwnd_segments),
            "ns3::TcpSocket::InitialSlowStartThreshold": str(self.initial_ssthresh_bytes),
            "ns3::TcpSocket::DelAckCount": str(self.del_ack_count),
            "ns3::TcpSocket::DelAckTimeout": f"{self.del_ack_timeout_s}s",
            "ns3::TcpSocket::ConnTimeout": f"{self.initial_rto_s}s",
            "ns3::TcpSocketBase::WindowScaling": str(self.window_scaling).lower(),
            "ns3::TcpSocketBase::Sack": str(self.sack).lower(),
            "ns3::TcpSocketBase::Timestamp": str(self.timestamps).lower(),
            "ns3::TcpSocketBase::MinRto": f"{self.min_rto_s}s",
            "ns3::TcpSocketBase::ClockGranularity": f"{self.clock_granularity_s}s",
            "ns3::TcpSocketBase::ReTxThreshold": str(self.retx_threshold),
            "ns3::TcpSocketBase::LimitedTransmit": "false",
            "ns3::RttEstimator::InitialEstimation": f"{self.initial_rto_s}s",
        }


@dataclass(frozen=True)
class Ns3Dumbbell:
    """One ns-3 run: sources -> left node -> bottleneck -> right node -> destinations.

    ``access[i]`` and ``egress[i]`` are source i's and destination i's links; ``starts_s`` and ``stops_s``
    its application's open and close (``None``: persistent); ``rng_run`` ns-3's run number (RED's draws);
    ``sample_s`` how often each source's payload sent on the bottleneck is sampled; ``unmatched``: what
    the translation could not express."""

    access: tuple[Ns3Link, ...]
    bottleneck: Ns3Link
    egress: tuple[Ns3Link, ...]
    queue: Ns3Queue
    tcp: Ns3Tcp
    starts_s: tuple[float, ...]
    stops_s: tuple[float | None, ...]
    duration_s: float
    rng_run: int
    ip_packet_bytes: int
    sample_s: float = 0.25
    unmatched: tuple[str, ...] = field(default=())

    @property
    def n(self) -> int:
        """The number of sources (one per access link)."""
        return len(self.access)


def ip_packet_bytes(mss: int, aal5: m.Aal5Config) -> int:
    """The IP datagram of a full segment: MSS + TCP/IP headers (goyal1998 3.2: 512 + 40 = 552)."""
    return mss + aal5.tcpip_header_bytes


def cell_link_rate_bps(rate_bps: float, mss: int, aal5: m.Aal5Config) -> float:
    """The ns-3 device rate at which a full segment's IP packet (with its PPP header) takes the time of
    its AAL5 cells on an ATM link of ``rate_bps``: (IP + PPP) bytes per (cells x 53) bytes."""
    cells = packet_cells(mss, aal5.overhead_bytes)
    return rate_bps * (ip_packet_bytes(mss, aal5) + PPP_HEADER_BYTES) / (cells * CELL_BYTES)


def ip_link_rate_bps(rate_bps: float, ip_bytes: int) -> float:
    """The ns-3 device rate at which an IP packet of ``ip_bytes`` (with its PPP header) takes the time of
    its IP bytes at ``rate_bps``, as an IP link of ours carries it."""
    return rate_bps * (ip_bytes + PPP_HEADER_BYTES) / ip_bytes


def cell_time_s(rate_bps: float) -> float:
    """One 53-byte cell at ``rate_bps``."""
    return CELL_BYTES * 8 / rate_bps


def buffer_packets(buffer_cells: int, mss: int, aal5: m.Aal5Config) -> int:
    """A switch buffer of cells as whole packets of a full segment (rounded down): goyal1998's
    1000 cells are 83 packets of 12 cells."""
    return int(buffer_cells) // packet_cells(mss, aal5.overhead_bytes)


def tcp_of(tcp: m.TcpConfig) -> Ns3Tcp:
    """ns-3's TCP closest to ``tcp`` (module docstring; what differs: :func:`unmatched_tcp`)."""
    sack = tcp.flavor == "sack"
    return Ns3Tcp(
        segment_size=tcp.mss, rcv_buf_bytes=tcp.rcv_wnd, window_scaling=tcp.rcv_wnd > 65535, sack=sack,
        timestamps=tcp.timestamps, del_ack_count=2 if tcp.delayed_ack else 1,
        del_ack_timeout_s=tcp.delayed_ack_max_s, clock_granularity_s=tcp.granularity_s,
        min_rto_s=tcp.min_rto_ticks * tcp.granularity_s, initial_rto_s=tcp.initial_rto_s,
        initial_ssthresh_bytes=tcp.initial_ssthresh if tcp.initial_ssthresh is not None else tcp.rcv_wnd,
        retx_threshold=NEVER if tcp.flavor == "vanilla" else 3)


def unmatched_tcp(tcp: m.TcpConfig) -> tuple[str, ...]:
    """What of ``tcp`` ns-3's TCP (:func:`tcp_of`) does not express."""
    out = ["3-way handshake first (ns-3 sends data one RTT after the start)",
           "RTO by RFC 6298 on a continuous clock (ours: BSD ticks; the timer fires on a tick)"]
    if tcp.flavor == "reno":
        out.append("Reno's recovery: ns-3's stays in recovery over partial ACKs (New Reno)")
    if tcp.increase == "bsd":
        out.append("4.4BSD's +mss/8 per ACK in congestion avoidance")
    elif tcp.increase.startswith("integer"):
        out.append("integer-byte congestion avoidance")
    out.append("ssthresh = flight size / 2 (ours: " + ("cwnd / 2" if tcp.ssthresh_rule == "half_cwnd"
                                                       else "min(wnd, cwnd) / 2") + ")")
    if tcp.recovery_exit_opens:
        out.append("4.4BSD's window opening on the ACK that ends recovery")
    return tuple(out)


def queue_of(port, mss: int, aal5: m.Aal5Config) -> tuple[Ns3Queue, tuple[str, ...]]:
    """The bottleneck's queue disc for a cell switch's :class:`~atmtcp.model.PortConfig` or a router's
    :class:`~atmtcp.internetwork.RouterPort`, less the device's one-packet queue; and what it lacks."""
    ip = ip_packet_bytes(mss, aal5)
    if isinstance(port, RouterPort):
        policy = port.policy
        if port.per_vc_queues or port.ewa is not None or port.priority_vc is not None:
            raise ValueError("queue_of: per-VC queues, EWA and a priority VC have no ns-3 queue disc here")
        packets = port.buffer_packets - 1 if port.buffer_packets is not None else None
        nbytes = port.buffer_bytes - ip if packets is None and port.buffer_bytes is not None else None
        if policy.kind == "red":
            if policy.gentle:
                raise ValueError("queue_of: gentle RED is not translated")
            return Ns3Queue("red", packets, nbytes, policy.min_th, policy.max_th, policy.max_p, policy.weight,
                            ip + PPP_HEADER_BYTES), ()
        if policy.kind == "drop_from_front":
            raise ValueError("queue_of: ns-3 has no drop-from-front queue disc")
        return Ns3Queue("fifo", packets, nbytes), ()
    if port.policy.kind != "tail" or port.drop_from_front != "none":
        raise ValueError(f"queue_of: only tail drop is translated (policy {port.policy.kind!r})")
    packets = buffer_packets(port.buffer_cells, mss, aal5)
    return Ns3Queue("fifo", packets - 1), (
        f"cell-level tail drop (ns-3 drops whole packets: {port.buffer_cells} cells = {packets} packets)",
        "cut-through cell switching (ns-3 stores each packet at every hop)")


def goyal_starts(n: int, seed: int, rate_bps: float, cells: int) -> tuple[float, ...]:
    """ns-3's starts for a goyal1998 run: uniform in [0, one packet of ``cells`` cells at ``rate_bps``) from
    ``seed`` (module docstring)."""
    rng = np.random.default_rng(seed)
    return tuple(float(x) for x in rng.uniform(0.0, cells * cell_time_s(rate_bps), n))


def _single_tcp(run: m.Run) -> m.TcpConfig:
    tcps = {c.tcp for c in run.connections}
    if len(tcps) != 1:
        raise ValueError("translation: every connection must share one TcpConfig")
    return tcps.pop()


def from_n_source(run: m.Run) -> Ns3Dumbbell:
    """goyal1998 Fig. 3 (:func:`atmtcp.topologies.n_source_network`) as an ns-3 dumbbell: S_i -> SW1 ->
    SW2 -> D_i, SW1's port towards SW2 the bottleneck (its queue :func:`queue_of`)."""
    net = run.network
    if not isinstance(net, m.Network) or net.switches != ("SW1", "SW2"):
        raise ValueError("from_n_source: not an N-source network (switches SW1, SW2)")
    tcp = _single_tcp(run)
    links = {(link.a, link.b): link for link in net.links}
    trunk = links[("SW1", "SW2")]
    port = dict(net.ports).get("SW1->SW2", net.switch_port)
    queue, lacks = queue_of(port, tcp.mss, run.aal5)
    rate = lambda link: cell_link_rate_bps(link.rate_bps, tcp.mss, run.aal5)  # noqa: E731
    access = tuple(Ns3Link(rate(links[(c.src, "SW1")]), links[(c.src, "SW1")].delay_s) for c in run.connections)
    egress = tuple(Ns3Link(rate(links[("SW2", c.dst)]), links[("SW2", c.dst)].delay_s) for c in run.connections)
    if any(c.start_s != 0 for c in run.connections):
        starts = tuple(c.start_s for c in run.connections)
    else:
        starts = goyal_starts(len(run.connections), run.seed, trunk.rate_bps,
                              packet_cells(tcp.mss, run.aal5.overhead_bytes))
    return Ns3Dumbbell(access, Ns3Link(rate(trunk), trunk.delay_s), egress, queue, tcp_of(tcp), starts,
                       tuple(c.stop_s for c in run.connections), run.duration_s, run.seed + 1,
                       ip_packet_bytes(tcp.mss, run.aal5), unmatched=lacks + unmatched_tcp(tcp))


def from_internetwork(run: m.Run, port_name: str = "AAP1->ATM") -> Ns3Dumbbell:
    """ewa Fig. 1 (:func:`atmtcp.papers.ewa.shared.scenario.ewa_network`), one VC from AAP-1 to AAP-2, as
    an ns-3 dumbbell: S_i -> AAP-1 -> AAP-2 -> D_i. The bottleneck is the VC: L1's rate drained by cells,
    its delay L1's and L2's plus the ATM switch's cell time (as our kernel's fixed VC delay)."""
    net = run.network
    if not isinstance(net, Internetwork):
        raise ValueError("from_internetwork: not an Internetwork")
    tcp = _single_tcp(run)
    links = {frozenset((link.a, link.b)): link for link in net.links}
    l1, l2 = links[frozenset(("AAP1", "ATM"))], links[frozenset(("AAP2", "ATM"))]
    queue, lacks = queue_of(dict(net.router_ports)[port_name], tcp.mss, run.aal5)
    ip = ip_packet_bytes(tcp.mss, run.aal5)
    access = tuple(Ns3Link(ip_link_rate_bps(links[frozenset((c.src, "AAP1"))].rate_bps, ip),
                           links[frozenset((c.src, "AAP1"))].delay_s) for c in run.connections)
    egress = tuple(Ns3Link(ip_link_rate_bps(links[frozenset((c.dst, "AAP2"))].rate_bps, ip),
                           links[frozenset((c.dst, "AAP2"))].delay_s) for c in run.connections)
    vc = Ns3Link(cell_link_rate_bps(l1.rate_bps, tcp.mss, run.aal5),
                 l1.delay_s + l2.delay_s + cell_time_s(l1.rate_bps))
    lacks += ("ATM switch as a fixed delay (ours too); AAP-2's reassembly stores the whole packet in both",)
    return Ns3Dumbbell(access, vc, egress, queue, tcp_of(tcp), tuple(c.start_s for c in run.connections),
                       tuple(c.stop_s for c in run.connections), run.duration_s, run.seed + 1, ip,
                       unmatched=lacks + unmatched_tcp(tcp))
