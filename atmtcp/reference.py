"""The papers' own numbers (``data/reference/<paper>.csv``) beside the reproduced ones.

Each CSV row is one number a paper states about a target, with the coordinates it
belongs to (network, sources, buffer, policy, tcp), the metric, and where it stands in
the paper. :func:`comparison` looks the same cell up in the target's Dataset: the
headline value is seed 0 (the paper's setup, all sources starting at t = 0); the seeded
runs with a start jitter give the spread.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "data" / "reference"
COORDINATES = ("network", "sources", "buffer", "policy", "tcp", "group", "phase")
METRICS = {
    # goyal1998, goyal1997: one run per cell (seed 0 the headline)
    "efficiency": "efficiency",
    "fairness": "fairness",
    "max_queue_cells": "max_queue",
    "efficiency_column_average": "efficiency",
    "fairness_column_average": "fairness",
    # cheon: statistics over seeds (atmtcp.papers.cheon.experiments.seed_statistics)
    "effective_throughput": "effective_throughput_mean",
    "effective_throughput_sd": "effective_throughput_sd",
    "fairness_index": "fairness_mean",
    "improvement_pct": "improvement_pct",
    "max_effective_throughput": "max_effective_throughput",
    # ewa: per seed, seed 0 the paper's run (atmtcp.papers.ewa.experiments.summarize_ten)
    "l1_utilization": "utilization_phase",
    "vc_max_tcp_throughput_mbps": "max_tcp_throughput_mbps",
    # ewa sections 3-4 (atmtcp.papers.ewa.experiments_ewa.summarize_ewa)
    "l1_utilization_steady": "utilization_steady",
    "connection_share_steady": "open_share_steady",
    "l1_min_utilization": "utilization_min",
    "recovery_s": "recovery_s",
    "underflow_ms": "underflow_ms",
    "window_before_kb": "window_before_kb",
    "window_after_kb": "window_after_kb",
    "on_off_over_persistent": "on_off_over_persistent",
    "packets_dropped_per_run": "packets_dropped_total",
}
"""CSV metric -> Dataset variable. Other metrics (context numbers, best parameter values,
bounds) are checked by :mod:`atmtcp.claims` instead."""
PARAMETER_PREFIX = "parameter_"
"""A metric named ``parameter_<name>`` is a setting the paper gives (a delay, a buffer): a test
checks that the paper's scenario module uses it (status ``model parameter``)."""


def load_reference(paper: str, directory: Path | str = REFERENCE_DIR) -> pd.DataFrame:
    """The reference rows of ``paper`` (e.g. ``"goyal1998"``)."""
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
        value = int(value) if coord in ("sources", "buffer") else value
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
    match = cells.where(cells == buffer, drop=True)
    if match.size == 0:
        return None
    return match.buffer_factor.values.ravel()[0].item()


def comparison(reference: pd.DataFrame, datasets: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Every reference row with a table metric, beside its reproduction.

    Columns added: ``reproduced`` (seed 0), ``difference`` (reproduced - paper),
    ``seed_min``/``seed_max`` over the seeded runs with start jitter (NaN where the
    experiment has no seed axis), and ``status``: ``compared``, or why not.
    """
    rows = []
    for _, row in reference.iterrows():
        out = row.to_dict()
        variable = METRICS.get(row["metric"])
        ds = datasets.get(row["target"])
        da = None if variable is None or ds is None else _select(ds, row, variable)
        out.update(reproduced=np.nan, difference=np.nan, seed_min=np.nan, seed_max=np.nan)
        if variable is None:
            out["status"] = "model parameter" if str(row["metric"]).startswith(PARAMETER_PREFIX) else "checked as a claim"
        elif ds is None:
            out["status"] = "no dataset"
        elif da is None or set(da.dims) - {"seed"}:
            out["status"] = "no such cell"
        else:
            headline = da.sel(seed=0) if "seed" in da.dims else da
            out["reproduced"] = float(headline)
            out["difference"] = float(headline) - float(row["value"])
            if "seed" in da.dims and da.sizes["seed"] > 1:
                jittered = da.sel(seed=da.seed.values[da.seed.values > 0])
                out["seed_min"] = float(jittered.min())
                out["seed_max"] = float(jittered.max())
            out["status"] = "compared"
        rows.append(out)
    table = pd.DataFrame(rows)
    for column in ("sources", "buffer"):
        table[column] = table[column].astype("Int64")
    return table


def mean_absolute_difference(table: pd.DataFrame, by=("target",)) -> pd.Series:
    """Per target (or per ``by`` columns), the mean of |reproduced - paper| over the compared cells."""
    compared = table[table.status == "compared"]
    return compared.assign(abs_difference=compared.difference.abs()).groupby(list(by)).abs_difference.mean()


def paper_layout(table: pd.DataFrame, target: str, metric: str) -> pd.DataFrame:
    """One target's cells laid out as in the paper: rows (network, sources, buffer),
    columns (policy) x (paper, reproduced, difference)."""
    rows = table[(table.target == target) & (table.metric == metric) & (table.status == "compared")]
    if rows.empty:
        return pd.DataFrame()
    index = [c for c in ("network", "tcp", "sources", "buffer") if rows[c].notna().any()]
    wide = rows.pivot_table(index=index, columns="policy", values=["value", "reproduced", "difference"],
                            aggfunc="first", sort=False)
    wide = wide.rename(columns={"value": "paper"}, level=0).swaplevel(0, 1, axis=1)
    order = [p for p in ("ubr", "epd", "selective_drop", "fba") if p in wide.columns.get_level_values(0)]
    return wide.reindex(columns=pd.MultiIndex.from_product([order, ["paper", "reproduced", "difference"]]))
