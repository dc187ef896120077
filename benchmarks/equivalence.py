"""Is a kernel change statistically invisible? The golden runs' metrics over seeds, this checkout against another.

A kernel change that cannot keep results bit-identical (issue 39: a slotted port that admits its slot's
arrivals as a lazy FIFO port, so that a cell takes its sequence number at admission instead of at departure)
must leave each metric's distribution over seeds where it was. This script runs every golden run of
``tests/kernel/test_golden.py`` (or those named) with seeds 0 .. N-1 in both checkouts, each with its own
built kernel, and prints per metric the mean and standard deviation of both, the difference of the means,
a two-sided permutation test's p-value for it (10,000 permutations, seeded), and how many of this checkout's
runs fall inside the central 90 % of the other's::

    python benchmarks/equivalence.py --tree OTHER_CHECKOUT [--seeds 40] [--scenarios slotted_epd_reno ...]

With many metrics some p-values fall under 0.05 by chance (one in twenty): read them together, and
repeat a low one with other seeds before calling it a difference.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

RUN_PROGRAM = """
import dataclasses, json, sys
sys.path.insert(0, "tests/kernel")
import numpy as np
import atmtcp
from test_golden import SCENARIOS
names, seeds = sys.argv[1].split(","), int(sys.argv[2])
for name in names:
    for seed in range(seeds):
        ds = atmtcp.simulate(dataclasses.replace(SCENARIOS[name](), seed=seed))
        dropped = ds["cells_dropped"].sum("drop_reason")
        out = {
            "goodput_mbps": float(ds["goodput_bps"].sum()) / 1e6,
            "fairness": float(ds["fairness"]),
            "retransmissions": int(ds["retransmissions"].sum()),
            "timeouts": int(ds["timeouts"].sum()),
            "fast_retransmits": int(ds["fast_retransmits"].sum()),
            "frames_bad": int(ds["frames_bad"].sum()),
            "cells_dropped": int(dropped.sum()),
            "max_queue": int(ds["max_queue"].max()),
            "cells_out": int(ds["cells_out"].sum()),
        }
        print(json.dumps({"scenario": name, "seed": seed, **out}), flush=True)
"""

METRICS = ("goodput_mbps", "fairness", "retransmissions", "timeouts", "fast_retransmits", "frames_bad",
           "cells_dropped", "max_queue", "cells_out")


def metrics(tree: Path, names: list[str], seeds: int) -> subprocess.Popen:
    """Start the runs of checkout ``tree`` (its own kernel and golden scenarios): one JSON line per run."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.Popen([sys.executable, "-c", RUN_PROGRAM, ",".join(names), str(seeds)], cwd=tree, env=env,
                            stdout=subprocess.PIPE, text=True)


def collect(process: subprocess.Popen) -> dict[str, dict[str, np.ndarray]]:
    """The runs' metrics by scenario and metric, in seed order."""
    rows: dict[str, dict[str, list[float]]] = {}
    out, _ = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"the runs failed (exit {process.returncode})")
    for line in out.splitlines():
        row = json.loads(line)
        by_metric = rows.setdefault(row["scenario"], {k: [] for k in METRICS})
        for k in METRICS:
            by_metric[k].append(row[k])
    return {s: {k: np.asarray(v, float) for k, v in m.items()} for s, m in rows.items()}


def permutation_p(a: np.ndarray, b: np.ndarray, rounds: int = 10_000, seed: int = 0) -> float:
    """Two-sided p-value of the difference of the means of ``a`` and ``b`` under random relabelling."""
    rng = np.random.default_rng(seed)
    pooled = np.concatenate([a, b])
    observed = abs(b.mean() - a.mean())
    if np.ptp(pooled) == 0:
        return 1.0
    hits = 0
    for _ in range(rounds):
        rng.shuffle(pooled)
        hits += abs(pooled[len(a):].mean() - pooled[:len(a)].mean()) >= observed - 1e-12
    return (hits + 1) / (rounds + 1)


def table(old: dict, new: dict) -> str:
    """One Markdown row per scenario and metric."""
    lines = ["| golden run | metric | other: mean (sd) | this: mean (sd) | difference | p | this inside other's 90 % |",
             "|---|---|---|---|---|---|---|"]
    for scenario in old:
        for k in METRICS:
            a, b = old[scenario][k], new[scenario][k]
            lo, hi = np.quantile(a, [0.05, 0.95])
            inside = int(((b >= lo) & (b <= hi)).sum())
            lines.append(f"| {scenario} | {k} | {a.mean():.4g} ({a.std(ddof=1):.3g}) | {b.mean():.4g} ({b.std(ddof=1):.3g}) "
                         f"| {b.mean() - a.mean():+.3g} | {permutation_p(a, b):.3f} | {inside} of {len(b)} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the other checkout (its kernel built)")
    parser.add_argument("--seeds", type=int, default=40, help="seeds 0 .. N-1 per golden run (default 40)")
    parser.add_argument("--scenarios", nargs="*", help="golden runs by name (default: all)")
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(here / "tests" / "kernel"))
    from test_golden import SCENARIOS
    names = args.scenarios or sorted(SCENARIOS)
    other, this = metrics(args.tree.resolve(), names, args.seeds), metrics(here, names, args.seeds)
    old, new = collect(other), collect(this)
    print(f"{args.seeds} seeds per golden run; other: {args.tree}, this: {here}\n")
    print(table(old, new))


if __name__ == "__main__":
    main()
