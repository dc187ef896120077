"""How ewa's runs are measured and seeded, in sections 2-4 alike: L1's effective utilization per 250 ms
and per phase, Jain's index of a phase, the seeds, and the small helpers of the experiments.

Definitions (also in ``notebooks/ewa.ipynb``):

- *Effective utilization of L1* in an interval (ewa 2: "The utilization of link L1, measured in
  intervals of 250 milliseconds"; 4.1: "normalized to the maximum throughput that can be
  achieved"): the TCP payload of the data packets that AAP-1 finished sending onto L1 in the
  interval, over what the maximum TCP throughput over the AAL5 VC
  (:func:`atmtcp.papers.ewa.shared.scenario.max_tcp_throughput_mbps`) carries in that time. A
  retransmission counts (it uses the link); the ATM network loses nothing, so every packet sent on
  L1 reaches its receiver. A connection's utilization is its own part of that.
- *Utilization of a phase*: the mean of its 250 ms intervals. *Fairness of a phase*: Jain's index
  of the throughputs of the connections open in it; the *share ratio* of the last phase: the larger
  of the two connections' throughputs over the smaller.

What the paper leaves random, and our seeds (sections 2-4 alike). The paper ran one simulation per
figure. Its connections open at stated times (2: "All ten connections were opened at time t = 0";
4.1: "a total of ten connections open simultaneously at time t = 0"; 4.4: "At time t = 10 seconds,
we open five more TCP sessions"), and its simulator has no stated random element beyond the ones
its scenarios name: RED's drops (2.2: "RED applies randomization in selecting the connections to
notify"), the exponential ON and OFF periods of 4.5 and 4.6, and 4.6's starts ("uniformly
distributed from 0 to 5 milliseconds"). So each of our seeds is one run of the same scenario:

- the connections open at the stated times plus a draw in [0, 10 ms) (about one round trip,
  :data:`atmtcp.papers.ewa.shared.scenario.START_JITTER_S`); seed 0 opens them exactly at the stated
  times (section 4.6 draws every seed's starts in [0, 5 ms), as the paper does);
- RED's draws, the ON/OFF periods and the priority VC's periods come from the run's seed.

The paper's one run is one draw of that distribution. Every compared number is therefore read as
the distribution over our :data:`SEEDS` runs (:mod:`atmtcp.statistics`: the mean, and the 5th-95th
percentiles of the single runs, where 90 % of one run's values fall), and the claims about one run's
properties are checked on the mean and on each seed alone (:class:`atmtcp.claims.Claim`'s
``seed_share``).
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from ....experiment import grid
from ....metrics import fairness_index
from .scenario import CLOSE_S, INTERVAL_S, N_CONNECTIONS, PHASES, max_tcp_throughput_mbps

SEEDS, QUICK_SEEDS = 10, 2
"""Runs per scenario (module docstring): seed 0 opens the connections at the paper's times (all at
t = 0 here), the others within 10 ms of them (:data:`atmtcp.papers.ewa.shared.scenario.START_JITTER_S`);
RED draws from the run's seed. Every target the comparison reads has this many."""
TRACE_STEP_S = 0.01
"""Sequence numbers and windows are kept every 10 ms (Figs. 5-12, and section 4's runs)."""


def seeds(quick: bool) -> list[int]:
    """The seeds of a figure's runs: :data:`SEEDS`, or :data:`QUICK_SEEDS` in quick mode."""
    return list(range(QUICK_SEEDS if quick else SEEDS))


def seed_points(quick: bool) -> list[dict]:
    """One grid point per seed (:func:`seeds`)."""
    return grid(seed=seeds(quick))


def attrs(units: str, long_name: str) -> dict:
    """A variable's netCDF attributes."""
    return {"units": units, "long_name": long_name}


def copy_of(parent: str):
    """A derived target's ``derive``: its parent's Dataset (a figure drawn from the same runs)."""
    return lambda parents: parents[parent].copy()


def interval_bytes(ds: xr.Dataset, interval_s: float = INTERVAL_S) -> tuple[np.ndarray, np.ndarray]:
    """The end time of each ``interval_s`` interval and the TCP payload each source sent on L1 in it,
    shape (interval, source), from the cumulative counts sampled at L1 (``sampled_measured_bytes``)."""
    times = ds.sample_time.values
    step = int(round(interval_s / (times[1] - times[0])))
    cumulative = ds.sampled_measured_bytes.values[::step].astype(np.int64)
    return times[::step][1:], np.diff(cumulative, axis=0)


def utilization(ds: xr.Dataset, interval_s: float = INTERVAL_S) -> tuple[np.ndarray, np.ndarray]:
    """``(end times, per source utilization)``: each source's payload per interval over what the
    maximum TCP throughput carries in it (see the module docstring)."""
    ends, sent = interval_bytes(ds, interval_s)
    return ends, sent * 8 / (max_tcp_throughput_mbps() * 1e6 * interval_s)


def closes_open_sets(n: int = N_CONNECTIONS, phases=PHASES) -> list[list[int]]:
    """The connections open in each phase of section 2 (all open at t = 0, closing as ``CLOSE_S``)."""
    return [[i for i in range(n) if CLOSE_S.get(i, np.inf) > start] for _, start, _ in phases]


def phase_numbers(ends: np.ndarray, per_source: np.ndarray, phases=PHASES,
                  open_sets: list[list[int]] | None = None) -> dict[str, np.ndarray]:
    """Per phase (name, start, end): L1's utilization (mean of its intervals), each source's
    throughput (Mbit/s of payload on L1), Jain's fairness index of the connections open in the phase
    (``open_sets``, section 2's by default), and the share ratio of the two leading ones (larger /
    smaller)."""
    capacity = max_tcp_throughput_mbps()
    open_sets = open_sets if open_sets is not None else closes_open_sets(per_source.shape[1], phases)
    util, throughput, fairness, ratio = [], [], [], []
    for (_, start, end), open_ in zip(phases, open_sets):
        inside = (ends > start + 1e-9) & (ends <= end + 1e-9)
        if not inside.any():   # a run shorter than the phases
            util.append(np.nan), throughput.append(np.full(per_source.shape[1], np.nan))
            fairness.append(np.nan), ratio.append(np.nan)
            continue
        util.append(per_source[inside].sum(1).mean())
        shares = per_source[inside].mean(0)
        throughput.append(shares * capacity)
        fairness.append(fairness_index(shares[open_]))
        top = np.sort(shares[open_])[::-1][:2]
        ratio.append(top[0] / top[1] if top[1] > 0 else np.inf)
    return {"utilization": np.array(util), "throughput": np.array(throughput),
            "fairness": np.array(fairness), "ratio": np.array(ratio)}
