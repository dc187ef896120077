"""The pools' free lists (``G_CELL_FRESH``, ``G_PKT_FRESH`` in :mod:`atmtcp.kernel.layout`): a fresh pool is
not chained; the kernel hands its records out in the order of a pool chained 0 -> 1 -> 2 ... (the freed
records first, the last freed first), so a run is the same as with a chained pool, and it writes only the
rows it uses."""
import importlib

import numpy as np
import pytest

from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.topologies import n_source_run

simulate_module = importlib.import_module("atmtcp.simulate")  # atmtcp.simulate is the function

POOLS = (("cell", L.CELL_NEXT, L.G_CELL_FRESH), ("pkt", L.PKT_NEXT_FREE, L.G_PKT_FRESH))
RUNS = {
    "lan epd slotted, reno": n_source_run(5, 5e-6, m.PortConfig(1000, m.DropPolicy("epd")), m.TcpConfig("reno"), 0.3,
                                          contention="slotted"),
    "wan selective drop, sack": n_source_run(5, 5e-3, m.PortConfig(12000, m.DropPolicy("selective_drop")),
                                             m.TcpConfig("sack"), 0.5, contention="deterministic"),
}


def chained(run, growth=None):
    """compile_run, then every pool chained by hand, row i to i + 1, and marked as all handed out."""
    compiled = compile_run(run, growth)
    for name, column, fresh in POOLS:
        pool = getattr(compiled.state, name)
        pool[:, column] = np.arange(1, pool.shape[0] + 1)
        compiled.state.g[fresh] = pool.shape[0]
    return compiled


@pytest.mark.parametrize("name", RUNS)
def test_an_unchained_pool_gives_the_run_of_a_chained_one(name, monkeypatch):
    run = RUNS[name]
    lazy = simulate_module.run_kernel(run)
    monkeypatch.setattr(simulate_module, "compile_run", chained)
    eager = simulate_module.run_kernel(run)
    assert int(lazy.state.g[L.G_EVENTS]) == int(eager.state.g[L.G_EVENTS]) > 0
    assert simulate_module.to_dataset(run, lazy).identical(simulate_module.to_dataset(run, eager))
    for name, column, fresh in POOLS:
        pool, used = getattr(lazy.state, name), int(lazy.state.g[fresh])
        assert 0 < used < pool.shape[0], name
        assert not pool[used:].any(), f"the {name} pool's rows past the ones it handed out were written"
        others = [c for c in range(pool.shape[1]) if c != column]
        np.testing.assert_array_equal(pool[:, others], getattr(eager.state, name)[:, others])
        np.testing.assert_array_equal(pool[:used, column], getattr(eager.state, name)[:used, column])
