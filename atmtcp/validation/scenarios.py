"""The cross-checked scenarios: each builds the papers' own :class:`atmtcp.model.Run` (from the papers'
scenario modules), simulates it on one side (``atmtcp``, our kernel, or a peer) and reduces it to the same
variables on both sides.

- :data:`GOYAL_UBR` (goyal1998 Tables 1, 2, 4, 5): the LAN and WAN with plain UBR (tail drop), vanilla and
  Reno TCP, 5 and 15 sources, the smaller buffer: efficiency and Jain's fairness.
- :data:`GOYAL_SACK` (goyal1998 5.4.3 and Table 8): the LAN, SACK against Reno, the four rows (5 and 15
  sources, 1000 and 3000 cells): efficiency. ns-3 has no cells, so its tail drop drops whole packets, as
  goyal's EPD column does: we compare its FIFO with both our UBR and our EPD.
- :data:`GOYAL_YATS` (goyal1998 Tables 1, 2, 4, 5): the LAN and WAN, vanilla and Reno TCP, UBR (tail drop) and
  EPD, 5 and 15 sources, the smaller buffer, in YATS (:mod:`atmtcp.validation.yats`), the cell-level peer, at the
  paper's durations: efficiency and Jain's fairness.
- :data:`CHEON_YATS` (cheon Tables 1-4): the parking lot, symmetric and asymmetric, 500- and 1500-byte packets, RCD
  (tail drop) and EPD, in YATS (:mod:`atmtcp.validation.yats_parking_lot`): the effective throughput of all sessions
  and of sessions 1-5 and 6-10, and the fairness index.
- :data:`EWA_SECTION2` (ewa 2, Figs. 5-6, 11-12): Drop-Tail and RED (max_p 0.05) at AAP-1, ten
  connections, 10 -> 5 -> 2, under ewa's headline TCP (since issue 36) and 4.4BSD-Lite's increase and delayed ACKs
  (the headline before it): L1's utilization per phase, drops and timeouts per connection, the share ratio in the
  last phase.
- :data:`EWA_SSTHRESH` (ewa 4.2's last paragraph, TCP only): two connections in 4.2's network (49 ms of IP
  delay each way, 1 ms of ATM, a 2 MB Drop-Tail buffer, window 2 MB) with an initial ssthresh of 512 KB,
  no EWA: the time until L1's utilization stays at 95 % or more.

A point's Dataset has no grid dimension; :mod:`atmtcp.validation.experiments` stacks them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
import xarray as xr

from .. import model as m
from ..compile import cell_time_ns
from ..internetwork import RouterPolicy, RouterPort
from ..kernel.aal5 import CELL_BYTES
from ..metrics import efficiency, fairness_index, framing, max_tcp_throughput_bps
from ..papers.ewa.section2.experiments import TCP_READINGS, summarized_run
from ..papers.ewa.section2.scenario import POLICIES as EWA_POLICIES, ten_connection_run
from ..papers.ewa.section4.experiments import recovery_s
from ..papers.ewa.section4.scenario import long_ip_with_ssthresh, tcp_config as ewa_tcp
from ..papers.ewa.shared.measures import phase_numbers
from ..papers.ewa.shared.scenario import (AAL5 as EWA_AAL5, INTERVAL_S, N_CONNECTIONS, PHASES, SAMPLE_S,
                                          ewa_network)
from ..papers.ewa.section2.scenario import start_times as ewa_starts
from ..papers.cheon.scenario import cheon_run
from ..papers.goyal1998.scenario import NETWORKS, buffer_cells, goyal_run
from ..simulate import simulate

SIDES = ("atmtcp", "ns-3")
"""Who simulates a point of an ns-3 scenario: our kernel, or the peer (:attr:`Scenario.sides`)."""


@dataclass(frozen=True)
class Scenario:
    """One cross-checked scenario: its grid axes (without side and seed), the durations (full, quick), how
    a grid point becomes our run, and how each side's result becomes the point's Dataset."""

    key: str
    paper: str
    """The key of the paper whose scenario this is (its docs page shows the scenario's rows)."""
    title: str
    axes: dict
    run_of: Callable[[dict, int, bool], m.Run]
    ours: Callable[[m.Run, dict], xr.Dataset]
    peer: Callable[[m.Run, dict], xr.Dataset]
    note: str = ""
    peer_skips: tuple[dict, ...] = ()
    """Cells the peer does not run: a point is skipped when it matches every item of one of these dicts
    (goyal's EPD column, which ns-3 cannot express; cells left out to keep ns-3's CPU time down)."""

    peer_seeds: int = 10
    """The peer's seeds per cell (the first of :data:`SEEDS`): ten, as ours, in every scenario (issue 37). A
    second of simulated time costs ns-3 2-5 s of CPU (ours 0.02-0.3 s): the cost of `make validate` is in
    docs/validation.md."""

    peer_name: str = "ns-3"
    """The peer simulator (``ns-3`` or ``YATS``): the side label of its points and the table's ``peer``."""

    @property
    def sides(self) -> tuple[str, str]:
        """The grid's ``side`` axis: our kernel and the peer."""
        return ("atmtcp", self.peer_name)

    def peer_runs(self, point: dict) -> bool:
        """Whether the peer runs grid point ``point`` (:attr:`peer_skips`, :attr:`peer_seeds`)."""
        skipped = any(all(point.get(k) == v for k, v in skip.items()) for skip in self.peer_skips)
        return not skipped and point.get("seed", 0) < self.peer_seeds


# --- goyal1998 ---------------------------------------------------------------------------------------------
GOYAL_DURATION_S = {"lan": 1.0, "wan": 3.0}
"""Shorter than goyal1998 3.1's runs (LAN 10 s, WAN 20 s), both sides alike, to keep ns-3's CPU time in
bounds (a second of the LAN costs ns-3 3-5 s of CPU, a second of the WAN 4 s): still about ten of the 100 ms
timer's cycles in the LAN and a hundred round trips in the WAN. The paper's value is compared with these
runs all the same. Quick mode: :data:`GOYAL_QUICK_S`."""
GOYAL_QUICK_S = {"lan": 0.5, "wan": 1.0}


def goyal_point_run(point: dict, seed: int, quick: bool) -> m.Run:
    """The run of table cell ``point`` (network, sources, buffer_factor, policy, tcp) for ``seed``."""
    network = point["network"]
    buffer = buffer_cells(network, point["buffer_factor"])
    duration = (GOYAL_QUICK_S if quick else GOYAL_DURATION_S)[network]
    return goyal_run(network, point["sources"], buffer, point.get("policy", "ubr"), point["tcp"], seed, quick,
                     duration_s=duration)


def _goyal_dataset(goodput_bps: np.ndarray, run: m.Run) -> xr.Dataset:
    tcp = run.connections[0].tcp
    link = {(k.a, k.b): k for k in run.network.links}[("SW1", "SW2")]
    bottleneck_bps = CELL_BYTES * 8e9 / cell_time_ns(link.rate_bps)
    share = framing(tcp.mss, run.aal5.overhead_bytes)
    return xr.Dataset({
        "efficiency": ((), efficiency(goodput_bps, [share] * goodput_bps.size, bottleneck_bps),
                       {"units": "1", "long_name": "goyal1998 3.2's efficiency"}),
        "fairness": ((), fairness_index(goodput_bps), {"units": "1", "long_name": "Jain's fairness index"}),
    })


def goyal_ours(run: m.Run, point: dict) -> xr.Dataset:
    """Our efficiency and fairness of the goyal1998 run (3.2's definitions)."""
    ds = simulate(run)
    return _goyal_dataset(ds.goodput_bps.values.astype(float), run)


def goyal_peer(run: m.Run, point: dict) -> xr.Dataset:
    """ns-3's efficiency and fairness of the same goyal1998 run
    (:func:`atmtcp.validation.ns3.from_n_source`)."""
    from . import ns3, ns3_run
    out = ns3_run.run(ns3.from_n_source(run))
    return _goyal_dataset(out["goodput_bytes"] * 8 / run.duration_s, run)


GOYAL_UBR = Scenario(
    "goyal_ubr", "goyal1998", "goyal1998 Tables 1, 2, 4, 5: plain UBR, vanilla and Reno, LAN and WAN",
    {"network": ["lan", "wan"], "tcp": ["vanilla", "reno"], "sources": [5, 15], "buffer_factor": [1]},
    goyal_point_run, goyal_ours, goyal_peer)
GOYAL_SACK = Scenario(
    "goyal_sack", "goyal1998", "goyal1998 5.4.3: SACK against Reno in the LAN, every row",
    {"network": ["lan"], "tcp": ["reno", "sack"], "sources": [5, 15], "buffer_factor": [1, 3],
     "policy": ["ubr", "epd"]},
    goyal_point_run, goyal_ours, goyal_peer, peer_skips=({"policy": "epd"},),
    note="ns-3 runs the UBR column only: its FIFO drops whole packets, as EPD does")


def goyal_yats_point_run(point: dict, seed: int, quick: bool) -> m.Run:
    """The run of table cell ``point`` at goyal1998 3.1's own durations (LAN 10 s, WAN 20 s): YATS costs 0.3-0.5 s
    of CPU per LAN run and about 2 s per WAN run, ours 0.2-0.5 s and about 1 s. Quick mode: :data:`GOYAL_QUICK_S`."""
    network = point["network"]
    duration = GOYAL_QUICK_S[network] if quick else NETWORKS[network]["duration_s"]
    return goyal_run(network, point["sources"], buffer_cells(network, point["buffer_factor"]), point["policy"],
                     point["tcp"], seed, quick, duration_s=duration)


def goyal_yats_peer(run: m.Run, point: dict) -> xr.Dataset:
    """YATS's efficiency and fairness of the same goyal1998 run
    (:func:`atmtcp.validation.yats.from_n_source`), over the time YATS simulated."""
    from . import yats
    out = yats.run(yats.from_n_source(run))
    return _goyal_dataset(out["goodput_bytes"] * 8 / out["simulated_s"], run)


GOYAL_YATS = Scenario(
    "goyal_yats", "goyal1998", "goyal1998 Tables 1, 2, 4, 5 in YATS: UBR (tail drop) and EPD at the cell level, "
    "vanilla and Reno, LAN and WAN",
    {"network": ["lan", "wan"], "tcp": ["vanilla", "reno"], "sources": [5, 15], "buffer_factor": [1],
     "policy": ["ubr", "epd"]},
    goyal_yats_point_run, goyal_ours, goyal_yats_peer, peer_name="YATS",
    note="YATS, a cell-level ATM simulator, runs the cell-level mechanisms ns-3 lacks (tail drop of cells, EPD) "
         "at the paper's 10 s; it is skipped when no YATS prefix is given (make validate YATS=<prefix>)")


# --- cheon --------------------------------------------------------------------------------------------------
CHEON_TABLES = ("table1", "table2", "table3", "table4")
"""cheon's Tables 1-4 (symmetric and asymmetric parking lot, 500- and 1500-byte packets), RCD and EPD columns:
the policies YATS has (PPD and ESPD it has not)."""
CHEON_QUICK_S = 1.0
"""Quick mode's runs: 0.5 s after the 0.5 s warm-up (the paper's 3 s and 10 s in full mode)."""


def cheon_point_run(point: dict, seed: int, quick: bool) -> m.Run:
    """cheon's own run of table cell ``point`` (table, policy) for ``seed``
    (:func:`atmtcp.papers.cheon.scenario.cheon_run`), at the paper's duration (quick: :data:`CHEON_QUICK_S`)."""
    from ..papers.cheon.experiments import TABLES
    case, payload, _ = TABLES[f"cheon.{point['table']}"]
    return cheon_run(case, point["policy"], payload, seed, duration_s=CHEON_QUICK_S if quick else None)


def _cheon_dataset(packets: np.ndarray) -> xr.Dataset:
    """cheon 4.2.3's effective throughput (distinct packets delivered after the 0.5 s warm-up) in all and of
    sessions 1-5 and 6-10, and the fairness index of the sessions' effective throughputs."""
    attrs = {"units": "packet", "long_name": "distinct packets delivered after the warm-up"}
    return xr.Dataset({
        "effective_throughput": ((), float(packets.sum()), attrs),
        "effective_throughput_1_5": ((), float(packets[:5].sum()), attrs),
        "effective_throughput_6_10": ((), float(packets[5:10].sum()), attrs),
        "fairness": ((), fairness_index(packets), {"units": "1", "long_name": "cheon 4.2.3's fairness index"}),
    })


def cheon_ours(run: m.Run, point: dict) -> xr.Dataset:
    """Our effective throughputs and fairness of the cheon run."""
    return _cheon_dataset(simulate(run).segments_received.values.astype(float))


def cheon_yats_peer(run: m.Run, point: dict) -> xr.Dataset:
    """YATS's effective throughputs and fairness of the same cheon run
    (:func:`atmtcp.validation.yats_parking_lot.from_parking_lot`): in-order payload after the warm-up / mss."""
    from . import yats, yats_parking_lot
    spec = yats_parking_lot.from_parking_lot(run)
    return _cheon_dataset(yats.run(spec)["goodput_bytes"] / spec.mss)


CHEON_YATS = Scenario(
    "cheon_yats", "cheon", "cheon Tables 1-4 in YATS: the parking lot with RCD (tail drop) and EPD at the cell level",
    {"table": list(CHEON_TABLES), "policy": ["rcd", "epd"]}, cheon_point_run, cheon_ours, cheon_yats_peer,
    peer_name="YATS",
    note="PPD and ESPD (cheon's own scheme) are left out: YATS has neither. Every run at the paper's duration (3 s "
         "symmetric, 10 s asymmetric); a YATS run costs 0.2-0.7 s of CPU")


# --- ewa section 2 -----------------------------------------------------------------------------------------
EWA_TARGETS = {"drop_tail": "ewa.fig5", "red_0.05": "ewa.fig11"}
"""The policies at AAP-1 cross-checked, by the figure whose run they are: Drop-Tail and RED with max_p 0.05,
the two with a number of the paper (Fig. 6; 2.2: RED 0.05's results "are now comparable to those from
Drop-from-Front"). ns-3 has no drop-from-front queue disc; RED with max_p 0.02 has no number."""
EWA_READINGS = {"headline": "headline", "4.4BSD-Lite": "4.4BSD-Lite's increase and ACKs"}
"""The two TCPs cross-checked, by their keys in :data:`atmtcp.papers.ewa.section2.experiments.TCP_READINGS`: ewa's
headline since issue 36 (one segment per round trip, every segment acknowledged, 4.4BSD-Lite's ssthresh and recovery
exit) and 4.4BSD-Lite's increase and delayed ACKs (the headline before issue 36). The reading before the rule (also
goyal1998's ssthresh and recovery exit) is not cross-checked: ns-3 expresses neither of the two settings in which it
differs from the headline (ns-3's ssthresh is half the flight size, its window does not open on the ACK that ends
recovery), so its ns-3 runs would be the headline's again; ours differ from the headline's by at most 0.002 in L1's
utilization under Drop-Tail and 0.02 under RED max_p 0.05 (``ewa.tcp_sensitivity``, five seeds)."""
EWA_QUICK_S = 2.0


def ewa_point_run(point: dict, seed: int, quick: bool) -> m.Run:
    """The ten-connection run of ewa 2 of the point's policy (Fig. 5 or 11) under its TCP reading (quick:
    :data:`EWA_QUICK_S`)."""
    reading = TCP_READINGS[EWA_READINGS[point["tcp"]]]
    run = ten_connection_run(EWA_TARGETS[point["policy"]], seed, **reading)
    return replace(run, duration_s=EWA_QUICK_S) if quick else run


def _ewa_dataset(ends, per_source, drops, timeouts, fast_retransmits) -> xr.Dataset:
    phases = phase_numbers(ends, per_source)
    return xr.Dataset({
        "utilization_phase": ("phase", phases["utilization"], {"units": "1", "long_name": "L1's effective utilization"}),
        "share_ratio_last": ((), phases["ratio"][-1], {"units": "1", "long_name": "share ratio, 15-20 s"}),
        "fairness_phase": ("phase", phases["fairness"], {"units": "1", "long_name": "Jain's index of the phase"}),
        "drops_per_connection": ((), float(np.mean(drops)), {"units": "packet"}),
        "timeouts_per_connection": ((), float(np.mean(timeouts)), {"units": "1"}),
        "fast_retransmits_per_connection": ((), float(np.mean(fast_retransmits)), {"units": "1"}),
    }, coords={"phase": [name for name, _, _ in PHASES]})


def ewa_ours(run: m.Run, point: dict) -> xr.Dataset:
    """Our per-phase utilization, share ratio and fairness, and drops, timeouts and fast retransmits per
    connection, of the ewa 2 run."""
    from ..papers.ewa.section2.experiments import summarize_ten
    ds = summarize_ten(simulate(run), run)
    ends = ds.interval.values
    return _ewa_dataset(ends, ds.source_utilization.values, ds.packets_dropped.values, ds.timeouts.values,
                        ds.fast_retransmits.values)


def utilization_of(sample_time: np.ndarray, sent_bytes: np.ndarray, run: m.Run):
    """``(interval ends, per-source utilization)`` from cumulative payload samples every :data:`INTERVAL_S`,
    over the maximum TCP throughput of the VC (as :func:`atmtcp.papers.ewa.shared.measures.utilization`)."""
    l1 = {frozenset((k.a, k.b)): k for k in run.network.links}[frozenset(("AAP1", "ATM"))]
    capacity = max_tcp_throughput_bps(l1.rate_bps, run.connections[0].tcp.mss, run.aal5.overhead_bytes)
    return sample_time[1:], np.diff(sent_bytes, axis=0) * 8 / (capacity * INTERVAL_S)


def ewa_peer(run: m.Run, point: dict) -> xr.Dataset:
    """The same measures of the ewa 2 run from ns-3 (:func:`atmtcp.validation.ns3.from_internetwork`)."""
    from . import ns3, ns3_run
    spec = ns3.from_internetwork(run)
    out = ns3_run.run(replace(spec, sample_s=INTERVAL_S))
    ends, per_source = utilization_of(out["sample_time"], out["sent_bytes"], run)
    return _ewa_dataset(ends, per_source, out["drops"], out["timeouts"], out["fast_retransmits"])


EWA_SECTION2 = Scenario(
    "ewa_section2", "ewa", "ewa 2 (Figs. 5-6, 11-12): Drop-Tail and RED at AAP-1, ten connections, 10 -> 5 -> 2",
    {"policy": list(EWA_TARGETS), "tcp": list(EWA_READINGS)}, ewa_point_run, ewa_ours, ewa_peer,
    note="Drop-from-Front (Figs. 7-8) is left out: ns-3 has no drop-from-front queue disc; RED max_p 0.02 has no "
         "number of the paper. Every cell on both sides, seeds 0-9 (seed 0: every connection opens at t = 0, as in "
         "the paper; seeds 1-9 within 10 ms, the same start times on both sides); a 20 s ns-3 run costs about 18 s "
         "of CPU")


# --- ewa 4.2, TCP only -------------------------------------------------------------------------------------
SSTHRESH_KB = 512
SSTHRESH_CONNECTIONS = 2
SSTHRESH_DURATION_S, SSTHRESH_QUICK_S = 30.0, 4.0
"""30 s covers the paper's "approximately 20-30 seconds"; a run that has not reached full utilization by then
reports 30 s (read it as "30 s or more")."""


def ssthresh_point_run(point: dict, seed: int, quick: bool) -> m.Run:
    """ewa 4.2's network (:func:`atmtcp.papers.ewa.section4.scenario.long_ip_with_ssthresh`) with two
    connections opening at t = 0 (seed 0; later seeds within 10 ms), Drop-Tail instead of EWA."""
    s = long_ip_with_ssthresh(SSTHRESH_KB)
    n = SSTHRESH_CONNECTIONS
    hosts = range(n)
    port = RouterPort(buffer_bytes=s.buffer_bytes, policy=RouterPolicy("drop_tail"))
    net = ewa_network({1: tuple((f"S{h + 1}", s.ip_delays_s[h]) for h in hosts),
                       2: tuple((f"D{h + 1}", 0.0) for h in hosts)}, port, atm_delays_s=(s.atm_delay_s, 0.0, 0.0, 0.0))
    reading = TCP_READINGS[EWA_READINGS[point["tcp"]]]
    tcp = replace(ewa_tcp(s), **reading) if reading else ewa_tcp(s)
    starts = ewa_starts(n, seed)
    connections = tuple(m.Connection(f"S{h + 1}", f"D{h + 1}", tcp, starts[h]) for h in hosts)
    trace = m.TraceConfig(ports=("AAP1->ATM",), sample_interval_s=SAMPLE_S)
    duration = SSTHRESH_QUICK_S if quick else SSTHRESH_DURATION_S
    return m.Run(net, connections, duration, seed=seed, aal5=EWA_AAL5, trace=trace)


def _ssthresh_dataset(ends: np.ndarray, total: np.ndarray, duration: float) -> xr.Dataset:
    recovered = recovery_s(ends, total, (("run", 0.0, duration),))[0]
    return xr.Dataset({
        "full_utilization_s": ((), recovered, {"units": "s", "long_name": "time until L1 stays at >= 95 %"}),
        "utilization": ("interval", total, {"units": "1", "long_name": "L1's effective utilization per 250 ms"}),
    }, coords={"interval": ("interval", np.round(ends, 6), {"units": "s"})})


def ssthresh_ours(run: m.Run, point: dict) -> xr.Dataset:
    """Our time until L1 stays fully used, and L1's utilization per interval, of the ewa 4.2 run."""
    from ..papers.ewa.shared.measures import utilization
    ends, per_source = utilization(simulate(run))
    return _ssthresh_dataset(ends, per_source.sum(1), run.duration_s)


def ssthresh_peer(run: m.Run, point: dict) -> xr.Dataset:
    """The same measures of the ewa 4.2 run from ns-3."""
    from . import ns3, ns3_run
    out = ns3_run.run(replace(ns3.from_internetwork(run), sample_s=INTERVAL_S))
    ends, per_source = utilization_of(out["sample_time"], out["sent_bytes"], run)
    return _ssthresh_dataset(ends, per_source.sum(1), run.duration_s)


EWA_SSTHRESH = Scenario(
    "ewa_ssthresh", "ewa", "ewa 4.2: time to full utilization with ssthresh 512 KB, TCP only",
    {"tcp": list(EWA_READINGS)}, ssthresh_point_run, ssthresh_ours, ssthresh_peer,
    note="two connections opening together stand for the two left at t = 15 s; Drop-Tail instead of EWA; the "
         "seeds only move the starts within 10 ms (a 30 s run costs ns-3 about 50-80 s of CPU)")

SCENARIOS = {s.key: s for s in (GOYAL_UBR, GOYAL_SACK, EWA_SECTION2, EWA_SSTHRESH, GOYAL_YATS, CHEON_YATS)}
SEEDS, QUICK_SEEDS = tuple(range(10)), (0, 1)
"""Seeds per cell on each side (issue 37: 10), as the papers' own experiments."""


def run_point(key: str, point: dict, quick: bool) -> xr.Dataset:
    """One grid point (its ``side``, ``seed`` and the scenario's axes) simulated and reduced."""
    s = SCENARIOS[key]
    cell = {k: v for k, v in point.items() if k not in ("side", "seed")}
    run = s.run_of(cell, point["seed"], quick)
    return (s.ours if point["side"] == "atmtcp" else s.peer)(run, cell)


__all__ = ["SCENARIOS", "SIDES", "SEEDS", "QUICK_SEEDS", "run_point", "NETWORKS", "N_CONNECTIONS", "EWA_POLICIES"]
