# Phase 2: notebooks. One papermill job per notebook of the paper packages (atmtcp.papers: each
# paper's NOTEBOOK; notebooks/goyal1998.ipynb renders goyal1998 and goyal1997), executed from a
# `shell:` directive (the `notebook:` directive would ignore the papermill `parameters` cell) into
# notebooks/executed/. A notebook writes, per target id T of a paper P it renders:
#   tables (P's TABLE_TARGETS)   {figures_dir}/P/T.md and {figures_dir}/P/T.csv
#   figures (P's FIGURE_TARGETS) {figures_dir}/P/T.png, which the HTML report shows (snakemake --report)
# plus, in {figures_dir}/{notebook}/, claims.md + claims.csv, comparison.csv (every paper number beside
# the reproduced one), summary.rst and their HTML. The rule declares the executed notebook, those and
# the PNGs, so that a table the notebook renames does not fail the run; target_outputs()
# (rules/common.smk) gives every file of a target. Nothing here names a paper: a new paper package
# with a NOTEBOOK gets its rule.

for _target in TABLE_TARGETS + FIGURE_TARGETS:
    if _target not in EXPERIMENTS and papers.title_of(_target) == _target:
        raise ValueError(f"{_target!r} is listed by its paper package but is neither an experiment nor titled")


def notebook_inputs(name):
    keys = NOTEBOOKS[name]
    return {
        "notebook": f"notebooks/{name}.ipynb",
        "results": [result(target_id) for target_id in papers.targets_of(*keys)],
        "reference": [f"data/reference/{key}.csv" for key in keys],
        "sources": PACKAGE_SOURCES,
    }


for _name, _keys in NOTEBOOKS.items():

    rule:
        name:
            f"notebook_{_name}"
        message:
            f"Executing notebooks/{_name}.ipynb (quick={{params.quick}}) -> {{output.notebook}} and {FIGURES}/"
        input:
            **notebook_inputs(_name),
        output:
            notebook=f"notebooks/executed/{_name}.ipynb",
            claims=f"{FIGURES}/{_name}/claims.md",
            claims_csv=f"{FIGURES}/{_name}/claims.csv",
            comparison=f"{FIGURES}/{_name}/comparison.csv",
            summary=f"{FIGURES}/{_name}/summary.rst",
            claims_html=report(
                f"{FIGURES}/{_name}/claims.html",
                caption="../report/claims.rst",
                category=_name,
                subcategory="claims",
                labels={"file": "claims"},
            ),
            comparison_html=report(
                f"{FIGURES}/{_name}/comparison.html",
                caption="../report/comparison.rst",
                category=_name,
                subcategory="claims",
                labels={"file": "comparison"},
            ),
            figures=report_figures(*_keys),
        params:
            **notebook_parameters(),
        resources:
            # for cluster executors: one CPU, memory and time from config/resources.yaml
            **cluster_resources("notebook"),
        log:
            f"logs/notebooks/{_name}.log",
        benchmark:
            f"{BENCHMARKS}/notebooks/{_name}.tsv"
        shell:
            "{PAPERMILL} {input.notebook} {output.notebook}"
            " -p results_dir {params.results_dir} -p figures_dir {params.figures_dir} -p quick {params.quick}"
            " -p run_missing {params.run_missing}"
            " --cwd notebooks -k python3 > {log} 2>&1"


# Phase 3: the fidelity page. notebooks/fidelity.ipynb reads every paper notebook's comparison.csv and
# claims.csv (no simulation data) and writes {figures_dir}/fidelity.md, .csv and .rst; the report's first
# page shows the .rst (Snakefile: report_front_page).
rule fidelity:
    message:
        "Executing notebooks/fidelity.ipynb -> {output.page}"
    input:
        notebook="notebooks/fidelity.ipynb",
        comparisons=[f"{FIGURES}/{name}/comparison.csv" for name in NOTEBOOKS],
        claims=[f"{FIGURES}/{name}/claims.csv" for name in NOTEBOOKS],
        sources=PACKAGE_SOURCES,
    output:
        notebook="notebooks/executed/fidelity.ipynb",
        page=f"{FIGURES}/fidelity.md",
        findings=f"{FIGURES}/fidelity.csv",
        rst=f"{FIGURES}/fidelity.rst",
    params:
        figures_dir=os.path.relpath(FIGURES, "notebooks"),
        quick=str(bool(config["quick"])),
    resources:
        **cluster_resources("fidelity"),
    log:
        "logs/notebooks/fidelity.log",
    benchmark:
        f"{BENCHMARKS}/notebooks/fidelity.tsv"
    shell:
        "{PAPERMILL} {input.notebook} {output.notebook}"
        " -p figures_dir {params.figures_dir} -p quick {params.quick}"
        " --cwd notebooks -k python3 > {log} 2>&1"
