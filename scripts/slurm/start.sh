#!/usr/bin/env bash
# Start a single-node SLURM cluster (this host) for testing: munged, slurmctld, slurmd.
#   bash scripts/slurm/start.sh [SCRATCH]        # SCRATCH defaults to /tmp/atmtcp-slurm
#   export SLURM_CONF=SCRATCH/slurm.conf         # then sinfo, sbatch, srun, squeue, scontrol
# Needs root on Debian/Ubuntu. Installs (only if missing) slurmctld, slurmd, slurm-client and munge.
# Everything else lives in SCRATCH: slurm.conf, cgroup.conf, the munge key and socket, state, spool,
# logs (log/), PID files (run/). The one file put in /etc is a link /etc/slurm/slurm.conf (see below; stop.sh removes it); the Debian packages
# themselves put a munge key in /etc/munge and a plugstack.conf in /etc/slurm, both unused here
# (munged is given SCRATCH/munge/munge.key and socket; slurm finds its files via SLURM_CONF).
# No accounting (sacct does not work; use squeue/scontrol), no cgroups (no CPU/memory enforcement).
# Idempotent: a daemon whose recorded PID is alive is not started again. Stop with stop.sh.
set -euo pipefail

D="${1:-/tmp/atmtcp-slurm}"
mkdir -p "$D"
D="$(cd "$D" && pwd)"
export SLURM_CONF="$D/slurm.conf"
HOST="$(hostname -s)"
t0=$(date +%s)

# --- packages ------------------------------------------------------------------------------------
missing=()
for p in slurmctld slurmd slurm-client munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "start.sh: need root to install ${missing[*]}" >&2; exit 2; }
  echo "start.sh: installing ${missing[*]}"
  # Keep the packages' postinst from starting the system services (they would use /etc/slurm).
  own_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    own_policy=1
  fi
  ok=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    > "$D/apt.log" 2>&1 \
    || { apt-get update -qq > /dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive \
         apt-get install -y -qq --no-install-recommends "${missing[@]}" > "$D/apt.log" 2>&1; } \
    && ok=1
  [ $own_policy = 1 ] && rm -f /usr/sbin/policy-rc.d
  [ $ok = 1 ] || { echo "start.sh: apt-get install failed, see $D/apt.log" >&2; exit 1; }
fi

# --- helpers -------------------------------------------------------------------------------------
# alive NAME PIDFILE: the PID in PIDFILE runs and is NAME (not a reused PID).
alive() {
  local pid
  pid="$(cat "$2" 2>/dev/null)" || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$1" ]
}
# wait_pidfile NAME PIDFILE LOG: wait up to 20 s for a freshly started daemon to record its PID.
wait_pidfile() {
  for _ in $(seq 40); do alive "$1" "$2" && return 0; sleep 0.5; done
  echo "start.sh: $1 did not start; last lines of $3:" >&2; tail -20 "$3" >&2 || true; exit 1
}

mkdir -p "$D/state" "$D/spool" "$D/log" "$D/run" "$D/munge"
chmod 755 "$D/munge"      # munged: the socket dir must be searchable by all

# --- munge ---------------------------------------------------------------------------------------
if [ ! -s "$D/munge/munge.key" ]; then
  mungekey --create --keyfile="$D/munge/munge.key"
  chmod 600 "$D/munge/munge.key"
fi
if alive munged "$D/run/munged.pid"; then
  echo "start.sh: munged already running (PID $(cat "$D/run/munged.pid"))"
else
  rm -f "$D/munge/munge.socket" "$D/munge/munge.socket.lock"
  munged --key-file="$D/munge/munge.key" --socket="$D/munge/munge.socket" \
    --pid-file="$D/run/munged.pid" --log-file="$D/log/munged.log" --seed-file="$D/munge/munged.seed" \
    --num-threads=2
  wait_pidfile munged "$D/run/munged.pid" "$D/log/munged.log"
  echo "start.sh: munged started (PID $(cat "$D/run/munged.pid"))"
fi

# --- configuration -------------------------------------------------------------------------------
CPUS="$(nproc)"
MEM_TOTAL="$(free -m | awk '/^Mem:/ {print $2}')"
MARGIN=$(( MEM_TOTAL / 20 > 1024 ? MEM_TOTAL / 20 : 1024 ))     # 5 %, at least 1 GiB, for the OS
REALMEM=$(( MEM_TOTAL > 2 * MARGIN ? MEM_TOTAL - MARGIN : MEM_TOTAL / 2 ))
ADDR=127.0.0.1                     # single node: daemons and clients all talk over loopback
cat > "$D/slurm.conf.new" <<EOF
# Written by scripts/slurm/start.sh: single-node test cluster, no accounting, no cgroups.
ClusterName=atmtcp
SlurmctldHost=$HOST($ADDR)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.socket
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldDebug=info
SlurmdDebug=info
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$(( REALMEM / CPUS ))
ReturnToService=2
# Finished jobs stay visible to squeue/scontrol for an hour (no sacct here).
MinJobAge=3600
NodeName=$HOST NodeAddr=$ADDR CPUs=$CPUS RealMemory=$REALMEM State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=UNLIMITED State=UP
EOF
cat > "$D/cgroup.conf.new" <<'EOF'
# Written by scripts/slurm/start.sh. Unused: TaskPlugin=task/none, ProctrackType=proctrack/linuxproc.
CgroupAutomount=no
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
EOF
if alive slurmctld "$D/run/slurmctld.pid" || alive slurmd "$D/run/slurmd.pid"; then
  # Daemons running: keep the configuration they read.
  cmp -s "$D/slurm.conf.new" "$D/slurm.conf" \
    || echo "start.sh: warning: daemons running with an older $D/slurm.conf; stop.sh, then start.sh" >&2
  rm -f "$D/slurm.conf.new" "$D/cgroup.conf.new"
else
  mv "$D/slurm.conf.new" "$D/slurm.conf"
  mv "$D/cgroup.conf.new" "$D/cgroup.conf"
fi

# --- daemons (they fork and write their PID files, given in slurm.conf) --------------------------
# start_daemon NAME: start NAME (slurmctld or slurmd) unless its recorded PID is alive.
start_daemon() {
  local name="$1" pidfile="$D/run/$1.pid"
  if alive "$name" "$pidfile"; then
    echo "start.sh: $name already running (PID $(cat "$pidfile"))"
    return 0
  fi
  rm -f "$pidfile"
  "$name"
  wait_pidfile "$name" "$pidfile" "$D/log/$name.log"
  echo "start.sh: $name started (PID $(cat "$pidfile"))"
}
start_daemon slurmctld
start_daemon slurmd

# --- wait for the node ---------------------------------------------------------------------------
state=""
for _ in $(seq 60); do
  state="$(sinfo -h -N -n "$HOST" -o %t 2>/dev/null | head -1)" || true
  case "$state" in idle|mix|alloc) break ;; esac
  sleep 1
done
case "$state" in
  idle|mix|alloc) ;;
  *) echo "start.sh: node $HOST not idle after 60 s (state '${state:-none}'); see $D/log/" >&2
     sinfo -R >&2 || true; exit 1 ;;
esac
# Inside a job, srun (Snakemake's job step) cannot see SLURM_CONF: SLURM strips SLURM_* variables from
# the environment a job inherits, and srun then looks for /etc/slurm/slurm.conf. Link it there unless
# a real one exists; stop.sh removes the link.
if [ ! -e /etc/slurm/slurm.conf ] && [ ! -L /etc/slurm/slurm.conf ]; then
  mkdir -p /etc/slurm && ln -s "$D/slurm.conf" /etc/slurm/slurm.conf && echo /etc/slurm/slurm.conf > "$D/run/etc-link"
elif [ "$(readlink /etc/slurm/slurm.conf 2>/dev/null)" != "$D/slurm.conf" ]; then
  echo "start.sh: warning: /etc/slurm/slurm.conf is not this cluster's; srun inside jobs will read it" >&2
fi
sinfo
echo "start.sh: SLURM ready in $(( $(date +%s) - t0 )) s: node $HOST, $CPUS CPUs, ${REALMEM} MB, partition debug"
echo "  export SLURM_CONF=$D/slurm.conf"
echo "  sbatch --wrap 'hostname'; squeue; scontrol show job ID   (no sacct: accounting is off)"
echo "  stop: bash $(cd "$(dirname "$0")" && pwd)/stop.sh $D [--clean]"
