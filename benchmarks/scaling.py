"""Cost against the number of sources (issue 8): set-up, kernel time, events and memory of goyal1998's
N-source network, each run in a fresh process (so that peak RSS is the run's own).

    .venv/bin/python benchmarks/scaling.py            # the README's table (Markdown)
    .venv/bin/python benchmarks/scaling.py lan 500    # one row, as JSON

LAN: EPD, 1000 cells, 10 s simulated; WAN: EPD, 12000 cells, 20 s; Reno; start jitter 10 ms; the
deterministic cell contention unless the row says slotted. Times are wall seconds (as `atmtcp bench`: CPU time would also count numpy's idle BLAS threads), the best of
REPEAT runs in the row's process (the machine is shared: single runs vary by 30 %).
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

ROWS = [("lan", 5, "deterministic"), ("lan", 15, "deterministic"), ("lan", 50, "deterministic"),
        ("lan", 100, "deterministic"), ("lan", 500, "deterministic"), ("lan", 1000, "deterministic"),
        ("lan", 10000, "deterministic"), ("wan", 15, "deterministic"), ("wan", 1000, "deterministic"),
        ("wan", 5000, "deterministic"), ("lan", 5, "slotted"), ("lan", 100, "slotted")]
REPEAT = 3


def one(network: str, sources: int, contention: str) -> dict:
    from atmtcp.default_run import scenario
    from atmtcp.compile import compile_run
    from atmtcp.kernel import layout as L
    from atmtcp.kernel.entry import entry_kind, kernel_entry
    from atmtcp.simulate import run_kernel
    buffer = 1000 if network == "lan" else 12000
    run = scenario(network, sources, buffer, "epd", "reno", jitter=0.01, contention=contention)
    kernel_entry()  # load the kernel before timing
    setup = total = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        compiled = compile_run(run)
        setup = min(setup, time.perf_counter() - start)
        arrays = sum(a.nbytes for a in compiled.kernel_state[:3])
        start = time.perf_counter()
        compiled = run_kernel(run)  # compiles the run again, then runs it
        total = min(total, time.perf_counter() - start)
    events = int(compiled.state.g[L.G_EVENTS])
    return {"network": network, "sources": sources, "contention": contention, "setup_s": setup,
            "kernel_s": total - setup, "events": events, "ns_per_event": (total - setup) / events * 1e9,
            "arrays_mb": arrays / 2**20, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "kernel": entry_kind()}


def main() -> None:
    if len(sys.argv) == 4:
        print(json.dumps(one(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
        return
    print("| network, sources | set-up s | kernel s | events | ns/event | arrays MB | peak RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for network, sources, contention in ROWS:
        out = subprocess.run([sys.executable, __file__, network, str(sources), contention],
                             capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        label = f"{network.upper()}, {sources}" + (", slotted" if contention == "slotted" else "")
        print(f"| {label} | {r['setup_s']:.2f} | {r['kernel_s']:.2f} | {r['events'] / 1e6:.2f} M | "
              f"{r['ns_per_event']:.0f} | {r['arrays_mb']:.0f} | {r['peak_rss_mb']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
