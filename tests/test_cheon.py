"""cheon's experiments: the paper's arithmetic, the settings of each case, and short runs."""
import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compiler import compile_run
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
