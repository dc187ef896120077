"""A traced connection's records (``TraceConfig.connections``): cwnd and ssthresh, segments sent,
ACKs received, timeouts and fast retransmits, inside the run's trace window."""
from .jit import jit
from .layout import C_TRACE, CF_CWND, CF_SSTHRESH, G_TRACE_LEN, G_TRACE_T0, G_TRACE_T1, G_TRACE_TRUNCATED, TR_CWND, TR_SSTHRESH
from .state import ftab, fvec, itab, ivec, nonneg, T_CONN, T_CONNF, T_G, T_TRACE_I, T_TRACE_T, T_TRACE_V


@jit
def trace(S, c, kind, value, t):
    """Record ``value`` of ``kind`` for a traced connection inside the trace window."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    g = ivec(S, T_G)
    trace_i = itab(S, T_TRACE_I)
    trace_t = ivec(S, T_TRACE_T)
    trace_v = fvec(S, T_TRACE_V)
    if conn[c, C_TRACE] == 0 or t < g[G_TRACE_T0] or t > g[G_TRACE_T1]:
        return
    n = g[G_TRACE_LEN]
    if n >= trace_t.shape[0]:
        g[G_TRACE_TRUNCATED] = 1
        return
    trace_t[n] = t
    trace_i[n, 0] = c
    trace_i[n, 1] = kind
    trace_v[n] = value
    g[G_TRACE_LEN] = n + 1


@jit
def trace_window(S, c, t):
    """Record cwnd and ssthresh of a traced connection."""
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    if conn[c, C_TRACE] != 0:
        trace(S, c, TR_CWND, connf[c, CF_CWND], t)
        trace(S, c, TR_SSTHRESH, connf[c, CF_SSTHRESH], t)
