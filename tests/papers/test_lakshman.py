"""lakshman's system and settings (section 3, Fig. 1): the DS-3 arithmetic, the packets' cells, the
topology and its folded routers and ADSUs, the external RTT, the disciplines, the good-throughput
metric, and short end-to-end runs."""
import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel.aal5 import packet_cells
from atmtcp.papers.lakshman import experiments as lx
from atmtcp.papers.lakshman import scenario as ls
from atmtcp.topologies import DS3_PLCP_BPS, ROUTER_ADSU_BOTTLENECK, router_adsu_switch, router_adsu_switch_links

from test_invariants import check_invariants


def test_ds3_slot_and_beta_arithmetic():
    """lakshman 3-4: DS-3 PLCP slots of 10.4 us; 5760 cells = beta 1 at a 60 ms external RTT (96,000
    cells/s), 23040 cells = beta 4; the buffer sizes of every plot."""
    assert DS3_PLCP_BPS / (53 * 8) == 96_000
    assert ls.CELL_S == pytest.approx(10.4e-6, abs=0.02e-6)
    assert ls.CELL_S == pytest.approx(1 / 96_000, rel=1e-4)  # rounded to the kernel's nanosecond
    assert ls.beta(5760) == pytest.approx(1.0) and ls.beta(23040) == pytest.approx(4.0)
    assert 5760 * ls.CELL_S == pytest.approx(0.060, rel=1e-4)  # the buffer drains in one RTT
    assert ls.BUFFERS[0] == 256 and ls.BUFFERS[-1] == 23040 and len(ls.BUFFERS) == 14


def test_packets_are_92_and_2_cells():
    """lakshman 3: "4388 bytes for data packets and 64 bytes for acknowledgement (ACK) packets. These
    translate to 92 cells per data packet and 2 cells per ACK packet"."""
    assert ls.MSS + ls.AAL5.tcpip_header_bytes == 4388
    assert packet_cells(ls.MSS, ls.AAL5.overhead_bytes) == 92
    assert packet_cells(0, ls.AAL5.overhead_bytes) == 2
    compiled = compile_run(ls.lakshman_run((0.06, 0.06), ls.discipline_port("frame_front", 5760), 1, 0.01, 0.0))
    assert list(compiled.state.vc[0::2, 5]) == [92, 92]  # V_DATA_CELLS


def test_topology_folds_routers_and_adsus():
    """Fig. 1: sources -> routers -> ADSUs -> switch -> ADSU -> router -> destinations. Only the
    sources' NICs, the switch's ports and the destination router's merge of the ACKs are simulated;
    routers and ADSUs fold into delays ("just add one more non-bottlenecking hop")."""
    run = ls.lakshman_run((0.06,) * 3, ls.discipline_port("cell_tail", 2304), 1, 0.01, 0.0)
    compiled = compile_run(run)
    assert compiled.bottleneck == ROUTER_ADSU_BOTTLENECK
    simulated = set(compiled.port_names)
    assert simulated == {"S1->R1", "S2->R2", "S3->R3", "SW->A1", "SW->A2", "SW->A3", "SW->AD", "RD->AD",
                         "D1->RD", "D2->RD", "D3->RD"}
    assert {"R1->A1", "A1->SW", "AD->RD", "RD->D1", "AD->SW", "A1->R1", "R1->S1"} <= set(compiled.folded_ports)
    ports = dict(run.network.ports)
    assert ports[ROUTER_ADSU_BOTTLENECK].slotted and ports["SW->A1"].slotted  # switch outputs: slotted
    assert run.network.switch_port == m.PortConfig(None)                      # routers, ADSUs: never drop
    assert ports[ROUTER_ADSU_BOTTLENECK].fan_in is None                        # F = the number of inputs
    assert all(link.rate_bps == DS3_PLCP_BPS for link in run.network.links)


def test_link_delays_are_drawn_per_link_from_the_seed():
    """lakshman 3: delays "in the range 100 usecs to 2800 usecs ... fixed for a specific link but differs
    from link to link": 4 n + 2 links, in range, the same for the same seed, different across seeds."""
    a, b = ls.link_delays(14, 1), ls.link_delays(14, 2)
    assert a.size == len(router_adsu_switch_links(14)) == 58
    assert np.all((a >= 100e-6) & (a <= 2800e-6)) and np.unique(a).size == a.size
    np.testing.assert_array_equal(a, ls.link_delays(14, 1))
    assert not np.array_equal(a, b)
    with pytest.raises(m.ModelError, match="delays_s"):
        router_adsu_switch(2, a[:5], ls.discipline_port("cell_tail", 256))


def test_equal_rtts_share_one_ack_delay_and_average_the_nominal_rtt():
    """lakshman 3-4: one "specified value" of ACK delay for every receiver; the figures' RTT is the
    external RTT, here on average over the run's connections, which differ by their links' delays."""
    delays = ls.link_delays(14, 5)
    ack = ls.ack_delays((0.06,) * 14, delays)
    external = ls.external_rtts((0.06,) * 14, delays)
    assert len(set(ack)) == 1 and 0.02 < ack[0] < 0.057
    assert external.mean() == pytest.approx(0.06, abs=1e-12)
    assert 0.001 < np.ptp(external) < 0.02
    unequal = ls.external_rtts((0.04, 0.06, 0.08), delays[:14])
    assert unequal.mean() == pytest.approx(0.06) and np.all(np.diff(unequal) > 0)


@pytest.mark.parametrize("rtt", [0.04, 0.06, 0.08])
def test_external_rtt_is_the_nominal_one(rtt):
    """The figures' RTT is the RTT outside the buffer: a lone connection's first segment is acknowledged
    one nominal RTT after it was sent (within two slots: slot alignment at the switch's ports)."""
    trace = m.TraceConfig(connections=(0,))
    run = ls.lakshman_run((rtt,), ls.discipline_port("frame_front", 23040), 3, 0.2, 0.0, trace)
    ds = atmtcp.simulate(run)
    first_ack = ds.trace_time.values[ds.trace_kind.values == "ack_received"][0]
    assert first_ack == pytest.approx(rtt, abs=2 * ls.CELL_S)
    assert 0 < float(ds.rtt_samples[0])  # timestamps: sampled from the first ACK on


def test_tcp_is_reno_with_timestamps_and_an_open_window():
    """lakshman 3: Reno, the timestamp option, window scaling, windows not limited by the hosts, a fine
    timer, the fixed ACK delay at the receiver."""
    tcp = ls.tcp_config(0.05)
    assert (tcp.flavor, tcp.timestamps, tcp.ack_delay_s, tcp.delayed_ack) == ("reno", True, 0.05, False)
    assert tcp.window_scale == 7 and tcp.granularity_s < 0.5
    largest_window_cells = 23040 + 0.06 * 96_000
    assert tcp.rcv_wnd / ls.MSS > 5 * largest_window_cells / 92


@pytest.mark.parametrize("discipline,policy,randomized,front", [
    ("cell_tail", "tail", True, "none"), ("frame_tail", "ppd", True, "none"),
    ("cell_front", "tail", False, "cell"), ("frame_front", "tail", False, "frame"),
])
def test_disciplines(discipline, policy, randomized, front):
    """lakshman 4's four disciplines at a slotted port: the tail ones randomized (section 3), the front
    ones not ("Drop from front does not suffer from phase effects")."""
    port = ls.discipline_port(discipline, 1152)
    assert (port.policy.kind, port.randomized_tail, port.drop_from_front, port.slotted) == \
        (policy, randomized, front, True)


def test_good_throughput_of_a_lone_source_is_the_link():
    """A lone source cannot congest (its own DS-3 feeds the DS-3 output): after slow start every slot of
    the bottleneck carries a good cell, so the normalized good throughput is 1 (within 1 %: the packets
    in flight at the ends of the measured time)."""
    run = ls.lakshman_run((0.06,), ls.discipline_port("cell_tail", 5760), 1, 4.0, 2.0)
    ds = atmtcp.simulate(run)
    good = ls.good_throughput(ds.segments_received.values, run.duration_s, run.warmup_s)
    assert int(ds.cells_dropped.sum()) == 0
    assert good.sum() == pytest.approx(1.0, abs=0.01)


@pytest.mark.parametrize("discipline", ls.DISCIPLINES)
def test_invariants_and_good_throughput_bound(discipline):
    """Cell conservation and TCP's accounting hold for each discipline; good cells after the warm-up
    never exceed the cells the bottleneck sent; damaged frames are at most one per drop of a cell
    that was not the remainder of an already damaged frame."""
    run = ls.lakshman_run((0.04, 0.06, 0.08), ls.discipline_port(discipline, 1152), 2, 3.0, 1.0)
    ds = atmtcp.simulate(run)
    drops = ds.cells_dropped.sel(port=ROUTER_ADSU_BOTTLENECK)
    assert int(drops.sel(drop_reason="overflow")) > 0
    policy = {"cell_tail": "tail", "frame_tail": "ppd", "cell_front": "front_cell", "frame_front": "front_frame"}
    check_invariants(run, ds, policy[discipline], 1152)
    good = ls.good_throughput(ds.segments_received.values, run.duration_s, run.warmup_s)
    sent_after_warmup = int(ds.cells_out.sel(port=ROUTER_ADSU_BOTTLENECK))  # the whole run: an upper bound
    assert 0 < good.sum() <= 1.0
    assert good.sum() * (run.duration_s - run.warmup_s) / ls.CELL_S <= sent_after_warmup
    assert int(ds.frames_bad.sum()) <= int(drops.sel(drop_reason="overflow"))


def test_front_drop_warns_one_drain_time_earlier():
    """lakshman 1: drop from front makes the receiver see the hole "approximately one buffer drain time
    earlier": at beta = 1, the tenth percentile of the time from a drop to its fast retransmit is about
    one RTT under Frame-Front and one RTT plus the drain time (60 ms) under Frame-Tail (within 10 ms)."""
    delays = {}
    for discipline in ("frame_tail", "frame_front"):
        trace = m.TraceConfig(connections=tuple(range(14)), ports=(ROUTER_ADSU_BOTTLENECK,), max_records=1_000_000)
        run = ls.lakshman_run((0.06,) * 14, ls.discipline_port(discipline, 5760), 1, 4.0, 1.0, trace)
        w = lx.warning_delays(atmtcp.simulate(run))
        delays[discipline] = np.percentile(w[np.isfinite(w)], 10)
    assert delays["frame_front"] == pytest.approx(0.060, abs=0.01)
    assert delays["frame_tail"] - delays["frame_front"] == pytest.approx(5760 * ls.CELL_S, abs=0.01)
