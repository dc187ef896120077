"""TCP loss recovery and window rules against goyal1998 sections 2 and 5 and the goyal1997 slides.

Most runs are one WAN connection (goyal1998 3.1: 5 ms links, propagation RTT 30 ms,
600000-byte window) with infinite buffers, so that the only losses are the scripted ones.
Starting with ``initial_ssthresh`` = 64 segments puts the connection in congestion
avoidance by segment 600, with a window of about 72 segments: far below the pipe
(125 Mbit/s x 30 ms = 918 segments), so there is no queueing and every RTT is the
propagation RTT plus a few cell times.
"""
import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.papers.goyal1998.experiments import SACK_BOUND_WINDOW, sack_bound_run
from atmtcp.topologies import n_source_network

MSS = 512
RTT_PROP = 0.030          # goyal1998 3.1: WAN propagation RTT
LOSS_AT = 600             # first scripted loss, in congestion avoidance (see the module docstring)
TICK = 0.1                # goyal1998 3.1: TCP timer granularity


class Trace:
    """The TCP trace of connection 0 as numpy arrays, plus the recovery episode's landmarks."""

    def __init__(self, ds):
        self.ds = ds
        self.t = ds.trace_time.values
        self.kind = ds.trace_kind.values
        self.v = ds.trace_value.values
        assert ds.attrs["trace_truncated"] == 0

    def times(self, kind, value=None):
        sel = self.kind == kind
        if value is not None:
            sel &= self.v == value
        return self.t[sel]

    def values(self, kind, after=-np.inf, before=np.inf):
        sel = (self.kind == kind) & (self.t > after) & (self.t < before)
        return self.v[sel]

    @property
    def t_fr(self):
        """Time of the first fast retransmit."""
        return self.times("fast_retransmit")[0]

    @property
    def cwnd_before_fr(self):
        """CWND (bytes) when the sender learns of the loss."""
        return self.values("cwnd", before=self.t_fr)[-1]

    @property
    def recover(self):
        """RECOVER (goyal1998 5.3): highest sequence sent when the fast retransmit happens, + 1 segment."""
        sel = (self.kind == "seq_sent") & (self.t <= self.t_fr)
        return self.v[sel].max() + MSS

    def first_ack_at_least(self, seq, after):
        sel = (self.kind == "ack_received") & (self.v >= seq) & (self.t > after)
        return self.t[sel][0]

    def retransmission_time(self, seg):
        """Time of the second transmission of segment ``seg``."""
        sends = self.times("seq_sent", seg * MSS)
        assert len(sends) >= 2, f"segment {seg} was not retransmitted"
        return sends[1]


def wan_run(config, lost=(), duration=1.5):
    """One traced WAN connection with ``config``, losing the first transmissions of ``lost``."""
    net = n_source_network(1, 5e-3, m.PortConfig(None))
    run = m.Run(net, (m.Connection("S1", "D1", config, 0.0, tuple(lost)),), duration,
                trace=m.TraceConfig(connections=(0,)))
    return atmtcp.simulate(run)


def wan(flavor, lost=(), duration=1.5, ssthresh_segments=64, **tcp):
    ssthresh = None if ssthresh_segments is None else ssthresh_segments * MSS
    return wan_run(m.TcpConfig(flavor, rcv_wnd=600000, initial_ssthresh=ssthresh, **tcp), lost, duration)


def counters(ds):
    return {k: int(ds[k][0]) for k in ("timeouts", "fast_retransmits", "retransmissions", "scripted_losses")}


# --- the measured episodes of the slow-start scenario ---------------------------------------------------
@pytest.mark.parametrize("flavor,lost,fast_retransmits,timeouts", [
    ("reno", (300,), 1, 0),
    ("reno", (300, 301, 302), 2, 1),
    ("newreno", (300, 301, 302), 1, 0),
    ("sack", tuple(range(300, 340)), 1, 0),
    ("vanilla", (300,), 0, 1),
])
def test_recovery_counts_in_slow_start(flavor, lost, fast_retransmits, timeouts):
    """goyal1998 5: losses during slow start: Reno recovers one loss, not three; New Reno and SACK avoid the timeout; vanilla times out."""
    ds = wan(flavor, lost, duration=1.0, ssthresh_segments=None)
    c = counters(ds)
    assert c["scripted_losses"] == len(lost)
    assert c["fast_retransmits"] == fast_retransmits
    assert c["timeouts"] == timeouts
    assert c["retransmissions"] >= len(lost)


# --- Reno (goyal1998 5.1, 5.2) ----------------------------------------------------------------------------
def test_reno_single_loss_recovers_in_one_rtt_without_timeout():
    """goyal1998 5.1: Reno recovers from one loss within about one RTT of the third duplicate ACK, no timeout."""
    ds = wan("reno", (LOSS_AT,))
    tr = Trace(ds)
    assert counters(ds) == {"timeouts": 0, "fast_retransmits": 1, "retransmissions": 1, "scripted_losses": 1}
    # the retransmission goes out at the fast retransmit ...
    assert tr.retransmission_time(LOSS_AT) == tr.t_fr
    # ... and the ACK covering the whole window (RECOVER) comes back one RTT later
    dt = tr.first_ack_at_least(tr.recover, tr.t_fr) - tr.t_fr
    assert RTT_PROP <= dt <= 1.1 * RTT_PROP


def test_reno_fast_recovery_halves_window():
    """goyal1998 5.1: after fast recovery CWND = SSTHRESH = half the CWND at the loss, then congestion avoidance."""
    ds = wan("reno", (LOSS_AT,))
    tr = Trace(ds)
    w = tr.cwnd_before_fr
    half = max(2, int(w / 2 // MSS)) * MSS          # goyal1998 2: max{2, min{CWND/2, RCVWND}} in segments
    t_exit = tr.first_ack_at_least(tr.recover, tr.t_fr)
    assert tr.values("ssthresh", after=tr.t_fr - 1e-12)[0] == half
    assert tr.values("cwnd", after=t_exit - 1e-12)[0] == half
    # linear increase afterwards: about one segment per RTT, nowhere near doubling
    cwnd_later = tr.values("cwnd", before=t_exit + 10 * RTT_PROP)[-1]
    assert half < cwnd_later < half + 12 * MSS


def test_reno_single_loss_lan_goodput_close_to_lossless():
    """goyal1998 5.2: in a LAN, fast retransmit and recovery lose almost nothing for an isolated loss (vanilla loses a timeout)."""
    net = n_source_network(1, 5e-6, m.PortConfig(None))

    def goodput(flavor, lost):
        run = m.Run(net, (m.Connection("S1", "D1", m.TcpConfig(flavor), 0.0, lost),), 0.5)
        ds = atmtcp.simulate(run)
        return float(ds.goodput_bps[0]), counters(ds)

    lossless, _ = goodput("reno", ())
    reno, c = goodput("reno", (1000,))
    assert c["timeouts"] == 0 and c["fast_retransmits"] == 1
    assert reno >= 0.999 * lossless
    vanilla, c = goodput("vanilla", (1000,))
    assert c["timeouts"] == 1
    assert vanilla < 0.9 * lossless


def test_reno_three_losses_two_fast_retransmits_then_timeout():
    """goyal1998 5.2 Fig. 5: three consecutive losses give two fast retransmits, then a timeout with SSTHRESH = CWND/8."""
    ds = wan("reno", (LOSS_AT, LOSS_AT + 1, LOSS_AT + 2))
    tr = Trace(ds)
    c = counters(ds)
    assert c["fast_retransmits"] == 2 and c["timeouts"] == 1
    fr = tr.times("fast_retransmit")
    to = tr.times("timeout")
    assert fr[0] < fr[1] < to[0]
    w = tr.cwnd_before_fr
    ssthresh_after_timeout = tr.values("ssthresh", after=to[0] - 1e-12)[0]
    assert abs(ssthresh_after_timeout - w / 8) <= MSS


# --- New Reno (goyal1998 5.3) -----------------------------------------------------------------------------
@pytest.mark.parametrize("n_lost", [2, 3, 6])
def test_newreno_recovers_n_losses_in_n_rtts(n_lost):
    """goyal1998 5.3: New Reno recovers from N segment losses in N round trips, without timeout."""
    lost = tuple(range(LOSS_AT, LOSS_AT + n_lost))
    ds = wan("newreno", lost)
    tr = Trace(ds)
    c = counters(ds)
    assert c["fast_retransmits"] == 1 and c["timeouts"] == 0
    assert c["retransmissions"] == n_lost          # each lost segment once, nothing else
    rtt = tr.first_ack_at_least((LOSS_AT + 1) * MSS, tr.t_fr) - tr.t_fr
    assert RTT_PROP <= rtt <= 1.1 * RTT_PROP
    dt = tr.first_ack_at_least(tr.recover, tr.t_fr) - tr.t_fr
    assert dt == pytest.approx(n_lost * rtt, rel=0.05)


def test_newreno_partial_ack_retransmits_next_segment_at_once():
    """goyal1998 5.3: a partial ACK makes the sender retransmit the next expected segment immediately."""
    lost = tuple(range(LOSS_AT, LOSS_AT + 4))
    tr = Trace(wan("newreno", lost))
    for seg in lost[1:]:
        partial_ack = tr.first_ack_at_least(seg * MSS, tr.t_fr)
        assert tr.retransmission_time(seg) == partial_ack


# --- SACK (goyal1998 5.4) ------------------------------------------------------------------------------------
def test_sack_recovers_quarter_window_loss_in_one_rtt():
    """goyal1998 5.4.2: with less than CWND/4 lost, SACK retransmits every hole within one RTT, with no timeout."""
    n_lost = 16
    lost = tuple(range(LOSS_AT, LOSS_AT + n_lost))
    ds = wan("sack", lost)
    tr = Trace(ds)
    w_segments = tr.cwnd_before_fr / MSS
    assert 0.2 * w_segments < n_lost < 0.25 * w_segments   # "about a quarter" of the window
    c = counters(ds)
    assert c["fast_retransmits"] == 1 and c["timeouts"] == 0
    assert c["retransmissions"] == n_lost
    rtt = tr.first_ack_at_least((LOSS_AT + 1) * MSS, tr.t_fr) - tr.t_fr
    assert RTT_PROP <= rtt <= 1.1 * RTT_PROP
    last_hole = max(tr.retransmission_time(s) for s in lost)
    assert last_hole - tr.t_fr <= rtt
    # the holes' ACKs come back one RTT later: recovery is over in two RTTs, not n_lost
    assert tr.first_ack_at_least(tr.recover, tr.t_fr) - tr.t_fr <= 2 * rtt * 1.05


def test_sack_cannot_recover_half_window_loss():
    """goyal1997 slides ("Cannot recover from half or more window loss"): losing over half the window makes SACK time out.

    With 5.4.1's PIPE rules this holds from W/2 + 2 lost segments on: PIPE = lost - 2 >= CWND after the first partial
    ACK (see ``test_sack_block_loss_recovers_within_bound``)."""
    lost = tuple(range(LOSS_AT, LOSS_AT + 40))
    ds = wan("sack", lost)
    tr = Trace(ds)
    assert len(lost) > tr.cwnd_before_fr / MSS / 2
    c = counters(ds)
    assert c["fast_retransmits"] >= 1 and c["timeouts"] == 1
    assert tr.times("timeout")[0] > tr.t_fr


def test_sack_sends_holes_before_new_data():
    """goyal1998 5.4: during fast retransmit the SACK sender retransmits the holes before any new segment."""
    lost = tuple(range(LOSS_AT, LOSS_AT + 16))
    tr = Trace(wan("sack", lost))
    recover = tr.recover
    last_hole = max(tr.retransmission_time(s) for s in lost)
    new_data = (tr.kind == "seq_sent") & (tr.v >= recover) & (tr.t >= tr.t_fr)
    assert tr.t[new_data].min() >= last_hole


def test_sack_faster_than_newreno():
    """goyal1998 5.4: SACK recovers multiple losses in about one RTT where New Reno needs one RTT per loss."""
    lost = tuple(range(LOSS_AT, LOSS_AT + 8))
    exits = {}
    for flavor in ("newreno", "sack"):
        tr = Trace(wan(flavor, lost))
        exits[flavor] = tr.first_ack_at_least(tr.recover, tr.t_fr) - tr.t_fr
    assert exits["newreno"] == pytest.approx(8 * RTT_PROP, rel=0.1)
    assert exits["sack"] <= 2.1 * RTT_PROP


def new_segments_during_recovery(tr):
    """Segments above RECOVER sent after the first fast retransmit and before the ACK that ends the recovery."""
    index = np.arange(tr.t.size)
    i_fr = np.flatnonzero(tr.kind == "fast_retransmit")[0]
    recover = tr.recover
    i_exit = index[(tr.kind == "ack_received") & (tr.v >= recover) & (index > i_fr)][0]
    return int(((tr.kind == "seq_sent") & (tr.v >= recover) & (index > i_fr) & (index < i_exit)).sum())


def test_sack_single_loss_sends_as_many_new_segments_as_reno():
    """goyal1998 5.4.1: the PIPE algorithm "is equivalent to inflating the CWND by one segment for every duplicate ACK":
    with one loss, SACK (PIPE = CWND - 3 at the third duplicate ACK, 5.4.2) sends exactly the new segments Reno sends."""
    sent = {}
    for flavor in ("reno", "sack"):
        ds = wan(flavor, (LOSS_AT,))
        assert counters(ds) == {"timeouts": 0, "fast_retransmits": 1, "retransmissions": 1, "scripted_losses": 1}
        tr = Trace(ds)
        sent[flavor] = new_segments_during_recovery(tr)
        w = tr.cwnd_before_fr / MSS
    # Reno: cwnd = W/2 + 3 + k after k more duplicate ACKs; W - 4 of them in all: about W/2 - 1 new segments
    assert abs(sent["reno"] - (w / 2 - 1)) <= 1
    assert sent["sack"] == sent["reno"]


SACK_BOUND_AGREES = range(1, 66)
"""Lost segments for which 5.4.1's PIPE rules meet 5.4.2's analysis (see the xfail below)."""


@pytest.mark.parametrize("lost", SACK_BOUND_AGREES)
def test_sack_block_loss_recovers_within_bound(lost):
    """goyal1998 5.4.2: losing ``lost`` of W = 128 segments in flight (CWND = W), SACK retransmits them all within
    ceil(log2(n/(n-2))) RTTs, n = W/lost (one RTT up to a quarter of the window), without a timeout; from half the
    window on, "no slower than slow start" (1 + ceil(log2(lost)) RTTs) and still no timeout. The scenario is
    :func:`atmtcp.papers.goyal1998.experiments.sack_bound_scenario`, the one of the ``goyal1998.sack_bound`` target."""
    ds = sack_bound_run({"lost_segments": lost}, quick=False)
    assert int(ds.timeouts) == 0
    assert int(ds.fast_retransmits) == 1
    assert int(ds.retransmissions) == lost                 # every lost segment once, nothing else
    assert float(ds.retransmit_rtts) <= float(ds.bound_rtts)
    if 4 * lost <= SACK_BOUND_WINDOW:
        assert float(ds.retransmit_rtts) == 1              # "If less than one-fourth of CWND is lost ... one RTT"


@pytest.mark.xfail(strict=True, reason="lost >= W/2 + 2: after the dup ACKs PIPE = lost; the first partial ACK takes "
                   "2 off (5.4.1), which leaves PIPE = lost - 2 >= CWND = 64, so nothing is sent and the sender times "
                   "out, where 5.4.2 says 'PIPE being decremented by two so that two packets can be sent'; lost >= 126 "
                   "leaves fewer than 3 duplicate ACKs")
def test_sack_more_than_half_window_loss_avoids_timeout():
    """goyal1998 5.4.2: above half the window, "SACK will recover no slower than slow start" and "timeout would be
    still avoided unless a retransmitted packet were dropped". Every n from 66 to 127 times out instead."""
    timeouts = {lost: int(sack_bound_run({"lost_segments": lost}, quick=False).timeouts)
                for lost in range(SACK_BOUND_AGREES.stop, SACK_BOUND_WINDOW)}
    assert not any(timeouts.values()), {n: t for n, t in timeouts.items() if t}


def test_sack_delayed_ack_never_retransmits_a_hole_twice():
    """goyal1998 5.4.1: a retransmitted segment is marked in the table, and "If a retransmitted segment is lost, the
    sender times-out": no segment is retransmitted twice while no timeout occurs.

    1 ms links, a 200-segment window, delayed ACKs and seven scattered losses: 337, 342 and 345 are new data sent
    during the recovery of 215 and lost; the SACK blocks show them as holes and they are retransmitted in that
    recovery. The ACK covering RECOVER then ends it while their retransmissions are still in flight, and the
    duplicate ACKs for 337 start a second fast retransmit, which must not send 337 a third time."""
    lost = (215, 238, 265, 317, 337, 342, 345)
    net = n_source_network(1, 1e-3, m.PortConfig(None))
    cfg = m.TcpConfig("sack", rcv_wnd=200 * MSS, delayed_ack=True)
    run = m.Run(net, (m.Connection("S1", "D1", cfg, 0.0, lost),), 1.0, trace=m.TraceConfig(connections=(0,)))
    ds = atmtcp.simulate(run)
    tr = Trace(ds)
    c = counters(ds)
    assert c["timeouts"] == 0 and c["scripted_losses"] == len(lost)
    fr = tr.times("fast_retransmit")
    assert list(tr.values("fast_retransmit")) == [215 * MSS, 337 * MSS]
    # 337 was above the first recovery's RECOVER and was retransmitted before the second fast retransmit
    assert 337 * MSS >= tr.recover and tr.retransmission_time(337) < fr[1]
    seqs, sends = np.unique(tr.values("seq_sent"), return_counts=True)
    assert sends.max() <= 2, f"sent more than twice: {list(seqs[sends > 2] // MSS)}"
    assert c["retransmissions"] == len(lost)


# --- vanilla (goyal1998 2) ----------------------------------------------------------------------------------
def test_vanilla_waits_for_coarse_timer():
    """goyal1998 2: vanilla TCP ignores duplicate ACKs and retransmits only when the 100 ms-tick timer expires."""
    ds = wan("vanilla", (LOSS_AT,))
    tr = Trace(ds)
    c = counters(ds)
    assert c["fast_retransmits"] == 0 and c["timeouts"] >= 1
    t_to = tr.times("timeout")[0]
    assert t_to == pytest.approx(round(t_to / TICK) * TICK, abs=1e-9)      # on a tick boundary
    assert tr.retransmission_time(LOSS_AT) == t_to
    first_send = tr.times("seq_sent", LOSS_AT * MSS)[0]
    assert t_to - first_send >= RTT_PROP         # duplicate ACKs arrived meanwhile and were ignored
    dupacks = (tr.kind == "ack_received") & (tr.v == LOSS_AT * MSS) & (tr.t < t_to)
    assert dupacks.sum() > 3


def test_timeout_resets_window_to_one_segment():
    """goyal1998 2: on a timeout SSTHRESH = max{2, min{CWND/2, RCVWND}} segments and CWND = one segment."""
    ds = wan("vanilla", (LOSS_AT,))
    tr = Trace(ds)
    t_to = tr.times("timeout")[0]
    cwnd_before = tr.values("cwnd", before=t_to)[-1]
    assert tr.values("cwnd", after=t_to - 1e-12)[0] == MSS
    assert tr.values("ssthresh", after=t_to - 1e-12)[0] == max(2, int(cwnd_before / 2 // MSS)) * MSS


# --- congestion-avoidance arithmetic (goyal1997 slides) ------------------------------------------------------
def final_cwnd(increase, **kw):
    # slow start stops at 504 segments, 8 segments below MSS*MSS = 262144 bytes = 512 segments
    ds = wan("reno", duration=1.5, ssthresh_segments=504, increase=increase, **kw)
    tr = Trace(ds)
    assert counters(ds)["retransmissions"] == 0
    cwnd = tr.values("cwnd")
    return cwnd, tr.times("cwnd")


def test_integer_increase_stalls_at_mss_squared():
    """goyal1997 "A problem in slow start implementations": integer MSS*MSS/CWND is 0 once CWND > MSS*MSS, so CWND stays at 256 kB."""
    cwnd, t = final_cwnd("integer")
    assert MSS * MSS < cwnd[-1] <= MSS * MSS + MSS
    stalled = cwnd[t > t[np.argmax(cwnd > MSS * MSS)]]
    assert stalled.size > 1000 and np.all(stalled == cwnd[-1])   # constant for the rest of the run


def test_integer_every_n_keeps_growing():
    """goyal1997 Solution 1: CWND += N*MSS*MSS/CWND every N ACKs keeps the linear increase going past MSS*MSS."""
    cwnd_n, _ = final_cwnd("integer_every_n", increase_every_n=2)
    cwnd_float, _ = final_cwnd("float")
    growth_n = cwnd_n[-1] - MSS * MSS
    growth_float = cwnd_float[-1] - MSS * MSS
    assert growth_float > 20 * MSS        # about one segment per RTT for ~30 RTTs
    assert growth_n > 8 * MSS
    # N=2 rounds 2*MSS*MSS/CWND (just under 2 bytes) down to 1: half the float rule's growth
    assert growth_n >= 0.4 * growth_float


def test_receiver_ack_delay_lengthens_the_round_trip():
    """lakshman 3: each ACK leaves the receiver a fixed delay after its data arrived, which adds to
    every round trip: the first ACK reaches the sender that much later, and a window-limited
    connection's throughput is about one window per (propagation RTT + delay)."""
    from atmtcp.topologies import n_source_network
    network = n_source_network(1, 1e-3, m.PortConfig(None))
    def run(delay):
        tcp = m.TcpConfig("reno", rcv_wnd=65535, initial_ssthresh=65535, ack_delay_s=delay)
        return atmtcp.simulate(m.Run(network, (m.Connection("S1", "D1", tcp),), 2.0,
                                     trace=m.TraceConfig(connections=(0,))))
    fast, slow = run(0.0), run(0.06)
    first_ack = lambda ds: float(ds.trace_time.values[ds.trace_kind.values == "ack_received"][0])
    assert first_ack(slow) - first_ack(fast) == pytest.approx(0.06, abs=1e-6)
    # steady state: 65535 bytes per 66 ms round trip (6 ms of propagation)
    expected = 65535 * 8 / 0.066 * (2.0 - 0.3) / 2.0
    assert float(slow.goodput_bps.sum()) == pytest.approx(expected, rel=0.1)
    with pytest.raises(m.ModelError, match="ack_delay_s"):
        m.TcpConfig(ack_delay_s=-1.0)


def test_timestamps_sample_every_ack_but_the_ambiguous_one():
    """lakshman 3: "We also assumed the timestamp option ... Round trip times were estimated ignoring
    ambiguous ACKs as in [8]": with timestamps every ACK of new data gives a sample, except the one
    that answers the retransmission filling the hole (Karn); 4.4BSD's timing, without them, samples
    about once per window."""
    def run(timestamps):
        return wan("reno", (LOSS_AT,), timestamps=timestamps)
    with_ts, without = run(True), run(False)
    tr = Trace(with_ts)
    acks = tr.values("ack_received")
    new_data_acks = int((np.diff(np.concatenate([[0], acks])) > 0).sum())
    assert counters(with_ts)["retransmissions"] == 1 and counters(with_ts)["fast_retransmits"] == 1
    assert int(with_ts.rtt_samples[0]) == new_data_acks - 1
    assert int(without.rtt_samples[0]) < new_data_acks / 10
    # the same losses and recovery: only the RTT estimate's inputs differ
    assert counters(without) == counters(with_ts)


@pytest.mark.parametrize("start", m.SACK_PIPE_STARTS)
def test_sack_pipe_stalls_where_its_rules_say(start):
    """goyal1998 5.4.1's PIPE rules counted by hand (``pipe_stall_from``): from 5.4.2's start (CWND - 3) or
    5.4.1's (CWND, +1 for the fast retransmission), losing ``stall`` of W = 128 segments leaves PIPE at or
    above CWND after the partial ACK, so the sender stalls and times out; one segment fewer recovers."""
    from atmtcp.papers.goyal1998.experiments import pipe_stall_from, sack_bound_scenario

    stall = pipe_stall_from(SACK_BOUND_WINDOW, start)
    timeouts = {lost: int(atmtcp.simulate(sack_bound_scenario(lost, start)).timeouts.sum()) for lost in (stall - 1, stall)}
    assert timeouts[stall - 1] == 0 and timeouts[stall] >= 1, (stall, timeouts)


def test_sack_pipe_start_cwnd_sends_four_segments_fewer_in_a_recovery():
    """One loss in a window of W segments: 5.4.2's start lets the sender send new data once PIPE = W - 3 - k
    falls below W/2; 5.4.1's (W + 1) waits for four more duplicate ACKs, so it sends exactly 4 segments fewer
    between the fast retransmit and the ACK that ends the recovery."""
    net = n_source_network(1, 5e-3, m.PortConfig(None))

    def recovery_sends(start):
        cfg = m.TcpConfig("sack", rcv_wnd=400 * MSS, initial_ssthresh=100 * MSS, sack_pipe_start=start)
        run = m.Run(net, (m.Connection("S1", "D1", cfg, 0.0, (1000,)),), 3.0, trace=m.TraceConfig(connections=(0,)))
        tr = Trace(atmtcp.simulate(run))
        t_fr = tr.t_fr
        acks = tr.times("ack_received")[tr.values("ack_received", after=-np.inf) > 1000 * MSS]
        t_end = acks[acks > t_fr][0]
        return len(tr.values("seq_sent", after=t_fr, before=t_end)), tr.cwnd_before_fr

    sends_54_2, w = recovery_sends("cwnd-3")
    sends_54_1, w_again = recovery_sends("cwnd")
    assert w == w_again and w / MSS > 20
    assert sends_54_2 - sends_54_1 == 4, (sends_54_2, sends_54_1, w / MSS)


def test_tick_phase_moves_every_timeout_onto_the_hosts_ticks():
    """TcpConfig.tick_phase_s: the retransmission timer expires on the host's ticks, phase + k x granularity."""
    net = n_source_network(1, 5e-3, m.PortConfig(None))
    for phase in (0.0, 0.037):
        cfg = m.TcpConfig("vanilla", rcv_wnd=64 * MSS, tick_phase_s=phase)
        run = m.Run(net, (m.Connection("S1", "D1", cfg, 0.0, (50, 51, 120)),), 4.0, trace=m.TraceConfig(connections=(0,)))
        times = Trace(atmtcp.simulate(run)).times("timeout")
        assert len(times) >= 2
        ticks = (times - phase) / cfg.granularity_s
        assert np.allclose(ticks, np.round(ticks), atol=1e-6), (phase, times)


def test_tick_phase_must_lie_within_one_tick():
    with pytest.raises(m.ModelError, match="tick_phase_s"):
        m.TcpConfig(tick_phase_s=0.1)
