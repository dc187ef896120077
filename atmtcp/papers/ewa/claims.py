"""ewa's claims about section 2's results, each a check on the reproduced datasets.

Each quotes its sentence, names the targets it reads and computes its verdict from the data
(:class:`atmtcp.claims.Claim`). The paper shows one run per figure; we check the mean over the
seeds (seed 0 is the paper's setup, the others open the connections within 10 ms and draw RED
differently) and print every seed's number in the detail. Tolerances the paper does not give are
stated with each claim.
"""
from __future__ import annotations

import numpy as np

from ...claims import Claim, Verdict
from ...reference import load_reference

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
LONG_OVER_SHORT = 0.8
"""'significantly lower throughput': each long connection gets at most 0.8 of the short one's."""
SLOW_STARTS = 3
"""'periodically go through slow-start': at least three timeouts (each a slow start after the first)
per connection in the 20 s."""
COMPARABLE = 0.05
"""'comparable to those from Drop-from-Front': mean utilization over the 20 s within 5 points."""


def _per_seed(values) -> str:
    return ", ".join(f"{v:.2f}" for v in np.atleast_1d(values))


def paper_utilization(target: str) -> dict[str, float]:
    """The paper's utilization of L1 per phase for ``target`` (``data/reference/ewa.csv``)."""
    ref = load_reference("ewa")
    rows = ref[(ref.target == target) & (ref.metric == "l1_utilization")]
    return dict(zip(rows.phase, rows.value.astype(float)))


def _utilization_near_paper(target: str):
    def check(d):
        ds = d[target]
        rows, ok = [], True
        for phase, paper in paper_utilization(target).items():
            seeds = ds.utilization_phase.sel(phase=phase).values
            ours = float(seeds.mean())
            ok &= abs(ours - paper) <= UTILIZATION_TOLERANCE
            rows.append(f"{phase}: {ours:.2f} (paper {paper:.2f}; seeds {_per_seed(seeds)})")
        return Verdict(ok, "; ".join(rows) + f". Within {UTILIZATION_TOLERANCE:.2f} of the paper in every phase "
                       "counts as reproduced.")
    return check


def _last_phase_ratio(target: str, unfair: bool):
    def check(d):
        ratios = d[target].share_ratio_phase.sel(phase="15-20 s").values
        mean = float(np.mean(ratios))
        ok = mean >= UNFAIR_RATIO if unfair else mean <= FAIR_RATIO
        rule = f">= {UNFAIR_RATIO}" if unfair else f"<= {FAIR_RATIO}"
        return Verdict(ok, f"15-20 s, larger / smaller throughput of the two connections: mean {mean:.2f} "
                       f"(needs {rule}); seeds {_per_seed(ratios)}")
    return check


def _fair_phases(target: str, phases: tuple[str, ...]):
    def check(d):
        fair = d[target].fairness_phase
        rows = [(p, float(fair.sel(phase=p).mean())) for p in phases]
        return Verdict(all(v >= FAIR_INDEX for _, v in rows), "; ".join(
            f"{p}: Jain's index {v:.3f}" for p, v in rows) + f" (mean over seeds; needs >= {FAIR_INDEX})")
    return check


def _better_in_every_phase(better: str, worse: str):
    def check(d):
        a = d[better].utilization_phase.mean("seed")
        b = d[worse].utilization_phase.mean("seed")
        rows = [f"{p}: {float(a.sel(phase=p)):.2f} vs {float(b.sel(phase=p)):.2f}" for p in a.phase.values]
        return Verdict(bool((a > b).all()), "; ".join(rows))
    return check


def _mean_utilization(ds) -> float:
    """L1's utilization over the whole 20 s, mean over seeds."""
    return float(ds.utilization.mean())


def _utilization_above(better: str, worse: str, names: tuple[str, str]):
    def check(d):
        a, b = _mean_utilization(d[better]), _mean_utilization(d[worse])
        return Verdict(a > b, f"utilization over the 20 s (mean over seeds): {names[0]} {a:.3f}, {names[1]} {b:.3f}")
    return check


def _red_005_like_dff(d):
    u5, dff = _mean_utilization(d["ewa.fig12"]), _mean_utilization(d["ewa.fig8"])
    return Verdict(abs(u5 - dff) <= COMPARABLE, f"utilization over the 20 s (mean over seeds): RED 0.05 {u5:.3f}, "
                   f"Drop-from-Front {dff:.3f} (comparable: within {COMPARABLE})")


def _long_below_short(d):
    thr = d["ewa.fig4"].throughput_mbps
    mean = thr.mean("seed")
    short = float(mean.sel(source="3b"))
    rows = {s: float(mean.sel(source=s)) for s in ("1", "2b")}
    ok = all(v <= LONG_OVER_SHORT * short for v in rows.values())
    return Verdict(ok, ", ".join(f"{s}: {v:.1f}" for s, v in rows.items()) + f" Mbit/s against 3b: {short:.1f} "
                   f"(mean over seeds; needs <= {LONG_OVER_SHORT} x)")


def _repeated_slow_start(d):
    timeouts = d["ewa.fig2"].timeouts
    least = timeouts.min("seed")
    detail = ", ".join(f"{s}: {int(least.sel(source=s))}-{int(timeouts.sel(source=s).max())}"
                       for s in timeouts.source.values)
    return Verdict(bool((least >= SLOW_STARTS).all()), f"timeouts per connection in 20 s (fewest-most over seeds): "
                   f"{detail}; needs >= {SLOW_STARTS} in every run")


CLAIMS = [
    Claim("drop_tail_utilization", "ewa", "During the first 10 secs the utilization is approximately 70% ... limiting "
          "the utilization of link L1 to approximately 50% ... during the last 5 seconds ... the link utilization "
          "improves to approximately 80% (Fig. 6).", ("ewa.fig6",), _utilization_near_paper("ewa.fig6")),
    Claim("drop_tail_fair_first_phase", "ewa", "We observe that once steady state is reached, all connections make "
          "fair progress during the first 10 seconds (Fig. 5).", ("ewa.fig5",),
          _fair_phases("ewa.fig5", ("0-10 s",))),
    Claim("drop_tail_unfair_last_phase", "ewa", "This, however, occurs at the cost of degraded fairness ... one of the "
          "connections ... will increase its window much faster, thus obtaining a larger portion of the available "
          "bandwidth (Figs. 5, 6).", ("ewa.fig5",), _last_phase_ratio("ewa.fig5", unfair=True)),
    Claim("drop_from_front_utilization", "ewa", "the link utilization during the first 10 seconds is approximately "
          "90% ... approximately 75% ... during the last 5 seconds ... approximately 90% (Fig. 8).", ("ewa.fig8",),
          _utilization_near_paper("ewa.fig8")),
    Claim("drop_from_front_over_drop_tail", "ewa", "approximately 90% compared to 70% with Drop-Tail AAPs ... "
          "approximately 75% compared to 50% for Drop-Tail (Figs. 6, 8).", ("ewa.fig8", "ewa.fig6"),
          _better_in_every_phase("ewa.fig8", "ewa.fig6")),
    Claim("drop_from_front_fair_last_phase", "ewa", "In contrast to the Drop-Tail case, the progress of the two "
          "active TCP connections is fair (Fig. 7).", ("ewa.fig7",), _last_phase_ratio("ewa.fig7", unfair=False)),
    Claim("long_connections_below_short", "ewa", "The average throughput for each connection is shown in Figure 4, "
          "where the long connections can be seen to receive significantly lower throughput as compared to the "
          "short connection.", ("ewa.fig4",), _long_below_short),
    Claim("repeated_slow_start", "ewa", "Observe that all three connections periodically go through slow-start "
          "because of buffer overflows in AAP-1 (Figs. 2, 3).", ("ewa.fig2",), _repeated_slow_start),
    Claim("red_002_fair", "ewa", "During the first 10 seconds all connections progress in a fair manner ... However, "
          "RED succeeds in achieving fairness (Figs. 9, 10).", ("ewa.fig9",),
          _fair_phases("ewa.fig9", ("0-10 s", "10-15 s", "15-20 s"))),
    Claim("red_002_above_drop_tail", "ewa", "The simulation results presented in this section suggest that RED has the "
          "potential of improving performance beyond that achieved by Drop-Tail and Drop-from-Front (Figs. 6, 10).",
          ("ewa.fig10", "ewa.fig6"), _utilization_above("ewa.fig10", "ewa.fig6", ("RED 0.02", "Drop-Tail"))),
    Claim("red_005_below_002", "ewa", "we increased max_p from 0.02 to 0.05 ... the overall performance is further "
          "degraded (Figs. 10, 12).", ("ewa.fig10", "ewa.fig12"),
          _utilization_above("ewa.fig10", "ewa.fig12", ("RED 0.02", "RED 0.05"))),
    Claim("red_005_comparable_to_drop_from_front", "ewa", "and the results are now comparable to those from "
          "Drop-from-Front (Figs. 8, 12).", ("ewa.fig12", "ewa.fig8"), _red_005_like_dff),
    Claim("red_005_fair", "ewa", "the connection progress is again fair (Fig. 11).", ("ewa.fig11",),
          _fair_phases("ewa.fig11", ("0-10 s", "10-15 s", "15-20 s"))),
]
