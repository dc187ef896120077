"""The sampled port traces (``queue_cells``, ``departed_cells``) show what has left a port's link by
each sampling instant: never faster than the link's rate, also at a host NIC whose IP layer hands it
one packet per service time (cheon 2's ``ip_service_pps``, issue 23), and never before the cells
were handed to the NIC (lakshman's receivers hand each ACK over a fixed delay after its data)."""
import dataclasses
import math

import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.compile import NS, cell_time_ns
from atmtcp.papers.cheon import scenario
from atmtcp.papers.lakshman import scenario as lakshman
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_run

CHEON_PORTS = ("S1->SW1", "S6->SW2", "SW1->SW2", "SW2->SW3")
"""Two host NICs (one on each access group of cheon's parking lot) and the two trunks (slotted ports)."""


def cheon_traced(payload, interval_s, duration_s=0.1):
    """A short cheon run (symmetric case, EPD) sampling :data:`CHEON_PORTS`, connection 0's TCP traced."""
    trace = m.TraceConfig(connections=(0,), ports=CHEON_PORTS, sample_interval_s=interval_s)
    run = scenario.cheon_run("symmetric", "epd", payload, seed=1, trace=trace)
    return dataclasses.replace(run, duration_s=duration_s, warmup_s=0.0)


def assert_within_link_rate(run, ds):
    """Between two samples a port sends at most one cell per cell time of its link (+1 for a cell
    whose transmission ends right at the later instant), and it never holds a negative queue."""
    dt_ns = round(float(ds.sample_time[1] - ds.sample_time[0]) * NS)
    rates = {f"{link.a}->{link.b}": link.rate_bps for link in run.network.links}
    rates.update({f"{link.b}->{link.a}": link.rate_bps for link in run.network.links})
    for name in ds.traced_port.values:
        out = ds.departed_cells.sel(traced_port=name).values
        limit = math.ceil(dt_ns / cell_time_ns(rates[str(name)])) + 1
        step = np.diff(out)
        assert step.min() >= 0, name
        first = float(ds.sample_time[np.argmax(step) + 1])
        assert step.max() <= limit, (f"{name}: {step.max()} cells in one {dt_ns} ns sample, the link sends "
                                     f"at most {limit}; first at t = {first:.6f} s")
        assert ds.queue_cells.sel(traced_port=name).values.min() >= 0, name
        assert out[-1] > 0, f"{name} sent nothing: the run is too short to test it"


def nic_reference(ds, run, payload, sample_ns):
    """Queue and departures of S1's NIC at each sample, rebuilt from connection 0's send times:
    its IP layer hands packet j over at h_j = max(sent_j, h_(j-1) + service), its cells leave one
    cell time apart from max(h_j, the end of the cells before) (cheon 2). Returns the queue, the
    departures, and the samples not to compare: those at the instant a packet is sent (both happen at
    that time, in either order)."""
    cell_ns = cell_time_ns(m.OC3_BPS)
    service_ns = int(round(NS / run.network.ip_service_pps))
    n = scenario.cells_per_packet(payload)
    sent = ds.trace_time.values[(ds.trace_source.values == 0) & (ds.trace_kind.values == "seq_sent")]
    sent_ns = np.round(sent * NS).astype(np.int64)
    taus = np.arange(ds.sizes["sample_time"], dtype=np.int64) * sample_ns
    handover, departures = [], []
    free = busy = -(1 << 62)
    for r in sent_ns:
        h = max(int(r), free)
        free = h + service_ns
        start = max(h, busy)
        departures.extend(start + cell_ns * np.arange(1, n + 1))
        busy = start + n * cell_ns
        handover.extend([h] * n)
    departures = np.asarray(departures, np.int64)
    handover = np.asarray(handover, np.int64)
    departed = np.searchsorted(departures, taus, side="right")
    queued = np.searchsorted(handover, taus, side="right") - departed
    ambiguous = np.isin(taus, sent_ns)
    return queued, departed, ambiguous


@pytest.mark.parametrize("payload,interval_s", [(500, 1e-6), (1500, 1e-4), (1500, 1e-6)])
def test_traced_ports_never_exceed_their_link_rate_with_an_ip_service_rate(payload, interval_s):
    """Issue 23: with ``ip_service_pps`` a host's traced port reported a whole packet (or several) as
    departed within one sample, before its cells had left (36 cells in 1 us at 500 bytes, where the
    link sends one per 2.726 us); the cells themselves travelled right. Each sampled port must keep
    to its link's rate, and S1's NIC must show exactly the queue and departures its IP layer allows."""
    run = cheon_traced(payload, interval_s)
    ds = atmtcp.simulate(run)
    assert_within_link_rate(run, ds)
    sample_ns = round(interval_s * NS)
    queued, departed, ambiguous = nic_reference(ds, run, payload, sample_ns)
    nic = ds.sel(traced_port="S1->SW1")
    keep = ~ambiguous
    np.testing.assert_array_equal(nic.departed_cells.values[keep], departed[keep])
    np.testing.assert_array_equal(nic.queue_cells.values[keep], queued[keep])
    # the counters at the end are those of the port (the last sample is at or before the end)
    assert int(nic.departed_cells[-1]) <= int(ds.cells_out.sel(port="S1->SW1"))


def test_traced_ports_never_exceed_their_link_rate_without_an_ip_service_rate():
    """The same bound on a LAN without an IP service rate: lazy FIFO ports (the NICs and the
    bottleneck), where a packet's cells enter a NIC at one instant."""
    port = m.PortConfig(500, m.DropPolicy("epd"))
    run = n_source_run(3, 5e-6, port, m.TcpConfig("reno"), 0.05,
                       trace=m.TraceConfig(ports=("S1->SW1", "S2->SW1", BOTTLENECK), sample_interval_s=1e-6))
    ds = atmtcp.simulate(run)
    assert_within_link_rate(run, ds)


def test_an_ack_delay_does_not_show_acks_as_sent_before_they_are():
    """lakshman's receivers hand each ACK to their NIC a fixed delay (about 40 ms) after the data came,
    which put the NIC's traced departures that far ahead of the clock (issue 23's cause without an IP
    service rate): ACKs counted as gone from D1's NIC had not reached the next port a link delay later.
    What left the receivers' NICs by a sample has arrived at RD->AD (their ACKs' next port, which
    drops none) one link delay later: departed there or queued."""
    n = 3
    receivers = tuple(f"D{i + 1}->RD" for i in range(n))
    dt = 1e-5
    trace = m.TraceConfig(ports=receivers + ("RD->AD",), sample_interval_s=dt)
    port = lakshman.discipline_port("frame_tail", 2304)
    run = lakshman.lakshman_run((lakshman.NOMINAL_RTT_S,) * n, port, 2, 0.3, 0.1, trace=trace)
    assert all(c.tcp.ack_delay_s > 0.03 for c in run.connections)
    ds = atmtcp.simulate(run)
    assert_within_link_rate(run, ds)
    assert int(ds.cells_dropped.sel(port="RD->AD").sum()) == 0
    arrived = (ds.departed_cells.sel(traced_port="RD->AD").values
               + ds.queue_cells.sel(traced_port="RD->AD").values)
    sent = np.zeros_like(arrived)
    for i, name in enumerate(receivers):
        delay_s = next(link.delay_s for link in run.network.links
                       if {link.a, link.b} == {f"D{i + 1}", "RD"})
        k = math.ceil(delay_s / dt) + 1   # the link's delay in samples, and one for an arrival at the instant
        sent[k:] += ds.departed_cells.sel(traced_port=name).values[:-k]
    assert sent[-1] > 0
    early = sent - arrived
    at = float(ds.sample_time[np.argmax(early)])
    assert early.max() <= 0, (f"{early.max()} cells counted as sent by the receivers' NICs had not reached "
                              f"RD->AD a link delay later (t = {at:.5f} s)")
