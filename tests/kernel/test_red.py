"""RED as lakshman 2.2 uses it: a drop probability per buffer occupancy, exponential from RED_one
(one cell) to RED_full (full), tested on every cell or on a frame's first cell (whole frames)."""
import math

import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.kernel.policies import red_decision, red_probability
from atmtcp.kernel.rng import random_unit
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

from test_invariants import check_invariants

NORMAL, DISCARD_ALL = L.PV_NORMAL, L.PV_DISCARD_ALL


def decide(state, X, K, u, probability, frames, bom, eom, at_front=False):
    """red_decision with a flat table of ``probability`` (slope 0)."""
    return red_decision(state, X, K, u, math.log(probability) if probability > 0 else -1e300, 0.0,
                        frames, at_front, bom, eom)


def slope(one, full, K):
    return (math.log(full) - math.log(one)) / (K - 1)


def test_probability_table_is_exponential_from_red_one_to_red_full():
    """lakshman 2.2 and 5: exponential in the occupancy, RED_one at one cell, RED_full at K."""
    one, full, K = 1e-12, 1.0, 1000
    p = [red_probability(x, K, math.log(one), slope(one, full, K)) for x in range(K + 1)]
    assert p[0] == 0.0
    assert p[1] == pytest.approx(one)
    assert p[K] == pytest.approx(full)
    ratios = np.array(p[2:]) / np.array(p[1:-1])
    np.testing.assert_allclose(ratios, ratios[0])  # a constant factor per cell: exponential
    assert ratios[0] > 1


def test_cell_level_tests_every_cell_without_frame_drop():
    """Cell level: every cell is tested; a drop never puts the VC on a drop-list."""
    for bom, eom in ((True, False), (False, False), (False, True)):
        assert decide(NORMAL, 10, 100, 0.01, 0.5, False, bom, eom) == (L.DROP_THRESHOLD, NORMAL)
        assert decide(NORMAL, 10, 100, 0.99, 0.5, False, bom, eom) == (L.ACCEPT, NORMAL)
    assert decide(NORMAL, 100, 100, 0.99, 0.0, False, False, False) == (L.DROP_OVERFLOW, NORMAL)


def test_frame_level_drops_whole_frames():
    """Frame level: only a first cell is tested; a dropped first cell drops the rest of its frame, the
    EOM included, and the next frame is tested afresh."""
    assert decide(NORMAL, 10, 100, 0.01, 0.5, True, False, False) == (L.ACCEPT, NORMAL)
    assert decide(NORMAL, 10, 100, 0.01, 0.5, True, True, False) == (L.DROP_THRESHOLD, DISCARD_ALL)
    assert decide(DISCARD_ALL, 0, 100, 0.99, 0.0, True, False, False) == (L.DROP_PARTIAL, DISCARD_ALL)
    assert decide(DISCARD_ALL, 0, 100, 0.99, 0.0, True, False, True) == (L.DROP_PARTIAL, NORMAL)
    assert decide(NORMAL, 10, 100, 0.01, 0.5, True, True, True) == (L.DROP_THRESHOLD, NORMAL)


def test_unit_draws_are_uniform_and_fine():
    """The run's stream gives floats in [0, 1) with 53 bits: mean 1/2, and values below 1e-6 occur
    at their rate (RED probabilities reach 1e-12)."""
    compiled = compile_run(n_source_run(2, 1e-6, m.PortConfig(100), m.TcpConfig(), 0.01, contention="deterministic"))
    draws = np.array([random_unit(compiled.kernel_state) for _ in range(200_000)])
    assert draws.min() >= 0 and draws.max() < 1
    assert abs(draws.mean() - 0.5) < 0.005
    assert len(np.unique(draws)) == draws.size


def red_run(frames: bool, seed: int = 0, one=1e-4, full=1.0):
    port = m.PortConfig(500, m.DropPolicy("red", red_one=one, red_full=full, red_frames=frames), slotted=True)
    return n_source_run(4, 1e-3, port, m.TcpConfig("reno"), 1.0, seed=seed, start_jitter_s=1e-3,
                        trace=m.TraceConfig(ports=(BOTTLENECK,)), contention="deterministic")


@pytest.mark.parametrize("frames", [False, True])
def test_invariants_hold_with_red(frames):
    """Cell conservation and TCP's accounting hold; RED drops early, before the buffer fills."""
    run = red_run(frames)
    ds = atmtcp.simulate(run)
    drops = ds.cells_dropped.sel(port=BOTTLENECK)
    assert int(drops.sel(drop_reason="threshold")) > 0
    assert int(ds.max_queue.sel(port=BOTTLENECK)) <= 500
    check_invariants(run, ds, "red_frames" if frames else "red", 500)


def test_frame_level_red_sends_no_damaged_frame():
    """Frame-level RED with no overflow: every dropped frame is dropped whole, so no receiver sees a
    bad frame; cell-level RED damages frames."""
    frames = atmtcp.simulate(red_run(True, one=1e-3))
    cells = atmtcp.simulate(red_run(False, one=1e-3))
    assert int(frames.cells_dropped.sel(port=BOTTLENECK, drop_reason="overflow")) == 0
    assert int(frames.frames_bad.sum()) == 0
    assert int(cells.frames_bad.sum()) > 0


def test_red_draws_depend_on_the_seed_only():
    """Same seed, same run; another seed, another sequence of drops."""
    a, b, c = (atmtcp.simulate(red_run(False, seed=s)) for s in (1, 1, 2))
    np.testing.assert_array_equal(a.drop_time.values, b.drop_time.values)
    assert not np.array_equal(a.drop_time.values, c.drop_time.values)


@pytest.mark.parametrize("kwargs,field", [
    ({"red_one": 0.0}, "red_one"), ({"red_one": 1e-3, "red_full": 1e-4}, "red_full"),
    ({"red_full": 2.0}, "red_full"),
])
def test_red_parameters_validated(kwargs, field):
    with pytest.raises(m.ModelError, match=field):
        m.DropPolicy("red", **kwargs)


@pytest.mark.parametrize("frames", [False, True])
def test_red_at_the_front(frames):
    """lakshman 5 (Fig. 13): RED applied at the front drops the cell (or frame) at the front instead of
    the arriving one: early drops happen, the invariants hold, and the drops differ from RED at the tail."""
    front = "frame" if frames else "cell"
    port = m.PortConfig(500, m.DropPolicy("red", red_one=1e-3, red_frames=frames), slotted=True,
                        drop_from_front=front)
    run = n_source_run(4, 1e-3, port, m.TcpConfig("reno"), 1.0, start_jitter_s=1e-3,
                       trace=m.TraceConfig(ports=(BOTTLENECK,)), contention="deterministic")
    ds = atmtcp.simulate(run)
    assert int(ds.cells_dropped.sel(port=BOTTLENECK, drop_reason="threshold")) > 0
    check_invariants(run, ds, "red_frames" if frames else "red", 500)
    tail = atmtcp.simulate(red_run(frames, one=1e-3))
    assert not np.array_equal(ds.drop_time.values, tail.drop_time.values)
    with pytest.raises(m.ModelError, match="drop_from_front"):
        m.PortConfig(500, m.DropPolicy("red", red_frames=frames), drop_from_front="cell" if frames else "frame")
