"""Builders for the papers' networks on top of :mod:`atmtcp.model`."""
from __future__ import annotations

import math

import numpy as np

from . import model as m
from .contention import HEADLINE_CONTENTION, cell_contention, with_contention

N_SOURCE_BOTTLENECK = "SW1->SW2"
"""The port every data cell of :func:`n_source_network` goes through."""


def n_source_network(n: int, link_delay_s: float, port: m.PortConfig,
                     rate_bps: float = m.OC3_BPS, trunk_delay_s: float | None = None,
                     access_cdv_s: float = 0.0, sonet: bool = False) -> m.Network:
    """goyal1998 Fig. 3: sources S1..SN -> switch SW1 -> switch SW2 -> destinations D1..DN.

    Every link has the same rate and delay (goyal1998 3.1: "All link delays are 5 us for
    LANs and 5 ms for WANs ... the RTT due to the propagation delay is 30 us and 30 ms",
    three links each way). Every switch output port gets ``port``; the one that congests
    is :data:`N_SOURCE_BOTTLENECK` (SW1's port towards SW2), the only port shared by the N data
    VCs. Processing delays are zero (goyal1997 slides: "All processing delay, delay
    variation = 0"). ``trunk_delay_s`` gives the SW1-SW2 link its own delay (the satellite
    hop of goyal1997); by default it is ``link_delay_s``. ``access_cdv_s`` puts cell delay
    variation on the sources' access links (:attr:`atmtcp.model.Link.cdv_s`); ``sonet``
    makes the switch ports drain at the SONET payload rate (:attr:`atmtcp.model.Network.sonet`).

    Parameters
    ----------
    n : int
        The number of sources, each with its destination.
    link_delay_s : float
        Every link's propagation delay (s).
    port : atmtcp.model.PortConfig
        Every switch output port.
    rate_bps : float
        Every link's rate (bit/s).
    trunk_delay_s : float, optional
        The SW1-SW2 link's own delay (s).
    access_cdv_s : float
        Cell delay variation on the access links (s).
    sonet : bool
        Whether the switch ports drain at the SONET payload rate.

    Returns
    -------
    atmtcp.model.Network

    Raises
    ------
    atmtcp.model.ModelError
        If ``n`` is not an integer >= 1.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise m.ModelError("n_source_network", "n", n, "an integer >= 1")
    sources = tuple(f"S{i + 1}" for i in range(n))
    sinks = tuple(f"D{i + 1}" for i in range(n))
    links = [m.Link(s, "SW1", rate_bps, link_delay_s, access_cdv_s) for s in sources]
    trunk = link_delay_s if trunk_delay_s is None else trunk_delay_s
    links.append(m.Link("SW1", "SW2", rate_bps, trunk))
    links += [m.Link("SW2", d, rate_bps, link_delay_s) for d in sinks]
    return m.Network(hosts=sources + sinks, switches=("SW1", "SW2"), links=tuple(links), switch_port=port,
                     sonet=sonet)


def start_times(n: int, jitter_s: float, seed: int) -> list[float]:
    """All sources at t = 0 (goyal1998 3.1, "the worst case") when ``jitter_s`` is 0,
    else independent uniform draws in ``[0, jitter_s)`` from a generator seeded by ``seed``.

    Parameters
    ----------
    n : int
        The number of sources.
    jitter_s : float
        The width of the starts' spread (s); 0: every source at t = 0.
    seed : int
        The generator's seed.

    Returns
    -------
    list of float
        Each source's start (s).

    Raises
    ------
    atmtcp.model.ModelError
        If ``jitter_s`` is not in ``[0, MAX_TIME_S]`` or ``seed`` is not an integer in ``[0, 2**63)``.
    """
    if not (isinstance(jitter_s, (int, float)) and not isinstance(jitter_s, bool) and math.isfinite(jitter_s)
            and 0 <= jitter_s <= m.MAX_TIME_S):
        raise m.ModelError("start_times", "jitter_s", jitter_s, f"a number in [0, {m.MAX_TIME_S:g}] (seconds)")
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**63):
        raise m.ModelError("start_times", "seed", seed, "an integer in [0, 2**63)")  # (before numpy reads it)
    if jitter_s == 0:
        return [0.0] * n
    return [float(x) for x in np.random.default_rng(seed).uniform(0.0, jitter_s, n)]


def n_source_run(n: int, link_delay_s: float, port: m.PortConfig, tcp: m.TcpConfig,
                 duration_s: float, seed: int = 0, start_jitter_s: float = 0.0,
                 trace: m.TraceConfig | None = None, aal5: m.Aal5Config | None = None,
                 trunk_delay_s: float | None = None, contention: str = HEADLINE_CONTENTION) -> m.Run:
    """A run of ``n`` persistent sources on :func:`n_source_network` (goyal1998 Fig. 3).

    Parameters
    ----------
    n : int
        The number of sources, each with its destination.
    link_delay_s : float
        Every link's propagation delay (goyal1998 3.1: 5 us in the LAN, 5 ms in the WAN).
    port : atmtcp.model.PortConfig
        Every switch output port: buffer and drop policy.
    tcp : atmtcp.model.TcpConfig
        Every connection's TCP.
    duration_s : float
        The simulated time.
    seed : int
        The run's random stream (start times, slotted ports' order of a slot's arrivals).
    start_jitter_s : float
        Each source starts at a time drawn in ``[0, start_jitter_s)``; 0: all at t = 0.
    trace, aal5 : optional
        What to trace (:class:`~atmtcp.model.TraceConfig`) and the AAL5 framing
        (:class:`~atmtcp.model.Aal5Config`); the defaults trace nothing and frame as goyal1998.
    trunk_delay_s : float, optional
        The SW1-SW2 delay when it differs from ``link_delay_s`` (goyal1997's satellite hop).
    contention : str
        How cells contend for the switch buffers, one of :data:`atmtcp.contention.CELL_ASSUMPTIONS`;
        it adds its switch-port options (``slotted``, ``randomized_tail``) to those ``port`` sets itself,
        and sets the network's SONET rate and access-link delay variation. The default is the
        reproduction's, :data:`atmtcp.contention.HEADLINE_CONTENTION` (slotted switch ports), as for
        ``atmtcp run``; ``"deterministic"`` takes ``port`` as it is.

    Returns
    -------
    atmtcp.model.Run
    """
    _, _, sonet, access_cdv_s = cell_contention(contention, "n_source_run", "contention")
    network = n_source_network(n, link_delay_s, with_contention(port, contention), trunk_delay_s=trunk_delay_s,
                               access_cdv_s=access_cdv_s, sonet=sonet)
    starts = start_times(n, start_jitter_s, seed)
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp, starts[i]) for i in range(n))
    return m.Run(network, connections, duration_s, seed=seed,
                 aal5=aal5 or m.Aal5Config(), trace=trace or m.TraceConfig())


def parking_lot(groups: tuple[tuple[int, float], ...], trunk_delays_s: tuple[float, ...], port: m.PortConfig,
                sink_delay_s: float, rate_bps: float = m.OC3_BPS, ip_service_pps: float | None = None) -> m.Network:
    """cheon Fig. 1 and its Appendix: a chain of switches SW1 .. SW(G+1); group g's
    sources (``groups[g] = (count, access delay)``) enter at SW(g+1), and every
    destination hangs off the last switch by a link of ``sink_delay_s``.

    Sources are numbered across the groups (S1.., D1..) in order, as cheon numbers its
    sessions. The most congested port is the last trunk's (:func:`parking_lot_bottleneck`), which
    every session crosses.

    Parameters
    ----------
    groups : tuple of (int, float)
        Each group's number of sources and their access links' delay (s).
    trunk_delays_s : tuple of float
        ``trunk_delays_s[i]`` is the delay of the SW(i+1)-SW(i+2) link; one per group.
    port : atmtcp.model.PortConfig
        Every switch output port.
    sink_delay_s : float
        The delay of each destination's link from the last switch.
    rate_bps : float
        Every link's rate (OC-3 by default).
    ip_service_pps : float, optional
        The hosts' IP service rate (packets per second; cheon's asymmetric case), if limited.

    Returns
    -------
    atmtcp.model.Network

    Raises
    ------
    atmtcp.model.ModelError
        If there are no groups, or not one trunk delay per group.
    """
    if not groups or len(trunk_delays_s) != len(groups):
        raise m.ModelError("parking_lot", "trunk_delays_s", trunk_delays_s,
                           f"one delay per group of sources ({len(groups)} groups)")
    switches = tuple(f"SW{i + 1}" for i in range(len(groups) + 1))
    hosts, links, n = [], [], 0
    for g, (count, access_delay_s) in enumerate(groups):
        for _ in range(count):
            n += 1
            hosts.append(f"S{n}")
            links.append(m.Link(f"S{n}", switches[g], rate_bps, access_delay_s))
    links += [m.Link(switches[i], switches[i + 1], rate_bps, d) for i, d in enumerate(trunk_delays_s)]
    sinks = [f"D{i + 1}" for i in range(n)]
    links += [m.Link(switches[-1], d, rate_bps, sink_delay_s) for d in sinks]
    return m.Network(hosts=tuple(hosts + sinks), switches=switches, links=tuple(links), switch_port=port,
                     ip_service_pps=ip_service_pps)


def parking_lot_bottleneck(network: m.Network) -> str:
    """The port of the last trunk, towards the switch of the destinations.

    Parameters
    ----------
    network : atmtcp.model.Network
        A network made by :func:`parking_lot`.

    Returns
    -------
    str
        The port's name, ``"<last switch but one>-><last switch>"``.
    """
    return f"{network.switches[-2]}->{network.switches[-1]}"


DS3_PLCP_CELLS_PER_S = 96_000
"""Cells per second of a DS-3 link under the Physical Layer Convergence Procedure: 12 cells per
125 us PLCP frame (lakshman 3: "slotted manner with slot duration 10.4 us"; 5760 cells drain in
60 ms)."""
DS3_PLCP_BPS = DS3_PLCP_CELLS_PER_S * 53 * 8
"""The DS-3 PLCP cell rate as the rate of 53-byte cells on a link: 40.704 Mbit/s."""
SWITCH = "SW"
DESTINATION_ADSU, DESTINATION_ROUTER = "AD", "RD"
ROUTER_ADSU_BOTTLENECK = f"{SWITCH}->{DESTINATION_ADSU}"
"""The switch output port every data VC of :func:`router_adsu_switch` shares (the paper's port 0)."""


def router_adsu_switch_links(n: int) -> list[tuple[str, str]]:
    """The links of :func:`router_adsu_switch` in their order: per source ``S{i}-R{i}``,
    ``R{i}-A{i}``, ``A{i}-SW``; then ``SW-AD``, ``AD-RD``; then per destination ``RD-D{i}``.

    Parameters
    ----------
    n : int
        The number of sources.

    Returns
    -------
    list of (str, str)
        ``4 n + 2`` node pairs.
    """
    links = []
    for i in range(1, n + 1):
        links += [(f"S{i}", f"R{i}"), (f"R{i}", f"A{i}"), (f"A{i}", SWITCH)]
    links += [(SWITCH, DESTINATION_ADSU), (DESTINATION_ADSU, DESTINATION_ROUTER)]
    links += [(DESTINATION_ROUTER, f"D{i}") for i in range(1, n + 1)]
    return links


def router_adsu_switch(n: int, delays_s, bottleneck: m.PortConfig, rate_bps: float = DS3_PLCP_BPS) -> m.Network:
    """lakshman Fig. 1: TCP sources -> routers -> ADSUs -> one ATM switch -> ADSU -> router ->
    TCP destinations; every connection's data share the switch's output port towards the
    destination ADSU (:data:`ROUTER_ADSU_BOTTLENECK`, "port 0"), which gets ``bottleneck``.

    Each source has its own router R{i}, ADSU A{i} and DS-3 link into the switch ("each source
    has its own DS-3 channel into the switch"); ``delays_s`` gives each link's propagation delay
    in the order of :func:`router_adsu_switch_links`. Every link carries cells at ``rate_bps``.
    The sources' NICs segment packets into cells (the ADSU's job: "the ADSU ... splits TCP
    packets into cells") and queue them without limit ("buffering at the routers is kept
    sufficiently high so as not to cause losses"). A router or an ADSU is a node whose ports
    each have one input of the same rate, so they never queue ("Routers do not become
    bottlenecks"; footnote 2: "The routers at present just add one more non-bottlenecking hop
    before and after the switch"): the compiler folds them into fixed delays, one cell time
    plus the link's propagation, except the destination router's port towards the destination
    ADSU, where the ACKs of all connections merge (infinite buffer, unslotted). The switch's
    output ports are slotted ("The links connected to the switch output port operate in a
    slotted manner"), the ADSUs' inputs to the switch are not ("we did not use slotting on the
    DS-3 links"); the ports towards the sources' ADSUs carry ACKs only, with infinite buffers.

    Parameters
    ----------
    n : int
        The number of sources, each with its destination.
    delays_s : sequence of float
        Each link's propagation delay (s), ``4 n + 2`` of them in the order of
        :func:`router_adsu_switch_links`.
    bottleneck : atmtcp.model.PortConfig
        The switch's output port towards the destination ADSU.
    rate_bps : float
        Every link's cell rate (bit/s; the default is DS-3 with PLCP framing, :data:`DS3_PLCP_BPS`).

    Returns
    -------
    atmtcp.model.Network

    Raises
    ------
    atmtcp.model.ModelError
        If ``n`` is not an integer >= 1, or ``delays_s`` does not hold ``4 n + 2`` delays.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise m.ModelError("router_adsu_switch", "n", n, "an integer >= 1")
    pairs = router_adsu_switch_links(n)
    delays = list(delays_s)
    if len(delays) != len(pairs):
        raise m.ModelError("router_adsu_switch", "delays_s", len(delays), f"{len(pairs)} link delays (4 n + 2)")
    links = tuple(m.Link(a, b, rate_bps, float(d)) for (a, b), d in zip(pairs, delays))
    hosts = tuple(f"S{i}" for i in range(1, n + 1)) + tuple(f"D{i}" for i in range(1, n + 1))
    switches = (tuple(f"R{i}" for i in range(1, n + 1)) + tuple(f"A{i}" for i in range(1, n + 1))
                + (SWITCH, DESTINATION_ADSU, DESTINATION_ROUTER))
    ack_port = m.PortConfig(None, slotted=True)
    ports = ((ROUTER_ADSU_BOTTLENECK, bottleneck),) + tuple((f"{SWITCH}->A{i}", ack_port) for i in range(1, n + 1))
    return m.Network(hosts=hosts, switches=switches, links=links, switch_port=m.PortConfig(None), ports=ports)
