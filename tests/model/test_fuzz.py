"""A property-based fuzz of the command line and of the model's builders (issue 38, item 6): any input
either runs, and the run's results satisfy the invariants, or is refused with one line that names a
parameter. Few examples and short runs, to stay fast."""
from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from atmtcp import model as m
from atmtcp.cli import main
from atmtcp.default_run import scenario
from atmtcp.simulate import counters, run_kernel

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

NUMBERS = st.one_of(st.integers(-5, 5000), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(["inf", "nan", "1e400", "-0", "0x10", "", " ", "lots", "1_000"]))
FLAGS = {
    "--network": st.one_of(st.sampled_from(["lan", "wan", "satellite"]), st.text(max_size=6)),
    "--sources": st.one_of(st.integers(-2, 12), NUMBERS),
    "--buffer": st.one_of(st.integers(-2, 3000), st.sampled_from(["inf", "150", "201"]), NUMBERS),
    "--policy": st.one_of(st.sampled_from(m.POLICIES), st.text(max_size=6)),
    "--tcp": st.one_of(st.sampled_from(m.FLAVORS), st.text(max_size=6)),
    "--seed": st.one_of(st.integers(-3, 2**64), NUMBERS),
    "--jitter": st.one_of(st.floats(0, 0.004), NUMBERS),
    "--z": st.one_of(st.floats(0, 2), NUMBERS),
    "--threshold": st.one_of(st.integers(-2, 3000), NUMBERS),
    "--contention": st.one_of(st.sampled_from(["slotted", "deterministic", "sonet"]), st.text(max_size=6)),
}


def _check_invariants(result, sources):
    efficiency, fairness = float(result["efficiency"]), float(result["fairness"])
    assert 0 <= efficiency <= 1.0 + 1e-9
    assert math.isnan(fairness) or 1 / sources - 1e-9 <= fairness <= 1 + 1e-9
    assert (result["goodput_bps"] >= 0).all() and (result["cells_out"] <= result["cells_in"]).all()
    assert (result["retransmissions"] >= 0).all()


@FUZZ
@given(flags=st.dictionaries(st.sampled_from(sorted(FLAGS)), st.none(), max_size=6).flatmap(
    lambda chosen: st.fixed_dictionaries({flag: FLAGS[flag] for flag in chosen})))
def test_the_command_line_runs_or_refuses_in_one_line(flags, capsys):
    argv = ["run", "--duration", "0.005"]
    for flag, value in flags.items():
        argv += [flag, str(value)]
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse
        code = exit_.code
    out, err = capsys.readouterr()
    if code == 0:
        assert "efficiency" in out and err == ""
        return
    assert code == 2, (argv, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("atmtcp") and "--" in err, (argv, err)
    assert "Traceback" not in err


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3000), st.floats(allow_nan=True, allow_infinity=True),
                   st.text(max_size=3))


def _mostly(valid, invalid=VALUES):
    """Mostly a value of the allowed domain (hypothesis favours small draws), so that many examples run."""
    return st.integers(0, 9).flatmap(lambda draw: invalid if draw == 9 else valid)


@FUZZ
@given(network=_mostly(st.sampled_from(["lan", "wan", "satellite"]), st.text(max_size=5)),
       sources=_mostly(st.integers(1, 8)), buffer=_mostly(st.integers(150, 3000), st.one_of(st.none(), VALUES)),
       policy=_mostly(st.sampled_from(m.POLICIES), st.text(max_size=5)),
       tcp=_mostly(st.sampled_from(m.FLAVORS), st.text(max_size=5)), seed=_mostly(st.integers(0, 2**63 - 1)),
       jitter=_mostly(st.floats(0, 0.003)), z=_mostly(st.none(), st.one_of(st.floats(0.01, 2), VALUES)),
       threshold=_mostly(st.none(), st.one_of(st.integers(0, 3000), VALUES)),
       contention=_mostly(st.sampled_from([None, "slotted", "deterministic", "sonet", "cdv"]), st.text(max_size=5)))
def test_the_builders_run_or_raise_a_model_error(network, sources, buffer, policy, tcp, seed, jitter, z, threshold,
                                                 contention):
    try:
        run = scenario(network, sources, buffer, policy, tcp, 0.003, seed, jitter, z, threshold, contention)
    except m.ModelError as error:
        owner, _, parameter = error.field.partition(".")
        assert owner and parameter and parameter in str(error)
        assert "\n" not in str(error)
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "no data delivered", RuntimeWarning)
        result = {name: c.values for name, c in counters(run, run_kernel(run)).items()}
    _check_invariants(result, len(run.connections))


@pytest.mark.parametrize("value", [True, 5.0, "5", None])
def test_a_wrong_type_of_sources_is_a_model_error(value):
    with pytest.raises(m.ModelError, match="n_source_network.n"):
        scenario("lan", value, 1000, "epd", "reno", 0.001)
