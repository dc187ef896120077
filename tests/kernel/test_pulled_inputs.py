"""Slotted ports that pull their input channels at their slot ends (:func:`atmtcp.kernel.held_ports.pull_arrivals`):
a run gives the Dataset of the same run in which no port pulls (``P_PULL_HEAD`` cleared, so every arrival comes by
an event of its own), in fewer events; with the port falling idle often (each fall puts the channels' heads back in
the heap), with randomized tail drop and with drop from front, and with a pending list grown while the run is paused.
A channel with delay variation is never pulled."""
import dataclasses
import importlib

import pytest

from atmtcp import model as m
from atmtcp.compile import Growth, compile_run
from atmtcp.kernel import layout as L
from atmtcp.topologies import N_SOURCE_BOTTLENECK, n_source_run

simulate_module = importlib.import_module("atmtcp.simulate")  # atmtcp.simulate is the function

EPD = m.PortConfig(1000, m.DropPolicy("epd"))
RUNS = {
    "lan epd, reno": n_source_run(5, 5e-6, EPD, m.TcpConfig("reno"), 0.3, contention="slotted"),
    "two sources, small windows (the port falls idle often)": n_source_run(
        2, 5e-6, EPD, m.TcpConfig("reno", rcv_wnd=8 * 1024, mss=1024), 0.3, contention="slotted"),
    "slotted, randomized tail drop": n_source_run(
        5, 5e-6, m.PortConfig(300, m.DropPolicy("tail")), m.TcpConfig("vanilla"), 0.3, seed=3,
        contention="slotted_randomized_tail"),
    "frame-front, jittered starts": n_source_run(
        5, 5e-6, m.PortConfig(300, m.DropPolicy("tail"), drop_from_front="frame", slotted=True),
        m.TcpConfig("reno"), 0.3, seed=1, start_jitter_s=1e-3, contention="deterministic"),
}


def without_pulling(run, growth=None):
    """compile_run, then no port pulls its inputs."""
    compiled = compile_run(run, growth)
    compiled.state.port[:, L.P_PULL_HEAD] = 0
    return compiled


def pulls(compiled) -> bool:
    """Whether the run's bottleneck port pulls its inputs."""
    return bool(compiled.state.port[compiled.port_names.index(N_SOURCE_BOTTLENECK), L.P_PULL_HEAD])


def results(run, compiled):
    """The run's Dataset without its count of events, which the pull changes."""
    return simulate_module.to_dataset(run, compiled).drop_vars("events")


@pytest.mark.parametrize("name", RUNS)
def test_pulled_inputs_give_the_run_of_arrival_events(name, monkeypatch):
    run = RUNS[name]
    pulled = simulate_module.run_kernel(run)
    assert pulls(pulled)
    monkeypatch.setattr(simulate_module, "compile_run", without_pulling)
    by_events = simulate_module.run_kernel(run)
    assert not pulls(by_events)
    assert int(pulled.state.g[L.G_EVENTS]) < int(by_events.state.g[L.G_EVENTS])
    assert results(run, pulled).identical(results(run, by_events))
    assert int(pulled.state.port[:, L.P_CELLS_OUT].sum()) > 0


def test_a_pending_list_grown_in_a_paused_run_keeps_the_run():
    run = RUNS["lan epd, reno"]
    small = Growth(pending={N_SOURCE_BOTTLENECK: 0.01})
    grown = simulate_module.run_kernel(run, small)
    assert grown.growth.pending[N_SOURCE_BOTTLENECK] > 0.01  # the run stopped, and its list grew, at least once
    assert results(run, grown).identical(results(run, simulate_module.run_kernel(run)))


def test_a_port_with_more_inputs_than_its_margin_pulls_none():
    run = n_source_run(20, 5e-6, EPD, m.TcpConfig("reno"), 0.01, contention="slotted")
    assert not pulls(compile_run(run))
    fewer = dataclasses.replace(run, connections=run.connections[:5])
    assert pulls(compile_run(fewer))


def test_a_channel_with_delay_variation_is_never_pulled():
    compiled = compile_run(n_source_run(5, 5e-6, EPD, m.TcpConfig("reno"), 0.01, contention="all"))
    into = compiled.state.chan[:, L.CH_DST_PORT] == compiled.port_names.index(N_SOURCE_BOTTLENECK)
    assert (compiled.state.chan[into, L.CH_CDV_NS] > 0).all()
    assert not pulls(compiled)
