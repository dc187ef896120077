"""The papers' own numbers (``data/reference/<paper>.csv``) beside the distribution of ours.

Each CSV row is one number a paper states about a target, with the coordinates it
belongs to (network, sources, buffer, policy, tcp, group, phase), the metric, and where it
stands in the paper. :func:`comparison` looks the same cell up in the target's Dataset and
places the paper's number in the distribution over our seeds (:mod:`atmtcp.statistics`):
the mean and median, a 90 % interval of the paper's statistic (one run, or the mean of the
runs the paper averaged: a Dataset's ``paper_runs`` attribute), seed 0's value, and whether
the paper's number lies inside. Settings the paper gives (a delay, a buffer, a capacity) are
shown as ``model parameter`` and never counted as compared results; fractions are compared
in points, other quantities in percent of the paper's value, and no average mixes them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from . import statistics

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "data" / "reference"
COORDINATES = ("network", "sources", "buffer", "policy", "tcp", "group", "phase", "ssthresh_kb")


@dataclass(frozen=True)
class Metric:
    """How a reference metric is read from a Dataset: its ``variable`` (with a ``seed`` axis
    where the experiment has one), its ``kind`` (``fraction``: compared in points, 100 x the
    difference; ``percent``, a number already in percent such as an improvement: in points, the
    difference; ``quantity``: in percent of the paper's value), the ``statistic`` the paper's number is over
    its runs (``mean``, ``sd`` or ``improvement_pct``: the mean over the previous policy column's
    mean, in percent), and whether it is a ``parameter`` of the model rather than a result.

    Parameters
    ----------
    variable : str
        The Dataset's variable.
    kind : str
        ``"fraction"``, ``"percent"`` or ``"quantity"`` (default ``"fraction"``).
    statistic : str
        ``"mean"``, ``"sd"`` or ``"improvement_pct"`` (default ``"mean"``).
    parameter : bool
        Whether it is a model parameter (default False).
    """

    variable: str
    kind: str = "fraction"
    statistic: str = "mean"
    parameter: bool = False


METRICS = {
    # goyal1998, goyal1997: one run per cell
    "efficiency": Metric("efficiency"),
    "fairness": Metric("fairness"),
    "max_queue_cells": Metric("max_queue", "quantity"),
    "efficiency_column_average": Metric("efficiency"),
    "fairness_column_average": Metric("fairness"),
    # cheon: the means (standard deviations) over the paper's 10 or 6 runs
    "effective_throughput": Metric("group_throughput", "quantity"),
    "effective_throughput_sd": Metric("group_throughput", "quantity", "sd"),
    "fairness_index": Metric("fairness"),
    "improvement_pct": Metric("group_throughput", "percent", "improvement_pct"),
    "max_effective_throughput": Metric("max_effective_throughput", "quantity", parameter=True),
    # ewa section 2: one run per figure (atmtcp.papers.ewa.section2.experiments.summarize_ten)
    "l1_utilization": Metric("utilization_phase"),
    "vc_max_tcp_throughput_mbps": Metric("max_tcp_throughput_mbps", "quantity", parameter=True),
    # ewa sections 3-4 (atmtcp.papers.ewa.section4.experiments.summarize_ewa)
    "l1_utilization_steady": Metric("utilization_steady"),
    "connection_share_steady": Metric("open_share_steady"),
    "l1_min_utilization": Metric("utilization_min"),
    "recovery_s": Metric("recovery_s", "quantity"),
    "underflow_ms": Metric("underflow_ms", "quantity"),
    "window_before_kb": Metric("window_before_kb", "quantity"),
    "window_after_kb": Metric("window_after_kb", "quantity"),
    "on_off_over_persistent": Metric("on_off_over_persistent"),
    "packets_dropped_per_run": Metric("packets_dropped_total", "quantity"),
}
"""CSV metric -> how to read it. Other metrics (context numbers, best parameter values, bounds)
are checked by :mod:`atmtcp.claims` instead."""
PARAMETER_PREFIX = "parameter_"
"""A metric named ``parameter_<name>`` is a setting the paper gives (a delay, a buffer): a test
checks that the paper's scenario module uses it (status ``model parameter``)."""
ADDED_COLUMNS = ["kind", "paper_low", "paper_high", "paper_runs", "seeds", "reproduced", "median", "low", "high",
                 "seed0", "inside", "difference", "relative_difference_pct", "status"]
"""The columns :func:`comparison` adds to the reference rows (see there)."""
FRACTION_DECIMALS = 2
"""A fraction printed without decimals ("1" in goyal1998's fairness tables) is read at two: 1.00."""
COMPARED = "compared"
PARAMETER = "model parameter"


NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_IN_WORDS = re.compile(r"\d+\s*/\s*\d+|\bhalf\b|\bquarter\b|\bthird\b|\bequal\b|\btwice\b|\bdouble\b", re.I)
"""A value the paper gives in words ("1/10th", "1/5th", "half", "equal throughputs"): :func:`paper_bounds`
reads it with the precision of a number printed with one significant digit ("1/10th" as "0.1": 0.05 to
0.15), the precision its words carry; a zero-width interval would count 0.100013 as outside."""
RANGE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:-|\u2013|to)\s*(\d[\d,]*(?:\.\d+)?)")


def _number(token: str) -> tuple[float, int]:
    """A printed number ("33,999", "0.21") and its decimals."""
    plain = token.replace(",", "")
    return float(plain), len(plain.split(".")[1]) if "." in plain else 0


def paper_bounds(value: float, text, min_decimals: int = 0) -> tuple[float, float]:
    """The values the paper's printed number stands for: a range it states ("approximately 20-30
    seconds": 20 to 30), or the rounding of the number as printed ("0.21": 0.205 to 0.215; "approximately
    70%" for 0.7: 0.695 to 0.705), read with at least ``min_decimals`` (goyal1998's tables print their
    fractions with two decimals, and a fairness of 1.00 as "1"); a value given in words (
    "1/10th", "half") with one significant digit. Where the text shows no such number, the value itself.

    Parameters
    ----------
    value : float
        The paper's number as the reference file holds it.
    text : str or None
        The paper's text for it (``paper_text``).
    min_decimals : int
        The decimals the number is read with at least.

    Returns
    -------
    tuple of float
        ``(low, high)``.
    """
    text = "" if text is None or (isinstance(text, float) and np.isnan(text)) else str(text)
    scales = (1.0, 0.01) if "%" in text else (1.0,)
    close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))  # noqa: E731
    for match in RANGE.finditer(text):
        (a, _), (b, _) = _number(match.group(1)), _number(match.group(2))
        for scale in scales:
            if a < b and a * scale - 1e-12 <= value <= b * scale + 1e-12:
                return a * scale, b * scale
    for token in NUMBER.findall(text):
        number, decimals = _number(token)
        for scale in scales:
            if close(number * scale, value):
                half = 0.5 * 10.0 ** -(decimals if scale != 1.0 else max(decimals, min_decimals)) * scale
                return value - half, value + half
    if value and _IN_WORDS.search(text):
        half = 0.5 * 10.0 ** float(np.floor(np.log10(abs(value))))
        return value - half, value + half
    return value, value


def placed(value: float, text, kind: str, low: float, high: float) -> tuple[float, float, bool | None]:
    """``(paper_low, paper_high, inside)``: the values the paper's printed ``value`` stands for
    (:func:`paper_bounds`; a fraction read with :data:`FRACTION_DECIMALS`) and whether they meet our
    interval ``[low, high]`` (None without one). The one test of "the paper's value is inside".

    Parameters
    ----------
    value : float
        The paper's number.
    text : str or None
        The paper's text for it.
    kind : str
        The metric's kind (:class:`Metric`).
    low, high : float
        Our interval (NaN: none).

    Returns
    -------
    tuple
        ``(paper_low, paper_high, inside)``.
    """
    paper_low, paper_high = paper_bounds(value, text, FRACTION_DECIMALS if kind == "fraction" else 0)
    return paper_low, paper_high, statistics.overlaps(paper_low, paper_high, low, high)


def load_reference(paper: str, directory: Path | str = REFERENCE_DIR) -> pd.DataFrame:
    """The reference rows of ``paper`` (e.g. ``"goyal1998"``).

    Parameters
    ----------
    paper : str
        A paper key.
    directory : path-like
        The folder of the reference files (default ``data/reference/``).

    Returns
    -------
    pandas.DataFrame
        One row per number of the paper.
    """
    df = pd.read_csv(Path(directory) / f"{paper}.csv", dtype={"paper_text": str, "note": str})
    df = df.rename(columns={"buffer_cells": "buffer"})
    for column in ("sources", "buffer"):
        df[column] = df[column].astype("Int64")
    return df


def _select(ds: xr.Dataset, row: pd.Series, variable: str) -> xr.DataArray | None:
    if variable not in ds:
        return None
    da = ds[variable]
    cells = ds.get("buffer_cells")
    for coord in COORDINATES:
        value = row.get(coord)  # a paper's CSV has the coordinate columns its tables use
        if value is None or pd.isna(value) or value == "":
            continue
        if coord == "buffer" and "buffer" not in da.dims and "buffer_factor" in da.dims and cells is not None:
            coord, value = "buffer_factor", _buffer_factor(cells, int(value))
            if value is None:
                return None
        if coord not in da.dims:
            if coord in ds.attrs and str(ds.attrs[coord]) != str(value):
                return None
            continue
        value = int(value) if coord in ("sources", "buffer", "ssthresh_kb") else value
        if value not in da[coord].values:
            return None
        da = da.sel({coord: value})
        if cells is not None and coord in cells.dims:
            cells = cells.sel({coord: value})
    if row["metric"].endswith("_column_average"):
        da = da.mean(dim=[d for d in ("sources", "buffer", "buffer_factor") if d in da.dims], skipna=True)
    return da


def _buffer_factor(cells: xr.DataArray, buffer: int):
    """The ``buffer_factor`` whose ``buffer_cells`` is ``buffer`` (rows already selected), or None."""
    hits = np.moveaxis(cells.values == buffer, cells.dims.index("buffer_factor"), 0)
    factors = cells.buffer_factor.values[hits.reshape(len(hits), -1).any(axis=1)]
    return factors[0].item() if factors.size else None


def _previous_policy(ds: xr.Dataset, row: pd.Series, variable: str) -> xr.DataArray | None:
    """The cell of the policy column before ``row``'s (an improvement's baseline)."""
    order = list(ds[variable].policy.values) if "policy" in ds[variable].dims else []
    if row["policy"] not in order or order.index(row["policy"]) == 0:
        return None
    previous = row.copy()
    previous["policy"] = order[order.index(row["policy"]) - 1]
    return _select(ds, previous, variable)


def _per_seed(da: xr.DataArray) -> tuple[np.ndarray, float]:
    """The per-seed values of one selected cell and seed 0's (NaN without one)."""
    if "seed" not in da.dims:
        return np.atleast_1d(da.values.astype(float)), float("nan")
    seed0 = float(da.sel(seed=0)) if 0 in da.seed.values else float("nan")
    return da.values.astype(float).ravel(), seed0


def _summary(metric: Metric, da: xr.DataArray, baseline: xr.DataArray | None, runs: int) -> dict:
    values, seed0 = _per_seed(da)
    if metric.statistic != "improvement_pct":
        return statistics.describe(values, runs, metric.statistic, seed0)
    base, base0 = _per_seed(baseline)
    return statistics.describe_improvement(values, base, runs, 100 * (seed0 / base0 - 1))


def _compare_row(row: pd.Series, ds: xr.Dataset | None) -> dict:
    """The columns :func:`comparison` adds to one reference row."""
    metric = METRICS.get(row["metric"])
    out = dict.fromkeys(ADDED_COLUMNS, np.nan)
    out.update(kind=metric.kind if metric else "", inside=None)
    if metric is None:
        out["status"] = PARAMETER if str(row["metric"]).startswith(PARAMETER_PREFIX) else "checked as a claim"
        return out
    if ds is None:
        out["status"] = "no dataset"
        return out
    da = _select(ds, row, metric.variable)
    baseline = _previous_policy(ds, row, metric.variable) if metric.statistic == "improvement_pct" and da is not None \
        else None
    if da is None or set(da.dims) - {"seed"} or (metric.statistic == "improvement_pct" and baseline is None):
        out["status"] = "no such cell"
        return out
    runs = int(ds.attrs.get("paper_runs", 1))
    out.update(_summary(metric, da, baseline, runs), paper_runs=runs)
    paper = float(row["value"])
    out["difference"] = out["reproduced"] - paper
    out["relative_difference_pct"] = 100 * out["difference"] / abs(paper) if paper else np.nan
    out["paper_low"], out["paper_high"], out["inside"] = placed(paper, row.get("paper_text"), metric.kind, out["low"],
                                                                out["high"])
    out["status"] = PARAMETER if metric.parameter else COMPARED
    return out


def comparison(reference: pd.DataFrame, datasets: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Every reference row beside the distribution of its reproduction over seeds.

    Columns added (:data:`ADDED_COLUMNS`): ``kind`` (``fraction`` or ``quantity``), ``paper_runs``
    (the runs behind the paper's number: the Dataset's ``paper_runs`` attribute, 1 by default),
    ``paper_low``/``paper_high`` (the values the paper's printed number stands for: its rounding or a
    range it states, :func:`paper_bounds`), ``seeds`` (our runs), ``reproduced`` (the paper's statistic over all our seeds: their mean, or
    standard deviation), ``median`` (of the per-seed values), ``low``/``high`` (the 90 % interval of
    :func:`atmtcp.statistics.interval`), ``seed0``, ``inside`` (the paper's value, as printed, meets the
    interval; empty without one), ``difference`` (reproduced - paper), ``relative_difference_pct`` (in percent
    of the paper's value) and ``status``: ``compared``, ``model parameter`` (a setting echoed back,
    never counted as a result), or why not compared.

    Parameters
    ----------
    reference : pandas.DataFrame
        Reference rows (:func:`load_reference`).
    datasets : dict of str to xarray.Dataset
        Target id -> its result.

    Returns
    -------
    pandas.DataFrame
        ``reference`` with the columns above.
    """
    rows = [{**row.to_dict(), **_compare_row(row, datasets.get(row["target"]))} for _, row in reference.iterrows()]
    table = pd.DataFrame(rows, columns=list(reference.columns) + ADDED_COLUMNS)
    for column in ("sources", "buffer"):
        if column in table:
            table[column] = table[column].astype("Int64")
    table["seeds"] = table["seeds"].astype("Int64")
    table["paper_runs"] = table["paper_runs"].astype("Int64")
    return table


def mean_absolute_difference(table: pd.DataFrame, by=("target",)) -> pd.Series:
    """Per target (or per ``by`` columns), the mean of ``|reproduced - paper|`` over the compared cells.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`comparison`.
    by : sequence of str
        The columns to group by.

    Returns
    -------
    pandas.Series
    """
    compared = table[table.status == COMPARED]
    return compared.assign(abs_difference=compared.difference.abs()).groupby(list(by)).abs_difference.mean()


def agreement(table: pd.DataFrame, by=("target",)) -> pd.DataFrame:
    """Per group of ``by``, over the compared cells (model parameters never count): ``cells``, ``with
    interval`` (cells with a 90 % interval), ``inside`` (how many hold the paper's value), ``share
    inside``, and the mean ``|difference|`` per kind, each in its own unit: ``fractions, points``
    (``100 x |reproduced - paper|`` of efficiencies, fairness indices, utilizations and shares),
    ``percentages, points`` (``|reproduced - paper|`` of numbers already in percent: improvements) and
    ``quantities, % of paper`` (``|reproduced - paper| / |paper|`` of throughputs, times, sizes).

    Parameters
    ----------
    table, by
        As for :func:`mean_absolute_difference`.

    Returns
    -------
    pandas.DataFrame
    """
    compared = table[table.status == COMPARED].copy()
    compared["has_interval"] = compared.inside.notna()
    compared["is_inside"] = compared.inside.fillna(False).astype(bool)
    compared["points"] = np.where(compared.kind == "fraction", 100 * compared.difference.abs(), np.nan)
    compared["percent_points"] = np.where(compared.kind == "percent", compared.difference.abs(), np.nan)
    compared["percent"] = np.where(compared.kind == "quantity", compared.relative_difference_pct.abs(), np.nan)
    grouped = compared.groupby(list(by), sort=False)
    out = pd.DataFrame({
        "cells": grouped.size(),
        "with interval": grouped.has_interval.sum(),
        "inside": grouped.is_inside.sum(),
        "fractions, points": grouped.points.mean(),
        "percentages, points": grouped.percent_points.mean(),
        "quantities, % of paper": grouped.percent.mean(),
    })
    out.insert(3, "share inside", out["inside"] / out["with interval"].where(out["with interval"] > 0))
    return out


LAYOUT_COLUMNS = {"value": "paper", "reproduced": "mean", "low": "low", "high": "high", "inside": "inside"}
"""The columns of each policy in :func:`paper_layout`: the paper's value, our mean over seeds, the
90 % interval and whether the paper's value lies inside it."""


def paper_layout(table: pd.DataFrame, target: str, metric: str | None = None, index: list[str] | None = None,
                 columns: str = "policy") -> pd.DataFrame:
    """One target's compared cells (of one ``metric``, or all) laid out as in the paper: rows ``index``
    (by default the coordinates among network, tcp, sources, buffer that the rows have), per value of
    ``columns`` the paper's value, our mean over seeds, the 90 % interval and whether the paper's value
    lies inside it (:data:`LAYOUT_COLUMNS`).

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`comparison`.
    target : str
        The target id.
    metric : str, optional
        One metric; None: all.
    index : list of str, optional
        The row coordinates.
    columns : str
        The column coordinate (default ``"policy"``).

    Returns
    -------
    pandas.DataFrame
        Empty if the target has no compared cell.
    """
    rows = table[(table.target == target) & (table.status == COMPARED)]
    if metric is not None:
        rows = rows[rows.metric == metric]
    if rows.empty:
        return pd.DataFrame()
    rows = rows.assign(inside=rows.inside.map({True: "yes", False: "no"}).fillna(""))
    index = index or [c for c in ("network", "tcp", "sources", "buffer") if rows[c].notna().any()]
    wide = rows.pivot_table(index=index, columns=columns, values=list(LAYOUT_COLUMNS), aggfunc="first", sort=False)
    wide = wide.rename(columns=LAYOUT_COLUMNS, level=0).swaplevel(0, 1, axis=1)
    present = list(dict.fromkeys(rows[columns]))
    order = [p for p in ("ubr", "epd", "selective_drop", "fba") if p in present] if columns == "policy" else present
    return wide.reindex(columns=pd.MultiIndex.from_product([order, list(LAYOUT_COLUMNS.values())]))
