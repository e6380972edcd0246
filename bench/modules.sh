#!/bin/sh
# vmlinux + loadable modules: build the "modules" kernel variant (tinyconfig,
# CONFIG_MODULES=y, the 8250 driver as modules), then time
# `stackprof vmlinux *.ko` against checkstack over the same files and
# against `stackprof vmlinux` alone, in one farm-bench run each.
#   bench/modules.sh [RUNS]            (default 5)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
vmlinux=$("$top/bench/build-kernel.sh" modules | tail -n 1)
runs=${1:-5}
tree=$(dirname "$vmlinux")
cd "$tree"
kos=$(find drivers -name '*.ko' | sort | tr '\n' ' ')
echo "modules: $kos"
"$top/stackprof" -v -o /dev/null vmlinux $kos 2>&1 | tail -n 2
"$top/stackprof" --kernel-summary --top 3 vmlinux $kos | grep -E '^[A-Z][a-z]+ [a-z]+: [0-9]+'
farm-bench -n "$runs" --vs "sh -c 'objdump -d vmlinux $kos | perl scripts/checkstack.pl x86_64 >/dev/null'" \
	-- "$top/stackprof" -o /dev/null vmlinux $kos
farm-bench -n "$runs" --vs "$top/stackprof -o /dev/null vmlinux" \
	-- "$top/stackprof" -o /dev/null vmlinux $kos
