#!/bin/sh
# How far `stackprof vmlinux` agrees with GCC's own call graph (the .ci
# files of -fcallgraph-info) of the same kernel build, and why it differs:
# .su rows matched, totals equal to the .ci worst case per class of
# difference, calls from inline assembly, dynamic frames and their causes.
#   bench/kernel-accuracy.sh [TREE]   (default: bench/build-kernel.sh's
#   DWARF 4 tree; also try its dwarf4_fno_optimize_sibling_calls variant)
# The tree is only read; the work files go to a temporary directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ]; then
	tree=$(cd "$1" && pwd)
else
	tree=$(dirname "$("$top/bench/build-kernel.sh" dwarf4 | tail -n 1)")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tree"
"$top/stackprof" -v --json -o "$tmp/both.json" vmlinux 2>"$tmp/verbose"
"$top/stackprof" --calls=dwarf --json -o "$tmp/dwarf.json" vmlinux 2>/dev/null
"$top/stackprof" --dot "$tmp/both.dot" --all vmlinux >/dev/null 2>&1
readelf -sW vmlinux >"$tmp/syms"
objdump -d --no-show-raw-insn vmlinux >"$tmp/disasm"
readelf --debug-dump=info --dwarf-depth=1 vmlinux |
	awk '/DW_TAG_compile_unit/ { cu = 1 } cu && /DW_AT_name/ { print $NF; cu = 0 }' >"$tmp/cus"
echo "tree: $tree"
python3 "$top/bench/kernel_accuracy.py" --tree "$tree" --both "$tmp/both.json" \
	--dwarf "$tmp/dwarf.json" --dot "$tmp/both.dot" --verbose "$tmp/verbose" --syms "$tmp/syms" \
	--disasm "$tmp/disasm" --cus "$tmp/cus"
