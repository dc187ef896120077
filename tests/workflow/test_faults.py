"""The fault suite (issue 38, item 5): experiments interrupted at several points by SIGINT and SIGTERM,
two experiments writing the same file at once, a full disk. Nothing half-written is ever read as a
result, and the next run recovers, with the same result as an undisturbed run."""
from __future__ import annotations

import dataclasses
import errno
import os
import signal
import subprocess
import sys
import time

import pytest
import xarray as xr

from atmtcp import run_cache, runner
from atmtcp.experiments import EXPERIMENTS

EXPERIMENT = "lakshman.fig11"
"""Four quick points of about a tenth of a second each."""


def _start(output, cache, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "atmtcp.cli", "experiment", EXPERIMENT, "--quick", "--jobs", "1", "--output",
         str(output), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a shell starts it
        env={**os.environ, runner.CACHE_ENV: str(cache), "PYTHONPATH": os.pathsep.join(sys.path)})


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The experiment run once, undisturbed."""
    folder = tmp_path_factory.mktemp("reference")
    return xr.load_dataset(runner.run_experiment(EXPERIMENT, folder / "ref.nc", quick=True, jobs=1,
                                                 cache_dir=folder / "cache"))


def _same_results(ds, reference):
    xr.testing.assert_identical(ds.drop_attrs(), reference.drop_attrs())  # (attrs: the time it ran)


def _left_over(folder, output):
    """Files that a stopped writer of ``output`` left in its folder."""
    return [p.name for p in folder.iterdir() if p.name.startswith(f".{output.name}.")]


def _kept(cache):
    folder = cache / ".points" / EXPERIMENT
    return sorted(folder.glob(f"*{runner.POINT_SUFFIX}")) if folder.is_dir() else []


MOMENTS = {
    "before the first point": lambda cache: (cache / ".points" / EXPERIMENT).is_dir(),
    "after the first point": lambda cache: len(_kept(cache)) >= 1,
    "with one point to go": lambda cache: len(_kept(cache)) >= len(EXPERIMENTS[EXPERIMENT].points(True)) - 1,
}


INTERRUPTS = [("before the first point", signal.SIGINT), ("after the first point", signal.SIGTERM),
              ("with one point to go", signal.SIGINT), ("with one point to go", signal.SIGTERM)]


@pytest.mark.slow
@pytest.mark.parametrize("moment, sig", INTERRUPTS, ids=[f"{m}, {s.name}" for m, s in INTERRUPTS])
def test_an_interrupted_experiment_writes_nothing_and_the_next_run_recovers(moment, sig, tmp_path, reference):
    output, cache = tmp_path / "out" / "x.nc", tmp_path / "cache"
    process = _start(output, cache)
    deadline = time.monotonic() + 60
    while not MOMENTS[moment](cache) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "finished before the interrupt"
    sent = time.monotonic()
    process.send_signal(sig)
    _, err = process.communicate(timeout=15)
    assert time.monotonic() - sent < 5
    assert process.returncode == 128 + sig, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"atmtcp experiment: stopped by {'Ctrl-C' if sig == signal.SIGINT else 'SIGTERM'}"), err
    assert "no result file was written" in last and "resumes" in last
    assert not output.exists() and not _left_over(output.parent, output)
    again = _start(output, cache)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    _same_results(xr.load_dataset(output), reference)


@pytest.mark.slow
def test_two_experiments_writing_the_same_file_at_once(tmp_path, reference):
    output, cache = tmp_path / "x.nc", tmp_path / "cache"
    first, second = _start(output, cache), _start(output, cache)
    for process in (first, second):
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    _same_results(xr.load_dataset(output), reference)
    assert not _left_over(tmp_path, output) and not _kept(cache)


def _full_disk_for(match):
    """``Dataset.to_netcdf`` that raises ENOSPC, after writing half a file, for paths containing ``match``."""
    real = xr.Dataset.to_netcdf

    def to_netcdf(self, path=None, *args, **kwargs):
        if path is not None and match in os.path.basename(str(path)):
            with open(path, "wb") as f:
                f.write(b"\x89HDF\r\n\x1a\n half a file")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, path, *args, **kwargs)
    return to_netcdf


def _full_disk_in(folder, real):
    """``os.fdopen`` that raises ENOSPC, after writing half a file, for files in a folder named ``folder``
    (a kept point's temporary file, :func:`atmtcp.run_cache.write_bytes_atomically`)."""
    def fdopen(fd, *args, **kwargs):
        if folder in os.readlink(f"/proc/self/fd/{fd}"):
            os.write(fd, b"half a point")
            os.close(fd)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, *args, **kwargs)
    return fdopen


def test_a_full_disk_when_the_result_is_written(tmp_path, monkeypatch, reference):
    """The points are kept; the result's half-written temporary file is removed; the next run takes the
    kept points (it simulates nothing) and writes the whole result."""
    output, cache = tmp_path / "x.nc", tmp_path / "cache"
    with monkeypatch.context() as patch:
        patch.setattr(xr.Dataset, "to_netcdf", _full_disk_for(f".{output.name}."))
        with pytest.raises(OSError, match="No space left"):
            runner.run_experiment(EXPERIMENT, output, quick=True, jobs=1, cache_dir=cache)
    assert not output.exists() and not _left_over(tmp_path, output)
    assert len(_kept(cache)) == len(EXPERIMENTS[EXPERIMENT].points(True))

    def simulate_nothing(point, quick):
        raise AssertionError("a kept point was simulated again")
    monkeypatch.setitem(runner.EXPERIMENTS, EXPERIMENT,
                        dataclasses.replace(EXPERIMENTS[EXPERIMENT], run_point=simulate_nothing))
    runner.run_experiment(EXPERIMENT, output, quick=True, jobs=1, cache_dir=cache)
    _same_results(xr.load_dataset(output), reference)


def test_a_full_disk_when_a_point_is_kept(tmp_path, monkeypatch, reference):
    """A point that cannot be kept stops the experiment; no half point is left to be read; the next run
    simulates it again."""
    output, cache = tmp_path / "x.nc", tmp_path / "cache"
    with monkeypatch.context() as patch:
        patch.setattr(run_cache.os, "fdopen", _full_disk_in(".points", run_cache.os.fdopen))
        with pytest.raises(OSError, match="No space left"):
            runner.run_experiment(EXPERIMENT, output, quick=True, jobs=1, cache_dir=cache)
    assert not output.exists() and not _kept(cache)
    assert not [p for p in (cache / ".points" / EXPERIMENT).iterdir()]  # no temporary file either
    runner.run_experiment(EXPERIMENT, output, quick=True, jobs=1, cache_dir=cache)
    _same_results(xr.load_dataset(output), reference)
