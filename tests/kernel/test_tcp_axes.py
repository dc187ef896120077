"""The TCP's three axes, function by function, on hand-built states: window growth
(:mod:`atmtcp.kernel.tcp_growth`), loss detection (:mod:`atmtcp.kernel.tcp` and
:mod:`atmtcp.kernel.tcp_sack`) and recovery (:mod:`atmtcp.kernel.tcp_recovery`).

Each test compiles a one-connection run for its arrays, writes the connection's fields by hand,
calls the compiled kernel functions directly and compares the fields they leave with a naive
version written from the papers: goyal1998 section 2 (slow start, congestion avoidance "by
1/CWND", ssthresh = max{2, min{CWND/2, RCVWND}}), 5.1 (fast retransmit and recovery), 5.3 (New
Reno), 5.4.1-2 (SACK's PIPE and holes), the goyal1997 slides (integer increase), cheon 4.1.2 and
4.4BSD-Lite's tcp_input.c / tcp_timer.c (the BSD increase, ssthresh and the end of fast recovery).
The naive versions are plain Python on numbers, in ``tests/naive.py`` with the other references
(:func:`naive.naive_increase`, :func:`naive.naive_ssthresh`, :class:`naive.NaiveSender`,
:func:`naive.naive_sack_blocks`); they call nothing of atmtcp.
"""
import pytest

from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.kernel import layout as L
from atmtcp.kernel.tcp import duplicate_ack, new_ack, on_timeout, receiver_input, tcp_output
from atmtcp.kernel.tcp_growth import halve_window, open_window
from atmtcp.kernel.tcp_sack import build_sack_blocks, mark_sacked
from atmtcp.topologies import n_source_network

from naive import MAX_CWND, TCP_MSS as MSS, NaiveSender, naive_increase, naive_sack_blocks, naive_ssthresh
from pointers import on_pointers

(duplicate_ack, new_ack, on_timeout, receiver_input, tcp_output, halve_window, open_window, build_sack_blocks,
 mark_sacked) = on_pointers(duplicate_ack, new_ack, on_timeout, receiver_input, tcp_output, halve_window, open_window,
                            build_sack_blocks, mark_sacked)

T = 1_000_000_000          # the time of every call (ns): after the start, inside the trace window


# --- hand-built states ---------------------------------------------------------------------------------
class Sender:
    """The compiled arrays of a one-connection WAN run (600000-byte window, so cwnd may grow large);
    ``S`` is what the kernel functions take, ``conn``/``connf`` the connection's fields."""

    def __init__(self, tcp: m.TcpConfig):
        net = n_source_network(1, 5e-3, m.PortConfig(None))
        run = m.Run(net, (m.Connection("S1", "D1", tcp),), 10.0, trace=m.TraceConfig(connections=(0,)))
        compiled = compile_run(run)
        self.S, self.state = compiled.kernel_state, compiled.state
        self.conn, self.connf = self.state.conn[0], self.state.connf[0]

    def set(self, una_seg, outstanding_segs, cwnd, ssthresh, wnd=None):
        """snd_una at segment ``una_seg``, ``outstanding_segs`` sent after it; cwnd and ssthresh in bytes."""
        c = self.conn
        c[L.C_SND_UNA] = una_seg * MSS
        c[L.C_SND_NXT] = c[L.C_SND_MAX] = (una_seg + outstanding_segs) * MSS
        c[L.C_HIGH_SACK] = c[L.C_HOLE_PTR] = una_seg
        if wnd is not None:
            c[L.C_SND_WND] = wnd
        self.connf[L.CF_CWND], self.connf[L.CF_SSTHRESH] = cwnd, ssthresh

    def sack(self, *segments):
        """Mark ``segments`` SACKed in the scoreboard, as ACKs' blocks would have."""
        for seg in segments:
            self.state.sb[0, seg & self.conn[L.C_SEG_MASK]] |= 1
        self.conn[L.C_HIGH_SACK] = max(self.conn[L.C_HIGH_SACK], max(segments) + 1)

    def sent(self):
        """Sequence numbers sent so far (the trace's ``seq_sent`` records)."""
        n = self.state.g[L.G_TRACE_LEN]
        kinds = self.state.trace_i[:n, 1]
        return [int(v) for v, k in zip(self.state.trace_v[:n], kinds) if k == L.TR_SEQ_SENT]

    @property
    def cwnd(self):
        return float(self.connf[L.CF_CWND])

    @property
    def ssthresh(self):
        return float(self.connf[L.CF_SSTHRESH])

    def __getitem__(self, column):
        return int(self.conn[column])


def tcp(flavor="reno", **fields):
    return m.TcpConfig(flavor, rcv_wnd=600000, **fields)


# --- window growth --------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", m.INCREASE_RULES)
def test_slow_start_then_congestion_avoidance(rule):
    """From one segment with ssthresh = 8 segments, 60 ACKs: slow start, then the linear increase."""
    s = Sender(tcp(increase=rule, increase_every_n=3))
    s.set(100, 1, MSS, 8 * MSS)
    cwnd, count = MSS, 0
    for _ in range(60):
        open_window(s.S, 0)
        cwnd, count = naive_increase(cwnd, 8 * MSS, MSS, rule, n=3, count=count)
        assert s.cwnd == same_window(cwnd, rule)


@pytest.mark.parametrize("rule", m.INCREASE_RULES)
@pytest.mark.parametrize("cwnd, ssthresh", [(8 * MSS, 8 * MSS), (40 * MSS, 8 * MSS), (600 * MSS, 8 * MSS),
                                            (MAX_CWND - 60, 3000 * MSS), (3 * MSS, 64 * MSS)])
def test_one_ack_of_new_data(rule, cwnd, ssthresh):
    """At ssthresh (4.4BSD still in slow start), far above it, above MSS * MSS bytes (the integer rule
    stalls, goyal1997), up to the largest window, below ssthresh."""
    s = Sender(tcp(increase=rule, increase_every_n=1))
    s.set(100, 1, cwnd, ssthresh)
    open_window(s.S, 0)
    assert s.cwnd == same_window(naive_increase(cwnd, ssthresh, MSS, rule)[0], rule)
    if cwnd == 600 * MSS and rule == "integer":
        assert s.cwnd == 600 * MSS      # goyal1997: "CWND does not change"
    if cwnd == MAX_CWND - 60:
        assert s.cwnd == MAX_CWND


def same_window(naive_cwnd, rule):
    """The naive cwnd, up to rounding for the floating-point rule (the naive one counts in segments)."""
    return pytest.approx(naive_cwnd, rel=1e-12, abs=0) if rule == "float" else naive_cwnd


@pytest.mark.parametrize("rule", m.SSTHRESH_RULES)
@pytest.mark.parametrize("cwnd, wnd", [(40 * MSS, 600000), (100 * MSS, 60 * MSS), (3 * MSS, 600000),
                                       (21 * MSS + 300.5, 600000), (100 * MSS, 40 * MSS + 7)])
def test_ssthresh_after_a_loss(rule, cwnd, wnd):
    """halve_window against goyal1998 2 and 4.4BSD; the rules differ once cwnd exceeds the window."""
    s = Sender(tcp(ssthresh_rule=rule))
    s.set(100, 10, cwnd, 8 * MSS, wnd=wnd)
    halve_window(s.S, 0)
    assert s.ssthresh == naive_ssthresh(cwnd, wnd, MSS, rule)
    assert s.cwnd == cwnd


@pytest.mark.parametrize("flavor", m.FLAVORS)
@pytest.mark.parametrize("rule", m.SSTHRESH_RULES)
def test_timeout(flavor, rule):
    """goyal1998 2: at the timeout ssthresh is halved, "CWND is set to one segment size", and the first
    unacknowledged segment is sent again (go-back-N); SACK "resets the SACK table" (5.4.1)."""
    s = Sender(tcp(flavor, ssthresh_rule=rule))
    s.set(100, 30, 30 * MSS, 8 * MSS, wnd=20 * MSS)
    s.sack(103, 104)
    on_timeout(s.S, 0, T)
    assert s.ssthresh == naive_ssthresh(30 * MSS, 20 * MSS, MSS, rule)
    assert s.cwnd == MSS and s[L.C_IN_RECOVERY] == 0 and s[L.C_TIMEOUTS] == 1
    assert s.sent() == [100 * MSS] and s[L.C_SND_NXT] == 101 * MSS
    scoreboard = s.state.sb[0, [103 & s[L.C_SEG_MASK], 104 & s[L.C_SEG_MASK]]]
    assert list(scoreboard) == ([0, 0] if flavor == "sack" else [1, 1])


# --- loss detection and the entry into recovery -----------------------------------------------------------
FLAVOR_CASES = [("vanilla", "cwnd-3"), ("reno", "cwnd-3"), ("newreno", "cwnd-3"), ("sack", "cwnd-3"),
                ("sack", "cwnd")]


def recovery_pair(flavor, pipe_start="cwnd-3", ssthresh_rule="half_cwnd", cwnd=20 * MSS, outstanding=20, **fields):
    """The kernel's sender and the naive one, both with ``outstanding`` segments sent from segment 100."""
    s = Sender(tcp(flavor, sack_pipe_start=pipe_start, ssthresh_rule=ssthresh_rule, **fields))
    s.set(100, outstanding, cwnd, 8 * MSS, wnd=600000)
    naive = NaiveSender(flavor, 100 * MSS, (100 + outstanding) * MSS, cwnd, 8 * MSS, 600000, pipe_start, ssthresh_rule,
                        fields.get("increase", "float"), fields.get("recovery_exit_opens", False))
    return s, naive


def assert_same(s, naive):
    assert s.cwnd == naive.cwnd and s.ssthresh == naive.ssthresh
    assert s[L.C_IN_RECOVERY] == int(naive.in_recovery) and s[L.C_DUPACKS] == naive.dupacks
    assert s.sent() == naive.sent
    if naive.in_recovery:
        assert s[L.C_RECOVER] == naive.recover
    if naive.flavor == "sack" and naive.in_recovery:
        assert s[L.C_PIPE] == naive.pipe


@pytest.mark.parametrize("flavor, pipe_start", FLAVOR_CASES)
@pytest.mark.parametrize("ssthresh_rule", m.SSTHRESH_RULES)
@pytest.mark.parametrize("cwnd, outstanding", [(20 * MSS, 20), (30 * MSS + 100.25, 24)])
def test_third_duplicate_ack_enters_recovery(flavor, pipe_start, ssthresh_rule, cwnd, outstanding):
    """The first two duplicate ACKs only count; the third retransmits and enters the flavour's recovery
    (vanilla ignores them all); a fourth inflates cwnd (Reno, New Reno) or takes a segment out of PIPE."""
    s, naive = recovery_pair(flavor, pipe_start, ssthresh_rule, cwnd, outstanding)
    for _ in range(4):
        duplicate_ack(s.S, 0, T)
        naive.duplicate_ack()
        assert_same(s, naive)
    assert s[L.C_FAST_RETRANSMITS] == (0 if flavor == "vanilla" else 1)


@pytest.mark.parametrize("flavor", ["newreno", "sack"])
def test_no_fast_retransmit_for_data_sent_before_the_timeout(flavor):
    """RFC 2582's send_high guard (on for New Reno and SACK): duplicate ACKs at or below it only count."""
    s, _ = recovery_pair(flavor)
    s.conn[L.C_SEND_HIGH] = 110 * MSS
    for _ in range(3):
        duplicate_ack(s.S, 0, T)
    assert s[L.C_IN_RECOVERY] == 0 and s[L.C_DUPACKS] == 3 and s.sent() == []


# --- partial and full ACKs ------------------------------------------------------------------------------------
def in_recovery(flavor, **fields):
    s, naive = recovery_pair(flavor, **fields)
    for _ in range(5):
        duplicate_ack(s.S, 0, T)
        naive.duplicate_ack()
    return s, naive


@pytest.mark.parametrize("flavor", ["reno", "newreno", "sack"])
def test_partial_ack(flavor):
    """goyal1998 5.3: an ACK of the retransmission but not of RECOVER ends Reno's recovery; New Reno stays
    and retransmits the next segment at once; SACK stays and takes two segments out of PIPE (5.4.1)."""
    s, naive = in_recovery(flavor)
    new_ack(s.S, 0, 103 * MSS, T, -1)
    naive.new_ack(103 * MSS)
    assert_same(s, naive)
    assert s[L.C_IN_RECOVERY] == (0 if flavor == "reno" else 1)
    assert s.sent()[-1] == (103 * MSS if flavor == "newreno" else 100 * MSS)


@pytest.mark.parametrize("flavor", ["reno", "newreno", "sack"])
@pytest.mark.parametrize("profile", ["goyal1998", "bsd44"])
def test_full_ack_ends_recovery(flavor, profile):
    """An ACK of RECOVER ends every recovery with cwnd = ssthresh (goyal1998 5.1, "sets CWND to SSTHRESH");
    4.4BSD-Lite's tcp_input then opens it as any ACK of new data, by one segment since cwnd <= ssthresh."""
    fields = dict(increase="bsd", ssthresh_rule="bsd", recovery_exit_opens=True) if profile == "bsd44" else {}
    s, naive = in_recovery(flavor, **fields)
    new_ack(s.S, 0, 120 * MSS, T, -1)
    naive.new_ack(120 * MSS)
    assert_same(s, naive)
    assert s[L.C_IN_RECOVERY] == 0
    assert s.cwnd == s.ssthresh + (MSS if profile == "bsd44" else 0)


# --- SACK: PIPE and the holes ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pipe_start", m.SACK_PIPE_STARTS)
def test_sack_pipe_accounting(pipe_start):
    """goyal1998 5.4.1 through one recovery: 30 segments out from 100, lost 100, 103, 104 and 110 (the rest
    SACKed as the duplicate ACKs arrive). PIPE starts at the third duplicate ACK, each further one takes a
    segment out, each segment sent puts one in; the sender sends while PIPE < CWND, holes first, then new
    data; a partial ACK takes two out."""
    s, naive = recovery_pair("sack", pipe_start, cwnd=30 * MSS, outstanding=30)
    received = [seg for seg in range(101, 130) if seg not in (103, 104, 110)]
    for seg in received:
        s.sack(seg)
        naive.sacked.add(seg)
        duplicate_ack(s.S, 0, T)
        naive.duplicate_ack()
        tcp_output(s.S, 0, T)
        if naive.in_recovery:
            naive.sack_output()
        assert_same(s, naive)
    assert set(naive.retransmitted) == {100, 103, 104, 110}
    for ack in (103, 105, 111):          # each retransmission's ACK is a partial one
        new_ack(s.S, 0, ack * MSS, T, -1)
        naive.new_ack(ack * MSS)
        tcp_output(s.S, 0, T)
        naive.sack_output()
        assert_same(s, naive)
    assert s[L.C_IN_RECOVERY] == 1


def test_sack_blocks_mark_the_scoreboard():
    """mark_sacked: an ACK's blocks mark their segments, clipped to [snd_una, snd_max) (5.4.1: "it marks
    all the segments specified in the SACK option blocks as SACKed")."""
    s = Sender(tcp("sack"))
    s.set(100, 30, 30 * MSS, 8 * MSS)
    k = s.state.pkt.shape[0] - 1
    blocks = [(102, 105), (90, 101), (120, 140)]
    s.state.pkt[k, L.PKT_NSACK] = len(blocks)
    for b, (left, right) in enumerate(blocks):
        s.state.pkt[k, L.PKT_S0 + 2 * b], s.state.pkt[k, L.PKT_S0 + 2 * b + 1] = left * MSS, right * MSS
    mark_sacked(s.S, 0, k)
    expected = {seg for left, right in blocks for seg in range(max(left, 100), min(right, 130))}
    marked = {seg for seg in range(90, 140) if s.state.sb[0, seg & s[L.C_SEG_MASK]] & 1}
    assert marked == expected and s[L.C_HIGH_SACK] == 130


@pytest.mark.parametrize("buffered, latest, previous", [
    ({103, 104, 105}, 104, []),
    ({103, 104, 107, 110, 111}, 110, [(107, 108), (103, 105)]),
    ({102, 106, 107, 109, 112}, 106, [(112, 113), (109, 110), (102, 103)]),
    ({103, 104, 105}, 105, [(103, 105), (98, 99)]),
])
def test_receiver_sack_blocks(buffered, latest, previous):
    """build_sack_blocks against RFC 2018's order (goyal1998 5.4.1): the newest segment's block first."""
    s = Sender(tcp("sack"))
    c, rsack, mask = s.conn, s.state.rsack[0], s[L.C_SEG_MASK]
    c[L.C_RCV_NXT], c[L.C_LAST_RCVD_SEG], c[L.C_OOO_SEGS] = 100 * MSS, latest, len(buffered)
    for seg in buffered:
        s.state.rb[0, seg & mask] = 1
    rsack[L.RS_NBLK] = len(previous)
    for i, (left, right) in enumerate(previous):
        rsack[L.RS_L0 + 2 * i], rsack[L.RS_R0 + 2 * i] = left, right
    k = s.state.pkt.shape[0] - 1
    build_sack_blocks(s.S, 0, k)
    got = [(s.state.pkt[k, L.PKT_S0 + 2 * b] // MSS, s.state.pkt[k, L.PKT_S0 + 2 * b + 1] // MSS)
           for b in range(s.state.pkt[k, L.PKT_NSACK])]
    assert got == naive_sack_blocks(buffered, 100, latest, previous)


@pytest.mark.parametrize("flavor", m.FLAVORS)
def test_only_sack_receivers_report_blocks(flavor):
    """Loss detection at the receiver: an out-of-order segment gets an immediate duplicate ACK, with a SACK
    block only when the connection detects losses by SACK (5.4.1: "All duplicate ACKs contain the SACK
    option")."""
    s = Sender(tcp(flavor))
    s.conn[L.C_RCV_NXT] = 100 * MSS
    k = s.state.pkt.shape[0] - 1
    s.state.pkt[k, L.PKT_SEQ], s.state.pkt[k, L.PKT_TS] = 102 * MSS, 0
    receiver_input(s.S, 0, k, T)
    assert s[L.C_ACKS_SENT] == 1 and s[L.C_OOO_SEGS] == 1
    rsack = s.state.rsack[0]
    if flavor == "sack":
        assert (rsack[L.RS_NBLK], rsack[L.RS_L0], rsack[L.RS_R0]) == (1, 102, 103)
    else:
        assert rsack[L.RS_NBLK] == 0


def test_each_flavour_is_a_row_of_the_axes():
    """The compiler writes each flavour's axes (model.FLAVOR_AXES) in the kernel's codes."""
    codes = {"vanilla": (L.DETECT_TIMEOUT, L.RECOVERY_NONE), "reno": (L.DETECT_DUPACKS, L.RECOVERY_RENO),
             "newreno": (L.DETECT_DUPACKS, L.RECOVERY_NEWRENO), "sack": (L.DETECT_SACK, L.RECOVERY_SACK)}
    assert set(m.FLAVOR_AXES) == set(m.FLAVORS)
    for flavor in m.FLAVORS:
        s = Sender(tcp(flavor))
        assert (s[L.C_LOSS_DETECTION], s[L.C_RECOVERY]) == codes[flavor]
