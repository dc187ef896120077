"""ewa section 3.1: the target ``ewa.fig13``, N connections in congestion avoidance with alpha fixed at 1,
the linear feedback (eq. 3.3) beside the logarithmic one (eq. 3.4): AAP-1's buffer over time and its
statistics from 1 s on (``overcorrection_point``). Measured as every section's runs
(:mod:`atmtcp.papers.ewa.shared.measures`)."""
from __future__ import annotations

import xarray as xr

from ....experiment import Experiment, grid
from ....metrics import fairness_index
from ....simulate import simulate
from ..section4.experiments import scenario_parameters
from ..shared.measures import attrs, utilization
from ..shared.scenario import MSS
from .scenario import FEEDBACKS, OVERCORRECTION, OVERCORRECTION_SOURCES, overcorrection_run

OVERCORRECTION_SEEDS, QUICK_OVERCORRECTION_SEEDS = 5, 1
"""Fig. 13 is a sketch in the paper: no number of it is compared (data/reference/ewa.csv has only its
alpha), so five runs per case serve its claims (one run of 5 s takes about 0.05 s)."""


def summarize_overcorrection(ds: xr.Dataset, run) -> xr.Dataset:
    """One run of Fig. 13: AAP-1's buffer every 5 ms, its statistics from 1 s on, L1's utilization
    from 1 s on, drops, timeouts and the mean window fed back."""
    s = OVERCORRECTION
    (_, start, end), = s.phases
    times = ds.sample_time.values
    queue = ds.queue_packets_sampled.values[:, 0]
    late = (times > start) & (times <= end)
    ends, per_source = utilization(ds)
    inside = (ends > start + 1e-9) & (ends <= end + 1e-9)
    fed_back = ds.sampled_snd_wnd.values[late] / MSS
    scalar = lambda value, units, name: ((), value, attrs(units, name))  # noqa: E731
    return xr.Dataset({
        "queue_packets": ("sample_time", queue, attrs("packet", "packets in AAP-1's buffer")),
        "feedback": ("sample_time", ds.sampled_feedback.values[:, 0],
                     attrs("packet", "EWA's feedback f(B - Q) at the instant")),
        "queue_mean": scalar(queue[late].mean(), "packet", "AAP-1's mean buffer from 1 s on"),
        "queue_sd": scalar(queue[late].std(), "packet", "its standard deviation over the 5 ms samples"),
        "queue_min": scalar(int(queue[late].min()), "packet", "its smallest sample"),
        "queue_max": scalar(int(queue[late].max()), "packet", "its largest sample"),
        "empty_fraction": scalar((queue[late] == 0).mean(), "1", "share of the samples finding it empty"),
        "utilization": scalar(per_source[inside].sum(1).mean(), "1", "L1's effective utilization from 1 s on"),
        "fairness": scalar(fairness_index(per_source[inside].mean(0)), "1", "Jain's index from 1 s on"),
        "window_fed_back": scalar(fed_back.mean(), "packet", "mean window fed back (segments) from 1 s on"),
        "packets_dropped": scalar(int(ds.packets_dropped_by_source.sum()), "packet", "packets dropped at AAP-1"),
        "timeouts": scalar(int(ds.timeouts.sum()), "1", "retransmission timeouts, all connections"),
    }, coords={"sample_time": ("sample_time", times, attrs("s", "sampling instant"))})


def overcorrection_point(point: dict, quick: bool) -> xr.Dataset:
    """The ``run_point`` of Fig. 13: :func:`summarize_overcorrection`."""
    run = overcorrection_run(point["feedback"], point["sources"], point["seed"])
    return summarize_overcorrection(simulate(run), run)


def overcorrection_points(quick: bool) -> list[dict]:
    """Fig. 13's grid: feedback x connections x seeds."""
    count = QUICK_OVERCORRECTION_SEEDS if quick else OVERCORRECTION_SEEDS
    return grid(feedback=list(FEEDBACKS), sources=list(OVERCORRECTION_SOURCES), seed=list(range(count)))


def parameters(quick: bool) -> dict:
    """The fixed parameters of Fig. 13's runs, as netCDF attributes
    (:func:`atmtcp.papers.ewa.section4.experiments.scenario_parameters`)."""
    return scenario_parameters(OVERCORRECTION, QUICK_OVERCORRECTION_SEEDS if quick else OVERCORRECTION_SEEDS)


EXPERIMENTS = [
    Experiment("ewa.fig13", "The linear feedback (eq. 3.3) against the logarithmic (3.4), alpha = 1, N connections "
               "in congestion avoidance", overcorrection_points, overcorrection_point,
               parameters=parameters),
]
