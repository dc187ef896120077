"""What every paper's claims are made of: a claim as a named check that reads the datasets.

Each paper's claims live in its package (``atmtcp.papers.<paper>.claims``, collected by
:func:`atmtcp.papers.claims_of`).

A claim quotes the sentence it rests on, names the targets it reads, and returns a
:class:`Verdict` computed from the data: pass or fail, with the numbers behind it. No
verdict is typed in. Where a claim needs a tolerance or a cutoff the paper does not
give, the claim states it.

Claims read the headline runs (seed 0: all sources start at t = 0, the paper's setup).
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, replace
from typing import Callable

import pandas as pd
import xarray as xr


@dataclass(frozen=True)
class Verdict:
    passed: bool
    detail: str


@dataclass(frozen=True)
class Claim:
    name: str
    paper: str
    quote: str
    targets: tuple[str, ...]
    check: Callable[[dict[str, xr.Dataset]], Verdict]

    def evaluate(self, datasets: dict[str, xr.Dataset]) -> Verdict:
        missing = [t for t in self.targets if t not in datasets]
        if missing:
            return Verdict(False, "missing datasets: " + ", ".join(missing))
        return self.check(datasets)


def headline(ds: xr.Dataset) -> xr.Dataset:
    """The paper's setup: seed 0 where the experiment has seeds."""
    return ds.sel(seed=0) if "seed" in ds.dims else ds


def restricted_to_policies(claim: Claim, policies: tuple[str, ...]) -> Claim:
    """``claim`` read on the table columns ``policies`` only (for studies that ran fewer
    columns, such as goyal1998.ubr_sensitivity). A claim whose check reads fixed columns
    is returned as it is."""
    if "policies" not in inspect.signature(claim.check).parameters:
        return claim
    return replace(claim, name=f"{claim.name} ({', '.join(policies)})",
                   check=functools.partial(claim.check, policies=policies))


def evaluate(datasets: dict[str, xr.Dataset], claims) -> pd.DataFrame:
    """Evaluate ``claims`` (e.g. :func:`atmtcp.papers.claims_of` a paper) on ``datasets``
    (target id -> Dataset)."""
    rows = []
    for claim in claims:
        verdict = claim.evaluate(datasets)
        rows.append({"claim": claim.name, "paper": claim.paper, "targets": ", ".join(claim.targets),
                     "quote": claim.quote, "passed": verdict.passed, "detail": verdict.detail})
    return pd.DataFrame(rows)
