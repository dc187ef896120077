"""Every bad input: one line naming the flag (or field), the value and the allowed range, exit 2, no
traceback (issue 7)."""
import re

import numpy as np
import pytest

import atmtcp
from atmtcp import model as m
from atmtcp.cli import build_parser, main

BAD_RUNS = [
    (["run", "--jitter", "nan"], "--jitter"),
    (["run", "--jitter", "1e300"], "--jitter"),
    (["run", "--jitter", "1e9"], "--jitter"),
    (["run", "--duration", "1e12"], "--duration"),
    (["run", "--duration", "1e9"], "--duration"),
    (["run", "--duration", "0"], "--duration"),
    (["run", "--duration", "-1"], "--duration"),
    (["run", "--buffer", "100000000000000000000"], "--buffer"),
    (["run", "--buffer", "0"], "--buffer"),
    (["run", "--buffer", "lots"], "--buffer"),
    (["run", "--sources", "1000000", "--duration", "0.001"], "--sources"),
    (["run", "--sources", "0"], "--sources"),
    (["run", "--seed", "-1"], "--seed"),
    (["run", "--z", "-0.5"], "--z"),
    (["run", "--threshold", "-3"], "--threshold"),
    (["run", "--threshold", "5000", "--buffer", "1000", "--duration", "0.01"], "--threshold"),
    (["run", "--policy", "wred"], "--policy"),
    (["run", "--tcp", "cubic"], "--tcp"),
    (["run", "--buffer", "inf", "--policy", "fba", "--duration", "0.01"], "--policy"),
    (["experiment", "unknown.id"], "unknown.id"),
    (["experiment", "goyal1998.fig2", "--output", "/proc/nope/x.nc"], "--output"),
    (["experiment", "goyal1998.fig2", "--jobs", "0"], "--jobs"),
    (["bench", "--repeat", "0"], "--repeat"),
    (["bench", "--history", "/proc/nope/history.jsonl"], "--history"),  # refused before the sitting
    # a flag that does not apply to the chosen policy, buffer or mode is refused, not ignored (issue 26)
    (["run", "--policy", "tail", "--threshold", "500"], "--threshold"),
    (["run", "--policy", "epd", "--z", "0.5"], "--z"),
    (["run", "--policy", "ppd", "--z", "0.5"], "--z"),
    (["run", "--buffer", "10", "--policy", "epd"], "--threshold"),  # EPD's default needs > 200 cells (issue 38)
    # ESPD's threshold 2 (half the buffer, not a flag) must stay below --threshold (found by test_fuzz)
    (["run", "--policy", "espd", "--threshold", "0", "--contention", "slotted"], "--threshold"),
    (["bench", "--contention", "slotted"], "--contention"),
    (["bench", "--kernel", "jit"], "--kernel"),
]


@pytest.mark.parametrize("argv, flag", BAD_RUNS, ids=[" ".join(a) for a, _ in BAD_RUNS])
def test_bad_input_is_one_line_naming_the_flag(argv, flag, capsys):
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert flag in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("atmtcp"), err


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and f"atmtcp {atmtcp.__version__}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    for flag in ("--network", "--sources", "--policy", "--tcp", "--seed", "--contention"):
        assert len(flag_help(text, flag)) > 20, f"{flag} has no help"


@pytest.mark.parametrize("flag, default", [("--network", "lan"), ("--sources", "5"), ("--buffer", "1000"),
                                           ("--seed", "0"), ("--tcp", "reno")])
def test_run_help_shows_the_defaults(capsys, flag, default):
    """``atmtcp run --help`` gives each flag's default, and it is the parser's own (issue 40)."""
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    parsed = build_parser().parse_args(["run"])
    assert str(getattr(parsed, flag.lstrip("-"))) == default
    assert re.search(rf"[(;] ?default: {default}\)", flag_help(capsys.readouterr().out, flag))


def test_experiment_help_explains_the_id(capsys):
    with pytest.raises(SystemExit):
        main(["experiment", "--help"])
    assert "atmtcp list" in capsys.readouterr().out.split("positional arguments:")[1].split("options:")[0]


def flag_help(text: str, flag: str) -> str:
    """The help text of ``flag`` in argparse's ``--help`` output, on one line."""
    body = text.split(f"\n  {flag} ", 1)[1].split("\n  -", 1)[0]
    return " ".join(body.split())


def test_python_dash_m_atmtcp_is_the_command_line():
    """``python -m atmtcp`` runs the same command line as the ``atmtcp`` script (issue 40)."""
    import subprocess
    import sys
    version = subprocess.run([sys.executable, "-m", "atmtcp", "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.strip() == f"atmtcp {atmtcp.__version__}"
    bad = subprocess.run([sys.executable, "-m", "atmtcp", "run", "--sources", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--sources" in bad.stderr


@pytest.mark.parametrize("build, field", [
    (lambda: m.TcpConfig(granularity_s=1e-12), "TcpConfig.granularity_s"),
    (lambda: m.PortConfig(1000, "epd"), "PortConfig.policy"),
    (lambda: m.Connection("S1", "D1", tcp="reno"), "Connection.tcp"),
    (lambda: m.Connection("S1", "D1", lost_segments=5), "Connection.lost_segments"),
    (lambda: m.PortConfig(10**9), "PortConfig.buffer_cells"),
    (lambda: m.TraceConfig(max_records=10**11), "TraceConfig.max_records"),
    (lambda: m.Link("a", "b", delay_s=1e10), "Link.delay_s"),
    (lambda: m.Connection("S1", "D1", start_s=1e10), "Connection.start_s"),
    (lambda: m.Run(m.Network(("S1", "D1"), ("SW",), (m.Link("S1", "SW"), m.Link("SW", "D1"))),
                   (m.Connection("S1", "D1"),), 1e10), "Run.duration_s"),
    (lambda: m.Run(m.Network(("S1", "D1"), ("SW",), (m.Link("S1", "SW"), m.Link("SW", "D1"))),
                   (m.Connection("S1", "D1"),), 10.0,
                   trace=m.TraceConfig(ports=("SW->D1",), sample_interval_s=1e-9)), "TraceConfig.sample_interval_s"),
])
def test_python_api_bad_values_raise_model_error(build, field):
    with pytest.raises(m.ModelError) as error:
        build()
    assert error.value.field == field


def test_start_jitter_must_be_finite():
    from atmtcp.topologies import start_times
    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(m.ModelError):
            start_times(3, bad, 0)


def test_a_run_too_large_for_the_machine_is_refused_before_it_starts(monkeypatch):
    """The kernel's arrays are sized before they are allocated; a run that would not fit is refused
    with its estimate (here the machine is made to look 10**6 times smaller)."""
    import atmtcp
    import atmtcp.compile.core
    from atmtcp.topologies import n_source_run
    monkeypatch.setattr(atmtcp.compile.core, "MEMORY_FRACTION", 1e-6)
    with pytest.raises(m.ModelError) as error:
        atmtcp.simulate(n_source_run(5, 5e-6, m.PortConfig(1000), m.TcpConfig(), 0.1, contention="deterministic"))
    assert error.value.field == "Run.size" and "GiB" in str(error.value)


def test_a_full_trace_warns():
    import atmtcp
    from atmtcp.topologies import n_source_run
    run = n_source_run(2, 5e-6, m.PortConfig(1000), m.TcpConfig(), 0.5,
                       trace=m.TraceConfig(connections=(0,), max_records=50), contention="deterministic")
    with pytest.warns(UserWarning, match="trace filled its 50 records"):
        ds = atmtcp.simulate(run)
    assert ds.attrs["trace_truncated"] == 1


def test_simulate_gives_no_fairness_for_a_run_that_delivers_nothing():
    """From Python too: a run that delivers nothing has fairness NaN, with a warning (issue 26)."""
    import atmtcp
    from atmtcp.topologies import n_source_run
    with pytest.warns(RuntimeWarning, match="no data delivered"):
        ds = atmtcp.simulate(n_source_run(2, 5e-6, m.PortConfig(1000), m.TcpConfig(), 1e-6, contention="deterministic"))
    assert float(ds.goodput_bps.sum()) == 0 and np.isnan(float(ds.fairness))


def test_a_run_that_delivers_nothing_says_so_instead_of_a_fairness(capsys):
    """Jain's index of all-zero goodputs is no statement about fairness (issue 26): the CLI says that
    nothing was delivered rather than printing 'fairness 1.000'."""
    assert main(["run", "--duration", "1e-6"]) == 0
    out = capsys.readouterr().out
    assert "no data delivered, so fairness is undefined" in out and "fairness 1.000" not in out
    assert main(["run", "--duration", "0.05"]) == 0   # data delivered: the index is printed
    out = capsys.readouterr().out
    assert re.search(r"fairness \d\.\d{3}$", out, re.M) and "no data delivered" not in out


@pytest.mark.parametrize("policy", ["selective_drop", "fba"])
def test_z_is_taken_by_both_policies_whose_rule_reads_it(policy):
    """goyal1998 4.2: Selective Drop drops when the load ratio exceeds Z, FBA when it exceeds
    Z(K-R)/(X-R); `--z` reaches the port of both."""
    from atmtcp.cli import build_parser
    from atmtcp.default_run import scenario
    args = build_parser().parse_args(["run", "--policy", policy, "--z", "0.5"])
    from atmtcp.cli import _inapplicable_run_flag
    assert _inapplicable_run_flag(args) is None
    run = scenario("lan", 5, 1000, policy, "reno", duration=0.1, z=0.5)
    assert run.network.switch_port.policy.z == 0.5
