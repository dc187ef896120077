"""goyal1998.ubr_sensitivity: the grid, and the summary that compares each assumption with the paper."""
import numpy as np
import pytest
import xarray as xr

from atmtcp.contention import CELL_ASSUMPTIONS, HEADLINE_CONTENTION
from atmtcp.papers.goyal1998 import sensitivity
from atmtcp.papers.goyal1998.experiments import QUICK_ASSUMPTIONS, sensitivity_points
from atmtcp.reference import load_reference

DIMS = ("assumption", "tcp", "network", "sources", "buffer_factor", "policy", "seed")


def synthetic(reference, exact: str, seeds=(1, 2)):
    """A dataset whose ``exact`` assumption reproduces the paper's UBR/EPD cells of Tables 1, 2,
    4, 5 exactly; the other assumption is off by 0.1 in efficiency everywhere."""
    other = "deterministic" if exact != "deterministic" else "slotted"
    coords = {"assumption": [exact, other], "tcp": ["vanilla", "reno"], "network": ["lan", "wan"],
              "sources": [5, 15], "buffer_factor": [1, 3], "policy": ["ubr", "epd"], "seed": list(seeds)}
    shape = tuple(len(v) for v in coords.values())
    eff, fair = np.full(shape, np.nan), np.full(shape, np.nan)
    cells = np.zeros(shape, dtype=np.int64)
    tables = {"vanilla": ("goyal1998.table1", "goyal1998.table2"), "reno": ("goyal1998.table4", "goyal1998.table5")}
    buffers = {"lan": (1000, 3000), "wan": (12000, 36000)}
    for ti, tcp in enumerate(coords["tcp"]):
        for ni, net in enumerate(coords["network"]):
            for si, n in enumerate(coords["sources"]):
                for bi, size in enumerate(buffers[net]):
                    for pi, policy in enumerate(coords["policy"]):
                        def paper(target, metric):
                            row = reference[(reference.target == target) & (reference.metric == metric)
                                            & (reference.network == net) & (reference.sources == n)
                                            & (reference["buffer"] == size) & (reference.policy == policy)]
                            return float(row.value.iloc[0])
                        e, f = paper(tables[tcp][0], "efficiency"), paper(tables[tcp][1], "fairness")
                        cells[:, ti, ni, si, bi, pi, :] = size
                        eff[0, ti, ni, si, bi, pi, :] = e
                        fair[0, ti, ni, si, bi, pi, :] = f
                        eff[1, ti, ni, si, bi, pi, :] = min(1.0, e + 0.1) if e < 0.9 else e - 0.1
                        fair[1, ti, ni, si, bi, pi, :] = f
    return xr.Dataset({"efficiency": (DIMS, eff), "fairness": (DIMS, fair), "buffer_cells": (DIMS, cells)},
                      coords=coords)


def test_summary_scores_the_paper_itself_as_zero():
    reference = load_reference("goyal1998")
    summary = sensitivity.summary(synthetic(reference, HEADLINE_CONTENTION), reference)
    assert summary.loc[HEADLINE_CONTENTION, "mad_all"] == pytest.approx(0.0, abs=1e-12)
    assert summary.loc["deterministic", "mad_all"] == pytest.approx(0.05, abs=1e-9)  # 0.1 on half the cells
    for table in ("table1", "table2", "table4", "table5"):
        assert summary.loc[HEADLINE_CONTENTION, f"mad_{table}"] == pytest.approx(0.0, abs=1e-12)
    # the paper's own numbers pass the paper's claims read on the UBR and EPD columns
    exact = summary.loc[HEADLINE_CONTENTION]
    assert exact.claims_total == 3
    assert "epd_efficiency_not_fairness: pass" in exact.claims


def test_grid_covers_the_tables_per_assumption():
    full, quick = sensitivity_points(False), sensitivity_points(True)
    assert len(full) == len(CELL_ASSUMPTIONS) * 2 * 2 * 2 * 2 * 2 * 5
    assert {p["assumption"] for p in quick} == set(QUICK_ASSUMPTIONS) and HEADLINE_CONTENTION in QUICK_ASSUMPTIONS
