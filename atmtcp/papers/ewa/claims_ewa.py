"""ewa's claims about sections 3 and 4 (EWA), each a check on the reproduced datasets, and two checks no
paper makes: the equilibrium of eq. 3.2, solved numerically, against the simulated steady-state queue.

As in :mod:`atmtcp.papers.ewa.claims`: each quotes its sentence, names the targets it reads and computes
its verdict from the data; the paper's sentences are about its one run, so each claim is read on the
distribution over our seeds (``seed_share``: the check on the mean over the seeds and on each seed alone,
passing with the mean and at least :data:`atmtcp.claims.SEED_SHARE` of the seeds; the detail counts them).
"No packet dropped" holds on the mean only if it holds in every run (drops are counts). The two
equilibrium checks read every seed as stored and count the seeds that agree. Tolerances the paper does
not give are stated with each claim (``*_TOLERANCE`` and friends below). "Steady" means from half a second
after a phase's start (:data:`atmtcp.papers.ewa.experiments_ewa.STEADY_AFTER_S`).
"""
from __future__ import annotations

import numpy as np

from ...claims import SEED_SHARE, Claim, Verdict
from ...reference import load_reference
from . import equilibrium
from .experiments_ewa import FIGURES
from .scenario_ewa import SCENARIOS, buffer_packets, pipe_packets

FULL = 0.98
"""'the utilization of link L1 remains 100%', 'perfect': at least 0.98 of the maximum TCP throughput."""
SHARE_TOLERANCE = 0.10
"""'each of them receives 1/10th of the available bandwidth': each open connection's share within 10 %
(relative) of 1/N of the maximum TCP throughput."""
EMPTY_AT_MOST = 0.01
"""'the buffer never underflows': at most 1 % of the 5 ms samples (steady parts) find it empty."""
FAIR = 0.99
"""'perfectly fair', 'equal throughputs': Jain's index of the open connections at least 0.99."""
FAIRISH = 0.95
"""'fair', 'small variations': Jain's index at least 0.95."""
ABOUT = 0.5
"""'approximately' a duration: within a factor 1 +- 0.5 of the paper's (150 ms: 75-225 ms; 2 s: 1-3 s)."""
WINDOW_TOLERANCE = 0.25
"""'approximately 40 Kbytes': within 25 %."""
UTILIZATION_TOLERANCE = 0.05
"""'76%': within 5 points of utilization."""
EQUILIBRIUM_TOLERANCE = 0.02
"""The equilibrium queue: within 2 % of the buffer (at least one packet) of the simulated steady mean."""
OSCILLATION = 10.0
"""'large oscillations': the linear feedback's queue varies at least 10 times as much (standard deviation
of the 5 ms samples from 1 s on) as the logarithmic one's, and by at least 5 % of the buffer."""
SLOW_STARTS = 3
"""'a large number of slow-starts': at least three timeouts per connection in the 20 s (section 2's)."""
SIGNIFICANTLY = 0.05
"""'significantly worse': at least 5 points of utilization below."""
SIGNIFICANT_LOSS = 0.5
"""'significant improvements in packet loss rate': at most half the packets dropped per run."""
SIGNIFICANT_GAIN = 0.01
"""'significant improvements in ... throughput': L1's utilization over 20 s at least 1 point higher; in
fairness: a higher Jain's index (it cannot rise much near 1) of at least 0.99 ('a high degree of fairness')."""

SECTION_2 = {"Drop-from-Front": "ewa.fig7", "RED 0.02": "ewa.fig9", "RED 0.05": "ewa.fig11"}
"""Section 2's runs of the scenario section 4.1 repeats with EWA ("these network parameters are identical
to those used for comparing the Drop-Tail, Drop-from-Front, and the RED approaches in Section 2")."""
SECTION_2_READING = (
    " Read against section 2: in this model Drop-from-Front keeps L1 within a few points of full on this "
    "scenario (the per-phase table of notebooks/ewa.ipynb), so EWA's margin over it in throughput is a few "
    "points, where the paper's is 10-25; RED is far below both.")


def _scenario_of(target: str) -> str:
    return next(key for key, targets in FIGURES.items() if target in targets)


def paper_value(target: str, metric: str, phase: str | None = None) -> float:
    ref = load_reference("ewa")
    rows = ref[(ref.target == target) & (ref.metric == metric)]
    if phase is not None:
        rows = rows[rows.phase == phase]
    return float(rows.value.iloc[0])


# --- section 3.1: Fig. 13 ----------------------------------------------------------------------------------------
# The checks below read one run, or the mean over the seeds: datasets without a ``seed`` axis (the claims'
# ``seed_share``), except the equilibrium's, which read every seed (``seed`` axis kept).
def _fig13(d, feedback: str, sources: int):
    return d["ewa.fig13"].sel(feedback=feedback, sources=sources)


def _linear_oscillates(d):
    lin, log = _fig13(d, "linear", 40), _fig13(d, "log", 40)
    sd_lin, sd_log = float(lin.queue_sd), float(log.queue_sd)
    buffer = buffer_packets(SCENARIOS["new_connections"])
    ok = sd_lin >= OSCILLATION * max(sd_log, 1e-9) and sd_lin >= 0.05 * buffer
    return Verdict(ok, f"40 connections, alpha = 1, from 1 s on: the queue's standard deviation {sd_lin:.1f} packets "
                   f"(linear) against {sd_log:.1f} (logarithmic), of {buffer}; linear: {float(lin.packets_dropped):.0f}"
                   f" packets dropped and {float(lin.timeouts):.0f} timeouts per run, logarithmic "
                   f"{float(log.packets_dropped):.0f} and {float(log.timeouts):.0f}")


def _linear_underflows(d):
    lin, log = _fig13(d, "linear", 40), _fig13(d, "log", 40)
    empty, u_lin, u_log = float(lin.empty_fraction), float(lin.utilization), float(log.utilization)
    return Verdict(empty >= EMPTY_AT_MOST and u_lin < u_log,
                   f"linear: buffer empty in {100 * empty:.1f} % of the samples (needs >= {100 * EMPTY_AT_MOST:g} %), "
                   f"utilization {u_lin:.3f} against the logarithmic {u_log:.3f}; the linear queue's mean is "
                   f"{float(lin.queue_mean):.0f} of {buffer_packets(SCENARIOS['new_connections'])} packets "
                   "(its equilibrium with alpha = 1 sits near the top of the buffer, so its swings overflow)")


def _log_steady(d):
    log = _fig13(d, "log", 40)
    sd, drops = float(log.queue_sd), float(log.packets_dropped)
    return Verdict(sd <= 2.0 and drops == 0, f"40 connections, alpha = 1: the queue's standard deviation {sd:.2f} "
                   f"packets from 1 s on (needs <= 2), {drops:.0f} packets dropped (needs 0), mean "
                   f"{float(log.queue_mean):.1f} packets")


def _log_small_feedback(d):
    log, lin = _fig13(d, "log", 10), _fig13(d, "linear", 10)
    u = float(log.utilization)
    return Verdict(u < 0.9 and float(log.window_fed_back) < float(lin.window_fed_back),
                   f"10 connections, alpha = 1: logarithmic window {float(log.window_fed_back):.1f} segments, "
                   f"linear {float(lin.window_fed_back):.1f}; L1's utilization {u:.3f} (logarithmic) and "
                   f"{float(lin.utilization):.3f} (linear); needs the logarithmic below 0.9")


# --- the equilibrium of eq. 3.2 (ours) ------------------------------------------------------------------------------
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
                      SCENARIOS[_scenario_of(target)]))
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


# --- section 4 ------------------------------------------------------------------------------------------------------
def _steady_full(target: str):
    def check(d):
        u = d[target].utilization_steady
        rows = [f"{p}: {float(u.sel(phase=p)):.3f}" for p in u.phase.values]
        return Verdict(bool((u >= FULL).all()), "; ".join(rows) + f" (steady parts; needs >= {FULL})")
    return check


def _equal_shares(target: str):
    def check(d):
        ds = d[target]
        s = SCENARIOS[_scenario_of(target)]
        rows, ok = [], True
        for phase, start, end in s.phases:
            n = len(s.open_in(start, end))
            each = ds.throughput_steady.sel(phase=phase).values / float(ds.max_tcp_throughput_mbps)
            each = each[s.open_in(start, end)]
            ok &= bool(np.all(np.abs(each - 1 / n) <= SHARE_TOLERANCE / n))
            rows.append(f"{phase}: {n} connections, shares {each.min():.3f}-{each.max():.3f} (1/{n} = {1 / n:.3f})")
        return Verdict(ok, "; ".join(rows) + f" (steady parts; each within {100 * SHARE_TOLERANCE:g} % of 1/N)")
    return check


def _no_underflow(target: str, overflow_too: bool = False):
    """Packets dropped are counts: the mean over seeds is 0 only if every run dropped none."""
    def check(d):
        ds = d[target]
        empty = ds.empty_fraction_steady
        drops = float(ds.packets_dropped.sum("source"))
        ok = bool((empty <= EMPTY_AT_MOST).all()) and (not overflow_too or drops == 0)
        text = "; ".join(f"{p}: buffer empty in {100 * float(empty.sel(phase=p)):.2f} % of the samples"
                         for p in empty.phase.values)
        return Verdict(ok, text + f" (steady parts; needs <= {100 * EMPTY_AT_MOST:g} %); packets dropped: "
                       f"{drops:.3g}" + (" (needs 0)" if overflow_too else ""))
    return check


def _window_growth_after_15s(d):
    ds = d["ewa.fig15"].sel(phase="15-20 s")
    before, after = float(ds.window_before_kb), float(ds.window_after_kb)
    lasted = float(ds.underflow_ms)
    ok = abs(before - 40) <= WINDOW_TOLERANCE * 40 and abs(after - 85) <= WINDOW_TOLERANCE * 85 and \
        abs(lasted - 150) <= ABOUT * 150
    return Verdict(ok, f"each remaining connection's transmission window {before:.0f} KB before 15 s and "
                   f"{after:.0f} KB when the buffer's underflow ends, {lasted:.0f} ms after 15 s; the paper: about 40 "
                   "and 85 KB, about 150 ms. Its own arithmetic (45 KB, 30 segments, at one segment per 11 ms round "
                   "trip) gives 330 ms per connection. Here the windows follow EWA's feedback (cwnd is far above it), "
                   "so their growth is alpha's: + 1/8 every 10 ms")


def _fair(target: str, phases=None, level: float = FAIR, steady: bool = True):
    def check(d):
        fair = d[target]["fairness_steady" if steady else "fairness_phase"]
        names = phases or list(fair.phase.values)
        rows = [(p, float(fair.sel(phase=p))) for p in names]
        return Verdict(all(v >= level for _, v in rows), "; ".join(f"{p}: Jain's index {v:.3f}" for p, v in rows) +
                       f" ({'steady parts; ' if steady else ''}needs >= {level})")
    return check


def _min_utilization(d):
    low = float(d["ewa.fig21"].utilization_min)
    return Verdict(low >= 0.6, f"lowest 250 ms utilization after the first second: {low:.3f} (needs >= 0.60)")


def _recovery(target: str, phase: str, paper_s: float):
    def check(d):
        rec = float(d[target].recovery_s.sel(phase=phase))
        return Verdict(abs(rec - paper_s) <= ABOUT * paper_s,
                       f"after {phase.split('-')[0]} s L1's utilization stays >= 0.95 from {rec:.2f} s on; the paper: "
                       f"about {paper_s:g} s, within {100 * ABOUT:g} % counts")
    return check


def _equal_windows(d):
    ds = d["ewa.fig22"]
    steady = ds.time.values > 0.5
    phase = ds.time.values <= 10.0
    windows = np.minimum(ds.cwnd, ds.window_fed_back).isel(time=np.where(steady & phase)[0]).mean("time")
    ratio = float(windows.max() / windows.min())
    return Verdict(ratio <= 1.05, f"0.5-10 s: mean transmission windows {float(windows.min()) / 1024:.1f}-"
                   f"{float(windows.max()) / 1024:.1f} KB, largest / smallest {ratio:.3f} (needs <= 1.05)")


def _rtt_bias(d):
    ds = d["ewa.fig24"]
    thr = ds.throughput_steady.sel(phase="0-10 s")
    by_delay = thr.groupby(ds.ip_delay_ms).mean()
    values = by_delay.values
    decreasing = bool(np.all(np.diff(values) < 0))
    fair = float(ds.fairness_steady.sel(phase="0-10 s"))
    return Verdict(decreasing and fair >= FAIRISH, "0.5-10 s, throughput by one-way IP delay: " + ", ".join(
        f"{delay:g} ms {v:.1f}" for delay, v in zip(by_delay.ip_delay_ms.values, values)) +
        f" Mbit/s (needs to fall with the delay); Jain's index {fair:.3f} (needs >= {FAIRISH})")


def _utilization_at_least(target: str, level: float, steady: bool = False):
    def check(d):
        u = d[target]["utilization_steady" if steady else "utilization_phase"]
        return Verdict(bool((u >= level).all()), "; ".join(f"{p}: {float(u.sel(phase=p)):.3f}" for p in u.phase.values) +
                       f" (needs >= {level})")
    return check


def _joins_within_half_second(d):
    ds = d["ewa.fig28"]
    fair = float(ds.fairness_steady.sel(phase="10-15 s"))
    first = ds.source_utilization.sel(interval=10.75)
    jain = float(first.sum("source") ** 2 / (10 * (first ** 2).sum("source")))
    return Verdict(fair >= FAIR and jain >= FAIRISH,
                   f"Jain's index of the ten connections from 10.5 to 15 s {fair:.3f} (needs >= {FAIR}); in the "
                   f"interval 10.5-10.75 s {jain:.3f} (needs >= {FAIRISH})")


def _no_drops_between(target: str, start: float, end: float):
    """Packets dropped are counts: the mean over seeds is 0 only if every run dropped none."""
    def check(d):
        ds = d[target]
        dropped = float(ds.queue_dropped.sel(sample_time=end, method="nearest") -
                        ds.queue_dropped.sel(sample_time=start, method="nearest"))
        return Verdict(dropped == 0, f"packets dropped at AAP-1 between {start:g} and {end:g} s: {dropped:.3g} "
                       f"(needs 0); in the whole run: {float(ds.packets_dropped.sum('source')):.3g}")
    return check


def _no_bias(d):
    ds = d["ewa.fig28"]
    thr = ds.throughput_phase.sel(phase="10-15 s").values
    ratio = thr[5:].mean() / thr[:5].mean()
    return Verdict(abs(ratio - 1) <= 0.05, f"10-15 s, the new connections' mean throughput over the old ones': "
                   f"{ratio:.3f} (needs within 5 % of 1)")


def _available_76(d):
    ds = d["ewa.fig33"]
    u = float(ds.utilization_phase.mean())   # the run's one phase, 0-20 s
    avail = float(ds.available_share)
    paper = paper_value("ewa.fig33", "l1_utilization", "0-20 s")
    ok = abs(u - paper) <= UTILIZATION_TOLERANCE and u / avail >= FULL
    return Verdict(ok, f"L1's utilization over 20 s {u:.3f} (paper {paper:.2f}); the share of L1 the priority VC left "
                   f"{avail:.3f}, so TCP used {u / avail:.3f} of what it had (needs within {UTILIZATION_TOLERANCE} of "
                   f"the paper and >= {FULL} of the available)")


def _spurious_retransmissions(d):
    ds, bursty = d["ewa.fig30"], d["ewa.fig34"]
    retx, drops = float(ds.retransmissions.sum("source")), float(ds.packets_dropped.sum("source"))
    total = lambda x, name: f"{float(x[name].sum('source')):.3g}"  # noqa: E731
    return Verdict(retx > 0 and drops == 0, f"retransmissions {retx:.3g}, packets dropped {drops:.3g}, timeouts "
                   f"{total(ds, 'timeouts')} per run (needs retransmissions and no loss). The round trip here "
                   "swings by at most the buffer's 20 ms, and 4.4BSD's estimator with 20 ms ticks keeps the timeout "
                   f"above it. Section 4.6's runs (Fig. 34) do retransmit without loss: "
                   f"{total(bursty, 'retransmissions')} retransmissions, {total(bursty, 'timeouts')} timeouts, "
                   f"{total(bursty, 'packets_dropped')} drops per run")


def _on_off_half(d):
    ratio = float(d["ewa.fig34"].on_off_over_persistent)
    return Verdict(abs(ratio - 0.5) <= 0.1, f"ON/OFF over persistent throughput: {ratio:.3f} (needs 0.5 +- 0.1). Each "
                   "ON period starts with a whole window sent at once, so an ON period of two round trips on average "
                   "carries about three windows: (1 + 2) / 4 = 0.75 if every window were equal")


def _on_off_fair(d):
    ds = d["ewa.fig34"]
    thr = ds.throughput_phase.isel(phase=0)
    on_off = thr.where(ds.application == "on_off", drop=True)
    jain = float(on_off.sum("source") ** 2 / (on_off.sizes["source"] * (on_off ** 2).sum("source")))
    return Verdict(jain >= FAIRISH, f"Jain's index of the 30 ON/OFF connections' throughputs over 20 s: {jain:.3f} "
                   f"(needs >= {FAIRISH})")


def _mostly_perfect(target: str):
    def check(d):
        u = d[target].utilization.sel(interval=slice(1.0 + 1e-9, None))
        share = float((u >= 0.95).mean())
        mean = float(u.mean())
        return Verdict(mean >= 0.95 and share >= 0.9, f"after the first second: mean {mean:.3f}, {100 * share:.0f} % of "
                       "the 250 ms intervals at >= 0.95 (needs a mean >= 0.95 and >= 90 % of the intervals)")
    return check


def _equal_transmission_windows(d):
    ds = d["ewa.fig36"]
    windows = np.minimum(ds.cwnd, ds.window_fed_back).isel(time=slice(50, None)).mean("time")
    on_off = float(windows.where(ds.application == "on_off").mean())
    persistent = float(windows.where(ds.application == "persistent").mean())
    ratio = on_off / persistent
    return Verdict(abs(ratio - 1) <= 0.15, f"mean transmission window from 0.5 s on: ON/OFF {on_off / 1024:.1f} KB, "
                   f"persistent {persistent / 1024:.1f} KB, ratio {ratio:.3f} (needs within 15 % of 1)")


def _red_worse_utilization(d):
    red, ewa = float(d["ewa.fig39"].utilization_phase.mean()), float(d["ewa.fig37"].utilization_phase.mean())
    return Verdict(red <= ewa - SIGNIFICANTLY, f"L1's utilization over 20 s: RED {red:.3f}, EWA {ewa:.3f} (needs RED at "
                   f"least {SIGNIFICANTLY} below)")


def _persistent_jain(ds) -> float:
    thr = ds.throughput_phase.isel(phase=0).where(ds.application == "persistent", drop=True)
    return float(thr.sum("source") ** 2 / (thr.sizes["source"] * (thr ** 2).sum("source")))


def _red_less_fair(d):
    red, ewa = _persistent_jain(d["ewa.fig38"]), _persistent_jain(d["ewa.fig34"])
    return Verdict(red < ewa, f"Jain's index of the ten persistent connections' throughputs: RED {red:.3f}, EWA {ewa:.3f}")


def _red_slow_starts(d):
    timeouts = d["ewa.fig38"].timeouts
    least = float(timeouts.min())
    ewa = float(d["ewa.fig34"].timeouts.sum("source"))
    return Verdict(least >= SLOW_STARTS, f"timeouts per connection in 20 s: {least:.3g}-{float(timeouts.max()):.3g}, "
                   f"{float(timeouts.sum('source')):.0f} per run; EWA: {ewa:.0f} per run (needs >= {SLOW_STARTS} "
                   "for every connection)")


# --- the conclusion: EWA against section 2's Drop-from-Front and RED --------------------------------------------------
def _against_section_2(quantity: str):
    def check(d):
        ewa = d["ewa.fig14"]
        values = {"EWA": ewa, **{name: d[target] for name, target in SECTION_2.items()}}
        if quantity == "loss":
            numbers = {k: float(v.packets_dropped.sum("source")) for k, v in values.items()}
            ok = all(numbers["EWA"] <= SIGNIFICANT_LOSS * v for k, v in numbers.items() if k != "EWA")
            text, rule = "packets dropped per run: ", f"EWA at most {SIGNIFICANT_LOSS:g} x each"
        elif quantity == "fairness":
            numbers = {k: float(v.fairness_phase.mean()) for k, v in values.items()}
            ok = numbers["EWA"] >= FAIR and all(numbers["EWA"] > v for k, v in numbers.items() if k != "EWA")
            text, rule = "Jain's index, mean over phases: ", f"EWA above each, and >= {FAIR}"
        else:
            numbers = {k: float(v.utilization.mean()) for k, v in values.items()}
            ok = all(numbers["EWA"] >= v + SIGNIFICANT_GAIN for k, v in numbers.items() if k != "EWA")
            text, rule = "L1's utilization over 20 s: ", f"EWA at least {SIGNIFICANT_GAIN} above each"
        by_phase = "" if quantity != "throughput" else " Per phase (EWA; Drop-from-Front): " + "; ".join(
            f"{p}: {float(ewa.utilization_phase.sel(phase=p)):.3f}; "
            f"{float(values['Drop-from-Front'].utilization_phase.sel(phase=p)):.3f}"
            for p in ewa.phase.values) + "."
        return Verdict(ok, text + ", ".join(f"{k} {v:.4g}" for k, v in numbers.items()) +
                       f" (needs {rule})." + by_phase + SECTION_2_READING)
    return check


CLAIMS = [
    # section 3.1, Fig. 13
    Claim("linear_feedback_oscillates", "ewa", "With larger feedback delays, however, especially when all the "
          "connections are in the congestion avoidance phase, such a function may cause substantial over-correction "
          "... These large oscillations in the windows (Fig. 13).", ("ewa.fig13",), _linear_oscillates, SEED_SHARE),
    Claim("linear_feedback_underflows", "ewa", "These large oscillations in the windows can cause frequent underflows "
          "in the AAP, resulting in under-utilization of the available capacity in the ATM pipe (Fig. 13).",
          ("ewa.fig13",), _linear_underflows, SEED_SHARE),
    Claim("log_feedback_steady", "ewa", "Using this function, rapid changes in the buffer occupancy will cause "
          "relatively small changes to the actual feedback ... and therefore, the buffer occupancy manages to reach "
          "the steady state independent of the phase that TCP connections operate in.", ("ewa.fig13",), _log_steady,
          SEED_SHARE),
    Claim("log_feedback_small_windows", "ewa", "The feedback computed for each TCP connection when using the "
          "logarithmic function can be significantly smaller than that computed with the linear function. This may "
          "cause under-utilization when only a small number of TCP connections is active.", ("ewa.fig13",),
          _log_small_feedback, SEED_SHARE),
    # the equilibrium (ours)
    Claim("equilibrium_eq_3_2_as_written", "ewa", "The system converges to a state that satisfies Q_i(t) = f(B - N "
          "Q_i(t)) (3.2), where Q_i(t) is the amount of buffer occupied by connection i, which is also equal to the "
          "feedback given to that connection. (Not a claim of the paper's results: eq. 3.2 solved numerically "
          "against the simulated steady-state queue.)", ("ewa.fig13", "ewa.fig15", "ewa.fig19", "ewa.fig27"),
          _equilibrium(with_pipe=False)),
    Claim("equilibrium_with_the_pipe", "ewa", "(Ours.) Eq. 3.2 with each window filling the round-trip pipe P before "
          "it queues, in whole segments: N floor(f(B - Q)) = P + Q, solved numerically against the simulated "
          "steady-state queue.", ("ewa.fig13", "ewa.fig15", "ewa.fig19", "ewa.fig27"), _equilibrium(with_pipe=True)),
    # section 4.1
    Claim("small_ip_full_utilization", "ewa", "Except for brief periods when the number of active connections "
          "changes, the utilization of link L1 remains 100% (Fig. 17).", ("ewa.fig17",), _steady_full("ewa.fig17"),
          SEED_SHARE),
    Claim("small_ip_equal_shares", "ewa", "During the first 10 seconds, when ten TCP connections are active, each of "
          "them receives 1/10th of the available bandwidth ... each receives 1/5th ... each gets half of the "
          "available bandwidth (Fig. 16).", ("ewa.fig16",), _equal_shares("ewa.fig16"), SEED_SHARE),
    Claim("small_ip_no_underflow", "ewa", "As can be seen in this figure, the buffer never underflows in steady state "
          "(Fig. 15).", ("ewa.fig15",), _no_underflow("ewa.fig15"), SEED_SHARE),
    Claim("small_ip_window_growth_at_15s", "ewa", "The window size for the two active connections must increase from "
          "approximately 40 Kbytes up to 85 Kbytes to achieve full utilization ... At the rate of one segment per "
          "RTT, this takes approximately 150 milliseconds, as can be verified from Figure 15.", ("ewa.fig15",),
          _window_growth_after_15s, SEED_SHARE),
    Claim("small_ip_fair", "ewa", "Observe that the progress of all TCP connections is fair (Fig. 14).",
          ("ewa.fig14",), _fair("ewa.fig14"), SEED_SHARE),
    # section 4.2
    Claim("long_ip_fair", "ewa", "Observe that the progress is perfectly fair, even though the round-trip delay of "
          "the network is 100 milliseconds (Figs. 18, 20).", ("ewa.fig18",), _fair("ewa.fig18"), SEED_SHARE),
    Claim("long_ip_never_below_60", "ewa", "Figure 21 shows for the test case considered, that the total link "
          "utilization never drops below 60%.", ("ewa.fig21",), _min_utilization, SEED_SHARE),
    Claim("long_ip_recovers_in_2s", "ewa", "compared to approximately 2 seconds needed with the proposed method "
          "(after time t = 15 seconds when only two TCP sessions remain active; Fig. 21).", ("ewa.fig21",),
          _recovery("ewa.fig21", "15-20 s", 2.0), SEED_SHARE),
    # section 4.3
    Claim("unequal_ip_equal_windows", "ewa", "Fairness is achieved in terms of having all TCP connections operate "
          "with equal transmission windows, since AAP-1 computes similar feedback for each connection (Fig. 22).",
          ("ewa.fig22",), _equal_windows, SEED_SHARE),
    Claim("unequal_ip_rtt_bias", "ewa", "Note the small variations in the utilization of individual connections "
          "because of the differences in round-trip delays. This is because of the well-known effect of TCP favoring "
          "connections with smaller round-trip times (Fig. 24).", ("ewa.fig24",), _rtt_bias, SEED_SHARE),
    Claim("unequal_ip_small_underflows", "ewa", "The duration of the buffer underflow and the resulting link "
          "underutilization when the number of active connections decreases are both small to be of concern "
          "(Figs. 23, 25).", ("ewa.fig25",), _utilization_at_least("ewa.fig25", 0.95), SEED_SHARE),
    # section 4.4
    Claim("new_connections_20_percent", "ewa", "As shown in Figure 28 each connection acquires exactly 20% of the "
          "available bandwidth.", ("ewa.fig28",), _equal_shares("ewa.fig28"), SEED_SHARE),
    Claim("new_connections_equal_within_half_second", "ewa", "Within approximately half a second all ten connection "
          "have reached their steady state and achieved equal throughputs (Fig. 28).", ("ewa.fig28",),
          _joins_within_half_second, SEED_SHARE),
    Claim("new_connections_no_drops", "ewa", "after the number of active TCP connections increases from five to ten, "
          "the buffer reaches its new equilibrium state without dropping any packets (Fig. 27).", ("ewa.fig27",),
          _no_drops_between("ewa.fig27", 10.0, 15.0), SEED_SHARE),
    Claim("new_connections_no_bias", "ewa", "Furthermore, during the transient time the scheme does not show any bias "
          "for either the existing or the new TCP connections (Fig. 28).", ("ewa.fig28",), _no_bias, SEED_SHARE),
    # section 4.5
    Claim("varying_rate_76_percent", "ewa", "we can expect that, on the average, 76% of the link bandwidth will be "
          "available for transporting TCP traffic. This expectation is verified by the results in Figure 33.",
          ("ewa.fig33",), _available_76, SEED_SHARE),
    Claim("varying_rate_no_overflow_or_underflow", "ewa", "The progress of all ten TCP connections is fair and the EWA "
          "mechanism successfully controls the buffer occupancy: there are no buffer overflows or underflows "
          "(Fig. 31).", ("ewa.fig31",), _no_underflow("ewa.fig31", overflow_too=True), SEED_SHARE),
    Claim("varying_rate_fair", "ewa", "The progress of all ten TCP connections is fair (Figs. 30, 32).",
          ("ewa.fig32",), _fair("ewa.fig32"), SEED_SHARE),
    Claim("varying_rate_spurious_retransmissions", "ewa", "careful examination of the simulation results revealed "
          "that the high variability in the queuing delays triggered packet retransmissions for some TCP "
          "connections.", ("ewa.fig30", "ewa.fig34"), _spurious_retransmissions, SEED_SHARE),
    # section 4.6
    Claim("on_off_half_rate", "ewa", "Since the ON-OFF sources have a 50% duty cycle, we would expect the sequence "
          "number growth rate for ON-OFF sources to be approximately half of that of persistent ones. This is "
          "indeed the case (Fig. 34).", ("ewa.fig34",), _on_off_half, SEED_SHARE),
    Claim("on_off_fair", "ewa", "It is important to note that the ON-OFF connections make fair progress and have "
          "nearly identical behavior (Fig. 34).", ("ewa.fig34",), _on_off_fair, SEED_SHARE),
    Claim("on_off_no_overflow", "ewa", "Notice that EWA protects the buffer from overflows (Fig. 35).", ("ewa.fig35",),
          _no_drops_between("ewa.fig35", 0.0, 20.0), SEED_SHARE),
    Claim("on_off_utilization_perfect", "ewa", "The utilization of link L1, as can be seen in Figure 37, is perfect "
          "most of the time.", ("ewa.fig37",), _mostly_perfect("ewa.fig37"), SEED_SHARE),
    Claim("on_off_equal_windows", "ewa", "The TCP transmission windows for one ON-OFF and one persistent connection "
          "are shown in Figure 36 where we can see that both connections operate with equivalent transmission "
          "windows.", ("ewa.fig36",), _equal_transmission_windows, SEED_SHARE),
    Claim("red_on_off_worse_utilization", "ewa", "depending solely on packet losses to detect congestion has an impact "
          "on the congested link's utilization which is significantly worse than that achieved by EWA (Figs. 37, "
          "39).", ("ewa.fig39", "ewa.fig37"), _red_worse_utilization, SEED_SHARE),
    Claim("red_on_off_less_fair", "ewa", "the burstiness of the ON-OFF sources affect the performance of the "
          "persistent ones. Moreover, the overall progress is not as fair and steady as in the EWA scheme (Figs. 34, "
          "38).", ("ewa.fig38", "ewa.fig34"), _red_less_fair, SEED_SHARE),
    Claim("red_on_off_slow_starts", "ewa", "It can be seen in Figure 38 that all the connections go through a large "
          "number of slow-starts.", ("ewa.fig38", "ewa.fig34"), _red_slow_starts, SEED_SHARE),
    # the conclusion, on section 2's scenario
    Claim("ewa_less_loss_than_dff_and_red", "ewa", "results in significant improvements in packet loss rate ... over a "
          "packet discard policy such as Drop-from-Front or Random Early Detection (abstract; section 5: 'very low "
          "packet loss').", ("ewa.fig14", *SECTION_2.values()), _against_section_2("loss"), SEED_SHARE),
    Claim("ewa_fairer_than_dff_and_red", "ewa", "results in significant improvements in ... fairness ... over a packet "
          "discard policy such as Drop-from-Front or Random Early Detection (abstract; section 5: 'a high degree of "
          "fairness').", ("ewa.fig14", *SECTION_2.values()), _against_section_2("fairness"), SEED_SHARE),
    Claim("ewa_more_throughput_than_dff_and_red", "ewa", "results in significant improvements in ... throughput over "
          "a packet discard policy such as Drop-from-Front or Random Early Detection (abstract; section 5: 'almost "
          "perfect bandwidth utilization').", ("ewa.fig14", *SECTION_2.values()), _against_section_2("throughput"),
          SEED_SHARE),
]
