"""Growth of a full resource in a paused run ("Grow what fills, not everything, and not by
starting over"): a run whose tables start tiny stops between events, grows what ran low in
place and continues; its result is bit-identical to a run that never had to grow, and it is
never restarted from t = 0."""
import importlib

import pytest

from atmtcp import model as m
from atmtcp.compile import Growth, compile_run
from atmtcp.kernel import layout as L
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

simulate_module = importlib.import_module("atmtcp.simulate")  # atmtcp.simulate is the function

TRACE = m.TraceConfig(connections=(0, 1), ports=(BOTTLENECK,))
RUNS = {
    # infinite slotted buffers (the default contention): a SLOT_ENDS port keeps no ring, and its pending list
    # holds one slot's arrivals; the pools and the heap grow (a pending list that grows: test_pulled_inputs.py)
    "lan infinite slotted": (n_source_run(5, 5e-6, m.PortConfig(None, slotted=True), m.TcpConfig("reno"), 0.2,
                                          trace=TRACE, contention="deterministic"), {"cells", "packets", "heap"}),
    # infinite lazy FIFO (goyal1998 Table 3, WAN): cells wait on the channels, the cell pool grows
    "wan infinite": (n_source_run(5, 5e-3, m.PortConfig(None), m.TcpConfig("reno", rcv_wnd=600000), 0.3, contention="deterministic"),
                     {"cells", "packets", "heap"}),
    # Selective Drop keeps a ring per lazy port; SACK's recovery bursts are the largest events
    "lan selective drop infinite, sack": (
        n_source_run(5, 5e-6, m.PortConfig(None, m.DropPolicy("selective_drop", threshold=2000)),
                     m.TcpConfig("sack"), 0.2, contention="deterministic"), {"ring SW1->SW2"}),
    # a finite slotted buffer with losses: only the pools and the heap grow
    "lan slotted 1000, sack": (n_source_run(10, 5e-6, m.PortConfig(1000, slotted=True), m.TcpConfig("sack"), 0.3,
                                            seed=3, start_jitter_s=1e-3, trace=TRACE, contention="deterministic"),
                               {"cells", "packets", "heap"}),
}


def tiny(run: m.Run, fraction: float = 1 / 4096) -> Growth:
    """Initial sizes a fraction of the usual ones (plus one event's margin, which compile_run adds)."""
    names = compile_run(run).port_names
    return Growth(fraction, fraction, fraction, dict.fromkeys(names, fraction), dict.fromkeys(names, fraction))


@pytest.mark.parametrize("name", RUNS)
def test_tiny_tables_grow_in_place_to_the_same_result(name, monkeypatch):
    """Each growth happens in the paused state (one compile, several kernel calls), the events
    add up to those of an ample run, and the Dataset is identical to that run's."""
    run, expected = RUNS[name]
    reference = simulate_module.simulate(run)
    compiles, kernel_calls, grown = [], [], []
    compile_original, kernel_original = simulate_module.compile_run, simulate_module.kernel_entry()
    headroom_original = simulate_module.make_headroom
    monkeypatch.setattr(simulate_module, "compile_run", lambda *a: compiles.append(1) or compile_original(*a))
    monkeypatch.setattr(simulate_module, "kernel_entry", lambda: lambda s: kernel_calls.append(1) or kernel_original(s))
    monkeypatch.setattr(simulate_module, "make_headroom", lambda c: grown.extend(headroom_original(c)) or grown)
    compiled = simulate_module.run_kernel(run, tiny(run))
    assert len(compiles) == 1 and len(kernel_calls) > 1
    assert expected <= set(grown), grown
    assert int(compiled.state.g[L.G_EVENTS]) == int(reference.events)
    assert simulate_module.to_dataset(run, compiled).identical(reference)


def test_a_full_resource_is_an_error_not_a_growth(monkeypatch):
    """A *_FULL status means an event outgrew its margin (a bug): run_kernel reports it, it does
    not grow and retry. Here the cell pool has no reserve and ten free records."""
    def without_reserve(run, growth=None):
        compiled = compile_run(run, growth)
        g, rows = compiled.state.g, compiled.state.cell.shape[0]
        g[L.G_CELL_RESERVE] = rows  # no reserve: only the end of the list stops it
        g[L.G_CELL_FREE] = rows - 10
        return compiled
    monkeypatch.setattr(simulate_module, "compile_run", without_reserve)
    with pytest.raises(simulate_module.KernelError, match="cell pool full"):
        simulate_module.run_kernel(RUNS["wan infinite"][0])


def test_steps_needed():
    """x4 steps until one event's margin is free."""
    from atmtcp.grow import steps_needed
    assert steps_needed(100, 50, 10) == 0
    assert steps_needed(100, 5, 10) == 1
    assert steps_needed(4, 0, 100) == 3  # 4 -> 16 -> 64 -> 256: 252 free
