"""The Python API checks what the command line checks, in one place (issue 38, item 2): an unknown name
or a bad value raises ModelError naming the parameter and what is allowed; EPD's threshold is never
clamped."""
from __future__ import annotations

import pytest

from atmtcp import model as m
from atmtcp.cli import main
from atmtcp.default_run import scenario


@pytest.mark.parametrize("args, field, allowed", [
    (("mars", 5, 1000, "epd", "reno"), "scenario.network", "'lan'"),
    (("lan", 5, 1000, "wred", "reno"), "DropPolicy.kind", "'selective_drop'"),
    (("lan", 5, 1000, "epd", "cubic"), "TcpConfig.flavor", "'newreno'"),
    (("lan", 0, 1000, "epd", "reno"), "n_source_network.n", ">= 1"),
])
def test_an_unknown_name_is_a_model_error_naming_the_parameter(args, field, allowed):
    with pytest.raises(m.ModelError) as refused:
        scenario(*args)
    assert refused.value.field == field and allowed in str(refused.value)


def test_an_unknown_contention_names_it():
    with pytest.raises(m.ModelError, match="contention.*'slotted'"):
        scenario("lan", 5, 1000, "epd", "reno", contention="quantum")


@pytest.mark.parametrize("buffer", [1, 100, 200])
def test_epd_default_threshold_is_refused_for_a_small_buffer_not_clamped(buffer):
    with pytest.raises(m.ModelError) as refused:
        m.PortConfig(buffer, m.DropPolicy("epd"))
    assert refused.value.field == "DropPolicy.threshold" and "200 cells" in str(refused.value)
    with pytest.raises(m.ModelError):
        scenario("lan", 5, buffer, "epd", "reno")
    assert m.PortConfig(buffer, m.DropPolicy("epd", threshold=buffer // 2 or 1)).policy.threshold >= 1


def test_epd_default_threshold_above_200_cells():
    port = m.PortConfig(201, m.DropPolicy("epd"))
    assert port.policy.resolved_threshold(201) == 1


def test_z_for_a_policy_without_it_is_refused_from_python_too():
    with pytest.raises(m.ModelError, match="z"):
        scenario("lan", 5, 1000, "epd", "reno", z=0.5)
    assert scenario("lan", 5, 1000, "selective_drop", "reno").network  # the default Z


def test_the_command_line_says_the_same(capsys):
    assert main(["run", "--buffer", "150", "--policy", "epd", "--duration", "0.01"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atmtcp: --threshold: DropPolicy.threshold") and "200 cells" in err
