"""Slow, obviously-correct reference implementations written straight from the papers.

Nothing here imports atmtcp: the tests compare the kernel against these.

- :func:`cells_for`: AAL5 segmentation (goyal1998 3.2, cheon 2, lakshman 3).
- :func:`jain`: Jain's fairness index (goyal1998 3.2).
- :func:`selective_drop_drops`, :func:`fba_drops`: goyal1998 4.2, in exact rational
  arithmetic.
- :class:`NaiveBuffer`: one switch output buffer fed a sequence of cell arrivals and
  departures, deciding each arriving cell with cheon's pseudocode (section 3.1 PPD,
  section 3.2 EPD) transcribed line by line, with an explicit ``drop_list`` set, and
  the goyal1998 4.2 packet rules plugged into the EPD skeleton for Selective Drop and FBA.
- :class:`NaiveEspd`: cheon 3.3's ESPD pseudocode line by line, with the drop-list as a
  Python list in capture order and the drop timer as an expiry time.
- :class:`NaiveRed`: Floyd and Jacobson's RED, their section 4 algorithm for each arriving packet.
- :class:`NaiveRouterQueue`: a router's FIFO of whole packets with Drop-Tail or ewa 2.1's
  Drop-from-Front, the packet at the head in service.
- :class:`NaiveEwa`: ewa 3's window feedback (eq. 3.1 with 3.3 or 3.4) and section 3.2's adaptive
  alpha, straight from the formulas.
- :func:`naive_increase`, :func:`naive_ssthresh`, :class:`NaiveSender`, :func:`naive_sack_blocks`: the TCP
  sender's window growth, loss detection and recovery and the receiver's SACK blocks (goyal1998 2, 5.1,
  5.3, 5.4.1-2, the goyal1997 slides, 4.4BSD-Lite's tcp_input.c), on numbers, for
  ``tests/kernel/test_tcp_axes.py``.
"""
from __future__ import annotations

import math

from collections import deque
from fractions import Fraction

CELL_PAYLOAD = 48


def cells_for(payload_bytes: int, overhead_bytes: int) -> int:
    """Count 48-byte cell payloads one at a time until the packet fits (AAL5 pads the last)."""
    total = payload_bytes + overhead_bytes
    cells = 0
    carried = 0
    while carried < total:
        cells += 1
        carried += CELL_PAYLOAD
    return cells


def jain(throughputs, expected=None) -> float:
    """goyal1998 3.2: F = (sum x_i/e_i)^2 / (N * sum (x_i/e_i)^2), with plain loops."""
    xs = list(throughputs)
    if expected is not None:
        xs = [x / e for x, e in zip(xs, expected)]
    n = len(xs)
    s = 0.0
    s2 = 0.0
    for x in xs:
        s += x
        s2 += x * x
    if s2 == 0.0:
        return 1.0
    return s * s / (n * s2)


def selective_drop_drops(X, K, R, Z, Y, Na) -> bool:
    """goyal1998 4.2 Selective Drop: drop the new packet if X > R and Y*Na/X > Z."""
    if not X > R:
        return False
    load_ratio = Fraction(Y * Na, X)
    return load_ratio > Fraction(Z)


def fba_drops(X, K, R, Z, Y, Na) -> bool:
    """goyal1998 4.2 FBA: drop the new packet if (X > R) AND Y*Na/X > Z*(K-R)/(X-R)."""
    if not X > R:
        return False
    load_ratio = Fraction(Y * Na, X)
    T = Fraction(Z) * Fraction(K - R, X - R)
    return load_ratio > T


class NaiveBuffer:
    """A FIFO cell buffer of ``K`` cells with cheon's drop-list (a Python set of VCs).

    ``literal_eom=True`` follows cheon's pseudocode to the letter: whenever a cell is
    discarded outside the drop-list branch, its VC is captured into the drop-list, even
    when that cell is an EOM (the VC's *next* packet is then discarded). ``False`` is
    atmtcp's documented variant: a discarded EOM (or a discarded single-cell packet)
    ends the packet and does not capture the VC.
    """

    def __init__(self, policy: str, K: int, R: int = 0, Z: float = 0.8, keep_eom: bool = True,
                 literal_eom: bool = True):
        self.policy = policy
        self.K = K
        self.R = R
        self.Z = Z
        self.keep_eom = keep_eom
        self.literal_eom = literal_eom
        self.queue: deque = deque()   # VC of each buffered cell, front first
        self.drop_list: set = set()

    # --- buffer state (goyal1998 4.2 notation) ---
    def X(self):
        return len(self.queue)

    def Y(self, vc):
        return sum(1 for v in self.queue if v == vc)

    def Na(self):
        return len(set(self.queue))

    def full(self):
        return len(self.queue) >= self.K

    def depart(self):
        """The cell at the front of the buffer is transmitted (no-op when empty)."""
        if self.queue:
            self.queue.popleft()

    def _capture(self, vc, eom):
        if self.literal_eom or not eom:
            self.drop_list.add(vc)

    def arrive(self, vc, bom, eom) -> bool:
        """Decide one arriving cell; True if it enters the buffer."""
        if self.policy == "tail":
            return self._tail(vc)
        if self.policy == "ppd":
            return self._ppd(vc, bom, eom)
        return self._epd_like(vc, bom, eom)

    def _accept(self, vc):
        self.queue.append(vc)
        return True

    def _tail(self, vc):
        # goyal1998 3: "If, when a cell arrives at the FIFO queue, the queue is full, the
        # cell is dropped, otherwise the cell is accepted."
        if self.full():
            return False
        return self._accept(vc)

    def _ppd(self, vc, bom, eom):
        # cheon 3.1
        if vc in self.drop_list:
            # discard the cell; if the cell is an EOM cell remove the VPI/VCI from the drop-list
            if eom:
                self.drop_list.discard(vc)
            return False
        if self.full():
            # discard the cell; capture the VPI/VCI into drop-list
            self._capture(vc, eom)
            return False
        return self._accept(vc)

    def _packet_rule_drops(self, vc):
        X, K, R, Z = self.X(), self.K, self.R, self.Z
        if self.policy == "epd":
            return not X < R
        Y, Na = self.Y(vc), self.Na()
        if self.policy == "selective_drop":
            return selective_drop_drops(X, K, R, Z, Y, Na)
        if self.policy == "fba":
            return fba_drops(X, K, R, Z, Y, Na)
        raise ValueError(self.policy)

    def _epd_like(self, vc, bom, eom):
        # cheon 3.2 (EPD); Selective Drop and FBA replace "queue_length < Threshold" by
        # their goyal1998 4.2 packet rule, applied to the first cell of a packet.
        if vc in self.drop_list:
            if eom:
                self.drop_list.discard(vc)
                if self.keep_eom and self.X() < self.K:
                    return self._accept(vc)
                return False
            return False
        if self.policy == "epd":
            if self.X() < self.R:
                return self._accept(vc)
            if bom or self.full():
                self._capture(vc, eom)
                return False
            return self._accept(vc)
        if bom and self._packet_rule_drops(vc):
            self._capture(vc, eom)
            return False
        if self.full():
            self._capture(vc, eom)
            return False
        return self._accept(vc)


class NaiveEspd:
    """cheon 3.3: Early Selective Packet Discard at one output buffer of ``K`` cells."""

    def __init__(self, K: int, threshold1: int, threshold2: int, droplist_threshold: int, timer: float):
        self.K = K
        self.threshold1 = threshold1
        self.threshold2 = threshold2
        self.droplist_threshold = droplist_threshold
        self.timer = timer
        self.queue: deque = deque()
        self.drop_list: list = []      # "in the order of BOM cell arrivals"
        self.timer_expires_at = None   # None: the drop timer is not active
        self.captures: list = []       # (time, vc) of every capture

    def depart(self):
        if self.queue:
            self.queue.popleft()

    def arrive(self, vc, bom, eom, now) -> bool:
        """Decide one arriving cell at time ``now``; True if it enters the buffer."""
        queue_length = len(self.queue)
        # if the drop timer has expired: remove all the entries of drop-list
        if self.timer_expires_at is not None and now >= self.timer_expires_at:
            self.drop_list.clear()
            self.timer_expires_at = None
        if vc in self.drop_list:
            accepted = False
            if eom:
                if queue_length < self.K:
                    self.queue.append(vc)
                    accepted = True
                if queue_length < self.threshold2:
                    self.drop_list.remove(vc)
                    self.timer_expires_at = None   # deactivate the drop timer if it is active
            return accepted
        if queue_length <= self.threshold1:
            self.queue.append(vc)
            return True
        if (len(self.drop_list) < self.droplist_threshold and bom) or queue_length >= self.K:
            self.drop_list.append(vc)
            self.captures.append((now, vc))
            if len(self.drop_list) == 1:   # the first VPI/VCI in drop-list: activate a drop timer
                self.timer_expires_at = now + self.timer
            return False
        self.queue.append(vc)
        return True


def arrivals_from_ops(ops, packet_lengths):
    """Turn ``ops`` (a VC number, or -1 for one departure) into ``("arrive", vc, bom, eom)``
    / ``("depart",)`` events; VC ``v`` sends packets of lengths ``packet_lengths[v]`` in a
    cycle."""
    position = {}
    packet = {}
    events = []
    for op in ops:
        if op < 0:
            events.append(("depart",))
            continue
        lengths = packet_lengths[op]
        j = packet.get(op, 0)
        i = position.get(op, 0)
        n = lengths[j % len(lengths)]
        events.append(("arrive", op, i == 0, i == n - 1))
        if i == n - 1:
            position[op] = 0
            packet[op] = j + 1
        else:
            position[op] = i + 1
    return events


def run_naive(buffer: NaiveBuffer, events):
    """Decisions (True = accepted) of ``buffer`` for each arrival in ``events``."""
    out = []
    for ev in events:
        if ev[0] == "depart":
            buffer.depart()
        else:
            out.append(buffer.arrive(ev[1], ev[2], ev[3]))
    return out


class NaiveRed:
    """Floyd and Jacobson, "Random Early Detection Gateways for Congestion Avoidance", section 4:

    for each packet arrival: calculate the new average queue size avg: if the queue is nonempty
    avg <- (1 - w_q) avg + w_q q, else m <- f(time - q_time), avg <- (1 - w_q)^m avg; if min_th <=
    avg < max_th: increment count, p_b <- max_p (avg - min_th)/(max_th - min_th), p_a <- p_b/(1 -
    count p_b), with probability p_a mark the packet and count <- 0; else if max_th <= avg: mark the
    packet, count <- 0; else count <- -1. f is the idle time over a typical packet's transmission time.
    """

    def __init__(self, min_th, max_th, max_p, w_q, packet_time):
        self.min_th, self.max_th, self.max_p, self.w_q, self.s = min_th, max_th, max_p, w_q, packet_time
        self.avg = 0.0
        self.count = -1

    def arrive(self, q, idle_time, u) -> bool:
        """A packet arrives at a queue of ``q`` packets (idle for ``idle_time`` if empty); ``u``
        decides "with probability p_a". True: mark (drop) it."""
        if q > 0:
            self.avg = (1 - self.w_q) * self.avg + self.w_q * q
        else:
            self.avg = (1 - self.w_q) ** (idle_time / self.s) * self.avg
        if self.min_th <= self.avg < self.max_th:
            self.count += 1
            p_b = self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th)
            p_a = 1.0 if self.count * p_b >= 1 else p_b / (1 - self.count * p_b)
            if u < p_a:
                self.count = 0
                return True
            return False
        if self.max_th <= self.avg:
            self.count = 0
            return True
        self.count = -1
        return False


class NaiveRouterQueue:
    """A FIFO of whole packets of ``sizes[flow]`` bytes with a capacity in bytes and in packets.

    Drop-Tail (ewa 2): "the packet that arrives at a full buffer is dropped". Drop-from-Front (ewa
    2.1): "when a packet arrives at a full queue, the packet stored at the head of the queue is
    dropped. If service for the packet at the head of the queue has already started, the following
    packet in the queue is dropped instead. The arriving packet is always accepted, using the space
    freed by the dropped packet." The head is in service whenever the queue is not empty (the port
    is never idle with a packet waiting).
    """

    def __init__(self, policy, cap_bytes, cap_packets, sizes):
        self.policy, self.cap_bytes, self.cap_packets, self.sizes = policy, cap_bytes, cap_packets, sizes
        self.queue = deque()   # (packet id, flow)
        self.dropped = []      # (packet id, reason)

    def _fits(self, size):
        used = sum(self.sizes[f] for _, f in self.queue)
        return used + size <= self.cap_bytes and len(self.queue) + 1 <= self.cap_packets

    def arrive(self, packet, flow):
        size = self.sizes[flow]
        if self.policy == "drop_from_front":
            while not self._fits(size) and len(self.queue) > 1:
                victim = self.queue[1]   # the head is in service: the one after it
                del self.queue[1]
                self.dropped.append((victim[0], "front"))
        if not self._fits(size):
            self.dropped.append((packet, "overflow"))
            return
        self.queue.append((packet, flow))

    def depart(self):
        """The head's service ends."""
        return self.queue.popleft()


class NaiveEwa:
    """ewa 3: the AAP marks the receiver's advertised window of each returning ACK down to
    ``W'_r = max(min(W_r, f(B_e)), MSS)`` (3.1), ``f(B_e) = alpha log2(B - Q)`` (3.4) or ``alpha (B - Q)``
    (3.3), B and Q in packets. Section 3.2: ``avg(t) = (1 - g) avg(t-) + g Q(t)`` at each sampling point
    (here: each ACK, before its feedback); every T, ``alpha += w_up`` if avg < low, ``alpha *= w_down``
    if avg > high. The window field carries multiples of ``unit`` bytes (RFC 1323's scale): f x MSS is
    rounded down to one, MSS up.
    """

    def __init__(self, kind, alpha, buffer, gain, low, high, w_up, w_down):
        self.kind, self.alpha, self.buffer, self.gain = kind, alpha, buffer, gain
        self.low, self.high, self.w_up, self.w_down = low * buffer, high * buffer, w_up, w_down
        self.avg = 0.0

    def f(self, queue):
        free = max(self.buffer - queue, 0)
        if self.kind == "linear":
            return self.alpha * free
        return self.alpha * math.log2(free) if free > 1 else 0.0

    def ack(self, queue, advertised, mss, unit):
        """An ACK passes with ``queue`` packets in the buffer: the window it leaves with."""
        self.avg = (1 - self.gain) * self.avg + self.gain * queue
        feedback = int(self.f(queue) * mss)
        marked = min(advertised, feedback - feedback % unit)
        least = mss if mss % unit == 0 else mss + unit - mss % unit
        return max(marked, least)

    def period(self):
        if self.avg < self.low:
            self.alpha += self.w_up
        elif self.avg > self.high:
            self.alpha *= self.w_down


# --- the TCP sender, from the papers ---------------------------------------------------------------------
TCP_MSS = 512
"""The segment size of :class:`NaiveSender` (goyal1998's 512 bytes)."""
MAX_CWND = 65535 << 4      # 4.4BSD's TCP_MAXWIN << snd_scale: the scale of a 600000-byte window is 4 (RFC 1323)


def naive_increase(cwnd, ssthresh, mss, rule, n=1, count=0, max_cwnd=MAX_CWND):
    """cwnd (bytes) and the ACK count after one ACK of new data (the count matters to ``integer_every_n``).

    Slow start adds a segment "until CWND reaches Ssthresh" (goyal1998 2), 4.4BSD's while
    ``!(cw > snd_ssthresh)``; congestion avoidance "increases its CWND by 1/CWND" segments per ACK
    (goyal1998 2), in integer bytes per the goyal1997 slides ("All computations are done in integer"),
    every N ACKs by N * MSS * MSS / CWND (their Solution 1), or 4.4BSD's and cheon 4.1.2's
    ``cwnd + segsize * segsize / cwnd + segsize / 8``; never above the largest window (TCP_MAXWIN <<
    snd_scale)."""
    slow_start = cwnd <= ssthresh if rule == "bsd" else cwnd < ssthresh
    if slow_start:
        return min(cwnd + mss, max_cwnd), count
    if rule == "float":
        w = cwnd / mss
        return min((w + 1 / w) * mss, max_cwnd), count
    if rule == "bsd":
        return min(cwnd + mss * mss // cwnd + mss // 8, max_cwnd), count
    if rule == "integer":
        return min(cwnd + mss * mss // cwnd, max_cwnd), count
    count += 1
    if count < n:
        return cwnd, count
    return min(cwnd + n * mss * mss // cwnd, max_cwnd), 0


def naive_ssthresh(cwnd, wnd, mss, rule):
    """ssthresh after a loss: goyal1998 2's max{2, min{CWND/2, RCVWND}} segments (whole segments), or
    4.4BSD-Lite's ``win = min(snd_wnd, snd_cwnd) / 2 / t_maxseg; if (win < 2) win = 2``."""
    if rule == "bsd":
        return max(int(min(wnd, cwnd)) // 2 // mss, 2) * mss
    return max(2, math.floor(min(cwnd / 2 / mss, wnd / mss))) * mss


class NaiveSender:
    """A sender's loss detection and recovery (goyal1998 5.1, 5.3, 5.4.1-2) on numbers: ``una``,
    ``snd_max`` (bytes), cwnd, ssthresh, PIPE, the SACKed and retransmitted segments."""

    def __init__(self, flavor, una, snd_max, cwnd, ssthresh, wnd, pipe_start="cwnd-3", ssthresh_rule="half_cwnd",
                 increase="float", opens=False):
        self.flavor, self.una, self.snd_max, self.nxt = flavor, una, snd_max, snd_max
        self.cwnd, self.ssthresh, self.wnd, self.pipe_start = cwnd, ssthresh, wnd, pipe_start
        self.ssthresh_rule, self.increase, self.opens = ssthresh_rule, increase, opens
        self.sacked, self.retransmitted = set(), set()
        self.dupacks, self.in_recovery, self.recover, self.pipe, self.sent = 0, False, None, 0, []

    def duplicate_ack(self):
        if self.flavor == "vanilla":       # goyal1998 2: vanilla TCP "detects congestion by the ... timeout"
            return
        self.dupacks += 1
        if self.in_recovery:               # 5.1: "inflates CWND by one"; 5.4.1: "PIPE is decremented by one segment"
            if self.flavor == "sack":
                self.pipe -= TCP_MSS
            else:
                self.cwnd += TCP_MSS
        elif self.dupacks == 3:
            self.third_duplicate_ack()

    def third_duplicate_ack(self):
        """5.1: retransmit, ssthresh = half, cwnd = ssthresh + 3; 5.3: remember RECOVER; 5.4.1: PIPE = CWND
        (+1 for the retransmission) or 5.4.2: PIPE = CWND - 3, and CWND = CWND/2."""
        cwnd = self.cwnd
        self.ssthresh = naive_ssthresh(cwnd, self.wnd, TCP_MSS, self.ssthresh_rule)
        self.in_recovery, self.recover = True, self.snd_max
        self.sent.append(self.una)
        if self.flavor == "sack":
            self.retransmitted.add(self.una // TCP_MSS)
            outstanding = min(cwnd, self.snd_max - self.una)
            self.pipe = outstanding + TCP_MSS if self.pipe_start == "cwnd" else outstanding - 3 * TCP_MSS
            self.cwnd = self.ssthresh
        else:
            self.cwnd = self.ssthresh + 3 * TCP_MSS

    def new_ack(self, ack):
        """A partial ACK keeps New Reno (retransmit the next; deflate, RFC 2582) and SACK (PIPE -= 2) in
        recovery; a full one, or any under Reno, ends it: cwnd = ssthresh (and 4.4BSD opens it once more)."""
        acked, self.una = ack - self.una, ack
        self.sacked = {s for s in self.sacked if s >= ack // TCP_MSS}
        self.retransmitted = {s for s in self.retransmitted if s >= ack // TCP_MSS}
        if not self.in_recovery:
            self.dupacks = 0
            self.cwnd = naive_increase(self.cwnd, self.ssthresh, TCP_MSS, self.increase)[0]
        elif self.flavor == "reno" or ack >= self.recover:
            self.in_recovery, self.dupacks, self.cwnd = False, 0, self.ssthresh
            if self.opens:
                self.cwnd = naive_increase(self.cwnd, self.ssthresh, TCP_MSS, self.increase)[0]
        elif self.flavor == "newreno":
            self.cwnd = max(self.cwnd - acked + TCP_MSS, TCP_MSS)
            self.sent.append(ack)
        else:
            self.pipe -= 2 * TCP_MSS

    def sack_output(self):
        """5.4.1: while PIPE < CWND, retransmit the holes below the highest SACKed segment, then send new data."""
        high = max(self.sacked, default=-1) + 1
        while self.pipe < self.cwnd:
            holes = [s for s in range(self.una // TCP_MSS, high) if s not in self.sacked | self.retransmitted]
            if holes:
                self.retransmitted.add(holes[0])
                self.sent.append(holes[0] * TCP_MSS)
            elif self.nxt + TCP_MSS <= self.una + self.wnd:
                self.sent.append(self.nxt)
                self.nxt += TCP_MSS
                self.snd_max = max(self.snd_max, self.nxt)
            else:
                return
            self.pipe += TCP_MSS


def naive_sack_blocks(buffered, rcv_nxt_seg, latest_seg, previous):
    """RFC 2018 / goyal1998 5.4.1: "the first SACK block specifies the block of data formed by the most
    recently received data segment"; then the blocks reported before, still above rcv_nxt and apart from
    the first, at most three."""
    def run(seg):
        left, right = seg, seg + 1
        while left - 1 in buffered and left - 1 > rcv_nxt_seg:
            left -= 1
        while right in buffered:
            right += 1
        return left, right
    first = run(latest_seg)
    blocks = [first]
    for left, right in previous:
        if len(blocks) < 3 and left > rcv_nxt_seg and not (first[0] <= right and left <= first[1]):
            blocks.append((left, right))
    return blocks
