"""Small synthetic Datasets shaped like the ones :func:`atmtcp.runner.assemble` writes.

Each builder takes a function of a grid point that returns the numbers the tests care
about and fills the rest with plausible values, so that :mod:`atmtcp.claims` and
:mod:`atmtcp.reference` can be tested without simulating. The shapes follow the real
quick/full results: the table targets put LAN (1000, 3000 cells) and WAN (12000, 36000)
buffers on one ``buffer_factor`` axis (1, 3) with the sizes in ``buffer_cells``;
per-source variables run over 15 sources, NaN past the row's source count; seed 0 is
the paper's setup and seeds > 0 are the jittered runs.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import xarray as xr

TABLE_BUFFERS = {"lan": (1000, 3000), "wan": (12000, 36000)}
TABLE_POLICIES = ("ubr", "epd", "selective_drop", "fba")
SACK_POLICIES = ("ubr", "epd", "selective_drop")
TABLE_SOURCES = (5, 15)
SEEDS = (0, 1)
LINK_BPS = 149.76e6
FBA_BUFFERS = {"lan": (1000, 2000, 3000), "wan": (12000, 24000, 36000)}
FBA_R = (0.9, 0.5, 0.1)
FBA_Z = (0.2, 0.5, 0.8)
SD_Z = (2.0, 1.0, 0.9, 0.8, 0.5, 0.2)
MANY_BUFFERS = {"wan": (12000, 36000), "satellite": (200000, 600000)}
SATELLITE_BUFFERS = (200000, 600000)
TCPS = ("sack", "reno", "vanilla")
SACK_BOUND_WINDOW = 128


def _summary_vars(eff: np.ndarray, fair: np.ndarray, dims: tuple[str, ...]) -> dict:
    """efficiency, fairness and the other per-run counters of :func:`atmtcp.papers.goyal1998.summary.summarize`."""
    valid = np.isfinite(eff)
    counter = np.where(valid, 3.0, np.nan)
    return {
        "efficiency": (dims, eff, {"units": "1"}),
        "fairness": (dims, fair, {"units": "1"}),
        "timeouts": (dims, counter),
        "fast_retransmits": (dims, counter * 0),
        "retransmitted_fraction": (dims, np.where(valid, 0.01, np.nan)),
        "cells_dropped": (dims, counter * 100),
        "max_queue": (dims, counter * 300),
    }


def _goodput(eff: np.ndarray, sources_of: Callable[[tuple], int], n_source: int) -> np.ndarray:
    """Per-source goodput: each of a row's sources gets an equal share, NaN past its count."""
    out = np.full(eff.shape + (n_source,), np.nan)
    for index in np.ndindex(eff.shape):
        if np.isfinite(eff[index]):
            n = sources_of(index)
            out[index + (slice(0, n),)] = eff[index] * LINK_BPS / n
    return out


def _buffer_cells(buffers: dict, dims: tuple[str, ...], shape: tuple[int, ...]) -> tuple:
    """``buffer_cells`` over ``dims`` (network and buffer_factor among them), as the runner stacks it."""
    cells = np.zeros(shape, dtype=np.int64)
    for index in np.ndindex(shape):
        at = dict(zip(dims, index))
        cells[index] = list(buffers.values())[at["network"]][at["buffer_factor"]]
    return dims, cells, {"units": "cell"}


def table(fn: Callable, policies=TABLE_POLICIES, seeds=SEEDS, sources=TABLE_SOURCES,
          buffers=TABLE_BUFFERS, attrs: dict | None = None) -> xr.Dataset:
    """A Table 1/2/4/5/6/7 target: dims (network, sources, buffer_factor, policy, seed).

    ``fn(network, sources, buffer in cells, policy, seed) -> (efficiency, fairness)``.
    """
    networks = list(buffers)
    shape = (len(networks), len(sources), 2, len(policies), len(seeds))
    eff, fair = np.full(shape, np.nan), np.full(shape, np.nan)
    for i, j, k, p, s in np.ndindex(shape):
        eff[i, j, k, p, s], fair[i, j, k, p, s] = fn(networks[i], sources[j], buffers[networks[i]][k], policies[p],
                                                     seeds[s])
    dims = ("network", "sources", "buffer_factor", "policy", "seed")
    data = _summary_vars(eff, fair, dims)
    data["buffer_cells"] = _buffer_cells(buffers, dims, shape)
    n_source = max(sources)
    data["goodput_bps"] = (dims + ("source",), _goodput(eff, lambda index: sources[index[1]], n_source))
    return xr.Dataset(data, coords={"network": networks, "sources": list(sources), "buffer_factor": [1, 3],
                                    "policy": list(policies), "seed": list(seeds),
                                    "source": np.arange(n_source)}, attrs=dict(attrs or {}))


def table3(fn: Callable, seeds=SEEDS, sources=TABLE_SOURCES) -> xr.Dataset:
    """Table 3 (infinite buffer): dims (network, sources, seed);
    ``fn(network, sources, seed) -> (efficiency, fairness, max_queue)``."""
    networks = ["lan", "wan"]
    shape = (len(networks), len(sources), len(seeds))
    eff, fair, queue = np.full(shape, np.nan), np.full(shape, np.nan), np.zeros(shape, dtype=np.int64)
    for index in np.ndindex(shape):
        i, j, s = index
        eff[index], fair[index], queue[index] = fn(networks[i], sources[j], seeds[s])
    dims = ("network", "sources", "seed")
    data = _summary_vars(eff, fair, dims)
    data["max_queue"] = (dims, queue, {"units": "cell"})
    data["cells_dropped"] = (dims, np.zeros(shape, dtype=np.int64))
    n_source = max(sources)
    data["goodput_bps"] = (dims + ("source",), _goodput(eff, lambda index: sources[index[1]], n_source))
    return xr.Dataset(data, coords={"network": networks, "sources": list(sources), "seed": list(seeds),
                                    "source": np.arange(n_source)})


def fba_factorial(fn: Callable) -> xr.Dataset:
    """The FBA factorial: dims (network, sources, buffer_factor, r_fraction, z), no seed, no empty
    cells; ``fn(network, sources, buffer in cells, r_fraction, z) -> (efficiency, fairness)``."""
    networks = list(FBA_BUFFERS)
    factors = [1, 2, 3]
    shape = (len(networks), len(TABLE_SOURCES), len(factors), len(FBA_R), len(FBA_Z))
    eff, fair = np.full(shape, np.nan), np.full(shape, np.nan)
    for i, j, k, r, z in np.ndindex(shape):
        buffer = FBA_BUFFERS[networks[i]][k]
        eff[i, j, k, r, z], fair[i, j, k, r, z] = fn(networks[i], TABLE_SOURCES[j], buffer, FBA_R[r], FBA_Z[z])
    dims = ("network", "sources", "buffer_factor", "r_fraction", "z")
    return xr.Dataset(_summary_vars(eff, fair, dims),
                      coords={"network": networks, "sources": list(TABLE_SOURCES), "buffer_factor": factors,
                              "r_fraction": list(FBA_R), "z": list(FBA_Z)})


def sd_z_sweep(fn: Callable, seeds=SEEDS) -> xr.Dataset:
    """Selective Drop's Z: dims (network, z, seed); ``fn(network, z, seed) -> (efficiency, fairness)``."""
    networks = ["lan", "wan"]
    shape = (len(networks), len(SD_Z), len(seeds))
    eff, fair = np.full(shape, np.nan), np.full(shape, np.nan)
    for index in np.ndindex(shape):
        i, z, s = index
        eff[index], fair[index] = fn(networks[i], SD_Z[z], seeds[s])
    dims = ("network", "z", "seed")
    data = _summary_vars(eff, fair, dims)
    data["goodput_bps"] = (dims + ("source",), _goodput(eff, lambda index: 5, 5))
    return xr.Dataset(data, coords={"network": networks, "z": list(SD_Z), "seed": list(seeds),
                                    "source": np.arange(5)})


def many_sources(fn: Callable, sources=(50, 100)) -> xr.Dataset:
    """Section 6: dims (network, sources, buffer_factor), WAN and satellite buffers of 1 and 3 RTT;
    ``fn(network, sources, buffer in cells) -> (efficiency, fairness)``."""
    networks = list(MANY_BUFFERS)
    shape = (len(networks), len(sources), 2)
    eff, fair = np.full(shape, np.nan), np.full(shape, np.nan)
    for i, j, k in np.ndindex(shape):
        eff[i, j, k], fair[i, j, k] = fn(networks[i], sources[j], MANY_BUFFERS[networks[i]][k])
    dims = ("network", "sources", "buffer_factor")
    data = _summary_vars(eff, fair, dims)
    data["buffer_cells"] = _buffer_cells(MANY_BUFFERS, dims, shape)
    return xr.Dataset(data, coords={"network": networks, "sources": list(sources), "buffer_factor": [1, 3]})


def _events(times, dim: str, name: str) -> xr.DataArray:
    times = np.asarray(times, dtype=float)
    return xr.DataArray(times[None, :], dims=("case", dim), attrs={"units": "s"}, name=name)


def cwnd_figure(case: str, timeout_times=(), fast_retransmit_times=()) -> xr.Dataset:
    """A Fig. 2-7 target: one ``case``, a CWND trace and the times of timeouts and fast
    retransmits (NaN entries are padding, as when cases of unequal length are stacked)."""
    t = np.linspace(0.0, 3.0, 31)
    cwnd = 512.0 * (1 + np.arange(t.size) % 10)
    ds = xr.Dataset({
        "cwnd": (("case", "time"), cwnd[None, :], {"units": "byte", "interpolation": "previous"}),
        "ssthresh": (("case", "time"), np.full((1, t.size), 65536.0), {"units": "byte", "interpolation": "previous"}),
        "timeout_time": _events(timeout_times, "timeout_event", "timeout_time"),
        "fast_retransmit_time": _events(fast_retransmit_times, "fast_retransmit_event", "fast_retransmit_time"),
    })
    ds = ds.assign_coords({dim: np.arange(size) for dim, size in ds.sizes.items() if dim != "time"})
    return ds.assign_coords(case=[case], time=t)


def loss_figure(timeouts: int, fast_retransmits: int, lost_segments: int, case: str = "wan_1_source") -> xr.Dataset:
    """Figs. 5-7: :func:`cwnd_figure` plus the source's counters and the number of scripted losses."""
    ds = cwnd_figure(case, timeout_times=[1.0 + 0.2 * i for i in range(timeouts)],
                     fast_retransmit_times=[0.5 + 0.1 * i for i in range(fast_retransmits)])
    ds["timeouts"] = ("case", [timeouts])
    ds["fast_retransmits"] = ("case", [fast_retransmits])
    ds["lost_segments"] = ("case", [lost_segments])
    return ds


def sack_bound_rtts(lost: int) -> float:
    """goyal1998 5.4.2's ``ceil(log2(n / (n - 2)))`` RTTs (at least 1), n = W/lost, below half the window;
    atmtcp's slow-start bound ``1 + ceil(log2(lost))`` from half the window on."""
    if 2 * lost < SACK_BOUND_WINDOW:
        n = SACK_BOUND_WINDOW / lost
        return max(1.0, math.ceil(math.log2(n / (n - 2)) - 1e-12))
    return 1.0 + math.ceil(math.log2(lost) - 1e-12)


def sack_bound(retransmit_rtts: Callable[[int, float], float]) -> xr.Dataset:
    """The SACK bound target: dim ``lost_segments`` (1 ... W - 1 of W = 128);
    ``retransmit_rtts(lost, bound) -> RTTs`` (NaN for a recovery that timed out)."""
    lost = np.arange(1, SACK_BOUND_WINDOW)
    bound = np.array([sack_bound_rtts(int(c)) for c in lost])
    rtts = np.array([retransmit_rtts(int(c), b) for c, b in zip(lost, bound)], dtype=float)
    dims = ("lost_segments",)
    return xr.Dataset({
        "lost_fraction": (dims, lost / SACK_BOUND_WINDOW),
        "retransmit_rtts": (dims, rtts),
        "ack_rtts": (dims, rtts + 1),
        "rtt_s": (dims, np.where(np.isfinite(rtts), 0.03, np.nan)),
        "bound_rtts": (dims, bound),
        "timeouts": (dims, np.where(np.isfinite(rtts), 0, 1)),
        "fast_retransmits": (dims, np.where(lost <= SACK_BOUND_WINDOW - 3, 1, 0)),
        "retransmissions": (dims, lost),
    }, coords={"lost_segments": lost})


def cwnd_integer_stall(final: dict[str, float]) -> xr.Dataset:
    """goyal1997's CWND stall: dim ``increase`` (integer, integer_every_n, float) with ``final_cwnd``."""
    rules = ["integer", "integer_every_n", "float"]
    t = np.linspace(0, 12, 13)
    cwnd = np.array([np.linspace(131072, final[r], t.size) for r in rules])
    return xr.Dataset({
        "cwnd": (("increase", "time"), cwnd, {"units": "byte", "interpolation": "previous"}),
        "final_cwnd": ("increase", [float(final[r]) for r in rules], {"units": "byte"}),
        "delivered_bytes": ("increase", [1e7, 2e7, 2e7]),
    }, coords={"increase": rules, "time": t})


def satellite(fn: Callable, seeds=SEEDS) -> xr.Dataset:
    """goyal1997's satellite table: dims (tcp, buffer, policy, seed);
    ``fn(tcp, buffer, policy, seed) -> (efficiency, fairness)``."""
    shape = (len(TCPS), len(SATELLITE_BUFFERS), len(SACK_POLICIES), len(seeds))
    eff, fair = np.full(shape, np.nan), np.full(shape, np.nan)
    for index in np.ndindex(shape):
        t, b, p, s = index
        eff[index], fair[index] = fn(TCPS[t], SATELLITE_BUFFERS[b], SACK_POLICIES[p], seeds[s])
    dims = ("tcp", "buffer", "policy", "seed")
    data = _summary_vars(eff, fair, dims)
    data["goodput_bps"] = (dims + ("source",), _goodput(eff, lambda index: 5, 5))
    return xr.Dataset(data, coords={"tcp": list(TCPS), "buffer": list(SATELLITE_BUFFERS),
                                    "policy": list(SACK_POLICIES), "seed": list(seeds), "source": np.arange(5)})


CLAIM_SEEDS = tuple(range(10))
MINORITY_SEED = 9
"""Claims read distributions (the noise model, atmtcp.claims.noise_verdict, as many seeds as the
reproduction's): the claims' datasets carry their pattern at nine seeds and the opposite one at the tenth."""


def headline_only(headline: Callable, jittered: Callable) -> Callable:
    """A grid function (seed last) that is ``headline`` at every seed but :data:`MINORITY_SEED`, and
    ``jittered`` there: a claim read on distributions must follow the majority of the seeds."""
    return lambda *point: jittered(*point) if point[-1] == MINORITY_SEED else headline(*point)
