# Phase 1: simulations. One job per target id of atmtcp.experiments.EXPERIMENTS, each writing
# {results_dir}/{id}.nc with `atmtcp experiment` (atomic write: a killed job leaves no file that
# looks complete). Its progress bar goes to logs/experiments/{id}.log, and a line with the points
# done and an ETA to the console every `progress_s` seconds. Derived targets (EXPERIMENTS[id].parents,
# e.g. goyal1998.table2 <- table1) run after their parents and only read their files.
import re


wildcard_constraints:
    # only the known ids, so that no other .nc file (or a typo) matches this rule
    id="|".join(re.escape(target_id) for target_id in EXPERIMENTS),


rule experiment:
    message:
        "Simulating {wildcards.id} ({threads} processes) -> {output.nc}"
    input:
        sources=experiment_sources,
        parents=experiment_parents,
    output:
        nc=f"{RESULTS}/{{id}}.nc",
    params:
        # a parameter, so Snakemake re-runs the job when switching between quick and full runs
        quick="--quick" if config["quick"] else "",
        # a line "done/total points, ETA" on the console every this many seconds; the bar goes to the log
        progress=config["progress_s"],
    threads: experiment_threads
    resources:
        # for cluster executors (profiles/slurm), from config/resources.yaml; a local run counts only threads
        **cluster_resources("experiment"),
    log:
        "logs/experiments/{id}.log",
    benchmark:
        f"{BENCHMARKS}/experiments/{{id}}.tsv"
    shell:
        "{ATMTCP} experiment {wildcards.id} --output {output.nc} {params.quick} --jobs {threads}"
        " --progress {params.progress} 2> {log}"
