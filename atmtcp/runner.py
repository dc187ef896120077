"""Run an experiment's grid in parallel processes into one netCDF file.

Each grid point is independent; points run in a process pool with a progress bar. The
pool forks where the platform can (Linux): workers then work from notebooks and scripts
without a ``__main__`` guard and share the already loaded kernel; elsewhere they are
spawned and load the compiled kernel from numba's on-disk cache. The reduced
points are stacked into one :class:`xarray.Dataset` whose dimensions are the grid's axes
and written atomically (temporary name, then rename), so an interrupted run never leaves
a file that looks complete.

Interrupting and resuming: each finished point is kept in ``<cache>/.points/<id>/`` (the cache folder,
:func:`cache_root`: the results folder of the mode, whatever ``output`` is) under a
key made of the point's parameters, the mode and a hash of the sources the experiment's results
depend on (:func:`atmtcp.dependencies.experiment_hash`), so a rerun of an interrupted experiment
simulates only the points it lacks, no result of older code is ever reused, and an edit to a
figure or a claim invalidates nothing; the folder is removed once the experiment's file is written. An
interrupt (SIGINT, SIGTERM) stops the workers at once, and a worker whose parent dies is
killed by the kernel (Linux ``PR_SET_PDEATHSIG``). Temporary files left by a killed
writer are removed the next time that file is written.
"""
from __future__ import annotations

import ctypes
import errno
import functools
import hashlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import xarray as xr
from tqdm.auto import tqdm

from . import __version__, netcdf_files, run_cache, supervise
from .experiments import EXPERIMENTS
from .papers import PAPERS, citation, paper_of
from .dependencies import experiment_hash
from .kernel.sources import hash_sources
from .paths import check_folder, check_output, check_target
from .simulate import warm_kernel
from .supervise import quiet

RESULTS_DIR = Path("data/results")
"""Full results; quick ones live in its ``quick/`` folder, so a quick run never replaces them."""


def results_dir_for(quick: bool, base: Path | str = RESULTS_DIR) -> Path:
    """``data/results`` for full runs, ``data/results/quick`` for quick ones.

    Parameters
    ----------
    quick : bool
        The mode.
    base : path-like
        The full mode's folder (default ``data/results``).

    Returns
    -------
    pathlib.Path
    """
    return Path(base) / "quick" if quick else Path(base)


CACHE_ENV = "ATMTCP_CACHE_DIR"
"""The environment variable that names the cache folder of experiments (default: :func:`cache_root`)."""


def cache_root(quick: bool, results_dir: Path | str | None = None) -> Path:
    """The folder of the caches of experiments: ``$ATMTCP_CACHE_DIR``, else ``results_dir`` (a results
    folder a caller such as :func:`load_results` names), else the results folder of the mode
    (:func:`results_dir_for`). It holds ``.points/<id>/`` (the finished points of a running
    experiment) and ``.runs/`` (:mod:`atmtcp.run_cache`), never the folder of an ``output`` the user
    names (which may be any folder).

    Parameters
    ----------
    quick : bool
        The mode.
    results_dir : path-like, optional
        A results folder the caller names.

    Returns
    -------
    pathlib.Path
    """
    return Path(os.environ.get(CACHE_ENV) or results_dir or results_dir_for(quick))


def result_path(experiment_id: str, directory: Path | str | None = None, quick: bool = False) -> Path:
    """Where the netCDF file of ``experiment_id`` lives (by default in the folder of its mode).

    Parameters
    ----------
    experiment_id : str
        The target id.
    directory : path-like, optional
        The folder; None: the mode's (:func:`results_dir_for`).
    quick : bool
        The mode.

    Returns
    -------
    pathlib.Path
        ``<directory>/<experiment_id>.nc``.
    """
    return Path(directory if directory is not None else results_dir_for(quick)) / f"{experiment_id}.nc"


PACKAGE_DIR = Path(__file__).resolve().parent
SOURCE_HASH = hash_sources(PACKAGE_DIR.rglob("*.py"))
"""Hash of every atmtcp source file: the key of a point of an experiment outside the registry."""


@functools.lru_cache(maxsize=None)
def sources_hash(experiment_id: str) -> str:
    """The hash of the sources ``experiment_id``'s results depend on (every source for an id that is
    not in :data:`atmtcp.experiments.EXPERIMENTS`)."""
    experiment = EXPERIMENTS.get(experiment_id)
    return experiment_hash(experiment) if experiment is not None else SOURCE_HASH


def point_cache_dir(experiment_id: str, results_dir: Path | str) -> Path:
    """The folder of ``experiment_id``'s per-point cache under ``results_dir`` (``.points/<id>``).

    Parameters
    ----------
    experiment_id : str
        The target id.
    results_dir : path-like
        The cache root (:func:`cache_root`).

    Returns
    -------
    pathlib.Path
    """
    return Path(results_dir) / ".points" / experiment_id


def point_key(experiment_id: str, point: dict, quick: bool) -> str:
    """The cache key of one grid point: its parameters, the mode and the hash of the sources it depends on.

    Parameters
    ----------
    experiment_id : str
        The target id.
    point : dict
        The grid point.
    quick : bool
        The mode.

    Returns
    -------
    str
        24 hex digits.
    """
    text = json.dumps({"id": experiment_id, "point": point, "quick": bool(quick), "sources": sources_hash(experiment_id)},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _run_point(experiment_id: str, point: dict, quick: bool, cache: Path | None) -> xr.Dataset:
    key = point_key(experiment_id, point, quick)
    if cache is not None:
        kept = find_point(cache, key)
        if kept is not None:
            return kept
    # the runs of the point: shared with the other experiments of the same cache folder
    run_cache.use(run_cache.directory_for(cache.parent.parent) if cache else None)
    with quiet():  # no estimate of a long run per point: the experiment shows its ETA
        ds = EXPERIMENTS[experiment_id].run_point(point, quick)
    if cache is None:
        return ds
    data = run_cache.dataset_bytes(ds)
    for attempt in range(3):
        try:
            _keep_point(data, cache, key)
            break
        except OSError as error:
            # another process writing the same experiment may have finished and removed the folder
            if attempt == 2 or error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise
    return run_cache.dataset_from_bytes(data)  # as a resumed run reads it: the result does not depend on resuming


POINT_SUFFIX = ".pkl.z"
"""The file name ending of a kept point (:func:`write_point`)."""


def write_point(ds: xr.Dataset, cache: Path, key: str) -> Path:
    """Keep a finished point: ``<cache>/<key>-<sha>.pkl.z``, the Dataset as the run cache keeps a run
    (:func:`atmtcp.run_cache.dataset_bytes`: pickled, every dtype and attribute kept, compressed), where
    ``<sha>`` is the SHA-256 of the file's bytes (16 hex digits), so that :func:`find_point` can tell a
    whole file from a damaged one. Written under a temporary name and renamed: a reader never sees half a
    file. (Not netCDF: writing a point's file and reading it back cost more than a quick run's simulation,
    docs/speed.md.)

    Parameters
    ----------
    ds : xarray.Dataset
        The point's result.
    cache : pathlib.Path
        The experiment's point cache (:func:`point_cache_dir`).
    key : str
        The point's :func:`point_key`.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    return _keep_point(run_cache.dataset_bytes(ds), cache, key)


def _keep_point(data: bytes, cache: Path, key: str) -> Path:
    path = cache / f"{key}-{_sha(data)}{POINT_SUFFIX}"
    run_cache.write_bytes_atomically(path, data)
    return path


def _sha(data: bytes) -> str:
    """The checksum in a kept point's name: the SHA-256 of its bytes, 16 hex digits."""
    return hashlib.sha256(data).hexdigest()[:16]


def find_point(cache: Path, key: str) -> xr.Dataset | None:
    """The kept point ``key`` in ``cache``, or None. A file whose bytes do not match the checksum in its
    name (cut short by a full disk or a crash, overwritten) or that does not unpickle is reported in one
    line on stderr naming it and removed, and the point is simulated again.

    Parameters
    ----------
    cache : pathlib.Path
        The experiment's point cache.
    key : str
        The point's :func:`point_key`.

    Returns
    -------
    xarray.Dataset or None
    """
    for path in sorted(cache.glob(f"{key}-*{POINT_SUFFIX}")):
        try:
            data = path.read_bytes()
        except FileNotFoundError:  # removed by another process meanwhile
            continue
        try:
            whole = _sha(data) == path.name[:-len(POINT_SUFFIX)].rpartition("-")[2]
            ds = run_cache.dataset_from_bytes(data) if whole else None
        except Exception:  # (zlib.error, UnpicklingError, EOFError...: all mean damage)
            ds = None
        if ds is not None:
            return ds
        print(f"atmtcp: the kept point {path} is damaged (its checksum does not match or it does not open); "
              "removed it, simulating the point again", file=sys.stderr, flush=True)
        path.unlink(missing_ok=True)
    return None


def _die_with_parent(parent_pid: int) -> None:
    """Pool initializer: the kernel sends SIGTERM to this worker when its parent dies (Linux);
    a parent that died before this ran has already left the worker orphaned, so it exits."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (a forked worker inherits the parent's handler)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt stops
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent_pid:
        os._exit(1)


def assemble(points: list[dict], results: list[xr.Dataset]) -> xr.Dataset:
    """Stack per-point Datasets into one whose dimensions are the points' keys.

    Axes keep the order in which their values first appear in ``points``; grid cells
    that were not run (sparse grids) and unequal lengths (e.g. 5 vs 15 sources) are NaN.

    Parameters
    ----------
    points : list of dict
        The grid points, in order.
    results : list of xarray.Dataset
        Each point's result, in the same order.

    Returns
    -------
    xarray.Dataset
    """
    axes = list(points[0])
    stacked = xr.concat([r.expand_dims("point") for r in results], dim="point", join="outer",
                        combine_attrs="override", coords="minimal", compat="override")
    stacked = hold_steps(stacked, "point")
    for axis in axes:
        stacked = stacked.assign_coords({axis: ("point", [p[axis] for p in points])})
    if len(axes) == 1:
        return stacked.swap_dims(point=axes[0])
    ds = stacked.set_index(point=axes).unstack("point")
    order = {axis: list(dict.fromkeys(p[axis] for p in points)) for axis in axes}
    return ds.reindex(order).transpose(*axes, ...)


def hold_steps(ds: xr.Dataset, rows: str) -> xr.Dataset:
    """Step-function variables (``interpolation: previous``) after an outer join on ``time``:
    each row's NaN between its own first and last sample takes the value before it, so that
    the union of the rows' sample times describes every row exactly. Outside a row's own
    span the values stay NaN.

    Parameters
    ----------
    ds : xarray.Dataset
        An outer join of rows along ``time``.
    rows : str
        The dimension of the rows (``"point"``).

    Returns
    -------
    xarray.Dataset
        ``ds``, its step-function variables filled.
    """
    for name, variable in list(ds.data_vars.items()):
        if variable.attrs.get("interpolation") != "previous" or "time" not in variable.dims:
            continue
        ordered = variable.transpose(rows, "time", ...)
        ds[name] = ordered.copy(data=_forward_fill(ordered.values)).transpose(*variable.dims)
    return ds


def _forward_fill(values: np.ndarray) -> np.ndarray:
    """Along axis 1 of a (rows, time, ...) array: NaN -> the last finite value before it,
    within each row's span of finite values."""
    out = values.copy()
    finite = np.isfinite(values)
    index = np.where(finite, np.arange(values.shape[1]).reshape((1, -1) + (1,) * (values.ndim - 2)), 0)
    last = np.maximum.accumulate(index, axis=1)
    filled = np.take_along_axis(values, last, axis=1)
    seen = np.maximum.accumulate(finite, axis=1)
    after = np.flip(np.maximum.accumulate(np.flip(finite, axis=1), axis=1), axis=1)
    inside = seen & after
    out[inside] = filled[inside]
    return out


class ConsoleProgress:
    """One short line on standard output every ``every_s`` seconds (and at the end): points done
    of the total, elapsed time and an ETA. The tqdm bar goes to standard error (a log file
    under Snakemake); these lines are what a console shows without being flooded.

    Parameters
    ----------
    label : str
        What the lines name (the experiment).
    total : int
        The points to run.
    every_s : float
        The interval between lines (s); 0 or less: none.
    """

    def __init__(self, label: str, total: int, every_s: float):
        self.label, self.total, self.every_s = label, total, every_s
        self.start = self.last = time.monotonic()

    def update(self, done: int) -> None:
        """Print the progress line for ``done`` points if ``every_s`` has passed since the last one, or at the
        end.

        Parameters
        ----------
        done : int
            The points done so far.
        """
        now = time.monotonic()
        if self.every_s <= 0 or (now - self.last < self.every_s and done < self.total):
            return
        self.last = now
        elapsed = now - self.start
        eta = elapsed / done * (self.total - done) if done else float("nan")
        print(f"{self.label}: {done}/{self.total} points, {_clock(elapsed)} elapsed"
              + (f", about {_clock(eta)} left" if done < self.total and done else ""), flush=True)


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def run_points(experiment_id: str, points: list[dict], quick: bool, jobs: int | None,
               cache: Path | None = None, progress_s: float = 0.0) -> list[xr.Dataset]:
    """Simulate ``points`` (in order) with ``jobs`` worker processes, keeping each finished
    point in ``cache`` (a folder) and taking the ones already there.

    Parameters
    ----------
    experiment_id : str
        The target id.
    points : list of dict
        Its grid points.
    quick : bool
        The mode.
    jobs : int or None
        Worker processes; None: one per CPU.
    cache : pathlib.Path, optional
        The point cache (:func:`point_cache_dir`); None: none.
    progress_s : float
        The interval of the console's progress lines (s; 0: none).

    Returns
    -------
    list of xarray.Dataset
        Each point's result, in the order of ``points``.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C or SIGTERM (:class:`atmtcp.supervise.Interrupted`), after the workers are stopped; an
        error of a point is raised again likewise.
    """
    jobs = jobs or os.cpu_count() or 1
    label = f"{experiment_id}{' (quick)' if quick else ''}"
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    console = ConsoleProgress(label, len(points), progress_s)
    if jobs == 1 or len(points) == 1:
        results = []
        for p in tqdm(points, desc=label, unit="run"):
            supervise.raise_if_interrupted()
            results.append(_run_point(experiment_id, p, quick, cache))
            console.update(len(results))
        return results
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    if context.get_start_method() == "fork":
        warm_kernel()  # compile (or load) once here; the forked workers inherit the machine code
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(points)), mp_context=context, initializer=_die_with_parent,
                               initargs=(os.getpid(),))
    previous_term = signal.signal(signal.SIGTERM, supervise.interrupt)  # SIGTERM: stop like SIGINT
    try:
        futures = [pool.submit(_run_point, experiment_id, p, quick, cache) for p in points]
        results = []
        for future in tqdm(futures, desc=label, unit="run"):
            supervise.raise_if_interrupted()
            results.append(future.result())
            console.update(len(results))
    except BaseException:
        _stop(pool)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous_term)
    pool.shutdown()
    return results


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and terminate the workers now (not after their points)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()


def build_dataset(experiment_id: str, quick: bool = False, jobs: int | None = None,
                  results_dir: Path | str | None = None, progress_s: float = 0.0,
                  cache_dir: Path | str | None = None) -> xr.Dataset:
    """The Dataset of one experiment: simulated, or derived from its parents' files (in ``results_dir``).
    Its caches go in ``cache_dir`` (default :func:`cache_root`).

    Parameters
    ----------
    experiment_id : str
        The target id.
    quick : bool
        The mode.
    results_dir : path-like, optional
        Where the parents' files are (default: the mode's folder).
    jobs, progress_s, cache_dir
        As for :func:`run_experiment`.

    Returns
    -------
    xarray.Dataset
        With its attributes (references, version, parameters) and CF units.
    """
    exp = EXPERIMENTS[experiment_id]
    if exp.parents:
        parents = load_results(exp.parents, results_dir, quick=quick, jobs=jobs, cache_dir=cache_dir)
        ds = exp.derive(parents)
    else:
        points = exp.points(quick)
        cache = point_cache_dir(experiment_id, cache_dir if cache_dir is not None else cache_root(quick))
        ds = assemble(points, run_points(experiment_id, points, quick, jobs, cache, progress_s))
        if exp.finish is not None:
            ds = exp.finish(ds)
    ds.attrs.update({
        "Conventions": "CF-1.10",
        "title": f"{experiment_id}: {exp.title}",
        "institution": "atmtcp (reproduction of published simulations)",
        "source": f"atmtcp {__version__} ({git_revision()}), numba discrete-event simulation",
        "history": f"{datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')} "
                   f"atmtcp experiment {experiment_id}{' --quick' if quick else ''}",
        "references": references(experiment_id),
        "target": experiment_id, "quick": int(quick), "mode": "quick" if quick else "full",
        "atmtcp_version": __version__, "notes": exp.notes,
        **{key: value for key, value in exp.attrs.items()},
        **(exp.parameters(quick) if exp.parameters else {}),
    })
    describe(ds)
    return ds


def references(experiment_id: str) -> str:
    """The ``references`` attribute: the paper and its numbers' file, or what a target of no paper
    (the atlas) names in its ``attrs``.

    Parameters
    ----------
    experiment_id : str
        The target id.

    Returns
    -------
    str
    """
    if paper_of(experiment_id) not in PAPERS:
        return EXPERIMENTS[experiment_id].attrs["references"]
    return f"{citation(paper_of(experiment_id))} The paper's numbers: data/reference/{paper_of(experiment_id)}.csv"


COORDINATE_UNITS = {
    "buffer": ("cell", "switch buffer size"), "sources": ("1", "number of TCP sources"),
    "seed": ("1", "seed of the run's random draws (0: all sources start at t = 0)"),
    "policy": ("1", "drop policy (atlas: atmtcp.atlas.grid.POLICIES)"), "tcp": ("1", "TCP (atlas: atmtcp.atlas.grid.TCPS)"),
    "scenario": ("1", "a paper's network at its settings (atlas: atmtcp.atlas.grid.SCENARIOS)"),
    "source": ("1", "source (connection) index"), "port": ("1", "output port 'node->neighbor'"),
    "z": ("1", "Selective Drop / FBA parameter Z"), "r_fraction": ("1", "threshold R as a fraction of the buffer"),
    "lost_segments": ("segment", "segments lost from one window"),
    "buffer_factor": ("1", "buffer as a multiple of the network's smaller table buffer (LAN 1000, WAN 12000, "
                          "satellite 200000 cells); the variable buffer_cells gives the size"),
}
"""Units and long names of the grid axes (CF attributes)."""


def describe(ds: xr.Dataset) -> None:
    """CF attributes in place: ``units`` and ``long_name`` on the known axes, ``long_name``
    from each variable's ``description`` (or its name).

    Parameters
    ----------
    ds : xarray.Dataset
        An experiment's result, changed in place.
    """
    for name, (units, long_name) in COORDINATE_UNITS.items():
        if name in ds.coords:
            ds[name].attrs.setdefault("units", units)
            ds[name].attrs.setdefault("long_name", long_name)
    for name, variable in ds.variables.items():
        if name.endswith("_time") or name == "time":
            variable.attrs.setdefault("units", "s")
        variable.attrs.setdefault("long_name", variable.attrs.get("description", name.replace("_", " ")))


def git_revision() -> str:
    """``git <commit>`` of the checkout atmtcp runs from (``+dirty`` with uncommitted changes
    other than the bench history, which ``atmtcp bench`` itself appends to), or ``not a git
    checkout``.

    Returns
    -------
    str
    """
    try:
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=PACKAGE_DIR, capture_output=True,
                                text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ":(top)",
                                ":(top,exclude)benchmarks/history.jsonl"], cwd=PACKAGE_DIR,
                               capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout"
    return f"git {commit}{'+dirty' if dirty else ''}"


def write_atomically(ds: xr.Dataset, path: Path | str) -> None:
    """Write ``ds`` to ``path`` through a temporary file in the same folder.

    Parameters
    ----------
    ds : xarray.Dataset
        The result.
    path : path-like
        The file to write.

    Raises
    ------
    atmtcp.paths.OutputError
        If ``path`` is empty, a folder, a device, a FIFO, a socket or a symbolic link (before or after the
        writing); any error of the writing is raised again after the temporary file is removed.
    """
    path = check_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        netcdf_files.write(ds, tmp)
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; results are for everybody to read
        check_target(path)  # (still no device, link or folder: it may have appeared while writing)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _remove_stale_temporaries(path: Path) -> None:
    """Delete ``.<name>.<pid>.*.tmp`` files of ``path`` whose writing process is gone (a writer
    killed by SIGKILL cannot clean up after itself)."""
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        pid = tmp.name[len(path.name) + 2:].split(".", 1)[0]
        if pid.isdigit() and _alive(int(pid)):
            continue
        tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def run_experiment(experiment_id: str, output: Path | str | None = None, quick: bool = False,
                   jobs: int | None = None, progress_s: float = 0.0, cache_dir: Path | str | None = None) -> Path:
    """Run ``experiment_id`` and write its netCDF file at ``output`` (default :func:`result_path`);
    returns the path. ``output`` and the cache folder (``cache_dir``, default :func:`cache_root`) are
    checked before any work (:func:`atmtcp.paths.check_output`: an empty path, a folder, a device, a
    FIFO, a socket or a symbolic link is refused with an :class:`atmtcp.paths.OutputError`).

    Parameters
    ----------
    experiment_id : str
        The target id (``atmtcp list``).
    output : path-like, optional
        The netCDF file to write (default :func:`result_path`).
    quick : bool
        Quick mode: shortened runs and few seeds.
    jobs : int, optional
        Worker processes; None: one per CPU.
    progress_s : float
        The interval of the console's progress lines (s; 0: none).
    cache_dir : path-like, optional
        The cache root (default :func:`cache_root`).

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    KeyError
        If ``experiment_id`` is unknown, naming the known ones.
    atmtcp.paths.OutputError
        If ``output`` or the cache folder cannot be written as a file.
    """
    if experiment_id not in EXPERIMENTS:
        known = ", ".join(EXPERIMENTS)
        raise KeyError(f"unknown experiment {experiment_id!r}; known: {known}")
    output = check_output(output if output is not None else result_path(experiment_id, quick=quick), "output")
    cache_dir = check_folder(cache_dir if cache_dir is not None else cache_root(quick),
                             "cache_dir" if cache_dir is not None else CACHE_ENV)
    ds = build_dataset(experiment_id, quick, jobs, output.parent, progress_s, cache_dir)
    write_atomically(ds, output)
    cache = point_cache_dir(experiment_id, cache_dir)
    if cache.exists():
        import shutil
        shutil.rmtree(cache, ignore_errors=True)  # (another writer of the same experiment may still add to it)
    return output


class ModeMismatch(ValueError):
    """A results file was made in the other mode (quick vs full) than the one asked for."""


def load_results(experiment_ids, results_dir: Path | str | None = None, quick: bool = True,
                 run_missing: bool = True, jobs: int | None = None,
                 cache_dir: Path | str | None = None) -> dict[str, xr.Dataset]:
    """The Datasets of ``experiment_ids`` from ``results_dir`` (default: the folder of the
    mode, :func:`results_dir_for`); missing ones are run first (in quick mode when
    ``quick``) unless ``run_missing`` is False. A file made in the other mode raises
    :class:`ModeMismatch` rather than mixing quick and full numbers.

    Parameters
    ----------
    experiment_ids : iterable of str
        The target ids.
    results_dir : path-like, optional
        The folder (default: the mode's).
    quick : bool
        The mode (default True).
    run_missing : bool
        Whether a missing file is run first (default True); else it is left out.
    jobs : int, optional
        Worker processes for those runs.
    cache_dir : path-like, optional
        The cache root (default :func:`cache_root`).

    Returns
    -------
    dict of str to xarray.Dataset
        Without the missing ones when ``run_missing`` is False.

    Raises
    ------
    ModeMismatch
        If a file was made in the other mode.
    """
    datasets = {}
    for experiment_id in experiment_ids:
        path = result_path(experiment_id, results_dir, quick)
        if not path.exists():
            if not run_missing:
                continue
            run_experiment(experiment_id, path, quick=quick, jobs=jobs,
                           cache_dir=cache_dir if cache_dir is not None else cache_root(quick, results_dir))
        ds = netcdf_files.read(path)
        if bool(int(ds.attrs.get("quick", 0))) != bool(quick):
            made = "quick" if int(ds.attrs.get("quick", 0)) else "full"
            raise ModeMismatch(f"{path} holds {made} results, but quick={bool(quick)} was asked for; "
                               f"quick results belong in {results_dir_for(True)}/")
        datasets[experiment_id] = ds
    return datasets
