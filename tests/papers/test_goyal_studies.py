"""goyal1998's studies (issue 22): the transmission-fate count on hand-built traces and on a short run,
FBA's two readings in the compiled port, and the analytic PIPE stall."""
from __future__ import annotations

import importlib

import numpy as np
import xarray as xr

import atmtcp
from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.papers.goyal1998 import studies
from atmtcp.papers.goyal1998.experiments import pipe_stall_from
from atmtcp.papers.goyal1998.scenario import BOTTLENECK, goyal_run

MSS = 512


def _traces(records, drops, queue):
    """A dataset as :func:`atmtcp.simulate` returns it, from (time, source, kind, value) records,
    (time, source, seq) data-cell drops at the bottleneck and (time, cells) queue samples."""
    t, src, kind, value = zip(*records)
    dt, dsrc, dseq = zip(*drops) if drops else ((), (), ())
    qt, qv = zip(*queue)
    return xr.Dataset({
        "trace_time": ("record", np.array(t, float)), "trace_source": ("record", np.array(src)),
        "trace_kind": ("record", np.array(kind)), "trace_value": ("record", np.array(value)),
        "drop_time": ("drop", np.array(dt, float)), "drop_source": ("drop", np.array(dsrc, int)),
        "drop_seq": ("drop", np.array(dseq, int)), "drop_port": ("drop", np.array([BOTTLENECK] * len(dt))),
        "drop_is_ack": ("drop", np.zeros(len(dt), int)),
        "queue_cells": (("sample_time", "traced_port"), np.array(qv, float)[:, None]),
    }, coords={"sample_time": np.array(qt, float), "traced_port": [BOTTLENECK]})


def test_transmission_fates_by_hand():
    """Source 0 sends 0, 512, 1024; 512 is lost (two of its cells dropped), comes back by a fast retransmit
    (recovery), is lost again, and is resent after a timeout. Source 1 sends 0 twice, the second after a
    timeout. The queue is 900 cells from t = 0.15 s on, 100 before; R = 800."""
    records = [(0.10, 0, "seq_sent", 0), (0.11, 0, "seq_sent", 512), (0.12, 0, "seq_sent", 1024),
               (0.20, 0, "fast_retransmit", 512), (0.20, 0, "seq_sent", 512),
               (0.50, 0, "timeout", 512), (0.50, 0, "seq_sent", 512),
               (0.10, 1, "seq_sent", 0), (0.40, 1, "timeout", 0), (0.40, 1, "seq_sent", 0)]
    drops = [(0.111, 0, 512), (0.112, 0, 512), (0.21, 0, 512)]
    out = studies.transmission_fates(_traces(records, drops, [(0.0, 100), (0.15, 900)]), BOTTLENECK, 800)
    assert out["first_sent"] == 4 and out["first_dropped"] == 1
    assert out["after_fast_retransmit_sent"] == 1 and out["after_fast_retransmit_dropped"] == 1
    assert out["after_timeout_sent"] == 2 and out["after_timeout_dropped"] == 0
    assert out["first_at_threshold"] == 0.0
    assert out["after_fast_retransmit_at_threshold"] == 1.0 and out["after_timeout_at_threshold"] == 1.0


def test_transmission_fates_of_a_run_account_for_every_send_and_drop():
    """A LAN SACK run with EPD: the fates add up to the traced sends; every dropped transmission is one
    that was sent, and the distinct dropped segments are at most the drop log's (a packet can lose several
    cells)."""
    ds = studies.mechanism_run({"sources": 5, "buffer_factor": 1, "policy": "epd", "reading": "SACK (5.4.1)",
                                "seed": 0}, quick=True)
    sent = sum(float(ds[f"{f}_sent"]) for f in studies.FATES)
    assert sent > 1000 and float(ds.first_dropped) > 0
    for f in studies.FATES:
        assert 0 <= float(ds[f"{f}_dropped"]) <= float(ds[f"{f}_sent"])
    assert int(ds.threshold_cells) == 800


def test_fba_readings_reach_the_compiled_port():
    """"Na = VCs routed" gives Selective Drop and FBA the 5 data VCs routed through the bottleneck; 4.2's
    reading (the default) counts the buffered VCs (the port's column 0). "timer phase per host" gives the
    connections distinct phases within one tick, drawn from the seed."""
    run = goyal_run("lan", 5, 1000, "fba", "vanilla", 3, quick=True)
    port = compile_run(run).port_names.index(BOTTLENECK)
    assert compile_run(run).state.port[port, L.P_ROUTED_VCS] == 0
    routed = studies.with_active_vcs(run, "routed")
    assert compile_run(routed).state.port[port, L.P_ROUTED_VCS] == 5
    phased = studies.with_tick_phases(run, 3, studies.TICK_PHASE_STREAM)
    phases = [c.tcp.tick_phase_s for c in phased.connections]
    assert len(set(phases)) == 5 and all(0 <= p < 0.1 for p in phases)
    assert phases == [c.tcp.tick_phase_s for c in studies.with_tick_phases(run, 3, studies.TICK_PHASE_STREAM).connections]


def test_routed_vcs_change_fba_but_not_epd(monkeypatch):
    """Only the policies that read Na (Selective Drop, FBA) see the routed count: they alone have the
    parameter, and EPD's port decides as before with the routed count written into its column."""
    run = goyal_run("lan", 5, 1000, "fba", "vanilla", 1, quick=True, duration_s=3.0)
    a = atmtcp.simulate(run).goodput_bps.values
    b = atmtcp.simulate(studies.with_active_vcs(run, "routed")).goodput_bps.values
    assert not np.array_equal(a, b)
    assert m.policies_with("active_vcs") == ("selective_drop", "fba")
    run = goyal_run("lan", 5, 1000, "epd", "vanilla", 1, quick=True, duration_s=3.0)
    simulation = importlib.import_module("atmtcp.simulate")  # its run_kernel: no run cache in the way
    a = simulation.counters(run, simulation.run_kernel(run))["goodput_bps"].values
    compile_buffered, routed = simulation.compile_run, []

    def compile_routed(run, growth=None):
        compiled = compile_buffered(run, growth)
        port = compiled.state.port
        routed.append(port[:, L.P_POLICY] == L.EPD)
        port[routed[-1], L.P_ROUTED_VCS] = 5  # what "routed" writes for Selective Drop
        return compiled
    monkeypatch.setattr(simulation, "compile_run", compile_routed)
    assert np.array_equal(a, simulation.counters(run, simulation.run_kernel(run))["goodput_bps"].values)
    assert routed and routed[0].any()


def test_pipe_stall_from_counts_5_4_1_by_hand():
    """W = 128, CWND = 64 after halving: from 5.4.2's start PIPE is `lost` after the duplicate ACKs and
    `lost - 2` after the partial ACK, at or above 64 from lost = 66; 5.4.1's start is four higher (62)."""
    assert pipe_stall_from(128, "cwnd-3") == 66
    assert pipe_stall_from(128, "cwnd") == 62
    assert pipe_stall_from(64, "cwnd-3") == 34
