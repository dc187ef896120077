"""lakshman's claims pass on data that bears them out and fail on data that does not, on the mean over
the seeds or on too many seeds alone; the analyses behind the notebook's early-warning and run-length
figures; every paper number is compared (the thresholds, as distributions over seeds), echoed (a model
parameter) or context; the principal findings name existing claims.

The synthetic datasets have the shapes the paper describes (section 4-5). Their seeds carry
independent noise (issue 36): every discipline, buffer and seed its own normal draw with the standard
deviation of one of our runs (:data:`NOISE_SD`), from a generator seeded per target, so that the claims
meet the per-seed orderings real runs have. The tests of the thresholds' arithmetic use three seeds
spread around the mean (+0.03, 0, -0.03) instead (``structured=True``), whose thresholds can be computed
by hand. The failing cases change a curve in every seed (the mean fails).
"""
from __future__ import annotations

import functools
import re
import zlib
from dataclasses import replace

import numpy as np
import pytest
import xarray as xr

from atmtcp.claims import NOISE_MODEL, SEED_SHARE, Sweep, evaluate
from atmtcp.papers.lakshman import FINDINGS
from atmtcp.papers.lakshman import claims as lc
from atmtcp.papers.lakshman import experiments as lx
from atmtcp.papers.lakshman import figures as lf
from atmtcp.papers.lakshman.comparison import (
    PARAMETERS, THRESHOLDS, comparison, conclusions_table, describe_thresholds, needed_beta_per_seed,
    thresholds_table,
)
from atmtcp.papers.lakshman.scenario import BUFFERS, CELL_S, DISCIPLINES, MSS, beta
from atmtcp.reference import ADDED_COLUMNS, agreement, load_reference

B = np.array(BUFFERS)
BETA = beta(B)
SEED_OFFSETS = np.array([0.03, 0.0, -0.03])
"""The structured world's three seeds (``structured=True``)."""
SEEDS = list(range(1, 11))
NOISE_SD = 0.013
"""One run's standard deviation of the total throughput: the median over the points of Figs. 2-10
(atmtcp.papers.lakshman.claims.NOISE's docstring)."""


def seed_values(curves, name, structured=False):
    """``curves`` (... x buffer, or ...) with a last ``seed`` axis: three structured offsets, or ten seeds of
    independent noise drawn by a generator seeded by ``name`` (the same world in every test)."""
    curves = np.asarray(curves, dtype=float)
    if structured:
        return curves[..., None] + SEED_OFFSETS
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return curves[..., None] + rng.normal(0.0, NOISE_SD, size=curves.shape + (len(SEEDS),))


def seeds_of(structured):
    return [1, 2, 3] if structured else SEEDS
CURVES = {
    "cell_tail": np.minimum(0.95, 0.55 + 0.13 * BETA),
    "cell_front": np.minimum(0.99, 0.5 + 0.45 * BETA),
    "frame_tail": np.minimum(0.97, 0.75 + 0.1 * BETA),
    "frame_front": np.minimum(1.0, 0.8 + 0.25 * BETA),
}
CURVES["cell_tail"][0] = 0.7  # lockout at 256 cells: "throughput is high due to lockout" (above Cell-Front)
SHORT_SHARE = {"cell_tail": 0.6, "cell_front": 0.55, "frame_tail": 0.65, "frame_front": 0.52}
"""The shortest-RTT source's share of the total: the tail disciplines favour it more, frame level most."""


def total_dataset(target, curves=None, shares=None, structured=False):
    rtts = np.array(lx.TOTAL_FIGURES[target][0])
    curves = {**CURVES, **(curves or {})}
    shares = {**SHORT_SHARE, **(shares or {})}
    n = rtts.size
    total = seed_values(np.array([curves[k] for k in DISCIPLINES]), target, structured)
    weight = np.full((len(DISCIPLINES), n), 1.0 / n)
    if np.ptp(rtts) > 0:
        for i, k in enumerate(DISCIPLINES):
            short, long_ = int(np.argmin(rtts)), int(np.argmax(rtts))
            rest = [s for s in range(n) if s not in (short, long_)]
            weight[i, short] = shares[k]
            weight[i, long_] = 1 - shares[k] - 0.3 * len(rest)
            weight[i, rest] = 0.3
    good = total[..., None] * weight[:, None, None, :]
    ds = xr.Dataset({
        "total_throughput": (("discipline", "buffer", "seed"), total),
        "good_throughput": (("discipline", "buffer", "seed", "source"), good),
        "rtt_s": (("discipline", "buffer", "seed", "source"), np.broadcast_to(rtts, good.shape).copy()),
        "ack_delay_s": (("discipline", "buffer", "seed", "source"), np.full(good.shape, 0.045)),
    }, coords={"discipline": list(DISCIPLINES), "buffer": B, "seed": seeds_of(structured), "source": np.arange(n)})
    return lx.seed_statistics(ds)


def red_dataset(axis, values, curve, spread=0.0, first=None, structured=False, name=None):
    """RED runs: ``curve`` (+ ``spread`` per step of ``axis``; ``first``: the curve of the first value)
    with each seed's noise (:func:`seed_values`, drawn by a generator seeded by ``name``)."""
    curves = [curve + spread * i for i in range(len(values))]
    if first is not None:
        curves[0] = first
    rows = seed_values(np.array(curves), name or f"{axis} {len(values)}", structured)
    coords = {axis: list(values), "seed": seeds_of(structured)}
    if rows.ndim == 3:
        ds = xr.Dataset({"total_throughput": ((axis, "buffer", "seed"), rows)},
                        coords={**coords, "buffer": B})
    else:
        ds = xr.Dataset({"total_throughput": ((axis, "seed"), rows)}, coords=coords)
    ds["good_throughput"] = ds.total_throughput.expand_dims(source=[0])
    ds["rtt_s"] = xr.full_like(ds.good_throughput, 0.06)
    return lx.seed_statistics(ds)


def paper_world(structured=False, **changes):
    """Datasets of every claim's targets, shaped as the paper describes; ``changes`` replaces the curves
    of one target (``fig10={"cell_front": ...}``) or a RED dataset (``fig12=...``); ``structured``: three
    seeds at fixed offsets instead of ten with independent noise."""
    data = {}
    for target in lx.TOTAL_FIGURES:
        spec = changes.get(target.split(".")[1], {})
        data[target] = total_dataset(target, spec.get("curves"), spec.get("shares"), structured)
    for target, (parent, disciplines, _) in lx.INDIVIDUAL_FIGURES.items():
        data[target] = data[parent].sel(discipline=list(disciplines))
    cell_red = CURVES["cell_front"] - 0.06
    cell_red_widest = np.where(BETA > 2, CURVES["cell_tail"] - 0.05, cell_red)
    fig11 = red_dataset("red_one", lx.RED_ONE, cell_red, spread=-0.02, first=cell_red_widest, structured=structured,
                        name="fig11")
    data["lakshman.fig11"] = changes.get("fig11", fig11)
    data["lakshman.fig12"] = changes.get("fig12", red_dataset("red_one", lx.RED_ONE, CURVES["frame_front"] - 0.005,
                                                              spread=0.003, structured=structured, name="fig12"))
    data["lakshman.fig13"] = changes.get("fig13", red_dataset("red_one", lx.FIG13_RED_ONE,
                                                              CURVES["frame_front"] - 0.01, spread=0.003,
                                                              structured=structured, name="fig13"))
    data["lakshman.fig14"] = changes.get("fig14", red_dataset("ratio", lx.FIG14_RATIOS, 0.9, spread=0.002,
                                                              structured=structured, name="fig14"))
    return data


def verdicts(data, *names):
    """Each claim's pass or fail on ``data`` (only the claims ``names``, where given: fewer evaluations)."""
    table = evaluate(data, [c for c in lc.CLAIMS if not names or c.name in names])
    return dict(zip(table.claim, table.passed))


def shifted(ds, change, **sel):
    """``ds`` with ``change`` added to ``total_throughput`` at ``sel`` (every seed unless ``sel`` names
    one), its statistics over the seeds recomputed."""
    ds = ds.copy(deep=True)
    ds["total_throughput"].loc[sel] = ds["total_throughput"].loc[sel] + change
    return lx.seed_statistics(ds)


def at(curve, buffer, value):
    out = curve.copy()
    out[list(BUFFERS).index(buffer)] = value
    return out


@functools.lru_cache(maxsize=1)
def paper_evaluation():
    """Every claim evaluated on the paper world (evaluated once: ten seeds of every claim cost seconds)."""
    return evaluate(paper_world(), lc.CLAIMS)


def test_every_claim_passes_in_the_paper_world():
    table = paper_evaluation()
    assert table.passed.all(), table[~table.passed].detail.tolist()
    assert len(table) == len(lc.CLAIMS) == 16
    assert all(c.seed_share == SEED_SHARE for c in lc.CLAIMS)
    assert (table.read_on == NOISE_MODEL).all()  # every check gives its points
    assert table.detail.str.contains(r"the claim holds in \d+ of 10 seeds").all()  # each says how many seeds agree


def test_a_claim_true_at_its_tolerance_passes_though_single_seeds_fail_it():
    """The bias of reading each seed alone (issue 36): Cell-Front equal to Frame-Front at every point of the five
    figures, each seed with its own noise. "Frame-Front >= Cell-Front - NOISE" is true at every point, yet a
    single run must clear 70 points at a tolerance of about 1.1 standard deviations of one run's difference,
    so few seeds alone hold it; the noise model reads each point's paired mean and passes the claim."""
    world = paper_world(**{f"fig{n}": {"curves": {"cell_front": CURVES["frame_front"]}} for n in (2, 3, 6, 7, 10)})
    table = evaluate(world, [c for c in lc.CLAIMS if c.name == "frame_front_over_cell_front"]).iloc[0]
    assert table.passed, table.detail
    held = int(re.search(r"the claim holds in (\d+) of 10 seeds", table.detail).group(1))
    assert held < 7  # the per-seed rule (7 of 10 seeds) would have failed it


def test_a_claim_fails_when_its_points_are_contradicted_beyond_the_noise():
    """Cell-Front above Frame-Front by 0.05 (2.5 x NOISE) at three buffers of Fig. 6 in every seed: those
    points contradict, and though 67 of 70 agree (63 needed) "consistently" allows no clear exception; at
    eight buffers of two figures too few agree as well (62 of 70)."""
    def above(buffers):
        curve = CURVES["cell_front"].copy()
        for b in buffers:
            curve[list(BUFFERS).index(b)] = CURVES["frame_front"][list(BUFFERS).index(b)] + 0.05
        return {"curves": {"cell_front": curve}}
    three = paper_world(fig6=above((2304, 3456, 4608)))
    row = evaluate(three, [c for c in lc.CLAIMS if c.name == "frame_front_over_cell_front"]).iloc[0]
    assert not row.passed and "67 of 70 points agree, 3 contradict, 63 needed (90%, none contradicting)" in row.detail
    eight = paper_world(fig6=above((1152, 2304, 3456, 4608)), fig7=above((1152, 2304, 3456, 4608)))
    row = evaluate(eight, [c for c in lc.CLAIMS if c.name == "frame_front_over_cell_front"]).iloc[0]
    assert not row.passed and "62 of 70 points agree, 8 contradict" in row.detail, row.detail


FAILING = {
    "frame_front_over_cell_front": {"fig6": {"curves": {"cell_front": at(CURVES["cell_front"], 2304, 0.99)}}},
    "frame_tail_over_cell_tail": {"fig2": {"curves": {"cell_tail": at(CURVES["cell_tail"], 1152, 0.9)}}},
    "cell_tail_poorest": {"fig7": {"curves": {"cell_tail": at(CURVES["cell_tail"], 5760, 0.99)}}},
    "throughput_grows_with_buffer": {"fig10": {"curves": {"frame_front": at(CURVES["frame_front"], 11520, 0.9)}}},
    "frame_front_best": {f"fig{n}": {"curves": {"frame_front": CURVES["frame_front"] - 0.1}} for n in (2, 3, 6, 7)},
    "frame_tail_cell_front_crossover": {"fig10": {"curves": {"frame_tail": np.maximum(CURVES["frame_tail"], 1.0)}}},
    "cell_tail_needs_beta_3": {f"fig{n}": {"curves": {"cell_tail": np.minimum(0.95, 0.8 + 0.13 * BETA)}}
                               for n in (2, 3, 6, 7, 10)},
    "cell_front_acceptable_at_beta_1": {"fig3": {"curves": {"cell_front": at(CURVES["cell_front"], 5760, 0.85)}}},
    "frame_front_at_beta_1": {"fig10": {"curves": {"frame_front": at(CURVES["frame_front"], 5760, 0.85)}}},
    "front_narrows_rtt_advantage": {"fig7": {"shares": {"cell_front": 0.7}}},
    "frame_level_bias_gap_larger": {"fig3": {"shares": {"cell_tail": 0.8, "frame_tail": 0.6}}},
}


@pytest.mark.parametrize("claim", sorted(FAILING))
def test_total_throughput_claims_fail_when_the_data_do_not_bear_them_out(claim):
    results = verdicts(paper_world(**FAILING[claim]), claim)
    assert results[claim] is False or not results[claim]


def test_red_claims_fail_when_the_data_do_not_bear_them_out():
    world = paper_world()
    fig11 = world["lakshman.fig11"]
    above = shifted(fig11, 0.9 - fig11.total_throughput_mean.sel(red_one=lx.RED_ONE[2], buffer=1152),
                    red_one=lx.RED_ONE[2], buffer=1152)
    assert not verdicts(paper_world(fig11=above), "front_beats_cell_red")["front_beats_cell_red"]
    flat = red_dataset("red_one", lx.RED_ONE, CURVES["cell_front"] - 0.06)
    assert not verdicts(paper_world(fig11=flat), "cell_red_sensitive_to_range")["cell_red_sensitive_to_range"]
    low = red_dataset("red_one", lx.RED_ONE, CURVES["frame_front"] - 0.1)
    assert not verdicts(paper_world(fig12=low), "frame_red_like_frame_front")["frame_red_like_frame_front"]
    spread = red_dataset("red_one", lx.RED_ONE, CURVES["frame_front"] - 0.005, spread=0.04)
    assert not verdicts(paper_world(fig12=spread), "frame_red_robust_to_range")["frame_red_robust_to_range"]
    tilted = red_dataset("ratio", lx.FIG14_RATIOS, 0.9, spread=0.02)
    assert not verdicts(paper_world(fig14=tilted), "frame_red_robust_to_range")["frame_red_robust_to_range"]
    front = shifted(world["lakshman.fig13"], -0.1, red_one=lx.FIG13_RED_ONE[1], buffer=2304)
    assert not verdicts(paper_world(fig13=front), "red_front_or_tail_similar")["red_front_or_tail_similar"]


def row_of(table, metric, **kw):
    return table[(table.metric == metric) & np.logical_and.reduce(
        [table[k] == v for k, v in kw.items()] or [np.ones(len(table), bool)])].iloc[0]


def test_every_paper_number_gets_a_value_or_a_reason():
    """comparison(): each row of data/reference/lakshman.csv is a compared threshold, a model parameter
    echoed with the value we run with, or context (what the paper did not simulate); the columns are
    the generic comparison's."""
    table = comparison(load_reference("lakshman"), paper_world())
    assert list(table.columns[-len(ADDED_COLUMNS):]) == ADDED_COLUMNS
    assert table.status.value_counts().to_dict() == {"model parameter": 45, "compared": 4, "same statement": 4,
                                                     "context": 4}
    row = lambda metric, **kw: row_of(table, metric, **kw)
    assert row("data_packet_cells").difference == 0 and row("ack_packet_cells").difference == 0
    assert row("beta", buffer=23040).reproduced == pytest.approx(4.0)
    assert row("ack_delay_ms").reproduced == pytest.approx(45.0)  # ours by choice: 60 ms less the links
    assert conclusions_table(paper_world()).loc["Cell-Front"].iloc[1] <= 1.0


def test_echoed_parameters_are_never_compared():
    """Settings echoed back (buffer sizes, RTTs, packets, the slot, delays, RED ranges) are ``model
    parameter`` and never count in the agreement; only the thresholds are compared, as quantities."""
    table = comparison(load_reference("lakshman"), paper_world())
    echoed = table[table.metric.isin(PARAMETERS)]
    assert len(echoed) == 45 and (echoed.status == "model parameter").all()
    assert echoed.seeds.isna().all() and echoed.inside.isna().all()
    compared = table[table.status == "compared"]
    assert set(compared.metric) == {"decent_beta"} and (compared.kind == "quantity").all()
    assert agreement(table)["cells"].sum() == 4  # one per discipline: each statement counted once
    assert set(table[table.status == "same statement"].metric) == set(THRESHOLDS) - {"decent_beta"}
    assert set(table.metric) <= set(PARAMETERS) | set(THRESHOLDS) | {"input_sampling_us", "typical_timer_ms",
                                                                       "delayed_ack_timer_ms", "min_beta_tahoe"}


def test_thresholds_are_distributions_over_seeds():
    """Each threshold is read on each seed alone (seed s of every total-throughput figure) and summarized
    by describe(): in the paper world Cell-Tail needs beta 2.5 with the seed 0.03 above the mean and 3
    with the others; the mean curve's 3 is the median, not the mean."""
    world = paper_world(structured=True)
    seeds, values = needed_beta_per_seed(world, "cell_tail")
    assert seeds == [1, 2, 3] and list(values) == [2.5, 3.0, 3.0]
    table = comparison(load_reference("lakshman"), world)
    row = row_of(table, "decent_beta", policy="cell_tail")
    assert (row.seeds, row.paper_runs, row["median"]) == (3, 1, 3.0)
    assert row.reproduced == pytest.approx(17 / 6)
    assert row.low == pytest.approx(np.percentile(values, 5)) and row.high == pytest.approx(3.0)
    assert row.inside is True and np.isnan(row.seed0)  # lakshman's seeds are 1-3: no seed 0
    assert (row.paper_low, row.paper_high) == (3.0, 4.0)  # "in the range 3 or 4": the statement's range
    same = row_of(table, "decent_beta_upper", policy="cell_tail")
    assert same.status == "same statement" and same.reproduced == row.reproduced  # shown, not counted
    compared = table[table.status == "compared"]
    assert (compared.seeds == 3).all() and compared.low.notna().all() and compared.high.notna().all()
    shown = thresholds_table(table)
    assert {"paper", "counted", "seeds", "mean", "median", "low", "high", "inside"} <= set(shown.columns)
    assert len(shown) == 8 and (shown.seeds == 3).all() and shown.counted.sum() == 4


def test_a_seed_never_decent_counts_as_an_infinite_threshold():
    """A seed in which Cell-Tail is below DECENT at the largest buffer has no threshold within our buffers:
    it stays in the distribution as infinite (the mean and the interval's top are infinite; the paper's 3
    is inside; no finite difference), instead of being dropped."""
    assert describe_thresholds([2, 3, np.inf]) | {"seed0": 0} == {
        "seeds": 3, "reproduced": np.inf, "median": 3.0, "low": pytest.approx(2.1), "high": np.inf, "seed0": 0}
    world = paper_world(structured=True)
    world["lakshman.fig10"] = shifted(world["lakshman.fig10"], -0.2, discipline="cell_tail", buffer=23040, seed=1)
    assert list(needed_beta_per_seed(world, "cell_tail")[1]) == [np.inf, 3.0, 3.0]
    row = row_of(comparison(load_reference("lakshman"), world), "decent_beta", policy="cell_tail")
    assert (row.status, row.seeds, row["median"], row.low, row.high) == ("compared", 3, 3.0, 3.0, np.inf)
    assert row.inside is True and np.isnan(row.difference) and row.reproduced == np.inf


def test_report_summary_counts_parameters_apart():
    """The report's summary is the generic one: compared cells (the thresholds, named as such) against
    our interval over seeds; the model parameters are counted apart."""
    table = comparison(load_reference("lakshman"), paper_world())
    text = lf.report_summary(table, paper_evaluation(), ["lakshman.fig2"], False, {})
    assert lf.THRESHOLDS_LABEL in text and "45" in text
    assert "53 of 57" not in text


def test_findings_name_existing_claims():
    names = {c.name for c in lc.CLAIMS}
    assert 3 <= len(FINDINGS) <= 6
    assert all(f.paper == "lakshman" and f.claims and set(f.claims) <= names for f in FINDINGS)


def test_warning_delay_is_from_the_first_drop_after_the_last_send():
    """warning_delays: for a fast retransmit of segment s, the first bottleneck drop of a cell of s after
    s was last sent (earlier drops belong to an earlier transmission), per source; NaN if none."""
    records = [  # time, source, kind, value
        (0.00, 0, "seq_sent", 4324), (0.01, 0, "seq_sent", 8648), (0.30, 0, "fast_retransmit", 4324),
        (0.31, 0, "seq_sent", 4324), (0.70, 0, "fast_retransmit", 4324), (0.80, 1, "fast_retransmit", 0)]
    drops = [(0.05, 0, 4324), (0.06, 0, 4324), (0.05, 1, 4324), (0.40, 0, 4324)]
    ds = xr.Dataset({
        "trace_time": ("record", [r[0] for r in records]), "trace_source": ("record", [r[1] for r in records]),
        "trace_kind": ("record", [r[2] for r in records]), "trace_value": ("record", [float(r[3]) for r in records]),
        "drop_time": ("drop", [d[0] for d in drops]), "drop_source": ("drop", [d[1] for d in drops]),
        "drop_seq": ("drop", [d[2] for d in drops]), "drop_port": ("drop", [lx.BOTTLENECK] * len(drops)),
        "drop_is_ack": ("drop", [0] * len(drops))})
    np.testing.assert_allclose(lx.warning_delays(ds), [0.25, 0.30, np.nan])


def test_running_throughput_counts_packets_acknowledged_per_interval():
    """running_throughput: cumulative ACKs of every source, 92 cells per packet, over the slots of each
    interval: a source acknowledging one packet per 92 slots fills the link."""
    per_s = 1 / (92 * CELL_S)  # packets per second that fill the link
    t = np.arange(0.0, 2.0, 0.001)
    ds = xr.Dataset({"trace_time": ("record", np.concatenate([t, t])),
                     "trace_source": ("record", np.repeat([0, 1], t.size)),
                     "trace_kind": ("record", np.array(["ack_received"] * (2 * t.size))),
                     "trace_value": ("record", np.concatenate([t * per_s * MSS / 2, t * per_s * MSS / 4]))})
    out = lx.running_throughput(ds, np.array([0.0, 1.0, 2.0]))
    np.testing.assert_allclose(out, [0.75, 0.75], atol=0.002)


# --- issue 24: the thresholds of ours, read over a range ---------------------------------------------------------
SWEPT = {"cell_tail_poorest": ["very small"], "throughput_grows_with_buffer": ["very small"],
         "cell_tail_needs_beta_3": ["decent"], "cell_front_acceptable_at_beta_1": ["acceptable"],
         "frame_front_at_beta_1": ["decent"], "cell_red_sensitive_to_range": ["large"],
         "frame_red_like_frame_front": ["about", "large"], "frame_red_robust_to_range": ["about"],
         "red_front_or_tail_similar": ["about"], "frame_front_over_cell_front": ["consistently"],
         "frame_tail_over_cell_tail": ["consistently"], "frame_front_best": ["by and large"]}
"""Every claim that reads "decent"/"acceptable", "about", "large", "very small", "consistently" or "by and large",
and the words it sweeps."""


def test_every_claim_with_a_threshold_of_ours_gives_its_verdict_over_a_range():
    """Each such claim states the number it reads the word at and, per value of the range, whether it would
    pass and how many seeds agree; the ranges hold the stated number."""
    table = paper_evaluation().set_index("claim")
    swept = {c.name: [s.word for s in c.sweeps] for c in lc.CLAIMS if c.sweeps}
    assert swept == SWEPT
    ranges = {"very small": lc.VERY_SMALL_RANGE, "decent": lc.DECENT_RANGE, "acceptable": lc.DECENT_RANGE,
              "about": lc.ABOUT_RANGE, "large": lc.LARGE_RANGE, "consistently": lc.NOISE_RANGE,
              "by and large": lc.BY_AND_LARGE_RANGE}
    for name, words in SWEPT.items():
        detail = table.detail[name]
        for word in words:
            part = detail[detail.index(f"{{over our \"{word}\""):]
            part = part[:part.index("}")]
            assert "read at" in part
            for value in ranges[word]:
                assert re.search(rf"{value:.3g} (passes|fails) \(\d+ of 10 seeds\)", part), (name, word, value)
    assert lc.DECENT in lc.DECENT_RANGE and lc.ABOUT in lc.ABOUT_RANGE and lc.LARGE in lc.LARGE_RANGE
    assert lc.VERY_SMALL_BETA in lc.VERY_SMALL_RANGE and lc.DECENT_RANGE == (0.85, 0.9, 0.95)


def test_the_verdict_stays_at_the_stated_threshold():
    """Cell-Front at beta = 1 in Fig. 3 at 0.885 (seeds 0.915, 0.885, 0.855): acceptable at 0.85 in every seed,
    not at the stated 0.9 (the mean is below): the claim fails, and its detail says 0.85 would pass."""
    world = paper_world(structured=True, fig3={"curves": {"cell_front": at(CURVES["cell_front"], 5760, 0.885)}})
    table = evaluate(world, [c for c in lc.CLAIMS if c.name == "cell_front_acceptable_at_beta_1"]).set_index("claim")
    assert not table.passed["cell_front_acceptable_at_beta_1"]
    detail = table.detail["cell_front_acceptable_at_beta_1"]
    assert "0.85 passes (3 of 3 seeds), 0.9 fails (1 of 3 seeds), 0.95 fails" in detail
    assert "(DECENT, read at 0.9)" in detail


@pytest.mark.parametrize("name", ["paper world", *FAILING])
def test_sweeps_never_change_a_verdict(name):
    """A claim passes or fails as it would without its sweeps: the range only adds to the detail (every claim on
    the paper world, each failing world's own claim on it; three structured seeds: the property does not
    depend on the noise, and ten seeds of so many evaluations cost minutes)."""
    data = paper_world(structured=True, **FAILING.get(name, {}))
    claims = [c for c in lc.CLAIMS if name in ("paper world", c.name)]
    with_sweeps = evaluate(data, claims)
    without = evaluate(data, [replace(c, sweeps=()) for c in claims])
    assert list(with_sweeps.passed) == list(without.passed)
    assert all(a.startswith(b) for a, b in zip(with_sweeps.detail, without.detail))


def test_a_sweep_must_hold_its_stated_value():
    with pytest.raises(ValueError, match="stated value"):
        Sweep("decent", "DECENT", 0.9, (0.85, 0.95), lambda v: None)
