#!/usr/bin/env bash
# The engine's rates per CPU second, two builds interleaved: bulk perft(7), perft --full 6
# and random playouts (standard and `ludii`, 100,000 games), ROUNDS rounds of each command
# with the binaries alternating, so that both see the same moments of a shared machine.
# Prints the Markdown table of docs/performance.md ("The rules engine"): the range of each
# rate over the rounds, per build. Instruction counts, the stable figure, are
# scripts/instructions.sh's.
#
# Each perft takes 7-10 s of CPU (the CPU clock ticks in hundredths of a second: shorter runs
# would give coarse rates); a round takes about a minute and a half.
#
# Usage: scripts/bench-rates.sh OLD_AGON NEW_AGON   (ROUNDS=N, default 3)
# For instance the agon of an older commit built in a worktree
# (`git worktree add ../old COMMIT && cargo build --release -p agon-cli` there) against
# target/release/agon.
set -euo pipefail
old="${1:?usage: scripts/bench-rates.sh OLD_AGON NEW_AGON}"
new="${2:?usage: scripts/bench-rates.sh OLD_AGON NEW_AGON}"
rounds="${ROUNDS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# `rate FIELD`: the JSON field (per second) of stdin, in millions, two decimals.
rate() { sed -n "s/.*\"$1\":\([0-9.e+]*\).*/\1/p" | awk '{ printf "%.2f\n", $1 / 1e6 }'; }

commands=(
    "perft 7 --json|nodes_per_cpu_second"
    "perft --full 6 --json|nodes_per_cpu_second"
    "playout --games 100000 --threads 1 --json --no-progress|actions_per_cpu_second"
    "playout --variant ludii --games 100000 --threads 1 --json --no-progress|actions_per_cpu_second"
)
for ((round = 1; round <= rounds; round++)); do
    for build in old new; do
        binary="${!build}"
        for k in "${!commands[@]}"; do
            args="${commands[$k]%|*}"
            field="${commands[$k]#*|}"
            # shellcheck disable=SC2086 # the arguments are words
            "$binary" $args | rate "$field" >>"$work/$build.$k"
        done
    done
done

# The range over the rounds and its median (a round disturbed by the shared machine moves
# the range's end but hardly the median).
range() {
    sort -n "$1" | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%s-%s M (median %.2f)", v[1], v[NR], m }'
}
echo "Rates per CPU second of \`$("$old" --version)\` and \`$("$new" --version)\`, interleaved, $rounds rounds, one thread (\`scripts/bench-rates.sh\`):"
echo
echo "| command | old | new |"
echo "| --- | --- | --- |"
for k in "${!commands[@]}"; do
    unit=$([[ ${commands[$k]} == perft* ]] && echo "leaves/s" || echo "actions/s")
    echo "| \`agon ${commands[$k]%|*}\` | $(range "$work/old.$k") $unit | $(range "$work/new.$k") $unit |"
done
