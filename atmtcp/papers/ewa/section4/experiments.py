"""ewa section 4, EWA's evaluation: the targets ``ewa.fig14`` ... ``ewa.fig39`` and ``ewa.ssthresh_study``.

- Figs. 14-37 (``ewa_point``): the scenarios of sections 4.1-4.6 with EWA at AAP-1, four figures
  each (sequence numbers; AAP-1's buffer; each connection's utilization per 250 ms; L1's), all four
  the same runs; Figs. 38-39: section 4.6 with RED instead of EWA.
- ``ewa.ssthresh_study``: section 4.2's run with an initial ssthresh of 1 MB and of 512 KB, to 50 s.

Definitions (every section's, :mod:`atmtcp.papers.ewa.shared.measures`, and):

- *Steady part* of a phase: from :data:`STEADY_AFTER_S` after its start to its end (4.1: "Except for
  brief periods when the number of active connections changes"; 4.4: "Within approximately half a
  second all ten connection have reached their steady state").
- *Transmission window* of a connection: ``min(cwnd, advertised window)``, what TCP may have in flight
  (ewa 4.6, Fig. 36: "The TCP transmission windows"); the *window fed back* is the advertised window
  of the last ACK the source received (EWA's W'_r).
- *Available* share of L1 (4.5): 1 while the priority VC is off, the rate it leaves while it is on;
  its mean over the run is the utilization TCP can reach.
"""
from __future__ import annotations

import numpy as np
import xarray as xr

from ....compile import cell_time_ns
from ....experiment import Experiment, grid
from ....simulate import simulate
from ..shared.measures import SEEDS, TRACE_STEP_S, attrs, copy_of, phase_numbers, seed_points, seeds, utilization
from ..shared.scenario import BSD_READING, INTERVAL_S, MSS, max_tcp_throughput_mbps
from .scenario import (
    SCENARIOS, SSTHRESH_STUDY_KB, EwaScenario, base_rtt_s, buffer_packets, ewa_run, long_ip_with_ssthresh,
    pipe_packets,
)

# Seeds as every section's (:func:`atmtcp.papers.ewa.shared.measures.seeds`): seed 0 is the paper's run
# (connections open at their times exactly; section 4.6's starts are drawn in [0, 5 ms) for every seed),
# the others open them within 10 ms; the ON/OFF periods and the priority VC's come from the run's seed.
# Traces every TRACE_STEP_S, as section 2.

STEADY_AFTER_S = 0.5
"""The first half second of each phase is its transient (see the module docstring)."""


FIGURES = {
    # scenario: (sequence numbers, buffer, per-connection utilization, L1's utilization)
    "small_ip": ("ewa.fig14", "ewa.fig15", "ewa.fig16", "ewa.fig17"),
    "long_ip": ("ewa.fig18", "ewa.fig19", "ewa.fig20", "ewa.fig21"),
    "unequal_ip": ("ewa.fig22", "ewa.fig23", "ewa.fig24", "ewa.fig25"),
    "new_connections": ("ewa.fig26", "ewa.fig27", "ewa.fig28", "ewa.fig29"),
    "varying_rate": ("ewa.fig30", "ewa.fig31", "ewa.fig32", "ewa.fig33"),
    "on_off": ("ewa.fig34", "ewa.fig35", "ewa.fig36", "ewa.fig37"),
}
"""Each scenario's four figures in the paper's order (section 4.6's third is the windows, Fig. 36)."""
RED_FIGURES = ("ewa.fig38", "ewa.fig39")
"""Section 4.6 with RED: sequence numbers (Fig. 38) and L1's utilization (Fig. 39)."""


def scenario_of(target: str) -> str:
    """The key of the scenario whose figures include ``target`` (:data:`FIGURES`)."""
    return next(key for key, targets in FIGURES.items() if target in targets)


def steady_phases(s: EwaScenario) -> tuple:
    """The phases of ``s`` without each one's first :data:`STEADY_AFTER_S` (the transient): ``(name, start,
    end)``."""
    return tuple((name, start + STEADY_AFTER_S, end) for name, start, end in s.phases)


def available_share(ds: xr.Dataset, s: EwaScenario) -> float:
    """The mean share of L1's rate left to the TCP VC over the run (1 without a priority VC)."""
    if s.priority_vc is None:
        return 1.0
    on = float(ds.priority_on_s.sel(router_port="AAP1->ATM")) / s.duration_s
    left = cell_time_ns(155.52e6) / cell_time_ns(155.52e6 - s.priority_vc.rate_bps)
    return 1.0 - on * (1.0 - left)


def _in_phase(times: np.ndarray, phases) -> np.ndarray:
    """(phase, sample) mask: the samples inside each phase (start, end]."""
    return np.array([(times > start + 1e-9) & (times <= end + 1e-9) for _, start, end in phases])


RECOVERED = 0.95
"""A phase's utilization has *recovered* from the 250 ms interval on after which it stays at or above this."""
UNDERFLOW_WINDOW_S = 1.0
"""A phase's *underflow*: the buffer empties within this long after the phase's start; it lasts until
the last 5 ms sample in that second that finds the buffer empty (4.1: "it will take a few RTTs")."""


def recovery_s(ends: np.ndarray, total: np.ndarray, phases) -> np.ndarray:
    """Per phase: from its start to the end of the first 250 ms interval from which L1's utilization
    stays at or above :data:`RECOVERED` to the phase's end (the phase's length if it never does)."""
    out = []
    for _, start, end in phases:
        inside = (ends > start + 1e-9) & (ends <= end + 1e-9)
        low = np.where(inside & (total < RECOVERED))[0]
        out.append((ends[low[-1]] if len(low) else start) - start)
    return np.array(out)


def transition_numbers(times, queue, wtimes, windows, phases, open_sets) -> dict[str, np.ndarray]:
    """Per phase: how long the buffer underflows after its start (ms), and the mean transmission window
    (KB) of the connections open in it just before its start and at the end of the underflow."""
    underflow, before, after = [], [], []
    for (_, start, _), open_ in zip(phases, open_sets):
        empty = np.where((times > start) & (times <= start + UNDERFLOW_WINDOW_S) & (queue == 0))[0]
        lasted = times[empty[-1]] - start if len(empty) else 0.0
        underflow.append(1e3 * lasted)
        i0 = np.searchsorted(wtimes, start) - 1
        i1 = np.searchsorted(wtimes, start + lasted)
        before.append(windows[i0, open_].mean() / 1024 if i0 >= 0 else np.nan)
        after.append(windows[min(i1, len(wtimes) - 1), open_].mean() / 1024)
    return {"underflow_ms": np.array(underflow), "before_kb": np.array(before), "after_kb": np.array(after)}


def on_off_over_persistent(throughput: np.ndarray, applications: list[str]) -> float:
    """The ON/OFF connections' mean throughput over the persistent ones' (ewa 4.6; NaN without both)."""
    kinds = np.array(applications)
    if not ((kinds == "on_off").any() and (kinds == "persistent").any()):
        return np.nan
    return throughput[kinds == "on_off"].mean() / throughput[kinds == "persistent"].mean()


def _phase_variables(ds: xr.Dataset, s: EwaScenario, step: int, applications: list[str], ends: np.ndarray,
                     per_source: np.ndarray) -> dict:
    """L1's utilization per 250 ms, and per phase (whole and steady part): utilization, fairness and shares,
    AAP-1's buffer and alpha, the recovery and underflow after the phase's start (``ends``, ``per_source``:
    :func:`atmtcp.papers.ewa.shared.measures.utilization`)."""
    open_sets = [s.open_in(start, end) for _, start, end in s.phases]
    whole = phase_numbers(ends, per_source, s.phases, open_sets)
    steady = phase_numbers(ends, per_source, steady_phases(s), open_sets)
    times = ds.sample_time.values
    queue = ds.queue_packets_sampled.values[:, 0]
    in_steady = _in_phase(times, steady_phases(s))
    alpha = ds.sampled_alpha.values[:, 0]
    windows = np.minimum(ds.sampled_cwnd.values, ds.sampled_snd_wnd.values)[::step]
    transitions = transition_numbers(times, queue, times[::step], windows, s.phases, open_sets)
    capacity = max_tcp_throughput_mbps()
    later = ends > 1.0 + 1e-9
    phase_var = lambda values, units, name: ("phase", np.asarray(values), attrs(units, name))  # noqa: E731
    return {
        "utilization": ("interval", per_source.sum(1), attrs("1", "effective utilization of L1 per 250 ms")),
        "source_utilization": (("interval", "source"), per_source,
                               attrs("1", "each connection's part of L1's effective utilization per 250 ms")),
        "utilization_phase": phase_var(whole["utilization"], "1", "L1's effective utilization, mean of the phase"),
        "fairness_phase": phase_var(whole["fairness"], "1", "Jain's index of the open connections' throughputs"),
        "share_ratio_phase": phase_var(whole["ratio"], "1", "the largest throughput of the phase over the second"),
        "throughput_phase": (("phase", "source"), whole["throughput"],
                             attrs("Mbit/s", "each connection's TCP payload on L1 in the phase")),
        "utilization_steady": phase_var(steady["utilization"], "1", "L1's utilization after the first 0.5 s"),
        "fairness_steady": phase_var(steady["fairness"], "1", "Jain's index after the phase's first 0.5 s"),
        "throughput_steady": (("phase", "source"), steady["throughput"],
                              attrs("Mbit/s", "each connection's throughput after the phase's first 0.5 s")),
        "empty_fraction_steady": phase_var([(queue[m] == 0).mean() for m in in_steady], "1",
                                           "share of the 5 ms samples after the phase's first 0.5 s that find "
                                           "AAP-1's buffer empty"),
        "queue_steady": phase_var([queue[m].mean() for m in in_steady], "packet",
                                  "AAP-1's mean buffer after the phase's first 0.5 s"),
        "alpha_steady": phase_var([alpha[m].mean() for m in in_steady], "1", "EWA's mean alpha after 0.5 s"),
        "open_share_steady": phase_var([steady["throughput"][j, o].mean() / capacity for j, o in enumerate(open_sets)],
                                       "1", "mean share of L1 of the open connections after the phase's first 0.5 s"),
        "recovery_s": phase_var(recovery_s(ends, per_source.sum(1), s.phases), "s",
                                f"from the phase's start until L1's utilization stays >= {RECOVERED}"),
        "underflow_ms": phase_var(transitions["underflow_ms"], "ms",
                                  "from the phase's start to the last empty 5 ms sample within 1 s"),
        "window_before_kb": phase_var(transitions["before_kb"], "KB",
                                      "mean transmission window of the phase's connections before its start"),
        "window_after_kb": phase_var(transitions["after_kb"], "KB",
                                     "mean transmission window of the phase's connections when its underflow ends"),
        "utilization_min": ((), per_source[later].sum(1).min(), attrs("1", "L1's lowest 250 ms utilization after 1 s")),
        "on_off_over_persistent": ((), on_off_over_persistent(whole["throughput"].mean(0), applications),
                                   attrs("1", "ON/OFF connections' mean throughput over the persistent ones'")),
    }


def _trace_variables(ds: xr.Dataset, step: int) -> dict:
    """Each connection's sequence number and windows every :data:`TRACE_STEP_S`; AAP-1's buffer and EWA's
    state at every sample."""
    queue = ds.queue_packets_sampled.values[:, 0]
    alpha = ds.sampled_alpha.values[:, 0]
    return {
        "seq_packets": (("time", "source"), ds.sampled_snd_max.values[::step] / MSS,
                        attrs("packet", "highest sequence number sent, in segments")),
        "cwnd": (("time", "source"), ds.sampled_cwnd.values[::step],
                 {**attrs("byte", "congestion window"), "interpolation": "previous"}),
        "window_fed_back": (("time", "source"), ds.sampled_snd_wnd.values[::step],
                            {**attrs("byte", "advertised window of the last ACK the source received (EWA's W'_r)"),
                             "interpolation": "previous"}),
        "queue_packets": ("sample_time", queue, attrs("packet", "packets in AAP-1's buffer")),
        "queue_dropped": ("sample_time", ds.queue_dropped_sampled.values[:, 0],
                          attrs("packet", "packets AAP-1 had dropped by the instant")),
        "alpha": ("sample_time", alpha, attrs("1", "EWA's alpha (ewa 3.2)")),
        "average_queue": ("sample_time", ds.sampled_average_queue.values[:, 0],
                          attrs("packet", "EWA's average queue (gain 1/128, at each ACK)")),
        "feedback": ("sample_time", ds.sampled_feedback.values[:, 0],
                     attrs("packet", "EWA's feedback f(B - Q) at the instant")),
        "available_rate": ("sample_time", ds.sampled_available_rate.values[:, 0],
                           attrs("1", "share of L1's rate left to the TCP VC (the priority VC, ewa 4.5)")),
    }


def _count_variables(ds: xr.Dataset, s: EwaScenario) -> dict:
    """Per connection and per run: drops, timeouts, retransmissions, goodput; the share of L1 left to TCP and
    of the ACKs EWA lowered."""
    return {
        "packets_dropped": ("source", ds.packets_dropped_by_source.values, attrs("packet", "packets dropped at AAP-1")),
        "timeouts": ("source", ds.timeouts.values, attrs("1", "retransmission timeouts")),
        "fast_retransmits": ("source", ds.fast_retransmits.values, attrs("1", "fast retransmits")),
        "retransmissions": ("source", ds.retransmissions.values, attrs("1", "segments sent again")),
        "goodput_mbps": ("source", ds.goodput_bps.values / 1e6, attrs("Mbit/s", "in-order bytes delivered x 8 / 20 s")),
        "packets_dropped_total": ((), int(ds.packets_dropped_by_source.sum()), attrs("packet", "packets dropped at AAP-1")),
        "available_share": ((), available_share(ds, s), attrs("1", "mean share of L1's rate left to TCP")),
        "acks_marked_down": ((), float(ds.ewa_acks_marked_down.sum() / max(1, int(ds.ewa_acks.sum()))),
                             attrs("1", "share of the ACKs whose window EWA lowered")),
    }


def summarize_ewa(ds: xr.Dataset, run, s: EwaScenario) -> xr.Dataset:
    """One run of a section 4 scenario reduced to what its figures and claims read (module docstring)."""
    ends, per_source = utilization(ds)
    times = ds.sample_time.values
    step = int(round(TRACE_STEP_S / run.trace.sample_interval_s))
    n = len(run.connections)
    applications = ["on_off" if c.on_off else "persistent" for c in run.connections]
    variables = {**_phase_variables(ds, s, step, applications, ends, per_source), **_trace_variables(ds, step),
                 **_count_variables(ds, s)}
    out = xr.Dataset(variables, coords={
        "interval": ("interval", ends, attrs("s", "end of the 250 ms interval")),
        "source": ("source", np.arange(1, n + 1), attrs("1", "connection (1-N)")),
        "phase": [name for name, _, _ in s.phases],
        "time": ("time", times[::step], attrs("s", "simulated time")),
        "sample_time": ("sample_time", times, attrs("s", "sampling instant")),
        "application": ("source", applications,
                        attrs("1", "the connection's application (ewa 4.6)")),
        "ip_delay_ms": ("source", [1e3 * d for d in s.ip_delays_s[:n]],
                        attrs("ms", "one-way delay of the source's link in IP network 1")),
        "source_node": ("source", [int(c.src[1:]) for c in run.connections], attrs("1", "source host")),
    })
    out["max_tcp_throughput_mbps"] = xr.DataArray(max_tcp_throughput_mbps(), attrs=attrs(
        "Mbit/s", "maximum TCP throughput over the AAL5 VC at L1's full rate: utilization's denominator"))
    return out


def ewa_point(key: str, policy: str = "ewa"):
    """The ``run_point`` of scenario ``key``'s runs with ``policy`` at AAP-1: :func:`summarize_ewa`."""
    def run_point(point: dict, quick: bool) -> xr.Dataset:
        s = SCENARIOS[key]
        run = ewa_run(s, point["seed"], policy)
        return summarize_ewa(simulate(run), run, s)
    return run_point


STUDY_SEEDS, QUICK_STUDY_SEEDS = SEEDS, 2
"""``ewa.ssthresh_study`` runs as many seeds as the figures (one run of 50 s takes about 0.3 s): its
512 KB recovery is a number of the paper (section 4.2, "approximately 20-30 seconds")."""


def ssthresh_points(quick: bool) -> list[dict]:
    """``ewa.ssthresh_study``'s points: each initial ssthresh of :data:`SSTHRESH_STUDY_KB` x the seeds (ewa
    4.2)."""
    return grid(ssthresh_kb=list(SSTHRESH_STUDY_KB), seed=list(range(QUICK_STUDY_SEEDS if quick else STUDY_SEEDS)))


def growth_per_rtt(ds: xr.Dataset, s: EwaScenario, start_s: float, until_s: float) -> float:
    """Segments per round trip by which the congestion windows of the connections open after ``start_s`` grow
    in congestion avoidance until ``until_s`` (ewa 1, 3.1: "by approximately one segment every round-trip
    time"): for each, from its first sample after ``start_s`` with cwnd above the initial ssthresh (section
    4's runs lose nothing, so ssthresh stays there), the growth in segments over the time in round trips of
    :func:`base_rtt_s` (L1 is under-used until ``until_s``, so AAP-1's queue adds nothing to the round trip);
    the mean over the connections. NaN if no connection spends two round trips in congestion avoidance."""
    times = ds.sample_time.values
    cwnd = ds.sampled_cwnd.values
    rates = []
    for i in s.open_in(start_s, until_s):
        above = np.flatnonzero((times > start_s) & (times <= until_s) & (cwnd[:, i] > s.initial_ssthresh))
        if len(above) < 2 or times[above[-1]] - times[above[0]] < 2 * base_rtt_s(s, i):
            continue
        rounds = (times[above[-1]] - times[above[0]]) / base_rtt_s(s, i)
        rates.append((cwnd[above[-1], i] - cwnd[above[0], i]) / MSS / rounds)
    return float(np.mean(rates)) if rates else float("nan")


def ssthresh_point(point: dict, quick: bool) -> xr.Dataset:
    """``ewa.ssthresh_study``: section 4.2's run with the initial ssthresh of the point, to 50 s, and the
    windows' growth per round trip in congestion avoidance after 15 s until L1 has recovered
    (:func:`growth_per_rtt`)."""
    s = long_ip_with_ssthresh(point["ssthresh_kb"])
    run = ewa_run(s, point["seed"])
    raw = simulate(run)
    ds = summarize_ewa(raw, run, s)
    _, start, end = s.phases[-1]
    until = start + float(ds.recovery_s.isel(phase=-1))
    ds["growth_per_rtt"] = xr.DataArray(growth_per_rtt(raw, s, start, until if until > start else end), attrs=attrs(
        "segment", "congestion-avoidance growth of cwnd per empty-queue round trip, after 15 s until L1 recovers"))
    return ds[["utilization", "utilization_phase", "recovery_s", "window_before_kb", "window_after_kb",
               "growth_per_rtt"]]


BEHAVIOUR_READINGS = {"headline": {}, "4.4BSD-Lite (+mss/8, delayed ACKs)": BSD_READING}
"""``ewa.behaviour_sensitivity``'s TCP: the headline (one segment per round trip, every segment acknowledged:
ewa 4.1-4.2's sentences, :data:`atmtcp.papers.ewa.shared.scenario.TCP_SETTINGS`) and 4.4BSD-Lite's increase
and delayed ACKs, the reading by the TCP the paper names."""
BEHAVIOUR_CASES = {"section 4.1": lambda: SCENARIOS["small_ip"], "ssthresh 512 KB": lambda: long_ip_with_ssthresh(512)}
"""The runs whose sentences decide the increase and the ACKs: section 4.1 (the 150 ms after 15 s) and section
4.2 with ssthresh 512 KB (the 20-30 s)."""
BEHAVIOUR_SEEDS, QUICK_BEHAVIOUR_SEEDS = 5, 1


def behaviour_points(quick: bool) -> list[dict]:
    """``ewa.behaviour_sensitivity``'s points: each TCP reading x each case of :data:`BEHAVIOUR_CASES` x the
    seeds."""
    return grid(tcp=list(BEHAVIOUR_READINGS), case=list(BEHAVIOUR_CASES),
                seed=list(range(QUICK_BEHAVIOUR_SEEDS if quick else BEHAVIOUR_SEEDS)))


def behaviour_point(point: dict, quick: bool) -> xr.Dataset:
    """``ewa.behaviour_sensitivity``: one run of the case under the reading, reduced to its last phase: the
    buffer's underflow, L1's recovery and the congestion-avoidance growth per round trip."""
    s = BEHAVIOUR_CASES[point["case"]]()
    run = ewa_run(s, point["seed"], reading=BEHAVIOUR_READINGS[point["tcp"]])
    raw = simulate(run)
    ds = summarize_ewa(raw, run, s)
    _, start, end = s.phases[-1]
    recovered = float(ds.recovery_s.isel(phase=-1))
    return xr.Dataset({
        "underflow_ms": ((), float(ds.underflow_ms.isel(phase=-1)), attrs("ms", ds.underflow_ms.attrs["long_name"])),
        "recovery_s": ((), recovered, attrs("s", ds.recovery_s.attrs["long_name"])),
        "growth_per_rtt": ((), growth_per_rtt(raw, s, start, start + recovered if recovered > 0 else end), attrs(
            "segment", "congestion-avoidance growth of cwnd per empty-queue round trip in the last phase")),
    })


def scenario_parameters(s: EwaScenario, seed_count: int) -> dict:
    """The fixed parameters of the runs of ``s`` (``seed_count`` of them), as netCDF attributes."""
    return {"mss_bytes": MSS, "duration_s": s.duration_s, "interval_s": INTERVAL_S,
            "max_tcp_throughput_mbps": max_tcp_throughput_mbps(), "buffer_bytes": s.buffer_bytes,
            "buffer_packets": buffer_packets(s), "pipe_packets": pipe_packets(s), "rcv_wnd_bytes": s.rcv_wnd,
            "initial_ssthresh_bytes": s.initial_ssthresh, "atm_delay_s": s.atm_delay_s, "seeds": seed_count,
            "steady_after_s": STEADY_AFTER_S}


def parameters(key: str):
    """The ``parameters`` of scenario ``key``'s experiments: :func:`scenario_parameters`, a run per seed."""
    return lambda quick: scenario_parameters(SCENARIOS[key], len(seeds(quick)))


def _scenario_experiments(key: str) -> list[Experiment]:
    s = SCENARIOS[key]
    first, *rest = FIGURES[key]
    what = ("sequence numbers", "AAP-1's buffer, alpha and the window fed back",
            "transmission windows of one ON/OFF and one persistent connection" if key == "on_off"
            else "each connection's utilization per 250 ms", "effective utilization of L1 per 250 ms")
    experiments = [Experiment(first, f"{s.title}: {what[0]}", seed_points, ewa_point(key), parameters=parameters(key))]
    experiments += [Experiment(target, f"{s.title}: {title}", parents=(first,), derive=copy_of(first))
                    for target, title in zip(rest, what[1:])]
    return experiments


ON_OFF_RED_TITLE = "RED (max_p 0.05, min_th 150, max_th 400) instead of EWA, 10 persistent and 30 ON/OFF connections"
EXPERIMENTS = [
    *(e for key in FIGURES for e in _scenario_experiments(key)),
    Experiment(RED_FIGURES[0], f"{ON_OFF_RED_TITLE}: sequence numbers", seed_points, ewa_point("on_off", "red"),
               parameters=parameters("on_off")),
    Experiment(RED_FIGURES[1], f"{ON_OFF_RED_TITLE}: effective utilization of L1 per 250 ms",
               parents=(RED_FIGURES[0],), derive=copy_of(RED_FIGURES[0])),
    Experiment("ewa.ssthresh_study", "Section 4.2's run with an initial ssthresh of 1 MB and of 512 KB, to 50 s",
               ssthresh_points, ssthresh_point, parameters=parameters("long_ip"),
               notes="not a figure of the paper: the numbers of section 4.2's last paragraph"),
    Experiment("ewa.behaviour_sensitivity", "Sections 4.1-4.2's window growth under both readings of ewa's TCP",
               behaviour_points, behaviour_point,
               notes="not a figure of the paper: the other reading of the sentences on the TCP's behaviour"),
]
