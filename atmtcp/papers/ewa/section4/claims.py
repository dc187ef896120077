"""ewa's claims about section 4 (EWA's evaluation, 4.1-4.6), each a check on the reproduced datasets, and the
conclusion's comparison of EWA with section 2's Drop-from-Front and RED.

As in :mod:`atmtcp.papers.ewa.section2.claims`: each quotes its sentence, names the targets it reads and
computes its verdict from the data; the paper's sentences are about its one run, so each claim is read on
the distribution over our seeds (``seed_share``: the check on the mean over the seeds and on each seed alone,
passing with the mean and at least :data:`atmtcp.claims.SEED_SHARE` of the seeds; the detail counts them).
"No packet dropped" holds on the mean only if it holds in every run (drops are counts). Tolerances the paper
does not give are stated with each claim (``*_TOLERANCE`` and friends below). "Steady" means from half a
second after a phase's start (:data:`atmtcp.papers.ewa.section4.experiments.STEADY_AFTER_S`).
"""
from __future__ import annotations

import numpy as np

from .... import words
from ....claims import Points
from ..shared.claims import claim, paper_by_phase
from .experiments import scenario_of
from .scenario import SCENARIOS

FULL = 0.98
"""'the utilization of link L1 remains 100%', 'perfect': at least 0.98 of the maximum TCP throughput."""
SHARE_TOLERANCE = 0.10
"""'each of them receives 1/10th of the available bandwidth': each open connection's share within 10 %
(relative) of 1/N of the maximum TCP throughput."""
EMPTY_AT_MOST = 0.01
"""'the buffer never underflows': at most 1 % of the 5 ms samples (steady parts) find it empty."""
FAIR = words.PERFECTLY_FAIR.value
"""'perfectly fair', 'equal throughputs': Jain's index of the open connections (:data:`atmtcp.words.PERFECTLY_FAIR`)."""
FAIRISH = words.FAIR.value
"""'fair', 'small variations': Jain's index (:data:`atmtcp.words.FAIR`)."""
ABOUT = words.APPROXIMATELY.value
"""'approximately' a duration: within a factor 1 +- this of the paper's (150 ms: 75-225 ms; 2 s: 1-3 s;
:data:`atmtcp.words.APPROXIMATELY`)."""
WINDOW_TOLERANCE = 0.25
"""'approximately 40 Kbytes': within 25 %."""
UTILIZATION_TOLERANCE = 0.05
"""'76%': within 5 points of utilization."""
SLOW_STARTS = 3
"""'a large number of slow-starts': at least three timeouts per connection in the 20 s (section 2's)."""
SIGNIFICANTLY = words.SIGNIFICANT.value
"""'significantly worse': below with the interval of :data:`atmtcp.words.SIGNIFICANT` (before the words table:
at least 5 points below, which the table's sweep still shows)."""
SIGNIFICANT_LOSS = 0.5
"""'significant improvements in packet loss rate': at most half the packets dropped per run."""
SIGNIFICANT_GAIN = words.SIGNIFICANT.value
"""'significant improvements in ... throughput': L1's utilization over 20 s higher with the interval of
:data:`atmtcp.words.SIGNIFICANT` (before the words table: at least 1 point higher); in fairness: a higher Jain's
index (the same reading) of at least :data:`FAIR` ('a high degree of fairness')."""


SECTION_2 = {"Drop-from-Front": "ewa.fig7", "RED 0.02": "ewa.fig9", "RED 0.05": "ewa.fig11"}
"""Section 2's runs of the scenario section 4.1 repeats with EWA ("these network parameters are identical
to those used for comparing the Drop-Tail, Drop-from-Front, and the RED approaches in Section 2")."""
SECTION_2_READING = (
    " Read against section 2: in this model Drop-from-Front keeps L1 within a few points of full on this "
    "scenario (the per-phase table of notebooks/ewa.ipynb), so EWA's margin over it in throughput is a few "
    "points, where the paper's is 10-25; RED is far below both.")


# --- section 4 -------------------------------------------------------------------------------------------------------
def _steady_full(target: str):
    def check(d):
        u = d[target].utilization_steady
        rows = [f"{p}: {float(u.sel(phase=p)):.3f}" for p in u.phase.values]
        points = Points()
        for p in u.phase.values:
            points.at_least(float(u.sel(phase=p)), FULL)
        return points.verdict("; ".join(rows) + f" (steady parts; needs >= {FULL})")
    return check


def _equal_shares(target: str):
    def check(d):
        ds = d[target]
        s = SCENARIOS[scenario_of(target)]
        rows, points = [], Points()
        for phase, start, end in s.phases:
            n = len(s.open_in(start, end))
            each = ds.throughput_steady.sel(phase=phase).values / float(ds.max_tcp_throughput_mbps)
            each = each[s.open_in(start, end)]
            for share in each:
                points.within(share, 1 / n, SHARE_TOLERANCE / n)
            rows.append(f"{phase}: {n} connections, shares {each.min():.3f}-{each.max():.3f} (1/{n} = {1 / n:.3f})")
        return points.verdict("; ".join(rows) + f" (steady parts; each within {100 * SHARE_TOLERANCE:g} % of 1/N)")
    return check


def _no_underflow(target: str, overflow_too: bool = False):
    """Packets dropped are counts: the mean over seeds is 0 only if every run dropped none."""
    def check(d):
        ds = d[target]
        empty = ds.empty_fraction_steady
        drops = float(ds.packets_dropped.sum("source"))
        points = Points()
        for p in empty.phase.values:
            points.at_most(float(empty.sel(phase=p)), EMPTY_AT_MOST)
        if overflow_too:
            points.at_most(drops, 0.0)
        text = "; ".join(f"{p}: buffer empty in {100 * float(empty.sel(phase=p)):.2f} % of the samples"
                         for p in empty.phase.values)
        return points.verdict(text + f" (steady parts; needs <= {100 * EMPTY_AT_MOST:g} %); packets dropped: "
                       f"{drops:.3g}" + (" (needs 0)" if overflow_too else ""))
    return check


def _window_growth_after_15s(d):
    ds = d["ewa.fig15"].sel(phase="15-20 s")
    before, after = float(ds.window_before_kb), float(ds.window_after_kb)
    lasted = float(ds.underflow_ms)
    points = Points()
    points.within(before, 40, WINDOW_TOLERANCE * 40)
    points.within(after, 85, WINDOW_TOLERANCE * 85)
    points.within(lasted, 150, ABOUT * 150)
    return points.verdict(f"each remaining connection's transmission window {before:.0f} KB before 15 s and "
                   f"{after:.0f} KB when the buffer's underflow ends, {lasted:.0f} ms after 15 s; the paper: about 40 "
                   "and 85 KB, about 150 ms. Its own arithmetic (45 KB, 30 segments, at one segment per 11 ms round "
                   "trip) gives 330 ms per connection. Here the windows follow EWA's feedback (cwnd is far above it), "
                   "so their growth is alpha's: + 1/8 every 10 ms")


def _fair(target: str, phases=None, level: float = FAIR, steady: bool = True):
    def check(d):
        fair = d[target]["fairness_steady" if steady else "fairness_phase"]
        names = phases or list(fair.phase.values)
        rows = [(p, float(fair.sel(phase=p))) for p in names]
        points = Points()
        for _, v in rows:
            points.at_least(v, level)
        return points.verdict("; ".join(f"{p}: Jain's index {v:.3f}" for p, v in rows) +
                       f" ({'steady parts; ' if steady else ''}needs >= {level})")
    return check


def _min_utilization(d):
    low = float(d["ewa.fig21"].utilization_min)
    points = Points()
    points.at_least(low, 0.6)
    return points.verdict(f"lowest 250 ms utilization after the first second: {low:.3f} (needs >= 0.60)")


def _recovery(target: str, phase: str, paper_s: float):
    def check(d):
        rec = float(d[target].recovery_s.sel(phase=phase))
        points = Points()
        points.within(rec, paper_s, ABOUT * paper_s)
        return points.verdict(
                       f"after {phase.split('-')[0]} s L1's utilization stays >= 0.95 from {rec:.2f} s on; the paper: "
                       f"about {paper_s:g} s, within {100 * ABOUT:g} % counts")
    return check


def _equal_windows(d):
    ds = d["ewa.fig22"]
    steady = ds.time.values > 0.5
    phase = ds.time.values <= 10.0
    windows = np.minimum(ds.cwnd, ds.window_fed_back).isel(time=np.where(steady & phase)[0]).mean("time")
    ratio = float(windows.max() / windows.min())
    points = Points()
    points.at_most(ratio, 1.05)
    return points.verdict(f"0.5-10 s: mean transmission windows {float(windows.min()) / 1024:.1f}-"
                   f"{float(windows.max()) / 1024:.1f} KB, largest / smallest {ratio:.3f} (needs <= 1.05)")


def _rtt_bias(d):
    ds = d["ewa.fig24"]
    thr = ds.throughput_steady.sel(phase="0-10 s")
    by_delay = thr.groupby(ds.ip_delay_ms).mean()
    values = by_delay.values
    fair = float(ds.fairness_steady.sel(phase="0-10 s"))
    points = Points()
    for step in np.diff(values):
        points.at_most(step, 0.0)
    points.at_least(fair, FAIRISH)
    return points.verdict("0.5-10 s, throughput by one-way IP delay: " + ", ".join(
        f"{delay:g} ms {v:.1f}" for delay, v in zip(by_delay.ip_delay_ms.values, values)) +
        f" Mbit/s (needs to fall with the delay); Jain's index {fair:.3f} (needs >= {FAIRISH})")


def _utilization_at_least(target: str, level: float, steady: bool = False):
    def check(d):
        u = d[target]["utilization_steady" if steady else "utilization_phase"]
        points = Points()
        for p in u.phase.values:
            points.at_least(float(u.sel(phase=p)), level)
        return points.verdict("; ".join(f"{p}: {float(u.sel(phase=p)):.3f}" for p in u.phase.values) +
                       f" (needs >= {level})")
    return check


def _joins_within_half_second(d):
    ds = d["ewa.fig28"]
    fair = float(ds.fairness_steady.sel(phase="10-15 s"))
    first = ds.source_utilization.sel(interval=10.75)
    jain = float(first.sum("source") ** 2 / (10 * (first ** 2).sum("source")))
    points = Points()
    points.at_least(fair, FAIR)
    points.at_least(jain, FAIRISH)
    return points.verdict(
                   f"Jain's index of the ten connections from 10.5 to 15 s {fair:.3f} (needs >= {FAIR}); in the "
                   f"interval 10.5-10.75 s {jain:.3f} (needs >= {FAIRISH})")


def _no_drops_between(target: str, start: float, end: float):
    """Packets dropped are counts: the mean over seeds is 0 only if every run dropped none."""
    def check(d):
        ds = d[target]
        dropped = float(ds.queue_dropped.sel(sample_time=end, method="nearest") -
                        ds.queue_dropped.sel(sample_time=start, method="nearest"))
        points = Points()
        points.at_most(dropped, 0.0)
        return points.verdict(f"packets dropped at AAP-1 between {start:g} and {end:g} s: {dropped:.3g} "
                       f"(needs 0); in the whole run: {float(ds.packets_dropped.sum('source')):.3g}")
    return check


def _no_bias(d):
    ds = d["ewa.fig28"]
    thr = ds.throughput_phase.sel(phase="10-15 s").values
    ratio = thr[5:].mean() / thr[:5].mean()
    points = Points()
    points.within(ratio, 1.0, 0.05)
    return points.verdict(f"10-15 s, the new connections' mean throughput over the old ones': "
                   f"{ratio:.3f} (needs within 5 % of 1)")


def _available_76(d):
    ds = d["ewa.fig33"]
    u = float(ds.utilization_phase.mean())   # the run's one phase, 0-20 s
    avail = float(ds.available_share)
    paper = paper_by_phase("ewa.fig33", "l1_utilization")["0-20 s"]
    points = Points()
    points.within(u, paper, UTILIZATION_TOLERANCE)
    points.at_least(u / avail, FULL)
    return points.verdict(f"L1's utilization over 20 s {u:.3f} (paper {paper:.2f}); the share of L1 the priority VC left "
                   f"{avail:.3f}, so TCP used {u / avail:.3f} of what it had (needs within {UTILIZATION_TOLERANCE} of "
                   f"the paper and >= {FULL} of the available)")


def _spurious_retransmissions(d):
    ds, bursty = d["ewa.fig30"], d["ewa.fig34"]
    retx, drops = float(ds.retransmissions.sum("source")), float(ds.packets_dropped.sum("source"))
    total = lambda x, name: f"{float(x[name].sum('source')):.3g}"  # noqa: E731
    points = Points()
    points.at_least(retx, 1.0)
    points.at_most(drops, 0.0)
    return points.verdict(f"retransmissions {retx:.3g}, packets dropped {drops:.3g}, timeouts "
                   f"{total(ds, 'timeouts')} per run (needs retransmissions and no loss). The round trip here "
                   "swings by at most the buffer's 20 ms, and 4.4BSD's estimator with 20 ms ticks keeps the timeout "
                   f"above it. Section 4.6's runs (Fig. 34) do retransmit without loss: "
                   f"{total(bursty, 'retransmissions')} retransmissions, {total(bursty, 'timeouts')} timeouts, "
                   f"{total(bursty, 'packets_dropped')} drops per run")


def _on_off_half(d):
    ratio = float(d["ewa.fig34"].on_off_over_persistent)
    points = Points()
    points.within(ratio, 0.5, 0.1)
    return points.verdict(f"ON/OFF over persistent throughput: {ratio:.3f} (needs 0.5 +- 0.1). Each "
                   "ON period starts with a whole window sent at once, so an ON period of two round trips on average "
                   "carries about three windows: (1 + 2) / 4 = 0.75 if every window were equal")


def _on_off_fair(d):
    ds = d["ewa.fig34"]
    thr = ds.throughput_phase.isel(phase=0)
    on_off = thr.where(ds.application == "on_off", drop=True)
    jain = float(on_off.sum("source") ** 2 / (on_off.sizes["source"] * (on_off ** 2).sum("source")))
    points = Points()
    points.at_least(jain, FAIRISH)
    return points.verdict(f"Jain's index of the 30 ON/OFF connections' throughputs over 20 s: {jain:.3f} "
                   f"(needs >= {FAIRISH})")


def _mostly_perfect(target: str):
    def check(d):
        u = d[target].utilization.sel(interval=slice(1.0 + 1e-9, None))
        share = float((u >= 0.95).mean())
        mean = float(u.mean())
        points = Points()
        points.at_least(mean, 0.95)
        points.at_least(share, 0.9)
        return points.verdict(f"after the first second: mean {mean:.3f}, {100 * share:.0f} % of "
                       "the 250 ms intervals at >= 0.95 (needs a mean >= 0.95 and >= 90 % of the intervals)")
    return check


def _equal_transmission_windows(d):
    ds = d["ewa.fig36"]
    windows = np.minimum(ds.cwnd, ds.window_fed_back).isel(time=slice(50, None)).mean("time")
    on_off = float(windows.where(ds.application == "on_off").mean())
    persistent = float(windows.where(ds.application == "persistent").mean())
    ratio = on_off / persistent
    points = Points()
    points.within(ratio, 1.0, 0.15)
    return points.verdict(f"mean transmission window from 0.5 s on: ON/OFF {on_off / 1024:.1f} KB, "
                   f"persistent {persistent / 1024:.1f} KB, ratio {ratio:.3f} (needs within 15 % of 1)")


def _red_worse_utilization(d):
    red, ewa = float(d["ewa.fig39"].utilization_phase.mean()), float(d["ewa.fig37"].utilization_phase.mean())
    points = Points()
    points.at_most(red, ewa - SIGNIFICANTLY)
    return points.verdict(f"L1's utilization over 20 s: RED {red:.3f}, EWA {ewa:.3f} (needs RED at "
                   f"least {SIGNIFICANTLY} below)")


def _persistent_jain(ds) -> float:
    thr = ds.throughput_phase.isel(phase=0).where(ds.application == "persistent", drop=True)
    return float(thr.sum("source") ** 2 / (thr.sizes["source"] * (thr ** 2).sum("source")))


def _red_less_fair(d):
    red, ewa = _persistent_jain(d["ewa.fig38"]), _persistent_jain(d["ewa.fig34"])
    points = Points()
    points.at_most(red, ewa)
    return points.verdict(f"Jain's index of the ten persistent connections' throughputs: RED {red:.3f}, EWA {ewa:.3f}")


def _red_slow_starts(d):
    timeouts = d["ewa.fig38"].timeouts
    least = float(timeouts.min())
    ewa = float(d["ewa.fig34"].timeouts.sum("source"))
    points = Points()
    for v in timeouts.values.ravel():
        points.at_least(float(v), SLOW_STARTS)
    return points.verdict(f"timeouts per connection in 20 s: {least:.3g}-{float(timeouts.max()):.3g}, "
                   f"{float(timeouts.sum('source')):.0f} per run; EWA: {ewa:.0f} per run (needs >= {SLOW_STARTS} "
                   "for every connection)")


# --- the conclusion: EWA against section 2's Drop-from-Front and RED --------------------------------------------------
def _against_section_2(quantity: str):
    def check(d):
        ewa = d["ewa.fig14"]
        values = {"EWA": ewa, **{name: d[target] for name, target in SECTION_2.items()}}
        points = Points()
        if quantity == "loss":
            numbers = {k: float(v.packets_dropped.sum("source")) for k, v in values.items()}
            for k, v in numbers.items():
                if k != "EWA":
                    points.at_most(numbers["EWA"], SIGNIFICANT_LOSS * v)
            text, rule = "packets dropped per run: ", f"EWA at most {SIGNIFICANT_LOSS:g} x each"
        elif quantity == "fairness":
            numbers = {k: float(v.fairness_phase.mean()) for k, v in values.items()}
            points.at_least(numbers["EWA"], FAIR)
            for k, v in numbers.items():
                if k != "EWA":
                    points.at_least(numbers["EWA"], v + SIGNIFICANT_GAIN)
            text, rule = "Jain's index, mean over phases: ", f"EWA above each, and >= {FAIR}"
        else:
            numbers = {k: float(v.utilization.mean()) for k, v in values.items()}
            for k, v in numbers.items():
                if k != "EWA":
                    points.at_least(numbers["EWA"], v + SIGNIFICANT_GAIN)
            text, rule = "L1's utilization over 20 s: ", f"EWA at least {SIGNIFICANT_GAIN} above each"
        by_phase = "" if quantity != "throughput" else " Per phase (EWA; Drop-from-Front): " + "; ".join(
            f"{p}: {float(ewa.utilization_phase.sel(phase=p)):.3f}; "
            f"{float(values['Drop-from-Front'].utilization_phase.sel(phase=p)):.3f}"
            for p in ewa.phase.values) + "."
        return points.verdict(text + ", ".join(f"{k} {v:.4g}" for k, v in numbers.items()) +
                       f" (needs {rule})." + by_phase + SECTION_2_READING)
    return check


CLAIMS = [
    # section 4.1
    claim("small_ip_full_utilization", "Except for brief periods when the number of active connections "
          "changes, the utilization of link L1 remains 100% (Fig. 17).", ("ewa.fig17",), _steady_full("ewa.fig17")),
    claim("small_ip_equal_shares", "During the first 10 seconds, when ten TCP connections are active, each of "
          "them receives 1/10th of the available bandwidth ... each receives 1/5th ... each gets half of the "
          "available bandwidth (Fig. 16).", ("ewa.fig16",), _equal_shares("ewa.fig16")),
    claim("small_ip_no_underflow", "As can be seen in this figure, the buffer never underflows in steady state "
          "(Fig. 15).", ("ewa.fig15",), _no_underflow("ewa.fig15")),
    claim("small_ip_window_growth_at_15s", "The window size for the two active connections must increase from "
          "approximately 40 Kbytes up to 85 Kbytes to achieve full utilization ... At the rate of one segment per "
          "RTT, this takes approximately 150 milliseconds, as can be verified from Figure 15.", ("ewa.fig15",),
          _window_growth_after_15s),
    claim("small_ip_fair", "Observe that the progress of all TCP connections is fair (Fig. 14).",
          ("ewa.fig14",), _fair("ewa.fig14")),
    # section 4.2
    claim("long_ip_fair", "Observe that the progress is perfectly fair, even though the round-trip delay of "
          "the network is 100 milliseconds (Figs. 18, 20).", ("ewa.fig18",), _fair("ewa.fig18")),
    claim("long_ip_never_below_60", "Figure 21 shows for the test case considered, that the total link "
          "utilization never drops below 60%.", ("ewa.fig21",), _min_utilization),
    claim("long_ip_recovers_in_2s", "compared to approximately 2 seconds needed with the proposed method "
          "(after time t = 15 seconds when only two TCP sessions remain active; Fig. 21).", ("ewa.fig21",),
          _recovery("ewa.fig21", "15-20 s", 2.0)),
    # section 4.3
    claim("unequal_ip_equal_windows", "Fairness is achieved in terms of having all TCP connections operate "
          "with equal transmission windows, since AAP-1 computes similar feedback for each connection (Fig. 22).",
          ("ewa.fig22",), _equal_windows),
    claim("unequal_ip_rtt_bias", "Note the small variations in the utilization of individual connections "
          "because of the differences in round-trip delays. This is because of the well-known effect of TCP favoring "
          "connections with smaller round-trip times (Fig. 24).", ("ewa.fig24",), _rtt_bias),
    claim("unequal_ip_small_underflows", "The duration of the buffer underflow and the resulting link "
          "underutilization when the number of active connections decreases are both small to be of concern "
          "(Figs. 23, 25).", ("ewa.fig25",), _utilization_at_least("ewa.fig25", 0.95)),
    # section 4.4
    claim("new_connections_20_percent", "As shown in Figure 28 each connection acquires exactly 20% of the "
          "available bandwidth.", ("ewa.fig28",), _equal_shares("ewa.fig28")),
    claim("new_connections_equal_within_half_second", "Within approximately half a second all ten connection "
          "have reached their steady state and achieved equal throughputs (Fig. 28).", ("ewa.fig28",),
          _joins_within_half_second),
    claim("new_connections_no_drops", "after the number of active TCP connections increases from five to ten, "
          "the buffer reaches its new equilibrium state without dropping any packets (Fig. 27).", ("ewa.fig27",),
          _no_drops_between("ewa.fig27", 10.0, 15.0)),
    claim("new_connections_no_bias", "Furthermore, during the transient time the scheme does not show any bias "
          "for either the existing or the new TCP connections (Fig. 28).", ("ewa.fig28",), _no_bias),
    # section 4.5
    claim("varying_rate_76_percent", "we can expect that, on the average, 76% of the link bandwidth will be "
          "available for transporting TCP traffic. This expectation is verified by the results in Figure 33.",
          ("ewa.fig33",), _available_76),
    claim("varying_rate_no_overflow_or_underflow", "The progress of all ten TCP connections is fair and the EWA "
          "mechanism successfully controls the buffer occupancy: there are no buffer overflows or underflows "
          "(Fig. 31).", ("ewa.fig31",), _no_underflow("ewa.fig31", overflow_too=True)),
    claim("varying_rate_fair", "The progress of all ten TCP connections is fair (Figs. 30, 32).",
          ("ewa.fig32",), _fair("ewa.fig32")),
    claim("varying_rate_spurious_retransmissions", "careful examination of the simulation results revealed "
          "that the high variability in the queuing delays triggered packet retransmissions for some TCP "
          "connections.", ("ewa.fig30", "ewa.fig34"), _spurious_retransmissions),
    # section 4.6
    claim("on_off_half_rate", "Since the ON-OFF sources have a 50% duty cycle, we would expect the sequence "
          "number growth rate for ON-OFF sources to be approximately half of that of persistent ones. This is "
          "indeed the case (Fig. 34).", ("ewa.fig34",), _on_off_half),
    claim("on_off_fair", "It is important to note that the ON-OFF connections make fair progress and have "
          "nearly identical behavior (Fig. 34).", ("ewa.fig34",), _on_off_fair),
    claim("on_off_no_overflow", "Notice that EWA protects the buffer from overflows (Fig. 35).", ("ewa.fig35",),
          _no_drops_between("ewa.fig35", 0.0, 20.0)),
    claim("on_off_utilization_perfect", "The utilization of link L1, as can be seen in Figure 37, is perfect "
          "most of the time.", ("ewa.fig37",), _mostly_perfect("ewa.fig37")),
    claim("on_off_equal_windows", "The TCP transmission windows for one ON-OFF and one persistent connection "
          "are shown in Figure 36 where we can see that both connections operate with equivalent transmission "
          "windows.", ("ewa.fig36",), _equal_transmission_windows),
    claim("red_on_off_worse_utilization", "depending solely on packet losses to detect congestion has an impact "
          "on the congested link's utilization which is significantly worse than that achieved by EWA (Figs. 37, "
          "39).", ("ewa.fig39", "ewa.fig37"), _red_worse_utilization),
    claim("red_on_off_less_fair", "the burstiness of the ON-OFF sources affect the performance of the "
          "persistent ones. Moreover, the overall progress is not as fair and steady as in the EWA scheme (Figs. 34, "
          "38).", ("ewa.fig38", "ewa.fig34"), _red_less_fair),
    claim("red_on_off_slow_starts", "It can be seen in Figure 38 that all the connections go through a large "
          "number of slow-starts.", ("ewa.fig38", "ewa.fig34"), _red_slow_starts),
    # the conclusion, on section 2's scenario
    claim("ewa_less_loss_than_dff_and_red", "results in significant improvements in packet loss rate ... over a "
          "packet discard policy such as Drop-from-Front or Random Early Detection (abstract; section 5: 'very low "
          "packet loss').", ("ewa.fig14", *SECTION_2.values()), _against_section_2("loss")),
    claim("ewa_fairer_than_dff_and_red", "results in significant improvements in ... fairness ... over a packet "
          "discard policy such as Drop-from-Front or Random Early Detection (abstract; section 5: 'a high degree of "
          "fairness').", ("ewa.fig14", *SECTION_2.values()), _against_section_2("fairness")),
    claim("ewa_more_throughput_than_dff_and_red", "results in significant improvements in ... throughput over "
          "a packet discard policy such as Drop-from-Front or Random Early Detection (abstract; section 5: 'almost "
          "perfect bandwidth utilization').", ("ewa.fig14", *SECTION_2.values()), _against_section_2("throughput")),
]
