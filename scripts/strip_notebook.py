#!/usr/bin/env python3
"""Git's clean filter for the notebooks (``.gitattributes``; ``make setup`` installs it): reads a notebook
on standard input and writes it without outputs and execution counts, in the repository's format (one-space
indent, UTF-8, a final newline). JupyterLab's autosave writes outputs into the working file; what git stores
stays the teaching text and the code. Standard library only: git runs it on every ``git add`` and ``git diff``.

    python3 scripts/strip_notebook.py < notebooks/ewa.ipynb
"""
import json
import sys


def strip(notebook: dict) -> dict:
    """The notebook without outputs and execution counts (code cells), everything else kept."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return notebook


def main() -> None:
    text = sys.stdin.read()
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError:   # not a notebook git can read as one: store it as it is
        sys.stdout.write(text)
        return
    sys.stdout.write(json.dumps(strip(notebook), indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
