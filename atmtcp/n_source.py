"""goyal1998's N-source configuration as ``atmtcp run`` and ``atmtcp bench`` build it: the networks
(:data:`NETWORKS`) and goyal1998's TCP (:data:`TCP_SETTINGS`, :func:`goyal_tcp`), beside
:func:`atmtcp.topologies.n_source_run`.

They live here, below the papers, so that the command line's default run (:mod:`atmtcp.default_run`)
imports no paper's package (and with it xarray and the experiments); goyal1998's package
(:mod:`atmtcp.papers.goyal1998.scenario`) takes them from here and adds the rest of its configuration
(the policy columns, the buffers, one grid point's run).
"""
from __future__ import annotations

from . import model as m
from .tcp_settings import stated, tcp_from, unsaid

TCP_SETTINGS = (
    stated("increase", "float", 'goyal1998 2: "During the congestion avoidance phase, the source increases '
           'its CWND by 1/CWND every time a segment is acknowledged" (exactly, so in floating point).'),
    stated("ssthresh_rule", "half_cwnd", 'goyal1998 2: "More precisely, Ssthresh is set to max{2, min{CWND/2, '
           'RCVWND}}".'),
    stated("recovery_exit_opens", False, 'goyal1998 5.1: "the TCP sets CWND to SSTHRESH, and then does '
           'congestion avoidance".'),
    stated("delayed_ack", False, 'goyal1998 3.1: "TCP delay ACK timer is NOT set. Segments are ACKed as soon '
           'as they are received."'),
    unsaid("delayed_ack_max_s", "never used: no delayed ACKs."),
    stated("granularity_s", 0.1, 'goyal1998 3.1: "TCP timer granularity is set to 100 ms."'),
    unsaid("min_rto_ticks", 'goyal1998 2 names the RTO of [11] (Jacobson) without its bounds: 4.4BSD\'s '
           'TCPTV_MIN, two ticks.'),
    unsaid("initial_rto_s", "not given: 4.4BSD's TCPTV_SRTTDFLT, 3 s before the first RTT sample."),
    unsaid("max_rto_s", "not given: 4.4BSD's TCPTV_REXMTMAX, 64 s."),
    unsaid("timestamps", "not named: 4.4BSD times one segment per window."),
    unsaid("retransmit_timers", 'goyal1998 2: "The retransmission timer is calculated as a function of the '
           'estimates of the average and mean-deviation of the RTT [11]": one timer, as 4.4BSD\'s per connection.'),
)
"""goyal1998's TCP, setting by setting (:mod:`atmtcp.tcp_settings`). goyal1997's slides present the
same simulator (their Reno and SACK tables repeat goyal1998's Tables 8-9, and they state the same
"No TCP delay ack timer", "TCP timer granularity = 100 ms"), so the same record decides them."""


NETWORKS = {
    # goyal1998 3.1: link delay, receiver window, run duration
    "lan": {"delay_s": 5e-6, "rcv_wnd": 65535, "duration_s": 10.0, "buffers": (1000, 3000)},
    "wan": {"delay_s": 5e-3, "rcv_wnd": 600000, "duration_s": 20.0, "buffers": (12000, 36000)},
    # goyal1997 slides: MSS 9180, window "34000 x 8" read as 34000 << 8 (RFC 1323 scale 8:
    # 8704000 bytes; 34000 x 8 = 272000 bytes could never fill the buffers of "1 to 3 times
    # RTT"), buffers 200000 and 600000 cells. The slides give no delays: a geostationary
    # SW1-SW2 hop of 275 ms one way with 5 ms access links makes the propagation RTT 570 ms,
    # whose bandwidth-delay product (209000 cells) matches "1 RTT" = 200000 cells. No
    # duration is given: 50 s, about 90 RTTs.
    "satellite": {"delay_s": 5e-3, "trunk_delay_s": 0.275, "rcv_wnd": 34000 << 8, "mss": 9180,
                  "duration_s": 50.0, "buffers": (200000, 600000)},
}
SACK_PIPE_START = "cwnd"
"""SACK's PIPE at the third duplicate ACK in every goyal1998 and goyal1997 run: the algorithm as 5.4.1 and
the goyal1997 slides write it, "When the third duplicate ACK is received, PIPE is set to the value of CWND
and CWND is reduced by half" (and "When a segment is sent, PIPE is incremented by one", the fast
retransmission included). 5.4.2's analysis starts from "sets PIPE to CWND - 3" instead: that reading is
``goyal1998.sack_pipe_study`` and the start of ``goyal1998.sack_bound``, whose bound assumes it. The
paper gives both; the rule for what a paper leaves unsaid takes the algorithm's own statement."""


def goyal_tcp(flavor: str, mss: int, rcv_wnd: int, **scenario) -> m.TcpConfig:
    """goyal1998's TCP (:data:`TCP_SETTINGS`, SACK's PIPE start :data:`SACK_PIPE_START`).

    Parameters
    ----------
    flavor : str
        One of :data:`atmtcp.model.FLAVORS`.
    mss : int
        The segment's data bytes (512 in goyal1998).
    rcv_wnd : int
        The receiver's window in bytes.
    **scenario
        Other :class:`~atmtcp.model.TcpConfig` fields, over goyal1998's.

    Returns
    -------
    atmtcp.model.TcpConfig
    """
    scenario.setdefault("sack_pipe_start", SACK_PIPE_START)
    return tcp_from(flavor, TCP_SETTINGS, mss=mss, rcv_wnd=rcv_wnd, **scenario)
