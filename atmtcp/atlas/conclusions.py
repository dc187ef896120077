"""Each paper's principal conclusions as tests that can be asked in every scenario of the atlas.

A conclusion quotes its paper's principal finding (the ``FINDINGS`` of the paper's package,
:mod:`atmtcp.fidelity`, found by the claim that decides it at home) and says what of it is tested here:
one or more comparisons (:class:`Test`), each a metric of one policy against another (at the cell layer,
at the packet layer, or both, :attr:`Test.cell` / :attr:`Test.packet`), or of one TCP against another.

Read on paired seeds (:func:`judge`): in one scenario and for one TCP (policy conclusions) or one policy
(TCP conclusions), the difference better - worse (worse - better for a metric where lower is better) is
taken seed by seed, the same seed giving both runs the same random draws. A test holds when the mean
difference is positive and at least :data:`atmtcp.claims.SEED_SHARE` of the seeds agree (the claims'
rule: a paper's one run reproduced by seven of our ten); a conclusion holds where all its tests that
apply hold, "k of n" counting the seeds on which all of them agree. The 90 % interval beside each mean is
that of one seed's difference (:func:`atmtcp.statistics.mean_and_interval`). A test whose policies do
not act at the scenario's layer is not applicable; a conclusion with no applicable test is "not
applicable" there.

Across the other axis (the TCPs for a policy conclusion, the policies for a TCP conclusion),
:func:`summary` marks a conclusion "holds" where it holds for every one, "does not" where for none,
and otherwise names those for which it holds: that is where the answer depends on the TCP.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from ..claims import SEED_SHARE, seeds_needed
from ..papers import PAPERS
from ..statistics import mean_and_interval
from .grid import LABELS, SCENARIOS, TCP_LABELS, TCPS
from .measures import METRICS

HOLDS, DOES_NOT, NOT_APPLICABLE, PARTLY = "holds", "does not", "not applicable", "partly"


@dataclass(frozen=True)
class Test:
    """``metric`` of ``cell`` = (better, worse) policies at the cell layer, ``packet`` at the access point
    (None: not askable there), or of ``tcps`` = (better, worse) TCPs in every scenario."""

    metric: str
    cell: tuple[str, str] | None = None
    packet: tuple[str, str] | None = None
    tcps: tuple[str, str] | None = None

    def __post_init__(self):
        if self.metric not in METRICS:
            raise ValueError(f"Test.metric = {self.metric!r}: must be one of {tuple(METRICS)}")
        if (self.tcps is None) == (self.cell is None and self.packet is None):
            raise ValueError("Test: give either tcps or cell/packet policies")

    def pair(self, layer: str) -> tuple[str, str] | None:
        """The (better, worse) pair this test asks at ``layer`` (``"cell"`` or ``"packet"``); None where it is
        not askable."""
        return self.tcps or (self.cell if layer == "cell" else self.packet)

    @property
    def axis(self) -> str:
        """``"tcp"`` for a test of two TCPs, else ``"policy"``."""
        return "tcp" if self.tcps else "policy"

    def text(self, layer: str | None = None) -> str:
        """The test in words (``"efficiency of EPD above UBR"``): at ``layer``, or at both layers if ``layer``
        is None."""
        pairs = [self.tcps] if self.tcps else [p for p in (self.cell, self.packet) if p and (layer is None or p ==
                                                                                        self.pair(layer))]
        labels = TCP_LABELS if self.tcps else LABELS
        word = "above" if METRICS[self.metric][2] else "below"
        return " / ".join(f"{self.metric} of {labels[a]} {word} {labels[b]}" for a, b in pairs)


@dataclass(frozen=True)
class Conclusion:
    """A paper's principal conclusion: its key, the paper, the claim of that paper deciding it at home
    (whose :class:`~atmtcp.fidelity.Finding` gives the quote) and the tests asking it elsewhere."""

    key: str
    paper: str
    claim: str
    tests: tuple[Test, ...]

    @property
    def quote(self) -> str:
        """The paper's words for this conclusion (its :func:`finding`'s quote)."""
        return finding(self.paper, self.claim).quote

    @property
    def where(self) -> str:
        """Where in the paper the quote stands (its :func:`finding`'s section)."""
        return finding(self.paper, self.claim).where

    @property
    def axis(self) -> str:
        """The axis the tests compare along (``"tcp"`` or ``"policy"``), that of the first test."""
        return self.tests[0].axis


def finding(paper: str, claim: str):
    """The principal finding of ``paper`` that ``claim`` decides (its package's ``FINDINGS``)."""
    for item in PAPERS[paper].FINDINGS:
        if claim in item.claims:
            return item
    raise KeyError(f"no finding of {paper} is decided by the claim {claim!r}")


CONCLUSIONS = (
    Conclusion("goyal_epd", "goyal1998", "epd_efficiency_not_fairness", (Test("efficiency", cell=("epd", "tail")),)),
    Conclusion("goyal_selective_drop", "goyal1998", "selective_drop_fairness_over_epd",
               (Test("fairness", cell=("selective_drop", "epd")),)),
    Conclusion("goyal_fba", "goyal1998", "fba_best_r09_z08",
               (Test("efficiency", cell=("fba", "epd")), Test("fairness", cell=("fba", "epd")))),
    Conclusion("goyal_frr", "goyal1998", "frr_hurts_wan_efficiency", (Test("efficiency", tcps=("vanilla", "reno")),)),
    Conclusion("goyal_sack", "goyal1998", "sack_highest_wan_efficiency",
               (Test("efficiency", tcps=("sack", "vanilla")), Test("efficiency", tcps=("sack", "reno")))),
    Conclusion("cheon_ppd_epd", "cheon", "ppd_over_rcd",
               (Test("efficiency", cell=("ppd", "tail")), Test("efficiency", cell=("epd", "ppd")))),
    Conclusion("cheon_espd", "cheon", "espd_over_epd",
               (Test("efficiency", cell=("espd", "epd")), Test("fairness", cell=("espd", "epd")))),
    Conclusion("lakshman_front", "lakshman", "cell_tail_poorest",
               (Test("efficiency", cell=("cell_front", "tail"), packet=("drop_from_front", "drop_tail")),
                Test("efficiency", cell=("cell_front", "ppd")))),
    Conclusion("lakshman_frame", "lakshman", "frame_front_over_cell_front",
               (Test("efficiency", cell=("frame_front", "cell_front")), Test("efficiency", cell=("ppd", "tail")))),
    Conclusion("lakshman_fairness", "lakshman", "front_narrows_rtt_advantage",
               (Test("fairness", cell=("cell_front", "tail"), packet=("drop_from_front", "drop_tail")),
                Test("fairness", cell=("frame_front", "ppd")))),
    Conclusion("lakshman_red", "lakshman", "front_beats_cell_red",
               (Test("efficiency", cell=("cell_front", "red_cell"), packet=("drop_from_front", "red")),)),
    Conclusion("lakshman_frame_red", "lakshman", "frame_red_like_frame_front",
               (Test("efficiency", cell=("red_frame", "red_cell")),)),
    Conclusion("ewa_drop_from_front", "ewa", "drop_from_front_over_drop_tail",
               (Test("efficiency", cell=("frame_front", "ppd"), packet=("drop_from_front", "drop_tail")),)),
    Conclusion("ewa_ewa", "ewa", "ewa_less_loss_than_dff_and_red",
               tuple(Test(metric, packet=("ewa", other)) for metric in ("loss", "fairness", "efficiency")
                     for other in ("drop_from_front", "red"))),
)
"""The conclusions the atlas asks (module docstring). Where a conclusion's words name a packet policy,
its cell-layer analogue is the one dropping whole frames the same way (ewa's Drop-from-Front: Frame-Front
against PPD, lakshman's Frame-Tail); lakshman's drop from front at the access point is ewa's
Drop-from-Front."""


def differences(grid: xr.Dataset, test: Test, scenario: str, other: str) -> np.ndarray | None:
    """Per seed, how far the better side of ``test`` leads in ``scenario`` at ``other`` (the TCP of a
    policy test, the policy of a TCP test); None where the test is not applicable."""
    layer = SCENARIOS[scenario].layer
    pair = test.pair(layer)
    if pair is None:
        return None
    values = grid[test.metric].sel(scenario=scenario)
    fixed = {"tcp": other} if test.axis == "policy" else {"policy": other}
    a, b = (values.sel({test.axis: side, **fixed}).values for side in pair)
    diff = (a - b) if METRICS[test.metric][2] else (b - a)
    return None if not np.isfinite(diff).any() else diff


def judge(diffs: list[np.ndarray]) -> dict:
    """The verdict of a conclusion's applicable tests' paired differences (module docstring)."""
    if not diffs:
        return {"verdict": NOT_APPLICABLE, "agree": 0, "seeds": 0, "tests": []}
    finite = np.all([np.isfinite(d) for d in diffs], axis=0)
    tests = []
    for d in diffs:
        mean, low, high = mean_and_interval(d[finite])
        agree = int((d[finite] > 0).sum())
        tests.append({"mean": mean, "low": low, "high": high, "agree": agree,
                      "holds": bool(mean > 0 and agree >= seeds_needed(int(finite.sum()), SEED_SHARE))})
    together = int(np.all([d[finite] > 0 for d in diffs], axis=0).sum())
    verdict = HOLDS if all(t["holds"] for t in tests) else DOES_NOT
    return {"verdict": verdict, "agree": together, "seeds": int(finite.sum()), "tests": tests}


def others(conclusion: Conclusion, grid: xr.Dataset, scenario: str) -> list[str]:
    """The values of the other axis a conclusion is read at: every TCP, or every policy of the layer."""
    if conclusion.axis == "policy":
        return [t for t in TCPS if t in grid.tcp.values]
    values = grid.efficiency.sel(scenario=scenario).isel(tcp=0, seed=0)
    return [str(p) for p in grid.policy.values if np.isfinite(values.sel(policy=p))]


def evaluate(grid: xr.Dataset, conclusions=CONCLUSIONS) -> pd.DataFrame:
    """One row per (conclusion, scenario, TCP or policy) and applicable test: the mean paired difference, its
    interval, the seeds agreeing, the test's and the conclusion's verdicts."""
    rows = []
    for c in conclusions:
        for scenario in [str(s) for s in grid.scenario.values]:
            for other in others(c, grid, scenario):
                applicable = [(t, d) for t in c.tests if (d := differences(grid, t, scenario, other)) is not None]
                result = judge([d for _, d in applicable])
                base = {"conclusion": c.key, "paper": c.paper, "scenario": scenario, "axis": c.axis, "at": other,
                        "verdict": result["verdict"], "agree": result["agree"], "seeds": result["seeds"]}
                if not applicable:
                    rows.append({**base, "test": "", "metric": "", "mean": np.nan, "low": np.nan, "high": np.nan,
                                 "test_agree": 0, "test_holds": False})
                for (t, _), r in zip(applicable, result["tests"]):
                    rows.append({**base, "test": t.text(SCENARIOS[scenario].layer), "metric": t.metric,
                                 "mean": r["mean"], "low": r["low"], "high": r["high"], "test_agree": r["agree"],
                                 "test_holds": r["holds"]})
    return pd.DataFrame(rows)


def summary(evaluated: pd.DataFrame) -> pd.DataFrame:
    """One row per (conclusion, scenario): holds / does not / partly (naming the TCPs or policies for which it
    holds) / not applicable, and the seeds agreeing in total."""
    rows = []
    for (key, scenario), part in evaluated.groupby(["conclusion", "scenario"], sort=False):
        per = part.drop_duplicates("at")
        held = [str(a) for a, v in zip(per["at"], per["verdict"]) if v == HOLDS]
        if (per.verdict == NOT_APPLICABLE).all():
            mark = NOT_APPLICABLE
        elif len(held) == len(per):
            mark = HOLDS
        elif not held:
            mark = DOES_NOT
        else:
            mark = PARTLY
        rows.append({"conclusion": key, "scenario": scenario, "mark": mark, "held_at": held, "axis": per.axis.iloc[0],
                     "at_count": len(per), "agree": int(per.agree.sum()), "seeds": int(per.seeds.sum())})
    return pd.DataFrame(rows)


def by_key(key: str) -> Conclusion:
    """The conclusion of :data:`CONCLUSIONS` with ``key``; ``KeyError`` naming the known keys otherwise."""
    for c in CONCLUSIONS:
        if c.key == key:
            return c
    raise KeyError(f"unknown conclusion {key!r}; known: {[c.key for c in CONCLUSIONS]}")
