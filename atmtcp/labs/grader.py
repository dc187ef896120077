"""The labs' checks: ``Grader("lab1").check("q1", runs=runs, efficiency_order=...)`` prints, for each check of
the question, PASS or FAIL with its reason, and returns whether all passed.

Public checks (:data:`atmtcp.labs.checks.PUBLIC`) ship with the package. Hidden checks are the lecturer's:
``notebooks/labs/hidden/<lab>.py`` in the repository, never installed and never copied into the student
build; a lecturer grading a notebook points ``ATMTCP_LABS_HIDDEN`` at that folder (``atmtcp labs grade``
does it), and each check's result is appended as one JSON line to ``ATMTCP_LABS_REPORT`` when it is set.
"""
from __future__ import annotations

import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

from .. import model as m
from .catalog import lab as lab_of
from .checks import PUBLIC, Check

HIDDEN_ENV = "ATMTCP_LABS_HIDDEN"
REPORT_ENV = "ATMTCP_LABS_REPORT"


@dataclass(frozen=True)
class Result:
    """The outcome of one check of one question: public or hidden (``kind``), passed or not, and why."""
    lab: str
    question: str
    check: str
    kind: str
    passed: bool
    reason: str

    def line(self) -> str:
        """The result as one report line (``PASS``/``FAIL``, kind, check and reason)."""
        return f"  {'PASS' if self.passed else 'FAIL'}  {self.kind:6s} {self.check}: {self.reason}"


def load_hidden(lab: str, folder: str | os.PathLike | None = None) -> dict[str, tuple[Check, ...]]:
    """The hidden checks of ``lab`` from ``folder`` (default ``$ATMTCP_LABS_HIDDEN``; none without it)."""
    folder = folder if folder is not None else os.environ.get(HIDDEN_ENV)
    if not folder:
        return {}
    path = Path(folder) / f"{lab}.py"
    if not path.is_file():
        raise m.ModelError("Grader", HIDDEN_ENV, str(folder), f"a folder holding {lab}.py (the hidden checks)")
    spec = importlib.util.spec_from_file_location(f"atmtcp_labs_hidden_{lab}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.HIDDEN


class Grader:
    """The checks of one lab (``"lab1"`` ... ``"lab7"``, :data:`atmtcp.labs.catalog.LABS`)."""

    def __init__(self, lab: str, hidden: str | os.PathLike | None = None):
        self.lab = lab_of(lab).key
        self.public = PUBLIC[self.lab]
        self.hidden = load_hidden(self.lab, hidden)
        self.results: list[Result] = []

    def questions(self) -> tuple[str, ...]:
        """The lab's questions, the names :meth:`check` accepts."""
        return tuple(self.public)

    def check(self, question: str, **answers) -> bool:
        """Run ``question``'s public checks (and hidden ones, when loaded) on ``answers``; print one line per
        check and return whether all passed."""
        if question not in self.public:
            raise m.ModelError(f"Grader({self.lab!r}).check", "question", question, f"one of {self.questions()}")
        results = [self._one(question, kind, check, answers) for kind, checks in
                   (("public", self.public[question]), ("hidden", self.hidden.get(question, ()))) for check in checks]
        self.results += results
        passed = sum(r.passed for r in results)
        print(f"{self.lab} {question}: {passed} of {len(results)} checks passed")
        for r in results:
            print(r.line())
        self._report(results)
        return passed == len(results)

    def _one(self, question: str, kind: str, check: Check, answers: dict) -> Result:
        try:
            passed, reason = check.test(answers)
        except Exception as error:  # a malformed answer fails its check with the error as the reason
            passed, reason = False, f"could not be checked ({type(error).__name__}: {error})"
        return Result(self.lab, question, check.name, kind, bool(passed), reason)

    @staticmethod
    def _report(results: list[Result]) -> None:
        path = os.environ.get(REPORT_ENV)
        if path:
            with open(path, "a") as out:
                for r in results:
                    out.write(json.dumps(r.__dict__) + "\n")
