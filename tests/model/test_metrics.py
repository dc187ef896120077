"""Metrics that cannot lie (issue 7): efficiency is measured on the link the connections share,
with each connection's own framing, and can never exceed 1; threshold policies on an infinite
buffer are refused instead of silently dropping everything."""
import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atmtcp
from atmtcp import model as m
from atmtcp.cli import main
from atmtcp.compile import compile_run
from atmtcp.metrics import capacity_bps, efficiency, framing, max_tcp_throughput_bps
from atmtcp.topologies import N_SOURCE_BOTTLENECK as BOTTLENECK, n_source_network


def test_efficiency_is_goyal_for_equal_framing():
    """goyal1998 3.2: 512 / 636 x 155.52 Mbit/s = 125.2 Mbit/s, E = sum(x_i) / C."""
    f = framing(512, 56)
    assert f == pytest.approx(512 / 636)
    x = np.array([30e6, 40e6])
    assert efficiency(x, [f, f], m.OC3_BPS) == pytest.approx(x.sum() / max_tcp_throughput_bps(m.OC3_BPS, 512, 56))
    assert capacity_bps(x, [f, f], m.OC3_BPS) == pytest.approx(max_tcp_throughput_bps(m.OC3_BPS, 512, 56))


def test_mixed_framing_weights_each_connection():
    """A 9180-byte connection needs fewer link bits per goodput bit than a 512-byte one."""
    f_small, f_large = framing(512, 56), framing(9180, 56)
    assert efficiency([10e6, 10e6], [f_small, f_large], 100e6) == pytest.approx(0.1 / f_small + 0.1 / f_large)


def test_bottleneck_is_the_shared_port_not_a_slow_access_link():
    """One slow access link: capacity is the shared SW1->SW2 port's, not the slowest link's."""
    network = n_source_network(3, 5e-6, m.PortConfig(1000, m.DropPolicy("tail")))
    links = tuple(dataclasses.replace(l, rate_bps=10e6) if l.a == "S1" else l for l in network.links)
    run = m.Run(dataclasses.replace(network, links=links),
                tuple(m.Connection(f"S{i + 1}", f"D{i + 1}") for i in range(3)), 0.5)
    compiled = compile_run(run)
    assert compiled.bottleneck == BOTTLENECK
    ds = atmtcp.simulate(run)
    assert ds.attrs["bottleneck"] == BOTTLENECK
    assert 0 < float(ds.efficiency) <= 1.0


@pytest.mark.parametrize("policy", m.POLICIES)
def test_every_policy_with_an_infinite_buffer(policy):
    """Tail drop and PPD run on an infinite buffer; EPD and Selective Drop need an explicit threshold
    (their default is derived from the buffer size); FBA's and RED's rules need the buffer size and
    are refused."""
    if policy in ("tail", "ppd"):
        run = m.Run(n_source_network(2, 5e-6, m.PortConfig(None, m.DropPolicy(policy))),
                    (m.Connection("S1", "D1"), m.Connection("S2", "D2")), 0.2)
        ds = atmtcp.simulate(run)
        assert int(ds.cells_dropped.sum()) == 0 and float(ds.efficiency) > 0.5
        return
    with pytest.raises(m.ModelError) as error:
        m.PortConfig(None, m.DropPolicy(policy))
    assert error.value.field == ("PortConfig.policy" if policy in ("fba", "red") else "DropPolicy.threshold")
    if policy not in ("fba", "red"):
        espd = {"threshold2": 2500} if policy == "espd" else {}  # "half of buffer size" needs a size too
        port = m.PortConfig(None, m.DropPolicy(policy, threshold=5000, **espd))
        run = m.Run(n_source_network(2, 5e-6, port), (m.Connection("S1", "D1"), m.Connection("S2", "D2")), 0.2)
        assert float(atmtcp.simulate(run).efficiency) > 0.5


def test_cli_infinite_buffer_defaults_to_tail_drop(capsys):
    """The README example `atmtcp run --buffer inf` (no --policy) runs plain tail drop, not EPD with
    threshold 0; an explicit --policy epd with an infinite buffer is refused with one line, exit 2."""
    assert main(["run", "--network", "lan", "--sources", "3", "--buffer", "inf", "--tcp", "vanilla",
                 "--duration", "0.3"]) == 0
    out = capsys.readouterr().out
    assert ", tail," in out
    efficiency_line = next(line for line in out.splitlines() if line.startswith("efficiency"))
    assert float(efficiency_line.split()[1]) > 0.5
    assert main(["run", "--buffer", "inf", "--policy", "epd", "--duration", "0.1"]) == 2
    err = capsys.readouterr().err
    assert "DropPolicy.threshold" in err and "infinite buffer" in err and "Traceback" not in err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 4),
    access_mbps=st.lists(st.sampled_from([1.5, 10.0, 44.7, 100.0, 155.52, 622.08]), min_size=4, max_size=4),
    trunk_mbps=st.sampled_from([10.0, 44.7, 155.52]),
    mss=st.lists(st.sampled_from([100, 512, 1460, 4352, 9180]), min_size=4, max_size=4),
    policy=st.sampled_from(["tail", "ppd", "epd", "selective_drop", "fba"]),
    buffer=st.sampled_from([300, 1000, 5000]),
    seed=st.integers(0, 3),
)
def test_efficiency_never_exceeds_one(n, access_mbps, trunk_mbps, mss, policy, buffer, seed):
    """Property over generated networks: unequal access and trunk rates, mixed MSS, any policy."""
    port = m.PortConfig(buffer, m.DropPolicy(policy, threshold=buffer // 2 if policy in m.policies_with("threshold")
                                             else None))
    network = n_source_network(n, 2e-4, port, rate_bps=trunk_mbps * 1e6)
    links = tuple(dataclasses.replace(l, rate_bps=access_mbps[int(l.a[1:]) - 1] * 1e6) if l.b == "SW1" else l
                  for l in network.links)
    connections = tuple(m.Connection(f"S{i + 1}", f"D{i + 1}", m.TcpConfig("reno", mss=mss[i], rcv_wnd=65535))
                        for i in range(n))
    run = m.Run(dataclasses.replace(network, links=links), connections, 0.3, seed=seed)
    ds = atmtcp.simulate(run)
    assert 0.0 <= float(ds.efficiency) <= 1.0
    assert float(ds.goodput_bps.sum()) <= float(ds.capacity_bps) * (1 + 1e-9)
