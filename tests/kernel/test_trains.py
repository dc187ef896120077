"""Two shortcuts of the cell path that must not change a result: a NIC's packet travels to the next
port as one channel entry (a train), and the reassembly of a cell in the middle of a frame is inlined.
Each is compared with the general code it stands for, on the same hand-built state."""
import numpy as np

from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.kernel.cells import (
    alloc_packet, channel_push, channel_push_train, channel_take, reassemble, reassemble_cell,
)
from atmtcp.topologies import n_source_network

from pointers import on_pointers

alloc_packet, channel_push, channel_push_train, channel_take, reassemble, reassemble_cell = on_pointers(
    alloc_packet, channel_push, channel_push_train, channel_take, reassemble, reassemble_cell)


def small_run(n=3):
    network = n_source_network(n, 5e-6, m.PortConfig(8, m.DropPolicy("tail")))
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}") for i in range(n))
    return m.Run(network, connections, 0.01)


def drain_channels(compiled):
    """Take every channel entry in event order: (time, sequence number, channel, VC, hop, packet, cell)."""
    K, S = compiled.kernel_state, compiled.state
    out = []
    while S.g[L.G_HEAP_LEN] > 0:
        assert S.h_kind[0] == L.EV_CHANNEL
        key = (int(S.h_time[0]), int(S.h_seq[0]), int(S.h_id[0]))
        out.append(key + tuple(int(x) for x in channel_take(K, key[2])))
    return out


def test_a_train_gives_the_events_of_its_cells_pushed_one_by_one():
    """Cells 0..4 of a packet, one cell time apart, on a NIC's channel, with another channel's cells
    between them in time: the train yields the same (time, sequence number) keys, in the same order,
    as five single entries, from one record and one heap entry."""
    gap, t0, ncells = 2_831, 1_000_000, 5
    results = []
    for as_train in (False, True):
        compiled = compile_run(small_run())
        K, S = compiled.kernel_state, compiled.state
        v0, v1 = 0, 2
        ch0, ch1 = int(S.vc_chan[v0, 0]), int(S.vc_chan[v1, 0])
        assert ch0 != ch1 and S.chan[ch0, L.CH_CDV_NS] == 0
        k = alloc_packet(K, v0, 0, 0, ncells)
        channel_push(K, ch1, t0 - 1, v1, 1, 7, 0, True)
        if as_train:
            channel_push_train(K, ch0, t0, gap, v0, 1, k, ncells)
            assert S.chan[ch0, L.CH_LEN] == 1
        else:
            for i in range(ncells):
                channel_push(K, ch0, t0 + i * gap, v0, 1, k, i, True)
            assert S.chan[ch0, L.CH_LEN] == ncells
        assert S.g[L.G_SEQ] == ncells + 1
        for i in range(1, 4):  # the other channel's cells fall between the train's (ties included)
            channel_push(K, ch1, t0 + i * gap + (0 if i == 2 else 1), v1, 1, 7, i, True)
        results.append(drain_channels(compiled))
    singles, train = results
    assert train == singles
    assert [row[6] for row in train if row[2] != train[0][2]] == [0, 1, 2, 3, 4]
    assert len(train) == ncells + 4


def test_the_inlined_reassembly_agrees_with_the_general_one():
    """Random frames with lost cells (and so frames run together), delivered cell by cell to
    :func:`reassemble` in one state and to :func:`reassemble_cell` in another: the VC's reassembly
    counters and state, the packets and the delivery channel agree after every cell, with and
    without the receiver's packet delineation."""
    rng = np.random.default_rng(1)
    for resync in (0, 1):
        states = [compile_run(small_run()) for _ in range(2)]
        v = 0
        for compiled in states:
            compiled.state.vc[v, L.V_RESYNC] = resync
        t = 1_000
        for _ in range(200):
            ncells = int(rng.integers(1, 5))
            kept = [i for i in range(ncells) if rng.random() > 0.2]
            ks = [alloc_packet(c.kernel_state, v, 0, 0, ncells) for c in states]
            assert ks[0] == ks[1]
            for i in kept:
                t += 100
                reassemble(states[0].kernel_state, v, ks[0], i, t)
                reassemble_cell(states[1].kernel_state, v, ks[1], i, t)
                general, inlined = (c.state for c in states)
                assert np.array_equal(general.vc[v], inlined.vc[v])
                assert np.array_equal(general.pkt, inlined.pkt)
                assert np.array_equal(general.chan, inlined.chan)
        general = states[0].state.vc[v]
        assert general[L.V_FRAMES_OK] > 20 and general[L.V_FRAMES_BAD] > 20
