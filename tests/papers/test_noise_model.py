"""The verdict rule of issue 36: a claim reads the seeds by the noise model (atmtcp.claims.noise_verdict), the
papers' words have one table (atmtcp.words), values in words carry their precision, and identities of the model
are labelled and never counted."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from atmtcp import fidelity, statistics, words
from atmtcp.claims import NOISE_MODEL, PER_SEED, SEED_SHARE, Claim, Points, evaluate, joined, no_contradiction
from atmtcp.reference import paper_bounds

SEEDS = 10
RNG = np.random.default_rng(36)


def curves(differences, sd=0.018, seeds=SEEDS, rng=None):
    """A dataset of a ``difference`` per point (one seed per row), each seed its own normal noise of ``sd``."""
    rng = rng or np.random.default_rng(7)
    d = np.asarray(differences, float)
    values = d[None, :] + rng.normal(0.0, sd, size=(seeds, d.size))
    return {"t": xr.Dataset({"diff": (("seed", "point"), values)}, coords={"seed": np.arange(seeds),
                                                                             "point": np.arange(d.size)})}


def at_least_minus(tolerance, share=words.EVERY.value):
    """A check: diff >= -tolerance at every point, through Points."""
    def check(d):
        points = Points()
        for value in np.atleast_1d(d["t"]["diff"].values):
            points.at_least(value, -tolerance)
        return points.verdict(f"{points.held()} of {len(points.margins)} points", share)
    return check


def claim(check):
    return Claim("c", "test", "quote", ("t",), check, seed_share=SEED_SHARE)


def test_mean_intervals_are_the_bootstrap_interval_of_each_column():
    x = RNG.normal(size=(10, 6))
    x[2, 4] = np.nan
    expected = [statistics.interval(x[:, j], runs=int(np.isfinite(x[:, j]).sum())) for j in range(6)]
    np.testing.assert_allclose(statistics.mean_intervals(x), expected, rtol=0, atol=1e-12)


def test_points_record_margins_on_the_claimed_side():
    points = Points()
    assert points.at_least(0.5, 0.4) and not points.at_most(0.5, 0.4) and points.within(0.52, 0.5, 0.03)
    np.testing.assert_allclose(points.margins, [0.1, -0.1, 0.01])
    assert points.held() == 2 and not points.verdict("").passed and points.verdict("", 0.6).passed


def test_a_claim_true_at_its_tolerance_passes_by_the_noise_model_though_no_single_seed_holds_it():
    """70 points, every true difference 0, a tolerance of 1.1 standard deviations of one run's difference: no
    seed alone clears all 70 points (the old rule's conjunction per seed), while the paired mean of (nearly)
    every point lies within the tolerance."""
    data = curves(np.zeros(70))
    verdict = claim(at_least_minus(0.02)).evaluate(data)
    assert verdict.passed, verdict.detail
    assert verdict.rule == NOISE_MODEL and re.search(r"(6[3-9]|70) of 70 points agree, 0 contradict", verdict.detail)
    assert int((data["t"]["diff"] >= -0.02).all("point").sum()) == 0


def test_a_claim_contradicted_at_a_point_fails_for_every_point_words_and_not_for_by_and_large():
    differences = np.zeros(70)
    differences[10] = -0.08  # wholly below the tolerance in every seed's paired mean
    strict = claim(at_least_minus(0.02)).evaluate(curves(differences))
    loose = claim(at_least_minus(0.02, words.BY_AND_LARGE.value)).evaluate(curves(differences))
    assert not strict.passed and "1 contradict" in strict.detail, strict.detail
    assert loose.passed, loose.detail
    assert no_contradiction(words.EVERY.value) and not no_contradiction(words.BY_AND_LARGE.value)


def test_a_claim_fails_when_too_few_points_agree():
    """Half the points lie well below the tolerance: 35 of 70 agree, 63 are needed."""
    differences = np.where(np.arange(70) < 35, 0.0, -0.1)
    verdict = claim(at_least_minus(0.02, words.BY_AND_LARGE.value)).evaluate(curves(differences))
    assert not verdict.passed and re.search(r"3[0-5] of 70 points agree", verdict.detail), verdict.detail


def test_joined_parts_each_need_their_share():
    """An existence ("sometimes": one point) joined with an every-point statement: both must hold."""
    def check(d):
        values = d["t"]["diff"].values
        some, every = Points(), Points()
        for v in values[:5]:
            some.at_least(v, 0.05)
        for v in values[5:]:
            every.at_least(v, -0.02)
        return joined("two parts", some.verdict("", words.SOMETIMES.value), every.verdict(""))
    one_high = np.r_[0.1, np.zeros(4), np.zeros(20)]
    assert claim(check).evaluate(curves(one_high)).passed
    assert not claim(check).evaluate(curves(np.zeros(25))).passed  # no point of the first part agrees
    assert not claim(check).evaluate(curves(np.r_[0.1, np.zeros(4), np.full(20, -0.1)])).passed


def test_checks_without_margins_keep_the_per_seed_rule():
    from atmtcp.claims import Verdict

    def plain(d):
        return Verdict(bool((np.atleast_1d(d["t"]["diff"].values) > -0.02).all()), "plain")
    verdict = claim(plain).evaluate(curves(np.zeros(3)))
    assert verdict.rule == PER_SEED and "holds in" in verdict.detail
    table = evaluate(curves(np.zeros(3)), [claim(plain), claim(at_least_minus(0.02))])
    assert list(table.read_on) == [PER_SEED, NOISE_MODEL]


def test_every_word_has_one_number_within_its_sweep_and_is_on_the_page():
    seen = [w for word in words.WORDS for w in word.words]
    assert len(seen) == len(set(seen)), "a word read two ways"
    assert all(w.value in w.sweep for w in words.WORDS)
    table = words.markdown_table()
    assert all(f'"{w.words[0]}"' in table for w in words.WORDS)
    with pytest.raises(ValueError, match="not among its sweep"):
        words.Word(("x",), 0.5, "unit", "reason", (0.4, 0.6))
    assert "## What the papers' words mean here" in "\n".join(fidelity.verdict_rule_lines())


@pytest.mark.parametrize("value,text,low,high", [
    (0.1, "1/10th", 0.05, 0.15), (0.2, "1/5th", 0.15, 0.25), (0.5, "half", 0.45, 0.55),
    (0.1, "equal throughputs", 0.05, 0.15), (0.5, "approximately half", 0.45, 0.55),
    (0.7, "approximately 70%", 0.695, 0.705), (0.21, "0.21", 0.205, 0.215)])
def test_values_in_words_carry_the_precision_of_their_words(value, text, low, high):
    assert paper_bounds(value, text) == pytest.approx((low, high))


def test_an_identity_of_the_model_is_labelled_and_never_counted():
    verdicts = pd.DataFrame({"claim": ["a", "b"], "paper": ["goyal1997", "goyal1997"], "passed": [True, False],
                             "detail": ["x", "y"], "identity": ["the arithmetic of a rule", ""]})
    only_identity = fidelity.Finding("goyal1997", "q", "w", ("a",))
    mixed = fidelity.Finding("goyal1997", "q", "w", ("a", "b"))
    assert fidelity.mark(only_identity, verdicts)[0] == fidelity.IDENTITY
    label, evidence = fidelity.mark(mixed, verdicts)
    assert label == "not" and "an identity of the model" in evidence
    comparisons = pd.DataFrame({"target": ["goyal1997.x"], "status": ["compared"], "seeds": [10], "kind": ["fraction"],
                                "inside": [True], "difference": [0.0], "relative_difference_pct": [0.0]})
    table = fidelity.documents_table(comparisons, verdicts, {"goyal1997": ["goyal1997.x"]})
    assert table.loc["goyal1997", "claims passed"] == "0 of 1"
