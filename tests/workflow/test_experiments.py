"""The experiments layer: grids, assembly into Datasets, derived targets, atomic writes, CLI."""
import math
import subprocess
import sys

import numpy as np
import pytest
import xarray as xr

from atmtcp import model as m
from atmtcp.experiments import EXPERIMENTS
from atmtcp.experiment import grid
from atmtcp.papers.goyal1998.scenario import JITTER_S, NETWORKS, goyal_run, policy_config
from atmtcp.papers.goyal1998.experiments import SACK_BOUND_WINDOW, sack_bound, sack_bound_points, sack_bound_rtts
from atmtcp.runner import assemble, build_dataset, load_results, result_path, run_experiment, write_atomically

GOYAL_TARGETS = [  # every goyal id of the papers' tables and figures
    "goyal1998.table1", "goyal1998.table2", "goyal1998.table3", "goyal1998.table4", "goyal1998.table5",
    "goyal1998.table6", "goyal1998.table7", "goyal1998.table8", "goyal1998.table9",
    "goyal1998.fba_factorial", "goyal1998.sd_z_sweep", "goyal1998.many_sources", "goyal1998.fig2",
    "goyal1998.fig5", "goyal1998.fig6", "goyal1998.fig7", "goyal1998.sack_bound",
    "goyal1997.satellite_efficiency", "goyal1997.satellite_fairness", "goyal1997.cwnd_integer_stall",
]


def test_every_target_has_an_experiment():
    """Each goyal target id of the papers' tables and figures is an experiment of the same name."""
    assert set(GOYAL_TARGETS) <= set(EXPERIMENTS)


def test_grid_is_the_full_factorial_first_axis_slowest():
    """grid() enumerates the product of its axes in order."""
    assert grid(a=[1, 2], b=["x", "y"]) == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"},
                                            {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]


def test_assemble_sparse_grid_keeps_axis_order_and_fills_nan():
    """Points become dimensions in first-seen order; cells not run are NaN."""
    points = [{"network": "wan", "buffer": 12000}, {"network": "lan", "buffer": 1000}]
    results = [xr.Dataset({"efficiency": 0.5}), xr.Dataset({"efficiency": 0.7})]
    ds = assemble(points, results)
    assert list(ds.network.values) == ["wan", "lan"]
    assert list(ds.buffer.values) == [12000, 1000]
    assert float(ds.efficiency.sel(network="lan", buffer=1000)) == 0.7
    assert math.isnan(float(ds.efficiency.sel(network="lan", buffer=12000)))


def test_assemble_single_axis_and_unequal_lengths():
    """One axis works, and per-point arrays of different length are padded."""
    points = [{"n": 2.0}, {"n": 4.0}]
    results = [xr.Dataset({"x": ("k", [1.0, 2.0])}, coords={"k": [0, 1]}),
               xr.Dataset({"x": ("k", [3.0])}, coords={"k": [0]})]
    ds = assemble(points, results)
    assert ds.x.dims == ("n", "k")
    assert math.isnan(float(ds.x.sel(n=4.0, k=1)))


def _trace(times, values):
    return xr.Dataset({"cwnd": ("time", np.asarray(values, float), {"interpolation": "previous"})},
                      coords={"time": np.asarray(times, float)})


def test_assemble_holds_step_traces_on_the_union_of_sample_times():
    """Traces with different sample times stacked on one ``time`` axis: each row keeps its
    step function (the value before a foreign sample time holds), NaN outside its own span."""
    points = [{"rule": "a"}, {"rule": "b"}]
    ds = assemble(points, [_trace([0.0, 2.0, 4.0], [1, 2, 3]), _trace([1.0, 3.0], [10, 20])])
    assert list(ds.time.values) == [0.0, 1.0, 2.0, 3.0, 4.0]
    np.testing.assert_array_equal(ds.cwnd.sel(rule="a").values, [1, 1, 2, 2, 3])
    np.testing.assert_array_equal(ds.cwnd.sel(rule="b").values, [np.nan, 10, 10, 20, np.nan])


def test_assemble_leaves_non_step_variables_alone():
    """Only variables marked ``interpolation: previous`` are held; others keep their NaN."""
    points = [{"rule": "a"}, {"rule": "b"}]
    plain = [xr.Dataset({"x": ("time", [1.0, 2.0])}, coords={"time": t}) for t in ([0.0, 2.0], [1.0, 3.0])]
    ds = assemble(points, plain)
    assert np.isnan(ds.x.sel(rule="a", time=1.0))


def test_write_atomically_leaves_no_partial_file(tmp_path, monkeypatch):
    """A failed write leaves neither the target nor a temporary file behind."""
    path = tmp_path / "x.nc"
    write_atomically(xr.Dataset({"a": ("d", [1, 2])}), path)
    assert xr.load_dataset(path).a.values.tolist() == [1, 2]

    def broken(self, *args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(xr.Dataset, "to_netcdf", broken)
    with pytest.raises(OSError):
        write_atomically(xr.Dataset({"a": 1}), tmp_path / "y.nc")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.nc"]


def test_derived_target_reads_its_parent(tmp_path):
    """Table 2 is computed from Table 1's file, not simulated again."""
    parent = xr.Dataset({"fairness": ("policy", [0.5, 0.9])}, coords={"policy": ["ubr", "epd"]})
    write_atomically(parent, result_path("goyal1998.table1", tmp_path))
    ds = build_dataset("goyal1998.table2", results_dir=tmp_path)
    assert ds.fairness.values.tolist() == [0.5, 0.9]
    assert ds.attrs["target"] == "goyal1998.table2"


def test_run_experiment_writes_netcdf_with_attrs(tmp_path):
    """A quick scripted-loss figure runs end to end into netCDF."""
    path = run_experiment("goyal1998.fig6", result_path("goyal1998.fig6", tmp_path), quick=True, jobs=1)
    ds = xr.load_dataset(path)
    assert ds.attrs["target"] == "goyal1998.fig6" and ds.attrs["quick"] == 1
    assert int(ds.timeouts.isel(case=0)) == 0 and int(ds.fast_retransmits.isel(case=0)) == 1
    assert load_results(["goyal1998.fig6"], tmp_path, run_missing=False)["goyal1998.fig6"].identical(ds)


def test_an_empty_cell_of_a_sparse_grid_is_nan_in_the_file_not_a_huge_integer(tmp_path):
    """goyal1998.fba_study's grid has no cell for some combinations: every variable is NaN there in the
    written file. (When each point went through a netCDF file first, an integer count such as ``timeouts``
    kept int64 as its encoding, and the file held -2**63 in the empty cells.)"""
    path = run_experiment("goyal1998.fba_study", tmp_path / "fba.nc", quick=True, jobs=1, cache_dir=tmp_path)
    ds = xr.load_dataset(path)
    empty = ds.efficiency.isnull()
    assert 0 < int(empty.sum()) < empty.size
    for name in ("timeouts", "fast_retransmits", "cells_dropped", "max_queue", "buffer_cells"):
        assert bool((ds[name].isnull() == empty).all()) and float(ds[name].min()) >= 0, name


def test_unknown_experiment_is_named():
    """Asking for an unknown id lists the known ones."""
    with pytest.raises(KeyError, match="goyal1998.table1"):
        run_experiment("goyal1998.table99")


def test_goyal_policy_parameters():
    """EPD threshold = buffer - 200 (goyal1998 4.1); SD/FBA R = 0.9 K, Z = 0.8 (section 7)."""
    assert policy_config("epd", 1000, 5, 12).policy.threshold == 800
    sd = policy_config("selective_drop", 1000, 5, 12).policy
    assert (sd.kind, sd.threshold, sd.z) == ("selective_drop", 900, 0.8)
    assert policy_config("ubr", 1000, 5, 12).policy.kind == "tail"
    assert policy_config("epd", 200000, 5, 193).policy.threshold == 200000 - 5 * 193


def test_goyal_networks():
    """LAN 5 us / 64 KB / 10 s, WAN 5 ms / 600000 B / 20 s (goyal1998 3.1); satellite MSS 9180."""
    lan = goyal_run("lan", 5, 1000, "epd", "reno", 0, quick=False)
    assert lan.duration_s == 10.0 and lan.connections[0].tcp.rcv_wnd == 65535
    assert {link.delay_s for link in lan.network.links} == {5e-6}
    wan = goyal_run("wan", 15, 12000, "ubr", "vanilla", 0, quick=False)
    assert wan.duration_s == 20.0 and len(wan.connections) == 15
    sat = goyal_run("satellite", 5, 200000, "selective_drop", "sack", 0, quick=False)
    assert sat.connections[0].tcp.mss == 9180 and sat.connections[0].tcp.rcv_wnd == 34000 << 8
    assert NETWORKS["satellite"]["trunk_delay_s"] in {link.delay_s for link in sat.network.links}


def test_every_seed_starts_together_and_jitter_is_asked_for():
    """The paper's setup (3.1, all at t = 0) at every seed; only ``start_jitter_s`` spreads the starts,
    drawn from the seed."""
    for seed in (0, 3):
        assert {c.start_s for c in goyal_run("lan", 5, 1000, "epd", "reno", seed, True).connections} == {0.0}
    starts = [c.start_s for c in goyal_run("lan", 5, 1000, "epd", "reno", 3, True, start_jitter_s=JITTER_S).connections]
    assert len(set(starts)) == 5 and max(starts) < JITTER_S
    again = [c.start_s for c in goyal_run("lan", 5, 1000, "epd", "reno", 3, True, start_jitter_s=JITTER_S).connections]
    assert again == starts


def test_synchronized_seeds_differ_only_in_the_slotted_order():
    """Two seeds of one table cell give different runs under slotted contention (the seed draws the
    order of a slot's arrivals) and identical ones under deterministic contention."""
    from atmtcp import simulate

    def results(seed, assumption):
        run = goyal_run("lan", 5, 1000, "ubr", "vanilla", seed, True, duration_s=0.3, assumption=assumption)
        return simulate(run).drop_attrs()  # the attributes name the seed
    assert not results(1, "slotted").identical(results(2, "slotted"))
    assert results(1, "deterministic").identical(results(2, "deterministic"))


def test_sack_bound_formula():
    """goyal1997 slides: 1/4 in 1 RTT, 3/8 in 2, 7/16 in 3, 15/32 in 4; half or more: no bound."""
    assert sack_bound(4.0) == 1 and sack_bound(8.0) == 1
    assert sack_bound(8 / 3) == 2 and sack_bound(16 / 7) == 3 and sack_bound(32 / 15) == 4
    assert sack_bound(2.0) == math.inf


def test_sack_bound_rtts_per_lost_count():
    """W = 128: 5.4.2's bound below half the window (1 RTT up to 32 lost, 2 up to 48, 3 up to 56, 4 up to 60);
    from half on, slow start from one segment, 1 + ceil(log2(lost)) RTTs."""
    assert SACK_BOUND_WINDOW == 128
    assert [sack_bound_rtts(n) for n in (1, 32, 33, 48, 49, 56, 57, 60, 61, 62, 63)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]
    assert [sack_bound_rtts(n) for n in (64, 65, 127)] == [7, 8, 8]


def test_sack_bound_points_cover_every_lost_count():
    """goyal1998.sack_bound runs every n = 1 ... 127 lost of 128 in full mode, a subset with both ends in quick."""
    assert [p["lost_segments"] for p in sack_bound_points(False)] == list(range(1, 128))
    quick = [p["lost_segments"] for p in sack_bound_points(True)]
    assert quick[0] == 1 and quick[-1] == 127 and {32, 64} <= set(quick) and len(quick) < 20


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "atmtcp.cli", *args], capture_output=True, text=True, timeout=300)


def test_cli_run_prints_summary():
    """`atmtcp run` prints per-source throughput, efficiency, fairness and port counters."""
    out = _cli("run", "--network", "lan", "--sources", "3", "--buffer", "1000", "--policy", "epd",
               "--tcp", "reno", "--duration", "0.2")
    assert out.returncode == 0, out.stderr
    assert "efficiency" in out.stdout and "fairness" in out.stdout and "SW1->SW2" in out.stdout


def test_cli_bad_value_names_the_field():
    """A bad flag value stops with exit code 2, naming the flag and the allowed range."""
    out = _cli("run", "--buffer", "-5", "--duration", "0.1")
    assert out.returncode == 2 and "--buffer" in out.stderr and "[1, 10000000]" in out.stderr


def test_cli_list_names_targets():
    """`atmtcp list` prints every experiment id."""
    out = _cli("list")
    assert out.returncode == 0 and all(t in out.stdout for t in GOYAL_TARGETS)


def test_many_points_are_independent_of_order():
    """A grid point's result does not depend on which other points ran before it."""
    run = goyal_run("lan", 3, 1000, "fba", "reno", 1, quick=True)
    from atmtcp import simulate
    a = simulate(run)
    simulate(goyal_run("wan", 2, 12000, "epd", "sack", 2, quick=True))
    assert a.identical(simulate(run))
    assert np.isfinite(float(a.efficiency)) and m.Run is not None


def test_quick_results_never_replace_full_ones(tmp_path, monkeypatch):
    """Issue 7: `atmtcp experiment ID --quick` writes data/results/quick/ID.nc, never data/results/ID.nc,
    and a file of the other mode is refused instead of being mixed in."""
    from atmtcp.cli import main
    from atmtcp.runner import ModeMismatch, load_results
    monkeypatch.chdir(tmp_path)
    assert main(["experiment", "goyal1998.fig6", "--quick", "--jobs", "1"]) == 0
    assert (tmp_path / "data/results/quick/goyal1998.fig6.nc").exists()
    assert not (tmp_path / "data/results/goyal1998.fig6.nc").exists()
    assert load_results(["goyal1998.fig6"], quick=True, run_missing=False)["goyal1998.fig6"].attrs["quick"] == 1
    with pytest.raises(ModeMismatch, match="holds quick results"):
        load_results(["goyal1998.fig6"], tmp_path / "data/results/quick", quick=False, run_missing=False)


def test_result_files_describe_themselves(tmp_path):
    """Issue 7: CF-style attributes, the source and commit, the history, the mode and the run's fixed
    parameters; units and long names on the axes and variables."""
    path = run_experiment("goyal1998.sd_z_sweep", tmp_path / "z.nc", quick=True, jobs=1)
    ds = xr.open_dataset(path)
    for key in ("Conventions", "title", "source", "history", "references"):
        assert ds.attrs[key], key
    assert ds.attrs["Conventions"] == "CF-1.10" and ds.attrs["mode"] == "quick"
    assert "atmtcp" in ds.attrs["source"] and "goyal1998.sd_z_sweep --quick" in ds.attrs["history"]
    assert ds.attrs["mss_bytes"] == 512 and ds.attrs["lan_duration_s"] == 1.0 and ds.attrs["cell_contention"]
    assert ds.z.attrs["units"] == "1" and ds.seed.attrs["long_name"]
    assert all("long_name" in ds[v].attrs for v in ds.data_vars)


def test_cwnd_trace_is_a_step_function_on_a_time_coordinate():
    """cwnd_trace puts CWND on ``time`` (the instants it or SSTHRESH changed, in s): at each, the
    value of the last record at or before it; ``.cwnd.plot()`` draws it against time."""
    import matplotlib
    matplotlib.use("Agg")
    from atmtcp.experiment import cwnd_trace
    from atmtcp.papers.goyal1998.experiments import scripted_loss_run
    from atmtcp.simulate import simulate

    raw = simulate(scripted_loss_run("reno", (200, 201), 0.5))
    trace = cwnd_trace(raw)
    assert trace.time.attrs["units"] == "s" and np.all(np.diff(trace.time.values) > 0)
    records = raw.trace_kind.values == "cwnd"
    t, v = raw.trace_time.values[records], raw.trace_value.values[records]
    for instant in trace.time.values[:: max(1, trace.sizes["time"] // 50)]:
        assert trace.cwnd.sel(time=instant).item() == v[t <= instant][-1]
    assert trace.sizes["fast_retransmit_event"] == int(raw.fast_retransmits.sel(source=0))
    line = trace.cwnd.plot()[0]
    np.testing.assert_array_equal(line.get_xdata(), trace.time.values)
