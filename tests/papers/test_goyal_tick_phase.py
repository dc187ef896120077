"""goyal1998.tick_phase_study (issue 37): its grid is the tables' cells, its runs give each host the phase
drawn from the seed, and its table sets each cell beside the paper, the tables' runs and YATS."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from atmtcp.papers.goyal1998 import studies, study_figures, summary
from atmtcp.papers.goyal1998.experiments import TABLE_POLICIES, TABLE_SEEDS, table_points
from atmtcp.papers.goyal1998.scenario import buffer_cells
from atmtcp.reference import load_reference

ROOT = Path(__file__).resolve().parents[2]
CELL = ("network", "sources", "buffer_factor", "policy")


def test_the_study_runs_every_cell_of_tables_1_and_4_with_their_seeds():
    """Full mode: each TCP of the study runs exactly Table 1's (and so Table 4's) points, 10 seeds; quick
    mode is a handful of points."""
    full = studies.tick_phase_points(False)
    tables = table_points(TABLE_POLICIES)(False)
    key = lambda p: tuple(p[k] for k in (*CELL, "seed"))  # noqa: E731
    for tcp in studies.TICK_PHASE_TCPS:
        assert sorted(key(p) for p in full if p["tcp"] == tcp) == sorted(key(p) for p in tables)
    assert len(full) == 2 * len(tables) == 640 and {p["seed"] for p in full} == set(TABLE_SEEDS)
    assert len(studies.tick_phase_points(True)) <= 4


def test_a_run_gives_each_host_the_phase_of_its_seed(monkeypatch):
    """The run simulated is the table's cell with host i's timer at the i-th draw of (seed, stream), all
    distinct and within one 100 ms tick; the numbers come back with the buffer in cells."""
    seen = []
    real = summary.simulate   # the study's runs are simulated by summary.run_summary
    monkeypatch.setattr(summary, "simulate", lambda run: seen.append(run) or real(run))
    point = {"tcp": "reno", "network": "lan", "sources": 5, "buffer_factor": 1, "policy": "epd", "seed": 4}
    ds = studies.tick_phase_run(point, quick=True)
    phases = [c.tcp.tick_phase_s for c in seen[0].connections]
    expected = np.random.default_rng([4, studies.TICK_PHASE_STREAM]).uniform(0.0, [0.1] * 5)
    assert np.allclose(phases, expected) and len(set(phases)) == 5 and max(phases) < 0.1
    assert seen[0].network.switch_port.buffer_cells == 1000 and seen[0].connections[0].tcp.flavor == "reno"
    assert int(ds.buffer_cells) == 1000 and 0 < float(ds.efficiency) <= 1 and 0 < float(ds.fairness) <= 1


def _dataset(values: dict, tcp: str | None = None) -> xr.Dataset:
    """A table-shaped dataset: LAN, 5 sources, 1000 cells, seeds 0-9; ``values``: policy -> (efficiency,
    fairness) per seed, as arrays."""
    policies = list(values)
    shape = (1, 1, 1, len(policies), 10)
    coords = {"network": ["lan"], "sources": [5], "buffer_factor": [1], "policy": policies, "seed": list(range(10))}
    dims = tuple(coords)
    ds = xr.Dataset({metric: (dims, np.array([values[p][i] for p in policies]).reshape(shape))
                     for i, metric in enumerate(("efficiency", "fairness"))}, coords=coords)
    ds["buffer_cells"] = (dims, np.full(shape, buffer_cells("lan", 1)))
    return ds.expand_dims(tcp=[tcp]) if tcp else ds


def test_the_table_sets_each_cell_beside_the_paper_the_tables_and_yats():
    """Table 4's LAN 5-source 1000-cell UBR and EPD cells (paper 0.53 / 0.97 efficiency, 0.77 / 0.99
    fairness): in phase the runs sit at 0.53 and 0.80 (UBR) and 0.88, 0.98 (EPD); per host at 0.60, 0.90
    and 0.96, 0.99; YATS (a made-up row) has UBR efficiency 0.70 only."""
    spread = np.linspace(-0.01, 0.01, 10)
    in_phase = _dataset({"ubr": (0.53 + spread, 0.80 + spread), "epd": (0.88 + spread, 0.98 + spread)})
    per_host = _dataset({"ubr": (0.60 + spread, 0.90 + spread), "epd": (0.96 + spread, 0.99 + spread)}, "reno")
    validation = pd.DataFrame([{"scenario": "goyal_yats", "cell": "lan reno N=5 1000 cells UBR", "metric": "efficiency",
                                "peer_mean": 0.70, "peer_low": 0.65, "peer_high": 0.75},
                               {"scenario": "goyal_ubr", "cell": "lan reno N=5 1000 cells EPD", "metric": "efficiency",
                                "peer_mean": 0.10, "peer_low": 0.05, "peer_high": 0.15}])
    tables = {"goyal1998.table4": in_phase, "goyal1998.table5": in_phase}
    table = study_figures.tick_phase_table(load_reference("goyal1998"), tables, per_host, validation)
    assert len(table) == 4   # the study's cells only: Table 1 has no per-host runs here
    ubr = table.loc[("efficiency", "reno", "lan", 5, 1000, "UBR")]
    assert ubr["paper"] == 0.53 and ubr["in phase: inside"] and not ubr["phase per host: inside"]
    assert np.isclose(ubr["in phase: mean"], 0.53) and np.isclose(ubr["phase per host: mean"], 0.60)
    assert ubr["phase per host: low"] < 0.60 < ubr["phase per host: high"] and ubr["YATS: mean"] == 0.70
    epd = table.loc[("efficiency", "reno", "lan", 5, 1000, "EPD")]
    assert np.isnan(epd["YATS: mean"]) and epd["phase per host: inside"] and not epd["in phase: inside"]
    counts = study_figures.tick_phase_counts(table).loc[("all", "all")]
    # efficiency: UBR out, EPD in; fairness 0.77 against 0.79-0.81 and 0.90: UBR out both ways, EPD in both
    assert (counts["paper inside, in phase"], counts["paper inside, phase per host"]) == (2, 2)
    assert (counts["moved inside"], counts["moved outside"]) == (1, 1)
    assert (counts["cells with YATS"], counts["toward YATS"], counts["away from YATS"]) == (1, 1, 0)
    assert (counts["ours in YATS's interval, in phase"], counts["ours in YATS's interval, phase per host"]) == (0, 0)
    assert "1 move toward YATS's mean and 0 away" in study_figures.tick_phase_finding(
        study_figures.tick_phase_counts(table))


def test_every_yats_row_of_the_validation_table_is_a_cell_of_the_study():
    """The tracked validation table's YATS cells are named as :func:`validation_cell` names the study's
    cells, so that none is silently missed."""
    validation = pd.read_csv(ROOT / "figures" / "validation" / "validation.csv")
    yats = study_figures.yats_rows(validation)
    assert len(yats) > 0
    cells = {study_figures.validation_cell(p["network"], p["tcp"], p["sources"],
                                           buffer_cells(p["network"], p["buffer_factor"]), p["policy"])
             for p in studies.tick_phase_points(False)}
    assert set(yats.index.get_level_values("cell")) <= cells


def _prose() -> str:
    """The notebook's text after the study's table, whitespace collapsed."""
    import json
    cells = json.loads((ROOT / "notebooks" / "goyal1998.ipynb").read_text())["cells"]
    text = [''.join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    return " ".join(next(t for t in text if t.startswith("**A phase per host moves the LAN")).split())


def test_the_notebooks_prose_states_the_tracked_table():
    """Every number of the notebook's reading of the study is the tracked table's (figures/goyal1998/)."""
    table = pd.read_csv(ROOT / "figures" / "goyal1998" / "goyal1998.tick_phase_study.csv")
    table = table.set_index(["metric", *study_figures._CELL])
    counts = study_figures.tick_phase_counts(table)
    c, lan_eff, lan_fair, wan_eff, wan_fair = (counts.loc[k] for k in (
        ("all", "all"), ("efficiency", "lan"), ("fairness", "lan"), ("efficiency", "wan"), ("fairness", "wan")))
    text = _prose()
    assert (f"in {c['paper inside, phase per host']:.0f} of the {c['cells']:.0f} cells, against "
            f"{c['paper inside, in phase']:.0f} with the hosts in phase ({c['moved inside']:.0f} cells move inside, "
            f"{c['moved outside']:.0f} outside, {lan_eff['moved outside']:.0f} of them LAN efficiencies)") in text
    assert (f"of its {c['cells with YATS']:.0f} cells {c['toward YATS']:.0f} move toward its mean and "
            f"{c['away from YATS']:.0f} away") in text
    assert (f"(mean |ours - YATS| {lan_fair['|ours - YATS|, in phase']:.3f} in phase, "
            f"{lan_fair['|ours - YATS|, phase per host']:.3f} per host)") in text
    assert (f"({lan_eff['|ours - YATS|, in phase']:.3f} against {lan_eff['|ours - YATS|, phase per host']:.3f}:") in text
    assert (f"where they were ({wan_eff['|ours - YATS|, phase per host']:.2f} and "
            f"{wan_fair['|ours - YATS|, phase per host']:.2f})") in text

    def cell(metric, tcp, n, policy):
        r = table.loc[(metric, tcp, "lan", n, 1000, policy)]
        return r["in phase: mean"], r["phase per host: mean"], r["paper"], r["YATS: mean"]
    e, f, v = cell("efficiency", "reno", 15, "UBR"), cell("fairness", "reno", 15, "UBR"), cell("efficiency", "vanilla", 5, "UBR")
    assert (f"goes from {e[0]:.2f} to {e[1]:.2f} (paper {e[2]:.2f}, YATS {e[3]:.2f}) and its fairness from "
            f"{f[0]:.2f} to {f[1]:.2f} (paper {f[2]:.2f}, YATS {f[3]:.2f})") in text
    assert f"from {v[0]:.2f} to {v[1]:.2f} (paper {v[2]:.2f}, YATS {v[3]:.2f})" in text
    wan = table.xs("wan", level="network")
    assert (wan["phase per host: mean"] - wan["in phase: mean"]).abs().max() <= 0.04
    vanilla = table.xs(("efficiency", "vanilla", "lan"), level=("metric", "tcp", "network")).dropna(subset=["YATS: mean"])
    assert len(vanilla) == 4 and (vanilla["phase per host: mean"] > vanilla["YATS: mean"]).all()
