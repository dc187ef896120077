"""Small helpers for exploring one network by hand (``notebooks/quickstart.ipynb``).

:func:`lan_run` simulates goyal1998's N-source LAN with the bottleneck queue and the
sources' congestion windows traced; :func:`sweep` varies one parameter and tabulates the
metrics; :func:`plot_run` draws what a run did. Everything a student changes is a keyword
of :func:`lan_run`, named as in ``atmtcp run``.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import xarray as xr

from . import model as m
from .default_run import scenario
from .simulate import simulate
from .topologies import N_SOURCE_BOTTLENECK


def lan_run(buffer: int | None = 1000, policy: str = "epd", tcp: str = "reno", sources: int = 5,
            duration: float = 2.0, network: str = "lan", seed: int = 0, jitter: float = 0.0,
            contention: str | None = None) -> xr.Dataset:
    """One run of goyal1998's N-source network, with the bottleneck queue sampled every 1 ms and every
    source's cwnd traced.

    Parameters
    ----------
    buffer, policy, tcp, sources, duration, network, seed, jitter, contention
        ``atmtcp run``'s flags of the same names (:func:`atmtcp.default_run.scenario`): the bottleneck's
        buffer in cells (``None``: infinite), the drop policy (:data:`atmtcp.model.POLICIES`), the TCP
        flavour (:data:`atmtcp.model.FLAVORS`), the number of sources, the simulated seconds, ``"lan"``,
        ``"wan"`` or ``"satellite"``, the seed, the spread of the start times (s) and how cells contend
        (:data:`atmtcp.contention.CELL_ASSUMPTIONS`; ``None``: the reproduction's).

    Returns
    -------
    xarray.Dataset
        :func:`atmtcp.simulate.simulate`'s Dataset, with the traces.
    """
    run = scenario(network, sources, buffer, policy, tcp, duration, seed, jitter, contention=contention)
    trace = m.TraceConfig(connections=tuple(range(sources)), ports=(N_SOURCE_BOTTLENECK,),
                          sample_interval_s=1e-3)
    return simulate(m.Run(run.network, run.connections, run.duration_s, run.seed, run.aal5, trace))


def summary(ds: xr.Dataset) -> dict:
    """The numbers of one run that a table row needs.

    Parameters
    ----------
    ds : xarray.Dataset
        A simulated N-source run (:func:`atmtcp.simulate.simulate`).

    Returns
    -------
    dict
        ``efficiency``, ``fairness``, ``goodput_mbps``, ``timeouts``, ``fast_retransmits``,
        ``cells_dropped`` and ``max_queue_cells`` (at the bottleneck).
    """
    return {
        "efficiency": float(ds.efficiency),
        "fairness": float(ds.fairness),
        "goodput_mbps": float(ds.goodput_bps.sum()) / 1e6,
        "timeouts": int(ds.timeouts.sum()),
        "fast_retransmits": int(ds.fast_retransmits.sum()),
        "cells_dropped": int(ds.cells_dropped.sel(port=N_SOURCE_BOTTLENECK).sum()),
        "max_queue_cells": int(ds.max_queue.sel(port=N_SOURCE_BOTTLENECK)),
    }


def sweep(parameter: str, values, **fixed) -> pd.DataFrame:
    """:func:`lan_run` once per value of one of its keywords.

    Parameters
    ----------
    parameter : str
        The keyword of :func:`lan_run` to vary.
    values : iterable
        Its values.
    **fixed
        The other keywords of :func:`lan_run`.

    Returns
    -------
    pandas.DataFrame
        One row of :func:`summary` per value, indexed by ``parameter``.
    """
    rows = [{parameter: value, **summary(lan_run(**{**fixed, parameter: value}))} for value in values]
    return pd.DataFrame(rows).set_index(parameter)


def plot_run(ds: xr.Dataset, title: str = ""):
    """Three panels: goodput per source, the bottleneck queue, and the sources' cwnd over time.

    Parameters
    ----------
    ds : xarray.Dataset
        A simulated N-source run whose bottleneck and connections were traced.
    title : str
        The figure's title (none by default).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.6))
    n = ds.sizes["source"]
    axes[0].bar(np.arange(n), ds.goodput_bps.values / 1e6, color="tab:blue")
    axes[0].set_xlabel("source")
    axes[0].set_ylabel("goodput (Mbit/s)")
    axes[0].set_title(f"efficiency {float(ds.efficiency):.2f}, fairness {float(ds.fairness):.2f}")
    draw_queue(axes[1], ds, N_SOURCE_BOTTLENECK)
    axes[1].set_title("bottleneck queue")
    draw_windows(axes[2], ds)
    axes[2].set_title("congestion windows")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def draw_queue(ax, ds: xr.Dataset, port: str):
    """The queue of the traced ``port`` over time: a cell port's cells (``queue_cells``), or an IP-ATM
    router port's packets (``queue_packets_sampled``, :mod:`atmtcp.internetwork`).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    ds : xarray.Dataset
        A simulated run that sampled ``port``.
    port : str
        The port's name, ``"node->neighbor"``.
    """
    if "queue_cells" in ds and port in ds.traced_port.values:
        queue, unit = ds.queue_cells.sel(traced_port=port), "cells"
    else:
        queue, unit = ds.queue_packets_sampled.sel(sampled_queue=port), "packets"
    ax.plot(ds.sample_time.values, queue.values, color="0.3", linewidth=0.8)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"{unit} queued at {port}")


def draw_windows(ax, ds: xr.Dataset, legend_up_to: int = 8):
    """Each source's (each VC's) congestion window over time: the traced cwnd changes of a cell network,
    or an internetwork's sampled window (``sampled_cwnd``; the smaller of it and the advertised window
    ``sampled_snd_wnd`` where EWA cuts the latter, ewa 3).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    ds : xarray.Dataset
        A simulated run with its connections traced or sampled.
    legend_up_to : int
        The largest number of sources that gets a legend.
    """
    n = ds.sizes["source"]
    for s in range(n):
        if "trace_kind" in ds:
            keep = (ds.trace_kind.values == "cwnd") & (ds.trace_source.values == s)
            ax.step(ds.trace_time.values[keep], ds.trace_value.values[keep] / 1024, where="post",
                    linewidth=0.8, label=f"source {s}")
        else:
            window = np.minimum(ds.sampled_cwnd.isel(source=s).values, ds.sampled_snd_wnd.isel(source=s).values)
            ax.plot(ds.sample_time.values, window / 1024, linewidth=0.8, label=f"source {s}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("cwnd (KB)" if "trace_kind" in ds else "min(cwnd, advertised) (KB)")
    if n <= legend_up_to:
        ax.legend(fontsize=7, loc="upper right")
