"""The ahead-of-time kernel (:mod:`atmtcp.kernel.aot`) against numba's JIT: the same tables,
array for array, on every golden run; and a process that runs with it imports no numba."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from atmtcp.kernel import entry
from atmtcp.kernel.aot import build
from atmtcp.simulate import run_kernel
from test_golden import SCENARIOS


@pytest.fixture(scope="module")
def aot_runner():
    """The ahead-of-time module (built here if ``make warm`` has not: seconds with numba's cache)."""
    build()
    return entry.aot_runner(entry.load_aot())


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_aot_gives_the_jit_tables(name, aot_runner):
    run = SCENARIOS[name]()
    expected = run_kernel(run, entry=entry.jit_runner()).state
    got = run_kernel(run, entry=aot_runner).state
    differ = [table for table, a, b in zip(expected._fields, expected, got) if not np.array_equal(a, b)]
    assert not differ, f"{name}: tables differ between the ahead-of-time and the JIT kernel: {differ}"


def _run_process(env_extra: dict) -> dict:
    """``atmtcp run`` (LAN, 5 sources, 10 ms) in a fresh interpreter: its output's efficiency line and
    the numba and llvmlite modules it imported."""
    code = ("import io, contextlib, json, sys\n"
            "from atmtcp.cli import main\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out): main(['run', '--duration', '0.01'])\n"
            "line = [l for l in out.getvalue().splitlines() if l.startswith('efficiency')][0]\n"
            "print(json.dumps({'line': line, 'modules': sorted(m for m in sys.modules\n"
            "                  if m.split('.')[0] in ('numba', 'llvmlite'))}))\n")
    env = {k: v for k, v in os.environ.items() if k not in ("ATMTCP_NO_AOT", "ATMTCP_NO_CACHE")}
    env.update(env_extra)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_run_with_the_aot_module_imports_no_numba(aot_runner):
    aot = _run_process({})
    assert aot["modules"] == [], aot["modules"]
    jit = _run_process({"ATMTCP_NO_AOT": "1"})
    assert "numba" in jit["modules"]
    assert aot["line"] == jit["line"]


def test_entry_falls_back_to_the_jit_without_the_module(monkeypatch, tmp_path):
    monkeypatch.setattr(entry, "AOT_PATH", tmp_path / "absent.so")
    monkeypatch.setattr(entry, "prebuilt_path", lambda: tmp_path / "no-prebuilt.so")
    monkeypatch.setattr(entry, "_chosen", None)
    assert entry.kernel_entry() is entry.jit_runner() and entry.entry_kind() == "jit"


def test_warm_reports_a_failed_build_and_keeps_the_jit(monkeypatch):
    """Without a C compiler (here: a build that raises) `atmtcp warm` says why, and does not fail."""
    from atmtcp.kernel import aot
    from atmtcp.simulate import build_kernel

    def no_compiler(force=False):
        raise OSError("gcc: not found")
    monkeypatch.setattr(aot, "build", no_compiler)
    message = build_kernel()
    assert "was not built" in message and "gcc: not found" in message
