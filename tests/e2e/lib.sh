# lib.sh - sourced by every tests/e2e/tNNNN-*.sh; they run from the repo
# root, drive ./stackprof over the built samples and keep their scratch
# files in tests/e2e/out/TEST/.  A test prints what went wrong and exits
# non-zero; run.sh reports it.  A test, or a part of one, that cannot run
# here says so with skip or skip_part: never a silent pass.
set -u

SP=${STACKPROF:-./stackprof}	# make check-asan runs the suite on its own build
# The tests' oracles (GCC's call graph, the .su files, a painted stack
# over stubs of libc) stop at the program's own code: stackprof does not
# follow it into its shared libraries unless a test unsets this (t3030).
STACKPROF_LIBS=no
export STACKPROF_LIBS
ORACLE="python3 tests/e2e/ci_oracle.py"
TEST=$(basename "$0" .sh)
OUT=tests/e2e/out/$TEST
failures=0

rm -rf "$OUT"
mkdir -p "$OUT"

fail()
{
	echo "  not ok: $*"
	failures=$((failures + 1))
}

# The test's exit status: run last.  The JSON reports of run_sp are
# checked here.
finish()
{
	check_json_runs
	[ "$failures" -eq 0 ]
}

check_json_runs()
{
	if [ "$json_runs" -gt 0 ]; then
		_before=$failures
		check_json "$OUT"/json-runs/*.json
		# a shared run's report (run_sp) is checked once
		if [ "$failures" -eq "$_before" ]; then
			for _k in "$OUT"/json-runs/*.key; do
				[ -f "$_k" ] && touch "$(cat "$_k")/checked"
			done
		fi
		rm -rf "$OUT/json-runs"
		json_runs=0
	fi
}

# skip REASON: the test cannot run here (a missing browser, another
# architecture...): exit 77, automake's "skipped", which run.sh counts
# apart from passes and shows with REASON.  A check that failed before
# still fails the test.  In a ( subshell ) it ends only the subshell.
SKIP_STATUS=77
skip()
{
	echo "skip: $*"
	check_json_runs
	[ "$failures" -eq 0 ] || exit 1
	exit $SKIP_STATUS
}

# skip_part REASON: one part of the test cannot run here; the rest goes
# on, and run.sh shows the test "ok" with REASON beside it and counts the
# part among the skipped.
skip_part()
{
	echo "skip: $*"
}

# sanitized_sp: $SP is built with AddressSanitizer (make check-asan),
# under which a run over Debian's whole kernel takes 5-10 times as long;
# make test has made the same runs with ./stackprof, and the sanitized
# build goes over a whole kernel in tests/fuzz/kernel-run.sh.
# STACKPROF_ASAN_KERNEL=run: false all the same.
sanitized_sp()
{
	[ "${STACKPROF_ASAN_KERNEL:-}" != run ] &&
		nm -D "$SP" 2>/dev/null | grep -q ' __asan_init$'
}

# no_kernel_under_asan [part]: with a sanitized_sp, skip the test's runs
# over Debian's kernel: the whole test (skip), or with "part" the rest of
# it (skip_part, then finish)
no_kernel_under_asan()
{
	sanitized_sp || return 0
	_why="no run over Debian's kernel under ASan: make test makes them, tests/fuzz/kernel-run.sh takes ASan over a kernel"
	if [ "${1:-}" = part ]; then
		skip_part "$_why"
		finish
		exit
	fi
	skip "$_why"
}

# debian_kernel_part: $vmlinux is Debian's 6.1 cloud debug kernel
# (STACKPROF_DEBIAN_VMLINUX, else under the unpacked package's root,
# STACKPROF_DEBIAN_KERNEL, /tmp/debian-kernel/root by default); when it
# is not there, or under ASan (no_kernel_under_asan), the rest of the
# test is skipped (skip_part, then finish)
debian_kernel_part()
{
	vmlinux=${STACKPROF_DEBIAN_VMLINUX:-${STACKPROF_DEBIAN_KERNEL:-/tmp/debian-kernel/root}/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
	if [ ! -f "$vmlinux" ]; then
		skip_part "no Debian kernel at $vmlinux"
		finish
		exit
	fi
	no_kernel_under_asan part
}

# debian_typed_report FILE: the typed report (--json --indirect=types)
# of Debian's kernel from every entry the --indirect=types kernel tests
# read, in FILE: one run for them all, shared through E2E_CACHE (a run
# from each test's own entry took 40-130 s, and each reached most of
# the kernel), checked to exit 0.  A test reads the sites of its own
# functions in it.
# Shared, FILE is a link to one report in E2E_CACHE, so that jget's
# expansion of it (PATH.asked, see sp_report.load_asked) is made once.
DEBIAN_TYPED_ENTRIES="bpf_map_free_kptrs do_coredump __sys_bpf __access_remote_vm xas_store
	bpf_struct_ops_init sk_getsockopt sk_setsockopt tcp_release_cb l3mdev_fib_table_rcu
	dqcache_shrink_scan __traceiter_sched_switch __SCT__x86_pmu_handle_irq
	bpf_dispatcher_xdp_func bpf_trace_run2 __cgroup_bpf_run_lsm_current
	___bpf_prog_run bpf_loop __traceiter_softirq_raise __bpf_prog_test_run_raw_tp bpf_test_run
	move_to_new_folio device_add device_del alarmtimer_suspend"
debian_typed_report()
{
	_file=$1
	set --
	for _e in $DEBIAN_TYPED_ENTRIES; do
		set -- "$@" --entry "$_e"
	done
	if [ -n "${E2E_CACHE:-}" ]; then
		run_sp --json --indirect=types "$@" -o "$E2E_CACHE/debian-typed.json" "$vmlinux"
		ln -sf "$(cd "$E2E_CACHE" && pwd)/debian-typed.json" "$_file"
	else
		run_sp --json --indirect=types "$@" -o "$_file" "$vmlinux"
	fi
	expect_rc 0 "the kernel"
}

# need_sample NAME: the sample program must be built (make -C samples)
need_sample()
{
	if [ ! -x "samples/$1/$1" ]; then
		echo "  samples/$1/$1 is not built (make -C samples)"
		exit 1
	fi
}

# built_samples: the names of the built samples (make -C samples); none
# built fails: samples=$(built_samples) || exit 1
built_samples()
{
	_list=
	for _d in samples/*/; do
		_s=$(basename "$_d")
		[ -x "samples/$_s/$_s" ] && _list="$_list $_s"
	done
	if [ -z "$_list" ]; then
		echo "  no sample is built (make -C samples)" >&2
		exit 1
	fi
	echo $_list
}

# run_sp ARGS...: ./stackprof with stdout, stderr and status in $OUT; a
# JSON report it wrote (--json, to stdout or -o FILE) is kept to be
# checked by finish (check_json), all in one go.  A kernel-scale run
# (shared_run) that an earlier test of this run.sh made is not made again.
run_sp()
{
	_json=false _next= _out="$OUT/stdout" _o=false
	for _a in "$@"; do
		[ "$_next" = o ] && _out=$_a _o=true
		_next=
		case $_a in
		--json) _json=true ;;
		-o|--output) _next=o ;;
		--output=*) _out=${_a#--output=} _o=true ;;
		esac
	done
	_key=
	if [ -n "${E2E_CACHE:-}" ] && kernel_scale "$@"; then
		_key=$E2E_CACHE/$(run_key "$@")
	fi
	if [ -n "$_key" ] && [ -f "$_key/rc" ]; then
		cp "$_key/stdout" "$OUT/stdout" && cp "$_key/stderr" "$OUT/stderr" &&
			rc=$(cat "$_key/rc") && echo "  run_sp: the run of $(cat "$_key/test") again: $*"
		if $_o && [ -f "$_key/output" ]; then
			cp "$_key/output" "$_out"
		fi
	else
		"$SP" "$@" >"$OUT/stdout" 2>"$OUT/stderr"
		rc=$?
		[ -n "$_key" ] && keep_run "$_key" "$_o" "$_out"
	fi
	if $_json && [ "$rc" -le 1 ] && [ -s "$_out" ] &&
	   ! { [ -n "$_key" ] && [ -f "$_key/checked" ]; }; then
		json_runs=$((json_runs + 1))
		mkdir -p "$OUT/json-runs"
		cp "$_out" "$OUT/json-runs/$json_runs.json"
		[ -n "$_key" ] && echo "$_key" >"$OUT/json-runs/$json_runs.key"
	fi
	return 0
}
json_runs=0

# Shared runs.  Over Debian's kernel one run takes half a minute and
# more, and tests ask for the same one (t1142, t1143 and t1147 each the
# plain report).  run.sh gives E2E_CACHE, a directory it empties at its
# start and end; the first run_sp over a kernel-scale input keeps there
# its stdout, stderr, status and -o file, and a later one with the same
# key copies them: each test still checks its own facts, on the same
# output; the JSON check (check_json_runs) is made once per run.  The
# key holds all that the output depends on: the bytes of $SP (a rebuilt
# binary is run again), the arguments (the -o file's name aside), each
# input file's bytes, or for one of 64 MB and more its size, time and
# inode, the bytes of annotations/ (--annotate NAME) and the
# STACKPROF_* variables.  A test run alone (sh tests/e2e/tNNNN-*.sh)
# shares nothing.

# kernel_scale ARGS...: an argument names a file of SHARED_RUN_BYTES
# (64 MB) or more
SHARED_RUN_BYTES=${SHARED_RUN_BYTES:-67108864}
kernel_scale()
{
	for _a in "$@"; do
		[ -f "$_a" ] && [ "$(stat -c %s "$_a")" -ge "$SHARED_RUN_BYTES" ] && return 0
	done
	return 1
}

# run_key ARGS...: the key of a run, as above
run_key()
{
	{
		sha256sum <"$SP"
		env | grep '^STACKPROF_' | sort
		cat annotations/*.ann | sha256sum
		_next=
		for _a in "$@"; do
			[ "$_next" = o ] && _a=OUTPUT
			_next=
			case $_a in
			-o|--output) _next=o ;;
			--output=*) _a=--output=OUTPUT ;;
			esac
			printf '%s:%s\n' "${#_a}" "$_a"
			if [ -f "$_a" ] && [ "$(stat -c %s "$_a")" -ge "$SHARED_RUN_BYTES" ]; then
				stat -c '%s %y %i' "$_a"
			elif [ -f "$_a" ]; then
				sha256sum <"$_a"
			fi
		done
	} | sha256sum | cut -c1-40
}

# keep_run KEY -o? OUTPUT: the run just made, under KEY
keep_run()
{
	rm -rf "$1.new" && mkdir -p "$1.new" &&
		cp "$OUT/stdout" "$OUT/stderr" "$1.new/" &&
		echo "$rc" >"$1.new/rc" && echo "$TEST" >"$1.new/test" &&
		{ ! "$2" || [ ! -f "$3" ] || cp "$3" "$1.new/output"; } &&
		mv "$1.new" "$1"
}

# check_json FILE...: each file validates against the shipped schema
# (doc/stackprof.schema.json) and holds together: every id listed, each
# path that worst_callee rebuilds equal to the one written and adding up
# to lower_bound (tests/e2e/sp_report.py)
check_json()
{
	_py=$(schema_python)
	if [ -z "$_py" ]; then
		fail "no python3 with jsonschema (python3-jsonschema) to check $*"
		return
	fi
	"$_py" tests/e2e/sp_report.py check "$@" || fail "JSON report $* (above)"
}

# expect_rc WANT DESC: the last run_sp's status
expect_rc()
{
	if [ "$rc" -ne "$1" ]; then
		fail "$2: exit $rc, want $1"
		sed 's/^/    stderr: /' "$OUT/stderr" | head -5
	fi
}

# jget REPORT EXPR: evaluate the Python expression EXPR over the JSON
# report, as tests/e2e/sp_report.py loads it (its ids and paths checked,
# not its schema: check_json does that; expanded to every function's
# path and every call's name; a large report's expansion kept for the
# next jget, load_asked), and print it as JSON.
# In EXPR, j is the report, fn(name, file) the one function of that name
# (and file suffix), fns(name) all of them.
jget()
{
	python3 - "$1" "$2" <<'PY'
import json, os, sys
sys.path.insert(0, "tests/e2e")
import sp_report
try:
    j = sp_report.load_asked(sys.argv[1])
except sp_report.ReportError as e:
    sys.exit(f"jget: {e}")
def fns(name, file=None):
    return [f for f in j["functions"] if f["name"] == name and
            (file is None or (f["file"] or "").endswith(file))]
def fn(name, file=None):
    hits = fns(name, file)
    if len(hits) != 1:
        sys.exit(f"jget: {len(hits)} functions named {name} {file or ''}")
    return hits[0]
print(json.dumps(eval(sys.argv[2])), flush=True)
os._exit(0)                     # not free a kernel's report object by object
PY
}

# expect_eq DESC GOT WANT
expect_eq()
{
	if [ "$2" != "$3" ]; then
		fail "$1: got '$2', want '$3'"
	fi
}

# cfi_ways DESC BINARY: CFI frames whose FDEs are found one by one
# (STACKPROF_CFI=one-by-one) are those libdwarf's list of all FDEs gives:
# with -v every function's CFI is compared with its .su frame, so every
# FDE of the program is looked up; the -v line and the report must match
cfi_ways()
{
	for _way in list one-by-one; do
		STACKPROF_CFI=$_way "$SP" -v --json "$2" >"$OUT/$_way.json" 2>"$OUT/$_way.err"
		grep '^stackprof: CFI' "$OUT/$_way.err" >"$OUT/$_way.cfi"
	done
	check_json "$OUT/list.json"
	[ -s "$OUT/list.cfi" ] || fail "$1: no CFI line with -v"
	cmp -s "$OUT/list.cfi" "$OUT/one-by-one.cfi" ||
		fail "$1: CFI one by one: $(cat "$OUT/one-by-one.cfi"), list: $(cat "$OUT/list.cfi")"
	cmp -s "$OUT/list.json" "$OUT/one-by-one.json" || fail "$1: the reports differ"
}

# su_self FILE.su NAME: the frame size .su gives NAME
su_self()
{
	awk -F'\t' -v name="$2" '{ n = $1; sub(/^.*:/, "", n); if (n == name) print $2 }' "$1"
}

# red_zone ELF NAME: the bytes NAME's code keeps below %rsp (a leaf's
# x86-64 red zone), read from objdump by ci_oracle.py; the largest of the
# functions of that name, 0 for none
red_zone()
{
	python3 -c 'import sys; sys.path.insert(0, "tests/e2e"); import ci_oracle
print(max(ci_oracle.objdump_red_zones(sys.argv[1]).get(sys.argv[2], [0])))' "$1" "$2"
}

# annot_sample NAME FUNC...: tests/data/annot/NAME.c built at -O2 with
# -fstack-usage into $OUT (bin, su: the ELF and its .su); every FUNC has
# a .su row and, as each calls, no red zone: totals are sums of rows
annot_sample()
{
	_name=$1
	shift
	(cd "$OUT" && gcc -O2 -g -fstack-usage -o "$_name" "../../../../tests/data/annot/$_name.c") ||
		fail "compile $_name.c"
	bin=$OUT/$_name su=$OUT/$_name.su
	for _f in "$@"; do
		[ -n "$(su_self "$su" "$_f")" ] || fail "$_name.su lacks a row for $_f"
		expect_eq "$_f's red zone" "$(red_zone "$bin" "$_f")" 0
	done
}

# oracle_value SAMPLE NAME [ORACLE ARGS]: the oracle's total (or lower
# bound) of NAME, from its --print listing (red zones from objdump)
oracle_value()
{
	_s=$1 _n=$2
	shift 2
	$ORACLE --print --objdump "samples/$_s/$_s" "$@" "samples/$_s" |
		awk -F'\t' -v name="$_n" '$1 == name { sub(/^[a-z]*=/, "", $4); print $4 }'
}

# A C program $OUT/build/NAME.c built at -O2 as $OUT/build/NAME, and with
# -finstrument-functions and tests/oracle/icall_trace.c as
# $OUT/build/traced (icall_traced runs it); false when it cannot be.
# icall_build NAME
icall_build()
{
	cp tests/oracle/icall_trace.c "$OUT/build/"
	(
		cd "$OUT/build" &&
		gcc -O2 -g -fno-pie -no-pie -o "$1" "$1.c" &&
		gcc -O2 -g -fno-pie -finstrument-functions -c "$1.c" &&
		gcc -O2 -g -fno-pie -c icall_trace.c &&
		gcc -no-pie -o traced "$1.o" icall_trace.o
	) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; return 1; }
}

# What --indirect=types REPORT says of FUNC's sites, one
# [resolved_by, type, [targets]] each.
# icall_sites REPORT FUNC
icall_sites()
{
	jget "$1" "[[s['resolved_by'], s['type'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['function'] == '$2']"
}

# Run icall_build's traced program and check its N indirect pairs
# against its --indirect=types report (icall_pairs).
# icall_traced N
icall_traced()
{
	ICALL_TRACE=$OUT/trace.txt "$OUT/build/traced" >/dev/null 2>&1
	run_sp --json --indirect=types --no-libs "$OUT/build/traced"
	expect_rc 0 "--indirect=types, traced"
	cp "$OUT/stdout" "$OUT/traced.json"
	icall_pairs "$OUT/build/traced" "$OUT/traced.json" "$1"
}

# A traced run's (call site, callee) pairs ($OUT/trace.txt, written by
# tests/oracle/icall_trace.c) against BIN's --json REPORT: every pair
# through an indirect call must be among its site's targets, and N of
# them go through indirect calls (N left out: at least one).
# icall_pairs BIN REPORT [N]
icall_pairs()
{
	_n=${3:-[1-9][0-9]*}
	python3 tests/e2e/icall_check.py "$1" "$2" "$OUT/trace.txt" >"$OUT/check" 2>&1 ||
		fail "$(cat "$OUT/check")"
	grep -q "^icall_check: [0-9]* call pairs, \($_n\) through indirect calls, \1 among the targets" \
		"$OUT/check" || fail "pairs: $(head -1 "$OUT/check")"
}

# Bad input: exit 2, exactly one line "stackprof: ..." on stderr matching
# the extended regex PATTERN, nothing on stdout, no report file (-o) and
# no temporary file left behind, no core dump.
# expect_bad DESC PATTERN ARGS...
expect_bad()
{
	_desc=$1 _pat=$2
	shift 2
	rm -f "$OUT"/report*
	run_sp -o "$OUT/report" "$@"
	expect_rc 2 "$_desc"
	if [ "$(wc -l <"$OUT/stderr")" -ne 1 ]; then
		fail "$_desc: want one line on stderr, got:"
		sed 's/^/    /' "$OUT/stderr" | head -5
	elif ! grep -Eq "^stackprof: .*$_pat" "$OUT/stderr"; then
		fail "$_desc: stderr '$(cat "$OUT/stderr")' does not match '$_pat'"
	fi
	if [ -s "$OUT/stdout" ]; then
		fail "$_desc: wrote to stdout"
	fi
	if ls "$OUT" | grep -q '^report'; then
		fail "$_desc: left $(ls "$OUT" | grep '^report' | tr '\n' ' ')behind"
	fi
	if [ -e core ] || ls "$OUT" | grep -q '^core'; then
		fail "$_desc: dumped core"
	fi
}

# A python that has jsonschema (Debian's python3-jsonschema lives in
# /usr/bin/python3; a pyenv python3 earlier on PATH may lack it), or
# nothing.
schema_python()
{
	for _py in /usr/bin/python3 python3; do
		if "$_py" -c 'import jsonschema' 2>/dev/null; then
			echo "$_py"
			return
		fi
	done
}

# patch_elf_file ELF OUT EXPR: a copy of the ELF (64-bit, little-endian)
# with EXPR applied by Python to d (the bytes); sec(name) is the offset of
# its section header, off(name) and size(name) its contents' place,
# setq(at, v) stores a 64-bit value
patch_elf_file()
{
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
shoff = struct.unpack_from("<Q", d, 0x28)[0]
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
def hdr(i): return shoff + i * shentsize
def off(name): return struct.unpack_from("<Q", d, sec(name) + 24)[0]
def size(name): return struct.unpack_from("<Q", d, sec(name) + 32)[0]
def name_of(i):
    n = struct.unpack_from("<Q", d, hdr(shstrndx) + 24)[0] + struct.unpack_from("<I", d, hdr(i))[0]
    return d[n:d.index(0, n)].decode()
def sec(name):
    for i in range(shnum):
        if name_of(i) == name:
            return hdr(i)
    sys.exit("no section " + name)
def setq(at, v): struct.pack_into("<Q", d, at, v)
exec(sys.argv[3])
open(sys.argv[2], "wb").write(d)
PY
}
