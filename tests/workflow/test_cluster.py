"""The cluster path without a cluster (issue 42): the SLURM profile (profiles/slurm) plans the same jobs as
a local run, and every rule whose jobs a cluster executor submits asks for the wall time, memory and CPUs
that the profile's executor reads, taken from one place, config/resources.yaml (rules/common.smk:
cluster_resources). What Snakemake plans and what each rule declares are read from Snakemake itself
(scripts/workflow_plan.py). Dry runs and parses only, a few seconds each; `make test-slurm` runs the jobs
through a real SLURM."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from workflow_plan import CLUSTER_RESOURCES, missing_resources, planned_jobs, rule_table  # noqa: E402

QUICK = ["--configfile", "config/quick.yaml"]
PROFILE = ["--profile", "profiles/slurm"]
HOW_TO_FIX = ("declare `resources: **cluster_resources(KEY)` (rules/common.smk) with an entry KEY in "
              "config/resources.yaml, or name the rule in `localrules:` if it must run beside Snakemake")


def test_the_profile_is_the_slurm_executor():
    profile = yaml.safe_load((ROOT / "profiles" / "slurm" / "config.yaml").read_text())
    assert profile["executor"] == "slurm"
    assert not {"default-resources", "set-resources"} & set(profile), "resources belong in config/resources.yaml"


@pytest.mark.parametrize("target", [[], ["atlas"]], ids=["all", "atlas"])
def test_the_slurm_profile_plans_the_same_jobs_as_a_local_run(target):
    """The same rules and job counts with profiles/slurm as without (targets before --configfile)."""
    local = planned_jobs([*target, *QUICK])
    slurm = planned_jobs([*PROFILE, *target, *QUICK])
    assert local.get("experiment", 0) > 0, local
    assert slurm == local


def test_every_rule_a_cluster_runs_takes_its_resources_from_config():
    rules = rule_table([*PROFILE, *QUICK])
    cluster = {name for name, rule in rules.items() if rule["cluster"]}
    # what Snakemake runs itself (input-only rules) is not submitted; everything with a command is
    assert {"all", "atlas"} <= set(rules) - cluster, rules
    assert {"experiment", "fidelity", "notebook_atlas", "notebook_goyal1998"} <= cluster, rules
    missing = missing_resources(rules)
    assert not missing, f"rules that run on a cluster without {', '.join(CLUSTER_RESOURCES)} from config: {missing}; {HOW_TO_FIX}"
    # every entry of config/resources.yaml is some rule's (a renamed rule leaves no stale entry)
    used = {key for name in cluster for key in rules[name]["resources"].values()}
    config = yaml.safe_load((ROOT / "config" / "resources.yaml").read_text())["resources"]
    assert used == set(config), f"entries of config/resources.yaml that no rule uses: {set(config) - used}"


def test_the_workflow_refuses_measurements_of_an_experiment_that_does_not_exist(tmp_path):
    """config/resources.yaml's per-experiment entries name experiment ids: a renamed or removed
    experiment's entry stops the workflow instead of being ignored."""
    stale = tmp_path / "stale.yaml"
    stale.write_text("resources:\n  experiment:\n    cpu_s_of:\n      goyal1998.no_such_target: 60\n")
    with pytest.raises(RuntimeError, match=r"resources.experiment.cpu_s_of: 'goyal1998.no_such_target' is not an"):
        rule_table([*QUICK, str(stale)])  # --configfile takes several files


DUMMY_RULES = '''
localrules: dummy_local


rule dummy_bare:
    output: "dummy_bare.txt"
    shell: "touch {output}"


rule dummy_typed:
    output: "dummy_typed.txt"
    resources: mem_mb=1000, runtime=15, cpus_per_task=1
    shell: "touch {output}"


rule dummy_partial:
    output: "dummy_partial.txt"
    resources: runtime=cluster_resources("fidelity")["runtime"]
    shell: "touch {output}"


rule dummy_local:
    output: "dummy_local.txt"
    shell: "touch {output}"
'''


def test_the_check_catches_a_rule_added_without_resources_from_config():
    """The check above fails for a rule with no resources, with resources typed into the rule, or with
    only some of them from config; not for a local rule. (cluster_resources is defined by the workflow,
    which these rules are read after.)"""
    rules = rule_table([*PROFILE, *QUICK], after=DUMMY_RULES)
    assert missing_resources(rules) == {
        "dummy_bare": list(CLUSTER_RESOURCES),
        "dummy_typed": list(CLUSTER_RESOURCES),
        "dummy_partial": ["mem_mb", "cpus_per_task"],
    }
    assert not rules["dummy_local"]["cluster"]
