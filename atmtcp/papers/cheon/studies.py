"""cheon: studies of why our ESPD gains more than the paper's, and of PPD's dropped EOM cell (issue 23).

The tables keep ESPD exactly as section 3.3's pseudocode says. These targets show what its gain
depends on, each on 10 seeds:

- ``cheon.espd_hold_study``: Table 1's ESPD (symmetric, 500-byte packets) with its drop timer swept
  from 0.25 ms to 100 ms (the paper: 25 ms). Per run, beside the effective throughput, what one capture
  into the drop-list costs its session (:func:`capture_costs`): how long the session keeps losing
  packets (the *hold*) and how many it loses, and how many sessions a congestion epoch damages. The
  pseudocode releases a session only "when the EOM cell ... arrives and the buffer occupancy is below
  threshold 2" (or when the timer expires), so a captured session loses every packet until then.
- ``cheon.espd_readings``: Table 1's ESPD under the readings of section 3.3 that the model's options
  express (drop-list size, thresholds 1 and 2, the SONET payload rate): none is the paper's.
- ``cheon.eom_study``: PPD and EPD in all five tables under both readings of a dropped EOM cell: the
  pseudocode's, where it captures its VC (``capture_eom=True``, the tables' setting), and the end of
  the packet (``capture_eom=False``, goyal's runs). PPD's Table 2 gain over RCD is +23.1 % in the paper.
- ``cheon.opnet_timer_study``: Tables 1-4's four policies under one retransmission timer per session (cheon 2's
  own change, the tables' setting) and under OPNET 2.4's timer per segment, which cheon 2 replaced: "each
  packet being transmitted from the source node has its own RTO timer so that once a timeout occurs, many
  subsequent timeouts generally follow". What the paper's numbers would have been on the unmodified model.
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from ...experiment import Experiment, grid
from .experiments import BUFFER_CELLS, EPOCH_LEVEL, TABLES, congested_rtt_s, congestion_epochs, seeds, simulate_case
from .experiments import summarize_run
from .scenario import CASES, WARMUP_S

HOLD_TIMERS_S = (0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1)
"""The drop timers of the hold study; cheon 4: "drop timer: 25 msec for symmetric roundtrip time"."""
QUICK_HOLD_TIMERS_S = (0.0005, 0.025)

READINGS = {
    # name: (DropPolicy fields replaced, ATM over SONET)
    "as written": ({}, False),
    "drop-list of 1 session": ({"droplist_max": 1}, False),
    "drop-list of 5 sessions": ({"droplist_max": 5}, False),
    "threshold 1 = 1800 cells": ({"threshold": 1800}, False),
    "threshold 1 = 1960 cells": ({"threshold": 1960}, False),
    "threshold 2 = 1900 cells": ({"threshold2": 1900}, False),
    "SONET payload rate": ({}, True),
}
"""Readings of cheon 3.3 the options express. "as written": threshold 1 = 2000 - 6 packets (1928),
threshold 2 = half the buffer (1000), a drop-list of 20 % of the sessions (2 of 10), the 25 ms timer."""
QUICK_READINGS = ("as written", "threshold 2 = 1900 cells")
EOM_TABLES = tuple(TABLES)
EOM_POLICIES = ("ppd", "epd")
EOM_READINGS = {"captures its VC": True, "ends its packet": False}
"""A dropped EOM cell: cheon 3's pseudocode (the tables' setting) or goyal's runs."""


def capture_costs(ds: xr.Dataset, case: str) -> dict[str, float]:
    """What a capture into the drop-list costs, after the warm-up, at the congested port.

    For each capture of a session (``capture_*`` log), its *hold* is the time from the capture to the
    last of its data cells dropped there before its next capture (0 if none), and its *loss* the
    distinct packets of that session dropped in that time. Also the sessions captured per congestion
    epoch (:func:`.experiments.congestion_epochs`). Returns medians and means over the run."""
    port = ds.attrs["bottleneck_port"]
    at_port = (ds.capture_port.values == port) & (ds.capture_is_ack.values == 0)
    cap_t, cap_s = ds.capture_time.values[at_port], ds.capture_source.values[at_port]
    dropped = (ds.drop_port.values == port) & (ds.drop_is_ack.values == 0)
    drop_t, drop_s, drop_seq = ds.drop_time.values[dropped], ds.drop_source.values[dropped], ds.drop_seq.values[dropped]
    holds, losses = [], []
    for t, s in zip(cap_t, cap_s):
        if t < WARMUP_S:
            continue
        later = cap_t[(cap_s == s) & (cap_t > t)]
        end = later.min() if later.size else np.inf
        mine = (drop_s == s) & (drop_t >= t) & (drop_t < end)
        holds.append(float(drop_t[mine].max() - t) if mine.any() else 0.0)
        losses.append(len(np.unique(drop_seq[mine])))
    queue = ds.queue_cells.sel(traced_port=port)
    epochs = congestion_epochs(queue.sample_time.values, queue.values, congested_rtt_s(case))
    epochs = epochs[epochs[:, 0] >= WARMUP_S] if epochs.size else epochs
    damaged = [len(np.unique(cap_s[(cap_t >= a) & (cap_t <= b)])) for a, b in epochs]
    return {"hold_s": float(np.median(holds)) if holds else np.nan,
            "packets_per_capture": float(np.mean(losses)) if losses else np.nan,
            "captures": float(len(holds)),
            "sessions_per_epoch": float(np.mean(damaged)) if damaged else np.nan}


COST_ATTRS = {
    "hold_s": {"units": "s", "long_name": "median time a captured session keeps losing packets"},
    "packets_per_capture": {"units": "packet", "long_name": "mean packets a session loses per capture"},
    "captures": {"units": "1", "long_name": "captures into the drop-list after the warm-up"},
    "sessions_per_epoch": {"units": "1", "long_name": "mean sessions captured per congestion epoch"},
}


def study_run(case: str, payload: int, policy: str, policy_changes: dict | None = None,
              sonet: bool = False, costs: bool = False):
    """One run of a study reduced to its total effective throughput, fairness and (``costs``) what a
    capture costs."""
    def reduce(seed: int) -> xr.Dataset:
        ds = simulate_case(case, policy, payload, seed, policy_changes=policy_changes, sonet=sonet)
        summary = summarize_run(ds, case)
        out = xr.Dataset({
            "effective_throughput": ((), int(summary.effective_throughput.sum()), {
                "units": "packet", "long_name": "distinct packets delivered after the warm-up, all sessions"}),
            "fairness": summary.fairness,
        })
        if costs:
            for name, value in capture_costs(ds, case).items():
                out[name] = xr.DataArray(value, attrs=COST_ATTRS[name])
        return out
    return reduce


def hold_points(quick: bool) -> list[dict]:
    """``cheon.espd_hold_study``'s points: each drop timer of :data:`HOLD_TIMERS_S` x the symmetric case's
    seeds."""
    return grid(drop_timer_s=list(QUICK_HOLD_TIMERS_S if quick else HOLD_TIMERS_S), seed=seeds("symmetric", quick))


def hold_run(point: dict, quick: bool) -> xr.Dataset:
    """One Table 1 ESPD run (symmetric, 500-byte packets) with the point's drop timer, with the costs of a
    capture (:func:`capture_costs`)."""
    return study_run("symmetric", 500, "espd", {"drop_timer_s": point["drop_timer_s"]}, costs=True)(point["seed"])


def readings_points(quick: bool) -> list[dict]:
    """``cheon.espd_readings``' points: each reading of :data:`READINGS` x the symmetric case's seeds."""
    return grid(reading=list(QUICK_READINGS if quick else READINGS), seed=seeds("symmetric", quick))


def readings_run(point: dict, quick: bool) -> xr.Dataset:
    """One Table 1 ESPD run under the point's reading of section 3.3 (:data:`READINGS`), with the costs of a
    capture."""
    changes, sonet = READINGS[point["reading"]]
    return study_run("symmetric", 500, "espd", changes, sonet, costs=True)(point["seed"])


def eom_points(quick: bool) -> list[dict]:
    """``cheon.eom_study``'s points: table x PPD and EPD x both readings of a dropped EOM cell x seeds (quick:
    Tables 1-2 only)."""
    tables = ("cheon.table1", "cheon.table2") if quick else EOM_TABLES
    return grid(table=list(tables), policy=list(EOM_POLICIES), dropped_eom=list(EOM_READINGS),
                seed=seeds("symmetric", quick))


def eom_run(point: dict, quick: bool) -> xr.Dataset:
    """One run of the point's table and policy with a dropped EOM cell capturing its VC or ending its packet
    (:data:`EOM_READINGS`; cheon 3.1-3.2)."""
    case, payload, _ = TABLES[point["table"]]
    capture = EOM_READINGS[point["dropped_eom"]]
    return study_run(case, payload, point["policy"], {"capture_eom": capture})(point["seed"])


TIMER_SCHEMES = {"one per session (cheon 2)": "per_connection", "per segment (OPNET 2.4)": "per_segment"}
"""``cheon.opnet_timer_study``'s TCP: cheon's (:data:`atmtcp.papers.cheon.scenario.TCP_SETTINGS`) with each
:attr:`atmtcp.model.TcpConfig.retransmit_timers`."""
TIMER_TABLES = ("cheon.table1", "cheon.table2", "cheon.table3", "cheon.table4")
TIMER_POLICIES = ("rcd", "ppd", "epd", "espd")


def timer_points(quick: bool) -> list[dict]:
    """The points of ``cheon.opnet_timer_study``: Tables 1-4 (Table 1 alone in quick mode), each policy, each
    timer scheme (:data:`TIMER_SCHEMES`), the symmetric seeds."""
    return grid(table=list(TIMER_TABLES[:1] if quick else TIMER_TABLES), policy=list(TIMER_POLICIES),
                timers=list(TIMER_SCHEMES), seed=seeds("symmetric", quick))


def timer_run(point: dict, quick: bool) -> xr.Dataset:
    """One run of Tables 1-4 under the point's timer scheme: the effective throughput of all sessions, its
    fairness, the windows' synchronization, timeouts and fast retransmits."""
    case, payload, _ = TABLES[point["table"]]
    ds = simulate_case(case, point["policy"], payload, point["seed"],
                       tcp_changes={"retransmit_timers": TIMER_SCHEMES[point["timers"]]})
    summary = summarize_run(ds, case)
    out = summary[["fairness", "synchronization", "timeouts", "fast_retransmits"]]
    out["effective_throughput"] = xr.DataArray(int(summary.effective_throughput.sum()), attrs={
        "units": "packet", "long_name": "distinct packets delivered after the warm-up, all sessions"})
    return out


def _attrs(**extra) -> dict:
    return {"buffer_cells": BUFFER_CELLS, "epoch_level": EPOCH_LEVEL, **extra}


EXPERIMENTS = [
    Experiment("cheon.espd_hold_study", "ESPD's throughput against how long a captured session keeps losing "
               "(Table 1, drop timer 0.25-100 ms)", hold_points, hold_run,
               attrs=_attrs(case="symmetric", packet_bytes=500, paper_drop_timer_s=CASES["symmetric"]["drop_timer_s"])),
    Experiment("cheon.espd_readings", "ESPD under the readings of section 3.3 the options express (Table 1)",
               readings_points, readings_run, attrs=_attrs(case="symmetric", packet_bytes=500)),
    Experiment("cheon.opnet_timer_study", "Tables 1-4 under OPNET 2.4's per-segment retransmission timers, which "
               "cheon 2 replaced", timer_points, timer_run, attrs=_attrs()),
    Experiment("cheon.eom_study", "PPD and EPD with a dropped EOM cell capturing its VC or ending its packet "
               "(Tables 1-5)", eom_points, eom_run, attrs=_attrs()),
]
