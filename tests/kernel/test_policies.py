"""Switch drop policies (atmtcp.kernel.policies) against their papers' definitions.

Hand-built buffer states check each rule at its boundary; hypothesis then drives
``cell_decision`` and the line-by-line transcription of the papers in ``naive.py`` with
the same random cell sequences and compares every decision.
"""
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atmtcp
from atmtcp import model as m
from atmtcp.kernel import layout as L
from atmtcp.kernel.aal5 import packet_cells as cells_for
from atmtcp.kernel.policies import cell_decision, packet_admission
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

from naive import NaiveBuffer, arrivals_from_ops, fba_drops, run_naive, selective_drop_drops

CODE = {name: i for i, name in enumerate(L.POLICY_NAMES)}
CELL_DECISION_POLICIES = tuple(p for p in L.POLICY_NAMES if p not in ("espd", "red"))
"""The policies decided by ``cell_decision`` (ESPD and RED have their own: test_espd.py, test_red.py)."""
NORMAL, DISCARD_ALL, DISCARD_KEEP_EOM = L.PV_NORMAL, L.PV_DISCARD_ALL, L.PV_DISCARD_KEEP_EOM
ACCEPT = L.ACCEPT


def decide(policy, state, X, K, R=0, Z=0.8, Y=0, Na=0, bom=False, eom=False, keep_eom=True, capture_eom=False):
    """``cell_decision`` with keyword arguments and the kernel's argument types."""
    return cell_decision(CODE[policy], int(keep_eom), int(capture_eom), state, X, K, R, float(Z), Y, Na, bom, eom)


# --- tail drop (goyal1998 3) -----------------------------------------------------------------
@pytest.mark.parametrize("bom,eom", [(True, False), (False, False), (False, True), (True, True)])
def test_tail_drops_only_when_full(bom, eom):
    """goyal1998 3: tail drop accepts any cell while the FIFO has room, drops it when full."""
    assert decide("tail", NORMAL, X=999, K=1000, bom=bom, eom=eom) == (ACCEPT, NORMAL)
    assert decide("tail", NORMAL, X=1000, K=1000, bom=bom, eom=eom) == (L.DROP_OVERFLOW, NORMAL)


def test_tail_keeps_no_drop_list():
    """goyal1998 3: tail drop (random cell discard) accepts the next cell of a damaged packet if there is room."""
    decision, state = decide("tail", NORMAL, X=1000, K=1000)
    assert decision == L.DROP_OVERFLOW
    assert decide("tail", state, X=999, K=1000) == (ACCEPT, NORMAL)


# --- PPD (cheon 3.1) ---------------------------------------------------------------------------
def test_ppd_full_buffer_drops_rest_of_packet_including_eom():
    """cheon 3.1: a full buffer drops the cell and captures the VC; later cells, the EOM included, are discarded."""
    decision, state = decide("ppd", NORMAL, X=100, K=100, bom=False)
    assert decision == L.DROP_OVERFLOW and state != NORMAL
    # the buffer has drained: PPD still discards the middle cells ...
    decision, state = decide("ppd", state, X=0, K=100)
    assert decision != ACCEPT and state != NORMAL
    # ... and the EOM, which takes the VC off the drop-list
    decision, state = decide("ppd", state, X=0, K=100, eom=True)
    assert decision != ACCEPT and state == NORMAL
    # the next packet is accepted
    assert decide("ppd", state, X=0, K=100, bom=True) == (ACCEPT, NORMAL)


def test_ppd_keep_eom_flag_does_not_apply():
    """cheon 3.1: PPD discards the EOM of a damaged packet even with keep_eom (that is EPD's rule)."""
    _, state = decide("ppd", NORMAL, X=10, K=10, keep_eom=True)
    assert decide("ppd", state, X=0, K=10, eom=True, keep_eom=True)[0] != ACCEPT


def test_ppd_has_no_threshold():
    """cheon 3.1: PPD accepts every cell, a BOM included, while the buffer is not full."""
    assert decide("ppd", NORMAL, X=99, K=100, R=1, bom=True) == (ACCEPT, NORMAL)
    assert packet_admission(CODE["ppd"], 99, 100, 1, 0.8, 99, 1) == ACCEPT


# --- EPD (cheon 3.2, goyal1998 4.1) -----------------------------------------------------------------
def test_epd_bom_below_threshold_admitted():
    """cheon 3.2: a BOM that finds queue_length < Threshold (X < R) enters."""
    assert decide("epd", NORMAL, X=799, K=1000, R=800, bom=True) == (ACCEPT, NORMAL)


def test_epd_bom_at_threshold_rejected_with_rest_of_packet():
    """cheon 3.2: a BOM with X >= R is discarded and so are the following cells of its packet."""
    decision, state = decide("epd", NORMAL, X=800, K=1000, R=800, bom=True)
    assert decision == L.DROP_THRESHOLD and state != NORMAL
    # later cells are discarded even when the queue has fallen below the threshold
    for X in (900, 500, 0):
        decision, state = decide("epd", state, X=X, K=1000, R=800)
        assert decision != ACCEPT and state != NORMAL


def test_epd_eom_of_rejected_packet_enters_when_room():
    """cheon 3.2: the EOM of a discarded packet enters if queue_length < buffer_size and leaves the drop-list."""
    _, state = decide("epd", NORMAL, X=800, K=1000, R=800, bom=True)
    assert decide("epd", state, X=999, K=1000, R=800, eom=True) == (ACCEPT, NORMAL)
    _, state = decide("epd", NORMAL, X=800, K=1000, R=800, bom=True)
    decision, state = decide("epd", state, X=1000, K=1000, R=800, eom=True)
    assert decision != ACCEPT and state == NORMAL


def test_epd_without_keep_eom_discards_eom():
    """cheon 3.2 variant (keep_eom=False): the EOM of a discarded packet is discarded too and ends the discard."""
    _, state = decide("epd", NORMAL, X=800, K=1000, R=800, bom=True, keep_eom=False)
    decision, state = decide("epd", state, X=0, K=1000, R=800, eom=True, keep_eom=False)
    assert decision != ACCEPT and state == NORMAL


def test_epd_admitted_packet_continues_above_threshold():
    """goyal1998 4.1: cells of a packet already partly accepted still enter above R while there is buffer space."""
    assert decide("epd", NORMAL, X=950, K=1000, R=800) == (ACCEPT, NORMAL)
    assert decide("epd", NORMAL, X=999, K=1000, R=800, eom=True) == (ACCEPT, NORMAL)


def test_epd_full_buffer_mid_packet_discards_rest_but_keeps_eom():
    """cheon 3.2: a middle cell finding the buffer full is discarded and captures the VC; the EOM enters if room."""
    decision, state = decide("epd", NORMAL, X=1000, K=1000, R=800)
    assert decision == L.DROP_OVERFLOW and state != NORMAL
    assert decide("epd", state, X=500, K=1000, R=800)[0] != ACCEPT
    assert decide("epd", state, X=500, K=1000, R=800, eom=True) == (ACCEPT, NORMAL)


# --- Selective Drop (goyal1998 4.2) ---------------------------------------------------------------
def test_selective_drop_no_drop_at_or_below_R():
    """goyal1998 4.2: Selective Drop drops nothing while X <= R, whatever the load ratio."""
    # one VC holding the whole buffer: load ratio 1 > Z
    assert decide("selective_drop", NORMAL, X=900, K=1000, R=900, Z=0.8, Y=900, Na=1, bom=True) == (ACCEPT, NORMAL)


def test_selective_drop_load_ratio_cutoff():
    """goyal1998 4.2: above R a new packet is dropped iff its VC's load ratio Y*Na/X exceeds Z."""
    # X = 950 cells, Na = 5 active VCs: fair share 190 cells; Z = 0.8 -> cutoff at Y = 152
    kw = dict(X=950, K=1000, R=900, Z=0.8, Na=5, bom=True)
    assert decide("selective_drop", NORMAL, Y=152, **kw) == (ACCEPT, NORMAL)     # L = 0.8, not > Z
    decision, state = decide("selective_drop", NORMAL, Y=153, **kw)                 # L = 0.805
    assert decision == L.DROP_PERVC and state != NORMAL
    # a VC with no cell in the buffer has load ratio 0
    assert decide("selective_drop", NORMAL, Y=0, **kw) == (ACCEPT, NORMAL)


def test_selective_drop_applies_to_new_packets_only():
    """goyal1998 4.2: the per-VC rule drops the next new packet; cells of an accepted packet are not judged."""
    assert decide("selective_drop", NORMAL, X=950, K=1000, R=900, Z=0.8, Y=900, Na=1) == (ACCEPT, NORMAL)


def test_selective_drop_rejected_packet_is_discarded_whole():
    """goyal1998 4.2 with cheon 3.2's drop-list: the rest of a rejected packet is discarded, its EOM enters if room."""
    _, state = decide("selective_drop", NORMAL, X=950, K=1000, R=900, Z=0.8, Y=900, Na=1, bom=True)
    assert decide("selective_drop", state, X=0, K=1000, R=900)[0] == L.DROP_PARTIAL
    assert decide("selective_drop", state, X=0, K=1000, R=900, eom=True) == (ACCEPT, NORMAL)


# --- FBA (goyal1998 4.2) ------------------------------------------------------------------------
def test_fba_no_drop_at_or_below_R():
    """goyal1998 4.2: FBA drops nothing while X <= R (the threshold Z(K-R)/(X-R) is infinite)."""
    assert decide("fba", NORMAL, X=900, K=1000, R=900, Z=0.8, Y=900, Na=1, bom=True) == (ACCEPT, NORMAL)


def test_fba_dynamic_threshold_boundary():
    """goyal1998 4.2: FBA drops a new packet iff Y*Na/X > Z*(K-R)/(X-R) (equality admits)."""
    # K=1000, R=900, Z=0.5, X=950: T = 0.5*100/50 = 1, so drop iff 5*Y/950 > 1 iff Y > 190
    kw = dict(X=950, K=1000, R=900, Z=0.5, Na=5, bom=True)
    assert decide("fba", NORMAL, Y=190, **kw) == (ACCEPT, NORMAL)
    assert decide("fba", NORMAL, Y=191, **kw)[0] == L.DROP_PERVC


def test_fba_threshold_tightens_as_buffer_fills():
    """goyal1998 4.2: FBA's threshold falls as X rises towards K, unlike Selective Drop's constant Z."""
    kw = dict(K=1000, R=900, Z=0.8, Y=200, Na=5, bom=True)
    # X = 910: T = 0.8*100/10 = 8, L = 1000/910 = 1.10 -> admitted; Selective Drop (L > 0.8) drops
    assert decide("fba", NORMAL, X=910, **kw) == (ACCEPT, NORMAL)
    assert decide("selective_drop", NORMAL, X=910, **kw)[0] == L.DROP_PERVC
    # X = 990: T = 0.8*100/90 = 0.889, L = 1000/990 = 1.01 -> dropped
    assert decide("fba", NORMAL, X=990, **kw)[0] == L.DROP_PERVC


# --- every policy -----------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", CELL_DECISION_POLICIES)
@pytest.mark.parametrize("bom", [True, False])
def test_full_buffer_never_accepts(policy, bom):
    """goyal1998 3 / cheon 3: no policy puts a cell into a full buffer."""
    for state in (NORMAL, DISCARD_ALL, DISCARD_KEEP_EOM):
        for eom in (True, False):
            decision, _ = decide(policy, state, X=50, K=50, R=25, Y=1, Na=1, bom=bom, eom=eom)
            assert decision != ACCEPT


# --- exhaustive comparison with the formulas ------------------------------------------------------------
DYADIC_Z = [0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0]  # exact in binary: no rounding ties


@settings(max_examples=300, deadline=None)
@given(K=st.integers(1, 60), data=st.data(), Z=st.sampled_from(DYADIC_Z))
def test_packet_rules_match_goyal_formulas(K, data, Z):
    """goyal1998 4.2 / cheon 3.2: packet_admission equals the Selective Drop, FBA and EPD formulas."""
    R = data.draw(st.integers(0, K), label="R")
    X = data.draw(st.integers(0, K), label="X")
    Na = data.draw(st.integers(0 if X == 0 else 1, max(X, 0)), label="Na")
    Y = data.draw(st.integers(0, X - Na + 1 if Na else 0), label="Y")
    sd = packet_admission(CODE["selective_drop"], X, K, R, Z, Y, Na)
    fba = packet_admission(CODE["fba"], X, K, R, Z, Y, Na)
    epd = packet_admission(CODE["epd"], X, K, R, Z, Y, Na)
    assert (sd != ACCEPT) == selective_drop_drops(X, K, R, Z, Y, Na)
    assert (fba != ACCEPT) == fba_drops(X, K, R, Z, Y, Na)
    assert (epd != ACCEPT) == (not X < R)
    assert packet_admission(CODE["tail"], X, K, R, Z, Y, Na) == ACCEPT


def run_kernel_decisions(policy, events, K, R, Z, keep_eom, capture_eom=False):
    """Feed ``events`` to ``cell_decision``, keeping the FIFO, Y, Na and per-VC states here."""
    queue = deque()
    count = {}
    state = {}
    out = []
    for ev in events:
        if ev[0] == "depart":
            if queue:
                v = queue.popleft()
                count[v] -= 1
            continue
        _, vc, bom, eom = ev
        na = sum(1 for c in count.values() if c > 0)
        decision, state[vc] = cell_decision(CODE[policy], int(keep_eom), int(capture_eom), state.get(vc, NORMAL),
                                            len(queue),
                                            K, R, float(Z), count.get(vc, 0), na, bom, eom)
        accepted = decision == ACCEPT
        if accepted:
            queue.append(vc)
            count[vc] = count.get(vc, 0) + 1
        out.append(accepted)
    return out


@st.composite
def scenarios(draw):
    policy = draw(st.sampled_from(CELL_DECISION_POLICIES))
    K = draw(st.integers(1, 12))
    R = draw(st.integers(0, K))
    Z = draw(st.sampled_from(DYADIC_Z))
    keep_eom = draw(st.booleans())
    capture_eom = draw(st.booleans())
    n_vc = draw(st.integers(1, 4))
    lengths = [draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)) for _ in range(n_vc)]
    # arrivals outnumber departures two to one so that the buffer fills and empties
    ops = draw(st.lists(st.sampled_from([-1] + list(range(n_vc)) * 2), min_size=40, max_size=160))
    return policy, K, R, Z, keep_eom, capture_eom, arrivals_from_ops(ops, lengths)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_cell_decisions_match_naive_drop_list(scenario):
    """cheon 3.1/3.2 + goyal1998 4.2: cell_decision decides every cell as the drop-list pseudocode,
    literally with capture_eom, else in atmtcp's EOM variant."""
    policy, K, R, Z, keep_eom, capture_eom, events = scenario
    naive = NaiveBuffer(policy, K, R, Z, keep_eom=keep_eom, literal_eom=capture_eom)
    assert run_kernel_decisions(policy, events, K, R, Z, keep_eom, capture_eom) == run_naive(naive, events)


# --- the one place atmtcp's default departs from cheon's pseudocode -----------------------------------------
LITERAL_EOM_EVENTS = [("arrive", 0, True, False), ("arrive", 0, False, False),
                      ("arrive", 0, False, True),   # EOM finds the 2-cell buffer full
                      ("depart",), ("depart",),
                      ("arrive", 0, True, False)]   # next packet's BOM, buffer empty


@pytest.mark.parametrize("policy", ["ppd", "epd"])
def test_cheon_pseudocode_literal_eom_at_full_buffer(policy):
    """cheon 3.1/3.2 as written (capture_eom): a discarded EOM captures the VC into the drop-list,
    so its next packet is discarded; by default (a modelling choice of goyal's runs) it does not."""
    literal = run_naive(NaiveBuffer(policy, K=2, R=2, literal_eom=True), LITERAL_EOM_EVENTS)
    assert literal == [True, True, False, False]
    assert run_kernel_decisions(policy, LITERAL_EOM_EVENTS, 2, 2, 0.8, True, capture_eom=True) == literal
    assert run_kernel_decisions(policy, LITERAL_EOM_EVENTS, 2, 2, 0.8, True) == [True, True, False, True]


# --- end to end: EPD drops whole packets (goyal1998 4.1) ----------------------------------------------------
@pytest.mark.parametrize("keep_eom", [True, False])
def test_epd_end_to_end_drops_whole_packets(keep_eom):
    """goyal1998 4.1: with R = K - 200 cells and 5 sources EPD never overflows, so every discarded packet is discarded whole."""
    port = m.PortConfig(1000, m.DropPolicy("epd", keep_eom=keep_eom))
    ds = atmtcp.simulate(n_source_run(5, 5e-6, port, m.TcpConfig("reno"), 0.5, contention="deterministic"))
    drops = ds.cells_dropped.sel(port=BOTTLENECK)
    rejected = int(drops.sel(drop_reason="threshold"))
    per_packet = cells_for(512, m.Aal5Config().overhead_bytes)
    assert rejected > 0
    assert int(drops.sel(drop_reason="overflow")) == 0
    assert int(drops.sel(drop_reason="per_vc")) == 0
    if keep_eom:
        # BOM and the 10 middle cells are discarded; each EOM goes on and ends a 1-cell bad frame
        assert int(drops.sel(drop_reason="partial_packet")) == (per_packet - 2) * rejected
        assert int(ds.frames_bad.sum()) == rejected
    else:
        assert int(drops.sel(drop_reason="partial_packet")) == (per_packet - 1) * rejected
        assert int(ds.frames_bad.sum()) == 0
