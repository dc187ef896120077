"""ewa's claims about section 3.1 (Fig. 13: the linear feedback against the logarithmic one), and two checks
no paper makes: the equilibrium of eq. 3.2, solved numerically (:mod:`.equilibrium`), against the simulated
steady-state queue of section 3.1's and section 4's runs.

As in :mod:`atmtcp.papers.ewa.section2.claims`: each quotes its sentence, names the targets it reads and
computes its verdict from the data, on the distribution over our seeds (``seed_share``). The two equilibrium
checks read every seed as stored and count the seeds that agree.
"""
from __future__ import annotations

import numpy as np

from .... import words
from ....claims import Points, Verdict
from ..section4.claims import EMPTY_AT_MOST
from ..section4.experiments import scenario_of
from ..section4.scenario import SCENARIOS, buffer_packets, pipe_packets
from ..shared.claims import claim
from . import equilibrium

EQUILIBRIUM_TOLERANCE = 0.02
"""The equilibrium queue: within 2 % of the buffer (at least one packet) of the simulated steady mean."""
OSCILLATION = 10.0
"""'large oscillations': the linear feedback's queue varies at least 10 times as much (standard deviation
of the 5 ms samples from 1 s on) as the logarithmic one's, and by at least 5 % of the buffer."""


# --- section 3.1: Fig. 13 ----------------------------------------------------------------------------------------
# The checks below read one run, or the mean over the seeds: datasets without a ``seed`` axis (the claims'
# ``seed_share``), except the equilibrium's, which read every seed (``seed`` axis kept).
def _fig13(d, feedback: str, sources: int):
    return d["ewa.fig13"].sel(feedback=feedback, sources=sources)


def _linear_oscillates(d):
    lin, log = _fig13(d, "linear", 40), _fig13(d, "log", 40)
    sd_lin, sd_log = float(lin.queue_sd), float(log.queue_sd)
    buffer = buffer_packets(SCENARIOS["new_connections"])
    points = Points()
    points.at_least(sd_lin, OSCILLATION * max(sd_log, 1e-9))
    points.at_least(sd_lin, 0.05 * buffer)
    return points.verdict(f"40 connections, alpha = 1, from 1 s on: the queue's standard deviation {sd_lin:.1f} packets "
                   f"(linear) against {sd_log:.1f} (logarithmic), of {buffer}; linear: {float(lin.packets_dropped):.0f}"
                   f" packets dropped and {float(lin.timeouts):.0f} timeouts per run, logarithmic "
                   f"{float(log.packets_dropped):.0f} and {float(log.timeouts):.0f}")


def _linear_underflows(d):
    lin, log = _fig13(d, "linear", 40), _fig13(d, "log", 40)
    empty, u_lin, u_log = float(lin.empty_fraction), float(lin.utilization), float(log.utilization)
    points = Points()
    points.at_least(empty, EMPTY_AT_MOST)
    points.at_most(u_lin, u_log)
    return points.verdict(
                   f"linear: buffer empty in {100 * empty:.1f} % of the samples (needs >= {100 * EMPTY_AT_MOST:g} %), "
                   f"utilization {u_lin:.3f} against the logarithmic {u_log:.3f}; the linear queue's mean is "
                   f"{float(lin.queue_mean):.0f} of {buffer_packets(SCENARIOS['new_connections'])} packets "
                   "(its equilibrium with alpha = 1 sits near the top of the buffer, so its swings overflow)")


def _log_steady(d):
    log = _fig13(d, "log", 40)
    sd, drops = float(log.queue_sd), float(log.packets_dropped)
    points = Points()
    points.at_most(sd, 2.0)
    points.at_most(drops, 0.0)
    return points.verdict(f"40 connections, alpha = 1: the queue's standard deviation {sd:.2f} "
                   f"packets from 1 s on (needs <= 2), {drops:.0f} packets dropped (needs 0), mean "
                   f"{float(log.queue_mean):.1f} packets")


def _log_small_feedback(d):
    log, lin = _fig13(d, "log", 10), _fig13(d, "linear", 10)
    u = float(log.utilization)
    points = Points()
    points.at_most(u, 0.9)
    points.at_most(float(log.window_fed_back), float(lin.window_fed_back) - words.SIGNIFICANT.value)
    return points.verdict(
                   f"10 connections, alpha = 1: logarithmic window {float(log.window_fed_back):.1f} segments, "
                   f"linear {float(lin.window_fed_back):.1f}; L1's utilization {u:.3f} (logarithmic) and "
                   f"{float(lin.utilization):.3f} (linear); needs the logarithmic below 0.9")


# --- the equilibrium of eq. 3.2 (ours) --------------------------------------------------------------------------------
EQUILIBRIUM_CASES = (
    # (target, phase, connections): equal round trips, every connection persistent
    ("ewa.fig15", "0-10 s", 10), ("ewa.fig15", "10-15 s", 5), ("ewa.fig15", "15-20 s", 2),
    ("ewa.fig19", "0-10 s", 10), ("ewa.fig19", "10-15 s", 5),
    ("ewa.fig27", "0-10 s", 5), ("ewa.fig27", "10-15 s", 10),
)
"""Steady phases of the scenarios whose connections have equal round trips and are all persistent. Section
4.2's last phase is left out: alpha is still growing at 20 s (the buffer has not reached the low threshold)."""


def equilibrium_rows(d, with_pipe: bool) -> list[tuple[str, np.ndarray, np.ndarray, int, np.ndarray]]:
    """(case, simulated mean queue per seed, solution per seed, buffer, alpha per seed) for Fig. 13's
    logarithmic run (alpha fixed at 1, 40 connections) and each case of :data:`EQUILIBRIUM_CASES` (alpha:
    each seed's steady mean). Each seed is solved with its own alpha: with whole segments the solution
    jumps where f crosses an integer, so the mean alpha's solution is not the mean of the seeds'."""
    log = _fig13(d, "log", 40)
    cases = [("Fig. 13, log, 40 connections", log.queue_mean.values, 40, np.ones(log.sizes["seed"]),
              SCENARIOS["new_connections"])]
    for target, phase, n in EQUILIBRIUM_CASES:
        ds = d[target].sel(phase=phase)
        cases.append((f"{target} {phase}", ds.queue_steady.values, n, ds.alpha_steady.values,
                      SCENARIOS[scenario_of(target)]))
    rows = []
    for name, simulated, n, alphas, s in cases:
        buffer = buffer_packets(s)
        solved = np.array([equilibrium.queue_with_pipe(n, a, buffer, pipe_packets(s), whole_segments=True)
                           if with_pipe else equilibrium.queue_as_written(n, a, buffer) for a in alphas])
        rows.append((name, np.asarray(simulated, float), solved, buffer, np.asarray(alphas, float)))
    return rows


def _equilibrium(with_pipe: bool):
    """Every seed of every case must agree (a check of the model's equation, not of one run): read on the
    datasets as stored, each case's detail counting the seeds that agree."""
    def check(d):
        rows = equilibrium_rows(d, with_pipe)
        agree = [np.abs(sim - solved) <= max(1.0, EQUILIBRIUM_TOLERANCE * buffer) for _, sim, solved, buffer, _ in rows]
        return Verdict(all(a.all() for a in agree), "; ".join(
            f"{name} (alpha {alphas.min():.2f}-{alphas.max():.2f}): simulated {sim.mean():.1f}, solved "
            f"{solved.mean():.1f} of {buffer} (largest difference over seeds {np.abs(sim - solved).max():.1f}; "
            f"agrees in {int(ok.sum())} of {ok.size} seeds)"
            for (name, sim, solved, buffer, alphas), ok in zip(rows, agree)) +
            f". Every seed within {100 * EQUILIBRIUM_TOLERANCE:g} % of the buffer (at least 1 packet) counts as "
            "agreeing.")
    return check


CLAIMS = [
    # section 3.1, Fig. 13
    claim("linear_feedback_oscillates", "With larger feedback delays, however, especially when all the "
          "connections are in the congestion avoidance phase, such a function may cause substantial over-correction "
          "... These large oscillations in the windows (Fig. 13).", ("ewa.fig13",), _linear_oscillates),
    claim("linear_feedback_underflows", "These large oscillations in the windows can cause frequent underflows "
          "in the AAP, resulting in under-utilization of the available capacity in the ATM pipe (Fig. 13).",
          ("ewa.fig13",), _linear_underflows),
    claim("log_feedback_steady", "Using this function, rapid changes in the buffer occupancy will cause "
          "relatively small changes to the actual feedback ... and therefore, the buffer occupancy manages to reach "
          "the steady state independent of the phase that TCP connections operate in.", ("ewa.fig13",), _log_steady),
    claim("log_feedback_small_windows", "The feedback computed for each TCP connection when using the "
          "logarithmic function can be significantly smaller than that computed with the linear function. This may "
          "cause under-utilization when only a small number of TCP connections is active.", ("ewa.fig13",),
          _log_small_feedback),
    # the equilibrium (ours)
    claim("equilibrium_eq_3_2_as_written", "The system converges to a state that satisfies Q_i(t) = f(B - N "
          "Q_i(t)) (3.2), where Q_i(t) is the amount of buffer occupied by connection i, which is also equal to the "
          "feedback given to that connection. (Not a claim of the paper's results: eq. 3.2 solved numerically "
          "against the simulated steady-state queue.)", ("ewa.fig13", "ewa.fig15", "ewa.fig19", "ewa.fig27"),
          _equilibrium(with_pipe=False), None),
    claim("equilibrium_with_the_pipe", "(Ours.) Eq. 3.2 with each window filling the round-trip pipe P before "
          "it queues, in whole segments: N floor(f(B - Q)) = P + Q, solved numerically against the simulated "
          "steady-state queue.", ("ewa.fig13", "ewa.fig15", "ewa.fig19", "ewa.fig27"),
          _equilibrium(with_pipe=True), None),
]
