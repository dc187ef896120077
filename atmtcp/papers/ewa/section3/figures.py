"""ewa's figures and tables of section 3.1 (the feedback functions, Fig. 13) and of the equilibrium of eq. 3.2,
drawn from the experiments' Datasets (``notebooks/ewa.ipynb``). As in :mod:`atmtcp.papers.ewa.shared.figures`:
figures show seed 0, the paper's run, with the range over the seeds where a number is shown.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ..section4.experiments import FIGURES
from ..section4.scenario import SCENARIOS, buffer_packets, pipe_packets
from ..shared.figures import over_seeds
from . import equilibrium
from .claims import equilibrium_rows
from .scenario import OVERCORRECTION

FEEDBACK_LABELS = {"linear": "linear, f = alpha (B - Q)  (eq. 3.3)", "log": "logarithmic, f = alpha log2(B - Q)  (eq. 3.4)"}


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


# --- numbers the notebook's prose cites -------------------------------------------------------------------------------
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
    """Fig. 13 over the seeds (:func:`atmtcp.papers.ewa.shared.figures.over_seeds`): the lowest queue of each
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
    small = data[FIGURES["small_ip"][1]].sel(phase="0-10 s")
    cases = (("Fig. 13, log, 40 connections", 40, np.ones(fig13.sizes["seed"]), fig13.queue_mean.values,
              SCENARIOS["new_connections"]),
             (f"{FIGURES['small_ip'][1]} 0-10 s", 10, small.alpha_steady.values,
              small.queue_steady.values, SCENARIOS["small_ip"]))
    rows = []
    for name, n, alphas, simulated, s in cases:
        buffer, pipe = buffer_packets(s), pipe_packets(s)
        solved = [equilibrium.queue_with_pipe(n, a, buffer, pipe + n / 2, whole_segments=True) for a in alphas]
        rows.append({"case": name, "simulated queue": float(np.mean(simulated)),
                     "solved with N/2 held at the receivers": float(np.mean(solved))})
    return pd.DataFrame(rows).set_index("case")
