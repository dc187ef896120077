"""lakshman: the tables, figures and one-line findings of issue 24's targets, ``lakshman.beta_requirements``
(:mod:`.requirements`) and ``lakshman.buffer_study`` (:mod:`.studies`), beside section 6's numbers.

A requirement is read per seed and shown as its median and the 90 % interval of one run; "never" (inf) is
a seed that does not stay at the level within the paper's buffers (beta 4). The crossover is section 4's
"Frame-Tail is better than Cell-Front for small buffer sizes but Cell-Front becomes better than Frame-Tail
for larger buffer sizes": the mean over the buffers of Frame-Tail minus Cell-Front below beta 1 and from
beta 2 (the claim ``frame_tail_cell_front_crossover``'s reading), per seed.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ...reference import load_reference
from ...statistics import mean_and_interval, overlaps
from .comparison import PAPER_WORDS, describe_thresholds
from .figures import STYLE
from .requirements import ALL_FIGURES, DECENT, required_beta
from .scenario import DISCIPLINES, LABELS, beta
from .studies import HEADLINE, READINGS

SMALL_BETA, LARGE_BETA = 1.0, 2.0
"""The crossover's "small" and "larger" buffers: below beta 1 and from beta 2 (the claim's reading)."""
BOTH_CASES = "both cases"
NEVER_AT = 4.6
"""Where the figures draw "never" (inf): beyond the largest buffer, beta 4."""
REQUIREMENT_METRICS = ("decent_beta", "decent_beta_upper", "better_beta")


# --- the paper's numbers ----------------------------------------------------------------------------------------
def paper_requirements() -> pd.DataFrame:
    """Section 6's requirement per discipline from ``data/reference/lakshman.csv``: the lowest and highest
    beta it names (``decent_beta``, ``decent_beta_upper``, ``better_beta``) and its words."""
    ref = load_reference("lakshman")
    rows = ref[ref.metric.isin(REQUIREMENT_METRICS)]
    out = rows.groupby("policy").value.agg(["min", "max"]).rename(columns={"min": "paper_low", "max": "paper_high"})
    out["paper"] = pd.Series(PAPER_WORDS)
    return out.reindex(list(DISCIPLINES))


# --- formatting ------------------------------------------------------------------------------------------------
def _seeds(ds: xr.Dataset) -> str:
    n = ds.sizes["seed"]
    return f"{n} seed{'s' * (n > 1)}"


def beta_text(value: float) -> str:
    """A requirement as the tables print it: ``never`` for inf, else two decimals at most."""
    if np.isnan(value):
        return ""
    return "never" if np.isinf(value) else f"{value:.2f}".rstrip("0").rstrip(".")


def requirement_text(median: float, low: float, high: float) -> str:
    """``median [low, high]`` (the median alone without an interval: fewer than two seeds)."""
    if np.isnan(low) or np.isnan(high):
        return beta_text(median)
    return f"{beta_text(median)} [{beta_text(low)}, {beta_text(high)}]"


def gap_text(mean: float, low: float, high: float) -> str:
    """A gap as ``+0.012 [-0.010, +0.030]`` (empty where there is none: no buffer in the range)."""
    if np.isnan(mean):
        return ""
    return f"{mean:+.3f}" + ("" if np.isnan(low) or np.isnan(high) else f" [{low:+.3f}, {high:+.3f}]")


def _finite_or_never(values) -> np.ndarray:
    return np.where(np.isinf(values), NEVER_AT, values)


def _never_axis(ax, axis: str = "x"):
    """Ticks 0-4 in beta and the "never" place."""
    ticks = [0, 1, 2, 3, 4, NEVER_AT]
    labels = ["0", "1", "2", "3", "4", "never"]
    (ax.set_xticks if axis == "x" else ax.set_yticks)(ticks, labels)
    (ax.set_xlim if axis == "x" else ax.set_ylim)(-0.1, NEVER_AT + 0.3)


# --- lakshman.beta_requirements ------------------------------------------------------------------------------
STATISTICS = ("median", "low", "high")


def summarize_requirements(ds: xr.Dataset) -> xr.Dataset:
    """``ds`` (``lakshman.beta_requirements``) with each requirement's median over the seeds and the 90 %
    interval of one run (``required_beta_median``, ``_low``, ``_high``; :func:`.comparison.describe_thresholds`:
    :func:`atmtcp.statistics.interval` on the per-seed values, an infinite one ranked above every finite one)."""
    if "required_beta_median" in ds:
        return ds
    per_seed = ds.required_beta
    stats = {name: np.full(per_seed.shape[:-1], np.nan) for name in STATISTICS}
    for index in np.ndindex(*per_seed.shape[:-1]):
        summary = describe_thresholds(per_seed.transpose(..., "seed").values[index])
        for name in STATISTICS:
            stats[name][index] = summary[name]
    dims = [d for d in per_seed.transpose(..., "seed").dims if d != "seed"]
    out = ds.copy()
    for name in STATISTICS:
        out[f"required_beta_{name}"] = (dims, stats[name], {"units": "1", "long_name": f"required beta, {name} over "
                                                            "seeds (low, high: the 90 % interval of one run)"})
    return out


def requirements_table(ds: xr.Dataset) -> pd.DataFrame:
    """Per discipline and level: section 6's requirement beside ours, ``median [low, high]`` over the seeds, in
    all figures together and in each; ``paper inside`` says whether the paper's range meets our interval
    (all figures)."""
    paper = paper_requirements()
    ds = summarize_requirements(ds)
    rows = []
    for k in ds.discipline.values:
        for level in ds.level.values:
            at = ds.sel(discipline=k, level=level)
            row = {"discipline": LABELS[str(k)], "level": float(level), "paper": paper.loc[k, "paper"]}
            for figure in [ALL_FIGURES, *[f for f in ds.figure.values if f != ALL_FIGURES]]:
                cell = at.sel(figure=figure)
                row[str(figure)] = requirement_text(float(cell.required_beta_median), float(cell.required_beta_low),
                                                    float(cell.required_beta_high))
            whole = at.sel(figure=ALL_FIGURES)
            inside = overlaps(paper.loc[k, "paper_low"], paper.loc[k, "paper_high"], float(whole.required_beta_low),
                              float(whole.required_beta_high))
            row["paper inside"] = "" if inside is None else ("yes" if inside else "no")
            rows.append(row)
    return pd.DataFrame(rows).set_index(["discipline", "level"])


def requirements_figure(ds: xr.Dataset, title: str):
    """Left: each discipline's requirement in all figures together at each level (median, 90 % interval of one
    run), beside section 6's range (grey). Right: at DECENT, in each figure."""
    paper = paper_requirements()
    ds = summarize_requirements(ds)
    figures = [f for f in ds.figure.values if f != ALL_FIGURES]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    x = np.arange(len(DISCIPLINES))
    for j, k in enumerate(DISCIPLINES):
        low, high = paper.loc[k, "paper_low"], paper.loc[k, "paper_high"]
        left.fill_between([j - 0.4, j + 0.4], low - 0.03, high + 0.03, color="0.8", lw=0,
                          label="section 6" if j == 0 else None)
    offsets = np.linspace(-0.25, 0.25, len(ds.level))
    for off, level, marker in zip(offsets, ds.level.values, ("v", "o", "^")):
        at = ds.sel(level=level, figure=ALL_FIGURES)
        med, lo, hi = (_finite_or_never(at[f"required_beta_{s}"].values) for s in ("median", "low", "high"))
        left.errorbar(x + off, med, yerr=[med - lo, hi - med], fmt=marker, color="k", ms=5, capsize=2,
                      label=f"ours at {level:g}")
    left.set_xticks(x, [LABELS[k] for k in DISCIPLINES])
    left.set_title("all figures together (the largest of the five, per seed)", fontsize=9)
    offsets = np.linspace(-0.3, 0.3, len(figures))
    at = ds.sel(level=DECENT)
    for off, figure, color in zip(offsets, figures, plt.get_cmap("tab10").colors):
        cell = at.sel(figure=figure)
        med, lo, hi = (_finite_or_never(cell[f"required_beta_{s}"].values) for s in ("median", "low", "high"))
        right.errorbar(x + off, med, yerr=[med - lo, hi - med], fmt="o", color=color, ms=4, capsize=2, label=figure)
    right.set_xticks(x, [LABELS[k] for k in DISCIPLINES])
    right.set_title(f"each figure, at {DECENT:g} (our \"decent\")", fontsize=9)
    for ax in (left, right):
        _never_axis(ax, "y")
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=7, loc="lower right")
    left.set_ylabel("required beta (median, 90 % interval of one run)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def requirements_finding(ds: xr.Dataset) -> str:
    """One sentence of ``lakshman.beta_requirements``, for the fidelity page: per discipline, section 6's
    requirement beside ours at each level (all figures together, median and interval over the seeds)."""
    paper = paper_requirements()
    whole = summarize_requirements(ds).sel(figure=ALL_FIGURES)
    parts = []
    for k in DISCIPLINES:
        ours = "; ".join(f"{float(level):g}: " + requirement_text(*(float(whole.sel(discipline=k, level=level)[
            f"required_beta_{s}"]) for s in ("median", "low", "high"))) for level in ds.level.values)
        parts.append(f"{LABELS[k]} paper {paper.loc[k, 'paper']}, ours {ours}")
    return (f"smallest beta from which a discipline stays at or above each level in all five total-throughput "
            f"figures (median [90 % interval] over {_seeds(ds)}): " + " | ".join(parts))


# --- lakshman.buffer_study -------------------------------------------------------------------------------------
def study_requirements(ds: xr.Dataset, level: float = DECENT) -> xr.DataArray:
    """Per reading, case (and :data:`BOTH_CASES`, the larger of the two per seed), discipline and seed: the
    requirement at ``level`` within the study's buffers."""
    betas = beta(ds.buffer.values)
    tp = ds.total_throughput.transpose("reading", "case", "discipline", "seed", "buffer").values
    per_case = np.apply_along_axis(lambda y: required_beta(y, betas, level), -1, tp)
    values = np.concatenate([per_case, per_case.max(axis=1, keepdims=True)], axis=1)
    return xr.DataArray(values, dims=("reading", "case", "discipline", "seed"), coords={
        "reading": ds.reading.values, "case": [*ds.case.values, BOTH_CASES], "discipline": ds.discipline.values,
        "seed": ds.seed.values})


def crossover_gaps(ds: xr.Dataset) -> xr.Dataset:
    """Per reading, case and seed: Frame-Tail minus Cell-Front, mean over the buffers below beta 1
    (``small``) and from beta 2 (``large``); ``holds`` where small > 0 > large (section 4's crossover)."""
    b = beta(ds.buffer.values)
    gap = ds.total_throughput.sel(discipline="frame_tail") - ds.total_throughput.sel(discipline="cell_front")
    small, large = (gap.isel(buffer=np.flatnonzero(keep)).mean("buffer") if keep.any() else gap.isel(buffer=0) * np.nan
                    for keep in (b < SMALL_BETA, b >= LARGE_BETA))
    return xr.Dataset({"small": small, "large": large, "holds": (small > 0) & (large < 0)})


def _requirement_cell(values) -> str:
    s = describe_thresholds(values)
    return requirement_text(s["median"], s["low"], s["high"])


def study_table(ds: xr.Dataset, level: float = DECENT) -> pd.DataFrame:
    """Per reading and case: each discipline's requirement at ``level`` (median [90 % interval] over the
    seeds), the crossover's gaps (mean [interval]) and the seeds in which it holds, the timeouts per run and
    the share of loss recoveries that are fast retransmits (means over the disciplines, buffers and seeds)."""
    req = study_requirements(ds, level)
    gaps = crossover_gaps(ds)
    rows = []
    for reading in ds.reading.values:
        for case in req.case.values:
            row = {"reading": str(reading), "case": str(case).replace("lakshman.", "")}
            for k in ds.discipline.values:
                row[f"{LABELS[str(k)]} (beta at {level:g})"] = _requirement_cell(
                    req.sel(reading=reading, case=case, discipline=k).values)
            if case != BOTH_CASES:
                at = gaps.sel(reading=reading, case=case)
                for name, label in (("small", f"gap below beta {SMALL_BETA:g}"),
                                    ("large", f"gap from beta {LARGE_BETA:g}")):
                    row[label] = gap_text(*mean_and_interval(at[name].values))
                row["crossover holds (seeds)"] = f"{int(at.holds.sum())} of {at.sizes['seed']}"
                runs = ds.sel(reading=reading, case=case)
                row["timeouts per run"] = round(float(runs.timeouts.mean()), 1)
                fast = float(runs.fast_retransmits.sum())
                recoveries = fast + float(runs.timeouts.sum())
                row["fast-retransmit share"] = round(fast / recoveries, 3) if recoveries else np.nan
            rows.append(row)
    return pd.DataFrame(rows).set_index(["reading", "case"])


def _paper_row(ax, y: float, offsets):
    """Section 6's range per discipline as a thick line on row ``y``."""
    paper = paper_requirements()
    for off, k in zip(offsets, DISCIPLINES):
        color = STYLE[k][0]
        low, high = paper.loc[k, "paper_low"], paper.loc[k, "paper_high"]
        ax.plot([low - 0.03, high + 0.03], [y + off, y + off], "-", color=color, lw=4, alpha=0.6)


def study_figure(ds: xr.Dataset, title: str, level: float = DECENT):
    """One panel per case: each reading's requirement at ``level`` per discipline (median, 90 % interval of one
    run; the top row is section 6's range); last panel: the crossover's gaps per reading (mean, interval),
    below beta 1 (should be above 0) and from beta 2 (below 0)."""
    req = study_requirements(ds, level)
    gaps = crossover_gaps(ds)
    readings = list(ds.reading.values)
    y = np.arange(len(readings))[::-1].astype(float)
    top = len(readings)
    offsets = np.linspace(-0.3, 0.3, len(DISCIPLINES))
    cases = list(ds.case.values)
    fig, axes = plt.subplots(1, len(cases) + 1, figsize=(5.2 * (len(cases) + 1), 0.42 * len(readings) + 2.2),
                             sharey=True)
    for ax, case in zip(axes, cases):
        _paper_row(ax, top, offsets)
        for off, k in zip(offsets, DISCIPLINES):
            color, marker, _ = STYLE[k]
            stats = np.array([[describe_thresholds(req.sel(reading=r, case=case, discipline=k).values)[s]
                               for s in ("median", "low", "high")] for r in readings])
            med, lo, hi = (_finite_or_never(stats[:, i]) for i in range(3))
            ax.errorbar(med, y + off, xerr=[med - lo, hi - med], fmt=marker, color=color, ms=4, capsize=2,
                        label=LABELS[k])
        _never_axis(ax, "x")
        ax.set_xlabel(f"required beta at {level:g} (median, 90 % interval of one run)")
        ax.set_title(str(case).replace("lakshman.", "Fig. ").replace("fig", ""), fontsize=9)
        ax.grid(alpha=0.3, axis="x")
    axes[0].set_yticks([*y, top], [*readings, "paper (section 6)"], fontsize=8)
    axes[0].legend(fontsize=7, loc="center")
    ax = axes[-1]
    markers = dict(zip(cases, ("o", "s")))
    for case in cases:
        for name, color, shift in (("small", "tab:blue", -0.15), ("large", "tab:orange", 0.15)):
            stats = np.array([mean_and_interval(gaps[name].sel(reading=r, case=case).values) for r in readings])
            shift = shift + (0.05 if case == cases[-1] else -0.05)
            ax.errorbar(stats[:, 0], y + shift, xerr=[stats[:, 0] - stats[:, 1], stats[:, 2] - stats[:, 0]],
                        fmt=markers[case], color=color, ms=4, capsize=2,
                        label=f"{str(case).replace('lakshman.', '')}, "
                              + (f"below beta {SMALL_BETA:g}" if name == "small" else f"from beta {LARGE_BETA:g}"))
    ax.axvline(0, color="0.3", lw=1)
    ax.set_xlabel("Frame-Tail minus Cell-Front (mean over buffers)")
    ax.set_title("the crossover: above 0 at small buffers, below at large ones", fontsize=9)
    ax.grid(alpha=0.3, axis="x")
    ax.legend(fontsize=7, loc="lower left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def study_finding(ds: xr.Dataset, level: float = DECENT) -> str:
    """One sentence of ``lakshman.buffer_study``, for the fidelity page: the headline's requirements in both
    cases together, the readings that give any discipline a requirement within the buffers, and under how
    many readings the crossover holds on the mean over the seeds."""
    req = study_requirements(ds, level).sel(case=BOTH_CASES)
    medians = {str(r): {str(k): describe_thresholds(req.sel(reading=r, discipline=k).values)["median"]
                        for k in ds.discipline.values} for r in ds.reading.values}

    def listing(reading: str) -> str:
        return ", ".join(f"{LABELS[k]} {beta_text(v)}" for k, v in medians[reading].items())
    finite = [r for r in medians if r != HEADLINE and any(np.isfinite(v) for v in medians[r].values())]
    gaps = crossover_gaps(ds).mean("seed")
    holds = [str(r) for r in ds.reading.values
             if all(float(gaps.small.sel(reading=r, case=c)) > 0 > float(gaps.large.sel(reading=r, case=c))
                    for c in ds.case.values)]
    return (f"Figs. 2 and 10 together, median over {_seeds(ds)} of the smallest beta from which each "
            f"discipline stays at or above {level:g}: headline {listing(HEADLINE)}; "
            + ("; ".join(f"{r}: {listing(r)}" for r in finite) if finite else "no reading gives a finite one")
            + f". The crossover (Frame-Tail above Cell-Front below beta {SMALL_BETA:g}, below it from beta "
              f"{LARGE_BETA:g}, in both cases, on the means) holds under {len(holds)} of {ds.sizes['reading']} "
              "readings" + (f"; not under: {', '.join(r for r in map(str, ds.reading.values) if r not in holds)}"
                            if len(holds) < ds.sizes["reading"] else ""))


def readings_table() -> pd.DataFrame:
    """Each reading of the study with the sentence it rests on and the disciplines it changes."""
    return pd.DataFrame([{"reading": name, "rests on": spec.rests_on,
                          "disciplines run": ", ".join(LABELS[k] for k in spec.disciplines)}
                         for name, spec in READINGS.items()]).set_index("reading")

