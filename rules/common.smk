# Paths and helper functions shared by the rules (PyPSA-Eur keeps them out of the rule files).
# The target lists these functions read (TABLE_TARGETS, FIGURE_TARGETS) are in rules/notebooks.smk.
import glob
import os
import sys
from pathlib import Path

RESULTS = config["results_dir"].rstrip("/")
FIGURES = config["figures_dir"].rstrip("/")

# Every module of the package is an input of every simulation: the numba kernel is part of the
# result, so editing it re-runs the experiments (and then the notebooks).
PACKAGE_SOURCES = sorted(glob.glob("atmtcp/**/*.py", recursive=True))


def tool(name):
    """The executable `name` of the environment running Snakemake (the .venv/bin/ next to its Python),
    so that `.venv/bin/snakemake` works without activating the venv; else `name` from PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else name


# Globals used in the shell commands, not params: moving the venv must not re-run the simulations.
ATMTCP = tool("atmtcp")
PAPERMILL = tool("papermill")


# ---- simulations ------------------------------------------------------------------------------


def result(target_id):
    """The netCDF file of one experiment: {results_dir}/{id}.nc."""
    return f"{RESULTS}/{target_id}.nc"


def experiment_parents(wildcards):
    """The .nc files a derived experiment reads (the runner reads them from the output's folder)."""
    return [result(parent) for parent in EXPERIMENTS[wildcards.id].parents]


def experiment_threads(wildcards):
    """config jobs_per_experiment, but no more processes than the experiment has grid points (a
    derived experiment simulates nothing: 1). Snakemake also caps it at --cores."""
    experiment = EXPERIMENTS[wildcards.id]
    points = 1 if experiment.parents else len(experiment.points(config["quick"]))
    return max(1, min(config["jobs_per_experiment"], points))


# ---- notebooks --------------------------------------------------------------------------------


def paper_of(target_id):
    """The paper key of a target id: goyal1998.table1 -> goyal1998."""
    return target_id.split(".")[0]


def paper_targets(*papers):
    """The target ids of the given paper keys, in EXPERIMENTS order."""
    return [target_id for target_id in EXPERIMENTS if paper_of(target_id) in papers]


def figure_path(target_id, extension):
    """{figures_dir}/{paper}/{id}.{extension}, e.g. figures/goyal1998/goyal1998.table1.md."""
    return f"{FIGURES}/{paper_of(target_id)}/{target_id}.{extension}"


def target_outputs(target_id):
    """Every file the notebooks write for one target id (tables: .md and .csv; figures: .png)."""
    outputs = []
    if target_id in TABLE_TARGETS:
        outputs += [figure_path(target_id, "md"), figure_path(target_id, "csv")]
    if target_id in FIGURE_TARGETS:
        outputs.append(figure_path(target_id, "png"))
    return outputs


def report_figures(*papers):
    """The PNGs of `papers` (FIGURE_TARGETS), flagged for the HTML report, one category per paper."""
    # (`report(` may not open a line here: Snakemake's parser would read it as the `report:` keyword)
    flagged = [report(figure_path(target_id, "png"), caption="../report/figure.rst",
                      category=paper_of(target_id), subcategory="figures",
                      labels={"target": target_id, "title": EXPERIMENTS[target_id].title})
               for target_id in FIGURE_TARGETS if paper_of(target_id) in papers]
    return flagged


def notebook_parameters():
    """papermill parameters; papermill runs the notebook with --cwd notebooks, so the paths are
    relative to notebooks/ (../data/results, ../figures)."""
    return {
        "results_dir": os.path.relpath(RESULTS, "notebooks"),
        "figures_dir": os.path.relpath(FIGURES, "notebooks"),
        "quick": str(bool(config["quick"])),  # papermill -p reads True/False as a bool
        # every .nc file is an input of the rule: the notebook must not simulate a missing one itself
        "run_missing": "False",
    }
