"""What every experiment is made of: a grid of points, a run per point, a reduction.

An :class:`Experiment` is named by its target id (``atmtcp list``). Its
``points(quick)`` lists the grid points (dicts whose keys become the Dataset's
dimensions); ``run_point(point, quick)`` simulates one point and reduces it to a small
Dataset without grid dimensions; :func:`atmtcp.runner.assemble` stacks the points.
A derived experiment (``parents``) computes its Dataset from other experiments' results
instead of simulating.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import xarray as xr


@dataclass(frozen=True)
class Experiment:
    """One reproduction target (see the module docstring).

    Parameters
    ----------
    id : str
        The target id, ``<paper>.<name>`` (``atmtcp list``).
    title : str
        A one-line title.
    points : callable, optional
        ``points(quick) -> list of dict``: the grid points; None for a derived experiment.
    run_point : callable, optional
        ``run_point(point, quick) -> xarray.Dataset``: one point simulated and reduced.
    parents : tuple of str
        The experiments a derived one reads (default none).
    derive : callable, optional
        ``derive({parent id: Dataset}) -> Dataset``: a derived experiment's result.
    notes : str
        A note kept with the result.
    attrs : dict
        Attributes added to the result.
    parameters : callable, optional
        ``parameters(quick) -> dict``: the run parameters the grid does not show.
    finish : callable, optional
        ``finish(Dataset) -> Dataset``: numbers computed from the whole assembled grid.
    """

    id: str
    title: str
    points: Callable[[bool], list[dict]] | None = None
    run_point: Callable[[dict, bool], xr.Dataset] | None = None
    parents: tuple[str, ...] = ()
    derive: Callable[[dict[str, xr.Dataset]], xr.Dataset] | None = None
    notes: str = ""
    attrs: dict = field(default_factory=dict)
    parameters: Callable[[bool], dict] | None = None
    """The run parameters the grid does not show (MSS, windows, delays, durations, ...), as
    flat netCDF attributes, for quick or full mode."""
    finish: Callable[[xr.Dataset], xr.Dataset] | None = None
    """Numbers computed from the whole stacked grid (e.g. means and standard deviations over
    seeds), added after the points are assembled."""


def grid(**axes) -> list[dict]:
    """The full factorial of ``axes``, first axis slowest.

    Parameters
    ----------
    **axes : list
        Each axis's name and its values, e.g. ``grid(policy=["epd", "fba"], seed=[0, 1])``.

    Returns
    -------
    list of dict
        One point per combination, ``{name: value}``.
    """
    points = [{}]
    for name, values in axes.items():
        points = [dict(p, **{name: v}) for p in points for v in values]
    return points


def each_point(data, *dims: str, **fixed):
    """Each point of a result over some of its coordinates, first slowest as in :func:`grid`: the loop a
    table or a check writes to read a result point by point.

    Parameters
    ----------
    data : xarray.Dataset or xarray.DataArray
        The result.
    *dims : str
        The coordinates to go over.
    **fixed
        Coordinates selected at every point (``network="lan"``).

    Yields
    ------
    tuple of (dict, xarray.Dataset or xarray.DataArray)
        The point's coordinates ``{dim: value}`` and ``data.sel(**coordinates, **fixed)``.
    """
    for values in itertools.product(*(data[dim].values for dim in dims)):
        at = dict(zip(dims, values))
        yield at, data.sel(**at, **fixed)


STEP = "previous"
"""``interpolation`` attribute of a trace variable: its value holds from each ``time`` until
the next (a step function, as CWND and SSTHRESH are). :func:`atmtcp.runner.assemble` keeps
that true when points with different sample times are stacked."""


def cwnd_trace(ds: xr.Dataset, source: int = 0) -> xr.Dataset:
    """CWND and SSTHRESH of one traced source on a ``time`` coordinate, plus the times of
    its timeouts and fast retransmits (``timeout_time``, ``fast_retransmit_time``).

    ``time`` holds every instant either window changed; at each, the value after the last
    change at or before it (several changes at one instant keep the last), so
    ``ds.cwnd.plot()`` draws CWND against time. Before a variable's first record: NaN.

    Parameters
    ----------
    ds : xarray.Dataset
        A simulated run whose connection ``source`` was traced (:class:`atmtcp.model.TraceConfig`).
    source : int
        The connection.

    Returns
    -------
    xarray.Dataset
        ``cwnd`` and ``ssthresh`` (bytes) over ``time``; ``timeout_time`` and ``fast_retransmit_time``.
    """
    sel = ds.trace_source.values == source
    kind = ds.trace_kind.values[sel]
    time = ds.trace_time.values[sel]
    value = ds.trace_value.values[sel]
    windows = np.isin(kind, ("cwnd", "ssthresh"))
    instants = np.unique(time[windows])
    out = xr.Dataset(coords={"time": ("time", instants, {"units": "s", "long_name": "simulated time"})})
    for name in ("cwnd", "ssthresh"):
        keep = kind == name
        last = np.searchsorted(time[keep], instants, side="right") - 1
        held = np.where(last >= 0, value[keep][np.maximum(last, 0)], np.nan) if keep.any() else \
            np.full(instants.size, np.nan)
        out[name] = xr.DataArray(held, dims=("time",), attrs={
            "units": "byte", "long_name": f"{name.upper()} of source {source}", "interpolation": STEP})
    for name in ("timeout", "fast_retransmit"):
        keep = kind == name
        out[f"{name}_time"] = xr.DataArray(time[keep], dims=(f"{name}_event",), attrs={
            "units": "s", "long_name": f"times of the {name.replace('_', ' ')}s of source {source}"})
    return out.assign_coords({f"{name}_event": np.arange(out.sizes[f"{name}_event"])
                              for name in ("timeout", "fast_retransmit")})
