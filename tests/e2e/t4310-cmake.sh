#!/bin/sh
# The CMake package: after `make install PREFIX=...`, a project that does
# find_package(stackprof) and stackprof_check(prog BUDGET N ENTRY main)
# configures and builds; its objects get .su files (and -g) without
# asking, no other target does; prog-stack-check and the CTest test
# prog-stack fail one byte below main's worst case, with a GCC-style
# "file:line:col: error:" line, and pass at it.  The worst case is summed
# by hand: the .su frames of main -> middle -> leaf, plus leaf's red zone
# on x86-64 (from objdump).  Built with the default generator and build
# type; with Ninja, Release and LTO (the rows from the link's ltrans
# .su), then without LTO in the same tree; with Ninja Multi-Config;
# with POST_BUILD; for a Cortex-M3 through samples/firmware's toolchain
# file (Makefiles and Ninja); and the firmware sample's own CMakeLists.txt.
# The package finds the installed binary relative to itself (a moved
# tree), through PATH too, and refuses a version it is not.
. tests/e2e/lib.sh

command -v cmake >/dev/null 2>&1 || skip "no cmake (tools/install-deps installs it)"

# the outer make's flags and the caller's compilers, flags and CMake
# settings must not leak into these builds
cm()
{
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u CXXFLAGS -u LDFLAGS \
	    -u CC -u CXX -u CMAKE_GENERATOR -u CMAKE_BUILD_TYPE -u CMAKE_PREFIX_PATH \
	    -u CMAKE_TOOLCHAIN_FILE -u CTEST_OUTPUT_ON_FAILURE "$@"
}

top=$(pwd)
out=$(cd "$OUT" && pwd)
prefix=$out/prefix
cm make -s install PREFIX="$prefix" >"$out/install.log" 2>&1 ||
	fail "make install: $(tail -3 "$out/install.log")"
pkg=$prefix/lib/cmake/stackprof
cmp -s cmake/stackprofConfig.cmake "$pkg/stackprofConfig.cmake" ||
	fail "install: $pkg/stackprofConfig.cmake differs from cmake/stackprofConfig.cmake"
[ -x "$pkg/stackprof-check.sh" ] || fail "install: no executable $pkg/stackprof-check.sh"
version=$(./stackprof --version | awk '{ print $2 }')
grep -q "^set(PACKAGE_VERSION \"$version\")\$" "$pkg/stackprofConfigVersion.cmake" ||
	fail "install: stackprofConfigVersion.cmake does not say $version"

# ---- the package alone: where it finds stackprof, which versions ----
mkdir -p "$out/probe"
cat >"$out/probe/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.15)
project(probe NONE)
find_package(stackprof ${WANT} REQUIRED)
get_target_property(imported stackprof::stackprof IMPORTED_LOCATION)
message(STATUS "stackprof ${stackprof_VERSION}: ${stackprof_EXECUTABLE} ${imported} ${stackprof_DATA_DIR}")
CM
# probe NAME [cmake args]: configure the probe in its own tree
probe()
{
	_n=$1
	shift
	rm -rf "$out/probe-$_n"
	cm cmake -S "$out/probe" -B "$out/probe-$_n" "$@" >"$out/probe-$_n.log" 2>&1
}
probe prefix -DCMAKE_PREFIX_PATH="$prefix" ||
	fail "find_package with CMAKE_PREFIX_PATH: $(cat "$out/probe-prefix.log")"
grep -Fq -- "-- stackprof $version: $prefix/bin/stackprof $prefix/bin/stackprof $prefix/share/stackprof" \
	"$out/probe-prefix.log" || fail "find_package's variables: $(grep -- '-- stackprof' "$out/probe-prefix.log")"
PATH=$prefix/bin:$PATH probe path || fail "find_package through PATH: $(cat "$out/probe-path.log")"
grep -Fq -- "-- stackprof $version: $prefix/bin/stackprof" "$out/probe-path.log" ||
	fail "find_package through PATH found another: $(grep -- '-- stackprof' "$out/probe-path.log")"
probe same -DCMAKE_PREFIX_PATH="$prefix" -DWANT="${version%.*}" ||
	fail "find_package(stackprof ${version%.*}) refused $version"
probe newer -DCMAKE_PREFIX_PATH="$prefix" -DWANT=99.0 &&
	fail "find_package(stackprof 99.0) accepted $version"
# a moved tree: everything relative to the package's own place
cp -R "$prefix" "$out/moved"
probe moved -DCMAKE_PREFIX_PATH="$out/moved" || fail "a moved tree: $(cat "$out/probe-moved.log")"
grep -Fq -- "-- stackprof $version: $out/moved/bin/stackprof" "$out/probe-moved.log" ||
	fail "a moved tree: $(grep -- '-- stackprof' "$out/probe-moved.log")"
rm "$out/moved/bin/stackprof"
probe nobin -DCMAKE_PREFIX_PATH="$out/moved" && fail "find_package without the binary succeeded"
tr -s ' \n' '  ' <"$out/probe-nobin.log" | grep -q "no stackprof binary at $out/moved/bin/stackprof, where" ||
	fail "find_package without the binary: $(cat "$out/probe-nobin.log")"

# ---- the project: main -> middle -> leaf, one file each ----
proj=$out/proj
mkdir -p "$proj/sub"
cat >"$proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.15)
project(chain C)
if(CMAKE_CROSSCOMPILING)
	# a program of the build machine: outside the toolchain's root
	find_package(stackprof REQUIRED NO_CMAKE_FIND_ROOT_PATH)
	add_link_options(--specs=nosys.specs)
else()
	find_package(stackprof REQUIRED)
endif()
enable_testing()
add_executable(prog main.c middle.c sub/leaf.c)
add_executable(other other.c)
stackprof_check(prog BUDGET ${BUDGET} ENTRY main ${CHECK})
CM
cat >"$proj/main.c" <<'C'
int middle(volatile char *s, int n);

int main(int argc, char **argv)
{
	volatile char big[1000];

	(void)argv;
	big[0] = (char)argc;
	return middle(big, argc) & 1;
}
C
cat >"$proj/middle.c" <<'C'
int leaf(volatile char *s, int n);

__attribute__((noipa)) int middle(volatile char *s, int n)
{
	volatile char pad[600];

	pad[0] = s[0];
	return leaf(s, n) + pad[n & 511];
}
C
cat >"$proj/sub/leaf.c" <<'C'
__attribute__((noipa)) int leaf(volatile char *s, int n)
{
	volatile char buf[200];
	int i;

	for (i = 0; i < n && i < 200; i++)
		buf[i] = s[i];
	return buf[n & 127];
}
C
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$proj/other.c"

# su_rows OBJDIR ELF: the .su rows of prog: the LTO link's beside ELF
# when it wrote any, else those of its objects (GCC's a.c.su for a.c.o)
su_rows()
{
	if ls "$2".ltrans*.ltrans.su >/dev/null 2>&1; then
		cat "$2".ltrans*.ltrans.su
	else
		find "$1" -name '*.c.su' -exec cat {} +
	fi
}

# worst OBJDIR ELF: main's worst case by hand into w, the frames of
# main, middle and leaf plus leaf's red zone (x86-64 only), and main's
# FILE:LINE:COL into loc
worst()
{
	su_rows "$1" "$2" >"$out/rows"
	w=0
	for _f in main middle leaf; do
		_v=$(su_self "$out/rows" $_f)
		if [ "$(echo "$_v" | wc -w)" -ne 1 ]; then
			fail "$1: want one .su row for $_f, got '$_v'"
			_v=0
		fi
		w=$((w + _v))
	done
	loc=$(awk -F'\t' '$1 ~ /:main$/ { sub(/:main$/, "", $1); print $1 }' "$out/rows")
	if readelf -h "$2" | grep -q 'Machine:.*X86-64'; then
		w=$((w + $(red_zone "$2" leaf)))
	fi
}

# budget_check DESC BUILD OBJDIR ELF [ctest args]: the check target and
# the CTest test fail one byte below the worst case, and pass at it
budget_check()
{
	_d=$1 _b=$2 _obj=$3 _elf=$4
	shift 4
	worst "$_obj" "$_elf"
	_w=$w _below=$((w - 1))
	cm cmake "$_b" -DBUDGET=$_below >"$out/reconf.log" 2>&1 || fail "$_d: cmake -DBUDGET: $(tail -3 "$out/reconf.log")"
	if cm cmake --build "$_b" --target prog-stack-check "$@" >"$out/over.log" 2>&1; then
		fail "$_d: prog-stack-check passed at BUDGET $_below, below the worst $_w"
	fi
	grep -Fqx "$loc: error: stack budget exceeded: $_w > $_below bytes via main → middle → leaf" "$out/over.log" ||
		fail "$_d: no GCC-style error for main at $loc ($_w > $_below):
$(cat "$out/over.log")"
	(cd "$_b" && cm ctest $ctest_args >"$out/ctest-over.log" 2>&1) &&
		fail "$_d: ctest passed at BUDGET $_below"
	grep -q 'prog-stack .*Failed' "$out/ctest-over.log" || fail "$_d: ctest: $(cat "$out/ctest-over.log")"
	cm cmake "$_b" -DBUDGET=$_w >"$out/reconf.log" 2>&1 || fail "$_d: cmake -DBUDGET: $(tail -3 "$out/reconf.log")"
	cm cmake --build "$_b" --target prog-stack-check "$@" >"$out/at.log" 2>&1 ||
		fail "$_d: prog-stack-check failed at BUDGET $_w, the worst: $(tail -5 "$out/at.log")"
	_n=$(wc -l <"$out/rows")
	grep -Eq "^Frames from [0-9]+ \.su files?: $_n of $_n rows matched\$" "$out/at.log" ||
		fail "$_d: not every one of prog's $_n .su rows matched: $(grep '^Frames' "$out/at.log")"
	(cd "$_b" && cm ctest $ctest_args >"$out/ctest-at.log" 2>&1) ||
		fail "$_d: ctest failed at BUDGET $_w: $(cat "$out/ctest-at.log")"
}

# configure DIR [cmake args]: a fresh build tree of the project
configure()
{
	_b=$1
	shift
	rm -rf "$_b"
	cm cmake -S "$proj" -B "$_b" -DCMAKE_PREFIX_PATH="$prefix" -DBUDGET=1M "$@" \
		>"$_b.configure.log" 2>&1 || fail "configure $_b: $(tail -5 "$_b.configure.log")"
}

has_debug() { readelf -S "$1" 2>/dev/null | grep -q '\.debug_info'; }

# the default generator and build type: no -O, no -g of the project's own
b=$out/make
configure "$b"
cm cmake --build "$b" >"$out/make.log" 2>&1 || fail "build: $(tail -5 "$out/make.log")"
for f in main.c middle.c sub/leaf.c; do
	[ -s "$b/CMakeFiles/prog.dir/$f.su" ] || fail "no CMakeFiles/prog.dir/$f.su: no -fstack-usage added"
done
[ -z "$(find "$b/CMakeFiles/other.dir" -name '*.su')" ] || fail "the target other got .su files"
has_debug "$b/prog" || fail "prog has no DWARF: no -g added"
has_debug "$b/other" && fail "the target other got -g"
ctest_args=
budget_check "make" "$b" "$b/CMakeFiles/prog.dir" "$b/prog"

# POST_BUILD: a failed check fails the build and removes prog, so that
# the next build checks again
b=$out/post
configure "$b" -DCHECK=POST_BUILD
cm cmake --build "$b" >"$out/post.log" 2>&1 || fail "POST_BUILD at 1M: $(tail -5 "$out/post.log")"
worst "$b/CMakeFiles/prog.dir" "$b/prog"
cm cmake "$b" -DBUDGET=$((w - 1)) >/dev/null 2>&1
touch "$proj/main.c"
for i in 1 2; do
	cm cmake --build "$b" >"$out/post-over.log" 2>&1 &&
		fail "POST_BUILD below the worst $w: build $i passed"
	grep -Fqx "$loc: error: stack budget exceeded: $w > $((w - 1)) bytes via main → middle → leaf" \
		"$out/post-over.log" || fail "POST_BUILD build $i: no error line: $(tail -5 "$out/post-over.log")"
	[ -e "$b/prog" ] && fail "POST_BUILD build $i: prog left behind"
done
cm cmake "$b" -DBUDGET=$w >/dev/null 2>&1
cm cmake --build "$b" >"$out/post-at.log" 2>&1 || fail "POST_BUILD at the worst $w: $(tail -5 "$out/post-at.log")"
[ -x "$b/prog" ] || fail "POST_BUILD at the worst: no prog"

if command -v ninja >/dev/null 2>&1; then
	# Release (-O3, no -g) with LTO: the rows come from the link
	b=$out/ninja-lto
	configure "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON
	cm cmake --build "$b" >"$out/lto.log" 2>&1 || fail "LTO build: $(tail -5 "$out/lto.log")"
	ls "$b"/prog.ltrans*.ltrans.su >/dev/null 2>&1 || fail "LTO: no prog.ltransN.ltrans.su: no -fstack-usage on the link"
	has_debug "$b/prog" || fail "Release with LTO: no -g added"
	budget_check "Ninja, Release, LTO" "$b" "$b/CMakeFiles/prog.dir" "$b/prog"
	# the same tree without LTO: the link's old rows go, the objects' count
	cm cmake "$b" -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF >/dev/null 2>&1
	cm cmake --build "$b" >"$out/nolto.log" 2>&1 || fail "build without LTO: $(tail -5 "$out/nolto.log")"
	ls "$b"/prog.ltrans*.ltrans.su >/dev/null 2>&1 && fail "without LTO: the LTO link's rows are left"
	budget_check "Ninja, Release, LTO then not" "$b" "$b/CMakeFiles/prog.dir" "$b/prog"

	# one tree, several configurations: -g where a configuration has none
	b=$out/multi
	configure "$b" -G "Ninja Multi-Config"
	for c in Release RelWithDebInfo; do
		cm cmake --build "$b" --config $c -v >"$out/multi-$c.log" 2>&1 ||
			fail "Ninja Multi-Config --config $c: $(tail -5 "$out/multi-$c.log")"
		has_debug "$b/$c/prog" || fail "--config $c: prog has no DWARF"
		n=$(grep -- '-o CMakeFiles/prog.dir/.*main\.c\.o' "$out/multi-$c.log" | tr ' ' '\n' | grep -c '^-g$')
		expect_eq "--config $c: one -g on main.c's command line" "$n" 1
	done
	ctest_args="-C Release"
	budget_check "Ninja Multi-Config, Release" "$b" "$b/CMakeFiles/prog.dir/Release" "$b/Release/prog" --config Release
	ctest_args=
else
	skip_part "no ninja: the Ninja builds (tools/install-deps installs ninja-build)"
fi

# ---- cross: arm-none-eabi-gcc through samples/firmware's toolchain file ----
tc=$top/samples/firmware/arm-none-eabi.cmake
if ! command -v arm-none-eabi-gcc >/dev/null 2>&1 ||
   [ ! -f "$(arm-none-eabi-gcc -print-file-name=nosys.specs)" ]; then
	skip_part "no arm-none-eabi-gcc and newlib: the Cortex-M3 builds"
	finish
	exit
fi
gens=Unix\ Makefiles
command -v ninja >/dev/null 2>&1 && gens="$gens:Ninja"
old_ifs=$IFS
IFS=:
for g in $gens; do
	IFS=$old_ifs
	b=$out/arm-$(echo "$g" | tr -d ' ')
	configure "$b" -G "$g" -DCMAKE_TOOLCHAIN_FILE="$tc" -DCMAKE_BUILD_TYPE=MinSizeRel
	cm cmake --build "$b" >"$out/arm.log" 2>&1 || fail "Cortex-M3 build ($g): $(tail -5 "$out/arm.log")"
	expect_eq "Cortex-M3 ($g): prog is ELF32 ARM" \
		"$(readelf -h "$b/prog" | awk '/Class:/ { c = $2 } /Machine:/ { m = $2 } END { print c, m }')" "ELF32 ARM"
	has_debug "$b/prog" || fail "Cortex-M3 ($g), MinSizeRel: no -g added"
	budget_check "Cortex-M3 ($g)" "$b" "$b/CMakeFiles/prog.dir" "$b/prog"
done
IFS=$old_ifs

# the firmware sample built by CMake, its command table annotated
# (firmware.ann): within its 1K, every .su row matched; below
# Reset_Handler's frame plus main's, an error at Reset_Handler
b=$out/sample
rm -rf "$b"
cm cmake -S samples/firmware -B "$b" -DCMAKE_TOOLCHAIN_FILE="$tc" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_BUILD_TYPE=MinSizeRel >"$out/sample.log" 2>&1 ||
	fail "samples/firmware (CMake): $(tail -5 "$out/sample.log")"
cm cmake --build "$b" --target firmware-stack-check >"$out/sample-check.log" 2>&1 ||
	fail "samples/firmware (CMake): firmware-stack-check: $(tail -20 "$out/sample-check.log")"
rows=$(find "$b/CMakeFiles/firmware.dir" -name '*.c.su' -exec cat {} + | wc -l)
grep -q "^Frames from 3 .su files: $rows of $rows rows matched" "$out/sample-check.log" ||
	fail "samples/firmware (CMake): not every .su row matched: $(grep '^Frames' "$out/sample-check.log")"
grep -q '^ *>= ' "$out/sample-check.log" &&
	fail "samples/firmware (CMake): a root is unbounded (firmware.ann not applied?)"
(cd "$b" && cm ctest >"$out/sample-ctest.log" 2>&1) ||
	fail "samples/firmware (CMake): ctest: $(cat "$out/sample-ctest.log")"
find "$b/CMakeFiles/firmware.dir" -name '*.c.su' -exec cat {} + >"$out/fw-rows"
small=$(($(su_self "$out/fw-rows" Reset_Handler) + $(su_self "$out/fw-rows" main) - 1))
at=$(awk -F'\t' '$1 ~ /:Reset_Handler$/ { sub(/:Reset_Handler$/, "", $1); print $1 }' "$out/fw-rows")
cm cmake "$b" -DFIRMWARE_STACK_BUDGET=$small >/dev/null 2>&1
cm cmake --build "$b" --target firmware-stack-check >"$out/sample-over.log" 2>&1 &&
	fail "samples/firmware (CMake): passed at $small bytes"
grep -Eq "^$at: error: stack budget exceeded: [0-9]+ > $small bytes via Reset_Handler → main( |\$)" \
	"$out/sample-over.log" || fail "samples/firmware (CMake) at $small bytes: $(tail -5 "$out/sample-over.log")"
finish
