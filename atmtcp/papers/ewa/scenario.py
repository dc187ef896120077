"""ewa's networks and settings (section 2 and the TCP of section 4), as :mod:`atmtcp.model` runs on
:func:`atmtcp.topologies.ewa_network` (our reading of Fig. 1).

Every number here is the paper's, with the sentence it rests on; where the paper is silent the
choice is written beside it (and in ``notebooks/ewa.ipynb``).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ... import model as m
from ...internetwork import RouterPolicy, RouterPort
from ...kernel.aal5 import packet_cells
from ...metrics import max_tcp_throughput_bps
from ...tcp_settings import BEFORE_THE_RULE, stated, tcp_from, unsaid
from ...topologies import ewa_network

KB = 1024
MSS = 1500
"""ewa 2 and 4: "We used a constant TCP segment size of 1500 bytes in all the simulations"."""
RCV_WND = 200 * KB
"""ewa 2: "the maximum socket buffer size at the receivers for all three connections was set to 200
KBytes"; "The destination buffer, which effectively sets the maximum TCP window size, was also set
to 200 Kbytes" (window scaling: 200 KB needs a shift of 2)."""
INITIAL_SSTHRESH = 64 * KB
"""Figs. 5-12 captions: "ssthresh = 64 KBytes initially"; 4.1: "The ssthresh variable of TCP is
initialized to 64 Kbytes". We use it for Figs. 2-4 too (their captions do not say)."""
GRANULARITY_S = 0.02
"""ewa 4: "we set the granularity of the timers to 20 milliseconds"."""
AAL5 = m.Aal5Config(tcpip_header_bytes=40, llc_bytes=8, trailer_bytes=8)
"""ewa 4 names "the overhead of cell headers, RM cells, TCP/IP headers, etc." without sizes. Our
choice: 20 + 20 bytes of TCP/IP headers, 8 of LLC/SNAP (RFC 1483, as goyal1998 3.2) and the
8-byte AAL5 trailer: a 1500-byte segment is a 1556-byte frame, 33 cells. RM cells are not
modelled (the VC's rate is fixed)."""
DURATION_S = 20.0
"""ewa 2 / 4.1: "The last two connections remain active until the end of the simulation at time
t=20 seconds". Figs. 2-4 give no duration: we run them as long."""
INTERVAL_S = 0.25
"""ewa 2 and 4: "The utilization of link L1, measured in intervals of 250 milliseconds"."""
START_JITTER_S = 0.01
"""Seed 0 is the paper's setup: every connection opens at t = 0 ("All ten connections were opened
at time t = 0"). The paper shows one run and does not say what is random; to show the spread we
also run seeds 1.., whose connections open at times drawn uniformly in [0, 10 ms) (about one round
trip), and RED's draws come from the run's seed in every run."""

# --- Figs. 2-4: three connections on three VCs, per-VC queueing at AAP-1 ------------------------------------
THREE_VC_SOURCES = (("S1", 3e-3, "D1", 2), ("S2b", 3e-3, "D2b", 3), ("S3b", 0.8e-6, "D3b", 4))
"""ewa 2: "sources 1, 2b, and 3b are activated and their traffic is destined to IP networks 2, 3,
and 4, respectively"; "The one-way propagation delays of connections 1 and 2b in IP Network 1 are
set to 3 milliseconds and that of connection 3b to 0.8 usec. The delays in IP Networks 2, 3, and 4
as well as the link delays L1, L2, L3, and L4 are assumed to be insignificant" (zero here).
(source, delay of its link to AAP-1, destination, the destination's IP network)."""
PER_VC_BUFFER_BYTES = 64 * KB
"""ewa 2: "The buffer size for each ATM connection at the ATM layer in AAP-1 was set to 64 KBytes"
(IP bytes, whole packets: Fig. 3's caption "64 Kbytes IP buffer size in the IP-ATM router")."""
THREE_VC_SAMPLE_S = 1e-3
"""Windows and queues of Figs. 2-3 sampled every millisecond (round trips of 6 ms and less)."""

# --- Figs. 5-12: ten connections on one VC ------------------------------------------------------------------
N_CONNECTIONS = 10
L1_DELAY_S = 5e-3
"""ewa 2: "the propagation delay of link L1 was set to 5 milliseconds"."""
IP_DELAY_S = 0.5e-3
"""ewa 2: "and that of each link in the IP Network to 0.5 milliseconds". We read "the IP Network" as
IP network 1, the sources' side: 4.1 gives the same setting "giving rise to 11 milliseconds of
round-trip delay" (2 x (0.5 + 5) ms) and "The feedback delay for the EWA scheme is 1 millisecond",
so the destinations' links in IP network 2 (and L2) are insignificant, as in the first scenario."""
CLOSE_S = {**{i: 10.0 for i in range(5, 10)}, **{i: 15.0 for i in range(2, 5)}}
"""ewa 2: "At time t = 10 secs we closed five of the ten active connections (6-10) and at time t =
15 secs we closed another three (3-5)" (connection index from 0: connection 6 is index 5)."""
PHASES = (("0-10 s", 0.0, 10.0), ("10-15 s", 10.0, 15.0), ("15-20 s", 15.0, 20.0))
"""The three phases of Figs. 5-12: ten, five and two connections open."""
BUFFER_BYTES = 200 * KB
"""ewa 2: "The buffer size at AAP-1 was set to 200 Kbytes which is approximately equal to the
bandwidth-delay product of the network"."""
RED_BUFFER_PACKETS = 110
"""ewa 2.2: "The total buffer size in AAP-1 was set to 110 packets"."""
RED_MIN_TH, RED_MAX_TH = 15, 30
"""ewa 2.2: "we set min_th to 15 packets, max_th to 30 packets"."""
RED_WEIGHT = 0.002
"""Not given by ewa: Floyd and Jacobson's w_q of their simulations (RED paper, section 11)."""
POLICIES = {
    # target: (label, RouterPolicy kind, max_p)
    "ewa.fig5": ("Drop-Tail", "drop_tail", None),
    "ewa.fig7": ("Drop-from-Front", "drop_from_front", None),
    "ewa.fig9": ("RED, max_p 0.02", "red", 0.02),
    "ewa.fig11": ("RED, max_p 0.05", "red", 0.05),
}
"""ewa 2, 2.1, 2.2: "max_p to 0.02"; "we increased max_p from 0.02 to 0.05"."""
SAMPLE_S = 5e-3
"""AAP-1's buffer and the connections are sampled every 5 ms; utilization per 250 ms comes from
the payload counted at L1 between samples."""


TCP_SETTINGS = (
    unsaid("increase", 'ewa 4: "The TCP model is based on the Reno version. It supports the congestion control '
           'mechanism described by Jacobson [1]": the Reno of 1996-97 is 4.4BSD\'s, cwnd += mss*mss/cwnd + mss/8. '
           '(Sections 1 and 3.1 say TCP grows "by approximately one segment every round-trip time", of TCP in '
           "general: that reading is ewa.tcp_sensitivity's.)"),
    unsaid("ssthresh_rule", "the same Reno: ssthresh = min(wnd, cwnd)/2 after a loss."),
    unsaid("recovery_exit_opens", 'ewa 4 names "the fast retransmit and fast recovery mechanisms": 4.4BSD\'s '
           "deflates to ssthresh, then opens as for any ACK of new data."),
    unsaid("delayed_ack", "ewa 4 lists what its Reno supports and does not say whether the receiver delays "
           "ACKs: 4.4BSD's receiver acknowledges every second segment."),
    stated("delayed_ack_max_s", GRANULARITY_S, 'ewa 4: "we set the granularity of the timers to 20 milliseconds": '
           "4.4BSD sends a delayed ACK at the next tick of its fast timer, so within 20 ms."),
    stated("granularity_s", GRANULARITY_S, 'ewa 4: "we set the granularity of the timers to 20 milliseconds".'),
    unsaid("min_rto_ticks", 'ewa 4: "exponential back-off, enhanced round-trip time (RTT) estimation based on both '
           'the mean and the variance" without bounds: 4.4BSD\'s two ticks (40 ms).'),
    unsaid("initial_rto_s", "not given: 4.4BSD's 3 s before the first RTT sample."),
    unsaid("max_rto_s", "not given: 4.4BSD's 64 s."),
    unsaid("timestamps", "not named: 4.4BSD times one segment per window."),
)
"""ewa's TCP, setting by setting (:mod:`atmtcp.tcp_settings`); sections 2-4 share it."""
PREVIOUS_READING = dict(BEFORE_THE_RULE, delayed_ack=False)
"""The reading of ewa's TCP before the project's rule (docs/modelling.md, "What a paper leaves unsaid"): one
segment per RTT as sections 1 and 3.1 describe TCP, every segment acknowledged, goyal1998's ssthresh
and recovery exit. ``ewa.tcp_sensitivity`` runs it and each of its parts."""


def tcp_config(rcv_wnd: int = RCV_WND, initial_ssthresh: int = INITIAL_SSTHRESH, **reading) -> m.TcpConfig:
    """ewa's Reno (:data:`TCP_SETTINGS`) with 1500-byte segments ("We used a constant TCP segment size of
    1500 bytes"), the scenario's window and initial ssthresh; ``reading`` replaces settings for the
    sensitivity study (e.g. :data:`PREVIOUS_READING`)."""
    return tcp_from("reno", TCP_SETTINGS, mss=MSS, rcv_wnd=rcv_wnd, initial_ssthresh=initial_ssthresh, **reading)


def start_times(n: int, seed: int) -> list[float]:
    """See :data:`START_JITTER_S`."""
    if seed == 0:
        return [0.0] * n
    return [float(x) for x in np.random.default_rng(seed).uniform(0.0, START_JITTER_S, n)]


def aap1_port(target: str, red: dict | None = None) -> RouterPort:
    """AAP-1's port onto L1 for one of Figs. 5-12 (its buffer and policy); ``red`` replaces fields of
    RED's :class:`~atmtcp.internetwork.RouterPolicy` (``ewa.red_study``)."""
    _, kind, max_p = POLICIES[target]
    if kind == "red":
        policy = RouterPolicy("red", RED_MIN_TH, RED_MAX_TH, max_p, RED_WEIGHT)
        return RouterPort(buffer_packets=RED_BUFFER_PACKETS, policy=replace(policy, **(red or {})))
    return RouterPort(buffer_bytes=BUFFER_BYTES, policy=RouterPolicy(kind))


REVERSE_CONNECTIONS = 10
"""``ewa.two_way_study``: persistent connections D1 -> S1, ... beside the ten, not in the paper."""


def ten_connection_run(target: str, seed: int, duration_s: float = DURATION_S, red: dict | None = None,
                       two_way: bool = False, **reading) -> m.Run:
    """Figs. 5-12: ten connections from IP network 1 to IP network 2 on one VC, 10 -> 5 -> 2 open
    (``reading``: TCP settings other than ewa's, :func:`tcp_config`; ``red``: see :func:`aap1_port`).

    ``two_way`` (``ewa.two_way_study``, not in the paper) adds :data:`REVERSE_CONNECTIONS` persistent
    connections the other way, D1 -> S1, ..., after the ten, and gives AAP-2's port onto L2 the same
    buffer and policy as AAP-1's: their data then share that port with the ACKs of the ten (the ACK
    clock is no longer perfect), and their ACKs share AAP-1's queue with the ten's data."""
    sources = tuple((f"S{i + 1}", IP_DELAY_S) for i in range(N_CONNECTIONS))
    sinks = tuple((f"D{i + 1}", 0.0) for i in range(N_CONNECTIONS))
    net = ewa_network({1: sources, 2: sinks}, aap1_port(target, red), atm_delays_s=(L1_DELAY_S, 0.0, 0.0, 0.0))
    if two_way:
        net = replace(net, router_ports=net.router_ports + (("AAP2->ATM", aap1_port(target, red)),))
    tcp = tcp_config(**reading)
    starts = start_times(N_CONNECTIONS, seed)
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp, starts[i], stop_s=CLOSE_S.get(i))
                        for i in range(N_CONNECTIONS))
    if two_way:
        connections += tuple(m.Connection(f"D{i + 1}", f"S{i + 1}", tcp, starts[i]) for i in range(REVERSE_CONNECTIONS))
    trace = m.TraceConfig(ports=("AAP1->ATM",), sample_interval_s=SAMPLE_S)
    return m.Run(net, connections, duration_s, seed=seed, aal5=AAL5, trace=trace)


def three_vc_run(seed: int, duration_s: float = DURATION_S) -> m.Run:
    """Figs. 2-4: connections 1, 2b, 3b on three VCs, per-VC queues of 64 KB at AAP-1 served round
    robin (ewa 2: "We assume the use of per-VC queuing and scheduling in the AAPs"), Drop-Tail."""
    networks = {1: tuple((src, delay) for src, delay, _, _ in THREE_VC_SOURCES)}
    for _, _, dst, n in THREE_VC_SOURCES:
        networks[n] = ((dst, 0.0),)
    port = RouterPort(buffer_bytes=PER_VC_BUFFER_BYTES, per_vc_queues=True)
    net = ewa_network(networks, port)
    tcp = tcp_config()
    starts = start_times(len(THREE_VC_SOURCES), seed)
    connections = tuple(m.Connection(src, dst, tcp, starts[i]) for i, (src, _, dst, _) in enumerate(THREE_VC_SOURCES))
    trace = m.TraceConfig(ports=("AAP1->ATM",), sample_interval_s=THREE_VC_SAMPLE_S)
    return m.Run(net, connections, duration_s, seed=seed, aal5=AAL5, trace=trace)


def max_tcp_throughput_mbps() -> float:
    """ewa 4.1: "for a 155 Mbits/sec link this is approximately 135 Mbits/sec because of the
    overhead of cell headers, RM cells, TCP/IP headers, etc." Ours: 1500 bytes of payload per 33
    cells of 53 bytes at 155.52 Mbit/s, 133.4 Mbit/s, 1.2 % below the paper's. The paper's figure
    is close to 155.52 x 48/53 x 1500/1556 = 135.8 Mbit/s, which leaves out the padding of the last
    cell; counting RM cells (one in 32, ABR's Nrm) would lower ours to 129.2. We model no RM cells:
    the VC's rate is fixed, and its cells carry data only."""
    return max_tcp_throughput_bps(m.OC3_BPS, MSS, AAL5.overhead_bytes) / 1e6


def cells_per_segment() -> int:
    return packet_cells(MSS, AAL5.overhead_bytes)
