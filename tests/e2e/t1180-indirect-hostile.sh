#!/bin/sh
# --indirect=types on broken DWARF (tests/e2e/icall_mutate.py edits the
# assembly GCC writes of samples/ops/ops.c): a location list that points
# nowhere, a struct whose members overlap, a table whose size DWARF gets
# wrong.  Each run ends well, and the site that reads through the broken
# DWARF falls back (prototype or address-taken), the others keep their
# targets.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"

b=$OUT/build
mkdir -p "$b"
cp samples/ops/*.c samples/ops/*.h "$b/"
(cd "$b" && gcc -S -g -O2 -dA ops.c -o ops.s && gcc -O2 -g -c drivers.c) >"$OUT/cc.log" 2>&1 ||
	{ fail "cannot compile: $(head -2 "$OUT/cc.log")"; finish; exit; }
printf '#!/bin/sh\nexec timeout 60 "%s" "$@"\n' "$SP" >"$OUT/sp"
chmod +x "$OUT/sp"
SP=$OUT/sp

# how MUTATION's build resolves FUNC's first site
how()
{
	jget "$OUT/$1.json" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == '$2'][0]"
}

for m in loclist-nowhere member-overlap table-size; do
	if ! python3 tests/e2e/icall_mutate.py "$b/ops.s" "$b/$m.s" $m ||
	   ! gcc -c "$b/$m.s" -o "$b/$m.o" || ! gcc -o "$b/$m" "$b/$m.o" "$b/drivers.o"; then
		fail "$m: cannot build"
		continue
	fi
	run_sp --json --indirect=types "$b/$m"
	expect_rc 0 "$m"
	cp "$OUT/stdout" "$OUT/$m.json"
done

# shape_area's s lives in a register only its location list says
case $(how loclist-nowhere shape_area) in
'"prototype"' | '"address-taken"') ;;
*) fail "loclist-nowhere: shape_area $(how loclist-nowhere shape_area)" ;;
esac
# struct shape_ops is not trusted: its calls and its data
case $(how member-overlap shape_area) in
'"prototype"' | '"address-taken"') ;;
*) fail "member-overlap: shape_area $(how member-overlap shape_area)" ;;
esac
expect_eq "member-overlap: run_handler" "$(how member-overlap run_handler)" '"table"'
# handlers is not trusted; the shapes are
case $(how table-size run_handler) in
'"prototype"' | '"address-taken"') ;;
*) fail "table-size: run_handler $(how table-size run_handler)" ;;
esac
expect_eq "table-size: shape_area" "$(how table-size shape_area)" '"field"'
finish
