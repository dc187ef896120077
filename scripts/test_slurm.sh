#!/usr/bin/env bash
# make test-slurm: the quick workflow through a real single-node SLURM, end to end.
#   bash scripts/test_slurm.sh                  # the default target (rule all: the papers)
#   TARGET=atlas bash scripts/test_slurm.sh     # any Snakemake targets instead (make test-slurm TARGET=atlas)
#
# 1. scripts/slurm/start.sh installs (Debian packages) and starts munge, slurmctld and slurmd for this
#    host, without accounting, in a scratch folder;
# 2. a scratch copy of the repository (the tracked files; results and figures go there, never to this
#    checkout's figures/) runs `snakemake --profile profiles/slurm $TARGET --configfile config/quick.yaml`
#    with this checkout's .venv;
# 3. checks: every job Snakemake plans for SLURM went through SLURM once (the jobs expected, by rule, are
#    read from a dry run of the same command before the run: scripts/workflow_plan.py cluster-jobs;
#    slurmctld logged one submission per job; one SLURM log per job, in each rule's folder), every
#    output exists (a dry run finds nothing to do), the report builds;
# 4. scripts/slurm/stop.sh stops the daemons it started (by their PIDs), also on failure.
# Needs root on Debian (apt-get, daemons). Prints wall time, jobs, and each experiment's peak memory.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SCRATCH="${SCRATCH:-/tmp/atmtcp-test-slurm}"
SNAKEMAKE="$ROOT/.venv/bin/snakemake"
PYTHON="$ROOT/.venv/bin/python"
read -r -a TARGETS <<< "${TARGET:-}"    # Snakemake targets; none: the default target
[ -x "$SNAKEMAKE" ] || { echo "test-slurm: run 'make setup' first ($SNAKEMAKE missing)" >&2; exit 2; }
"$ROOT/.venv/bin/pip" install -q -c "$ROOT/requirements/constraints.txt" -e "$ROOT[slurm]" 2>&1 | grep -v "^WARNING: Location" || true

start=$(date +%s)
rm -rf "$SCRATCH/repo"
mkdir -p "$SCRATCH"
trap 'bash "$ROOT/scripts/slurm/stop.sh" "$SCRATCH/slurm" || true' EXIT
bash "$ROOT/scripts/slurm/start.sh" "$SCRATCH/slurm"
export SLURM_CONF="$SCRATCH/slurm/slurm.conf"

ctl_log="$SCRATCH/slurm/log/slurmctld.log"
before=$(grep -c "_slurm_rpc_submit_batch_job: JobId=" "$ctl_log" 2>/dev/null || true)
git -C "$ROOT" ls-files -z | (cd "$ROOT" && xargs -0 tar -cf -) | (mkdir -p "$SCRATCH/repo" && tar -xf - -C "$SCRATCH/repo")
cd "$SCRATCH/repo"
RUN=(--profile profiles/slurm "${TARGETS[@]}" --configfile config/quick.yaml)   # targets before --configfile
# the jobs this run must submit, by rule: what Snakemake plans for it, less those it runs itself (`all`)
"$PYTHON" scripts/workflow_plan.py cluster-jobs "${RUN[@]}" > "$SCRATCH/expected.txt"
[ -s "$SCRATCH/expected.txt" ] || { echo "test-slurm: Snakemake plans no SLURM job for '${TARGET:-}'" >&2; exit 2; }
"$SNAKEMAKE" "${RUN[@]}" 2>&1 | tee "$SCRATCH/snakemake.log"
"$SNAKEMAKE" "${RUN[@]}" -n > "$SCRATCH/dry-run.txt" 2>&1
grep -q "Nothing to be done" "$SCRATCH/dry-run.txt" || { echo "test-slurm: outputs missing:" >&2; cat "$SCRATCH/dry-run.txt" >&2; exit 1; }
"$SNAKEMAKE" "${TARGETS[@]}" --configfile config/quick.yaml --report report-quick.html
test -s report-quick.html

expected=$(awk '{n += $2} END {print n}' "$SCRATCH/expected.txt")
jobs=$(find logs/slurm -name "*.log" | wc -l)
submitted=$(( $(grep -c "_slurm_rpc_submit_batch_job: JobId=" "$ctl_log") - before ))
echo "test-slurm: $submitted SLURM jobs submitted in this run, $jobs SLURM job logs ($expected expected," \
     "as Snakemake planned them: $(awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}' "$SCRATCH/expected.txt"))"
ok=1
[ "$submitted" -eq "$expected" ] && [ "$jobs" -eq "$expected" ] || ok=0
while read -r rule n; do   # each rule's jobs, by its SLURM logs (logs/slurm/rule_<rule>/...)
  logs=$(find "logs/slurm/rule_$rule" -name "*.log" 2>/dev/null | wc -l)
  [ "$logs" -eq "$n" ] || { echo "test-slurm: rule $rule: $logs SLURM job logs, $n planned" >&2; ok=0; }
done < "$SCRATCH/expected.txt"
[ $ok = 1 ] || { echo "test-slurm: not every job went through SLURM exactly once" >&2; exit 1; }
scontrol show job -o > "$SCRATCH/jobs.txt"
echo "per experiment: peak memory (MB, Snakemake's benchmark of the job) and the SLURM request:"
for f in logs/benchmarks/quick/experiments/*.tsv; do   # quick mode's benchmark files (rules/common.smk)
  [ -e "$f" ] || { echo "test-slurm: no benchmark files in logs/benchmarks/quick/experiments" >&2; exit 1; }
  id="$(basename "$f" .tsv)"
  request=$(grep "Comment=rule_experiment_wildcards_$id " "$SCRATCH/jobs.txt" | tail -1 \
            | grep -o "NumCPUs=[0-9]* \|MinMemoryNode=[0-9]*M\|TimeLimit=[0-9:]*" | tr '\n' ' ')
  printf "  %-34s %8s  %s\n" "$id" "$(tail -1 "$f" | cut -f3)" "$request"
done
echo "test-slurm: passed in $(( $(date +%s) - start )) s wall"
