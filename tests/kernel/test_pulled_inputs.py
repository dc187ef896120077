"""Slotted ports that pull their input channels at their slot ends (:func:`atmtcp.kernel.held_ports.pull_arrivals`),
against the same run in which no port pulls (``P_PULL_HEAD`` cleared, so every arrival comes by an event of its own):
fewer events; for a held port (randomized tail drop, drop from front) the identical Dataset; for a SLOT_ENDS port
the same distribution over seeds, also with the port falling idle often; and a pending list grown while the run is
paused. A channel with delay variation is never pulled."""
import dataclasses
import importlib

import numpy as np
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
    compiled.state.chan[:, L.CH_PARKED] = L.CH_FREE  # a SLOT_ENDS port's inputs are parked from the start
    return compiled


def pulls(compiled) -> bool:
    """Whether the run's bottleneck port pulls its inputs."""
    return bool(compiled.state.port[compiled.port_names.index(N_SOURCE_BOTTLENECK), L.P_PULL_HEAD])


def results(run, compiled):
    """The run's Dataset without its count of events, which the pull changes."""
    return simulate_module.to_dataset(run, compiled).drop_vars("events")


HELD = ("slotted, randomized tail drop", "frame-front, jittered starts")
"""The runs whose bottleneck is a held slotted port (``HELD_CELLS``); the others' is ``SLOT_ENDS``."""


def both_ways(run, monkeypatch):
    """The run with its ports pulling their inputs, then with every arrival by an event."""
    pulled = simulate_module.run_kernel(run)
    with monkeypatch.context() as patch:
        patch.setattr(simulate_module, "compile_run", without_pulling)
        by_events = simulate_module.run_kernel(run)
    assert pulls(pulled) and not pulls(by_events)
    return pulled, by_events


@pytest.mark.parametrize("name", RUNS)
def test_pulled_inputs_take_fewer_events(name, monkeypatch):
    pulled, by_events = both_ways(RUNS[name], monkeypatch)
    p = pulled.port_names.index(N_SOURCE_BOTTLENECK)
    assert pulled.state.port[p, L.P_HELD] == (L.HELD_CELLS if name in HELD else L.SLOT_ENDS)
    assert int(pulled.state.g[L.G_EVENTS]) < int(by_events.state.g[L.G_EVENTS])
    assert int(pulled.state.port[:, L.P_CELLS_OUT].sum()) > 0


@pytest.mark.parametrize("name", HELD)
def test_a_held_port_pulling_gives_the_run_of_arrival_events(name, monkeypatch):
    """A held port's pull keeps every event's key: the Dataset is identical."""
    run = RUNS[name]
    pulled, by_events = both_ways(run, monkeypatch)
    assert results(run, pulled).identical(results(run, by_events))


@pytest.mark.parametrize("name", [name for name in RUNS if name not in HELD])
def test_a_slot_ends_port_pulling_gives_the_runs_of_arrival_events_in_distribution(name, monkeypatch):
    """A SLOT_ENDS port schedules its slot ends at other moments when it pulls (one event per slot with
    arrivals) than when each arrival comes by an event, so the sequence numbers of later events, and with
    them the order of events of the same nanosecond, differ: the runs are not identical, but the same cells
    reach the same slot ends. Over 30 seeds, the mean goodput of one way lies within three standard errors
    of the other's (with windows too small to fill the buffer, every seed gives the same goodput)."""
    goodputs = {True: [], False: []}
    for seed in range(30):
        run = dataclasses.replace(RUNS[name], seed=seed)
        for compiled, way in zip(both_ways(run, monkeypatch), (True, False)):
            goodputs[way].append(float(results(run, compiled)["goodput_bps"].sum()))
    a, b = np.array(goodputs[True]), np.array(goodputs[False])
    error = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert abs(a.mean() - b.mean()) <= 3 * error, (a.mean(), b.mean(), error)


def test_a_pending_list_grown_in_a_paused_run_keeps_the_run():
    """A port that pulls holds at most one slot's arrivals; one with more inputs than its margin (20 sources)
    receives each by an event, and its pending list grows where a slot brings many."""
    run = n_source_run(20, 5e-6, EPD, m.TcpConfig("reno"), 0.1, contention="slotted")
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
