"""Run an experiment's grid in parallel processes into one netCDF file.

Each grid point is independent; points run in a process pool with a progress bar. The
pool forks where the platform can (Linux): workers then work from notebooks and scripts
without a ``__main__`` guard and share the already loaded kernel; elsewhere they are
spawned and load the compiled kernel from numba's on-disk cache. The reduced
points are stacked into one :class:`xarray.Dataset` whose dimensions are the grid's axes
and written atomically (temporary name, then rename), so an interrupted run never leaves
a file that looks complete.
"""
from __future__ import annotations

import multiprocessing
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import xarray as xr
from tqdm.auto import tqdm

from . import __version__
from .experiments import EXPERIMENTS

RESULTS_DIR = Path("data/results")
"""Full results; quick ones live in its ``quick/`` folder, so a quick run never replaces them."""


def results_dir_for(quick: bool, base: Path | str = RESULTS_DIR) -> Path:
    """``data/results`` for full runs, ``data/results/quick`` for quick ones."""
    return Path(base) / "quick" if quick else Path(base)


def result_path(experiment_id: str, directory: Path | str | None = None, quick: bool = False) -> Path:
    """Where the netCDF file of ``experiment_id`` lives (by default in the folder of its mode)."""
    return Path(directory if directory is not None else results_dir_for(quick)) / f"{experiment_id}.nc"


def _run_point(experiment_id: str, point: dict, quick: bool) -> xr.Dataset:
    return EXPERIMENTS[experiment_id].run_point(point, quick)


def assemble(points: list[dict], results: list[xr.Dataset]) -> xr.Dataset:
    """Stack per-point Datasets into one whose dimensions are the points' keys.

    Axes keep the order in which their values first appear in ``points``; grid cells
    that were not run (sparse grids) and unequal lengths (e.g. 5 vs 15 sources) are NaN.
    """
    axes = list(points[0])
    stacked = xr.concat([r.expand_dims("point") for r in results], dim="point", join="outer",
                        combine_attrs="override", coords="minimal", compat="override")
    for axis in axes:
        stacked = stacked.assign_coords({axis: ("point", [p[axis] for p in points])})
    if len(axes) == 1:
        return stacked.swap_dims(point=axes[0])
    ds = stacked.set_index(point=axes).unstack("point")
    order = {axis: list(dict.fromkeys(p[axis] for p in points)) for axis in axes}
    return ds.reindex(order).transpose(*axes, ...)


def run_points(experiment_id: str, points: list[dict], quick: bool, jobs: int | None) -> list[xr.Dataset]:
    """Simulate ``points`` (in order) with ``jobs`` worker processes."""
    jobs = jobs or os.cpu_count() or 1
    label = f"{experiment_id}{' (quick)' if quick else ''}"
    if jobs == 1 or len(points) == 1:
        return [_run_point(experiment_id, p, quick) for p in tqdm(points, desc=label, unit="run")]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(points)), mp_context=context) as pool:
        futures = [pool.submit(_run_point, experiment_id, p, quick) for p in points]
        results = []
        for future in tqdm(futures, desc=label, unit="run"):
            results.append(future.result())
    return results


def build_dataset(experiment_id: str, quick: bool = False, jobs: int | None = None,
                  results_dir: Path | str | None = None) -> xr.Dataset:
    """The Dataset of one experiment: simulated, or derived from its parents' files."""
    exp = EXPERIMENTS[experiment_id]
    if exp.parents:
        parents = load_results(exp.parents, results_dir, quick=quick, jobs=jobs)
        ds = exp.derive(parents)
    else:
        points = exp.points(quick)
        ds = assemble(points, run_points(experiment_id, points, quick, jobs))
    ds.attrs.update({
        "target": experiment_id, "title": exp.title, "quick": int(quick),
        "atmtcp_version": __version__, "notes": exp.notes, **exp.attrs,
    })
    return ds


def write_atomically(ds: xr.Dataset, path: Path | str) -> None:
    """Write ``ds`` to ``path`` through a temporary file in the same folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        _for_netcdf(ds).to_netcdf(tmp, engine="h5netcdf")
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; results are for everybody to read
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _for_netcdf(ds: xr.Dataset) -> xr.Dataset:
    """netCDF has no bool or object attributes: store them as int and str."""
    ds = ds.copy()
    for holder in [ds] + [ds[v] for v in ds.variables]:
        for key, value in list(holder.attrs.items()):
            if isinstance(value, (bool, np.bool_)):
                holder.attrs[key] = int(value)
            elif value is None:
                holder.attrs[key] = ""
    return ds


def run_experiment(experiment_id: str, output: Path | str | None = None, quick: bool = False,
                   jobs: int | None = None) -> Path:
    """Run ``experiment_id`` and write its netCDF file; returns the path."""
    if experiment_id not in EXPERIMENTS:
        known = ", ".join(EXPERIMENTS)
        raise KeyError(f"unknown experiment {experiment_id!r}; known: {known}")
    output = Path(output) if output else result_path(experiment_id, quick=quick)
    ds = build_dataset(experiment_id, quick, jobs, output.parent)
    write_atomically(ds, output)
    return output


class ModeMismatch(ValueError):
    """A results file was made in the other mode (quick vs full) than the one asked for."""


def load_results(experiment_ids, results_dir: Path | str | None = None, quick: bool = True,
                 run_missing: bool = True, jobs: int | None = None) -> dict[str, xr.Dataset]:
    """The Datasets of ``experiment_ids`` from ``results_dir`` (default: the folder of the
    mode, :func:`results_dir_for`); missing ones are run first (in quick mode when
    ``quick``) unless ``run_missing`` is False. A file made in the other mode raises
    :class:`ModeMismatch` rather than mixing quick and full numbers."""
    datasets = {}
    for experiment_id in experiment_ids:
        path = result_path(experiment_id, results_dir, quick)
        if not path.exists():
            if not run_missing:
                continue
            run_experiment(experiment_id, path, quick=quick, jobs=jobs)
        ds = xr.load_dataset(path)
        if bool(int(ds.attrs.get("quick", 0))) != bool(quick):
            made = "quick" if int(ds.attrs.get("quick", 0)) else "full"
            raise ModeMismatch(f"{path} holds {made} results, but quick={bool(quick)} was asked for; "
                               f"quick results belong in {results_dir_for(True)}/")
        datasets[experiment_id] = ds
    return datasets
