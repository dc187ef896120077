"""goyal1998's N-source configuration: the networks, goyal1998's TCP, the switch port of each
drop-policy column, and :func:`goyal_run`, one grid point's run.

Plain model building (no xarray), shared by the experiments of goyal1998 and goyal1997, the atlas,
and ``atmtcp run`` and ``atmtcp bench`` (:mod:`atmtcp.default_run`). The network is
:func:`atmtcp.topologies.n_source_run`'s (goyal1998 Fig. 3); how cells contend for its ports is
:mod:`atmtcp.contention`'s.
"""
from __future__ import annotations

from ... import model as m
from ...contention import HEADLINE_CONTENTION, cell_contention
from ...kernel.aal5 import packet_cells
from ...tcp_settings import stated, tcp_from, unsaid
from ...topologies import N_SOURCE_BOTTLENECK, n_source_run

BOTTLENECK = N_SOURCE_BOTTLENECK
"""goyal1998's bottleneck, SW1's port towards SW2 (Fig. 3): the one port every data cell goes through."""
POLICY_LABELS = {"ubr": "UBR", "epd": "EPD", "selective_drop": "Selective Drop", "fba": "FBA"}
"""goyal1998's policy columns (section 4). ``ubr`` is plain UBR: tail drop (random cell discard)."""

TCP_SETTINGS = (
    stated("increase", "float", 'goyal1998 2: "During the congestion avoidance phase, the source increases '
           'its CWND by 1/CWND every time a segment is acknowledged" (exactly, so in floating point).'),
    stated("ssthresh_rule", "half_cwnd", 'goyal1998 2: "More precisely, Ssthresh is set to max{2, min{CWND/2, '
           'RCVWND}}".'),
    stated("recovery_exit_opens", False, 'goyal1998 5.1: "the TCP sets CWND to SSTHRESH, and then does '
           'congestion avoidance".'),
    stated("delayed_ack", False, 'goyal1998 3.1: "TCP delay ACK timer is NOT set. Segments are ACKed as soon '
           'as they are received."'),
    unsaid("delayed_ack_max_s", "never used: no delayed ACKs."),
    stated("granularity_s", 0.1, 'goyal1998 3.1: "TCP timer granularity is set to 100 ms."'),
    unsaid("min_rto_ticks", 'goyal1998 2 names the RTO of [11] (Jacobson) without its bounds: 4.4BSD\'s '
           'TCPTV_MIN, two ticks.'),
    unsaid("initial_rto_s", "not given: 4.4BSD's TCPTV_SRTTDFLT, 3 s before the first RTT sample."),
    unsaid("max_rto_s", "not given: 4.4BSD's TCPTV_REXMTMAX, 64 s."),
    unsaid("timestamps", "not named: 4.4BSD times one segment per window."),
)
"""goyal1998's TCP, setting by setting (:mod:`atmtcp.tcp_settings`). goyal1997's slides present the
same simulator (their Reno and SACK tables repeat goyal1998's Tables 8-9, and they state the same
"No TCP delay ack timer", "TCP timer granularity = 100 ms"), so the same record decides them."""


NETWORKS = {
    # goyal1998 3.1: link delay, receiver window, run duration
    "lan": {"delay_s": 5e-6, "rcv_wnd": 65535, "duration_s": 10.0, "buffers": (1000, 3000)},
    "wan": {"delay_s": 5e-3, "rcv_wnd": 600000, "duration_s": 20.0, "buffers": (12000, 36000)},
    # goyal1997 slides: MSS 9180, window "34000 x 8" read as 34000 << 8 (RFC 1323 scale 8:
    # 8704000 bytes; 34000 x 8 = 272000 bytes could never fill the buffers of "1 to 3 times
    # RTT"), buffers 200000 and 600000 cells. The slides give no delays: a geostationary
    # SW1-SW2 hop of 275 ms one way with 5 ms access links makes the propagation RTT 570 ms,
    # whose bandwidth-delay product (209000 cells) matches "1 RTT" = 200000 cells. No
    # duration is given: 50 s, about 90 RTTs.
    "satellite": {"delay_s": 5e-3, "trunk_delay_s": 0.275, "rcv_wnd": 34000 << 8, "mss": 9180,
                  "duration_s": 50.0, "buffers": (200000, 600000)},
}
BUFFER_FACTORS = (1, 3)
"""The two buffers of every table row, as multiples of the network's first (about 1 and 3 RTT
in the WAN and satellite networks)."""


def buffer_cells(network: str, factor: int) -> int:
    """The switch buffer of ``network`` at ``factor`` times its smaller table buffer."""
    return int(factor) * NETWORKS[network]["buffers"][0]


QUICK_DURATION_S = {"lan": 1.0, "wan": 2.0, "satellite": 6.0}
JITTER_S = 0.01
"""Start-time spread of the robustness study ``goyal1998.start_jitter`` (and of the cell-contention
study): each source starts at a time drawn from the run's seed in [0, 10 ms). The headline runs
start every source at t = 0 (goyal1998 3.1: "All TCP sources start sending at the same time ...
a worst case scenario"); their seeds differ only in what the paper leaves random, the order in
which a slotted switch port takes the cells that arrive in one slot."""


SACK_PIPE_START = "cwnd"
"""SACK's PIPE at the third duplicate ACK in every goyal1998 and goyal1997 run: the algorithm as 5.4.1 and
the goyal1997 slides write it, "When the third duplicate ACK is received, PIPE is set to the value of CWND
and CWND is reduced by half" (and "When a segment is sent, PIPE is incremented by one", the fast
retransmission included). 5.4.2's analysis starts from "sets PIPE to CWND - 3" instead: that reading is
``goyal1998.sack_pipe_study`` and the start of ``goyal1998.sack_bound``, whose bound assumes it. The
paper gives both; the rule for what a paper leaves unsaid takes the algorithm's own statement."""


def goyal_tcp(flavor: str, mss: int, rcv_wnd: int, **scenario) -> m.TcpConfig:
    """goyal1998's TCP (:data:`TCP_SETTINGS`, SACK's PIPE start :data:`SACK_PIPE_START`) of one
    flavour, segment size and receiver window."""
    scenario.setdefault("sack_pipe_start", SACK_PIPE_START)
    return tcp_from(flavor, TCP_SETTINGS, mss=mss, rcv_wnd=rcv_wnd, **scenario)


def goyal_parameters(quick: bool) -> dict:
    """The fixed parameters of goyal_run, as flat attributes (see :class:`Experiment`)."""
    out = {"mss_bytes": 512, "aal5_overhead_bytes": m.Aal5Config().overhead_bytes,
           "cell_contention": HEADLINE_CONTENTION, "start_times": "all sources at t = 0 (goyal1998 3.1)",
           "seed_draws": "the order of a slot's arrivals at each slotted switch port",
           "epd_threshold": "buffer - max(200, N x cells per packet) cells",
           "selective_drop_fba_threshold": "0.9 x buffer", "timer_granularity_s": goyal_tcp("reno", 512, 65535).granularity_s}
    for network, params in NETWORKS.items():
        out[f"{network}_link_delay_s"] = params["delay_s"]
        out[f"{network}_rcv_wnd_bytes"] = params["rcv_wnd"]
        out[f"{network}_duration_s"] = QUICK_DURATION_S[network] if quick else params["duration_s"]
        if "mss" in params:
            out[f"{network}_mss_bytes"] = params["mss"]
        if "trunk_delay_s" in params:
            out[f"{network}_trunk_delay_s"] = params["trunk_delay_s"]
    return out


def policy_config(policy: str, buffer: int | None, sources: int, packet_cells: int,
                  r_fraction: float = 0.9, z: float = 0.8) -> m.PortConfig:
    """The switch port of goyal1998 section 4 for a policy column.

    EPD: threshold = buffer - 200 cells when a packet is 12 cells (4.1: "200 cells are
    enough to hold one packet each from all 15 TCP connections"), in general buffer -
    N x packet size (4.1: "the threshold R should be set to the buffer size - N x the
    maximum packet size"), at least 200. Selective Drop and FBA: R = 0.9 K, Z = 0.8
    (section 7: "the values of R and Z are chosen to be 0.9 and 0.8"). How cells contend for the
    port is :func:`n_source_run`'s ``contention`` (:mod:`atmtcp.contention`).
    """
    if buffer is None:
        return m.PortConfig(None, m.DropPolicy("tail"))
    if policy == "ubr":
        return m.PortConfig(buffer, m.DropPolicy("tail"))
    if policy == "epd":
        reserve = max(200, sources * packet_cells)
        return m.PortConfig(buffer, m.DropPolicy("epd", threshold=max(1, buffer - reserve)))
    threshold = int(round(r_fraction * buffer))
    return m.PortConfig(buffer, m.DropPolicy(policy, threshold=threshold, z=z))


def goyal_run(network: str, sources: int, buffer: int | None, policy: str, tcp: str, seed: int,
              quick: bool, mss: int = 512, rcv_wnd: int | None = None, duration_s: float | None = None,
              r_fraction: float = 0.9, z: float = 0.8, trace: m.TraceConfig | None = None,
              link_delay_s: float | None = None, assumption: str = HEADLINE_CONTENTION,
              start_jitter_s: float = 0.0, tcp_options: dict | None = None,
              trunk_delay_s: float | None = None) -> m.Run:
    """A goyal1998 N-source run for one grid point, with the cell-contention ``assumption`` named in
    :data:`atmtcp.contention.CELL_ASSUMPTIONS`. Every source starts at t = 0 (goyal1998 3.1) unless
    ``start_jitter_s`` spreads the starts (drawn from ``seed``, see :data:`JITTER_S`); the seed also draws
    the slotted ports' order of a slot's arrivals. ``tcp_options``: :class:`~atmtcp.model.TcpConfig` fields over
    goyal's TCP (a study's other reading); ``trunk_delay_s`` replaces the network's SW1-SW2 delay."""
    cell_contention(assumption)   # an unknown name is refused as goyal_run.assumption
    params = NETWORKS[network]
    duration = duration_s or (QUICK_DURATION_S[network] if quick else params["duration_s"])
    mss = params.get("mss", mss)
    tcp_config = goyal_tcp(tcp, mss, rcv_wnd or params["rcv_wnd"], **(tcp_options or {}))
    cells = packet_cells(mss, m.Aal5Config().overhead_bytes)
    port = policy_config(policy, buffer, sources, cells, r_fraction, z)
    return n_source_run(sources, link_delay_s if link_delay_s is not None else params["delay_s"],
                        port, tcp_config, duration, seed, start_jitter_s, trace,
                        trunk_delay_s=trunk_delay_s if trunk_delay_s is not None else params.get("trunk_delay_s"),
                        contention=assumption)
