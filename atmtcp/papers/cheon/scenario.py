"""cheon's networks and settings (section 2 and the Appendix), as :mod:`atmtcp.model` runs.

Every number here is the paper's, with the sentence it rests on; where the paper is silent
the choice is written beside it (and in ``notebooks/cheon.ipynb``).
"""
from __future__ import annotations

import numpy as np

from ... import model as m
from ...kernel.aal5 import packet_cells
from ...tcp_settings import PER_SCENARIO, stated, tcp_from, unsaid
from ...topologies import parking_lot, parking_lot_bottleneck

AAL5 = m.Aal5Config(tcpip_header_bytes=40, llc_bytes=0, trailer_bytes=14)
"""cheon 2: "It adds a 14 bytes overhead to each IP datagram, and adjusts the size to multiples
of 48 bytes"; "TCP header size: 20 bytes, IP header size: 20 bytes"."""

BUFFER_CELLS = 2000
"""cheon 2: "Buffer size of ATM switch: 2,000 cells/port"."""

IP_SERVICE_PPS = {500: 10_500, 1500: 4_000}
"""cheon 2: "We set it to 10,500 packets/sec for a packet size of 500 bytes and to 4,000
packets/sec for packet size of 1,500 bytes"."""

WARMUP_S = 0.5
"""cheon 4.2.3: "we collected result after 0.5 sec, in order to disregard the initial transient"."""

START_JITTER_S = 0.01
"""The paper ran 10 (6) "simulations with different seeds" without saying what is random. Our
choice: each session starts at a time drawn uniformly in [0, 10 ms) from the run's seed, the
same draws for every policy. Nothing else in the model is random."""

CASES = {
    # "paper_runs": the runs the paper averaged per table cell (cheon 4.2.3: "We ran 10 simulations
    # for symmetric roundtrip times and 6 simulations for asymmetric roundtrip times"; the Appendix
    # keeps the symmetric case's parameters). Our seeds: atmtcp.papers.cheon.experiments.seeds.
    # cheon 2, "Parameter values for symmetric roundtrip simulations": src_6..10 on 2 ms links,
    # every other link 1 ms. Reading of Fig. 1 (not in the text): sessions 1-5 cross
    # access (1) + SW1-SW2 (1) + SW2-SW3 (1) + sink (1) = 4 ms, sessions 6-10 access (2) +
    # SW2-SW3 (1) + sink (1) = 4 ms: the only reading that makes the case symmetric.
    "symmetric": {"groups": ((5, 1e-3), (5, 2e-3)), "trunks_s": (1e-3, 1e-3), "sink_s": 1e-3,
                  "min_rto_s": 0.05, "delayed_ack_s": 0.0125, "drop_timer_s": 0.025,
                  "duration_s": 3.0, "paper_runs": 10, "group_names": ("sessions 1-5", "sessions 6-10")},
    # "asymmetric": src_6..10 on 3 ms links, SW1-SW2 47 ms: one way 50 ms for 1-5, 5 ms for 6-10
    "asymmetric": {"groups": ((5, 1e-3), (5, 3e-3)), "trunks_s": (47e-3, 1e-3), "sink_s": 1e-3,
                   "min_rto_s": 0.15, "delayed_ack_s": 0.0375, "drop_timer_s": 0.075,
                   "duration_s": 10.0, "paper_runs": 6, "group_names": ("long", "short")},
    # Appendix: one more switch and five more sessions, "All the link delays are set to 1 msec",
    # every other parameter as the symmetric case
    "appendix": {"groups": ((5, 1e-3), (5, 1e-3), (5, 1e-3)), "trunks_s": (1e-3, 1e-3, 1e-3), "sink_s": 1e-3,
                 "min_rto_s": 0.05, "delayed_ack_s": 0.0125, "drop_timer_s": 0.025,
                 "duration_s": 3.0, "paper_runs": 10, "group_names": ("long", "medium", "short")},
}

POLICIES = ("rcd", "ppd", "epd", "espd")
POLICY_LABELS = {"rcd": "RCD", "ppd": "PPD", "epd": "EPD", "espd": "ESPD"}


def cells_per_packet(payload: int) -> int:
    """Cells of one application packet (12 for 500 bytes, 33 for 1500)."""
    return packet_cells(payload, AAL5.overhead_bytes)


def thresholds(case: str, payload: int) -> dict[str, int]:
    """Buffer thresholds in cells.

    - EPD, cheon 3.2: "about three packets less than the full buffer size"; footnote 1 gives
      1,960 cells for 500-byte packets (2000 - 40), which we take; for 1500-byte packets
      2000 - 3 x 33 = 1901.
    - ESPD, cheon 3.3: threshold 1 "about six packets less than buffer size" (2000 - 6 x 12 =
      1928, 2000 - 6 x 33 = 1802), threshold 2 "half of buffer size" (1000).
    - Appendix: "the buffer threshold of EPD is set to 95 % of buffer" (1900); "The buffer
      threshold 1 and 2 of ESPD is set to 70 % and 50 %" (1400, 1000).
    """
    k = BUFFER_CELLS
    if case == "appendix":
        return {"epd": int(0.95 * k), "espd1": int(0.70 * k), "espd2": int(0.50 * k)}
    per = cells_per_packet(payload)
    epd = 1960 if payload == 500 else k - 3 * per
    return {"epd": epd, "espd1": k - 6 * per, "espd2": k // 2}


def drop_policy(policy: str, case: str, payload: int) -> m.DropPolicy:
    """RCD is tail drop. PPD and EPD follow cheon's pseudocode as written, a dropped EOM
    capturing its VC too (``capture_eom``). ESPD's drop-list threshold is left to its default,
    "20 % of total number of sessions" (2 of 10, 3 of 15)."""
    t = thresholds(case, payload)
    if policy == "rcd":
        return m.DropPolicy("tail")
    if policy == "ppd":
        return m.DropPolicy("ppd", capture_eom=True)
    if policy == "epd":
        return m.DropPolicy("epd", threshold=t["epd"], capture_eom=True)
    if policy == "espd":
        return m.DropPolicy("espd", threshold=t["espd1"], threshold2=t["espd2"],
                            drop_timer_s=CASES[case]["drop_timer_s"])
    raise m.ModelError("cheon", "policy", policy, f"one of {POLICIES}")


TCP_SETTINGS = (
    stated("increase", "bsd", 'cheon 4.1.2: "During the congestion avoidance phase, we increased TCP window '
           'size as [8]: cwnd <- cwnd + segsize x segsize / cwnd + segsize / 8".'),
    unsaid("ssthresh_rule", 'cheon 2 adds "the slow-start algorithm, congestion-avoidance mechanism, fast '
           'retransmit and fast recovery algorithm" of [8] without their formulas: 4.4BSD\'s min(wnd, cwnd)/2.'),
    unsaid("recovery_exit_opens", 'cheon 2 names "fast recovery" only: 4.4BSD deflates to ssthresh, then '
           'opens the window as for any ACK of new data.'),
    stated("delayed_ack", True, 'cheon 2: "a delayed acknowledgement scheme"; "Maximum waiting time for '
           'delayed ACK".'),
    stated("delayed_ack_max_s", PER_SCENARIO, 'cheon 4: "Maximum waiting time for delayed ACK: 12.5 msec" '
           '(symmetric), "37.5 msec" (asymmetric).'),
    stated("granularity_s", 1e-4, 'cheon 2: "Our TCP implementation does not use coarse-grain timers." '
           '(the 0.1 ms tick is our choice of a fine one).'),
    stated("min_rto_ticks", PER_SCENARIO, 'cheon 4: "Minimum TCP RTO(Retransmission Timeout): 50 msec" '
           '(symmetric), "150 msec" (asymmetric).'),
    unsaid("initial_rto_s", "not given: 4.4BSD's 3 s before the first RTT sample."),
    unsaid("max_rto_s", "not given: 4.4BSD's 64 s."),
    unsaid("timestamps", "not named: 4.4BSD times one segment per window."),
    stated("retransmit_timers", "per_connection", 'cheon 2: "In the TCP implementation of OPNET version 2.4, each '
           'packet being transmitted from the source node has its own RTO timer so that once a timeout occurs, many '
           'subsequent timeouts generally follow. We change this timer scheme so that the resulting TCP sessions have '
           'one RTO timer each, making it consistent with common implementations." (OPNET\'s own scheme: '
           'cheon.opnet_timer_study).'),
)
"""cheon's TCP, setting by setting (:mod:`atmtcp.tcp_settings`): OPNET 2.4's RFC 793 model with the
congestion control of [8] (Stevens) added, one RTO timer per session, "Maximum window size of TCP:
64 Kbytes" (65535 bytes)."""
TIMER_GRANULARITY_S = 1e-4


def tcp_config(case: str, payload: int) -> m.TcpConfig:
    """cheon's Reno (:data:`TCP_SETTINGS`) for one case and segment size."""
    spec = CASES[case]
    return tcp_from("reno", TCP_SETTINGS, mss=payload, rcv_wnd=65535,
                           min_rto_ticks=int(round(spec["min_rto_s"] / TIMER_GRANULARITY_S)),
                           delayed_ack_max_s=spec["delayed_ack_s"])


SLOTTED_PORTS = True
"""How cells contend for a freed buffer place: cheon does not say (OPNET's switch model is "a
simple output buffered switch"). We keep the project's headline choice for goyal1998
(:data:`atmtcp.contention.HEADLINE_CONTENTION`): slotted switch ports that admit each slot's
arrivals in a seeded random order. With deterministic ports the equal cell times of all links
lock the phases of the cell streams, and a full buffer can stay full for hundreds of
milliseconds with every freed place taken by the same input."""


def network(case: str, policy: str, payload: int) -> m.Network:
    """cheon Fig. 1's parking-lot network of ``case`` with every switch port running ``policy`` (buffer
    :data:`BUFFER_CELLS`, slotted: :data:`SLOTTED_PORTS`) and the hosts' IP service rate for ``payload``-byte
    packets (cheon 2)."""
    spec = CASES[case]
    port = m.PortConfig(BUFFER_CELLS, drop_policy(policy, case, payload), slotted=SLOTTED_PORTS)
    return parking_lot(spec["groups"], spec["trunks_s"], port, spec["sink_s"], ip_service_pps=IP_SERVICE_PPS[payload])


def start_times(n: int, seed: int) -> np.ndarray:
    """See :data:`START_JITTER_S`."""
    return np.random.default_rng(seed).uniform(0.0, START_JITTER_S, n)


def cheon_run(case: str, policy: str, payload: int, seed: int, duration_s: float | None = None,
              trace: m.TraceConfig | None = None) -> m.Run:
    """One simulation of ``case`` ("symmetric", "asymmetric", "appendix")."""
    spec = CASES[case]
    net = network(case, policy, payload)
    tcp = tcp_config(case, payload)
    n = sum(count for count, _ in spec["groups"])
    starts = start_times(n, seed)
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp, float(starts[i])) for i in range(n))
    trace = trace or m.TraceConfig(ports=(parking_lot_bottleneck(net),), sample_interval_s=1e-3)
    return m.Run(net, connections, duration_s or spec["duration_s"], seed=seed, aal5=AAL5, trace=trace,
                 warmup_s=WARMUP_S)


def group_of_sessions(case: str) -> list[str]:
    """The group name of each session, in session order."""
    spec = CASES[case]
    return [name for (count, _), name in zip(spec["groups"], spec["group_names"]) for _ in range(count)]


def max_effective_throughput(case: str, payload: int, duration_s: float | None = None) -> float:
    """cheon 4.2.3: "the maximum number of packets that can be carried by an OC-3 link" in the
    measured interval: 155.52 Mbit/s / 424 bits per cell / cells per packet x (duration - 0.5 s), the
    duration the case's own unless ``duration_s`` is given (the atlas's quick runs)."""
    cells_per_s = m.OC3_BPS / (53 * 8)
    duration = CASES[case]["duration_s"] if duration_s is None else duration_s
    return cells_per_s / cells_per_packet(payload) * (duration - WARMUP_S)
