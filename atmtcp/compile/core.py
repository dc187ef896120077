"""What both paths of the compiler share: the time unit, the growable sizes and one event's margins,
the compiled run, the channels, the pools' sizes and the memory check, the global scalars, and the
packing of the tables into the kernel's arenas (:mod:`atmtcp.kernel.tables`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .. import model as m
from ..kernel import layout as L
from ..kernel.aal5 import CELL_BYTES, packet_cells
from ..kernel.tables import KernelState, SimState, Zeros, pack
from ..metrics import framing
from .schema import sim_state

NS = 1_000_000_000


def cell_time_ns(rate_bps: float) -> int:
    """Transmission time of one 53-byte cell at ``rate_bps``, rounded to the nanosecond
    (2726 ns at 155.52 Mbps: the rate is 0.013 % higher than nominal)."""
    return max(1, int(round(CELL_BYTES * 8 * NS / rate_bps)))


@dataclass
class Growth:
    """Multipliers of the growable sizes: the pool of cells, of packets, the event heap, each
    infinite buffer's ring (by port name), each slotted port's list of pending arrivals.

    :func:`atmtcp.compile.compile_run` sizes the tables with them (each size plus one event's
    :class:`Margins`, so that the first event always fits); :mod:`atmtcp.grow` multiplies the
    one of a resource it grows in a paused run (x4), which keeps the record of what grew and
    bounds it (:data:`atmtcp.simulate.MAX_GROWTH`). Fractions are allowed: tests start with
    tiny tables to force growth. Sizes never change a result.

    Parameters
    ----------
    cells, packets, heap : float
        The multipliers of the cell pool, the packet pool and the event heap (default 1).
    rings : dict of str to float
        Each infinite buffer's ring, by port name (default 1 each).
    pending : dict of str to float
        Each slotted port's list of pending arrivals, by port name (default 1 each).
    """

    cells: float = 1
    packets: float = 1
    heap: float = 1
    rings: dict[str, float] = field(default_factory=dict)
    pending: dict[str, float] = field(default_factory=dict)

    def largest(self) -> float:
        """The largest multiplier (a bound on the growth steps).

        Returns
        -------
        float
        """
        return max([self.cells, self.packets, self.heap, *self.rings.values(), *self.pending.values()])


PEND_MARGIN = 33
"""Pending arrivals one event can add to a slotted port: one by an arrival event of its own (a burst
enters only its host's NIC, never slotted), or, at a slot end, the cells it takes from the input
channels it pulls (:func:`atmtcp.kernel.held_ports.pull_arrivals`); a port pulls its inputs only
while the most they can bring in one slot fits (:func:`atmtcp.compile.cells.pull_lists`)."""
HEAP_MARGIN = 16 + PEND_MARGIN - 1
"""Heap entries one event can add, at most: the heads of the (at most two) channels it fills
from empty (a burst goes down one VC), a few retransmission and delayed-ACK timer entries
(each re-armed only to an earlier deadline), one port event, one sample; and, when a slotted port
falls idle, the heads of the channels it pulled, at most ``PEND_MARGIN - 1`` of them."""


@dataclass
class Margins:
    """What one event can take, at most, of each growable resource; the kernel stops between
    two events when less is left (the ``*_LOW`` statuses), so an event never runs out.

    The worst event is a TCP burst: one ACK lets a sender put up to its advertised window W
    of segments beyond ``snd_una`` on the wire (``tcp_output``), plus one retransmission (fast
    retransmit, New Reno's partial ACK); SACK recovery may resend the holes below the highest
    SACKed segment and send new data, up to 2 W. Each segment takes one packet record and, per
    cell, one record of the cell pool (its NIC forwards each cell onto a channel at once, or
    reassembles it); an ACK takes one packet of a few cells.
    An event at a switch port handles one cell, except a slotted port's slot end, which
    admits all of the slot's pending arrivals into its ring."""

    cells: int
    packets: int
    ring: np.ndarray   # per port, without the pending arrivals a slotted port may admit at once

    heap: int = HEAP_MARGIN
    pending: int = PEND_MARGIN

    def ring_of(self, port: np.ndarray, p: int) -> int:
        """Ring entries one event can add at port ``p`` (row ``port[p]`` of the port table)."""
        return int(self.ring[p] + (port[L.P_PEND_CAP] if port[L.P_SLOTTED] else 0))


@dataclass
class Compiled:
    """Kernel state plus the names needed to label its results (:func:`atmtcp.compile.compile_run`).

    Attributes
    ----------
    state : atmtcp.kernel.tables.SimState
        Named views of the kernel's arenas.
    kernel_state : atmtcp.kernel.tables.KernelState
        What the kernel runs on.
    port_names : list of str
        Kernel port index -> ``"node->neighbor"``.
    folded_ports, traced_ports : list of str
        The ports folded into fixed delays, and the traced ports.
    folded_after : list of int
        Per VC: the folded ports after its last simulated port.
    bottleneck : str
        The port shared by the most data connections (the slowest of those).
    bottleneck_bps : float
        Its cell rate in bit/s, at the cell time it really has.
    framing : numpy.ndarray
        Per connection: TCP payload per link byte (:func:`atmtcp.metrics.framing`).
    through_bottleneck : numpy.ndarray
        Per connection: whether its data cross the bottleneck.
    n_samples, sample_interval_ns : int
        The port samples and their interval (ns).
    margins : Margins
        One event's worst use of each growable resource.
    growth : Growth
        The multipliers of the sizes, raised as they grow.
    router_ports, router_queues : list of str
        The packet path (:mod:`atmtcp.compile.packets`): kernel index -> name, of ports and of queues.
    sampled_queues : list of str
        The queues of the traced router ports.
    atm_hops_after : list of int
        Per router port: 1 + the ATM switch ports after it.
    """

    state: SimState
    kernel_state: KernelState
    port_names: list[str]
    folded_ports: list[str]
    traced_ports: list[str]
    folded_after: list[int]
    bottleneck: str
    bottleneck_bps: float
    framing: np.ndarray
    through_bottleneck: np.ndarray
    n_samples: int
    sample_interval_ns: int
    margins: Margins
    growth: Growth
    router_ports: list[str] = field(default_factory=list)
    router_queues: list[str] = field(default_factory=list)
    sampled_queues: list[str] = field(default_factory=list)
    atm_hops_after: list[int] = field(default_factory=list)


def ack_bytes(run: m.Run) -> int:
    """The link bytes of a bare ACK beyond its cells' payload: TCP/IP headers, LLC, AAL5 trailer."""
    return run.aal5.tcpip_header_bytes + run.aal5.llc_bytes + run.aal5.trailer_bytes


def connection_framing(run: m.Run) -> np.ndarray:
    """Per connection: TCP payload per link byte (:func:`atmtcp.metrics.framing`)."""
    return np.array([framing(c.tcp.mss, run.aal5.overhead_bytes) for c in run.connections])


def bases(capacities) -> np.ndarray:
    """Start of each region when regions of ``capacities`` lie one after another."""
    if not len(capacities):
        return np.zeros(0, np.int64)
    return np.concatenate([[0], np.cumsum(capacities)[:-1]]).astype(np.int64)


def vc_row(row: np.ndarray, run: m.Run, c: int, is_ack: int, tail_ns: int, delivery_chan: int) -> None:
    """The columns of a VC's row both paths write: its connection, direction, delay after its last
    hop, cells per data segment, bytes of an ACK's headers, and its delivery channel."""
    row[L.V_CONN] = c
    row[L.V_IS_ACK] = is_ack
    row[L.V_TAIL_NS] = tail_ns
    row[L.V_DATA_CELLS] = packet_cells(run.connections[c].tcp.mss, run.aal5.overhead_bytes)
    row[L.V_HEADER_BYTES] = ack_bytes(run)
    row[L.V_DELIVERY_CHAN] = delivery_chan


class Channels:
    """A run's channels (the ``chan`` table): one per distinct link from one hop to the next that
    some VC takes (named by a key), and one delivery channel per VC, after its last hop."""

    def __init__(self):
        self.ids: dict[tuple, int] = {}
        self.dst: list[int] = []
        self.cdv: list[int] = []
        self.src: list[int] = []
        self.pull_next: dict[int, int] = {}
        self.parked: set[int] = set()

    def add(self, dst: int, cdv: int = 0, src: int = -1) -> int:
        """A new channel from kernel port ``src`` to kernel port ``dst`` (-1: none) with delay
        variation ``cdv`` (ns)."""
        self.dst.append(dst)
        self.cdv.append(cdv)
        self.src.append(src)
        return len(self.dst) - 1

    def shared(self, key: tuple, dst: int, cdv: int = 0, src: int = -1) -> int:
        """The channel named ``key``, added at its first use."""
        if key not in self.ids:
            self.ids[key] = self.add(dst, cdv, src)
        return self.ids[key]

    def table(self) -> np.ndarray:
        """The ``chan`` table."""
        chan = np.zeros((len(self.dst), L.CH_NFIELDS), np.int64)
        chan[:, L.CH_DST_PORT] = self.dst
        chan[:, L.CH_CDV_NS] = self.cdv
        for ch, nxt in self.pull_next.items():
            chan[ch, L.CH_PULL_NEXT] = nxt
        for ch in self.parked:
            chan[ch, L.CH_PARKED] = L.CH_PARKED_OUT
        return chan


@dataclass(frozen=True)
class Sizes:
    """Rows of the tables both paths size alike: the pools (each with one event's margin), the
    heap, the TCP trace, the samples, and the scoreboards' width."""

    pool: int
    packet_pool: int
    heap: int
    scoreboard: int
    n_trace: int
    n_samples: int
    sample_ns: int


def sampling(run: m.Run, sampled: bool) -> tuple[int, int]:
    """The number of samples (0 if nothing is ``sampled``) and the interval between two, in ns."""
    end_ns = int(round(run.duration_s * NS))
    sample_ns = max(1, int(round(run.trace.sample_interval_s * NS)))
    return (end_ns // sample_ns + 1 if sampled else 0), sample_ns


def trace_records(run: m.Run) -> int:
    """Rows of the TCP trace: its maximum where a connection is traced, else none."""
    return run.trace.max_records if set(run.trace.connections) else 0


MEMORY_FRACTION = 0.75
"""A run whose kernel arrays would take more than this share of the machine's memory is refused."""


def check_memory(sizes: Sizes, n_conn: int, path_bytes: int) -> None:
    """Refuse, before allocating, a run whose arrays would not fit in memory: the pools, the TCP
    trace and the scoreboards, plus ``path_bytes`` of the path's own tables."""
    estimated_bytes = (8 * (sizes.pool * L.CELL_NFIELDS + sizes.packet_pool * L.PKT_NFIELDS + sizes.n_trace * 4)
                       + 2 * n_conn * sizes.scoreboard + path_bytes)
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return
    if estimated_bytes > MEMORY_FRACTION * total:
        raise m.ModelError("Run", "size", f"{estimated_bytes / 2**30:.1f} GiB of kernel arrays",
                           f"at most {MEMORY_FRACTION:.0%} of this machine's {total / 2**30:.1f} GiB "
                           "(fewer sources, smaller buffers or traces)")


def global_scalars(run: m.Run, sizes: Sizes, margins: Margins) -> np.ndarray:
    """The ``g`` vector of a fresh run: end time, the pools' reserves, sampling, the random
    stream's seed, the trace window (the free lists start at record 0)."""
    g = np.zeros(L.G_NFIELDS, np.int64)
    g[L.G_END] = int(round(run.duration_s * NS))
    g[L.G_CELL_RESERVE] = sizes.pool - margins.cells
    g[L.G_PKT_RESERVE] = sizes.packet_pool - margins.packets
    g[L.G_SAMPLE_NS] = sizes.sample_ns
    g[L.G_RNG] = run.seed
    g[L.G_NSAMPLES] = sizes.n_samples
    g[L.G_TRACE_T0] = int(round(run.trace.start_s * NS))
    g[L.G_TRACE_T1] = L.INFINITE if run.trace.stop_s == float("inf") else int(round(run.trace.stop_s * NS))
    return g


def sized_tables(run: m.Run, sizes: Sizes, margins: Margins) -> dict:
    """The tables both paths size alike (see :class:`Sizes`), all zeros but ``g``."""
    n_conn, heap, n_trace = len(run.connections), (sizes.heap,), sizes.n_trace
    return dict(
        g=global_scalars(run, sizes, margins),
        rsack=Zeros((n_conn, L.RS_NFIELDS)),
        sb=Zeros((n_conn, sizes.scoreboard)), rb=Zeros((n_conn, sizes.scoreboard)),
        cell=Zeros((sizes.pool, L.CELL_NFIELDS)), pkt=Zeros((sizes.packet_pool, L.PKT_NFIELDS)),
        h_time=Zeros(heap), h_seq=Zeros(heap), h_kind=Zeros(heap), h_id=Zeros(heap),
        trace_t=Zeros((n_trace,)), trace_i=Zeros((n_trace, 2)), trace_v=Zeros((n_trace,)),
        **segment_timer_table(run, sizes),
    )


def segment_timer_table(run: m.Run, sizes: Sizes) -> dict:
    """``seg_rto``, one deadline per scoreboard slot, in a run with per-segment retransmission timers
    (:attr:`atmtcp.model.TcpConfig.retransmit_timers`); none otherwise (the schema's empty table)."""
    if any(c.tcp.retransmit_timers == "per_segment" for c in run.connections):
        return dict(seg_rto=Zeros((len(run.connections), sizes.scoreboard)))
    return {}


def pack_state(tables: dict, margins: Margins) -> tuple[KernelState, SimState]:
    """Pack ``tables`` (every other table the schema's empty default, :mod:`.schema`) into the
    kernel's arenas and set the low marks. The pools' free lists need no chaining: their heads and
    ``G_*_FRESH`` marks are 0, so each list runs 0, 1, 2, ... to the pool's size, the reserve last
    (:mod:`atmtcp.kernel.layout`, ``G_CELL_FRESH``)."""
    kernel_state, state = pack(sim_state(**tables))
    set_low_marks(state, margins)
    return kernel_state, state


def set_low_marks(state: SimState, margins: Margins) -> None:
    """Where the kernel stops a run between two events (the ``*_LOW`` statuses): one event's
    margin below the capacity of the heap, of each infinite buffer's ring and of each pending
    list (the pools have their reserve instead, see ``G_CELL_RESERVE``). A finite buffer's ring
    never grows: its mark is its capacity, where a push fails (its policy drops first, so it
    never does)."""
    g, port = state.g, state.port
    g[L.G_HEAP_LOW_AT] = state.h_time.shape[0] - margins.heap
    for p in range(port.shape[0]):
        infinite = port[p, L.P_CAPACITY] == L.INFINITE
        ring_margin = margins.ring_of(port[p], p) if infinite else 0
        port[p, L.P_RING_LOW_AT] = port[p, L.P_RING_CAP] - ring_margin
        port[p, L.P_PEND_LOW_AT] = port[p, L.P_PEND_CAP] - margins.pending
