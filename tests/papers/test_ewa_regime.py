"""ewa section 2's loss regime (atmtcp.papers.ewa.section2.regime) on hand-made samples, and on a run."""
import numpy as np

from atmtcp.papers.ewa.section2 import scenario
from atmtcp.papers.ewa.section2.experiments import summarize_ten
from atmtcp.papers.ewa.section2.regime import drops_per_episode, overflow_episodes, regime
from atmtcp.papers.ewa.shared.scenario import BSD_READING, PREVIOUS_READING
from atmtcp.simulate import simulate


def test_bursts_less_than_the_gap_apart_are_one_episode():
    times = np.arange(12) * 0.005
    total = np.array([0, 0, 2, 3, 3, 3, 3, 3, 3, 3, 3, 5])       # drops at samples 2, 3 and 11
    assert overflow_episodes(times, total, gap_s=0.02) == [(2, 3), (11, 11)]
    assert overflow_episodes(times, total, gap_s=0.1) == [(2, 11)]


def test_drops_per_episode_counts_each_connections_losses_in_its_samples():
    per = np.array([[0, 0], [0, 0], [1, 1], [2, 1], [2, 1], [2, 3]])   # cumulative, two connections
    assert drops_per_episode(per, [(2, 3), (5, 5)]).tolist() == [[2, 1], [0, 2]]


def test_regime_of_hand_made_samples():
    times = np.arange(6) * 0.005
    per = np.array([[0, 0], [0, 0], [1, 1], [2, 1], [2, 1], [2, 3]])
    timeouts = np.array([[0, 0]] * 4 + [[1, 0]] * 2)
    found = regime(times, per.sum(1), per, timeouts, after_s=0.0)
    assert found["episodes"] == 1 and found["hits"] == 2           # one episode (gap 50 ms), both hit
    assert found["drops_per_hit"] == 2.5 and found["multiple_drop_share"] == 1.0   # 2 and 3 drops
    assert found["timeouts_per_connection"] == 0.5


def test_the_previous_reading_loses_one_packet_per_overflow_bsds_increase_and_acks_several():
    """ewa 2 needs several losses per connection per overflow; one segment per round trip and every
    segment acknowledged give one (fast retransmit repairs it), 4.4BSD-Lite's increase and delayed ACKs
    several."""
    drops = {}
    for name, reading in (("bsd", BSD_READING), ("previous", PREVIOUS_READING)):
        run = scenario.ten_connection_run("ewa.fig5", 0, duration_s=6.0, **reading)
        drops[name] = float(summarize_ten(simulate(run), run).drops_per_hit)
    assert drops["previous"] < 1.2
    assert drops["bsd"] > 2.0


def test_two_way_traffic_adds_the_reverse_connections_and_aap2s_port():
    """ewa.two_way_study: ten more connections D_i -> S_i that deliver data, and AAP-2's port onto L2
    with AAP-1's buffer and policy; the ten forward connections stay the first ten."""
    run = scenario.ten_connection_run("ewa.fig5", 0, duration_s=2.0, two_way=True)
    assert [(c.src, c.dst) for c in run.connections[10:]] == [(f"D{i}", f"S{i}") for i in range(1, 11)]
    ports = dict(run.network.router_ports)
    assert ports["AAP2->ATM"] == ports["AAP1->ATM"]
    ds = simulate(run)
    assert (ds.goodput_bps.values[10:] > 0).all() and (ds.goodput_bps.values[:10] > 0).all()
