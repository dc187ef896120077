"""ewa, section 2: the targets ``ewa.fig2`` ... ``ewa.fig12``, and three
studies of our own.

- Figs. 2-4: connections 1, 2b and 3b on three VCs with per-VC queues at AAP-1 (``three_vc_point``):
  sequence numbers and windows every millisecond, the average throughput of each connection.
- Figs. 5-12: ten connections on one VC, 10 -> 5 -> 2 open, under Drop-Tail (5, 6),
  Drop-from-Front (7, 8) and RED with max_p 0.02 (9, 10) and 0.05 (11, 12)
  (``ten_connection_point``): L1's utilization per 250 ms and per phase, each connection's share,
  sequence numbers and windows every 10 ms, AAP-1's buffer every 5 ms, packets dropped.
  The even figures (utilization) are the same runs as the odd ones (sequence numbers).
- ``ewa.tcp_sensitivity`` (not a figure of the paper): the four policies of Figs. 5-12 under the
  other readings of the TCP settings (:data:`TCP_READINGS`: 4.4BSD-Lite's increase, delayed ACKs, goyal1998's
  ssthresh and recovery exit, 4.4BSD-Lite's increase and ACKs together, the reading before the rule), five seeds.
- ``ewa.two_way_study`` (not a figure of the paper): the four policies with ten more connections the
  other way, under both readings of the TCP (:data:`TWO_WAY_READINGS`): what two-way traffic does to
  the ACK clock and the loss regime.
- ``ewa.red_study`` (not a figure of the paper): Figs. 9-12's RED with the settings neither ewa nor the
  RED paper fixes for this network (:data:`RED_VARIANTS`), under both readings of the TCP.
- ``ewa.opnet_timer_study`` (not a figure of the paper): the four policies under OPNET 2.4's per-segment
  retransmission timers (:data:`OPNET_TIMER_READINGS`; cheon 2: "each packet being transmitted from the source
  node has its own RTO timer so that once a timeout occurs, many subsequent timeouts generally follow") beside
  the headline's one timer per connection.
- Every run of Figs. 5-12 also reports its loss regime (:mod:`atmtcp.papers.ewa.section2.regime`): overflow
  episodes, drops per connection per episode, timeouts per connection.

The definitions (L1's effective utilization, a phase's numbers) and the seeds are every section's:
:mod:`atmtcp.papers.ewa.shared.measures`.
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from .... import model as m
from ....experiment import Experiment, grid
from ....simulate import simulate
from ..shared.measures import TRACE_STEP_S, attrs, copy_of, phase_numbers, seed_points, seeds, utilization
from ..shared.scenario import (
    BSD_READING, DURATION_S, INTERVAL_S, MSS, N_CONNECTIONS, PHASES, PREVIOUS_READING, max_tcp_throughput_mbps,
)
from .regime import regime
from .scenario import POLICIES, THREE_VC_SOURCES, ten_connection_run, three_vc_run

SOURCE_LABELS_3VC = [src[1:] for src, _, _, _ in THREE_VC_SOURCES]   # "1", "2b", "3b"
TCP_READINGS = {
    "headline": {},
    "4.4BSD-Lite's +mss/8": {"increase": "bsd"},
    "delayed ACKs": {"delayed_ack": True},
    "goyal1998's ssthresh and recovery exit": {"ssthresh_rule": "half_cwnd", "recovery_exit_opens": False},
    "4.4BSD-Lite's increase and ACKs": BSD_READING,
    "previous reading": PREVIOUS_READING,
}
"""``ewa.tcp_sensitivity``'s TCP: the headline (:data:`atmtcp.papers.ewa.shared.scenario.TCP_SETTINGS`: one segment
per round trip and every segment acknowledged, by sections 4.1-4.2's sentences; 4.4BSD-Lite wherever ewa is silent),
each of those settings read the other way alone, 4.4BSD-Lite's increase and ACKs together (:data:`BSD_READING`, the
headline before issue 36), and the reading before the rule (:data:`PREVIOUS_READING`: also goyal1998's ssthresh and
recovery exit)."""
SENSITIVITY_SEEDS, QUICK_SENSITIVITY_SEEDS = 5, 1
"""Seeds per reading and policy in ``ewa.tcp_sensitivity``."""


def summarize_ten(ds: xr.Dataset, run: m.Run) -> xr.Dataset:
    """One run of Figs. 5-12 reduced to what the figures and claims read (module docstring): the first
    ten connections, the figures' (``ewa.two_way_study``'s reverse connections come after them)."""
    ds = ds.isel(source=slice(0, N_CONNECTIONS))
    ends, per_source = utilization(ds)
    phases = phase_numbers(ends, per_source)
    step = int(round(TRACE_STEP_S / run.trace.sample_interval_s))
    times = ds.sample_time.values
    sources = np.arange(1, N_CONNECTIONS + 1)
    drops = ds.queue_packets_dropped.sum("router_queue")
    out = xr.Dataset({
        "utilization": ("interval", per_source.sum(1), attrs("1", "effective utilization of L1 per 250 ms")),
        "source_utilization": (("interval", "source"), per_source,
                               attrs("1", "each connection's part of L1's effective utilization per 250 ms")),
        "utilization_phase": ("phase", phases["utilization"], attrs("1", "L1's effective utilization, mean of the phase")),
        "throughput_phase": (("phase", "source"), phases["throughput"],
                             attrs("Mbit/s", "each connection's TCP payload on L1 in the phase")),
        "fairness_phase": ("phase", phases["fairness"],
                           attrs("1", "Jain's index of the throughputs of the connections open in the phase")),
        "share_ratio_phase": ("phase", phases["ratio"],
                              attrs("1", "the largest throughput of the phase over the second largest")),
        "seq_packets": (("time", "source"), ds.sampled_snd_max.values[::step] / MSS,
                        attrs("packet", "highest sequence number sent, in segments")),
        "cwnd": (("time", "source"), ds.sampled_cwnd.values[::step],
                 {**attrs("byte", "congestion window"), "interpolation": "previous"}),
        "queue_bytes": ("sample_time", ds.queue_bytes.values[:, 0], attrs("byte", "IP bytes in AAP-1's buffer")),
        "queue_packets": ("sample_time", ds.queue_packets_sampled.values[:, 0], attrs("packet", "packets in AAP-1's buffer")),
        "packets_dropped": ("source", ds.packets_dropped_by_source.values, attrs("packet", "data packets dropped at AAP-1")),
        "timeouts": ("source", ds.timeouts.values, attrs("1", "retransmission timeouts")),
        "fast_retransmits": ("source", ds.fast_retransmits.values, attrs("1", "fast retransmits")),
        "drops_by_reason": ("router_drop_reason", drops.values, attrs("packet", "packets dropped at AAP-1, by reason")),
        "goodput_mbps": ("source", ds.goodput_bps.values / 1e6, attrs("Mbit/s", "in-order bytes delivered x 8 / 20 s")),
    }, coords={
        "interval": ("interval", ends, attrs("s", "end of the 250 ms interval")),
        "source": ("source", sources, attrs("1", "connection (1-10)")),
        "phase": [name for name, _, _ in PHASES],
        "time": ("time", times[::step], attrs("s", "simulated time")),
        "sample_time": ("sample_time", times, attrs("s", "sampling instant")),
        "router_drop_reason": ds.router_drop_reason.values,
    })
    out["max_tcp_throughput_mbps"] = xr.DataArray(max_tcp_throughput_mbps(), attrs=attrs(
        "Mbit/s", "maximum TCP throughput over the AAL5 VC: utilization's denominator"))
    found = regime(times, ds.queue_dropped_sampled.values[:, 0], ds.sampled_dropped.values,
                   ds.sampled_timeouts.values, REGIME_AFTER_S)
    for name, (units, text) in REGIME_VARIABLES.items():
        out[name] = xr.DataArray(found[name], attrs={**attrs(units, text), "after_s": REGIME_AFTER_S})
    return out


REGIME_AFTER_S = 1.0
"""The regime is read after the first slow start (ewa 2's connections open at t = 0)."""
REGIME_VARIABLES = {
    "episodes": ("1", "overflow episodes at AAP-1 after 1 s (atmtcp.papers.ewa.section2.regime)"),
    "hits": ("1", "(episode, connection) pairs with at least one drop"),
    "drops_per_hit": ("packet", "mean packets a connection loses in an episode that hits it"),
    "multiple_drop_share": ("1", "share of hits with two or more drops"),
    "timeouts_per_connection": ("1", "retransmission timeouts per connection after 1 s"),
}


STUDY_VARIABLES = ["utilization_phase", "fairness_phase", "share_ratio_phase", "timeouts", "fast_retransmits",
                   "packets_dropped", *REGIME_VARIABLES]
"""What the studies of Figs. 5-12 keep of each run (``ewa.tcp_sensitivity``, ``ewa.two_way_study``)."""


def summarized_run(target: str, seed: int, **options) -> xr.Dataset:
    """:func:`summarize_ten` of one :func:`~atmtcp.papers.ewa.section2.scenario.ten_connection_run` (``options``:
    its ``red``, ``two_way`` and TCP reading)."""
    run = ten_connection_run(target, seed, **options)
    return summarize_ten(simulate(run), run)


def ten_connection_point(target: str):
    """The ``run_point`` of one of Figs. 5, 7, 9, 11: :func:`summarized_run` of the point's seed."""
    def run_point(point: dict, quick: bool) -> xr.Dataset:
        return summarized_run(target, point["seed"])
    return run_point


def summarize_three_vc(ds: xr.Dataset, run: m.Run) -> xr.Dataset:
    """One run of Figs. 2-4: sequence numbers, windows and each VC's queue every millisecond, and
    each connection's average effective throughput (in-order bytes delivered over the run)."""
    times = ds.sample_time.values
    out = xr.Dataset({
        "seq_packets": (("time", "source"), ds.sampled_snd_max.values / MSS,
                        attrs("packet", "highest sequence number sent, in segments")),
        "cwnd": (("time", "source"), ds.sampled_cwnd.values, {**attrs("byte", "congestion window"),
                                                              "interpolation": "previous"}),
        "queue_bytes": (("time", "vc"), ds.queue_bytes.values, attrs("byte", "IP bytes in the VC's queue at AAP-1")),
        "throughput_mbps": ("source", ds.goodput_bps.values / 1e6,
                            attrs("Mbit/s", "average effective throughput: in-order bytes delivered x 8 / duration")),
        "timeouts": ("source", ds.timeouts.values, attrs("1", "retransmission timeouts (each a new slow start)")),
        "fast_retransmits": ("source", ds.fast_retransmits.values, attrs("1", "fast retransmits")),
        "packets_dropped": ("source", ds.packets_dropped_by_source.values,
                            attrs("packet", "data packets dropped at AAP-1")),
        "ip_delay_us": ("source", [1e6 * d for _, d, _, _ in THREE_VC_SOURCES],
                        attrs("us", "one-way delay of the source's link in IP network 1")),
    }, coords={
        "time": ("time", times, attrs("s", "simulated time")),
        "source": ("source", SOURCE_LABELS_3VC, attrs("1", "connection")),
        "vc": ("vc", [q.split(":")[1] for q in ds.sampled_queue.values], attrs("1", "the VC's far AAP")),
    })
    return out


def three_vc_point(point: dict, quick: bool) -> xr.Dataset:
    """The ``run_point`` of Fig. 2: :func:`summarize_three_vc` of the point's seed."""
    run = three_vc_run(point["seed"])
    return summarize_three_vc(simulate(run), run)


SENSITIVITY_POLICIES = {"drop_tail": "ewa.fig5", "drop_from_front": "ewa.fig7", "red_0.02": "ewa.fig9",
                        "red_0.05": "ewa.fig11"}
"""``ewa.tcp_sensitivity``'s policy axis: its name -> the target whose AAP-1 it uses."""


def study_seeds(quick: bool) -> list[int]:
    """The seeds of the section 2 studies (fewer in quick mode)."""
    return list(range(QUICK_SENSITIVITY_SEEDS if quick else SENSITIVITY_SEEDS))


def sensitivity_points(quick: bool) -> list[dict]:
    """``ewa.tcp_sensitivity``'s grid: each policy, each reading of the TCP (the first and last in quick
    mode), the seeds."""
    readings = list(TCP_READINGS)
    return grid(policy=list(SENSITIVITY_POLICIES), tcp=[readings[0], readings[-1]] if quick else readings,
                seed=study_seeds(quick))


def sensitivity_point(point: dict, quick: bool) -> xr.Dataset:
    """One point of ``ewa.tcp_sensitivity``: the ten connections at the point's policy under its reading of the TCP."""
    return summarized_run(SENSITIVITY_POLICIES[point["policy"]], point["seed"],
                          **TCP_READINGS[point["tcp"]])[STUDY_VARIABLES]


RED_VARIANTS = {
    "as stated": {},
    "weight 0.0005": {"weight": 0.0005},
    "weight 0.02": {"weight": 0.02},
    "weight 0.2": {"weight": 0.2},
    "gentle": {"gentle": True},
    "max_th 60": {"max_th": 60.0},
}
"""``ewa.red_study``'s RED at AAP-1: as ewa states it (min_th 15, max_th 30, max_p, 110 packets) with the RED
paper's weight 0.002, and what neither paper fixes for ewa's network read another way: the averaging
weight, Floyd's later gentle ramp above max_th, and max_th (twice the stated, still inside the buffer).
The other open choices cannot change these runs: every data packet on L1 has the same size (packet or
byte mode count alike; no ACK passes AAP-1's queue onto L1), and the draw is made at every arrival as in
the RED paper."""
RED_STUDY_READINGS = {"headline": {}, "previous reading": PREVIOUS_READING}
"""``ewa.red_study``'s TCP: the headline and the reading before the rule (:data:`TCP_READINGS`)."""
RED_STUDY_POLICIES = {"red_0.02": "ewa.fig9", "red_0.05": "ewa.fig11"}


def red_study_points(quick: bool) -> list[dict]:
    """``ewa.red_study``'s grid: each RED policy, each variant of :data:`RED_VARIANTS` (two in quick mode), each
    reading of the TCP, the seeds."""
    variants = list(RED_VARIANTS)
    return grid(policy=list(RED_STUDY_POLICIES), red=variants[:2] if quick else variants,
                tcp=list(RED_STUDY_READINGS), seed=study_seeds(quick))


def red_study_point(point: dict, quick: bool) -> xr.Dataset:
    """One point of ``ewa.red_study``: the run's utilization and fairness per phase, timeouts, fast retransmits,
    drops by reason, AAP-1's mean queue after 1 s and the loss regime's variables."""
    ds = summarized_run(RED_STUDY_POLICIES[point["policy"]], point["seed"], red=RED_VARIANTS[point["red"]],
                        **RED_STUDY_READINGS[point["tcp"]])
    ds["mean_queue_packets"] = xr.DataArray(float(ds.queue_packets.sel(sample_time=slice(REGIME_AFTER_S, None)).mean()),
                                            attrs=attrs("packet", "AAP-1's queue, mean of the 5 ms samples after 1 s"))
    return ds[["utilization_phase", "fairness_phase", "timeouts", "fast_retransmits", "drops_by_reason",
               "mean_queue_packets", *REGIME_VARIABLES]]


TWO_WAY_READINGS = {
    "headline": ({}, False),
    "headline, two-way traffic": ({}, True),
    "previous reading": (PREVIOUS_READING, False),
    "previous reading, two-way traffic": (PREVIOUS_READING, True),
}
"""``ewa.two_way_study``'s runs: each reading of the TCP, alone and with two-way traffic
(:func:`atmtcp.papers.ewa.section2.scenario.ten_connection_run`'s ``two_way``): what a real network does to the
perfect ACK clock of the paper's one-way scenario."""


def two_way_points(quick: bool) -> list[dict]:
    """The two-way traffic study's grid: each policy, each reading (with or without reverse traffic), the seeds."""
    readings = list(TWO_WAY_READINGS)
    return grid(policy=list(SENSITIVITY_POLICIES)[:2] if quick else list(SENSITIVITY_POLICIES),
                tcp=readings[:2] if quick else readings, seed=study_seeds(quick))


def two_way_point(point: dict, quick: bool) -> xr.Dataset:
    """One point of the two-way traffic study: the ten connections under the point's reading."""
    reading, two_way = TWO_WAY_READINGS[point["tcp"]]
    return summarized_run(SENSITIVITY_POLICIES[point["policy"]], point["seed"], two_way=two_way,
                          **reading)[STUDY_VARIABLES]


OPNET_TIMER_READINGS = {
    "headline": {},
    "per-segment timers (OPNET 2.4)": {"retransmit_timers": "per_segment"},
    "4.4BSD-Lite's increase and ACKs": BSD_READING,
    "4.4BSD-Lite's increase and ACKs, per-segment timers": {**BSD_READING, "retransmit_timers": "per_segment"},
}
"""``ewa.opnet_timer_study``'s TCP: the headline (one retransmission timer per connection, 4.4BSD's: ewa does not say
how many timers its OPNET TCP ran, :data:`atmtcp.papers.ewa.shared.scenario.TCP_SETTINGS`) and the headline with a
timer per segment, as cheon 2 says OPNET 2.4's TCP had before cheon replaced it
(:attr:`atmtcp.model.TcpConfig.retransmit_timers`); and both under :data:`BSD_READING` (the headline before issue 36,
whose losses end in timeouts far more often: what the timers multiply)."""


def opnet_timer_points(quick: bool) -> list[dict]:
    """``ewa.opnet_timer_study``'s grid: each policy and reading (Drop-Tail and RED 0.02, the headline's two in quick
    mode), the seeds."""
    policies = list(SENSITIVITY_POLICIES)
    readings = list(OPNET_TIMER_READINGS)
    return grid(policy=[policies[0], policies[2]] if quick else policies, tcp=readings[:2] if quick else readings,
                seed=study_seeds(quick))


def delivered_phase(ds: xr.Dataset) -> np.ndarray:
    """Per phase, the new data the ten connections got acknowledged (the rise of ``snd_una``) over what the
    maximum TCP throughput carries in the phase: L1's utilization without the retransmissions of data the
    receiver already had, which per-segment timers send in numbers (``ewa.opnet_timer_study``)."""
    times = ds.sample_time.values
    una = ds.sampled_snd_una.values[:, :N_CONNECTIONS].astype(np.int64).sum(axis=1)
    out = []
    for _, start, end in PHASES:
        i, j = np.searchsorted(times, [start, end - 1e-9])
        out.append((una[j] - una[i]) * 8 / (max_tcp_throughput_mbps() * 1e6 * (times[j] - times[i])))
    return np.array(out)


def opnet_timer_point(point: dict, quick: bool) -> xr.Dataset:
    """One point of ``ewa.opnet_timer_study``: the ten connections at the point's policy under its timer scheme,
    and the new data delivered per phase (:func:`delivered_phase`)."""
    run = ten_connection_run(SENSITIVITY_POLICIES[point["policy"]], point["seed"], **OPNET_TIMER_READINGS[point["tcp"]])
    ds = simulate(run)
    out = summarize_ten(ds, run)[STUDY_VARIABLES]
    out["delivered_phase"] = xr.DataArray(delivered_phase(ds), dims=("phase",), coords={"phase": out.phase}, attrs=attrs(
        "1", "new data acknowledged in the phase over the maximum TCP throughput (retransmissions not counted)"))
    return out


def parameters(quick: bool) -> dict:
    """The fixed parameters of every ewa run, as netCDF attributes."""
    return {"mss_bytes": MSS, "duration_s": DURATION_S, "interval_s": INTERVAL_S,
            "seeds": len(seeds(quick)), "max_tcp_throughput_mbps": max_tcp_throughput_mbps()}


UTILIZATION_FIGURES = {"ewa.fig6": "ewa.fig5", "ewa.fig8": "ewa.fig7", "ewa.fig10": "ewa.fig9", "ewa.fig12": "ewa.fig11"}


EXPERIMENTS = [
    Experiment("ewa.fig2", "Three connections on three VCs, per-VC queueing, Drop-Tail: sequence numbers",
               seed_points, three_vc_point, parameters=parameters),
    Experiment("ewa.fig3", "Congestion windows of one long (1) and the short (3b) connection",
               parents=("ewa.fig2",), derive=copy_of("ewa.fig2")),
    Experiment("ewa.fig4", "Average effective throughput per connection",
               parents=("ewa.fig2",), derive=copy_of("ewa.fig2")),
    *(experiment for util, target in UTILIZATION_FIGURES.items() for experiment in (
        Experiment(target, f"Ten connections on one VC, 10 -> 5 -> 2, {POLICIES[target][0]}: sequence numbers",
                   seed_points, ten_connection_point(target), parameters=parameters),
        Experiment(util, f"Effective utilization of L1 per 250 ms, {POLICIES[target][0]}",
                   parents=(target,), derive=copy_of(target)))),
    Experiment("ewa.tcp_sensitivity", "Figs. 5-12's utilization under TCP settings the paper leaves open",
               sensitivity_points, sensitivity_point, parameters=parameters,
               notes="readings: atmtcp.papers.ewa.section2.experiments.TCP_READINGS"),
    Experiment("ewa.two_way_study", "Figs. 5-12 with two-way traffic: the ACK clock of a real network",
               two_way_points, two_way_point, parameters=parameters,
               notes="runs: atmtcp.papers.ewa.section2.experiments.TWO_WAY_READINGS; the ten connections' numbers"),
    Experiment("ewa.opnet_timer_study", "Figs. 5-12 under OPNET 2.4's per-segment retransmission timers (cheon 2)",
               opnet_timer_points, opnet_timer_point, parameters=parameters,
               notes="readings: atmtcp.papers.ewa.section2.experiments.OPNET_TIMER_READINGS"),
    Experiment("ewa.red_study", "Figs. 9-12's RED under the settings neither ewa nor the RED paper fixes",
               red_study_points, red_study_point, parameters=parameters,
               notes="variants: atmtcp.papers.ewa.section2.experiments.RED_VARIANTS and RED_STUDY_READINGS"),
]
