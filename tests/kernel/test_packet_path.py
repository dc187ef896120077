"""The packet path (ewa 2, Fig. 1): IP links, router queues with Drop-Tail, Drop-from-Front and
Floyd-Jacobson RED, ATM access points that segment onto a VC at its rate, per-VC queues in round
robin, connections that close; and the validation of all of it before the kernel runs.

Queue decisions are checked at the port against ``naive.NaiveRouterQueue`` (ewa 2.1's sentence
transcribed) and RED's functions against ``naive.NaiveRed`` (Floyd and Jacobson's section 4
algorithm); timings against the arithmetic of packet sizes, rates and delays.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atmtcp
from atmtcp import model as m
from atmtcp.compile import NS, cell_time_ns, compile_run
from atmtcp.internetwork import Internetwork, RouterPolicy, RouterPort
from atmtcp.kernel import layout as L
from atmtcp.kernel.cells import alloc_packet
from atmtcp.kernel.packets import admit_packet, router_event
from atmtcp.kernel.router_policies import red_average, red_decision, red_drop_probability
from atmtcp.papers.ewa.shared.scenario import ewa_network

from naive import NaiveRed, NaiveRouterQueue, cells_for
from pointers import on_pointers

alloc_packet, admit_packet, router_event = on_pointers(
    alloc_packet, admit_packet, router_event)

MSS = 1500
IP_BYTES = MSS + 40
CELL_NS = cell_time_ns(m.OC3_BPS)
TCP = m.TcpConfig("reno", mss=MSS, rcv_wnd=200 * 1024, initial_ssthresh=64 * 1024, granularity_s=0.02)


def network(n_sources=2, port=RouterPort(buffer_bytes=200 * 1024), delays=(0.5e-3, 5e-3, 0.0, 0.0),
            per_network=False):
    """Fig. 1 with ``n_sources`` in IP network 1; their destinations in IP network 2 (or each in its
    own network 2, 3, 4 with ``per_network``). ``delays``: source links, L1, L2, destination links."""
    src_delay, l1, l2, dst_delay = delays
    sources = tuple((f"S{i + 1}", src_delay) for i in range(n_sources))
    nets = {1: sources}
    for i in range(n_sources):
        nets.setdefault(2 + i if per_network else 2, ())
        nets[2 + i if per_network else 2] += ((f"D{i + 1}", dst_delay),)
    return ewa_network(nets, port, atm_delays_s=(l1, l2, l2, l2))


def run_on(net, n, duration=1.0, tcp=TCP, stops=None, starts=None, trace=None, seed=0):
    conns = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp, (starts or [0.0] * n)[i],
                               stop_s=(stops or [None] * n)[i]) for i in range(n))
    return m.Run(net, conns, duration, seed=seed, trace=trace or m.TraceConfig(ports=("AAP1->ATM",),
                                                                              sample_interval_s=0.01))


# --- timing of one packet and its ACK ---------------------------------------------------------------------
def test_first_ack_arrives_after_every_link_of_the_path():
    """A segment and its ACK cross, each way: the host's IP link (bytes x 8 / 155.52 Mbit/s), AAP
    segmentation onto L1 (33 cells of a 1556-byte AAL5 frame; an ACK: 2), the ATM switch (one cell
    time), the far IP link; plus every propagation delay twice (ewa 2)."""
    d_src, l1, l2, d_dst = 0.5e-3, 5e-3, 0.1e-3, 0.2e-3
    run = run_on(network(1, delays=(d_src, l1, l2, d_dst)), 1, 0.05, trace=m.TraceConfig(connections=(0,)))
    ds = atmtcp.simulate(run)
    first_ack = ds.trace_time.values[ds.trace_kind.values == "ack_received"][0]
    ip = lambda nbytes: -(-nbytes * round(8e12 / m.OC3_BPS) // 1000)  # noqa: E731  ps per byte, up to the ns
    data_cells, ack_cells = cells_for(MSS, 56), cells_for(0, 56)
    expected_ns = (ip(IP_BYTES) + data_cells * CELL_NS + CELL_NS + ip(IP_BYTES)      # the segment
                   + ip(40) + ack_cells * CELL_NS + CELL_NS + ip(40)                 # its ACK
                   + 2 * round((d_src + l1 + l2 + d_dst) * NS))
    assert (data_cells, ack_cells) == (33, 2)
    assert round(first_ack * NS) == expected_ns


def test_vc_rate_spaces_the_cells():
    """An access point sends a VC's cells at the VC's rate (ewa 2: "drained at the available rate on
    the ATM network"): at half the link's rate a packet of 33 cells takes 32 gaps of two cell times
    plus one cell, and a long transfer gets half the TCP throughput."""
    port = RouterPort(buffer_bytes=200 * 1024, vc_rate_bps=m.OC3_BPS / 2)
    compiled = compile_run(run_on(network(1, port=port), 1))
    p = compiled.router_ports.index("AAP1->ATM")
    gap = cell_time_ns(m.OC3_BPS / 2)
    assert int(compiled.state.rport[p, L.RP_CELL_GAP_NS]) == gap == 5453  # 2 x 2726.34 ns, to the ns
    k = packet_at(compiled, p, flow=0, seq=0)
    admit_packet(compiled.kernel_state, p, 0, 0, hop_of(compiled, 0, p), k, 0)
    assert int(compiled.state.rport[p, L.RP_EVENT_AT]) == 32 * gap + CELL_NS
    ds = atmtcp.simulate(run_on(network(1, port=port), 1, 2.0))
    half = 0.5 * ds.capacity_bps.item() / 1e6
    mbps = float(ds.goodput_bps[0]) / 1e6
    assert 0.9 * half < mbps <= half * (1 + 1e-3)


# --- queues at the port against the naive FIFO ----------------------------------------------------------------
def packet_at(compiled, p, flow, seq):
    """A packet record of data flow ``flow`` (its cells from the flow's framing), id ``seq``."""
    S = compiled.kernel_state
    k = alloc_packet(S, flow, seq, 0, int(compiled.state.vc[flow, L.V_DATA_CELLS]))
    compiled.state.pkt[k, L.PKT_ALIVE] = 0
    compiled.state.pkt[k, L.PKT_PENDING] = 1
    return k


def hop_of(compiled, flow, p):
    return int(np.flatnonzero(compiled.state.flow_rport[flow] == p)[0])


def queued_ids(compiled, q):
    rq, ring = compiled.state.rq, compiled.state.rq_ring
    head, cap, base = (int(rq[q, c]) for c in (L.RQ_HEAD, L.RQ_RING_CAP, L.RQ_RING_BASE))
    return [int(compiled.state.pkt[ring[base + (head + i) % cap, 0], L.PKT_SEQ]) for i in range(int(rq[q, L.RQ_PKTS]))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(policy=st.sampled_from(["drop_tail", "drop_from_front"]), cap_packets=st.integers(2, 6),
       ops=st.lists(st.sampled_from([0, 1, -1]), min_size=10, max_size=80))
def test_router_queue_matches_the_papers_sentences(policy, cap_packets, ops):
    """ewa 2 and 2.1: Drop-Tail drops the arriving packet at a full queue; Drop-from-Front drops the
    packet after the head in service and always accepts the arriving one. Arrivals (of two flows)
    and departures in random order: the queue's contents and its drop counts equal the naive FIFO's."""
    port = RouterPort(buffer_packets=cap_packets, policy=RouterPolicy(policy))
    compiled = compile_run(run_on(network(2, port=port), 2))
    S, state = compiled.kernel_state, compiled.state
    p = compiled.router_ports.index("AAP1->ATM")
    naive = NaiveRouterQueue(policy, 10**9, cap_packets, {0: IP_BYTES, 2: IP_BYTES})
    t = 0
    for n, op in enumerate(ops):
        if op < 0:
            if not naive.queue:
                continue
            t = int(state.rport[p, L.RP_EVENT_AT])
            router_event(S, p, t)
            naive.depart()
        else:
            flow = 2 * op
            admit_packet(S, p, 0, flow, hop_of(compiled, flow, p), packet_at(compiled, p, flow, n), t)
            naive.arrive(n, flow)
        assert queued_ids(compiled, 0) == [packet for packet, _ in naive.queue]
    reasons = [reason for _, reason in naive.dropped]
    assert int(state.rq[0, L.RQ_DROP_FRONT]) == reasons.count("front")
    assert int(state.rq[0, L.RQ_DROP_OVERFLOW]) == reasons.count("overflow")
    if policy == "drop_from_front":
        assert reasons.count("overflow") == 0  # "The arriving packet is always accepted"


def test_buffer_counts_bytes_and_packets():
    """A queue bounded in bytes holds floor(bytes / packet) packets, one bounded in packets that many
    (ewa counts both: "200 Kbytes", "110 packets")."""
    for port, holds in ((RouterPort(buffer_bytes=5 * IP_BYTES + 100), 5), (RouterPort(buffer_packets=7), 7)):
        compiled = compile_run(run_on(network(1, port=port), 1))
        p = compiled.router_ports.index("AAP1->ATM")
        for n in range(holds + 3):
            admit_packet(compiled.kernel_state, p, 0, 0, hop_of(compiled, 0, p), packet_at(compiled, p, 0, n), 0)
        assert int(compiled.state.rq[0, L.RQ_PKTS]) == holds
        assert int(compiled.state.rq[0, L.RQ_DROP_OVERFLOW]) == 3


def test_per_vc_queues_interleave_cells_round_robin():
    """ewa 2's per-VC queueing and scheduling: two VCs, one 33-cell packet each at t = 0, served a cell
    at a time in turn: the first ends after 65 cell times, the second after 66."""
    port = RouterPort(buffer_bytes=64 * 1024, per_vc_queues=True)
    compiled = compile_run(run_on(network(2, port=port, per_network=True), 2))
    S, state = compiled.kernel_state, compiled.state
    p = compiled.router_ports.index("AAP1->ATM")
    assert compiled.router_queues == ["AAP1->ATM:AAP2", "AAP1->ATM:AAP3"]
    for flow, q in ((0, 0), (2, 1)):
        admit_packet(S, p, q, flow, hop_of(compiled, flow, p), packet_at(compiled, p, flow, flow), 0)
    done = []
    while state.rport[p, L.RP_EVENT_AT] >= 0:
        t = int(state.rport[p, L.RP_EVENT_AT])
        before = state.rq[:, L.RQ_PKTS].copy()
        router_event(S, p, t)
        done += [(q, t) for q in np.flatnonzero(state.rq[:, L.RQ_PKTS] < before)]
    assert done == [(0, 65 * CELL_NS), (1, 66 * CELL_NS)]
    assert int(state.rport[p, L.RP_CELLS_OUT]) == 66


def test_per_vc_round_robin_shares_the_link_equally():
    """Three backlogged VCs without delays get a third of L1 each."""
    port = RouterPort(buffer_bytes=64 * 1024, per_vc_queues=True)
    ds = atmtcp.simulate(run_on(network(3, port=port, delays=(0.0, 0.0, 0.0, 0.0), per_network=True), 3, 2.0))
    shares = ds.measured_payload_bytes.values / ds.measured_payload_bytes.values.sum()
    np.testing.assert_allclose(shares, 1 / 3, atol=0.01)
    assert float(ds.efficiency) > 0.97


# --- Floyd-Jacobson RED ---------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 2000), st.floats(0, 1, exclude_max=True)),
                min_size=1, max_size=300),
       st.sampled_from([(15, 30, 0.02, 0.002), (5, 15, 0.1, 0.2), (0, 3, 1.0, 1.0)]))
def test_red_functions_match_floyd_jacobson(arrivals, params):
    """Every average, count and decision of the kernel's RED functions equals Floyd and Jacobson's
    section 4 algorithm (naive.NaiveRed) over random queue lengths, idle times and draws."""
    min_th, max_th, max_p, w = params
    naive = NaiveRed(min_th, max_th, max_p, w, packet_time=90.0)
    avg, count = 0.0, -1
    for q, idle, u in arrivals:
        avg = red_average(avg, q, w, float(idle), 90.0)
        drop, forced, count = red_decision(avg, count, float(min_th), float(max_th), max_p, False, u)
        assert drop == naive.arrive(q, idle, u)
        assert forced == (drop and avg >= max_th)
        assert avg == pytest.approx(naive.avg, rel=1e-12, abs=1e-300)
        assert count == naive.count


def test_red_spaces_drops_uniformly():
    """Floyd and Jacobson 7: with p_a = p_b / (1 - count p_b) the packets between two drops are uniform
    on 1 .. 1/p_b (not geometric): mean (1/p_b + 1) / 2, never more than 1/p_b."""
    p_b_avg = 15 + 0.5 * 15   # p_b = 0.02 x 0.5 = 0.01: 1 / p_b = 100
    rng = np.random.default_rng(1)
    gaps, count, since = [], -1, 0
    for u in rng.random(200_000):
        drop, _, count = red_decision(p_b_avg, count, 15.0, 30.0, 0.02, False, u)
        since += 1
        if drop:
            gaps.append(since)
            since = 0
    gaps = np.array(gaps)
    assert gaps.max() <= 100
    assert gaps.mean() == pytest.approx(50.5, rel=0.03)
    assert red_drop_probability(p_b_avg, 0, 15.0, 30.0, 0.02, False) == pytest.approx(0.01)


def test_gentle_red_ramps_from_max_p_to_one_between_max_th_and_twice_max_th():
    """Floyd's gentle RED: p_b = max_p at max_th, (1 + max_p) / 2 half-way to 2 max_th, every arrival
    dropped (forced) from 2 max_th on; without it every arrival at or above max_th is dropped."""
    assert red_drop_probability(30.0, 0, 15.0, 30.0, 0.02, True) == pytest.approx(0.02)
    assert red_drop_probability(45.0, 0, 15.0, 30.0, 0.02, True) == pytest.approx(0.51)
    assert red_decision(59.9, -1, 15.0, 30.0, 0.02, True, 0.999)[0] is False   # p_a = p_b = 0.9967
    assert red_decision(60.0, 0, 15.0, 30.0, 0.02, True, 0.999)[:2] == (True, True)
    assert red_decision(30.0, 0, 15.0, 30.0, 0.02, False, 0.999)[:2] == (True, True)
    assert red_decision(29.9, 5, 15.0, 30.0, 0.02, False, 0.0)[:2] == (True, False)


def test_red_run_keeps_its_buffer_and_depends_on_the_seed():
    """ewa 2.2's RED at AAP-1: its drops are early ones (the average stays below 30 packets, far from
    the 110-packet buffer); the same seed gives the same run, another seed another."""
    port = RouterPort(buffer_packets=110, policy=RouterPolicy("red", 15, 30, 0.02))
    runs = [atmtcp.simulate(run_on(network(4, port=port), 4, 2.0, seed=s)) for s in (1, 1, 2)]
    drops = runs[0].queue_packets_dropped.sel(router_queue="AAP1->ATM")
    assert int(drops.sel(router_drop_reason="early")) > 0
    assert int(runs[0].max_queue_packets.max()) <= 110
    assert runs[0].identical(runs[1])
    assert not np.array_equal(runs[0].queue_bytes.values, runs[2].queue_bytes.values)


# --- conservation, closing ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("port", [
    RouterPort(buffer_bytes=40 * IP_BYTES),
    RouterPort(buffer_bytes=40 * IP_BYTES, policy=RouterPolicy("drop_from_front")),
    RouterPort(buffer_packets=40, policy=RouterPolicy("red", 5, 15, 0.05)),
    RouterPort(buffer_bytes=20 * IP_BYTES, per_vc_queues=True),
], ids=["tail", "front", "red", "per_vc"])
def test_packets_are_conserved(port):
    """At every router port packets in = out + dropped + still queued; at AAP-1 the drops are the
    sources' lost packets; nothing is delivered that was not sent on L1 (the ATM network loses
    nothing); bytes delivered never exceed the bytes sent."""
    ds = atmtcp.simulate(run_on(network(4, port=port, per_network=port.per_vc_queues), 3 if port.per_vc_queues else 4,
                                1.5))
    dropped = ds.queue_packets_dropped.sum("router_drop_reason")
    aap = ds.sel(router_port="AAP1->ATM")
    assert int(aap.router_packets_in) == int(aap.router_packets_out) + int(dropped.sum()) + int(ds.queue_packets.sum())
    assert int(dropped.sum()) > 0
    others = ds.router_port.values != "AAP1->ATM"
    np.testing.assert_array_equal(ds.router_packets_in.values[others], ds.router_packets_out.values[others])
    assert int(ds.packets_dropped_by_source.sum()) + int(ds.acks_dropped_by_source.sum()) == int(dropped.sum())
    assert (ds.delivered_bytes <= ds.measured_payload_bytes).all()
    assert (ds.delivered_bytes <= ds.sent_bytes).all()
    assert int(aap.router_cells_out) == 33 * int(aap.router_packets_out)


@pytest.mark.parametrize("packet_path", [True, False], ids=["packets", "cells"])
def test_a_closed_connection_sends_no_new_data_but_delivers_what_it_sent(packet_path):
    """ewa 2: connections close at given times. The application stops: no byte beyond the highest sent
    at the close, and everything sent before it is delivered (lost packets retransmitted), on the
    packet path and on the cell path alike."""
    if packet_path:
        port = RouterPort(buffer_bytes=20 * IP_BYTES)
        run = run_on(network(2, port=port), 2, 2.0, stops=[0.3, None], trace=m.TraceConfig(
            ports=("AAP1->ATM",), connections=(0,), sample_interval_s=0.01))
    else:
        from atmtcp.topologies import n_source_run
        base = n_source_run(2, 1e-3, m.PortConfig(300, m.DropPolicy("tail")), m.TcpConfig(), 2.0,
                            trace=m.TraceConfig(connections=(0,)), contention="deterministic")
        run = m.Run(base.network, (m.Connection("S1", "D1", m.TcpConfig(), stop_s=0.3), base.connections[1]),
                    2.0, trace=base.trace)
    ds = atmtcp.simulate(run)
    sent = ds.trace_value.values[(ds.trace_kind.values == "seq_sent") & (ds.trace_source.values == 0)]
    times = ds.trace_time.values[(ds.trace_kind.values == "seq_sent") & (ds.trace_source.values == 0)]
    mss = run.connections[0].tcp.mss
    highest_at_close = sent[times <= 0.3].max() + mss
    assert sent.max() + mss == highest_at_close                  # nothing new after the close
    assert int(ds.delivered_bytes[0]) == highest_at_close         # and all of it delivered
    assert int(ds.retransmissions[0]) > 0 or not packet_path       # losses were repaired (packet run)
    assert int(ds.delivered_bytes[1]) > int(ds.delivered_bytes[0])  # the other one goes on


# --- bad input, refused before the kernel ---------------------------------------------------------------------------
@pytest.mark.parametrize("make,field", [
    (lambda: compile_run(run_on(network(1, port=RouterPort(buffer_bytes=1000)), 1)), "buffer_bytes"),
    (lambda: RouterPort(buffer_packets=20, policy=RouterPolicy("red", 15, 30, 0.02)), "max_th"),
    (lambda: compile_run(run_on(network(1, port=RouterPort(buffer_bytes=20 * IP_BYTES,
                                                           policy=RouterPolicy("red", 15, 30, 0.02))), 1)), "max_th"),
    (lambda: RouterPolicy("red", 15, 30, 0.0), "max_p"),
    (lambda: RouterPolicy("red", 15, 30, 1.5), "max_p"),
    (lambda: RouterPolicy("red", 30, 15, 0.02), "max_th"),
    (lambda: RouterPolicy("red", weight=0.0), "weight"),
    (lambda: m.Connection("S1", "D1", TCP, start_s=2.0, stop_s=1.0), "stop_s"),
    (lambda: RouterPort(buffer_bytes=64 * 1024, vc_rate_bps=0.0), "vc_rate_bps"),
    (lambda: RouterPort(policy=RouterPolicy("drop_from_front")), "policy"),
    (lambda: RouterPort(per_vc_queues=True), "per_vc_queues"),
    (lambda: RouterPolicy("wred"), "kind"),
], ids=["packet_above_buffer", "red_above_packets", "red_above_bytes", "max_p_zero", "max_p_above_one",
        "thresholds_reversed", "weight_zero", "close_before_open", "vc_rate_zero", "front_infinite",
        "per_vc_infinite", "unknown_policy"])
def test_bad_input_is_refused_naming_the_field(make, field):
    """Each is a ModelError naming the field, raised by the model or the compiler, before the kernel."""
    with pytest.raises(m.ModelError, match=field):
        make()


def test_internetwork_shape_is_checked():
    """A host joins a router; ATM options only on a port towards an ATM switch; known port names."""
    link = m.Link
    with pytest.raises(m.ModelError, match="router"):
        Internetwork(("H1", "H2"), ("R1",), ("ATM",), (link("H1", "ATM"), link("H2", "R1")))
    with pytest.raises(m.ModelError, match="vc_rate_bps"):
        Internetwork(("H1", "H2"), ("R1",), (), (link("H1", "R1"), link("H2", "R1")),
                     router_ports=(("R1->H2", RouterPort(buffer_bytes=10**5, vc_rate_bps=1e6)),))
    with pytest.raises(m.ModelError, match="router_ports"):
        Internetwork(("H1", "H2"), ("R1",), (), (link("H1", "R1"), link("H2", "R1")),
                     router_ports=(("R1->H9", RouterPort()),))
    with pytest.raises(m.ModelError, match="ports"):
        compile_run(m.Run(network(1), (m.Connection("S1", "D1", TCP),), 1.0, trace=m.TraceConfig(ports=("S1->AAP1",))))
