"""Window growth, the first of a TCP's three axes (after ns-3's ``TcpCongestionOps``): how cwnd
opens on an ACK of new data and what ssthresh becomes after a loss.

The rules are per connection: ``C_INCREASE_RULE`` (``INC_*``, ``layout.INCREASE_RULE_NAMES``)
and ``C_SSTHRESH_RULE`` (``SS_*``, ``layout.SSTHRESH_RULE_NAMES``); whether the ACK that ends
fast recovery opens the window too is ``C_RECOVERY_OPENS`` (:func:`atmtcp.kernel.tcp_recovery.exit_recovery`).
"""
from .jit import jit
from .layout import (
    C_ACK_COUNT, C_INCREASE_N, C_INCREASE_RULE, C_MAX_CWND, C_MSS, C_SND_WND, C_SSTHRESH_RULE, CF_CWND, CF_SSTHRESH,
    INC_BSD, INC_FLOAT, INC_INTEGER, SS_BSD,
)
from .state import ftab, itab, nonneg, T_CONN, T_CONNF


@jit
def open_window(S, c):
    """Window growth on an ACK of new data: slow start, or the configured linear increase.

    Slow start adds one segment per ACK (goyal1998 section 2). Congestion avoidance adds
    ``mss*mss/cwnd`` per ACK: in floating point (``float``), as 4.4BSD with its extra
    ``mss/8`` (``bsd``), in integer bytes, which stalls once ``mss*mss < cwnd``
    (``integer``; goyal1997 "A problem in slow start implementations"), or in integer bytes
    once every N ACKs (``integer_every_n``, the slides' Solution 1). Slow start lasts while
    ``cwnd < ssthresh`` (goyal1998 2: "until CWND reaches Ssthresh"); under ``bsd`` while
    ``cwnd <= ssthresh``, 4.4BSD's ``if (cw > tp->snd_ssthresh)`` before the linear increment.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    cwnd = connf[c, CF_CWND]
    rule = conn[c, C_INCREASE_RULE]
    ssthresh = connf[c, CF_SSTHRESH]
    if cwnd < ssthresh or (rule == INC_BSD and cwnd == ssthresh):
        cwnd += mss
    else:
        if rule == INC_FLOAT:
            cwnd += mss * mss / cwnd
        elif rule == INC_BSD:
            cwnd += (mss * mss) // int(cwnd) + mss // 8
        elif rule == INC_INTEGER:
            cwnd += (mss * mss) // int(cwnd)
        else:
            n = conn[c, C_ACK_COUNT] + 1
            if n >= conn[c, C_INCREASE_N]:
                cwnd += (n * mss * mss) // int(cwnd)
                n = 0
            conn[c, C_ACK_COUNT] = n
    connf[c, CF_CWND] = min(cwnd, conn[c, C_MAX_CWND])


@jit
def halve_window(S, c):
    """ssthresh after a loss, in whole segments, at least two; RCVWND is the window the
    receiver's last ACK advertised (``C_SND_WND``).

    - ``half_cwnd``: goyal1998 section 2, ``ssthresh = max{2, min{CWND/2, RCVWND}}``;
    - ``bsd``: 4.4BSD-Lite's ``min(snd_wnd, snd_cwnd) / 2 / t_maxseg`` (tcp_input.c and
      tcp_timer.c), which differs once cwnd exceeds the advertised window.
    """
    c = nonneg(c)
    conn = itab(S, T_CONN)
    connf = ftab(S, T_CONNF)
    mss = conn[c, C_MSS]
    wnd = float(conn[c, C_SND_WND])
    if conn[c, C_SSTHRESH_RULE] == SS_BSD:
        half = min(connf[c, CF_CWND], wnd) / 2.0
    else:
        half = min(connf[c, CF_CWND] / 2.0, wnd)
    connf[c, CF_SSTHRESH] = max(2, int(half // mss)) * mss
