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
# What one experiment job asks for, from the experiment itself: CPUs = its threads; memory = one
# parent and `threads` worker processes, each holding numba and the kernel, plus the largest run's
# arrays; wall time from quick or full mode and the experiment's CPU time. The measured figures come
# from `make reproduce` on the 2-core CI machine (logs/benchmarks/experiments/*.tsv, 2026-11-24, two
# workers): CPU seconds of the full grid (twice the wall time of its two busy workers; experiments under
# 20 s default) and MB per run above a worker's own 250 MB (2026-11-22). Every retry
# (`attempt`) doubles memory and time.
PROCESS_MB = 250
FULL_CPU_S = {
    # the studies of issues 22 and 24: make reproduce from a fresh clone of 2026-11-24, the machine idle
    "lakshman.buffer_study": 577, "goyal1997.satellite_study": 141, "goyal1998.sack_pipe_study": 91,
    "goyal1998.sack_lan_mechanism": 59, "goyal1998.fba_study": 51, "goyal1998.many_sources": 64,
    "goyal1998.sd_z_sweep": 40,
    # the atlas (make atlas, issue 28): its benchmark files of 2026-11-25, two workers, the machine shared
    "atlas.satellite": 188, "atlas.goyal_wan": 177, "atlas.goyal_lan": 76, "atlas.cheon_asymmetric": 75,
    "atlas.lakshman_large": 45,
    "goyal1998.ubr_sensitivity": 364, "lakshman.fig10": 122, "lakshman.fig12": 117, "goyal1998.table1": 108,
    "lakshman.fig11": 105, "goyal1998.table4": 105, "lakshman.fig7": 102, "lakshman.fig6": 96,
    "lakshman.fig3": 96, "lakshman.fig2": 95, "goyal1998.table6": 90, "goyal1997.satellite_efficiency": 88,
    "goyal1998.start_jitter": 86, "lakshman.fig13": 69, "goyal1998.fba_factorial": 35,
}
RUN_MB = {"goyal1998.table3": 1000, "goyal1998.many_sources": 400, "goyal1997.cwnd_integer_stall": 300}


def experiment_mem_mb(wildcards, threads, attempt):
    """MB for one experiment job (see above)."""
    per_run = RUN_MB.get(wildcards.id, 100)
    return (PROCESS_MB * (threads + 1) + per_run * threads) * attempt


def experiment_runtime(wildcards, threads, attempt):
    """Minutes of wall time: 15 in quick mode; in full mode three times the measured CPU time over
    the job's CPUs, at least 15 (the CI machine's cores are not a cluster node's)."""
    if config["quick"]:
        return 15 * attempt
    cpu_minutes = FULL_CPU_S.get(wildcards.id, 20) / 60
    return max(15, int(3 * cpu_minutes / threads) + 10) * attempt


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
