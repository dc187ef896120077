"""Interrupt and resume (issue 7): finished grid points are kept and reused, an interrupt stops the
workers within seconds, no worker outlives its parent, and stale temporary files are removed."""
import os
import signal
import subprocess
import sys
import time

import pytest
import xarray as xr

from atmtcp.runner import point_cache_dir, point_key, run_experiment, write_atomically, write_point


def test_resumed_experiment_takes_the_points_already_done(tmp_path):
    """A point already in the cache (here with a marked value) is taken, not simulated again; the
    cache is removed once the experiment's file is written."""
    from atmtcp.experiments import EXPERIMENTS
    experiment = "goyal1998.sd_z_sweep"
    points = EXPERIMENTS[experiment].points(True)
    cache = point_cache_dir(experiment, tmp_path)
    done = EXPERIMENTS[experiment].run_point(points[0], True)
    done["efficiency"] = xr.DataArray(0.123456)
    cache.mkdir(parents=True)
    write_point(done, cache, point_key(experiment, points[0], True))
    path = run_experiment(experiment, tmp_path / f"{experiment}.nc", quick=True, jobs=1, cache_dir=tmp_path)
    ds = xr.load_dataset(path)
    first = {k: v for k, v in points[0].items()}
    assert float(ds.efficiency.sel(**first)) == 0.123456
    assert not cache.exists()


def test_stale_temporary_files_are_removed(tmp_path):
    target = tmp_path / "x.nc"
    stale = tmp_path / ".x.nc.999999999.abc.tmp"   # no such process
    alive = tmp_path / f".x.nc.{os.getpid()}.def.tmp"
    stale.write_bytes(b"")
    alive.write_bytes(b"")
    write_atomically(xr.Dataset({"a": 1}), target)
    assert target.exists() and not stale.exists() and alive.exists()


def _default_sigint():
    """Start the child as a shell would for a foreground command: pytest-xdist's workers ignore
    SIGINT, and a Python started with SIGINT ignored never installs its KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _experiment_with_two_workers(tmp_path):
    """Start `atmtcp experiment goyal1998.table1 --jobs 2` and wait until its workers run."""
    parent = subprocess.Popen(
        [sys.executable, "-m", "atmtcp.cli", "experiment", "goyal1998.table1", "--jobs", "2",
         "--output", str(tmp_path / "t1.nc")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, preexec_fn=_default_sigint,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    deadline = time.time() + 120
    while len(_children(parent.pid)) < 2 and time.time() < deadline:
        time.sleep(0.2)
    return parent, _children(parent.pid)


def _children(pid):
    psutil = pytest.importorskip("psutil")
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_stops_the_workers_at_once(tmp_path, sig):
    """SIGINT or SIGTERM to the parent alone: it exits within seconds and takes its workers with it."""
    psutil = pytest.importorskip("psutil")
    parent, workers = _experiment_with_two_workers(tmp_path)
    assert len(workers) >= 2, "the pool did not start"
    time.sleep(1.0)
    os.kill(parent.pid, sig)
    parent.wait(timeout=15)
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"workers outlived their parent: {[p.pid for p in alive]}"
    assert not (tmp_path / "t1.nc").exists()


@pytest.mark.slow
def test_workers_die_with_a_killed_parent(tmp_path):
    """SIGKILL cannot be caught: the kernel kills the workers (PR_SET_PDEATHSIG)."""
    psutil = pytest.importorskip("psutil")
    parent, workers = _experiment_with_two_workers(tmp_path)
    assert len(workers) >= 2
    time.sleep(1.0)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=10)
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive


def test_console_progress_lines(capsys):
    """`--progress S`: a short 'done/total points' line at most every S seconds and one at the end."""
    from atmtcp.runner import ConsoleProgress
    quiet = ConsoleProgress("x", 10, 0)
    for i in range(1, 11):
        quiet.update(i)
    assert capsys.readouterr().out == ""
    chatty = ConsoleProgress("goyal1998.table1", 4, 3600)
    for i in range(1, 5):
        chatty.update(i)
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == ["goyal1998.table1: 4/4 points, 0s elapsed"]
