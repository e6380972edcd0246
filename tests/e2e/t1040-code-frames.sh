#!/bin/sh
# Frames read from the machine code (insn/stack.c), where .su and CFI
# have none: samples built again with -fstack-usage, their CFI sections
# stripped (objcopy), analysed with --no-su, so that every frame of their
# own functions comes from the code.  Each must be what GCC's .su row of
# the same build says: the same bytes for a static row, a dynamic frame
# for a dynamic one (alloca, a VLA).  x86-64 at -O2 and -O0, AArch64 and
# Cortex-M3 Thumb-2 when their cross compilers are here.  With the .su
# files and -v, every static .su frame of every sample agrees with the
# code ("code: ... N of N").
. tests/e2e/lib.sh

nocfi="--remove-section=.debug_frame --remove-section=.eh_frame --remove-section=.eh_frame_hdr"

# check_build DESC BINARY SU-FILES...: every .su row's function, in the
# --no-su report of BINARY stripped of its CFI, has the code's frame
check_build()
{
	_desc=$1 _bin=$2
	shift 2
	$OBJCOPY $nocfi "$_bin" "$_bin.nocfi" || { fail "$_desc: objcopy"; return; }
	"$SP" --no-su --json "$_bin.nocfi" >"$_bin.json" 2>"$_bin.err" ||
		{ fail "$_desc: stackprof exit $?: $(cat "$_bin.err")"; return; }
	cat "$@" >"$_bin.su"
	python3 - "$_bin.json" "$_bin.su" "$_desc" <<'PY' || failures=$((failures + 1))
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
report = sp_report.load(sys.argv[1])["functions"]
bad = 0
for line in open(sys.argv[2]):
    where, size, qual = line.rstrip("\n").split("\t")
    name = where.rsplit(":", 1)[1]
    # a GCC clone keeps its .su name ("f.constprop") in its symbol
    hits = [f for f in report if f["name"] == name or
            (f["symbol"] or "").startswith(name + ".")]
    if len(hits) != 1:
        print(f"  not ok: {sys.argv[3]}: {len(hits)} functions named {name}"); bad += 1
        continue
    f = hits[0]
    got = (f["frame_source"], f["qualifier"], f["self"])
    want = ("code", "static", int(size)) if qual == "static" else ("code", "dynamic")
    if got[:len(want)] != want:
        print(f"  not ok: {sys.argv[3]}: {name}: {got}, .su says {size} {qual}"); bad += 1
print(f"{sys.argv[3]}: {sum(1 for _ in open(sys.argv[2]))} rows checked, {bad} wrong")
sys.exit(1 if bad else 0)
PY
}

# build DESC CC CFLAGS SAMPLE: the sample's sources compiled in $OUT/DESC
build()
{
	_d=$OUT/$1 _cc=$2 _flags=$3 _s=$4
	mkdir -p "$_d"
	cp samples/$_s/*.c "$_d/"
	cp samples/$_s/*.h "$_d/" 2>/dev/null
	(cd "$_d" && for c in *.c; do $_cc $_flags -g -fstack-usage -c "$c" || exit 1; done &&
		$_cc $_flags -o prog *.o) 2>"$_d/build.err"
}

OBJCOPY=objcopy
for s in chain tailcall alloca vla; do
	if build "$s-O2" gcc -O2 $s; then
		check_build "$s -O2" "$OUT/$s-O2/prog" "$OUT/$s-O2"/*.su
	else
		fail "cannot build $s at -O2: $(head -3 "$OUT/$s-O2/build.err")"
	fi
done
if build chain-O0 gcc -O0 chain; then
	check_build "chain -O0" "$OUT/chain-O0/prog" "$OUT/chain-O0"/*.su
else
	fail "cannot build chain at -O0"
fi

if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	OBJCOPY=aarch64-linux-gnu-objcopy
	if build a64 aarch64-linux-gnu-gcc -O2 chain; then
		check_build "chain AArch64" "$OUT/a64/prog" "$OUT/a64"/*.su
	else
		fail "cannot build chain for AArch64: $(head -3 "$OUT/a64/build.err")"
	fi
else
	skip_part "AArch64: no aarch64-linux-gnu-gcc"
fi
if command -v arm-none-eabi-gcc >/dev/null 2>&1 && [ -x samples/firmware/firmware ]; then
	OBJCOPY=arm-none-eabi-objcopy
	cp samples/firmware/firmware "$OUT/firmware"
	check_build "firmware Thumb-2" "$OUT/firmware" samples/firmware/*.su
else
	skip_part "Thumb-2: no arm-none-eabi-gcc or samples/firmware"
fi

# with .su, -v compares the code with every static .su frame
for d in samples/*/; do
	s=$(basename "$d")
	[ -x "$d$s" ] || { fail "$d$s is not built (make -C samples)"; continue; }
	"$SP" -v "$d$s" 2>&1 >/dev/null | grep '^stackprof: code:' >"$OUT/$s.v"
	grep -Eq ' ([0-9]+) of \1 static \.su frames agree' "$OUT/$s.v" ||
		fail "$s: -v: $(cat "$OUT/$s.v")"
done

# the reports say where the frame came from
run_sp --no-su "$OUT/chain-O2/prog.nocfi"
grep -Eq '^ +[0-9]+ +[0-9+]+ +static \(code\) +level5 ' "$OUT/stdout" ||
	fail "text: no 'static (code)' row for level5"
grep -q 'level5 .*\[code\]' "$OUT/stdout" || fail "text: no [code] mark on a path"
finish
