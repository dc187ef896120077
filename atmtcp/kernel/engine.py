"""The main loop: pop the earliest event, dispatch it, until the end time."""
from .heap import heap_pop, heap_push, next_seq
from .state import arena_pointers, itab, ivec, T_APP, T_CONN, T_G, T_H_ID, T_H_KIND, T_H_SEQ, T_H_TIME, T_PKT, T_PORT, T_VC
from .jit import jit, jit_inline
from .layout import (
    APP_STOP_NS, C_DELACK_DEADLINE, C_DELACK_QUEUED, C_START_NS, C_TIMER_DEADLINE, C_TIMER_QUEUED,
    EV_CHANNEL, EV_DELACK, EV_PORT, EV_RTO, EV_SAMPLE, EV_START, G_END, G_EVENTS,
    G_HEAP_LEN, G_NOW, G_NSAMPLES, G_SAMPLE_NS, G_SEQ, G_STATUS, PKT_PENDING, OK, P_HELD, HELD_CELLS, V_CONN, V_IS_ACK,
    EV_APP, EV_EWA, EV_PRIORITY, EV_ROUTER, EV_STOP, INFINITE,
)
from .applications import close_connection, schedule_applications, switch_application
from .ewa import ewa_period, schedule_ewa
from .priority import schedule_priority_vcs, switch_priority_vc
from .packets import enter_hop, router_event, sample_packet_path
from .held_ports import port_event
from .ports import admit_cell, channel_take, drain, release_packet_if_done, sample_ports
from .tcp import delayed_ack_expires, on_timeout, receiver_input, sender_receive_ack, tcp_output
from .tcp_timers import timer_expires


@jit
def deliver_packet(S, v, hop, k, t):
    """A complete packet of VC ``v`` reaches its host's TCP (``hop`` -1), or, on the packet path,
    the router port of hop ``hop`` (:mod:`atmtcp.kernel.packets`)."""
    if hop >= 0:
        enter_hop(S, v, hop, k, t)
        return
    pkt = itab(S, T_PKT)
    vc = itab(S, T_VC)
    pkt[k, PKT_PENDING] = 0
    c = vc[v, V_CONN]
    if vc[v, V_IS_ACK] == 1:
        sender_receive_ack(S, c, k, t)
    else:
        receiver_input(S, c, k, t)
    release_packet_if_done(S, k)


@jit
def packet_path_event(S, kind, ident, t):
    """A router port's event (EV_ROUTER), a connection's close (EV_STOP), an ON/OFF application's
    switch (EV_APP), a priority VC's switch (EV_PRIORITY) or EWA's period (EV_EWA): one call from
    :func:`dispatch`, which is inlined into the main loop, so that the cell path's loop grows by one
    branch only."""
    if kind == EV_ROUTER:
        router_event(S, ident, t)
    elif kind == EV_STOP:
        close_connection(S, ident, t)
    elif kind == EV_APP:
        switch_application(S, ident, t)
    elif kind == EV_PRIORITY:
        switch_priority_vc(S, ident, t)
    elif kind == EV_EWA:
        ewa_period(S, ident, t)


@jit
def sample(S, i, t):
    """Sample ``i``: the traced cell ports, then the packet path's queues and connections."""
    sample_ports(S, i, t)
    sample_packet_path(S, i, t)


@jit_inline
def dispatch(S, kind, ident, t):
    """Handle one event, already popped (a channel's head and a port's event are handled by the
    caller, and leave the heap themselves)."""
    g = ivec(S, T_G)
    if kind == EV_RTO:
        if timer_expires(S, ident, t, C_TIMER_DEADLINE, C_TIMER_QUEUED, EV_RTO):
            on_timeout(S, ident, t)
    elif kind == EV_DELACK:
        if timer_expires(S, ident, t, C_DELACK_DEADLINE, C_DELACK_QUEUED, EV_DELACK):
            delayed_ack_expires(S, ident, t)
    elif kind == EV_START:
        tcp_output(S, ident, t)
    elif kind >= EV_ROUTER:
        packet_path_event(S, kind, ident, t)
    elif kind == EV_SAMPLE:
        sample(S, ident, t)
        if ident + 1 < g[G_NSAMPLES]:
            heap_push(S, t + g[G_SAMPLE_NS], next_seq(S), EV_SAMPLE, ident + 1)


@jit
def schedule_start(S):
    """The first events of a fresh state: each connection's start, in connection order, the
    close of those that close, the end of the ON/OFF applications' first ON periods, the priority
    VCs' first switches, EWA's first periods, then the first sample of the traced ports. Scheduled here rather
    than from Python, so that a process loads one compiled entry point (``run_until_end``) from
    numba's cache."""
    conn = itab(S, T_CONN)
    g = ivec(S, T_G)
    app = itab(S, T_APP)
    for c in range(conn.shape[0]):
        heap_push(S, conn[c, C_START_NS], next_seq(S), EV_START, c)
    for c in range(conn.shape[0]):
        if app[c, APP_STOP_NS] < INFINITE:
            heap_push(S, app[c, APP_STOP_NS], next_seq(S), EV_STOP, c)
    schedule_applications(S)
    schedule_priority_vcs(S)
    schedule_ewa(S)
    if g[G_NSAMPLES] > 0:
        heap_push(S, 0, next_seq(S), EV_SAMPLE, 0)


@jit
def run_until_end(arenas):
    """Run the simulation in ``arenas`` (a :class:`~atmtcp.kernel.tables.KernelState`) up to ``g[G_END]`` ns, or until a growable resource runs
    low: then it returns a ``*_LOW`` status with the next event still in the heap, and a call
    after Python grew the resource (status reset to OK) continues where it stopped. Returns the
    status code (OK at the end)."""
    S = arena_pointers(arenas)
    g = ivec(S, T_G)
    if g[G_SEQ] == 0:
        schedule_start(S)
    h_id = ivec(S, T_H_ID)
    h_kind = ivec(S, T_H_KIND)
    h_seq = ivec(S, T_H_SEQ)
    h_time = ivec(S, T_H_TIME)
    port = itab(S, T_PORT)
    end = g[G_END]
    while g[G_HEAP_LEN] > 0 and g[G_STATUS] == OK:
        t = h_time[0]
        if t > end:
            break
        g[G_NOW] = t
        g[G_EVENTS] += 1
        kind = h_kind[0]
        ident = h_id[0]
        if kind == EV_CHANNEL:
            seq = h_seq[0]
            v, hop, k, idx = channel_take(S, ident)
            if idx >= 0:
                admit_cell(S, v, hop, k, idx, t, seq)
            else:
                deliver_packet(S, v, hop, k, t)
        elif kind == EV_PORT:
            port_event(S, ident, t)
        else:
            heap_pop(S)
            dispatch(S, kind, ident, t)
    if g[G_STATUS] != OK:
        return g[G_STATUS]  # stopped between two events (*_LOW) or failed: the ports stay as they are
    g[G_NOW] = end
    for p in range(port.shape[0]):
        if port[p, P_HELD] != HELD_CELLS:
            drain(S, p, end)
    return g[G_STATUS]
