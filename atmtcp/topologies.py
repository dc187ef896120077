"""Builders for the papers' networks on top of :mod:`atmtcp.model`."""
from __future__ import annotations

import math

import numpy as np

from . import model as m

BOTTLENECK = "SW1->SW2"
"""The port every data cell of the N-source configuration goes through."""


def n_source_network(n: int, link_delay_s: float, port: m.PortConfig,
                     rate_bps: float = m.OC3_BPS, trunk_delay_s: float | None = None,
                     access_cdv_s: float = 0.0, sonet: bool = False) -> m.Network:
    """goyal1998 Fig. 3: sources S1..SN -> switch SW1 -> switch SW2 -> destinations D1..DN.

    Every link has the same rate and delay (goyal1998 3.1: "All link delays are 5 us for
    LANs and 5 ms for WANs ... the RTT due to the propagation delay is 30 us and 30 ms",
    three links each way). Every switch output port gets ``port``; the one that congests
    is :data:`BOTTLENECK` (SW1's port towards SW2), the only port shared by the N data
    VCs. Processing delays are zero (goyal1997 slides: "All processing delay, delay
    variation = 0"). ``trunk_delay_s`` gives the SW1-SW2 link its own delay (the satellite
    hop of goyal1997); by default it is ``link_delay_s``. ``access_cdv_s`` puts cell delay
    variation on the sources' access links (:attr:`atmtcp.model.Link.cdv_s`); ``sonet``
    makes the switch ports drain at the SONET payload rate (:attr:`atmtcp.model.Network.sonet`).
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
    else independent uniform draws in ``[0, jitter_s)`` from a generator seeded by ``seed``."""
    if not (isinstance(jitter_s, (int, float)) and math.isfinite(jitter_s) and 0 <= jitter_s <= m.MAX_TIME_S):
        raise m.ModelError("start_times", "jitter_s", jitter_s, f"a number in [0, {m.MAX_TIME_S:g}] (seconds)")
    if jitter_s == 0:
        return [0.0] * n
    return [float(x) for x in np.random.default_rng(seed).uniform(0.0, jitter_s, n)]


def n_source_run(n: int, link_delay_s: float, port: m.PortConfig, tcp: m.TcpConfig,
                 duration_s: float, seed: int = 0, start_jitter_s: float = 0.0,
                 trace: m.TraceConfig | None = None, aal5: m.Aal5Config | None = None,
                 trunk_delay_s: float | None = None, access_cdv_s: float = 0.0,
                 sonet: bool = False) -> m.Run:
    """A run of ``n`` persistent sources on :func:`n_source_network`."""
    network = n_source_network(n, link_delay_s, port, trunk_delay_s=trunk_delay_s,
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
    sessions; ``trunk_delays_s[i]`` is the delay of the SW(i+1)-SW(i+2) link. Every switch
    output port gets ``port``; the most congested is the last trunk's
    (:func:`parking_lot_bottleneck`), which every session crosses.
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
    """The port of the last trunk, towards the switch of the destinations."""
    return f"{network.switches[-2]}->{network.switches[-1]}"


def ewa_network(ip_networks: dict[int, tuple[tuple[str, float], ...]], aap1_port, atm_delays_s=(0.0,) * 4,
                rate_bps: float = m.OC3_BPS):
    """ewa Fig. 1, "Generic network topology with IP and ATM subnetworks" (the figure is not in the
    text; this is our reading of it).

    Four IP networks, numbered 1-4; ``ip_networks[n]`` lists the hosts of IP network n as
    ``(name, one-way delay of its link)``. Every host has its own IP link to its network's router,
    ``AAP{n}`` ("we will refer to IP-to-ATM Router 1 as AAP-1"); each AAP-n joins the ATM network,
    one switch ``ATM``, by link Ln with delay ``atm_delays_s[n - 1]``. Every link runs at
    ``rate_bps`` ("Each of the links in this configuration has a capacity of 155 Mbits/sec"; we
    take 155.52 Mbit/s, OC-3, for the IP links as for the ATM ones). AAP-1's port onto L1
    (``AAP1->ATM``) gets ``aap1_port`` (an :class:`atmtcp.internetwork.RouterPort`); every other
    port has an infinite buffer (the data flow from IP network 1; the other AAPs carry only ACKs
    into the ATM network, and their IP ports towards the hosts never queue more than the ATM
    network delivers).
    """
    from .internetwork import Internetwork
    hosts, links = [], []
    for n in (1, 2, 3, 4):
        for name, delay_s in ip_networks.get(n, ()):
            hosts.append(name)
            links.append(m.Link(name, f"AAP{n}", rate_bps, delay_s))
    links += [m.Link(f"AAP{n}", "ATM", rate_bps, atm_delays_s[n - 1]) for n in (1, 2, 3, 4)]
    return Internetwork(hosts=tuple(hosts), routers=("AAP1", "AAP2", "AAP3", "AAP4"), atm_switches=("ATM",),
                        links=tuple(links), router_ports=(("AAP1->ATM", aap1_port),))
