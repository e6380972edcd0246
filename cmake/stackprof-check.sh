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
# The .su files are named: stackprof looks for a.su beside a.c and a.o,
# and GCC names the rows of CMake's a.c.o a.c.su.
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

# su_name DIR/a.c.su: sets name to DIR/a.su, a link to it, which
# stackprof ties to the compile unit of a.c by its stem (as a.su beside
# a.o); to DIR/a.c.su itself when a.su is another file: a.cpp's link,
# or one of the build's own
linked=
su_name()
{
	name=$1
	_base=${1%.su}
	_link=${_base%.*}.su
	case ${_base##*/} in
	*.*) ;;
	*) return ;;
	esac
	case $linked in
	*"
$_link
"*) return ;;
	esac
	if [ -e "$_link" ] && [ ! -L "$_link" ]; then
		return
	fi
	ln -sf "${1##*/}" "$_link" 2>/dev/null || return
	linked="$linked
$_link
"
	name=$_link
}

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
		su_name "$su"
		set -- "$@" "$name"
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
