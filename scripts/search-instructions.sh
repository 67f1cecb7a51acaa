#!/usr/bin/env bash
# Instructions per alpha-beta node of chosen searches, for comparing builds quickly (the full
# table is scripts/instructions.sh's). Each search is `agon engine` with `position` and
# `go depth N` on standard input; the figure is its instructions (callgrind) less those of
# the same input without `go`, over the search's nodes (its last `info` line).
#
# Usage: scripts/search-instructions.sh AGON [SEARCH...]
#   SEARCH  start:DEPTH or midgame:DEPTH (the midgame of agon-core/benches/common/midgame.txt);
#           default: start:6 midgame:5
# Prints one line per search: the search, its nodes and instructions per node, and the
# commit the binary embeds. Needs valgrind.
set -euo pipefail
agon="${1:?usage: scripts/search-instructions.sh AGON [start:DEPTH|midgame:DEPTH ...]}"
shift
searches=("$@")
[[ ${#searches[@]} -gt 0 ]] || searches=(start:6 midgame:5)
here="$(cd "$(dirname "$0")/.." && pwd)"
midgame="$(tr '\n' ' ' <"$here/agon-core/benches/common/midgame.txt")"
commit="$("$agon" --version | sed -n 's/.*(commit \([0-9a-f]\{7\}\)[0-9a-f]*).*/\1/p')"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$agon" engine <<<"$1" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for search in "${searches[@]}"; do
    name=${search%:*}
    depth=${search#*:}
    case $name in
        start) position="position startpos" ;;
        midgame) position="position startpos moves $midgame" ;;
        *) echo "scripts/search-instructions.sh: unknown search '$search' (start:N or midgame:N)" >&2; exit 2 ;;
    esac
    commands=$(printf '%s\ngo depth %s' "$position" "$depth")
    nodes=$("$agon" engine <<<"$commands" | sed -n 's/^info .*nodes \([0-9]*\).*/\1/p' | tail -1)
    base=$(instructions "$position")
    total=$(instructions "$commands")
    awk -v s="$search" -v n="$nodes" -v t="$total" -v b="$base" -v c="${commit:-unknown}" \
        'BEGIN { printf "%s: %d nodes, %.1f instructions per node (commit %s)\n", s, n, (t - b) / n, c }'
done
