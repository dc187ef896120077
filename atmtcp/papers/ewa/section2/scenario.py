"""ewa section 2's scenarios at the IP-ATM access point AAP-1: Figs. 2-4's three connections on three VCs
with per-VC queues, and Figs. 5-12's ten connections on one VC under Drop-Tail, Drop-from-Front and RED,
as :mod:`atmtcp.model` runs on Fig. 1 (:func:`atmtcp.papers.ewa.shared.scenario.ewa_network`; the settings
every section shares are in :mod:`atmtcp.papers.ewa.shared.scenario`).

Every number here is the paper's, with the sentence it rests on; where the paper is silent the
choice is written beside it (and in ``notebooks/ewa.ipynb``).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .... import model as m
from ....internetwork import RouterPolicy, RouterPort
from ..shared.scenario import (
    AAL5, BUFFER_BYTES, CLOSE_S, DURATION_S, IP_DELAY_S, KB, L1_DELAY_S, N_CONNECTIONS, RED_WEIGHT, SAMPLE_S,
    START_JITTER_S, ewa_network, tcp_config,
)


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
RED_BUFFER_PACKETS = 110
"""ewa 2.2: "The total buffer size in AAP-1 was set to 110 packets"."""
RED_MIN_TH, RED_MAX_TH = 15, 30
"""ewa 2.2: "we set min_th to 15 packets, max_th to 30 packets"."""
POLICIES = {
    # target: (label, RouterPolicy kind, max_p)
    "ewa.fig5": ("Drop-Tail", "drop_tail", None),
    "ewa.fig7": ("Drop-from-Front", "drop_from_front", None),
    "ewa.fig9": ("RED, max_p 0.02", "red", 0.02),
    "ewa.fig11": ("RED, max_p 0.05", "red", 0.05),
}
"""ewa 2, 2.1, 2.2: "max_p to 0.02"; "we increased max_p from 0.02 to 0.05"."""


def start_times(n: int, seed: int) -> list[float]:
    """See :data:`atmtcp.papers.ewa.shared.scenario.START_JITTER_S`."""
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
