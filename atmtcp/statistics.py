"""A paper's number placed in the distribution of our runs over seeds.

A paper ran one simulation per table cell (goyal1998, goyal1997, lakshman, ewa) or averaged a
few (cheon: "the averages over 10 simulations", "over 6 simulations", section 4.2). Our
simulator gives the distribution that number was drawn from: :func:`describe` summarizes the
per-seed values of one cell by their mean, median and a central :data:`INTERVAL` interval of
*the paper's statistic* (one run, or the mean or standard deviation of ``runs`` runs).

- One run per value: the interval is the empirical 5th and 95th percentiles of the per-seed
  values (numpy's linear interpolation). A paper value outside it is one a single run of our
  model would give less than one time in ten.
- A statistic of ``runs`` runs: the percentiles of that statistic over :data:`BOOTSTRAP_DRAWS`
  resamples of ``runs`` of our seeds, drawn with replacement by a generator seeded with
  :data:`BOOTSTRAP_SEED` (the same values always give the same interval). The values are first
  spread about their mean by sqrt(n / (n - 1)) (:func:`_variance_corrected`): resampling n values
  draws from a distribution whose variance is (n - 1) / n of theirs, which would narrow the interval
  (by about 5 % with 10 seeds, 29 % with 2).
"""
from __future__ import annotations

import numpy as np

INTERVAL = 0.90
"""Coverage of the interval beside every compared number."""
BOOTSTRAP_DRAWS = 4000
BOOTSTRAP_SEED = 20
"""The bootstrap's own seeded generator (part of the comparison's parameters, not of any run)."""
STATISTICS = ("mean", "sd")
"""What a paper's number is over its runs: their mean (a single run is the mean of one) or their
sample standard deviation (cheon's tables)."""


def _statistic(samples: np.ndarray, statistic: str) -> np.ndarray:
    """``statistic`` over the last axis of ``samples``."""
    if statistic == "mean":
        return samples.mean(axis=-1)
    if statistic == "sd":
        return samples.std(axis=-1, ddof=1) if samples.shape[-1] > 1 else np.full(samples.shape[:-1], np.nan)
    raise ValueError(f"statistic {statistic!r}: expected one of {STATISTICS}")


def _variance_corrected(values: np.ndarray) -> np.ndarray:
    """``values`` (one column, or seeds x columns) spread about their mean over the first axis, so that their
    population variance is their sample variance."""
    n = values.shape[0]
    return values.mean(axis=0) + (values - values.mean(axis=0)) * np.sqrt(n / (n - 1))


def interval(values, runs: int = 1, statistic: str = "mean") -> tuple[float, float]:
    """The central :data:`INTERVAL` interval of ``statistic`` over ``runs`` runs, from the per-seed
    ``values`` (NaN values, failed runs, are left out). ``(nan, nan)`` without two finite values.

    Parameters
    ----------
    values : array_like
        The per-seed values of one cell.
    runs : int
        How many runs the statistic is over (the paper's runs per number; 1: a single run).
    statistic : str
        ``"mean"`` or ``"sd"`` (:data:`STATISTICS`).

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    ValueError
        If ``statistic`` is not one of :data:`STATISTICS` (and the interval needs the bootstrap).
    """
    values = np.asarray(values, dtype=float).ravel()
    values = values[np.isfinite(values)]
    if values.size < 2 or runs < 1:
        return float("nan"), float("nan")
    tails = [100 * (1 - INTERVAL) / 2, 100 * (1 + INTERVAL) / 2]
    if runs == 1 and statistic == "mean":
        low, high = np.percentile(values, tails)
    else:
        rng = np.random.default_rng(BOOTSTRAP_SEED)
        pool = _variance_corrected(values)
        draws = _statistic(pool[rng.integers(0, values.size, size=(BOOTSTRAP_DRAWS, runs))], statistic)
        low, high = np.percentile(draws, tails)
    return float(low), float(high)


def mean_intervals(samples) -> np.ndarray:
    """Per column of ``samples`` (seeds x points), :func:`interval` of the mean of all its seeds, as
    (low, high) rows; the columns without NaN in one bootstrap that resamples the seeds of every
    column together (the same draws :func:`interval` makes for each, so the same bounds).

    Parameters
    ----------
    samples : array_like
        Seeds x points.

    Returns
    -------
    numpy.ndarray
        Points x 2: each column's ``(low, high)``; NaN where a column has fewer than two finite values.
    """
    samples = np.asarray(samples, dtype=float)
    seeds, points = samples.shape
    out = np.full((points, 2), np.nan)
    complete = np.isfinite(samples).all(axis=0)
    for j in np.flatnonzero(~complete):
        column = samples[:, j]
        out[j] = interval(column, runs=int(np.isfinite(column).sum()))
    if seeds < 2 or not complete.any():
        return out
    pool = _variance_corrected(samples[:, complete])
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = pool[rng.integers(0, seeds, size=(BOOTSTRAP_DRAWS, seeds))].mean(axis=1)
    tails = [100 * (1 - INTERVAL) / 2, 100 * (1 + INTERVAL) / 2]
    out[complete] = np.percentile(draws, tails, axis=0).T
    return out


def describe(values, runs: int = 1, statistic: str = "mean", seed0: float = float("nan")) -> dict:
    """The summary of one compared cell: ``seeds`` (finite values), ``reproduced`` (the statistic
    over all seeds: the mean, or the standard deviation for ``statistic="sd"``), ``median`` (of
    the per-seed values), ``low`` and ``high`` (:func:`interval`) and ``seed0``.

    Parameters
    ----------
    values : array_like
        The per-seed values of the cell (NaN: a failed run, left out).
    runs, statistic
        As for :func:`interval`.
    seed0 : float
        The value of seed 0, carried into the summary.

    Returns
    -------
    dict
        ``seeds``, ``reproduced``, ``median``, ``low``, ``high``, ``seed0``.
    """
    values = np.asarray(values, dtype=float).ravel()
    finite = values[np.isfinite(values)]
    centre = float(_statistic(finite, statistic)) if finite.size else float("nan")
    low, high = interval(finite, runs, statistic)
    return {"seeds": int(finite.size), "reproduced": centre,
            "median": float(np.median(finite)) if finite.size else float("nan"),
            "low": low, "high": high, "seed0": float(seed0)}


def mean_and_interval(values) -> tuple[float, float, float]:
    """The mean of the finite per-seed ``values`` and the :data:`INTERVAL` interval of one run
    (:func:`describe`'s ``reproduced``, ``low`` and ``high``); NaN where there are too few values.

    Parameters
    ----------
    values : array_like
        The per-seed values.

    Returns
    -------
    tuple of float
        ``(mean, low, high)``.
    """
    summary = describe(values)
    return summary["reproduced"], summary["low"], summary["high"]


def describe_improvement(values, baseline, runs: int = 1, seed0: float = float("nan")) -> dict:
    """:func:`describe` for an improvement in percent, ``100 (mean(values) / mean(baseline) - 1)`` (cheon
    4.2.3: "PPD improves the effective throughput by 28.3 % over random cell discard"): the two columns
    come from independent runs, so the bootstrap resamples ``runs`` seeds of each independently.

    Parameters
    ----------
    values, baseline : array_like
        The per-seed values of the improved discipline and of the one it is compared with.
    runs : int
        How many runs of each the paper averaged.
    seed0 : float
        The improvement at seed 0, carried into the summary.

    Returns
    -------
    dict
        As :func:`describe`; ``median`` is that of the improvements of seeds paired by position.
    """
    values, baseline = (np.asarray(v, dtype=float).ravel() for v in (values, baseline))
    values, baseline = values[np.isfinite(values)], baseline[np.isfinite(baseline)]
    nan = float("nan")
    if values.size == 0 or baseline.size == 0:
        return {"seeds": int(values.size), "reproduced": nan, "median": nan, "low": nan, "high": nan, "seed0": seed0}
    low = high = nan
    if values.size > 1 and baseline.size > 1:
        rng = np.random.default_rng(BOOTSTRAP_SEED)
        top = _variance_corrected(values)[rng.integers(0, values.size, size=(BOOTSTRAP_DRAWS, runs))].mean(-1)
        bottom = _variance_corrected(baseline)[rng.integers(0, baseline.size, size=(BOOTSTRAP_DRAWS, runs))].mean(-1)
        tails = [100 * (1 - INTERVAL) / 2, 100 * (1 + INTERVAL) / 2]
        low, high = (float(x) for x in np.percentile(100 * (top / bottom - 1), tails))
    paired = 100 * (values[:min(values.size, baseline.size)] / baseline[:min(values.size, baseline.size)] - 1)
    return {"seeds": int(min(values.size, baseline.size)), "reproduced": float(100 * (values.mean() / baseline.mean() - 1)),
            "median": float(np.median(paired)), "low": low, "high": high, "seed0": float(seed0)}


def inside(value: float, low: float, high: float) -> bool | None:
    """Whether ``value`` lies in ``[low, high]``; None where there is no interval.

    Parameters
    ----------
    value : float
        A paper's number.
    low, high : float
        Our interval (NaN: none).

    Returns
    -------
    bool or None
    """
    return overlaps(value, value, low, high)


def overlaps(paper_low: float, paper_high: float, low: float, high: float) -> bool | None:
    """Whether the paper's number, known only between ``paper_low`` and ``paper_high`` (its printed
    rounding or its stated range), meets our interval ``[low, high]``; None where there is no interval.

    Parameters
    ----------
    paper_low, paper_high : float
        The range the paper's number lies in.
    low, high : float
        Our interval (NaN: none).

    Returns
    -------
    bool or None
    """
    if np.isnan(low) or np.isnan(high):
        return None
    return bool(paper_low - 1e-12 <= high and low <= paper_high + 1e-12)
