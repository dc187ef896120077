"""The run cache (atmtcp.run_cache): a run two experiments build alike is simulated once, and reading it
gives exactly the Dataset a simulation gives."""
from __future__ import annotations

import sys

import pytest
import xarray as xr

from atmtcp import model as m
from atmtcp import run_cache
from atmtcp.simulate import simulate
from atmtcp.topologies import n_source_run

simulate_module = sys.modules["atmtcp.simulate"]


def _run(seed: int = 1) -> m.Run:
    return n_source_run(3, 5e-6, m.PortConfig(300, m.DropPolicy("epd")), m.TcpConfig("reno"), 0.05, seed=seed,
                        start_jitter_s=1e-3)


@pytest.fixture
def cache(tmp_path):
    run_cache.use(tmp_path / ".runs")
    yield tmp_path / ".runs"
    run_cache.use(None)


def test_an_equal_run_is_read_not_simulated(cache, monkeypatch):
    first = simulate(_run())
    assert len(list(cache.rglob("*.pkl.z"))) == 1

    def fail(run):
        raise AssertionError("simulated again")
    monkeypatch.setattr(simulate_module, "run_kernel", fail)
    again = simulate(_run())  # built anew: an equal run, not the same object
    xr.testing.assert_identical(again, first)
    assert all(again[name].dtype == first[name].dtype for name in first.variables)


def test_the_read_dataset_is_the_simulated_one(cache):
    run_cache.use(None)
    fresh = simulate(_run())
    run_cache.use(cache)
    simulate(_run())
    xr.testing.assert_identical(simulate(_run()), fresh)


def test_another_seed_is_another_run(cache):
    simulate(_run(1))
    simulate(_run(2))
    assert len(list(cache.rglob("*.pkl.z"))) == 2


def test_a_traced_run_is_not_kept(cache):
    traced = _run()
    traced = type(traced)(**{**traced.__dict__, "trace": m.TraceConfig(connections=(0,))})
    simulate(traced)
    assert not list(cache.rglob("*.pkl.z"))


def test_nothing_is_kept_outside_an_experiment(tmp_path):
    run_cache.use(None)
    simulate(_run())
    assert not list(tmp_path.rglob("*.pkl.z"))


def test_runs_of_other_sources_are_removed(tmp_path):
    stale = tmp_path / ".runs" / "0123456789abcdef"
    stale.mkdir(parents=True)
    (stale / "x.pkl").write_bytes(b"")
    run_cache.use(tmp_path / ".runs")
    try:
        assert not stale.exists()
        assert (tmp_path / ".runs" / run_cache.sources_hash()).name != stale.name
    finally:
        run_cache.use(None)


def test_the_shared_lakshman_runs_have_one_key(monkeypatch):
    """lakshman.buffer_study's headline and lakshman.tcp_sensitivity's 4.4BSD rows are Fig. 2's own runs:
    the sharing this cache exists for."""
    from atmtcp.experiments import EXPERIMENTS

    keys = {}

    class Built(Exception):
        pass

    def record(run):
        keys.setdefault(current, run_cache.run_key(run))
        raise Built
    monkeypatch.setattr(simulate_module, "run_kernel", record)
    run_cache.use(None)
    points = {
        "lakshman.fig2": {"discipline": "frame_front", "buffer": 2304, "seed": 2},
        "lakshman.buffer_study": {"reading": "headline", "case": "lakshman.fig2", "discipline": "frame_front",
                                  "buffer": 2304, "seed": 2},
        "lakshman.tcp_sensitivity": {"tcp": "4.4BSD-Lite (headline)", "case": "lakshman.fig2",
                                     "discipline": "frame_front", "buffer": 2304, "seed": 2},
    }
    for current, point in points.items():
        assert point in EXPERIMENTS[current].points(False)
        with pytest.raises(Built):
            EXPERIMENTS[current].run_point(point, False)
    assert len(set(keys.values())) == 1 and None not in keys.values()
