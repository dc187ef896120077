"""What a goyal1998 or goyal1997 table cell reads of one N-source run: efficiency, fairness, the
sources' timeouts and retransmissions, and the drops and largest queue at the bottleneck
(:data:`atmtcp.papers.goyal1998.scenario.BOTTLENECK`). The atlas reads goyal's scenario with it too.
"""
from __future__ import annotations

import xarray as xr

from ... import model as m
from ...simulate import simulate
from .scenario import BOTTLENECK


def with_buffer_cells(ds: xr.Dataset, cells: int) -> xr.Dataset:
    """``ds`` with the variable ``buffer_cells``: the size behind a ``buffer_factor`` axis
    (:data:`atmtcp.papers.goyal1998.scenario.BUFFER_FACTORS`)."""
    ds["buffer_cells"] = xr.DataArray(cells, attrs={"units": "cell", "description": "switch buffer size K"})
    return ds


def summarize(ds: xr.Dataset, with_sources: bool = True) -> xr.Dataset:
    """The numbers a table cell needs from one run (goyal1998 3.2: efficiency and fairness)."""
    bottleneck = ds.sel(port=BOTTLENECK)
    out = xr.Dataset({
        "efficiency": ds.efficiency,
        "fairness": ds.fairness,
        "timeouts": xr.DataArray(int(ds.timeouts.sum()), attrs={"units": "1", "description": "timeouts, all sources"}),
        "fast_retransmits": xr.DataArray(int(ds.fast_retransmits.sum()), attrs={
            "units": "1", "description": "fast retransmits, all sources"}),
        "retransmitted_fraction": xr.DataArray(
            float(ds.retransmissions.sum() / max(1, int(ds.segments_sent.sum()))),
            attrs={"units": "1", "description": "retransmitted segments / segments sent"}),
        "cells_dropped": xr.DataArray(int(bottleneck.cells_dropped.sum()), attrs={
            "units": "cell", "description": f"cells dropped at the bottleneck port {BOTTLENECK}"}),
        "max_queue": xr.DataArray(int(bottleneck.max_queue), attrs={
            "units": "cell", "description": f"largest occupancy of the bottleneck port {BOTTLENECK}"}),
    })
    if with_sources:
        out["goodput_bps"] = ds.goodput_bps
    return out


def run_summary(run: m.Run, with_sources: bool = True) -> xr.Dataset:
    """Simulate ``run`` and :func:`summarize` it."""
    return summarize(simulate(run), with_sources)
