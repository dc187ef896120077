"""How a result is stored: one netCDF-4 (HDF5) file per target, written and read by netCDF4-python.

The library is Unidata's netCDF-C under xarray's ``netcdf4`` engine. Until 2026-11-29 atmtcp wrote with
``h5netcdf`` (h5py), which makes the same format but handles each variable's dimension scales in Python.
For the 44 quick results of ewa (1,554 variables), writing took 8.7-10.0 s with h5netcdf and 1.9-2.0 s
here, and reading them back 6.4-6.5 s against 1.0-1.3 s. Either library reads the other's files into
``identical`` Datasets (issue 39, goal 4; NOTES.md).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

ENGINE = "netcdf4"
"""xarray's engine for every result file atmtcp writes or reads."""

COMPRESS_FROM = 4096
"""Variables of at least this many values (traces) are stored with zlib: the CWND traces of
goyal1997.cwnd_integer_stall shrink several times, and reading them back stays fast."""


def read(path: Path | str) -> xr.Dataset:
    """The Dataset stored at ``path``, loaded into memory (the file is closed again).

    Parameters
    ----------
    path : path-like
        A netCDF file.

    Returns
    -------
    xarray.Dataset
    """
    return xr.load_dataset(path, engine=ENGINE)


def write(ds: xr.Dataset, path: Path | str) -> None:
    """Write ``ds`` to ``path`` (replacing it), its traces compressed (:data:`COMPRESS_FROM`) and its bool
    and None attributes stored as int and an empty string, which netCDF has no type for.

    Parameters
    ----------
    ds : xarray.Dataset
        The result.
    path : path-like
        The file (callers write a temporary file, then rename it: :func:`atmtcp.runner.write_atomically`).
    """
    _storable(ds).to_netcdf(path, engine=ENGINE, encoding=_compression(ds))


def _compression(ds: xr.Dataset) -> dict:
    return {name: {"zlib": True, "complevel": 4} for name, variable in ds.data_vars.items()
            if variable.size >= COMPRESS_FROM and variable.dtype.kind in "fiu"}


def _storable(ds: xr.Dataset) -> xr.Dataset:
    ds = ds.copy()
    for holder in [ds] + [ds[v] for v in ds.variables]:
        for key, value in list(holder.attrs.items()):
            if isinstance(value, (bool, np.bool_)):
                holder.attrs[key] = int(value)
            elif value is None:
                holder.attrs[key] = ""
    return ds
