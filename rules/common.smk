# Paths and helper functions shared by the rules (PyPSA-Eur keeps them out of the rule files).
# The target lists these functions read come from the paper packages (atmtcp.papers): TABLE_TARGETS and
# FIGURE_TARGETS of each, collected below.
import glob
import os
import sys
from pathlib import Path

from atmtcp import papers

RESULTS = config["results_dir"].rstrip("/")
FIGURES = config["figures_dir"].rstrip("/")
# Each job's wall and CPU time and peak memory (Snakemake's `benchmark:` files), per mode, so that a quick
# run never overwrites what a full one measured; docs/_ext/atmtcp_docs.py shows the full ones per target.
BENCHMARKS = "logs/benchmarks/quick" if config["quick"] else "logs/benchmarks"

# Every module of the package is an input of every notebook (its figures, claims and comparison); an
# experiment's inputs are only the modules its results depend on (atmtcp.dependencies: its own module,
# what that imports, the kernel, the runner), so editing a figure or a claim re-runs no simulation, and
# editing the kernel, the model or a paper's scenario re-runs the experiments that use it.
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


def experiment_sources(wildcards):
    """The source files the results of one experiment depend on (atmtcp.dependencies), relative to the
    repository root as Snakemake's other paths."""
    from atmtcp.dependencies import experiment_sources as sources_of

    root = Path("atmtcp").resolve().parent
    return [str(p.relative_to(root)) for p in sources_of(EXPERIMENTS[wildcards.id])]


def experiment_parents(wildcards):
    """The .nc files a derived experiment reads (the runner reads them from the output's folder)."""
    return [result(parent) for parent in EXPERIMENTS[wildcards.id].parents]


def experiment_threads(wildcards):
    """config jobs_per_experiment, but no more processes than the experiment has grid points (a
    derived experiment simulates nothing: 1). Snakemake also caps it at --cores."""
    experiment = EXPERIMENTS[wildcards.id]
    points = 1 if experiment.parents else len(experiment.points(config["quick"]))
    return max(1, min(config["jobs_per_experiment"], points))


# ---- cluster resources (SLURM) ----------------------------------------------------------------
# What a job asks a cluster for comes from one place, config `resources` (config/resources.yaml): every
# rule that runs as a job declares `resources: **cluster_resources(KEY)`. tests/workflow/test_cluster.py checks
# that each such rule does (scripts/workflow_plan.py reads the `config_key` set below).
for _key in ("run_mb_of", "cpu_s_of"):
    for _id in config["resources"]["experiment"].get(_key, {}):
        if _id not in EXPERIMENTS:
            raise ValueError(f"config resources.experiment.{_key}: {_id!r} is not an experiment id")


def experiment_mem_mb(wildcards, threads, attempt):
    """MB for one experiment job: the parent and `threads` workers, each `process_mb`, plus per worker
    the arrays of the largest run (`run_mb`, or the experiment's entry in `run_mb_of`)."""
    spec = config["resources"]["experiment"]
    per_run = spec.get("run_mb_of", {}).get(wildcards.id, spec["run_mb"])
    return (spec["process_mb"] * (threads + 1) + per_run * threads) * attempt


def experiment_runtime(wildcards, threads, attempt):
    """Minutes of wall time: `runtime` in quick mode; in full mode three times the experiment's CPU time
    (`cpu_s`, or its entry in `cpu_s_of`) over the job's CPUs, plus 10, at least `runtime`."""
    spec = config["resources"]["experiment"]
    if config["quick"]:
        return spec["runtime"] * attempt
    cpu_minutes = spec.get("cpu_s_of", {}).get(wildcards.id, spec["cpu_s"]) / 60
    return max(spec["runtime"], int(3 * cpu_minutes / threads) + 10) * attempt


def cluster_resources(key):
    """A rule's `resources:` for cluster executors from config `resources[key]`: `runtime` (minutes) and
    `mem_mb`, doubled on every retry (`attempt`), and `cpus_per_task`, the rule's threads. `experiment`
    computes them per experiment (above); any other key gives its fixed `mem_mb` and `runtime`."""
    if key not in config["resources"]:
        raise ValueError(f"config resources has no entry {key!r} (config/resources.yaml)")
    spec = config["resources"][key]
    if key == "experiment":
        resources = {"mem_mb": experiment_mem_mb, "runtime": experiment_runtime}
    else:
        resources = {
            "mem_mb": lambda wildcards, attempt: spec["mem_mb"] * attempt,
            "runtime": lambda wildcards, attempt: spec["runtime"] * attempt,
        }
    resources["cpus_per_task"] = lambda wildcards, threads: threads
    for function in resources.values():
        function.config_key = key
    return resources


# ---- notebooks --------------------------------------------------------------------------------


paper_of = papers.paper_of
TABLE_TARGETS = [t for key in papers.PAPERS for t in papers.targets_of(key, kind="tables")]
FIGURE_TARGETS = [t for key in papers.PAPERS for t in papers.targets_of(key, kind="figures")]
NOTEBOOKS = papers.notebooks()
"""notebooks/{name}.ipynb -> the paper keys it renders (each paper package's NOTEBOOK)."""


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


def report_figures(*keys):
    """The PNGs of the papers `keys` (FIGURE_TARGETS), flagged for the HTML report, one category per paper."""
    # (`report(` may not open a line here: Snakemake's parser would read it as the `report:` keyword)
    flagged = [report(figure_path(target_id, "png"), caption="../report/figure.rst",
                      category=paper_of(target_id), subcategory="figures",
                      labels={"target": target_id, "title": papers.title_of(target_id)})
               for target_id in FIGURE_TARGETS if paper_of(target_id) in keys]
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
