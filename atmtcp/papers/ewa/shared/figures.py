"""What ewa's figures of sections 2-4 share: phase boundaries, the sequence-number figure, L1's
utilization per 250 ms, and a quantity's spread over the seeds. Figures show seed 0, the paper's run;
where a number is shown, the spread over the seeds is beside it.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from .scenario import PHASES


def phase_lines(ax, phases=PHASES):
    """A dotted line where each phase after the first begins (section 2's by default)."""
    for _, start, _ in phases[1:]:
        ax.axvline(start, color="0.5", lw=0.6, ls=":")


def _sequence_panel(ax, run: xr.Dataset, keep):
    colors = plt.cm.tab10(np.arange(run.sizes["source"]))
    styles = ("-", "--", ":")
    for i, source in enumerate(run.source.values):
        ax.plot(run.time.values[keep], run.seq_packets.sel(source=source).values[keep] / 1000, lw=0.9,
                color=colors[i], ls=styles[i % 3] if run.sizes["source"] <= 3 else "-", label=str(source))
    ax.set_ylabel("sequence number (1000 segments)")


def sequence_figure(ds: xr.Dataset, title: str, with_buffer: bool = False, zoom_s: float | None = None):
    """ewa Figs. 2, 5, 7, 9, 11: the highest sequence number each connection has sent (in segments)
    against time, seed 0; with ``with_buffer`` a second panel shows AAP-1's buffer (packets), with
    ``zoom_s`` a second panel shows the first ``zoom_s`` seconds."""
    run = ds.sel(seed=0)
    rows = 2 if with_buffer or zoom_s else 1
    fig, axes = plt.subplots(rows, 1, figsize=(7, 3.4 * rows), sharex=bool(with_buffer), squeeze=False,
                             gridspec_kw={"height_ratios": [3, 2][:rows]})
    ax = axes[0][0]
    _sequence_panel(ax, run, slice(None))
    ax.legend(title="connection", fontsize=7, ncol=2 if run.sizes["source"] > 5 else 1, loc="upper left")
    if with_buffer:
        phase_lines(ax)
        low = axes[1][0]
        low.plot(run.sample_time.values, run.queue_packets.values, lw=0.4, color="tab:blue")
        low.set_ylabel("AAP-1 buffer (packets)")
        phase_lines(low)
    elif zoom_s:
        _sequence_panel(axes[1][0], run, run.time.values <= zoom_s)
        axes[1][0].set_title(f"the first {zoom_s:g} s", fontsize=9)
        axes[0][0].set_xlabel("time (s)")
    axes[-1][0].set_xlabel("time (s)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def l1_utilization_figure(ds: xr.Dataset, title: str, phases=PHASES, paper: dict[str, float] | None = None,
                          lines: tuple[tuple[float, dict], ...] = (), legend: dict | None = None):
    """L1's effective utilization per 250 ms (ewa Figs. 6, 8, 10, 12 and section 4's), seed 0, with the
    range over the seeds shaded, each phase's mean (solid) and the paper's where the text gives it
    (``paper``: phase -> value, dashed); ``lines``: further horizontal lines, (value, their style)."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ends = ds.interval.values
    ax.fill_between(ends, ds.utilization.min("seed"), ds.utilization.max("seed"), step="pre", color="tab:blue",
                    alpha=0.2, lw=0, label=f"range over {ds.sizes['seed']} seeds")
    ax.step(ends, ds.utilization.sel(seed=0).values, where="pre", lw=0.9, color="tab:blue", label="seed 0")
    paper = paper or {}
    for name, start, end in phases:
        mean = float(ds.utilization_phase.sel(phase=name).mean())
        ax.hlines(mean, start, end, color="tab:blue", lw=2)
        ax.text((start + end) / 2, min(mean + 0.03, 1.05), f"{mean:.2f}", ha="center", fontsize=8, color="tab:blue")
        if name in paper:
            ax.hlines(paper[name], start, end, color="tab:red", lw=2, ls="--",
                      label="paper (text)" if name == phases[0][0] else None)
    for value, style in lines:
        ax.axhline(value, **style)
    phase_lines(ax, phases)
    ax.set_ylim(0, 1.1)
    ax.set_xlim(0, ends[-1])
    ax.set_xlabel("time (s)")
    ax.set_ylabel("effective utilization of L1")
    ax.legend(**(legend or {"fontsize": 8, "loc": "lower left"}))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def over_seeds(quantities: dict[str, xr.DataArray]) -> pd.DataFrame:
    """Per named quantity (one value per seed): its mean over the seeds, the lowest and the highest seed."""
    return pd.DataFrame([{"quantity": name, "mean": float(v.mean()), "lowest seed": float(v.min()),
                          "highest seed": float(v.max())} for name, v in quantities.items()]).set_index("quantity")
