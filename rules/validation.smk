# The validation (issue 37, atmtcp.validation, docs/validation.md): the papers' scenarios in an independent
# simulator (ns-3) beside ours, outside `rule all` (`make reproduce`). `make validate` installs the optional
# extra `validate` (the ns3 wheel), then builds one experiment job per scenario (validation.<scenario>, through
# rules/simulate.smk's experiment rule: both sides, 10 seeds each), then the table and the figures in
# {figures_dir}/validation/.
from atmtcp.experiments import STUDY_EXPERIMENTS
from atmtcp.validation.scenarios import SCENARIOS as VALIDATION_SCENARIOS

VALIDATION_TARGETS = [t for t in STUDY_EXPERIMENTS if t.startswith("validation.")]
PYTHON = tool("python")


rule validation_table:
    message:
        "Comparing the paper, atmtcp and ns-3 -> {FIGURES}/validation/"
    input:
        results=[result(t) for t in VALIDATION_TARGETS],
        sources=PACKAGE_SOURCES,
    output:
        csv=f"{FIGURES}/validation/validation.csv",
        md=f"{FIGURES}/validation/validation.md",
        figures=[f"{FIGURES}/validation/validation.{key}.png" for key in VALIDATION_SCENARIOS],
    params:
        quick="--quick" if config["quick"] else "",
    resources:
        **cluster_resources("validation_table"),
    log:
        "logs/validation/table.log",
    shell:
        "{PYTHON} -m atmtcp.validation.compare --results-dir {RESULTS} --figures-dir {FIGURES} {params.quick}"
        " > {log} 2>&1"


rule validate:
    input:
        rules.validation_table.output,
