#!/bin/sh
# stackprof-check.sh - the command behind the targets, tests and link
# steps that stackprof_check() (stackprofConfig.cmake) defines.
#
#   stackprof-check.sh [--post-build] STACKPROF ELF [OPTION...] -- [OBJECTS...]
#	runs STACKPROF OPTION... ELF SU-FILES...: the .su file beside each
#	of OBJECTS (each argument may be a ';'-separated CMake list) and the
#	LTO link's ELF.ltransN.ltrans.su beside ELF.  With --post-build, a
#	failed check removes ELF, as a failed link would, so that the next
#	build links and checks again.
#   stackprof-check.sh --pre-link ELF
#	removes ELF.ltrans*.ltrans.su, so that only a link with LTO leaves
#	any behind.
#
# The .su files are named (CMake's a.c.o gives a.c.su): only this
# target's objects, not those of other targets in the same build tree.
set -u

if [ "${1-}" = --pre-link ]; then
	rm -f "$2".ltrans*.ltrans.su
	exit 0
fi
post=
if [ "${1-}" = --post-build ]; then
	post=1
	shift
fi
if [ $# -lt 3 ]; then
	echo "stackprof-check.sh: usage: [--post-build] STACKPROF ELF [OPTION...] -- [OBJECTS...]" >&2
	exit 2
fi
sp=$1 elf=$2
shift 2
if [ ! -x "$sp" ]; then
	echo "stackprof-check.sh: no stackprof at $sp: install it again, or run cmake again to find another" >&2
	exit 2
fi

# "$@" is rotated: OPTION... stay, "--" becomes ELF, OBJECTS... their .su
set -f
n=$#
objects=
while [ "$n" -gt 0 ]; do
	arg=$1
	shift
	n=$((n - 1))
	if [ -z "$objects" ]; then
		if [ "$arg" = -- ]; then
			objects=1
			set -- "$@" "$elf"
		else
			set -- "$@" "$arg"
		fi
		continue
	fi
	old_ifs=$IFS
	IFS=';'
	for obj in $arg; do
		su=${obj%.*}.su
		[ -f "$su" ] || continue
		set -- "$@" "$su"
	done
	IFS=$old_ifs
done
[ -n "$objects" ] || set -- "$@" "$elf"
set +f
for su in "$elf".ltrans*.ltrans.su; do
	[ -f "$su" ] && set -- "$@" "$su"
done

"$sp" "$@"
rc=$?
if [ "$rc" -ne 0 ] && [ -n "$post" ]; then
	rm -f "$elf"
	echo "stackprof-check.sh: removed $elf: its stack check failed" >&2
fi
exit "$rc"
