"""cheon's tables and figures, drawn from the experiments' Datasets (``notebooks/cheon.ipynb``).

Each function returns a pandas DataFrame or a matplotlib Figure; saving is
:func:`atmtcp.figures.save_table` / :func:`atmtcp.figures.save_figure`.
"""
from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ...kernel import layout as L
from ...kernel.policies import espd_decision
from ...reference import COMPARED, PARAMETER, agreement
from .experiments import congestion_epochs
from .scenario import POLICY_LABELS

ROWS = [
    # (metric of data/reference/cheon.csv, row label)
    ("effective_throughput", "effective throughput"),
    ("improvement_pct", "improvement (%)"),
    ("effective_throughput_sd", "standard deviation"),
    ("fairness_index", "fairness index"),
    ("max_effective_throughput", "maximum value"),
]


# --- Tables 1-5 -------------------------------------------------------------------------------------------
CELL_COLUMNS = ("paper", "ours", "90 % interval", "inside")
"""Per policy column of a table: the paper's number; ours, the same statistic over all our seeds
(their mean; for the standard deviation, their standard deviation); the 90 % interval of that
statistic over as many of our runs as the paper averaged (:func:`atmtcp.statistics.interval`);
and whether the paper's number lies inside it."""


def interval_text(low: float, high: float) -> str:
    """``[low, high]`` for a table cell, both with the decimals of the larger (none from 100 up, one
    from 10, three below: fairness indices); empty without an interval."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return ""
    size = max(abs(low), abs(high))
    decimals = 0 if size >= 100 else 1 if size >= 10 else 3
    return f"[{low:.{decimals}f}, {high:.{decimals}f}]"


def cells(comparison: pd.DataFrame, target: str | None = None) -> pd.DataFrame:
    """One row per table cell of ``target`` (every target if None): the quantity, the group of
    sessions and the policy; the paper's value, ours (mean over seeds, or standard deviation for
    the standard-deviation rows), the 90 % interval, our seeds, the paper's runs and ``inside``
    (yes, no, or empty without an interval: the maximum value is a model parameter)."""
    rows = comparison[comparison.status.isin([COMPARED, PARAMETER])]
    if target is not None:
        rows = rows[rows.target == target]
    inside = rows.inside.map(lambda v: "" if v is None or (isinstance(v, float) and np.isnan(v))
                             else ("yes" if v else "no"))
    compared = rows.status == COMPARED
    intervals = [interval_text(lo, hi) for lo, hi in zip(rows.low.astype(float), rows.high.astype(float))]
    return pd.DataFrame({
        "target": rows.target, "quantity": rows.metric.map(dict(ROWS)), "sessions": rows["group"].fillna("all"),
        "policy": rows.policy.map(POLICY_LABELS), "paper": rows.value.astype(float),
        "ours": rows.reproduced.astype(float), "90 % interval": intervals,
        "seeds": rows.seeds.astype(float).where(compared),
        "paper runs": rows.paper_runs.astype(float).where(compared), "inside": inside,
    }).reset_index(drop=True)


def table(comparison: pd.DataFrame, target: str) -> pd.DataFrame:
    """One of Tables 1-5 in the paper's layout: rows (quantity, group of sessions), columns
    (policy) x :data:`CELL_COLUMNS`, then our seeds and the paper's runs behind each row (``runs
    ours``, ``runs paper``). The maximum value is a model parameter: no interval."""
    rows = cells(comparison, target)
    order = [label for _, label in ROWS]
    keys = list(dict.fromkeys(zip(rows.quantity, rows.sessions)))
    keys = sorted(keys, key=lambda k: (order.index(k[0]), keys.index(k)))
    wide = rows.set_index(["quantity", "sessions", "policy"])[list(CELL_COLUMNS)].unstack("policy")
    wide = wide.swaplevel(0, 1, axis=1)
    labels = [POLICY_LABELS[p] for p in POLICY_LABELS if POLICY_LABELS[p] in set(rows.policy)]
    wide = wide.reindex(index=pd.MultiIndex.from_tuples(keys, names=["quantity", "sessions"]),
                        columns=pd.MultiIndex.from_product([labels, list(CELL_COLUMNS)]))
    runs = rows.groupby(["quantity", "sessions"], sort=False)[["seeds", "paper runs"]].max()
    wide[("runs", "ours")] = runs.seeds.reindex(wide.index).values
    wide[("runs", "paper")] = runs["paper runs"].reindex(wide.index).values
    for label in labels:
        for column in ("90 % interval", "inside"):
            wide[(label, column)] = wide[(label, column)].fillna("")
    return wide


def throughput_bars(ds: xr.Dataset, comparison: pd.DataFrame, target: str, title: str):
    """Effective throughput per policy and group of sessions: the paper's mean beside ours (the mean
    over our seeds), with the 90 % interval of a mean of as many of our runs as the paper averaged as
    error bars: where the paper's bar should end if its runs were drawn like ours."""
    rows = comparison[(comparison.target == target) & (comparison.metric == "effective_throughput")]
    groups = list(dict.fromkeys(rows["group"]))
    policies = [p for p in POLICY_LABELS if p in ds.policy.values]
    runs = int(ds.attrs.get("paper_runs", 1))
    fig, axes = plt.subplots(1, len(groups), figsize=(3.3 * len(groups), 3.4), squeeze=False)
    for ax, group in zip(axes[0], groups):
        x = np.arange(len(policies))
        cell = [rows[(rows.policy == p) & (rows["group"] == group)].iloc[0] for p in policies]
        paper = [float(c.value) for c in cell]
        ours = np.array([float(c.reproduced) for c in cell])
        low, high = np.array([float(c.low) for c in cell]), np.array([float(c.high) for c in cell])
        yerr = np.clip(np.nan_to_num(np.vstack([ours - low, high - ours])), 0, None)
        ax.bar(x - 0.2, paper, 0.4, color="0.6", label=f"paper (mean of {runs} runs)")
        ax.bar(x + 0.2, ours, 0.4, color="tab:blue", yerr=yerr, capsize=3,
               label=f"atmtcp (mean of {ds.sizes['seed']} seeds;\n90 % interval of a mean of {runs})")
        ax.set_xticks(x, [POLICY_LABELS[p] for p in policies])
        ax.set_title(f"sessions: {group}", fontsize=10)
        ax.set_ylabel("packets after 0.5 s")
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


# --- Figs. 2-7: queue and sessions damaged -----------------------------------------------------------------
def queue_damage_figure(ds: xr.Dataset, title: str, t_range=(2.0, 3.0), thresholds: dict[str, int] | None = None):
    """cheon Figs. 2-4 and 6: the queue at the congested port (upper) and which sessions were
    damaged (lower: captured into the drop-list; for RCD, a cell dropped) against time."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 4.6), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    t = ds.sample_time.values
    keep = (t >= t_range[0]) & (t <= t_range[1])
    top.plot(t[keep], ds.queue_cells.values.ravel()[keep], lw=0.7, color="tab:blue")
    for name, level in (thresholds or {}).items():
        top.axhline(level, color="tab:red", lw=0.6, ls="--")
        top.text(t_range[1], level, f" {name}", va="center", fontsize=7, color="tab:red")
    top.set_ylabel("queue length (cells)")
    top.set_ylim(0, ds.attrs["buffer_cells"] * 1.05)
    dt, ds_ = ds.damaged_time.values.ravel(), ds.damaged_session.values.ravel()
    sel = (dt >= t_range[0]) & (dt <= t_range[1])
    bottom.plot(dt[sel], ds_[sel], "|", ms=6, color="tab:red")
    bottom.set_yticks(range(1, 11))
    bottom.set_ylim(0.5, 10.5)
    bottom.set_ylabel("session ID")
    bottom.set_xlabel("time (s)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def first_epoch(ds: xr.Dataset, after_s: float = 2.0) -> tuple[float, float]:
    """The first congestion epoch starting at or after ``after_s`` (the window of Figs. 2-6),
    as defined in :func:`atmtcp.papers.cheon.experiments.congestion_epochs`."""
    epochs = congestion_epochs(ds.sample_time.values, ds.queue_cells.values.ravel(), ds.attrs["rtt_s"])
    later = epochs[epochs[:, 0] >= after_s] if epochs.size else epochs
    if not len(later):
        return after_s, after_s + 0.05
    return float(later[0, 0]), float(later[0, 1])


def magnified_figure(ds: xr.Dataset, title: str, thresholds: dict[str, int]):
    """cheon Figs. 5 and 7: the first congestion epoch of Figs. 4 and 6, one RTT either side."""
    start, end = first_epoch(ds)
    rtt = ds.attrs["rtt_s"]
    return queue_damage_figure(ds, f"{title} ({(end - start) / rtt:.1f} RTTs at >= 90 % of the buffer)",
                               (start - rtt, end + rtt), thresholds)


# --- Figs. 8-11: windows -----------------------------------------------------------------------------------
def windows_figure(ds: xr.Dataset, title: str):
    """cheon Figs. 8-11: the window size of the ten sessions against time, with the
    synchronization index (mean pairwise correlation) in the title."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    cwnd = ds.cwnd.squeeze()
    colors = plt.cm.tab10(np.arange(cwnd.sizes["session"]))
    for i, session in enumerate(cwnd.session.values):
        ax.step(cwnd.time.values, cwnd.sel(session=session).values / 1000, where="post", lw=0.6, color=colors[i],
                label=str(session))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("window size (kB)")
    ax.legend(title="session", fontsize=6, ncol=2, loc="upper right", title_fontsize=7)
    ax.set_title(f"{title}\nsynchronization (mean pairwise cwnd correlation): {float(ds.synchronization.squeeze()):+.2f}",
                 fontsize=10)
    fig.tight_layout()
    return fig


# --- Fig. 12: the ESPD flow chart, from espd_decision itself ----------------------------------------------
EXAMPLE = {"K": 100, "R1": 90, "R2": 50}
QUESTIONS = [
    ("listed", "VC in the drop-list?", (True, False)),
    ("eom", "EOM cell?", (True, False)),
    ("level", "queue length X?", ("X < T2", "T2 <= X <= T1", "T1 < X < K", "X = K (full)")),
    ("bom", "BOM cell?", (True, False)),
    ("list_full", "drop-list at its threshold?", (True, False)),
]
LEVEL_X = {"X < T2": 10, "T2 <= X <= T1": 70, "T1 < X < K": 95, "X = K (full)": 100}
ACTIONS = {L.ESPD_STAY: "", L.ESPD_CAPTURE: "capture VC\n(first one: start drop timer)",
           L.ESPD_RELEASE: "release VC\n(stop drop timer)"}


def espd_outcome(case: dict) -> tuple[str, str]:
    """What :func:`atmtcp.kernel.policies.espd_decision` does for one combination of answers."""
    decision, action = espd_decision(case["listed"], LEVEL_X[case["level"]], EXAMPLE["K"], EXAMPLE["R1"],
                                     EXAMPLE["R2"], case["list_full"], case["bom"], case["eom"])
    return ("insert cell" if decision == L.ACCEPT else "discard cell"), ACTIONS[int(action)]


def espd_decision_tree(fixed: dict | None = None, remaining=None):
    """The decision tree of ESPD, found by enumerating every combination of answers to
    :data:`QUESTIONS` through :func:`espd_outcome`: at each node, the first question whose
    answers lead to different outcomes is asked; a node whose completions all give one
    outcome is a leaf. Returns ``("leaf", outcome)`` or ``("ask", name, question, [(label, answers,
    subtree)])``, where ``answers`` are the answers to question ``name`` that lead to ``subtree``."""
    fixed = fixed or {}
    remaining = list(QUESTIONS if remaining is None else remaining)
    outcomes = _outcomes(fixed, remaining)
    if len(set(outcomes)) == 1:
        return ("leaf", outcomes[0])
    for i, (name, text, answers) in enumerate(remaining):
        rest = remaining[:i] + remaining[i + 1:]
        branches = [_outcomes({**fixed, name: a}, rest) for a in answers]
        if len({tuple(b) for b in branches}) > 1 or any(len(set(b)) > 1 for b in branches):
            if len({tuple(sorted(set(b))) for b in branches}) == 1 and all(len(set(b)) > 1 for b in branches):
                continue  # this question changes nothing on its own: ask another first
            return ("ask", name, text, _merge_same([(a, espd_decision_tree({**fixed, name: a}, rest)) for a in answers]))
    raise AssertionError("no question separates the outcomes")


LEVEL_BOUNDS = {  # lower and upper bound of each queue-length answer, to name a merged range
    "X < T2": ("", "X < T2"), "T2 <= X <= T1": ("T2 <= X", "X <= T1"), "T1 < X < K": ("T1 < X", "X < K"),
    "X = K (full)": ("X = K", "X <= K"),
}


def _merge_same(branches):
    """Join neighbouring answers that lead to the same subtree; queue-length answers become one
    range ("X < T2" and "T2 <= X <= T1" give "X <= T1")."""
    merged = []
    for answer, sub in branches:
        if merged and merged[-1][1] == sub:
            merged[-1][0].append(answer)
        else:
            merged.append(([answer], sub))
    return [(_range_label(answers[0], answers[-1]), answers, sub) for answers, sub in merged]


def _range_label(first, last):
    if first == last or first not in LEVEL_BOUNDS:
        return first
    low, high = LEVEL_BOUNDS[first][0], LEVEL_BOUNDS[last][1]
    return high if not low else low + high[1:]


def _outcomes(fixed: dict, remaining) -> list:
    names = [name for name, _, _ in remaining]
    return [espd_outcome({**fixed, **dict(zip(names, combo))})
            for combo in itertools.product(*(answers for _, _, answers in remaining))]


def flowchart_figure(tree=None):
    """cheon Fig. 12: the ESPD decision flow chart, drawn from :func:`espd_decision_tree`
    (thresholds T1, T2 and buffer K as in the pseudocode)."""
    tree = tree or espd_decision_tree()
    nodes, edges = [], []
    _layout(tree, 0, [0], nodes, edges, None)
    width = max(x for x, _, _, _ in nodes) + 1
    depth = max(-y for _, y, _, _ in nodes) + 1
    fig, ax = plt.subplots(figsize=(1.55 * width + 1, 1.25 * depth + 0.6))
    for (x0, y0), (x1, y1), label in edges:
        ax.plot([x0, x1], [y0, y1], color="0.5", lw=0.8, zorder=1)
        ax.text(x0 + 0.65 * (x1 - x0), y0 + 0.65 * (y1 - y0), str(label), fontsize=7, ha="center", va="center",
                bbox={"fc": "white", "ec": "none", "pad": 0.5}, zorder=2)
    for x, y, text, leaf in nodes:
        style = {"boxstyle": "round,pad=0.3", "fc": "#e8f0fe" if not leaf else
                 ("#e6f4ea" if text.startswith("insert") else "#fce8e6"), "ec": "0.4"}
        ax.text(x, y, text, ha="center", va="center", fontsize=7, bbox=style, zorder=3)
    ax.set_xlim(-0.8, width - 0.2)
    ax.set_ylim(-depth + 0.4, 0.6)
    ax.axis("off")
    ax.set_title("ESPD on each arriving cell (first: if the drop timer has expired, empty the drop-list)",
                 fontsize=9)
    fig.tight_layout()
    return fig


def _layout(tree, depth, next_x, nodes, edges, parent):
    """Place leaves left to right and each question above the middle of its answers."""
    if tree[0] == "leaf":
        decision, action = tree[1]
        x = next_x[0]
        next_x[0] += 1
        nodes.append((x, -depth, decision + ("\n" + action if action else ""), True))
        return x
    xs = []
    children = []
    for label, _answers, sub in tree[3]:
        cx = _layout(sub, depth + 1, next_x, nodes, edges, None)
        xs.append(cx)
        children.append((cx, label))
    x = float(np.mean(xs))
    nodes.append((x, -depth, tree[2], False))
    for cx, answer in children:
        label = {True: "yes", False: "no"}.get(answer, answer)
        edges.append(((x, -depth), (cx, -depth - 1), label))
    return x


# --- the comparison ---------------------------------------------------------------------------------------
UNITS = {
    "effective_throughput": "% of the paper's value",
    "effective_throughput_sd": "% of the paper's value",
    "fairness_index": "index (0 to 1)",
    "improvement_pct": "percentage points",
}


def relative_differences(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per target and quantity: the cells compared, how many have a 90 % interval and how many of
    the paper's values lie inside it, and the mean signed difference of ours (mean over seeds) from
    the paper's value in the quantity's own unit (:data:`UNITS`; each row one quantity, so no mean
    mixes units). The maximum value is a model parameter and is left out."""
    rows = comparison[comparison.status == COMPARED].copy()
    rows["unit"] = rows.metric.map(UNITS)
    relative = rows.unit == UNITS["effective_throughput"]
    rows["signed"] = np.where(relative, rows.relative_difference_pct, rows.difference).astype(float)
    by = ["target", "metric", "unit"]
    out = agreement(rows, by=by)[["cells", "with interval", "inside"]]
    out["mean difference"] = rows.groupby(by, sort=False).signed.mean().round(3)
    return out
