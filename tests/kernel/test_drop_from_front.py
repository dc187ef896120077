"""Drop from front (lakshman 3): Pure Cell Drop at the Front and Partial Frame Drop at the Front,
at slotted and unslotted ports, against the paper's rules, end to end."""
import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.kernel.aal5 import packet_cells
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

from pointers import on_pointers
from test_invariants import check_invariants


def front_run(front: str, slotted: bool, buffer_cells: int = 300, flavor: str = "reno", duration: float = 1.0,
              delineation: str = "eom"):
    port = m.PortConfig(buffer_cells, m.DropPolicy("tail"), slotted=slotted, drop_from_front=front)
    return n_source_run(4, 1e-3, port, m.TcpConfig(flavor), duration, trace=m.TraceConfig(ports=(BOTTLENECK,)),
                        aal5=m.Aal5Config(delineation=delineation), contention="deterministic")


@pytest.mark.parametrize("slotted", [True, False])
@pytest.mark.parametrize("front", ["cell", "frame"])
def test_invariants_hold_with_drop_from_front(front, slotted):
    """Cell conservation, the capacity bound and TCP's byte accounting hold when cells leave from the front."""
    run = front_run(front, slotted)
    ds = atmtcp.simulate(run)
    assert int(ds.cells_dropped.sel(port=BOTTLENECK, drop_reason="overflow")) > 0
    check_invariants(run, ds, "front_" + front, 300)


@pytest.mark.parametrize("slotted", [True, False])
def test_cell_front_drops_only_at_a_full_buffer(slotted):
    """Pure Cell Drop at the Front: a full buffer drops one cell per arrival, the queue never
    exceeds the buffer, and no other cell of a damaged frame is discarded at the switch."""
    ds = atmtcp.simulate(front_run("cell", slotted))
    drops = ds.cells_dropped.sel(port=BOTTLENECK)
    assert int(drops.sel(drop_reason="partial_packet")) == 0
    assert int(drops.sum()) == int(drops.sel(drop_reason="overflow"))
    assert int(ds.max_queue.sel(port=BOTTLENECK)) <= 300
    # each front drop damages at most one frame, which the receiver then discards
    assert 0 < int(ds.frames_bad.sum()) <= int(drops.sel(drop_reason="overflow"))


@pytest.mark.parametrize("slotted", [True, False])
def test_frame_front_drops_the_rest_of_the_frame(slotted):
    """Partial Frame Drop at the Front: after a front drop the frame's remaining cells are dropped at
    the head (at most a packet's cells less one per front drop), so far fewer damaged frames reach the
    receivers than under Cell-Front, and fewer cells of them cross the link."""
    per_packet = packet_cells(512, m.Aal5Config().overhead_bytes)
    frame = atmtcp.simulate(front_run("frame", slotted))
    cell = atmtcp.simulate(front_run("cell", slotted))
    fd = frame.cells_dropped.sel(port=BOTTLENECK)
    front, partial = int(fd.sel(drop_reason="overflow")), int(fd.sel(drop_reason="partial_packet"))
    assert front > 0 and 0 < partial <= front * (per_packet - 1)
    assert int(frame.frames_bad.sum()) <= front
    # the damaged frames that still reach a receiver lost their front cell after some of their cells
    # had left; Cell-Front sends every remaining cell of each damaged frame
    bad_share = lambda ds: int(ds.frames_bad.sum()) / max(1, int(ds.cells_dropped.sel(port=BOTTLENECK).sum()))
    assert bad_share(frame) < bad_share(cell)


def test_front_drop_is_deterministic_and_differs_from_tail():
    """The same run twice gives the same result; dropping at the front changes which packets are lost."""
    a = atmtcp.simulate(front_run("frame", True, duration=0.5))
    b = atmtcp.simulate(front_run("frame", True, duration=0.5))
    np.testing.assert_array_equal(a.delivered_bytes.values, b.delivered_bytes.values)
    tail = atmtcp.simulate(front_run("none", True, duration=0.5))
    assert not np.array_equal(a.delivered_bytes.values, tail.delivered_bytes.values)


@pytest.mark.parametrize("kwargs,field", [
    ({"policy": m.DropPolicy("epd"), "drop_from_front": "cell"}, "drop_from_front"),
    ({"randomized_tail": True, "drop_from_front": "frame"}, "drop_from_front"),
    ({"drop_from_front": "middle"}, "drop_from_front"),
])
def test_drop_from_front_validated(kwargs, field):
    """lakshman 3 drops from the front of a plain FIFO: other policies, randomized tail drop and
    unknown names are refused with the field named."""
    with pytest.raises(m.ModelError, match=field):
        m.PortConfig(300, **kwargs)
    with pytest.raises(m.ModelError, match="drop_from_front"):
        m.PortConfig(None, drop_from_front="cell")



@pytest.mark.parametrize("delineation,bad,ok", [("eom", 1, 0), ("packet", 1, 1)])
def test_packet_delineation_discards_only_the_damaged_packet(delineation, bad, ok):
    """A packet that lost its last cells (the partial frame drops discard a damaged frame's EOM too) is
    followed by a whole one. AAL5 delimits frames by the EOM cell, so both run into one bad frame; with
    ``delineation="packet"`` (lakshman 3: "Packets with lost cells which cannot be successfully
    reassembled at the ADSU are dropped at the ADSU") only the damaged packet is lost."""
    from atmtcp.compile import compile_run
    from atmtcp.kernel import layout as L
    from atmtcp.kernel.cells import alloc_packet, reassemble
    alloc_packet, reassemble = on_pointers(alloc_packet, reassemble)
    compiled = compile_run(front_run("frame", False, delineation=delineation, duration=0.01))
    K, S = compiled.kernel_state, compiled.state
    damaged, whole = alloc_packet(K, 0, 0, 0, 12), alloc_packet(K, 0, 512, 0, 12)
    for idx in range(5):
        reassemble(K, 0, damaged, idx, 0)
    for idx in range(12):
        reassemble(K, 0, whole, idx, 0)
    assert (S.vc[0, L.V_FRAMES_BAD], S.vc[0, L.V_FRAMES_OK]) == (bad, ok)
    with pytest.raises(m.ModelError, match="delineation"):
        m.Aal5Config(delineation="crc")
