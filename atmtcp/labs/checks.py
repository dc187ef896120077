"""The labs' public checks (:data:`PUBLIC`), built from a few kinds of check on the student's own runs
(``answers["runs"]``, a :class:`atmtcp.labs.runs.LabRuns`): an ordering of the settings by a mean over the
seeds, the best setting, a direction, a value inside the seeds' spread, the seeds where an order reverses.
None compares with a typed number: each recomputes its expectation from the runs it is given."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .catalog import lab as lab_of
from .runs import LabRuns


@dataclass(frozen=True)
class Check:
    """One check of a question: ``test(answers)`` returns (passed, reason); ``answers`` holds the keywords
    given to :meth:`atmtcp.labs.grader.Grader.check` (the student's ``runs`` among them)."""

    name: str
    test: Callable[[dict], tuple[bool, str]]


class NotAnswered(Exception):
    """A question's answer (or the student's runs) is still missing; the check fails with its message as the
    reason."""
    pass


def answer(answers: dict, name: str):
    """The student's answer ``name`` (:class:`NotAnswered` while it is missing or still ``...``)."""
    value = answers.get(name, ...)
    if value is ...:
        raise NotAnswered(f"not answered: replace the ... of `{name}` with your answer")
    return value


def runs_of(answers: dict) -> LabRuns:
    """The student's :class:`LabRuns` from ``answers``; :class:`NotAnswered` if they were not passed."""
    runs = answers.get("runs")
    if not isinstance(runs, LabRuns):
        raise NotAnswered("pass your runs too: grader.check(..., runs=runs)")
    return runs


def _checked(name: str, test) -> Check:
    """A check whose missing answer fails with the reason :class:`NotAnswered` gives."""
    def guarded(answers: dict):
        try:
            return test(answers)
        except NotAnswered as missing:
            return False, str(missing)
    return Check(name, guarded)


def ordered(name: str, column: str, highest_first: bool = True) -> Check:
    """``name`` lists the settings by their mean ``column``, highest first (lowest first if not ``highest_first``)."""
    def test(answers):
        means = runs_of(answers).means(column)
        given = list(answer(answers, name))
        if sorted(map(str, given)) != sorted(means.index):
            return False, f"list each setting once: {list(means.index)}"
        expected = list(means.sort_values(ascending=not highest_first, kind="stable").index)
        if given == expected:
            return True, f"the order of your runs' mean {column}"
        return False, f"not the order of your runs' mean {column} (runs.means({column!r}))"
    word = "highest" if highest_first else "lowest"
    return _checked(f"{name} orders the settings by mean {column}, {word} first", test)


def best(name: str, column: str, lowest: bool = False) -> Check:
    """``name`` is the setting with the highest (``lowest``: the lowest) mean ``column``."""
    def test(answers):
        means = runs_of(answers).means(column)
        expected = means.idxmin() if lowest else means.idxmax()
        if answer(answers, name) == expected:
            return True, f"your runs' {'lowest' if lowest else 'highest'} mean {column}"
        return False, f"not the setting with the {'lowest' if lowest else 'highest'} mean {column} in your runs"
    return _checked(f"{name} is the setting of {'lowest' if lowest else 'highest'} mean {column}", test)


def direction(name: str, column: str, first: str, last: str) -> Check:
    """``name`` is "rises" or "falls": how the mean ``column`` goes from setting ``first`` to ``last``."""
    def test(answers):
        means = runs_of(answers).means(column)
        given = answer(answers, name)
        if given not in ("rises", "falls"):
            return False, f'answer "rises" or "falls", not {given!r}'
        expected = "rises" if means[last] > means[first] else "falls"
        if given == expected:
            return True, f"the mean {column} of your runs {expected} from {first} to {last}"
        return False, f"not how the mean {column} of your runs goes from {first} to {last}"
    return _checked(f"{name}: the mean {column} from {first} to {last}", test)


def in_spread(name: str, column: str, setting: str) -> Check:
    """``name`` is a number inside the seeds' range of ``column`` for ``setting``."""
    def test(answers):
        spread = runs_of(answers).spread(column).loc[setting]
        value = float(answer(answers, name))
        if spread["min"] <= value <= spread["max"]:
            return True, f"inside your seeds' range of {column} for {setting}"
        return False, f"{value:.3g} is outside your seeds' range of {column} for {setting}"
    return _checked(f"{name} lies within the seeds' spread of {column} for {setting}", test)


def near_mean(name: str, column: str, setting: str, relative: float = 0.01) -> Check:
    """``name`` is the mean ``column`` of ``setting`` over the seeds (within ``relative``), not one seed's."""
    def test(answers):
        mean = runs_of(answers).means(column)[setting]
        value = float(answer(answers, name))
        if abs(value - mean) <= relative * abs(mean):
            return True, f"the mean over your seeds of {column} for {setting}"
        return False, f"{value:.3g} is not the mean over your seeds of {column} for {setting}"
    return _checked(f"{name} is the mean of {column} for {setting} over the seeds", test)


def difference_in_spread(name: str, column: str, better: str, worse: str) -> Check:
    """``name`` (mean ``column`` of ``better`` minus ``worse``) lies in the range of the per-seed differences."""
    def test(answers):
        table = runs_of(answers).by_seed(column)
        differences = table[better] - table[worse]
        value = float(answer(answers, name))
        if differences.min() <= value <= differences.max():
            return True, f"inside the range of your seeds' differences ({better} - {worse})"
        return False, f"{value:.3g} is outside the range of your seeds' differences of {column} ({better} - {worse})"
    return _checked(f"{name} lies within the per-seed differences of {column}, {better} - {worse}", test)


def _seeds_at_least(runs: LabRuns, column: str, first: str, second: str) -> set[int]:
    table = runs.by_seed(column)
    return {int(seed) for seed in table.index[table[first] >= table[second]]}


def seeds_among_runs(name: str) -> Check:
    """``name`` is a collection of seeds, each one of the runs'."""
    def test(answers):
        seeds = set(runs_of(answers).seeds)
        given = {int(seed) for seed in answer(answers, name)}
        if given <= seeds:
            return True, f"seeds of your runs ({sorted(seeds)})"
        return False, f"{sorted(given - seeds)} are not seeds of your runs ({sorted(seeds)})"
    return _checked(f"{name} names seeds of your runs", test)


def seeds_where(name: str, column: str, first: str, second: str) -> Check:
    """``name`` is exactly the set of seeds in which ``first``'s ``column`` is at least ``second``'s."""
    def test(answers):
        expected = _seeds_at_least(runs_of(answers), column, first, second)
        if {int(seed) for seed in answer(answers, name)} == expected:
            return True, f"the seeds where {first}'s {column} is at least {second}'s"
        return False, f"not the seeds in which {first}'s {column} is at least {second}'s (runs.by_seed({column!r}))"
    return _checked(f"{name}: the seeds where {first} has at least {second}'s {column}", test)


def _yes_no(name: str, title: str, truth, shown: str) -> Check:
    """``name`` is True or False, as ``truth(runs)`` is; ``shown`` names what the runs show."""
    def test(answers):
        given = answer(answers, name)
        if not isinstance(given, (bool, np.bool_)):
            return False, f"answer True or False, not {given!r}"
        if bool(given) == bool(truth(runs_of(answers))):
            return True, f"what {shown} show"
        return False, f"not what {shown} show"
    return _checked(title, test)


def every_seed(name: str, column: str, first: str, second: str) -> Check:
    """``name`` (True or False) says whether ``first``'s ``column`` is above ``second``'s in every seed."""
    return _yes_no(name, f"{name}: {first} above {second} in {column} in every seed",
                   lambda runs: not _seeds_at_least(runs, column, second, first),
                   f"your seeds (runs.by_seed({column!r}))")


def above(name: str, column: str, first: str, second: str) -> Check:
    """``name`` (True or False) says whether ``first``'s mean ``column`` is above ``second``'s."""
    return _yes_no(name, f"{name}: {first}'s mean {column} above {second}'s",
                   lambda runs: runs.means(column)[first] > runs.means(column)[second],
                   f"your runs' means of {column} (runs.means({column!r}))")


def lab_runs(lab: str) -> Check:
    """The runs are the lab's own: its network and settings, at least its quick mode's seeds and length."""
    spec = lab_of(lab)

    def test(answers):
        runs = runs_of(answers)
        if runs.network != spec.network or runs.settings != spec.settings:
            return False, f"these runs are not {lab}'s network and settings: run the lab's cell as given"
        if len(runs.seeds) < len(spec.quick_seeds) or runs.duration_s < spec.quick_duration_s:
            return False, f"{len(runs.seeds)} seeds of {runs.duration_s:g} s: fewer or shorter than the lab's"
        return True, f"{lab}'s runs, {len(runs.seeds)} seeds of {runs.duration_s:g} s"
    return _checked(f"the runs are {lab}'s", test)


def hidden(lab: str, **extra: tuple[Check, ...]) -> dict[str, tuple[Check, ...]]:
    """A lab's hidden checks: for every question, that the runs are the lab's (:func:`lab_runs`), then the
    question's ``extra`` checks."""
    return {question: (lab_runs(lab),) + extra.get(question, ()) for question in PUBLIC[lab]}


PUBLIC = {
    "lab1": {
        "q1": (ordered("efficiency_order", "efficiency"),),
        "q2": (best("fairest", "fairness"),),
        "q3": (seeds_among_runs("tail_not_below_epd"),),
    },
    "lab2": {
        "q1": (direction("max_queue_with_z", "max_queue", "Z = 0.2", "Z = 1"),),
        "q2": (best("best_z", "efficiency"), in_spread("z08_efficiency", "efficiency", "Z = 0.8")),
        "q3": (every_seed("z05_above_z08_every_seed", "efficiency", "Z = 0.5", "Z = 0.8"),),
    },
    "lab3": {
        "q1": (ordered("efficiency_order", "efficiency"),),
        "q2": (best("most_fast_retransmits", "fast_retransmits"),),
        "q3": (every_seed("vanilla_above_reno_every_seed", "efficiency", "vanilla", "reno"),),
    },
    "lab4": {
        "q1": (best("more_efficient", "efficiency"),),
        "q2": (difference_in_spread("sack_gain", "efficiency", "sack", "reno"),),
    },
    "lab5": {
        "q1": (best("higher_efficiency", "efficiency"),),
        "q2": (best("fairer", "fairness"),),
        "q3": (seeds_among_runs("epd_not_below_espd_fairness"),),
    },
    "lab6": {
        "q1": (ordered("efficiency_order", "efficiency"),),
        "q2": (above("front_helps_cells", "efficiency", "cell_front", "cell_tail"),
               above("front_helps_frames", "efficiency", "frame_front", "frame_tail")),
    },
    "lab7": {
        "q1": (best("smaller_queue", "mean_queue", lowest=True),),
        "q2": (difference_in_spread("ewa_gain", "efficiency", "ewa", "drop_tail"),),
    },
}
"""lab -> question -> its public checks."""
