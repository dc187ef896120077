"""ewa's claims about section 2's results (Drop-Tail, Drop-from-Front and RED at AAP-1), each a check on
the reproduced datasets.

Each quotes its sentence, names the targets it reads and computes its verdict from the data
(:class:`atmtcp.claims.Claim`). The paper shows one run per figure, one draw of what its scenario
leaves random (:mod:`atmtcp.papers.ewa.shared.measures`); its sentences are about that run. So every claim
is read on the distribution over our seeds by the noise model (:func:`atmtcp.claims.noise_verdict`): its
check runs on each seed alone (datasets without a ``seed`` axis) and records its margin at each point (a
phase, a connection), a point agrees when the 90 % interval of its mean margin over the seeds lies on the
claimed side, and the claim holds when :data:`atmtcp.words.EVERY` of its points agree; the detail also
says in how many seeds alone it holds. The paper's words take their numbers from :mod:`atmtcp.words`;
tolerances for its printed numbers are stated with each claim.
"""
from __future__ import annotations

from .... import words
from ....claims import Points
from ..shared.claims import claim, paper_by_phase

UTILIZATION_TOLERANCE = 0.10
"""'approximately 70 %' read as within 10 points of utilization."""
UNFAIR_RATIO = 1.5
"""'degraded fairness': the larger of the two last connections gets at least 1.5 times the smaller's
throughput (Jain's index <= 0.96)."""
FAIR_RATIO = 1.25
"""'the progress of the two active TCP connections is fair': the larger gets at most 1.25 times the
smaller's (Jain's index >= 0.988)."""
FAIR_INDEX = 0.95
"""'fair progress', 'RED succeeds in achieving fairness' for more than two connections: Jain's index of
the phase's throughputs at least 0.95."""
LONG_OVER_SHORT = 1.0 - words.SIGNIFICANT.value
"""'significantly lower throughput': each long connection's throughput over the short one's below 1 with the
interval of :data:`atmtcp.words.SIGNIFICANT` (before the words table: at most 0.8, a size, not a
significance; the sweep of the words table reads it at 0.99 and 0.95 too)."""
SLOW_STARTS = 3
"""'periodically go through slow-start': at least three timeouts (each a slow start after the first)
per connection in the 20 s."""
COMPARABLE = words.ABOUT.value
"""'comparable to those from Drop-from-Front': mean utilization over the 20 s within :data:`atmtcp.words.ABOUT`
(before the words table: 0.05, which the table's sweep still shows)."""


EVERY_RUN = 1.0
"""``seed_share`` of a claim the project read as holding in every run (fewest timeouts per run). Its check now
records margins, so the noise model reads it (the interval of the mean count); the share applies only where a
check gives no margins."""


def paper_utilization(target: str) -> dict[str, float]:
    """The paper's utilization of L1 per phase for ``target`` (``data/reference/ewa.csv``)."""
    return paper_by_phase(target, "l1_utilization")


# The checks read one run, or the mean over the seeds: datasets without a ``seed`` axis.
def _utilization_near_paper(target: str):
    def check(d):
        ds = d[target]
        rows, points = [], Points()
        for phase, paper in paper_utilization(target).items():
            ours = float(ds.utilization_phase.sel(phase=phase))
            points.within(ours, paper, UTILIZATION_TOLERANCE)
            rows.append(f"{phase}: {ours:.2f} (paper {paper:.2f})")
        return points.verdict("; ".join(rows) + f". Within {UTILIZATION_TOLERANCE:.2f} of the paper in every phase "
                       "counts as reproduced.")
    return check


def _last_phase_ratio(target: str, unfair: bool):
    def check(d):
        ratio = float(d[target].share_ratio_phase.sel(phase="15-20 s"))
        points = Points()
        points.at_least(ratio, UNFAIR_RATIO) if unfair else points.at_most(ratio, FAIR_RATIO)
        rule = f">= {UNFAIR_RATIO}" if unfair else f"<= {FAIR_RATIO}"
        return points.verdict(f"15-20 s, larger / smaller throughput of the two connections: {ratio:.2f} (needs {rule})")
    return check


def _fair_phases(target: str, phases: tuple[str, ...]):
    def check(d):
        fair = d[target].fairness_phase
        rows = [(p, float(fair.sel(phase=p))) for p in phases]
        points = Points()
        for _, v in rows:
            points.at_least(v, FAIR_INDEX)
        return points.verdict("; ".join(
            f"{p}: Jain's index {v:.3f}" for p, v in rows) + f" (needs >= {FAIR_INDEX})")
    return check


def _better_in_every_phase(better: str, worse: str):
    def check(d):
        a, b = d[better].utilization_phase, d[worse].utilization_phase
        rows = [f"{p}: {float(a.sel(phase=p)):.2f} vs {float(b.sel(phase=p)):.2f}" for p in a.phase.values]
        points = Points()
        for p in a.phase.values:
            points.at_least(float(a.sel(phase=p)), float(b.sel(phase=p)))
        return points.verdict("; ".join(rows))
    return check


def _mean_utilization(ds) -> float:
    """L1's utilization over the whole 20 s (the mean of its 250 ms intervals)."""
    return float(ds.utilization.mean())


def _utilization_above(better: str, worse: str, names: tuple[str, str]):
    def check(d):
        a, b = _mean_utilization(d[better]), _mean_utilization(d[worse])
        points = Points()
        points.at_least(a, b)
        return points.verdict(f"utilization over the 20 s: {names[0]} {a:.3f}, {names[1]} {b:.3f}")
    return check


def _red_005_like_dff(d):
    u5, dff = _mean_utilization(d["ewa.fig12"]), _mean_utilization(d["ewa.fig8"])
    points = Points()
    points.within(u5, dff, COMPARABLE)
    return points.verdict(f"utilization over the 20 s: RED 0.05 {u5:.3f}, "
                   f"Drop-from-Front {dff:.3f} (comparable: within {COMPARABLE})")


def _long_below_short(d):
    thr = d["ewa.fig4"].throughput_mbps
    short = float(thr.sel(source="3b"))
    rows = {s: float(thr.sel(source=s)) for s in ("1", "2b")}
    points = Points()
    for v in rows.values():
        points.at_most(v / max(short, 1e-9), LONG_OVER_SHORT)
    return points.verdict(", ".join(f"{s}: {v:.1f}" for s, v in rows.items()) + f" Mbit/s against 3b: {short:.1f} "
                   f"(needs <= {LONG_OVER_SHORT} x)")


def _repeated_slow_start(d):
    timeouts = d["ewa.fig2"].timeouts
    detail = ", ".join(f"{s}: {float(timeouts.sel(source=s)):.3g}" for s in timeouts.source.values)
    points = Points()
    for s in timeouts.source.values:
        points.at_least(float(timeouts.sel(source=s)), SLOW_STARTS)
    return points.verdict(f"timeouts per connection in 20 s: {detail} (needs "
                   f">= {SLOW_STARTS} for each connection, in every run)")


CLAIMS = [
    claim("drop_tail_utilization", "During the first 10 secs the utilization is approximately 70% ... limiting "
          "the utilization of link L1 to approximately 50% ... during the last 5 seconds ... the link utilization "
          "improves to approximately 80% (Fig. 6).", ("ewa.fig6",), _utilization_near_paper("ewa.fig6")),
    claim("drop_tail_fair_first_phase", "We observe that once steady state is reached, all connections make "
          "fair progress during the first 10 seconds (Fig. 5).", ("ewa.fig5",),
          _fair_phases("ewa.fig5", ("0-10 s",))),
    claim("drop_tail_unfair_last_phase", "This, however, occurs at the cost of degraded fairness ... one of the "
          "connections ... will increase its window much faster, thus obtaining a larger portion of the available "
          "bandwidth (Figs. 5, 6).", ("ewa.fig5",), _last_phase_ratio("ewa.fig5", unfair=True)),
    claim("drop_from_front_utilization", "the link utilization during the first 10 seconds is approximately "
          "90% ... approximately 75% ... during the last 5 seconds ... approximately 90% (Fig. 8).", ("ewa.fig8",),
          _utilization_near_paper("ewa.fig8")),
    claim("drop_from_front_over_drop_tail", "approximately 90% compared to 70% with Drop-Tail AAPs ... "
          "approximately 75% compared to 50% for Drop-Tail (Figs. 6, 8).", ("ewa.fig8", "ewa.fig6"),
          _better_in_every_phase("ewa.fig8", "ewa.fig6")),
    claim("drop_from_front_fair_last_phase", "In contrast to the Drop-Tail case, the progress of the two "
          "active TCP connections is fair (Fig. 7).", ("ewa.fig7",), _last_phase_ratio("ewa.fig7", unfair=False)),
    claim("long_connections_below_short", "The average throughput for each connection is shown in Figure 4, "
          "where the long connections can be seen to receive significantly lower throughput as compared to the "
          "short connection.", ("ewa.fig4",), _long_below_short),
    claim("repeated_slow_start", "Observe that all three connections periodically go through slow-start "
          "because of buffer overflows in AAP-1 (Figs. 2, 3).", ("ewa.fig2",), _repeated_slow_start, EVERY_RUN),
    claim("red_002_fair", "During the first 10 seconds all connections progress in a fair manner ... However, "
          "RED succeeds in achieving fairness (Figs. 9, 10).", ("ewa.fig9",),
          _fair_phases("ewa.fig9", ("0-10 s", "10-15 s", "15-20 s"))),
    claim("red_002_above_drop_tail", "The simulation results presented in this section suggest that RED has the "
          "potential of improving performance beyond that achieved by Drop-Tail and Drop-from-Front (Figs. 6, 10).",
          ("ewa.fig10", "ewa.fig6"), _utilization_above("ewa.fig10", "ewa.fig6", ("RED 0.02", "Drop-Tail"))),
    claim("red_005_below_002", "we increased max_p from 0.02 to 0.05 ... the overall performance is further "
          "degraded (Figs. 10, 12).", ("ewa.fig10", "ewa.fig12"),
          _utilization_above("ewa.fig10", "ewa.fig12", ("RED 0.02", "RED 0.05"))),
    claim("red_005_comparable_to_drop_from_front", "and the results are now comparable to those from "
          "Drop-from-Front (Figs. 8, 12).", ("ewa.fig12", "ewa.fig8"), _red_005_like_dff),
    claim("red_005_fair", "the connection progress is again fair (Fig. 11).", ("ewa.fig11",),
          _fair_phases("ewa.fig11", ("0-10 s", "10-15 s", "15-20 s"))),
]
