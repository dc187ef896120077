"""What every paper's claims are made of: a claim as a named check that reads the datasets.

Each paper's claims live in its package (``atmtcp.papers.<paper>.claims``, collected by
:func:`atmtcp.papers.claims_of`).

A claim quotes the sentence it rests on, names the targets it reads, and returns a
:class:`Verdict` computed from the data: pass or fail, with the numbers behind it. No
verdict is typed in. Where a claim needs a number for one of the paper's words ("consistently",
"about", "decent"), it takes it from :mod:`atmtcp.words`, the one table for all papers.

A paper's sentence is about its one run (or its few); ours are many. A claim built with a
``seed_share`` is read on distributions (:meth:`Claim.evaluate`), by the noise model where its check
says at which points it holds (:func:`noise_verdict`, the verdict rule of issue 36):

- a check returns, besides its pass/fail on one run, its **margin at each point** (a buffer size, a
  table cell, a phase): how far the point lies on the claimed side, the claim's tolerance included
  (:class:`Points`);
- per point, the margins of our seeds are paired (the same seed of every column shares its random
  draws) and their mean gets a 90 % interval (:func:`atmtcp.statistics.interval` of the mean of all
  seeds); the point **agrees** when that interval lies on the claimed side (margin >= 0), and
  **contradicts** when it lies wholly on the other;
- the claim holds when the share of agreeing points reaches the share its words ask for
  (:data:`atmtcp.words.EVERY` by default, "by and large" less) and, for the words of every point, no point
  contradicts it.

The older reading, the check on each seed alone (a claim over 70 points then has to hold at all 70 in a
single run, which a claim true at every point fails most of the time), stays in the detail as
information: "holds in k of n seeds". Checks that give no margins are still read that way (the mean
and ``seed_share`` of the seeds), and :func:`evaluate` says which rule read each claim.
"""
from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
import pandas as pd
import xarray as xr

from . import statistics, words


@dataclass(frozen=True)
class Verdict:
    """A check's answer: ``passed`` on the data it was given, the numbers behind it (``detail``), and
    where the check says so, its ``margins``: per point, how far the point lies on the claimed side
    (>= 0: holds there; tolerance included), and the ``share`` of points the claim's words ask for.

    Parameters
    ----------
    passed : bool
        Whether the claim holds.
    detail : str
        The numbers behind it.
    margins : tuple of float, optional
        Per point, the margin on the claimed side.
    share : float
        The share of the points the words ask for (default every point).
    rule : str
        How the seeds were read (:data:`NOISE_MODEL`, :data:`PER_SEED`, or empty).
    parts : tuple of (int, float), optional
        (points, share) of each joined statement (:func:`joined`).
    """

    passed: bool
    detail: str
    margins: tuple[float, ...] | None = None
    share: float = words.EVERY.value
    rule: str = ""
    """How the verdict read the seeds, where it read them (:data:`NOISE_MODEL` or :data:`PER_SEED`)."""
    parts: tuple[tuple[int, float], ...] | None = None
    """Where one claim joins statements with shares of their own (:func:`joined`): (points, share) of each,
    in the order of ``margins``; None: one part, ``share`` of all the points."""

    def split(self) -> list[tuple[slice, float]]:
        """The parts of ``margins`` as (slice, share).

        Returns
        -------
        list of (slice, float)
        """
        if self.parts is None:
            return [(slice(0, len(self.margins or ())), self.share)]
        bounds = np.cumsum([0] + [n for n, _ in self.parts])
        return [(slice(int(a), int(b)), share) for a, b, (_, share) in zip(bounds[:-1], bounds[1:], self.parts)]


def values_text(**values) -> str:
    """A verdict's numbers as its detail shows them: ``name = value`` to three decimals, comma-separated.

    Parameters
    ----------
    **values : float
        Name -> value.

    Returns
    -------
    str
    """
    return ", ".join(f"{k} = {v:.3f}" for k, v in values.items())


def joined(detail: str, *verdicts: Verdict) -> Verdict:
    """Statements of one claim, each with its own points and share, as one verdict: it holds when each
    part holds (on one run, and by the noise model part by part).

    Parameters
    ----------
    detail : str
        The joined verdict's detail.
    *verdicts : Verdict
        The statements' verdicts, each with its margins.

    Returns
    -------
    Verdict
    """
    margins = tuple(m for v in verdicts for m in v.margins)
    return Verdict(all(v.passed for v in verdicts), detail, margins,
                   parts=tuple((len(v.margins), v.share) for v in verdicts))


NOISE_MODEL = "noise model: each point's paired interval over seeds"
PER_SEED = "per seed: the mean and >= 70 % of seeds"


class Points:
    """A check's points as it compares them: each comparison records its margin (how far the point
    lies on the claimed side, >= 0 where it holds) and returns whether it holds; :meth:`verdict` turns
    them into a :class:`Verdict` with ``margins``, passing on one run when ``share`` of the points hold."""

    def __init__(self):
        self.margins: list[float] = []

    def at_least(self, value: float, bound: float) -> bool:
        """The point holds when ``value >= bound``.

        Parameters
        ----------
        value, bound : float
            The point's value and the claimed bound.

        Returns
        -------
        bool
        """
        margin = float(value) - float(bound)
        self.margins.append(margin)
        return margin >= 0

    def at_most(self, value: float, bound: float) -> bool:
        """The point holds when ``value <= bound``.

        Parameters
        ----------
        value, bound
            As for :meth:`at_least`.

        Returns
        -------
        bool
        """
        return self.at_least(-float(value), -float(bound))

    def within(self, value: float, centre: float, tolerance: float) -> bool:
        """The point holds when ``|value - centre| <= tolerance``.

        Parameters
        ----------
        value, centre, tolerance : float
            The point's value, the claimed value and how far from it the point may lie.

        Returns
        -------
        bool
        """
        return self.at_least(float(tolerance) - abs(float(value) - float(centre)), 0.0)

    def held(self) -> int:
        """The points whose margin is not negative (the claim holds there).

        Returns
        -------
        int
        """
        return sum(m >= 0 for m in self.margins)

    def verdict(self, detail: str, share: float = words.EVERY.value) -> Verdict:
        """The verdict on the points recorded so far.

        Parameters
        ----------
        detail : str
            What the verdict shows (the numbers checked).
        share : float
            The share of the points that must hold, from the paper's words (:mod:`atmtcp.words`; every
            point by default).

        Returns
        -------
        Verdict
            Passed when there is a point and at least :func:`points_needed` of them hold; with every
            point's margin.
        """
        n = len(self.margins)
        return Verdict(n > 0 and self.held() >= points_needed(n, share), detail, tuple(self.margins), share)


def no_contradiction(share: float) -> bool:
    """Whether a claim whose words ask for ``share`` of its points also forbids any point that contradicts it:
    the words of every point ("consistently", "for all", :data:`atmtcp.words.EVERY`) do; "by and large" and
    "sometimes" do not.

    Parameters
    ----------
    share : float
        The share of points the claim's words ask for.

    Returns
    -------
    bool
    """
    return share >= words.EVERY.value - 1e-12


def points_needed(count: int, share: float) -> int:
    """How many of ``count`` points must agree for a claim whose words ask for ``share``: ``ceil(share x
    count)``, and at least one.

    Parameters
    ----------
    count : int
        The points.
    share : float
        The share the words ask for.

    Returns
    -------
    int
    """
    return max(1, math.ceil(share * count - 1e-9))


SEED_SHARE = 0.7
"""The share of seeds for which a claim read on distributions must hold (besides its mean): a
finding the paper saw in its one run is reproduced when our single runs show it at least 7
times in 10. The claims' details give the count, so a reader can apply another share."""


@dataclass(frozen=True)
class Sweep:
    """A threshold of ours that a claim's check uses for one of the paper's words (``word``: "decent",
    "about", ...), read over a range: the constant's ``name``, its ``stated`` value (the one the verdict is
    read at), the ``values`` shown (the stated one among them) and ``check(value)``, the claim's check with
    the threshold at ``value``.

    Parameters
    ----------
    word : str
        The paper's word.
    name : str
        Our constant's name.
    stated : float
        The value the verdict is read at.
    values : tuple of float
        The values shown.
    check : callable
        ``check(value)``: the claim's check with the threshold at ``value``.
    """

    word: str
    name: str
    stated: float
    values: tuple[float, ...]
    check: Callable[[float], Callable[[dict[str, xr.Dataset]], Verdict]]

    def __post_init__(self):
        if not any(math.isclose(v, self.stated) for v in self.values):
            raise ValueError(f"Sweep {self.name}: the stated value {self.stated:g} is not among {self.values}")


@dataclass(frozen=True)
class Finding:
    """One principal finding of a paper: its words (``quote``), where it stands (``where``), and the
    claims (:class:`Claim` names) whose verdicts decide it (:mod:`atmtcp.fidelity` marks it).

    Parameters
    ----------
    paper : str
        The paper's key.
    quote : str
        Its words.
    where : str
        Its section.
    claims : tuple of str
        The names of the claims that decide it.
    """

    paper: str
    quote: str
    where: str
    claims: tuple[str, ...]


@dataclass(frozen=True)
class Claim:
    """A paper's sentence (``quote``) as a check on the datasets of ``targets``; with ``seed_share``,
    read on the distribution over seeds (see the module docstring). ``sweeps``: the thresholds of ours its
    check uses, each also read over a range (:func:`sweep_text`); the verdict stays the stated value's.

    Parameters
    ----------
    name : str
        The claim's name (unique in its paper).
    paper : str
        The paper's key.
    quote : str
        The paper's sentence.
    targets : tuple of str
        The targets whose datasets the check reads.
    check : callable
        ``check({target: Dataset}) -> Verdict``.
    seed_share : float, optional
        Read over the seeds (:func:`seed_verdict`) with this share of seeds; None: the check reads them
        itself.
    reads : str
        How such a check reads the seeds, in words.
    sweeps : tuple of Sweep
        Thresholds of ours, each also read over a range.
    identity : str
        Why the claim is an identity of the model (empty: it is not).
    """

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
    identity: str = ""
    """Where the claim is an identity of the model (it follows from a rule's arithmetic, whatever the
    simulation does), why: the fidelity page labels it so and never counts it as a reproduced finding."""

    def evaluate(self, datasets: dict[str, xr.Dataset]) -> Verdict:
        """The claim's verdict on ``datasets`` (target id -> Dataset): its check, read by the noise model
        over the seeds when ``seed_share`` is set, with each sweep's verdicts added to the detail; a
        failed verdict naming the targets that are missing.

        Parameters
        ----------
        datasets : dict of str to xarray.Dataset
            Target id -> its result.

        Returns
        -------
        Verdict
        """
        missing = [t for t in self.targets if t not in datasets]
        if missing:
            return Verdict(False, "missing datasets: " + ", ".join(missing))
        verdict, _ = self._judge(self.check, datasets)
        if not self.sweeps:
            return verdict
        texts = [sweep_text(sweep, [(v, *self._judge(sweep.check(v), datasets)) for v in sweep.values])
                 for sweep in self.sweeps]
        return replace(verdict, detail=" ".join([verdict.detail, *texts]))

    def _judge(self, check, datasets: dict[str, xr.Dataset]) -> tuple[Verdict, tuple[int, int] | None]:
        """``check``'s verdict, and (seeds that agree, seeds) for a claim read on seeds (else None)."""
        if self.seed_share is None:
            return check(datasets), None
        verdict, agree, seeds = seed_verdict(check, {t: datasets[t] for t in self.targets}, self.seed_share)
        return verdict, (agree, seeds) if seeds else None


def sweep_text(sweep: Sweep, results) -> str:
    """What a claim's verdict would be at each value of ``sweep``: ``results`` is (value, verdict, (seeds that
    agree, seeds) or None) per value.

    Parameters
    ----------
    sweep : Sweep
        The threshold.
    results : iterable of tuple
        ``(value, verdict, (seeds that agree, seeds) or None)`` per value.

    Returns
    -------
    str
    """
    parts = []
    for value, verdict, agreement in results:
        seeds = f" ({agreement[0]} of {agreement[1]} seeds)" if agreement else ""
        parts.append(f"{value:.3g} {'passes' if verdict.passed else 'fails'}{seeds}")
    return (f"{{over our \"{sweep.word}\" ({sweep.name}, read at {sweep.stated:g}): " + ", ".join(parts) + "}")


def common_seeds(datasets: dict[str, xr.Dataset]) -> list:
    """The seeds every dataset with a ``seed`` axis has (empty if none has one).

    Parameters
    ----------
    datasets : dict of str to xarray.Dataset
        Target id -> its result.

    Returns
    -------
    list
    """
    seeded = [set(ds.seed.values.tolist()) for ds in datasets.values() if "seed" in ds.dims]
    return sorted(set.intersection(*seeded)) if seeded else []


def seed_mean(ds: xr.Dataset) -> xr.Dataset:
    """``ds`` with its numeric variables averaged over seeds (NaN runs left out).

    Parameters
    ----------
    ds : xarray.Dataset
        A result, with or without a ``seed`` axis.

    Returns
    -------
    xarray.Dataset
    """
    return ds.mean("seed", skipna=True, keep_attrs=True) if "seed" in ds.dims else ds


def seeds_needed(count: int, share: float = SEED_SHARE) -> int:
    """How many of ``count`` seeds a claim read on distributions needs: ``ceil(share x count)``.

    Parameters
    ----------
    count : int
        The seeds.
    share : float
        The share asked for (default :data:`SEED_SHARE`).

    Returns
    -------
    int
    """
    return math.ceil(share * count - 1e-9)


def over_seeds(check, datasets: dict[str, xr.Dataset], share: float = SEED_SHARE) -> Verdict:
    """``check`` on the mean over seeds and on each common seed alone: passes when the mean passes
    and at least ``ceil(share x seeds)`` seeds do.

    Parameters
    ----------
    check : callable
        ``check({target: Dataset}) -> Verdict``.
    datasets : dict of str to xarray.Dataset
        Target id -> its result.
    share : float
        The share of seeds (default :data:`SEED_SHARE`).

    Returns
    -------
    Verdict
    """
    return seed_verdict(check, datasets, share)[0]


def seed_verdict(check, datasets: dict[str, xr.Dataset], share: float = SEED_SHARE) -> tuple[Verdict, int, int]:
    """``check`` read on the distribution over the common seeds, with the seeds for which it holds alone
    and the common seeds (0, 0 without a seed axis): by the noise model (:func:`noise_verdict`) where the
    check gives margins at the same points for every seed, else by the mean and ``ceil(share x seeds)``
    seeds.

    Parameters
    ----------
    check, datasets, share
        As for :func:`over_seeds`.

    Returns
    -------
    tuple
        ``(verdict, seeds that agree, common seeds)``.
    """
    seeds = common_seeds(datasets)
    mean = check({t: seed_mean(ds) for t, ds in datasets.items()})
    if not seeds:
        return Verdict(mean.passed, mean.detail + " [no seed axis]"), 0, 0
    each = [check({t: ds.sel(seed=s) if "seed" in ds.dims else ds for t, ds in datasets.items()}) for s in seeds]
    agree = sum(v.passed for v in each)
    if _has_points(mean, each):
        return noise_verdict(mean, each), agree, len(seeds)
    need = seeds_needed(len(seeds), share)
    return Verdict(mean.passed and agree >= need,
                   f"mean over {len(seeds)} seed{'s' * (len(seeds) > 1)}: {mean.detail} [holds in {agree} of "
                   f"{len(seeds)} seeds; "
                   f"passes with the mean and at least {need}]", rule=PER_SEED), agree, len(seeds)


def _has_points(mean: Verdict, each: list[Verdict]) -> bool:
    """Whether every seed's verdict gives margins at the same points as the mean's."""
    return mean.margins is not None and len(mean.margins) > 0 and all(
        v.margins is not None and len(v.margins) == len(mean.margins) for v in each)


def point_agreement(margins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per point (columns of ``margins``, seeds x points): whether the 90 % interval of the mean margin over
    the seeds lies on the claimed side (agrees) and whether it lies wholly on the other (contradicts). A point
    with one run (a paper's own numbers) has no interval: its one margin is read as it is.

    Parameters
    ----------
    margins : numpy.ndarray
        Seeds x points.

    Returns
    -------
    tuple of numpy.ndarray
        ``(agrees, contradicts)``, one bool per point.
    """
    bounds = statistics.mean_intervals(margins)
    single = np.isfinite(margins).sum(axis=0) == 1  # one run (a paper's own numbers): read as it is
    bounds[single] = np.nanmax(margins[:, single], axis=0)[:, None]
    return bounds[:, 0] >= 0, bounds[:, 1] < 0


FAR = 1e9
"""A margin of +-inf (a threshold never reached in one run) counts as this far from the claimed side's
border: only its sign matters, and the interval of a mean stays finite."""


def noise_verdict(mean: Verdict, each: list[Verdict]) -> Verdict:
    """The verdict of the noise model (module docstring) from the check's verdict on the mean over seeds
    (``mean``, its detail and its words' share) and on each seed alone (``each``, their margins).

    Parameters
    ----------
    mean : Verdict
        The check's verdict on the mean over seeds.
    each : list of Verdict
        Its verdict on each seed alone, with margins at the same points.

    Returns
    -------
    Verdict
    """
    margins = np.clip(np.array([v.margins for v in each], dtype=float), -FAR, FAR)
    agrees, contradicts = point_agreement(margins)
    texts, passed = [], True
    for part, share in mean.split():
        points, need = agrees[part].size, points_needed(agrees[part].size, share)
        against, strict = int(contradicts[part].sum()), no_contradiction(share)
        passed &= bool(agrees[part].sum() >= need) and not (strict and against)
        texts.append(f"{int(agrees[part].sum())} of {points} point{'s' * (points > 1)} agree, "
                     f"{against} contradict, {need} needed ({share:.0%}"
                     + (", none contradicting)" if strict else ")"))
    held = sum(v.passed for v in each)
    detail = (f"mean over {len(each)} seeds: {mean.detail} [noise model (a point agrees when the 90 % interval "
              f"of its paired mean lies on the claimed side): {'; '.join(texts)}; "
              f"each seed alone, the claim holds in {held} of {len(each)} seeds]")
    return replace(mean, passed=passed, detail=detail, margins=tuple(margins.mean(axis=0)), rule=NOISE_MODEL)


def headline(ds: xr.Dataset) -> xr.Dataset:
    """The paper's setup where a check reads one run: seed 0 where the experiment has seeds (a
    claim with ``seed_share`` hands its check one seed, or the mean, with no ``seed`` axis).

    Parameters
    ----------
    ds : xarray.Dataset
        A result.

    Returns
    -------
    xarray.Dataset
    """
    return ds.sel(seed=0) if "seed" in ds.dims else ds


def restricted_to_policies(claim: Claim, policies: tuple[str, ...]) -> Claim:
    """``claim`` read on the table columns ``policies`` only (for studies that ran fewer
    columns, such as goyal1998.ubr_sensitivity). A claim whose check reads fixed columns
    is returned as it is.

    Parameters
    ----------
    claim : Claim
        A claim whose check may take ``policies``.
    policies : tuple of str
        The columns.

    Returns
    -------
    Claim
    """
    if "policies" not in inspect.signature(claim.check).parameters:
        return claim
    return replace(claim, name=f"{claim.name} ({', '.join(policies)})",
                   check=functools.partial(claim.check, policies=policies))


def _read_on(claim: Claim, verdict: Verdict) -> str:
    if verdict.rule:
        return verdict.rule
    if claim.seed_share is not None:
        return f"mean and >= {claim.seed_share:.0%} of seeds"
    return claim.reads or "runs as stored"


def evaluate(datasets: dict[str, xr.Dataset], claims) -> pd.DataFrame:
    """Evaluate ``claims`` (e.g. :func:`atmtcp.papers.claims_of` a paper) on ``datasets``
    (target id -> Dataset).

    Parameters
    ----------
    datasets : dict of str to xarray.Dataset
        Target id -> its result.
    claims : iterable of Claim
        The claims.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``claim``, ``paper``, ``targets``, ``quote``, ``passed``, ``detail``, ``read_on``,
        ``identity``.
    """
    rows = []
    for claim in claims:
        verdict = claim.evaluate(datasets)
        rows.append({"claim": claim.name, "paper": claim.paper, "targets": ", ".join(claim.targets),
                     "quote": claim.quote, "passed": verdict.passed, "detail": verdict.detail,
                     "read_on": _read_on(claim, verdict), "identity": claim.identity})
    return pd.DataFrame(rows)
