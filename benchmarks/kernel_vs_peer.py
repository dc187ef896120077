"""Issue 8's kernel goal: the CPU time of atmtcp's kernel on goyal1998's 5-source LAN (Reno, EPD, 1000
cells, 10 s simulated, deterministic cells, or with ``--contention slotted`` the reproduction's own
setting, issue 25's goal 1) against the CPU time of a peer's whole process (YATS), in one sitting,
alternating.

    .venv/bin/python benchmarks/kernel_vs_peer.py \\
        --peer "cd benchmarks/yats && /path/to/luayats-bin lan5_reno_epd.lua" [--tree OTHER_CHECKOUT] \\
        [--contention deterministic slotted] [--repeat 9]

Each round runs the peer once (user + system CPU of its process, from ``wait4``), then, for this
checkout and each ``--tree``, a fresh Python process that loads the kernel, builds the run, does a
warm-up run and then times one run of the kernel alone: ``time.thread_time()`` around the kernel's
call (the simulating thread's CPU; numpy's idle BLAS threads and the set-up are not counted) and the
wall time of the same call. Another checkout runs with this Python and its own kernel sources (the
current directory comes first on ``sys.path``); it is timed as it is built (build it with ``atmtcp
warm`` there, or copy its ``atmtcp/kernel/__pycache__``). Prints medians and each kernel's CPU over the
peer's.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

PROBE = """
import sys
import time
from atmtcp.bench import scenario_run
from atmtcp.compile import compile_run
from atmtcp.kernel.layout import G_EVENTS
from atmtcp.kernel.entry import entry_kind, kernel_entry
from atmtcp.simulate import warm_kernel
warm_kernel()
entry = kernel_entry()
compiled = compile_run(scenario_run("lan", 5, "epd", "reno", contention=sys.argv[1]))
cpu, wall = time.thread_time(), time.perf_counter()
status = entry(compiled.kernel_state)
cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
assert status == 0, status
print(entry_kind(), int(compiled.state.g[G_EVENTS]), cpu, wall)
"""


def peer_cpu(command: str) -> float:
    """User + system CPU seconds of one run of the shell command ``command``."""
    process = subprocess.Popen(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{command!r} failed")
    return usage.ru_utime + usage.ru_stime


def kernel_cpu(tree: Path, contention: str) -> tuple[str, int, float, float]:
    """(kernel form, events, CPU s, wall s) of one kernel run with cell contention ``contention`` in a
    fresh process in checkout ``tree``."""
    out = subprocess.run([sys.executable, "-c", PROBE, contention], cwd=tree, capture_output=True, text=True,
                         check=True)
    kind, events, cpu, wall = out.stdout.split()[-4:]
    return kind, int(events), float(cpu), float(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", required=True, help="shell command of the peer's whole run")
    parser.add_argument("--tree", action="append", default=[], help="another checkout to time as well")
    parser.add_argument("--contention", nargs="+", default=["deterministic"],
                        choices=["deterministic", "slotted"], help="cell contention of the kernel runs")
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    trees = [HERE, *(Path(t).resolve() for t in args.tree)]
    variants = [(tree, contention) for tree in trees for contention in args.contention]
    peer, kernels, seen = [], {v: [] for v in variants}, {}
    for _ in range(args.repeat):
        peer.append(peer_cpu(args.peer))
        for tree, contention in variants:
            kind, events, cpu, wall = kernel_cpu(tree, contention)
            kernels[tree, contention].append((cpu, wall))
            seen[tree, contention] = (kind, events)
    base = statistics.median(peer)
    print(f"medians of {args.repeat}, alternating")
    print("| command | kernel | events | CPU s | wall s | CPU / peer's process |")
    print("|---|---|---|---|---|---|")
    print(f"| peer: `{args.peer}` | (whole process) | - | {base:.3f} | - | 1 |")
    for (tree, contention), samples in kernels.items():
        cpu = statistics.median(s[0] for s in samples)
        wall = statistics.median(s[1] for s in samples)
        kind, events = seen[tree, contention]
        print(f"| atmtcp kernel, {contention}, {tree} | {kind} | {events} | {cpu:.3f} | {wall:.3f} "
              f"| {cpu / base:.2f} |")


if __name__ == "__main__":
    main()
