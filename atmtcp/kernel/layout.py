"""Column indices of the kernel's state tables and the integer codes of its enums.

The kernel keeps each kind of entity (connection, virtual circuit, port, channel,
cell, packet) as one row of a 2-D ``int64`` table (plus a ``float64`` table where a
field is real-valued). The names below are the column numbers. Numba reads module
globals as compile-time constants, so ``conn[c, C_SND_UNA]`` costs nothing more than
a plain array index.

Add a field by appending a name before the ``*_NFIELDS`` sentinel of its table.
"""

# --- TCP connection, int64 table ``conn`` -------------------------------------------
(
    C_LOSS_DETECTION, C_RECOVERY, C_MSS, C_RCV_WND, C_MAX_CWND,
    C_SND_UNA, C_SND_NXT, C_SND_MAX,
    C_DUPACKS, C_IN_RECOVERY, C_RECOVER, C_PIPE, C_HOLE_PTR, C_HIGH_SACK,
    C_RTT_TIMING, C_RTT_SEQ, C_RTT_START, C_SRTT, C_RTTVAR, C_RXTSHIFT, C_RXTCUR,
    C_RTTMIN, C_RXTMAX, C_GRAN_NS,
    C_TIMER_DEADLINE, C_TIMER_QUEUED,
    C_DATA_VC, C_ACK_VC, C_START_NS,
    C_INCREASE_RULE, C_INCREASE_N, C_ACK_COUNT,
    C_SEGS_SENT, C_RETRANSMITS, C_TIMEOUTS, C_FAST_RETRANSMITS, C_BYTES_SENT,
    C_RCV_NXT, C_OOO_SEGS, C_LAST_RCVD_SEG,
    C_DELACK, C_DELACK_NS, C_DELACK_PENDING, C_DELACK_DEADLINE, C_DELACK_QUEUED,
    C_ACKS_SENT, C_SB_MASK, C_TRACE, C_NLOSS, C_SCRIPTED_LOSSES,
    C_SEND_HIGH, C_TIMEOUT_GUARD, C_MEASURE_NS, C_SEGS_RECEIVED, C_ACK_DELAY_NS,
    C_TIMESTAMPS, C_TS_RECENT, C_RTT_SAMPLES, C_SND_WND,
    C_SSTHRESH_RULE, C_RECOVERY_OPENS, C_SACK_PIPE_START, C_TICK_PHASE_NS,
    C_NFIELDS,
) = range(64)
# C_SEGS_RECEIVED: distinct data segments that reached the receiver at or after C_MEASURE_NS
# (cheon 4.2.3's effective throughput: "We counted duplicate packets ... as one packet").
# C_ACK_DELAY_NS: the receiver hands each ACK to its NIC this long after the data arrived (lakshman 3).
# C_TIMESTAMPS = 1: an RTT sample from every ACK of new data, from the send time it echoes (RFC 1323
# timestamps; lakshman 3), none from an ACK echoing a retransmission (Karn). C_TS_RECENT: the receiver's
# TS.Recent, the send time of the last in-order segment (-1: it was a retransmission). C_RTT_SAMPLES:
# RTT samples folded into srtt.
# C_SND_WND: the window the last ACK advertised (bytes; RFC 793's SND.WND); the sender sends at most
# min(cwnd, C_SND_WND) beyond snd_una. The receiver advertises C_RCV_WND; EWA may lower it on the way (ewa 3).
# C_SSTHRESH_RULE: SS_HALF_CWND or SS_BSD (see tcp_growth.halve_window). C_RECOVERY_OPENS = 1: the ACK that ends
# fast recovery opens the window after deflating it to ssthresh, as any ACK of new data (4.4BSD tcp_input).
# C_SACK_PIPE_START: PIPE_CWND_MINUS_3 or PIPE_CWND, SACK's PIPE at the third duplicate ACK (tcp_recovery.sack_enter).
# C_TICK_PHASE_NS: the host's slow-timer ticks fall at C_TICK_PHASE_NS + k * C_GRAN_NS (TcpConfig.tick_phase_s).

# --- TCP connection, float64 table ``connf`` -----------------------------------------
F_CWND, F_SSTHRESH, F_NFIELDS = range(3)

# --- receiver's SACK memory, int64 table ``rsack`` (segment numbers, [left, right)) ---
RS_NBLK, RS_L0, RS_R0, RS_L1, RS_R1, RS_L2, RS_R2, RS_NFIELDS = range(8)

# --- a TCP flavour's loss detection and recovery, C_LOSS_DETECTION and C_RECOVERY (model.FLAVOR_AXES) ---
DETECT_TIMEOUT, DETECT_DUPACKS, DETECT_SACK = range(3)   # the order of model.LOSS_DETECTIONS
RECOVERY_NONE, RECOVERY_RENO, RECOVERY_NEWRENO, RECOVERY_SACK = range(4)   # the order of model.RECOVERIES

# --- congestion-avoidance increase rules ------------------------------------------------
INC_FLOAT, INC_BSD, INC_INTEGER, INC_INTEGER_EVERY_N = range(4)   # the order of model.INCREASE_RULES

# --- ssthresh after a loss ----------------------------------------------------------------
SS_HALF_CWND, SS_BSD = range(2)   # the order of model.SSTHRESH_RULES

# --- SACK's PIPE at the third duplicate ACK --------------------------------------------------
PIPE_CWND_MINUS_3, PIPE_CWND = range(2)   # the order of model.SACK_PIPE_STARTS

# --- virtual circuit, int64 table ``vc`` ------------------------------------------------
(
    V_CONN, V_IS_ACK, V_NHOPS, V_TAIL_NS, V_DELIVERY_CHAN, V_DATA_CELLS, V_HEADER_BYTES,
    V_RS_SERIAL, V_RS_COUNT, V_RS_OK,
    V_CELLS_SENT, V_FRAMES_OK, V_FRAMES_BAD, V_CELLS_PAST_LAST,
    V_CELLS_DROPPED, V_FULL_ARRIVALS, V_RESYNC,
    V_NFIELDS,
) = range(18)
# V_RESYNC = 1: the receiving end knows each cell's packet (Aal5Config.delineation = "packet"): a cell
# of another packet ends a frame that lost its EOM, so that frame alone is discarded.

# --- output port, int64 table ``port`` ---------------------------------------------------
(
    P_HELD, P_CAPACITY, P_CELL_NS, P_POLICY, P_THRESHOLD, P_KEEP_EOM,
    P_QUEUE, P_ACTIVE_VCS, P_BUSY_UNTIL, P_MAX_QUEUE,
    P_RING_BASE, P_RING_CAP, P_RING_HEAD, P_RING_LEN,
    P_CELLS_IN, P_CELLS_OUT, P_DROP_OVERFLOW, P_DROP_THRESHOLD, P_DROP_PARTIAL, P_DROP_PERVC,
    P_TRACE,
    P_SLOTTED, P_FAN_IN, P_EVENT_AT, P_PEND_BASE, P_PEND_CAP, P_PEND_LEN,
    P_RING_LOW_AT, P_PEND_LOW_AT,
    P_CAPTURE_EOM, P_IP_NS, P_IP_FREE,
    P_THRESHOLD2, P_DROPLIST_MAX, P_DROPLIST_LEN, P_DROPLIST_EPOCH, P_DROP_TIMER_NS, P_DROP_TIMER_AT,
    P_FRONT, P_RED_FRAME, P_HANDOVER_AT, P_ROUTED_VCS,
    P_NFIELDS,
) = range(43)
# P_HELD = 1: the port holds its cells and schedules their departures (EV_PORT) instead of
# the lazy FIFO drain; needed by slotted ports and by randomized tail drop (P_FAN_IN > 0),
# which remove or reorder cells after their arrival. P_EVENT_AT: time of the port's pending
# EV_PORT event, -1 if none. P_PEND_*: a slotted port's arrivals waiting for the slot end.
# P_CAPTURE_EOM = 1: a dropped EOM cell also puts its VC on the drop-list (cheon 3.1/3.2 as written).
# P_IP_NS: a host NIC's IP service time per packet (cheon 2), 0 if none; P_IP_FREE: when its IP
# layer can hand over the next packet. ESPD (cheon 3.3): P_THRESHOLD is buffer threshold 1,
# P_THRESHOLD2 buffer threshold 2, P_DROPLIST_MAX the drop-list threshold, P_DROPLIST_LEN the VCs
# on the list; a VC is on it when its pv_state is PV_LISTED + P_DROPLIST_EPOCH, so that the drop
# timer's expiry (at P_DROP_TIMER_AT, -1 when inactive) releases every VC by raising the epoch.
# P_FRONT: drop from front at a full buffer (lakshman 3), FRONT_CELL or FRONT_FRAME, 0 if none.
# P_RED_FRAME = 1: lakshman's RED tests a frame's first cell and drops whole frames; 0: every cell.
# P_ROUTED_VCS > 0: Selective Drop and FBA count this many VCs as active (every data VC routed through the
# port, DropPolicy.active_vcs = "routed"); 0: the VCs with a cell in the buffer (P_ACTIVE_VCS, goyal1998 4.2).
# P_HANDOVER_AT: a traced NIC's latest handover of a packet after the event's time (IP service time, ACK
# delay), to which transmit_cells drained it: its samples before that time were recorded in advance
# (atmtcp.kernel.ports.sample_before_handover), and the sample events skip them.
# P_RING_LOW_AT, P_PEND_LOW_AT: the length at which a push makes the run stop after its event
# (RING_LOW, PEND_LOW) so that Python grows the list; the capacity itself for a finite buffer.
DROP_COLUMNS = (P_DROP_OVERFLOW, P_DROP_THRESHOLD, P_DROP_PARTIAL, P_DROP_PERVC)
DROP_REASON_NAMES = ("overflow", "threshold", "partial_packet", "per_vc")

# --- output port, float64 table ``portf`` ------------------------------------------------
PF_Z, PF_RED_LOG_ONE, PF_RED_SLOPE, PF_NFIELDS = range(4)
# PF_RED_*: lakshman 2.2's exponential drop probability, log p(1 cell) and d log p / d cell

# --- drop policies ---------------------------------------------------------------------------
POLICY_NAMES = ("tail", "ppd", "epd", "selective_drop", "fba", "espd", "red")
TAIL, PPD, EPD, SELECTIVE_DROP, FBA, ESPD, RED = range(len(POLICY_NAMES))  # code = the name's place, name.upper()
# each name has its record in atmtcp.model.POLICY_RECORDS, its decide_<name> in atmtcp.kernel.policies and
# its branch in atmtcp.kernel.policies.decide (tests/test_policy_registry.py)

# --- drop from front (lakshman 3), ``P_FRONT`` ---------------------------------------------------
NO_FRONT, FRONT_CELL, FRONT_FRAME = range(3)

# --- per (port, VC) packet state ``pv_state`` ------------------------------------------------
PV_NORMAL, PV_DISCARD_ALL, PV_DISCARD_KEEP_EOM, PV_LISTED = range(4)
# PV_LISTED + epoch: on an ESPD port's drop-list of that epoch (see P_DROPLIST_EPOCH)

# --- what an ESPD decision does to the drop-list (atmtcp.kernel.policies.espd_decision) -------
ESPD_STAY, ESPD_CAPTURE, ESPD_RELEASE = range(3)

# --- drop decisions (returned by policies) ---------------------------------------------------
ACCEPT = -1
DROP_OVERFLOW, DROP_THRESHOLD, DROP_PARTIAL, DROP_PERVC = range(4)
CAPTURE = 4  # not a drop: the drop log's mark of a VC put on a port's drop-list
CAPTURED = 8  # added to the drop reason of a refused cell that put its VC on the drop-list

# --- channel (FIFO of cells or packets between two kernel stages), int64 table ``chan`` -------
CH_HEAD, CH_TAIL, CH_LEN, CH_DST_PORT, CH_CDV_NS, CH_LAST_T, CH_NFIELDS = range(7)
# CH_CDV_NS: bound of the cell delay variation added to each entry (0: none); CH_LAST_T: time
# of the latest entry pushed, which keeps the channel FIFO when delays vary.

# --- cell / packet-delivery record in the pool, int64 table ``cell`` -------------------------
E_TIME, E_SEQ, E_VC, E_HOP, E_PKT, E_IDX, E_NEXT, E_LEFT, E_GAP, E_NFIELDS = range(10)
# A record is one cell, one whole packet (E_IDX < 0), or a train (atmtcp.kernel.cells.channel_push_train):
# cell E_IDX of packet E_PKT at E_TIME with sequence number E_SEQ, followed by E_LEFT more cells of that
# packet, each E_GAP ns and one sequence number after the one before (E_LEFT = 0: a single entry).

# --- packet, int64 table ``pkt`` --------------------------------------------------------------
(
    K_VC, K_SERIAL, K_SEQ, K_WND, K_NCELLS, K_ALIVE, K_PENDING,
    K_NSACK, K_S0, K_S1, K_S2, K_S3, K_S4, K_S5, K_NEXT_FREE,
    K_NFIELDS,
) = range(16)
K_TS = K_NEXT_FREE
# K_TS: a data segment's send time (-1 for a retransmission); an ACK's echo of the receiver's TS.Recent.
# It shares the column of the free list's link, which only a free record uses (alloc_packet reads the
# link before the fields are written), so that a row stays 128 bytes, two cache lines.

# --- event heap kinds ---------------------------------------------------------------------------
EV_CHANNEL, EV_RTO, EV_DELACK, EV_START, EV_SAMPLE, EV_PORT = range(6)

# --- pending arrival of a slotted port, int64 table ``pend`` ---------------------------------------
PE_VC, PE_CELL, PE_SLOT_END, PE_NFIELDS = range(4)

# --- global scalars, int64 vector ``g`` -------------------------------------------------------------
(
    G_NOW, G_END, G_SEQ, G_HEAP_LEN, G_CELL_FREE, G_PKT_FREE, G_PKT_SERIAL,
    G_STATUS, G_STATUS_ARG, G_EVENTS,
    G_SAMPLE_NS, G_NSAMPLES, G_TRACE_T0, G_TRACE_T1,
    G_TRACE_LEN, G_TRACE_TRUNCATED, G_DROPLOG_LEN, G_DROPLOG_TRUNCATED,
    G_RNG,
    G_CELL_RESERVE, G_PKT_RESERVE, G_HEAP_LOW_AT,
    G_NFIELDS,
) = range(23)
# G_CELL_RESERVE, G_PKT_RESERVE: first record of a pool's reserve, its last records (as many as
# one event can take), which its free list hands out last, ended by the pool's size instead of
# -1: taking a reserve record, like a heap push at length G_HEAP_LOW_AT, sets a *_LOW bit of
# G_STATUS. The event completes and the main loop stops before the next one (see
# atmtcp.simulate.run_kernel). One comparison per allocation, as before: no count of free
# records to keep.

# --- kernel status codes -------------------------------------------------------------------------------
OK, CELL_POOL_FULL, PACKET_POOL_FULL, RING_FULL, HEAP_FULL, PEND_FULL = range(6)
STATUS_NAMES = ("ok", "cell pool full", "packet pool full", "port ring full", "event heap full",
                "slot arrival buffer full")
FULL_MASK = 0xFF
CELLS_LOW, PACKETS_LOW, RING_LOW, HEAP_LOW, PEND_LOW = (1 << b for b in range(8, 13))
LOW_NAMES = {CELLS_LOW: "cell pool low", PACKETS_LOW: "packet pool low", RING_LOW: "port ring low",
             HEAP_LOW: "event heap low", PEND_LOW: "slot arrival buffer low"}
# A *_FULL code (the low byte of G_STATUS) stops the run inside an event: a resource filled, which
# the margins should make impossible. A *_LOW bit, OR-ed into G_STATUS by one instruction on the
# rare path of an allocation, stops it between two events, with less than one event's margin of
# that resource left; several bits may be set. A FULL code overwrites them (the run is lost).

# --- TCP trace record kinds ------------------------------------------------------------------------------
TR_CWND, TR_SSTHRESH, TR_SEQ_SENT, TR_ACK_RCVD, TR_TIMEOUT, TR_FAST_RETRANSMIT = range(6)
TRACE_KIND_NAMES = ("cwnd", "ssthresh", "seq_sent", "ack_received", "timeout", "fast_retransmit")

INFINITE = 1 << 62

# --- the packet path: IP links, router ports, ATM access points (ewa) -------------------------------
# A flow (one direction of a connection, a row of ``vc``) whose ``V_NHOPS`` is 0 crosses no cell port:
# it travels as whole packets through router ports (:mod:`atmtcp.kernel.packets`), its hops in
# ``flow_rport`` / ``flow_rq``, the channel and delay after each hop in ``vc_chan`` / ``vc_delay``.
PACKET_ENTRY = -2
"""``E_IDX`` of a channel entry that carries a whole packet to the router port of hop ``E_HOP``
(a cell has its index >= 0 there, a delivery -1)."""

# --- per flow, int64 table ``flow`` -----------------------------------------------------------------------
(
    FL_IP_BYTES, FL_PAYLOAD, FL_DROPPED, FL_MEASURED_BYTES, FL_NHOPS, FL_EWA_HOP, FL_EWA_QUEUE, FL_WND_UNIT,
    FL_NFIELDS,
) = range(9)
# FL_IP_BYTES: the IP datagram (TCP payload + TCP/IP headers) a router buffers and an IP link sends;
# FL_PAYLOAD: its TCP payload (0 for ACKs); FL_DROPPED: the flow's packets dropped at router ports;
# FL_MEASURED_BYTES: TCP payload that left the measured port (RP_MEASURED); FL_NHOPS: router hops.
# An ACK flow whose data crosses a queue with EWA (atmtcp.kernel.ewa): FL_EWA_HOP, the hop at which it
# enters that queue's router on its way back to the source (-1: none), FL_EWA_QUEUE, that queue (a row
# of ``rq``), FL_WND_UNIT, the bytes of one unit of the scaled window field (1 << window scale).

# --- router output port, int64 table ``rport`` -----------------------------------------------------------
(
    RP_MODE, RP_PS_PER_BYTE, RP_CELL_NS, RP_CELL_GAP_NS, RP_FIRST_Q, RP_NQ,
    RP_FREE_AT, RP_EVENT_AT, RP_SERVING, RP_RR,
    RP_PKTS_IN, RP_PKTS_OUT, RP_BYTES_OUT, RP_CELLS_OUT, RP_MEASURED,
    RP_LINK_GAP_NS, RP_PRIORITY_GAP_NS, RP_PRIORITY_ON_MEAN_NS, RP_PRIORITY_OFF_MEAN_NS, RP_PRIORITY_ON,
    RP_PRIORITY_SINCE, RP_PRIORITY_ON_NS,
    RP_NFIELDS,
) = range(23)
# RP_MODE: ROUTE_IP (a packet takes its bytes x RP_PS_PER_BYTE picoseconds) or ROUTE_ATM (AAL5: its
# K_NCELLS cells, one every RP_CELL_GAP_NS >= RP_CELL_NS, the VC's rate). RP_NQ = 0: a lazy FIFO with
# an infinite buffer (a departure is fixed on arrival, RP_FREE_AT is when the next packet may start);
# else its queues are rows RP_FIRST_Q .. + RP_NQ of ``rq``, served by events (EV_ROUTER at
# RP_EVENT_AT, -1 when idle): one per packet with one queue, one per cell slot with several (round
# robin; RP_SERVING: the queue whose cell is on the link, -1 none; RP_RR: the last queue served).
# A high-priority ON/OFF VC on the port's link (atmtcp.kernel.priority; ewa 4.5), if
# RP_PRIORITY_ON_MEAN_NS > 0: RP_CELL_GAP_NS is RP_LINK_GAP_NS while it is off and RP_PRIORITY_GAP_NS
# (the rate it leaves) while it is on (RP_PRIORITY_ON = 1, since RP_PRIORITY_SINCE); RP_PRIORITY_ON_NS
# sums its finished ON periods.
ROUTE_IP, ROUTE_ATM = range(2)

# --- router queue (a VC's buffer at an access point, or a port's only FIFO), int64 table ``rq`` ------------
(
    Q_PORT, Q_POLICY, Q_CAP_BYTES, Q_CAP_PKTS, Q_BYTES, Q_PKTS, Q_MAX_BYTES, Q_MAX_PKTS,
    Q_RING_BASE, Q_RING_CAP, Q_HEAD, Q_NEXT_CELL_AT, Q_CELLS_LEFT, Q_HEAD_STARTED,
    Q_RED_COUNT, Q_IDLE_SINCE, Q_PKTS_IN, Q_DROP_OVERFLOW, Q_DROP_EARLY, Q_DROP_FRONT, Q_SAMPLE_COL,
    Q_EWA, Q_EWA_ADAPTIVE, Q_EWA_PERIOD_NS, Q_EWA_BUFFER, Q_EWA_ACKS, Q_EWA_MARKED_DOWN, Q_FSAMPLE_COL,
    Q_DROP_FORCED, Q_RED_GENTLE,
    Q_NFIELDS,
) = range(31)
# Q_PKTS is also the ring's length (packets from Q_HEAD on). Q_HEAD_STARTED: when the head packet's
# first cell (or first bit) went out, -1 before. Q_CELLS_LEFT: cells of the head not yet sent (round
# robin). Q_SAMPLE_COL: 1 + the first of its QUEUE_SAMPLE_FIELDS columns of ``rsample``, 0 if not sampled.
# EWA (atmtcp.kernel.ewa): Q_EWA, the feedback function (EWA_OFF, EWA_LOG, EWA_LINEAR); Q_EWA_ADAPTIVE = 1:
# alpha adapts every Q_EWA_PERIOD_NS; Q_EWA_BUFFER: B, the buffer in packets; Q_EWA_ACKS: ACKs processed,
# Q_EWA_MARKED_DOWN: those whose window it lowered. Q_FSAMPLE_COL: 1 + the first of the queue's
# EWA_SAMPLE_FIELDS columns of ``rfsample``, 0 if not sampled.
QUEUE_SAMPLE_FIELDS = ("bytes", "packets", "dropped")
"""The ``rsample`` columns of a sampled queue: IP bytes and packets queued, packets dropped so far."""
ROUTER_DROP_COLUMNS = (Q_DROP_OVERFLOW, Q_DROP_EARLY, Q_DROP_FRONT, Q_DROP_FORCED)
ROUTER_DROP_NAMES = ("overflow", "early", "front", "forced")
# RED: "early" drops are the random ones between the thresholds, "forced" those of an average at or
# above max_th (every arrival; with Q_RED_GENTLE = 1, Floyd's 2000 "gentle" ramp up to 2 max_th).

# --- router queue, float64 table ``rqf`` ---------------------------------------------------------------------
(
    QF_MIN_TH, QF_MAX_TH, QF_MAX_P, QF_WEIGHT, QF_AVG, QF_IDLE_PACKET_NS,
    QF_EWA_ALPHA, QF_EWA_AVG, QF_EWA_GAIN, QF_EWA_LOW, QF_EWA_HIGH, QF_EWA_UP, QF_EWA_DOWN,
    QF_NFIELDS,
) = range(14)
# Floyd-Jacobson RED (packets): thresholds, max_p, the average's weight w_q, the average, and the
# transmission time s of a typical packet, which paces the average's decay over an idle queue.
# EWA (ewa 3.2): alpha, the filtered average queue (packets) and its gain g, the low and high
# thresholds (packets), w_up and w_down.
EWA_OFF, EWA_LOG, EWA_LINEAR = range(3)
EWA_FEEDBACK_NAMES = ("off", "log", "linear")
EWA_SAMPLE_FIELDS = ("alpha", "average_queue", "feedback", "available_rate")
"""The ``rfsample`` columns of a sampled queue: EWA's alpha, its average queue (packets), the feedback
f(B - Q) (packets) an ACK passing at that instant gets, and the share of the link's rate the queue's VC
has (1, or less while a priority VC is on)."""

# --- router drop policies ------------------------------------------------------------------------------------
DROP_TAIL, DROP_FROM_FRONT, FLOYD_JACOBSON_RED = range(3)
ROUTER_POLICY_NAMES = ("drop_tail", "drop_from_front", "red")

# --- per connection, the application: int64 table ``app`` ---------------------------------------------------
A_STOP_NS, A_SEND_LIMIT, A_SAMPLE_COL, A_ON_MEAN_NS, A_OFF_MEAN_NS, A_IS_ON, A_NFIELDS = range(7)
# A_STOP_NS: when the application closes (INFINITE: never); A_SEND_LIMIT: the sender sends no byte at
# or above it (INFINITE while open, snd_max from the close on). A_SAMPLE_COL: 1 + the first of the
# connection's ``rsample`` columns (SAMPLED_CONNECTION_FIELDS), 0 if not sampled. An ON/OFF application
# (atmtcp.kernel.applications) has A_ON_MEAN_NS > 0 (0: persistent) and A_IS_ON = 1 while ON.
SAMPLED_CONNECTION_FIELDS = ("measured_bytes", "snd_max", "snd_una", "cwnd", "snd_wnd", "dropped", "timeouts")
"""The ``rsample`` columns of a sampled connection: TCP payload of its data past the measured
router port, its highest byte sent + 1, its lowest unacknowledged byte, its cwnd (bytes), the window
the last ACK advertised (bytes; what EWA fed back), its data packets dropped at router ports and its
retransmission timeouts so far (ewa 2's regime: drops per connection per overflow)."""

EV_ROUTER, EV_STOP, EV_APP, EV_PRIORITY, EV_EWA = 16, 17, 18, 19, 20
"""Event kinds of the packet path (a router port's departure or cell slot), of a connection's close,
of an ON/OFF application's switch, of a priority VC's switch, and of EWA's period T (ident: the queue).
Numbered apart from the cell path's kinds (0-5) so that a kind added there cannot collide."""
