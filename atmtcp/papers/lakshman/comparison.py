"""Every number lakshman's text states (``data/reference/lakshman.csv``) beside ours.

The paper prints no table: its numbers are the system's parameters, the figures' settings and the
beta thresholds of its conclusions. :func:`comparison` puts beside each the value of our model (the
setting we ran) or of our results (for the thresholds: the smallest beta from which a discipline
stays "decent" in every total-throughput figure, :func:`needed_beta`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ...kernel.aal5 import packet_cells
from .claims import DECENT, TOTAL, _needed_beta
from .experiments import FIG14_BUFFER, RED_FULL, RED_ONE
from .scenario import AAL5, ACK_PACKET_BYTES, CELL_S, LINK_DELAY_S, MSS, NOMINAL_RTT_S, beta

CONTEXT = ("input_sampling_us", "typical_timer_ms", "delayed_ack_timer_ms", "min_beta_tahoe")
"""Numbers the paper states about things it did not simulate, or that we do not model (the switch's
input sampling: "there is no queuing or blocking internal to the switch")."""


def needed_beta(data: dict[str, xr.Dataset], discipline: str) -> float:
    """The smallest beta from which ``discipline`` gives at least DECENT in every figure of TOTAL."""
    return max(_needed_beta(data[t], discipline) for t in TOTAL if t in data)


def _model_value(row: pd.Series, data: dict[str, xr.Dataset]) -> float:
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
    }
    if metric in fixed:
        return float(fixed[metric])
    if metric == "beta":
        return float(beta(int(row["buffer"])))
    if metric in ("decent_beta", "decent_beta_upper", "better_beta", "reno_taildrop_beta"):
        return needed_beta(data, row["policy"]) if all(t in data for t in TOTAL) else np.nan
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
    if metric == "buffer_cells":
        return float(FIG14_BUFFER)
    return np.nan


def comparison(reference: pd.DataFrame, data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Every reference row with ``reproduced`` (our model's or our results' value), ``difference`` and
    ``status`` (``compared``, ``context`` or ``no dataset``)."""
    rows = []
    for _, row in reference.iterrows():
        out = row.to_dict()
        value = np.nan if row["metric"] in CONTEXT else _model_value(row, data)
        out["reproduced"] = value
        out["difference"] = value - float(row["value"]) if np.isfinite(value) else np.nan
        out["status"] = "compared" if np.isfinite(value) else ("context" if row["metric"] in CONTEXT else "no dataset")
        rows.append(out)
    table = pd.DataFrame(rows)
    for column in ("sources", "buffer"):
        table[column] = table[column].astype("Int64")
    return table


def conclusions_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """The conclusions' beta thresholds (section 6) beside the smallest beta from which each discipline
    stays at or above DECENT in every total-throughput figure (and in each)."""
    from .scenario import LABELS
    paper = {"cell_tail": "3 or 4", "cell_front": "1 (1.25 better)", "frame_tail": "2, even 3", "frame_front": "1 or less"}
    rows = []
    for k, text in paper.items():
        per = {t.split(".")[1]: _needed_beta(data[t], k) for t in TOTAL}
        rows.append({"discipline": LABELS[k], "paper": text, f"ours (all figures, >= {DECENT})": max(per.values()),
                     **per})
    return pd.DataFrame(rows).set_index("discipline")
