"""lakshman's claims pass on data that bears them out and fail on data that does not; the analyses
behind the notebook's early-warning and run-length figures; every paper number gets a value.

The synthetic datasets have the shapes the paper describes (section 4-5); the seeds spread around
the mean (+0.03, 0, -0.03), so a claim that read one seed instead of the mean would be caught by the
failing cases, which change the mean at one point only.
"""
from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from atmtcp.claims import evaluate
from atmtcp.papers.lakshman import claims as lc
from atmtcp.papers.lakshman import experiments as lx
from atmtcp.papers.lakshman.comparison import comparison, conclusions_table
from atmtcp.papers.lakshman.scenario import BUFFERS, CELL_S, DISCIPLINES, MSS, beta
from atmtcp.reference import load_reference

B = np.array(BUFFERS)
BETA = beta(B)
SEED_OFFSETS = np.array([0.03, 0.0, -0.03])
CURVES = {
    "cell_tail": np.minimum(0.95, 0.55 + 0.13 * BETA),
    "cell_front": np.minimum(0.99, 0.5 + 0.45 * BETA),
    "frame_tail": np.minimum(0.97, 0.75 + 0.1 * BETA),
    "frame_front": np.minimum(1.0, 0.8 + 0.25 * BETA),
}
CURVES["cell_tail"][0] = 0.7  # lockout at 256 cells: "throughput is high due to lockout" (above Cell-Front)
SHORT_SHARE = {"cell_tail": 0.6, "cell_front": 0.55, "frame_tail": 0.65, "frame_front": 0.52}
"""The shortest-RTT source's share of the total: the tail disciplines favour it more, frame level most."""


def total_dataset(target, curves=None, shares=None):
    rtts = np.array(lx.TOTAL_FIGURES[target][0])
    curves = {**CURVES, **(curves or {})}
    shares = {**SHORT_SHARE, **(shares or {})}
    n = rtts.size
    total = np.array([[curves[k] + off for off in SEED_OFFSETS] for k in DISCIPLINES]).transpose(0, 2, 1)
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
    }, coords={"discipline": list(DISCIPLINES), "buffer": B, "seed": [1, 2, 3], "source": np.arange(n)})
    return lx.seed_statistics(ds)


def red_dataset(axis, values, curve, spread=0.0):
    rows = np.array([[curve + spread * i + off for off in SEED_OFFSETS] for i in range(len(values))])
    coords = {axis: list(values), "seed": [1, 2, 3]}
    if rows.ndim == 3:
        ds = xr.Dataset({"total_throughput": ((axis, "buffer", "seed"), rows.transpose(0, 2, 1))},
                        coords={**coords, "buffer": B})
    else:
        ds = xr.Dataset({"total_throughput": ((axis, "seed"), rows)}, coords=coords)
    ds["good_throughput"] = ds.total_throughput.expand_dims(source=[0])
    ds["rtt_s"] = xr.full_like(ds.good_throughput, 0.06)
    return lx.seed_statistics(ds)


def paper_world(**changes):
    """Datasets of every claim's targets, shaped as the paper describes; ``changes`` replaces the curves
    of one target (``fig10={"cell_front": ...}``) or a RED dataset (``fig12=...``)."""
    data = {}
    for target in lx.TOTAL_FIGURES:
        spec = changes.get(target.split(".")[1], {})
        data[target] = total_dataset(target, spec.get("curves"), spec.get("shares"))
    for target, (parent, disciplines, _) in lx.INDIVIDUAL_FIGURES.items():
        data[target] = data[parent].sel(discipline=list(disciplines))
    cell_red = CURVES["cell_front"] - 0.06
    cell_red_widest = np.where(BETA > 2, CURVES["cell_tail"] - 0.05, cell_red)
    fig11 = red_dataset("red_one", lx.RED_ONE, cell_red, spread=-0.02)
    fig11["total_throughput_mean"].loc[{"red_one": lx.RED_ONE[0]}] = cell_red_widest
    data["lakshman.fig11"] = changes.get("fig11", fig11)
    data["lakshman.fig12"] = changes.get("fig12", red_dataset("red_one", lx.RED_ONE, CURVES["frame_front"] - 0.005,
                                                              spread=0.003))
    data["lakshman.fig13"] = changes.get("fig13", red_dataset("red_one", lx.FIG13_RED_ONE,
                                                              CURVES["frame_front"] - 0.01, spread=0.003))
    data["lakshman.fig14"] = changes.get("fig14", red_dataset("ratio", lx.FIG14_RATIOS, 0.9, spread=0.002))
    return data


def verdicts(data):
    table = evaluate(data, lc.CLAIMS)
    return dict(zip(table.claim, table.passed))


def at(curve, buffer, value):
    out = curve.copy()
    out[list(BUFFERS).index(buffer)] = value
    return out


def test_every_claim_passes_in_the_paper_world():
    results = verdicts(paper_world())
    assert all(results.values()), {k: v for k, v in results.items() if not v}
    assert len(results) == len(lc.CLAIMS) == 16


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
    results = verdicts(paper_world(**FAILING[claim]))
    assert results[claim] is False or not results[claim]


def test_red_claims_fail_when_the_data_do_not_bear_them_out():
    world = paper_world()
    above = world["lakshman.fig11"].copy(deep=True)
    above["total_throughput_mean"].loc[{"red_one": lx.RED_ONE[2], "buffer": 1152}] = 0.9
    assert not verdicts(paper_world(fig11=above))["front_beats_cell_red"]
    flat = red_dataset("red_one", lx.RED_ONE, CURVES["cell_front"] - 0.06)
    assert not verdicts(paper_world(fig11=flat))["cell_red_sensitive_to_range"]
    low = red_dataset("red_one", lx.RED_ONE, CURVES["frame_front"] - 0.1)
    assert not verdicts(paper_world(fig12=low))["frame_red_like_frame_front"]
    spread = red_dataset("red_one", lx.RED_ONE, CURVES["frame_front"] - 0.005, spread=0.04)
    assert not verdicts(paper_world(fig12=spread))["frame_red_robust_to_range"]
    tilted = red_dataset("ratio", lx.FIG14_RATIOS, 0.9, spread=0.02)
    assert not verdicts(paper_world(fig14=tilted))["frame_red_robust_to_range"]
    front = world["lakshman.fig13"].copy(deep=True)
    front["total_throughput_mean"].loc[{"red_one": lx.FIG13_RED_ONE[1], "buffer": 2304}] -= 0.1
    assert not verdicts(paper_world(fig13=front))["red_front_or_tail_similar"]


def test_every_paper_number_gets_a_value_or_a_reason():
    """comparison(): each row of data/reference/lakshman.csv is compared with our model's or results'
    value, or marked as context (what the paper did not simulate)."""
    table = comparison(load_reference("lakshman"), paper_world())
    assert set(table.status) <= {"compared", "context"}
    assert (table.status == "context").sum() == 4
    row = lambda metric, **kw: table[(table.metric == metric) & np.logical_and.reduce(
        [table[k] == v for k, v in kw.items()] or [np.ones(len(table), bool)])].iloc[0]
    assert row("data_packet_cells").difference == 0 and row("ack_packet_cells").difference == 0
    assert row("beta", buffer=23040).reproduced == pytest.approx(4.0)
    assert row("decent_beta", policy="cell_tail").reproduced == 3.0  # the paper world's Cell-Tail
    assert conclusions_table(paper_world()).loc["Cell-Front"].iloc[1] <= 1.0


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
