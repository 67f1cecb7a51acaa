#!/usr/bin/env bash
# Proves the cluster recipe of docs/explore.md on a real scheduler: starts a one-node Slurm
# cluster from Debian's packages by hand (no systemd), plays a small exploration with
# scripts/slurm/explore-rounds.sh (a job array per round, then a merge), plays the same
# exploration in one process, checks that both wrote the same report, and tears the
# cluster down. It takes about half a minute. It is not part of `.ci/run` (it needs root,
# installs and starts system daemons, and depends on the host's name, ports and memory):
# maintainers run it before a release and after changing `explore`'s rounds, shards or
# merge, and users can run it to check the recipe on their own machine.
#
#   scripts/slurm/one-node-cluster.sh [AGON_SELFPLAY_BINARY]
#
# Needs root (slurmd starts the jobs) and Debian's slurmctld, slurmd, slurm-client and
# munge, which it installs when they are missing. What the setup needs, as measured:
# ProctrackType=proctrack/linuxproc and TaskPlugin=task/none with no cgroup.conf (with the
# cgroup plugins every job fails "freezer not mounted" in a container, the node drains and
# `sbatch --wait` hangs, hence the timeouts); a node line from `slurmd -C` with a memory
# margin (claiming more memory than the node has drains it); munged with a key of its own
# on a private socket, which Slurm finds through AuthInfo=socket=...
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$(date +%s)

if [ "$(id -u)" != 0 ]; then
    echo "one-node-cluster: needs root (slurmd runs the jobs as their user)" >&2
    exit 1
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge \
        >/dev/null
fi

selfplay=${1:-}
if [ -z "$selfplay" ]; then
    (cd "$repo" && cargo build --quiet --release -p agon-selfplay)
    selfplay="${CARGO_TARGET_DIR:-$repo/target}/release/agon-selfplay"
fi
selfplay=$(cd "$(dirname "$selfplay")" && pwd)/$(basename "$selfplay")

work=$(mktemp -d /tmp/agon-slurm.XXXXXX)
chmod 700 "$work"
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/log"
chmod 700 "$work/munge"

stop() {
    # Cancel our jobs first, so that slurmd has nothing to wait for, then stop the
    # daemons we started, by their pid files.
    if [ -n "${SLURM_CONF:-}" ] && [ -e "$work/slurmctld.pid" ]; then
        timeout 10 scancel --quiet --full --user=root 2>/dev/null || true
    fi
    for name in slurmd slurmctld munged; do
        if [ -s "$work/$name.pid" ]; then
            pid=$(cat "$work/$name.pid")
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
    if [ "${keep:-0}" = 1 ]; then
        echo "one-node-cluster: kept $work" >&2
    else
        rm -rf "$work"
    fi
}
trap stop EXIT

fail() {
    keep=1
    echo "one-node-cluster: $*" >&2
    for log in "$work"/log/*.log; do
        echo "--- $log" >&2
        tail -n 20 "$log" >&2 || true
    done
    exit 1
}

# munged: a key of its own, a private socket.
socket="$work/munge/munge.socket"
mungekey --create --keyfile="$work/munge/munge.key" --force >/dev/null 2>&1 \
    || fail "mungekey failed"
chmod 600 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/munged.pid" --log-file="$work/log/munged.log" \
    --seed-file="$work/munge/munged.seed" 2>>"$work/log/munged.log" || fail "munged did not start"

# Slurm: one node as `slurmd -C` describes it, with 10% of its memory kept back.
node=$(slurmd -C | head -n 1)
memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
node=$(sed "s/RealMemory=[0-9]*/RealMemory=$((memory * 9 / 10))/" <<<"$node")
host=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<<"$node")
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null \
        || echo $((20000 + RANDOM % 20000))
}
cat >"$work/slurm.conf" <<EOF
ClusterName=agon-ci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
$node State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 100); do
    state=$(sinfo --noheader --format=%t 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "the node is not idle (state: ${state:-none})"

# A small exploration, prepared once, played on the cluster and in one process.
family=(--switch capture=line,ring --switch touch-move=off,on --agent random
    --budget 240 --first-pairs 10 --max-plies 200 --seed 3)
"$selfplay" explore "${family[@]}" --out "$work/cluster" --prepare 2>/dev/null
AGON_SELFPLAY="$selfplay" ROUND_TIMEOUT=60 "$here/explore-rounds.sh" "$work/cluster" 4 \
    2>>"$work/log/rounds.log" || fail "the rounds did not complete"
"$selfplay" explore "${family[@]}" --out "$work/alone" --threads 2 >/dev/null 2>&1
for file in explore.json explore.csv index.html; do
    cmp -s "$work/cluster/$file" "$work/alone/$file" \
        || fail "$file differs between the cluster run and the one-process run"
done
rounds=$(grep -c 'merged; next' "$work/log/rounds.log" || true)
echo "one-node-cluster: $rounds round(s) as Slurm job arrays of 4 tasks, merged: the same" \
    "explore.json, explore.csv and index.html as one process ($(($(date +%s) - started)) s)" >&2
