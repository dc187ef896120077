"""Command line: ``atmtcp run``, ``atmtcp experiment``, ``atmtcp list``, ``atmtcp bench``."""
from __future__ import annotations

import argparse
import sys
import time

from . import model as m

def _buffer(text: str) -> int | None:
    if text.lower() in ("inf", "infinite", "none"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--buffer {text!r}: give a number of cells or 'inf'") from None
    return value


def scenario(network: str, sources: int, buffer: int | None, policy: str, tcp: str,
             duration: float | None = None, seed: int = 0, jitter: float = 0.0,
             z: float = 0.8, threshold: int | None = None, contention: str | None = None) -> m.Run:
    """The goyal1998 N-source run that ``atmtcp run`` describes by flags (network parameters
    from :data:`atmtcp.experiments.common.NETWORKS`; ``contention`` names one of
    :data:`atmtcp.experiments.common.CELL_ASSUMPTIONS`)."""
    from .experiments.common import CELL_ASSUMPTIONS, HEADLINE_CONTENTION, NETWORKS
    from .topologies import n_source_run
    contention = contention or HEADLINE_CONTENTION
    if contention not in CELL_ASSUMPTIONS:
        raise m.ModelError("scenario", "contention", contention, f"one of {tuple(CELL_ASSUMPTIONS)}")
    slotted, randomized_tail, sonet, cdv_s = CELL_ASSUMPTIONS[contention]
    params = NETWORKS[network]
    port = m.PortConfig(buffer, m.DropPolicy(policy, threshold, z), slotted=slotted,
                        randomized_tail=randomized_tail and policy == "tail" and buffer is not None)
    config = m.TcpConfig(tcp, mss=params.get("mss", 512), rcv_wnd=params["rcv_wnd"])
    return n_source_run(sources, params["delay_s"], port, config,
                        duration if duration is not None else params["duration_s"], seed, jitter,
                        trunk_delay_s=params.get("trunk_delay_s"), access_cdv_s=cdv_s, sonet=sonet)


def cmd_run(args) -> int:
    from .simulate import simulate
    if args.policy is None:  # EPD's default threshold needs a finite buffer
        args.policy = "epd" if args.buffer is not None else "tail"
    run = scenario(args.network, args.sources, args.buffer, args.policy, args.tcp, args.duration,
                   args.seed, args.jitter, args.z, args.threshold, args.contention)
    start = time.perf_counter()
    ds = simulate(run)
    wall = time.perf_counter() - start
    print(f"{args.network.upper()}, {args.sources} sources, buffer {args.buffer or 'infinite'} cells, "
          f"{args.policy}, TCP {args.tcp}, cell contention {args.contention}, "
          f"{run.duration_s:g} s simulated in {wall:.2f} s wall")
    print(f"{'source':>6} {'Mbit/s':>8} {'sent MB':>8} {'retx':>6} {'timeouts':>8} {'fast retx':>9}")
    for i in ds.source.values:
        s = ds.sel(source=i)
        print(f"{i:>6} {float(s.goodput_bps) / 1e6:8.2f} {float(s.sent_bytes) / 1e6:8.2f} "
              f"{int(s.retransmissions):6d} {int(s.timeouts):8d} {int(s.fast_retransmits):9d}")
    print(f"efficiency {float(ds.efficiency):.3f} (of {float(ds.capacity_bps) / 1e6:.1f} Mbit/s), "
          f"fairness {float(ds.fairness):.3f}")
    print(f"{'port':>10} {'cells in':>10} {'out':>10} {'queued':>7} {'max q':>7}  dropped by reason")
    for p in ds.port.values:
        s = ds.sel(port=p)
        drops = ", ".join(f"{r} {int(s.cells_dropped.sel(drop_reason=r))}" for r in ds.drop_reason.values
                          if int(s.cells_dropped.sel(drop_reason=r)))
        print(f"{p:>10} {int(s.cells_in):10d} {int(s.cells_out):10d} {int(s.cells_queued):7d} "
              f"{int(s.max_queue):7d}  {drops or '-'}")
    return 0


def cmd_list(args) -> int:
    from .experiments import EXPERIMENTS
    for name, exp in EXPERIMENTS.items():
        print(f"{name:34s} {exp.title}")
    return 0


def cmd_experiment(args) -> int:
    from .runner import run_experiment
    run_experiment(args.id, args.output, quick=args.quick, jobs=args.jobs)
    return 0


def cmd_bench(args) -> int:
    from .bench import run_benchmark
    run_benchmark(repeat=args.repeat)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .experiments.common import CELL_ASSUMPTIONS, HEADLINE_CONTENTION
    parser = argparse.ArgumentParser(prog="atmtcp", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="simulate one goyal1998 N-source scenario and print a summary")
    run.add_argument("--network", choices=("lan", "wan", "satellite"), default="lan")
    run.add_argument("--sources", type=int, default=5)
    run.add_argument("--buffer", type=_buffer, default=1000, help="cells, or 'inf'")
    run.add_argument("--policy", choices=m.POLICIES, default=None,
                     help="switch drop policy (default: epd, or tail with an infinite buffer)")
    run.add_argument("--tcp", choices=m.FLAVORS, default="reno")
    run.add_argument("--duration", type=float, default=None,
                     help="seconds (default: 10 LAN, 20 WAN, 50 satellite)")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--jitter", type=float, default=0.0, help="random start-time spread in seconds")
    run.add_argument("--z", type=float, default=0.8, help="Selective Drop / FBA parameter Z")
    run.add_argument("--threshold", type=int, default=None, help="R in cells (default per policy)")
    run.add_argument("--contention", choices=tuple(CELL_ASSUMPTIONS), default=HEADLINE_CONTENTION,
                     help="how cells contend at switch ports: slotted ports (the default, as in the "
                          "reproduction), randomized tail drop, ATM over SONET, cell delay variation, or "
                          "'deterministic' (see the README)")
    run.set_defaults(func=cmd_run)

    lst = sub.add_parser("list", help="list the experiments (target ids)")
    lst.set_defaults(func=cmd_list)

    exp = sub.add_parser("experiment", help="run one target's grid into a netCDF file")
    exp.add_argument("id")
    exp.add_argument("--output", default=None,
                     help="default data/results/<id>.nc, or data/results/quick/<id>.nc with --quick")
    exp.add_argument("--quick", action="store_true", help="shortened runs (tests, classes)")
    exp.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    exp.set_defaults(func=cmd_experiment)

    bench = sub.add_parser("bench", help="time the standard scenarios")
    bench.add_argument("--repeat", type=int, default=1)
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except m.ModelError as error:
        print(f"atmtcp: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
