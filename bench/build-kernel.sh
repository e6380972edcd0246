#!/bin/sh
# Build a small Linux kernel with -fstack-usage, GCC call-graph files and
# DWARF, for the kernel-scale benchmarks.  The tree is cached outside the
# repository: nothing of it is ever committed.
#
#   bench/build-kernel.sh [dwarf4|dwarf5|modules] [extra KCFLAGS]
#
# "modules" is DWARF 4 with CONFIG_MODULES=y and the 8250 serial driver
# (8250.ko, 8250_base.ko, serial_base.ko...) built as loadable modules.
#   STACKPROF_KERNEL_CACHE=/tmp/stackprof-kernel   where trees are kept
#
# Prints the path of the built vmlinux on its last line.
set -eu

variant=${1:-dwarf4}
extra=${2:-}
cache=${STACKPROF_KERNEL_CACHE:-/tmp/stackprof-kernel}
tree="$cache/linux-$variant$(printf %s "$extra" | tr -c 'a-z0-9' '_' | sed 's/_*$//')"

need() { command -v "$1" >/dev/null 2>&1; }
if ! need flex || ! need bison || ! need bc || [ ! -d /usr/src ] ||
   ! ls /usr/src/linux-source-6.1.tar.* >/dev/null 2>&1; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		linux-source-6.1 flex bison bc libelf-dev libssl-dev >/dev/null
fi

if [ ! -f "$tree/vmlinux" ]; then
	mkdir -p "$cache"
	if [ ! -d "$tree" ]; then
		tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -n 1)
		tmp="$tree.unpack"
		rm -rf "$tmp" && mkdir -p "$tmp"
		tar -xf "$tarball" -C "$tmp" --strip-components=1
		mv "$tmp" "$tree"
	fi
	cd "$tree"
	make -s tinyconfig
	for opt in 64BIT DEBUG_KERNEL DEBUG_INFO PRINTK BLOCK TTY; do
		scripts/config --enable "$opt"
	done
	case "$variant" in
	dwarf5) scripts/config --disable DEBUG_INFO_DWARF4 --enable DEBUG_INFO_DWARF5 ;;
	modules)
		scripts/config --disable DEBUG_INFO_DWARF5 --enable DEBUG_INFO_DWARF4 \
			--enable MODULES --enable MODULE_UNLOAD \
			--module SERIAL_8250 --module SERIAL_CORE
		targets="vmlinux modules" ;;
	*) scripts/config --disable DEBUG_INFO_DWARF5 --enable DEBUG_INFO_DWARF4 ;;
	esac
	scripts/config --disable DEBUG_INFO_NONE --disable DEBUG_INFO_REDUCED \
		--disable DEBUG_INFO_SPLIT --disable DEBUG_INFO_BTF
	make -s olddefconfig
	make -s -j"$(nproc)" ${targets:-vmlinux} \
		KCFLAGS="-fstack-usage -fcallgraph-info=su,da $extra" >build.log 2>&1 ||
		{ tail -n 30 build.log >&2; exit 1; }
fi
echo "$tree/vmlinux"
