"""goyal1998's tables and figures, drawn from the experiments' Datasets (``notebooks/goyal1998.ipynb``).

Each function returns a matplotlib Figure or a pandas DataFrame; saving is
:func:`atmtcp.figures.save_figure` / :func:`atmtcp.figures.save_table`.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ...experiment import each_point
from ...figures import trace_samples
from ...reference import paper_layout
from ...statistics import mean_and_interval
from .scenario import POLICY_LABELS

MSS = 512


def paper_table(comparison: pd.DataFrame, target: str, metric: str) -> pd.DataFrame:
    """A table target in the paper's layout: per policy the paper's value, our mean over seeds, its
    90 % interval and whether the paper's value lies inside (:func:`atmtcp.reference.paper_layout`)."""
    table = paper_layout(comparison, target, metric)
    table.columns = pd.MultiIndex.from_tuples([(POLICY_LABELS.get(p, p), k) for p, k in table.columns])
    return table


def comparison_bars(comparison: pd.DataFrame, target: str, metric: str, title: str):
    """Paper vs reproduced values of one table, grouped by row, one bar pair per policy: the paper's
    one run beside our mean over seeds, with the interval in which 90 % of our single runs fall."""
    rows = comparison[(comparison.target == target) & (comparison.metric == metric)
                      & (comparison.status == "compared")]
    labels = [f"{r.network.upper()}, {int(r.sources)} src, {int(r.buffer)} cells" for r in rows.itertuples()]
    rows = rows.assign(row=labels)
    policies = [p for p in POLICY_LABELS if p in set(rows.policy)]
    row_names = list(dict.fromkeys(labels))
    fig, axes = plt.subplots(1, len(policies), figsize=(3.2 * len(policies), 3.6), sharey=True)
    for ax, policy in zip(np.atleast_1d(axes), policies):
        sub = rows[rows.policy == policy].set_index("row").reindex(row_names)
        x = np.arange(len(row_names))
        seeds = int(sub.seeds.max()) if sub.seeds.notna().any() else 0
        ax.bar(x - 0.2, sub.value, 0.4, label="paper (one run)", color="0.6")
        ax.bar(x + 0.2, sub.reproduced, 0.4, label=f"atmtcp, mean of {seeds} seeds", color="tab:blue")
        if sub.low.notna().any():
            ax.errorbar(x + 0.2, (sub.low + sub.high) / 2, yerr=(sub.high - sub.low) / 2,
                        fmt="none", ecolor="k", capsize=2, label="atmtcp, 90 % of single runs")
        ax.set_xticks(x, row_names, rotation=60, ha="right", fontsize=8)
        ax.set_title(POLICY_LABELS[policy])
        ax.set_ylim(0, 1.05)
    np.atleast_1d(axes)[0].set_ylabel(metric)
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    return fig


def cwnd_figure(ds: xr.Dataset, title: str, t_range: tuple[float, float] | None = None):
    """CWND (and ssthresh) in segments vs time, with timeouts and fast retransmits marked."""
    ds = ds.isel(case=0) if "case" in ds.dims else ds
    fig, ax = plt.subplots(figsize=(7, 3.4))
    cwnd, ssthresh = trace_samples(ds.cwnd), trace_samples(ds.ssthresh)
    ax.step(cwnd.time, cwnd / MSS, where="post", lw=1, label="CWND")
    ax.step(ssthresh.time, ssthresh / MSS, where="post", lw=0.8, ls="--", color="0.4", label="SSTHRESH")
    for name, color, marker in (("timeout", "tab:red", "v"), ("fast_retransmit", "tab:orange", "^")):
        times = ds[f"{name}_time"].values
        times = times[np.isfinite(times)]
        if times.size:
            ax.plot(times, np.zeros_like(times), marker, color=color, ms=7, clip_on=False,
                    label=name.replace("_", " "))
    if t_range:
        ax.set_xlim(*t_range)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("segments")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def loss_window(ds: xr.Dataset, before: float = 0.15, after: float = 0.45) -> tuple[float, float]:
    """A time range around the first loss event of a trace."""
    ds = ds.isel(case=0) if "case" in ds.dims else ds
    events = np.concatenate([ds.fast_retransmit_time.values, ds.timeout_time.values])
    events = events[np.isfinite(events)]
    if events.size == 0:
        time = trace_samples(ds.cwnd).time
        return float(time.min()), float(time.max())
    return float(events.min() - before), float(events.min() + after)


def sack_bound_figure(ds: xr.Dataset):
    """Simulated SACK recovery RTTs against the bound of goyal1998 5.4.2, for every number
    of lost segments out of the W in flight (lost segments on the x axis)."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    lost = ds.lost_segments.values
    window = int(ds.attrs.get("window_segments", round(float(lost[0] / ds.lost_fraction.values[0]))))
    below = 2 * lost < window
    ax.step(lost[below], ds.bound_rtts.values[below], where="mid", color="0.3",
            label="bound ceil(log2(n/(n-2))), n = W/lost (5.4.2)")
    ax.step(lost[~below], ds.bound_rtts.values[~below], where="mid", color="0.3", ls="--",
            label="lost >= W/2: slow start, 1 + ceil(log2(lost))")
    ax.plot(lost, ds.retransmit_rtts.values, "o", ms=3, label="simulated: RTTs to retransmit the block")
    ax.plot(lost, ds.ack_rtts.values, "x", ms=3, label="simulated: RTTs until the block is ACKed")
    timed_out = lost[ds.timeouts.values > 0]
    if timed_out.size:
        ax.plot(timed_out, np.full(timed_out.size, 0.5), "v", ms=3, color="tab:red", label="timeout")
    for x, text in ((window / 4, "W/4"), (window / 2, "W/2")):
        ax.axvline(x, color="0.7", lw=0.6, ls=":")
        ax.text(x, 0.05, text, transform=ax.get_xaxis_transform(), fontsize=7, ha="center", color="0.4")
    ax.set_xlim(0, window)
    ax.set_xlabel(f"lost segments (of W = {window} in flight)")
    ax.set_ylabel("round trips")
    ax.set_title("SACK TCP recovery from a block loss")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def sack_bound_table(ds: xr.Dataset) -> pd.DataFrame:
    """The SACK bound runs, one row per range of lost counts with the same result."""
    columns = ["retransmit_rtts", "ack_rtts", "bound_rtts", "timeouts"]
    frame = ds[columns].to_dataframe()[columns]
    rows = []
    for lost, values in frame.iterrows():
        key = tuple("timeout" if pd.isna(v) else (int(v) if float(v).is_integer() else float(v))
                    for v in values)
        if rows and rows[-1][2] == key and lost == rows[-1][1] + 1:
            rows[-1][1] = lost
        else:
            rows.append([lost, lost, key])
    labels = [f"{a}" if a == z else f"{a}-{z}" for a, z, _ in rows]
    return pd.DataFrame([key for _, _, key in rows], columns=columns,
                        index=pd.Index(labels, name="lost_segments"))


def factorial_figure(ds: xr.Dataset):
    """FBA factorial: efficiency against fairness, one point per (N, K, R, Z), R and Z coded."""
    fig, axes = plt.subplots(1, ds.sizes["network"], figsize=(10, 3.8), sharey=True)
    markers = {0.9: "o", 0.5: "s", 0.1: "^"}
    colors = {0.8: "tab:blue", 0.5: "tab:orange", 0.2: "tab:red"}
    for ax, network in zip(np.atleast_1d(axes), ds.network.values):
        sub = ds.sel(network=network)
        for r in sub.r_fraction.values:
            for z in sub.z.values:
                cell = sub.sel(r_fraction=r, z=z)
                ax.scatter(cell.fairness.values.ravel(), cell.efficiency.values.ravel(), marker=markers[float(r)],
                           color=colors[float(z)], s=22, label=f"R={r:g}K, Z={z:g}")
        ax.set_title(f"{str(network).upper()}: FBA full factorial")
        ax.set_xlabel("fairness")
    np.atleast_1d(axes)[0].set_ylabel("efficiency")
    np.atleast_1d(axes)[-1].legend(fontsize=6, ncol=1, loc="lower left")
    fig.tight_layout()
    return fig


def factorial_table(ds: xr.Dataset) -> pd.DataFrame:
    """Efficiency and fairness averaged over N and K for each (network, R, Z), best first."""
    mean = ds[["efficiency", "fairness"]].mean(dim=["sources", "buffer_factor"], skipna=True)
    table = mean.to_dataframe().reset_index()
    table["efficiency x fairness"] = table.efficiency * table.fairness
    return table.sort_values(["network", "efficiency x fairness"], ascending=[True, False]).set_index(
        ["network", "r_fraction", "z"]).round(3)


def z_sweep_figure(ds: xr.Dataset):
    """Selective Drop: efficiency and fairness against Z (seed 0, jittered seeds as points).
    The Z values run are spaced evenly in increasing order (0.8, 0.9 and 1 would crowd a
    numeric axis)."""
    fig, axes = plt.subplots(1, ds.sizes["network"], figsize=(9, 3.2), sharey=True)
    ds = ds.sortby("z")
    position = np.arange(ds.sizes["z"])
    for ax, network in zip(np.atleast_1d(axes), ds.network.values):
        sub = ds.sel(network=network)
        for metric, color in (("efficiency", "tab:blue"), ("fairness", "tab:green")):
            ax.plot(position, sub[metric].sel(seed=0), "-o", color=color, label=f"{metric} (seed 0)")
            others = sub[metric].sel(seed=sub.seed.values[sub.seed.values > 0])
            for s in others.seed.values:
                ax.plot(position, others.sel(seed=s), ".", color=color, alpha=0.4)
        ax.set_xticks(position, [f"{z:g}" for z in sub.z.values])
        ax.set_title(f"{str(network).upper()}, 5 sources, R = 0.9 K")
        ax.set_xlabel("Z (the values run, in order)")
    np.atleast_1d(axes)[0].set_ylabel("efficiency, fairness")
    np.atleast_1d(axes)[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


ASSUMPTION_LABELS = {
    "deterministic": "deterministic",
    "randomized_tail": "randomized tail",
    "sonet": "SONET rate",
    "cdv": "cell delay variation",
    "slotted": "slotted ports",
    "slotted_randomized_tail": "slotted + randomized tail",
    "sonet_cdv": "SONET + CDV",
    "all": "all four",
}


def sensitivity_figure(summary: pd.DataFrame, paper_averages: pd.DataFrame):
    """Left: mean |reproduced - paper| over the UBR and EPD cells of Tables 1, 2, 4, 5 per
    assumption. Right: UBR efficiency and fairness column averages per assumption (mean over
    jittered seeds) against the paper's printed column averages (dashed lines)."""
    labels = [ASSUMPTION_LABELS.get(a, a) for a in summary.index]
    y = np.arange(len(labels))
    fig, axes = plt.subplots(1, 3, figsize=(13, 0.45 * len(labels) + 1.8), sharey=True,
                             gridspec_kw={"width_ratios": [1, 1.3, 1.3]})
    ax = axes[0]
    ax.barh(y, summary.mad_all, color="0.45")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("mean |reproduced - paper|")
    ax.set_title("Tables 1, 2, 4, 5 (UBR, EPD)")
    for ax, metric, name in ((axes[1], "efficiency", "UBR efficiency"), (axes[2], "fairness", "UBR fairness")):
        offsets = {("vanilla", "lan"): -0.3, ("vanilla", "wan"): -0.1, ("reno", "lan"): 0.1, ("reno", "wan"): 0.3}
        colors = {"lan": "tab:blue", "wan": "tab:orange"}
        for (tcp, network), dy in offsets.items():
            values = summary[f"ubr_{metric}_{tcp}_{network}"]
            marker = "o" if tcp == "vanilla" else "s"
            ax.scatter(values, y + dy, color=colors[network], marker=marker, s=28,
                       label=f"{network.upper()}, {tcp}")
            paper = paper_averages[(paper_averages.metric == f"{metric}_column_average")
                                   & (paper_averages.network == network) & (paper_averages.tcp == tcp)]
            if not paper.empty:
                ax.axvline(float(paper.value.iloc[0]), color=colors[network],
                           linestyle="--" if tcp == "vanilla" else ":", linewidth=1)
        ax.set_xlim(0, 1.02)
        ax.set_xlabel(f"{name} (column average)")
        ax.set_title(f"{name}: atmtcp (marks), paper (lines)")
        ax.grid(axis="x", alpha=0.3)
    axes[2].legend(loc="lower left", fontsize=8, title="paper: vanilla dashed, Reno dotted", title_fontsize=8)
    fig.tight_layout()
    return fig


def many_sources_table(ds: xr.Dataset, reference: pd.DataFrame) -> pd.DataFrame:
    """goyal1998 section 6 beside the paper's lower bounds (one statement for WAN and satellite, 50 and
    100 sources; reference rows ``efficiency_min`` and ``fairness_min``): per configuration, the mean over
    seeds with the interval of 90 % of single runs, the seeds at or above the bound, and the mean timeouts."""
    rows = reference[reference.target == "goyal1998.many_sources"]
    bounds = {m: float(rows[rows.metric == f"{m}_min"].value.unique()[0]) for m in ("efficiency", "fairness")}
    out = []
    for at, cell in each_point(ds, "network", "sources", "buffer_factor"):
        if not cell.efficiency.notnull().any():
            continue
        row = {"network": at["network"], "sources": int(at["sources"]), "buffer (cells)": int(cell.buffer_cells.max())}
        for metric, bound in bounds.items():
            values = cell[metric].values
            mean, low, high = mean_and_interval(values)
            row[f"{metric} (paper, at least)"] = bound
            row[metric] = mean
            row[f"{metric} 90 % of runs"] = f"[{low:.3f}, {high:.3f}]"
            row[f"seeds >= {bound:g}"] = f"{int((values >= bound).sum())} of {int(np.isfinite(values).sum())}"
        row["timeouts"] = float(cell.timeouts.mean())
        out.append(row)
    return pd.DataFrame(out).set_index(["network", "sources", "buffer (cells)"])


def start_jitter_table(synchronized: dict[str, xr.Dataset], jittered: xr.Dataset, metric: str) -> pd.DataFrame:
    """``goyal1998.start_jitter``: per TCP flavour and table cell, the mean of ``metric`` over the
    synchronized headline seeds beside its mean over the runs whose starts are spread over
    [0, 10 ms), and their difference (how much of a number is the synchronized start)."""
    frames = []
    for tcp, ds in synchronized.items():
        head = ds[metric].mean("seed").to_dataframe(name="synchronized")["synchronized"]
        spread = jittered[metric].sel(tcp=tcp).mean("seed").to_dataframe(name="starts spread")["starts spread"]
        frame = pd.concat([head, spread], axis=1).dropna()
        frames.append(frame.assign(tcp=tcp).set_index("tcp", append=True))
    table = pd.concat(frames)
    table["difference"] = table["starts spread"] - table["synchronized"]
    table = table.reorder_levels(["tcp", "network", "sources", "buffer_factor", "policy"])
    wide = table.unstack("policy").swaplevel(0, 1, axis=1)
    order = [p for p in POLICY_LABELS if p in wide.columns.get_level_values(0)]
    return wide.reindex(columns=pd.MultiIndex.from_product([order, ["synchronized", "starts spread", "difference"]]))


def largest_differences(table: pd.DataFrame, n: int = 4) -> pd.DataFrame:
    """The ``n`` cells of a :func:`start_jitter_table` where the spread starts move the mean most
    (largest |difference|), one row each."""
    diff = table.xs("difference", axis=1, level=1).stack().rename("difference").to_frame()
    diff.index = diff.index.set_names("policy", level=-1)
    order = diff["difference"].abs().sort_values(ascending=False).index[:n]
    return diff.loc[order]


def phase_lock_table(ds: xr.Dataset, assumptions, buffer_factor: int = 1) -> pd.DataFrame:
    """``goyal1998.ubr_sensitivity``, plain UBR in the LAN (both TCPs, both source counts, the buffer
    of ``buffer_factor``), per assumption: the lowest and highest seed's efficiency and fairness beside
    1/N, the share of the goodput that the top source of each run gets (mean over the seeds), and the
    cells that arrived at a full buffer per run, the top source's against the mean of the others'."""
    rows = []
    chosen = ds.sel(assumption=list(assumptions))
    for at, cell in each_point(chosen, "assumption", "tcp", "sources", network="lan", buffer_factor=buffer_factor,
                               policy="ubr"):
        n = int(at["sources"])
        cell = cell.isel(source=slice(0, n))
        goodput = cell.goodput_bps.transpose("seed", "source").values
        full = cell.full_buffer_arrivals.transpose("seed", "source").values
        top = goodput.argmax(axis=1)
        seeds = np.arange(len(top))
        others = (full.sum(axis=1) - full[seeds, top]) / (n - 1)
        rows.append({"assumption": str(at["assumption"]), "tcp": str(at["tcp"]), "sources": n,
                     "efficiency, lowest seed": float(cell.efficiency.min()),
                     "efficiency, highest seed": float(cell.efficiency.max()),
                     "fairness, lowest seed": float(cell.fairness.min()),
                     "fairness, highest seed": float(cell.fairness.max()), "1/N": 1 / n,
                     "top source's share": float((goodput[seeds, top] / goodput.sum(axis=1)).mean()),
                     "full-buffer arrivals, top source": float(full[seeds, top].mean()),
                     "full-buffer arrivals, each other source": float(others.mean())})
    return pd.DataFrame(rows).set_index(["assumption", "tcp", "sources"])


def recovery_counts(ds: xr.Dataset) -> dict[str, int]:
    """One scripted-loss run (``goyal1998.fig5`` ... ``fig7``, its first case): its fast retransmits,
    timeouts and the number of times its ssthresh was cut."""
    one = ds.isel(case=0)
    ssthresh = one.ssthresh.values
    ssthresh = ssthresh[~np.isnan(ssthresh)]
    return {"fast retransmits": int(one.fast_retransmits), "timeouts": int(one.timeouts),
            "ssthresh cuts": int((np.diff(ssthresh) < 0).sum())}
