"""Caches that check themselves (issue 38, item 4): the ahead-of-time module, the run cache, the grid-point
cache and numba's cache. A damaged file is reported in one line naming it, removed, and rebuilt or
simulated again; nothing damaged is ever read as a result."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import xarray as xr

from atmtcp import model as m
from atmtcp import run_cache
from atmtcp.compile import compile_run
from atmtcp.kernel import aot, entry, sources
from atmtcp.runner import find_point, write_point
from atmtcp.simulate import KernelCacheError, call_with_cache_check, simulate
from atmtcp.topologies import n_source_run


def _run(seed: int = 3) -> m.Run:
    return n_source_run(3, 5e-6, m.PortConfig(300, m.DropPolicy("epd")), m.TcpConfig("reno"), 0.02, seed=seed,
                        start_jitter_s=1e-3)


def _truncate(path, keep=None):
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2 if keep is None else keep])


def _flip(path, at):
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGE = {"truncated": lambda p: _truncate(p), "8 bytes": lambda p: p.write_bytes(b"\x7fELF\x02\x01\x01\x00"),
          "one byte changed": lambda p: _flip(p, 100),
          "empty": lambda p: p.write_bytes(b"")}


# --- the ahead-of-time module -----------------------------------------------------------------------
@pytest.fixture
def aot_copy(tmp_path, monkeypatch):
    """A copy of the built module where entry and aot look for it (no module: skipped, as CI builds one)."""
    if not sources.AOT_PATH.exists():
        pytest.skip("no ahead-of-time module (make warm)")
    copy = tmp_path / sources.AOT_PATH.name
    shutil.copyfile(sources.AOT_PATH, copy)
    monkeypatch.setattr(entry, "AOT_PATH", copy)
    monkeypatch.setattr(aot, "AOT_PATH", copy)
    monkeypatch.setattr(entry, "prebuilt_path", lambda: tmp_path / "no-prebuilt.so")  # (a wheel's, after make wheel)
    return copy


def test_a_whole_module_loads(aot_copy, capsys):
    assert sources.seal_problem(aot_copy) is None
    assert entry.load_aot() is not None and aot_copy.exists()
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_module_is_reported_removed_and_the_jit_used(damage, aot_copy, capsys):
    DAMAGE[damage](aot_copy)
    assert entry.load_aot() is None  # (loading a truncated module would kill the process: SIGBUS)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(aot_copy) in err and "is damaged" in err and "atmtcp warm" in err, err
    assert not aot_copy.exists()


class _Built(Exception):
    pass


def _no_build(*args, **kwargs):
    raise _Built


@pytest.mark.parametrize("damage", ["truncated", "8 bytes"])
def test_warm_rebuilds_a_damaged_module_and_skips_a_whole_one(damage, aot_copy, monkeypatch):
    import numba.pycc
    monkeypatch.setattr(numba.pycc, "CC", _no_build)
    assert aot.build() == aot_copy  # whole: skipped
    DAMAGE[damage](aot_copy)
    with pytest.raises(_Built):
        aot.build()  # damaged: built again


def test_seal_round_trip(tmp_path):
    path = tmp_path / "x.so"
    path.write_bytes(b"some machine code")
    sources.seal(path)
    assert sources.seal_problem(path) is None
    _truncate(path, keep=len(path.read_bytes()) - 1)
    assert "damaged" in sources.seal_problem(path)


# --- the run cache ------------------------------------------------------------------------------------
@pytest.fixture
def runs(tmp_path):
    run_cache.use(tmp_path / ".runs")
    yield tmp_path / ".runs"
    run_cache.use(None)


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_run_is_reported_removed_and_simulated_again(damage, runs, capsys):
    fresh = simulate(_run())
    [path] = runs.rglob("*.pkl.z")
    DAMAGE[damage](path)
    capsys.readouterr()
    again = simulate(_run())
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "damaged" in err, err
    xr.testing.assert_identical(again, fresh)
    assert run_cache.load(path) is not None  # stored again, whole


def test_a_full_disk_leaves_no_run_file_and_the_run_goes_on(runs, monkeypatch, capsys):
    def full(fd, *args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(run_cache.os, "fdopen", full)
    ds = simulate(_run())
    assert "No space left on device" in capsys.readouterr().err
    assert not [p for p in runs.rglob("*") if p.is_file()]  # neither the file nor its temporary
    assert float(ds.efficiency) > 0


# --- the grid-point cache -----------------------------------------------------------------------------
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_point_is_reported_removed_and_not_read(damage, tmp_path, capsys):
    ds = xr.Dataset({"efficiency": 0.5, "goodput": ("source", [1.0, 2.0])})
    path = write_point(ds, tmp_path, "abc")
    xr.testing.assert_identical(find_point(tmp_path, "abc"), run_cache.dataset_from_bytes(path.read_bytes()))
    DAMAGE[damage](path)
    assert find_point(tmp_path, "abc") is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "damaged" in err
    assert not path.exists()


# --- numba's cache ------------------------------------------------------------------------------------
def test_an_error_from_numbas_cache_says_what_to_run():
    """The error as numba raises it, from its caching module (a frame of that file on the stack)."""
    import pickle
    where = os.path.join(os.path.dirname(pickle.__file__), "site-packages", "numba", "core", "caching.py")
    code = compile("raise pickle.UnpicklingError('invalid load key')", where, "exec")

    def entry_reading_a_damaged_cache(state):
        exec(code, {"pickle": pickle})
    compiled = compile_run(_run())
    with pytest.raises(KernelCacheError, match=r"numba's cache of the kernel .* is damaged .*atmtcp warm"):
        call_with_cache_check(entry_reading_a_damaged_cache, compiled, None)
    with pytest.raises(ZeroDivisionError):  # any other error is left alone
        call_with_cache_check(lambda state: 1 / 0, compiled, None)


@pytest.mark.slow
def test_a_damaged_numba_cache_is_named_with_what_to_run(tmp_path):
    """The real thing, in a process of its own that uses the JIT with a copy of numba's cache whose
    index of the kernel's entry point is overwritten: one line, naming the folder and `atmtcp warm`."""
    if not any(sources.CACHE_DIR.rglob("engine.run_until_end-*.nbi")):
        pytest.skip("numba's cache of the kernel is not built (make warm)")
    copy = tmp_path / sources.CACHE_DIR.name
    shutil.copytree(sources.CACHE_DIR, copy)
    for index in copy.rglob("engine.run_until_end-*.nbi"):
        index.write_bytes(b"\x00 not a pickle")
    code = ("import sys, pathlib, atmtcp.kernel.sources as s\n"
            "simulate = sys.modules['atmtcp.simulate']\n"
            f"s.CACHE_DIR = simulate.CACHE_DIR = pathlib.Path({str(copy)!r})  # (before the JIT is imported)\n"
            "from atmtcp.cli import main\n"
            "sys.exit(main(['run', '--duration', '0.001']))\n")
    env = {**os.environ, "ATMTCP_NO_AOT": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert str(copy) in done.stderr and "atmtcp warm" in done.stderr


# --- numba's cache follows the checkout ---------------------------------------------------------------
def test_the_jit_cache_is_named_within_the_package_not_by_its_absolute_path():
    """numba would name the subfolder by a hash of the kernel folder's absolute path, so a moved or copied
    checkout would compile again (minutes); atmtcp's locator names it ``kernel``."""
    from atmtcp.kernel import jit
    from atmtcp.kernel.engine import run_until_end
    assert run_until_end._cache.cache_path == str(sources.CACHE_DIR / "kernel")

    def elsewhere():
        pass
    assert jit._CheckoutCacheLocator.from_function(elsewhere, __file__) is None  # not ours: numba's locators
