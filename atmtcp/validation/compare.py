"""The validation table: per scenario and metric, the paper's value, ours and the peer's (mean and 90 %
interval over the seeds, :mod:`atmtcp.statistics`), what the peer could not express, and a verdict.

The verdict (:func:`verdict`) compares three numbers two by two with the metric's tolerance
(:data:`TOLERANCES`): two simulators *agree* when their means differ by at most the tolerance; a simulator
agrees with the paper when its mean is within the tolerance of the paper's value (of its range, where the
paper gives one, e.g. "20-30 seconds") or the paper's value lies inside its 90 % interval (the paper ran one
simulation: one draw of the distribution our seeds sample).

``python -m atmtcp.validation.compare --results-dir data/results --figures-dir figures`` writes
``figures/validation/validation.csv`` and ``.md`` and one figure per scenario (``make validate``);
``--carry-over <earlier validation.csv>`` keeps the rows of the scenarios without a result (YATS not built).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .. import netcdf_files
from ..reference import load_reference
from ..statistics import interval
from .experiments import target
from .scenarios import SCENARIOS

TOLERANCES = {
    "efficiency": ("absolute", 0.05), "fairness": ("absolute", 0.05), "utilization": ("absolute", 0.05),
    "difference": ("absolute", 0.05), "count": ("relative", 0.25), "ratio": ("relative", 0.25),
    "seconds": ("relative", 0.25),
}
"""Per kind of metric: how far apart two numbers may be and still agree. Fractions (efficiency, fairness,
utilization and their differences): 0.05 absolute, the project's two printed decimals rounded up to what a
reader of a table would call the same. Counts, ratios and times: 25 % of the larger magnitude."""
PEER = "ns-3"
VERDICTS = ("all three agree", "peer agrees with us", "peer agrees with the paper",
            "we agree with the paper, the peer differs", "all differ", "peer agrees with us (no paper value)",
            "peer differs from us (no paper value)")


def close(a: float, b: float, kind: str) -> bool:
    """Whether ``a`` and ``b`` agree within the tolerance of ``kind`` (:data:`TOLERANCES`)."""
    how, tol = TOLERANCES[kind]
    if not (np.isfinite(a) and np.isfinite(b)):
        return False
    limit = tol if how == "absolute" else tol * max(abs(a), abs(b))
    return abs(a - b) <= limit + 1e-12


def with_paper(paper: tuple[float, float], mean: float, low: float, high: float, kind: str) -> bool:
    """Whether a simulator (mean, 90 % interval) agrees with the paper's value or range ``paper``."""
    lo, hi = paper
    nearest = min(max(mean, lo), hi)
    return close(mean, nearest, kind) or (low <= hi and lo <= high)


def verdict(paper, ours: tuple[float, float, float], peer: tuple[float, float, float], kind: str) -> str:
    """One of :data:`VERDICTS` for the paper's ``(low, high)`` (``None``: no value) and each simulator's
    ``(mean, low, high)``."""
    agree = close(ours[0], peer[0], kind)
    if paper is None:
        return VERDICTS[5] if agree else VERDICTS[6]
    ours_paper, peer_paper = with_paper(paper, *ours, kind), with_paper(paper, *peer, kind)
    if agree and ours_paper and peer_paper:
        return VERDICTS[0]
    if agree:
        return VERDICTS[1]
    if peer_paper:
        return VERDICTS[2]
    if ours_paper:
        return VERDICTS[3]
    return VERDICTS[4]


def summary(values) -> tuple[float, float, float]:
    """Mean and 90 % interval of the per-seed values (NaN-safe)."""
    values = np.asarray(values, dtype=float).ravel()
    low, high = interval(values)
    return float(np.nanmean(values)), low, high


# --- the paper's numbers ----------------------------------------------------------------------------------
GOYAL_TABLES = {("vanilla", "efficiency"): "goyal1998.table1", ("vanilla", "fairness"): "goyal1998.table2",
                ("reno", "efficiency"): "goyal1998.table4", ("reno", "fairness"): "goyal1998.table5",
                ("sack", "efficiency"): "goyal1998.table6"}


def goyal_paper(network: str, tcp: str, sources: int, buffer: int, policy: str, metric: str) -> float | None:
    """goyal1998's value of ``metric`` in the table cell (network, TCP, sources, buffer, policy); None if the
    paper has none."""
    ref = load_reference("goyal1998")
    rows = ref[(ref.target == GOYAL_TABLES.get((tcp, metric))) & (ref.network == network) & (ref.sources == sources)
               & (ref.buffer == buffer) & (ref.policy == policy) & (ref.metric == metric)]
    return float(rows.value.iloc[0]) if len(rows) else None


def goyal_lan_average(tcp: str, policy: str) -> float:
    """goyal1998 Table 8's LAN column average of ``tcp`` under ``policy``."""
    ref = load_reference("goyal1998")
    rows = ref[(ref.target == "goyal1998.table8") & (ref.network == "lan") & (ref.tcp == tcp) & (ref.policy == policy)]
    return float(rows.value.iloc[0])


def ewa_paper(policy: str, phase: str) -> tuple[float | None, str]:
    """ewa 2's utilization of a phase: Fig. 6 for Drop-Tail; for RED max_p 0.05, 2.2's "the results are now
    comparable to those from Drop-from-Front" (Fig. 8's numbers); none for max_p 0.02."""
    figure = {"drop_tail": ("ewa.fig6", "drop_tail"), "red_0.05": ("ewa.fig8", "drop_from_front")}.get(policy)
    if figure is None:
        return None, ""
    ref = load_reference("ewa")
    rows = ref[(ref.target == figure[0]) & (ref.policy == figure[1]) & (ref.phase == phase)
               & (ref.metric == "l1_utilization")]
    text = "Fig. 6" if policy == "drop_tail" else "2.2: 'comparable to Drop-from-Front' (Fig. 8)"
    return float(rows.value.iloc[0]), text


def ssthresh_paper() -> tuple[float, float]:
    """ewa 4.2's time to full utilization with ssthresh 512 KB as ``(low, high)`` seconds ("approximately
    20-30 seconds")."""
    ref = load_reference("ewa")
    row = ref[(ref.target == "ewa.ssthresh_study") & (ref.metric == "recovery_s")].iloc[0]
    low, high = (float(x) for x in str(row.paper_text).split()[1].split("-"))
    return low, high


# --- the rows ---------------------------------------------------------------------------------------------
SHORT_LAN = ("our LAN runs lose their first 0.3 s: the slow-start overshoot of the synchronized start ends in a "
             "timeout on the 100 ms tick (RTO two ticks, fired at 0.3 s), 30 % of a 1 s run (our 10 s runs of "
             "goyal1998's tables give 0.88-0.97 with EPD); ns-3 recovers the same overshoot without a timeout")
TICK_PHASE = ("the TCP clocks' phase, which YATS draws per host (its seed) and ours sets to 0 for every host "
              "(TcpConfig.tick_phase_s): our hosts' 100 ms ticks fall together, so their retransmission timeouts "
              "fire on the same tick, the sources restart in step and the link idles. ")
LAN_VANILLA = (
    "not isolated. The TCP clocks' phase moves ours most (see the Reno rows): with a random phase per host ours "
    "gives efficiency 0.54, 0.64, 0.56, 0.67 (N=5 UBR, N=5 EPD, N=15 UBR, N=15 EPD; means of seeds 0-2, by hand; "
    "with the common phase 0.23, 0.35, 0.25, 0.39), now above YATS's 0.17, 0.42, 0.32, 0.58, and fairness 0.84, "
    "0.99, 0.77, 0.84 (YATS 0.72, 0.87, 0.67, 0.81); a minimum RTO of 5 ticks (YATS's 0.4-0.6 s) on top leaves the "
    "efficiency at 0.51, 0.71, 0.62, 0.58. A YATS source times out about 22 times in 10 s, every 0.45 s: nearly "
    "every loss costs it a whole RTO, by a mechanism of its vanilla TCP not yet found")
WAN_VANILLA = (
    "not isolated: in ours one source of a run now and then times out once more than the others (seed 0: 4 "
    "timeouts against 3, 22.8 MB against 62-67 MB), with ssthresh at two segments it crawls back in congestion "
    "avoidance for the rest of the 20 s; YATS's sources time out alike (3 each) and share to 0.999, with almost no "
    "spread over seeds. Mechanisms that differ there: YATS forgets the timer's backoff on the first new ACK (ours "
    "keeps it until a new RTT sample, as 4.4BSD) and its RTO runs continuously (0.4-0.6 s; ours 0.2-0.3 s on the tick)")
NS3_LOOP = (
    "a loop of ns-3's TCP (no SACK) that ours lacks: a connection caught in it enters fast recovery every 21 ms (two round "
    "trips) without any drop at the bottleneck and does not leave the loop: with L1 to itself it sends a tenth of L1. Checked by hand "
    "on seed 2: connections 1, 2 and 4 carry 0.05-0.08 of L1 each from 9 to 15 s (connections 3 and 5: 0.13-0.59), then "
    "1 and 2, the two left, 0.103 each from 15.25 s to the end with AAP-1's queue empty, their congestion state changing "
    "2772 times between 14.5 and 20 s (open, disorder, recovery, every 21 ms). Where both connections left after 15 s are caught (seeds 2, 3, 6, 8 of 0-9), L1 falls to "
    "0.21 after 15 s; where one is (seeds 4, 5, 7), the other fills L1 (share ratio 10); in seed 8 all five connections "
    "open from 10 to 15 s are caught (L1 at 0.52 there). Where the duplicate ACKs come from without a drop inside ns-3 "
    "is not isolated")
CHEON_500 = (
    "the congestion-avoidance increase, which YATS lacks: cheon 4.1.2's cwnd + mss^2/cwnd + mss/8 per ACK (ours, as "
    "the paper states it) against YATS's mss^2/cwnd. With 500-byte packets a 64 KB window is 131 segments and + mss/8 "
    "grows it by up to 17 segments per round trip: the overshoot loses many segments per window and Reno times out "
    "(seed 0, symmetric, 3 s: ours 6-8 timeouts per session under EPD, YATS 1-3). Checked by hand, ours with YATS's "
    "increase (means of seeds 0-2): symmetric EPD 75,231 packets (YATS 75,915), RCD 63,771 (YATS 55,776); "
    "asymmetric EPD 241,244 (YATS 213,301), RCD 206,636 (YATS 191,576), timeouts 1.3-3.1 per session (ours as run "
    "6.6-9.7). With 1500-byte packets (43 segments) the increase matters less and all three agree. Ruled out before "
    "(ours, seeds 0-2): delayed ACKs (ours acknowledging every segment, as YATS, falls further: RCD 32,678, EPD "
    "48,519), EPD's capture of the VC by a dropped EOM (55,616, unchanged), the common phase of the TCP clocks "
    "(55,414), and in YATS an unbounded IP queue at the sources (tcpipsend's oqwm, as ours: 75,878)")
CAUSES = (
    ("goyal_ubr", "lan", "efficiency", "cell-level tail drop, which ns-3 lacks: our damaged packets still cross the "
     "bottleneck (goyal1998 4's wasted bandwidth), ns-3 drops whole packets like EPD; and " + SHORT_LAN),
    ("goyal_ubr", "lan", "fairness", "cell-level tail drop (see efficiency); ns-3's identical sources stay "
     "deterministic up to a permutation, so its seeds have no spread"),
    ("goyal_ubr", "wan reno", "", "the first slow start of 600 KB windows overshoots the 12000-cell buffer by "
     "thousands of packets (2100 drops in ns-3's 15-source run); ns-3's recovery repairs one lost segment per "
     "30 ms round trip (New Reno's partial ACKs), longer than the 3 s run, where our Reno leaves recovery, times "
     "out and goes back N. With vanilla TCP (timeouts only) the two simulators agree"),
    ("goyal_ubr", "wan vanilla", "fairness", "cell-level tail drop, which ns-3 lacks (it drops whole packets); "
     "the 3 s runs are the first slow start and a few timeout cycles"),
    ("goyal_ubr", "wan vanilla", "efficiency", "both simulators: the 3 s runs (the paper's 20 s) are the first "
     "slow start's overshoot and a few timeout cycles"),
    ("goyal_sack", "", "SACK - Reno", "both simulators: SACK does at least as well as Reno in the LAN (ns-3's SACK "
     "is RFC 6675's, ours goyal1998 5.4.1's PIPE); the paper's SACK below Reno is reproduced by neither"),
    ("goyal_sack", "", "efficiency", SHORT_LAN),
    ("ewa_section2", "drop_tail, TCP 4.4BSD-Lite", "fairness", "not checked. After 15 s ours is the less fair (share "
     "ratio 3.8): 4.4BSD-Lite's TCP in ours times out 17 times per connection (Reno's recovery, see the utilization), "
     "and the connection that leaves its timeouts with the larger window takes the link, as ewa 2 describes Fig. 5's "
     "last phase (\"at the cost of degraded fairness\"); before 10 s ns-3's is the less fair, with 47-103 fast "
     "retransmits per connection: the loop of the headline's rows, in part, is likely"),
    ("ewa_section2", "drop_tail, TCP 4.4BSD-Lite", "", "Reno's recovery, which ns-3 lacks: multiple drops per window "
     "end it in a timeout (17 per connection against ns-3's 2). Checked by hand on seed 1: our kernel with New "
     "Reno instead of Reno gives 0.99, 1.00, 0.98 and no timeout, ns-3's numbers"),
    ("ewa_section2", "drop_tail, TCP headline", "L1 utilization 1", NS3_LOOP),   # 10-15 s and 15-20 s
    ("ewa_section2", "drop_tail, TCP headline", "fairness", NS3_LOOP + ". ewa 2 says of Fig. 5 that \"all connections "
     "make fair progress during the first 10 seconds\", as ours do"),
    ("ewa_section2", "drop_tail, TCP headline", "share ratio", NS3_LOOP),
    ("ewa_section2", "drop_tail, TCP headline", "fast retransmits", NS3_LOOP),
    ("ewa_section2", "red_0.05, TCP headline", "", "Reno's recovery, which ns-3 lacks (its TCP stays in recovery over "
     "partial ACKs, as New Reno does): RED's drops come in bursts, and several drops in one window end ours in a "
     "timeout (15 per connection against ns-3's 3). Checked by hand on seeds 0 and 1: our kernel with New Reno's "
     "recovery instead of Reno's gives 0.82 and 0.80, 0.85 and 0.86, 0.84 and 0.84 with 7.5 and 9.6 timeouts per "
     "connection, ns-3's numbers after 10 s (0.87, 0.84); what is left before 10 s (0.81 against ns-3's 0.90) is "
     "not isolated"),
    ("ewa_section2", "red_0.05, TCP 4.4BSD-Lite", "", "two mechanisms of 4.4BSD-Lite's TCP (ewa's headline until issue 36) that ns-3 lacks: Reno's "
     "recovery and 4.4BSD's + mss/8 per ACK, whose faster growth keeps RED's average above max_th (forced drops "
     "in bursts, 26 timeouts per connection). Checked by hand on seed 1: our kernel with New Reno and without "
     "+ mss/8 gives 0.89, 0.91, 0.85, 2 timeouts and 86 drops per connection, ns-3's numbers (ten seeds: 0.92, 0.90, "
     "0.84; 1.6 and 72): no difference of RED itself"),
    ("ewa_ssthresh", "4.4BSD-Lite", "time to full utilization", "4.4BSD's + mss/8 per ACK grows cwnd by about cwnd/16 "
     "per round trip above ssthresh (+22 segments at 512 KB), so 4.4BSD-Lite's TCP (ewa's headline until issue 36) fills the pipe in 2.5 s; ns-3 "
     "(no mss/8, an ACK every second segment) grows half a segment per round trip and has not filled it at 30 s "
     "(30 reads '30 s or more')"),
    ("ewa_ssthresh", "headline", "time to full utilization", "both simulators need about 20 s at one "
     "segment per round trip, as the paper says: its 20-30 s is what a TCP without 4.4BSD's + mss/8 needs"),
    ("goyal_yats", "N=5 1000 cells EPD", "efficiency", TICK_PHASE + "Checked by hand on seeds 0-2: ours with a random "
     "phase per host gives 0.967, 0.947, 0.948 (with the common phase 0.889, 0.905, 0.950), YATS's 0.956"),
    ("goyal_yats", "N=15 1000 cells UBR", "", TICK_PHASE + "Checked by hand on seeds 0-2: ours with a random phase per "
     "host gives efficiency 0.80, 0.83, 0.82 and fairness 0.85, 0.89, 0.79 (with the common phase 0.56, 0.62, 0.53 "
     "and 0.54, 0.63, 0.20), YATS's 0.75 and 0.86; the paper's 0.42 and 0.26 are nearer the synchronized clocks"),
    ("goyal_yats", "N=5 1000 cells UBR", "fairness", TICK_PHASE + "Checked by hand on seeds 0-2: ours with a random "
     "phase per host gives fairness 0.93, 0.87, 0.96 (YATS 0.90), but efficiency 0.74, 0.69, 0.67, above YATS's "
     "0.56 (where the two agree with the common phase): YATS's longer RTO (0.4-0.6 s against 0.2-0.3 s) and its one "
     "slot of host processing are not ruled out there"),
    ("goyal_yats", "lan vanilla N=5 1000 cells UBR", "efficiency", LAN_VANILLA),
    ("goyal_yats", "lan vanilla N=5 1000 cells EPD", "fairness", LAN_VANILLA),
    ("goyal_yats", "lan vanilla N=15", "", LAN_VANILLA),
    ("goyal_yats", "wan vanilla N=5 12000 cells UBR", "fairness", WAN_VANILLA),
    ("goyal_yats", "wan vanilla N=15 12000 cells UBR", "fairness", WAN_VANILLA),
    ("cheon_yats", "table1", "effective throughput", CHEON_500),
    ("cheon_yats", "table2 RCD", "effective throughput", CHEON_500),
    ("ewa_ssthresh", "4.4BSD-Lite", "stays full", "4.4BSD-Lite's TCP (ewa's headline until issue 36) overshoots the 2 MB buffer after 2.5 s, loses many "
     "segments per window and times out with ssthresh at two segments: L1 is nearly idle for about 10 s before it "
     "refills; its 26 s matches the paper's number for another reason than the paper's"),
)
"""(scenario, part of the cell, part of the metric, what we found behind the disagreement between the peer and
us): the investigation of each scenario (docs/validation.md). The first match names a row's cause."""


def cause_of(key: str, cell: str, metric: str) -> str:
    """The first :data:`CAUSES` entry matching the row, or ``""``."""
    return next((text for k, c, mt, text in CAUSES if k == key and c in cell and mt in metric), "")


def unmatched(key: str, cell: dict) -> str:
    """What the peer could not express for this cell: the translation's own list (:mod:`atmtcp.validation.ns3`,
    :mod:`atmtcp.validation.yats`)."""
    from . import ns3, yats
    from ..internetwork import Internetwork
    s = SCENARIOS[key]
    run = s.run_of({k: v for k, v in cell.items()}, 0, False)
    if s.peer_name == yats.NAME:
        from .yats_parking_lot import from_parking_lot
        return "; ".join((from_parking_lot(run) if s.paper == "cheon" else yats.from_n_source(run)).unmatched)
    spec = ns3.from_internetwork(run) if isinstance(run.network, Internetwork) else ns3.from_n_source(run)
    return "; ".join(spec.unmatched)


def row(key: str, cell: str, metric: str, kind: str, paper, paper_source: str, ours, peer, not_matched: str,
        peer_version: str) -> dict:
    """One table row (``paper``: ``None`` or the paper's ``(low, high)``; ``ours``, ``peer``: per-seed values)."""
    o, p = summary(ours), summary(peer)
    seeds = lambda v: int(np.isfinite(np.asarray(v, dtype=float)).sum())  # noqa: E731
    width = lambda s: s[2] - s[1]  # noqa: E731
    return {"scenario": key, "cell": cell, "metric": metric,
            "paper": np.nan if paper is None else (round(paper[0], 6) if paper[0] == paper[1] else f"{paper[0]:g}-{paper[1]:g}"),
            "paper_source": paper_source,
            "ours_mean": o[0], "ours_low": o[1], "ours_high": o[2],
            "peer_mean": p[0], "peer_low": p[1], "peer_high": p[2],
            "ours_seeds": seeds(ours), "peer_seeds": seeds(peer),
            "spread_ratio": width(p) / width(o) if width(o) > 0 else np.nan,
            "peer": peer_version, "tolerance": f"{TOLERANCES[kind][1]:g} {TOLERANCES[kind][0]}",
            "verdict": verdict(paper, o, p, kind), "not_matched": not_matched,
            "cause": cause_of(key, cell, metric)}


def _seeds(da: xr.DataArray) -> np.ndarray:
    return da.values.ravel()


def goyal_table_rows(key: str, ds: xr.Dataset, version: str) -> list[dict]:
    """Efficiency and fairness per cell of a goyal1998 table scenario (``goyal_ubr``: UBR only; ``goyal_yats``:
    its ``policy`` axis), against the paper's Tables 1, 2, 4, 5."""
    s, rows = SCENARIOS[key], []
    policies = [str(p) for p in ds.policy.values] if "policy" in ds.dims else ["ubr"]
    for network in ds.network.values:
        for tcp in ds.tcp.values:
            for n in ds.sources.values:
                for policy in policies:
                    cell = {"network": str(network), "tcp": str(tcp), "sources": int(n), "buffer_factor": 1}
                    at = dict(cell, **({"policy": policy} if "policy" in ds.dims else {}))
                    buffer = int(s.run_of(at, 0, False).network.switch_port.buffer_cells)
                    lacks = unmatched(key, at)
                    for metric in ("efficiency", "fairness"):
                        value = goyal_paper(str(network), str(tcp), int(n), buffer, policy, metric)
                        sel = ds[metric].sel(**at)
                        rows.append(row(key, f"{network} {tcp} N={n} {buffer} cells {policy.upper()}", metric, metric,
                                        None if value is None else (value, value), "goyal1998 Table "
                                        f"{GOYAL_TABLES[(str(tcp), metric)].split('table')[1]}",
                                        _seeds(sel.sel(side="atmtcp")), _seeds(sel.sel(side=s.peer_name)), lacks,
                                        version))
    return rows


def goyal_ubr_rows(ds: xr.Dataset, version: str) -> list[dict]:
    """The table rows of ``goyal_ubr`` (:func:`goyal_table_rows`)."""
    return goyal_table_rows("goyal_ubr", ds, version)


def goyal_yats_rows(ds: xr.Dataset, version: str) -> list[dict]:
    """The table rows of ``goyal_yats`` (:func:`goyal_table_rows`)."""
    return goyal_table_rows("goyal_yats", ds, version)


def goyal_sack_rows(ds: xr.Dataset, version: str) -> list[dict]:
    """The table rows of ``goyal_sack``: LAN efficiency of Reno and SACK and their difference, averaged over
    the four rows as Table 8 does, ours per policy against ns-3's FIFO."""
    rows = []
    eff = ds.efficiency.sel(network="lan").mean(["sources", "buffer_factor"])
    peer = eff.sel(side=PEER, policy="ubr")
    lacks = unmatched("goyal_sack", {"network": "lan", "tcp": "reno", "sources": 5, "buffer_factor": 1,
                                     "policy": "ubr"})
    for policy in ("ubr", "epd"):
        ours = eff.sel(side="atmtcp", policy=policy)
        label = f"LAN, 4 rows, ours {policy.upper()}, ns-3 FIFO (whole packets)"
        for tcp in ("reno", "sack"):
            value = goyal_lan_average(tcp, policy)
            rows.append(row("goyal_sack", label, f"efficiency, {tcp}", "efficiency", (value, value), "goyal1998 Table 8",
                            _seeds(ours.sel(tcp=tcp)), _seeds(peer.sel(tcp=tcp)), lacks, version))
        diff = goyal_lan_average("sack", policy) - goyal_lan_average("reno", policy)
        rows.append(row("goyal_sack", label, "efficiency, SACK - Reno", "difference", (diff, diff), "goyal1998 Table 8",
                        _seeds(ours.sel(tcp="sack") - ours.sel(tcp="reno")),
                        _seeds(peer.sel(tcp="sack") - peer.sel(tcp="reno")), lacks, version))
    return rows


CHEON_GROUPS = {"table1": (("all", "effective_throughput"),),
                "table3": (("all", "effective_throughput"),),
                "table2": (("long", "effective_throughput_1_5"), ("short", "effective_throughput_6_10"),
                           ("all", "effective_throughput")),
                "table4": (("long", "effective_throughput_1_5"), ("short", "effective_throughput_6_10"),
                           ("all", "effective_throughput"))}
"""Per table, the paper's groups of sessions with a row of effective throughput (``group`` of cheon.csv) and our
variable of it: Tables 2 and 4 (asymmetric) give sessions 1-5 (long round trip), 6-10 and their sum."""


def cheon_paper(table: str, policy: str, group: str, metric: str) -> float | None:
    """cheon's value of ``metric`` (``effective_throughput``, ``fairness_index``) in a table's column."""
    ref = load_reference("cheon")
    rows = ref[(ref.target == f"cheon.{table}") & (ref.policy == policy) & (ref.metric == metric)]
    if metric == "effective_throughput":
        rows = rows[rows.group == group]
    return float(rows.value.iloc[0]) if len(rows) else None


def cheon_yats_rows(ds: xr.Dataset, version: str) -> list[dict]:
    """The table rows of ``cheon_yats``: effective throughput per group of sessions and the fairness index, per
    table and policy, against cheon Tables 1-4."""
    rows = []
    for table in ds.table.values:
        for policy in ds.policy.values:
            cell = {"table": str(table), "policy": str(policy)}
            lacks = unmatched("cheon_yats", cell)
            sel = ds.sel(**cell)
            label = f"{table} {str(policy).upper()}"
            source = f"cheon Table {str(table)[5:]}"
            metrics = [(f"effective throughput, {group} (packets)", var, "count", cheon_paper(str(table), str(policy),
                        group, "effective_throughput")) for group, var in CHEON_GROUPS[str(table)]]
            metrics.append(("fairness", "fairness", "fairness", cheon_paper(str(table), str(policy), "", "fairness_index")))
            for metric, var, kind, value in metrics:
                v = sel[var]
                rows.append(row("cheon_yats", label, metric, kind, None if value is None else (value, value), source,
                                _seeds(v.sel(side="atmtcp")), _seeds(v.sel(side="YATS")), lacks, version))
    return rows


def ewa_section2_rows(ds: xr.Dataset, version: str) -> list[dict]:
    """The table rows of ``ewa_section2``: L1's utilization per phase against ewa Fig. 6 (or 8), and the other
    measures of the ten-connection run, per policy and TCP the peer runs."""
    rows = []
    for policy in ds.policy.values:
        for tcp in ds.tcp.values:
            cell = {"policy": str(policy), "tcp": str(tcp)}
            if not np.isfinite(ds.utilization_phase.sel(policy=policy, tcp=tcp, side=PEER)).any():
                continue   # a cell the peer does not run (SCENARIOS["ewa_section2"].peer_skips)
            lacks = unmatched("ewa_section2", cell)
            label = f"{policy}, TCP {tcp}"
            sel = ds.sel(policy=policy, tcp=tcp)
            for phase in ds.phase.values:
                value, source = ewa_paper(str(policy), str(phase))
                u = sel.utilization_phase.sel(phase=phase)
                rows.append(row("ewa_section2", label, f"L1 utilization {phase}", "utilization",
                                None if value is None else (value, value), source,
                                _seeds(u.sel(side="atmtcp")), _seeds(u.sel(side=PEER)), lacks, version))
            for phase in ds.phase.values:   # Jain's index of the phase: no number of the paper (its Figs. 5, 11 are drawn)
                f = sel.fairness_phase.sel(phase=phase)
                rows.append(row("ewa_section2", label, f"fairness {phase}", "fairness", None, "",
                                _seeds(f.sel(side="atmtcp")), _seeds(f.sel(side=PEER)), lacks, version))
            for name, metric, kind in (("share_ratio_last", "share ratio 15-20 s", "ratio"),
                                       ("drops_per_connection", "drops per connection", "count"),
                                       ("timeouts_per_connection", "timeouts per connection", "count"),
                                       ("fast_retransmits_per_connection", "fast retransmits per connection", "count")):
                v = sel[name]
                rows.append(row("ewa_section2", label, metric, kind, None, "", _seeds(v.sel(side="atmtcp")),
                                _seeds(v.sel(side=PEER)), lacks, version))
    return rows


FULL = 0.95
"""L1 counts as fully used from a 250 ms interval at this utilization on (the recovery of ewa 4's figures)."""


def first_full_s(utilization: xr.DataArray) -> xr.DataArray:
    """The end of the first 250 ms interval at :data:`FULL` or more (the run's length if none), per seed: ewa 4.2's "before
    it was able to achieve 100% utilization". Without EWA the two windows then overshoot the pipe and the
    buffer and lose packets, so the time from which L1 *stays* full (``full_utilization_s``) also counts how
    long Drop-Tail's losses take to settle."""
    ends = utilization.interval
    first = ends.where(utilization >= FULL).min("interval")
    ran = utilization.notnull().any("interval")
    return first.where(~(ran & first.isnull()), float(ends.max()))   # never: the run's length ("or more")


def ewa_ssthresh_rows(ds: xr.Dataset, version: str) -> list[dict]:
    """The table rows of ``ewa_ssthresh``: the first time L1 is fully used and the time from which it stays
    so, against ewa 4.2's 20-30 s, per TCP reading."""
    rows = []
    for tcp in ds.tcp.values:
        cell = f"2 connections, ssthresh 512 KB, Drop-Tail 2 MB, TCP {tcp}"
        lacks = unmatched("ewa_ssthresh", {"tcp": str(tcp)})
        first = first_full_s(ds.utilization.sel(tcp=tcp))
        stays = ds.full_utilization_s.sel(tcp=tcp)
        for metric, v in (("time to full utilization (s)", first), ("time until L1 stays full (s)", stays)):
            rows.append(row("ewa_ssthresh", cell, metric, "seconds", ssthresh_paper(), "ewa 4.2 ('approximately "
                            "20-30 seconds')", _seeds(v.sel(side="atmtcp")), _seeds(v.sel(side=PEER)), lacks, version))
    return rows


ROWS = {"goyal_ubr": goyal_ubr_rows, "goyal_sack": goyal_sack_rows, "ewa_section2": ewa_section2_rows,
        "ewa_ssthresh": ewa_ssthresh_rows, "goyal_yats": goyal_yats_rows, "cheon_yats": cheon_yats_rows}


def table(datasets: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Every row of every scenario present in ``datasets`` (scenario key -> its stacked Dataset)."""
    rows = []
    for key, ds in datasets.items():
        rows += ROWS[key](ds, ds.attrs.get("peer_version", PEER))
    return pd.DataFrame(rows)


# --- the outputs ------------------------------------------------------------------------------------------
def figure(rows: pd.DataFrame, title: str):
    """One panel per metric: for each cell the paper's value (black), ours and the peer's (mean, 90 %
    interval over the seeds)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = list(dict.fromkeys(rows.metric))
    fig, axes = plt.subplots(len(metrics), 1, figsize=(10, 2.4 * len(metrics) + 0.6), squeeze=False)
    for ax, metric in zip(axes[:, 0], metrics):
        part = rows[rows.metric == metric].reset_index(drop=True)
        x = np.arange(len(part))
        for offset, side, color in ((-0.12, "ours", "tab:blue"), (0.12, "peer", "tab:orange")):
            mean = part[f"{side}_mean"].to_numpy(float)
            err = np.abs(np.vstack([mean - part[f"{side}_low"].to_numpy(float),
                                    part[f"{side}_high"].to_numpy(float) - mean]))
            ax.errorbar(x + offset, mean, yerr=np.nan_to_num(err), fmt="o", color=color, capsize=3,
                        label="atmtcp" if side == "ours" else part.peer.iloc[0])
        paper = pd.to_numeric(part.paper, errors="coerce")
        ranged = part.paper.astype(str).str.contains("-", regex=False) & paper.isna()
        ax.plot(x, paper, "kx", markersize=9, label="paper")
        for i in np.where(ranged)[0]:
            low, high = (float(v) for v in str(part.paper[i]).split("-"))
            ax.vlines(x[i], low, high, color="k", linewidth=3)
        ax.set_xticks(x, part.cell, rotation=20, ha="right", fontsize=7)
        ax.set_ylabel(metric, fontsize=8)
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=8, loc="best")
    axes[0, 0].set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def load(results_dir: Path) -> dict[str, xr.Dataset]:
    """The validation results present in ``results_dir`` (scenario key -> Dataset)."""
    found = {}
    for key in SCENARIOS:
        path = Path(results_dir) / f"{target(key)}.nc"
        if path.exists():
            found[key] = netcdf_files.read(path)
    return found


def _number_or_text(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def carried_rows(path: Path | None, present) -> pd.DataFrame:
    """The rows of ``path`` (an earlier validation.csv) of the scenarios with no result in ``present``: a
    peer that is not installed (YATS without a prefix) or a scenario not re-run keeps its last rows."""
    if path is None or not Path(path).exists():
        return pd.DataFrame()
    old = pd.read_csv(path, keep_default_na=False, na_values=[""])
    kept = old[old.scenario.isin(SCENARIOS) & ~old.scenario.isin(list(present))].copy()
    if "paper" in kept:   # a number as a number (the .md prints it with two decimals), a range ("20-30") as text
        kept["paper"] = kept.paper.map(_number_or_text)
    for key in kept.scenario.unique():
        print(f"{key}: no result; its {int((kept.scenario == key).sum())} rows are carried over from {path}")
    return kept


def write(results_dir: Path, figures_dir: Path, quick: bool = False, carry_over: Path | None = None) -> pd.DataFrame:
    """``<figures_dir>/validation/validation.csv`` and ``.md``, and ``validation.<scenario>.png`` per scenario with a
    result; the rows of a scenario without one come from ``carry_over`` (:func:`carried_rows`), its figure stays."""
    from ..figures import markdown_lines, save_figure, write_csv, QUICK_STAMP
    datasets = load(results_dir)
    frame = pd.concat([table(datasets), carried_rows(carry_over, datasets)], ignore_index=True)
    order = {key: i for i, key in enumerate(SCENARIOS)}
    frame = frame.sort_values("scenario", key=lambda c: c.map(order), kind="stable").reset_index(drop=True)
    folder = Path(figures_dir) / "validation"
    folder.mkdir(parents=True, exist_ok=True)
    write_csv(frame, folder / "validation.csv", index=False)
    shown = frame[["scenario", "cell", "metric", "paper", "ours_mean", "ours_low", "ours_high", "peer", "peer_mean",
                   "peer_low", "peer_high", "peer_seeds", "spread_ratio", "verdict"]].round(3).set_index(["scenario", "cell"])
    lines = markdown_lines(shown)
    (folder / "validation.md").write_text("\n".join(([f"**{QUICK_STAMP}**", ""] if quick else []) + lines) + "\n")
    for key in datasets:   # a carried-over scenario keeps its figure
        fig = figure(frame[frame.scenario == key], SCENARIOS[key].title)
        save_figure(fig, figures_dir, f"validation.{key}", quick)
    return frame


def main(argv=None) -> None:
    """``python -m atmtcp.validation.compare``: write the validation table and figures; print the verdicts'
    counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results-dir", default="data/results")
    parser.add_argument("--figures-dir", default="figures")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--carry-over", type=Path, default=None,
                        help="an earlier validation.csv: the rows of the scenarios without a result are kept")
    args = parser.parse_args(argv)
    frame = write(Path(args.results_dir), Path(args.figures_dir), args.quick, args.carry_over)
    print(frame.verdict.value_counts().to_string())


if __name__ == "__main__":
    main()
