"""Per-segment retransmission timers (``TcpConfig.retransmit_timers = "per_segment"``), OPNET 2.4's TCP as
cheon section 2 describes it: "each packet being transmitted from the source node has its own RTO timer so
that once a timeout occurs, many subsequent timeouts generally follow".

One WAN connection of goyal1998 (test_tcp.py's ``wan``) with an infinite buffer, so that the only losses are
the scripted ones: whatever times out beyond them is the timer scheme's doing.
"""
import numpy as np
import pytest

from atmtcp import model as m
from test_tcp import MSS, TICK, Trace, counters, wan

LOSS = 300          # in slow start (ssthresh = the window): a full window is in flight behind it


def timeouts(flavor, lost, timers, duration=1.0):
    ds = wan(flavor, lost, duration=duration, ssthresh_segments=None, retransmit_timers=timers)
    return ds, Trace(ds)


@pytest.mark.parametrize("flavor", ["vanilla", "reno"])
def test_one_timeout_is_followed_by_the_timeouts_of_the_later_outstanding_segments(flavor):
    """cheon 2: "once a timeout occurs, many subsequent timeouts generally follow". Behind the lost segment a
    window of segments waits at the receiver for the hole to fill; no ACK covers them, and each one's own
    timer (started at its transmission, with the RTO of that moment) runs out in turn. Each expiry is a
    timeout that retransmits that segment. One timer per connection times out once."""
    lost = (LOSS,) if flavor == "vanilla" else (LOSS, LOSS + 1, LOSS + 2)
    per_connection, _ = timeouts(flavor, lost, "per_connection")
    per_segment, tr = timeouts(flavor, lost, "per_segment")
    assert counters(per_connection)["timeouts"] == 1
    n = counters(per_segment)["timeouts"]
    assert n >= 20
    when, timed_out = tr.times("timeout"), tr.values("timeout")
    assert len(np.unique(timed_out)) == n                 # each a segment of its own ...
    assert when[-1] - when[0] <= 2 * TICK                 # ... in one cascade ...
    for t, seq in zip(when, timed_out):                   # ... each retransmitted at its own timeout
        assert t in tr.times("seq_sent", seq)
    assert np.sum(timed_out > max(lost) * MSS) >= 20      # segments that were never lost time out too
    assert int(per_segment.goodput_bps[0]) > 0            # and the connection goes on after it


def test_no_loss_no_timeout():
    """Without a loss a segment's timer never expires: the sender runs as with one timer per connection."""
    a = counters(wan("reno", (), duration=0.5, retransmit_timers="per_connection"))
    b = counters(wan("reno", (), duration=0.5, retransmit_timers="per_segment"))
    assert a == b == {"timeouts": 0, "fast_retransmits": 0, "retransmissions": 0, "scripted_losses": 0}


def test_fast_retransmit_keeps_the_other_segments_timers():
    """A single loss in congestion avoidance is repaired by fast retransmit under either scheme: the
    retransmission restarts only its own timer, and the ACKs arrive before any other expires."""
    a = wan("reno", (600,), retransmit_timers="per_connection")
    b = wan("reno", (600,), retransmit_timers="per_segment")
    assert counters(a) == counters(b) == {"timeouts": 0, "fast_retransmits": 1, "retransmissions": 1,
                                          "scripted_losses": 1}


def test_the_default_is_one_timer_per_connection():
    assert m.TcpConfig().retransmit_timers == "per_connection"
    assert m.TcpConfig.bsd44().retransmit_timers == "per_connection"
    with pytest.raises(m.ModelError, match="retransmit_timers"):
        m.TcpConfig(retransmit_timers="per_packet")
