# The validation (issue 37, atmtcp.validation, docs/validation.md): the papers' scenarios in an independent
# simulator (ns-3; YATS for goyal_yats and cheon_yats) beside ours, outside `rule all` (`make reproduce`). `make validate` installs
# the optional extra `validate` (the ns3 wheel), then builds one experiment job per scenario (validation.<scenario>,
# through rules/simulate.smk's experiment rule: both sides, 10 seeds each), then the table and the figures in
# {figures_dir}/validation/. The YATS scenarios run only when $ATMTCP_YATS names a built YATS (`make validate
# YATS=<prefix>`); otherwise their rows are carried over from the last table (the Makefile copies it to
# {results_dir}/validation.carried.csv) and the table step says so in one line.
from atmtcp.experiments import STUDY_EXPERIMENTS
from atmtcp.validation import yats as validation_yats
from atmtcp.validation.scenarios import SCENARIOS as VALIDATION_SCENARIOS

YATS_SKIPPED = validation_yats.skip_reason()
VALIDATION_KEYS = [k for k, s in VALIDATION_SCENARIOS.items() if not (YATS_SKIPPED and s.peer_name == "YATS")]
VALIDATION_TARGETS = [t for t in STUDY_EXPERIMENTS if t.startswith("validation.") and t.split(".", 1)[1] in VALIDATION_KEYS]
PYTHON = tool("python")


rule validation_table:
    message:
        "Comparing the paper, atmtcp and the peers -> {FIGURES}/validation/" + (f"\n{YATS_SKIPPED}" if YATS_SKIPPED else "")
    input:
        results=[result(t) for t in VALIDATION_TARGETS],
        sources=PACKAGE_SOURCES,
    output:
        csv=f"{FIGURES}/validation/validation.csv",
        md=f"{FIGURES}/validation/validation.md",
        figures=[f"{FIGURES}/validation/validation.{key}.png" for key in VALIDATION_KEYS],
    params:
        quick="--quick" if config["quick"] else "",
    resources:
        **cluster_resources("validation_table"),
    log:
        "logs/validation/table.log",
    shell:
        "{PYTHON} -m atmtcp.validation.compare --results-dir {RESULTS} --figures-dir {FIGURES} {params.quick}"
        " --carry-over {RESULTS}/validation.carried.csv"
        " > {log} 2>&1"


rule validate:
    input:
        rules.validation_table.output,
