#!/usr/bin/env bash
# Plays a prepared exploration on a Slurm cluster, round by round (docs/explore.md):
# each round is a job array of SHARDS tasks (`agon-selfplay explore --round R --shard K/N`),
# then one merge job that depends on the whole array; the loop ends when the merge says
# `done`. Run it on a login node, in a directory every node sees.
#
#   agon-selfplay explore --config family.toml --out results/family --prepare
#   scripts/slurm/explore-rounds.sh results/family 16
#
# Environment: AGON_SELFPLAY (the binary, default `agon-selfplay` on PATH),
# SBATCH_OPTIONS (more sbatch options, e.g. "--partition=long --time=04:00:00"),
# ROUND_TIMEOUT (seconds a round may take, default 86400; `sbatch --wait` is always
# wrapped in `timeout`, so a drained node cannot hang the loop).
set -euo pipefail

dir=${1:?usage: explore-rounds.sh DIR SHARDS}
shards=${2:?usage: explore-rounds.sh DIR SHARDS}
selfplay=${AGON_SELFPLAY:-agon-selfplay}
round_timeout=${ROUND_TIMEOUT:-86400}
read -r -a extra <<<"${SBATCH_OPTIONS:-}"
mkdir -p "$dir/logs"

round=$("$selfplay" explore --out "$dir" --next-round)
while [ "$round" != done ]; do
    # One task per shard. A requeued or rerun task resumes its shard's directory, so a
    # preempted task loses nothing.
    array=$(sbatch --parsable --job-name="agon-round-$round" --array="0-$((shards - 1))" \
        --cpus-per-task=1 --output="$dir/logs/round-$round-%a.out" "${extra[@]}" \
        --wrap="'$selfplay' explore --out '$dir' --round $round \
            --shard \$SLURM_ARRAY_TASK_ID/$shards --threads \$SLURM_CPUS_PER_TASK")
    array=${array%%;*}
    # The merge runs once every task succeeded; --wait returns when it is over.
    if ! timeout "$round_timeout" sbatch --wait --parsable --job-name="agon-merge-$round" \
        --dependency="afterok:$array" --kill-on-invalid-dep=yes \
        --output="$dir/logs/merge-$round.out" "${extra[@]}" \
        --wrap="'$selfplay' explore --out '$dir' --merge" >/dev/null; then
        echo "explore-rounds: round $round did not complete (see $dir/logs/)" >&2
        scancel "$array" 2>/dev/null || true
        exit 1
    fi
    next=$("$selfplay" explore --out "$dir" --next-round)
    if [ "$next" = "$round" ]; then
        echo "explore-rounds: round $round is still incomplete (see $dir/logs/)" >&2
        exit 1
    fi
    echo "explore-rounds: round $round merged; next: $next" >&2
    round=$next
done
echo "explore-rounds: done; the reports are in $dir (index.html, explore.json, explore.csv)" >&2
