# The whole reproduction: simulations -> data/results/{id}.nc -> notebooks -> figures/ + report.html
#
#   snakemake --cores 2                                   full runs (make reproduce)
#   snakemake --cores 2 --configfile config/quick.yaml    shortened runs, the end-to-end test (make quick)
#   snakemake --report report.html                        HTML report of the figures (make report)
#   snakemake --profile profiles/slurm                    on a SLURM cluster (see the profile)
# (targets go before --configfile, which takes several values: snakemake data/results/X.nc --configfile ...)
#
# Thin, after PyPSA-Eur: load and validate the config, include the rules by phase.
#   rules/common.smk     paths and helper functions (output names, inputs, threads)
#   rules/simulate.smk   one job per experiment id of atmtcp.experiments.EXPERIMENTS -> {results_dir}/{id}.nc
#   rules/notebooks.smk  one papermill job per paper notebook -> {figures_dir}/{paper}/
from snakemake.utils import min_version, validate

from atmtcp.experiments import EXPERIMENTS

min_version("8.0")


configfile: "config/config.yaml"


validate(config, "config/config.schema.yaml")


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/simulate.smk"
include: "rules/notebooks.smk"


rule all:
    default_target: True
    input:
        [result(target_id) for target_id in EXPERIMENTS],
        rules.notebook_goyal1998.output,
