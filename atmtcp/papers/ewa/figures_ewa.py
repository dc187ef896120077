"""ewa's figures and tables of sections 3 and 4 (EWA), drawn from the experiments' Datasets
(``notebooks/ewa.ipynb``). As in :mod:`atmtcp.papers.ewa.figures`: figures show seed 0, the paper's run,
with the range over the seeds where a number is shown.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ...reference import load_reference
from . import equilibrium, experiments_ewa
from .claims_ewa import SECTION_2, equilibrium_rows
from .figures import over_seeds, phase_lines, sequence_figure
from .scenario_ewa import OVERCORRECTION, SCENARIOS, buffer_packets, pipe_packets

FEEDBACK_LABELS = {"linear": "linear, f = alpha (B - Q)  (eq. 3.3)", "log": "logarithmic, f = alpha log2(B - Q)  (eq. 3.4)"}


# --- section 3.1 ---------------------------------------------------------------------------------------------------
def feedback_functions_figure(buffer: int = 132, alpha: float = 1.0):
    """The two feedback functions of section 3.1 against the buffer's occupancy Q (B packets): the window
    (packets) each ACK gets, and how much it changes when Q grows by one packet."""
    queue = np.arange(0, buffer)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for kind, color in (("linear", "tab:red"), ("log", "tab:blue")):
        f = np.array([equilibrium.feedback(kind, alpha, buffer - q) for q in queue])
        axes[0].plot(queue, f, color=color, label=FEEDBACK_LABELS[kind])
        axes[1].plot(queue[1:], -np.diff(f), color=color)
    axes[0].set_ylabel("window fed back (packets)")
    axes[1].set_ylabel("drop of the window per packet queued")
    for ax in axes:
        ax.set_xlabel(f"packets in the buffer, Q (B = {buffer})")
    axes[0].legend(fontsize=7)
    axes[1].set_yscale("log")
    fig.suptitle(f"EWA's feedback functions, alpha = {alpha:g}", fontsize=10)
    fig.tight_layout()
    return fig


def overcorrection_figure(ds: xr.Dataset, title: str, sources: int = 40, zoom=(1.0, 1.5)):
    """ewa Fig. 13 by simulation: AAP-1's buffer under the linear and the logarithmic feedback (alpha = 1,
    ``sources`` connections in congestion avoidance, seed 0), the whole run and a zoom."""
    run = ds.sel(sources=sources, seed=0)
    buffer = buffer_packets(OVERCORRECTION)
    fig, axes = plt.subplots(2, 1, figsize=(7, 5.4))
    for ax, span in zip(axes, (None, zoom)):
        t = run.sample_time.values
        keep = slice(None) if span is None else (t >= span[0]) & (t <= span[1])
        for kind, color in (("linear", "tab:red"), ("log", "tab:blue")):
            ax.plot(t[keep], run.queue_packets.sel(feedback=kind).values[keep], lw=0.8, color=color,
                    label=FEEDBACK_LABELS[kind])
        ax.axhline(buffer, color="k", lw=0.6, ls="--")
        ax.set_ylabel("AAP-1 buffer (packets)")
        ax.set_ylim(0, buffer * 1.08)
    axes[0].text(0.01, buffer * 1.01, f" B = {buffer} packets", fontsize=8, va="bottom")
    axes[0].legend(fontsize=7, loc="center right")
    axes[1].set_title(f"{zoom[0]:g}-{zoom[1]:g} s", fontsize=9)
    axes[1].set_xlabel("time (s)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def overcorrection_table(ds: xr.Dataset) -> pd.DataFrame:
    """Fig. 13's numbers from 1 s on, per feedback and number of connections: the buffer's mean, standard
    deviation, range and empty share, L1's utilization, the window fed back, drops and timeouts (mean over
    seeds)."""
    rows = []
    for kind in ds.feedback.values:
        for n in ds.sources.values:
            at = ds.sel(feedback=kind, sources=n).mean("seed")
            rows.append({"feedback": kind, "connections": int(n), "queue mean": float(at.queue_mean),
                         "queue sd": float(at.queue_sd), "queue min": float(ds.sel(feedback=kind, sources=n).queue_min.min()),
                         "queue max": float(ds.sel(feedback=kind, sources=n).queue_max.max()),
                         "empty share": float(at.empty_fraction), "utilization": float(at.utilization),
                         "window fed back (segments)": float(at.window_fed_back),
                         "packets dropped": float(at.packets_dropped), "timeouts": float(at.timeouts)})
    return pd.DataFrame(rows).set_index(["feedback", "connections"])


def equilibrium_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Eq. 3.2 solved as written and with the pipe counted, beside the simulated steady queue (mean over seeds)."""
    written = equilibrium_rows(data, with_pipe=False)
    pipe = equilibrium_rows(data, with_pipe=True)
    return pd.DataFrame([{"case": name, "buffer B (packets)": buffer, "alpha": alphas.mean(),
                          "simulated queue": sim.mean(), "eq. 3.2 as written": w_solved.mean(),
                          "with the pipe, whole segments": p_solved.mean()}
                         for (name, sim, w_solved, buffer, alphas), (_, _, p_solved, _, _) in zip(written, pipe)]
                        ).set_index("case")


# --- section 4 -----------------------------------------------------------------------------------------------------------
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
    ref = load_reference("ewa")
    rows = ref[(ref.target == target) & ref.metric.isin(["l1_utilization", "l1_utilization_steady"])]
    return dict(zip(rows.phase, rows.value.astype(float)))


def link_utilization_figure(ds: xr.Dataset, key: str, title: str, target: str, floor: float | None = None):
    """Figs. 17, 21, 25, 29, 33, 37, 39: L1's utilization per 250 ms, seed 0, the range over the seeds
    shaded, each phase's mean (solid), the paper's (dashed red), the share left by the priority VC (4.5)
    and a stated floor (4.2's 60 %)."""
    s = SCENARIOS[key]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ends = ds.interval.values
    ax.fill_between(ends, ds.utilization.min("seed"), ds.utilization.max("seed"), step="pre", color="tab:blue",
                    alpha=0.2, lw=0, label=f"range over {ds.sizes['seed']} seeds")
    ax.step(ends, ds.utilization.sel(seed=0).values, where="pre", lw=0.9, color="tab:blue", label="seed 0")
    paper = paper_lines(target)
    for name, start, end in s.phases:
        mean = float(ds.utilization_phase.sel(phase=name).mean())
        ax.hlines(mean, start, end, color="tab:blue", lw=2)
        ax.text((start + end) / 2, min(mean + 0.03, 1.05), f"{mean:.2f}", ha="center", fontsize=8, color="tab:blue")
        if name in paper:
            ax.hlines(paper[name], start, end, color="tab:red", lw=2, ls="--",
                      label="paper (text)" if name == s.phases[0][0] else None)
    if s.priority_vc is not None:
        ax.axhline(float(ds.available_share.mean()), color="tab:orange", lw=1, ls="-.", label="left by the priority VC")
    if floor is not None:
        ax.axhline(floor, color="tab:red", lw=0.8, ls=":", label=f"paper: never below {floor:.0%}")
    phase_lines(ax, s.phases)
    ax.set_ylim(0, 1.1)
    ax.set_xlim(0, ends[-1])
    ax.set_xlabel("time (s)")
    ax.set_ylabel("effective utilization of L1")
    ax.legend(fontsize=7, loc="lower left", ncol=2)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


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


# --- tables ---------------------------------------------------------------------------------------------------------------
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


# --- numbers the notebook's prose cites -----------------------------------------------------------------------------------
def cycle_ms(queue: xr.DataArray, from_s: float = 1.0) -> xr.DataArray:
    """Per seed, the period (ms) of the strongest oscillation of a sampled queue from ``from_s`` on (the
    largest peak of its spectrum)."""
    t = queue.sample_time.values
    keep = t >= from_s
    step = float(t[1] - t[0])
    periods = []
    for seed in queue.seed.values:
        x = queue.sel(seed=seed).values[keep].astype(float)
        spectrum = np.abs(np.fft.rfft(x - x.mean()))
        frequency = np.fft.rfftfreq(x.size, step)
        periods.append(1e3 / frequency[1 + int(np.argmax(spectrum[1:]))])
    return xr.DataArray(periods, coords={"seed": queue.seed.values}, dims="seed")


def overcorrection_numbers(ds: xr.Dataset) -> pd.DataFrame:
    """Fig. 13 over the seeds (:func:`atmtcp.papers.ewa.figures.over_seeds`): the lowest queue of each
    linear run with 40 connections from 1 s on, and the period of the logarithmic queue's cycle."""
    return over_seeds({"linear, 40 connections: lowest queue from 1 s (packets)":
                       ds.queue_min.sel(feedback="linear", sources=40),
                       "logarithmic, 40 connections: period of the queue's cycle (ms)":
                       cycle_ms(ds.queue_packets.sel(feedback="log", sources=40))})


def equilibrium_held_at_receivers(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """The two cases where the simulated queue misses eq. 3.2 with the pipe: the queue solved with half a
    segment per connection held at the receivers, N floor(f(B - Q)) = P + Q + N/2 (each seed with its own
    alpha; mean over the seeds), beside the simulated one."""
    fig13 = data["ewa.fig13"].sel(feedback="log", sources=40)
    small = data[experiments_ewa.FIGURES["small_ip"][1]].sel(phase="0-10 s")
    cases = (("Fig. 13, log, 40 connections", 40, np.ones(fig13.sizes["seed"]), fig13.queue_mean.values,
              SCENARIOS["new_connections"]),
             (f"{experiments_ewa.FIGURES['small_ip'][1]} 0-10 s", 10, small.alpha_steady.values,
              small.queue_steady.values, SCENARIOS["small_ip"]))
    rows = []
    for name, n, alphas, simulated, s in cases:
        buffer, pipe = buffer_packets(s), pipe_packets(s)
        solved = [equilibrium.queue_with_pipe(n, a, buffer, pipe + n / 2, whole_segments=True) for a in alphas]
        rows.append({"case": name, "simulated queue": float(np.mean(simulated)),
                     "solved with N/2 held at the receivers": float(np.mean(solved))})
    return pd.DataFrame(rows).set_index("case")


def window_numbers(ds: xr.Dataset, at_s: float = 15.0, sources=(0, 1)) -> pd.DataFrame:
    """At ``at_s``, the cwnd of ``sources`` (the connections still open after 15 s) against the window EWA
    feeds them back, over the seeds (:func:`atmtcp.papers.ewa.figures.over_seeds`; cwnd in segments of
    1500 bytes and MB, the window in KB)."""
    at = ds.sel(time=at_s, method="nearest").isel(source=list(sources))
    return over_seeds({f"cwnd at {at_s:g} s (segments)": at.cwnd.mean("source") / 1500,
                       f"cwnd at {at_s:g} s (MB)": at.cwnd.mean("source") / 2**20,
                       f"window fed back at {at_s:g} s (KB)": at.window_fed_back.mean("source") / 1024,
                       f"cwnd over the window fed back at {at_s:g} s": (at.cwnd / at.window_fed_back).mean("source")})
