"""Runs that several targets read are simulated once (issue 25, goal 2).

Several experiments simulate some of the same runs: ``lakshman.tcp_sensitivity`` holds Figs. 2 and 10's
headline runs for seeds 1-5, and ``lakshman.buffer_study`` those and the previous TCP reading for seeds
1-3; ``goyal1998.ubr_sensitivity`` repeats runs of ``goyal1998.start_jitter`` and some of its own. While
an experiment runs (:func:`atmtcp.runner.run_points`), :func:`atmtcp.simulate.simulate` keeps the Dataset
of each run in ``<results>/.runs/`` under a key of the run itself (its pickled :class:`atmtcp.model.Run`,
which fixes every parameter and seed) and of the sources that turn a run into a Dataset (the closure of
:mod:`atmtcp.simulate`: the model, the compilers, the kernel, the reductions), and a later experiment that
builds an equal run reads it instead of simulating. Traced runs are not kept. Each state of those sources has its own folder,
``<results>/.runs/<hash>/``; the folders of other sources are removed when an experiment starts. The results are the same either way: a run is
deterministic, and the stored Dataset is the pickled object itself (compressed), every dtype and attribute
kept.

The folder is a setting of the process (:func:`use`, called by the runner alone), not an argument of
``simulate``: docs/how-it-works.md, "The run cache", says why. Outside an experiment (a user's own
``simulate()``), nothing is stored. A run that cannot be pickled is
simulated each time. Two processes that simulate the same run at once both write it, atomically.

A stored file is zlib's stream, whose Adler-32 checksum covers the pickled Dataset: a file cut short or
overwritten does not decompress, is reported in one line on stderr naming it, removed, and the run is
simulated again. A file that cannot be stored (a full disk) is left out, with one line, and the
experiment goes on.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .dependencies import closure
from .kernel.sources import hash_sources

if TYPE_CHECKING:  # not imported at run time: `atmtcp run` does not load xarray
    import xarray as xr

_directory: Path | None = None
MAX_BYTES = 1 << 20
"""A Dataset larger than this, compressed, is not kept (a long trace of the packet path)."""


def use(directory: Path | str | None) -> None:
    """Keep the runs of this process in ``directory`` from now on (``None``: keep none). The runs of
    other sources there (older code) are removed, once per process and folder."""
    global _directory
    _directory = Path(directory) / sources_hash() if directory is not None else None
    if _directory is not None:
        _remove_stale(_directory)


@functools.lru_cache(maxsize=None)
def _remove_stale(current: Path) -> None:
    """Remove the sibling folders of ``current``: runs of sources that are no longer these."""
    import shutil

    if current.parent.is_dir():
        for folder in current.parent.iterdir():
            if folder.is_dir() and folder.name != current.name:
                shutil.rmtree(folder, ignore_errors=True)


def directory_for(results_dir: Path | str) -> Path:
    """The run cache of a results folder: ``<results>/.runs/``."""
    return Path(results_dir) / ".runs"


@functools.lru_cache(maxsize=None)
def sources_hash() -> str:
    """The hash of the sources a run's Dataset depends on: :mod:`atmtcp.simulate` and all it imports."""
    return hash_sources(closure(["atmtcp.simulate"]))


def run_key(run) -> str | None:
    """The cache key of ``run`` within its sources' folder (None if it cannot be pickled)."""
    try:
        text = pickle.dumps(run, protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.sha256(text).hexdigest()[:32]


def kept(run) -> bool:
    """Whether ``run``'s Dataset goes into the cache: not a traced run's (its traces run to tens of MB,
    and no two targets share one)."""
    trace = getattr(run, "trace", None)
    return _directory is not None and not (trace is not None and (trace.connections or trace.ports))


def through(run, simulate_run: Callable[[], xr.Dataset]) -> xr.Dataset:
    """``simulate_run()``'s Dataset for ``run``, read from the cache if it is there, else computed and
    stored (when a cache is in use, :func:`use`, and the run is one it keeps, :func:`kept`)."""
    key = run_key(run) if kept(run) else None
    if key is None:
        return simulate_run()
    path = _directory / key[:2] / f"{key}.pkl.z"
    if path.exists():
        ds = load(path)
        if ds is not None:
            return ds
    ds = simulate_run()
    data = dataset_bytes(ds)
    if len(data) <= MAX_BYTES:
        try:
            write_bytes_atomically(path, data)
        except OSError as error:  # e.g. ENOSPC: the run's result is still good, only not kept
            print(f"atmtcp: could not keep a run in the run cache {path.parent} ({error.strerror or error}); "
                  "going on without it", file=sys.stderr, flush=True)
    return ds


def dataset_bytes(ds: xr.Dataset) -> bytes:
    """``ds`` as a file of this cache (and of the grid-point cache, :func:`atmtcp.runner.write_point`)
    holds it: the pickled object, every dtype and attribute kept, in zlib's stream (level 1)."""
    return zlib.compress(pickle.dumps(ds, protocol=5), 1)


def dataset_from_bytes(data: bytes) -> xr.Dataset:
    """The Dataset of :func:`dataset_bytes`; ``zlib.error`` where the stream's checksum does not match."""
    return pickle.loads(zlib.decompress(data))


def load(path: Path):
    """The Dataset stored at ``path``, or None when the file is damaged (reported, removed)."""
    try:
        return dataset_from_bytes(path.read_bytes())
    except Exception as error:  # zlib.error (checksum, truncation), UnpicklingError, EOFError, ...
        kind = type(error).__name__ if type(error).__module__ == "builtins" else \
            f"{type(error).__module__}.{type(error).__name__}"
        print(f"atmtcp: the run cache file {path} is damaged ({kind}: {error}); removed it, "
              "simulating the run again", file=sys.stderr, flush=True)
        path.unlink(missing_ok=True)
        return None


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through a temporary file in its folder, removed if the write fails."""
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
