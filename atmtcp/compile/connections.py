"""The tables of a run's connections, which both paths fill alike: the TCP sender and receiver
(``conn``, ``connf``), the application (``app``) and the segments lost by design (``loss``).
Connection c's data flow is VC 2c, its ACKs 2c + 1.
"""
from __future__ import annotations

import numpy as np

from .. import model as m
from ..kernel import layout as L
from .core import NS


def scoreboard_capacity(run: m.Run) -> int:
    """The scoreboards' width: a power of two above every connection's window in segments."""
    sb_cap = 1
    for c_obj in run.connections:
        while sb_cap < c_obj.tcp.rcv_wnd // c_obj.tcp.mss + 4:
            sb_cap *= 2
    return sb_cap


def connection_tables(run: m.Run, sb_cap: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``conn`` and ``connf`` tables of ``run``'s connections, with scoreboards ``sb_cap`` wide."""
    n_conn = len(run.connections)
    conn = np.zeros((n_conn, L.C_NFIELDS), np.int64)
    connf = np.zeros((n_conn, L.CF_NFIELDS), np.float64)
    trace_set = set(run.trace.connections)
    for c, cobj in enumerate(run.connections):
        tcp = cobj.tcp
        row = conn[c]
        tcp_columns(row, tcp)
        row[L.C_TIMER_DEADLINE] = -1
        row[L.C_TIMER_QUEUED] = -1
        row[L.C_DATA_VC] = 2 * c
        row[L.C_ACK_VC] = 2 * c + 1
        row[L.C_START_NS] = int(round(cobj.start_s * NS))
        row[L.C_LAST_RCVD_SEG] = -1
        row[L.C_DELACK_DEADLINE] = -1
        row[L.C_DELACK_QUEUED] = -1
        row[L.C_SEG_MASK] = sb_cap - 1
        row[L.C_TRACE] = int(c in trace_set)
        row[L.C_NLOSS] = len(cobj.lost_segments)
        row[L.C_SEND_HIGH] = -1
        row[L.C_MEASURE_NS] = int(round(run.warmup_s * NS))
        row[L.C_TS_RECENT] = -1
        connf[c, L.CF_CWND] = tcp.mss
        ssthresh = tcp.initial_ssthresh if tcp.initial_ssthresh is not None else row[L.C_RCV_WND]
        connf[c, L.CF_SSTHRESH] = float(ssthresh)
    return conn, connf


def tcp_columns(row: np.ndarray, tcp: m.TcpConfig) -> None:
    """The columns of a connection's ``conn`` row that its :class:`~atmtcp.model.TcpConfig`
    decides: the flavour, the segment and window sizes, the timer, and the TCP settings."""
    gran = int(round(tcp.granularity_s * NS))
    scale_shift = tcp.window_scale
    rcv_wnd = (tcp.rcv_wnd >> scale_shift) << scale_shift
    initial_rto_ticks = max(1, int(round(tcp.initial_rto_s / tcp.granularity_s)))
    row[L.C_LOSS_DETECTION] = m.LOSS_DETECTIONS.index(tcp.loss_detection)
    row[L.C_RECOVERY] = m.RECOVERIES.index(tcp.recovery)
    row[L.C_MSS] = tcp.mss
    row[L.C_RCV_WND] = rcv_wnd
    row[L.C_MAX_CWND] = 65535 << scale_shift
    row[L.C_GRAN_NS] = gran
    row[L.C_RTTMIN] = tcp.min_rto_ticks
    row[L.C_RXTMAX] = max(tcp.min_rto_ticks, int(round(tcp.max_rto_s / tcp.granularity_s)))
    row[L.C_RTTVAR] = initial_rto_ticks  # 4.4BSD: REXMTVAL = srtt/8 + rttvar = initial RTO
    row[L.C_RXTCUR] = min(max(initial_rto_ticks, row[L.C_RTTMIN]), row[L.C_RXTMAX])
    row[L.C_INCREASE_RULE] = m.INCREASE_RULES.index(tcp.increase)
    row[L.C_INCREASE_N] = tcp.increase_every_n
    row[L.C_DELACK] = int(tcp.delayed_ack)
    row[L.C_DELACK_NS] = int(round(tcp.delayed_ack_max_s * NS))
    row[L.C_TIMEOUT_GUARD] = int(tcp.uses_timeout_guard)
    row[L.C_ACK_DELAY_NS] = int(round(tcp.ack_delay_s * NS))
    row[L.C_TIMESTAMPS] = int(tcp.timestamps)
    row[L.C_SSTHRESH_RULE] = m.SSTHRESH_RULES.index(tcp.ssthresh_rule)
    row[L.C_RECOVERY_OPENS] = int(tcp.recovery_exit_opens)
    row[L.C_SACK_PIPE_START] = m.SACK_PIPE_STARTS.index(tcp.sack_pipe_start)
    row[L.C_TICK_PHASE_NS] = int(round(tcp.tick_phase_s * NS))
    row[L.C_SEG_TIMERS] = int(tcp.retransmit_timers == "per_segment")
    row[L.C_SND_WND] = rcv_wnd   # until the first ACK: the window of the connection's set-up


def application_table(run: m.Run) -> np.ndarray:
    """The ``app`` table: each connection's close time (INFINITE: never), send limit and, for an
    ON/OFF application, its mean ON and OFF periods."""
    app = np.zeros((len(run.connections), L.APP_NFIELDS), np.int64)
    app[:, L.APP_SEND_LIMIT] = L.INFINITE
    app[:, L.APP_STOP_NS] = [L.INFINITE if c.stop_s is None else int(round(c.stop_s * NS)) for c in run.connections]
    for c, conn in enumerate(run.connections):
        if conn.on_off is not None:
            app[c, L.APP_ON_MEAN_NS] = int(round(conn.on_off.mean_on_s * NS))
            app[c, L.APP_OFF_MEAN_NS] = int(round(conn.on_off.mean_off_s * NS))
    return app


def loss_table(run: m.Run) -> np.ndarray:
    """The ``loss`` table: per connection, the segments lost on their first transmission (-1: none)."""
    width = max(1, max(len(c.lost_segments) for c in run.connections))
    table = np.full((len(run.connections), width), -1, np.int64)
    for i, c in enumerate(run.connections):
        table[i, :len(c.lost_segments)] = c.lost_segments
    return table


def connection_state(run: m.Run, sb_cap: int) -> dict:
    """The ``conn``, ``connf`` and ``loss`` tables (the path adds ``app``, whose sample columns
    the packet path sets)."""
    conn, connf = connection_tables(run, sb_cap)
    return dict(conn=conn, connf=connf, loss=loss_table(run))
