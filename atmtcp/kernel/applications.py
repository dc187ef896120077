"""The application above each TCP sender: a persistent source (it always has data) that opens at
``C_START_NS`` and may close at ``APP_STOP_NS`` (ewa 2: "At time t = 10 secs we closed five of the
ten active connections"), or an ON/OFF source on a connection that stays open (ewa 4.6).

Closing stops the application: from then on it hands TCP no new data, so the sender sends no byte
beyond the highest it has sent (``APP_SEND_LIMIT = snd_max``). TCP keeps the data it already sent:
segments in flight are delivered, lost ones retransmitted (fast retransmit or timeout) until all is
acknowledged, and then the connection is silent. This is a close after the data, as a FIN would
follow it (the FIN itself is not modelled); nothing is aborted.

An ON/OFF application (ewa 4.6: "The remaining thirty connections are driven by ON-OFF sources where
the ON and OFF periods are exponentially distributed"; "all the TCP connections remain open for the
entire duration of the simulation. It is the applications that feed the corresponding TCP
connections that follow the ON-OFF model") has data at every instant of an ON period and none in an
OFF period. An OFF period starts as a close does (no byte beyond ``snd_max``; what was sent is still
delivered and repaired); an ON period lifts the limit and TCP sends at once what its windows allow,
"an entire window worth of data as a single burst" when all was acknowledged during the OFF
period: TCP does not shrink its window after the idle time (ewa 4.6 expects that burst, and the
window the source kept, "a larger window size than the current value computed by the window
adaptation scheme"). Each application starts with an ON period at its connection's open; the
periods are drawn from the run's seeded stream. A closed application has no more periods.
"""
from .heap import heap_push, next_seq
from .jit import jit
from .layout import APP_IS_ON, APP_OFF_MEAN_NS, APP_ON_MEAN_NS, APP_SEND_LIMIT, APP_STOP_NS, C_SND_MAX, C_START_NS, EV_APP, INFINITE
from .rng import random_duration_ns
from .state import itab, T_APP, T_CONN
from .tcp import tcp_output


@jit
def close_connection(S, c, t):
    """The application of connection ``c`` closes at ``t``: no new data (see the module docstring)."""
    itab(S, T_APP)[c, APP_SEND_LIMIT] = itab(S, T_CONN)[c, C_SND_MAX]


@jit
def schedule_applications(S):
    """The end of the first ON period of every ON/OFF application (it starts ON at its open)."""
    app = itab(S, T_APP)
    conn = itab(S, T_CONN)
    for c in range(app.shape[0]):
        if app[c, APP_ON_MEAN_NS] > 0:
            app[c, APP_IS_ON] = 1
            heap_push(S, conn[c, C_START_NS] + random_duration_ns(S, app[c, APP_ON_MEAN_NS]), next_seq(S), EV_APP, c)


@jit
def switch_application(S, c, t):
    """EV_APP: the ON/OFF application of connection ``c`` ends its ON or OFF period at ``t``."""
    app = itab(S, T_APP)
    if t >= app[c, APP_STOP_NS]:
        return  # closed
    if app[c, APP_IS_ON] == 1:
        app[c, APP_IS_ON] = 0
        close_connection(S, c, t)
        mean = app[c, APP_OFF_MEAN_NS]
    else:
        app[c, APP_IS_ON] = 1
        app[c, APP_SEND_LIMIT] = INFINITE
        mean = app[c, APP_ON_MEAN_NS]
        tcp_output(S, c, t)
    heap_push(S, t + random_duration_ns(S, mean), next_seq(S), EV_APP, c)
