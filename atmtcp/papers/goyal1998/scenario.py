"""goyal1998's N-source configuration: the switch port of each drop-policy column, the buffers, the
quick-mode durations, and :func:`goyal_run`, one grid point's run; with the networks and goyal1998's TCP
(:data:`NETWORKS`, :data:`TCP_SETTINGS`, :func:`goyal_tcp`), which live below the papers in
:mod:`atmtcp.n_source` because ``atmtcp run`` builds them too (:mod:`atmtcp.default_run`).

Plain model building (no xarray), shared by the experiments of goyal1998 and goyal1997, the atlas and
the validation. The network is :func:`atmtcp.topologies.n_source_run`'s (goyal1998 Fig. 3); how cells
contend for its ports is :mod:`atmtcp.contention`'s.
"""
from __future__ import annotations

from ... import model as m
from ...contention import HEADLINE_CONTENTION, cell_contention
from ...kernel.aal5 import packet_cells
from ...n_source import NETWORKS, SACK_PIPE_START, TCP_SETTINGS, goyal_tcp  # noqa: F401  (goyal1998's own)
from ...topologies import N_SOURCE_BOTTLENECK, n_source_run

BOTTLENECK = N_SOURCE_BOTTLENECK
"""goyal1998's bottleneck, SW1's port towards SW2 (Fig. 3): the one port every data cell goes through."""
POLICY_LABELS = {"ubr": "UBR", "epd": "EPD", "selective_drop": "Selective Drop", "fba": "FBA"}
"""goyal1998's policy columns (section 4). ``ubr`` is plain UBR: tail drop (random cell discard)."""

BUFFER_FACTORS = (1, 3)
"""The two buffers of every table row, as multiples of the network's first (about 1 and 3 RTT
in the WAN and satellite networks)."""


def buffer_cells(network: str, factor: int) -> int:
    """The switch buffer of ``network`` at ``factor`` times its smaller table buffer.

    Parameters
    ----------
    network : str
        ``"lan"``, ``"wan"`` or ``"satellite"`` (:data:`NETWORKS`).
    factor : int
        The multiple (goyal1998's tables: 1 and 3).

    Returns
    -------
    int
        The buffer in cells.
    """
    return int(factor) * NETWORKS[network]["buffers"][0]


QUICK_DURATION_S = {"lan": 1.0, "wan": 2.0, "satellite": 6.0}
JITTER_S = 0.01
"""Start-time spread of the robustness study ``goyal1998.start_jitter`` (and of the cell-contention
study): each source starts at a time drawn from the run's seed in [0, 10 ms). The headline runs
start every source at t = 0 (goyal1998 3.1: "All TCP sources start sending at the same time ...
a worst case scenario"); their seeds differ only in what the paper leaves random, the order in
which a slotted switch port takes the cells that arrive in one slot."""


def goyal_parameters(quick: bool) -> dict:
    """The fixed parameters of goyal_run, as flat attributes (see :class:`Experiment`).

    Parameters
    ----------
    quick : bool
        Whether the runs are the quick mode's (shorter durations).

    Returns
    -------
    dict
        Parameter name -> value (numbers and strings).
    """
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

    Parameters
    ----------
    policy : str
        The column: ``"ubr"`` (tail drop), ``"epd"``, ``"selective_drop"`` or ``"fba"``.
    buffer : int or None
        The buffer in cells; None: infinite (tail drop whatever ``policy``).
    sources : int
        The number of connections (N).
    packet_cells : int
        The cells of one packet.
    r_fraction : float
        Selective Drop's and FBA's R as a share of the buffer.
    z : float
        Selective Drop's and FBA's Z.

    Returns
    -------
    atmtcp.model.PortConfig
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
    goyal's TCP (a study's other reading); ``trunk_delay_s`` replaces the network's SW1-SW2 delay.

    Parameters
    ----------
    network : str
        ``"lan"``, ``"wan"`` or ``"satellite"`` (:data:`NETWORKS`).
    sources : int
        The number of sources (N).
    buffer : int or None
        The switch buffer in cells; None: infinite.
    policy : str
        The policy column (:func:`policy_config`).
    tcp : str
        The TCP flavour (:data:`atmtcp.model.FLAVORS`).
    seed : int
        The run's seed.
    quick : bool
        Whether the run has the quick mode's duration (unless ``duration_s`` is given).
    mss, rcv_wnd : int, optional
        The segment size (the network's own for the satellite) and the receiver's window (default: the
        network's).
    duration_s : float, optional
        The simulated time (default: the network's).
    r_fraction, z : float
        Selective Drop's and FBA's R (share of the buffer) and Z.
    trace : atmtcp.model.TraceConfig, optional
        What to trace.
    link_delay_s : float, optional
        Every link's delay (default: the network's).
    assumption : str
        How cells contend for the switch buffers (:data:`atmtcp.contention.CELL_ASSUMPTIONS`).
    start_jitter_s : float
        The spread of the sources' starts (s); 0: all at t = 0.
    tcp_options : dict, optional
        :class:`~atmtcp.model.TcpConfig` fields over goyal's TCP.
    trunk_delay_s : float, optional
        The SW1-SW2 delay (default: the network's).

    Returns
    -------
    atmtcp.model.Run

    Raises
    ------
    atmtcp.model.ModelError
        If ``assumption`` is not a known cell-contention assumption.
    """
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
