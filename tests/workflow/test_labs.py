"""The labs (issue 40): the solution notebooks run in quick mode with every public and hidden check passing;
the student build keeps no solution and no hidden check; every public check fails on a wrong answer."""
import json
from pathlib import Path

import pytest

from atmtcp.labs import LABS, Grader
from atmtcp.labs.build import BEGIN, END, SOLUTION_TAG, build, grade, student_code
from atmtcp.labs.checks import PUBLIC

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "notebooks" / "labs"
HIDDEN = SOURCE / "hidden"
NOTEBOOKS = sorted(SOURCE.glob("*.ipynb"))


def lab_of(path: Path) -> str:
    return path.name.split("_", 1)[0]


def test_every_lab_has_a_notebook_and_hidden_checks():
    assert sorted(lab_of(p) for p in NOTEBOOKS) == sorted(LABS)
    assert sorted(p.stem for p in HIDDEN.glob("*.py")) == sorted(LABS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lab_notebook_is_stored_clean_with_a_check_per_question(path):
    """Stored without outputs, a `quick` parameter, and each question's solution followed by its check."""
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)
    assert any("parameters" in c["metadata"].get("tags", []) and "quick" in "".join(c["source"]) for c in code)
    checked = ["".join(c["source"]) for c in code if BEGIN in "".join(c["source"])]
    assert [f'grader.check("{q}"' in text for q, text in zip(PUBLIC[lab_of(path)], checked)] == \
        [True] * len(PUBLIC[lab_of(path)]) == [True] * len(checked)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("labs")
    build(SOURCE, out)
    return out


def test_student_build_has_no_solution_and_no_hidden_check(built):
    students = sorted((built / "student").rglob("*"))
    assert sorted(p.name for p in students) == sorted(p.name for p in NOTEBOOKS)  # no hidden/ at all
    for path in students:
        nb = json.loads(path.read_text())
        text = json.dumps(nb)
        assert BEGIN not in text and END not in text and "model explanation" not in text
        assert not any(SOLUTION_TAG in c["metadata"].get("tags", []) for c in nb["cells"])
        answers = ["".join(c["source"]) for c in nb["cells"] if "grader.check(" in "".join(c["source"])]
        assert answers and all("= ...  # your answer" in a for a in answers)
    assert sorted(p.name for p in (built / "solution" / "hidden").glob("*.py")) == \
        sorted(p.name for p in HIDDEN.glob("*.py"))


def test_student_code_keeps_one_ellipsis_per_assigned_name():
    solution = f"x = 1\n{BEGIN}\nmeans = f(x)\nanswer = means.max()\nif x:\n    answer = 2\n{END}\ncheck(answer)\n"
    assert student_code(solution) == "x = 1\nmeans = ...  # your answer\nanswer = ...  # your answer\ncheck(answer)\n"
    assert student_code(f"    {BEGIN}\n    f()\n    {END}\n") == "    ...\n"
    for broken in (f"{BEGIN}\nx = 1\n", f"{END}\n", f"{BEGIN}\n{BEGIN}\n{END}\n"):
        with pytest.raises(ValueError):
            student_code(broken)


@pytest.fixture(scope="module")
def quick_runs():
    return {key: lab.run(quick=True) for key, lab in LABS.items()}


def solution_answers(path: Path, runs) -> dict[str, dict]:
    """Each question's answers, from the notebook's own solution cells run on ``runs``."""
    nb = json.loads(path.read_text())
    answers, scope = {}, {"runs": runs}
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        if BEGIN in text:
            solution, call = text.split(END)
            exec(solution.split(BEGIN)[1], scope)
            question = call.split('grader.check("')[1].split('"')[0]
            names = [part.split("=")[0].strip() for part in call.split("runs=runs,")[1].rstrip(")\n").split(",")]
            answers[question] = {name: scope[name] for name in names}
    return answers


def wrong(value, runs):
    """A wrong answer of the same kind: a reversed list, another setting, a negated boolean, a seed the runs do
    not have, a number outside every spread."""
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[::-1]
    if isinstance(value, list):
        return value + [max(runs.seeds) + 100]
    if isinstance(value, bool):
        return not value
    if isinstance(value, str) and value in ("rises", "falls"):
        return {"rises": "falls", "falls": "rises"}[value]
    if isinstance(value, str):
        return next(s.label for s in runs.settings if s.label != value)
    return value + 10.0


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_public_check_passes_the_solution_and_fails_a_wrong_answer(path, quick_runs, capsys):
    """On the lab's quick runs: the solution passes every public and hidden check; for each answer, an unanswered
    ``...`` and a wrong answer of the same kind each fail the question; the runs of another lab fail the hidden
    check."""
    key = lab_of(path)
    runs = quick_runs[key]
    grader = Grader(key, hidden=HIDDEN)
    for question, answers in solution_answers(path, runs).items():
        assert grader.check(question, runs=runs, **answers), capsys.readouterr().out
        for name, value in answers.items():
            for bad in (..., wrong(value, runs)):
                grader.results.clear()
                assert not grader.check(question, runs=runs, **{**answers, name: bad}), (question, name, bad)
                failed = [r for r in grader.results if not r.passed]
                assert any(r.kind == "public" for r in failed), (question, name, failed)
        other = quick_runs["lab2" if key == "lab1" else "lab1"]
        grader.results.clear()
        grader.check(question, runs=other, **answers)
        assert any(not r.passed and r.kind == "hidden" and "runs are" in r.check for r in grader.results)


def test_each_public_check_fails_on_its_own(quick_runs):
    """Every public check, not only each question, has an answer that makes it fail."""
    for key, questions in PUBLIC.items():
        for question, checks in questions.items():
            for check in checks:
                passed, reason = check.test({"runs": quick_runs[key]})
                assert not passed and reason.startswith("not answered"), (key, question, check.name)


def test_a_student_notebook_is_graded_with_the_hidden_checks(built, tmp_path):
    """`atmtcp labs grade`: the unanswered student notebook fails its checks, hidden ones included, and runs
    to its end (an unanswered ``...`` is not an error)."""
    pytest.importorskip("papermill")
    results = grade(built / "student" / "lab7_ewa.ipynb", built / "solution" / "hidden", quick=True)
    assert {r["kind"] for r in results} == {"public", "hidden"} and not any(r["kind"] == "error" for r in results)
    public = [r for r in results if r["kind"] == "public"]
    assert public and not any(r["passed"] for r in public)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_solution_notebook_runs_in_quick_mode_and_passes_its_checks(path, tmp_path):
    """The solution notebook, executed as a class would (papermill, quick mode), passes every check."""
    pytest.importorskip("papermill")
    results = grade(path, HIDDEN, quick=True)
    assert results and all(r["passed"] for r in results), [r for r in results if not r["passed"]]
    assert {r["kind"] for r in results} == {"public", "hidden"}
    assert {r["question"] for r in results} == set(PUBLIC[lab_of(path)])
