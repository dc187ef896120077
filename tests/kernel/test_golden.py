"""Golden results: a handful of short runs, one per kernel path, must give exactly the results
recorded in ``tests/kernel/golden.json``.

A change to the kernel, the compiler or the model that moves any counter of these runs fails
here. When the change of results is intended, regenerate the file and say why in the commit:

    .venv/bin/python tests/kernel/test_golden.py --update

The file holds, per scenario, the SHA-256 of every variable of the run's Dataset, so it covers
goodput, retransmissions, timeouts, per-port counters and drop reasons, and traces. A variable
recorded there must keep its digest; a variable the Dataset gained since (a new counter) is
allowed, so adding an output does not hide whether the old ones moved.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

GOLDEN = Path(__file__).with_name("golden.json")


def _lan(port: m.PortConfig, tcp: str = "reno", sources: int = 5, duration: float = 3.0, seed: int = 1):
    return n_source_run(sources, 5e-6, port, m.TcpConfig(tcp), duration, seed=seed, start_jitter_s=1e-3,
                        trace=m.TraceConfig(connections=(0,), ports=(BOTTLENECK,)), contention="deterministic")


def _cheon_espd():
    from atmtcp.papers.cheon.scenario import cheon_run
    return cheon_run("symmetric", "espd", 500, 0, duration_s=0.6)


def _lakshman(discipline: str, sources: int, buffer_cells: int, seed: int):
    from atmtcp.papers.lakshman.scenario import NOMINAL_RTT_S, discipline_port, lakshman_run
    return lakshman_run((NOMINAL_RTT_S,) * sources, discipline_port(discipline, buffer_cells), seed, 5.0, 1.0)


def _ewa(target: str, seed: int):
    from atmtcp.papers.ewa.section2.scenario import ten_connection_run
    return ten_connection_run(target, seed)


SCENARIOS = {
    # the lazy FIFO path (ringless EPD, ring-keeping Selective Drop) and the TCP flavours
    "lazy_epd_reno": lambda: _lan(m.PortConfig(1000, m.DropPolicy("epd"))),
    "lazy_selective_drop_sack": lambda: _lan(m.PortConfig(1000, m.DropPolicy("selective_drop")), "sack"),
    "lazy_fba_newreno": lambda: _lan(m.PortConfig(1000, m.DropPolicy("fba")), "newreno"),
    "lazy_tail_vanilla_wan": lambda: n_source_run(3, 1e-3, m.PortConfig(1000), m.TcpConfig("vanilla"), 3.0, seed=2,
                                                  start_jitter_s=1e-3, contention="deterministic"),
    # the held path: slotted ports (the headline contention), randomized tail, drop from front, RED
    "slotted_epd_reno": lambda: _lan(m.PortConfig(1000, m.DropPolicy("epd"), slotted=True)),
    "randomized_tail_vanilla": lambda: _lan(m.PortConfig(600, randomized_tail=True), "vanilla"),
    "front_frame_reno": lambda: _lan(m.PortConfig(600, drop_from_front="frame", slotted=True)),
    "red_cells_reno": lambda: _lan(m.PortConfig(800, m.DropPolicy("red", red_one=1e-4, red_full=0.5))),
    "red_frames_front": lambda: _lan(m.PortConfig(800, m.DropPolicy("red", red_one=1e-3, red_full=1.0,
                                                                   red_frames=True), drop_from_front="frame")),
    # cheon: ESPD's drop-list and timer, IP service rate, delayed ACKs, the parking lot
    "cheon_espd": _cheon_espd,
    # lakshman: the DS-3 system, TCP timestamps, front drop and randomized PPD at the slotted bottleneck
    "lakshman_frame_front": lambda: _lakshman("frame_front", 14, 5760, 1),
    "lakshman_frame_tail": lambda: _lakshman("frame_tail", 3, 2304, 2),
    # ewa: the packet path (IP links, AAP-1 onto L1), connections that close, Drop-Tail and RED
    "ewa_drop_tail": lambda: _ewa("ewa.fig5", 0),
    "ewa_red": lambda: _ewa("ewa.fig9", 1),
}


def digests(ds) -> dict[str, str]:
    """The SHA-256 of each variable (and coordinate) of ``ds``, by name."""
    out = {}
    for name in sorted(ds.variables):
        values = ds[name].values
        raw = values.tobytes() if values.dtype.kind != "O" else repr(values.tolist()).encode()
        out[name] = hashlib.sha256(raw).hexdigest()
    return out


def compute() -> dict[str, dict[str, str]]:
    return {name: digests(atmtcp.simulate(build())) for name, build in SCENARIOS.items()}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_run_gives_its_golden_result(name):
    golden = json.loads(GOLDEN.read_text())
    assert name in golden, f"no golden digests for {name!r}: run `python tests/kernel/test_golden.py --update`"
    now = digests(atmtcp.simulate(SCENARIOS[name]()))
    missing = sorted(set(golden[name]) - set(now))
    moved = sorted(v for v in golden[name] if v in now and now[v] != golden[name][v])
    assert not missing and not moved, (
        f"{name}: variables missing {missing}, variables whose values differ from tests/kernel/golden.json "
        f"{moved}. If the change is intended, regenerate the file (python tests/kernel/test_golden.py --update) "
        "and explain the difference in the commit message.")


def test_golden_file_lists_exactly_the_scenarios():
    assert sorted(json.loads(GOLDEN.read_text())) == sorted(SCENARIOS)


if __name__ == "__main__":
    computed = compute()
    if "--update" in sys.argv:
        GOLDEN.write_text(json.dumps(computed, indent=1, sort_keys=True) + "\n")
    print(json.dumps(computed, indent=1, sort_keys=True))
