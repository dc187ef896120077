"""Command line: ``atmtcp run``, ``atmtcp experiment``, ``atmtcp list``, ``atmtcp bench``, ``atmtcp labs``."""
from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import time
import warnings

from . import __version__
from . import model as m
from . import supervise

def _number(kind, low, high, low_open=False, unit=""):
    """An argparse type: a finite ``kind`` in [low, high] (or (low, high] when ``low_open``).
    argparse puts the flag's name before the message."""
    show = (lambda v: str(int(v))) if kind is int else (lambda v: f"{v:g}")
    interval = f"{'(' if low_open else '['}{show(low)}, {show(high)}]{' ' + unit if unit else ''}"

    def parse(text: str):
        try:
            value = kind(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'} "
                                             f"in {interval}") from None
        ok = math.isfinite(value) and (value > low if low_open else value >= low) and value <= high
        if not ok:
            raise argparse.ArgumentTypeError(f"{text!r} is outside the allowed range {interval}")
        return value
    return parse


def _buffer(text: str) -> int | None:
    if text.lower() in ("inf", "infinite", "none"):
        return None
    try:
        return _number(int, 1, m.MAX_BUFFER_CELLS, unit="cells")(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error} (or 'inf')") from None


FIELD_FLAGS = {
    "PortConfig.buffer_cells": "--buffer", "DropPolicy.threshold": "--threshold",
    "DropPolicy.threshold2": "--threshold",  # ESPD's threshold 2 is half the buffer here: only --threshold moves it
    "DropPolicy.z": "--z",
    "DropPolicy.kind": "--policy", "PortConfig.policy": "--policy", "Run.duration_s": "--duration",
    "Run.seed": "--seed", "start_times.jitter_s": "--jitter", "Connection.start_s": "--jitter",
    "TcpConfig.flavor": "--tcp", "n_source_network.n": "--sources", "scenario.contention": "--contention",
    "n_source_run.contention": "--contention", "scenario.network": "--network", "start_times.seed": "--seed",
}
"""Model fields -> the ``atmtcp run`` flag that sets them, for error messages."""


Z_POLICIES = m.policies_with("z")
"""The policies whose rule reads Z (goyal1998 4.2: Selective Drop's load ratio > Z, FBA's > Z(K-R)/(X-R))."""
THRESHOLD_POLICIES = m.policies_with("threshold")
"""The policies with a buffer threshold R (``--threshold``)."""


def _inapplicable_run_flag(args) -> str | None:
    """Why a flag of ``atmtcp run`` does not apply to the chosen policy (one line), or None. (Every
    value itself is checked by the model, for Python and the command line alike.)"""
    if args.threshold is not None and args.policy not in THRESHOLD_POLICIES:
        return f"--threshold: applies to --policy {', '.join(THRESHOLD_POLICIES)}, not {args.policy}"
    if args.z is not None and args.policy not in Z_POLICIES:
        return f"--z: applies to --policy {', '.join(Z_POLICIES)}, not {args.policy}"
    return None


def cmd_run(args) -> int:
    """``atmtcp run``: simulate the goyal1998 N-source run the flags describe (:func:`atmtcp.default_run.scenario`)
    and print its counters (:func:`atmtcp.simulate.counters`, without xarray). Returns the exit status."""
    from .default_run import scenario
    from .kernel.layout import DROP_REASON_NAMES
    from .simulate import counters, run_kernel
    if args.policy is None:  # EPD's default threshold needs a finite buffer
        args.policy = "epd" if args.buffer is not None else "tail"
    refusal = _inapplicable_run_flag(args)
    if refusal:
        print(f"atmtcp run: {refusal}", file=sys.stderr)
        return 2
    run = scenario(args.network, args.sources, args.buffer, args.policy, args.tcp, args.duration,
                   args.seed, args.jitter, args.z, args.threshold, args.contention)
    start = time.perf_counter()
    compiled = run_kernel(run)
    with warnings.catch_warnings():   # a run that delivered nothing: the summary below says so in words
        warnings.filterwarnings("ignore", "no data delivered", RuntimeWarning)
        result = {name: counter.values for name, counter in counters(run, compiled).items()}
    wall = time.perf_counter() - start
    print(f"{args.network.upper()}, {args.sources} sources, buffer {args.buffer or 'infinite'} cells, "
          f"{args.policy}, TCP {args.tcp}, cell contention {args.contention}, "
          f"{run.duration_s:g} s simulated in {wall:.2f} s wall")
    print(f"{'source':>6} {'Mbit/s':>8} {'sent MB':>8} {'retx':>6} {'timeouts':>8} {'fast retx':>9}")
    for i in _shown(len(run.connections)):
        if i is None:
            print(f"{'...':>6}")
            continue
        print(f"{i:>6} {result['goodput_bps'][i] / 1e6:8.2f} {result['sent_bytes'][i] / 1e6:8.2f} "
              f"{result['retransmissions'][i]:6d} {result['timeouts'][i]:8d} {result['fast_retransmits'][i]:9d}")
    fairness = ("no data delivered, so fairness is undefined" if math.isnan(result["fairness"]) else
                f"fairness {result['fairness']:.3f}")
    print(f"efficiency {result['efficiency']:.3f} (of {result['capacity_bps'] / 1e6:.1f} Mbit/s), {fairness}")
    if len(run.connections) > SHOWN_ROWS:
        print(f"{int((result['goodput_bps'] > 0).sum())} of {len(run.connections)} sources delivered data; "
              f"{int(result['timeouts'].sum())} timeouts, {int(result['fast_retransmits'].sum())} fast retransmits")
    print(f"{'port':>10} {'cells in':>10} {'out':>10} {'queued':>7} {'max q':>7}  dropped by reason")
    for p in _shown(len(compiled.port_names), always=compiled.port_names.index(compiled.bottleneck)):
        if p is None:
            print(f"{'...':>10}")
            continue
        name = compiled.port_names[p]
        dropped = result["cells_dropped"][p]
        drops = ", ".join(f"{reason} {count}" for reason, count in zip(DROP_REASON_NAMES, dropped) if count)
        print(f"{name:>10} {result['cells_in'][p]:10d} {result['cells_out'][p]:10d} "
              f"{result['cells_queued'][p]:7d} {result['max_queue'][p]:7d}  {drops or '-'}")
    return 0


SHOWN_ROWS = 12
"""``atmtcp run`` prints every source and port up to this many, else the first and last few."""


def _shown(n: int, always: int | None = None) -> list:
    """Row indices to print out of ``n`` (``None`` marks the rows left out), ``always`` kept."""
    if n <= SHOWN_ROWS:
        return list(range(n))
    keep = sorted({*range(SHOWN_ROWS - 3), n - 2, n - 1, *([always] if always is not None else [])})
    out = []
    for i in keep:
        if out and out[-1] is not None and i != out[-1] + 1:
            out.append(None)
        out.append(i)
    return out


def cmd_list(args) -> int:
    """``atmtcp list``: every experiment's target id and title, one per line."""
    from .experiments import EXPERIMENTS
    for name, exp in EXPERIMENTS.items():
        print(f"{name:34s} {exp.title}")
    return 0


def _writable(flag: str, path) -> bool:
    """Whether a file can be written at ``path`` (:func:`atmtcp.paths.check_output`: a regular file or
    none, in a writable folder, made if missing; never a folder, device, FIFO, socket or symbolic link,
    nor an empty path); if not, one line on stderr naming ``flag``. Checked before any work, so a bad
    path does not fail a finished job."""
    from .paths import OutputError, check_output
    try:
        check_output(path, flag)
    except OutputError as error:
        print(f"atmtcp: {error}", file=sys.stderr)
        return False
    return True


def cmd_experiment(args) -> int:
    """``atmtcp experiment <id>``: run one target's grid into a netCDF file (:func:`atmtcp.runner.run_experiment`).
    An unknown id or an unwritable output is refused with exit status 2."""
    from .experiments import EXPERIMENTS
    from .runner import run_experiment
    if args.id not in EXPERIMENTS:
        print(f"atmtcp experiment: {args.id!r} is not an experiment id; `atmtcp list` shows them", file=sys.stderr)
        return 2
    if args.output is not None and not _writable("--output", args.output):
        return 2
    path = run_experiment(args.id, args.output, quick=args.quick, jobs=args.jobs, progress_s=args.progress)
    print(f"atmtcp experiment: {args.id}{' (quick)' if args.quick else ''} written to {path}")
    return 0


def cmd_warm(args) -> int:
    """``atmtcp warm``: compile the kernel into numba's cache and, unless ``--no-aot``, build the
    ahead-of-time module (:func:`atmtcp.simulate.build_kernel`)."""
    from .simulate import build_kernel
    start = time.perf_counter()
    if args.portable:
        from .kernel.aot import build_portable
        done = f"kernel built ahead of time for a baseline CPU, as a wheel carries it: {build_portable()}"
    else:
        done = build_kernel(aot=not args.no_aot)
    print(done, f"({time.perf_counter() - start:.0f} s)")
    return 0


def cmd_bench(args) -> int:
    """``atmtcp bench``: time the benchmark's rows (:mod:`atmtcp.bench`), or compare two processes' runs,
    and record a sitting in ``--history``."""
    from .bench import (COLD_COMPILE, HISTORY, PROCESS_ARGS, atmtcp_command, cold_compile_command,
                        compare_processes, record_sitting, run_benchmark)
    if args.process and args.compile:
        print("atmtcp bench: --compile: not with --process (each times its own command)", file=sys.stderr)
        return 2
    if args.history is not None and not _writable("--history", args.history):
        return 2
    process_only = [flag for flag, value in (("--contention", args.contention), ("--kernel", args.kernel),
                                             ("--peer", args.peer)) if value]
    if process_only and not args.process:
        print(f"atmtcp bench: {process_only[0]}: applies with --process only", file=sys.stderr)
        return 2
    if args.process:
        contentions, kernels = args.contention or ["deterministic"], args.kernel or ["aot"]
        commands = {f"atmtcp {' '.join(PROCESS_ARGS + ('--contention', c))} ({kernel})": atmtcp_command(
            PROCESS_ARGS + ("--contention", c), kernel) for c in contentions for kernel in kernels}
        for peer in args.peer:
            commands[peer] = ["sh", "-c", peer]
        rows, kind = compare_processes(commands, repeat=args.repeat or 5), "process"
    elif args.compile:
        print("cold compile of the kernel (40 s to 2 minutes of CPU, by the machine, and about 0.5 GB)", flush=True)
        commands = {f"cold compile (ATMTCP_NO_CACHE=1 atmtcp {' '.join(COLD_COMPILE)})": cold_compile_command()}
        rows, kind = compare_processes(commands, repeat=args.repeat or 1), "compile"
    else:
        rows, kind = run_benchmark(repeat=args.repeat or 1), "kernel"
    if args.record or args.history is not None:
        record_sitting(rows, args.history or HISTORY, kind)
        print(f"appended to {args.history or HISTORY}")
    return 0


def cmd_labs_build(args) -> int:
    """``atmtcp labs build``: write the labs' student and solution notebooks from ``--source`` into ``--out``;
    0."""
    from .labs.build import build
    written = build(args.source, args.out)
    for kind, paths in written.items():
        print(f"atmtcp labs build: {kind}: {len(paths)} files in {os.path.join(args.out, kind)}")
    return 0


def cmd_labs_grade(args) -> int:
    """``atmtcp labs grade``: grade each notebook and print its checks passed; 1 if any notebook failed a
    check, else 0."""
    from .labs.build import grade
    failed = 0
    for notebook in args.notebooks:
        results = grade(notebook, args.hidden, quick=args.quick)
        passed = sum(r["passed"] for r in results)
        failed += passed < len(results)
        print(f"{notebook}: {passed} of {len(results)} checks passed")
        for r in results:
            if not r["passed"] or args.verbose:
                print(f"  {'PASS' if r['passed'] else 'FAIL'} {r['question']} {r['kind']} {r['check']}: {r['reason']}")
    return 1 if failed else 0


class OneLineParser(argparse.ArgumentParser):
    """argparse with errors on one line (``atmtcp run: --jitter: 'nan' is not ...``), exit 2,
    instead of the usage block; ``--help`` shows the usage."""

    def error(self, message):
        """Exit with status 2 and ``message`` on one line after the program's name."""
        self.exit(2, f"{self.prog}: {message.replace('argument ', '', 1)}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand: ``run``, ``warm``, ``list``, ``experiment``, ``bench``, ``labs``."""
    parser = OneLineParser(prog="atmtcp", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    parser.add_argument("--version", action="version", version=f"atmtcp {__version__}")
    add_run_parser(sub)
    warm = sub.add_parser("warm", help="compile the kernel once (numba's cache), then build it ahead of time "
                                       "so that runs start without numba (make warm)")
    how = warm.add_mutually_exclusive_group()
    how.add_argument("--no-aot", action="store_true", help="only numba's cache, no ahead-of-time module")
    how.add_argument("--portable", action="store_true",
                     help="build the ahead-of-time module for a baseline CPU (x86-64-v3) into atmtcp/kernel/prebuilt/, "
                          "where a wheel carries it (make wheel)")
    warm.set_defaults(func=cmd_warm)

    lst = sub.add_parser("list", help="list the experiments (target ids)")
    lst.set_defaults(func=cmd_list)

    exp = sub.add_parser("experiment", help="run one target's grid into a netCDF file")
    exp.add_argument("id", help="the target id, e.g. goyal1998.table4 (`atmtcp list` prints them all)")
    exp.add_argument("--output", default=None,
                     help="default data/results/<id>.nc, or data/results/quick/<id>.nc with --quick")
    exp.add_argument("--quick", action="store_true", help="shortened runs (tests, classes)")
    exp.add_argument("--jobs", type=_number(int, 1, 1024), default=None, help="worker processes (default: all cores)")
    exp.add_argument("--progress", type=_number(float, 0, 86400, unit="s"), default=0.0,
                     help="also print 'done/total points, ETA' to standard output every this many seconds "
                          "(0: only the progress bar on standard error)")
    exp.set_defaults(func=cmd_experiment)

    add_bench_parser(sub)
    add_labs_parser(sub)
    return parser


def add_labs_parser(sub) -> None:
    """``atmtcp labs build`` and ``atmtcp labs grade``: the lecturer's commands (docs/lecturers-guide.md)."""
    labs = sub.add_parser("labs", help="build the student and solution versions of the labs, or grade submissions")
    verbs = labs.add_subparsers(dest="labs_command", required=True)
    build = verbs.add_parser("build", help="write OUT/student/ (solutions replaced by ..., no hidden checks) and "
                                           "OUT/solution/ (with hidden/)")
    build.add_argument("out", help="the folder to write (made if missing)")
    build.add_argument("--source", default=os.path.join("notebooks", "labs"),
                       help="the lab notebooks and their hidden/ checks (default: notebooks/labs of the checkout)")
    build.set_defaults(func=cmd_labs_build)
    grade = verbs.add_parser("grade", help="run submitted lab notebooks with the hidden checks and print the results "
                                           "(exit 1 if a check failed)")
    grade.add_argument("notebooks", nargs="+", help="the students' .ipynb files")
    grade.add_argument("--hidden", required=True, help="the hidden checks: OUT/solution/hidden of `atmtcp labs build`")
    grade.add_argument("--quick", action="store_true", help="the labs' short runs (a test of the grading, not a grade)")
    grade.add_argument("--verbose", action="store_true", help="print the passed checks too")
    grade.set_defaults(func=cmd_labs_grade)


def add_run_parser(sub) -> None:
    """``atmtcp run``: one goyal1998 N-source scenario described by flags."""
    from .contention import CELL_ASSUMPTIONS, HEADLINE_CONTENTION
    run = sub.add_parser("run", help="simulate one goyal1998 N-source scenario and print a summary")
    run.add_argument("--network", choices=("lan", "wan", "satellite"), default="lan",
                     help="goyal1998's LAN (5 us links, 64 KB window, 10 s) or WAN (5 ms, 600000 bytes, 20 s), "
                          "or goyal1997's satellite network (275 ms hop, 50 s) (default: lan)")
    run.add_argument("--sources", type=_number(int, 1, 10000), default=5,
                     help="number of TCP sources sharing the bottleneck SW1->SW2 (1-10000; default: 5)")
    run.add_argument("--buffer", type=_buffer, default=1000,
                     help="switch buffer in cells (1 to 10 million), or 'inf' (default: 1000)")
    run.add_argument("--policy", choices=m.POLICIES, default=None,
                     help="switch drop policy (default: epd, or tail with an infinite buffer)")
    run.add_argument("--tcp", choices=m.FLAVORS, default="reno", help="TCP flavour (default: reno)")
    run.add_argument("--duration", type=_number(float, 0, 3600, low_open=True, unit="s"), default=None,
                     help="simulated seconds, at most 3600 (default: 10 LAN, 20 WAN, 50 satellite)")
    run.add_argument("--seed", type=_number(int, 0, 2**63 - 1), default=0,
                     help="seed of every random draw (start jitter, slot order, ...); same seed, same result "
                          "(default: 0)")
    run.add_argument("--jitter", type=_number(float, 0, 10, unit="s"), default=0.0,
                     help="sources start at uniform random times in [0, jitter) s (at most 10; default 0: all at t = 0)")
    run.add_argument("--z", type=_number(float, 0, 100, low_open=True), default=None,
                     help="Z of Selective Drop and FBA, goyal1998 4.2 (default 0.8; refused with the other policies)")
    run.add_argument("--threshold", type=_number(int, 0, m.MAX_BUFFER_CELLS, unit="cells"), default=None,
                     help="R in cells (default per policy: buffer - 200 for EPD, 0.9 x buffer for SD/FBA)")
    run.add_argument("--contention", choices=tuple(CELL_ASSUMPTIONS), default=HEADLINE_CONTENTION,
                     help="how cells contend at switch ports: slotted ports (the default, as in the "
                          "reproduction), randomized tail drop, ATM over SONET, cell delay variation, or "
                          "'deterministic' (docs/modelling.md, cell contention)")
    run.set_defaults(func=cmd_run)


def add_bench_parser(sub) -> None:
    """``atmtcp bench``: the kernel on the standard scenarios, or whole processes."""
    from .contention import CELL_ASSUMPTIONS
    bench = sub.add_parser("bench", help="time the standard scenarios (kernel), or whole processes (--process)")
    bench.add_argument("--repeat", type=_number(int, 1, 100), default=None,
                       help="runs per scenario: the best is shown (kernel; default 1), or the median of the "
                            "alternating rounds (--process; default 5) or of the cold compiles (--compile; default 1)")
    bench.add_argument("--process", action="store_true",
                       help="time whole `atmtcp run` processes of goyal1998's 5-source LAN (Reno, EPD, 1000 cells, "
                            "10 s) as /usr/bin/time would: wall, CPU, peak memory")
    bench.add_argument("--compile", action="store_true",
                       help="time a cold compile of the whole kernel instead (ATMTCP_NO_CACHE=1 atmtcp warm --no-aot: "
                            "no cache read or written): wall, CPU, peak memory; --record keeps it in the history")
    bench.add_argument("--contention", nargs="+", choices=tuple(CELL_ASSUMPTIONS), default=None,
                       help="with --process: the cell-contention assumptions to time (default: deterministic)")
    bench.add_argument("--kernel", nargs="+", choices=("aot", "jit"), default=None,
                       help="with --process: run the ahead-of-time kernel (default; numba's JIT where it is not "
                            "built, see `atmtcp warm`), numba's JIT (ATMTCP_NO_AOT=1), or both")
    bench.add_argument("--peer", action="append", default=[], metavar="COMMAND",
                       help="with --process: a shell command to time alternately with atmtcp (e.g. a YATS run of "
                            "the same scenario, see benchmarks/yats/); repeatable")
    bench.add_argument("--record", action="store_true",
                       help="append this sitting to the checkout's benchmarks/history.jsonl (a tracked file; "
                            "by default a sitting is only printed)")
    bench.add_argument("--history", default=None, help="append this sitting to this JSON-lines file instead")
    bench.set_defaults(func=cmd_bench)


def main(argv=None) -> int:
    """Parse ``argv`` (the command line when ``None``) and run its subcommand; returns the exit status
    (a bad value, a kernel cache that cannot be used or an interrupt ends in one line on stderr, naming the
    flag where there is one, not in a traceback)."""
    args = build_parser().parse_args(argv)
    try:
        with _sigterm_as_interrupt():
            return args.func(args)
    except KeyboardInterrupt as error:
        return _interrupted(args, error)
    except _cache_errors() as error:
        print(f"atmtcp: {error}", file=sys.stderr)
        return 1
    except m.ModelError as error:
        flag = FIELD_FLAGS.get(error.field)
        print(f"atmtcp: {flag + ': ' if flag else ''}{error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0


def _cache_errors() -> tuple[type[Exception], ...]:
    """The errors of a damaged cache that the command line reports in one line (exit 1)."""
    from .simulate import KernelCacheError
    return (KernelCacheError,)


class _sigterm_as_interrupt:
    """While a command runs, SIGTERM stops it as Ctrl-C does (:func:`_interrupted`), and the signal
    that stopped it is remembered for the exit code; both handlers remember the request
    (:func:`atmtcp.supervise.interrupt`), so that one Python swallowed is raised again at the next point."""
    received = None

    def __enter__(self):
        _sigterm_as_interrupt.received = signal.SIGINT
        supervise.forget_interrupt()
        try:
            self.previous = signal.signal(signal.SIGTERM, self._terminate)
            self.previous_int = signal.signal(signal.SIGINT, supervise.interrupt)  # Ctrl-C, remembered too
        except ValueError:  # not the main thread: signals are not ours to handle
            self.previous = None

    @staticmethod
    def _terminate(signum, frame):
        _sigterm_as_interrupt.received = signal.SIGTERM
        supervise.interrupt(signum, frame)

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
            signal.signal(signal.SIGINT, self.previous_int)


def _interrupted(args, error: KeyboardInterrupt) -> int:
    """One line on stderr for a command stopped by Ctrl-C or SIGTERM (no traceback); exit code 128 +
    the signal's number, as a shell reports it. What was kept is said: nothing for ``run``; for
    ``experiment``, the finished points, from which the same command resumes."""
    # an object half made when the interrupt came (e.g. a netCDF file being opened) may fail in its
    # finalizer: after an interrupt that is noise, not a second error to show
    sys.unraisablehook = lambda unraisable: None
    received = _sigterm_as_interrupt.received or signal.SIGINT
    what = "Ctrl-C" if received == signal.SIGINT else "SIGTERM"
    detail = f" ({error})" if str(error) else ""
    if args.command == "experiment":
        from .runner import cache_root, point_cache_dir
        kept = point_cache_dir(args.id, cache_root(args.quick))
        detail = (f"; no result file was written; the finished points are kept in {kept}/ and the same command "
                   "resumes from them")
    elif args.command == "run":
        detail += "; nothing was written"
    start = "\n" if args.command == "experiment" else ""  # (after the progress bar's unfinished line)
    try:
        sys.stderr.write(f"{start}atmtcp {args.command}: stopped by {what}{detail}\n")
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass
    return 128 + int(received)


def entry() -> None:
    """The ``atmtcp`` console script: :func:`main`; after ``run``, the output flushed, the process
    ends without the interpreter's teardown, which frees numba's and LLVM's modules one by one
    (0.12 s of a 0.8 s ``atmtcp run`` on the CI machine)."""
    code = main()
    if sys.argv[1:2] == ["run"]:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (BrokenPipeError, ValueError):
            pass
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
