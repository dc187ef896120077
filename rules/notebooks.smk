# Phase 2: notebooks. Each paper notebook is executed by papermill from a `shell:` directive (the
# `notebook:` directive would ignore the papermill `parameters` cell) into notebooks/executed/,
# and writes figures/{paper}/: per target id T of paper P (P = T.split(".")[0])
#   tables (TABLE_TARGETS)   {figures_dir}/P/T.md and {figures_dir}/P/T.csv
#   figures (FIGURE_TARGETS) {figures_dir}/P/T.png, which the HTML report shows (snakemake --report)
# plus, for the notebook, claims.md + claims.csv and comparison.csv (every paper number beside the
# reproduced one). The rule declares only the executed notebook, claims.md, comparison.csv and the
# PNGs, so that a table the notebook renames does not fail the run; target_outputs() (rules/common.smk)
# gives every file of a target.

# Targets the notebooks render as a table (.md + .csv) and as a figure (.png). Tables 1, 2, 4-7,
# sack_bound, fba_factorial and sd_z_sweep are both. FIGURE_TARGETS is the PNG list of the rule's outputs and
# of the report: adjust it here when a notebook adds or drops a figure.
TABLE_TARGETS = [
    *(f"goyal1998.table{n}" for n in range(1, 10)),
    "goyal1998.fba_factorial",
    "goyal1998.sd_z_sweep",
    "goyal1998.many_sources",
    "goyal1998.sack_bound",
    "goyal1998.ubr_sensitivity",
    "goyal1997.satellite_efficiency",
    "goyal1997.satellite_fairness",
]
FIGURE_TARGETS = [
    # bar charts of paper vs reproduced numbers, beside the tables
    *(f"goyal1998.table{n}" for n in (1, 2, 4, 5, 6, 7)),
    # figures proper
    "goyal1998.fig2",
    "goyal1998.fig5",
    "goyal1998.fig6",
    "goyal1998.fig7",
    "goyal1998.sack_bound",
    "goyal1998.fba_factorial",
    "goyal1998.sd_z_sweep",
    "goyal1998.ubr_sensitivity",
    "goyal1997.cwnd_integer_stall",
]
for _target in TABLE_TARGETS + FIGURE_TARGETS:
    if _target not in EXPERIMENTS:
        raise ValueError(f"rules/notebooks.smk names {_target!r}, which is not in atmtcp.experiments.EXPERIMENTS")


# notebooks/goyal1998.ipynb covers both goyal papers (the 1998 article and the 1997 slides)
GOYAL = ("goyal1998", "goyal1997")


rule notebook_goyal1998:
    message:
        "Executing notebooks/goyal1998.ipynb (quick={params.quick}) -> {output.notebook} and {FIGURES}/goyal1998/"
    input:
        notebook="notebooks/goyal1998.ipynb",
        results=[result(target_id) for target_id in paper_targets(*GOYAL)],
        reference=[f"data/reference/{paper}.csv" for paper in GOYAL],
        sources=PACKAGE_SOURCES,
    output:
        notebook="notebooks/executed/goyal1998.ipynb",
        claims=f"{FIGURES}/goyal1998/claims.md",
        comparison=f"{FIGURES}/goyal1998/comparison.csv",
        summary=f"{FIGURES}/goyal1998/summary.rst",
        claims_html=report(
            f"{FIGURES}/goyal1998/claims.html",
            caption="../report/claims.rst",
            category="goyal1998",
            subcategory="claims",
            labels={"file": "claims"},
        ),
        comparison_html=report(
            f"{FIGURES}/goyal1998/comparison.html",
            caption="../report/comparison.rst",
            category="goyal1998",
            subcategory="claims",
            labels={"file": "comparison"},
        ),
        figures=report_figures(*GOYAL),
    params:
        **notebook_parameters(),
    resources:
        # cluster executors: one CPU; numba, matplotlib and every dataset of the paper
        mem_mb=lambda wildcards, attempt: 2000 * attempt,
        runtime=lambda wildcards, attempt: 15 * attempt,
    log:
        "logs/notebooks/goyal1998.log",
    benchmark:
        "logs/benchmarks/notebooks/goyal1998.tsv"
    shell:
        "{PAPERMILL} {input.notebook} {output.notebook}"
        " -p results_dir {params.results_dir} -p figures_dir {params.figures_dir} -p quick {params.quick}"
        " -p run_missing {params.run_missing}"
        " --cwd notebooks -k python3 > {log} 2>&1"
