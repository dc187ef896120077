"""ewa section 4: the scenarios of EWA's evaluation (4.1-4.6), with Explicit Window Adaptation at AAP-1,
as :mod:`atmtcp.model` runs on Fig. 1 (:func:`atmtcp.papers.ewa.shared.scenario.ewa_network`). Section
3.1's Fig. 13 (:mod:`atmtcp.papers.ewa.section3.scenario`) runs on them too.

Every number is the paper's, with its sentence; where the paper is silent the choice is written
beside it (and in ``notebooks/ewa.ipynb``). TCP is section 2's
(:func:`atmtcp.papers.ewa.shared.scenario.tcp_config`: Reno, 1500-byte segments, 20 ms ticks), EWA is
section 3's with the paper's parameters (:class:`atmtcp.internetwork.Ewa`'s defaults). The utilization's
denominator is section 2's: the maximum TCP throughput over the VC at L1's full rate (133.4 Mbit/s).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .... import model as m
from ....compile import cell_time_ns
from ....internetwork import Ewa, PriorityVc, RouterPolicy, RouterPort
from ....kernel.aal5 import packet_cells
from ....topologies import start_times
from ..shared import scenario as shared
from ..shared.scenario import (
    AAL5, BUFFER_BYTES, CLOSE_S, DURATION_S, IP_DELAY_S, KB, L1_DELAY_S, MSS, PHASES, RCV_WND, SAMPLE_S,
    ewa_network,
)

MB = 1024 * KB
EWA = Ewa()
"""ewa 3.2's parameters: logarithmic feedback, alpha from 1, g = 1/128, thresholds 20 % and 60 %,
w_up 1/8, w_down 1 - 1/32, T = 10 ms (see :class:`atmtcp.internetwork.Ewa`)."""
ONE_PHASE = (("0-20 s", 0.0, DURATION_S),)


@dataclass(frozen=True)
class EwaScenario:
    """One of section 4's experiments: its connections (source's IP delay, open and close times, ON/OFF
    application), L1's delay, AAP-1's buffer and TCP's windows, the phases its text reads."""

    key: str
    title: str
    ip_delays_s: tuple[float, ...]
    atm_delay_s: float
    buffer_bytes: int
    rcv_wnd: int
    initial_ssthresh: int
    opens_s: tuple[float, ...] = ()
    closes_s: tuple[float | None, ...] = ()
    phases: tuple[tuple[str, float, float], ...] = PHASES
    priority_vc: PriorityVc | None = None
    on_off: tuple[m.OnOff | None, ...] = ()
    source_nodes: tuple[int, ...] = ()
    start_spread_s: float = 0.0
    duration_s: float = DURATION_S

    @property
    def n(self) -> int:
        """The number of TCP connections (one per IP delay)."""
        return len(self.ip_delays_s)

    def open_at(self, i: int) -> float:
        """When connection ``i`` opens (s); 0 unless the scenario gives opening times."""
        return self.opens_s[i] if self.opens_s else 0.0

    def close_at(self, i: int) -> float | None:
        """When connection ``i`` closes (s); None: it stays open to the end."""
        return self.closes_s[i] if self.closes_s else None

    def open_in(self, start: float, end: float) -> list[int]:
        """The connections open during part of ``[start, end)``."""
        return [i for i in range(self.n) if self.open_at(i) < end and (self.close_at(i) or 1e9) > start]


TEN_CLOSES = tuple(CLOSE_S.get(i) for i in range(10))
"""ewa 4.1: "At time t = 10 seconds five of the connections (6-10) close ... three more connections (3-5)
close. The last two connections remain active until the end of the simulation at time t=20 seconds"."""


SMALL_IP = EwaScenario(
    "small_ip", "EWA, IP delay 0.5 ms, ATM 5 ms, 200 KB (section 4.1)",
    ip_delays_s=(IP_DELAY_S,) * 10, atm_delay_s=L1_DELAY_S, buffer_bytes=BUFFER_BYTES, rcv_wnd=RCV_WND,
    initial_ssthresh=shared.INITIAL_SSTHRESH, closes_s=TEN_CLOSES)
"""ewa 4.1: "The one-way network delay in the IP datagram network is set to 0.5 millisecond, and the
one-way delay of the ATM backbone to 5 milliseconds ... The buffer size at AAP-1 is set to 200 Kbytes
... these network parameters are identical to those used for comparing the Drop-Tail,
Drop-from-Front, and the RED approaches in Section 2. The maximum window size is set to 200 Kbytes
... The ssthresh variable of TCP is initialized to 64 Kbytes"."""


LONG_IP = EwaScenario(
    "long_ip", "EWA, IP delay 49 ms, ATM 1 ms, 2 MB, ssthresh 1 MB (section 4.2)",
    ip_delays_s=(49e-3,) * 10, atm_delay_s=1e-3, buffer_bytes=2 * MB, rcv_wnd=2 * MB,
    initial_ssthresh=1 * MB, closes_s=TEN_CLOSES)
"""ewa 4.2: "the one-way IP network delay is 49 milliseconds and the total round-trip network delay is
100 milliseconds. The one-way delay in the ATM network is only 1 millisecond. The buffer size in AAP-1
is set to be equal to bandwidth-delay product of the network which is approximately 2 Mbytes ... we
have set ssthresh to 1 Mbyte". The window is not given: we apply 4.1's rule ("The maximum window size
is set to 200 Kbytes, so that a single connection will be able to utilize the available bandwidth")
and set it to the bandwidth-delay product, 2 MB (window scale 6)."""


UNEQUAL_IP = EwaScenario(
    "unequal_ip", "EWA, IP delays 1-5 ms, ATM 5 ms, 200 KB (section 4.3)",
    ip_delays_s=tuple(1e-3 * (1 + i % 5) for i in range(10)), atm_delay_s=5e-3, buffer_bytes=BUFFER_BYTES,
    rcv_wnd=390 * KB, initial_ssthresh=shared.INITIAL_SSTHRESH, closes_s=TEN_CLOSES)
"""ewa 4.3: "The one-way delay in the ATM backbone is set to 5 milliseconds ... The one-way IP delay is
1 millisecond for connections 1 and 6, 2 milliseconds for 2 and 7, and increasing so on to 5
milliseconds for connections 5 and 10 ... The bandwidth-delay product for the longest connection is
approximately 390 Kbytes ... we set the buffer capacity to 200 Kbytes"; "we use the same network
topology and traffic scenario from the previous experiment" (10 -> 5 -> 2). Window (not given, 4.1's
rule): 390 KB, the longest connection's bandwidth-delay product; ssthresh 64 KB as in 4.1."""


NEW_CONNECTIONS = EwaScenario(
    "new_connections", "EWA, 5 -> 10 -> 2 connections, IP and ATM 5 ms, 390 KB (section 4.4)",
    ip_delays_s=(5e-3,) * 10, atm_delay_s=5e-3, buffer_bytes=390 * KB, rcv_wnd=390 * KB,
    initial_ssthresh=shared.INITIAL_SSTHRESH, opens_s=(0.0,) * 5 + (10.0,) * 5,
    closes_s=(None, None) + (15.0,) * 8)
"""ewa 4.4: "At time t = 0 we activate five TCP sessions (1-5). At time t = 10 seconds, we open five
more TCP sessions (6-10) ... at time t = 15 seconds we close eight of the ten active connections (3-10)
... Both the IP and the ATM network delays are set to 5 milliseconds ... The buffer size at AAP-1 is
set equal to the bandwidth-delay product, which is approximately 390 Kbytes". Window: 390 KB (4.1's
rule); ssthresh 64 KB."""


VARYING_RATE = EwaScenario(
    "varying_rate", "EWA, a high-priority ON/OFF VC on L1, IP and ATM 5 ms, 390 KB (section 4.5)",
    ip_delays_s=(5e-3,) * 10, atm_delay_s=5e-3, buffer_bytes=390 * KB, rcv_wnd=390 * KB,
    initial_ssthresh=shared.INITIAL_SSTHRESH, phases=ONE_PHASE, priority_vc=PriorityVc(75e6, 0.05, 0.05))
"""ewa 4.5: "all ten TCP connections open at time t = 0 and remain open for the duration of the
simulation, lasting 20 seconds"; "ON and OFF periods is exponentially distributed with a mean of 50
milliseconds. When in the ON state, the high priority connection is allocated 75 Mbits/sec ... Both
the IP and the ATM delays are set to 5 milliseconds and the buffer size is set to 390 Kbytes". Window
390 KB (4.1's rule), ssthresh 64 KB."""


ON_OFF_MEAN_S = 0.2
"""ewa 4.6: "ON-OFF sources where the ON and OFF periods are exponentially distributed, each with an
average of 200 milliseconds"."""
NODES, PERSISTENT_PER_NODE, ON_OFF_PER_NODE = 5, 2, 6
"""ewa 4.6: "Eight connections originate from each of the five source nodes in Figure 1. Six of them carry
traffic from ON-OFF sessions and the remaining two carry traffic from persistent sessions"."""
PER_NODE = PERSISTENT_PER_NODE + ON_OFF_PER_NODE


ON_OFF = EwaScenario(
    "on_off", "EWA, 10 persistent and 30 ON/OFF connections, IP 49 ms, ATM 1 ms, 2 MB (section 4.6)",
    ip_delays_s=(49e-3,) * (NODES * PER_NODE), atm_delay_s=1e-3, buffer_bytes=2 * MB, rcv_wnd=2 * MB,
    initial_ssthresh=shared.INITIAL_SSTHRESH, phases=ONE_PHASE,
    on_off=tuple(None if i % PER_NODE < PERSISTENT_PER_NODE else m.OnOff(ON_OFF_MEAN_S, ON_OFF_MEAN_S)
                 for i in range(NODES * PER_NODE)),
    source_nodes=tuple(i // PER_NODE for i in range(NODES * PER_NODE)), start_spread_s=5e-3)
"""ewa 4.6: "The one-way delay in the IP is set to 49 milliseconds and that in the ATM backbone to 1
millisecond ... We set the buffer size in AAP-1 to be equal to the bandwidth-delay product of the
network, which is approximately 2 Mbytes. The start time for each of the forty TCP connections is
uniformly distributed from 0 to 5 milliseconds". Connections 8n+1, 8n+2 of node n are the persistent
ones (our numbering). Not given, our choices: 20 s as in 4.1-4.5; each node's connections go to one
destination host of IP network 2; window 2 MB (4.1's rule); ssthresh 64 KB (4.2: "In current TCP
implementations the initial ssthresh value is in the range of 16 Kbytes-64 Kbytes")."""


RED_ON_OFF = RouterPolicy("red", min_th=150, max_th=400, max_p=0.05, weight=shared.RED_WEIGHT)
"""ewa 4.6, Figs. 38-39: "with RED (... max_p = 0.05, min_th = 150, max_th = 400 ...)", on the same
2 MB buffer (the paper names no other); w_q 0.002 as in section 2."""


SCENARIOS = {s.key: s for s in (SMALL_IP, LONG_IP, UNEQUAL_IP, NEW_CONNECTIONS, VARYING_RATE, ON_OFF)}


def tcp_config(s: EwaScenario, reading: dict | None = None) -> m.TcpConfig:
    """Section 2's TCP with the scenario's window and initial ssthresh; ``reading`` replaces settings
    (``ewa.behaviour_sensitivity``)."""
    return shared.tcp_config(s.rcv_wnd, s.initial_ssthresh, **(reading or {}))


def opening_times(s: EwaScenario, seed: int) -> list[float]:
    """Each connection's open: the scenario's, plus, for seeds above 0, a draw in [0, 10 ms) as in
    section 2 (:data:`shared.START_JITTER_S`); section 4.6 draws every seed's in [0, 5 ms)."""
    spread = s.start_spread_s or (shared.START_JITTER_S if seed > 0 else 0.0)
    return [s.open_at(i) + d for i, d in enumerate(start_times(s.n, spread, seed))]


def aap1_port(s: EwaScenario, policy: str = "ewa", feedback: str = "log", adaptive: bool = True) -> RouterPort:
    """AAP-1's port onto L1: the scenario's buffer with EWA (or section 4.6's RED), and its priority VC."""
    if policy == "red":
        return RouterPort(buffer_bytes=s.buffer_bytes, policy=RED_ON_OFF, priority_vc=s.priority_vc)
    ewa = Ewa(feedback, adaptive=adaptive)
    return RouterPort(buffer_bytes=s.buffer_bytes, ewa=ewa, priority_vc=s.priority_vc)


def ewa_run(s: EwaScenario, seed: int, policy: str = "ewa", feedback: str = "log", adaptive: bool = True,
            n: int | None = None, reading: dict | None = None) -> m.Run:
    """A run of ``s`` (its first ``n`` connections): sources in IP network 1 (one host per connection,
    or per source node in section 4.6), destinations in IP network 2, one VC; ``reading`` replaces TCP
    settings (:func:`tcp_config`)."""
    n = n or s.n
    nodes = s.source_nodes or tuple(range(s.n))
    hosts = sorted(set(nodes[:n]))
    delay = {node: s.ip_delays_s[nodes.index(node)] for node in hosts}
    net = ewa_network({1: tuple((f"S{h + 1}", delay[h]) for h in hosts),
                       2: tuple((f"D{h + 1}", 0.0) for h in hosts)},
                      aap1_port(s, policy, feedback, adaptive), atm_delays_s=(s.atm_delay_s, 0.0, 0.0, 0.0))
    tcp = tcp_config(s, reading)
    opens = opening_times(s, seed)
    connections = tuple(
        m.Connection(f"S{nodes[i] + 1}", f"D{nodes[i] + 1}", tcp, opens[i], stop_s=s.close_at(i),
                     on_off=s.on_off[i] if s.on_off else None)
        for i in range(n))
    trace = m.TraceConfig(ports=("AAP1->ATM",), sample_interval_s=SAMPLE_S)
    return m.Run(net, connections, s.duration_s, seed=seed, aal5=AAL5, trace=trace)


def buffer_packets(s: EwaScenario) -> int:
    """B, AAP-1's buffer in packets of 1540 IP bytes (ewa 3.1: "expressed in terms of number of packets")."""
    return s.buffer_bytes // (MSS + AAL5.tcpip_header_bytes)


def _ip_ns(nbytes: int) -> int:
    """An IP link's time for ``nbytes`` (picoseconds per byte, up to the ns: :mod:`atmtcp.kernel.packets`)."""
    return -(-nbytes * round(8e12 / m.OC3_BPS) // 1000)


def base_rtt_s(s: EwaScenario, i: int = 0) -> float:
    """Connection ``i``'s round trip with empty queues: every propagation delay twice, and each hop's
    transmission of the segment (its IP link, AAP-1's 33 cells, the ATM switch's cell, AAP-2's IP port)
    and of its ACK (the same, with 40 bytes and 2 cells)."""
    cell = cell_time_ns(m.OC3_BPS)
    header = AAL5.tcpip_header_bytes
    segment = _ip_ns(MSS + header) + packet_cells(MSS, AAL5.overhead_bytes) * cell + cell + _ip_ns(MSS + header)
    ack = _ip_ns(header) + packet_cells(0, AAL5.overhead_bytes) * cell + cell + _ip_ns(header)
    return (segment + ack) / 1e9 + 2 * (s.ip_delays_s[i] + s.atm_delay_s)


def pipe_packets(s: EwaScenario, i: int = 0) -> float:
    """The segments connection ``i``'s round trip holds at L1's full rate: :func:`base_rtt_s` over the time
    AAP-1 takes to send one segment (33 cells). The sum of the windows beyond it waits in AAP-1."""
    return base_rtt_s(s, i) / (packet_cells(MSS, AAL5.overhead_bytes) * cell_time_ns(m.OC3_BPS) / 1e9)


SSTHRESH_STUDY_KB = (1024, 512)
"""ewa 4.2: "if the ssthresh variable was set to 512 Kbytes instead of 1 Mbyte (which is again
unrealistically large), TCP would need approximately 20-30 seconds before it was able to achieve 100%
utilization after time t = 15 seconds when only two TCP sessions remain active compared to approximately
2 seconds needed with the proposed method"."""
SSTHRESH_STUDY_S = 50.0
"""The two connections run on to 50 s, so that a recovery of 20-30 s after 15 s shows."""


def long_ip_with_ssthresh(ssthresh_kb: int) -> EwaScenario:
    """Section 4.2's scenario with another initial ssthresh, its last phase to :data:`SSTHRESH_STUDY_S`."""
    return replace(LONG_IP, key=f"long_ip_ssthresh_{ssthresh_kb}k", initial_ssthresh=ssthresh_kb * KB,
                   duration_s=SSTHRESH_STUDY_S,
                   phases=PHASES[:2] + ((f"15-{SSTHRESH_STUDY_S:g} s", 15.0, SSTHRESH_STUDY_S),))
