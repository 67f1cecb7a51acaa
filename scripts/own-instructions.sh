#!/usr/bin/env bash
# Where a workload's instructions go: each function's own instructions (callgrind with
# --dump-instr=yes, callees excluded) over a unit count (nodes, actions, leaves), and for one
# function the instructions of its hottest straight-line code: its instructions grouped by
# how often each ran (powers of two), and for the group that executed the most the mix of
# mnemonics and how many address the stack (spills and reloads). docs/performance.md's
# breakdowns of an alpha-beta node come from this script.
#
# Usage: scripts/own-instructions.sh AGON UNITS FUNCTION [ARGS...] [< STDIN]
#   AGON      the agon binary (for instance target/release/agon)
#   UNITS     the number to divide by (for instance the search's node count)
#   FUNCTION  a substring of the function to look into (for instance 'Searcher::quiesce')
#   ARGS      agon's arguments; standard input is passed on (`agon engine` reads it)
# For instance, the alpha-beta search of the start at depth 8 (656781 nodes):
#   printf 'position startpos\ngo depth 8\n' | scripts/own-instructions.sh \
#       target/release/agon 656781 'Searcher::quiesce' engine
# Needs valgrind, objdump and python3.
set -euo pipefail
agon="${1:?usage: scripts/own-instructions.sh AGON UNITS FUNCTION [ARGS...]}"
units="${2:?usage: scripts/own-instructions.sh AGON UNITS FUNCTION [ARGS...]}"
function="${3:?usage: scripts/own-instructions.sh AGON UNITS FUNCTION [ARGS...]}"
shift 3
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --dump-instr=yes --dump-line=no --callgrind-out-file="$out" \
    "$agon" "$@" >/dev/null 2>&1
python3 - "$out" "$agon" "$units" "$function" <<'EOF'
import collections, math, re, subprocess, sys

path, binary, units, wanted = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
names, own, calls = {}, collections.Counter(), collections.Counter()
per_address = collections.Counter()  # the wanted function's instructions by address
function = callee = None
address = 0
cost_of_call = False
for line in open(path):
    if line.startswith(("fn=", "cfn=")):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
        if m.group(2):
            names[m.group(1)] = m.group(2)
        if line.startswith("fn="):
            function = names.get(m.group(1), "")
        else:
            callee = names.get(m.group(1), "")
        continue
    if line.startswith("calls="):
        calls[callee] += int(line.split("=")[1].split()[0])
        cost_of_call = True  # the next cost line is the call's inclusive cost
        continue
    if not line[:1] or line[0] not in "0123456789+-*":
        continue
    fields = line.split()
    token = fields[0]
    if token.startswith("0x"):
        address = int(token, 16)
    elif token[0] in "+-":
        step = int(token[1:], 16) if token[1:].startswith("0x") else int(token[1:])
        address += step if token[0] == "+" else -step
    elif token != "*":
        address = int(token)
    if cost_of_call:
        cost_of_call = False
        continue
    if len(fields) > 1:
        own[function] += int(fields[-1])
        if wanted in function:
            per_address[address] += int(fields[-1])

print(f"Own instructions per unit ({units:.0f} units), callees excluded:")
for name, count in own.most_common(20):
    print(f"{count:>14,} {count / units:8.1f} per unit {calls[name]:>11,} calls  {name[:100]}")
if not per_address:
    sys.exit(f"no function matches {wanted!r}")
dump = subprocess.run(
    ["objdump", "-d", "--no-show-raw-insn", f"--start-address={min(per_address):#x}",
     f"--stop-address={max(per_address) + 16:#x}", binary],
    capture_output=True, text=True, check=True).stdout
text = {}
for line in dump.splitlines():
    m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
    if m:
        text[int(m.group(1), 16)] = m.group(2)
groups = collections.defaultdict(list)
for addr, count in per_address.items():
    groups[int(math.log2(count))].append(addr)
print(f"\nInstructions of functions matching {wanted!r}, by how often each ran:")
for k in sorted(groups):
    total = sum(per_address[a] for a in groups[k])
    print(f"  run 2^{k} to 2^{k + 1} times: {len(groups[k]):>5} instructions, {total:>14,} executed")
hottest = max(groups, key=lambda k: sum(per_address[a] for a in groups[k]))
block = groups[hottest]
mix = collections.Counter(text.get(a, "?").split()[0] for a in block)
stack = sum("rsp" in text.get(a, "") for a in block)
executed = sum(per_address[a] for a in block)
print(f"\nThe group that executed most: {len(block)} instructions, run {executed / len(block):,.0f}"
      f" times on average ({executed / units:.1f} per unit); {stack} address the stack")
print("  " + ", ".join(f"{n} {op}" for op, n in mix.most_common(12)))
EOF
