#!/bin/sh
# objtool.sh: print the path of an objtool built from Debian's Linux 6.1
# sources (package linux-source-6.1), building it on first use from the
# tools/ part of the tarball; cached outside the repository, like the
# kernel trees of bench/build-kernel.sh.
#   STACKPROF_KERNEL_CACHE=/tmp/stackprof-kernel   where it is kept
# Exit 3 when the sources are not installed (the caller skips), 1 when
# the build fails.
set -eu
cache=${STACKPROF_KERNEL_CACHE:-/tmp/stackprof-kernel}
tree=$cache/objtool-6.1
if [ ! -x "$tree/tools/objtool/objtool" ]; then
	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
	if [ -z "$tarball" ]; then
		echo "no /usr/src/linux-source-6.1.tar.* (apt-get install linux-source-6.1)" >&2
		exit 3
	fi
	tmp=$tree.build.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	tar -xf "$tarball" -C "$tmp" --strip-components=1 linux-source-6.1/tools/objtool \
		linux-source-6.1/tools/include linux-source-6.1/tools/lib \
		linux-source-6.1/tools/build linux-source-6.1/tools/scripts \
		linux-source-6.1/tools/arch/x86
	make -s -C "$tmp/tools/objtool" -j2 >"$tmp/build.log" 2>&1 ||
		{ tail -n 20 "$tmp/build.log" >&2; exit 1; }
	rm -rf "$tree" && mv "$tmp" "$tree"
	trap - EXIT
fi
echo "$tree/tools/objtool/objtool"
