"""Reading ``goyal1998.ubr_sensitivity``: which cell-contention assumption the paper's
simulator must have made (issue 6).

For each assumption of :data:`atmtcp.contention.CELL_ASSUMPTIONS` the experiment
holds the UBR and EPD columns of Tables 1, 2 (vanilla TCP) and 4, 5 (Reno) over jittered
seeds. :func:`as_tables` lays one assumption out like the real table targets, averaged
over the seeds; :func:`summary` compares each with the paper (mean absolute difference
per table, column averages) and evaluates the claims that need only those columns.
"""
from __future__ import annotations

import pandas as pd
import xarray as xr

from ...claims import evaluate, restricted_to_policies
from ...reference import comparison, mean_absolute_difference
from .claims import CLAIMS

TABLES = {"vanilla": ("goyal1998.table1", "goyal1998.table2"), "reno": ("goyal1998.table4", "goyal1998.table5")}
"""TCP flavour -> (efficiency table, fairness table); each pair comes from the same runs."""
POLICIES = ("ubr", "epd")
CLAIM_NAMES = ("epd_efficiency_not_fairness", "frr_hurts_wan_efficiency", "frr_helps_lan_efficiency")
"""The claims of :data:`atmtcp.papers.goyal1998.claims.CLAIMS` that read Tables 1 and 4; here they are
evaluated on the UBR and EPD columns only (the study has no Selective Drop column)."""


def as_tables(ds: xr.Dataset, assumption: str) -> dict[str, xr.Dataset]:
    """Table targets (1, 2, 4, 5) as one assumption gives them: mean over the jittered seeds.

    Parameters
    ----------
    ds : xarray.Dataset
        ``goyal1998.ubr_sensitivity``'s result.
    assumption : str
        A cell-contention assumption (:data:`atmtcp.contention.CELL_ASSUMPTIONS`).

    Returns
    -------
    dict of str to xarray.Dataset
        Table target id -> its numbers.
    """
    one = ds.sel(assumption=assumption)[["efficiency", "fairness", "buffer_cells"]].mean("seed")
    tables = {}
    for tcp, (eff_table, fair_table) in TABLES.items():
        laid_out = one.sel(tcp=tcp, drop=True)
        tables[eff_table] = laid_out
        tables[fair_table] = laid_out
    return tables


def summary(ds: xr.Dataset, reference: pd.DataFrame) -> pd.DataFrame:
    """One row per assumption: ``|reproduced - paper|`` averaged per table and over all four,
    LAN and WAN column averages of UBR efficiency and fairness per TCP flavour, and the
    claims (on the UBR and EPD columns) that pass.

    Parameters
    ----------
    ds : xarray.Dataset
        ``goyal1998.ubr_sensitivity``'s result.
    reference : pandas.DataFrame
        goyal1998's numbers (:func:`atmtcp.reference.load_reference`).

    Returns
    -------
    pandas.DataFrame
    """
    targets = [t for pair in TABLES.values() for t in pair]
    ref = reference[reference.target.isin(targets) & reference.policy.isin(POLICIES)]
    claims = [restricted_to_policies(c, POLICIES) for c in CLAIMS if c.name in CLAIM_NAMES]
    rows = []
    for assumption in ds.assumption.values:
        tables = as_tables(ds, str(assumption))
        compared = comparison(ref[~ref.metric.str.endswith("_column_average")], tables)
        mad = mean_absolute_difference(compared)
        row = {"assumption": str(assumption)}
        for target in targets:
            row[f"mad_{target.split('.')[1]}"] = float(mad.get(target, float("nan")))
        row["mad_all"] = float(compared.loc[compared.status == "compared", "difference"].abs().mean())
        one = ds.sel(assumption=assumption).mean("seed")
        for tcp in TABLES:
            for network in ("lan", "wan"):
                cell = one.sel(tcp=tcp, network=network, policy="ubr")
                row[f"ubr_efficiency_{tcp}_{network}"] = float(cell.efficiency.mean())
                row[f"ubr_fairness_{tcp}_{network}"] = float(cell.fairness.mean())
        verdicts = evaluate(tables, claims)
        row["claims_passed"] = int(verdicts.passed.sum())
        row["claims_total"] = len(verdicts)
        row["claims"] = "; ".join(f"{c}: {'pass' if p else 'FAIL'}" for c, p in zip(verdicts.claim, verdicts.passed))
        rows.append(row)
    return pd.DataFrame(rows).set_index("assumption")


def paper_column_averages(reference: pd.DataFrame) -> pd.DataFrame:
    """The paper's UBR column averages of Tables 1, 2, 4, 5 (the printed 'Column average' rows).

    Parameters
    ----------
    reference : pandas.DataFrame
        goyal1998's numbers (:func:`atmtcp.reference.load_reference`).

    Returns
    -------
    pandas.DataFrame
        ``target``, ``network``, ``tcp``, ``metric``, ``value``.
    """
    rows = reference[reference.metric.str.endswith("_column_average") & (reference.policy == "ubr")
                     & reference.target.isin([t for pair in TABLES.values() for t in pair])]
    return rows[["target", "network", "tcp", "metric", "value"]].reset_index(drop=True)


def drops_versus_full_arrivals(ds: xr.Dataset, assumption: str, tcp: str = "vanilla", network: str = "lan",
                               sources: int = 5, buffer_factor: int = 1) -> pd.DataFrame:
    """Per source, over the seeds: data cells dropped, data cells that arrived at a full
    buffer, and goodput. Under phase lock the lucky source's cells are never dropped; under a
    fair contention rule drops follow full-buffer arrivals.

    Parameters
    ----------
    ds : xarray.Dataset
        ``goyal1998.ubr_sensitivity``'s result.
    assumption : str
        A cell-contention assumption.
    tcp, network : str
        The table cell's TCP and network.
    sources, buffer_factor : int
        The table cell's row.

    Returns
    -------
    pandas.DataFrame
        Per source: ``dropped``, ``full_buffer_arrivals``, ``goodput_mbps``.
    """
    cell = ds.sel(assumption=assumption, tcp=tcp, network=network, sources=sources, buffer_factor=buffer_factor,
                  policy="ubr")
    cell = cell.isel(source=slice(0, sources))
    frame = pd.DataFrame({
        "dropped": cell.cells_dropped_by_source.sum("seed").values,
        "full_buffer_arrivals": cell.full_buffer_arrivals.sum("seed").values,
        "goodput_mbps": cell.goodput_bps.mean("seed").values / 1e6,
    }, index=pd.Index(range(sources), name="source"))
    return frame
