#!/usr/bin/env bash
# The alpha-beta search's nodes per CPU second, two builds interleaved: `agon engine` searching
# the start and the midgame position of agon-core/benches/common/midgame.txt to depth 10
# (7.7 M and 10.2 M nodes, about a second of CPU each), ROUNDS rounds with the binaries
# alternating, so that both see the same moments of a shared machine. Prints the Markdown
# table of docs/performance.md ("Alpha-beta"): the range of each rate over the rounds, per
# build, and the node counts (the same in both builds when the trees are the same).
# Instruction counts, the stable figure, are scripts/instructions.sh's.
#
# Usage: scripts/bench-search.sh OLD_AGON NEW_AGON   (ROUNDS=N, default 3)
# For instance the agon of an older commit built in a worktree
# (`git worktree add ../old COMMIT && cargo build --release -p agon-cli` there) against
# target/release/agon.
set -euo pipefail
old="${1:?usage: scripts/bench-search.sh OLD_AGON NEW_AGON}"
new="${2:?usage: scripts/bench-search.sh OLD_AGON NEW_AGON}"
rounds="${ROUNDS:-3}"
for binary in "$old" "$new"; do
    "$binary" --version >/dev/null 2>&1 || {
        echo "scripts/bench-search.sh: $binary does not run (\`$binary --version\` failed)" >&2
        exit 2
    }
done
here="$(cd "$(dirname "$0")/.." && pwd)"
midgame="$(tr '\n' ' ' <"$here/agon-core/benches/common/midgame.txt")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

searches=(
    "start|position startpos"
    "midgame|position startpos moves $midgame"
)
depth=10

# `search BINARY POSITION OUT`: appends "nodes rate" (millions of nodes per CPU second of the
# process, user and system) to OUT. The engine finishes the search when its input ends.
search() {
    local times
    printf '%s\ngo depth %s\n' "$2" "$depth" >"$work/input"
    times="$( { /usr/bin/time -f '%U %S' "$1" engine <"$work/input" >"$work/output"; } 2>&1)"
    local nodes
    nodes="$(grep "^info depth $depth " "$work/output" | sed 's/.* nodes \([0-9]*\).*/\1/' | tail -1)"
    if [[ -z "$nodes" ]]; then
        echo "scripts/bench-search.sh: $1 did not finish the search to depth $depth" >&2
        exit 1
    fi
    echo "$nodes $times" | awk '{ printf "%s %.2f\n", $1, $1 / ($2 + $3) / 1e6 }' >>"$3"
}

for ((round = 1; round <= rounds; round++)); do
    for build in old new; do
        for k in "${!searches[@]}"; do
            search "${!build}" "${searches[$k]#*|}" "$work/$build.$k"
        done
    done
done

range() { awk '{ print $2 }' "$1" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s M", lo, hi }'; }
nodes() { awk '{ print $1 }' "$1" | sort -u | paste -sd/ -; }
echo "Alpha-beta nodes per CPU second of \`$("$old" --version)\` and \`$("$new" --version)\`, interleaved, $rounds rounds, one thread (\`scripts/bench-search.sh\`):"
echo
echo "| search (depth $depth) | nodes old / new | old | new |"
echo "| --- | --- | --- | --- |"
for k in "${!searches[@]}"; do
    echo "| ${searches[$k]%%|*} | $(nodes "$work/old.$k") / $(nodes "$work/new.$k") | $(range "$work/old.$k") nodes/s | $(range "$work/new.$k") nodes/s |"
done
