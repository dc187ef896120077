"""The atlas's figures and tables, all computed from ``atlas.grid`` (no number typed in):

- :func:`heat_map`: one figure per metric, policy (rows) x scenario (columns), one panel per TCP, the mean
  over seeds in each cell (blank where the policy does not act at the scenario's layer);
- :func:`means_table`: every cell's mean and 90 % interval, as CSV;
- :func:`conclusions_table`: each paper's principal conclusion (its words) against every scenario, marked
  holds / does not / partly / not applicable with the seeds that agree (:mod:`.conclusions`);
- :func:`recommendation`: which policy to choose where, in plain words, and where that depends on the TCP;
- :func:`closing_note`: every conclusion that held and every one that did not, with its numbers;
- :func:`write_all`: all of them into ``<figures_dir>/atlas/``.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xarray as xr  # noqa: E402

from ..figures import QUICK_STAMP, save_figure, save_table, write_csv  # noqa: E402
from ..statistics import mean_and_interval  # noqa: E402
from . import conclusions as cc  # noqa: E402
from .grid import LABELS, SCENARIOS, TCP_LABELS  # noqa: E402
from .measures import METRICS  # noqa: E402

FOLDER = "atlas"
TITLES = {"efficiency": "Efficiency (utilization)", "fairness": "Jain's fairness index",
          "loss": "Loss at the bottleneck", "timeouts_per_connection": "Timeouts per connection"}


def heat_map(grid: xr.Dataset, metric: str):
    """The mean over seeds of ``metric``, policy x scenario, one panel per TCP (a shared colour scale)."""
    means = grid[metric].mean("seed")
    higher = METRICS[metric][2]
    tcps = [str(t) for t in grid.tcp.values]
    fig, axes = plt.subplots(1, len(tcps), figsize=(3.1 * len(tcps) + 1.5, 6.2), sharey=True, squeeze=False)
    low, high = float(np.nanmin(means)), float(np.nanmax(means))
    for ax, tcp in zip(axes[0], tcps):
        values = means.sel(tcp=tcp).transpose("policy", "scenario").values
        image = ax.imshow(values, aspect="auto", cmap="viridis" if higher else "viridis_r", vmin=low, vmax=high)
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                dark = ((v - low) / max(high - low, 1e-12) < 0.5) == higher  # the dark end of the colour map
                ax.text(j, i, f"{v:.2f}" if abs(v) < 10 else f"{v:.0f}", ha="center", va="center", fontsize=6,
                        color="white" if dark else "black")
        ax.set_title(TCP_LABELS[tcp])
        ax.set_xticks(range(grid.sizes["scenario"]), [str(s) for s in grid.scenario.values], rotation=60, ha="right",
                      fontsize=7)
    axes[0][0].set_yticks(range(grid.sizes["policy"]), [LABELS[str(p)] for p in grid.policy.values], fontsize=8)
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label=METRICS[metric][1])
    fig.suptitle(f"{TITLES[metric]}: mean over {grid.sizes['seed']} seeds "
                 f"({'higher' if higher else 'lower'} is better)")
    return fig


def means_table(grid: xr.Dataset) -> pd.DataFrame:
    """Every applicable (metric, policy, TCP, scenario): the mean over seeds, the 90 % interval of one run
    (:func:`atmtcp.statistics.mean_and_interval`) and the seeds."""
    rows = []
    for metric in METRICS:
        for policy in grid.policy.values:
            for tcp in grid.tcp.values:
                for scenario in grid.scenario.values:
                    values = grid[metric].sel(policy=policy, tcp=tcp, scenario=scenario).values
                    if not np.isfinite(values).any():
                        continue
                    mean, low, high = mean_and_interval(values)
                    rows.append({"metric": metric, "policy": str(policy), "tcp": str(tcp), "scenario": str(scenario),
                                 "mean": mean, "low": low, "high": high, "seeds": int(np.isfinite(values).sum())})
    return pd.DataFrame(rows)


def _mark(row) -> str:
    """One cell of the conclusions table: the mark and the seeds that agree."""
    if row.mark == cc.NOT_APPLICABLE:
        return "n/a"
    label = TCP_LABELS if row.axis == "policy" else LABELS
    text = f"{row.mark} ({row.agree}/{row.seeds} seeds)"
    if row.mark == cc.PARTLY:
        text += ": with " + ", ".join(label[h] for h in row.held_at)
    return text


def conclusions_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Conclusion (paper, its words) x scenario: :func:`_mark` of each."""
    rows = []
    for c in cc.CONCLUSIONS:
        part = summary[summary.conclusion == c.key].set_index("scenario")
        row = {"paper": c.paper, "conclusion (the paper's words)": c.quote, "tested": "; ".join(
            t.text() for t in c.tests)}
        row.update({s: _mark(part.loc[s]) for s in SCENARIOS if s in part.index})
        rows.append(row)
    return pd.DataFrame(rows)


def best_policies(grid: xr.Dataset, metric: str = "efficiency") -> pd.DataFrame:
    """Per scenario and TCP, the policy with the best mean ``metric`` and that mean."""
    means = grid[metric].mean("seed")
    higher = METRICS[metric][2]
    rows = []
    for scenario in grid.scenario.values:
        for tcp in grid.tcp.values:
            values = means.sel(scenario=scenario, tcp=tcp).to_series().dropna()
            best = values.idxmax() if higher else values.idxmin()
            rows.append({"scenario": str(scenario), "tcp": str(tcp), "policy": str(best), "value": float(values[best])})
    return pd.DataFrame(rows)


def recommendation(grid: xr.Dataset) -> list[str]:
    """Which policy to choose in each scenario, in plain words: the most efficient and the fairest, the same for
    every TCP or, where the TCP changes it, per TCP."""
    lines = []
    for metric, word in (("efficiency", "most efficient"), ("fairness", "fairest")):
        best = best_policies(grid, metric)
        lines.append(f"**The {word} policy** ({METRICS[metric][1]}, mean over seeds):")
        lines.append("")
        for scenario, part in best.groupby("scenario", sort=False):
            title = SCENARIOS[scenario].title
            if part.policy.nunique() == 1:
                lines.append(f"- {title}: **{LABELS[part.policy.iloc[0]]}** with every TCP "
                             f"({part.value.min():.2f}-{part.value.max():.2f}).")
            else:
                choices = "; ".join(f"{TCP_LABELS[t]}: {LABELS[p]} ({v:.2f})"
                                    for t, p, v in zip(part.tcp, part.policy, part.value))
                lines.append(f"- {title}: depends on the TCP. {choices}.")
        lines.append("")
    return lines


def closing_note(evaluated: pd.DataFrame, summary: pd.DataFrame) -> list[str]:
    """Every conclusion that held and every one that did not, per scenario, with its numbers (the test's mean
    paired difference and interval, the seeds agreeing, pooled over the other axis)."""
    lines = []
    for mark, heading in ((cc.HOLDS, "Held"), (cc.PARTLY, "Held for some TCPs (or policies) only"),
                          (cc.DOES_NOT, "Did not hold")):
        chosen = summary[summary.mark == mark]
        lines += [f"**{heading}** ({len(chosen)} of {int((summary.mark != cc.NOT_APPLICABLE).sum())} "
                  "conclusion-scenario pairs that can be asked):", ""]
        for row in chosen.itertuples():
            rows = evaluated[(evaluated.conclusion == row.conclusion) & (evaluated.scenario == row.scenario)]
            numbers = []
            for test, part in rows.groupby("test", sort=False):
                pooled = _pooled(part)
                numbers.append(f"{test}: mean {pooled[0]:+.3f} [{pooled[1]:+.3f}, {pooled[2]:+.3f}], "
                               f"{int(part.test_agree.sum())}/{int(part.seeds.sum())} seeds")
            lines.append(f"- {row.conclusion} in {row.scenario}"
                         + (f" (holds with {', '.join(row.held_at)})" if mark == cc.PARTLY else "")
                         + ": " + "; ".join(numbers) + ".")
        lines.append("")
    return lines


def _pooled(part: pd.DataFrame) -> tuple[float, float, float]:
    """The seed-weighted mean of a test's per-TCP means, and the widest of their intervals' ends."""
    weights = part.seeds.to_numpy(float)
    mean = float(np.average(part["mean"].to_numpy(float), weights=weights)) if weights.sum() else float("nan")
    return mean, float(part["low"].min()), float(part["high"].max())


def write_all(grid: xr.Dataset, figures_dir: Path | str, quick: bool = False) -> dict[str, Path]:
    """Every figure and table of the atlas into ``<figures_dir>/atlas/``; returns their paths by name."""
    paths = {}
    for metric in METRICS:
        fig = heat_map(grid, metric)
        paths[metric] = save_figure(fig, figures_dir, f"{FOLDER}.{metric}", quick)
        plt.close(fig)
    evaluated = cc.evaluate(grid)
    summary = cc.summary(evaluated)
    folder = Path(figures_dir) / FOLDER
    paths["conclusions"] = save_table(conclusions_table(summary), figures_dir, f"{FOLDER}.conclusions", quick)
    paths["tests"] = write_csv(evaluated, folder / f"{FOLDER}.tests.csv", index=False)
    paths["means"] = write_csv(means_table(grid), folder / f"{FOLDER}.means.csv", index=False)
    stamp = [f"**{QUICK_STAMP}**", ""] if quick else []
    paths["recommendation"] = _write(folder / f"{FOLDER}.recommendation.md", stamp + recommendation(grid))
    paths["closing_note"] = _write(folder / f"{FOLDER}.closing_note.md", stamp + closing_note(evaluated, summary))
    return paths


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines).rstrip() + "\n")
    return path


__all__ = ["heat_map", "means_table", "conclusions_table", "recommendation", "closing_note", "write_all"]
