#!/usr/bin/env bash
# The clock this machine gives one thread, in cycles per CPU second: a chain of dependent
# 64-bit multiplications (three cycles each on every x86-64 core since 2006) timed in CPU
# time, ROUNDS rounds. docs/performance.md reads a rate target against it: N actions per CPU
# second leave CLOCK / N cycles per action, and with the instructions a core retires per
# cycle (IPC), CLOCK * IPC / N instructions.
#
# Usage: scripts/clock.sh   (ROUNDS=N, default 5). Needs a C compiler (`cc`) and x86-64;
# the timed loop is inline assembly, so no compiler can shorten the chain.
set -euo pipefail
rounds="${ROUNDS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/clock.c" <<'EOF'
#include <stdio.h>
#include <time.h>
int main(void) {
    const long iterations = 500000000L; /* two multiplications each */
    struct timespec a, b;
    unsigned long x = 1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (long i = 0; i < iterations; i++) {
        __asm__ volatile("imul $3, %0, %0\n\timul $3, %0, %0" : "+r"(x));
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double seconds = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%.2f\n", 6.0 * iterations / seconds / 1e9);
    return x == 0;
}
EOF
cc -O2 -o "$work/clock" "$work/clock.c"
echo "commit $(git -C "$(dirname "$0")" rev-parse --short HEAD): G cycles per CPU second, $rounds rounds:"
for ((round = 1; round <= rounds; round++)); do
    "$work/clock"
done | sort -n | tr '\n' ' '
echo
