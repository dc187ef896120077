"""cheon's experiments: the paper's arithmetic, the settings of each case, and short runs."""
import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.experiments import EXPERIMENTS
from atmtcp.papers.cheon import experiments as cheon
from atmtcp.papers.cheon import scenario
from atmtcp.reference import load_reference
from atmtcp.topologies import parking_lot_bottleneck


@pytest.mark.parametrize("target,case,payload", [
    ("cheon.table1", "symmetric", 500), ("cheon.table3", "symmetric", 1500),
    ("cheon.table2", "asymmetric", 500), ("cheon.table4", "asymmetric", 1500),
])
def test_max_effective_throughput_recomputed(target, case, payload):
    """cheon 4.2.3: "the maximum number of packets that can be carried by an OC-3 link" in the measured
    interval, recomputed from 155.52 Mbit/s, 53-byte cells and 12 or 33 cells per packet."""
    ref = load_reference("cheon")
    paper = ref[(ref.target == target) & (ref.metric == "max_effective_throughput")].value.iloc[0]
    ours = scenario.max_effective_throughput(case, payload)
    # 76,415, 27,787 and 290,377 to the packet; 105,590 against 105,591.8 (0.002 %)
    assert abs(ours - paper) <= 2
    assert int(ours) == paper or target == "cheon.table4"


def one_way_delays(case):
    """Propagation of each session's data path, from the compiled run (ports' link delays summed)."""
    run = scenario.cheon_run(case, "epd", 500, 0)
    delays = {link.a: link.delay_s for link in run.network.links}
    trunk = {(l.a, l.b): l.delay_s for l in run.network.links if l.a.startswith("SW") and l.b.startswith("SW")}
    switches = run.network.switches
    out = []
    for i, conn in enumerate(run.connections):
        entry = next(l.b for l in run.network.links if l.a == conn.src)
        path = sum(trunk[(a, b)] for a, b in zip(switches, switches[1:]) if switches.index(a) >= switches.index(entry))
        out.append(delays[conn.src] + path + run.network.links[-1].delay_s)
    return np.array(out)


def test_symmetric_case_is_symmetric_and_asymmetric_is_not():
    """cheon 2: every session's path is 4 ms in the symmetric case; 50 ms (1-5) and 5 ms (6-10) in the
    asymmetric one; 5, 4 and 3 ms in the Appendix's network."""
    np.testing.assert_allclose(one_way_delays("symmetric"), 4e-3)
    np.testing.assert_allclose(one_way_delays("asymmetric"), [50e-3] * 5 + [5e-3] * 5)
    np.testing.assert_allclose(one_way_delays("appendix"), [5e-3] * 5 + [4e-3] * 5 + [3e-3] * 5)


def test_case_settings_are_the_papers():
    """cheon 2, 3.2, 3.3 and the Appendix: thresholds, timers, TCP and the drop-list threshold."""
    assert scenario.thresholds("symmetric", 500) == {"epd": 1960, "espd1": 1928, "espd2": 1000}
    assert scenario.thresholds("symmetric", 1500) == {"epd": 1901, "espd1": 1802, "espd2": 1000}
    assert scenario.thresholds("appendix", 500) == {"epd": 1900, "espd1": 1400, "espd2": 1000}
    tcp = scenario.tcp_config("asymmetric", 500)
    assert (tcp.flavor, tcp.rcv_wnd, tcp.increase, tcp.delayed_ack) == ("reno", 65535, "bsd", True)
    assert tcp.min_rto_ticks * tcp.granularity_s == pytest.approx(0.15)
    assert tcp.delayed_ack_max_s == 0.0375
    espd = scenario.drop_policy("espd", "asymmetric", 500)
    assert espd.drop_timer_s == 0.075
    for case, sessions in (("symmetric", 10), ("appendix", 15)):
        run = scenario.cheon_run(case, "espd", 500, 0)
        compiled = compile_run(run)
        p = compiled.port_names.index(parking_lot_bottleneck(run.network))
        assert int(compiled.state.port[p, atmtcp.kernel.layout.P_DROPLIST_MAX]) == round(0.2 * sessions)
    assert scenario.drop_policy("ppd", "symmetric", 500).capture_eom
    assert scenario.drop_policy("epd", "symmetric", 500).capture_eom


def test_same_seed_same_start_times_for_every_policy():
    """The seeds' randomness (session start times) is the same draw for every policy."""
    starts = {p: [c.start_s for c in scenario.cheon_run("symmetric", p, 500, 3).connections] for p in scenario.POLICIES}
    assert all(s == starts["rcd"] for s in starts.values())
    assert max(starts["rcd"]) < scenario.START_JITTER_S


def test_every_cheon_target_is_an_experiment_or_drawn():
    ids = {t for t in EXPERIMENTS if t.startswith("cheon.")}
    expected = {f"cheon.table{n}" for n in range(1, 6)} | {f"cheon.fig{n}" for n in range(2, 12)}
    expected |= {"cheon.espd_hold_study", "cheon.espd_readings", "cheon.eom_study"}  # issue 23's studies
    expected |= {"cheon.opnet_timer_study"}  # issue 36: OPNET 2.4's per-segment timers
    assert ids == expected  # cheon.fig12 is drawn from espd_decision, without a simulation


def test_synchronization_index():
    """Identical windows correlate 1; two groups in antiphase -1/(n-1) on average; a constant is left out."""
    t = np.linspace(0, 1, 200)
    wave = np.sin(2 * np.pi * 5 * t)
    assert cheon.window_synchronization(np.column_stack([wave, wave, wave])) == pytest.approx(1.0)
    assert cheon.window_synchronization(np.column_stack([wave, -wave])) == pytest.approx(-1.0)
    assert cheon.window_synchronization(np.column_stack([wave, wave, np.ones_like(t)])) == pytest.approx(1.0)


def test_congestion_epochs_join_short_dips():
    """Intervals at >= 90 % of the buffer less than one RTT apart are one epoch."""
    times = np.arange(0, 0.1, 0.001)
    queue = np.zeros_like(times)
    queue[10:20] = 2000
    queue[22:30] = 1900   # a 2 ms dip: same epoch for an RTT of 5 ms
    queue[60:65] = 1950
    epochs = cheon.congestion_epochs(times, queue, 0.005)
    np.testing.assert_allclose(epochs, [[0.010, 0.029], [0.060, 0.064]])


def test_table_run_quick_end_to_end():
    """One point of Table 1: effective throughput per session, below the OC-3 maximum, every session served."""
    ds = cheon.table_run("cheon.table1")({"policy": "espd", "seed": 0}, True)
    total = int(ds.effective_throughput.sum())
    assert 0 < total <= scenario.max_effective_throughput("symmetric", 500)
    assert (ds.effective_throughput > 0).all()
    assert 0 < float(ds.fairness) <= 1


def test_flow_chart_is_the_decision_function():
    """cheon Fig. 12 is drawn from espd_decision: every leaf of the enumerated tree is the function's
    outcome for every input that reaches it, and the first question is the pseudocode's."""
    import itertools

    import matplotlib
    matplotlib.use("Agg")
    from atmtcp.papers.cheon import figures

    tree = figures.espd_decision_tree()
    assert tree[2] == "VC in the drop-list?"
    leaves = []

    def walk(node, allowed):
        if node[0] == "leaf":
            leaves.append((allowed, node[1]))
            return
        for _label, answers, sub in node[3]:
            walk(sub, {**allowed, node[1]: answers})

    walk(tree, {})
    assert len(leaves) >= 8
    for allowed, outcome in leaves:
        names = [name for name, _, _ in figures.QUESTIONS]
        pools = [allowed.get(name, answers) for name, _, answers in figures.QUESTIONS]
        for combo in itertools.product(*pools):
            assert figures.espd_outcome(dict(zip(names, combo))) == outcome
    assert figures.flowchart_figure(tree) is not None


# --- the tables as distributions over seeds -----------------------------------------------------------
TABLE_RUNS = {"cheon.table1": 10, "cheon.table2": 6, "cheon.table3": 10, "cheon.table4": 6, "cheon.table5": 10}
"""cheon 4.2.3: "The effective throughputs in Tables 1 and 3 are the averages over 10 simulations and the
effective throughputs in Tables 2 and 4 are the averages over 6 simulations"; Table 5 as the symmetric case."""


def synthetic_table(target, n_seeds=10, seed=1, spread=0.05):
    """A cheon-like Dataset of ``target`` without simulating: per-session throughputs that rise from
    RCD to ESPD with seeded noise, put through the experiment's own ``seed_statistics``."""
    import xarray as xr
    case, _payload, policies = cheon.TABLES[target]
    groups = scenario.group_of_sessions(case)
    rng = np.random.default_rng(seed)
    scale = {"rcd": 1.0, "ppd": 1.25, "epd": 1.5, "espd": 1.7}
    thr = np.array([[[3400.0 * scale[p] * (1 + spread * rng.standard_normal()) * (1 + 0.3 * (i % 2))
                      for i in range(len(groups))] for _ in range(n_seeds)] for p in policies]).round()
    sync = {"rcd": 0.8, "ppd": 0.4, "epd": 0.15, "espd": -0.05}
    ds = xr.Dataset({
        "effective_throughput": (("policy", "seed", "source"), thr),
        "fairness": (("policy", "seed"), thr.sum(-1) ** 2 / (len(groups) * (thr ** 2).sum(-1))),
        "synchronization": (("policy", "seed"), np.array([[sync[p]] * n_seeds for p in policies])
                            + 0.02 * rng.standard_normal((len(policies), n_seeds))),
        "epoch_rtts": (("policy", "seed"), 1.5 + 0.05 * rng.standard_normal((len(policies), n_seeds))),
    }, coords={"policy": list(policies), "seed": list(range(n_seeds)), "group": ("source", groups)})
    return cheon.seed_statistics(target)(ds)


def test_seeds_at_least_ten_and_the_papers_runs_recorded():
    """Full mode runs max(10, the paper's runs) seeds per table (10 everywhere, instead of the paper's 6
    for Tables 2 and 4); quick mode two. Each table's Dataset records the paper's runs as ``paper_runs``."""
    for target, runs in TABLE_RUNS.items():
        case = cheon.TABLES[target][0]
        assert cheon.paper_runs(case) == runs
        assert cheon.seeds(case, quick=False) == list(range(10))
        assert cheon.seeds(case, quick=True) == list(range(cheon.QUICK_SEEDS))
        assert cheon.table_points(target)(False) == [{"policy": p, "seed": s} for p in cheon.TABLES[target][2]
                                                     for s in range(10)]
        assert synthetic_table(target).attrs["paper_runs"] == runs


def test_comparison_reads_a_mean_of_the_papers_runs():
    """A paper value that is the mean of k runs is placed in the bootstrap interval of a mean of k of our
    seeds (``paper_runs``), narrower than the interval of one run; the standard deviation is that of k runs."""
    from atmtcp import statistics
    from atmtcp.reference import comparison
    ref = load_reference("cheon")
    ds = synthetic_table("cheon.table2", n_seeds=12)
    table = comparison(ref[ref.target == "cheon.table2"], {"cheon.table2": ds})
    compared = table[table.status == "compared"]
    assert set(compared.paper_runs) == {6} and set(compared.seeds) == {12}
    assert (table[table.metric == "max_effective_throughput"].status == "model parameter").all()
    row = compared[(compared.metric == "effective_throughput") & (compared.policy == "espd")
                   & (compared["group"] == "all")].iloc[0]
    values = ds.group_throughput.sel(policy="espd", group="all").values
    assert row.reproduced == pytest.approx(values.mean())
    assert (row.low, row.high) == pytest.approx(statistics.interval(values, 6))
    single = statistics.interval(values, 1)
    assert single[0] < row.low <= row.high < single[1]
    one_run = comparison(ref[ref.target == "cheon.table2"], {"cheon.table2": ds.assign_attrs(paper_runs=1)})
    wide = one_run[(one_run.metric == "effective_throughput") & (one_run.status == "compared")]
    narrow = compared[compared.metric == "effective_throughput"]
    assert ((narrow.high - narrow.low).values < (wide.high - wide.low).values).all()
    sd = compared[(compared.metric == "effective_throughput_sd") & (compared.policy == "espd")].iloc[0]
    assert sd.reproduced == pytest.approx(values.std(ddof=1))
    assert (sd.low, sd.high) == pytest.approx(statistics.interval(values, 6, "sd"))


def synthetic_data(**kwargs):
    return {t: synthetic_table(t, **kwargs) for t in TABLE_RUNS}


def test_tables_carry_the_interval_and_the_runs():
    """cheon's tables: per policy the paper's value, ours, the 90 % interval and inside; per row our
    seeds and the paper's runs; the maximum value stays, as a model parameter without interval."""
    from atmtcp.papers.cheon import figures
    from atmtcp.reference import comparison
    table = comparison(load_reference("cheon"), synthetic_data())
    t2 = figures.table(table, "cheon.table2")
    assert list(t2.columns[:4]) == [("RCD", c) for c in figures.CELL_COLUMNS]
    assert list(t2.columns[-2:]) == [("runs", "ours"), ("runs", "paper")]
    row = t2.loc[("effective throughput", "all")]
    assert row[("runs", "ours")] == 10 and row[("runs", "paper")] == 6
    assert row[("ESPD", "90 % interval")].startswith("[") and row[("ESPD", "inside")] in ("yes", "no")
    assert t2.loc[("maximum value", "all")][("EPD", "90 % interval")] == ""
    assert t2.index[0] == ("effective throughput", "long") and t2.index[-1] == ("maximum value", "all")
    diffs = figures.relative_differences(table)
    assert "max_effective_throughput" not in diffs.index.get_level_values("metric")
    assert (diffs["with interval"] == diffs["cells"]).all() and (diffs["inside"] <= diffs["cells"]).all()
    assert set(diffs.index.get_level_values("unit")) == set(figures.UNITS.values())
    assert len(figures.cells(table)) == len(table[table.status.isin(["compared", "model parameter"])])


def test_claims_read_distributions_and_findings_name_claims():
    """The policy comparisons read each table's paired margins by the noise model and count the seeds that agree;
    Table 1's claims are read with seed_share, by the noise model too; every finding is decided by existing claims."""
    from atmtcp import claims
    from atmtcp.papers.cheon import CLAIMS, FINDINGS
    verdicts = claims.evaluate(synthetic_data(), CLAIMS).set_index("claim")
    assert verdicts.loc["espd_over_epd"].passed
    assert "in 10 of 10 seeds" in verdicts.loc["espd_over_epd"].detail
    assert verdicts.loc["synchronization_rcd_ppd_epd_espd", "read_on"] == claims.NOISE_MODEL
    assert "of 10 seeds" in verdicts.loc["congestion_epoch_one_rtt"].detail
    assert "inside our 90 % interval" in verdicts.loc["improvement_percentages"].detail
    data = synthetic_data()
    t1 = data["cheon.table1"]
    swapped = t1.group_throughput.copy()
    # ESPD 30 % below EPD in seeds 0-3 and 15 % above it in seeds 4-9 (6 of 10 alone hold): the paired mean is
    # below, and Table 1 does not agree
    first, rest = [0, 1, 2, 3], [4, 5, 6, 7, 8, 9]
    swapped.loc[{"policy": "espd", "seed": first}] = 0.7 * t1.group_throughput.sel(policy="epd", seed=first)
    swapped.loc[{"policy": "espd", "seed": rest}] = 1.15 * t1.group_throughput.sel(policy="epd", seed=rest)
    data["cheon.table1"] = t1.assign(group_throughput=swapped)
    verdict = claims.evaluate(data, CLAIMS).set_index("claim").loc["espd_over_epd"]
    assert not verdict.passed
    assert "table1: " in verdict.detail and "in 6 of 10 seeds alone" in verdict.detail
    assert "(does not agree)" in verdict.detail
    names = {c.name for c in CLAIMS}
    assert 3 <= len(FINDINGS) <= 6
    assert all(f.paper == "cheon" and f.claims and set(f.claims) <= names for f in FINDINGS)


def test_interval_text():
    from atmtcp.papers.cheon.figures import interval_text
    assert interval_text(9.598, 11.6) == "[9.6, 11.6]"
    assert interval_text(0.8512, 0.88) == "[0.851, 0.880]"
    assert interval_text(33999.4, 35012.6) == "[33999, 35013]"
    assert interval_text(float("nan"), 1.0) == ""


def _with_fairness(ds, espd_minus_epd):
    """``ds`` with ESPD's fairness set to EPD's plus ``espd_minus_epd`` in every seed."""
    fair = ds.fairness.copy()
    fair.loc[{"policy": "espd"}] = fair.sel(policy="epd").values + espd_minus_epd
    return ds.assign(fairness=fair)


@pytest.mark.parametrize("table, gap, passes", [
    ("cheon.table1", -0.028, True),    # the paper's own Table 1: 0.893 against 0.921
    ("cheon.table1", -0.04, False),    # beyond the paper's shortfall
    ("cheon.table3", -0.02, True),
    ("cheon.table2", -0.01, False),    # the paper's ESPD is fairer in Table 2: below EPD fails
    ("cheon.table5", +0.01, True),
])
def test_espd_fairness_is_read_in_the_papers_direction_per_table(table, gap, passes):
    """Issue 23: ESPD at least as fair as EPD where the paper's is fairer (Tables 2, 4, 5), and no more
    than FAIRNESS_MARGIN (0.03, the paper's own Table 1 shortfall) below it in the symmetric Tables 1, 3."""
    from atmtcp import claims
    from atmtcp.papers.cheon import CLAIMS
    data = {t: _with_fairness(ds, 0.0) for t, ds in synthetic_data().items()}
    data[table] = _with_fairness(data[table], gap)
    verdict = claims.evaluate(data, CLAIMS).set_index("claim").loc["espd_fairness_not_below_epd"]
    assert bool(verdict.passed) == passes, verdict.detail


def test_capture_costs_from_the_logs():
    """The hold study's reduction (issue 23) on a hand-made log: a session captured at 0.6 s that loses
    packets 7, 7, 8 (two cells of 7) until its next capture at 0.9 s holds 0.05 s and loses 2 packets; a
    second capture with no drop after it holds 0; one congestion epoch spans both captures' sessions."""
    import xarray as xr
    from atmtcp.papers.cheon.studies import capture_costs
    port = "SW2->SW3"
    times = np.arange(0.0, 1.2, 0.01)
    queue = np.where((times >= 0.55) & (times <= 0.95), 1900, 100)
    ds = xr.Dataset({
        "capture_time": ("capture", [0.6, 0.7, 0.9]), "capture_source": ("capture", [0, 1, 0]),
        "capture_port": ("capture", [port] * 3), "capture_is_ack": ("capture", [0, 0, 0]),
        "drop_time": ("drop", [0.61, 0.62, 0.65, 0.95]), "drop_source": ("drop", [0, 0, 0, 0]),
        "drop_port": ("drop", [port] * 4), "drop_is_ack": ("drop", [0, 0, 0, 0]), "drop_seq": ("drop", [7, 7, 8, 9]),
        "queue_cells": (("sample_time", "traced_port"), queue[:, None]),
    }, coords={"sample_time": times, "traced_port": [port]}, attrs={"bottleneck_port": port})
    costs = capture_costs(ds, "symmetric")
    assert costs["captures"] == 3
    assert costs["hold_s"] == pytest.approx(0.05)          # median of 0.05, 0 (session 1) and 0.05 (0.95 - 0.9)
    assert costs["packets_per_capture"] == pytest.approx((2 + 0 + 1) / 3)
    assert costs["sessions_per_epoch"] == 2
