"""lakshman's system (section 3, Fig. 1) and settings, as :mod:`atmtcp.model` runs.

Every number here is the paper's, with the sentence it rests on; where the paper is silent the
choice is written beside it (and in ``notebooks/lakshman.ipynb``).
"""
from __future__ import annotations

import numpy as np

from ... import model as m
from ...compile import cell_time_ns
from ...kernel.aal5 import packet_cells
from ...tcp_settings import BEFORE_THE_RULE, stated, tcp_from, unsaid
from ...topologies import DS3_PLCP_BPS, DS3_PLCP_CELLS_PER_S, ROUTER_ADSU_BOTTLENECK, router_adsu_switch

BUFFERS = (256, 1152, 2304, 3456, 4608, 5760, 6912, 8064, 9216, 11520, 14400, 17280, 20160, 23040)
"""lakshman 4: "All plots use output buffer sizes of 256, 1152, 2304, 3456, 4608, 5760, 6912, 8064,
9216, 11520, 14400, 17280, 20160, and 23040 cells"."""

NOMINAL_RTT_S = 0.060
BETA_ONE_CELLS = 5760
"""lakshman 4: "At an 'external' round trip time (RTT) of 60 msec ..., a buffer size of 5760 cells
corresponds to beta = 1 (max delay in the buffer equals RTT outside the buffer)"."""

CELL_S = cell_time_ns(DS3_PLCP_BPS) * 1e-9
"""One slot of the bottleneck: 1/96000 s rounded to the kernel's nanosecond (10417 ns; the paper's
10.4 us)."""

DATA_PACKET_BYTES, ACK_PACKET_BYTES = 4388, 64
"""lakshman 3: "We used only two TCP packet sizes in the simulation: 4388 bytes for data packets and
64 bytes for acknowledgement (ACK) packets. These translate to 92 cells per data packet and 2 cells
per ACK packet"."""

AAL5 = m.Aal5Config(tcpip_header_bytes=ACK_PACKET_BYTES, llc_bytes=8, trailer_bytes=8, delineation="packet")
"""The paper's counting: a packet's bytes (an ACK is headers only: 64 bytes) plus the LLC/SNAP
header and the AAL5 trailer (8 + 8 bytes, RFC 1483 as in goyal1998), padded to 48-byte cell
payloads: 4404 bytes -> 92 cells, 80 bytes -> 2 cells (with the trailer alone, 4396 and 72 bytes
give the same counts). Frames are delimited per packet (``delineation="packet"``): "Packets with
lost cells which cannot be successfully reassembled at the ADSU are dropped at the ADSU", and the
partial frame drops discard a damaged frame's EOM cell too, which under AAL5's EOM delimiting
would cost the next packet as well."""

MSS = DATA_PACKET_BYTES - ACK_PACKET_BYTES
"""TCP payload of a data packet: 4388 - 64 = 4324 bytes."""

LINK_DELAY_S = (100e-6, 2800e-6)
"""lakshman 3: "The link propagation delays are set to vary in the range 100 usecs to 2800 usecs.
The propagation delay is fixed for a specific link but differs from link to link." Our choice:
each link's delay is drawn uniformly in that range from the run's seed (:func:`link_delays`)."""

RECEIVER_WINDOW = 65535 << 7
"""lakshman 3: "Send window sizes were strictly determined by network buffering and capacity, and
not due to end system limitations ... window scaling ... may be necessary". Our choice: 8.4 MB
(scale 7, 1940 packets), six times the largest window the network can hold (23040 buffered cells
plus 5760 in flight at 60 ms: 313 packets)."""

TIMER_GRANULARITY_S = 0.01
"""lakshman 3: "We used a timer with much finer granularity than the typical 500 ms." Our choice:
10 ms ticks (4.4BSD's timer otherwise: RTO = srtt + 4 rttvar, at least 2 ticks)."""

DISCIPLINES = ("cell_tail", "cell_front", "frame_tail", "frame_front")
LABELS = {"cell_tail": "Cell-Tail", "cell_front": "Cell-Front", "frame_tail": "Frame-Tail",
          "frame_front": "Frame-Front"}
"""lakshman 4: "Pure Cell Drop at the Tail (abbreviated as Cell-Tail); Pure Cell Drop at the Front
(Cell-Front); Partial Frame Drop at the Tail (Frame-Tail); and Partial Frame Drop at the Front
(Frame-Front)"."""


def beta(buffer_cells, rtt_s: float = NOMINAL_RTT_S):
    """Normalized buffer size: the buffer over the bottleneck's cells in one external RTT (lakshman 1:
    "the number of buffers divided by the product of the link speed and the 'typical' roundtrip time
    outside the buffer"); 5760 cells at 60 ms is 1."""
    return np.asarray(buffer_cells) / (DS3_PLCP_CELLS_PER_S * rtt_s)


def discipline_port(discipline: str, buffer_cells: int) -> m.PortConfig:
    """The bottleneck port of one of the four disciplines, slotted ("The links connected to the switch
    output port operate in a slotted manner").

    - Cell-Tail: tail drop with the paper's randomization: "the cell dropped is equiprobably either the
      incoming cell or one of the first few (we used the fan-in factor to the buffer in the simulation)
      cells in the end of the buffer"; the fan-in is the number of sources.
    - Frame-Tail: PPD ("whenever a cell is dropped a bit is set so that until the end of that frame all
      arriving cells from that frame are also discarded"), with the same randomization ("For tail drop"
      applies to both tail disciplines; a queued cell dropped to make room marks its own frame).
    - Cell-Front, Frame-Front: drop from front, "Drop from front does not suffer from phase effects and
      so no randomization is needed".
    """
    if discipline == "cell_tail":
        return m.PortConfig(buffer_cells, m.DropPolicy("tail"), randomized_tail=True, slotted=True)
    if discipline == "frame_tail":
        return m.PortConfig(buffer_cells, m.DropPolicy("ppd"), randomized_tail=True, slotted=True)
    if discipline == "cell_front":
        return m.PortConfig(buffer_cells, m.DropPolicy("tail"), slotted=True, drop_from_front="cell")
    if discipline == "frame_front":
        return m.PortConfig(buffer_cells, m.DropPolicy("tail"), slotted=True, drop_from_front="frame")
    raise m.ModelError("lakshman", "discipline", discipline, f"one of {DISCIPLINES}")


def red_port(buffer_cells: int, red_one: float, red_full: float, frames: bool, at_front: bool = False) -> m.PortConfig:
    """RED as lakshman 2.2 and 5 use it: an exponential drop probability from ``red_one`` (one cell)
    to ``red_full`` (full buffer), tested on every cell or (``frames``) on a frame's first cell, the
    drop taken at the arriving item or (``at_front``, Fig. 13) at the front. Slotted, as every
    discipline here."""
    front = ("frame" if frames else "cell") if at_front else "none"
    return m.PortConfig(buffer_cells, m.DropPolicy("red", red_one=red_one, red_full=red_full, red_frames=frames),
                        slotted=True, drop_from_front=front)


def link_delays(n: int, seed: int) -> np.ndarray:
    """The 4 n + 2 link delays of a run (see :data:`LINK_DELAY_S`), in the order of
    :func:`atmtcp.topologies.router_adsu_switch_links`: uniform draws from a generator seeded by the
    run's seed, the same for every buffer size and discipline."""
    return np.random.default_rng(seed).uniform(*LINK_DELAY_S, 4 * n + 2)


CELL_HOPS = 6
"""Ports a connection's cells cross each way (NIC, router, ADSU, switch, ADSU, router): each adds one
cell time to a packet's last cell."""


def path_round_trip_s(delays: np.ndarray, n: int, i: int) -> float:
    """Round trip of connection ``i`` outside the bottleneck's buffer, without the receiver's ACK delay:
    the propagation of its six links both ways, a data packet's and an ACK's cells sent at the DS-3
    cell rate (92 + 2 cell times), and one cell time per later port each way."""
    own = delays[3 * i:3 * i + 3].sum() + delays[3 * n:3 * n + 2].sum() + delays[3 * n + 2 + i]
    cells = packet_cells(MSS, AAL5.overhead_bytes) + packet_cells(0, AAL5.overhead_bytes) + 2 * (CELL_HOPS - 1)
    return 2 * float(own) + cells * CELL_S


def ack_delays(rtts_s, delays: np.ndarray) -> list[float]:
    """The receivers' fixed ACK delays: each connection's nominal external RTT less the mean round trip
    of the run's paths (:func:`path_round_trip_s`, 3-35 ms per path).

    lakshman 3: "The ACK is delayed by a specified value and in our simulations this delay is set to 60
    ms ... This delay could well have been added to the propagation delay of the links"; 4: "The RTTs
    listed in the figures are the RTTs excluding the delay in the buffer", and beta = 1 at 5760 cells
    for an external RTT of 60 ms. Our reading: the figures' RTT (60 ms; 40 and 80; 40, 60 and 80) is the
    external RTT on average over the run's connections, so beta is the buffer over 5760 cells; with
    equal RTTs every receiver delays its ACKs by the same "specified value" (60 ms less the mean path,
    39-46 ms), and the connections' RTTs differ by their links' delays, a few ms, as the paper's
    links do. The unequal RTTs differ by the ACK delay. (The literal 60 ms ACK delay plus our six links
    each way would make the external RTT about 78 ms and beta 23 % smaller than the axis says.)"""
    n = len(rtts_s)
    mean_path = float(np.mean([path_round_trip_s(delays, n, i) for i in range(n)]))
    return [float(rtt - mean_path) for rtt in rtts_s]


def external_rtts(rtts_s, delays: np.ndarray) -> np.ndarray:
    """Each connection's RTT outside the bottleneck's buffer: its ACK delay plus its path's round trip."""
    n = len(rtts_s)
    return np.array([d + path_round_trip_s(delays, n, i) for i, d in enumerate(ack_delays(rtts_s, delays))])


TCP_SETTINGS = (
    unsaid("increase", 'lakshman 3: "a version of TCP-Reno ... proposed by Van Jacobson in 1990 [6]" ([6]: '
           '"Berkeley TCP evolution from 4.3-tahoe to 4.3-reno"), whose increase 4.4BSD keeps: '
           "cwnd += mss*mss/cwnd + mss/8. The term is 4.3-Reno's: the CSRG's SCCS history of "
           "sys/netinet/tcp_input.c (github.com/calmsacibis995/final44-src, file sys/netinet/SCCS/s.tcp_input.c, "
           'line 5632 of the SCCS file) inserts "incr = incr * incr / cw + incr / 8;" in delta 7.23 (1990-06-28, '
           'karels: "from van: header prediction, ...; faster window opening in linear mode (add 1/8 packet, was '
           '146 bytes)"), replacing "incr = max(incr * incr / tp->snd_cwnd, 1);", and delta 8.7 (1994-10-27, '
           'mckusick: "per Van via Sally Floyd, do not add the constant maxseg/8") removes it. lakshman 3\'s '
           'sentence on its runs, "most losses (in all cases except during periods when windows were less than 3 '
           'packets) are detected by the fast retransmit procedure", does not decide the increase: it holds, and '
           "fails, alike under this increase and one segment per round trip (lakshman.loss_detection, the checks "
           "of atmtcp.papers.lakshman.behaviour)."),
    unsaid("ssthresh_rule", "the same 4.3-Reno: ssthresh = min(wnd, cwnd)/2 after a loss."),
    unsaid("recovery_exit_opens", 'the same 4.3-Reno\'s "method for reducing the incidence of slow start": '
           "deflate to ssthresh, then open as for any ACK of new data."),
    stated("delayed_ack", False, 'lakshman 3: "The TCP receiver on the destination side, ACKs every packet"; '
           '"We did not use this \'delayed ACK sending\' mode".'),
    unsaid("delayed_ack_max_s", "never used: no delayed ACKs."),
    stated("granularity_s", TIMER_GRANULARITY_S, 'lakshman 3: "We used a timer with much finer granularity '
           'than the typical 500 ms" (10 ms is our choice, :data:`TIMER_GRANULARITY_S`).'),
    unsaid("min_rto_ticks", "not given: 4.4BSD's two ticks."),
    unsaid("initial_rto_s", "not given: 4.4BSD's 3 s before the first RTT sample."),
    unsaid("max_rto_s", "not given: 4.4BSD's 64 s."),
    stated("timestamps", True, 'lakshman 3: "We also assumed the timestamp option"; "Round trip times were '
           'estimated ignoring ambiguous ACKs as in [8]".'),
    unsaid("retransmit_timers", "not named: the 4.3-Reno lakshman 3 names keeps one retransmission timer per "
           "connection."),
)
"""lakshman's TCP, setting by setting (:mod:`atmtcp.tcp_settings`)."""


PREVIOUS_READING = BEFORE_THE_RULE
"""lakshman's TCP as the project read it before the rule: one segment per RTT in floating point, goyal1998's
ssthresh and recovery exit (``lakshman.tcp_sensitivity``)."""


def tcp_config(ack_delay_s: float, **reading) -> m.TcpConfig:
    """lakshman's Reno (:data:`TCP_SETTINGS`) with window scaling and a window never limited by the
    end systems (:data:`RECEIVER_WINDOW`), and the fixed delay before each ACK (lakshman 3: "The ACK
    is delayed by a specified value"; "not the same as using the 'delayed ACK sending'"); ``reading``
    replaces settings for the sensitivity study (:data:`PREVIOUS_READING`)."""
    return tcp_from("reno", TCP_SETTINGS, mss=MSS, rcv_wnd=RECEIVER_WINDOW, ack_delay_s=ack_delay_s, **reading)


def lakshman_run(rtts_s, port: m.PortConfig, seed: int, duration_s: float, warmup_s: float,
                 trace: m.TraceConfig | None = None, reading: dict | None = None) -> m.Run:
    """One run of the paper's system with one connection per entry of ``rtts_s`` (external RTTs in
    seconds), all starting at t = 0 ("the TCP sources always have data to send")."""
    n = len(rtts_s)
    delays = link_delays(n, seed)
    network = router_adsu_switch(n, delays, port)
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", tcp_config(d, **(reading or {})))
                        for i, d in enumerate(ack_delays(rtts_s, delays)))
    return m.Run(network, connections, duration_s, seed=seed, aal5=AAL5, trace=trace or m.TraceConfig(),
                 warmup_s=warmup_s)


def good_throughput(segments_received, duration_s: float, warmup_s: float) -> np.ndarray:
    """lakshman 4's normalized "good throughput": the bottleneck's cells that carried packets delivered
    whole for the first time ("Only transmitted cells that are not part of a damaged packet, or of a
    later repeated packet, count toward throughput"), over the cell slots of the measured time, per
    source. ``segments_received`` counts the distinct packets each receiver got after the warm-up;
    each carried 92 cells through the bottleneck."""
    slots = (duration_s - warmup_s) / CELL_S
    return np.asarray(segments_received, dtype=float) * packet_cells(MSS, AAL5.overhead_bytes) / slots


BOTTLENECK = ROUTER_ADSU_BOTTLENECK
