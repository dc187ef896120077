"""The kernel's tables, and how they are packed into the arenas the kernel runs on.

Python sees :class:`SimState`, a named tuple of numpy arrays (one per table, described
column by column in :mod:`atmtcp.kernel.layout`). The kernel sees :class:`KernelState`:
one arena per dtype plus a layout table, so that a call passes four arrays instead of 29
(a numba call copies every array struct of a tuple argument by value, which dominated the
event loop). :func:`pack` returns the arenas and the Python-side views of the same memory;
the kernel's own views are in :mod:`atmtcp.kernel.state`. Plain numpy: building a run
imports no numba.
"""
from collections import namedtuple

import numpy as np

TABLES = (
    # name, dtype, description
    ("g", np.int64, "int64[G_NFIELDS]: clock, counters, status"),
    ("conn", np.int64, "int64[n_conn, C_NFIELDS]: TCP sender and receiver"),
    ("connf", np.float64, "float64[n_conn, CF_NFIELDS]: cwnd, ssthresh"),
    ("rsack", np.int64, "int64[n_conn, RS_NFIELDS]: receiver's last SACK blocks"),
    ("sb", np.uint8, "uint8[n_conn, cap]: sender scoreboard (bit 0 SACKed, bit 1 retransmitted)"),
    ("rb", np.uint8, "uint8[n_conn, cap]: receiver's out-of-order segments"),
    ("vc", np.int64, "int64[n_vc, V_NFIELDS]"),
    ("vc_port", np.int64, "int64[n_vc, max_hops]: ports along the route (hop 0 is the host's NIC)"),
    ("vc_chan", np.int64, "int64[n_vc, max_hops]: channel from hop h to hop h+1"),
    ("vc_delay", np.int64, "int64[n_vc, max_hops]: ns from departure at hop h to arrival at hop h+1"),
    ("port", np.int64, "int64[n_port, P_NFIELDS]"),
    ("portf", np.float64, "float64[n_port, PF_NFIELDS]"),
    ("vc_pv", np.int64, "int64[n_vc, max_hops]: the (port, VC) slot of hop h, an index of pv_*"),
    ("pv_vc", np.int64, "int64[n_pv]: the VC of each (port, VC) slot"),
    ("pv_count", np.int64, "int64[n_pv]: cells of the VC in the port's buffer, per (port, VC) slot"),
    ("pv_state", np.int64, "int64[n_pv]: packet discard state of the VC at the port, per slot"),
    ("pv_front", np.int64, "int64[n_pv]: the frame whose remaining cells the port drops (held_ports), 0 if none"),
    ("ring_pv", np.int64, "int64[sum of ring capacities]: (port, VC) slot of each queued cell, per port"),
    ("ring_t", np.int64, "int64[...]: departure-completion time of each queued cell (lazy FIFO ports)"),
    ("ring_cell", np.int64, "int64[...]: packet, hop and cell index of each held cell (P_HELD ports)"),
    ("pend", np.int64, "int64[sum of pending capacities, PE_NFIELDS]: slotted ports' arrivals in a slot"),
    ("chan", np.int64, "int64[n_chan, CH_NFIELDS]"),
    ("cell", np.int64, "int64[pool, CELL_NFIELDS]: cells and packets travelling in channels"),
    ("pkt", np.int64, "int64[pool, PKT_NFIELDS]: packets in flight"),
    ("h_time", np.int64, "int64[heap cap]: event heap, keyed by (time, seq)"),
    ("h_seq", np.int64, ""),
    ("h_kind", np.int64, ""),
    ("h_id", np.int64, ""),
    ("trace_t", np.int64, "int64[trace cap]: TCP trace record time"),
    ("trace_i", np.int64, "int64[trace cap, 2]: connection, kind"),
    ("trace_v", np.float64, "float64[trace cap]: value"),
    ("droplog", np.int64, "int64[droplog cap, 5]: time, port, vc, reason, sequence number of the cell's packet"),
    ("qsample", np.int64, "int64[n_samples, n_traced_ports]: queue length at each sample time"),
    ("osample", np.int64, "int64[n_samples, n_traced_ports]: cumulative cells out at each sample"),
    ("loss", np.int64, "int64[n_conn, max losses]: segment numbers lost on first transmission"),
    # the packet path (atmtcp.kernel.packets): empty tables in a run of cell ports only
    ("app", np.int64, "int64[n_conn, APP_NFIELDS]: the application: close time, send limit"),
    ("flow", np.int64, "int64[n_vc or 0, FL_NFIELDS]: packet-path flows: sizes, drops, measured bytes"),
    ("flow_rport", np.int64, "int64[n_vc or 0, max router hops]: router port of hop h (hop 0: the host's NIC)"),
    ("flow_rq", np.int64, "int64[n_vc or 0, max router hops]: queue of hop h in rq, -1 at a lazy port"),
    ("rport", np.int64, "int64[n_rport, RP_NFIELDS]: router output ports"),
    ("rq", np.int64, "int64[n_rq, RQ_NFIELDS]: router queues (a VC's buffer, or a port's FIFO)"),
    ("rqf", np.float64, "float64[n_rq, RQF_NFIELDS]: RED's parameters and average per queue"),
    ("rq_ring", np.int64, "int64[sum of queue capacities, 2]: queued packet, flow << 8 | hop"),
    ("rsample", np.int64, "int64[n_samples or 0, columns]: sampled router queues and connections"),
    ("rfsample", np.float64, "float64[n_samples or 0, columns]: sampled queues' EWA alpha, average, feedback, rate"),
    ("seg_rto", np.int64, "int64[n_conn, cap] or [0, 0]: per-segment retransmission deadlines, ns (C_SEG_TIMERS)"),
)

SimState = namedtuple("SimState", [name for name, _, _ in TABLES])
Zeros = namedtuple("Zeros", ["shape"])
"""A table that starts as zeros: :func:`pack` makes it in the arena without a copy, so a
large pool costs its size once (not twice while it is packed)."""
Extended = namedtuple("Extended", ["shape", "head"])
"""A table whose first rows are the array ``head`` and the rest zeros: :func:`pack` copies
``head`` into the arena, so that a pool grown in a paused run (:mod:`atmtcp.grow`) is not
built once more outside it."""
KernelState = namedtuple("KernelState", ["I", "F", "B", "lay"])


# Each table's row in the layout table (``lay``) and its number for the kernel's views (``itab(S, T_CONN)``):
# its index in TABLES (tests/kernel/test_layout.py checks each).
T_G = 0
T_CONN = 1
T_CONNF = 2
T_RSACK = 3
T_SB = 4
T_RB = 5
T_VC = 6
T_VC_PORT = 7
T_VC_CHAN = 8
T_VC_DELAY = 9
T_PORT = 10
T_PORTF = 11
T_VC_PV = 12
T_PV_VC = 13
T_PV_COUNT = 14
T_PV_STATE = 15
T_PV_FRONT = 16
T_RING_PV = 17
T_RING_T = 18
T_RING_CELL = 19
T_PEND = 20
T_CHAN = 21
T_CELL = 22
T_PKT = 23
T_H_TIME = 24
T_H_SEQ = 25
T_H_KIND = 26
T_H_ID = 27
T_TRACE_T = 28
T_TRACE_I = 29
T_TRACE_V = 30
T_DROPLOG = 31
T_QSAMPLE = 32
T_OSAMPLE = 33
T_LOSS = 34
T_APP = 35
T_FLOW = 36
T_FLOW_RPORT = 37
T_FLOW_RQ = 38
T_RPORT = 39
T_RQ = 40
T_RQF = 41
T_RQ_RING = 42
T_RSAMPLE = 43
T_RFSAMPLE = 44
T_SEG_RTO = 45

# the columns of the layout table ``lay``, one row per table
LAY_OFFSET = 0   # index: the table's first element in its dtype's arena
LAY_ROWS = 1     # count: the table's rows (its length if 1-D)
LAY_COLS = 2     # count: the table's columns (1 if 1-D)


def _fixed_columns() -> tuple[int, ...]:
    from . import layout as L
    fixed = {"conn": L.C_NFIELDS, "connf": L.CF_NFIELDS, "rsack": L.RS_NFIELDS, "vc": L.V_NFIELDS,
             "port": L.P_NFIELDS, "portf": L.PF_NFIELDS, "pend": L.PE_NFIELDS, "chan": L.CH_NFIELDS,
             "cell": L.CELL_NFIELDS, "pkt": L.PKT_NFIELDS, "trace_i": 2, "droplog": 5, "app": L.APP_NFIELDS,
             "flow": L.FL_NFIELDS, "rport": L.RP_NFIELDS, "rq": L.RQ_NFIELDS, "rqf": L.RQF_NFIELDS, "rq_ring": 2}
    return tuple(fixed.get(name, 0) for name, _, _ in TABLES)


FIXED_COLUMNS = _fixed_columns()
"""The column count of each 2-D table whose columns are the fields of :mod:`atmtcp.kernel.layout`
(0 where it depends on the run: hops, sampled ports, scoreboard size): the kernel's views use the
number itself, so that a row's address is a constant multiple (:func:`pack` checks every table)."""


def pack(state: SimState) -> tuple[KernelState, SimState]:
    """Copy the tables of ``state`` (arrays, or :data:`Zeros` and :data:`Extended`
    placeholders) into arenas; return them and named views of them."""
    arenas = {}
    lay = np.zeros((len(TABLES), 3), np.int64)
    shapes = [tuple(getattr(state, name).shape) for name, _, _ in TABLES]
    for dtype in (np.int64, np.float64, np.uint8):
        members = [i for i, (_, dt, _) in enumerate(TABLES) if dt is dtype]
        arena = np.zeros(max(sum(int(np.prod(shapes[i])) for i in members), 1), dtype)
        offset = 0
        for i in members:
            table, size = getattr(state, TABLES[i][0]), int(np.prod(shapes[i]))
            if FIXED_COLUMNS[i] and shapes[i][1] != FIXED_COLUMNS[i]:
                raise ValueError(f"table {TABLES[i][0]} has {shapes[i][1]} columns, the kernel reads "
                                 f"{FIXED_COLUMNS[i]} (atmtcp.kernel.layout)")
            lay[i] = (offset, shapes[i][0], shapes[i][1] if len(shapes[i]) == 2 else 1)
            if isinstance(table, Extended):
                arena[offset:offset + table.head.size] = table.head.ravel()
            elif not isinstance(table, Zeros):
                arena[offset:offset + size] = table.ravel()
            offset += size
        arenas[dtype] = arena
    views = [arenas[dtype][lay[i, LAY_OFFSET]:lay[i, LAY_OFFSET] + int(np.prod(shapes[i]))].reshape(shapes[i])
             for i, (_, dtype, _) in enumerate(TABLES)]
    return KernelState(arenas[np.int64], arenas[np.float64], arenas[np.uint8], lay), SimState(*views)
