"""cheon: the figures and tables of the studies in :mod:`.studies` (issue 23), beside the paper's numbers."""
from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.ticker import NullFormatter, ScalarFormatter
import numpy as np
import pandas as pd
import xarray as xr

from ...reference import load_reference
from ...statistics import mean_and_interval
from .figures import interval_text
from .studies import EOM_READINGS, TIMER_SCHEMES


def paper_value(target: str, policy: str, metric: str = "effective_throughput", group: str = "all") -> float:
    """A number of cheon's Tables 1-5 (``data/reference/cheon.csv``)."""
    ref = load_reference("cheon")
    row = ref[(ref.target == target) & (ref.policy == policy) & (ref.metric == metric)]
    if "group" in row and group is not None:
        row = row[(row["group"].fillna("all") == group)]
    return float(row.value.iloc[0])


def hold_table(ds: xr.Dataset) -> pd.DataFrame:
    """Per drop timer: the mean over seeds of the effective throughput (with its 90 % interval of one
    run), the median hold, the packets a capture costs and the sessions per congestion epoch."""
    rows = []
    for timer in ds.drop_timer_s.values:
        point = ds.sel(drop_timer_s=timer)
        mean, low, high = mean_and_interval(point.effective_throughput.values)
        rows.append({"drop timer (ms)": f"{1e3 * timer:g}", "effective throughput": f"{mean:,.0f}",
                     "90 % interval": interval_text(low, high), "hold (ms, median)": f"{1e3 * float(point.hold_s.mean()):.2f}",
                     "packets lost per capture": f"{float(point.packets_per_capture.mean()):.1f}",
                     "sessions per congestion epoch": f"{float(point.sessions_per_epoch.mean()):.2f}",
                     "fairness": f"{float(point.fairness.mean()):.3f}"})
    return pd.DataFrame(rows).set_index("drop timer (ms)")


def hold_figure(ds: xr.Dataset, epd_ours: np.ndarray | None = None):
    """Throughput against the packets one capture costs its session (each drop timer a point, mean and
    90 % interval over seeds), with the paper's ESPD and EPD of Table 1 marked; beside it, the sessions
    one congestion epoch damages."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    loss = ds.packets_per_capture.mean("seed").values
    stats = np.array([mean_and_interval(ds.effective_throughput.sel(drop_timer_s=t).values)
                      for t in ds.drop_timer_s.values])
    left.errorbar(loss, stats[:, 0], yerr=[stats[:, 0] - stats[:, 1], stats[:, 2] - stats[:, 0]], fmt="o-",
                  color="C3", label="ESPD, ours (drop timer swept)")
    for k, (x, y, timer) in enumerate(zip(loss, stats[:, 0], ds.drop_timer_s.values)):
        left.annotate(f"{1e3 * timer:g} ms", (x, y), textcoords="offset points", xytext=(4, -12 if k % 2 else 8),
                      fontsize=7)
    left.axhline(paper_value("cheon.table1", "espd"), color="C3", ls="--", label="ESPD, paper (Table 1)")
    left.axhline(paper_value("cheon.table1", "epd"), color="C0", ls="--", label="EPD, paper (Table 1)")
    if epd_ours is not None:
        left.axhline(float(np.mean(epd_ours)), color="C0", ls=":", label="EPD, ours (mean)")
    left.set_xscale("log")
    left.xaxis.set_major_formatter(ScalarFormatter())
    left.xaxis.set_minor_formatter(NullFormatter())
    left.set_xticks([t for t in (1, 2, 5, 10, 20, 50, 100) if loss.min() / 2 <= t <= loss.max() * 2])
    left.set_xlabel("packets a session loses per capture into the drop-list (mean)")
    left.set_ylabel("effective throughput (packets)")
    left.legend(fontsize=8)
    timers_ms = 1e3 * ds.drop_timer_s.values
    right.plot(timers_ms, ds.sessions_per_epoch.mean("seed").values, "o-", color="C3", label="ESPD, ours")
    right.axvline(1e3 * ds.attrs.get("paper_drop_timer_s", 0.025), color="grey", ls=":", label="the paper's timer")
    right.set_xscale("log")
    right.xaxis.set_major_formatter(ScalarFormatter())
    right.set_xlabel("drop timer (ms)")
    right.set_ylabel("sessions captured per congestion epoch (mean)")
    right.legend(fontsize=8)
    fig.suptitle("cheon.espd_hold_study: ESPD's gain rises with what a capture costs (Table 1, 10 seeds)")
    fig.tight_layout()
    return fig


def readings_table(ds: xr.Dataset, epd_ours: np.ndarray | None = None) -> pd.DataFrame:
    """Per reading: ESPD's effective throughput (mean, 90 % interval), its gain over our EPD and the
    paper's (+11.4 %), and what a capture costs."""
    epd = float(np.mean(epd_ours)) if epd_ours is not None else np.nan
    paper_gain = 100 * (paper_value("cheon.table1", "espd") / paper_value("cheon.table1", "epd") - 1)
    rows = []
    for reading in ds.reading.values:
        point = ds.sel(reading=reading)
        mean, low, high = mean_and_interval(point.effective_throughput.values)
        rows.append({"reading of cheon 3.3": str(reading), "ESPD throughput": f"{mean:,.0f}",
                     "90 % interval": interval_text(low, high),
                     "gain over our EPD (%)": f"{100 * (mean / epd - 1):+.1f}" if np.isfinite(epd) else "",
                     "paper's gain (%)": f"{paper_gain:+.1f}",
                     "packets lost per capture": f"{float(point.packets_per_capture.mean()):.1f}",
                     "sessions per epoch": f"{float(point.sessions_per_epoch.mean()):.2f}"})
    return pd.DataFrame(rows).set_index("reading of cheon 3.3")


def eom_table(ds: xr.Dataset, rcd: dict[str, np.ndarray]) -> pd.DataFrame:
    """Per table and policy, under both readings of a dropped EOM cell: the effective throughput
    (mean over seeds) and its gain over our RCD of that table, beside the paper's gain."""
    rows = []
    for target in ds.table.values:
        for policy in ds.policy.values:
            row = {"table": str(target).split(".")[1], "policy": str(policy).upper()}
            base = float(np.mean(rcd[str(target)])) if str(target) in rcd else np.nan
            for reading in EOM_READINGS:
                values = ds.effective_throughput.sel(table=target, policy=policy, dropped_eom=reading).values
                row[f"{reading}: throughput"] = f"{values.mean():,.0f}"
                row[f"{reading}: gain over RCD (%)"] = (f"{100 * (values.mean() / base - 1):+.1f}"
                                                        if np.isfinite(base) else "")
            try:
                paper = 100 * (paper_value(str(target), str(policy)) / paper_value(str(target), "rcd") - 1)
                row["paper's gain over RCD (%)"] = f"{paper:+.1f}"
            except (IndexError, KeyError):
                row["paper's gain over RCD (%)"] = ""
            rows.append(row)
    return pd.DataFrame(rows).set_index(["table", "policy"])


def timer_table(ds: xr.Dataset) -> pd.DataFrame:
    """``cheon.opnet_timer_study``: per table, policy and timer scheme, the effective throughput (mean over
    seeds, 90 % interval of one run) beside the paper's, the gain over RCD under the same scheme beside the
    paper's, the timeouts and fast retransmits per run, fairness and the windows' synchronization."""
    rows = []
    for target in ds.table.values:
        for policy in ds.policy.values:
            paper = paper_value(str(target), str(policy))
            paper_gain = 100 * (paper / paper_value(str(target), "rcd") - 1)
            for scheme in TIMER_SCHEMES:
                point = ds.sel(table=target, policy=policy, timers=scheme)
                mean, low, high = mean_and_interval(point.effective_throughput.values)
                rcd = float(ds.effective_throughput.sel(table=target, policy="rcd", timers=scheme).mean())
                rows.append({"table": str(target).split(".")[1], "policy": str(policy).upper(),
                             "retransmission timers": scheme, "effective throughput": f"{mean:,.0f}",
                             "90 % interval": interval_text(low, high), "paper": f"{paper:,.0f}",
                             "gain over RCD (%)": f"{100 * (mean / rcd - 1):+.1f}" if policy != "rcd" else "",
                             "paper's gain (%)": f"{paper_gain:+.1f}" if policy != "rcd" else "",
                             "timeouts": f"{float(point.timeouts.mean()):.1f}",
                             "fast retransmits": f"{float(point.fast_retransmits.mean()):.1f}",
                             "fairness": f"{float(point.fairness.mean()):.3f}",
                             "synchronization": f"{float(point.synchronization.mean()):+.3f}"})
    return pd.DataFrame(rows).set_index(["table", "policy", "retransmission timers"])


def eom_figure(ds: xr.Dataset, rcd: dict[str, np.ndarray]):
    """PPD's and EPD's gain over RCD per table with an RCD column (Tables 1-4) under both readings of a
    dropped EOM cell, with the paper's gains marked."""
    tables = [str(t) for t in ds.table.values if str(t) in rcd]   # Table 5 has no RCD column
    fig, axes = plt.subplots(1, len(ds.policy), figsize=(11, 4), sharey=True)
    width = 0.35
    for ax, policy in zip(np.atleast_1d(axes), ds.policy.values):
        x = np.arange(len(tables))
        for k, reading in enumerate(EOM_READINGS):
            gains = [100 * (ds.effective_throughput.sel(table=t, policy=policy, dropped_eom=reading).mean()
                            / np.mean(rcd[t]) - 1) for t in tables]
            ax.bar(x + (k - 0.5) * width, gains, width, label=f"dropped EOM {reading}")
        for i, t in enumerate(tables):
            try:
                paper = 100 * (paper_value(t, str(policy)) / paper_value(t, "rcd") - 1)
                ax.plot([i - width, i + width], [paper, paper], "k-", lw=2, label="paper" if i == 0 else None)
            except (IndexError, KeyError):
                pass
        ax.set_xticks(x, [t.split(".")[1] for t in tables])
        ax.set_title(f"{str(policy).upper()} over RCD")
        ax.axhline(0, color="grey", lw=0.5)
    np.atleast_1d(axes)[0].set_ylabel("gain in effective throughput over RCD (%)")
    np.atleast_1d(axes)[0].legend(fontsize=8)
    fig.suptitle("cheon.eom_study: a dropped EOM cell capturing its VC or ending its packet (10 seeds)")
    fig.tight_layout()
    return fig


def hold_finding(ds: xr.Dataset) -> str:
    """One sentence of the hold study's result, for the fidelity page."""
    paper = paper_value("cheon.table1", "espd")
    at = ds.sel(drop_timer_s=ds.attrs["paper_drop_timer_s"])
    means = ds.effective_throughput.mean("seed")
    nearest = float(abs(means - paper).idxmin())
    near = ds.sel(drop_timer_s=nearest)
    return (f"with the paper's {1e3 * ds.attrs['paper_drop_timer_s']:g} ms drop timer a capture costs its session "
            f"{float(at.packets_per_capture.mean()):.1f} packets and an epoch damages "
            f"{float(at.sessions_per_epoch.mean()):.2f} sessions, and ESPD delivers {float(at.effective_throughput.mean()):,.0f} "
            f"(paper {paper:,.0f}); the sweep comes nearest the paper at {1e3 * nearest:g} ms "
            f"({float(near.effective_throughput.mean()):,.0f}), where a capture costs "
            f"{float(near.packets_per_capture.mean()):.1f} packets and an epoch damages "
            f"{float(near.sessions_per_epoch.mean()):.2f} sessions (mean over {ds.sizes['seed']} seeds)")


def readings_finding(ds: xr.Dataset) -> str:
    """One sentence of the readings study's result, for the fidelity page."""
    paper = paper_value("cheon.table1", "espd")
    means = ds.effective_throughput.mean("seed")
    low, high = float(means.min()), float(means.max())
    return (f"under {ds.sizes['reading']} readings of section 3.3 ESPD delivers {low:,.0f} to {high:,.0f} packets "
            f"(paper {paper:,.0f}; lowest: {str(means.idxmin().values)})")


def eom_finding(ds: xr.Dataset, rcd: dict[str, np.ndarray]) -> str:
    """One sentence of the EOM study's result (PPD's Table 2 gain), for the fidelity page."""
    base = float(np.mean(rcd["cheon.table2"]))
    gains = {reading: 100 * (float(ds.effective_throughput.sel(table="cheon.table2", policy="ppd",
                                                                 dropped_eom=reading).mean()) / base - 1)
             for reading in EOM_READINGS}
    paper = 100 * (paper_value("cheon.table2", "ppd") / paper_value("cheon.table2", "rcd") - 1)
    t1 = float(np.mean(rcd["cheon.table1"]))
    t1_gains = {reading: 100 * (float(ds.effective_throughput.sel(table="cheon.table1", policy="ppd",
                                                                    dropped_eom=reading).mean()) / t1 - 1)
                for reading in EOM_READINGS}
    return ("PPD's gain over RCD in Table 2 (paper " + f"{paper:+.1f} %): "
            + ", ".join(f"{gain:+.1f} % when a dropped EOM {reading}" for reading, gain in gains.items())
            + "; in Table 1 (paper +28.3 %): "
            + ", ".join(f"{gain:+.1f} %" for gain in t1_gains.values()))
