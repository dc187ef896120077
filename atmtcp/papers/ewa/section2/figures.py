"""ewa's figures and tables of section 2 (Drop-Tail, Drop-from-Front and RED at AAP-1) and of our studies
of it, drawn from the experiments' Datasets (``notebooks/ewa.ipynb``).

Each function returns a matplotlib Figure or a pandas DataFrame; saving is
:func:`atmtcp.figures.save_figure` / :func:`atmtcp.figures.save_table`. Figures show seed 0, the
paper's run; where a number is shown, the spread over the seeds is beside it (what sections 2-4 share:
:mod:`atmtcp.papers.ewa.shared.figures`).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from ....experiment import each_point
from ....statistics import interval
from ..shared.figures import l1_utilization_figure, over_seeds
from ..shared.scenario import BUFFER_BYTES, PHASES
from .claims import paper_utilization
from .scenario import POLICIES


# --- Figs. 2-4: three VCs --------------------------------------------------------------------------------------
def windows_figure(ds: xr.Dataset, title: str, sources=("1", "3b"), zoom_s: float = 2.0):
    """ewa Fig. 3: the congestion windows of one long (1) and the short (3b) connection, seed 0:
    the whole run, and its first ``zoom_s`` seconds."""
    run = ds.sel(seed=0)
    fig, axes = plt.subplots(2, 1, figsize=(7, 5.2))
    for ax, span in zip(axes, (None, zoom_s)):
        keep = slice(None) if span is None else run.time.values <= span
        for source, color in zip(sources, ("tab:blue", "tab:orange")):
            ax.step(run.time.values[keep], run.cwnd.sel(source=source).values[keep] / 1024, where="post", lw=0.7,
                    color=color, label=f"connection {source}")
        ax.set_ylabel("cwnd (KB)")
    axes[0].legend(fontsize=8, loc="upper right")
    axes[1].set_xlabel("time (s)")
    axes[1].set_title(f"the first {zoom_s:g} s", fontsize=9)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def throughput_table(ds: xr.Dataset) -> pd.DataFrame:
    """ewa Fig. 4 as a table: each connection's average effective throughput (mean and standard
    deviation over seeds, seed 0), its timeouts, fast retransmits and packets lost (mean over seeds)."""
    mean = lambda name: ds[name].mean("seed").values  # noqa: E731
    return pd.DataFrame({
        "one-way IP delay (us)": ds.ip_delay_us.isel(seed=0).values,
        "throughput (Mbit/s), mean": mean("throughput_mbps"),
        "sd over seeds": ds.throughput_mbps.std("seed", ddof=1).values if ds.sizes["seed"] > 1 else np.nan,
        "seed 0": ds.throughput_mbps.sel(seed=0).values,
        "timeouts": mean("timeouts"),
        "fast retransmits": mean("fast_retransmits"),
        "packets dropped": mean("packets_dropped"),
    }, index=pd.Index([f"connection {s}" for s in ds.source.values], name="connection"))


def throughput_figure(ds: xr.Dataset, title: str):
    """ewa Fig. 4: average effective throughput per connection (mean over seeds, standard deviation
    as error bars, seed 0 as a dot)."""
    fig, ax = plt.subplots(figsize=(5, 3.4))
    x = np.arange(ds.sizes["source"])
    sd = ds.throughput_mbps.std("seed", ddof=1).values if ds.sizes["seed"] > 1 else None
    ax.bar(x, ds.throughput_mbps.mean("seed").values, 0.6, yerr=sd, capsize=4, color="tab:blue",
           label=f"mean of {ds.sizes['seed']} seeds (± sd)")
    ax.plot(x, ds.throughput_mbps.sel(seed=0).values, "o", color="k", ms=4, label="seed 0")
    ax.set_xticks(x, [f"connection {s}" for s in ds.source.values])
    ax.set_ylabel("average effective throughput (Mbit/s)")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def buffer_start_figure(ds: xr.Dataset, title: str, span_s: float = 2.0):
    """AAP-1's buffer (packets) in the first ``span_s`` seconds of a ten-connection run, seed 0, with
    the buffer's size: where the excess of the windows over the pipe waits (ewa 2)."""
    run = ds.sel(seed=0)
    keep = run.sample_time.values <= span_s
    fig, ax = plt.subplots(figsize=(7, 2.8))
    ax.plot(run.sample_time.values[keep], run.queue_packets.values[keep], lw=0.7, color="tab:blue")
    ax.axhline(BUFFER_BYTES / 1540, color="tab:red", lw=0.7, ls="--")
    ax.text(span_s, BUFFER_BYTES / 1540, " 200 KB", va="center", fontsize=8, color="tab:red")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("packets in AAP-1's buffer")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    plt.close(fig)
    return fig


# --- Figs. 6, 8, 10, 12: utilization per 250 ms ---------------------------------------------------------------------
def utilization_figure(ds: xr.Dataset, title: str, target: str | None = None):
    """ewa Figs. 6, 8, 10, 12: L1's effective utilization per 250 ms, seed 0, the range over the seeds and
    each phase's mean (:func:`~atmtcp.papers.ewa.shared.figures.l1_utilization_figure`), with the paper's
    where the text gives it for ``target``."""
    return l1_utilization_figure(ds, title, PHASES, paper_utilization(target) if target else {})


def phase_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Per policy and phase: the paper's utilization of L1 (where the text gives one), ours over the
    seeds (mean; ``low`` and ``high``, the 90 % interval of one run: :func:`atmtcp.statistics.interval`;
    seed 0's), Jain's fairness index and the last phase's share ratio (means over seeds)."""
    rows = []
    for target, (label, _, _) in POLICIES.items():
        ds = data[target]
        paper = paper_utilization(f"ewa.fig{int(target.split('fig')[1]) + 1}")
        for name, _, _ in PHASES:
            u = ds.utilization_phase.sel(phase=name)
            low, high = interval(u.values)
            rows.append({"policy": label, "phase": name, "paper": paper.get(name, np.nan),
                         "utilization": float(u.mean()), "low": low, "high": high,
                         "seed 0": float(u.sel(seed=0)),
                         "fairness": float(ds.fairness_phase.sel(phase=name).mean()),
                         "share ratio": float(ds.share_ratio_phase.sel(phase=name).mean())})
    return pd.DataFrame(rows).set_index(["policy", "phase"])


def connection_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """Each connection's throughput (Mbit/s of TCP payload on L1, mean over seeds) per policy and phase;
    connections closed in a phase are left out."""
    frames = []
    for target, (label, _, _) in POLICIES.items():
        thr = data[target].throughput_phase.mean("seed").to_pandas()
        thr.index = pd.MultiIndex.from_product([[label], thr.index], names=["policy", "phase"])
        frames.append(thr)
    table = pd.concat(frames).round(1)
    table.columns = [f"conn {c}" for c in table.columns]
    for phase, closed_from in (("10-15 s", 5), ("15-20 s", 2)):
        table.loc[(slice(None), phase), table.columns[closed_from:]] = np.nan
    return table


# --- our TCP study ----------------------------------------------------------------------------------------------------
def sensitivity_table(ds: xr.Dataset) -> pd.DataFrame:
    """``ewa.tcp_sensitivity``: for each policy and reading of ewa's TCP, the mean over seeds of L1's
    utilization per phase (beside the paper's where the text gives it), the last phase's share ratio,
    the timeouts of all ten connections and the loss regime (:mod:`atmtcp.papers.ewa.section2.regime`)."""
    paper = {"drop_tail": paper_utilization("ewa.fig6"), "drop_from_front": paper_utilization("ewa.fig8")}
    rows = []
    for policy in ds.policy.values:
        at = ds.sel(policy=policy)
        quantities = [(f"utilization {name}", paper.get(policy, {}).get(name, np.nan),
                       at.utilization_phase.sel(phase=name)) for name, _, _ in PHASES]
        quantities += [("share ratio 15-20 s", np.nan, at.share_ratio_phase.sel(phase="15-20 s")),
                       ("timeouts", np.nan, at.timeouts.sum("source")),
                       ("drops per hit", np.nan, at.drops_per_hit),
                       ("multiple-drop share", np.nan, at.multiple_drop_share)]
        for quantity, from_paper, values in quantities:
            rows.append({"policy": policy, "quantity": quantity, "paper": from_paper,
                         **{tcp: float(values.sel(tcp=tcp).mean("seed")) for tcp in ds.tcp.values}})
    return pd.DataFrame(rows).set_index(["policy", "quantity"])


def opnet_timer_table(ds: xr.Dataset) -> pd.DataFrame:
    """``ewa.opnet_timer_study``: :func:`sensitivity_table`'s rows, and per phase the new data delivered (L1's
    utilization without retransmissions of data the receiver had: per-segment timers send many), mean over seeds."""
    table = sensitivity_table(ds)
    rows = []
    for policy in ds.policy.values:
        for name, _, _ in PHASES:
            values = ds.delivered_phase.sel(policy=policy, phase=name)
            rows.append({"policy": policy, "quantity": f"delivered {name}", "paper": np.nan,
                         **{tcp: float(values.sel(tcp=tcp).mean("seed")) for tcp in ds.tcp.values}})
    extra = pd.DataFrame(rows).set_index(["policy", "quantity"])
    return pd.concat([table, extra]).loc[list(dict.fromkeys(table.index.get_level_values(0)))]


def red_study_table(ds: xr.Dataset) -> pd.DataFrame:
    """``ewa.red_study``: per RED max_p, variant and TCP reading, the mean over seeds of L1's utilization
    per phase, the timeouts of all ten connections, AAP-1's mean queue after 1 s, and RED's drops: early
    (between the thresholds) and forced (average at or above max_th, or 2 max_th when gentle)."""
    rows = []
    for point, at in each_point(ds, "policy", "red", "tcp"):
        drops = at.drops_by_reason.mean("seed")
        rows.append({"policy": point["policy"], "RED": point["red"], "TCP": point["tcp"],
                     **{f"utilization {name}": float(at.utilization_phase.sel(phase=name).mean())
                        for name, _, _ in PHASES},
                     "timeouts": float(at.timeouts.sum("source").mean()),
                     "mean queue": float(at.mean_queue_packets.mean()),
                     "early drops": float(drops.sel(router_drop_reason="early")),
                     "forced drops": float(drops.sel(router_drop_reason="forced"))})
    return pd.DataFrame(rows).set_index(["policy", "RED", "TCP"])


def red_study_figure(ds: xr.Dataset, title: str):
    """``ewa.red_study`` as bars: L1's utilization over the whole run (mean of the three phases, mean over
    seeds) for each RED variant, one bar per TCP reading, one panel per max_p."""
    table = red_study_table(ds)
    phases = [f"utilization {name}" for name, _, _ in PHASES]
    policies, variants, readings = list(ds.policy.values), list(ds.red.values), list(ds.tcp.values)
    fig, axes = plt.subplots(1, len(policies), figsize=(4.2 * len(policies), 3.4), sharey=True, squeeze=False)
    width = 0.8 / len(readings)
    for ax, policy in zip(axes[0], policies):
        x = np.arange(len(variants))
        for j, tcp in enumerate(readings):
            values = [table.loc[(policy, red, tcp), phases].mean() for red in variants]
            ax.bar(x - 0.4 + (j + 0.5) * width, values, width, label=tcp, color=plt.cm.tab10(j))
        ax.set_xticks(x, variants, fontsize=7, rotation=30, ha="right")
        ax.set_title(policy.replace("_", " max_p "), fontsize=9)
        ax.set_ylim(0, 1.05)
    axes[0][0].set_ylabel("effective utilization of L1, 0-20 s")
    axes[0][0].legend(fontsize=7, loc="lower left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def regime_table(data: dict[str, xr.Dataset]) -> pd.DataFrame:
    """ewa 2's loss regime per policy of Figs. 5-12 (:mod:`atmtcp.papers.ewa.section2.regime`): overflow
    episodes after 1 s, packets a connection loses in an episode that hits it, the share of such hits
    with two or more losses, timeouts per connection after 1 s, and the last phase's share ratio;
    each the mean over seeds with the 5th-95th percentiles of one run."""
    rows = []
    for target, (label, _, _) in POLICIES.items():
        ds = data[target]
        for quantity, values in (("episodes", ds.episodes), ("drops per hit", ds.drops_per_hit),
                                 ("multiple-drop share", ds.multiple_drop_share),
                                 ("timeouts per connection", ds.timeouts_per_connection),
                                 ("share ratio 15-20 s", ds.share_ratio_phase.sel(phase="15-20 s"))):
            low, high = interval(values.values)
            rows.append({"policy": label, "quantity": quantity, "mean": float(values.mean()), "low": low,
                         "high": high, "seed 0": float(values.sel(seed=0))})
    return pd.DataFrame(rows).set_index(["policy", "quantity"])


def sensitivity_figure(ds: xr.Dataset, title: str):
    """``ewa.tcp_sensitivity`` as bars: per policy and phase, L1's utilization under each TCP setting,
    the paper's as a red mark."""
    table = sensitivity_table(ds)
    table = table[table.index.get_level_values("quantity").str.startswith("utilization")]
    table.index = table.index.set_levels(table.index.levels[1].str.replace("utilization ", ""), level=1)
    policies = list(ds.policy.values)
    fig, axes = plt.subplots(1, len(policies), figsize=(3.0 * len(policies), 3.4), sharey=True, squeeze=False)
    variants = list(ds.tcp.values)
    width = 0.8 / len(variants)
    for ax, policy in zip(axes[0], policies):
        part = table.loc[policy]
        x = np.arange(len(part))
        for j, tcp in enumerate(variants):
            ax.bar(x - 0.4 + (j + 0.5) * width, part[tcp].values, width, label=tcp, color=plt.cm.tab10(j))
        ax.plot(x, part["paper"].values, "_", color="k", ms=22, mew=2.5, label="paper (text)")
        ax.set_xticks(x, part.index, fontsize=8)
        ax.set_title(policy.replace("_", " "), fontsize=9)
        ax.set_ylim(0, 1.1)
    axes[0][0].set_ylabel("effective utilization of L1")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=len(labels), frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


# --- the report -------------------------------------------------------------------------------------------------------
def report_summary(comparison: pd.DataFrame, verdicts: pd.DataFrame, targets: list[str], phases: pd.DataFrame,
                   quick: bool) -> str:
    """reStructuredText for the HTML report's front page: :func:`atmtcp.figures.report_summary` (the
    targets, the claims, and per target how many of the paper's values fall inside our 90 % interval
    over seeds, the mean difference of fractions in points and of quantities in % of the paper, never
    averaged together), then L1's utilization per phase beside the paper's (:func:`phase_table`)."""
    from ....figures import report_summary as summary
    table = phases[["paper", "utilization", "low", "high", "fairness"]].round(3)
    return summary("ewa", comparison, verdicts, targets,
                   {"L1's effective utilization per phase, section 2: the paper's and ours over the seeds (mean, "
                    "90 % interval of one run), with Jain's index": table}, quick)


# --- numbers the notebook's prose cites -------------------------------------------------------------------------------
def buffer_start_numbers(ds: xr.Dataset, span_s: float = 2.0, seed: int = 0) -> pd.Series:
    """What :func:`buffer_start_figure` shows, in numbers: when AAP-1's buffer first fills (within two
    packets of its size), until when it then stays below a quarter of its size, and how often it fills
    again (each climb from below a quarter counted once) up to ``span_s``."""
    run = ds.sel(seed=seed)
    t, q = run.sample_time.values, run.queue_packets.values
    full, quarter = BUFFER_BYTES / 1540 - 2, BUFFER_BYTES / 1540 / 4
    first = int(np.argmax(q >= full))
    low = first + int(np.argmax(q[first:] < quarter))
    back = low + int(np.argmax(q[low:] >= quarter))
    fills, armed = [], True
    for time, value in zip(t[back:], q[back:]):
        if time > span_s:
            break
        if armed and value >= full:
            fills.append(time)
            armed = False
        elif value < quarter:
            armed = True
    return pd.Series({"first full (s)": t[first], "below a quarter until (s)": t[back],
                      f"fills from then to {span_s:g} s": len(fills),
                      "mean time between fills (s)": float(np.diff(fills).mean()) if len(fills) > 1 else np.nan},
                     name=f"seed {seed}")


def vc_numbers(ds: xr.Dataset, from_s: float = 1.0) -> pd.DataFrame:
    """``ewa.fig2`` ... ``fig4`` over the seeds (:func:`over_seeds`): the share of the samples from
    ``from_s`` on in which each VC's queue is empty, and the long connections' mean throughput over the
    short one's."""
    later = ds.time >= from_s
    empty = (ds.queue_bytes.where(later) == 0).sum("time") / later.sum()
    long_, short = [s for s in ds.source.values if s != "3b"], "3b"
    ratio = ds.throughput_mbps.sel(source=long_).mean("source") / ds.throughput_mbps.sel(source=short)
    quantities = {f"VC {k + 1}: queue empty, share of the samples from {from_s:g} s": empty.isel(vc=k)
                  for k in range(ds.sizes["vc"])}
    quantities["long connections' throughput over the short one's"] = ratio
    return over_seeds(quantities)


def section_2_runs(data: dict[str, xr.Dataset], from_s: float = 1.0) -> pd.DataFrame:
    """Per section 2 policy (means over the seeds): packets dropped per run and how many of them were RED's
    forced drops, fast retransmits per run, timeouts per connection in the 20 s, and AAP-1's queue from
    ``from_s`` on: its mean, the share of samples in which it is empty or above RED's max_th (30 packets),
    and its largest value."""
    rows = []
    for target, (label, _, _) in POLICIES.items():
        ds = data[target]
        queue = ds.queue_packets.where(ds.sample_time >= from_s)
        samples = queue.notnull().sum("sample_time")
        rows.append({"policy": label, "packets dropped per run": float(ds.packets_dropped.sum("source").mean()),
                     "forced drops per run": float(ds.drops_by_reason.sel(router_drop_reason="forced").mean()),
                     "fast retransmits per run": float(ds.fast_retransmits.sum("source").mean()),
                     "timeouts per connection": float(ds.timeouts.mean()),
                     "mean queue (packets)": float(queue.mean()),
                     "empty share": float(((queue == 0).sum("sample_time") / samples).mean()),
                     "share above 30 packets": float(((queue > 30).sum("sample_time") / samples).mean()),
                     "largest queue (packets)": float(queue.max())})
    return pd.DataFrame(rows).set_index("policy")


def red_study_regime(ds: xr.Dataset, policy: str = "red_0.02") -> pd.DataFrame:
    """``ewa.red_study``, per RED variant and TCP reading (means over the seeds): the connections an
    overflow episode hits and the packets each hit costs."""
    cell = ds.sel(policy=policy)
    table = pd.concat({"connections hit per episode": (cell.hits / cell.episodes).mean("seed").to_pandas(),
                       "drops per hit": cell.drops_per_hit.mean("seed").to_pandas()}, axis=1)
    return table
