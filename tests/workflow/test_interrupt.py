"""Long runs (issue 38, item 3): an estimate of a run that will take more than about a minute, and Ctrl-C
(or SIGTERM) stops any run within a second or two, from the command line with one line and no
traceback, and from Python."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from atmtcp import supervise
from atmtcp.kernel import layout as L

LONG_RUN = ["run", "--network", "lan", "--sources", "15", "--duration", "3600"]


def _start(code_or_argv):
    command = ([sys.executable, "-m", "atmtcp.cli", *code_or_argv] if isinstance(code_or_argv, list)
               else [sys.executable, "-c", code_or_argv])
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def _wait_for_line(process, text, timeout=60):
    """Read stderr up to the first line containing ``text``; the lines read."""
    lines, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        if text in line:
            return lines
    raise AssertionError(f"no line with {text!r}: {lines}")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_the_command_line_announces_a_long_run_and_stops_on_a_signal(sig):
    process = _start(LONG_RUN)
    [estimate] = _wait_for_line(process, "this run will take about")
    assert estimate.startswith("atmtcp: this run will take about") and "Ctrl-C stops it" in estimate
    sent = time.monotonic()
    process.send_signal(sig)
    out, err = process.communicate(timeout=10)
    assert time.monotonic() - sent < 2.5
    assert process.returncode == 128 + sig
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    name = "Ctrl-C" if sig == signal.SIGINT else "SIGTERM"
    assert err.startswith(f"atmtcp run: stopped by {name} (run stopped at ") and "of 3600 simulated s" in err


@pytest.mark.slow
def test_python_stops_on_ctrl_c():
    """A run of a million simulated seconds from Python: announced, and Ctrl-C stops it within seconds."""
    code = ("from atmtcp import simulate\n"
            "from atmtcp.default_run import scenario\n"
            "simulate(scenario('lan', 15, 1000, 'epd', 'reno', duration=1e6))\n")
    process = _start(code)
    _wait_for_line(process, "this run will take about")
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)
    assert time.monotonic() - sent < 2.5
    assert process.returncode != 0
    assert "Interrupted: run stopped at" in err, err


def test_the_estimate_of_a_long_run(monkeypatch, capsys):
    """A calibration on the run itself: after CALIBRATION_S of simulating, the rest at the same pace."""
    clock = [100.0]
    monkeypatch.setattr(supervise.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(supervise, "estimates", True)
    g = np.zeros(64, np.int64)
    g[L.G_END] = int(1000e9)
    estimate = supervise.Estimate(g)
    estimate.check()                      # compiling: nothing simulated yet
    g[L.G_EVENTS] = 10                    # simulating from t = 0
    estimate.check()
    clock[0] += 2.5
    g[L.G_NOW] = int(1e9)                 # 1 of 1000 simulated s in 2.5 s: 2500 s in all
    estimate.check()
    estimate.check()                      # said once
    err = capsys.readouterr().err
    assert err == ("atmtcp: this run will take about 42 min of wall time (1 of 1000 simulated s in the first 2 s); "
                   "Ctrl-C stops it\n")


def test_a_short_run_is_not_announced(monkeypatch, capsys):
    clock = [0.0]
    monkeypatch.setattr(supervise.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(supervise, "estimates", True)
    g = np.zeros(64, np.int64)
    g[L.G_END], g[L.G_EVENTS] = int(10e9), 1
    estimate = supervise.Estimate(g)
    estimate.check()
    clock[0], g[L.G_NOW] = 2.5, int(5e9)  # 5 s in all
    estimate.check()
    assert capsys.readouterr().err == ""


def test_no_estimate_inside_an_experiment(monkeypatch, capsys):
    monkeypatch.setattr(supervise, "estimates", True)
    with supervise.quiet():
        assert supervise.Estimate(np.zeros(64, np.int64)).done
    assert not supervise.Estimate(np.zeros(64, np.int64)).done


def test_an_interrupt_python_swallowed_is_raised_again_at_the_next_point():
    """A KeyboardInterrupt raised by the signal handler while a weakref callback runs is only printed by
    Python ("Exception ignored in ..."); the handler remembers it, and the next point raises it again (CI once
    saw a SIGTERM so swallowed let a quick experiment write its file)."""
    from atmtcp import supervise
    supervise.forget_interrupt()
    supervise.raise_if_interrupted()  # nothing requested: nothing raised
    with pytest.raises(KeyboardInterrupt):
        supervise.interrupt()
    # the raise above stands for one Python swallowed; the request is still there
    with pytest.raises(KeyboardInterrupt):
        supervise.raise_if_interrupted()
    supervise.forget_interrupt()
    supervise.raise_if_interrupted()


def test_a_swallowed_interrupt_prints_no_traceback(monkeypatch):
    """The swallowed interrupt is reported through ``sys.unraisablehook``: after :func:`supervise.interrupt` the
    hook drops a KeyboardInterrupt (no "Exception ignored" traceback on stderr) and passes anything else on."""
    import sys
    from types import SimpleNamespace
    from atmtcp import supervise
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    with pytest.raises(KeyboardInterrupt):
        supervise.interrupt()
    sys.unraisablehook(SimpleNamespace(exc_value=KeyboardInterrupt()))
    other = SimpleNamespace(exc_value=ValueError("kept"))
    sys.unraisablehook(other)
    assert seen == [other]
    supervise.forget_interrupt()
