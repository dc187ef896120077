"""The Snakemake workflow plans the whole reproduction (dry run) for config/config.yaml and for the
quick end-to-end config/quick.yaml: one experiment job per target id, one notebook job, and the
quick flag reaching both `atmtcp experiment` and papermill. Dry runs only: a few seconds each."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from atmtcp.experiments import PAPER_EXPERIMENTS, STUDY_EXPERIMENTS
from atmtcp.papers import notebooks

ROOT = Path(__file__).resolve().parents[2]
# the snakemake of the environment running the tests (.venv/bin/snakemake next to .venv/bin/python)
SNAKEMAKE = Path(sys.executable).parent / "snakemake"

EXPERIMENT_COMMAND = re.compile(
    r"atmtcp experiment (?P<id>\S+) --output (?P<output>\S+) +(?P<quick>--quick +)?--jobs (?P<jobs>\d+)"
)
PAPERMILL_COMMAND = re.compile(r"papermill notebooks/(?P<notebook>\S+)\.ipynb .* -p quick (?P<quick>True|False)")


def dry_run(*args: str) -> str:
    """`snakemake --dry-run --forceall` from the repository root (everything planned, whatever
    already exists on disk; --nolock so that it may run beside a real run)."""
    command = [str(SNAKEMAKE), "--dry-run", "--forceall", "--nolock", "--printshellcmds", *args]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{output}"
    return output


def job_stats(output: str) -> dict[str, int]:
    """The first "Job stats:" table of a dry run: rule name -> planned jobs."""
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    return {m["rule"]: int(m["count"]) for m in re.finditer(r"^(?P<rule>\w+)\s+(?P<count>\d+)$", table, re.M)}


@pytest.mark.parametrize("quick", [False, True], ids=["config.yaml", "quick.yaml"])
def test_dry_run_plans_every_experiment_and_the_notebook(quick):
    output = dry_run(*(["--configfile", "config/quick.yaml"] if quick else []))

    stats = job_stats(output)
    names = notebooks()
    assert set(names) == {"goyal1998", "cheon", "lakshman", "ewa"}  # discovered from the paper packages
    # the papers' targets only: the atlas (STUDY_EXPERIMENTS) is `make atlas`, not `make reproduce`
    assert stats.get("experiment") == len(PAPER_EXPERIMENTS), stats
    assert "notebook_atlas" not in stats and "atlas" not in stats, stats
    for name in names:
        assert stats.get(f"notebook_{name}") == 1, stats
    assert stats.get("fidelity") == 1, stats  # the fidelity page, after every paper notebook
    assert stats.get("all") == 1, stats
    assert stats.get("total") == len(PAPER_EXPERIMENTS) + len(names) + 2, stats

    commands = [m.groupdict() for m in EXPERIMENT_COMMAND.finditer(output)]
    assert sorted(c["id"] for c in commands) == sorted(PAPER_EXPERIMENTS)
    for c in commands:
        assert c["output"] == (f"data/results/quick/{c['id']}.nc" if quick else f"data/results/{c['id']}.nc")
        assert bool(c["quick"]) is quick, c
        assert int(c["jobs"]) >= 1

    executed = sorted((m["notebook"], m["quick"]) for m in PAPERMILL_COMMAND.finditer(output))
    assert executed == sorted((name, str(quick)) for name in [*names, "fidelity"])


@pytest.mark.parametrize("quick", [False, True], ids=["config.yaml", "quick.yaml"])
def test_the_atlas_target_plans_one_job_per_scenario_then_the_grid_and_its_notebook(quick):
    """`snakemake atlas` (make atlas): one experiment job per atlas target (a cluster job per scenario), the
    notebook, and the quick flag reaching both; no paper's target."""
    output = dry_run("atlas", *(["--configfile", "config/quick.yaml"] if quick else []))
    stats = job_stats(output)
    atlas = [t for t in STUDY_EXPERIMENTS if t.startswith("atlas.")]
    assert stats == {"experiment": len(atlas), "notebook_atlas": 1, "atlas": 1, "total": len(atlas) + 2}, stats
    commands = [m.groupdict() for m in EXPERIMENT_COMMAND.finditer(output)]
    assert sorted(c["id"] for c in commands) == sorted(atlas)
    assert all(bool(c["quick"]) is quick for c in commands)
    assert [(m["notebook"], m["quick"]) for m in PAPERMILL_COMMAND.finditer(output)] == [("atlas", str(quick))]


def test_the_validate_target_plans_one_job_per_scenario_then_the_table():
    """`snakemake validate` (make validate): one experiment job per validation scenario, then the table; no
    paper's or atlas's target."""
    from atmtcp.validation import yats
    from atmtcp.validation.scenarios import SCENARIOS
    output = dry_run("validate")
    skipped = yats.skip_reason()   # the YATS scenarios run only with $ATMTCP_YATS naming a built YATS
    validation = [t for t in STUDY_EXPERIMENTS if t.startswith("validation.")
                  and not (skipped and SCENARIOS[t.split(".", 1)[1]].peer_name == "YATS")]
    assert len(validation) >= 4
    assert (skipped in output) if skipped else ("YATS: skipped" not in output)
    assert job_stats(output) == {"experiment": len(validation), "validation_table": 1, "validate": 1,
                                 "total": len(validation) + 2}
    assert sorted(m["id"] for m in EXPERIMENT_COMMAND.finditer(output)) == sorted(validation)


def test_an_experiment_job_reads_only_the_sources_its_results_depend_on():
    """The experiment rule's inputs are atmtcp.dependencies.experiment_sources (and the parents' files),
    not every module: the notebooks' inputs are."""
    rule = (ROOT / "rules" / "simulate.smk").read_text()
    assert "sources=experiment_sources," in rule and "PACKAGE_SOURCES" not in rule
    assert "sources=PACKAGE_SOURCES" in (ROOT / "rules" / "notebooks.smk").read_text()


def test_make_validate_makes_missing_results_although_the_tracked_table_exists(tmp_path):
    """A fresh clone has figures/validation/ (tracked) and no results: Snakemake alone finds the table up to
    date and does nothing. `make validate`'s own Snakemake arguments (read from the Makefile) must plan every
    validation experiment into an empty results folder, then the table."""
    recipe = re.search(r"^validate:.*?\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M).group(1)
    line = next(x for x in recipe.splitlines() if "$(SNAKEMAKE) validate" in x)
    args = re.sub(r"\$\(if \$\(QUICK\)[^)]*\)", "", line.split("$(SNAKEMAKE)", 1)[1]).split()
    results, figures = tmp_path / "results", tmp_path / "figures"
    results.mkdir()
    # copies newer than every source, as a fresh clone's checkout leaves them
    shutil.copytree(ROOT / "figures" / "validation", figures / "validation", copy_function=shutil.copy)
    command = [str(SNAKEMAKE), "--dry-run", "--nolock", "--printshellcmds", *args,
               "--config", f"results_dir={results}", f"figures_dir={figures}"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Nothing to be done" not in output
    stats = job_stats(output)
    assert stats.get("experiment", 0) >= 4 and stats.get("validation_table") == 1, stats
