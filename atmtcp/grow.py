"""Grow what runs low in a paused run, in place ("Grow what fills, not everything, and not by
starting over").

The kernel stops between two events when a growable resource has less than one event's
worst use left (:class:`atmtcp.compile.Margins`, the ``*_LOW`` statuses). :func:`make_headroom`
then builds bigger tables from the current ones, x4 per step and only for the resources below
their margin, repacks the arenas (:func:`atmtcp.kernel.tables.pack`) and updates the
:class:`~atmtcp.compile.Compiled`, so that :func:`atmtcp.kernel.run_until_end` continues
where it stopped. Where a record lands never changes a result: events are ordered by
(time, insertion sequence), never by a record's index, and a ring or pending list is read
from its head in order.
"""
from __future__ import annotations

import numpy as np

from .compile import Compiled, set_low_marks
from .kernel import layout as L
from .kernel.tables import Extended, SimState, Zeros, pack

GROWTH_STEP = 4


def steps_needed(capacity: int, free: int, margin: int) -> int:
    """The x4 steps after which ``capacity`` leaves at least ``margin`` free (``free`` now)."""
    steps, grown = 0, capacity
    while free + grown - capacity < margin:
        grown = max(grown * GROWTH_STEP, 1)
        steps += 1
    return steps


def make_headroom(compiled: Compiled) -> list[str]:
    """Grow, in place, every resource of ``compiled`` with less than one event's margin free:
    a pool that gave out a record of its reserve (x4), the heap, a ring or a pending list with
    less than its margin left (x4 until it has it); return what grew (empty if nothing had to)."""
    S, M, growth = compiled.state, compiled.margins, compiled.growth
    tables: dict[str, object] = {}  # grown tables, as placeholders for pack
    fills = []                      # then, with the new state: fill(new) fills them
    grown = []
    for name, attr, low in (("cell", "cells", L.CELLS_LOW), ("pkt", "packets", L.PACKETS_LOW)):
        if S.g[L.G_STATUS] & low:  # the pool gave out a record of its reserve
            pool = getattr(S, name)
            tables[name] = Extended((pool.shape[0] * GROWTH_STEP, pool.shape[1]), pool)
            fills.append(_pool_linker(name, _free_records(S, name), getattr(M, attr)))
            setattr(growth, attr, getattr(growth, attr) * GROWTH_STEP)
            grown.append(attr)
    steps = steps_needed(S.h_time.shape[0], S.h_time.shape[0] - int(S.g[L.G_HEAP_LEN]), M.heap)
    if steps:
        for name in ("h_time", "h_seq", "h_kind", "h_id"):
            tables[name] = Extended((S.h_time.shape[0] * GROWTH_STEP ** steps,), getattr(S, name))
        growth.heap *= GROWTH_STEP ** steps
        grown.append("heap")
    grown += _grow_lists(compiled, tables, fills)
    if grown:
        compiled.kernel_state, compiled.state = pack(S._replace(**tables))
        for fill in fills:
            fill(compiled.state)
        set_low_marks(compiled.state, M)
    return grown


POOLS = {"cell": (L.CELL_NEXT, L.G_CELL_FREE, L.G_CELL_RESERVE, L.G_CELL_FRESH),
         "pkt": (L.PKT_NEXT_FREE, L.G_PKT_FREE, L.G_PKT_RESERVE, L.G_PKT_FRESH)}
"""Per pool: the column chaining its free list, the g fields of the list's head, its reserve and its first
record never handed out."""


def _free_records(S: SimState, name: str) -> np.ndarray:
    """The free records of pool ``name``, in free-list order (a pool that ran low has few); from the first
    record never handed out on, the list goes on row by row (``G_CELL_FRESH``, ``G_PKT_FRESH``)."""
    next_col, free_col, _, fresh_col = POOLS[name]
    pool = getattr(S, name)
    chain, end, e, fresh = [], pool.shape[0], int(S.g[free_col]), int(S.g[fresh_col])
    while e != end:
        chain.append(e)
        e = int(pool[e, next_col]) if e < fresh else e + 1
    return np.array(chain, np.int64)


def _pool_linker(name: str, free: np.ndarray, reserve: int):
    """Returns the filler that chains the free list of the grown pool ``name``: its new records
    but the last ``reserve`` ones, the records that were free (``free``), then the new reserve,
    ended by the pool's size; the old reserve's records are ordinary ones from now on."""
    next_col, free_col, reserve_col, fresh_col = POOLS[name]

    def link(S: SimState) -> None:
        pool = getattr(S, name)
        rows, old_rows = pool.shape[0], pool.shape[0] // GROWTH_STEP
        order = np.concatenate([np.arange(old_rows, rows - reserve), free, np.arange(rows - reserve, rows)])
        pool[order, next_col] = np.append(order[1:], rows)
        S.g[free_col] = order[0]
        S.g[reserve_col] = rows - reserve
        S.g[fresh_col] = rows - reserve  # the new reserve counts as fresh: taking one of it sets *_LOW
    return link


def _grow_lists(compiled: Compiled, tables: dict[str, object], fills: list) -> list[str]:
    """Slotted ports' pending lists, then infinite buffers' rings (a slotted port's ring must
    take its whole pending list at a slot end, so it follows): placeholders into ``tables``,
    their fillers into ``fills``; the port table gets the new bases and capacities."""
    S, M, growth = compiled.state, compiled.margins, compiled.growth
    port, names, grown = S.port, compiled.port_names, []
    pend_cap = port[:, L.P_PEND_CAP].copy()
    for p in np.flatnonzero(port[:, L.P_SLOTTED]):
        steps = steps_needed(pend_cap[p], pend_cap[p] - port[p, L.P_PEND_LEN], M.pending)
        if steps:
            pend_cap[p] *= GROWTH_STEP ** steps
            growth.pending[names[p]] = growth.pending.get(names[p], 1) * GROWTH_STEP ** steps
            grown.append(f"pending {names[p]}")
    if grown:
        tables["pend"] = Zeros((int(pend_cap.sum()), L.PE_NFIELDS))
        fills.append(_pending_mover(S, pend_cap))
    ring_cap = port[:, L.P_RING_CAP].copy()
    rings = []
    for p in np.flatnonzero((port[:, L.P_CAPACITY] == L.INFINITE) & (ring_cap > 0)):
        steps = steps_needed(ring_cap[p], ring_cap[p] - port[p, L.P_RING_LEN], M.ring_of(port[p], p))
        if steps:
            ring_cap[p] *= GROWTH_STEP ** steps
            growth.rings[names[p]] = growth.rings.get(names[p], 1) * GROWTH_STEP ** steps
            rings.append(f"ring {names[p]}")
    if rings:
        for name in RING_TABLES:
            if getattr(S, name).size:  # ring_cell is empty without held ports
                tables[name] = Zeros((int(ring_cap.sum()),))
        fills.append(_ring_mover(S, ring_cap))
    return grown + rings


RING_TABLES = ("ring_pv", "ring_t", "ring_cell")


def _bases(capacities: np.ndarray) -> np.ndarray:
    """Start of each port's region when the regions lie one after another, in port order."""
    return np.concatenate([[0], np.cumsum(capacities)[:-1]]).astype(np.int64)


def _ring_mover(old: SimState, capacities: np.ndarray):
    """Sets every port's ring region to ``capacities`` (in ``old``'s port table, which pack then
    copies); returns the filler that unrolls each ring of ``old`` from its head to the start of
    its region of the new state (head 0)."""
    port = old.port
    moves = [(p, int(n), int(port[p, L.P_RING_BASE]), int(port[p, L.P_RING_HEAD]), int(port[p, L.P_RING_CAP]))
             for p, n in enumerate(port[:, L.P_RING_LEN]) if n]
    port[:, L.P_RING_BASE] = _bases(capacities)
    port[:, L.P_RING_CAP] = capacities
    port[:, L.P_RING_HEAD] = 0

    def fill(new: SimState) -> None:
        for name in RING_TABLES:
            src, dst = getattr(old, name), getattr(new, name)
            if src.size == 0:
                continue
            for p, n, base, head, cap in moves:
                start = new.port[p, L.P_RING_BASE]
                dst[start:start + n] = src[base + (head + np.arange(n)) % cap]
    return fill


def _pending_mover(old: SimState, capacities: np.ndarray):
    """Sets every slotted port's pending region to ``capacities``; returns the filler that
    copies each pending list of ``old`` (it starts at its base) into the new state."""
    port = old.port
    moves = [(p, int(n), int(port[p, L.P_PEND_BASE])) for p, n in enumerate(port[:, L.P_PEND_LEN]) if n]
    port[:, L.P_PEND_BASE] = _bases(capacities)
    port[:, L.P_PEND_CAP] = capacities

    def fill(new: SimState) -> None:
        for p, n, base in moves:
            start = new.port[p, L.P_PEND_BASE]
            new.pend[start:start + n] = old.pend[base:base + n]
    return fill
