"""lakshman's sentence about how its simulated TCP detected losses, as checks on the headline runs
(:class:`atmtcp.tcp_settings.BehaviourCheck`), and ``lakshman.loss_detection``, the study that measures
the window at each timeout under both readings of the increase.

The sentence would decide the increase if one reading gave the behaviour it states and the other did not.
It does not: in the exploring runs (Figs. 2, 7 and 10, two buffers, seed 1) fast retransmit starts most loss
events under both readings except in some of Fig. 10's runs at 1152 cells (0.40-0.61 there under either), and under
both most timeouts come at windows of 3 segments or more. So the checks decide no setting (``decides`` is
empty); the increase stays 4.3-Reno's (:data:`atmtcp.papers.lakshman.scenario.TCP_SETTINGS`).

lakshman 3: "We used a timer with much finer granularity than the typical 500 ms. This is not significant
since most losses (in all cases except during periods when windows were less than 3 packets) are detected
by the fast retransmit procedure which does not use timers."
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from ... import model as m
from ...experiment import Experiment, grid
from ...simulate import simulate
from ...tcp_settings import BehaviourCheck
from .experiments import TOTAL_FIGURES, buffers, parameters, run_length, seeds, summarize_run
from .scenario import DISCIPLINES, MSS, discipline_port, lakshman_run

QUOTE = ('"most losses (in all cases except during periods when windows were less than 3 packets) are detected '
         'by the fast retransmit procedure which does not use timers"')
SMALL_WINDOW = 3
"""lakshman 3's "windows ... less than 3 packets": a timeout at a smaller window is one the sentence allows."""
MOST = 0.5
""""most losses": more than half of the loss events (fast retransmits and timeouts) start with a fast retransmit."""
ALL_BUT = 0.1
""""in all cases except": at most this share of the timeouts may come at windows of 3 packets or more (the
paper's own runs are one draw each; a tenth leaves room for the rare exception, chosen before any run)."""
STUDY = "lakshman.loss_detection"
READINGS = {"headline": {}, "one segment per RTT": {"increase": "float"}}
"""``lakshman.loss_detection``'s TCP: the headline (:data:`atmtcp.papers.lakshman.scenario.TCP_SETTINGS`) and
the other reading of the increase."""
STUDY_BUFFERS = (1152, 2304, 5760, 11520, 23040)
"""Five of the paper's buffer sizes, beta 0.2 to 4 (the study traces every connection, which costs more)."""
STUDY_SEEDS = (1, 2, 3)


def study_points(quick: bool) -> list[dict]:
    """``lakshman.loss_detection``'s points: both readings of the increase x the total-throughput figures
    (:data:`TOTAL_FIGURES`) x the disciplines x :data:`STUDY_BUFFERS` x :data:`STUDY_SEEDS` (quick: the quick
    buffers and seeds)."""
    return grid(tcp=list(READINGS), case=list(TOTAL_FIGURES), discipline=list(DISCIPLINES),
                buffer=buffers(quick) if quick else list(STUDY_BUFFERS), seed=seeds(quick) if quick else list(STUDY_SEEDS))


def timeout_windows(ds: xr.Dataset, n: int) -> np.ndarray:
    """CWND in segments just before each timeout of the traced connections (``n`` of them)."""
    kind, src, t, v = ds.trace_kind.values, ds.trace_source.values, ds.trace_time.values, ds.trace_value.values
    out = []
    for c in range(n):
        mine = src == c
        cw_t, cw_v = t[mine & (kind == "cwnd")], v[mine & (kind == "cwnd")]
        for at in t[mine & (kind == "timeout")]:
            k = np.searchsorted(cw_t, at, "left") - 1
            out.append(cw_v[k] / MSS if k >= 0 else np.nan)
    return np.array(out, float)


def study_point(point: dict, quick: bool) -> xr.Dataset:
    """One point of Figs. 2-10 under the reading, every connection traced after the warm-up: the fast
    retransmits and timeouts after it, and how many timeouts came at a window of 3 segments or more."""
    rtts, _ = TOTAL_FIGURES[point["case"]]
    duration, warmup = run_length(quick)
    trace = m.TraceConfig(connections=tuple(range(len(rtts))), start_s=warmup, max_records=4_000_000)
    run = lakshman_run(rtts, discipline_port(point["discipline"], point["buffer"]), point["seed"], duration, warmup,
                       trace=trace, reading=READINGS[point["tcp"]])
    ds = simulate(run)
    kind = ds.trace_kind.values
    windows = timeout_windows(ds, len(rtts))
    count = lambda value, name: ((), int(value), {"units": "1", "long_name": name})  # noqa: E731
    return xr.Dataset({
        "total_throughput": summarize_run(ds, run, rtts).total_throughput,
        "fast_retransmits": count((kind == "fast_retransmit").sum(), "fast retransmits after the warm-up"),
        "timeouts": count((kind == "timeout").sum(), "retransmission timeouts after the warm-up"),
        "timeouts_large_window": count((windows >= SMALL_WINDOW).sum(),
                                       f"timeouts after the warm-up at a CWND of {SMALL_WINDOW} segments or more"),
    })


EXPERIMENTS = [Experiment(STUDY, "Figs. 2-10: how losses are detected, and the window at each timeout, both readings",
                          study_points, study_point, parameters=parameters,
                          notes="not a figure of the paper: lakshman 3's sentence on fast retransmit")]


# --- the checks --------------------------------------------------------------------------------------------------
def fast_retransmit_share(target: str):
    """Of the headline runs of ``target`` (every discipline, buffer and seed; the counters cover the whole run,
    warm-up included): fast retransmits over fast retransmits and timeouts."""
    def measure(data: dict) -> float:
        ds = data[target]
        fast, timeouts = float(ds.fast_retransmits.sum()), float(ds.timeouts.sum())
        return fast / (fast + timeouts) if fast + timeouts else float("nan")
    return measure


def large_window_timeout_share(reading: str):
    """Of ``lakshman.loss_detection``'s runs under ``reading``: the share of the timeouts that came at a
    window of 3 segments or more."""
    def measure(data: dict) -> float:
        ds = data[STUDY].sel(tcp=reading)
        timeouts = float(ds.timeouts.sum())
        return float(ds.timeouts_large_window.sum()) / timeouts if timeouts else 0.0
    return measure


def study_fast_retransmit_share(reading: str, case: str):
    """A measure of the study's runs under ``reading`` for figure ``case``: the share of the loss events that
    started with a fast retransmit (NaN without any)."""
    def measure(data: dict) -> float:
        ds = data[STUDY].sel(tcp=reading, case=case)
        fast, timeouts = float(ds.fast_retransmits.sum()), float(ds.timeouts.sum())
        return fast / (fast + timeouts) if fast + timeouts else float("nan")
    return measure


OTHER = "one segment per RTT"
CHECKS = [
    *(BehaviourCheck(f"fast_retransmit_detects_most_losses_{target.split('.')[1]}", "lakshman 3", QUOTE, (),
                     f"more than {MOST:g} of the losses", "share of loss events", (target,),
                     fast_retransmit_share(target), lambda share: share > MOST,
                     OTHER, (STUDY,), study_fast_retransmit_share(OTHER, target))
      for target in TOTAL_FIGURES),
    BehaviourCheck("timeouts_only_at_small_windows", "lakshman 3", QUOTE, (),
                   f"timeouts only at windows below {SMALL_WINDOW} packets (at most {ALL_BUT:g} of them above)",
                   f"share of timeouts at cwnd >= {SMALL_WINDOW} segments", (STUDY,),
                   large_window_timeout_share("headline"), lambda share: share <= ALL_BUT,
                   OTHER, (STUDY,), large_window_timeout_share(OTHER)),
]
"""lakshman's sentence on loss detection: per figure, the share of loss events that start with a fast
retransmit (the headline runs); over all figures, the share of timeouts at windows the sentence does not allow
(``lakshman.loss_detection``). The other reading's values come from the study."""
