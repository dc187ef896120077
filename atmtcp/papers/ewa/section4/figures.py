"""ewa's figures and tables of section 4 (EWA's evaluation, 4.1-4.6), drawn from the experiments' Datasets
(``notebooks/ewa.ipynb``). As in :mod:`atmtcp.papers.ewa.shared.figures`: figures show seed 0, the paper's
run, with the range over the seeds where a number is shown.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ..shared.claims import paper_by_phase
from ..shared.figures import l1_utilization_figure, over_seeds, phase_lines, sequence_figure
from .claims import SECTION_2
from .scenario import SCENARIOS, buffer_packets


def representative_sources(ds: xr.Dataset) -> list[int]:
    """Section 4.6's Fig. 34: "one representative TCP connection from each of the five source nodes
    carrying ON-OFF traffic, and one TCP connection carrying traffic from a greedy source" (the first of
    each); every connection elsewhere."""
    if "on_off" not in set(ds.application.values):
        return list(ds.source.values)
    nodes = ds.source_node.values
    kinds = ds.application.values
    picks = [int(ds.source.values[np.where((nodes == n) & (kinds == "on_off"))[0][0]]) for n in np.unique(nodes)]
    return picks + [int(ds.source.values[np.where(kinds == "persistent")[0][0]])]


def ewa_sequence_figure(ds: xr.Dataset, title: str):
    """Figs. 14, 18, 22, 26, 30, 34, 38: sequence numbers (segments) against time, seed 0."""
    picked = ds.sel(source=representative_sources(ds))
    return sequence_figure(picked, title)


def buffer_figure(ds: xr.Dataset, key: str, title: str, span: tuple[float, float] | None = None):
    """Figs. 15, 19, 23, 27, 31, 35: AAP-1's buffer and EWA's average (packets) with the thresholds,
    alpha, and the window fed back to each connection (seed 0; from the first ACK on); the priority
    VC's ON periods shaded; ``span``: only that time window."""
    s = SCENARIOS[key]
    run = ds.sel(seed=0)
    if span is not None:
        run = run.sel(sample_time=slice(*span), time=slice(*span))
    t = run.sample_time.values
    buffer = buffer_packets(s)
    fig, axes = plt.subplots(3, 1, figsize=(7, 7), sharex=True, gridspec_kw={"height_ratios": [3, 1.5, 2]})
    ax = axes[0]
    ax.plot(t, run.queue_packets.values, lw=0.4, color="tab:blue", label="buffer")
    ax.plot(t, run.average_queue.values, lw=0.9, color="k", label="EWA's average (g = 1/128)")
    for share, name in ((0.2, "low"), (0.6, "high")):
        ax.axhline(share * buffer, color="tab:green", lw=0.7, ls="--")
        ax.text(t[-1], share * buffer, f" {name}", fontsize=7, va="center", color="tab:green")
    if s.priority_vc is not None:
        on = run.available_rate.values < 1
        ax.fill_between(t, 0, buffer, where=on, step="post", color="tab:orange", alpha=0.15, lw=0,
                        label="priority VC on")
    ax.set_ylim(0, buffer)
    ax.set_ylabel(f"AAP-1 (packets, B = {buffer})")
    ax.legend(fontsize=7, loc="upper right", ncol=3)
    axes[1].plot(t, run.alpha.values, color="tab:purple", lw=0.9)
    axes[1].set_ylabel("alpha")
    window = run.window_fed_back.sel(source=representative_sources(ds)) / 1024
    axes[2].step(run.time.values, window.values, where="post", lw=0.6)
    after_first_acks = window.sel(time=slice(0.2, None))
    axes[2].set_ylim(0, 1.15 * float(after_first_acks.max()) if after_first_acks.size else None)
    axes[2].set_ylabel("window fed back (KB)")
    axes[2].set_xlabel("time (s)")
    for a in axes:
        phase_lines(a, s.phases)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def connection_utilization_figure(ds: xr.Dataset, key: str, title: str):
    """Figs. 16, 20, 24, 28, 32: each connection's part of L1's utilization per 250 ms (seed 0), with
    1/N of the open connections in each phase dashed."""
    s = SCENARIOS[key]
    run = ds.sel(seed=0)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    colors = plt.cm.tab10(np.arange(run.sizes["source"]) % 10)
    for i, source in enumerate(run.source.values):
        ax.step(run.interval.values, run.source_utilization.sel(source=source).values, where="pre", lw=0.7,
                color=colors[i], label=str(source))
    for _, start, end in s.phases:
        n = len(s.open_in(start, end))
        ax.hlines(1 / n, start, end, color="k", lw=0.8, ls="--")
    phase_lines(ax, s.phases)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("connection's utilization of L1")
    ax.legend(title="connection", fontsize=6, ncol=5, loc="upper left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def paper_lines(target: str) -> dict[str, float]:
    """The paper's utilization of L1 per phase for ``target`` (whole phase or steady part)."""
    return paper_by_phase(target, "l1_utilization", "l1_utilization_steady")


def link_utilization_figure(ds: xr.Dataset, key: str, title: str, target: str, floor: float | None = None):
    """Figs. 17, 21, 25, 29, 33, 37, 39: L1's utilization per 250 ms, seed 0, the range over the seeds
    shaded, each phase's mean (solid), the paper's (dashed red), the share left by the priority VC (4.5)
    and a stated floor (4.2's 60 %); :func:`atmtcp.papers.ewa.shared.figures.l1_utilization_figure`."""
    s = SCENARIOS[key]
    lines = []
    if s.priority_vc is not None:
        lines.append((float(ds.available_share.mean()),
                      {"color": "tab:orange", "lw": 1, "ls": "-.", "label": "left by the priority VC"}))
    if floor is not None:
        lines.append((floor, {"color": "tab:red", "lw": 0.8, "ls": ":", "label": f"paper: never below {floor:.0%}"}))
    return l1_utilization_figure(ds, title, s.phases, paper_lines(target), tuple(lines),
                                 legend={"fontsize": 7, "loc": "lower left", "ncol": 2})


def windows_figure(ds: xr.Dataset, title: str):
    """Fig. 36: the transmission windows, min(cwnd, window fed back), of one ON/OFF and one persistent
    connection (seed 0), and the window fed back."""
    run = ds.sel(seed=0)
    on_off, *_, persistent = representative_sources(ds)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for source, color, name in ((on_off, "tab:orange", "ON/OFF"), (persistent, "tab:blue", "persistent")):
        at = run.sel(source=source)
        window = np.minimum(at.cwnd.values, at.window_fed_back.values) / 1024
        ax.step(run.time.values, window, where="post", lw=0.7, color=color, label=f"connection {source} ({name})")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("transmission window (KB)")
    ax.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def ssthresh_figure(ds: xr.Dataset, title: str):
    """``ewa.ssthresh_study``: L1's utilization per 250 ms with an initial ssthresh of 1 MB and 512 KB (seed 0)."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for kb, color in zip(ds.ssthresh_kb.values, ("tab:blue", "tab:red")):
        run = ds.sel(ssthresh_kb=kb, seed=0)
        ax.step(run.interval.values, run.utilization.values, where="pre", lw=0.8, color=color,
                label=f"ssthresh {kb} KB: recovers {float(ds.recovery_s.sel(ssthresh_kb=kb).isel(phase=-1).mean()):.1f} s "
                      "after 15 s")
    for edge in (10, 15):
        ax.axvline(edge, color="0.5", lw=0.6, ls=":")
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("effective utilization of L1")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


# --- tables -----------------------------------------------------------------------------------------------------------
def scenario_table(data: dict[str, xr.Dataset], first_targets: dict[str, str]) -> pd.DataFrame:
    """Per scenario and phase: L1's utilization (whole phase and steady part; mean, sd over seeds) beside
    the paper's where the text gives it, Jain's index, the buffer's steady mean and empty share, alpha,
    packets dropped and timeouts per run."""
    rows = []
    for key, target in first_targets.items():
        ds = data[target]
        s = SCENARIOS[key]
        paper = {**paper_lines(f"ewa.fig{int(target.split('fig')[1]) + 3}"), **paper_lines(target)}
        for name, _, _ in s.phases:
            at = ds.sel(phase=name)
            rows.append({"scenario": s.title.split(" (")[0], "phase": name, "paper": paper.get(name, np.nan),
                         "utilization": float(at.utilization_phase.mean()),
                         "sd": float(at.utilization_phase.std(ddof=1)) if ds.sizes["seed"] > 1 else np.nan,
                         "steady utilization": float(at.utilization_steady.mean()),
                         "fairness": float(at.fairness_phase.mean()), "steady fairness": float(at.fairness_steady.mean()),
                         "steady queue (packets)": float(at.queue_steady.mean()),
                         "empty share": float(at.empty_fraction_steady.mean()), "alpha": float(at.alpha_steady.mean()),
                         "drops per run": float(ds.packets_dropped.sum("source").mean()),
                         "timeouts per run": float(ds.timeouts.sum("source").mean())})
    return pd.DataFrame(rows).set_index(["scenario", "phase"])


def against_section_2_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Section 4.1's EWA beside section 2's Drop-from-Front and RED on the same scenario: per phase L1's
    utilization and Jain's index, and the packets dropped and timeouts per run (mean over seeds)."""
    rows = []
    for name, target in {"EWA": "ewa.fig14", **SECTION_2}.items():
        ds = data[target]
        row = {"policy": name}
        for phase in ds.phase.values:
            row[f"utilization {phase}"] = float(ds.utilization_phase.sel(phase=phase).mean())
        for phase in ds.phase.values:
            row[f"fairness {phase}"] = float(ds.fairness_phase.sel(phase=phase).mean())
        row["utilization 0-20 s"] = float(ds.utilization.mean())
        row["packets dropped"] = float(ds.packets_dropped.sum("source").mean())
        row["timeouts"] = float(ds.timeouts.sum("source").mean())
        rows.append(row)
    return pd.DataFrame(rows).set_index("policy")


# --- numbers the notebook's prose cites -------------------------------------------------------------------------------
def window_numbers(ds: xr.Dataset, at_s: float = 15.0, sources=(0, 1)) -> pd.DataFrame:
    """At ``at_s``, the cwnd of ``sources`` (the connections still open after 15 s) against the window EWA
    feeds them back, over the seeds (:func:`atmtcp.papers.ewa.shared.figures.over_seeds`; cwnd in segments of
    1500 bytes and MB, the window in KB)."""
    at = ds.sel(time=at_s, method="nearest").isel(source=list(sources))
    return over_seeds({f"cwnd at {at_s:g} s (segments)": at.cwnd.mean("source") / 1500,
                       f"cwnd at {at_s:g} s (MB)": at.cwnd.mean("source") / 2**20,
                       f"window fed back at {at_s:g} s (KB)": at.window_fed_back.mean("source") / 1024,
                       f"cwnd over the window fed back at {at_s:g} s": (at.cwnd / at.window_fed_back).mean("source")})
