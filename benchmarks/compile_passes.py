"""Where a cold compile of the kernel spends its time, pass by pass (issue 39, goal 2).

Compiles the whole kernel in this process with numba's cache neither read nor written
(``ATMTCP_NO_CACHE=1``, as ``atmtcp warm --no-aot``) and prints the total CPU time and peak memory,
then, for the functions into which the cell path is inlined (``run_until_end``, ``transmit_cells``),
numba's own pass times (``get_metadata(sig)['pipeline_times']``) and the largest LLVM passes
(``NUMBA_LLVM_PASS_TIMINGS=1``). A function's type inference holds the compiles of the ``@jit``
functions it calls. Takes about 2 minutes and 0.6 GB:

    .venv/bin/python benchmarks/compile_passes.py
"""
import os
import resource
import sys
import time

os.environ["ATMTCP_NO_CACHE"] = "1"
os.environ.setdefault("NUMBA_LLVM_PASS_TIMINGS", "1")


def pass_rows(metadata: dict) -> list[tuple[float, str]]:
    """(seconds, pass name) of numba's nopython pipeline, the longest first."""
    passes = metadata.get("pipeline_times", {}).get("nopython", {})
    return sorted(((r.init + r.run + r.finalize, name) for name, r in passes.items()), reverse=True)


def main() -> int:
    from atmtcp.bench import COLD_COMPILE
    from atmtcp.cli import main as atmtcp
    start = time.process_time()
    status = atmtcp(list(COLD_COMPILE))
    if status != 0:
        return status  # atmtcp warm said why; there are no pass times to show
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cold compile: {time.process_time() - start:.1f} s of CPU, {peak_mb:.0f} MB peak")
    from atmtcp.kernel import engine, ports
    for dispatcher in (engine.run_until_end, ports.transmit_cells):
        for signature in dispatcher.signatures:
            metadata = dispatcher.get_metadata(signature)
            print(f"\n{dispatcher.py_func.__name__}: numba's passes")
            for seconds, name in pass_rows(metadata)[:10]:
                print(f"  {seconds:8.2f} s  {name}")
            for record in metadata.get("llvm_pass_timings") or []:
                top = record.timings.list_top(1)
                if top:
                    print(f"  LLVM, {record.name[:60]}: largest pass {top[0].pass_name} {top[0].user_time:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
