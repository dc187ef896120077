"""The atlas (issue 28, atmtcp.atlas): which policies apply where, the TCP axis, the rule for the parameters
a scenario's paper does not give, the conclusion evaluator on a hand-built grid, one scenario of the quick
atlas run for real into atlas.grid's dimensions, and the notebook on a prepared grid."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from atmtcp import model as m
from atmtcp.atlas import conclusions as cc
from atmtcp.atlas import experiments, figures
from atmtcp.atlas.grid import (CELL_POLICIES, PACKET_POLICIES, POLICIES, SCENARIOS, TCPS, applies, cell_port,
                               lakshman_port, policies_of)
from atmtcp.experiments import EXPERIMENTS, PAPER_EXPERIMENTS, STUDY_EXPERIMENTS
from atmtcp.kernel.aal5 import packet_cells
from atmtcp.papers.lakshman import scenario as lakshman
from atmtcp.runner import run_experiment

ROOT = Path(__file__).resolve().parents[2]


# --- the grid -------------------------------------------------------------------------------------------
def test_policies_apply_at_their_layer_only():
    layers = {key: s.layer for key, s in SCENARIOS.items()}
    assert [k for k, layer in layers.items() if layer == "packet"] == ["ewa_section2", "ewa_section43"]
    for key, s in SCENARIOS.items():
        assert [p for p in POLICIES if applies(p, s)] == list(policies_of(s.layer))
    assert set(CELL_POLICIES).isdisjoint(PACKET_POLICIES)
    with pytest.raises(m.ModelError, match="policy"):
        SCENARIOS["ewa_section2"].run("espd", "reno", 1, True)
    with pytest.raises(m.ModelError, match="policy"):
        SCENARIOS["goyal_lan"].run("ewa", "reno", 1, True)
    with pytest.raises(m.ModelError, match="tcp"):
        SCENARIOS["goyal_lan"].run("epd", "tahoe", 1, True)


@pytest.mark.parametrize("key", list(SCENARIOS))
def test_the_tcp_axis_changes_only_the_flavour(key):
    s = SCENARIOS[key]
    policy = policies_of(s.layer)[0]
    runs = {tcp: s.run(policy, tcp, 3, True) for tcp in TCPS}
    reno = runs["reno"]
    for tcp in ("vanilla", "newreno", "sack"):
        assert runs[tcp].network == reno.network and runs[tcp].duration_s == reno.duration_s
        for a, b in zip(runs[tcp].connections, reno.connections):
            assert a.tcp.flavor == tcp and dataclasses.replace(a.tcp, flavor="reno") == b.tcp
            assert dataclasses.replace(a, tcp=b.tcp) == b
    for a, b in zip(runs["bsd44"].connections, reno.connections):   # 4.4BSD-Lite's settings, the network's numbers
        assert {f: getattr(a.tcp, f) for f in m.BSD44_PROFILE} == m.BSD44_PROFILE
        assert (a.tcp.mss, a.tcp.rcv_wnd, a.tcp.initial_ssthresh, a.tcp.ack_delay_s) == \
            (b.tcp.mss, b.tcp.rcv_wnd, b.tcp.initial_ssthresh, b.tcp.ack_delay_s)


def _bottleneck_policy(run: m.Run) -> m.DropPolicy:
    ports = dict(run.network.ports)
    return ports.get(lakshman.BOTTLENECK, run.network.switch_port).policy


def test_a_scenario_keeps_its_papers_settings_and_the_rule_fills_the_rest():
    """goyal's EPD is buffer - 200 cells and cheon's 1960 (their papers'); in lakshman's network, which
    gives neither, EPD is three 92-cell packets below the buffer, ESPD six below and half the buffer,
    Selective Drop 0.9 K (the rule, atmtcp.atlas.grid.PARAMETER_RULE)."""
    assert _bottleneck_policy(SCENARIOS["goyal_lan"].run("epd", "reno", 1, True)).threshold == 800
    assert _bottleneck_policy(SCENARIOS["cheon_symmetric"].run("epd", "reno", 1, True)).threshold == 1960
    cells = packet_cells(lakshman.MSS, lakshman.AAL5.overhead_bytes)
    run = SCENARIOS["lakshman_large"].run("espd", "reno", 1, True)
    espd = _bottleneck_policy(run)
    assert (espd.threshold, espd.threshold2) == (5760 - 6 * cells, 2880)
    assert _bottleneck_policy(SCENARIOS["lakshman_small"].run("epd", "reno", 1, True)).threshold == 1152 - 3 * cells
    assert lakshman_port("selective_drop", 5760).policy.threshold == 5184 and lakshman_port("fba", 5760).slotted
    assert lakshman_port("tail", 5760) == lakshman.discipline_port("cell_tail", 5760)   # lakshman's own Cell-Tail
    assert cell_port("frame_front", 1000, 12).drop_from_front == "frame"
    with pytest.raises(m.ModelError, match="cell_port.policy"):
        cell_port("ewa", 1000, 12)


def test_the_atlas_is_registered_but_not_reproduced():
    ids = [e for e in STUDY_EXPERIMENTS if e.startswith("atlas.")]
    assert ids == [experiments.target(k) for k in SCENARIOS] + [experiments.GRID]
    assert not set(ids) & set(PAPER_EXPERIMENTS) and set(ids) <= set(EXPERIMENTS)
    assert EXPERIMENTS[experiments.GRID].parents == tuple(ids[:-1])
    assert len(experiments.seeds(False)) >= 10
    assert "PAPER_EXPERIMENTS" in (ROOT / "Snakefile").read_text().split("rule all:")[1]


# --- the conclusions on a hand-built grid --------------------------------------------------------------------
def hand_grid(seeds: int = 10) -> xr.Dataset:
    """Two scenarios (one per layer): EPD above tail drop in goyal_lan in 8 of 10 seeds for every TCP but
    vanilla (5 of 10); everything else equal."""
    shape = (len(POLICIES), len(TCPS), 2, seeds)
    coords = {"policy": list(POLICIES), "tcp": list(TCPS), "scenario": ["goyal_lan", "ewa_section2"],
              "seed": list(range(seeds))}
    data = {metric: (("policy", "tcp", "scenario", "seed"), np.full(shape, 0.5)) for metric in figures.METRICS}
    grid = xr.Dataset(data, coords=coords)
    for metric in grid.data_vars:   # NaN where a policy does not act at the scenario's layer
        grid[metric].loc[{"policy": list(PACKET_POLICIES), "scenario": "goyal_lan"}] = np.nan
        grid[metric].loc[{"policy": list(CELL_POLICIES), "scenario": "ewa_section2"}] = np.nan
    lead = np.array([0.1] * 8 + [-0.1] * 2)
    grid.efficiency.loc[{"policy": "epd", "scenario": "goyal_lan"}] = 0.5 + lead
    grid.efficiency.loc[{"policy": "epd", "scenario": "goyal_lan", "tcp": "vanilla"}] = 0.5 + np.sign(np.arange(10) - 4.5) * 0.1
    grid.loss.loc[{"policy": "ewa", "scenario": "ewa_section2"}] = 0.4   # lower loss than every discard policy
    return grid


def test_a_conclusion_holds_partly_or_not_and_counts_its_seeds():
    grid = hand_grid()
    summary = cc.summary(cc.evaluate(grid, [cc.by_key("goyal_epd"), cc.by_key("lakshman_front")])).set_index(
        ["conclusion", "scenario"])
    epd = summary.loc[("goyal_epd", "goyal_lan")]
    assert epd.mark == cc.PARTLY and epd.held_at == ["reno", "newreno", "sack", "bsd44"]
    assert (epd.agree, epd.seeds) == (4 * 8 + 5, 50)
    assert summary.loc[("goyal_epd", "ewa_section2")].mark == cc.NOT_APPLICABLE
    assert summary.loc[("lakshman_front", "goyal_lan")].mark == cc.DOES_NOT   # equal runs: no seed agrees
    assert summary.loc[("lakshman_front", "ewa_section2")].mark == cc.DOES_NOT   # asked at the packet layer


def test_a_lower_is_better_metric_and_a_conclusion_of_several_tests():
    grid = hand_grid()
    rows = cc.evaluate(grid, [cc.by_key("ewa_ewa")])
    loss = rows[(rows.metric == "loss") & (rows.scenario == "ewa_section2")]
    assert loss.test_holds.all() and np.allclose(loss["mean"], 0.1) and (loss.test_agree == 10).all()
    assert (rows[rows.scenario == "ewa_section2"].verdict == cc.DOES_NOT).all()   # fairness, efficiency equal
    grid.fairness.loc[{"policy": "ewa", "scenario": "ewa_section2"}] = 0.9
    grid.efficiency.loc[{"policy": "ewa", "scenario": "ewa_section2"}] = 0.9
    held = cc.summary(cc.evaluate(grid, [cc.by_key("ewa_ewa")])).set_index("scenario")
    assert held.loc["ewa_section2"].mark == cc.HOLDS and held.loc["ewa_section2"].agree == 50
    assert held.loc["goyal_lan"].mark == cc.NOT_APPLICABLE


def test_every_conclusion_quotes_its_paper_and_is_askable_somewhere():
    for c in cc.CONCLUSIONS:
        assert c.quote and c.paper in ("goyal1998", "cheon", "lakshman", "ewa")
        assert any(t.pair(s.layer) for t in c.tests for s in SCENARIOS.values())
    with pytest.raises(ValueError, match="metric"):
        cc.Test("goodput", cell=("epd", "tail"))


# --- the quick atlas, every scenario for real -------------------------------------------------------------------
@pytest.fixture(scope="module")
def quick_grid(tmp_path_factory) -> Path:
    """The quick atlas as `make atlas-quick` runs it: every scenario's experiment (about 30 s of CPU in all),
    then atlas.grid derived from their files."""
    folder = tmp_path_factory.mktemp("atlas")
    for key in SCENARIOS:
        run_experiment(experiments.target(key), folder / f"{experiments.target(key)}.nc", quick=True, jobs=1)
    run_experiment(experiments.GRID, folder / f"{experiments.GRID}.nc", quick=True, jobs=1)
    return folder


@pytest.mark.slow
def test_the_quick_atlas_end_to_end(quick_grid, tmp_path):
    """One test, so that the quick atlas runs once in a parallel suite: its netCDF files, then the notebook
    on them."""
    real = xr.load_dataset(quick_grid / "atlas.lakshman_small.nc")
    assert real.attrs["mode"] == "quick" and list(real.seed.values) == list(experiments.QUICK_SEEDS)
    assert np.isfinite(real.efficiency).all() and (real.efficiency > 0).any() and (real.efficiency < 1).all()
    grid = xr.load_dataset(quick_grid / "atlas.grid.nc")
    assert list(grid.efficiency.dims) == ["policy", "tcp", "scenario", "seed"]
    assert list(grid.policy.values) == list(POLICIES) and list(grid.scenario.values) == list(SCENARIOS)
    assert np.isfinite(grid.efficiency.sel(scenario="ewa_section2", policy=list(PACKET_POLICIES))).all()
    small = grid.sel(scenario="lakshman_small")
    assert np.isnan(small.efficiency.sel(policy=list(PACKET_POLICIES))).all()
    np.testing.assert_allclose(small.efficiency.sel(policy=list(CELL_POLICIES)).transpose("policy", "tcp", "seed"),
                               real.efficiency.sel(policy=list(CELL_POLICIES)).transpose("policy", "tcp", "seed"))
    papermill = pytest.importorskip("papermill")
    figures_dir = tmp_path / "figures"
    papermill.execute_notebook(
        str(ROOT / "notebooks" / "atlas.ipynb"), str(tmp_path / "out.ipynb"),
        parameters={"results_dir": str(quick_grid), "figures_dir": str(figures_dir), "quick": True,
                    "run_missing": False},
        cwd=str(ROOT / "notebooks"), kernel_name="python3", progress_bar=False, execution_timeout=600)
    folder = figures_dir / "atlas"
    for metric in figures.METRICS:
        assert (folder / f"atlas.{metric}.png").stat().st_size > 10_000
    table = (folder / "atlas.conclusions.md").read_text()
    assert "QUICK MODE" in table and all(c.quote.split(".")[0] in table for c in cc.CONCLUSIONS)
    assert "n/a" in table and "**The most efficient policy**" in (folder / "atlas.recommendation.md").read_text()
    assert "**Held**" in (folder / "atlas.closing_note.md").read_text()


def test_the_atlas_depends_on_the_papers_builders_and_no_paper_on_the_atlas():
    from atmtcp.dependencies import PACKAGE_DIR, experiment_sources

    def names(target):
        return {str(p.relative_to(PACKAGE_DIR)) for p in experiment_sources(EXPERIMENTS[target])}
    atlas = names("atlas.cheon_symmetric")
    assert {"atlas/grid.py", "atlas/measures.py", "papers/cheon/scenario.py", "papers/ewa/section4/scenario.py"} <= atlas
    assert not {n for n in atlas if n.endswith(("figures.py", "conclusions.py", "claims.py"))}
    assert not {n for n in names("goyal1998.table1") | names("cheon.table1") if n.startswith("atlas/")}
