#!/bin/sh
# A call through a pointer that is a loaded word minus a constant
# (tests/e2e/movable/movable.c: Linux 6.1's page_movable_ops(),
# page->mapping - PAGE_MAPPING_MOVABLE, inlined in move_to_new_folio()):
# the chain loads page->mapping, then the word at 6 past it, which no
# member of struct address_space is; DWARF locates the inlined
# variable mops at the call as *(page + 24) - 2 (DW_OP_breg, DW_OP_deref,
# DW_OP_lit2, DW_OP_minus, DW_OP_stack_value), so the call is
# struct movable_operations.migrate_page (8 = 6 + 2): z_migrate, the
# migrate_page of the only such object, not every address-taken
# function (other_migrate, of the same prototype, is another's).
# And, on Debian's 6.1 kernel when it is here, move_to_new_folio's
# mops->migrate_page (mm/migrate.c:977) is that member too.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

# the kernel's flags: no SSE registers, retpolines
gcc -O2 -g -fno-pie -no-pie -mgeneral-regs-only -mindirect-branch=thunk \
	-o "$OUT/movable" tests/e2e/movable/movable.c || fail "gcc"
"$OUT/movable" || fail "the program"
# the premise: the call's pointer is loaded at 6 from page->mapping
objdump -d --no-show-raw-insn "$OUT/movable" | sed -n '/<move_to_new_page>:/,/^$/p' |
	grep -q 'mov  *0x6(%r.*),%r' || fail "no load at 0x6 in move_to_new_page"

run_sp --json --indirect=types --no-libs "$OUT/movable"
expect_rc 0 "--indirect=types"
j=$OUT/movable.json
cp "$OUT/stdout" "$j"
check_json "$j"
sites()	# REPORT FUNC: FUNC's sites: line, resolved_by, type, targets
{
	python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
fs = {f["id"]: f for f in j.get("all_functions", j["functions"])}
for s in sorted(j["indirect_calls"], key=lambda s: s["line"] or 0):
    if fs[s["function"]]["name"] == sys.argv[2]:
        t = j["target_sets"][s["targets"]] if s.get("targets") is not None else []
        print(s["line"], s["resolved_by"], s["type"], *sorted(fs[i]["name"] for i in t)[:3])
PY
}
expect_eq "move_to_new_page's call" "$(sites "$j" move_to_new_page)" \
	"41 field struct movable_operations.migrate_page z_migrate"
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
expect_eq "the kernel's move_to_new_folio" \
	"$(sites "$OUT/vmlinux.json" move_to_new_folio | cut -d' ' -f1-4)" \
	"958 field struct address_space_operations.migrate_folio
977 field struct movable_operations.migrate_page"
rm -f "$OUT/vmlinux.json"
finish
