"""What every paper's claims are made of: a claim as a named check that reads the datasets.

Each paper's claims live in its package (``atmtcp.papers.<paper>.claims``, collected by
:func:`atmtcp.papers.claims_of`).

A claim quotes the sentence it rests on, names the targets it reads, and returns a
:class:`Verdict` computed from the data: pass or fail, with the numbers behind it. No
verdict is typed in. Where a claim needs a tolerance or a cutoff the paper does not
give, the claim states it.

A paper's sentence is about its one run (or its few); ours are many. A claim built with a
``seed_share`` is read on distributions (:meth:`Claim.evaluate`): it passes when its check holds
on the mean over seeds *and* for at least that share of the seeds, each read alone, and its
detail says how many agree. Claims without one read their datasets as they are (their own
statistics over seeds, or targets without seeds).
"""
from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, replace
from typing import Callable

import pandas as pd
import xarray as xr


@dataclass(frozen=True)
class Verdict:
    passed: bool
    detail: str


SEED_SHARE = 0.7
"""The share of seeds for which a claim read on distributions must hold (besides its mean): a
finding the paper saw in its one run is reproduced when our single runs show it at least 7
times in 10. The claims' details give the count, so a reader can apply another share."""


@dataclass(frozen=True)
class Sweep:
    """A threshold of ours that a claim's check uses for one of the paper's words (``word``: "decent",
    "about", ...), read over a range: the constant's ``name``, its ``stated`` value (the one the verdict is
    read at), the ``values`` shown (the stated one among them) and ``check(value)``, the claim's check with
    the threshold at ``value``."""

    word: str
    name: str
    stated: float
    values: tuple[float, ...]
    check: Callable[[float], Callable[[dict[str, xr.Dataset]], Verdict]]

    def __post_init__(self):
        if not any(math.isclose(v, self.stated) for v in self.values):
            raise ValueError(f"Sweep {self.name}: the stated value {self.stated:g} is not among {self.values}")


@dataclass(frozen=True)
class Claim:
    """A paper's sentence (``quote``) as a check on the datasets of ``targets``; with ``seed_share``,
    read on the distribution over seeds (see the module docstring). ``sweeps``: the thresholds of ours its
    check uses, each also read over a range (:func:`sweep_text`); the verdict stays the stated value's."""

    name: str
    paper: str
    quote: str
    targets: tuple[str, ...]
    check: Callable[[dict[str, xr.Dataset]], Verdict]
    seed_share: float | None = None
    reads: str = ""
    """How a check without ``seed_share`` reads the seeds, where it counts them itself (e.g. cheon's
    per-table counts); shown in :func:`evaluate`'s ``read_on`` column."""
    sweeps: tuple[Sweep, ...] = ()

    def evaluate(self, datasets: dict[str, xr.Dataset]) -> Verdict:
        missing = [t for t in self.targets if t not in datasets]
        if missing:
            return Verdict(False, "missing datasets: " + ", ".join(missing))
        verdict, _ = self._judge(self.check, datasets)
        if not self.sweeps:
            return verdict
        texts = [sweep_text(sweep, [(v, *self._judge(sweep.check(v), datasets)) for v in sweep.values])
                 for sweep in self.sweeps]
        return Verdict(verdict.passed, " ".join([verdict.detail, *texts]))

    def _judge(self, check, datasets: dict[str, xr.Dataset]) -> tuple[Verdict, tuple[int, int] | None]:
        """``check``'s verdict, and (seeds that agree, seeds) for a claim read on seeds (else None)."""
        if self.seed_share is None:
            return check(datasets), None
        verdict, agree, seeds = seed_verdict(check, {t: datasets[t] for t in self.targets}, self.seed_share)
        return verdict, (agree, seeds) if seeds else None


def sweep_text(sweep: Sweep, results) -> str:
    """What a claim's verdict would be at each value of ``sweep``: ``results`` is (value, verdict, (seeds that
    agree, seeds) or None) per value."""
    parts = []
    for value, verdict, agreement in results:
        seeds = f" ({agreement[0]} of {agreement[1]} seeds)" if agreement else ""
        parts.append(f"{value:.3g} {'passes' if verdict.passed else 'fails'}{seeds}")
    return (f"{{over our \"{sweep.word}\" ({sweep.name}, read at {sweep.stated:g}): " + ", ".join(parts) + "}")


def common_seeds(datasets: dict[str, xr.Dataset]) -> list:
    """The seeds every dataset with a ``seed`` axis has (empty if none has one)."""
    seeded = [set(ds.seed.values.tolist()) for ds in datasets.values() if "seed" in ds.dims]
    return sorted(set.intersection(*seeded)) if seeded else []


def seed_mean(ds: xr.Dataset) -> xr.Dataset:
    """``ds`` with its numeric variables averaged over seeds (NaN runs left out)."""
    return ds.mean("seed", skipna=True, keep_attrs=True) if "seed" in ds.dims else ds


def seeds_needed(count: int, share: float = SEED_SHARE) -> int:
    """How many of ``count`` seeds a claim read on distributions needs: ``ceil(share x count)``."""
    return math.ceil(share * count - 1e-9)


def over_seeds(check, datasets: dict[str, xr.Dataset], share: float = SEED_SHARE) -> Verdict:
    """``check`` on the mean over seeds and on each common seed alone: passes when the mean passes
    and at least ``ceil(share x seeds)`` seeds do."""
    return seed_verdict(check, datasets, share)[0]


def seed_verdict(check, datasets: dict[str, xr.Dataset], share: float = SEED_SHARE) -> tuple[Verdict, int, int]:
    """:func:`over_seeds`'s verdict, with the seeds for which ``check`` holds and the common seeds (0, 0
    without a seed axis)."""
    seeds = common_seeds(datasets)
    mean = check({t: seed_mean(ds) for t, ds in datasets.items()})
    if not seeds:
        return Verdict(mean.passed, mean.detail + " [no seed axis]"), 0, 0
    each = [check({t: ds.sel(seed=s) if "seed" in ds.dims else ds for t, ds in datasets.items()}).passed
            for s in seeds]
    need = seeds_needed(len(seeds), share)
    agree = sum(each)
    return Verdict(mean.passed and agree >= need,
                   f"mean over {len(seeds)} seed{'s' * (len(seeds) > 1)}: {mean.detail} [holds in {agree} of "
                   f"{len(seeds)} seeds; "
                   f"passes with the mean and at least {need}]"), agree, len(seeds)


def headline(ds: xr.Dataset) -> xr.Dataset:
    """The paper's setup where a check reads one run: seed 0 where the experiment has seeds (a
    claim with ``seed_share`` hands its check one seed, or the mean, with no ``seed`` axis)."""
    return ds.sel(seed=0) if "seed" in ds.dims else ds


def restricted_to_policies(claim: Claim, policies: tuple[str, ...]) -> Claim:
    """``claim`` read on the table columns ``policies`` only (for studies that ran fewer
    columns, such as goyal1998.ubr_sensitivity). A claim whose check reads fixed columns
    is returned as it is."""
    if "policies" not in inspect.signature(claim.check).parameters:
        return claim
    return replace(claim, name=f"{claim.name} ({', '.join(policies)})",
                   check=functools.partial(claim.check, policies=policies))


def _read_on(claim: Claim) -> str:
    if claim.seed_share is not None:
        return f"mean and >= {claim.seed_share:.0%} of seeds"
    return claim.reads or "runs as stored"


def evaluate(datasets: dict[str, xr.Dataset], claims) -> pd.DataFrame:
    """Evaluate ``claims`` (e.g. :func:`atmtcp.papers.claims_of` a paper) on ``datasets``
    (target id -> Dataset)."""
    rows = []
    for claim in claims:
        verdict = claim.evaluate(datasets)
        rows.append({"claim": claim.name, "paper": claim.paper, "targets": ", ".join(claim.targets),
                     "quote": claim.quote, "passed": verdict.passed, "detail": verdict.detail,
                     "read_on": _read_on(claim)})
    return pd.DataFrame(rows)
