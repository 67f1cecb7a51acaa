#!/usr/bin/env bash
# Instruction counts of the engine's hot paths, measured with callgrind (deterministic, unlike
# timings on a shared machine), printed as the Markdown table of docs/performance.md with the
# commit they were measured at.
#
# Usage: scripts/instructions.sh [AGON_BINARY]   (default: builds and uses target/release/agon)
# The table names the commit of the build it measured: this checkout's HEAD (with "+changes"
# when files outside docs/ differ from it) for the default build, the commit a given binary
# embeds (`agon --version`) otherwise.
# Needs valgrind. Each figure subtracts the cost of starting the binary (the same command with
# nothing to do), so it is the cost of the work alone.
set -euo pipefail
# A binary given by a relative path is found from where the script was started.
agon="${1:+$(realpath "$1")}"
cd "$(dirname "$0")/.."
if [[ -z "$agon" ]]; then
    cargo build --release -q -p agon-cli
    agon="${CARGO_TARGET_DIR:-target}/release/agon"
    commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo '+changes')"
else
    # A binary built elsewhere (another commit's worktree, say) is named by the commit it
    # embeds (`agon --version`), not by this checkout's. The embedded commit is the one
    # checked out when it was built: build it after committing.
    commit="$("$agon" --version | sed -n 's/.*(commit \([0-9a-f]\{7\}\)[0-9a-f]*).*/\1/p')"
    commit="${commit:-unknown (\`$("$agon" --version)\`)}"
    if [[ "$commit" != "$(git rev-parse --short HEAD)" ]]; then
        echo "note: $agon was built at commit $commit, this checkout is at $(git rev-parse --short HEAD)" >&2
    fi
fi

# Instructions executed by `agon ARGS...`.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$agon" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

per() { # per TOTAL BASE COUNT (one decimal below 100: a bulk perft leaf costs about 9)
    awk -v t="$1" -v b="$2" -v n="$3" 'BEGIN { x = (t - b) / n; printf (x < 100 ? "%.1f" : "%.0f"), x }'
}

echo "Measured at commit $commit with \`scripts/instructions.sh\` (callgrind, release build)."
echo
echo "| workload | work done | instructions | per unit |"
echo "| --- | --- | --- | --- |"
base_playout=$(instructions playout --games 0 --threads 1 --json --no-progress)
for variant in standard ludii; do
    games=300
    json=$("$agon" playout --variant "$variant" --games $games --threads 1 --json --no-progress)
    actions=$(sed -n 's/.*"actions":\([0-9]*\).*/\1/p' <<<"$json")
    mean=$(sed -n 's/.*"mean_length":\([0-9.]*\).*/\1/p' <<<"$json")
    total=$(instructions playout --variant "$variant" --games $games --threads 1 --json --no-progress)
    echo "| \`agon playout --variant $variant --games $games --threads 1\` | $actions actions (mean game ${mean%.*} plies) | $total | $(per "$total" "$base_playout" "$actions") per action |"
done
# The same games with the drawn bit found by table, as on processors without a fast BMI2
# `pdep` (src/step_slots.rs: `Pdep::detect`; AGON_NO_PDEP refuses it anywhere).
for variant in standard ludii; do
    games=300
    json=$(AGON_NO_PDEP=1 "$agon" playout --variant "$variant" --games $games --threads 1 --json --no-progress)
    actions=$(sed -n 's/.*"actions":\([0-9]*\).*/\1/p' <<<"$json")
    total=$(AGON_NO_PDEP=1 instructions playout --variant "$variant" --games $games --threads 1 --json --no-progress)
    echo "| \`AGON_NO_PDEP=1 agon playout --variant $variant --games $games --threads 1\` (the table's select) | $actions actions | $total | $(per "$total" "$base_playout" "$actions") per action |"
done
# How the cost of a random action grows with game length: games cut at 100 and 1,000 plies.
for limit in 100 1000; do
    json=$("$agon" playout --games 300 --max-plies $limit --threads 1 --json --no-progress)
    actions=$(sed -n 's/.*"actions":\([0-9]*\).*/\1/p' <<<"$json")
    total=$(instructions playout --games 300 --max-plies $limit --threads 1 --json --no-progress)
    echo "| \`agon playout --games 300 --max-plies $limit --threads 1\` | $actions actions | $total | $(per "$total" "$base_playout" "$actions") per action |"
done
# Mispredicted branches of a random action, in cachegrind's branch simulation (a simple
# predictor, so the count is a model of the hardware's, but deterministic like the
# instructions): what a lower instruction count can cost, since a mispredicted branch costs
# the time of some 40 instructions.
mispredicts() {
    valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes --cachegrind-out-file=/dev/null \
        "$agon" "$@" 2>&1 >/dev/null | sed -n 's/.*Mispredicts: *\([0-9,]*\).*/\1/p' | tr -d ,
}
json=$("$agon" playout --games 300 --threads 1 --json --no-progress)
actions=$(sed -n 's/.*"actions":\([0-9]*\).*/\1/p' <<<"$json")
missed=$(mispredicts playout --games 300 --threads 1 --json --no-progress)
missed_base=$(mispredicts playout --games 0 --threads 1 --json --no-progress)
echo "| \`agon playout --games 300 --threads 1\` (cachegrind's branch simulation) | $actions actions | $missed mispredicted branches | $(awk -v t="$missed" -v b="$missed_base" -v n="$actions" 'BEGIN { printf "%.2f", (t - b) / n }') per action |"
base_perft=$(instructions perft 0)
for depth in 3 4 5; do
    leaves=$("$agon" perft $depth | tail -1)
    total=$(instructions perft $depth)
    echo "| \`agon perft $depth\` (bulk-counted) | $leaves leaves | $total | $(per "$total" "$base_perft" "$leaves") per leaf |"
done
for depth in 3 4; do
    leaves=$("$agon" perft --full $depth | tail -1)
    total=$(instructions perft --full $depth)
    echo "| \`agon perft --full $depth\` (every leaf played) | $leaves leaves | $total | $(per "$total" "$base_perft" "$leaves") per leaf |"
done
# Alpha-beta: `agon engine` searches to a fixed depth (stdin ends after `go`, so the engine
# finishes the search, prints its last `info` line with the node count, and exits). The
# start, and a midgame position (24 plies of a greedy game, pieces in contact).
midgame="$(cat agon-core/benches/common/midgame.txt)"  # shared with the agents bench
engine_instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$agon" engine <<<"$1" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# search_rows PREFIX SUFFIX: the four searches' rows, labelled with PREFIX before `agon` and
# SUFFIX after the search (the caller's environment goes to every run).
search_rows() {
    local base name depth position commands nodes total
    base=$(engine_instructions "position startpos")
    for search in "startpos:6" "startpos:8" "midgame:5" "midgame:7"; do
        name=${search%:*}
        depth=${search#*:}
        position="position startpos"
        [[ $name == midgame ]] && position="position startpos moves $midgame"
        commands=$(printf '%s\ngo depth %s' "$position" "$depth")
        nodes=$("$agon" engine <<<"$commands" | sed -n 's/^info .*nodes \([0-9]*\).*/\1/p' | tail -1)
        total=$(engine_instructions "$commands")
        echo "| \`${1}agon engine\`: alpha-beta, $name, \`go depth $depth\`$2 | $nodes nodes | $total | $(per "$total" "$base" "$nodes") per node |"
    done
}
search_rows "" ""
# The same searches with the evaluation's features in general registers, as on processors
# without AVX2 (agents/paired.rs: `Avx2::detect`; AGON_NO_AVX2 refuses it anywhere).
AGON_NO_AVX2=1 search_rows "AGON_NO_AVX2=1 " " (general registers)"
