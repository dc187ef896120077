"""Determinism: a run is a pure function of its description (seed included)."""
import numpy as np

import atmtcp
from atmtcp import model as m
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run, start_times


def jittered_run(seed):
    return n_source_run(5, 5e-6, m.PortConfig(1000, m.DropPolicy("selective_drop")), m.TcpConfig("sack"), 0.5,
                        seed=seed, start_jitter_s=2e-3,
                        trace=m.TraceConfig(connections=(0, 3), ports=(BOTTLENECK,)), contention="deterministic")


def test_same_run_twice_is_identical():
    """Reproducibility: the same Run (jittered starts, traces, drops) gives identical Datasets, attributes included."""
    run = jittered_run(7)
    ds1 = atmtcp.simulate(run)
    ds2 = atmtcp.simulate(run)
    assert int(ds1.cells_dropped.sum()) > 0 and ds1.trace_time.size > 0 and ds1.drop_time.size > 0
    assert ds1.identical(ds2)
    assert ds1.attrs == ds2.attrs


def test_rebuilt_run_is_identical():
    """Reproducibility: a Run rebuilt from the same parameters and seed gives an identical Dataset."""
    assert atmtcp.simulate(jittered_run(11)).identical(atmtcp.simulate(jittered_run(11)))


def test_seed_draws_start_times():
    """goyal1998 3.1 starts all sources at t = 0; with jitter the seed alone determines the start times."""
    assert start_times(5, 0.0, 1) == [0.0] * 5
    a, b = start_times(5, 2e-3, 1), start_times(5, 2e-3, 2)
    assert a == start_times(5, 2e-3, 1)
    assert a != b
    assert all(0.0 <= x < 2e-3 for x in a + b)


def test_different_seeds_give_different_results():
    """Reproducibility: different seeds with start jitter give different start times and different results."""
    ds1 = atmtcp.simulate(jittered_run(1))
    ds2 = atmtcp.simulate(jittered_run(2))
    assert not ds1.identical(ds2)
    assert not np.array_equal(ds1.delivered_bytes.values, ds2.delivered_bytes.values)
    assert not np.array_equal(ds1.trace_time.values, ds2.trace_time.values)


DIGEST = """
import hashlib, sys
sys.path.insert(0, {tests!r})
import atmtcp
from test_determinism import jittered_run
ds = atmtcp.simulate(jittered_run(7))
h = hashlib.sha256()
for name in sorted(ds.variables):
    h.update(name.encode())
    h.update(ds[name].values.tobytes() if ds[name].dtype.kind != "O" else repr(ds[name].values.tolist()).encode())
print(h.hexdigest())
"""


def test_identical_across_processes_and_hash_seeds():
    """Reproducibility: a fresh interpreter with another PYTHONHASHSEED computes the same Dataset, bit for bit."""
    import os
    import subprocess
    import sys
    tests = os.path.dirname(os.path.abspath(__file__))
    code = DIGEST.format(tests=tests)
    digests = set()
    for hash_seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip().splitlines()[-1])
    assert len(digests) == 1


def test_growing_one_resource_at_a_time_gives_the_same_result(monkeypatch):
    """Pools that start far too small grow (x4, the one that ran low, in the paused run) until
    the run fits, and the result is bit-identical to one that never had to grow."""
    import importlib

    from atmtcp.compile import Growth
    from atmtcp.papers.goyal1998.scenario import goyal_run
    from atmtcp.simulate import counters, run_kernel
    simulate_module = importlib.import_module("atmtcp.simulate")  # atmtcp.simulate is the function

    run = goyal_run("wan", 5, None, "ubr", "reno", 0, quick=True, duration_s=0.3, assumption="deterministic")
    reference = counters(run, run_kernel(run))
    grown = []
    original = simulate_module.make_headroom
    monkeypatch.setattr(simulate_module, "make_headroom", lambda c: grown.extend(original(c)) or grown)
    small = counters(run, run_kernel(run, Growth(cells=1 / 256, packets=1 / 256)))
    assert "cells" in grown and "packets" in grown, grown
    for name, counter in reference.items():
        np.testing.assert_array_equal(np.asarray(small[name].values), np.asarray(counter.values), err_msg=name)
