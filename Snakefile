# The whole reproduction: simulations -> data/results/{id}.nc -> notebooks -> figures/ + report.html
#
#   snakemake --cores 2                                   full runs (make reproduce)
#   snakemake --cores 2 --configfile config/quick.yaml    shortened runs, the end-to-end test (make quick)
#   snakemake --report report.html                        HTML report of the figures (make report)
#     --report-stylesheet report/report.css               (as make report: the report opens at its top)
#   snakemake --profile profiles/slurm                    on a SLURM cluster (see the profile)
# (targets go before --configfile, which takes several values: snakemake data/results/X.nc --configfile ...)
#
# Thin, after PyPSA-Eur: load and validate the config, include the rules by phase.
#   rules/common.smk     paths and helper functions (output names, inputs, threads, cluster resources)
#   rules/simulate.smk   one job per experiment id of atmtcp.experiments.EXPERIMENTS -> {results_dir}/{id}.nc
#   rules/notebooks.smk  one papermill job per notebook of the paper packages (atmtcp.papers)
#                        -> {figures_dir}/{paper}/; then notebooks/fidelity.ipynb -> {figures_dir}/fidelity.md
#   rules/atlas.smk      the atlas (atlas.* targets, notebooks/atlas.ipynb -> {figures_dir}/atlas/): not in `all`;
#                        `snakemake atlas` (make atlas) builds it
#   rules/validation.smk the cross-check with ns-3 (validation.* targets -> {figures_dir}/validation/): not in
#                        `all`; `snakemake validate` (make validate, which first installs the extra) builds it
import sys

# jsonschema (`validate` below) builds the IRI grammar of rfc3987-syntax at import when that package is
# installed (jupyter brings it): 2.9 s of every Snakemake start (cProfile of a dry run), for formats that
# config/config.schema.yaml does not use. Hidden before jsonschema is imported, it is not built.
sys.modules.setdefault("rfc3987_syntax", None)

from snakemake.utils import min_version, validate  # noqa: E402

from atmtcp.experiments import EXPERIMENTS, PAPER_EXPERIMENTS

min_version("8.0")


configfile: "config/config.yaml"
configfile: "config/resources.yaml"  # what each job asks a cluster for


validate(config, "config/config.schema.yaml")


def report_front_page():
    """report/workflow.rst, the fidelity page (fidelity.rst) and each paper's summary.rst (written by
    the notebooks), so that the report opens on how close the reproduction comes, then the targets,
    the differences from the papers and the claims."""
    from pathlib import Path

    parts = [Path("report/workflow.rst").read_text()]
    fidelity = Path(config["figures_dir"]) / "fidelity.rst"
    parts += [fidelity.read_text()] if fidelity.exists() else []
    parts += [p.read_text() for p in sorted(Path(config["figures_dir"]).glob("*/summary.rst"))]
    if len(parts) == 1:
        return "report/workflow.rst"
    landing = Path(".snakemake/report-front-page.rst")
    landing.parent.mkdir(exist_ok=True)
    landing.write_text("\n\n".join(parts))
    return str(landing)


report: report_front_page()


include: "rules/common.smk"
include: "rules/simulate.smk"
include: "rules/notebooks.smk"
include: "rules/atlas.smk"
include: "rules/validation.smk"


rule all:
    default_target: True
    input:
        [result(target_id) for target_id in PAPER_EXPERIMENTS],
        [getattr(rules, f"notebook_{name}").output for name in NOTEBOOKS],
        rules.fidelity.output,
