#!/usr/bin/env bash
# The figures of the `io` block of docs/performance.md: `agon validate` on one thread
# (actions per CPU second, kernel share of the CPU, page faults, instructions per action)
# and the peak memory of `agon-selfplay` run, --resume, merge and report at 1,000,000 random
# games. Prints the Markdown block, naming the commit; paste it between the `io` markers.
#
# Usage: scripts/bench-io.sh [WORK_DIR]   (default: a new temporary directory, removed after)
#   GAMES=N          games of the memory runs (default 1000000)
#   CORPUS_GAMES=N   games of the validation corpus (default 20000)
#   VALIDATE_ROUNDS=N  runs of `agon validate` on it (default 3; the block gives each
#                    figure's range over them)
# Needs valgrind and GNU time (/usr/bin/time). Takes tens of minutes on two busy cores and
# a few GB of disk; the corpus and the runs are written under WORK_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${GAMES:-1000000}"
corpus_games="${CORPUS_GAMES:-20000}"
validate_rounds="${VALIDATE_ROUNDS:-3}"
work="${1:-}"
if [[ -z "$work" ]]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
cargo build --release -q -p agon-cli -p agon-selfplay
bin="${CARGO_TARGET_DIR:-target}/release"
agon="$bin/agon"
selfplay="$bin/agon-selfplay"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo '+changes')"

# `field NAME FILE`: a value of /usr/bin/time -v's report.
field() { sed -n "s/^\s*$1: //p" "$2"; }
# Peak resident set of a command, in MB (the command's output goes to $work/last.out).
peak_mb() {
    /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/last.out" 2>&1
    awk -v kb="$(field 'Maximum resident set size (kbytes)' "$work/time.txt")" \
        'BEGIN { printf "%.0f", kb / 1024 }'
}
# Total plies of a games.csv (the `plies` column).
plies() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "plies") c = i; next } { s += $c } END { print s }' "$1"
}

# Validation: a corpus of random games to the end (the default ply limit).
corpus="$work/corpus"
rm -rf "$corpus" "$work/small"
"$selfplay" run --agent random --games "$corpus_games" --seed 1 --out "$corpus" >/dev/null 2>&1
actions=$(plies "$corpus/games.csv")
# VALIDATE_ROUNDS runs (one CPU-second figure swings with the shared machine): the range of
# each figure over them.
: >"$work/validate.txt"
for ((round = 1; round <= validate_rounds; round++)); do
    /usr/bin/time -v -o "$work/time.txt" "$agon" validate --threads 1 -q "$corpus/games.agn"
    echo "$(field 'User time (seconds)' "$work/time.txt") $(field 'System time (seconds)' "$work/time.txt") $(field 'Minor (reclaiming a frame) page faults' "$work/time.txt")" >>"$work/validate.txt"
done
# `range AWK_EXPRESSION FORMAT`: the lowest and highest value over the rounds ($1 user
# seconds, $2 system seconds, $3 page faults).
range() {
    awk -v a="$actions" "{ v = $1; if (NR == 1 || v < lo) lo = v; if (NR == 1 || v > hi) hi = v }
        END { if (lo == hi) printf \"$2\", lo; else printf \"$2-$2\", lo, hi }" "$work/validate.txt"
}
user=$(range '$1' '%.2f')
sys=$(range '$2' '%.2f')
faults=$(range '$3' '%d')
rate=$(range 'a / ($1 + $2) / 1e6' '%.1f')
kernel=$(range '100 * $2 / ($1 + $2)' '%.1f')
# Instructions per action (callgrind) on a tenth of the corpus, minus an empty input's.
small="$work/small"
"$selfplay" run --agent random --games $((corpus_games / 10)) --seed 1 --out "$small" >/dev/null 2>&1
small_actions=$(plies "$small/games.csv")
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$agon" validate --threads 1 -q "$1" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
: >"$work/empty.agn"
base=$(instructions "$work/empty.agn")
total=$(instructions "$small/games.agn")
per_action=$(awk -v t="$total" -v b="$base" -v n="$small_actions" 'BEGIN { printf "%.0f", (t - b) / n }')

# Memory of agon-selfplay at $games random games of at most 40 plies.
options=(--agent random --games "$games" --max-plies 40 --seed 7 --threads 2)
rm -rf "$work/run" "$work/shard1" "$work/shard2" "$work/merged"
run_mb=$(peak_mb "$selfplay" run "${options[@]}" --out "$work/run")
report_mb=$(peak_mb "$selfplay" report "$work/run")
"$selfplay" run "${options[@]}" --shard 0/2 --out "$work/shard1" >/dev/null 2>&1
"$selfplay" run "${options[@]}" --shard 1/2 --out "$work/shard2" >/dev/null 2>&1
merge_mb=$(peak_mb "$selfplay" merge "$work/shard1" "$work/shard2" --out "$work/merged")
# The merge holds exactly the games of the single run.
cmp -s "$work/run/games.agn" "$work/merged/games.agn" || {
    echo "bench-io: the merged games.agn differs from the single run's" >&2
    exit 1
}
# An interrupted run: both files cut in the middle of a line, as a kill leaves them.
for name in games.csv games.agn; do
    size=$(stat -c %s "$work/run/$name")
    truncate -s $((size / 2 + 7)) "$work/run/$name"
done
resume_mb=$(peak_mb "$selfplay" run --resume --out "$work/run")
resumed=$(($(wc -l <"$work/run/games.csv") - 1))
cmp -s "$work/run/games.agn" "$work/merged/games.agn" || {
    echo "bench-io: the resumed games.agn differs from the merged one" >&2
    exit 1
}

cat <<EOF
Measured at commit $commit with \`scripts/bench-io.sh\` (release build, one process at a
time on a shared 2-core machine; CPU seconds from \`/usr/bin/time -v\`).

| \`agon validate --threads 1\` on $corpus_games random games ($validate_rounds runs: the range) | value |
| --- | --- |
| actions validated | $actions |
| user / system CPU seconds | $user / $sys |
| actions per CPU second (user + system) | $rate M |
| kernel share of the CPU | $kernel % |
| minor page faults | $faults |
| instructions per action (callgrind, $((corpus_games / 10)) games, $small_actions actions) | $per_action |

| \`agon-selfplay\` at $games random games (\`--max-plies 40\`) | peak resident |
| --- | --- |
| \`run --threads 2\` | $run_mb MB |
| \`report\` | $report_mb MB |
| \`merge\` of its two shards (\`--shard 0/2\`, \`--shard 1/2\`) | $merge_mb MB |
| \`run --resume\` after both files were cut in half (to $resumed games again) | $resume_mb MB |
EOF
