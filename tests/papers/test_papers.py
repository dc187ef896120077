"""atmtcp.papers: the registry finds every paper package, and what each declares holds together
(its targets, claims, notebook and reference numbers), so that the CLI, the workflow and the
notebooks need no list of papers."""
from __future__ import annotations

from pathlib import Path

import pytest

from atmtcp.claims import Claim
from atmtcp.experiment import Experiment
from atmtcp.papers import EXPERIMENTS, PAPERS, notebooks, paper_of, title_of

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_found_in_order():
    """Each folder of atmtcp/papers/ with an __init__.py is a paper, in its ORDER."""
    folders = {p.parent.name for p in (ROOT / "atmtcp" / "papers").glob("*/__init__.py")}
    assert set(PAPERS) == folders
    assert list(PAPERS)[:3] == ["goyal1998", "goyal1997", "cheon"]
    orders = [paper.ORDER for paper in PAPERS.values()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


@pytest.mark.parametrize("key", list(PAPERS))
def test_paper_declares_the_interface(key):
    """EXPERIMENTS, CLAIMS, NOTEBOOK, TABLE_TARGETS, FIGURE_TARGETS of the paper's own ids; a notebook
    and a reference CSV of that name; every target rendered is an experiment or titled."""
    paper = PAPERS[key]
    assert all(isinstance(e, Experiment) and paper_of(e.id) == key for e in paper.EXPERIMENTS)
    assert all(isinstance(c, Claim) and c.paper == key for c in paper.CLAIMS)
    assert all(paper_of(t) == key for t in [*paper.TABLE_TARGETS, *paper.FIGURE_TARGETS])
    assert all(t in EXPERIMENTS or title_of(t) != t for t in [*paper.TABLE_TARGETS, *paper.FIGURE_TARGETS])
    assert (ROOT / "notebooks" / f"{paper.NOTEBOOK}.ipynb").exists()
    assert (ROOT / "data" / "reference" / f"{key}.csv").exists()


def test_registry_holds_every_experiment_once():
    """EXPERIMENTS is every paper's experiments, keyed by id, none twice."""
    ids = [e.id for paper in PAPERS.values() for e in paper.EXPERIMENTS]
    assert len(ids) == len(set(ids)) == len(EXPERIMENTS)
    assert list(EXPERIMENTS) == ids


def test_goyal_notebook_renders_both_goyal_papers():
    """goyal1997 (the slides) is rendered by goyal1998's notebook, after goyal1998."""
    assert notebooks()["goyal1998"] == ("goyal1998", "goyal1997")
    assert set(notebooks()) == {paper.NOTEBOOK for paper in PAPERS.values()}
