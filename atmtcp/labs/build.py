"""The lecturer's side of the labs: ``atmtcp labs build OUT`` writes ``OUT/student/`` (every solution replaced
by ``...``, the cells tagged ``solution`` removed, no hidden check) and ``OUT/solution/`` (the notebooks as
they are, with ``hidden/``); ``atmtcp labs grade`` runs submitted notebooks with the hidden checks.

In a lab's code cell the solution sits between ``# BEGIN SOLUTION`` and ``# END SOLUTION``; the student
version keeps one ``name = ...`` for each name the solution assigns (``...`` alone if it assigns none).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from .. import model as m
from .grader import HIDDEN_ENV, REPORT_ENV

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
SOLUTION_TAG = "solution"
ASSIGNED = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)")


def student_code(source: str) -> str:
    """``source`` with each solution block replaced by ``name = ...`` per name it assigns at its own indent."""
    out, block = [], None
    for line in source.splitlines():
        marker = line.strip()
        if marker == BEGIN:
            if block is not None:
                raise m.ModelError("labs build", "solution", line, f"an {END} before the next {BEGIN}")
            block, indent = [], line[: len(line) - len(line.lstrip())]
        elif marker == END:
            if block is None:
                raise m.ModelError("labs build", "solution", line, f"a {BEGIN} before it")
            names = list(dict.fromkeys(match.group(1) for text in block if (match := ASSIGNED.match(text.strip()))
                                       and text.startswith(indent) and not text[len(indent):][:1].isspace()))
            out += [f"{indent}{name} = ...  # your answer" for name in names] or [f"{indent}..."]
            block = None
        elif block is not None:
            block.append(line)
        else:
            out.append(line)
    if block is not None:
        raise m.ModelError("labs build", "solution", BEGIN, f"closed by {END}")
    return "\n".join(out) + ("\n" if source.endswith("\n") else "")


def _cleaned(notebook: dict) -> dict:
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return notebook


def student_notebook(notebook: dict) -> dict:
    """The student's version of a lab notebook (a new dict; ``notebook`` is left as it is)."""
    notebook = json.loads(json.dumps(notebook))
    cells = [c for c in notebook["cells"] if SOLUTION_TAG not in c.get("metadata", {}).get("tags", [])]
    for cell in cells:
        if cell["cell_type"] == "code":
            cell["source"] = student_code("".join(cell["source"])).splitlines(keepends=True)
    notebook["cells"] = cells
    return _cleaned(notebook)


def _write(path: Path, notebook: dict) -> None:
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")


def build(source: str | os.PathLike, out: str | os.PathLike) -> dict[str, list[Path]]:
    """Write ``out/student/`` and ``out/solution/`` (with ``hidden/``) from the lab notebooks in ``source``."""
    source, out = Path(source), Path(out)
    notebooks = sorted(source.glob("*.ipynb"))
    if not notebooks:
        raise m.ModelError("labs build", "source", str(source),
                           "a folder of lab notebooks, notebooks/labs of the checkout (or give --source)")
    written = {"student": [], "solution": []}
    for kind in written:
        (out / kind).mkdir(parents=True, exist_ok=True)
    for path in notebooks:
        notebook = json.loads(path.read_text())
        for kind, version in (("student", student_notebook(notebook)), ("solution", _cleaned(notebook))):
            _write(out / kind / path.name, version)
            written[kind].append(out / kind / path.name)
    hidden = out / "solution" / "hidden"
    hidden.mkdir(exist_ok=True)
    for path in sorted((source / "hidden").glob("*.py")):
        shutil.copy2(path, hidden / path.name)
        written["solution"].append(hidden / path.name)
    return written


def grade(notebook: str | os.PathLike, hidden: str | os.PathLike, quick: bool = False) -> list[dict]:
    """Execute a submitted ``notebook`` (papermill; ``quick``: the lab's short runs) with the hidden checks of
    ``hidden`` loaded; every check's result, public and hidden, as a dict (lab, question, check, kind,
    passed, reason); a cell that raised adds one failed row of kind "error" (the checks after it did not run)."""
    import papermill
    with tempfile.TemporaryDirectory() as work:
        report = Path(work) / "report.jsonl"
        saved = {name: os.environ.get(name) for name in (HIDDEN_ENV, REPORT_ENV)}
        os.environ.update({HIDDEN_ENV: str(Path(hidden).resolve()), REPORT_ENV: str(report)})
        failed = None
        try:
            papermill.execute_notebook(str(notebook), str(Path(work) / "graded.ipynb"), parameters={"quick": quick},
                                       cwd=str(Path(notebook).resolve().parent), kernel_name="python3",
                                       progress_bar=False)
        except papermill.PapermillExecutionError as error:   # the checks before the failing cell still count
            failed = {"lab": "", "question": "", "check": f"cell {error.exec_count} ran", "kind": "error",
                      "passed": False, "reason": f"{error.ename}: {error.evalue}"}
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
        results = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
        return results + ([failed] if failed else [])
