"""cheon: "Early Selective Packet Discard for Alternating Resource Access of TCP over ATM-UBR".

Every target whose id starts with ``cheon.``:

- Tables 1-4: RCD, PPD, EPD, ESPD on the symmetric and asymmetric parking lot, 500- and
  1500-byte packets; Table 5: EPD and ESPD on the Appendix's 4-switch network. Each table
  runs 10 seeds (the paper averaged 10 and 6 runs, recorded as the Datasets' ``paper_runs``).
  Each run is reduced to the effective throughput of every session and its fairness
  (:func:`summarize_run`); :func:`seed_statistics` adds each run's throughput per group of
  sessions, from which the comparison computes the tables' means, standard deviations and
  improvements as distributions over seeds.
- Figs. 2-4, 6 (queue and sessions damaged) and 8-11 (the ten windows) come from one traced
  symmetric 500-byte run per policy, seed 0 (:func:`traced_run`); Figs. 5 and 7 magnify
  the first congestion epoch of Figs. 4 and 6. Fig. 12 is drawn from
  :func:`atmtcp.kernel.policies.espd_decision` itself (no simulation).

Definitions the paper leaves open (each also in ``notebooks/cheon.ipynb``):

- *Synchronization* (Figs. 8-11's "synchronized" / "asynchronous"): the mean over all pairs
  of sessions of the Pearson correlation of their cwnd, sampled every 10 ms after the
  0.5 s warm-up (:func:`window_synchronization`). 1: the windows rise and fall together.
- *Congestion epoch* (4.1.1, "the duration of congestion is about one roundtrip time"): a
  maximal interval in which the queue at the congested port stays at or above 90 % of the
  buffer, joining intervals less than one RTT apart ("the queue length goes above and below
  the threshold frequently"). The RTT is the sessions' shortest propagation round trip plus
  the queueing delay of a full 2000-cell buffer (:func:`congestion_epochs`).
"""
from __future__ import annotations

import dataclasses

import numpy as np
import xarray as xr

from ... import model as m
from ...experiment import Experiment, grid
from ...simulate import simulate
from ...metrics import fairness_index
from ...topologies import parking_lot_bottleneck
from .scenario import (
    BUFFER_CELLS, CASES, POLICIES, WARMUP_S, cheon_run, group_of_sessions, max_effective_throughput,
)

TABLES = {
    # target: (case, packet bytes, policies)
    "cheon.table1": ("symmetric", 500, POLICIES),
    "cheon.table2": ("asymmetric", 500, POLICIES),
    "cheon.table3": ("symmetric", 1500, POLICIES),
    "cheon.table4": ("asymmetric", 1500, POLICIES),
    "cheon.table5": ("appendix", 500, ("epd", "espd")),
}
TRACED = {"cheon.fig2": "rcd", "cheon.fig3": "ppd", "cheon.fig4": "epd", "cheon.fig6": "espd"}
"""The traced runs behind Figs. 2-11 (symmetric, 500-byte packets, seed 0)."""
WINDOW_FIGURES = {"cheon.fig8": "cheon.fig2", "cheon.fig9": "cheon.fig3", "cheon.fig10": "cheon.fig4",
                  "cheon.fig11": "cheon.fig6"}
MAGNIFIED = {"cheon.fig5": "cheon.fig4", "cheon.fig7": "cheon.fig6"}
QUICK_SEEDS = 2
MIN_SEEDS = 10
"""Our runs per table column in full mode: at least 10, so that every compared cell is a
distribution of at least 10 runs (see :func:`seeds`)."""
SYNC_SAMPLE_S = 0.01
EPOCH_LEVEL = 0.9


def paper_runs(case: str) -> int:
    """How many runs the paper averaged per table cell: cheon 4.2.3, "The effective throughputs in
    Tables 1 and 3 are the averages over 10 simulations and the effective throughputs in Tables 2
    and 4 are the averages over 6 simulations"; the Appendix (Table 5) keeps "every simulation
    parameter ... exactly the same with the case of symmetric roundtrip simulation": 10."""
    return CASES[case]["paper_runs"]


def seeds(case: str, quick: bool) -> list[int]:
    """Our seeds of one table: max(:data:`MIN_SEEDS`, :func:`paper_runs`) in full mode (10 for
    every table: the paper's 10, and 10 instead of its 6 for the asymmetric tables); quick mode
    runs :data:`QUICK_SEEDS`. The paper's numbers are compared with means of as many of our runs
    as it averaged (the Dataset's ``paper_runs`` attribute, :func:`seed_statistics`)."""
    return list(range(QUICK_SEEDS if quick else max(MIN_SEEDS, paper_runs(case))))


FULL_BUFFER_S = BUFFER_CELLS * 53 * 8 / m.OC3_BPS
"""The queueing delay of a full bottleneck buffer at OC-3."""


def congested_rtt_s(case: str) -> float:
    """The shortest propagation round trip of ``case`` plus a full buffer's queueing delay."""
    spec = CASES[case]
    one_way = []
    for g, (_count, access) in enumerate(spec["groups"]):
        one_way.append(access + sum(spec["trunks_s"][g:]) + spec["sink_s"])
    return 2 * min(one_way) + FULL_BUFFER_S


# --- reductions of one run ---------------------------------------------------------------------------
def cwnd_samples(ds: xr.Dataset, times: np.ndarray) -> np.ndarray:
    """cwnd of every source at ``times`` (the last record at or before each), shape (time, source)."""
    out = np.full((times.size, ds.sizes["source"]), np.nan)
    kind = ds.trace_kind.values
    for s in range(ds.sizes["source"]):
        keep = (ds.trace_source.values == s) & (kind == "cwnd")
        t, v = ds.trace_time.values[keep], ds.trace_value.values[keep]
        last = np.searchsorted(t, times, side="right") - 1
        out[:, s] = np.where(last >= 0, v[np.maximum(last, 0)], np.nan)
    return out


def window_synchronization(cwnd: np.ndarray) -> float:
    """Mean pairwise Pearson correlation of the sessions' cwnd series (columns); sessions whose
    window never changed are left out. See the module docstring."""
    varying = cwnd[:, np.nanstd(cwnd, axis=0) > 0]
    if varying.shape[1] < 2:
        return float("nan")
    r = np.corrcoef(varying, rowvar=False)
    return float(r[np.triu_indices_from(r, k=1)].mean())


def congestion_epochs(times: np.ndarray, queue: np.ndarray, rtt_s: float) -> np.ndarray:
    """(start, end) of each congestion epoch, shape (n, 2); see the module docstring."""
    high = queue >= EPOCH_LEVEL * BUFFER_CELLS
    if not high.any():
        return np.empty((0, 2))
    edges = np.flatnonzero(np.diff(np.r_[0, high.astype(int), 0]))
    runs = [[times[a], times[b - 1]] for a, b in zip(edges[::2], edges[1::2])]
    merged = [runs[0]]
    for start, end in runs[1:]:
        if start - merged[-1][1] < rtt_s:
            merged[-1][1] = end
        else:
            merged.append([start, end])
    return np.array(merged)


def summarize_run(ds: xr.Dataset, case: str) -> xr.Dataset:
    """One run's numbers: effective throughput per session (distinct packets after the warm-up,
    cheon 4.2.3), its fairness (cheon 4.2.3's index), window synchronization, congestion
    epochs, timeouts and fast retransmits."""
    port = ds.attrs["bottleneck_port"]
    received = ds.segments_received.values.astype(np.int64)
    times = np.arange(WARMUP_S, ds.attrs["duration_s"], SYNC_SAMPLE_S)
    rtt = congested_rtt_s(case)
    queue = ds.queue_cells.sel(traced_port=port)
    epochs = congestion_epochs(queue.sample_time.values, queue.values, rtt)
    epochs = epochs[epochs[:, 0] >= WARMUP_S] if epochs.size else epochs
    durations = epochs[:, 1] - epochs[:, 0] if epochs.size else np.array([])
    out = xr.Dataset({
        "effective_throughput": ("source", received, {"units": "packet", "long_name":
                                 "distinct packets delivered after the warm-up"}),
        "fairness": ((), fairness_index(received), {"units": "1", "long_name": "fairness index of the effective throughputs"}),
        "synchronization": ((), window_synchronization(cwnd_samples(ds, times)), {
            "units": "1", "long_name": "mean pairwise correlation of the sessions' cwnd (10 ms samples)"}),
        "epochs": ((), len(durations), {"units": "1", "long_name": "congestion epochs after the warm-up"}),
        "epoch_rtts": ((), float(np.median(durations) / rtt) if len(durations) else np.nan, {
            "units": "1", "long_name": "median congestion-epoch duration in congested RTTs"}),
        "timeouts": ((), int(ds.timeouts.sum()), {"units": "1", "long_name": "retransmission timeouts"}),
        "fast_retransmits": ((), int(ds.fast_retransmits.sum()), {"units": "1", "long_name": "fast retransmits"}),
        "cells_dropped": ((), int(ds.cells_dropped.sel(port=port).sum()), {
            "units": "cell", "long_name": f"cells dropped at the congested port {port}"}),
    }, coords={"group": ("source", group_of_sessions(case))})
    return out


def simulate_case(case: str, policy: str, payload: int, seed: int, trace_all: bool = True,
                  policy_changes: dict | None = None, sonet: bool = False, tcp_changes: dict | None = None) -> xr.Dataset:
    """Simulate one run with the congested port's queue and every session's cwnd traced.
    ``policy_changes`` replaces fields of the switch ports' :class:`~atmtcp.model.DropPolicy`,
    ``sonet`` sets :attr:`atmtcp.model.Network.sonet` and ``tcp_changes`` replaces fields of every session's
    :class:`~atmtcp.model.TcpConfig` (the studies of :mod:`.studies`)."""
    run = cheon_run(case, policy, payload, seed)
    if tcp_changes:
        run = dataclasses.replace(run, connections=tuple(
            dataclasses.replace(c, tcp=dataclasses.replace(c.tcp, **tcp_changes)) for c in run.connections))
    if policy_changes or sonet:
        port = run.network.switch_port
        port = dataclasses.replace(port, policy=dataclasses.replace(port.policy, **(policy_changes or {})))
        run = dataclasses.replace(run, network=dataclasses.replace(run.network, switch_port=port, sonet=sonet))
    port = parking_lot_bottleneck(run.network)
    n = len(run.connections)
    trace = m.TraceConfig(connections=tuple(range(n)) if trace_all else (), ports=(port,),
                          sample_interval_s=1e-3 if not trace_all else 5e-4, max_records=1_500_000)
    ds = simulate(m.Run(run.network, run.connections, run.duration_s, run.seed, run.aal5, trace, run.warmup_s))
    ds.attrs["bottleneck_port"] = port
    return ds


# --- Tables 1-5 ---------------------------------------------------------------------------------------
def table_points(target: str):
    """The ``points`` function of table ``target`` (``"cheon.table1"`` ... ``"cheon.table5"``): its policies x
    the case's seeds."""
    case, _, policies = TABLES[target]
    return lambda quick: grid(policy=list(policies), seed=seeds(case, quick))


def table_run(target: str):
    """The ``run_point`` function of table ``target``: one run of the table's case and packet size under
    the point's policy, summarized by :func:`summarize_run` (effective throughput and fairness, cheon 4.2.3)."""
    case, payload, _ = TABLES[target]

    def run_point(point: dict, quick: bool) -> xr.Dataset:
        return summarize_run(simulate_case(case, point["policy"], payload, point["seed"]), case)
    return run_point


def seed_statistics(target: str):
    """What the tables are computed from: per policy and group ("all" and each group of sessions)
    the effective throughput of every run (``group_throughput``, dims group, policy, seed), beside
    each run's fairness index (``fairness``), and the maximum effective throughput. The tables'
    means, standard deviations and improvements (cheon 4.2.3: "PPD improves the effective
    throughput by 28.3 % over random cell discard(RCD) and EPD gets another ... 21.4 % compared
    to PPD") are computed from these per-seed values by :func:`atmtcp.reference.comparison` and
    the claims, with their distributions over seeds; none is stored, so that no check reads a
    mean where it should read a run.

    The attribute ``paper_runs`` is the number of runs behind each of the paper's numbers
    (:func:`paper_runs`; cheon 4.2.3: "The effective throughputs in Tables 1 and 3 are the
    averages over 10 simulations and the effective throughputs in Tables 2 and 4 are the
    averages over 6 simulations"): the comparison places each paper value in the distribution
    of a mean (or standard deviation) of that many of our runs."""
    case, payload, policies = TABLES[target]

    def finish(ds: xr.Dataset) -> xr.Dataset:
        per_group = ds.effective_throughput.groupby("group").sum()
        total = ds.effective_throughput.sum("source").expand_dims(group=["all"])
        by_group = xr.concat([total, per_group], dim="group")
        ds["group_throughput"] = by_group.assign_attrs(units="packet", long_name="effective throughput, per run")
        ds["max_effective_throughput"] = xr.DataArray(max_effective_throughput(case, payload), attrs={
            "units": "packet", "long_name": "OC-3 packets in the measured interval (cheon 4.2.3)"})
        ds.attrs.update(case=case, packet_bytes=payload, policies=", ".join(policies), paper_runs=paper_runs(case))
        return ds
    return finish


# --- Figs. 2-11 ---------------------------------------------------------------------------------------
def traced_run(policy: str):
    """Figs. 2-4, 6 and 8-11: the symmetric 500-byte case, seed 0: the queue at the congested
    port every 0.5 ms, each capture into the drop-list (each dropped cell for RCD, which has no
    list), and every session's cwnd every 1 ms."""
    def run_point(point: dict, quick: bool) -> xr.Dataset:
        ds = simulate_case("symmetric", policy, 500, 0)
        port = ds.attrs["bottleneck_port"]
        times = np.arange(0.0, ds.attrs["duration_s"], 1e-3)
        at_port = ds.capture_port.values == port
        dropped = (ds.drop_port.values == port) & (ds.drop_is_ack.values == 0)
        damaged_time = ds.drop_time.values[dropped] if policy == "rcd" else ds.capture_time.values[at_port]
        damaged_source = ds.drop_source.values[dropped] if policy == "rcd" else ds.capture_source.values[at_port]
        out = xr.Dataset({
            "queue_cells": ("sample_time", ds.queue_cells.sel(traced_port=port).values, {
                "units": "cell", "long_name": f"queue at the congested port {port}"}),
            "damaged_time": ("damage", damaged_time, {"units": "s", "long_name":
                             "time a session was damaged (captured into the drop-list; RCD: a cell dropped)"}),
            "damaged_session": ("damage", damaged_source + 1, {"units": "1", "long_name": "session ID (1-10)"}),
            "cwnd": (("time", "session"), cwnd_samples(ds, times), {"units": "byte", "long_name": "window size",
                                                                   "interpolation": "previous"}),
        }, coords={"sample_time": ds.sample_time.values, "time": times,
                   "session": np.arange(1, ds.sizes["source"] + 1)})
        out.attrs.update(policy=policy, case="symmetric", packet_bytes=500, seed=0,
                         rtt_s=congested_rtt_s("symmetric"), buffer_cells=BUFFER_CELLS, port=port)
        summary = summarize_run(ds, "symmetric")
        out["synchronization"] = summary.synchronization
        out["epoch_rtts"] = summary.epoch_rtts
        return out
    return run_point


def _single(name: str):
    return lambda quick: [{"case": name}]


def _copy_of(parent: str):
    return lambda parents: parents[parent].copy()


EXPERIMENTS = [
    *(Experiment(target, title, table_points(target), table_run(target), finish=seed_statistics(target))
      for target, title in [
          ("cheon.table1", "Symmetric RTTs, 500-byte packets: effective throughput and fairness"),
          ("cheon.table2", "Asymmetric RTTs, 500-byte packets: long and short RTT groups"),
          ("cheon.table3", "Symmetric RTTs, 1500-byte packets"),
          ("cheon.table4", "Asymmetric RTTs, 1500-byte packets"),
          ("cheon.table5", "Appendix: 4-switch parking lot, 15 sessions, EPD vs ESPD"),
      ]),
    *(Experiment(target, f"Queue length and sessions damaged, {policy.upper() if policy != 'rcd' else 'RCD'}",
                 _single("symmetric_500_seed0"), traced_run(policy))
      for target, policy in TRACED.items()),
    *(Experiment(target, f"Magnified first congestion epoch of {parent.split('.')[1]}",
                 parents=(parent,), derive=_copy_of(parent)) for target, parent in MAGNIFIED.items()),
    *(Experiment(target, f"Session window sizes, {TRACED[parent].upper() if TRACED[parent] != 'rcd' else 'RCD'}",
                 parents=(parent,), derive=_copy_of(parent)) for target, parent in WINDOW_FIGURES.items()),
]
