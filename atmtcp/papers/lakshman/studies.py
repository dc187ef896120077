"""lakshman: the study of its buffer requirements (issue 24), ``lakshman.buffer_study``.

Section 6 turns the figures into buffer sizes: "For Pure Cell Drop at the Tail, beta should be at least
in the range 3 or 4 to get "decent" throughput ... For Pure Cell Drop at the Front, a value of beta = 1
is acceptable, although beta = 1.25 might be better choice. Partial Frame Drop at the Tail may need much
larger values of beta ... as high as 2 or 3 ... Partial Frame Drop at the Front comes out best, allowing
values of beta as low as 1 (maybe even a bit lower)". Ours differ (``lakshman.beta_requirements``). This
target runs Fig. 2's and Fig. 10's cases again under each reading of the paper that the model's options
express (:data:`READINGS`), changed one at a time from the headline, so that the figure of
:mod:`.study_figures` shows which reading moves the requirements and the Frame-Tail / Cell-Front
crossover, and by how much. Nothing is fitted: each reading is a sentence of the paper read another
way, or a setting it leaves open.

Readings that need a kernel change and are not run (see the notebook): the frame whose queued cell
the randomized tail drop removed *not* losing its later cells under Frame-Tail; a random delay per ACK;
the ADSUs pacing their cells instead of sending a packet's cells back to back.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
import xarray as xr

from ... import model as m
from ...experiment import Experiment, grid
from ...simulate import simulate
from ...topologies import SWITCH
from ...variations import with_tcp, with_tick_phases
from .experiments import TOTAL_FIGURES, buffers, parameters, run_length, seeds, summarize_run, with_beta
from .scenario import (
    BETA_ONE_CELLS, BOTTLENECK, BUFFERS, DISCIPLINES, NOMINAL_RTT_S, PREVIOUS_READING, beta,
    discipline_port, lakshman_run, link_delays, path_round_trip_s,
)

STUDY_CASES = ("lakshman.fig2", "lakshman.fig10")
"""The cases of the study: the two equal-RTT figures at the ends of the paper's range of sources (2 and 14
sources, 60 ms), in which section 4 says the crossover holds ("whenever all connections have the same
RTT (Figures 2, 6, and 10)")."""
SMALLEST_BETA = 0.2
"""The study's buffers start at beta 0.2 (1152 cells): the 256-cell point (beta 0.04) is where the paper
puts its lockout exceptions ("The exceptions all occur for very low buffer sizes"), far below every
requirement in question."""
STUDY_BUFFERS = tuple(b for b in BUFFERS if beta(b) >= SMALLEST_BETA - 1e-9)
STUDY_SEEDS = (1, 2, 3)
"""Three seeds per point (12 readings x 2 cases x 4 disciplines x 13 buffers: about 3500 runs of 40 s, some
9 CPU-minutes with three seeds): each reading's requirement is read per seed and summarized by its median and
its 5th-95th percentiles. The headline's own figures have ten."""
INPUT_SAMPLING_S = 2.8e-6
"""lakshman 3: "The switch samples the switch input ports (where the DS-3 links terminate) at a sampling
rate of once every 2.8 usecs"."""
START_SPREAD_S = NOMINAL_RTT_S
"""The start-time reading: each source opens at a time drawn uniformly within one nominal RTT, so that the
sources' slow starts overlap but are out of phase (the paper gives no start times; the headline starts
every source at t = 0)."""
STUDY_STREAM = 24
"""The second word of the seed sequence of the study's own draws (start times, timer phases), a stream
apart from the run's and from :func:`.scenario.link_delays` (issue 24)."""


@dataclass(frozen=True)
class Reading:
    """One reading of the paper, as a change of a headline run: ``change(run, rtts_s, seed)`` returns the
    run to simulate; ``disciplines`` are those whose runs it changes (the others are the headline's own
    runs and are not simulated again); ``rests_on`` quotes the sentence read."""

    change: Callable[[m.Run, tuple, int], m.Run]
    rests_on: str
    disciplines: tuple[str, ...] = DISCIPLINES


def _same(run: m.Run, rtts_s, seed: int) -> m.Run:
    return run


def _bottleneck(run: m.Run, **changes) -> m.Run:
    """``run`` with its bottleneck port's fields replaced."""
    ports = tuple((name, replace(port, **changes) if name == BOTTLENECK else port) for name, port in run.network.ports)
    return replace(run, network=replace(run.network, ports=ports))


def _study_draws(seed: int, n: int, high: float) -> np.ndarray:
    """``n`` uniform draws in [0, ``high``) from the study's own stream of ``seed`` (:data:`STUDY_STREAM`)."""
    return np.random.default_rng([seed, STUDY_STREAM]).uniform(0.0, high, n)


def eom_delineation(run, rtts_s, seed):
    """Frames delimited by AAL5's EOM cell at the receiving ADSU: a packet that lost its EOM runs into the
    next, and both are discarded (lakshman 2.1: "packet and ATM AAL5 frames are used synonymously")."""
    return replace(run, aal5=replace(run.aal5, delineation="eom"))


def frame_tail_not_randomized(run, rtts_s, seed):
    """Frame-Tail drops the arriving cell, without the randomization (lakshman 3 names it "For tail drop",
    which can be read as Cell-Tail's alone)."""
    return _bottleneck(run, randomized_tail=False)


def unslotted_port(run, rtts_s, seed):
    """The bottleneck port not slotted: a cell arriving as another departs takes the freed place."""
    return _bottleneck(run, slotted=False)


def input_sampling(run, rtts_s, seed):
    """The switch seeing each cell from an ADSU up to one input-sampling period late (uniform in
    [0, :data:`INPUT_SAMPLING_S`], FIFO kept), so that the phases of the sources' cell streams drift."""
    links = tuple(replace(link, cdv_s=INPUT_SAMPLING_S) if link.b == SWITCH and link.a.startswith("A") else link
                  for link in run.network.links)
    return replace(run, network=replace(run.network, links=links))


def spread_starts(run, rtts_s, seed):
    """Each source opening at its own time within :data:`START_SPREAD_S`."""
    starts = _study_draws(seed, len(run.connections), START_SPREAD_S)
    return replace(run, connections=tuple(replace(c, start_s=float(t)) for c, t in zip(run.connections, starts)))


def stated_ack_delay(run, rtts_s, seed):
    """Every receiver delays its ACKs by the figure's RTT itself (lakshman 3: "this delay is set to 60 ms"),
    the links' round trip coming on top: an external RTT of about 75-80 ms at the figures' 60 ms."""
    return with_tcp(run, lambda i, tcp: {"ack_delay_s": float(rtts_s[i])})


def equal_external_rtts(run, rtts_s, seed):
    """Each receiver's ACK delay makes its own connection's external RTT exactly the figure's (the figure's
    RTT less its own path's round trip), instead of one delay for all receivers."""
    delays = link_delays(len(rtts_s), seed)
    return with_tcp(run, lambda i, tcp: {"ack_delay_s": float(rtts_s[i] - path_round_trip_s(delays, len(rtts_s), i))})


def timer(granularity_s: float):
    """The hosts' timer ticking every ``granularity_s`` instead of :data:`.scenario.TIMER_GRANULARITY_S`."""
    def change(run, rtts_s, seed):
        return with_tcp(run, lambda i, tcp: {"granularity_s": granularity_s})
    change.__doc__ = f"A {granularity_s * 1e3:g} ms timer tick."
    return change


def tick_phases(run, rtts_s, seed):
    """Each host's timer ticking at its own phase, drawn uniformly within one tick (the headline's hosts
    tick together, as one simulator clock would)."""
    return with_tick_phases(run, seed, STUDY_STREAM)


def previous_tcp(run, rtts_s, seed):
    """The project's reading of 4.3-Reno before issue 21's rule (:data:`.scenario.PREVIOUS_READING`): one
    segment per round trip in congestion avoidance, goyal1998's ssthresh and recovery exit."""
    return with_tcp(run, lambda i, tcp: dict(PREVIOUS_READING))


HEADLINE = "headline"
READINGS = {
    HEADLINE: Reading(_same, "the headline runs (lakshman.fig2, lakshman.fig10)"),
    "AAL5 EOM delineation": Reading(
        eom_delineation, 'lakshman 2.1: "In this paper, packet and ATM AAL5 frames are used synonymously"; the '
        'headline reads 3: "Packets with lost cells which cannot be successfully reassembled at the ADSU are '
        'dropped at the ADSU" and 2.1: "the TCP packet to which the cell belongs will be retransmitted entirely".'),
    "Frame-Tail not randomized": Reading(
        frame_tail_not_randomized, 'lakshman 3: "For tail drop, when a cell arrives to a full buffer instead of '
        'dropping the incoming cell ... the cell dropped is equiprobably either the incoming cell or one of the '
        'first few ... cells in the end of the buffer"; the headline reads 4: "For Frame-Tail this is true '
        'because whenever two packets are colliding while the buffer is full, at random one of the two '
        'connections loses all cells from the point where the buffer gets full".', ("frame_tail",)),
    "unslotted output port": Reading(
        unslotted_port, 'lakshman 3: "The links connected to the switch output port operate in a slotted manner" '
        '(the switch\'s timing; the headline is slotted).'),
    "input sampling 2.8 us": Reading(
        input_sampling, 'lakshman 3: "The switch samples the switch input ports ... once every 2.8 usecs. The '
        'internal switch timing is simulated accurately"; the headline has "no queuing or blocking internal to '
        'the switch".'),
    "starts spread over one RTT": Reading(
        spread_starts, "lakshman gives no start times; the headline starts every source at t = 0 (\"the TCP "
        "sources always have data to send\")."),
    "ACK delay 60 ms as stated": Reading(
        stated_ack_delay, 'lakshman 3: "The ACK is delayed by a specified value and in our simulations this delay '
        'is set to 60 ms"; the headline reads 4: "The RTTs listed in the figures are the RTTs excluding the '
        'delay in the buffer".'),
    "equal external RTTs": Reading(
        equal_external_rtts, 'lakshman 4: "In the cases of equal RTTs, beta is well-defined"; the headline gives '
        'every receiver one "specified value" of ACK delay (3), so the RTTs differ by the links\' delays.'),
    "timer 100 ms": Reading(timer(0.1), 'lakshman 3: "We used a timer with much finer granularity than the '
                            'typical 500 ms" (the headline: 10 ms).'),
    "timer 1 ms": Reading(timer(0.001), 'lakshman 3: "We used a timer with much finer granularity than the '
                          'typical 500 ms" (the headline: 10 ms).'),
    "timer phase per host": Reading(tick_phases, "lakshman is silent on whether the hosts' timers tick together "
                                    "(the headline: one clock)."),
    "previous TCP reading": Reading(
        previous_tcp, 'lakshman 3: "a version of TCP-Reno ... proposed by Van Jacobson in 1990 [6]", its '
        "congestion-avoidance increase unsaid (the headline: 4.4BSD-Lite's, the project's rule)."),
}
"""The readings of the study, each one change from the headline (:class:`Reading`), with the sentence it
rests on."""


def study_points(quick: bool) -> list[dict]:
    """Every reading x case x discipline x buffer x seed, leaving out the disciplines a reading does not
    change (:attr:`Reading.disciplines`; :func:`fill_unchanged` takes them from the headline)."""
    points = grid(reading=list(READINGS), case=list(STUDY_CASES), discipline=list(DISCIPLINES),
                  buffer=buffers(quick) if quick else list(STUDY_BUFFERS),
                  seed=seeds(quick) if quick else list(STUDY_SEEDS))
    return [p for p in points if p["discipline"] in READINGS[p["reading"]].disciplines]


def study_run(point: dict, quick: bool) -> xr.Dataset:
    """One run of the study: the headline run of the point, changed by its reading."""
    rtts, _ = TOTAL_FIGURES[point["case"]]
    duration, warmup = run_length(quick)
    run = lakshman_run(rtts, discipline_port(point["discipline"], point["buffer"]), point["seed"], duration, warmup)
    run = READINGS[point["reading"]].change(run, rtts, point["seed"])
    ds = summarize_run(simulate(run), run, rtts)
    return ds[["total_throughput", "timeouts", "fast_retransmits"]]


def fill_unchanged(ds: xr.Dataset) -> xr.Dataset:
    """The runs a reading does not change (NaN in the assembled grid) taken from the headline's, and beta
    beside the buffer axis."""
    for reading, spec in READINGS.items():
        for k in DISCIPLINES:
            if k not in spec.disciplines:
                for name in ("total_throughput", "timeouts", "fast_retransmits"):
                    ds[name].loc[{"reading": reading, "discipline": k}] = ds[name].sel(reading=HEADLINE, discipline=k)
    for name in ("timeouts", "fast_retransmits"):  # counts again, once every point has one
        if not ds[name].isnull().any():
            ds[name] = ds[name].astype(np.int64).assign_attrs(ds[name].attrs)
        ds[name].encoding.clear()
    ds.attrs["copied_from_headline"] = "; ".join(
        f"{r}: {', '.join(k for k in DISCIPLINES if k not in s.disciplines)}" for r, s in READINGS.items()
        if set(s.disciplines) != set(DISCIPLINES))
    return with_beta(ds)


def study_parameters(quick: bool) -> dict:
    """The buffer study's parameters: the experiments' (:func:`parameters`) and the study's own constants."""
    return {**parameters(quick), "input_sampling_s": INPUT_SAMPLING_S, "start_spread_s": START_SPREAD_S,
            "smallest_beta": SMALLEST_BETA, "beta_one_cells": BETA_ONE_CELLS}


EXPERIMENTS = [
    Experiment("lakshman.buffer_study", "Figs. 2 and 10 under each reading of lakshman's system, one change at a "
               "time: what the buffer requirements depend on", study_points, study_run, finish=fill_unchanged,
               parameters=study_parameters, notes="readings: atmtcp.papers.lakshman.studies.READINGS; seeds 1-3"),
]
