#!/usr/bin/env bash
# Stop the daemons scripts/slurm/start.sh started in SCRATCH (default /tmp/atmtcp-slurm), by the PIDs
# recorded in SCRATCH/run/: slurmd, slurmctld, then munged. Waits for each to exit (SIGTERM, then
# SIGKILL after 20 s). Leaves SCRATCH (config, logs, state) for inspection unless --clean is given.
#   bash scripts/slurm/stop.sh [SCRATCH] [--clean]
set -uo pipefail

D=/tmp/atmtcp-slurm
clean=0
for a in "$@"; do
  case "$a" in
    --clean) clean=1 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) D="$a" ;;
  esac
done
[ -d "$D" ] || { echo "stop.sh: $D does not exist, nothing to stop"; exit 0; }
D="$(cd "$D" && pwd)"

# stop NAME: TERM the PID recorded in run/NAME.pid if it is still NAME, wait for it to exit.
stop() {
  local name="$1" f="$D/run/$1.pid" pid
  pid="$(cat "$f" 2>/dev/null)" || { echo "stop.sh: $name: no PID file"; return 0; }
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || [ "$(cat /proc/"$pid"/comm 2>/dev/null)" != "$name" ]; then
    echo "stop.sh: $name (PID ${pid:-?}) not running"; rm -f "$f"; return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 40); do
    kill -0 "$pid" 2>/dev/null || { echo "stop.sh: $name (PID $pid) stopped"; rm -f "$f"; return 0; }
    sleep 0.5
  done
  echo "stop.sh: $name (PID $pid) still running after 20 s, sending KILL" >&2
  kill -KILL "$pid" 2>/dev/null
  for _ in $(seq 10); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  rm -f "$f"
}

stop slurmd
stop slurmctld
stop munged

link="$(cat "$D/run/etc-link" 2>/dev/null || true)"
if [ -n "$link" ] && [ "$(readlink "$link" 2>/dev/null)" = "$D/slurm.conf" ]; then
  rm -f "$link" && rm -f "$D/run/etc-link" && echo "stop.sh: removed the link $link"
fi

if [ $clean = 1 ]; then
  rm -rf "$D" && echo "stop.sh: removed $D"
else
  echo "stop.sh: kept $D (logs in $D/log; --clean removes it)"
fi
