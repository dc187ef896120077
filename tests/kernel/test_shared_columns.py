"""The kernel's shared columns (issue 27): where one column has two uses, the uses never overlap.

``PKT_TS`` (a live packet's timestamp) shares the column of ``PKT_NEXT_FREE`` (a free packet record's
link in the pool's free list), so that a packet row stays 15 fields. The uses cannot meet if the
link is touched only by the allocator, read when a record is taken before any of its fields is
written and written only when the packet is dead, and the timestamp only on live packets: written
right after a packet is allocated, read before it is released. The kernel's own alloc and free
functions are exercised on a hand-built state, the sources are read for every use of either
name, and the free list of real runs is checked twenty times in each and at every pause.

``C_SEG_MASK`` indexes both scoreboards, the sender's ``sb`` and the receiver's ``rb``: the two
have one width in every compiled run.
"""
import ast
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from atmtcp import model as m
from atmtcp.compile import Growth, compile_run
from atmtcp.grow import make_headroom
from atmtcp.kernel import layout as L
from atmtcp.kernel import tables
from atmtcp.kernel.cells import alloc_packet, release_packet_if_done
from atmtcp.kernel.entry import kernel_entry
from atmtcp.papers.ewa.section2.scenario import ten_connection_run
from atmtcp.simulate import warm_up_run
from atmtcp.topologies import n_source_run

from pointers import on_pointers

alloc_packet, release_packet_if_done = on_pointers(
    alloc_packet, release_packet_if_done)

ATMTCP = Path(tables.__file__).parent.parent
KERNEL = ATMTCP / "kernel"


# --- the free list, read from a state ---------------------------------------------------------------
def free_chain(pkt: np.ndarray, g: np.ndarray) -> list[int]:
    """The packet pool's free records in list order; fails where the list leaves the pool or loops. From
    the first record never handed out (``G_PKT_FRESH``) on, the list goes on row by row."""
    end, chain, seen, r, fresh = pkt.shape[0], [], set(), int(g[L.G_PKT_FREE]), int(g[L.G_PKT_FRESH])
    while r != end:
        assert 0 <= r < end and r not in seen, f"the free list is broken at {r} after {chain[-5:]}"
        chain.append(r)
        seen.add(r)
        r = int(pkt[r, L.PKT_NEXT_FREE]) if r < fresh else r + 1
    return chain


def check_pool(S: tables.SimState) -> None:
    """The free list and the live packets (cells alive, or the whole packet on its way) are the pool:
    a timestamp written on a free record, or a link on a live one, breaks this."""
    free = set(free_chain(S.pkt, S.g))
    live = set(np.flatnonzero((S.pkt[:, L.PKT_ALIVE] > 0) | (S.pkt[:, L.PKT_PENDING] > 0)).tolist())
    assert not free & live, f"records both free and live: {sorted(free & live)[:5]}"
    assert free | live == set(range(S.pkt.shape[0])), "records neither free nor live"


# --- the kernel's alloc and free on a hand-built state -------------------------------------------------
def hand_built(n: int = 8, reserve: int = 6) -> tuple[tables.KernelState, tables.SimState]:
    """A state whose packet pool has ``n`` free records chained 0 -> 1 -> ... -> n (the end), the last
    ``n - reserve`` of them its reserve (the other tables: a small compiled run's)."""
    S = compile_run(warm_up_run()).state
    pkt = np.zeros((n, L.PKT_NFIELDS), np.int64)
    pkt[:, L.PKT_NEXT_FREE] = np.arange(1, n + 1)
    g = S.g.copy()
    g[[L.G_PKT_FREE, L.G_PKT_RESERVE, L.G_PKT_SERIAL, L.G_STATUS]] = (0, reserve, 0, L.OK)
    return tables.pack(S._replace(pkt=pkt, g=g))


def test_alloc_reads_the_link_first_and_free_writes_it_only_once_the_packet_is_dead():
    kernel_state, S = hand_built()
    for k in range(8):
        assert alloc_packet(kernel_state, 0, 512 * k, 0, 3) == k
        assert S.g[L.G_PKT_FREE] == k + 1, "the link was read before the record's fields were written"
        assert S.pkt[k, L.PKT_TS] == k + 1, "alloc_packet leaves the timestamp to its caller"
    assert S.g[L.G_STATUS] == L.PACKETS_LOW  # records 6 and 7 are the reserve
    assert alloc_packet(kernel_state, 0, 0, 0, 3) == -1 and S.g[L.G_STATUS] == L.PACKET_POOL_FULL
    S.g[L.G_STATUS] = L.OK
    stamps = np.array([-1 if k % 3 == 0 else 10**9 + k for k in range(8)])  # -1: a retransmission's
    S.pkt[:, L.PKT_TS] = stamps  # as the TCP sender writes a send time right after alloc_packet
    order = [5, 2, 7, 0, 3, 6, 1, 4]
    for i, k in enumerate(order):
        head = S.g[L.G_PKT_FREE]
        release_packet_if_done(kernel_state, k)  # cells alive: not released
        S.pkt[k, L.PKT_ALIVE], S.pkt[k, L.PKT_PENDING] = 0, 1
        release_packet_if_done(kernel_state, k)  # reassembled, on its delivery channel: not released
        assert S.pkt[k, L.PKT_TS] == stamps[k] and S.g[L.G_PKT_FREE] == head, "a live packet was released"
        S.pkt[k, L.PKT_PENDING] = 0
        release_packet_if_done(kernel_state, k)  # delivered: dead, its link replaces the timestamp
        assert S.g[L.G_PKT_FREE] == k and S.pkt[k, L.PKT_NEXT_FREE] == head
    assert free_chain(S.pkt, S.g) == order[::-1]
    again = [alloc_packet(kernel_state, 1, 0, 0, 1) for _ in order]
    assert again == order[::-1], "alloc_packet follows the links that release wrote, not the timestamps"
    check_pool(S)


def test_the_pool_check_sees_a_timestamp_on_a_free_record():
    """The check of the runs below fails where the two uses meet."""
    kernel_state, S = hand_built()
    taken = [alloc_packet(kernel_state, 0, 0, 0, 1) for _ in range(3)]
    S.pkt[taken[1], L.PKT_ALIVE] = 0
    release_packet_if_done(kernel_state, taken[1])
    check_pool(S)
    S.pkt[taken[1], L.PKT_TS] = 123456789  # a send time written on the free record
    with pytest.raises(AssertionError, match="free list is broken"):
        check_pool(S)


# --- every use of the two names in the sources ------------------------------------------------------
def _functions(directory: Path) -> dict[tuple[str, str], ast.FunctionDef]:
    """``{(module, name): node}`` of the top-level functions of the ``.py`` files in ``directory``."""
    return {(path.stem, node.name): node for path in sorted(directory.glob("*.py"))
            for node in ast.parse(path.read_text()).body if isinstance(node, ast.FunctionDef)}


FUNCTIONS = _functions(KERNEL)


def _subscripts(node, column: str):
    """The subscripts ``table[row, column]`` inside ``node``: ``(row expression, is a store, line)``."""
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Tuple) and len(sub.slice.elts) == 2
                and isinstance(sub.slice.elts[1], ast.Name) and sub.slice.elts[1].id == column):
            yield sub.slice.elts[0], isinstance(sub.ctx, ast.Store), sub.lineno


def _calls(node, name: str) -> list[ast.Call]:
    return [call for call in ast.walk(node)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name]


def _names(node, name: str) -> list[ast.Name]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name]


def _released_at(node) -> list[int]:
    """Lines of ``node`` that may release a packet."""
    return [call.lineno for call in _calls(node, "release_packet_if_done")]


def _allocated_at(f) -> dict[str, int]:
    """``{variable: line}`` of the assignments ``variable = alloc_packet(...)`` in function ``f``."""
    return {a.targets[0].id: a.lineno for a in ast.walk(f) if isinstance(a, ast.Assign)
            and isinstance(a.targets[0], ast.Name) and _calls(a.value, "alloc_packet")}


def test_the_free_list_link_is_touched_by_the_allocator_only():
    """In the kernel ``PKT_NEXT_FREE`` is read once, by alloc_packet, and written once, by
    release_packet_if_done once no cell is alive and the packet is not on its way; outside the
    kernel only :mod:`atmtcp.grow` relinks the free records of a grown pool (a fresh pool is not chained:
    ``G_PKT_FRESH``)."""
    users = {key: f for key, f in FUNCTIONS.items() if _names(f, "PKT_NEXT_FREE")}
    assert set(users) == {("cells", "alloc_packet"), ("cells", "release_packet_if_done")}
    assert [store for _, store, _ in _subscripts(users["cells", "alloc_packet"], "PKT_NEXT_FREE")] == [False]
    release = users["cells", "release_packet_if_done"]
    assert [store for _, store, _ in _subscripts(release, "PKT_NEXT_FREE")] == [True]
    guard = next(n.test for n in ast.walk(release)
                 if isinstance(n, ast.If) and list(_subscripts(n, "PKT_NEXT_FREE")))
    assert {n.id for n in ast.walk(guard) if isinstance(n, ast.Name)} >= {"PKT_ALIVE", "PKT_PENDING"}
    outside = {path.relative_to(ATMTCP).as_posix() for path in ATMTCP.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.Attribute) and node.attr == "PKT_NEXT_FREE"}
    assert outside == {"grow.py"}


def test_alloc_reads_the_link_before_it_writes_a_field():
    """alloc_packet reads the record's link before it writes any field of the record."""
    alloc = FUNCTIONS["cells", "alloc_packet"]
    (row, _, read_at), = _subscripts(alloc, "PKT_NEXT_FREE")
    writes = [n.lineno for n in ast.walk(alloc)
              if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store)
              and isinstance(n.slice, ast.Tuple)
              and ast.dump(n.slice.elts[0]) == ast.dump(row)]
    assert writes and min(writes) > read_at


def test_the_timestamp_is_written_on_the_packet_just_allocated():
    """alloc_packet leaves the column holding the link: each function that allocates a packet writes
    its timestamp, and a timestamp is written nowhere else."""
    writers = set()
    for key, f in FUNCTIONS.items():
        for row, store, line in _subscripts(f, "PKT_TS"):
            if store:
                allocated = _allocated_at(f).get(getattr(row, "id", None), line)
                assert allocated < line, f"{key}: PKT_TS written on a packet it did not allocate"
                writers.add(key)
    allocators = {key for key, f in FUNCTIONS.items() if _allocated_at(f)}
    assert allocators and allocators == writers


def test_the_timestamp_is_read_before_the_packet_is_released():
    """A function that reads a timestamp releases no packet before, and each of its callers calls it
    before the caller releases one (the delivery: :func:`atmtcp.kernel.engine.deliver_packet`)."""
    reads = {key: [line for _, store, line in _subscripts(f, "PKT_TS") if not store]
             for key, f in FUNCTIONS.items()}
    readers = {key: lines for key, lines in reads.items() if lines}
    assert readers
    for (module, name), lines in readers.items():
        released = _released_at(FUNCTIONS[module, name])
        assert all(max(lines) < r for r in released), f"{name}: read after a release"
        callers = [(key, call.lineno) for key, g in FUNCTIONS.items() for call in _calls(g, name)]
        assert callers
        for key, line in callers:
            released = _released_at(FUNCTIONS[key])
            assert released and all(line < r for r in released), f"{key} calls {name} after releasing"


# --- real runs: the free list at every pause and at the end -----------------------------------------
RUNS = {
    # SACK's ACKs, timestamps from every ACK, delayed ACKs, losses at EPD's threshold
    "sack, timestamps, delayed acks": n_source_run(
        5, 5e-6, m.PortConfig(1000, m.DropPolicy("epd", threshold=800)),
        m.TcpConfig("sack", timestamps=True, delayed_ack=True), 1.0, contention="deterministic"),
    # held slotted ports with randomized tail drop, ACKs delayed at the receiver's NIC
    "reno, timestamps, slotted randomized tail": n_source_run(
        5, 5e-6, m.PortConfig(300), m.TcpConfig("reno", timestamps=True, ack_delay_s=1e-4), 1.0,
        contention="slotted_randomized_tail"),
    # the packet path: whole packets in router queues, ACKs through a loaded port too
    "packet path, two-way": ten_connection_run("ewa.fig5", 0, duration_s=2.0, two_way=True),
}


def checkpoints(run: m.Run, stretches: int = 20):
    """Run ``run`` in ``stretches`` stretches of time from tiny pools, growing what runs low as
    :func:`atmtcp.simulate.run_kernel` does; yields the state after each stretch and at each pause."""
    fraction = 1 / 4096
    compiled = compile_run(run, Growth(fraction, fraction))  # the heap keeps its size: see below
    end = int(compiled.state.g[L.G_END])
    for i in range(1, stretches + 1):
        compiled.state.g[L.G_END] = end * i // stretches
        while (status := int(kernel_entry()(compiled.kernel_state))) != L.OK:
            assert status & L.FULL_MASK == 0, L.STATUS_NAMES[status & L.FULL_MASK]
            yield compiled.state
            make_headroom(compiled)
            compiled.state.g[L.G_STATUS] = L.OK
        yield compiled.state


@pytest.mark.parametrize("name", RUNS)
def test_free_and_live_packets_partition_the_pool_in_runs(name):
    """Twenty times in a run, and at each of its pauses to grow its pools, no free record is live
    and the free list is whole. (A packet path run's first event schedules more than the heap's
    margin, so the heap does not start tiny.)"""
    states = 0
    for S in checkpoints(RUNS[name]):
        check_pool(S)
        states += 1
    assert states > 20 and int(S.conn[:, L.C_SEGS_SENT].sum()) > 1000


# --- C_SEG_MASK: one mask for the sender's and the receiver's scoreboards ---------------------------------
_THREE = n_source_run(3, 5e-6, m.PortConfig(1000), m.TcpConfig("sack"), 0.1, contention="deterministic")
MIXED_WINDOWS = replace(_THREE, connections=tuple(replace(c, tcp=m.TcpConfig("sack", rcv_wnd=w))
                                                  for c, w in zip(_THREE.connections, (8192, 65535, 300000))))


@pytest.mark.parametrize("run", [warm_up_run(), MIXED_WINDOWS, RUNS["packet path, two-way"]],
                         ids=["warm-up", "mixed windows", "packet path"])
def test_the_scoreboards_have_one_width_that_c_seg_mask_masks(run):
    """``sb`` and ``rb`` are both ``n_conn x cap`` with one power of two ``cap`` above every
    connection's window in segments, and ``C_SEG_MASK`` is ``cap - 1`` for every connection."""
    S = compile_run(run).state
    cap = S.sb.shape[1]
    assert S.sb.shape == S.rb.shape == (len(run.connections), cap)
    assert cap & (cap - 1) == 0
    assert (S.conn[:, L.C_SEG_MASK] == cap - 1).all()
    assert all(cap > c.tcp.rcv_wnd // c.tcp.mss for c in run.connections)
