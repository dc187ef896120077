"""The jobs and rules of the Snakemake workflow, read from Snakemake itself (issue 42), so that no second
list of ids, rules or counts can drift from the Snakefile. From the repository root:

    .venv/bin/python scripts/workflow_plan.py cluster-jobs [ARGS...]   # "rule count" lines: the jobs a
                                                                      # cluster executor submits
    .venv/bin/python scripts/workflow_plan.py rules [ARGS...]          # JSON: each rule, whether a cluster
                                                                      # executor submits it, its resources

ARGS are the targets and options of a run, e.g. ``atlas --configfile config/quick.yaml --profile
profiles/slurm`` (targets before ``--configfile``). ``scripts/test_slurm.sh`` takes the jobs it expects from
``cluster-jobs``; ``tests/workflow/test_cluster.py`` checks the profile and the rules' resources with both.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the snakemake of the environment running this script (.venv/bin/snakemake next to .venv/bin/python)
SNAKEMAKE = Path(sys.executable).parent / "snakemake"
CLUSTER_RESOURCES = ("runtime", "mem_mb", "cpus_per_task")
"""What profiles/slurm's executor reads from a job: wall time (minutes), memory (MB) and CPUs."""

# Appended to the workflow: one line of JSON describing every rule, printed while Snakemake parses.
# A rule is submitted to a cluster unless Snakemake runs it itself: a rule with nothing to run (`all`,
# `atlas`: input only) or one named in `localrules:`. `config_key` is the key of config `resources`
# a resource was made from (rules/common.smk: cluster_resources), None for one written in the rule.
_REPORTER = '''
import json as _json


def _config_key(resource):
    function = getattr(resource, "_evaluator", resource)  # Snakemake 9 wraps each value in a Resource
    return getattr(function, "config_key", None)


print("WORKFLOW-RULES " + _json.dumps({
    _rule.name: {
        "cluster": not (_rule.norun or _rule.name in getattr(workflow, "_localrules", ())),
        "resources": {name: _config_key(value) for name, value in _rule.resources.items()
                      if not name.startswith("_") and name != "tmpdir"},
    }
    for _rule in workflow.rules
}))
'''


def snakemake(args, snakefile: Path | None = None, cwd: Path = ROOT) -> str:
    """Run snakemake with ``args`` (and ``--nolock``, so that it may run beside a real run); its output."""
    command = [str(SNAKEMAKE), "--nolock", *args]
    if snakefile is not None:
        command += ["--snakefile", str(snakefile), "--directory", str(cwd)]
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed (exit {result.returncode}):\n{output}")
    return output


def job_stats(output: str) -> dict[str, int]:
    """The first "Job stats:" table of a dry run: rule -> planned jobs (without the total)."""
    if "Job stats:" not in output:
        return {}  # nothing to be done
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    rows = re.finditer(r"^(?P<rule>\w+)\s+(?P<count>\d+)$", table, re.M)
    return {m["rule"]: int(m["count"]) for m in rows if m["rule"] != "total"}


def planned_jobs(args=(), cwd: Path = ROOT, forceall: bool = True) -> dict[str, int]:
    """rule -> jobs that ``snakemake ARGS`` plans (a dry run; with ``forceall`` whatever exists on disk)."""
    return job_stats(snakemake(["--dry-run", *(["--forceall"] if forceall else []), *args], cwd=cwd))


def rule_table(args=(), cwd: Path = ROOT, after: str = "") -> dict[str, dict]:
    """Every rule of the workflow (parsed with ``args``): whether a cluster executor submits its jobs, and
    the resources it declares, each with the config key it comes from. ``after``: Snakefile text read
    after the workflow (tests/workflow/test_cluster.py adds rules with it)."""
    main = (cwd / "Snakefile").resolve()
    with tempfile.TemporaryDirectory(prefix="workflow-plan-") as folder:
        wrapper = Path(folder) / "Snakefile"
        wrapper.write_text(f"include: {str(main)!r}\n{after}\n{_REPORTER}")
        output = snakemake(["--list-rules", *args], snakefile=wrapper, cwd=cwd)
    line = next(line for line in output.splitlines() if line.startswith("WORKFLOW-RULES "))
    return json.loads(line.removeprefix("WORKFLOW-RULES "))


def missing_resources(rules: dict[str, dict]) -> dict[str, list[str]]:
    """rule -> the cluster resources (CLUSTER_RESOURCES) it does not take from config, for every rule a
    cluster executor submits."""
    missing = {}
    for name, rule in rules.items():
        absent = [r for r in CLUSTER_RESOURCES if rule["resources"].get(r) is None]
        if rule["cluster"] and absent:
            missing[name] = absent
    return missing


def cluster_jobs(args=(), cwd: Path = ROOT, forceall: bool = True) -> dict[str, int]:
    """rule -> jobs of ``snakemake ARGS`` that a cluster executor submits (planned jobs of cluster rules)."""
    rules = rule_table(args, cwd=cwd)
    return {rule: n for rule, n in planned_jobs(args, cwd=cwd, forceall=forceall).items() if rules[rule]["cluster"]}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("cluster-jobs", "rules"):
        print(__doc__, file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    if command == "rules":
        print(json.dumps(rule_table(args, cwd=Path.cwd()), indent=1))
    else:
        for rule, n in cluster_jobs(args, cwd=Path.cwd(), forceall=False).items():
            print(rule, n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
