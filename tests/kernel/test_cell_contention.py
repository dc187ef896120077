"""The four cell-contention options of issue 6, each on a hand-built port state and in whole
runs: randomized tail drop (lakshman 3), slotted switch ports, ATM over SONET (goyal1998
3.2), cell delay variation. Each is off by default and seeded from ``Run.seed``."""
import dataclasses
import itertools
from collections import Counter

import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compile import cell_time_ns, compile_run
from atmtcp.contention import CELL_ASSUMPTIONS
from atmtcp.papers.goyal1998.scenario import goyal_run
from atmtcp.kernel import layout as L
from atmtcp.kernel.cells import alloc_packet, channel_pop, channel_push
from atmtcp.kernel.held_ports import accept_held, admit_held, enqueue, order_slot_arrivals, port_event, unpack_cell
from atmtcp.kernel.rng import random_below, random_u64, splitmix64_reference
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_network

from pointers import on_pointers
from test_invariants import check_invariants

(alloc_packet, channel_pop, channel_push, accept_held, admit_held, enqueue, order_slot_arrivals, port_event,
 random_below, random_u64) = on_pointers(alloc_packet, channel_pop, channel_push, accept_held, admit_held, enqueue,
                                         order_slot_arrivals, port_event, random_below, random_u64)


ARRIVAL_SEQ = itertools.count()
"""Sequence numbers of the arrivals these tests hand to ``admit_held`` directly, in the order of the calls (as the
event loop would give them)."""


def small_run(n=3, buffer=8, seed=0, duration=0.01, **port_options):
    port = m.PortConfig(buffer, m.DropPolicy("tail"), **port_options)
    network = n_source_network(n, 5e-6, port)
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}") for i in range(n))
    return m.Run(network, connections, duration, seed=seed)


def bottleneck(compiled):
    return compiled.port_names.index(BOTTLENECK)


def held_cells(compiled, p):
    """(VC, packet, cell index) of the cells port ``p`` holds, head first."""
    S = compiled.state
    port = S.port[p]
    out = []
    for i in range(port[L.P_RING_LEN]):
        slot = port[L.P_RING_BASE] + (port[L.P_RING_HEAD] + i) % port[L.P_RING_CAP]
        k, _, idx = unpack_cell(S.ring_cell[slot])
        out.append((int(S.pv_vc[S.ring_pv[slot]]), int(k), int(idx)))
    return out


def filled_port(buffer, fan_in, seed):
    """A compiled run whose bottleneck holds ``buffer`` cells of packets of VCs 0, 2, 4
    (one cell each), with randomized tail drop over ``fan_in`` cells."""
    compiled = compile_run(small_run(buffer=buffer, seed=seed, randomized_tail=True, fan_in=fan_in))
    K = compiled.kernel_state
    p = bottleneck(compiled)
    for i in range(buffer):
        v = 2 * (i % 3)
        k = alloc_packet(K, v, 0, 0, 1)
        assert enqueue(K, p, v, 1, k, 0)
    return compiled, K, p


# --- the random stream --------------------------------------------------------------------------------------
def test_kernel_stream_is_splitmix64():
    """The kernel's generator is SplitMix64 over g[G_RNG], seeded with Run.seed."""
    compiled = compile_run(small_run(seed=12345))
    assert compiled.state.g[L.G_RNG] == 12345
    got = [int(random_u64(compiled.kernel_state)) for _ in range(5)]
    assert got == splitmix64_reference(12345, 5)
    draws = [int(random_below(compiled.kernel_state, 6)) for _ in range(6000)]
    counts = Counter(draws)
    assert set(counts) == set(range(6)) and all(900 < c < 1100 for c in counts.values())


# --- randomized tail drop ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("fan_in", [1, 3, 5])
def test_randomized_tail_picks_among_fan_in_plus_one_cells(fan_in):
    """lakshman 3: at a full buffer the dropped cell is, equiprobably, the arriving one or one
    of the last F queued cells; the kept cells stay in FIFO order and the buffer stays full."""
    buffer = 10
    outcomes = Counter()
    for seed in range(600):
        compiled, K, p = filled_port(buffer, fan_in, seed)
        before = held_cells(compiled, p)
        k = alloc_packet(K, 1, 0, 0, 1)  # VC 1 arrives
        admitted = accept_held(K, p, 1, 1, k, 0, 0)
        after = held_cells(compiled, p)
        assert len(after) == buffer and int(compiled.state.port[p, L.P_QUEUE]) == buffer
        if not admitted:
            assert after == before
            outcomes["arriving"] += 1
            continue
        assert after[-1][0] == 1
        kept = after[:-1]
        gone = [c for c in before if c not in kept]
        assert len(gone) == 1
        position = before.index(gone[0])
        assert kept == before[:position] + before[position + 1:], "FIFO order of kept cells changed"
        outcomes[buffer - position] += 1  # 1 = the last queued cell
        assert int(compiled.state.port[p, L.P_DROP_OVERFLOW]) == 1
    assert set(outcomes) == {"arriving", *range(1, fan_in + 1)}
    expected = 600 / (fan_in + 1)
    assert all(abs(c - expected) < 5 * np.sqrt(expected) for c in outcomes.values()), outcomes


def test_randomized_tail_same_seed_same_choice():
    """The choice is a function of the seed: the same state and seed drop the same cell."""
    def victim(seed):
        compiled, K, p = filled_port(10, 4, seed)
        accept_held(K, p, 1, 1, alloc_packet(K, 1, 0, 0, 1), 0, 0)
        return held_cells(compiled, p)
    assert victim(3) == victim(3)
    assert len({tuple(victim(s)) for s in range(20)}) > 1


def test_fan_in_defaults_to_input_ports():
    """F = None counts the input ports that feed the port: N sources feed SW1->SW2."""
    compiled = compile_run(small_run(n=4, randomized_tail=True))
    assert compiled.state.port[bottleneck(compiled), L.P_FAN_IN] == 4


# --- slotted ports --------------------------------------------------------------------------------------------------
def test_randomized_ppd_drops_the_rest_of_the_frame_it_damaged():
    """lakshman 2.1 with the randomization of section 3 (Frame-Tail): at a full buffer either the arriving
    cell is dropped, and the rest of its frame after it (PPD), or one of the last F queued cells is, and
    then the cells of *that* frame still to arrive are dropped up to its EOM, while the arriving cell's
    frame stays whole. The frame's cells already queued stay ("no search of the buffer")."""
    outcomes = Counter()
    for seed in range(40):
        run = small_run(buffer=10, seed=seed)
        port = m.PortConfig(10, m.DropPolicy("ppd"), randomized_tail=True, fan_in=5)
        compiled = compile_run(dataclasses.replace(run, network=dataclasses.replace(run.network, switch_port=port)))
        K, S, p = compiled.kernel_state, compiled.state, bottleneck(compiled)
        long_packet = alloc_packet(K, 0, 0, 0, 20)  # VC 0: cells 0-9 of a 20-cell packet fill the buffer
        for idx in range(10):
            assert accept_held(K, p, 0, 1, long_packet, idx, 0)
        arriving = alloc_packet(K, 2, 0, 0, 2)      # VC 2: the first of two cells arrives at the full buffer
        pv0, pv2 = S.vc_pv[0, 1], S.vc_pv[2, 1]
        if accept_held(K, p, 2, 1, arriving, 0, 0):
            outcomes["queued"] += 1
            assert S.pv_front[pv0] == S.pkt[long_packet, L.PKT_SERIAL] + 1 and S.pv_state[pv2] == L.PV_NORMAL
            assert not accept_held(K, p, 0, 1, long_packet, 10, 0)   # VC 0's next cell: dropped
            assert S.port[p, L.P_DROP_PARTIAL] == 1 and S.pv_front[pv0] != 0
            assert not accept_held(K, p, 0, 1, long_packet, 19, 0)   # ... up to its EOM, which clears the mark
            assert S.pv_front[pv0] == 0
            assert held_cells(compiled, p)[-1] == (2, arriving, 0)
        else:
            outcomes["arriving"] += 1
            assert S.pv_state[pv2] == L.PV_DISCARD_ALL and S.pv_front[pv0] == 0
            assert not accept_held(K, p, 2, 1, arriving, 1, 0)        # the rest of the arriving frame
            assert S.port[p, L.P_DROP_PARTIAL] == 1 and S.pv_state[pv2] == L.PV_NORMAL
        assert S.port[p, L.P_DROP_OVERFLOW] == 1
    assert outcomes["queued"] > 20 and outcomes["arriving"] > 2  # 5 of 6 and 1 of 6


def slotted_port(buffer=1, seed=0):
    compiled = compile_run(small_run(buffer=buffer, seed=seed, slotted=True))
    return compiled, compiled.kernel_state, bottleneck(compiled)


def test_a_plain_slotted_port_admits_at_slot_ends_and_a_removing_one_holds_its_cells():
    """A slotted port without randomized tail drop or drop from front is SLOT_ENDS (it holds only a slot's
    arrivals), with both it is HELD_CELLS; its event waits for an arrival (INFINITE), a held port's is off (-1)."""
    compiled, _, p = slotted_port()
    assert compiled.state.port[p, L.P_HELD] == L.SLOT_ENDS and compiled.state.port[p, L.P_EVENT_AT] == L.INFINITE
    for options in ({"randomized_tail": True}, {"drop_from_front": "cell"}):
        held = compile_run(small_run(slotted=True, **options))
        assert held.state.port[bottleneck(held), L.P_HELD] == L.HELD_CELLS
        assert held.state.port[bottleneck(held), L.P_EVENT_AT] == -1


def test_slot_arrivals_wait_for_the_slot_end():
    """A cell arriving during a slot is decided at the slot's end, not on arrival, and leaves at the next
    slot end; with no arrival due the port then has no event."""
    compiled, K, p = slotted_port(buffer=4)
    T = int(compiled.state.port[p, L.P_CELL_NS])
    admit_held(K, p, 0, 1, alloc_packet(K, 0, 0, 0, 1), 0, 3 * T + 5, next(ARRIVAL_SEQ))
    assert compiled.state.port[p, L.P_QUEUE] == 0 and compiled.state.port[p, L.P_PEND_LEN] == 1
    assert compiled.state.port[p, L.P_EVENT_AT] == 4 * T
    port_event(K, p, 4 * T)
    assert compiled.state.port[p, L.P_QUEUE] == 1 and compiled.state.port[p, L.P_PEND_LEN] == 0
    assert compiled.state.port[p, L.P_BUSY_UNTIL] == 5 * T  # in service during slot 4, leaves at its end
    assert compiled.state.port[p, L.P_EVENT_AT] == L.INFINITE  # the port's event left the heap; the packet's
    assert compiled.state.g[L.G_HEAP_LEN] == 1 and compiled.state.h_kind[0] == L.EV_CHANNEL  # delivery is in it


def test_slot_serves_first_then_admits_in_random_order():
    """A full one-cell buffer: at the slot end the cell in service leaves, then one of the
    slot's two arrivals takes its place, each with probability 1/2 (no arrival is
    favoured by arriving at the departure instant)."""
    winners = Counter()
    for seed in range(400):
        compiled, K, p = slotted_port(buffer=1, seed=seed)
        S = compiled.state
        T = int(S.port[p, L.P_CELL_NS])
        admit_held(K, p, 4, 1, alloc_packet(K, 4, 0, 0, 1), 0, 0, next(ARRIVAL_SEQ))
        port_event(K, p, T)  # VC 4's cell enters service, to leave at 2 T
        assert S.port[p, L.P_BUSY_UNTIL] == 2 * T
        admit_held(K, p, 0, 1, alloc_packet(K, 0, 0, 0, 1), 0, 2 * T, next(ARRIVAL_SEQ))  # arrives as VC 4's cell departs
        admit_held(K, p, 2, 1, alloc_packet(K, 2, 0, 0, 1), 0, 2 * T + T // 2, next(ARRIVAL_SEQ))
        assert S.port[p, L.P_EVENT_AT] == 3 * T  # the arrivals of slot 2 wait for its end
        port_event(K, p, 3 * T)
        assert S.port[p, L.P_QUEUE] == 1 and S.port[p, L.P_CELLS_OUT] == 1 and S.port[p, L.P_DROP_OVERFLOW] == 1
        (loser,) = [v for v in (0, 2) if S.vc[v, L.V_CELLS_DROPPED] == 1]
        winners[2 - loser] += 1
    assert set(winners) == {0, 2} and abs(winners[0] - 200) < 50, winners


def test_slot_keeps_each_vc_in_order():
    """Cells of one VC that arrive in one slot are admitted in their own order: the slot's random order
    (order_slot_arrivals) puts them back on the places their VC drew."""
    orders = set()
    for seed in range(50):
        compiled, K, p = slotted_port(buffer=20, seed=seed)
        S = compiled.state
        k0 = alloc_packet(K, 0, 0, 0, 3)
        k2 = alloc_packet(K, 2, 0, 0, 3)
        for idx in range(3):
            admit_held(K, p, 0, 1, k0, idx, 10 + idx, next(ARRIVAL_SEQ))
            admit_held(K, p, 2, 1, k2, idx, 11 + idx, next(ARRIVAL_SEQ))
        order_slot_arrivals(K, p, 6)
        base = S.port[p, L.P_PEND_BASE]
        cells = [(int(S.pend[base + i, L.PE_VC]), *unpack_cell(S.pend[base + i, L.PE_CELL])) for i in range(6)]
        for v in (0, 2):
            assert [idx for vc, _, _, idx in cells if vc == v] == [0, 1, 2]
        orders.add(tuple(vc for vc, *_ in cells))
    assert len(orders) > 5  # the VCs' places are drawn


# --- ATM over SONET ------------------------------------------------------------------------------------------------
def test_sonet_switch_ports_drain_at_the_payload_rate():
    """Switch ports send a cell every 53 x 8 / 149.76e6 s = 2831 ns; hosts every 2726 ns;
    efficiency is measured against 149.76e6 x 512 / (12 x 53 x 8) = 120.6 Mbit/s."""
    run = small_run()
    run = dataclasses.replace(run, network=dataclasses.replace(run.network, sonet=True))
    compiled = compile_run(run)
    names = compiled.port_names
    cell_ns = dict(zip(names, compiled.state.port[:, L.P_CELL_NS]))
    assert cell_ns[BOTTLENECK] == round(53 * 8 / 149.76e6 * 1e9) == 2831
    assert cell_ns["S1->SW1"] == 2726
    assert compiled.bottleneck == BOTTLENECK
    capacity = compiled.bottleneck_bps * compiled.framing[0]
    assert capacity == pytest.approx(53 * 8 * 1e9 / 2831 * 512 / (12 * 53))
    assert capacity / 1e6 == pytest.approx(120.5, abs=0.1)


# --- cell delay variation -------------------------------------------------------------------------------------------
def test_cdv_channel_stays_fifo_within_its_bound():
    """Each entry gets a uniform extra delay in [0, cdv] but never overtakes the one before."""
    run = small_run()
    links = tuple(dataclasses.replace(l, cdv_s=50e-6) if l.b == "SW1" else l for l in run.network.links)
    run = dataclasses.replace(run, network=dataclasses.replace(run.network, links=links))
    compiled = compile_run(run)
    K, S = compiled.kernel_state, compiled.state
    ch = int(np.flatnonzero(S.chan[:, L.CH_CDV_NS] > 0)[0])
    assert S.chan[ch, L.CH_CDV_NS] == 50_000
    sent = [1_000_000 + 100 * i for i in range(200)]
    for i, t in enumerate(sent):
        channel_push(K, ch, t, 0, 1, 0, i, True)
    times = []
    while S.chan[ch, L.CH_LEN] > 0:
        e = channel_pop(K, ch)
        times.append(int(S.cell[e, L.CELL_TIME]))
        assert S.cell[e, L.CELL_IDX] == len(times) - 1
    assert times == sorted(times)
    extra = np.array(times) - np.array(sent)
    assert extra.min() >= 0 and extra.max() <= 50_000 + 100 * 200
    assert len(set(extra)) > 100


def test_cdv_reorders_no_cell_end_to_end():
    """Large CDV on every link, infinite buffers: no frame is damaged (a reordered cell would
    break AAL5 reassembly) and every packet sent is delivered or in flight."""
    port = m.PortConfig(None)
    network = n_source_network(3, 5e-6, port)
    links = tuple(dataclasses.replace(l, cdv_s=20e-6) for l in network.links)
    network = dataclasses.replace(network, links=links)
    run = m.Run(network, tuple(m.Connection(f"S{i + 1}", f"D{i + 1}") for i in range(3)), 0.2, seed=4)
    ds = atmtcp.simulate(run)
    assert int(ds.frames_bad.sum()) == 0 and int(ds.frames_ok.sum()) > 1000
    assert {f"SW2->D{i + 1}" for i in range(3)} <= set(ds.port.values), "a port fed by a CDV link was folded"


# --- whole runs with each option ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("assumption", list(CELL_ASSUMPTIONS))
@pytest.mark.parametrize("policy", ["ubr", "epd"])
def test_invariants_hold_under_each_assumption(assumption, policy):
    """Cells in = out + dropped + queued at every port; goodput within the link; no bytes
    delivered that were not sent."""
    run = goyal_run("lan", 5, 1000, policy, "reno", 2, quick=True, duration_s=0.3, assumption=assumption)
    ds = atmtcp.simulate(run)
    check_invariants(run, ds, "tail" if policy == "ubr" else policy, 1000)
    assert float(ds.efficiency) <= 1.0


@pytest.mark.parametrize("assumption", [a for a in CELL_ASSUMPTIONS if a != "deterministic"])
def test_same_seed_same_dataset_other_seed_other(assumption):
    """Each option draws from Run.seed only: same seed, identical Dataset; another seed, another."""
    def ds(seed):
        run = goyal_run("lan", 5, 1000, "ubr", "vanilla", 1, quick=True, duration_s=0.3, assumption=assumption)
        return atmtcp.simulate(dataclasses.replace(run, seed=seed))
    a, b = ds(7), ds(7)
    assert a.identical(b)
    assert not a.identical(ds(8))


def test_options_off_by_default():
    assert m.PortConfig().randomized_tail is False and m.PortConfig().slotted is False
    assert m.Link("a", "b").cdv_s == 0.0
    network = n_source_network(2, 5e-6, m.PortConfig(100))
    assert network.sonet is False
    assert not compile_run(m.Run(network, (m.Connection("S1", "D1"),), 0.01)).state.port[:, L.P_HELD].any()


@pytest.mark.parametrize("build, field", [
    (lambda: m.PortConfig(100, m.DropPolicy("epd"), randomized_tail=True), "PortConfig.randomized_tail"),
    (lambda: m.PortConfig(None, randomized_tail=True), "PortConfig.randomized_tail"),
    (lambda: m.PortConfig(100, fan_in=3), "PortConfig.fan_in"),
    (lambda: m.PortConfig(100, randomized_tail=True, fan_in=0), "PortConfig.fan_in"),
    (lambda: m.PortConfig(100, randomized_tail=1), "PortConfig.randomized_tail"),
    (lambda: m.PortConfig(100, slotted="yes"), "PortConfig.slotted"),
    (lambda: m.PortConfig(100, "epd"), "PortConfig.policy"),
    (lambda: m.Link("a", "b", cdv_s=-1e-6), "Link.cdv_s"),
    (lambda: m.Link("a", "b", cdv_s=float("nan")), "Link.cdv_s"),
    (lambda: m.Link("a", "b", cdv_s=2.0), "Link.cdv_s"),
    (lambda: dataclasses.replace(n_source_network(2, 5e-6, m.PortConfig(100)), sonet="yes"), "Network.sonet"),
    (lambda: goyal_run("lan", 2, 1000, "ubr", "reno", 0, True, assumption="jitter"), "goyal_run.assumption"),
])
def test_bad_options_name_the_field(build, field):
    with pytest.raises(m.ModelError) as error:
        build()
    assert error.value.field == field


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_phase_lock_under_deterministic_contention_and_not_under_slotted_ports(seed):
    """Issue 6: with equal-rate links and deterministic contention one source keeps a full UBR buffer
    for the whole 10 s LAN run (all the goodput, fairness 1/N, and the others' cells are the ones that
    meet the full buffer); slotted ports share it (goyal1998 Table 2: LAN 5/1000 UBR fairness 0.68)."""
    def run(assumption):
        from atmtcp.papers.goyal1998.experiments import sensitivity_run
        ds = sensitivity_run(dict(assumption=assumption, tcp="vanilla", network="lan", sources=5, buffer_factor=1,
                                  policy="ubr", seed=seed), quick=False)
        goodput = ds.goodput_bps.values[:5]
        return ds, goodput.max() / goodput.sum()
    locked, share = run("deterministic")
    assert share > 0.99 and float(locked.fairness) < 0.21
    winner = int(np.argmax(locked.goodput_bps.values[:5]))
    assert locked.full_buffer_arrivals.values[winner] == locked.full_buffer_arrivals.values[:5].min()
    slotted, share = run("slotted")
    assert share < 0.7 and float(slotted.fairness) > 0.35


def test_one_default_for_the_command_line_the_builders_and_the_experiments():
    """Issue 26: `atmtcp run` and `n_source_run` gave the same 1 s LAN EPD/Reno run efficiencies 0.512
    and 0.697 (slotted against deterministic cells). Now the CLI, the builder and goyal_run share one
    default (atmtcp.contention.HEADLINE_CONTENTION), so the three build the same run."""
    import atmtcp
    from atmtcp.default_run import scenario
    from atmtcp.contention import HEADLINE_CONTENTION
    from atmtcp.papers.goyal1998.scenario import NETWORKS, goyal_run, goyal_tcp
    from atmtcp.topologies import n_source_run
    cli = scenario("lan", 5, 1000, "epd", "reno", duration=1.0, threshold=800)
    tcp = goyal_tcp("reno", 512, NETWORKS["lan"]["rcv_wnd"])
    builder = n_source_run(5, NETWORKS["lan"]["delay_s"], m.PortConfig(1000, m.DropPolicy("epd", threshold=800)),
                           tcp, 1.0)
    experiment = goyal_run("lan", 5, 1000, "epd", "reno", seed=0, quick=False, duration_s=1.0)
    assert HEADLINE_CONTENTION == "slotted" and cli == builder == experiment
    assert cli.network.switch_port.slotted
    plain = n_source_run(5, NETWORKS["lan"]["delay_s"], m.PortConfig(1000, m.DropPolicy("epd", threshold=800)),
                         tcp, 1.0, contention="deterministic")
    assert not plain.network.switch_port.slotted
    assert float(atmtcp.simulate(builder).efficiency) != float(atmtcp.simulate(plain).efficiency)


def test_an_option_the_port_sets_itself_is_kept():
    """`contention` adds its options to the port's own: a slotted port stays slotted under
    'deterministic', and randomized tail drop is added only to a finite tail-drop port."""
    from atmtcp.contention import with_contention
    assert with_contention(m.PortConfig(100, slotted=True), "deterministic").slotted
    assert with_contention(m.PortConfig(100), "randomized_tail").randomized_tail
    assert not with_contention(m.PortConfig(100, m.DropPolicy("epd", threshold=50)), "randomized_tail").randomized_tail
    assert not with_contention(m.PortConfig(None), "all").randomized_tail
    with pytest.raises(m.ModelError, match="contention"):
        with_contention(m.PortConfig(100), "fluid")
