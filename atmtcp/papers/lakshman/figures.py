"""lakshman's figures and tables, drawn from the experiments' Datasets (``notebooks/lakshman.ipynb``).

Each function returns a matplotlib Figure or a pandas DataFrame; saving is
:func:`atmtcp.figures.save_figure` / :func:`atmtcp.figures.save_table`.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ...experiment import each_point
from ...statistics import interval
from .experiments import CONVERGENCE, DURATION_S, RED_FULL, WARMUP_S
from .scenario import BETA_ONE_CELLS, LABELS, NOMINAL_RTT_S, beta

STYLE = {"cell_tail": ("tab:red", "o", "-"), "cell_front": ("tab:blue", "s", "-"),
         "frame_tail": ("tab:orange", "^", "--"), "frame_front": ("tab:green", "D", "--")}
RED_COLORS = ("tab:purple", "tab:brown", "tab:pink", "tab:olive")


def _beta_axis(ax):
    """lakshman's second x-axis: the buffer in multiples of the 60 ms external RTT."""
    top = ax.secondary_xaxis("top", functions=(lambda b: b / BETA_ONE_CELLS, lambda x: x * BETA_ONE_CELLS))
    top.set_xlabel("beta (buffer / cells in one 60 ms RTT)", fontsize=8)
    top.tick_params(labelsize=8)
    return top


def _curve(ax, buffers, mean, low, high, label, color, marker, line="-"):
    ax.plot(buffers, mean, line, marker=marker, ms=4, color=color, label=label)
    ax.fill_between(buffers, low, high, color=color, alpha=0.15, lw=0)


def _frame(ax, title, ylabel="normalized good throughput"):
    ax.set_xlabel("bottleneck buffer (cells)")
    ax.set_ylabel(ylabel)
    ax.figure.suptitle(title, fontsize=10)
    ax.grid(alpha=0.3)
    _beta_axis(ax)


def _seed_note(ds, band: str = "lowest to highest seed") -> str:
    n = ds.sizes.get("seed", 1)
    return f"mean of {n} seed{'s' if n > 1 else ''}, band: {band}"


INTERVAL_BAND = "90 % interval of one run"


def seed_band(da: xr.DataArray) -> tuple[np.ndarray, np.ndarray]:
    """The 90 % interval of one run (:func:`atmtcp.statistics.interval`: the 5th and 95th percentiles of the
    seeds) at each point of ``da`` (the seed axis last reduced); a point with fewer than two seeds gets its
    one value."""
    values = da.transpose(..., "seed").values
    flat = values.reshape(-1, values.shape[-1])
    bands = np.array([interval(v) if np.isfinite(v).sum() >= 2 else (np.nanmean(v),) * 2 for v in flat])
    shape = values.shape[:-1]
    return bands[:, 0].reshape(shape), bands[:, 1].reshape(shape)


# --- Figs. 2, 3, 6, 7, 10: total throughput -----------------------------------------------------------------
def total_figure(ds: xr.Dataset, title: str):
    """Total normalized good throughput against the buffer, one curve per discipline (lakshman Figs. 2,
    3, 6, 7, 10), with the seeds' range as a band."""
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    b = ds.buffer.values
    for k in ds.discipline.values:
        color, marker, line = STYLE[k]
        _curve(ax, b, ds.total_throughput_mean.sel(discipline=k), ds.total_throughput_min.sel(discipline=k),
               ds.total_throughput_max.sel(discipline=k), LABELS[k], color, marker, line)
    _frame(ax, title)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8, loc="lower right", title=_seed_note(ds), title_fontsize=7)
    fig.tight_layout()
    return fig


def total_table(ds: xr.Dataset) -> pd.DataFrame:
    """The numbers of a total-throughput figure: per buffer (and beta), each discipline's mean over the
    seeds with its lowest and highest seed."""
    rows = {}
    for k in ds.discipline.values:
        rows[(LABELS[k], "mean")] = ds.total_throughput_mean.sel(discipline=k).values
        rows[(LABELS[k], "min")] = ds.total_throughput_min.sel(discipline=k).values
        rows[(LABELS[k], "max")] = ds.total_throughput_max.sel(discipline=k).values
    index = pd.MultiIndex.from_arrays([ds.buffer.values, np.round(beta(ds.buffer.values), 2)], names=["buffer", "beta"])
    return pd.DataFrame(rows, index=index).round(3)


# --- lakshman.tcp_sensitivity: both readings of lakshman's TCP ------------------------------------------------
def sensitivity_figure(ds: xr.Dataset, title: str):
    """``lakshman.tcp_sensitivity``: total throughput against the buffer (mean over seeds, the band the 90 %
    interval of one run), one panel per case, the headline TCP in solid lines and the reading before the rule
    dotted, one colour per discipline."""
    cases = list(ds.case.values)
    fig, axes = plt.subplots(1, len(cases), figsize=(5.6 * len(cases), 4.0), sharey=True, squeeze=False)
    b = ds.buffer.values
    for ax, case in zip(axes[0], cases):
        for tcp, line in zip(ds.tcp.values, ("-", ":")):
            for k in ds.discipline.values:
                color, marker, _ = STYLE[k]
                runs = ds.total_throughput.sel(case=case, tcp=tcp, discipline=k)
                ax.plot(b, runs.mean("seed"), line, marker=marker, ms=3, color=color, label=f"{LABELS[k]}, {tcp}")
                low, high = seed_band(runs)
                ax.fill_between(b, low, high, color=color, alpha=0.1, lw=0)
        ax.set_title(case, fontsize=9)
        ax.set_xlabel("bottleneck buffer (cells)")
        ax.grid(alpha=0.3)
        ax.set_ylim(0, 1.02)
        _beta_axis(ax)
    axes[0][0].set_ylabel("normalized good throughput")
    axes[0][-1].legend(fontsize=6, loc="lower right", title=_seed_note(ds, INTERVAL_BAND), title_fontsize=6)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def sensitivity_table(ds: xr.Dataset) -> pd.DataFrame:
    """``lakshman.tcp_sensitivity`` per case, reading and buffer: each discipline's total throughput and the
    timeouts per run (means over the seeds)."""
    rows = []
    for point, at in each_point(ds, "case", "tcp", "buffer"):
        rows.append({"case": point["case"], "TCP": point["tcp"], "buffer": int(point["buffer"]),
                     **{LABELS[k]: float(at.total_throughput.sel(discipline=k).mean("seed"))
                        for k in ds.discipline.values},
                     "timeouts per run": float(at.timeouts.mean())})
    return pd.DataFrame(rows).set_index(["case", "TCP", "buffer"]).round(3)


# --- Figs. 4, 5, 8, 9: individual throughputs ----------------------------------------------------------------
def individual_figure(ds: xr.Dataset, title: str):
    """Each source's good throughput against the buffer for the two disciplines of the figure; colour:
    the source's external RTT, line: the discipline (lakshman Figs. 4, 5, 8, 9)."""
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    b = ds.buffer.values
    rtts = ds.rtt_s.isel(discipline=0, buffer=0, seed=0).values
    cmap = plt.get_cmap("viridis")
    for k, line in zip(ds.discipline.values, ("-", "--")):
        for s, rtt in enumerate(rtts):
            color = cmap(0.1 + 0.7 * (rtt - rtts.min()) / max(1e-9, np.ptp(rtts)))
            y = ds.good_throughput_mean.sel(discipline=k, source=s)
            _curve(ax, b, y, ds.good_throughput_min.sel(discipline=k, source=s),
                   ds.good_throughput_max.sel(discipline=k, source=s),
                   f"{LABELS[k]}, RTT {rtt * 1e3:.0f} ms", color, STYLE[k][1], line)
    _frame(ax, title, "good throughput of the source")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=7, ncol=2, loc="upper left", title=_seed_note(ds), title_fontsize=7)
    fig.tight_layout()
    return fig


def individual_table(ds: xr.Dataset) -> pd.DataFrame:
    """Per buffer, each source's mean good throughput under each discipline of the figure."""
    rtts = ds.rtt_s.isel(discipline=0, buffer=0, seed=0).values
    rows = {(LABELS[k], f"RTT {r * 1e3:.0f} ms"): ds.good_throughput_mean.sel(discipline=k, source=s).values
            for k in ds.discipline.values for s, r in enumerate(rtts)}
    index = pd.MultiIndex.from_arrays([ds.buffer.values, np.round(beta(ds.buffer.values), 2)], names=["buffer", "beta"])
    return pd.DataFrame(rows, index=index).round(3)


def rtt_bias_table(datasets: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Per individual-throughput figure and discipline: the shortest-RTT source's throughput over the
    longest-RTT source's, mean over the buffers (the bias the paper's Figs. 4, 5, 8, 9 show)."""
    from .claims import _rtt_bias
    rows = []
    for target, ds in datasets.items():
        for k in ds.discipline.values:
            rows.append({"figure": target, "discipline": LABELS[k], "short / long RTT throughput": _rtt_bias(ds, k)})
    return pd.DataFrame(rows).set_index(["figure", "discipline"]).round(2)


# --- Figs. 11-14: RED -------------------------------------------------------------------------------------------
def red_label(red_one: float, front: bool = False) -> str:
    """The legend label of RED whose drop probability runs from ``red_one`` to :data:`RED_FULL` (lakshman 5),
    at the front if ``front``."""
    return f"RED {red_one:.0e}..{RED_FULL:g}" + (" at the front" if front else "")


def red_figure(ds: xr.Dataset, title: str, companions: dict[str, xr.Dataset] | None = None, front: bool = False,
               tail_red: xr.Dataset | None = None):
    """RED's throughput against the buffer for each probability range, beside the disciplines of
    ``companions`` (label -> dataset with ``total_throughput_*`` over ``buffer``), and for Fig. 13 beside
    RED at the tail (``tail_red``, dashed)."""
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    b = ds.buffer.values
    for color, r in zip(RED_COLORS, ds.red_one.values):
        sel = {"red_one": r}
        _curve(ax, b, ds.total_throughput_mean.sel(sel), ds.total_throughput_min.sel(sel),
               ds.total_throughput_max.sel(sel), red_label(float(r), front), color, "v")
        if tail_red is not None:
            ax.plot(b, tail_red.total_throughput_mean.sel(sel), ":", marker="^", ms=4, color=color,
                    label=red_label(float(r)) + " (tail, Fig. 12)")
    for key, comp in (companions or {}).items():
        color, marker, line = STYLE[key]
        _curve(ax, comp.buffer.values, comp.total_throughput_mean.sel(discipline=key),
               comp.total_throughput_min.sel(discipline=key), comp.total_throughput_max.sel(discipline=key),
               LABELS[key] + " (Fig. 10)", color, marker, line)
    _frame(ax, title)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=7, loc="lower right", title=_seed_note(ds), title_fontsize=7)
    fig.tight_layout()
    return fig


def red_table(ds: xr.Dataset, front: bool = False) -> pd.DataFrame:
    """Figs. 11-13 as a table: per buffer (and its beta), the mean, min and max total throughput of each RED
    probability range."""
    rows = {}
    for r in ds.red_one.values:
        rows[(red_label(float(r), front), "mean")] = ds.total_throughput_mean.sel(red_one=r).values
        rows[(red_label(float(r), front), "min")] = ds.total_throughput_min.sel(red_one=r).values
        rows[(red_label(float(r), front), "max")] = ds.total_throughput_max.sel(red_one=r).values
    index = pd.MultiIndex.from_arrays([ds.buffer.values, np.round(beta(ds.buffer.values), 2)], names=["buffer", "beta"])
    return pd.DataFrame(rows, index=index).round(3)


def fig14_figure(ds: xr.Dataset, title: str):
    """Frame-level RED's total throughput against RED_full / RED_one (lakshman Fig. 14)."""
    fig, ax = plt.subplots(figsize=(6.0, 3.8))
    x = ds.ratio.values
    ax.plot(x, ds.total_throughput_mean, "-o", color="tab:purple", label="RED at the frame level")
    ax.fill_between(x, ds.total_throughput_min, ds.total_throughput_max, color="tab:purple", alpha=0.15, lw=0)
    ax.set_xscale("log")
    ax.set_xlabel("RED_full / RED_one (RED_full = 1)")
    ax.set_ylabel("normalized good throughput")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right", title=_seed_note(ds), title_fontsize=7)
    fig.tight_layout()
    return fig


def fig14_table(ds: xr.Dataset) -> pd.DataFrame:
    """Fig. 14 as a table: the mean, min and max total throughput per RED_full / RED_one ratio."""
    return pd.DataFrame({"mean": ds.total_throughput_mean.values, "min": ds.total_throughput_min.values,
                         "max": ds.total_throughput_max.values},
                        index=pd.Index([f"{r:.0e}" for r in ds.ratio.values], name="RED_full / RED_one")).round(3)


# --- the early warning -----------------------------------------------------------------------------------------
def early_warning_figure(ds: xr.Dataset, title: str):
    """Distribution of the time from a drop at the bottleneck to the fast retransmit of the damaged
    packet, per discipline; the dotted lines are one external RTT and one RTT plus the time a full
    buffer takes to drain."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    drain = float(ds.attrs["drain_time_s"])
    for k in ds.discipline.values:
        w = ds.warning_delay_s.sel(discipline=k).values
        w = np.sort(w[np.isfinite(w)])
        color, _, line = STYLE[k]
        ax.step(w * 1e3, np.arange(1, w.size + 1) / max(1, w.size), line, where="post", color=color,
                label=f"{LABELS[k]} (median {np.median(w) * 1e3:.0f} ms, {w.size} retransmits)")
    for x, text in ((NOMINAL_RTT_S, "one RTT"), (NOMINAL_RTT_S + drain, "RTT + buffer drain")):
        ax.axvline(x * 1e3, color="0.4", ls=":", lw=1)
        ax.text(x * 1e3, 1.01, text, fontsize=7, ha="center", va="bottom", color="0.3")
    ax.set_xlabel("time from the drop to the fast retransmit (ms)")
    ax.set_ylabel("fraction of fast retransmits")
    ax.set_ylim(0, 1.08)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=10, pad=14)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def early_warning_table(ds: xr.Dataset) -> pd.DataFrame:
    """The early-warning study per discipline: fast retransmits counted, the 10th percentile and median delay
    from a drop to its fast retransmit (ms), the share within 90 ms, the mean queue and the throughput."""
    rows = []
    for k in ds.discipline.values:
        w = ds.warning_delay_s.sel(discipline=k).values
        w = w[np.isfinite(w)]
        rows.append({"discipline": LABELS[k], "fast retransmits": w.size,
                     "10th percentile (ms)": np.percentile(w, 10) * 1e3, "median (ms)": np.median(w) * 1e3,
                     "share within 90 ms": float((w <= 0.09).mean()),
                     "mean queue (cells)": float(ds.mean_queue_cells.sel(discipline=k)),
                     "throughput": float(ds.total_throughput.sel(discipline=k))})
    return pd.DataFrame(rows).set_index("discipline").round(3)


# --- how long a run must be ----------------------------------------------------------------------------------
def convergence_figure(ds: xr.Dataset, title: str):
    """The running mean of the good throughput from the warm-up on, against the measured time, for the
    long runs of ``lakshman.convergence``; the dotted line is the measured time of every other run."""
    cases = ds.case.values
    fig, axes = plt.subplots(1, len(cases), figsize=(4.2 * len(cases), 3.6), squeeze=False, sharey=True)
    for ax, case in zip(axes[0], cases):
        for k in ds.discipline.values:
            color, _, line = STYLE[k]
            y = ds.running_throughput.sel(case=case, discipline=k)
            ax.plot(ds.measured_s, y, line, color=color, label=LABELS[k])
        ax.axvline(DURATION_S - WARMUP_S, color="0.4", ls=":", lw=1)
        ax.set_title(f"{case.split('.')[1]}: {CONVERGENCE['buffer']} cells", fontsize=9)
        ax.set_xlabel(f"measured time after the {WARMUP_S:g} s warm-up (s)")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("running mean good throughput")
    axes[0][0].legend(fontsize=7, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def convergence_table(ds: xr.Dataset) -> pd.DataFrame:
    """Per long run: the running mean after the measured time of the other runs and at the end."""
    measured = DURATION_S - WARMUP_S
    rows = []
    for point, y in each_point(ds.running_throughput, "case", "discipline"):
        at = float(y.sel(measured_s=measured, method="nearest"))
        end = float(y.isel(measured_s=-1))
        rows.append({"case": point["case"], "discipline": LABELS[point["discipline"]], f"after {measured:g} s": at,
                     f"after {float(ds.measured_s[-1]):g} s": end, "difference": at - end})
    return pd.DataFrame(rows).set_index(["case", "discipline"]).round(3)


# --- the paper's numbers beside ours ---------------------------------------------------------------------------
THRESHOLDS_LABEL = "section 6 thresholds (Figs. 2, 3, 6, 7, 10)"
"""How the report's summary names the compared cells: the thresholds stand on ``lakshman.fig2`` in
``data/reference/lakshman.csv`` but are read from every total-throughput figure."""


def report_summary(comparison: pd.DataFrame, verdicts: pd.DataFrame, targets: list[str], quick: bool,
                   tables: dict[str, pd.DataFrame]) -> str:
    """reStructuredText for the HTML report's front page: :func:`atmtcp.figures.report_summary` (targets,
    claims, the compared cells against our distribution over seeds, model parameters counted apart), with
    the thresholds' cells named :data:`THRESHOLDS_LABEL`, and the tables given."""
    from ...figures import report_summary as summary
    from .comparison import THRESHOLDS
    view = comparison.assign(target=comparison.target.mask(comparison.metric.isin(THRESHOLDS), THRESHOLDS_LABEL))
    return summary("lakshman", view, verdicts, targets, tables, quick)


# --- numbers the notebook's prose cites ------------------------------------------------------------------------
def seeds_behind(datasets: dict[str, xr.Dataset], better: str, worse: str, tolerance: float) -> pd.Series:
    """Per seed, how many points (figure, buffer) of ``datasets`` have ``better``'s total throughput
    below ``worse``'s by more than ``tolerance`` (``lakshman.fig2`` ... ``fig10``, each seed alone)."""
    counts = None
    for ds in datasets.values():
        tp = ds.total_throughput
        behind = (tp.sel(discipline=better) < tp.sel(discipline=worse) - tolerance).sum("buffer")
        counts = behind if counts is None else counts + behind
    return counts.to_series().rename(f"points with {LABELS[better]} behind {LABELS[worse]} by > {tolerance}")


def rtt_order_table(datasets: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Per individual-throughput figure and discipline: at how many buffers the shortest-RTT source's
    good throughput (mean over the seeds) is above the longest-RTT source's, of how many."""
    rows = []
    for target, ds in datasets.items():
        for k in ds.discipline.values:
            y = ds.good_throughput.sel(discipline=k).mean("seed")
            rtt = ds.rtt_s.sel(discipline=k)
            rtt = rtt.isel({dim: 0 for dim in rtt.dims if dim != "source"}).values
            short, long_ = int(np.argmin(rtt)), int(np.argmax(rtt))
            ahead = int((y.isel(source=short) > y.isel(source=long_)).sum())
            rows.append({"figure": target, "discipline": LABELS[k], "buffers with the shorter RTT ahead": ahead,
                         "buffers": int(ds.sizes["buffer"])})
    return pd.DataFrame(rows).set_index(["figure", "discipline"])
