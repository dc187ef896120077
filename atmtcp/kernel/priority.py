"""A high-priority ON/OFF VC sharing an ATM access point's link (ewa 4.5): the rate left to the
access point's own VC varies.

ewa 4.5: "We vary the bandwidth available to TCP traffic by opening and closing a high-priority ATM
connection that shares the same link L1 with the aggregate TCP traffic ... using an ON/OFF model
where the duration of the ON and OFF periods is exponentially distributed with a mean of 50
milliseconds. When in the ON state, the high priority connection is allocated 75 Mbits/sec."

The priority VC is served before the TCP VC, so while it is on the TCP VC has the rest of the link:
its cells are spaced at ``RP_PRIORITY_GAP_NS`` (the link's cell time x link rate / (link rate -
priority rate)) instead of ``RP_LINK_GAP_NS``. The priority VC's own cells are not simulated (they
leave the link and go nowhere we measure). A switch takes effect from the next packet the port
starts: a packet in service keeps the spacing it started with (a 33-cell packet lasts 90-170 us,
against periods of 50 ms on average). The priority VC is off at t = 0; its periods are drawn from
the run's seeded stream.
"""
from .heap import heap_push, next_seq
from .jit import jit
from .layout import (
    EV_PRIORITY, RP_CELL_GAP_NS, RP_LINK_GAP_NS, RP_PRIORITY_GAP_NS, RP_PRIORITY_OFF_MEAN_NS,
    RP_PRIORITY_ON, RP_PRIORITY_ON_MEAN_NS, RP_PRIORITY_ON_NS, RP_PRIORITY_SINCE,
)
from .rng import random_duration_ns
from .state import itab, T_RPORT


@jit
def schedule_priority_vcs(S):
    """The first ON period of every port's priority VC, after an OFF period from t = 0."""
    rport = itab(S, T_RPORT)
    for p in range(rport.shape[0]):
        if rport[p, RP_PRIORITY_ON_MEAN_NS] > 0:
            heap_push(S, random_duration_ns(S, rport[p, RP_PRIORITY_OFF_MEAN_NS]), next_seq(S), EV_PRIORITY, p)


@jit
def switch_priority_vc(S, p, t):
    """EV_PRIORITY: the priority VC of port ``p`` turns on or off at ``t``; the next switch is drawn."""
    rport = itab(S, T_RPORT)
    if rport[p, RP_PRIORITY_ON] == 1:
        rport[p, RP_PRIORITY_ON] = 0
        rport[p, RP_PRIORITY_ON_NS] += t - rport[p, RP_PRIORITY_SINCE]
        rport[p, RP_CELL_GAP_NS] = rport[p, RP_LINK_GAP_NS]
        mean = rport[p, RP_PRIORITY_OFF_MEAN_NS]
    else:
        rport[p, RP_PRIORITY_ON] = 1
        rport[p, RP_CELL_GAP_NS] = rport[p, RP_PRIORITY_GAP_NS]
        mean = rport[p, RP_PRIORITY_ON_MEAN_NS]
    rport[p, RP_PRIORITY_SINCE] = t
    heap_push(S, t + random_duration_ns(S, mean), next_seq(S), EV_PRIORITY, p)
