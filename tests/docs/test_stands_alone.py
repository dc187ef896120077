"""The repository stands alone: no tracked file points to material outside it (the developers'
``shared/`` reference folder), and its metadata names the five papers it reproduces."""
import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"(?<![\w./-])(?:\.\./)?shared/|REPRODUCTION\.md|DESIGN\.md|STYLE\.md")
PAPERS = ("goyal1998", "goyal1997", "cheon", "lakshman", "ewa")


def tracked_text_files():
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for name in names.splitlines():
        path = ROOT / name
        if path.resolve() == Path(__file__).resolve():   # this file names what it looks for
            continue
        if path.suffix in {".png", ".nc", ".pdf", ".so"} or not path.is_file():
            continue
        try:
            yield name, path.read_text()
        except UnicodeDecodeError:
            continue


def test_no_tracked_file_points_outside_the_repository():
    offending = [f"{name}:{n + 1}" for name, text in tracked_text_files()
                 for n, line in enumerate(text.splitlines()) if OUTSIDE.search(line)]
    assert not offending, offending
    assert OUTSIDE.search("see shared/REPRODUCTION.md") and OUTSIDE.search("../shared/papers")


def test_citation_cites_the_package_and_all_five_papers():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    titles = [ref["title"] for ref in cff["references"]]
    assert cff["type"] == "software" and len(titles) == len(PAPERS)
    for words in ("ATM-UBR service", "UBR+ Drop Policies", "Early Selective Packet Discard", "Drop from Front",
                  "Explicit Window Adaptation"):
        assert any(words in title for title in titles), words


def test_pyproject_says_what_is_reproduced():
    text = (ROOT / "pyproject.toml").read_text()
    description = re.search(r'^description = "(.*)"$', text, re.M).group(1)
    assert all(paper in description for paper in PAPERS)
