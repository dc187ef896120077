"""lakshman: "The Drop from Front Strategy in TCP and in TCP over ATM".

Every target whose id starts with ``lakshman.``, plus two studies the
notebook needs:

- Figs. 2, 3, 6, 7, 10: total good throughput against the paper's 14 buffer sizes for Cell-Tail,
  Cell-Front, Frame-Tail and Frame-Front, for 2 and 3 sources of equal and unequal RTTs and 14
  sources (:data:`TOTAL_FIGURES`); each point is run with several seeds (the links' delays, the
  slotted port's order of a slot's arrivals and the randomized tail drop differ by seed).
- Figs. 4, 5, 8, 9: the individual throughputs of the unequal-RTT runs of Figs. 3 and 7, cell-level
  and frame-level disciplines (:data:`INDIVIDUAL_FIGURES`: the same runs).
- Figs. 11-13: RED at the cell level, at the frame level, and at the frame level at the front, 14
  sources (:data:`RED_FIGURES`); the figures put them beside Fig. 10's disciplines (Fig. 13 beside
  Fig. 12's RED at the tail), which are not run again.
- Fig. 14: frame-level RED against the ratio RED_full / RED_one, 6 connections, 2304 cells.
- ``lakshman.early_warning``: the time from a drop at the bottleneck to the fast retransmit of that
  packet, front against tail (the paper's explanation, section 1).
- ``lakshman.convergence``: long runs whose running mean shows how long a run must be.

Choices the paper leaves open are in :mod:`.scenario`; the run length and the RED ranges are here.
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from ... import model as m
from ...experiment import Experiment, grid
from ...kernel.aal5 import packet_cells
from ...simulate import simulate
from .scenario import (
    AAL5, BOTTLENECK, BUFFERS, CELL_S, DISCIPLINES, MSS, NOMINAL_RTT_S, ack_delays, beta,
    PREVIOUS_READING, discipline_port, external_rtts, good_throughput, lakshman_run, link_delays, red_port,
)

DURATION_S = 40.0
WARMUP_S = 10.0
"""Run length and warm-up (the paper gives neither). Every source starts at t = 0 in slow start with
an unbounded ssthresh, so the first seconds hold the slow-start overshoot, its losses and the
timeouts after it (the running good throughput of ``lakshman.convergence`` is 0.6-0.8 in the first
5 s); counting starts after 10 s. 30 s are measured: the running mean of the long runs of
``lakshman.convergence`` then lies within 0.023 of its value after 110 s (after 20 and 25 s: 0.026 and
0.028), less than two of the seeds' standard deviations (0.013 at the median point), which the ten
seeds of every point average further (see the notebook)."""
SEEDS = tuple(range(1, 11))
"""Ten runs per point, as every compared cell of the reproduction: the paper's one run per point is one
draw, and its section 6 thresholds are compared with the distribution of ours (a 40 s run costs 0.1-0.2
CPU-seconds, so the ten seeds of all 1278 points cost about 7 CPU-minutes)."""
QUICK = {"duration_s": 6.0, "warmup_s": 2.0, "buffers": (1152, 5760), "seeds": (1,)}
"""Quick mode: two buffer sizes, one seed, 4 s measured after 2 s; RED with Fig. 13's two ranges."""

TOTAL_FIGURES = {
    # target: (external RTTs of the sources in s, title)
    "lakshman.fig2": ((0.06, 0.06), "Total throughput, 2 sources, RTTs 60 ms"),
    "lakshman.fig3": ((0.04, 0.08), "Total throughput, 2 sources, RTTs 40 and 80 ms"),
    "lakshman.fig6": ((0.06,) * 3, "Total throughput, 3 sources, RTTs 60 ms"),
    "lakshman.fig7": ((0.04, 0.06, 0.08), "Total throughput, 3 sources, RTTs 40, 60 and 80 ms"),
    "lakshman.fig10": ((0.06,) * 14, "Total throughput, 14 sources, RTTs 60 ms"),
}
INDIVIDUAL_FIGURES = {
    # target: (the runs it reads, disciplines shown, title)
    "lakshman.fig4": ("lakshman.fig3", ("cell_tail", "cell_front"), "Individual throughputs, 2 sources, 40/80 ms, cell level"),
    "lakshman.fig5": ("lakshman.fig3", ("frame_tail", "frame_front"), "Individual throughputs, 2 sources, 40/80 ms, frame level"),
    "lakshman.fig8": ("lakshman.fig7", ("cell_tail", "cell_front"), "Individual throughputs, 3 sources, 40/60/80 ms, cell level"),
    "lakshman.fig9": ("lakshman.fig7", ("frame_tail", "frame_front"), "Individual throughputs, 3 sources, 40/60/80 ms, frame level"),
}
"""lakshman 4: "The Figures 5 (2 sources) and 9 (3 sources) show that this relative improvement of
Frame-Tail for unequal RTTs is, to a large degree, due to lock out and unfairness"; "The Figures 4 (2
sources) and 8 (3 sources) show that a similar, but weaker, difference in bias is present between
Cell-Tail and Cell-Front"."""

RED_ONE = (1e-12, 1e-9, 1e-6, 1e-3)
RED_FULL = 1.0
"""RED's probability ranges (lakshman 5: "The legend in the figure indicates the extreme values of the
drop probabilities corresponding to the buffer occupancy being equal to one cell and the buffer being
full"; the text names only 10^-12 to 1). Our choice, made before any run: RED_full = 1 (a full buffer
drops anyway) and RED_one from 10^-12 (the paper's range) to 10^-3, ranges of 12, 9, 6 and 3 decades;
Fig. 12 has "4 plots for RED throughput". Fig. 13 runs the widest and a middle range at the front."""
FIG13_RED_ONE = (1e-12, 1e-6)
FIG14_RATIOS = (1e2, 1e4, 1e6, 1e8, 1e10, 1e12)
"""Fig. 14's x-axis, RED_full / RED_one, with RED_full = 1."""
FIG14_SOURCES, FIG14_BUFFER = 6, 2304
"""lakshman 5: "The throughput results are for six connections with equal round trip times of 60 ms and
a bottleneck buffer size of 2304 cells"."""
RED_SOURCES = 14
"""lakshman 5: "The results are for the combined throughput of 14 connections with equal round trip
times (60 ms in this case)"; Figs. 12 and 13 are titled "Throughputs for n=14 rtt=60 ms"."""
RED_FIGURES = {
    # target: (frame level, at the front, RED_one values, title)
    "lakshman.fig11": (False, False, RED_ONE, "Drop from front and cell-level RED (no frame drop), 14 sources"),
    "lakshman.fig12": (True, False, RED_ONE, "Frame-Front and RED with whole-frame drop, 14 sources"),
    "lakshman.fig13": (True, True, FIG13_RED_ONE, "Frame-level RED at the front (beside Fig. 12's at the tail)"),
}
RED_COMPANIONS = {"lakshman.fig11": ("lakshman.fig10", ("cell_tail", "cell_front")),
                  "lakshman.fig12": ("lakshman.fig10", ("frame_tail", "frame_front")),
                  "lakshman.fig13": ("lakshman.fig12", ())}
"""The runs each RED figure is drawn beside: Fig. 10's disciplines (tail drop "for reference"), and for
Fig. 13 Fig. 12's RED at the tail."""

EARLY_WARNING = {"sources": 14, "buffer": 5760, "duration_s": 20.0, "seed": 1}
"""The runs behind the early-warning figure: Fig. 10's case at beta = 1 (one buffer drains in 60 ms)."""
CONVERGENCE = {"cases": ("lakshman.fig2", "lakshman.fig10"), "buffer": 5760, "duration_s": 120.0, "seed": 1,
               "window_s": 5.0}


def run_length(quick: bool) -> tuple[float, float]:
    """(duration, warm-up) in seconds."""
    return (QUICK["duration_s"], QUICK["warmup_s"]) if quick else (DURATION_S, WARMUP_S)


def buffers(quick: bool) -> list[int]:
    """The bottleneck buffers of a grid (cells): :data:`BUFFERS`, or quick mode's two."""
    return list(QUICK["buffers"] if quick else BUFFERS)


def seeds(quick: bool) -> list[int]:
    """The seeds of a grid: :data:`SEEDS`, or quick mode's one."""
    return list(QUICK["seeds"] if quick else SEEDS)


def parameters(quick: bool) -> dict:
    """The fixed parameters of every lakshman run, as flat attributes."""
    duration, warmup = run_length(quick)
    return {"duration_s": duration, "warmup_s": warmup, "mss_bytes": MSS, "data_packet_cells":
            packet_cells(MSS, AAL5.overhead_bytes), "ack_packet_cells": packet_cells(0, AAL5.overhead_bytes),
            "slot_s": CELL_S, "beta_one_cells": 5760, "nominal_rtt_s": NOMINAL_RTT_S,
            "link_delay_range_s": "100e-6 .. 2800e-6, drawn per link from the seed",
            "red_full": RED_FULL, "bottleneck": BOTTLENECK}


# --- one run -------------------------------------------------------------------------------------------------
def summarize_run(ds: xr.Dataset, run: m.Run, rtts_s) -> xr.Dataset:
    """One run's numbers: the good throughput of each source and in total (lakshman 4), and what
    explains it (timeouts, fast retransmits, cells dropped at the bottleneck, damaged frames)."""
    per_source = good_throughput(ds.segments_received.values, run.duration_s, run.warmup_s)
    delays = link_delays(len(rtts_s), run.seed)
    return xr.Dataset({
        "good_throughput": ("source", per_source, {"units": "1", "long_name":
                            "good throughput of the source, normalized to the bottleneck's cell slots"}),
        "total_throughput": ((), float(per_source.sum()), {"units": "1", "long_name":
                             "normalized good throughput, all sources (lakshman 4)"}),
        "timeouts": ((), int(ds.timeouts.sum()), {"units": "1", "long_name": "retransmission timeouts"}),
        "fast_retransmits": ((), int(ds.fast_retransmits.sum()), {"units": "1", "long_name": "fast retransmits"}),
        "cells_dropped": ((), int(ds.cells_dropped.sel(port=BOTTLENECK).sum()), {
            "units": "cell", "long_name": f"cells dropped at the bottleneck {BOTTLENECK}"}),
        "frames_bad": ((), int(ds.frames_bad.sum()), {"units": "1", "long_name": "damaged data frames discarded"}),
        "rtt_s": ("source", np.asarray(rtts_s, float), {"units": "s", "long_name":
                  "the figure's RTT of the source (nominal; the run's mean external RTT)"}),
        "external_rtt_s": ("source", external_rtts(rtts_s, delays), {"units": "s", "long_name":
                           "external RTT of the source: ACK delay + its links' round trip"}),
        "ack_delay_s": ("source", np.asarray(ack_delays(rtts_s, delays)), {
            "units": "s", "long_name": "the receiver's fixed ACK delay"}),
    }, coords={"source": np.arange(len(rtts_s))})


def simulate_point(rtts_s, port: m.PortConfig, seed: int, quick: bool, reading: dict | None = None) -> xr.Dataset:
    """Simulate lakshman's system with sources of external RTTs ``rtts_s`` behind the bottleneck ``port``
    (:func:`atmtcp.papers.lakshman.scenario.lakshman_run`, the run length of :func:`run_length`) and reduce
    the run with :func:`summarize_run`; ``reading``: TcpConfig fields of another reading of the TCP."""
    duration, warmup = run_length(quick)
    run = lakshman_run(rtts_s, port, seed, duration, warmup, reading=reading)
    return summarize_run(simulate(run), run, rtts_s)


def with_beta(ds: xr.Dataset) -> xr.Dataset:
    """``ds`` with the normalized buffer size beside its ``buffer`` axis (lakshman 4's second axis)."""
    if "buffer" in ds.dims:
        ds = ds.assign_coords(beta=("buffer", beta(ds.buffer.values), {
            "units": "1", "long_name": "normalized buffer size (5760 cells = 1 at 60 ms)"}))
    return ds


# --- Figs. 2, 3, 6, 7, 10 ------------------------------------------------------------------------------------
def total_points(quick: bool) -> list[dict]:
    """The grid of a total-throughput figure (Figs. 2, 3, 6, 7, 10): every discipline, buffer and seed."""
    return grid(discipline=list(DISCIPLINES), buffer=buffers(quick), seed=seeds(quick))


def total_runner(target: str):
    """The ``run_point`` of a total-throughput figure: its sources' RTTs (:data:`TOTAL_FIGURES`) behind
    the point's discipline and buffer."""
    rtts, _ = TOTAL_FIGURES[target]

    def run_point(point: dict, quick: bool) -> xr.Dataset:
        return simulate_point(rtts, discipline_port(point["discipline"], point["buffer"]), point["seed"], quick)
    return run_point


def seed_statistics(ds: xr.Dataset) -> xr.Dataset:
    """Means and spread over the seeds of the total and individual throughputs."""
    ds = with_beta(ds)
    for name in ("total_throughput", "good_throughput"):
        ds[f"{name}_mean"] = ds[name].mean("seed").assign_attrs(units="1", long_name=f"{name}, mean over seeds")
        ds[f"{name}_min"] = ds[name].min("seed").assign_attrs(units="1", long_name=f"{name}, lowest seed")
        ds[f"{name}_max"] = ds[name].max("seed").assign_attrs(units="1", long_name=f"{name}, highest seed")
    ds["total_throughput_sd"] = ds.total_throughput.std("seed", ddof=1 if ds.sizes["seed"] > 1 else 0).assign_attrs(
        units="1", long_name="total throughput, sample standard deviation over seeds")
    return ds


def individual(parent: str, disciplines: tuple[str, ...]):
    """The ``derive`` of an individual-throughput figure (Figs. 4, 5, 8, 9): the runs of ``parent`` at
    ``disciplines`` (:data:`INDIVIDUAL_FIGURES`)."""
    return lambda parents: parents[parent].sel(discipline=list(disciplines))


# --- the other reading of lakshman's TCP ------------------------------------------------------------------------
TCP_READINGS = {"4.4BSD-Lite (headline)": {}, "previous reading": PREVIOUS_READING}
"""``lakshman.tcp_sensitivity``'s TCP: the headline (4.3-Reno as 4.4BSD-Lite implements it, the project's rule)
and the reading before the rule (:data:`atmtcp.papers.lakshman.scenario.PREVIOUS_READING`)."""
SENSITIVITY_CASES, SENSITIVITY_SEEDS = ("lakshman.fig2", "lakshman.fig10"), (1, 2, 3, 4, 5)


def sensitivity_points(quick: bool) -> list[dict]:
    """``lakshman.tcp_sensitivity``'s grid: both readings of the TCP (:data:`TCP_READINGS`) in Figs. 2 and
    10's cases, every discipline and buffer, five seeds (one in quick mode)."""
    return grid(tcp=list(TCP_READINGS), case=list(SENSITIVITY_CASES), discipline=list(DISCIPLINES),
                buffer=buffers(quick), seed=seeds(quick) if quick else list(SENSITIVITY_SEEDS))


def sensitivity_point(point: dict, quick: bool) -> xr.Dataset:
    """One point of ``lakshman.tcp_sensitivity``: its case's sources under its reading of the TCP; the
    total throughput, timeouts and fast retransmits."""
    rtts, _ = TOTAL_FIGURES[point["case"]]
    return simulate_point(rtts, discipline_port(point["discipline"], point["buffer"]), point["seed"], quick,
                          TCP_READINGS[point["tcp"]])[["total_throughput", "timeouts", "fast_retransmits"]]


# --- Figs. 11-14: RED ---------------------------------------------------------------------------------------
def red_points(red_ones: tuple[float, ...]):
    """The ``points`` of a RED figure: its RED_one values (Fig. 13's two in quick mode), every buffer
    and seed."""
    def points(quick: bool) -> list[dict]:
        ones = list(FIG13_RED_ONE) if quick else list(red_ones)
        return grid(red_one=ones, buffer=buffers(quick), seed=seeds(quick))
    return points


def red_runner(target: str):
    """The ``run_point`` of a RED figure (:data:`RED_FIGURES`): :data:`RED_SOURCES` sources of 60 ms
    behind RED per cell or per frame, at the tail or the front, of the point's RED_one and buffer."""
    frames, at_front, _, _ = RED_FIGURES[target]

    def run_point(point: dict, quick: bool) -> xr.Dataset:
        port = red_port(point["buffer"], point["red_one"], RED_FULL, frames, at_front)
        return simulate_point((NOMINAL_RTT_S,) * RED_SOURCES, port, point["seed"], quick)
    return run_point


def fig14_points(quick: bool) -> list[dict]:
    """Fig. 14's grid: RED_full / RED_one (:data:`FIG14_RATIOS`, the two ends in quick mode) and seeds."""
    ratios = [FIG14_RATIOS[0], FIG14_RATIOS[-1]] if quick else list(FIG14_RATIOS)
    return grid(ratio=ratios, seed=seeds(quick))


def fig14_run(point: dict, quick: bool) -> xr.Dataset:
    """One point of Fig. 14: six sources of 60 ms behind frame-level RED of the point's ratio in a
    2304-cell buffer (lakshman 5)."""
    port = red_port(FIG14_BUFFER, RED_FULL / point["ratio"], RED_FULL, frames=True)
    return simulate_point((NOMINAL_RTT_S,) * FIG14_SOURCES, port, point["seed"], quick)


# --- early warning: from a drop to the fast retransmit -------------------------------------------------------
def warning_delays(ds: xr.Dataset) -> np.ndarray:
    """For every fast retransmit in ``ds`` (all connections traced), the time since the drop that
    damaged the transmission it repeats: the first drop at the bottleneck of a cell of that segment
    after the segment was last sent (NaN if none: lost elsewhere, or sent before the trace)."""
    kind, src_all = ds.trace_kind.values, ds.trace_source.values
    t_all, v_all = ds.trace_time.values, ds.trace_value.values
    fr, sent = kind == "fast_retransmit", kind == "seq_sent"
    data = (ds.drop_port.values == BOTTLENECK) & (ds.drop_is_ack.values == 0)
    drop_t, drop_seq, drop_src = ds.drop_time.values[data], ds.drop_seq.values[data], ds.drop_source.values[data]
    out = np.full(int(fr.sum()), np.nan)
    for i, (t, seq, src) in enumerate(zip(t_all[fr], v_all[fr], src_all[fr])):
        sends = t_all[sent & (src_all == src) & (v_all == seq) & (t_all < t)]
        if not sends.size:
            continue
        hits = drop_t[(drop_src == src) & (drop_seq == int(seq)) & (drop_t >= sends[-1]) & (drop_t <= t)]
        if hits.size:
            out[i] = t - hits[0]
    return out


def early_warning_points(quick: bool) -> list[dict]:
    """The early-warning figure's grid: one run per discipline (:data:`EARLY_WARNING`)."""
    return grid(discipline=list(DISCIPLINES))


def early_warning_run(point: dict, quick: bool) -> xr.Dataset:
    """Fig. 10's case at beta = 1, every connection and the bottleneck traced: the delay from each drop
    to the fast retransmit it causes (:func:`warning_delays`)."""
    spec = EARLY_WARNING
    duration = QUICK["duration_s"] if quick else spec["duration_s"]
    n = spec["sources"]
    trace = m.TraceConfig(connections=tuple(range(n)), ports=(BOTTLENECK,), sample_interval_s=0.01,
                          max_records=4_000_000)
    run = lakshman_run((NOMINAL_RTT_S,) * n, discipline_port(point["discipline"], spec["buffer"]), spec["seed"],
                       duration, min(WARMUP_S, duration / 2), trace)
    ds = simulate(run)
    delays = warning_delays(ds)
    queue = ds.queue_cells.sel(traced_port=BOTTLENECK).values
    out = xr.Dataset({
        "warning_delay_s": ("retransmit", delays, {"units": "s", "long_name":
                            "time from a drop at the bottleneck to the fast retransmit of its packet"}),
        "mean_queue_cells": ((), float(queue.mean()), {"units": "cell", "long_name": "mean bottleneck queue"}),
        "total_throughput": ((), float(good_throughput(ds.segments_received.values, run.duration_s,
                                                       run.warmup_s).sum()), {"units": "1", "long_name":
                                                                              "normalized good throughput"}),
    }, coords={"retransmit": np.arange(delays.size)})
    out.attrs.update(sources=n, buffer_cells=spec["buffer"], drain_time_s=spec["buffer"] * CELL_S, seed=spec["seed"])
    return out


# --- how long a run must be ----------------------------------------------------------------------------------
def running_throughput(ds: xr.Dataset, edges: np.ndarray) -> np.ndarray:
    """Good throughput in each interval between ``edges``, from the cumulative ACKs every traced
    source received (packets acknowledged in order x 92 cells over the interval's slots). An ACK
    reaches the sender one ACK delay after its packet's cells left the bottleneck, which shifts the
    intervals by about 60 ms."""
    kind = ds.trace_kind.values == "ack_received"
    acked = np.zeros(edges.size)
    for c in np.unique(ds.trace_source.values):
        keep = kind & (ds.trace_source.values == c)
        t, v = ds.trace_time.values[keep], ds.trace_value.values[keep]
        last = np.searchsorted(t, edges, side="right") - 1
        acked += np.where(last >= 0, v[np.maximum(last, 0)], 0.0) / MSS
    cells = np.diff(acked) * packet_cells(MSS, AAL5.overhead_bytes)
    return cells / (np.diff(edges) / CELL_S)


def convergence_points(quick: bool) -> list[dict]:
    """``lakshman.convergence``'s grid: one long run per case (:data:`CONVERGENCE`) and discipline."""
    return grid(case=list(CONVERGENCE["cases"]), discipline=list(DISCIPLINES))


def convergence_run(point: dict, quick: bool) -> xr.Dataset:
    """One long run: the good throughput of every ``window_s`` interval, and its running mean from the
    warm-up on, against the measured time."""
    spec = CONVERGENCE
    duration = 3 * QUICK["duration_s"] if quick else spec["duration_s"]
    window = 1.0 if quick else spec["window_s"]
    warmup = QUICK["warmup_s"] if quick else WARMUP_S
    rtts, _ = TOTAL_FIGURES[point["case"]]
    trace = m.TraceConfig(connections=tuple(range(len(rtts))), max_records=10_000_000)
    run = lakshman_run(rtts, discipline_port(point["discipline"], spec["buffer"]), spec["seed"], duration, 0.0, trace)
    ds = simulate(run)
    edges = np.arange(0.0, duration + 1e-9, window)
    per_window = running_throughput(ds, edges)
    after = edges[1:] > warmup + 1e-9
    measured = edges[1:][after] - warmup
    running = np.cumsum(per_window[after]) / np.arange(1, after.sum() + 1)
    return xr.Dataset({
        "window_throughput": ("window_end", per_window, {"units": "1", "long_name":
                              f"good throughput in each {window:g} s interval"}),
        "running_throughput": ("measured_s", running, {"units": "1", "long_name":
                               f"mean good throughput from {warmup:g} s on"}),
    }, coords={"window_end": ("window_end", edges[1:], {"units": "s"}),
               "measured_s": ("measured_s", measured, {"units": "s", "long_name": "measured time after the warm-up"})})


# --- the experiments -----------------------------------------------------------------------------------------
EXPERIMENTS = [
    *(Experiment(target, title, total_points, total_runner(target), finish=seed_statistics, parameters=parameters)
      for target, (_, title) in TOTAL_FIGURES.items()),
    *(Experiment(target, title, parents=(parent,), derive=individual(parent, disciplines), parameters=parameters)
      for target, (parent, disciplines, title) in INDIVIDUAL_FIGURES.items()),
    *(Experiment(target, title, red_points(ones), red_runner(target), finish=seed_statistics, parameters=parameters)
      for target, (_, _, ones, title) in RED_FIGURES.items()),
    Experiment("lakshman.tcp_sensitivity", "Figs. 2 and 10's total throughput under both readings of lakshman's TCP",
               sensitivity_points, sensitivity_point, finish=with_beta, parameters=parameters,
               notes="readings: atmtcp.papers.lakshman.experiments.TCP_READINGS; seeds 1-5"),
    Experiment("lakshman.fig14", "Frame-level RED against RED_full/RED_one, 6 sources, 2304 cells", fig14_points,
               fig14_run, finish=seed_statistics, parameters=parameters),
    Experiment("lakshman.early_warning", "From a drop at the bottleneck to the fast retransmit, front vs tail",
               early_warning_points, early_warning_run, parameters=parameters),
    Experiment("lakshman.convergence", "Running good throughput of long runs: how long a run must be",
               convergence_points, convergence_run, parameters=parameters),
]
