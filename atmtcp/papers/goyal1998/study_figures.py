"""Tables, figures and one-line findings of goyal1998's studies (:mod:`.studies`, issue 22) and of
goyal1997's satellite study, for the goyal1998 notebook."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ...reference import agreement, comparison, mean_absolute_difference
from .scenario import POLICY_LABELS
from .studies import FATE_LABELS, FATES, MECHANISM_READINGS, TICK_PHASE_TCPS

SACK_TABLES = ("goyal1998.table6", "goyal1998.table7")


# --- SACK's PIPE start -----------------------------------------------------------------------------
def pipe_comparisons(reference: pd.DataFrame, headline: xr.Dataset,
                     study: xr.Dataset) -> dict[str, tuple[xr.Dataset, pd.DataFrame]]:
    """Per PIPE start, the tables' (5.4.1) and the study's (5.4.2): its runs of Tables 6-7 and their
    comparison with the paper (:func:`atmtcp.reference.comparison`)."""
    rows = reference[reference.target.isin(SACK_TABLES)]
    return {label: (ds, comparison(rows, {t: ds for t in SACK_TABLES}))
            for label, ds in (("PIPE = CWND (5.4.1, the tables)", headline), ("PIPE = CWND - 3 (5.4.2)", study))}


def pipe_table(comparisons: dict[str, tuple[xr.Dataset, pd.DataFrame]], reno: xr.Dataset) -> pd.DataFrame:
    """Per PIPE start (:func:`pipe_comparisons`), table and network: the mean |ours - paper|, the paper's
    values inside our 90 % interval, and the LAN and WAN cells where SACK's mean efficiency is at least
    Reno's (Table 4)."""
    out = []
    for reading, (ds, table) in comparisons.items():
        table = table[table.status == "compared"]
        mad = mean_absolute_difference(table, by=("target", "network"))
        inside = agreement(table, by=("target", "network"))
        for (target, network), value in mad.items():
            row = inside.loc[(target, network)]
            entry = {"PIPE start": reading, "target": target, "network": network, "mean |difference|": round(value, 3),
                     "paper inside": f"{int(row['inside'])} of {int(row['with interval'])}"}
            if target == "goyal1998.table6":
                sack = ds.efficiency.sel(network=network).mean("seed")
                base = reno.efficiency.sel(network=network, policy=list(sack.policy.values)).mean("seed")
                entry["cells SACK >= Reno"] = f"{int((sack >= base).sum())} of {int(sack.notnull().sum())}"
            out.append(entry)
    return pd.DataFrame(out).set_index(["PIPE start", "target", "network"])


def pipe_figure(comparisons: dict[str, tuple[xr.Dataset, pd.DataFrame]]):
    """Our mean efficiency and fairness of every Table 6-7 cell against the paper's, one marker per PIPE
    start (:func:`pipe_comparisons`), with the 90 % interval of single runs; on the diagonal ours equals
    the paper's."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 4.2))
    styles = (("tab:blue", "o"), ("tab:orange", "s"))
    for (reading, (_, table)), (color, marker) in zip(comparisons.items(), styles):
        for ax, target in zip(axes, SACK_TABLES):
            rows = table[(table.target == target) & (table.status == "compared")]
            for network, fill in (("lan", color), ("wan", "none")):
                sub = rows[rows.network == network]
                ax.errorbar(sub.value, sub.reproduced, yerr=[sub.reproduced - sub.low, sub.high - sub.reproduced],
                            fmt=marker, color=color, mfc=fill, ms=5, elinewidth=0.6, capsize=0,
                            label=f"{reading}, {network.upper()}")
    for ax, target in zip(axes, SACK_TABLES):
        ax.plot([0.3, 1.02], [0.3, 1.02], color="0.6", lw=0.8)
        ax.set_xlabel("paper (one run)")
        ax.set_title(f"{target} ({'efficiency' if target.endswith('6') else 'fairness'})", fontsize=10)
    axes[0].set_ylabel("atmtcp, mean over seeds (90 % of runs)")
    axes[1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def pipe_finding(table: pd.DataFrame) -> str:
    """One line from :func:`pipe_table`: Table 6's mean |difference| and SACK against Reno per PIPE start."""
    parts = []
    for reading in table.index.get_level_values(0).unique():
        lan = table.loc[(reading, "goyal1998.table6", "lan")]
        wan = table.loc[(reading, "goyal1998.table6", "wan")]
        parts.append(f"{reading}: Table 6 mean |difference| LAN {lan['mean |difference|']:.3f}, WAN "
                     f"{wan['mean |difference|']:.3f}; SACK >= Reno in {lan['cells SACK >= Reno']} LAN cells")
    return "; ".join(parts)


# --- SACK in the LAN: the fate of each transmission ---------------------------------------------------
SHORT_FATE_LABELS = {"first": "first", "after_fast_retransmit": "in recovery", "after_timeout": "after timeout"}


def mechanism_table(ds: xr.Dataset) -> pd.DataFrame:
    """Per TCP, policy, sources and buffer, means over seeds: efficiency, timeouts, fast retransmits, and
    per kind of transmission the share dropped at the bottleneck and the share that met a queue of at
    least R cells (the first :data:`.studies.TRACE_S` of each run)."""
    rows = []
    for reading in ds.reading.values:
        for policy in ds.policy.values:
            for n in ds.sources.values:
                for k in ds.buffer_factor.values:
                    cell = ds.sel(reading=reading, policy=policy, sources=n, buffer_factor=k)
                    row = {"TCP": reading, "policy": POLICY_LABELS.get(policy, policy), "sources": int(n),
                           "buffer": int(cell.buffer_cells.max()),
                           "efficiency": float(cell.efficiency.mean()), "timeouts": float(cell.timeouts.mean()),
                           "fast retransmits": float(cell.fast_retransmits.mean())}
                    for fate in FATES:
                        sent = cell[f"{fate}_sent"].sum()
                        short = SHORT_FATE_LABELS[fate]
                        row[f"{short}: sent"] = float(sent) / cell.sizes["seed"]
                        row[f"{short}: dropped %"] = 100 * _dropped_share(cell, fate)
                        row[f"{short}: queue >= R %"] = 100 * _queue_share(cell, fate)
                    rows.append(row)
    return pd.DataFrame(rows).set_index(["TCP", "policy", "sources", "buffer"]).round(3)


def _dropped_share(cell: xr.Dataset, fate: str) -> float:
    """The share of ``fate`` transmissions, over all of ``cell``'s runs, that lost a cell at the bottleneck."""
    sent = float(cell[f"{fate}_sent"].sum())
    return float(cell[f"{fate}_dropped"].sum()) / sent if sent else np.nan


def _queue_share(cell: xr.Dataset, fate: str) -> float:
    """The share of ``fate`` transmissions, over all of ``cell``'s runs, that met a queue of at least R."""
    sent = float(cell[f"{fate}_sent"].sum())
    return float((cell[f"{fate}_at_threshold"].fillna(0) * cell[f"{fate}_sent"]).sum()) / sent if sent else np.nan


_SHARES = {"dropped": _dropped_share, "at_threshold": _queue_share}


def _pooled(ds: xr.Dataset, reading: str, fate: str, what: str) -> float:
    """Over every cell and seed of one TCP: the share of ``fate`` transmissions dropped (``dropped``) or
    meeting a queue of at least R (``at_threshold``)."""
    return _SHARES[what](ds.sel(reading=reading), fate)


def mechanism_figure(ds: xr.Dataset):
    """Pooled over the LAN cells: per TCP and kind of transmission, the share dropped at the bottleneck
    (left) and the share that met a queue of at least R (right)."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    readings = [r for r in MECHANISM_READINGS if r in ds.reading.values]
    x = np.arange(len(readings))
    width = 0.8 / len(FATES)
    for ax, what, label in ((axes[0], "dropped", "dropped at the bottleneck (%)"),
                            (axes[1], "at_threshold", "met a queue of at least R cells (%)")):
        for i, fate in enumerate(FATES):
            values = [100 * _pooled(ds, r, fate, what) for r in readings]
            ax.bar(x + (i - 1) * width, values, width, label=FATE_LABELS[fate])
        ax.set_xticks(x, readings)
        ax.set_ylabel(label)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle("LAN, EPD and Selective Drop, 5 and 15 sources, 1000 and 3000 cells (first 2 s of each run)",
                 fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def mechanism_finding(ds: xr.Dataset) -> str:
    """The mechanism study in one sentence per TCP: the shares of first transmissions and of retransmissions
    in recovery dropped, and of each that met a queue of at least R."""
    parts = []
    for reading in ds.reading.values:
        parts.append(f"{reading}: {100 * _pooled(ds, reading, 'first', 'dropped'):.2f} % of first transmissions "
                     f"and {100 * _pooled(ds, reading, 'after_fast_retransmit', 'dropped'):.2f} % of retransmissions "
                     f"in recovery dropped; {100 * _pooled(ds, reading, 'first', 'at_threshold'):.1f} % against "
                     f"{100 * _pooled(ds, reading, 'after_fast_retransmit', 'at_threshold'):.1f} % met a queue >= R")
    return "; ".join(parts)


# --- FBA in the small LAN buffer ----------------------------------------------------------------------------
def fba_table(table1: xr.Dataset, study: xr.Dataset, reference: pd.DataFrame) -> pd.DataFrame:
    """Tables 1-2's LAN rows per reading: mean efficiency and fairness over seeds, beside the paper's."""
    rows = []
    paper = reference[reference.target.isin(["goyal1998.table1", "goyal1998.table2"]) & (reference.network == "lan")]
    readings = {"as written": table1.sel(network="lan")}
    readings.update({r: study.sel(reading=r) for r in study.reading.values})
    for policy in table1.policy.values:
        for n in table1.sources.values:
            for k in table1.buffer_factor.values:
                cells = int(table1.buffer_cells.sel(network="lan", buffer_factor=k).max())
                for metric in ("efficiency", "fairness"):
                    match = paper[(paper.policy == policy) & (paper.sources == n) & (paper.buffer == cells)
                                  & (paper.metric == metric)]
                    row = {"policy": POLICY_LABELS.get(policy, policy), "sources": int(n), "buffer": cells,
                           "metric": metric, "paper": float(match.value.iloc[0]) if len(match) else np.nan}
                    for name, ds in readings.items():
                        row[name] = _mean_at(ds[metric], policy=policy, sources=n, buffer_factor=k)
                    rows.append(row)
    return pd.DataFrame(rows).set_index(["metric", "policy", "sources", "buffer"]).round(3)


def _mean_at(da: xr.DataArray, **where) -> float:
    """The mean of ``da`` at ``where``; NaN where a coordinate is not in it (quick runs have fewer)."""
    if any(value not in da[name].values for name, value in where.items()):
        return np.nan
    values = da.sel(**where)
    return float(values.mean()) if values.notnull().any() else np.nan


def fba_errors(table: pd.DataFrame) -> pd.DataFrame:
    """Mean |reading - paper| over the LAN cells of Tables 1-2, per reading (rows), over every policy and
    over Selective Drop and FBA alone (columns); NaN where a reading was not run on every cell of the set."""
    readings = [c for c in table.columns if c != "paper"]
    sets = {"all four policies": table,
            "Selective Drop and FBA": table[table.index.get_level_values("policy").isin(["Selective Drop", "FBA"])]}
    out = {}
    for name, cells in sets.items():
        out[name] = {r: float((cells[r] - cells["paper"]).abs().mean()) if cells[r].notna().all() else np.nan
                     for r in readings}
    return pd.DataFrame(out)


def fba_figure(table: pd.DataFrame):
    """LAN efficiency and fairness of the four policies at 1000 cells, per reading, the paper's as dots."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 6), sharey=True)
    readings = [c for c in table.columns if c != "paper"]
    for row, metric in enumerate(("efficiency", "fairness")):
        for col, n in enumerate(sorted(table.index.get_level_values("sources").unique())):
            ax = axes[row, col]
            sub = table.loc[metric].xs(n, level="sources")
            sub = sub[sub.index.get_level_values("buffer") == sub.index.get_level_values("buffer").min()]
            policies = list(sub.index.get_level_values("policy"))
            x = np.arange(len(policies))
            width = 0.8 / len(readings)
            for i, reading in enumerate(readings):
                ax.bar(x + (i - (len(readings) - 1) / 2) * width, sub[reading], width, label=reading)
            ax.plot(x, sub["paper"], "k_", ms=18, mew=2, label="paper")
            ax.set_xticks(x, policies)
            ax.set_title(f"{metric}, {n} sources, {sub.index.get_level_values('buffer').min()} cells", fontsize=9)
            ax.set_ylim(0, 1.05)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def fba_finding(table: pd.DataFrame) -> str:
    """The FBA study in words: FBA's LAN efficiency at the smallest buffer under each reading against the
    paper's, and each reading's mean absolute difference from the paper (:func:`fba_errors`)."""
    errors = fba_errors(table)
    fba = table.loc["efficiency"].xs("FBA", level="policy")
    small = fba[fba.index.get_level_values("buffer") == fba.index.get_level_values("buffer").min()]
    per = "; ".join(f"{r}: FBA {' / '.join(f'{v:.2f}' for v in small[r])}" for r in errors.index)
    sets = "; ".join(f"over {name}: " + ", ".join(f"{r} {v:.3f}" for r, v in column.dropna().items())
                     for name, column in errors.items())
    return (f"LAN, smallest buffer, 5 / 15 sources (paper FBA {' / '.join(f'{v:.2f}' for v in small['paper'])}): {per}. "
            f"Mean |difference| from the paper over the LAN cells of Tables 1-2, {sets}")


# --- the hosts' timer phase: Tables 1, 2, 4 and 5 -------------------------------------------------------------
PHASE_READINGS = ("in phase", "phase per host")
"""The two readings of ``goyal1998.tick_phase_study``: the tables' own runs, and the study's."""
YATS_SCENARIO = "goyal_yats"
"""The scenario of the YATS rows in ``figures/validation/validation.csv`` (:mod:`atmtcp.validation.compare`)."""
_CELL = ["tcp", "network", "sources", "buffer", "policy"]


def validation_cell(network: str, tcp: str, sources: int, buffer: int, policy: str) -> str:
    """A goyal cell as ``validation.csv``'s ``cell`` column names it (``atmtcp.validation.compare``)."""
    return f"{network} {tcp} N={int(sources)} {int(buffer)} cells {policy.upper()}"


def yats_rows(validation: pd.DataFrame) -> pd.DataFrame:
    """YATS's mean and 90 % interval per (cell, metric), from the tracked validation table (never run here)."""
    rows = validation[validation.scenario == YATS_SCENARIO]
    return rows.set_index(["cell", "metric"])[["peer_mean", "peer_low", "peer_high"]]


def tick_phase_table(reference: pd.DataFrame, tables: dict[str, xr.Dataset], study: xr.Dataset,
                     validation: pd.DataFrame) -> pd.DataFrame:
    """Every cell of Tables 1, 2, 4 and 5 that the study ran: the paper's value; per reading (the tables'
    runs, hosts in phase; the study's, a phase per host) our mean over seeds, the 90 % interval of single
    runs and whether the paper's value lies inside it (:func:`atmtcp.reference.comparison`); and YATS's mean
    and interval where ``validation`` has the cell. ``tables``: the datasets of the four targets."""
    targets = [t for pair in TICK_PHASE_TCPS.values() for t in pair]
    rows = reference[reference.target.isin(targets) & reference.metric.isin(["efficiency", "fairness"])
                     & reference.sources.notna()]   # the cells, not the column averages
    per_host = {t: study.sel(tcp=tcp) for tcp, pair in TICK_PHASE_TCPS.items() if tcp in study.tcp.values for t in pair}
    both = {r: comparison(rows, ds).set_index(["target", "metric", *_CELL[1:]])
            for r, ds in zip(PHASE_READINGS, (tables, per_host))}
    ran = both["phase per host"].status == "compared"
    yats = yats_rows(validation)
    out = []
    for key, row in both["phase per host"][ran].iterrows():
        target, metric, network, sources, buffer, policy = key
        entry = {"metric": metric, "tcp": row.tcp, "network": network, "sources": int(sources), "buffer": int(buffer),
                 "policy": POLICY_LABELS.get(policy, policy), "paper": float(row.value)}
        for reading, table in both.items():
            cell = table.loc[key]
            entry.update({f"{reading}: mean": cell.reproduced, f"{reading}: low": cell.low,
                          f"{reading}: high": cell.high, f"{reading}: inside": cell.inside})
        peer = (validation_cell(network, row.tcp, sources, buffer, policy), metric)
        entry.update({f"YATS: {k}": (float(yats.loc[peer, f"peer_{k}"]) if peer in yats.index else np.nan)
                      for k in ("mean", "low", "high")})
        out.append(entry)
    return pd.DataFrame(out).set_index(["metric", *_CELL]).round(3)


def tick_phase_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Per metric and network (and over all): the cells, the paper's value inside our interval under each
    reading, the cells that move in and out of it, and where YATS has the cell, how many move toward or
    away from YATS's mean, how many of our means lie in YATS's 90 % interval, and the mean |ours - YATS|
    under each reading."""
    groups = [(("all", "all"), table)]
    groups += [(key, sub) for key, sub in table.groupby(level=["metric", "network"], sort=False)]
    out = []
    for (metric, network), sub in groups:
        was, now = (sub[f"{r}: inside"].astype(bool) for r in PHASE_READINGS)
        yats = sub[sub["YATS: mean"].notna()]
        before, after = ((yats[f"{r}: mean"] - yats["YATS: mean"]).abs() for r in PHASE_READINGS)
        within = [int(yats[f"{r}: mean"].between(yats["YATS: low"], yats["YATS: high"]).sum()) for r in PHASE_READINGS]
        out.append({"metric": metric, "network": network, "cells": len(sub),
                    "paper inside, in phase": int(was.sum()), "paper inside, phase per host": int(now.sum()),
                    "moved inside": int((~was & now).sum()), "moved outside": int((was & ~now).sum()),
                    "cells with YATS": len(yats), "toward YATS": int((after < before).sum()),
                    "away from YATS": int((after > before).sum()),
                    "ours in YATS's interval, in phase": within[0], "ours in YATS's interval, phase per host": within[1],
                    "|ours - YATS|, in phase": before.mean(), "|ours - YATS|, phase per host": after.mean()})
    return pd.DataFrame(out).set_index(["metric", "network"]).round(3)


def tick_phase_figure(table: pd.DataFrame):
    """Per metric, every cell's mean under each reading (90 % of single runs as a bar; LAN filled, WAN open)
    against the paper's value, and YATS's mean where it has the cell; on the diagonal a number equals the
    paper's."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4))
    styles = {"in phase": ("tab:blue", "o"), "phase per host": ("tab:orange", "s")}
    for ax, metric in zip(axes, ("efficiency", "fairness")):
        if metric not in table.index.get_level_values("metric"):
            continue
        for network, fill in (("lan", None), ("wan", "none")):
            sub = table.loc[metric]
            sub = sub[sub.index.get_level_values("network") == network]
            for reading, (color, marker) in styles.items():
                mean = sub[f"{reading}: mean"]
                err = [(mean - sub[f"{reading}: low"]).clip(lower=0).fillna(0),
                       (sub[f"{reading}: high"] - mean).clip(lower=0).fillna(0)]
                ax.errorbar(sub["paper"], mean, yerr=err, fmt=marker, color=color, mfc=fill or color, ms=4,
                            elinewidth=0.5, capsize=0, alpha=0.8, label=f"atmtcp, {reading}, {network.upper()}")
        sub = table.loc[metric]
        ax.plot(sub["paper"], sub["YATS: mean"], "kx", ms=5, label="YATS (validation table)")
        ax.plot([0, 1.02], [0, 1.02], color="0.6", lw=0.8)
        ax.set_xlabel("paper (one run)")
        ax.set_title(f"Tables 1-2 and 4-5: {metric}", fontsize=10)
    axes[0].set_ylabel("mean over seeds (90 % of runs)")
    axes[1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def tick_phase_finding(counts: pd.DataFrame) -> str:
    """One line from :func:`tick_phase_counts`: the paper inside under each reading, and the moves toward YATS."""
    row = counts.loc[("all", "all")]
    c = {k: (v if k.startswith("|") else int(v)) for k, v in row.items()}
    return (f"{c['cells']} cells of Tables 1, 2, 4, 5: the paper's value inside our 90 % interval in "
            f"{c['paper inside, in phase']} with the hosts' timers in phase, {c['paper inside, phase per host']} with "
            f"a phase per host ({c['moved inside']} moved inside, {c['moved outside']} outside); of the "
            f"{c['cells with YATS']} cells YATS ran, {c['toward YATS']} move toward YATS's mean and {c['away from YATS']} "
            f"away (mean |ours - YATS| {c['|ours - YATS|, in phase']:.3f} in phase, "
            f"{c['|ours - YATS|, phase per host']:.3f} per host)")


# --- goyal1997: the satellite network's open parameters ---------------------------------------------------------
def satellite_study_table(headline: xr.Dataset, study: xr.Dataset) -> pd.DataFrame:
    """Mean efficiency over seeds per TCP, buffer and policy, for the headline (275 ms hop, 50 s) and
    each reading of the study."""
    frames = {"headline (275 ms, 50 s)": headline.efficiency.mean("seed")}
    frames.update({r: study.efficiency.sel(reading=r).mean("seed") for r in study.reading.values})
    table = pd.concat({name: da.transpose("tcp", "buffer", "policy").to_dataframe(name="efficiency")["efficiency"]
                       for name, da in frames.items()}, axis=1)
    return table.round(3)


def satellite_finding(verdicts: pd.DataFrame) -> str:
    """Per claim, the readings under which it holds."""
    parts = []
    for claim, rows in verdicts.groupby("claim", sort=False):
        holds = list(rows[rows.passed].reading)
        parts.append(f"{claim} holds under {len(holds)} of {len(rows)} readings"
                     + (f" (fails under {', '.join(rows[~rows.passed].reading)})" if len(holds) < len(rows) else ""))
    return "; ".join(parts)


def satellite_verdicts(study: xr.Dataset, claims) -> pd.DataFrame:
    """Each goyal1997 satellite claim evaluated on each reading's runs as if they were the tables'."""
    rows = []
    for reading in study.reading.values:
        data = {"goyal1997.satellite_efficiency": study.sel(reading=reading).drop_vars("reading")}
        for claim in claims:
            if set(claim.targets) <= set(data):
                verdict = claim.evaluate(data)
                rows.append({"reading": reading, "claim": claim.name, "passed": verdict.passed, "detail": verdict.detail})
    return pd.DataFrame(rows)


def satellite_study_figure(table: pd.DataFrame):
    """Mean satellite efficiency per TCP (panels), buffer and policy (groups), one bar per reading."""
    tcps = list(dict.fromkeys(table.index.get_level_values("tcp")))
    fig, axes = plt.subplots(1, len(tcps), figsize=(4 * len(tcps), 3.8), sharey=True)
    for ax, tcp in zip(np.atleast_1d(axes), tcps):
        sub = table.xs(tcp, level="tcp")
        labels = [f"{POLICY_LABELS.get(p, p)}\n{int(b) // 1000}k" for b, p in sub.index]
        x = np.arange(len(sub))
        width = 0.8 / len(sub.columns)
        for i, reading in enumerate(sub.columns):
            ax.bar(x + (i - (len(sub.columns) - 1) / 2) * width, sub[reading], width, label=reading)
        ax.set_xticks(x, labels, fontsize=7)
        ax.set_title(tcp, fontsize=10)
        ax.set_ylim(0, 1.05)
    np.atleast_1d(axes)[0].set_ylabel("efficiency, mean over seeds")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    return fig
