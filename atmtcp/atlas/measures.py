"""One atlas run reduced to the four numbers a reader compares across the grid, each by the reduction
its scenario's paper uses (:data:`METRICS`):

- ``efficiency``: goyal1998 3.2's efficiency (the sum of the goodputs over the maximum TCP goodput,
  :func:`atmtcp.papers.goyal1998.summary.summarize`); cheon 4.2.3's effective throughput over "the maximum
  number of packets that can be carried by an OC-3 link" (the distinct packets after the warm-up, as
  :func:`atmtcp.papers.cheon.experiments.summarize_run` counts them, over
  :func:`~atmtcp.papers.cheon.scenario.max_effective_throughput` for the run's length); lakshman 4's normalized good throughput
  (:func:`atmtcp.papers.lakshman.experiments.summarize_run`); ewa 2's effective utilization of L1, the mean of
  its 250 ms intervals (:func:`atmtcp.papers.ewa.section4.experiments.summarize_ewa`).
- ``fairness``: Jain's index of the connections' goodputs (goyal1998, cheon, lakshman); for ewa the mean over
  its phases of the index of the connections open in each (ewa's ``fairness_phase``).
- ``loss``: what the bottleneck dropped over what arrived at it: cells at the congested cell port, data
  packets at AAP-1 over the segments the sources sent.
- ``timeouts_per_connection``: retransmission timeouts over the run, per connection.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import xarray as xr

from .. import model as m
from ..metrics import fairness_index
from ..simulate import simulate
from ..topologies import parking_lot_bottleneck
from ..papers.cheon import scenario as cheon
from ..papers.ewa.section4 import experiments as ewa_experiments, scenario as ewa_scenario
from ..papers.lakshman import experiments as lakshman_experiments
from ..papers.goyal1998.scenario import BOTTLENECK as GOYAL_BOTTLENECK
from ..papers.goyal1998.summary import summarize
from ..papers.lakshman.scenario import BOTTLENECK as LAKSHMAN_BOTTLENECK
from .grid import CHEON_PAYLOAD, SCENARIOS, Scenario

METRICS = {
    "efficiency": ("1", "efficiency or utilization, as the scenario's paper defines it", True),
    "fairness": ("1", "Jain's fairness index of the connections' goodputs", True),
    "loss": ("1", "cells (packets) dropped at the bottleneck over those that arrived (were sent)", False),
    "timeouts_per_connection": ("1", "retransmission timeouts per connection", False),
}
"""name -> (units, long name, higher is better)."""


def _cell_loss(ds: xr.Dataset, port: str) -> float:
    return float(ds.cells_dropped.sel(port=port).sum()) / max(1, int(ds.cells_in.sel(port=port)))


def _goyal(ds: xr.Dataset, run: m.Run, scenario: Scenario) -> tuple[float, float, float]:
    summary = summarize(ds, with_sources=False)
    return float(summary.efficiency), float(summary.fairness), _cell_loss(ds, GOYAL_BOTTLENECK)


def _cheon(ds: xr.Dataset, run: m.Run, scenario: Scenario) -> tuple[float, float, float]:
    case = scenario.key.split("_", 1)[1]
    received = ds.segments_received.values
    efficiency = received.sum() / cheon.max_effective_throughput(case, CHEON_PAYLOAD, run.duration_s)
    return float(efficiency), fairness_index(received), _cell_loss(ds, parking_lot_bottleneck(run.network))


def _lakshman(ds: xr.Dataset, run: m.Run, scenario: Scenario) -> tuple[float, float, float]:
    summary = lakshman_experiments.summarize_run(ds, run, [0.0] * len(run.connections))
    throughput = summary.good_throughput.values
    return float(summary.total_throughput), fairness_index(throughput), _cell_loss(ds, LAKSHMAN_BOTTLENECK)


def _ewa(ds: xr.Dataset, run: m.Run, scenario: Scenario) -> tuple[float, float, float]:
    s = ewa_scenario.SCENARIOS[{"ewa_section2": "small_ip", "ewa_section43": "unequal_ip"}[scenario.key]]
    summary = ewa_experiments.summarize_ewa(ds, run, s if run.duration_s == s.duration_s else
                                            _shortened(s, run.duration_s))
    loss = float(ds.packets_dropped_by_source.sum()) / max(1, int(ds.segments_sent.sum()))
    return float(summary.utilization.mean()), float(np.nanmean(summary.fairness_phase.values)), loss


def _shortened(s, duration_s: float):
    """``s`` with its phases cut at ``duration_s`` (quick runs): the phases that start before it."""
    phases = tuple((name, start, min(end, duration_s)) for name, start, end in s.phases if start < duration_s)
    return replace(s, duration_s=duration_s, phases=phases)


REDUCTIONS = {"goyal1998": _goyal, "goyal1997": _goyal, "cheon": _cheon, "lakshman": _lakshman, "ewa": _ewa}


def measure(run: m.Run, scenario: Scenario) -> xr.Dataset:
    """Simulate ``run`` (a cell of ``scenario``) and reduce it to :data:`METRICS`."""
    ds = simulate(run)
    efficiency, fairness, loss = REDUCTIONS[scenario.paper](ds, run, scenario)
    values = {"efficiency": efficiency, "fairness": fairness, "loss": loss,
              "timeouts_per_connection": float(ds.timeouts.sum()) / len(run.connections)}
    return xr.Dataset({name: xr.DataArray(values[name], attrs={"units": units, "long_name": text})
                       for name, (units, text, _) in METRICS.items()})


def measure_cell(scenario_key: str, policy: str, tcp: str, seed: int, quick: bool) -> xr.Dataset:
    """The numbers of one grid cell."""
    scenario = SCENARIOS[scenario_key]
    return measure(scenario.run(policy, tcp, seed, quick), scenario)
