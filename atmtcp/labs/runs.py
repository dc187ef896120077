"""The runs of a lab: one network, a few settings (policies, Z values, TCP flavours), a few seeds, each
run traced (every source's congestion window, the bottleneck's queue) and reduced to one row of numbers.

The networks are the papers' own, built as the command line and the atlas build them: goyal1998's
N-source configuration as ``atmtcp run`` describes it (:func:`atmtcp.default_run.scenario`, the runs of
``docs/exercises.md``), and cheon's, lakshman's and ewa's through the atlas's builders
(:data:`atmtcp.atlas.grid.SCENARIOS`), reduced by the atlas's measures (each paper's own efficiency).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import matplotlib.pyplot as plt
import pandas as pd
import xarray as xr

from .. import model as m
from ..atlas.grid import SCENARIOS, with_flavour
from ..atlas.measures import REDUCTIONS
from ..default_run import scenario
from ..explore import draw_queue, draw_windows
from ..internetwork import Internetwork
from ..simulate import simulate
from ..topologies import N_SOURCE_BOTTLENECK, ROUTER_ADSU_BOTTLENECK, parking_lot_bottleneck

COLUMNS = ("efficiency", "fairness", "loss", "timeouts", "fast_retransmits", "max_queue", "mean_queue")
"""One row per run: the paper's efficiency and Jain's fairness; the share of what reached the bottleneck that
it dropped; the timeouts and fast retransmits of all sources; the largest and the mean queue at the bottleneck
(cells, or packets at ewa's access point)."""


@dataclass(frozen=True)
class Setting:
    """One column of a lab's comparison: a label and what it changes (``atmtcp run``'s flags for goyal1998's
    network: ``policy``, ``tcp``, ``z``, ``buffer``...; ``policy`` and ``tcp`` for an atlas scenario)."""

    label: str
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class LabNetwork:
    """Where a lab runs: goyal1998's N-source ``network`` ("lan", "wan", "satellite") with ``fixed`` flags,
    or an atlas scenario (``atlas`` names it)."""

    title: str
    network: str | None = None
    atlas: str | None = None
    fixed: dict = field(default_factory=dict)

    def run(self, setting: Setting, seed: int, duration_s: float, windows: bool = True) -> m.Run:
        """The run of ``setting`` with ``seed``, ``duration_s`` simulated seconds, the bottleneck's queue
        sampled and, with ``windows``, every source's window traced."""
        options = {**self.fixed, **setting.options}
        if self.atlas is None:
            run = scenario(self.network, options.pop("sources", 5), options.pop("buffer"), options.pop("policy"),
                           options.pop("tcp"), duration_s, seed, **options)
        else:
            run = with_flavour(SCENARIOS[self.atlas].build(options["policy"], seed, duration_s), options["tcp"])
        return _traced(run, self.bottleneck(run), windows)

    def bottleneck(self, run: m.Run) -> str:
        """The port whose queue the lab draws."""
        if isinstance(run.network, Internetwork):
            return run.trace.ports[0]
        if self.atlas is None:
            return N_SOURCE_BOTTLENECK
        return ROUTER_ADSU_BOTTLENECK if self.atlas.startswith("lakshman") else parking_lot_bottleneck(run.network)

    def measure(self, ds: xr.Dataset, run: m.Run) -> dict:
        """One row of :data:`COLUMNS`."""
        port = self.bottleneck(run)
        if self.atlas is None:
            efficiency, fairness = float(ds.efficiency), float(ds.fairness)   # as `atmtcp run` prints them
            loss = float(ds.cells_dropped.sel(port=port).sum()) / max(1, int(ds.cells_in.sel(port=port)))
        else:
            s = SCENARIOS[self.atlas]
            efficiency, fairness, loss = REDUCTIONS[s.paper](ds, run, s)
        if isinstance(run.network, Internetwork):
            queue = ds.queue_packets_sampled.sel(sampled_queue=port)
            largest = int(ds.max_queue_packets.sel(router_queue=port))
        else:
            queue = ds.queue_cells.sel(traced_port=port)
            largest = int(ds.max_queue.sel(port=port))
        return {"efficiency": efficiency, "fairness": fairness, "loss": loss, "timeouts": int(ds.timeouts.sum()),
                "fast_retransmits": int(ds.fast_retransmits.sum()), "max_queue": largest,
                "mean_queue": float(queue.mean())}


WINDOW_RECORDS = 3_000_000
"""The most window changes one traced run keeps: a 10-s WAN run with SACK changes its five windows about 1.1
million times (once per ACK)."""


def _traced(run: m.Run, port: str, windows: bool) -> m.Run:
    """``run`` sampling ``port``'s queue every millisecond and, with ``windows``, recording every source's
    window (an internetwork, ewa's, samples both every 5 ms already, as its paper's runs do)."""
    if isinstance(run.network, Internetwork):
        return run
    connections = tuple(range(len(run.connections))) if windows else ()
    trace = m.TraceConfig(connections=connections, ports=(port,), sample_interval_s=1e-3,
                          max_records=WINDOW_RECORDS)
    return replace(run, trace=trace)


@dataclass
class LabRuns:
    """A lab's runs: ``table`` (one row per setting and seed, :data:`COLUMNS`) and the traced datasets."""

    network: LabNetwork
    settings: tuple[Setting, ...]
    seeds: tuple[int, ...]
    duration_s: float
    table: pd.DataFrame
    datasets: dict

    def means(self, column: str) -> pd.Series:
        """``column``'s mean over the seeds, per setting (in the lab's order of settings)."""
        return self.table[column].groupby(level="setting", sort=False).mean()

    def spread(self, column: str) -> pd.DataFrame:
        """``column``'s smallest and largest value over the seeds, per setting."""
        grouped = self.table[column].groupby(level="setting", sort=False)
        return pd.DataFrame({"min": grouped.min(), "max": grouped.max()})

    def by_seed(self, column: str) -> pd.DataFrame:
        """``column`` with a row per seed and a column per setting."""
        return self.table[column].unstack("setting")[[s.label for s in self.settings]]

    def plot(self):
        """One row per setting, for the first seed: every source's congestion window and the bottleneck's
        queue over time."""
        seed = self.seeds[0]
        fig, axes = plt.subplots(len(self.settings), 2, figsize=(12, 2.6 * len(self.settings)), squeeze=False)
        for (windows, queue), setting in zip(axes, self.settings):
            ds, port = self.datasets[setting.label, seed]
            draw_windows(windows, ds)
            draw_queue(queue, ds, port)
            row = self.table.loc[(setting.label, seed)]
            windows.set_title(f"{setting.label}: windows", fontsize=9)
            queue.set_title(f"{setting.label}: queue (efficiency {row.efficiency:.2f}, fairness {row.fairness:.2f})",
                            fontsize=9)
        fig.suptitle(f"{self.network.title}, seed {seed}, {self.duration_s:g} s", fontsize=10)
        fig.tight_layout()
        return fig


def run_settings(network: LabNetwork, settings, seeds, duration_s: float) -> LabRuns:
    """Simulate every setting with every seed (settings x seeds short runs); the windows are traced, and the
    datasets kept for :meth:`LabRuns.plot`, for the first seed only (a WAN trace holds a million records)."""
    rows, datasets = [], {}
    for setting in settings:
        for seed in seeds:
            run = network.run(setting, seed, duration_s, windows=seed == seeds[0])
            ds = simulate(run)
            if seed == seeds[0]:
                datasets[setting.label, seed] = (ds, network.bottleneck(run))
            rows.append({"setting": setting.label, "seed": seed, **network.measure(ds, run)})
    table = pd.DataFrame(rows).set_index(["setting", "seed"])[list(COLUMNS)]
    return LabRuns(network, tuple(settings), tuple(seeds), duration_s, table, datasets)
