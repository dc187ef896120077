"""``atmtcp bench``: wall time of the standard scenarios (a benchmark, not a test).

Scenarios: goyal1998's 5- and 15-source LAN (10 s, 1000 cells) and WAN (20 s, 12000
cells), EPD, Reno, with the deterministic cell contention (the lazy FIFO path); the
5-source LAN with slotted ports (the reproduction's headline assumption); the 5-source
LAN with plain UBR (vanilla TCP) twice, with the deterministic cell contention and with
slotted ports and randomized tail drop, so that the cost of the held-port path shows beside
the fast path; cheon's symmetric parking lot with ESPD, 500-byte packets (3 s); lakshman's 14 sources
at DS-3 with 5760 cells (10 s) under Frame-Front, Cell-Tail and plain FIFO tail drop; ewa's ten
connections through a Drop-Tail ATM access point (20 s, the packet path); and ewa's forty connections
(ten persistent, thirty ON/OFF) with EWA at the access point (20 s). Each is run once to warm up
(loading or compiling the kernel), then timed. Reported per scenario:

- wall seconds per run (kernel only: compile, allocation and labelling excluded);
- bottleneck cell slots per wall second: simulated time x the bottleneck's cell rate (366792
  cells/s at 155.52 Mbit/s, 96000 at lakshman's DS-3) / wall time, the measure a cell-slot
  simulator such as YATS reports;
- cell transmissions per wall second: cells sent over every link of the network, the
  hops the compiler folds into delays included.
"""
from __future__ import annotations

import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from . import __version__
from . import model as m
from .default_run import scenario
from .simulate import counters, run_kernel

HISTORY = Path(__file__).resolve().parent.parent / "benchmarks" / "history.jsonl"
"""One JSON line per ``atmtcp bench`` sitting: date, commit, machine, and every row."""

COLD_COMPILE = ("warm", "--no-aot")
"""The cold compile of issue 39's goal 2: ``ATMTCP_NO_CACHE=1 atmtcp warm --no-aot`` compiles the whole kernel
in one process with numba's cache neither read nor written, and builds no ahead-of-time module."""

PROCESS_ARGS = ("run", "--network", "lan", "--sources", "5", "--buffer", "1000", "--policy", "epd", "--tcp", "reno")
"""The whole-process scenario: goyal1998's 5-source LAN, Reno, EPD, 1000 cells, 10 s."""

SCENARIOS = [
    # label, network, sources, policy, TCP, cell contention
    ("LAN, 5 sources", "lan", 5, "epd", "reno", "deterministic"),
    ("LAN, 15 sources", "lan", 15, "epd", "reno", "deterministic"),
    ("WAN, 5 sources", "wan", 5, "epd", "reno", "deterministic"),
    ("WAN, 15 sources", "wan", 15, "epd", "reno", "deterministic"),
    ("LAN, 5 sources, slotted", "lan", 5, "epd", "reno", "slotted"),
    ("LAN, 5 sources, UBR, deterministic", "lan", 5, "tail", "vanilla", "deterministic"),
    ("LAN, 5 sources, UBR, slotted + randomized tail", "lan", 5, "tail", "vanilla", "slotted_randomized_tail"),
    ("cheon, symmetric, 500 bytes, ESPD", "cheon", "symmetric", "espd", 500, "slotted"),
    ("lakshman, 14 sources, 5760 cells, Frame-Front", "lakshman", 14, "frame_front", 5760, "slotted"),
    ("lakshman, 14 sources, 5760 cells, Cell-Tail", "lakshman", 14, "cell_tail", 5760, "slotted"),
    ("lakshman, 14 sources, 5760 cells, FIFO tail drop", "lakshman", 14, "fifo", 5760, "deterministic"),
    ("ewa, ten connections, Drop-Tail", "ewa", "ewa.fig5", "drop_tail", 1500, "packets"),
    ("ewa, 40 connections (10 persistent, 30 ON/OFF), EWA", "ewa", "on_off", "ewa", 1500, "packets"),
]
"""goyal1998 rows: (label, network, sources, policy, TCP, contention); the cheon row: (label,
"cheon", case, policy, packet bytes, contention) — cheon's Table 1 ESPD run, seed 0, 3 s; the lakshman
rows: (label, "lakshman", sources, discipline, buffer cells, contention) — Fig. 10's system at beta = 1,
seed 1, 10 s: Frame-Front (a held port dropping at the front), Cell-Tail (a held slotted port with
randomized tail drop) and plain tail drop on the lazy FIFO path (unslotted), so the cost of the
front-drop path shows beside the FIFO fast path; the ewa rows: (label, "ewa", target or scenario, policy,
packet bytes, "packets") — ewa Fig. 5's run, seed 0, 20 s (the packet path: IP links and AAP-1's queue
onto L1), and section 4.6's forty connections with EWA at AAP-1 (Figs. 34-37, seed 0, 20 s: ON/OFF
applications, EWA's rewriting of every ACK)."""
LAKSHMAN_BENCH_S = 10.0


def scenario_run(network: str, sources, policy: str = "epd", tcp="reno",
                 contention: str = "deterministic") -> m.Run:
    """One standard scenario: goyal1998's N sources with 1000 cells (LAN) or 12000 cells (WAN),
    or (``network="cheon"``) cheon's parking lot, case ``sources``, packets of ``tcp`` bytes, or
    (``network="lakshman"``) lakshman's system with ``sources`` connections, discipline ``policy``
    (or ``"fifo"``: plain tail drop, unslotted) and a buffer of ``tcp`` cells."""
    if network == "cheon":
        from .papers.cheon.scenario import cheon_run
        return cheon_run(sources, policy, tcp, seed=0)
    if network == "ewa" and policy == "ewa":
        from .papers.ewa.section4.scenario import SCENARIOS, ewa_run
        return ewa_run(SCENARIOS[sources], seed=0)
    if network == "ewa":
        from .papers.ewa.section2.scenario import ten_connection_run
        return ten_connection_run(sources, seed=0)
    if network == "lakshman":
        from .papers.lakshman.scenario import NOMINAL_RTT_S, discipline_port, lakshman_run
        port = m.PortConfig(tcp, m.DropPolicy("tail")) if policy == "fifo" else discipline_port(policy, tcp)
        return lakshman_run((NOMINAL_RTT_S,) * sources, port, 1, LAKSHMAN_BENCH_S, 0.0)
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
    result = counters(run, compiled)
    slots = run.duration_s * compiled.bottleneck_bps / (53 * 8)
    return {
        "wall_s": best,
        "slots_per_s": slots / best,
        "cells_per_s": int(result["cell_transmissions"].values) / best,
        "events_per_s": int(result["events"].values) / best,
        "events": int(result["events"].values),
        "efficiency": float(result["efficiency"].values),
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


# --- history ------------------------------------------------------------------------------------------------
def machine() -> dict:
    """What the numbers depend on besides the code: processor, cores, load, versions."""
    import numba
    import numpy
    cpu = platform.processor()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2),
            "python": platform.python_version(), "numba": numba.__version__, "numpy": numpy.__version__}


def record_sitting(rows: list[dict], path: Path | str = HISTORY, kind: str = "kernel") -> dict:
    """Append one JSON line for this sitting to ``path``; returns it. A kernel sitting records which
    kernel ran its rows (``"aot"`` or ``"jit"``); in a process sitting each command says so itself."""
    from .kernel.entry import entry_kind
    from .runner import git_revision
    entry = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "kind": kind,
             "commit": git_revision(), "atmtcp": __version__, "machine": machine(), "rows": rows}
    if kind == "kernel":
        entry["machine"]["kernel"] = entry_kind()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")
    return entry


# --- whole process --------------------------------------------------------------------------------------------
def atmtcp_command(args=PROCESS_ARGS, kernel: str = "aot") -> list[str]:
    """``atmtcp ARGS`` as a user types it (the console script beside this Python, else ``-m``);
    ``kernel="jit"`` sets ``ATMTCP_NO_AOT=1`` (numba's JIT even where the ahead-of-time module is
    built)."""
    script = Path(sys.executable).with_name("atmtcp")
    found = str(script) if script.exists() else shutil.which("atmtcp")
    command = [found, *args] if found else [sys.executable, "-m", "atmtcp.cli", *args]
    return ["env", "ATMTCP_NO_AOT=1", *command] if kernel == "jit" else command


def cold_compile_command() -> list[str]:
    """The command of :data:`COLD_COMPILE`, as :func:`compare_processes` takes it."""
    return ["env", "ATMTCP_NO_CACHE=1", *atmtcp_command(COLD_COMPILE)]


def time_process(command: list[str]) -> dict:
    """Wall, user and system seconds and peak RSS of one run of ``command``, as ``/usr/bin/time``
    reports them; its output is discarded. The peak RSS comes from ``/usr/bin/time`` where it
    exists: a child forked from this Python process would report this process's peak."""
    time_binary = shutil.which("time", path="/usr/bin:/bin")
    report = None
    if time_binary:
        fd, report = tempfile.mkstemp(prefix="atmtcp-bench-", suffix=".txt")
        os.close(fd)
        command = [time_binary, "-f", "%M", "-o", report, *command]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace").strip()
    process.stderr.close()
    max_rss_kb = usage.ru_maxrss
    if report:
        text = Path(report).read_text().split()
        Path(report).unlink()
        max_rss_kb = int(text[-1]) if text and text[-1].isdigit() else max_rss_kb
    if process.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} exited {process.returncode}: {error[-500:]}")
    return {"wall_s": wall, "user_s": usage.ru_utime, "sys_s": usage.ru_stime,
            "cpu_s": usage.ru_utime + usage.ru_stime, "max_rss_mb": max_rss_kb / 1024}


def compare_processes(commands: dict[str, list[str]], repeat: int = 5, printer=print) -> list[dict]:
    """Run each command ``repeat`` times, alternating between them (one round runs each once),
    and print the medians and each command's ratio to the first one."""
    runs = {label: [] for label in commands}
    for _ in range(repeat):
        for label, command in commands.items():
            runs[label].append(time_process(command))
    rows = []
    for label, samples in runs.items():
        row = {"command": label, "argv": shlex.join(commands[label]), "repeat": repeat,
               **{key: statistics.median(s[key] for s in samples) for key in samples[0]}}
        rows.append(row)
    base = rows[0]
    printer(f"whole process, median of {repeat}, alternating")
    printer("| command | wall s | user s | sys s | CPU s | max RSS MB | wall / first | CPU / first |")
    printer("|---|---|---|---|---|---|---|---|")
    for row in rows:
        printer(f"| {row['command']} | {row['wall_s']:.3f} | {row['user_s']:.3f} | {row['sys_s']:.3f} | "
                f"{row['cpu_s']:.3f} | {row['max_rss_mb']:.0f} | {row['wall_s'] / base['wall_s']:.2f} | "
                f"{row['cpu_s'] / base['cpu_s']:.2f} |")
    return rows
