"""The rule for what a paper leaves unsaid (atmtcp.tcp_settings) and 4.4BSD-Lite's TCP (TcpConfig.bsd44).

4.4BSD-Lite's rules, from its netinet/tcp_input.c and tcp_timer.c:

- congestion avoidance: ``if (cw > tp->snd_ssthresh) incr = incr * incr / cw + incr / 8``;
- ssthresh on the third duplicate ACK and on a timeout: ``min(tp->snd_wnd, tp->snd_cwnd) / 2 / t_maxseg``,
  at least 2 segments;
- the ACK ending fast recovery: ``snd_cwnd = snd_ssthresh``, then the opening above, by a whole segment
  since ``cw > ssthresh`` is false.
"""

import numpy as np
import pytest

from atmtcp import model as m
from atmtcp import tcp_settings as ts
from atmtcp.papers import tcp_settings as tcp_settings_records
from atmtcp.papers.cheon import scenario as cheon
from atmtcp.papers.ewa.shared import scenario as ewa
from atmtcp.papers.lakshman import scenario as lakshman
from atmtcp.papers.goyal1998.scenario import goyal_tcp
from test_tcp import LOSS_AT, MSS, Trace, wan_run

@pytest.mark.parametrize("paper", list(tcp_settings_records()))
def test_every_paper_decides_every_setting_once(paper):
    ts.check_complete(tcp_settings_records()[paper], paper)


def paper_configs():
    return {"goyal1998": goyal_tcp("reno", 512, 65535), "cheon": cheon.tcp_config("symmetric", 500),
            "lakshman": lakshman.tcp_config(0.05), "ewa": ewa.tcp_config()}


@pytest.mark.parametrize("paper", ["goyal1998", "cheon", "lakshman", "ewa"])
def test_each_paper_simulates_the_tcp_its_record_says(paper):
    """Every setting of the simulated TcpConfig is the record's: the paper's stated value, or 4.4BSD-Lite's."""
    config = paper_configs()[paper]
    for s in tcp_settings_records()[paper]:
        if s.value is not ts.PER_SCENARIO:
            assert getattr(config, s.field) == s.value, s.field


def test_goyal_tcp_is_the_one_before_the_rule():
    """goyal1998 states each of these settings, so the rule leaves its TCP as it was; only SACK's PIPE start
    is 5.4.1's (issue 22), which no other flavour reads."""
    for flavor in m.FLAVORS:
        assert goyal_tcp(flavor, 512, 600000) == m.TcpConfig(flavor, rcv_wnd=600000, sack_pipe_start="cwnd")


def test_a_bsd_setting_must_carry_bsds_value():
    with pytest.raises(m.ModelError, match="Setting.value"):
        ts.Setting("increase", "float", ts.BSD, "")
    with pytest.raises(m.ModelError, match="Setting.field"):
        ts.unsaid("window", "")


def test_a_per_scenario_value_must_be_given():
    with pytest.raises(m.ModelError, match="delayed_ack_max_s"):
        ts.tcp_from("reno", cheon.TCP_SETTINGS, mss=500, min_rto_ticks=500)


def wan(config, lost=()):
    return Trace(wan_run(config, lost))


def bsd(**kw):
    return m.TcpConfig.bsd44("reno", rcv_wnd=600000, initial_ssthresh=64 * MSS, granularity_s=0.1,
                             delayed_ack=False, **kw)


def test_bsd_congestion_avoidance_adds_an_eighth_segment_per_ack():
    """Each ACK in congestion avoidance adds mss*mss/cwnd + mss/8 bytes, in integer arithmetic."""
    tr = wan(bsd())
    cwnd = tr.values("cwnd")
    above = np.flatnonzero(cwnd > 64 * MSS)
    for before, after in zip(cwnd[above[:50]], cwnd[above[:50] + 1]):
        assert after - before == MSS * MSS // int(before) + MSS // 8


def test_bsd_slow_start_lasts_while_cwnd_is_at_most_ssthresh():
    """At cwnd == ssthresh 4.4BSD still adds a whole segment (its test is cw > ssthresh)."""
    cwnd = wan(bsd()).values("cwnd")
    at = np.flatnonzero(cwnd == 64 * MSS)[0]
    assert cwnd[at + 1] == 65 * MSS


def test_bsd_fast_recovery_exit_opens_the_window_by_a_segment():
    """The ACK ending fast recovery deflates cwnd to ssthresh and then opens it by one segment; goyal1998's
    rule ("sets CWND to SSTHRESH, and then does congestion avoidance") leaves it at ssthresh."""
    for config, extra in ((bsd(), MSS), (bsd(recovery_exit_opens=False), 0)):
        tr = wan(config, (LOSS_AT,))
        t_exit = tr.first_ack_at_least(tr.recover, tr.t_fr)
        half = tr.values("ssthresh", after=tr.t_fr - 1e-12)[0]
        assert tr.values("cwnd", after=t_exit - 1e-12)[0] == half + extra


def test_bsd_ssthresh_halves_the_smaller_of_cwnd_and_the_window():
    """With cwnd far above the advertised window, 4.4BSD's ssthresh is half the window; goyal1998's
    max{2, min{CWND/2, RCVWND}} is the window itself."""
    window = 40 * MSS
    common = dict(rcv_wnd=window, initial_ssthresh=10**7, granularity_s=0.1, delayed_ack=False)
    for rule, expected in (("bsd", window // 2), ("half_cwnd", window)):
        config = m.TcpConfig.bsd44("reno", ssthresh_rule=rule, **common)
        tr = wan(config, (LOSS_AT,))
        assert tr.cwnd_before_fr > 2 * window
        assert tr.values("ssthresh", after=tr.t_fr - 1e-12)[0] == expected


def test_a_behaviour_sentence_decides_its_setting():
    """A setting decided by how the paper says its TCP behaved enters the TCP as a stated one does, and the
    table marks it."""
    record = tuple(ts.behaved(f, "float", "q") if f == "increase" else ts.unsaid(f, "") for f in ts.FIELDS)
    ts.check_complete(record, "test")
    assert ts.tcp_from("reno", record, mss=512).increase == "float"
    assert "float (behaviour)" in ts.markdown_table({"test": record})
    assert "(paper (behaviour))" in ts.sentences(record)


def test_a_setting_needs_a_known_source():
    with pytest.raises(m.ModelError, match="Setting.source"):
        ts.Setting("increase", "float", "a guess", "")


def check(value=2.0, targets=("x",)):
    return ts.BehaviourCheck("c", "paper 1", '"q"', ("increase",), "about 2", "1", targets,
                             lambda data: data["x"] * value, lambda v: 1.5 <= v <= 2.5)


def test_a_behaviour_check_measures_the_headline_datasets():
    row = check().row({"x": 1.0})
    assert (row["measured"], row["agrees"]) == (2.0, True)
    assert not check(3.0).row({"x": 1.0})["agrees"]
    assert np.isnan(row["other reading measured"])


def test_a_behaviour_check_names_the_missing_dataset():
    with pytest.raises(m.ModelError, match="BehaviourCheck.data"):
        check().row({})
    with pytest.raises(m.ModelError, match="BehaviourCheck.decides"):
        ts.BehaviourCheck("c", "", "", ("window",), "", "", ("x",), len, bool)


@pytest.mark.parametrize("paper", list(tcp_settings_records()))
def test_every_behaviour_setting_has_its_check(paper):
    """A setting the record decides by a sentence on behaviour is measured by one of the paper's checks."""
    from atmtcp.papers import PAPERS
    checked = {f for c in getattr(PAPERS[paper], "TCP_BEHAVIOUR", ()) for f in c.decides}
    for s in tcp_settings_records()[paper]:
        if s.source == ts.BEHAVIOUR:
            assert s.field in checked, s.field
