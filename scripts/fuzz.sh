#!/usr/bin/env bash
# A short fuzz run of every parser (records, annotated records, JSON, position strings,
# protocol lines, config files) and of the reader's retained input, with cargo-fuzz and
# libFuzzer. Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); not
# part of CI. Usage:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
# Crashes are saved under fuzz/artifacts/TARGET/ and reproduced with
#   cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(records annotations retain json position protocol config)
fi
for target in "${targets[@]}"; do
    corpus="fuzz/corpus/$target"
    mkdir -p "$corpus"
    # Seeds: the record corpus for the record readers (for retain, a seed's first four
    # bytes are the read sizes' seed and the retention limit), nothing else for the others
    # (libFuzzer finds the grammar from the comparisons in the parsers).
    if [ "$target" = records ] || [ "$target" = annotations ] || [ "$target" = retain ]; then
        cp -n tests/data/records/valid/*.agn tests/data/records/invalid/*.agn "$corpus/" 2>/dev/null || true
    fi
    echo "== $target: $seconds s"
    cargo +nightly fuzz run "$target" "$corpus" -- -max_total_time="$seconds" -rss_limit_mb=2048
done
