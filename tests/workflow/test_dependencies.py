"""atmtcp.dependencies: an experiment's results depend on its own modules, what they import, the kernel and
the runner; never on figures, claims, the comparison or the fidelity page. The grid-point cache key follows
(both directions tested on a copy of the package)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from atmtcp.dependencies import PACKAGE_DIR, experiment_hash, experiment_sources, imported_modules
from atmtcp.experiments import EXPERIMENTS

NEVER = ("figures.py", "claims.py", "reference.py", "statistics.py", "fidelity.py", "comparison.py", "sensitivity.py",
         "cli.py", "bench.py")
"""Files no experiment's results may depend on: what reads results, and the command line."""


def _names(experiment):
    return {str(p.relative_to(PACKAGE_DIR)) for p in experiment_sources(experiment)}


@pytest.mark.parametrize("target", sorted(EXPERIMENTS))
def test_no_experiment_depends_on_what_reads_results(target):
    names = _names(EXPERIMENTS[target])
    assert not {n for n in names if n.rsplit("/", 1)[-1] in NEVER}, target
    assert {"runner.py", "model.py", "kernel/engine.py", "kernel/tcp.py"} <= names


def test_each_paper_depends_on_its_own_scenario_only():
    goyal, cheon, lakshman = (_names(EXPERIMENTS[t]) for t in ("goyal1998.table1", "cheon.table1", "lakshman.fig2"))
    assert "papers/goyal1998/scenario.py" in goyal and "papers/goyal1998/experiments.py" in goyal
    assert "papers/cheon/scenario.py" in cheon and "papers/goyal1998/scenario.py" not in cheon
    assert "papers/lakshman/scenario.py" in lakshman and "papers/cheon/scenario.py" not in lakshman
    assert "papers/goyal1998/experiments.py" in _names(EXPERIMENTS["goyal1997.satellite_efficiency"])


def test_imports_are_read_from_the_source():
    """Relative imports resolve to modules, a submodule imported from its package to itself."""
    found = imported_modules(PACKAGE_DIR / "papers" / "goyal1998" / "experiments.py")
    assert {"atmtcp.model", "atmtcp.simulate", "atmtcp.papers.goyal1998.scenario", "atmtcp.experiment"} <= found
    assert "atmtcp" not in found and "atmtcp.papers.goyal1998.claims" not in found


def test_the_cache_key_follows_the_dependencies(tmp_path):
    """On a copy of the package: editing a figure module or a claim keeps goyal1998.table1's hash; editing
    its scenario module or the kernel changes it; editing goyal's scenario leaves cheon's alone."""
    root = tmp_path / "atmtcp"
    shutil.copytree(PACKAGE_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    table1, cheon = EXPERIMENTS["goyal1998.table1"], EXPERIMENTS["cheon.table1"]
    before = experiment_hash(table1, root), experiment_hash(cheon, root)
    assert before[0] == experiment_hash(table1)  # the copy hashes as the package does

    def edit(relative: str) -> None:
        path = root / relative
        path.write_text(path.read_text() + "\n# an edit\n")

    edit("papers/goyal1998/figures.py")
    edit("papers/goyal1998/claims.py")
    assert (experiment_hash(table1, root), experiment_hash(cheon, root)) == before
    edit("papers/goyal1998/scenario.py")
    assert experiment_hash(table1, root) != before[0] and experiment_hash(cheon, root) == before[1]
    edit("kernel/tcp.py")
    assert experiment_hash(cheon, root) != before[1]


def test_a_first_compile_is_announced(tmp_path, monkeypatch):
    """The JIT with an empty numba cache announces the compile; a filled cache or the ahead-of-time
    module does not."""
    from atmtcp.simulate import COMPILE_NOTICE, compile_notice

    monkeypatch.delenv("ATMTCP_NO_CACHE", raising=False)
    assert compile_notice("jit", tmp_path) == COMPILE_NOTICE
    assert compile_notice("aot", tmp_path) is None
    (tmp_path / "kernel_0").mkdir()  # numba keeps its index files in a folder per source tree
    (tmp_path / "kernel_0" / "engine.run_until_end-1.py311.nbi").write_bytes(b"")
    assert compile_notice("jit", tmp_path) is None
    monkeypatch.setenv("ATMTCP_NO_CACHE", "1")
    assert compile_notice("jit", tmp_path) == COMPILE_NOTICE
