"""Efficiency, fairness and related figures of merit (goyal1998 section 3.2)."""
from __future__ import annotations

import warnings

import numpy as np

from .kernel.aal5 import CELL_BYTES, packet_cells


def max_tcp_throughput_bps(rate_bps: float, mss: int, overhead_bytes: int) -> float:
    """Highest TCP goodput a link of ``rate_bps`` carries: MSS data bytes per
    ``ceil((MSS + overhead)/48)`` cells. goyal1998 3.2: 512/636 x 155.52 = 125.2 Mbps.

    This is the efficiency denominator C used throughout atmtcp. The paper also quotes
    120.5 Mbps for ATM over SONET; atmtcp's links carry cells at the full 155.52 Mbps (no
    SONET framing is modelled), so 125.2 Mbps is the maximum the simulated link can give.

    Parameters
    ----------
    rate_bps : float
        The link's cell rate.
    mss : int
        The TCP segment's data bytes.
    overhead_bytes : int
        The bytes AAL5 adds per segment (:attr:`atmtcp.model.Aal5Config.overhead_bytes`).

    Returns
    -------
    float
        Goodput in bit/s.
    """
    return rate_bps * mss / (packet_cells(mss, overhead_bytes) * CELL_BYTES)


def framing(mss: int, overhead_bytes: int) -> float:
    """TCP payload bytes per byte on the ATM link: ``MSS / (53 x cells per segment)``
    (goyal1998 3.2: 512/636 = 80.5 %).

    Parameters
    ----------
    mss : int
        The TCP segment's payload (bytes).
    overhead_bytes : int
        What AAL5 adds to a segment (:attr:`atmtcp.model.Aal5Config.overhead_bytes`).

    Returns
    -------
    float
    """
    return mss / (packet_cells(mss, overhead_bytes) * CELL_BYTES)


def efficiency(throughputs_bps, framings, link_bps: float) -> float:
    """goyal1998 3.2's ``E = sum(x_i) / C`` on the shared bottleneck link of ``link_bps``.

    With ``C = link_bps x framing`` this is ``sum(x_i / framing_i) / link_bps``: the share
    of the bottleneck's bits that carried the connections' segments. Written per
    connection, it stays at most 1 when connections frame their segments differently
    (unequal MSS); for equal framing it is goyal1998's ``sum(x_i) / C``.

    Parameters
    ----------
    throughputs_bps : array_like
        Each connection's goodput ``x_i``.
    framings : array_like
        Each connection's :func:`framing`.
    link_bps : float
        The bottleneck's cell rate.

    Returns
    -------
    float
        The efficiency, between 0 and 1.
    """
    x = np.asarray(throughputs_bps, dtype=float)
    return float(np.sum(x / np.asarray(framings, dtype=float)) / link_bps)


def capacity_bps(throughputs_bps, framings, link_bps: float) -> float:
    """The ``C`` for which ``efficiency = sum(x_i) / C``: the bottleneck's rate times the
    connections' goodput-weighted framing (their plain mean when nothing was delivered);
    for equal framing, :func:`max_tcp_throughput_bps`.

    Parameters
    ----------
    throughputs_bps : array_like
        Each connection's goodput (bit/s).
    framings : array_like
        Each connection's :func:`framing`.
    link_bps : float
        The bottleneck link's rate (bit/s).

    Returns
    -------
    float
        ``C`` in bit/s.
    """
    x = np.asarray(throughputs_bps, dtype=float)
    f = np.asarray(framings, dtype=float)
    if x.sum() == 0:
        return float(link_bps * f.mean())
    return float(link_bps * x.sum() / np.sum(x / f))


def fairness_index(throughputs_bps, expected_bps=None) -> float:
    """Jain's fairness index (goyal1998 3.2): ``(sum x_i/e_i)^2 / (N sum (x_i/e_i)^2)``.

    Parameters
    ----------
    throughputs_bps : array_like
        Each connection's throughput ``x_i``.
    expected_bps : array_like, optional
        Each connection's fair share ``e_i``; equal shares by default, for which the ``e_i`` cancel.

    Returns
    -------
    float
        The index, between 1/N and 1; NaN, with a :class:`RuntimeWarning` saying so, where nothing was
        delivered (all throughputs zero, or none given), never a misleading 1.
    """
    x = np.asarray(throughputs_bps, dtype=float)
    if expected_bps is not None:
        x = x / np.asarray(expected_bps, dtype=float)
    square_sum = float(np.sum(x * x))
    if square_sum == 0.0:
        warnings.warn("no data delivered, so Jain's fairness index is undefined (NaN)", RuntimeWarning, stacklevel=2)
        return float("nan")
    return float(np.sum(x) ** 2 / (x.size * square_sum))
