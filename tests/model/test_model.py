"""Model validation: every bad field raises ModelError naming the field and the value."""
import math

import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compile import compile_run
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_network, n_source_run


def check(excinfo, field, value):
    """The error names ``field`` (as ``Owner.name``) and shows ``value``."""
    err = excinfo.value
    assert isinstance(err, m.ModelError)
    assert err.field == field
    assert field in str(err)
    assert repr(value) in str(err)


def good_run(**kw):
    return n_source_run(2, 5e-6, m.PortConfig(1000), m.TcpConfig("reno"), 0.1, **kw, contention="deterministic")


@pytest.mark.parametrize("value", [-5, 0, 10.5, True])
def test_buffer_must_be_positive_integer(value):
    """Model: PortConfig.buffer_cells (K, cells) must be a positive integer or None."""
    with pytest.raises(m.ModelError) as e:
        m.PortConfig(value)
    check(e, "PortConfig.buffer_cells", value)


@pytest.mark.parametrize("value", [0, 0.0, -1e6, math.inf, math.nan])
def test_link_rate_must_be_positive(value):
    """Model: Link.rate_bps must be a positive finite number."""
    with pytest.raises(m.ModelError) as e:
        m.Link("A", "B", rate_bps=value)
    assert e.value.field == "Link.rate_bps"
    assert "Link.rate_bps" in str(e.value) and repr(value) in str(e.value)


def test_link_delay_must_be_non_negative():
    """Model: Link.delay_s must be >= 0."""
    with pytest.raises(m.ModelError) as e:
        m.Link("A", "B", delay_s=-1e-6)
    check(e, "Link.delay_s", -1e-6)


def test_window_below_one_segment():
    """goyal1998 2: the sender needs a window of at least one segment (TcpConfig.rcv_wnd >= mss)."""
    with pytest.raises(m.ModelError) as e:
        m.TcpConfig("reno", mss=512, rcv_wnd=511)
    check(e, "TcpConfig.rcv_wnd", 511)


def test_window_above_rfc1323_limit():
    """RFC 1323 (goyal1998 3.1 window scaling): rcv_wnd <= 65535 << 14."""
    with pytest.raises(m.ModelError) as e:
        m.TcpConfig("reno", rcv_wnd=(65535 << 14) + 1)
    check(e, "TcpConfig.rcv_wnd", (65535 << 14) + 1)


def test_unknown_policy():
    """Model: DropPolicy.kind is one of tail, ppd, epd, selective_drop, fba, espd, red."""
    with pytest.raises(m.ModelError) as e:
        m.DropPolicy("wred")
    check(e, "DropPolicy.kind", "wred")


def test_unknown_flavor():
    """Model: TcpConfig.flavor is one of vanilla, reno, newreno, sack."""
    with pytest.raises(m.ModelError) as e:
        m.TcpConfig("tahoe")
    check(e, "TcpConfig.flavor", "tahoe")


def test_unknown_increase_rule():
    """goyal1997 slides: TcpConfig.increase is one of the known congestion-avoidance rules."""
    with pytest.raises(m.ModelError) as e:
        m.TcpConfig(increase="quadratic")
    check(e, "TcpConfig.increase", "quadratic")


@pytest.mark.parametrize("kind", ["epd", "selective_drop", "fba"])
def test_threshold_above_buffer(kind):
    """goyal1998 4.1/4.2: the threshold R lies in 0..K; R = 2000 with K = 1000 is rejected."""
    with pytest.raises(m.ModelError) as e:
        m.PortConfig(1000, m.DropPolicy(kind, threshold=2000))
    check(e, "DropPolicy.threshold", 2000)


def test_threshold_negative():
    """goyal1998 4.2: R is a number of cells >= 0."""
    with pytest.raises(m.ModelError) as e:
        m.DropPolicy("fba", threshold=-1)
    check(e, "DropPolicy.threshold", -1)


def test_epd_threshold_zero():
    """cheon 3.2: an EPD threshold of 0 would reject every packet (queue_length < 0 never holds)."""
    with pytest.raises(m.ModelError) as e:
        m.PortConfig(1000, m.DropPolicy("epd", threshold=0))
    check(e, "DropPolicy.threshold", 0)


def test_threshold_bounds_accepted():
    """goyal1998 4.2: R = 0 and R = K are the ends of the allowed range."""
    m.PortConfig(1000, m.DropPolicy("fba", threshold=0))
    m.PortConfig(1000, m.DropPolicy("fba", threshold=1000))
    m.PortConfig(1000, m.DropPolicy("epd", threshold=1000))


@pytest.mark.parametrize("z", [0, 0.0, -0.8])
def test_z_must_be_positive(z):
    """goyal1998 4.2: Z (load-ratio cutoff / linear scale factor) must be > 0."""
    with pytest.raises(m.ModelError) as e:
        m.DropPolicy("selective_drop", z=z)
    check(e, "DropPolicy.z", z)


@pytest.mark.parametrize("duration", [0, 0.0, -1.0])
def test_duration_must_be_positive(duration):
    """Model: Run.duration_s must be > 0."""
    net = n_source_network(1, 5e-6, m.PortConfig(None))
    with pytest.raises(m.ModelError) as e:
        m.Run(net, (m.Connection("S1", "D1"),), duration)
    check(e, "Run.duration_s", duration)


@pytest.mark.parametrize("index", [2, -1])
def test_bad_trace_connection_index(index):
    """Model: TraceConfig.connections holds indices of the run's connections."""
    with pytest.raises(m.ModelError) as e:
        good_run(trace=m.TraceConfig(connections=(index,)))
    check(e, "TraceConfig.connections", index)


def test_unknown_trace_port():
    """Model: TraceConfig.ports names a port of the network ("node->neighbor")."""
    run = good_run(trace=m.TraceConfig(ports=("SW9->SW2",)))
    with pytest.raises(m.ModelError) as e:
        atmtcp.simulate(run)
    check(e, "TraceConfig.ports", "SW9->SW2")


def test_known_trace_port_accepted():
    """Model: tracing the bottleneck port "SW1->SW2" compiles."""
    compile_run(good_run(trace=m.TraceConfig(ports=(BOTTLENECK,))))


def test_unknown_connection_host():
    """Model: a connection's hosts must be hosts of the network."""
    net = n_source_network(1, 5e-6, m.PortConfig(None))
    with pytest.raises(m.ModelError) as e:
        m.Run(net, (m.Connection("S1", "D7"),), 1.0)
    check(e, "Connection.dst", "D7")


def test_unknown_port_override():
    """Model: Network.ports may only configure ports that exist."""
    net = n_source_network(1, 5e-6, m.PortConfig(None))
    with pytest.raises(m.ModelError) as e:
        m.Network(net.hosts, net.switches, net.links, ports=(("SW2->SW9", m.PortConfig(10)),))
    check(e, "Network.ports", "SW2->SW9")


def test_nic_port_override_refused():
    """Model: a host's NIC always has an infinite FIFO buffer, so Network.ports may not configure it
    (it would be ignored silently)."""
    net = n_source_network(1, 5e-6, m.PortConfig(None))
    with pytest.raises(m.ModelError) as e:
        m.Network(net.hosts, net.switches, net.links, ports=(("S1->SW1", m.PortConfig(10)),))
    check(e, "Network.ports", "S1->SW1")
    assert "NIC" in str(e.value)


def test_negative_lost_segment():
    """Model: scripted losses are segment numbers >= 0."""
    with pytest.raises(m.ModelError) as e:
        m.Connection("S1", "D1", lost_segments=(3, -1))
    check(e, "Connection.lost_segments", (3, -1))


def test_default_thresholds_follow_goyal1998():
    """goyal1998 4.1/4.2: EPD's R defaults to K - 200 cells, Selective Drop's and FBA's to 0.9 K."""
    assert m.DropPolicy("epd").resolved_threshold(1000) == 800
    assert m.DropPolicy("selective_drop").resolved_threshold(1000) == 900
    assert m.DropPolicy("fba").resolved_threshold(3000) == 2700
    assert m.DropPolicy("fba", threshold=123).resolved_threshold(1000) == 123


def test_window_scale():
    """goyal1998 3.1 / RFC 1323: a 600000-byte window needs window scale 4; 65535 needs none."""
    assert m.TcpConfig(rcv_wnd=65535).window_scale == 0
    assert m.TcpConfig(rcv_wnd=600000).window_scale == 4


@pytest.mark.parametrize("owner,field,make", [
    ("DropPolicy", "keep_eom", lambda v: m.DropPolicy("epd", keep_eom=v)),
    ("TcpConfig", "delayed_ack", lambda v: m.TcpConfig(delayed_ack=v)),
    ("TcpConfig", "timeout_guard", lambda v: m.TcpConfig("newreno", timeout_guard=v)),
    ("TcpConfig", "timestamps", lambda v: m.TcpConfig(timestamps=v)),
])
@pytest.mark.parametrize("value", ["no", 1])
def test_flags_must_be_booleans(owner, field, make, value):
    """Model: on/off switches (keep_eom, delayed_ack, timeout_guard, timestamps) are True or False, not strings or
    numbers."""
    with pytest.raises(m.ModelError) as e:
        make(value)
    check(e, f"{owner}.{field}", value)


def test_timeout_guard_defaults():
    """RFC 2582 send_high guard: on by default for New Reno and SACK, off for Reno; None selects the default."""
    assert m.TcpConfig("newreno").uses_timeout_guard and m.TcpConfig("sack").uses_timeout_guard
    assert not m.TcpConfig("reno").uses_timeout_guard
    assert m.TcpConfig("reno", timeout_guard=True).uses_timeout_guard


@pytest.mark.parametrize("value", ["not a run", None, 42])
def test_simulate_refuses_what_is_not_a_run(value):
    """simulate() of anything but a Run names the argument and what it must be (no AttributeError)."""
    from atmtcp import simulate

    with pytest.raises(m.ModelError, match=r"simulate\.run = .* must be an atmtcp\.model\.Run"):
        simulate(value)
