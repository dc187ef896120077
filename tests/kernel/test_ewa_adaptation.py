"""Explicit Window Adaptation and the traffic of ewa sections 3-4: the feedback of eq. 3.1 with the
logarithmic (3.4) and linear (3.3) f against ``naive.NaiveEwa``, the adaptive alpha of section 3.2, the
scaled window field's rounding, the sender honouring the window it is given, ON/OFF applications, the
high-priority VC on L1, the equilibrium solver, and the validation of every new parameter.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atmtcp
from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.internetwork import Ewa, PriorityVc, RouterPort
from atmtcp.kernel import layout as L
from atmtcp.kernel.cells import alloc_packet
from atmtcp.kernel.ewa import adapted_alpha, feedback_packets, rewrite_ack, rewritten_window
from atmtcp.papers.ewa.section3 import equilibrium
from atmtcp.papers.ewa.shared.scenario import ewa_network

from naive import NaiveEwa
from pointers import on_pointers

alloc_packet, rewrite_ack = on_pointers(
    alloc_packet, rewrite_ack)

MSS = 1500
KB = 1024


def ewa_net(n, ewa=Ewa(), buffer_bytes=200 * KB, ip_delay=0.5e-3, l1=5e-3, priority=None):
    port = RouterPort(buffer_bytes=buffer_bytes, ewa=ewa, priority_vc=priority)
    return ewa_network({1: tuple((f"S{i + 1}", ip_delay) for i in range(n)),
                        2: tuple((f"D{i + 1}", 0.0) for i in range(n))}, port, atm_delays_s=(l1, 0, 0, 0))


def ewa_run(n=2, duration=1.0, rcv_wnd=200 * KB, starts=None, on_off=None, seed=0, sample_s=0.005, **net):
    tcp = m.TcpConfig("reno", mss=MSS, rcv_wnd=rcv_wnd, initial_ssthresh=64 * KB, granularity_s=0.02)
    conns = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp, (starts or [0.0] * n)[i], on_off=on_off)
                  for i in range(n))
    return m.Run(ewa_net(n, **net), conns, duration, seed=seed,
                 trace=m.TraceConfig(ports=("AAP1->ATM",), sample_interval_s=sample_s))


# --- the formulas -----------------------------------------------------------------------------------------------
def test_feedback_functions_are_eqs_3_3_and_3_4():
    """f = alpha log2(B - Q) (3.4) and alpha (B - Q) (3.3), in packets; a full buffer gives 0."""
    assert feedback_packets(L.EWA_LOG, 2.0, 128) == pytest.approx(14.0)
    assert feedback_packets(L.EWA_LINEAR, 0.5, 100) == pytest.approx(50.0)
    assert feedback_packets(L.EWA_LOG, 3.0, 1) == 0.0 and feedback_packets(L.EWA_LOG, 3.0, 0) == 0.0


def test_rewritten_window_is_eq_3_1_on_the_scaled_field():
    """W' = max(min(W_r, f), MSS): f rounded down to the field's unit, MSS up to it."""
    assert rewritten_window(204800, 24690, MSS, 4) == 24688          # f x MSS, down to a multiple of 4
    assert rewritten_window(20000, 24690, MSS, 4) == 20000          # the receiver's smaller window stays
    assert rewritten_window(204800, 100, MSS, 4) == MSS             # at least one segment
    assert rewritten_window(2097152, 100, MSS, 64) == 1536          # MSS up to the unit of scale 6
    assert rewritten_window(2097152, 100_000, MSS, 64) == 99_968


def test_alpha_adapts_by_the_rules_of_section_3_2():
    """Below the low threshold + w_up; above the high one x w_down; between them unchanged."""
    assert adapted_alpha(1.0, 10.0, 26.4, 79.2, 0.125, 31 / 32) == 1.125
    assert adapted_alpha(4.0, 80.0, 26.4, 79.2, 0.125, 31 / 32) == 4.0 * 31 / 32
    assert adapted_alpha(4.0, 50.0, 26.4, 79.2, 0.125, 31 / 32) == 4.0


@pytest.fixture(scope="module")
def ewa_state():
    """A compiled two-connection run with EWA (not run): its kernel state, ACK flow and queue."""
    return compile_run(ewa_run(2, rcv_wnd=2 * 1024 * KB))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(acks=st.lists(st.tuples(st.integers(0, 140), st.integers(MSS, 2 * 1024 * KB)), min_size=1, max_size=30),
       alpha=st.floats(0.1, 50.0))
def test_each_ack_is_rewritten_as_the_naive_aap_does(ewa_state, acks, alpha):
    """ACKs pass AAP-1 with random queues and advertised windows: the kernel's window and average
    equal ``naive.NaiveEwa``'s (the 2 MB window has scale 6: a 64-byte unit)."""
    compiled = ewa_state
    S, state = compiled.kernel_state, compiled.state
    q, ack_flow = 0, 1
    assert int(state.flow[ack_flow, L.FL_EWA_QUEUE]) == q and int(state.flow[ack_flow, L.FL_WND_UNIT]) == 64
    buffer = int(state.rq[q, L.RQ_EWA_BUFFER])
    assert buffer == 200 * KB // (MSS + 40)
    state.rqf[q, L.RQF_EWA_ALPHA] = alpha
    state.rqf[q, L.RQF_EWA_AVG] = 0.0
    naive = NaiveEwa("log", alpha, buffer, 1 / 128, 0.2, 0.6, 1 / 8, 1 - 1 / 32)
    for queue, advertised in acks:
        state.rq[q, L.RQ_PKTS] = queue
        k = alloc_packet(S, ack_flow, 0, advertised, 2)
        rewrite_ack(S, ack_flow, k, 0)
        assert int(state.pkt[k, L.PKT_WND]) == naive.ack(queue, advertised, MSS, 64)
        assert float(state.rqf[q, L.RQF_EWA_AVG]) == pytest.approx(naive.avg, rel=1e-12)
    state.rq[q, L.RQ_PKTS] = 0


# --- in runs ------------------------------------------------------------------------------------------------------
def test_alpha_grows_every_period_while_no_ack_passes():
    """Section 3.2: alpha starts at 1 and gains w_up = 1/8 every T = 10 ms while the average is below
    the low threshold; before the first ACK it is 0. Samples between the periods' ends."""
    ds = atmtcp.simulate(ewa_run(1, 0.3, starts=[0.2]))
    t = ds.sample_time.values
    early = (t < 0.2) & (np.round(t / 0.005) % 2 == 1)
    np.testing.assert_allclose(ds.sampled_alpha.values[early, 0], 1 + np.floor(t[early] / 0.01) / 8)


def test_alpha_falls_by_w_down_above_the_high_threshold():
    """With the high threshold at (nearly) 0, every period after the first queued packet multiplies
    alpha by w_down = 1 - 1/32."""
    ds = atmtcp.simulate(ewa_run(2, 0.5, ewa=Ewa(low=0.0, high=1e-6)))
    alpha = ds.sampled_alpha.values[1::2, 0]            # t = 5, 15, 25 ... ms: between the periods' ends
    ratios = alpha[1:] / alpha[:-1]
    assert np.all(np.isclose(ratios, 1.0) | np.isclose(ratios, 31 / 32))
    assert np.isclose(ratios[-20:], 31 / 32).all()


def test_the_sender_honours_the_window_fed_back_at_once():
    """ewa 3.1: "When a connection receives an advertised window size less than its current window size,
    the former takes effect immediately". alpha fixed near 0: every ACK leaves with one segment (the MSS
    minimum), so the source has at most one segment in flight and sends one per round trip, while cwnd
    grows on (4.4BSD does not tie cwnd to the advertised window)."""
    ds = atmtcp.simulate(ewa_run(1, 1.0, ewa=Ewa(alpha=1e-3, adaptive=False)))
    after = ds.sample_time.values > 0.05
    in_flight = ds.sampled_snd_max.values[after, 0] - ds.sampled_snd_una.values[after, 0]
    assert in_flight.max() == MSS
    assert set(ds.sampled_snd_wnd.values[after, 0]) == {MSS}
    assert ds.sampled_cwnd.values[-1, 0] > 20 * MSS
    rtt = 2 * (0.5e-3 + 5e-3) + 0.26e-3          # the links' delays and the hops' transmission times
    assert float(ds.goodput_bps[0]) == pytest.approx(MSS * 8 / rtt, rel=0.05)


def test_windows_fed_back_are_multiples_of_the_scaled_unit():
    """A 2 MB window needs window scale 6: each window fed back is a multiple of 64 bytes, at least
    1536 (the MSS rounded up), at most the receiver's 2 MB; and the connections get the same one."""
    ds = atmtcp.simulate(ewa_run(4, 1.0, rcv_wnd=2 * 1024 * KB))
    wnd = ds.sampled_snd_wnd.values[ds.sample_time.values > 0.1]
    assert (wnd % 64 == 0).all() and wnd.min() >= 1536 and wnd.max() <= 2 * 1024 * KB
    assert int(ds.ewa_acks.sum()) > 0 and int(ds.ewa_acks_marked_down.sum()) == int(ds.ewa_acks.sum())


def test_ewa_run_conserves_packets_and_is_fair():
    """Ten connections, section 4.1's network, 3 s: packets in = out + dropped + queued at AAP-1, no
    packet dropped, equal throughputs after the first second."""
    ds = atmtcp.simulate(ewa_run(10, 3.0))
    p = list(ds.router_port.values).index("AAP1->ATM")
    queued = int(ds.queue_packets.sum())
    dropped = int(ds.queue_packets_dropped.sum())
    assert int(ds.router_packets_in[p]) == int(ds.router_packets_out[p]) + dropped + queued
    assert dropped == 0
    sent = np.diff(ds.sampled_measured_bytes.sel(sample_time=[1.0, 3.0], method="nearest").values, axis=0)[0]
    assert sent.min() / sent.max() > 0.99


# --- ON/OFF applications and the priority VC -------------------------------------------------------------------------
def on_off_periods(ds, step_s):
    """Lengths (s) of the runs of samples in which the source sent new data (ON) or did not (OFF)."""
    active = np.diff(ds.sampled_snd_max.values[:, 0]) > 0
    edges = np.flatnonzero(np.diff(active.astype(int))) + 1
    runs = np.split(active, edges)[1:-1]              # whole periods only
    return ([len(r) * step_s for r in runs if r[0]], [len(r) * step_s for r in runs if not r[0]])


def test_on_off_periods_are_exponential_with_their_means():
    """ewa 4.6: ON and OFF periods "exponentially distributed, each with an average of 200 milliseconds"
    (here 50 and 100 ms): one ON/OFF source on a short path sends during ON only. Over 30 s its
    activity gives means within 15 % and coefficients of variation near 1 (an exponential's)."""
    ds = atmtcp.simulate(ewa_run(1, 30.0, on_off=m.OnOff(0.05, 0.1), ip_delay=1e-5, l1=1e-5, sample_s=0.001))
    on, off = on_off_periods(ds, 0.001)
    assert np.mean(on) == pytest.approx(0.05, rel=0.15) and np.mean(off) == pytest.approx(0.1, rel=0.15)
    for periods in (on, off):
        assert 0.8 < np.std(periods) / np.mean(periods) < 1.2


def test_on_off_and_priority_runs_are_seeded():
    """Same seed, same Dataset; another seed, other periods."""
    def run(seed):
        return atmtcp.simulate(ewa_run(3, 1.0, on_off=m.OnOff(0.05, 0.05), seed=seed, buffer_bytes=390 * KB,
                                       priority=PriorityVc(75e6, 0.05, 0.05)))
    a, b, c = run(1), run(1), run(2)
    assert a.identical(b)
    assert not np.array_equal(a.sampled_snd_max.values, c.sampled_snd_max.values)
    assert float(a.priority_on_s.sum()) != float(c.priority_on_s.sum())


def test_priority_vc_leaves_its_rate_while_on():
    """ewa 4.5: a 75 Mbit/s priority VC on L1, ON and OFF 50 ms on average: the TCP VC's share of L1's
    rate is 1 or (155.52 - 75) / 155.52 (to the cell time's ns), the VC is on about half of 20 s, and
    ten connections with EWA fill what it leaves (utilization / available share >= 0.97)."""
    ds = atmtcp.simulate(ewa_run(10, 20.0, buffer_bytes=390 * KB, rcv_wnd=390 * KB, ip_delay=5e-3,
                                 priority=PriorityVc(75e6, 0.05, 0.05)))
    rates = set(np.round(ds.sampled_available_rate.values[:, 0], 4))
    assert rates == {1.0, round(2726 / 5266, 4)}
    on = float(ds.priority_on_s.sel(router_port="AAP1->ATM")) / 20.0
    assert 0.4 < on < 0.6
    available = 1 - on * (1 - 2726 / 5266)
    sent = float(ds.measured_payload_bytes.sum()) * 8 / 20.0
    capacity = 155.52e6 * 1500 / (33 * 53)
    assert sent / capacity / available > 0.97


# --- the equilibrium ----------------------------------------------------------------------------------------------------
def test_equilibrium_solutions_satisfy_their_equations():
    """Eq. 3.2 as written (Q = N f(B - Q)), with the pipe (N f(B - Q) = P + Q) and in whole segments."""
    q = equilibrium.queue_as_written(10, 2.5, 132)
    assert 10 * 2.5 * np.log2(132 - q) == pytest.approx(q, abs=1e-6)
    q = equilibrium.queue_with_pipe(10, 2.5, 132, 125.2)
    assert 10 * 2.5 * np.log2(132 - q) == pytest.approx(125.2 + q, abs=1e-6)
    q = equilibrium.queue_with_pipe(40, 1.0, 259, 225.25, whole_segments=True)
    assert q == pytest.approx(40 * 7 - 225.25, abs=1e-6)             # floor(log2(259 - 54.75)) = 7
    assert equilibrium.queue_with_pipe(10, 1.0, 259, 225.25) == 0.0   # the windows cannot fill the pipe


# --- bad input -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make, field", [
    (lambda: Ewa("cubic"), "Ewa.feedback"),
    (lambda: Ewa(alpha=0), "Ewa.alpha"),
    (lambda: Ewa(gain=2.0), "Ewa.gain"),
    (lambda: Ewa(low=0.7, high=0.6), "Ewa.high"),
    (lambda: Ewa(w_down=1.5), "Ewa.w_down"),
    (lambda: Ewa(period_s=0.0), "Ewa.period_s"),
    (lambda: RouterPort(ewa=Ewa()), "RouterPort.ewa"),
    (lambda: RouterPort(buffer_bytes=10**5, per_vc_queues=True, priority_vc=PriorityVc()), "RouterPort.priority_vc"),
    (lambda: PriorityVc(rate_bps=-1.0), "PriorityVc.rate_bps"),
    (lambda: m.OnOff(0.0, 0.2), "OnOff.mean_on_s"),
    (lambda: m.Connection("S1", "D1", on_off=0.2), "Connection.on_off"),
    (lambda: compile_run(ewa_run(1, priority=PriorityVc(rate_bps=200e6))), "PriorityVc.rate_bps"),
])
def test_bad_parameters_are_refused_naming_the_field(make, field):
    with pytest.raises(m.ModelError) as error:
        make()
    assert error.value.field == field
