"""The application above each TCP sender: a persistent source (it always has data) that opens at
``C_START_NS`` and may close at ``A_STOP_NS`` (ewa 2: "At time t = 10 secs we closed five of the
ten active connections").

Closing stops the application: from then on it hands TCP no new data, so the sender sends no byte
beyond the highest it has sent (``A_SEND_LIMIT = snd_max``). TCP keeps the data it already sent:
segments in flight are delivered, lost ones retransmitted (fast retransmit or timeout) until all is
acknowledged, and then the connection is silent. This is a close after the data, as a FIN would
follow it (the FIN itself is not modelled); nothing is aborted.
"""
from .jit import jit
from .layout import A_SEND_LIMIT, C_SND_MAX
from .state import itab, T_APP, T_CONN


@jit
def close_connection(S, c, t):
    """The application of connection ``c`` closes at ``t``: no new data (see the module docstring)."""
    itab(S, T_APP)[c, A_SEND_LIMIT] = itab(S, T_CONN)[c, C_SND_MAX]
