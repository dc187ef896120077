"""Column indices of the kernel's state tables and the integer codes of its enums.

The kernel keeps each kind of entity (connection, virtual circuit, port, channel,
cell, packet) as one row of a 2-D ``int64`` table (plus a ``float64`` table where a
field is real-valued). The names below are the column numbers. Numba reads module
globals as compile-time constants, so ``conn[c, C_SND_UNA]`` costs nothing more than
a plain array index.

Each column stands on its own line: its number, then its unit and its meaning. Units include
``ns``, ``ps``, ``bytes``, ``cells``, ``packets``, ``segments`` (a sequence number // MSS),
``ticks`` (of a host's TCP timer), ``count``, ``flag`` (0 or 1), ``code`` (one of the codes
further down), ``1`` (a dimensionless number), ``index`` (a position that is not a row of a
table) and ``row of <table>``; "-1: none" names the value that means none. The section headed
``table <name>`` holds the columns of table ``<name>`` of :data:`atmtcp.kernel.tables.TABLES`,
numbered 0, 1, ... in order, then its column count ``*_NFIELDS``. To add a field, give it the
next number and raise ``*_NFIELDS`` by one; ``tests/kernel/test_layout.py`` checks every table's
numbering against :data:`atmtcp.kernel.tables.FIXED_COLUMNS`.
"""

# === table ``conn``: a TCP connection, sender and receiver (int64) ==================================
C_LOSS_DETECTION = 0      # code: how losses are detected, DETECT_* (model.FLAVOR_AXES)
C_RECOVERY = 1            # code: what happens after a loss is detected, RECOVERY_* (model.FLAVOR_AXES)
C_MSS = 2                 # bytes: maximum segment size; every segment is full size
C_RCV_WND = 3             # bytes: the window the receiver advertises (a multiple of the window scale's unit);
                          #   EWA may lower it on the way (ewa 3)
C_MAX_CWND = 4            # bytes: cwnd's ceiling, the largest window the window scale allows (65535 << scale)
C_SND_UNA = 5             # bytes: lowest unacknowledged sequence number (RFC 793 SND.UNA)
C_SND_NXT = 6             # bytes: next sequence number to send (RFC 793 SND.NXT)
C_SND_MAX = 7             # bytes: highest sequence number sent + 1 (4.4BSD snd_max)
C_DUPACKS = 8             # count: consecutive duplicate ACKs
C_IN_RECOVERY = 9         # flag: 1 during fast recovery
C_RECOVER = 10            # bytes: snd_max at the fast retransmit (New Reno's RECOVER, goyal1998 5.3)
C_PIPE = 11               # bytes: SACK's PIPE, the data estimated in the network during recovery (goyal1998
                          #   5.4.1)
C_HOLE_PTR = 12           # segments: where SACK's search for the next hole to retransmit resumes
C_HIGH_SACK = 13          # segments: one past the highest segment SACKed
C_RTT_TIMING = 14         # flag: 1 while a segment is being timed (4.4BSD t_rtt != 0)
C_RTT_SEQ = 15            # bytes: sequence number of the timed segment (4.4BSD t_rtseq)
C_RTT_START = 16          # ns: send time of the timed segment (with C_TIMESTAMPS: the echoed send time)
C_SRTT = 17               # ticks x 8: smoothed RTT (4.4BSD t_srtt); 0: no estimate
C_RTTVAR = 18             # ticks x 4: RTT variation (4.4BSD t_rttvar)
C_RXTSHIFT = 19           # count: backoffs of the retransmission timer since the last RTT sample (t_rxtshift)
C_RXTCUR = 20             # ticks: the retransmission timeout (4.4BSD t_rxtcur)
C_RTTMIN = 21             # ticks: the timeout's floor (4.4BSD t_rttmin; TcpConfig.min_rto_ticks)
C_RXTMAX = 22             # ticks: the timeout's ceiling (TcpConfig.max_rto_s)
C_GRAN_NS = 23            # ns: one tick of the host's slow timer (TcpConfig.granularity_s)
C_TIMER_DEADLINE = 24     # ns: when the retransmission timer expires; -1: not armed
C_TIMER_QUEUED = 25       # ns: the time of the retransmission timer's entry in the event heap; -1: none
C_DATA_VC = 26            # row of vc: the connection's data flow (2c)
C_ACK_VC = 27             # row of vc: the connection's ACK flow (2c + 1)
C_START_NS = 28           # ns: when the sender starts
C_INCREASE_RULE = 29      # code: the congestion-avoidance increase rule (INC_*)
C_INCREASE_N = 30         # count: ACKs per increase under INC_INTEGER_EVERY_N
C_ACK_COUNT = 31          # count: ACKs towards the next increase under INC_INTEGER_EVERY_N
C_SEGS_SENT = 32          # count: segments sent, retransmissions included
C_RETRANSMITS = 33        # count: segments sent again
C_TIMEOUTS = 34           # count: retransmission timeouts
C_FAST_RETRANSMITS = 35   # count: fast retransmits (third duplicate ACK)
C_BYTES_SENT = 36         # bytes: TCP payload sent, retransmissions included
C_RCV_NXT = 37            # bytes: next sequence number the receiver expects (RFC 793 RCV.NXT); the bytes
                          #   delivered in order to the application
C_OOO_SEGS = 38           # count: out-of-order segments buffered by the receiver (table rb)
C_LAST_RCVD_SEG = 39      # segments: the latest out-of-order segment received (the first SACK block, RFC
                          #   2018); -1: none
C_DELACK = 40             # flag: 1 if the receiver delays its ACKs
C_DELACK_NS = 41          # ns: the delayed-ACK timer (TcpConfig.delayed_ack_max_s)
C_DELACK_PENDING = 42     # count: in-order segments received and not yet acknowledged
C_DELACK_DEADLINE = 43    # ns: when the delayed-ACK timer expires; -1: not armed
C_DELACK_QUEUED = 44      # ns: the time of the delayed-ACK timer's entry in the event heap; -1: none
C_ACKS_SENT = 45          # count: ACKs sent by the receiver
C_SEG_MASK = 46            # segments: the capacity of the scoreboards sb AND rb (both, equal, a power of two)
                          #   minus 1; segment s is at index s & C_SEG_MASK of either
C_TRACE = 47              # flag: 1 if the connection's TCP trace is recorded
C_NLOSS = 48              # count: segments in the connection's row of table loss (scripted losses)
C_SCRIPTED_LOSSES = 49    # count: first transmissions lost by the loss script
C_SEND_HIGH = 50          # bytes: snd_max at the last timeout (RFC 2582 send_high); -1: no timeout yet
C_TIMEOUT_GUARD = 51      # flag: 1: three duplicate ACKs at or below send_high start no fast retransmit
C_MEASURE_NS = 52         # ns: when the measurement starts (Run.warmup_s)
C_SEGS_RECEIVED = 53      # count: distinct data segments that reached the receiver at or after C_MEASURE_NS
                          #   (cheon 4.2.3's effective throughput: "We counted duplicate packets ... as one
                          #   packet")
C_ACK_DELAY_NS = 54       # ns: the receiver hands each ACK to its NIC this long after the data arrived
                          #   (lakshman 3)
C_TIMESTAMPS = 55         # flag: 1: an RTT sample from every ACK of new data, from the send time it echoes
                          #   (RFC 1323 timestamps; lakshman 3), none from an ACK echoing a retransmission
                          #   (Karn)
C_TS_RECENT = 56          # ns: the receiver's TS.Recent, the send time of the last in-order segment; -1: that
                          #   segment was a retransmission
C_RTT_SAMPLES = 57        # count: RTT samples folded into srtt
C_SND_WND = 58            # bytes: the window the last ACK advertised (RFC 793 SND.WND); the sender sends at
                          #   most min(cwnd, C_SND_WND) beyond snd_una
C_SSTHRESH_RULE = 59      # code: ssthresh after a loss, SS_HALF_CWND or SS_BSD (see tcp_growth.halve_window)
C_RECOVERY_OPENS = 60     # flag: 1: the ACK that ends fast recovery opens the window after deflating it to
                          #   ssthresh, as any ACK of new data (4.4BSD tcp_input)
C_SACK_PIPE_START = 61    # code: SACK's PIPE at the third duplicate ACK, PIPE_CWND_MINUS_3 or PIPE_CWND
                          #   (tcp_recovery.sack_enter)
C_TICK_PHASE_NS = 62      # ns: the host's slow-timer ticks fall at C_TICK_PHASE_NS + k * C_GRAN_NS
                          #   (TcpConfig.tick_phase_s)
C_SEG_TIMERS = 63         # flag: 1: a retransmission timer per segment (TcpConfig.retransmit_timers =
                          #   "per_segment", table seg_rto); C_TIMER_DEADLINE is then a lower bound of
                          #   the outstanding segments' deadlines (tcp_timers.segment_timers_expire)
C_NFIELDS = 64

# === table ``connf``: a TCP connection's real-valued fields (float64) ================================
CF_CWND = 0                # bytes: the congestion window
CF_SSTHRESH = 1            # bytes: the slow-start threshold
CF_NFIELDS = 2

# === table ``rsack``: the receiver's memory of the SACK blocks it sent (int64) =======================
RS_NBLK = 0               # count: blocks remembered (0 to 3), the most recent first
RS_L0 = 1                 # segments: left edge of block 0 (inclusive)
RS_R0 = 2                 # segments: right edge of block 0 (exclusive)
RS_L1 = 3                 # segments: left edge of block 1
RS_R1 = 4                 # segments: right edge of block 1
RS_L2 = 5                 # segments: left edge of block 2
RS_R2 = 6                 # segments: right edge of block 2
RS_NFIELDS = 7

# === table ``vc``: a virtual circuit, or on the packet path a flow (int64) ===========================
V_CONN = 0                # row of conn: the connection the VC belongs to
V_IS_ACK = 1              # flag: 1 for the ACK direction
V_NHOPS = 2               # count: simulated cell ports on the route; 0: the packet path (see table flow)
V_TAIL_NS = 3             # ns: from the departure at the last simulated port (or router hop) to the receiving
                          #   host, folded ports included
V_DELIVERY_CHAN = 4       # row of chan: the channel that delivers the VC's whole packets to their host
V_DATA_CELLS = 5          # cells: AAL5 cells of a full-size data segment
V_HEADER_BYTES = 6        # bytes: an ACK without options (TCP/IP headers, LLC, AAL5 trailer); SACK options
                          #   add
V_RS_SERIAL = 7           # serial: reassembly: PKT_SERIAL of the packet the current frame started with
V_RS_COUNT = 8            # cells: reassembly: cells of the current frame so far
V_RS_OK = 9               # flag: reassembly: 1 while the current frame is one packet's cells in order
V_CELLS_SENT = 10         # cells: cells the source handed to its NIC
V_FRAMES_OK = 11          # count: packets reassembled
V_FRAMES_BAD = 12         # count: frames discarded at reassembly (a cell was missing)
V_CELLS_PAST_LAST = 13    # cells: cells that left the VC's last simulated port (each crosses the folded ports
                          #   after it)
V_CELLS_DROPPED = 14      # cells: cells of the VC dropped at any port
V_FULL_ARRIVALS = 15      # cells: cells of the VC that arrived at a full buffer
V_RESYNC = 16             # flag: 1: the receiving end knows each cell's packet (Aal5Config.delineation =
                          #   "packet"): a cell of another packet ends a frame that lost its EOM, so that
                          #   frame alone is discarded
V_NFIELDS = 17

# === table ``port``: an output port of an ATM switch or a host's NIC (int64) =========================
P_HELD = 0                # code: LAZY_FIFO, HELD_CELLS (randomized tail drop and drop from front, which remove
                          #   cells after their arrival) or SLOT_ENDS (a slotted port otherwise): see the codes
P_CAPACITY = 1            # cells: the buffer's size; INFINITE: unbounded
P_CELL_NS = 2             # ns: one cell time on the port's link
P_POLICY = 3              # code: the drop policy (TAIL ... RED)
P_THRESHOLD = 4           # cells: the policy's threshold R (goyal1998 4.2); ESPD's buffer threshold 1 (cheon
                          #   3.3)
P_KEEP_EOM = 5            # flag: 1: a discarded packet's EOM cell still enters when there is room (cheon 3.2)
P_QUEUE = 6               # cells: in the buffer now (X)
P_ACTIVE_VCS = 7          # count: VCs with a cell in the buffer (Na, goyal1998 4.2)
P_BUSY_UNTIL = 8          # ns: when the last cell admitted to a lazy FIFO port finishes its transmission
P_MAX_QUEUE = 9           # cells: the largest occupancy so far
P_RING_BASE = 10          # index: the port's first slot in ring_pv, ring_t and ring_cell
P_RING_CAP = 11           # cells: the ring's slots; 0: a lazy port whose policy reads only P_QUEUE
P_RING_HEAD = 12          # index: the head's slot, from P_RING_BASE
P_RING_LEN = 13           # cells: cells in the ring
P_CELLS_IN = 14           # cells: cells arriving at the port
P_CELLS_OUT = 15          # cells: cells fully transmitted
P_DROP_OVERFLOW = 16      # cells: dropped for DROP_OVERFLOW (P_DROP_OVERFLOW + reason: the reason's column)
P_DROP_THRESHOLD = 17     # cells: dropped for DROP_THRESHOLD
P_DROP_PARTIAL = 18       # cells: dropped for DROP_PARTIAL
P_DROP_PERVC = 19         # cells: dropped for DROP_PERVC
P_TRACE = 20              # index: 1 + the port's column of qsample and osample; 0: not traced
P_SLOTTED = 21            # flag: 1: service in slots of one cell time; arrivals wait for the slot's end
P_FAN_IN = 22             # cells: F of randomized tail drop (lakshman 3); 0: off
P_EVENT_AT = 23           # ns: time of the port's pending EV_PORT event; -1: none
P_PEND_BASE = 24          # row of pend: a slotted port's first row of arrivals waiting for the slot's end
P_PEND_CAP = 25           # rows: the port's rows of pend
P_PEND_LEN = 26           # rows: arrivals waiting now
P_RING_LOW_AT = 27        # cells: the ring length at which a push makes the run stop after its event
                          #   (RING_LOW) so that Python grows the ring; the capacity itself for a finite
                          #   buffer
P_PEND_LOW_AT = 28        # rows: likewise for the pending list (PEND_LOW)
P_CAPTURE_EOM = 29        # flag: 1: a dropped EOM cell also puts its VC on the drop-list (cheon 3.1/3.2 as
                          #   written)
P_IP_NS = 30              # ns: a host NIC's IP service time per packet (cheon 2); 0: none
P_IP_FREE = 31            # ns: when the NIC's IP layer can hand over the next packet
P_THRESHOLD2 = 32         # cells: ESPD's buffer threshold 2 (cheon 3.3)
P_DROPLIST_MAX = 33       # count: ESPD's drop-list threshold, in VCs
P_DROPLIST_LEN = 34       # count: VCs on ESPD's drop-list
P_DROPLIST_EPOCH = 35     # count: a VC is on the drop-list when its pv_state is PV_LISTED + P_DROPLIST_EPOCH,
                          #   so that the drop timer's expiry releases every VC by raising the epoch
P_DROP_TIMER_NS = 36      # ns: ESPD's drop timer
P_DROP_TIMER_AT = 37      # ns: when the drop timer expires; -1: inactive
P_FRONT = 38              # code: drop from front at a full buffer (lakshman 3), FRONT_CELL or FRONT_FRAME;
                          #   NO_FRONT (0): none
P_RED_FRAME = 39          # flag: 1: lakshman's RED tests a frame's first cell and drops whole frames; 0:
                          #   every cell
P_HANDOVER_AT = 40        # ns: a traced NIC's latest handover of a packet after the event's time (IP service
                          #   time, ACK delay), to which transmit_cells drained it: its samples before that
                          #   time were recorded in advance (ports.sample_before_handover) and the sample
                          #   events skip them
P_ROUTED_VCS = 41         # count: > 0: Selective Drop and FBA count this many VCs as active (every data VC
                          #   routed through the port, DropPolicy.active_vcs = "routed"); 0: P_ACTIVE_VCS
                          #   (goyal1998 4.2)
P_PULL_HEAD = 42          # row of chan + 1: the first channel a slotted port pulls at its slot ends (its input
                          #   channels without delay variation, linked by CH_PULL_NEXT); 0: it pulls none
                          #   (held_ports.pull_arrivals)
P_PULL_CAND = 43          # row of chan + 1: the pulled channel whose head is checked first at a slot end (the one
                          #   last pulled from; a NIC's train brings one cell a slot); 0: none
P_PULL_LB = 44            # ns: at most the head time of every other pulled channel (INFINITE: none), so that a slot
                          #   end whose candidate is due before it, or that nothing can reach, scans no channel
P_NFIELDS = 45

DROP_COLUMNS = (P_DROP_OVERFLOW, P_DROP_THRESHOLD, P_DROP_PARTIAL, P_DROP_PERVC)
DROP_REASON_NAMES = ("overflow", "threshold", "partial_packet", "per_vc")

# === table ``portf``: an output port's real-valued parameters (float64) ==============================
PF_Z = 0                  # 1: Z, the scale factor of Selective Drop and FBA (goyal1998 4.2)
PF_RED_LOG_ONE = 1        # 1: lakshman 2.2's RED, log of the drop probability with one cell queued
PF_RED_SLOPE = 2          # 1/cells: lakshman 2.2's RED, d log p / d cell (p exponential in the queue)
PF_NFIELDS = 3

# === table ``pend``: a slotted port's arrival waiting for the slot's end (int64) =====================
PE_VC = 0                 # row of vc: the arriving cell's VC
PE_CELL = 1               # packed: packet << 24 | hop << 16 | cell index (held_ports.pack_cell)
PE_SLOT_END = 2           # ns: the end of the slot the cell arrived in, when it is decided
PE_TIME = 3               # ns: the arrival's time, its event key with PE_SEQ: the list is kept in key order
PE_SEQ = 4                # count: the arrival's sequence number (its channel entry's CELL_SEQ)
PE_NFIELDS = 5

# === table ``chan``: a channel, a FIFO of cells or packets between two kernel stages (int64) =========
CH_HEAD = 0               # row of cell: the first entry (valid while CH_LEN > 0)
CH_TAIL = 1               # row of cell: the last entry (valid while CH_LEN > 0)
CH_LEN = 2                # count: entries in the channel
CH_DST_PORT = 3           # row of port: the port at the channel's end; -1: a delivery channel (not read by
                          #   the kernel)
CH_CDV_NS = 4             # ns: bound of the cell delay variation added to each entry; 0: none
CH_LAST_T = 5             # ns: time of the latest entry pushed, which keeps the channel FIFO when delays vary
CH_PULL_NEXT = 6          # row of chan + 1: the next channel on its slotted port's pull list (P_PULL_HEAD); 0: the
                          #   last
CH_PARKED = 7             # code: CH_FREE: the channel's head is in the event heap while it has entries; while its
                          #   slotted port pulls it: CH_PARKED_IN_HEAP (its head is still in the heap, put there
                          #   before) or CH_PARKED_OUT (not in the heap: the port takes its entries at slot ends)
CH_NFIELDS = 8

# === table ``cell``: a cell or packet-delivery record of the pool (int64) ============================
# A record is one cell, one whole packet (CELL_IDX < 0), or a train (atmtcp.kernel.cells.channel_push_train):
# cell CELL_IDX of packet CELL_PKT at CELL_TIME with sequence number CELL_SEQ, followed by CELL_LEFT more cells of that
# packet, each CELL_GAP ns and one sequence number after the one before (CELL_LEFT = 0: a single entry).
CELL_TIME = 0                # ns: when the entry reaches the channel's end (its event's time)
CELL_SEQ = 1                 # count: the event heap's tie-break sequence number of the entry
CELL_VC = 2                  # row of vc: the entry's VC (flow)
CELL_HOP = 3                 # index: the hop the entry arrives at (a column of vc_port or flow_rport); -1:
                          #   delivery
CELL_PKT = 4                 # row of pkt: the entry's packet
CELL_IDX = 5                 # index: the cell's index in its packet; -1: a whole packet delivered to its host;
                          #   PACKET_ENTRY: a whole packet to a router port
CELL_NEXT = 6                # row of cell: the next entry of the channel, or, on a free record, the next free
                          #   record (the pool's free list, ended by the pool's size)
CELL_LEFT = 7                # cells: cells of the train after this one
CELL_GAP = 8                 # ns: the spacing of the train's cells
CELL_NFIELDS = 9

# === table ``pkt``: a packet in flight (int64) =======================================================
PKT_VC = 0                  # row of vc: the packet's VC (flow)
PKT_SERIAL = 1              # serial: the packet's serial number, unique in the run (G_PKT_SERIAL)
PKT_SEQ = 2                 # bytes: a data segment's sequence number; an ACK's cumulative ACK number
PKT_WND = 3                 # bytes: an ACK's advertised window; 0 for data
PKT_NCELLS = 4              # cells: the packet's AAL5 cells
PKT_ALIVE = 5               # cells: cells of the packet not yet dropped or reassembled; 0 on the packet path
PKT_PENDING = 6             # flag: 1 while the whole packet is on its way (delivery channel, router path)
PKT_NSACK = 7               # count: SACK blocks the ACK carries (0 to 3)
PKT_S0 = 8                  # bytes: SACK block 0, left edge (block b: PKT_S0 + 2b left, PKT_S0 + 2b + 1 right)
PKT_S1 = 9                  # bytes: SACK block 0, right edge (exclusive)
PKT_S2 = 10                 # bytes: SACK block 1, left edge
PKT_S3 = 11                 # bytes: SACK block 1, right edge
PKT_S4 = 12                 # bytes: SACK block 2, left edge
PKT_S5 = 13                 # bytes: SACK block 2, right edge
PKT_NEXT_FREE = 14          # row of pkt: on a free record only, the next free record (the pool's free list,
                          #   ended by the pool's size); read by cells.alloc_packet before the record's fields
                          #   are written, written by cells.release_packet_if_done once it is dead
PKT_TS = 14                 # ns: a live packet's timestamp: a data segment's send time (-1: a retransmission),
                          #   an ACK's echo of the receiver's TS.Recent. SHARES PKT_NEXT_FREE's column, which
                          #   only a free record uses, to keep the row at 15 fields (120 bytes, under two
                          #   cache lines); tests/kernel/test_shared_columns.py proves the two uses never overlap
PKT_NFIELDS = 15

# === table ``g``: global scalars (int64 vector) ======================================================
G_NOW = 0                 # ns: the clock, the time of the event being handled (the run's end at the end)
G_END = 1                 # ns: the run's end (Run.duration_s)
G_SEQ = 2                 # count: the next sequence number of the event heap; 0: a fresh state, not started
G_HEAP_LEN = 3            # count: entries in the event heap
G_CELL_FREE = 4           # row of cell: the head of the cell pool's free list; the pool's size: empty
G_PKT_FREE = 5            # row of pkt: the head of the packet pool's free list; the pool's size: empty
G_PKT_SERIAL = 6          # count: the next packet serial number (PKT_SERIAL)
G_STATUS = 7              # code: OK, a *_FULL code in the low byte, *_LOW bits above it
G_STATUS_ARG = 8          # row of port: the port whose ring or pending list filled (RING_FULL, PEND_FULL)
G_EVENTS = 9              # count: events handled
G_SAMPLE_NS = 10          # ns: the interval of the samples of traced ports and sampled queues
G_NSAMPLES = 11           # count: the samples of the run (rows of qsample, osample, rsample)
G_TRACE_T0 = 12           # ns: start of the TCP trace's window
G_TRACE_T1 = 13           # ns: end of the TCP trace's window (INFINITE: none)
G_TRACE_LEN = 14          # count: TCP trace records written
G_TRACE_TRUNCATED = 15    # flag: 1: the TCP trace filled and later records were lost
G_DROPLOG_LEN = 16        # count: drop log records written
G_DROPLOG_TRUNCATED = 17  # flag: 1: the drop log filled and later records were lost
G_RNG = 18                # bits: the 64-bit state of the run's random stream (atmtcp.kernel.rng)
G_CELL_RESERVE = 19       # row of cell: the first record of the cell pool's reserve (see below)
G_PKT_RESERVE = 20        # row of pkt: the first record of the packet pool's reserve
G_HEAP_LOW_AT = 21        # count: the heap length at which a push sets HEAP_LOW
G_FAULT_NARGS = 22        # count: the numbers a fault names, from G_FAULT_ARG0 on (atmtcp.kernel.faults)
G_FAULT_ARG0 = 23         # row of port or conn: what a fault names first (its port or connection)
G_FAULT_ARG1 = 24         # code: the fault's policy or recovery code
G_FAULT_ARG2 = 25         # count: the cells queued at a NIC that is not tail drop (0 for the other faults)
G_CELL_FRESH = 26         # row of cell: the first record the cell pool has never handed out (see below)
G_PKT_FRESH = 27          # row of pkt: the first record the packet pool has never handed out
G_NFIELDS = 28
# G_CELL_FRESH, G_PKT_FRESH: a pool's records from this one on have never been handed out, and their links
# are not written: the free list goes on from such a record to the next row (cells._new_record,
# cells.alloc_packet), as if the pool had been chained 0 -> 1 -> 2 ... when it was made. The freed records
# come first (the last freed first), then the fresh ones in order, the same order as a chained pool's, and
# a run touches only the rows it uses (chaining a fresh pool wrote to every row: 1 ms for the 5-source
# LAN's pools, 11 ms for the WAN's). The reserve's records are fresh until one is handed out, which stops
# the run for a growth (atmtcp.grow keeps the new reserve fresh), so only a fresh record is checked against
# the reserve: a freed record costs one comparison, as a chained pool's did.
# G_CELL_RESERVE, G_PKT_RESERVE: first record of a pool's reserve, its last records (as many as
# one event can take), which its free list hands out last, ended by the pool's size instead of
# -1: taking a reserve record, like a heap push at length G_HEAP_LOW_AT, sets a *_LOW bit of
# G_STATUS. The event completes and the main loop stops before the next one (see
# atmtcp.simulate.run_kernel). No count of free records to keep.

# === table ``flow``: a flow of the packet path, one direction of a connection (int64) ================
# A flow (one direction of a connection, a row of ``vc``) whose ``V_NHOPS`` is 0 crosses no cell port:
# it travels as whole packets through router ports (:mod:`atmtcp.kernel.packets`), its hops in
# ``flow_rport`` / ``flow_rq``, the channel and delay after each hop in ``vc_chan`` / ``vc_delay``.
FL_IP_BYTES = 0           # bytes: the IP datagram (TCP payload + TCP/IP headers) a router buffers and a link
                          #   sends
FL_PAYLOAD = 1            # bytes: its TCP payload; 0 for ACKs
FL_DROPPED = 2            # packets: the flow's packets dropped at router ports
FL_MEASURED_BYTES = 3     # bytes: TCP payload that left the measured port (RP_MEASURED)
FL_NHOPS = 4              # count: router hops
FL_EWA_HOP = 5            # index: an ACK flow whose data crosses a queue with EWA (atmtcp.kernel.ewa): the
                          #   hop at which it enters that queue's router on its way back to the source; -1:
                          #   none
FL_EWA_QUEUE = 6          # row of rq: that queue
FL_WND_UNIT = 7           # bytes: one unit of the scaled window field (1 << window scale)
FL_NFIELDS = 8

# === table ``rport``: a router output port (int64) ===================================================
# RP_NQ = 0: a lazy FIFO with an infinite buffer (a departure is fixed on arrival, RP_FREE_AT is when the
# next packet may start); else its queues are rows RP_FIRST_Q .. + RP_NQ of ``rq``, served by events
# (EV_ROUTER at RP_EVENT_AT, -1 when idle): one per packet with one queue, one per cell slot with
# several (round robin). A high-priority ON/OFF VC on the port's link (atmtcp.kernel.priority; ewa 4.5),
# if RP_PRIORITY_ON_MEAN_NS > 0: RP_CELL_GAP_NS is RP_LINK_GAP_NS while it is off and RP_PRIORITY_GAP_NS
# (the rate it leaves) while it is on.
RP_MODE = 0               # code: ROUTE_IP (whole packets) or ROUTE_ATM (AAL5 cells)
RP_PS_PER_BYTE = 1        # ps: ROUTE_IP: a packet takes its bytes x RP_PS_PER_BYTE on the link
RP_CELL_NS = 2            # ns: ROUTE_ATM: one cell time of the link
RP_CELL_GAP_NS = 3        # ns: ROUTE_ATM: a packet's PKT_NCELLS cells go one every RP_CELL_GAP_NS >= RP_CELL_NS
                          #   (the VC's rate)
RP_FIRST_Q = 4            # row of rq: the port's first queue
RP_NQ = 5                 # count: the port's queues; 0: a lazy FIFO with an infinite buffer
RP_FREE_AT = 6            # ns: RP_NQ = 0: when the next packet may start
RP_EVENT_AT = 7           # ns: time of the port's EV_ROUTER event; -1: idle
RP_SERVING = 8            # row of rq: the queue whose cell is on the link; -1: none
RP_RR = 9                 # row of rq: the queue served last (round robin)
RP_PKTS_IN = 10           # packets: arriving at the port
RP_PKTS_OUT = 11          # packets: sent
RP_BYTES_OUT = 12         # bytes: IP bytes sent
RP_CELLS_OUT = 13         # cells: AAL5 cells sent (ROUTE_ATM)
RP_MEASURED = 14          # flag: 1: the measured port (FL_MEASURED_BYTES)
RP_LINK_GAP_NS = 15       # ns: RP_CELL_GAP_NS while the priority VC is off
RP_PRIORITY_GAP_NS = 16   # ns: RP_CELL_GAP_NS while the priority VC is on
RP_PRIORITY_ON_MEAN_NS = 17  # ns: mean ON period of the priority VC; 0: no priority VC
RP_PRIORITY_OFF_MEAN_NS = 18  # ns: mean OFF period of the priority VC
RP_PRIORITY_ON = 19       # flag: 1 while the priority VC is on
RP_PRIORITY_SINCE = 20    # ns: since when it is on
RP_PRIORITY_ON_NS = 21    # ns: the sum of its finished ON periods
RP_NFIELDS = 22

# === table ``rq``: a router queue, a VC's buffer at an access point or a port's only FIFO (int64) ====
RQ_PORT = 0                # row of rport: the queue's port
RQ_POLICY = 1              # code: the router drop policy (DROP_TAIL, DROP_FROM_FRONT, FLOYD_JACOBSON_RED)
RQ_CAP_BYTES = 2           # bytes: capacity in IP bytes; INFINITE: none
RQ_CAP_PKTS = 3            # packets: capacity in packets; INFINITE: none
RQ_BYTES = 4               # bytes: IP bytes queued
RQ_PKTS = 5                # packets: packets queued, also the ring's length (packets from RQ_HEAD on)
RQ_MAX_BYTES = 6           # bytes: the largest occupancy so far
RQ_MAX_PKTS = 7            # packets: the largest occupancy so far
RQ_RING_BASE = 8           # row of rq_ring: the queue's first slot
RQ_RING_CAP = 9            # packets: the ring's slots
RQ_HEAD = 10               # index: the head's slot, from RQ_RING_BASE
RQ_NEXT_CELL_AT = 11       # ns: the earliest start of the queue's next cell or packet (the VC's cell spacing)
RQ_CELLS_LEFT = 12         # cells: cells of the head packet not yet sent (round robin)
RQ_HEAD_STARTED = 13       # ns: when the head packet's first cell (or first bit) went out; -1: not yet
RQ_RED_COUNT = 14          # count: RED's count, packets accepted since the last drop; -1: the average is below
                          #   min_th
RQ_IDLE_SINCE = 15         # ns: when the queue went empty (RED's average decays over the idle time)
RQ_PKTS_IN = 16            # packets: arriving at the queue
RQ_DROP_OVERFLOW = 17      # packets: dropped at a full buffer
RQ_DROP_EARLY = 18         # packets: RED's random drops between the thresholds
RQ_DROP_FRONT = 19         # packets: dropped from the front (ewa 2.1)
RQ_SAMPLE_COL = 20         # index: 1 + the first of its QUEUE_SAMPLE_FIELDS columns of rsample; 0: not sampled
RQ_EWA = 21                # code: EWA's feedback function (EWA_OFF, EWA_LOG, EWA_LINEAR)
RQ_EWA_ADAPTIVE = 22       # flag: 1: EWA's alpha adapts every RQ_EWA_PERIOD_NS
RQ_EWA_PERIOD_NS = 23      # ns: EWA's period T
RQ_EWA_BUFFER = 24         # packets: EWA's B, the buffer
RQ_EWA_ACKS = 25           # count: ACKs EWA processed
RQ_EWA_MARKED_DOWN = 26    # count: ACKs whose window EWA lowered
RQ_FSAMPLE_COL = 27        # index: 1 + the first of the queue's EWA_SAMPLE_FIELDS columns of rfsample; 0: none
RQ_DROP_FORCED = 28        # packets: RED's drops of an average at or above max_th (every arrival; with
                          #   RQ_RED_GENTLE, Floyd's 2000 "gentle" ramp up to 2 max_th)
RQ_RED_GENTLE = 29         # flag: 1: RED's gentle variant
RQ_NFIELDS = 30

QUEUE_SAMPLE_FIELDS = ("bytes", "packets", "dropped")
"""The ``rsample`` columns of a sampled queue: IP bytes and packets queued, packets dropped so far."""
ROUTER_DROP_COLUMNS = (RQ_DROP_OVERFLOW, RQ_DROP_EARLY, RQ_DROP_FRONT, RQ_DROP_FORCED)
ROUTER_DROP_NAMES = ("overflow", "early", "front", "forced")

# === table ``rqf``: a router queue's real-valued fields (float64) ====================================
RQF_MIN_TH = 0             # packets: Floyd-Jacobson RED's min_th
RQF_MAX_TH = 1             # packets: RED's max_th
RQF_MAX_P = 2              # 1: RED's max_p
RQF_WEIGHT = 3             # 1: RED's weight w_q of the average
RQF_AVG = 4                # packets: RED's average queue
RQF_IDLE_PACKET_NS = 5     # ns: the transmission time s of a typical packet, which paces the average's decay
                          #   over an idle queue
RQF_EWA_ALPHA = 6          # 1: EWA's alpha (ewa 3.2)
RQF_EWA_AVG = 7            # packets: EWA's filtered average queue
RQF_EWA_GAIN = 8           # 1: the gain g of that average
RQF_EWA_LOW = 9            # packets: EWA's low threshold
RQF_EWA_HIGH = 10          # packets: EWA's high threshold
RQF_EWA_UP = 11            # 1: EWA's w_up
RQF_EWA_DOWN = 12          # 1: EWA's w_down
RQF_NFIELDS = 13

EWA_SAMPLE_FIELDS = ("alpha", "average_queue", "feedback", "available_rate")
"""The ``rfsample`` columns of a sampled queue: EWA's alpha, its average queue (packets), the feedback
f(B - Q) (packets) an ACK passing at that instant gets, and the share of the link's rate the queue's VC
has (1, or less while a priority VC is on)."""

# === table ``app``: a connection's application (int64) ===============================================
APP_STOP_NS = 0             # ns: when the application closes; INFINITE: never
APP_SEND_LIMIT = 1          # bytes: the sender sends no byte at or above it (INFINITE while open, snd_max from
                          #   the close on)
APP_SAMPLE_COL = 2          # index: 1 + the first of the connection's rsample columns
                          #   (SAMPLED_CONNECTION_FIELDS); 0: not sampled
APP_ON_MEAN_NS = 3          # ns: an ON/OFF application's mean ON period (atmtcp.kernel.applications); 0:
                          #   persistent
APP_OFF_MEAN_NS = 4         # ns: its mean OFF period
APP_IS_ON = 5               # flag: 1 while the ON/OFF application is ON
APP_NFIELDS = 6

SAMPLED_CONNECTION_FIELDS = ("measured_bytes", "snd_max", "snd_una", "cwnd", "snd_wnd", "dropped", "timeouts")
"""The ``rsample`` columns of a sampled connection: TCP payload of its data past the measured
router port, its highest byte sent + 1, its lowest unacknowledged byte, its cwnd (bytes), the window
the last ACK advertised (bytes; what EWA fed back), its data packets dropped at router ports and its
retransmission timeouts so far (ewa 2's regime: drops per connection per overflow)."""

# === codes: how a connection detects a loss (C_LOSS_DETECTION; model.LOSS_DETECTIONS is this tuple) ===
DETECT_TIMEOUT = 0        # the retransmission timer only (goyal1998's vanilla TCP)
DETECT_DUPACKS = 1        # also the third duplicate ACK (Reno, New Reno)
DETECT_SACK = 2           # also duplicate ACKs, with the receiver's SACK blocks and the sender's scoreboard
LOSS_DETECTION_NAMES = ("timeout", "dupacks", "sack")

# === codes: what a connection does after a loss (C_RECOVERY; model.RECOVERIES is this tuple) ========
# each name but "none" has its enter / dup-ACK / new-ACK functions in atmtcp.kernel.tcp_recovery and one
# branch in each of its three dispatchers (tests/kernel/test_recovery_registry.py)
RECOVERY_NONE = 0         # slow start after the timeout
RECOVERY_RENO = 1         # fast recovery, left at the first ACK of new data (goyal1998 2)
RECOVERY_NEWRENO = 2      # fast recovery, left when all data sent before the loss is acknowledged (5.3)
RECOVERY_SACK = 3         # fast recovery by PIPE, retransmitting the holes (goyal1998 5.4)
RECOVERY_NAMES = ("none", "reno", "newreno", "sack")

# === codes: congestion-avoidance increase rules (C_INCREASE_RULE; model.INCREASE_RULES is this tuple) ==
INC_FLOAT = 0             # cwnd += mss * mss / cwnd, in real numbers (goyal1998 2)
INC_BSD = 1               # 4.4BSD's integer mss * mss / cwnd + mss / 8
INC_INTEGER = 2           # integer mss * mss / cwnd (goyal1997's stall at cwnd > mss squared)
INC_INTEGER_EVERY_N = 3   # integer n * mss * mss / cwnd once every n = C_INCREASE_N ACKs
INCREASE_RULE_NAMES = ("float", "bsd", "integer", "integer_every_n")

# === codes: ssthresh after a loss (C_SSTHRESH_RULE; model.SSTHRESH_RULES is this tuple) ==============
SS_HALF_CWND = 0          # max{2, min{cwnd/2, rcvwnd}} (goyal1998 2)
SS_BSD = 1                # 4.4BSD's min(cwnd, wnd) / 2
SSTHRESH_RULE_NAMES = ("half_cwnd", "bsd")

# === codes: SACK's PIPE at the third duplicate ACK (C_SACK_PIPE_START; model.SACK_PIPE_STARTS is this) =
PIPE_CWND_MINUS_3 = 0     # "sets PIPE to CWND - 3" (goyal1998 5.4.2)
PIPE_CWND = 1             # "PIPE is set to the value of CWND" (5.4.1)
SACK_PIPE_START_NAMES = ("cwnd-3", "cwnd")

# === codes: drop policies (P_POLICY; the order of model.POLICIES) ====================================
# each name has its record in atmtcp.model.POLICY_RECORDS, its decide_<name> in atmtcp.kernel.policies and
# its branch in atmtcp.kernel.policies.decide (tests/kernel/test_policy_registry.py)
TAIL = 0
PPD = 1
EPD = 2
SELECTIVE_DROP = 3
FBA = 4
ESPD = 5
RED = 6
POLICY_NAMES = ("tail", "ppd", "epd", "selective_drop", "fba", "espd", "red")

# === codes: drop from front (P_FRONT; lakshman 3; model.FRONT_DROPS is this tuple) ===================
NO_FRONT = 0              # none: the policy decides at a full buffer
FRONT_CELL = 1            # Cell-Front: the arriving cell enters and the cell at the front is dropped
FRONT_FRAME = 2           # Frame-Front: likewise, and the rest of that frame as it reaches the head
FRONT_DROP_NAMES = ("none", "cell", "frame")

# === codes: how a port keeps its cells (P_HELD; ports, held_ports) ==================================
LAZY_FIFO = 0             # a cell's departure is fixed at its admission; no event of the port's own (ports.py)
HELD_CELLS = 1            # the port holds its cells and sends each by a departure event (randomized tail drop,
                          #   drop from front: held_ports.port_event)
SLOT_ENDS = 2             # a slotted port that holds only its slot's arrivals, and admits them at the slot's end
                          #   as a lazy FIFO port (held_ports.lazy_slot_end)

# === codes: whether a channel's head is in the event heap (CH_PARKED; held_ports.pull_arrivals) ========
CH_FREE = 0               # its head is in the heap while it has entries: each entry arrives by an event
CH_PARKED_IN_HEAP = 1     # its slotted port pulls it, but its head event, put in the heap before, is still there
CH_PARKED_OUT = 2         # its slotted port pulls it: its entries have no events

# === codes: a VC's packet state at a port (table pv_state) ===========================================
PV_NORMAL = 0
PV_DISCARD_ALL = 1
PV_DISCARD_KEEP_EOM = 2
PV_LISTED = 3             # + epoch: on an ESPD port's drop-list of that epoch (see P_DROPLIST_EPOCH)

# === codes: what an ESPD decision does to the drop-list (atmtcp.kernel.policies.espd_decision) =======
ESPD_STAY = 0
ESPD_CAPTURE = 1
ESPD_RELEASE = 2

# === codes: drop decisions (returned by policies; DROP_* + P_DROP_OVERFLOW: the reason's column) =====
ACCEPT = -1
DROP_OVERFLOW = 0
DROP_THRESHOLD = 1
DROP_PARTIAL = 2
DROP_PERVC = 3
CAPTURE = 4               # not a drop: the drop log's mark of a VC put on a port's drop-list
CAPTURED = 8              # added to the drop reason of a refused cell that put its VC on the drop-list

# === codes: event kinds (h_kind) =====================================================================
EV_CHANNEL = 0
EV_RTO = 1
EV_DELACK = 2
EV_START = 3
EV_SAMPLE = 4
EV_PORT = 5
# the packet path's kinds: a router port's departure or cell slot, a connection's close, an ON/OFF
# application's switch, a priority VC's switch, and EWA's period T (ident: the queue); numbered apart
# from the cell path's kinds (0-5) so that a kind added there cannot collide
EV_ROUTER = 16
EV_STOP = 17
EV_APP = 18
EV_PRIORITY = 19
EV_EWA = 20

# === codes: kernel status (G_STATUS) =================================================================
# A *_FULL code (the low byte of G_STATUS) stops the run inside an event: a resource filled, which
# the margins should make impossible. A *_LOW bit, OR-ed into G_STATUS by one instruction on the
# rare path of an allocation, stops it between two events, with less than one event's margin of
# that resource left; several bits may be set. A FULL code overwrites them (the run is lost).
OK = 0
CELL_POOL_FULL = 1
PACKET_POOL_FULL = 2
RING_FULL = 3
HEAP_FULL = 4
PEND_FULL = 5
STATUS_NAMES = ("ok", "cell pool full", "packet pool full", "port ring full", "event heap full",
                "slot arrival buffer full")
FULL_MASK = 0xFF
CELLS_LOW = 1 << 8
PACKETS_LOW = 1 << 9
RING_LOW = 1 << 10
HEAP_LOW = 1 << 11
PEND_LOW = 1 << 12
LOW_NAMES = {CELLS_LOW: "cell pool low", PACKETS_LOW: "packet pool low", RING_LOW: "port ring low",
             HEAP_LOW: "event heap low", PEND_LOW: "slot arrival buffer low"}

# === codes: TCP trace record kinds (column 1 of trace_i) =============================================
TR_CWND = 0
TR_SSTHRESH = 1
TR_SEQ_SENT = 2
TR_ACK_RCVD = 3
TR_TIMEOUT = 4
TR_FAST_RETRANSMIT = 5
TRACE_KIND_NAMES = ("cwnd", "ssthresh", "seq_sent", "ack_received", "timeout", "fast_retransmit")

# === codes: router port modes (RP_MODE) ==============================================================
ROUTE_IP = 0
ROUTE_ATM = 1

# === codes: router drop policies (RQ_POLICY; the order of ROUTER_POLICY_NAMES) ========================
DROP_TAIL = 0
DROP_FROM_FRONT = 1
FLOYD_JACOBSON_RED = 2
ROUTER_POLICY_NAMES = ("drop_tail", "drop_from_front", "red")

# === codes: EWA's feedback functions (RQ_EWA) =========================================================
EWA_OFF = 0
EWA_LOG = 1
EWA_LINEAR = 2
EWA_FEEDBACK_NAMES = ("off", "log", "linear")

# === codes: special values ===========================================================================
INFINITE = 1 << 62        # a capacity or time that is never reached
PACKET_ENTRY = -2
"""``CELL_IDX`` of a channel entry that carries a whole packet to the router port of hop ``CELL_HOP``
(a cell has its index >= 0 there, a delivery -1)."""
