#!/usr/bin/env bash
# Proves the cluster recipe of docs/explore.md on a real scheduler: starts a one-node Slurm
# cluster from Debian's packages by hand (no systemd), plays a small exploration with
# scripts/slurm/explore-rounds.sh (a job array per round, then a merge), plays the same
# exploration in one process, checks that both wrote the same report (exit 1 naming the
# rule sets whose verdicts differ otherwise), and tears the cluster down. `.ci/run` runs it
# after the clean-clone tests (about half a minute); maintainers and users can run it to
# check the recipe on their own machine.
#
#   scripts/slurm/one-node-cluster.sh [AGON_SELFPLAY_BINARY]
#
# Needs root (slurmd starts the jobs) and Debian's slurmctld, slurmd, slurm-client and
# munge, which it installs with apt-get when they are missing. What the setup needs, as
# measured: ProctrackType=proctrack/linuxproc and TaskPlugin=task/none with no cgroup.conf
# (with the cgroup plugins every job fails "freezer not mounted" in a container, the node
# drains and `sbatch --wait` hangs, hence the timeouts); a node line from `slurmd -C` with
# a memory margin (claiming more memory than the node has drains it); munged with a key of
# its own on a private socket, which Slurm finds through AuthInfo=socket=...; SLURM_CONF
# exported, so that every Slurm command talks to this cluster and no other.
#
# Teardown, on every exit path (success, failure, Ctrl-C, TERM from a `timeout` around
# it): cancel the jobs and wait for them to go, stop slurmd, slurmctld and munged by their
# pid files, then stop any process still marked as this cluster's (the daemons are
# started with AGON_SLURM_CLUSTER=<work dir> in their environment, which job steps
# inherit) and fail if one survives; the work directory is removed unless a check failed
# (then it is kept and named, with the daemons' logs printed).
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

# The processes of this cluster: every process whose environment holds our marker.
ours() {
    grep -lzxF "AGON_SLURM_CLUSTER=$work" /proc/[0-9]*/environ 2>/dev/null \
        | sed 's|^/proc/\([0-9]*\)/environ$|\1|' || true
}

# Stops the daemons named, by their pid files in the work directory.
stop_by_pid_files() {
    local name pid pids=() alive
    for name in "$@"; do
        if [ -s "$work/$name.pid" ]; then pids+=("$(cat "$work/$name.pid")"); fi
    done
    [ ${#pids[@]} = 0 ] && return 0
    kill "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 30); do
        alive=()
        for pid in "${pids[@]}"; do
            if kill -0 "$pid" 2>/dev/null; then alive+=("$pid"); fi
        done
        [ ${#alive[@]} = 0 ] && return 0
        sleep 0.1
    done
    kill -9 "${alive[@]}" 2>/dev/null || true
}

stop() {
    local status=$? left
    trap - EXIT INT TERM HUP
    # Cancel our jobs first and wait for them to go, so that no job step outlives the
    # daemons; then stop the daemons we started, by their pid files.
    if [ -s "$work/slurmctld.pid" ] && kill -0 "$(cat "$work/slurmctld.pid")" 2>/dev/null; then
        timeout 10 scancel --quiet --full --user=root 2>/dev/null || true
        for _ in $(seq 50); do
            [ -z "$(timeout 5 squeue --noheader 2>/dev/null || true)" ] && break
            sleep 0.2
        done
    fi
    # A throwaway cluster has no state worth saving: TERM, at most 3 s to go, then KILL
    # (slurmctld may take longer than that to exit). Slurm first, then munged.
    stop_by_pid_files slurmd slurmctld
    stop_by_pid_files munged
    # Whatever is left of ours (a job step whose daemon died first) goes too.
    left=$(ours)
    if [ -n "$left" ]; then
        kill -9 $left 2>/dev/null || true
        sleep 0.5
        left=$(ours)
        if [ -n "$left" ]; then
            echo "one-node-cluster: processes of the cluster survived: $left" >&2
            status=1
        fi
    fi
    if [ "${keep:-0}" = 1 ]; then
        echo "one-node-cluster: kept $work" >&2
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap stop EXIT
# A signal ends the script through its EXIT trap, with the usual status.
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

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
AGON_SLURM_CLUSTER="$work" munged --force --key-file="$work/munge/munge.key" --socket="$socket" \
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
AGON_SLURM_CLUSTER="$work" slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
AGON_SLURM_CLUSTER="$work" slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 100); do
    state=$(sinfo --noheader --format=%t 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "the node is not idle (state: ${state:-none})"

# A small exploration, prepared once, played on the cluster and in one process. The
# long steps run in the background so that a signal reaches the trap at once (bash runs
# traps only between foreground commands); they carry the cluster's marker, and so do
# the jobs they submit, so that the teardown finds them.
family=(--switch capture=line,ring --switch touch-move=off,on --agent random
    --budget 240 --first-pairs 10 --max-plies 200 --seed 3)
shards=4
"$selfplay" explore "${family[@]}" --out "$work/cluster" --prepare 2>/dev/null \
    || fail "explore --prepare failed"
AGON_SLURM_CLUSTER="$work" AGON_SELFPLAY="$selfplay" ROUND_TIMEOUT=60 \
    "$here/explore-rounds.sh" "$work/cluster" "$shards" 2>>"$work/log/rounds.log" &
wait $! || fail "the rounds did not complete"
AGON_SLURM_CLUSTER="$work" "$selfplay" explore "${family[@]}" --out "$work/alone" \
    --threads 2 >/dev/null 2>"$work/log/alone.log" &
wait $! || fail "the one-process exploration failed"

# The rounds really ran as job arrays: every round left one log per task and one merge.
rounds=$(grep -c 'merged; next' "$work/log/rounds.log" || true)
[ "$rounds" -ge 2 ] || fail "expected at least 2 rounds, the log says $rounds"
for ((round = 0; round < rounds; round++)); do
    for ((task = 0; task < shards; task++)); do
        [ -e "$work/cluster/logs/round-$round-$task.out" ] \
            || fail "round $round has no log of array task $task"
    done
    [ -e "$work/cluster/logs/merge-$round.out" ] || fail "round $round has no merge log"
done

# The same report, byte for byte; when not, say which rule sets' verdicts differ.
for file in explore.json explore.csv index.html; do
    if ! cmp -s "$work/cluster/$file" "$work/alone/$file"; then
        python3 - "$work/alone/explore.json" "$work/cluster/explore.json" >&2 <<'PY' || true
import json, sys
alone, cluster = ({r["name"]: (r["pairs"], r["fairness"], r["decisiveness"], r["status"])
                   for r in json.load(open(p))["rule_sets"]} for p in sys.argv[1:])
for name in sorted(set(alone) | set(cluster)):
    if alone.get(name) != cluster.get(name):
        print(f"{name}: one process {alone.get(name)}, cluster {cluster.get(name)}")
PY
        fail "$file differs between the cluster run and the one-process run"
    fi
done
echo "one-node-cluster: $rounds rounds as Slurm job arrays of $shards tasks, merged: the same" \
    "explore.json, explore.csv and index.html as one process ($(($(date +%s) - started)) s)" >&2
