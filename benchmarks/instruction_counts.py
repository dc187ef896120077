"""Instructions the kernel executes on each ``atmtcp bench`` row, counted by valgrind's callgrind.

Wall-clock times on a shared host move by tens of percent between minutes; the number of instructions
executed inside ``run_until_end`` (and everything it calls) of the ahead-of-time module repeats exactly,
so it is the measure to compare two versions of the kernel by. Usage, from a checkout whose kernel is
built (``atmtcp warm``)::

    NUMBA_CPU_NAME=znver3 python -m atmtcp.cli warm        # once per checkout
    NUMBA_CPU_NAME=znver3 python benchmarks/instruction_counts.py [--rows 0 4 7] [--tree DIR]

``NUMBA_CPU_NAME`` must be a CPU valgrind can decode: valgrind 3.19 stops with SIGILL on AVX-512 code,
so on a host that has AVX-512 both versions are built for the same older CPU (the counts then measure
that build, the same for both versions). ``--tree`` counts another checkout (its own built kernel).
Prints one Markdown row per bench row: events and instructions.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROW_PROGRAM = """
import sys
from atmtcp.bench import SCENARIOS, scenario_run
from atmtcp.simulate import counters, run_kernel
from atmtcp.kernel.entry import entry_kind
run = scenario_run(*SCENARIOS[int(sys.argv[1])][1:])
compiled = run_kernel(run)
assert entry_kind() == "aot", "the ahead-of-time module is not built for this NUMBA_CPU_NAME: run atmtcp warm"
print("EVENTS", int(counters(run, compiled)["events"].values))
"""


def count_row(tree: Path, row: int) -> tuple[int, int]:
    """(events, instructions inside run_until_end) of bench row ``row`` run from checkout ``tree``."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        env = {**os.environ, "PYTHONPATH": str(tree)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=*run_until_end*", f"--callgrind-out-file={out}",
             sys.executable, "-c", ROW_PROGRAM, str(row)],
            cwd=tree, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"row {row} failed under valgrind:\n{result.stderr[-3000:]}")
        events = int(re.search(r"EVENTS (\d+)", result.stdout).group(1))
        summary = re.search(r"^summary: (\d+)", out.read_text(), re.M)
        return events, int(summary.group(1))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path.cwd(), help="the checkout to count (default: here)")
    parser.add_argument("--rows", type=int, nargs="*", help="bench rows by index (default: all)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.tree))
    from atmtcp.bench import SCENARIOS
    rows = args.rows if args.rows else range(len(SCENARIOS))
    print(f"| row | events | instructions | per event |  ({args.tree}, NUMBA_CPU_NAME="
          f"{os.environ.get('NUMBA_CPU_NAME', 'host')})")
    print("|---|---|---|---|")
    for row in rows:
        events, instructions = count_row(args.tree.resolve(), row)
        print(f"| {SCENARIOS[row][0]} | {events:,} | {instructions:,} | {instructions / events:.0f} |", flush=True)


if __name__ == "__main__":
    main()
