"""``atmtcp bench``: wall time of the standard scenarios (a benchmark, not a test).

Scenarios: goyal1998's 5- and 15-source LAN (10 s, 1000 cells) and WAN (20 s, 12000
cells), EPD, Reno, with the deterministic cell contention (the lazy FIFO path); the
5-source LAN with slotted ports (the reproduction's headline assumption); and the 5-source
LAN with plain UBR (vanilla TCP) twice, with the
deterministic cell contention and with slotted ports and randomized tail drop, so that the
cost of the held-port path shows beside the fast path. Each is run once to warm up
(loading or compiling the kernel), then timed. Reported per scenario:

- wall seconds per run (kernel only: compile, allocation and labelling excluded);
- bottleneck cell slots per wall second: simulated time x 366792 cells/s (the
  155.52 Mbit/s link's cell rate) / wall time, the measure a cell-slot simulator such as
  YATS reports;
- cell transmissions per wall second: cells sent over every link of the network, the
  hops the compiler folds into delays included.
"""
from __future__ import annotations

import time

from . import model as m
from .cli import scenario
from .compiler import cell_time_ns
from .simulate import run_kernel, to_dataset

SCENARIOS = [
    # label, network, sources, policy, TCP, cell contention
    ("LAN, 5 sources", "lan", 5, "epd", "reno", "deterministic"),
    ("LAN, 15 sources", "lan", 15, "epd", "reno", "deterministic"),
    ("WAN, 5 sources", "wan", 5, "epd", "reno", "deterministic"),
    ("WAN, 15 sources", "wan", 15, "epd", "reno", "deterministic"),
    ("LAN, 5 sources, slotted", "lan", 5, "epd", "reno", "slotted"),
    ("LAN, 5 sources, UBR, deterministic", "lan", 5, "tail", "vanilla", "deterministic"),
    ("LAN, 5 sources, UBR, slotted + randomized tail", "lan", 5, "tail", "vanilla", "slotted_randomized_tail"),
]


def scenario_run(network: str, sources: int, policy: str = "epd", tcp: str = "reno",
                 contention: str = "deterministic") -> m.Run:
    """One standard scenario: 1000 cells (LAN) or 12000 cells (WAN)."""
    buffer = 1000 if network == "lan" else 12000
    return scenario(network, sources, buffer, policy, tcp, contention=contention)


def time_scenario(run: m.Run, repeat: int = 1) -> dict:
    """Best wall time of ``repeat`` kernel runs of ``run`` and the derived rates."""
    best = float("inf")
    compiled = None
    for _ in range(repeat):
        start = time.perf_counter()
        compiled = run_kernel(run)
        best = min(best, time.perf_counter() - start)
    ds = to_dataset(run, compiled)
    slots = run.duration_s * 1e9 / cell_time_ns(m.OC3_BPS)
    return {
        "wall_s": best,
        "slots_per_s": slots / best,
        "cells_per_s": int(ds.cell_transmissions) / best,
        "events_per_s": int(ds.events) / best,
        "efficiency": float(ds.efficiency),
    }


def run_benchmark(repeat: int = 1, printer=print) -> list[dict]:
    """Warm up, time every scenario, print a Markdown table; returns the rows."""
    start = time.perf_counter()
    run_kernel(scenario("lan", 2, 1000, "epd", "reno", duration=0.01))
    printer(f"warm-up (kernel load or compile): {time.perf_counter() - start:.1f} s")
    printer("| scenario | simulated | wall s/run | bottleneck cell slots/s | cell transmissions/s | events/s |")
    printer("|---|---|---|---|---|---|")
    rows = []
    for label, *spec in SCENARIOS:
        run = scenario_run(*spec)
        row = {"scenario": label, **time_scenario(run, repeat)}
        rows.append(row)
        printer(f"| {label} | {run.duration_s:g} s | {row['wall_s']:.2f} | {row['slots_per_s'] / 1e6:.1f} M "
                f"| {row['cells_per_s'] / 1e6:.1f} M | {row['events_per_s'] / 1e6:.1f} M |")
    return rows
