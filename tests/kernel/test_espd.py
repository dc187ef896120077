"""Early Selective Packet Discard (cheon 3.3) against its pseudocode, and the rest of what
cheon's experiments need from the kernel: the IP service rate (cheon 2), its framing, and
the effective-throughput counter (cheon 4.2.3).

:func:`espd_decision` is checked branch by branch; then the kernel's port-level function
(:func:`atmtcp.kernel.policies.decide_espd`, with the drop-list count, the list epoch and
the drop timer in a real compiled state) decides random cell sequences as
``naive.NaiveEspd``, the pseudocode transcribed line by line.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atmtcp
from atmtcp import model as m
from atmtcp.compile import NS, compile_run
from atmtcp.kernel import layout as L
from atmtcp.kernel.policies import decide_espd, espd_decision
from atmtcp.topologies import parking_lot, parking_lot_bottleneck

from naive import NaiveEspd, arrivals_from_ops, cells_for
from pointers import on_pointers

decide_espd = on_pointers(decide_espd)

ACCEPT = L.ACCEPT
STAY, CAPTURE, RELEASE = L.ESPD_STAY, L.ESPD_CAPTURE, L.ESPD_RELEASE


def espd(listed=False, X=0, K=100, R1=90, R2=50, list_full=False, bom=False, eom=False):
    return espd_decision(listed, X, K, R1, R2, list_full, bom, eom)


# --- espd_decision, one pseudocode branch at a time ------------------------------------------------
def test_listed_vc_loses_every_cell_but_eom_even_with_room():
    """cheon 3.3: "All the subsequent cells except EOM cell are discarded, even though we have available buffer"."""
    for bom in (True, False):
        assert espd(listed=True, X=0, bom=bom) == (L.DROP_PARTIAL, STAY)


def test_listed_eom_enters_when_room_and_releases_below_threshold2():
    """cheon 3.3: a listed VC's EOM is inserted if queue_length < buffer_size, and releases the VC
    if queue_length < buffer threshold 2."""
    assert espd(listed=True, X=49, eom=True) == (ACCEPT, RELEASE)
    assert espd(listed=True, X=50, eom=True) == (ACCEPT, STAY)
    assert espd(listed=True, X=100, eom=True) == (L.DROP_OVERFLOW, STAY)


def test_unlisted_cells_enter_at_or_below_threshold1():
    """cheon 3.3: "if queue_length <= buffer threshold 1, insert the cell into buffer"."""
    for bom in (True, False):
        assert espd(X=90, bom=bom) == (ACCEPT, STAY)


def test_bom_above_threshold1_captured_while_list_has_room():
    """cheon 3.3: above threshold 1 a BOM is discarded and its VC captured while the list is below
    the drop-list threshold; once it is full, packets enter while there is buffer space."""
    assert espd(X=91, bom=True) == (L.DROP_THRESHOLD, CAPTURE)
    assert espd(X=91, bom=True, list_full=True) == (ACCEPT, STAY)
    assert espd(X=91, bom=False) == (ACCEPT, STAY)


def test_full_buffer_captures_whatever_the_list():
    """cheon 3.3: "or the buffer is full: discard the cell, capture the VPI/VCI into drop-list"."""
    for bom in (True, False):
        for eom in (True, False):
            for full in (True, False):
                assert espd(X=100, bom=bom, eom=eom, list_full=full) == (L.DROP_OVERFLOW, CAPTURE)


# --- the port: list count, epoch and drop timer in a compiled state --------------------------------
def espd_port_state(K, R1, R2, droplist_max, timer_s, n_vc):
    """A compiled parking lot whose bottleneck runs ESPD; returns the kernel state, the port
    index and the (port, VC) slot of each source's data VC there."""
    policy = m.DropPolicy("espd", threshold=R1, threshold2=R2, droplist_max=droplist_max, drop_timer_s=timer_s)
    n_sources = max(n_vc, 2)  # one source's port would be folded: it can never queue
    network = parking_lot(((n_sources, 1e-3),), (1e-3,), m.PortConfig(K, policy), 1e-3)
    tcp = m.TcpConfig(mss=500)
    run = m.Run(network, tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp) for i in range(n_sources)), 1.0,
                )
    compiled = compile_run(run)
    p = compiled.port_names.index(parking_lot_bottleneck(network))
    S = compiled.state
    slots = []
    for v in range(0, 2 * n_vc, 2):  # data VCs
        hop = int(np.flatnonzero(S.vc_port[v] == p)[0])
        slots.append((v, int(S.vc_pv[v, hop])))
    return compiled, p, slots


@st.composite
def espd_scenarios(draw):
    K = draw(st.integers(2, 14))
    R1 = draw(st.integers(1, K - 1))
    R2 = draw(st.integers(0, R1 - 1))
    droplist_max = draw(st.integers(1, 3))
    n_vc = draw(st.integers(1, 4))
    lengths = [draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)) for _ in range(n_vc)]
    ops = draw(st.lists(st.sampled_from([-1] + list(range(n_vc)) * 2), min_size=40, max_size=160))
    # time advances by 0-3 units per event; the timer runs 5-40 units
    steps = draw(st.lists(st.integers(0, 3), min_size=len(ops), max_size=len(ops)))
    timer = draw(st.integers(5, 40))
    return K, R1, R2, droplist_max, n_vc, arrivals_from_ops(ops, lengths), steps, timer


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(espd_scenarios())
def test_espd_port_matches_pseudocode(scenario):
    """cheon 3.3: every cell decision, capture and drop-timer release of the kernel's ESPD port equals
    the pseudocode's (drop-list threshold, capture order, timer started by the first capture,
    stopped by a release on queue length, releasing all VCs on expiry)."""
    K, R1, R2, droplist_max, n_vc, events, steps, timer = scenario
    unit_ns = 1000
    compiled, p, slots = espd_port_state(K, R1, R2, droplist_max, timer * unit_ns / NS, n_vc)
    naive = NaiveEspd(K, R1, R2, droplist_max, timer)
    queue, now, captures = 0, 0, []
    for event, step in zip(events, steps):
        now += step
        if event[0] == "depart":
            naive.depart()
            queue = max(0, queue - 1)
            continue
        _, vc, bom, eom = event
        v, pv = slots[vc]
        decision = decide_espd(compiled.kernel_state, p, pv, queue, bom, eom, now * unit_ns)
        if decision >= L.CAPTURED:
            captures.append((now, vc))
        accepted = decision == ACCEPT
        assert accepted == naive.arrive(vc, bom, eom, now)
        assert int(compiled.state.port[p, L.P_DROPLIST_LEN]) == len(naive.drop_list)
        queue += accepted
    assert captures == naive.captures


# --- validation ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs,field", [
    ({"threshold": 100, "threshold2": 100}, "threshold2"),
    ({"drop_timer_s": 0.0}, "drop_timer_s"),
    ({"droplist_max": 0}, "droplist_max"),
])
def test_espd_parameters_validated(kwargs, field):
    """cheon 3.3's parameters: threshold 2 below threshold 1, a positive timer and list threshold."""
    with pytest.raises(m.ModelError, match=field):
        m.DropPolicy("espd", **kwargs)


def test_espd_thresholds_within_buffer():
    with pytest.raises(m.ModelError, match="threshold"):
        m.PortConfig(100, m.DropPolicy("espd", threshold=100, threshold2=50))
    with pytest.raises(m.ModelError, match="threshold2"):
        m.DropPolicy("epd", threshold2=10)
    port = m.PortConfig(2000, m.DropPolicy("espd"))
    assert port.policy.resolved_threshold(2000) == 1920
    assert port.policy.resolved_threshold2(2000) == 1000


# --- cheon's hosts and framing ---------------------------------------------------------------------
CHEON_AAL5 = m.Aal5Config(tcpip_header_bytes=40, llc_bytes=0, trailer_bytes=14)


@pytest.mark.parametrize("payload,cells", [(500, 12), (1500, 33)])
def test_cheon_framing(payload, cells):
    """cheon 2: 14 bytes of AAL overhead and 20 + 20 of TCP/IP, padded to 48: 12 and 33 cells."""
    assert cells_for(payload, CHEON_AAL5.overhead_bytes) == cells
    assert atmtcp.kernel.aal5.packet_cells(payload, CHEON_AAL5.overhead_bytes) == cells


@pytest.mark.parametrize("payload,pps", [(500, 10_500), (1500, 4_000)])
def test_offered_load_about_3_5_oc3(payload, pps):
    """cheon 2: "the total possible aggregated traffic coming to the most congested output port of an
    ATM switch is limited to 3.5 times of the SONET STS-3c speed" (10 sources at R packets/s)."""
    cells = cells_for(payload, CHEON_AAL5.overhead_bytes)
    load = 10 * pps * cells * 53 * 8 / m.OC3_BPS
    assert 3.4 <= load <= 3.65


def test_ip_service_rate_paces_packets():
    """cheon 2: a host hands one packet per 1/R to AAL5; its cells follow at the line rate. One
    source with a large window on an idle path delivers R packets/s, not the link's rate."""
    tcp = m.TcpConfig(mss=500, rcv_wnd=65535, initial_ssthresh=65535)
    network = parking_lot(((1, 1e-4),), (1e-4,), m.PortConfig(None), 1e-4, ip_service_pps=10_500)
    run = m.Run(network, (m.Connection("S1", "D1", tcp),), 1.0, aal5=CHEON_AAL5, warmup_s=0.5)
    ds = atmtcp.simulate(run)
    # window-limited rate: 65535 bytes per ~0.7 ms RTT, far above 10,500 packets/s
    received = int(ds.segments_received.sum())
    assert abs(received - 10_500 * 0.5) <= 2


def test_segments_received_counts_distinct_segments_after_warmup():
    """cheon 4.2.3: effective throughput counts each packet once, after the 0.5 s warm-up."""
    port = m.PortConfig(300, m.DropPolicy("tail"))
    network = parking_lot(((3, 1e-3),), (1e-3,), port, 1e-3, ip_service_pps=10_500)
    tcp = m.TcpConfig(mss=500)
    conns = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp) for i in range(3))
    whole = atmtcp.simulate(m.Run(network, conns, 1.0, aal5=CHEON_AAL5))
    late = atmtcp.simulate(m.Run(network, conns, 1.0, aal5=CHEON_AAL5, warmup_s=0.5))
    assert int(whole.retransmissions.sum()) > 0
    # from t = 0 every distinct segment counted is one delivered in order or still buffered out of order
    assert np.all(whole.segments_received.values * 500 >= whole.delivered_bytes.values)
    assert np.all(whole.segments_received.values * 500 < whole.delivered_bytes.values + 65535)
    assert np.all(late.segments_received.values < whole.segments_received.values)
    assert np.all(late.segments_received.values > 0)


def test_captures_are_logged_in_capture_order():
    """cheon Figs. 2-7's "sessions damaged": every capture into a traced port's drop-list is logged with
    its time and VC, apart from the drops; the ESPD list never holds more than the threshold plus the
    VCs captured by a full buffer."""
    policy = m.DropPolicy("espd", threshold=280, threshold2=150, droplist_max=2, drop_timer_s=0.025)
    network = parking_lot(((4, 1e-3),), (1e-3,), m.PortConfig(300, policy), 1e-3, ip_service_pps=10_500)
    conns = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", m.TcpConfig(mss=500)) for i in range(4))
    port = parking_lot_bottleneck(network)
    ds = atmtcp.simulate(m.Run(network, conns, 1.0, aal5=CHEON_AAL5, trace=m.TraceConfig(ports=(port,))))
    assert ds.capture_time.size > 0
    assert np.all(np.diff(ds.capture_time.values) >= 0)
    assert set(ds.capture_source.values) <= {0, 1, 2, 3}
    drops = ds.cells_dropped.sel(port=port)
    assert int(drops.sum()) == ds.drop_time.size  # captures are not counted as drops
