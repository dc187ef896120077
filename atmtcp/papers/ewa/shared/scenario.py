"""What ewa's sections 2-4 share: the network of Fig. 1 (:func:`ewa_network`, our reading of it), the TCP
(ewa 4 describes it; section 2 runs the same), the AAL5 VC, how L1 and AAP-1 are measured, and section 2's
ten connections on one VC, which sections 4.1-4.3 repeat with EWA (4.1: "these network parameters are
identical to those used for comparing the Drop-Tail, Drop-from-Front, and the RED approaches in Section 2").

Every number here is the paper's, with the sentence it rests on; where the paper is silent the
choice is written beside it (and in ``notebooks/ewa.ipynb``).
"""
from __future__ import annotations

from .... import model as m
from ....internetwork import Internetwork
from ....kernel.aal5 import packet_cells
from ....metrics import max_tcp_throughput_bps
from ....tcp_settings import BEFORE_THE_RULE, behaved, stated, tcp_from, unsaid

KB = 1024
MSS = 1500
"""ewa 2 and 4: "We used a constant TCP segment size of 1500 bytes in all the simulations"."""
RCV_WND = 200 * KB
"""ewa 2: "the maximum socket buffer size at the receivers for all three connections was set to 200
KBytes"; "The destination buffer, which effectively sets the maximum TCP window size, was also set
to 200 Kbytes" (window scaling: 200 KB needs a shift of 2)."""
INITIAL_SSTHRESH = 64 * KB
"""Figs. 5-12 captions: "ssthresh = 64 KBytes initially"; 4.1: "The ssthresh variable of TCP is
initialized to 64 Kbytes". We use it for Figs. 2-4 too (their captions do not say)."""
GRANULARITY_S = 0.02
"""ewa 4: "we set the granularity of the timers to 20 milliseconds"."""
AAL5 = m.Aal5Config(tcpip_header_bytes=40, llc_bytes=8, trailer_bytes=8)
"""ewa 4 names "the overhead of cell headers, RM cells, TCP/IP headers, etc." without sizes. Our
choice: 20 + 20 bytes of TCP/IP headers, 8 of LLC/SNAP (RFC 1483, as goyal1998 3.2) and the
8-byte AAL5 trailer: a 1500-byte segment is a 1556-byte frame, 33 cells. RM cells are not
modelled (the VC's rate is fixed)."""
DURATION_S = 20.0
"""ewa 2 / 4.1: "The last two connections remain active until the end of the simulation at time
t=20 seconds". Figs. 2-4 give no duration: we run them as long."""
INTERVAL_S = 0.25
"""ewa 2 and 4: "The utilization of link L1, measured in intervals of 250 milliseconds"."""
START_JITTER_S = 0.01
"""Seed 0 is the paper's setup: every connection opens at t = 0 ("All ten connections were opened
at time t = 0"). The paper shows one run and does not say what is random; to show the spread we
also run seeds 1.., whose connections open at times drawn uniformly in [0, 10 ms) (about one round
trip), and RED's draws come from the run's seed in every run."""
SAMPLE_S = 5e-3
"""AAP-1's buffer and the connections (in section 4 also EWA's alpha, average and feedback) are sampled
every 5 ms; utilization per 250 ms comes from the payload counted at L1 between samples."""
RED_WEIGHT = 0.002
"""RED's averaging weight at AAP-1 (sections 2.2 and 4.6). Not given by ewa: Floyd and Jacobson's w_q of
their simulations (RED paper, section 11)."""


# --- section 2's ten connections on one VC (Figs. 5-12), repeated by sections 4.1-4.3 ----------------
N_CONNECTIONS = 10
L1_DELAY_S = 5e-3
"""ewa 2: "the propagation delay of link L1 was set to 5 milliseconds"."""
IP_DELAY_S = 0.5e-3
"""ewa 2: "and that of each link in the IP Network to 0.5 milliseconds". We read "the IP Network" as
IP network 1, the sources' side: 4.1 gives the same setting "giving rise to 11 milliseconds of
round-trip delay" (2 x (0.5 + 5) ms) and "The feedback delay for the EWA scheme is 1 millisecond",
so the destinations' links in IP network 2 (and L2) are insignificant, as in the first scenario."""
CLOSE_S = {**{i: 10.0 for i in range(5, 10)}, **{i: 15.0 for i in range(2, 5)}}
"""ewa 2: "At time t = 10 secs we closed five of the ten active connections (6-10) and at time t =
15 secs we closed another three (3-5)" (connection index from 0: connection 6 is index 5)."""
PHASES = (("0-10 s", 0.0, 10.0), ("10-15 s", 10.0, 15.0), ("15-20 s", 15.0, 20.0))
"""The three phases of Figs. 5-12: ten, five and two connections open."""
BUFFER_BYTES = 200 * KB
"""ewa 2: "The buffer size at AAP-1 was set to 200 Kbytes which is approximately equal to the
bandwidth-delay product of the network"."""


TCP_SETTINGS = (
    behaved("increase", "float", 'ewa 4.2, of its own runs: "if the ssthresh variable was set to 512 Kbytes ... TCP '
            'would need approximately 20-30 seconds before it was able to achieve 100% utilization after time t = 15 '
            'seconds"; 4.1: "At the rate of one segment per RTT" (1 and 3.1 say the same of TCP in general: "by '
            'approximately one segment every round-trip time"). Section 4.2\'s run recovers in about 13 s with one '
            "segment per round trip (cwnd += mss*mss/cwnd per ACK), in about 2 s with 4.4BSD's +mss/8 per ACK "
            "(exploring runs, seeds 0-1; ewa.behaviour_sensitivity): the sentences about the paper's simulations "
            'win over the Reno ewa 4 names ("The TCP model is based on the Reno version"). 4.1\'s "approximately '
            '150 milliseconds" after 15 s does not depend on the increase in our runs (EWA\'s window, not cwnd, '
            "limits the senders there: 250-285 ms under every reading)."),
    unsaid("ssthresh_rule", "the same Reno: ssthresh = min(wnd, cwnd)/2 after a loss."),
    unsaid("recovery_exit_opens", 'ewa 4 names "the fast retransmit and fast recovery mechanisms": 4.4BSD\'s '
           "deflates to ssthresh, then opens as for any ACK of new data."),
    behaved("delayed_ack", False, 'ewa 4.1, of the run of Fig. 15: "At the rate of one segment per RTT" (and 1, 3.1): '
            "cwnd grows per ACK, so one segment per round trip needs every segment acknowledged; 4.4BSD's delayed "
            "ACKs halve it (0.98 against 0.50 segments per round trip in section 4.2's run). 4.2's 20-30 s does not "
            "separate the two within its \"approximately\" (about 13 s every segment acknowledged, 31 s with delayed "
            "ACKs; taken strictly it leans to delayed ACKs); 4.1 states the rate itself, 4.2 a time that also depends "
            "on the windows and EWA before 15 s, so 4.1 decides. ewa 4 does not name delayed ACKs."),
    stated("delayed_ack_max_s", GRANULARITY_S, 'ewa 4: "we set the granularity of the timers to 20 milliseconds": '
           "4.4BSD sends a delayed ACK at the next tick of its fast timer, so within 20 ms (used only by the "
           "readings with delayed ACKs)."),
    stated("granularity_s", GRANULARITY_S, 'ewa 4: "we set the granularity of the timers to 20 milliseconds".'),
    unsaid("min_rto_ticks", 'ewa 4: "exponential back-off, enhanced round-trip time (RTT) estimation based on both '
           'the mean and the variance" without bounds: 4.4BSD\'s two ticks (40 ms).'),
    unsaid("initial_rto_s", "not given: 4.4BSD's 3 s before the first RTT sample."),
    unsaid("max_rto_s", "not given: 4.4BSD's 64 s."),
    unsaid("timestamps", "not named: 4.4BSD times one segment per window."),
    unsaid("retransmit_timers", 'ewa 4: "We used the OPNET modeling tool for all the simulations. The TCP model is '
           'based on the Reno version. It supports the congestion control mechanism described by Jacobson [1], '
           'exponential back-off, enhanced round-trip time (RTT) estimation ...", with no version of OPNET and no '
           "word on its timers but their granularity. cheon 2 says OPNET 2.4's TCP \"has its own RTO timer\" per "
           'packet "so that once a timeout occurs, many subsequent timeouts generally follow", but of a sample model '
           '"based on RFC 793" to which cheon had to add slow start and fast retransmit, which ewa\'s model '
           "\"supports\": no sentence of ewa says its TCP kept per-packet timers or saw timeouts follow one another, "
           'and its section 2 explains its slow starts by the losses ("because of buffer overflows in AAP-1", "losing '
           'multiple back-to-back packets"). 4.4BSD\'s one timer per connection; OPNET 2.4\'s per-segment timers are '
           "ewa.opnet_timer_study."),
)
"""ewa's TCP, setting by setting (:mod:`atmtcp.tcp_settings`); sections 2-4 share it."""
PREVIOUS_READING = dict(BEFORE_THE_RULE, delayed_ack=False)
"""The reading of ewa's TCP before the project's rule (docs/modelling.md, "What a paper leaves unsaid"): one
segment per RTT as sections 1 and 3.1 describe TCP, every segment acknowledged, goyal1998's ssthresh
and recovery exit. ``ewa.tcp_sensitivity`` runs it and each of its parts."""
BSD_READING = dict(increase="bsd", delayed_ack=True)
"""4.4BSD-Lite wherever ewa names no setting (the headline between the rule and issue 36): the increase and
the ACKs by the Reno ewa 4 names instead of by sections 4.1-4.2's sentences on how its TCP behaved."""


def tcp_config(rcv_wnd: int = RCV_WND, initial_ssthresh: int = INITIAL_SSTHRESH, **reading) -> m.TcpConfig:
    """ewa's Reno (:data:`TCP_SETTINGS`) with 1500-byte segments ("We used a constant TCP segment size of
    1500 bytes"), the scenario's window and initial ssthresh; ``reading`` replaces settings for the
    sensitivity study (e.g. :data:`PREVIOUS_READING`)."""
    return tcp_from("reno", TCP_SETTINGS, mss=MSS, rcv_wnd=rcv_wnd, initial_ssthresh=initial_ssthresh, **reading)


def max_tcp_throughput_mbps() -> float:
    """ewa 4.1: "for a 155 Mbits/sec link this is approximately 135 Mbits/sec because of the
    overhead of cell headers, RM cells, TCP/IP headers, etc." Ours: 1500 bytes of payload per 33
    cells of 53 bytes at 155.52 Mbit/s, 133.4 Mbit/s, 1.2 % below the paper's. The paper's figure
    is close to 155.52 x 48/53 x 1500/1556 = 135.8 Mbit/s, which leaves out the padding of the last
    cell; counting RM cells (one in 32, ABR's Nrm) would lower ours to 129.2. We model no RM cells:
    the VC's rate is fixed, and its cells carry data only."""
    return max_tcp_throughput_bps(m.OC3_BPS, MSS, AAL5.overhead_bytes) / 1e6


def cells_per_segment() -> int:
    """The cells of one 1500-byte segment on the AAL5 VC (33 with :data:`AAL5`'s overhead)."""
    return packet_cells(MSS, AAL5.overhead_bytes)


def ewa_network(ip_networks: dict[int, tuple[tuple[str, float], ...]], aap1_port, atm_delays_s=(0.0,) * 4,
                rate_bps: float = m.OC3_BPS):
    """ewa Fig. 1, "Generic network topology with IP and ATM subnetworks" (the figure is not in the
    text; this is our reading of it).

    Four IP networks, numbered 1-4; ``ip_networks[n]`` lists the hosts of IP network n as
    ``(name, one-way delay of its link)``. Every host has its own IP link to its network's router,
    ``AAP{n}`` ("we will refer to IP-to-ATM Router 1 as AAP-1"); each AAP-n joins the ATM network,
    one switch ``ATM``, by link Ln with delay ``atm_delays_s[n - 1]``. Every link runs at
    ``rate_bps`` ("Each of the links in this configuration has a capacity of 155 Mbits/sec"; we
    take 155.52 Mbit/s, OC-3, for the IP links as for the ATM ones). AAP-1's port onto L1
    (``AAP1->ATM``) gets ``aap1_port`` (an :class:`atmtcp.internetwork.RouterPort`); every other
    port has an infinite buffer (the data flow from IP network 1; the other AAPs carry only ACKs
    into the ATM network, and their IP ports towards the hosts never queue more than the ATM
    network delivers).
    """
    hosts, links = [], []
    for n in (1, 2, 3, 4):
        for name, delay_s in ip_networks.get(n, ()):
            hosts.append(name)
            links.append(m.Link(name, f"AAP{n}", rate_bps, delay_s))
    links += [m.Link(f"AAP{n}", "ATM", rate_bps, atm_delays_s[n - 1]) for n in (1, 2, 3, 4)]
    return Internetwork(hosts=tuple(hosts), routers=("AAP1", "AAP2", "AAP3", "AAP4"), atm_switches=("ATM",),
                        links=tuple(links), router_ports=(("AAP1->ATM", aap1_port),))
