"""Every number lakshman's text states (``data/reference/lakshman.csv``) beside ours.

The paper prints no table: its numbers are the system's parameters, the figures' settings and the
beta thresholds of its conclusions (section 6). :func:`comparison` gives each row the columns of
:func:`atmtcp.reference.comparison` (:data:`atmtcp.reference.ADDED_COLUMNS`), with these statuses:

- ``compared`` (kind ``quantity``): the thresholds (:data:`THRESHOLDS`), the smallest beta from which a
  discipline stays at or above DECENT in every total-throughput figure. The paper read each from its one
  run per point; so is each of ours, once per seed (:func:`needed_beta_per_seed`: seed s of every
  figure), and :func:`atmtcp.statistics.describe` summarizes them (``paper_runs`` 1; ``seeds``: 10 in
  full mode). A seed in which the discipline is below
  DECENT at the largest buffer (beta 4) has no threshold within our buffers: it counts as infinite
  (:func:`describe_thresholds`), and so do the mean and any bound of the interval it enters; such a
  row has ``inside`` (the paper's value below an infinite bound is inside) but no ``difference``. Each
  discipline's statement is counted once: its ``decent_beta`` row is compared, with the paper's range
  ("3 or 4": 3 to 4; "2 and even 3": 2 to 3; "1 ... although 1.25 might be better": 1 to 1.25) from all
  its rows; the others (``decent_beta_upper``, ``better_beta``, and section 1's ``reno_taildrop_beta``,
  the same statement as the conclusion for Cell-Tail) are shown beside the same distribution with the
  status ``same statement``. Our seeds have no seed 0: ``seed0`` is empty.
- ``model parameter``: a setting of the model echoed back (:data:`PARAMETERS`): buffer sizes, RTTs,
  packet sizes, the slot, link delays, the ACK delay, the RED ranges. ``reproduced`` is the value we
  ran with (``difference`` shows where ours differs by choice: the ACK delay, the slot); never counted
  as a compared result.
- ``context``: numbers about what the paper did not simulate or we do not model (:data:`CONTEXT`).
- ``no dataset`` / ``no such cell``: the target was not run, or a setting is not in its dataset (quick
  mode runs two buffer sizes only).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ...claims import common_seeds
from ...kernel.aal5 import packet_cells
from ...reference import ADDED_COLUMNS, COMPARED, PARAMETER, placed
from ... import statistics
from ...statistics import describe, interval
from .claims import DECENT, TOTAL, _needed_beta
from .experiments import FIG14_BUFFER, RED_FULL, RED_ONE
from .scenario import AAL5, ACK_PACKET_BYTES, CELL_S, LABELS, LINK_DELAY_S, MSS, NOMINAL_RTT_S, beta

CONTEXT = ("input_sampling_us", "typical_timer_ms", "delayed_ack_timer_ms", "min_beta_tahoe")
"""Numbers the paper states about things it did not simulate, or that we do not model (the switch's
input sampling: "there is no queuing or blocking internal to the switch")."""
THRESHOLDS = ("decent_beta", "decent_beta_upper", "better_beta", "reno_taildrop_beta")
"""The paper's results among its numbers: section 6's (and section 1's) beta thresholds."""
PARAMETERS = ("buffer_size_cells", "beta", "external_rtt_ms", "data_packet_bytes", "ack_packet_bytes",
              "data_packet_cells", "ack_packet_cells", "slot_us", "link_delay_min_us", "link_delay_max_us",
              "ack_delay_ms", "sources", "rtt_ms", "red_one", "red_full", "red_plots", "buffer_cells")
"""Settings of the model (the paper's, or ours where it is silent), echoed back: never compared."""
CONTEXT_STATUS = "context"
PRIMARY = "decent_beta"
"""The row of each discipline's requirement that is compared (the others name the same statement's range)."""
SAME_STATEMENT = "same statement"
"""The status of a threshold row that repeats a discipline's statement (shown, never counted)."""
PAPER_WORDS = {"cell_tail": "3 or 4", "cell_front": "1 (1.25 better)", "frame_tail": "2, even 3",
               "frame_front": "1 or less"}
"""Section 6's buffer requirements in short (its numbers are the ``decent_beta``, ``decent_beta_upper`` and
``better_beta`` rows of ``data/reference/lakshman.csv``)."""


def needed_beta(data: dict[str, xr.Dataset], discipline: str) -> float:
    """The smallest beta from which ``discipline`` gives at least DECENT in every figure of TOTAL, read
    on the mean over the seeds (the curves the figures draw)."""
    return max(_needed_beta(data[t], discipline) for t in TOTAL if t in data)


def needed_beta_per_seed(data: dict[str, xr.Dataset], discipline: str) -> tuple[list, np.ndarray]:
    """(seeds, thresholds): for each seed every figure of TOTAL has, the threshold of :func:`needed_beta`
    read on that seed's runs alone (inf where the discipline never stays at DECENT)."""
    totals = {t: data[t] for t in TOTAL}
    seeds = common_seeds(totals)
    values = [max(_needed_beta(ds.sel(seed=s), discipline) for ds in totals.values()) for s in seeds]
    return seeds, np.array(values, dtype=float)


def describe_thresholds(values) -> dict:
    """:func:`atmtcp.statistics.describe` of per-seed thresholds, some possibly infinite (never decent
    within our buffers): an infinite seed is kept, as a value above every finite one, so the mean, the
    median and an interval bound that reach it are infinite (the percentiles are taken on the order of
    the values). NaN (a failed run) is left out."""
    values = np.asarray(values, dtype=float).ravel()
    values = values[~np.isnan(values)]
    if np.isfinite(values).all():
        return describe(values, runs=1, statistic="mean")
    nan = float("nan")
    finite = values[np.isfinite(values)]
    top = finite.max() if finite.size else -np.inf
    ranked = np.where(np.isinf(values), top + 1.0 if finite.size else 1.0, values)  # inf: above every finite value

    def back(x: float) -> float:
        return float("inf") if x > top else float(x)
    low, high = (back(x) if np.isfinite(x) else nan for x in interval(ranked))
    return {"seeds": int(values.size), "reproduced": float(values.mean()), "median": back(float(np.median(ranked))),
            "low": low, "high": high, "seed0": nan}


def _parameter_value(row: pd.Series, data: dict[str, xr.Dataset]) -> float:
    """The value our model runs with for a :data:`PARAMETERS` row (NaN if its dataset lacks it)."""
    metric, ds = row["metric"], data.get(row["target"])
    fixed = {
        "external_rtt_ms": NOMINAL_RTT_S * 1e3,
        "data_packet_bytes": MSS + ACK_PACKET_BYTES,
        "ack_packet_bytes": ACK_PACKET_BYTES,
        "data_packet_cells": packet_cells(MSS, AAL5.overhead_bytes),
        "ack_packet_cells": packet_cells(0, AAL5.overhead_bytes),
        "slot_us": CELL_S * 1e6,
        "link_delay_min_us": LINK_DELAY_S[0] * 1e6,
        "link_delay_max_us": LINK_DELAY_S[1] * 1e6,
        "red_one": min(RED_ONE),
        "red_full": RED_FULL,
        "buffer_cells": FIG14_BUFFER,
    }
    if metric in fixed:
        return float(fixed[metric])
    if metric == "beta":
        return float(beta(int(row["buffer"])))
    if ds is None:
        return np.nan
    if metric == "buffer_size_cells":
        return float(row["buffer"]) if int(row["buffer"]) in ds.buffer.values else np.nan
    if metric == "sources":
        return float(ds.sizes["source"])
    if metric == "rtt_ms":
        rtts = np.unique(np.round(ds.rtt_s.values[np.isfinite(ds.rtt_s.values)] * 1e3, 6))
        wanted = float(row["value"])
        return wanted if np.isclose(rtts, wanted).any() else np.nan
    if metric == "ack_delay_ms":
        return float(np.nanmean(ds.ack_delay_s.values) * 1e3)
    if metric == "red_plots":
        return float(ds.sizes["red_one"])
    raise ValueError(f"no rule for the parameter {metric!r}")


def _differences(out: dict, paper: float) -> None:
    """``difference`` and ``relative_difference_pct`` of ``out["reproduced"]`` from ``paper`` (empty where
    ours is infinite: a threshold beyond our buffers)."""
    if not np.isfinite(out["reproduced"]):
        return
    out["difference"] = out["reproduced"] - paper
    out["relative_difference_pct"] = 100 * out["difference"] / abs(paper) if paper else np.nan


def statement_ranges(reference: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Per discipline, the lowest and highest beta of its threshold rows: the range its statement names."""
    rows = reference[reference.metric.isin(THRESHOLDS)]
    return {policy: (float(group.value.min()), float(group.value.max())) for policy, group in rows.groupby("policy")}


def _place_statement(out: dict, row: pd.Series, paper: float, ranges: dict) -> None:
    """The paper's bounds for a compared threshold: the range its discipline's rows name, or the rounding of its
    one number; and whether they meet our interval."""
    low, high = ranges.get(row["policy"], (paper, paper))
    if low < high:
        out["paper_low"], out["paper_high"] = low, high
        out["inside"] = statistics.overlaps(low, high, out["low"], out["high"])
    else:
        out["paper_low"], out["paper_high"], out["inside"] = placed(paper, row.get("paper_text"), out["kind"],
                                                                    out["low"], out["high"])  # high may be inf


def _compare_row(row: pd.Series, data: dict[str, xr.Dataset], ranges: dict | None = None) -> dict:
    """The columns :func:`comparison` adds to one reference row (:data:`atmtcp.reference.ADDED_COLUMNS`)."""
    metric, paper = row["metric"], float(row["value"])
    out = dict.fromkeys(ADDED_COLUMNS, np.nan)
    out.update(kind="", inside=None)
    if metric in CONTEXT:
        out["status"] = CONTEXT_STATUS
    elif metric in PARAMETERS:
        value = _parameter_value(row, data)
        out.update(kind="quantity", reproduced=value)
        if np.isfinite(value):
            _differences(out, paper)
            out["status"] = PARAMETER
        else:
            out["status"] = "no dataset" if row["target"] not in data else "no such cell"
    elif metric in THRESHOLDS:
        out["kind"] = "quantity"
        if not all(t in data for t in TOTAL):
            out["status"] = "no dataset"
            return out
        _, values = needed_beta_per_seed(data, row["policy"])
        out.update(describe_thresholds(values), paper_runs=1)
        _differences(out, paper)
        _place_statement(out, row, paper, ranges or {})
        if not out["seeds"]:
            out["status"] = "no such cell"
        else:
            out["status"] = COMPARED if metric == PRIMARY else SAME_STATEMENT
    else:
        raise ValueError(f"data/reference/lakshman.csv: metric {metric!r} is neither a parameter, a threshold nor "
                         "context")
    return out


def comparison(reference: pd.DataFrame, data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Every reference row beside ours, with the columns of :data:`atmtcp.reference.ADDED_COLUMNS` (see the
    module docstring): the thresholds ``compared`` as distributions over seeds, the settings echoed as
    ``model parameter``, the rest ``context`` or why not compared."""
    ranges = statement_ranges(reference)
    rows = [{**row.to_dict(), **_compare_row(row, data, ranges)} for _, row in reference.iterrows()]
    table = pd.DataFrame(rows, columns=list(reference.columns) + ADDED_COLUMNS)
    for column in ("sources", "buffer", "seeds", "paper_runs"):
        table[column] = table[column].astype("Int64")
    return table


def thresholds_table(table: pd.DataFrame) -> pd.DataFrame:
    """The compared rows of :func:`comparison` (the thresholds), in the paper's words beside the
    distribution of ours over the seeds."""
    rows = table[table.status.isin((COMPARED, SAME_STATEMENT))]
    out = pd.DataFrame({
        "discipline": rows.policy.map(LABELS), "metric": rows.metric, "paper": rows.value,
        "paper's words": rows.paper_text, "counted": rows.status == COMPARED, "seeds": rows.seeds, "mean": rows.reproduced, "median": rows["median"],
        "low": rows.low, "high": rows.high,
        "inside": rows.inside.map({True: "yes", False: "no"}).fillna("")})
    return out.set_index(["discipline", "metric"])


def conclusions_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """The conclusions' beta thresholds (section 6) beside the smallest beta from which each discipline
    stays at or above DECENT in every total-throughput figure, on the mean curves and per seed, and in
    each figure (mean curves)."""
    rows = []
    for k, text in PAPER_WORDS.items():
        per = {t.split(".")[1]: _needed_beta(data[t], k) for t in TOTAL}
        seeds, values = needed_beta_per_seed(data, k)
        rows.append({"discipline": LABELS[k], "paper": text, f"ours (all figures, >= {DECENT})": max(per.values()),
                     "each seed alone": ", ".join(f"{v:g}" for v in values), **per})
    return pd.DataFrame(rows).set_index("discipline")
