"""The validation (issue 37, atmtcp.validation): each scenario's translation into ns-3's parameters, checked
on its numbers without ns-3; the verdicts; and, when the ``validate`` extra is installed, a short ns-3 run."""
from dataclasses import replace

import numpy as np
import pytest

from atmtcp import model as m
from atmtcp.internetwork import RouterPolicy, RouterPort
from atmtcp.kernel.aal5 import packet_cells
from atmtcp.papers.ewa.section2.scenario import ten_connection_run
from atmtcp.papers.ewa.shared.scenario import BSD_READING
from atmtcp.papers.goyal1998.scenario import goyal_run
from atmtcp.validation import compare, ns3
from atmtcp.validation.experiments import EXPERIMENTS, points_of
from atmtcp.validation.scenarios import SCENARIOS


def test_an_ip_packet_takes_its_aal5_cells_time_on_an_atm_link():
    ewa_aal5 = m.Aal5Config(40, 8, 8)
    rate = ns3.cell_link_rate_bps(m.OC3_BPS, 1500, ewa_aal5)
    assert packet_cells(1500, ewa_aal5.overhead_bytes) == 33
    assert (1540 + ns3.PPP_HEADER_BYTES) * 8 / rate == pytest.approx(33 * 53 * 8 / m.OC3_BPS, rel=1e-12)
    assert 33 * 53 * 8 / m.OC3_BPS == pytest.approx(89.97e-6, abs=0.01e-6)
    goyal = ns3.cell_link_rate_bps(m.OC3_BPS, 512, m.Aal5Config())
    assert (552 + 2) * 8 / goyal == pytest.approx(12 * 53 * 8 / m.OC3_BPS, rel=1e-12)
    assert (1540 + 2) * 8 / ns3.ip_link_rate_bps(m.OC3_BPS, 1540) == pytest.approx(1540 * 8 / m.OC3_BPS, rel=1e-12)


@pytest.mark.parametrize("network, tcp, window_scaling", [("lan", "vanilla", False), ("wan", "reno", True)])
def test_goyal_translation(network, tcp, window_scaling):
    run = goyal_run(network, 5, 1000 if network == "lan" else 12000, "ubr", tcp, 3, False)
    spec = ns3.from_n_source(run)
    assert spec.n == 5 and spec.duration_s == run.duration_s and spec.rng_run == 4
    assert spec.queue.kind == "fifo"
    assert spec.queue.limit_packets == (83 if network == "lan" else 1000) - 1   # less the device's packet
    delay = {"lan": 5e-6, "wan": 5e-3}[network]
    assert spec.bottleneck.delay_s == delay and {a.delay_s for a in spec.access + spec.egress} == {delay}
    assert spec.bottleneck.rate_bps == pytest.approx(ns3.cell_link_rate_bps(m.OC3_BPS, 512, run.aal5))
    t = spec.tcp
    assert (t.segment_size, t.rcv_buf_bytes, t.window_scaling) == (512, run.connections[0].tcp.rcv_wnd, window_scaling)
    assert t.retx_threshold == (ns3.NEVER if tcp == "vanilla" else 3)
    assert (t.del_ack_count, t.clock_granularity_s, t.min_rto_s, t.sack) == (1, 0.1, 0.2, False)
    assert t.initial_cwnd_segments == 1 and t.initial_ssthresh_bytes == run.connections[0].tcp.rcv_wnd
    defaults = t.defaults()
    assert defaults["ns3::TcpSocketBase::ReTxThreshold"] == str(t.retx_threshold)
    assert defaults["ns3::TcpL4Protocol::RecoveryType"] == "ns3::TcpClassicRecovery"
    assert any("cell-level tail drop" in u for u in spec.unmatched)
    assert any("Reno's recovery" in u for u in spec.unmatched) == (tcp == "reno")


def test_goyal_seed_draws_the_phases_within_one_packet_time():
    starts = [ns3.from_n_source(goyal_run("lan", 5, 1000, "ubr", "reno", seed, False)).starts_s for seed in (0, 1, 0)]
    assert starts[0] == starts[2] and starts[0] != starts[1]
    assert all(0 <= s < 12 * 53 * 8 / m.OC3_BPS for s in starts[0] + starts[1])
    assert max(starts[1]) - min(starts[1]) > 53 * 8 / m.OC3_BPS   # more than a permutation of one cell time


@pytest.mark.parametrize("target, kind", [("ewa.fig5", "fifo"), ("ewa.fig11", "red")])
def test_ewa_translation(target, kind):
    run = ten_connection_run(target, 4)
    spec = ns3.from_internetwork(run)
    assert spec.starts_s == tuple(c.start_s for c in run.connections)
    assert spec.stops_s == tuple(c.stop_s for c in run.connections)
    assert spec.bottleneck.delay_s == pytest.approx(5e-3 + 53 * 8 / m.OC3_BPS)
    assert {a.delay_s for a in spec.access} == {0.5e-3} and {e.delay_s for e in spec.egress} == {0.0}
    q = spec.queue
    if kind == "fifo":
        assert (q.kind, q.limit_bytes, q.limit_packets) == ("fifo", 200 * 1024 - 1540, None)
    else:
        assert (q.kind, q.limit_packets, q.min_th, q.max_th, q.max_p, q.weight) == ("red", 109, 15, 30, 0.05, 0.002)
        assert q.mean_packet_bytes == 1542
    t = spec.tcp
    assert (t.segment_size, t.rcv_buf_bytes, t.window_scaling, t.initial_ssthresh_bytes) == (1500, 204800, True, 65536)
    # ewa's headline TCP since issue 36: one segment per round trip, every segment acknowledged
    assert (t.del_ack_count, t.del_ack_timeout_s, t.clock_granularity_s, t.min_rto_s) == (1, 0.02, 0.02, 0.04)
    assert not any("mss/8" in u for u in spec.unmatched)
    bsd = ns3.from_internetwork(ten_connection_run(target, 4, **BSD_READING))
    assert bsd.tcp.del_ack_count == 2 and any("mss/8" in u for u in bsd.unmatched)


def test_ewa_cross_checks_the_headline_tcp_and_bsd_reading_in_every_cell():
    from atmtcp.papers.ewa.section2.experiments import TCP_READINGS
    from atmtcp.validation.scenarios import EWA_READINGS
    assert {label: TCP_READINGS[key] for label, key in EWA_READINGS.items()} == {"headline": {},
                                                                                 "4.4BSD-Lite": BSD_READING}
    for key in ("ewa_section2", "ewa_ssthresh"):
        s = SCENARIOS[key]
        headline = s.run_of(dict(s.axes, policy="drop_tail", tcp="headline"), 3, False).connections[0].tcp
        # one segment per round trip, every segment acknowledged, 4.4BSD-Lite's ssthresh and recovery exit
        assert (headline.increase, headline.delayed_ack, headline.ssthresh_rule, headline.recovery_exit_opens) == (
            "float", False, "bsd", True)
        bsd = s.run_of(dict(s.axes, policy="drop_tail", tcp="4.4BSD-Lite"), 3, False).connections[0].tcp
        assert (bsd.increase, bsd.delayed_ack) == ("bsd", True)
    peer = [p for p in points_of("ewa_section2")(False) if p["side"] == "ns-3"]
    assert {(p["policy"], p["tcp"]) for p in peer} == {(policy, tcp) for policy in ("drop_tail", "red_0.05")
                                                       for tcp in EWA_READINGS}
    seeds = lambda policy, tcp: {p["seed"] for p in peer if (p["policy"], p["tcp"]) == (policy, tcp)}  # noqa: E731
    assert all(seeds(policy, tcp) == set(range(10)) for policy in ("drop_tail", "red_0.05") for tcp in EWA_READINGS)


def test_ewa_seeds_draw_the_same_starts_within_10_ms_on_both_sides():
    for seed in (0, 1, 9):
        run = SCENARIOS["ewa_section2"].run_of({"policy": "drop_tail", "tcp": "headline"}, seed, False)
        starts = ns3.from_internetwork(run).starts_s
        assert starts == tuple(c.start_s for c in run.connections)
        assert all(0.0 <= t < 0.01 for t in starts) and (len(set(starts)) == 1) == (seed == 0)


def test_what_ns3_cannot_express_is_refused_by_name():
    run = ten_connection_run("ewa.fig7", 0)
    with pytest.raises(ValueError, match="drop-from-front"):
        ns3.from_internetwork(run)
    with pytest.raises(ValueError, match="only tail drop"):
        ns3.from_n_source(goyal_run("lan", 5, 1000, "epd", "reno", 0, False))
    port = RouterPort(buffer_packets=50, policy=RouterPolicy("red", 5, 15, 0.1, gentle=True))
    with pytest.raises(ValueError, match="gentle"):
        ns3.queue_of(port, 1500, m.Aal5Config())


def test_every_scenario_has_a_target_and_the_peer_skips_what_it_cannot_run():
    assert {e.id for e in EXPERIMENTS} == {f"validation.{k}" for k in SCENARIOS}
    points = points_of("goyal_sack")(True)
    assert any(p["policy"] == "epd" and p["side"] == "atmtcp" for p in points)
    assert not any(p["policy"] == "epd" and p["side"] == "ns-3" for p in points)
    assert {p["seed"] for p in points_of("goyal_ubr")(False)} == set(range(10))


def test_verdicts():
    same, other = (0.50, 0.45, 0.55), (0.80, 0.75, 0.85)
    assert compare.verdict((0.5, 0.5), same, same, "efficiency") == "all three agree"
    assert compare.verdict((0.8, 0.8), same, same, "efficiency") == "peer agrees with us"
    assert compare.verdict((0.8, 0.8), same, other, "efficiency") == "peer agrees with the paper"
    assert compare.verdict((0.5, 0.5), same, other, "efficiency") == "we agree with the paper, the peer differs"
    assert compare.verdict((0.2, 0.2), same, other, "efficiency") == "all differ"
    assert compare.verdict(None, same, (0.54, 0.5, 0.6), "efficiency") == "peer agrees with us (no paper value)"
    assert compare.verdict((20.0, 30.0), (2.0, 1.8, 2.2), (40.0, 30.0, 50.0), "seconds") == "peer agrees with the paper"
    assert compare.close(10.0, 12.5, "count") and not compare.close(10.0, 13.5, "count")


def test_a_short_ns3_run():
    pytest.importorskip("ns", reason="ns-3 is the optional extra `validate` (pip install -e '.[validate]')")
    from atmtcp.validation import ns3_run
    run = goyal_run("lan", 2, 1000, "ubr", "reno", 0, False, duration_s=0.05)
    out = ns3_run.run(ns3.from_n_source(run))
    capacity = ns3.cell_link_rate_bps(m.OC3_BPS, 512, run.aal5) * 512 / 554 * 0.05 / 8
    assert 0.5 * capacity < out["goodput_bytes"].sum() <= capacity
    ewa = replace(ten_connection_run("ewa.fig9", 1), duration_s=0.5)
    out = ns3_run.run(replace(ns3.from_internetwork(ewa), sample_s=0.25))
    assert out["sent_bytes"].shape == (3, 10) and np.all(np.diff(out["sent_bytes"], axis=0) >= 0)
    assert out["sent_bytes"][-1].sum() >= out["goodput_bytes"].sum() > 0
    # RED's draws come from the run's own stream, not from how many simulations ran before in the process
    red = replace(ns3.from_internetwork(replace(ten_connection_run("ewa.fig11", 1), duration_s=1.0)), sample_s=0.25)
    first = ns3_run.run(red)
    ns3_run.run(replace(red, rng_run=3))
    again = ns3_run.run(red)
    assert first["drops"].sum() > 0 and np.array_equal(first["drops"], again["drops"])
    assert np.array_equal(first["sent_bytes"], again["sent_bytes"])


def test_first_full_utilization_and_a_run_that_never_gets_there():
    import xarray as xr
    util = xr.DataArray([[0.5, 0.96, 0.2, 0.97], [0.1, 0.2, 0.3, 0.4], [np.nan] * 4], dims=("seed", "interval"),
                        coords={"interval": [0.25, 0.5, 0.75, 1.0]})
    got = compare.first_full_s(util).values
    assert got[0] == 0.5 and got[1] == 1.0 and np.isnan(got[2])   # reached; never (the run's length); not run
