#!/bin/sh
# --indirect=types on samples/ops: each indirect call's targets, as one
# names them from the source (see the comment at the top of ops.c):
#
#   run_handler   table handlers: h_add h_sub h_mul
#   shape_area    field struct shape_ops.area: sq_area circle_area (not
#                 the perimeters, same prototype, other member)
#   device_read   field struct device_ops.start: uart_start spi_start,
#                 field struct device_ops.read: uart_read spi_read (stored
#                 by uart_setup and spi_setup, drivers.c)
#   apply         argument: cb_double cb_square, what main passes it
#                 (x & 4 ? cb_square : cb_double, each path's constant)
#   tick          field struct timer.fire: on_tick, which timer_arm
#                 stores from its parameter and main passes it
#   log_message   table log_hook: log_quiet (its initial value) and
#                 log_loud (main stores it)
#
# and the worst cases that follow, summed by hand from the .su lines and
# the leaves' red zones.
. tests/e2e/lib.sh
need_sample ops
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"

elf=samples/ops/ops
s() { echo $(( $(su_self "$(dirname $elf)/$2.su" "$1") + $(red_zone $elf "$1") )); }
max() { m=$1; shift; for v; do [ "$v" -gt "$m" ] && m=$v; done; echo "$m"; }

run_sp --json --indirect=types $elf
expect_rc 0 "--indirect=types"
j=$OUT/ops.json
cp "$OUT/stdout" "$j"

# site(FUNC, NTH): resolved_by, type and the sorted targets of FUNC's
# NTH indirect call, as one line
site()
{
	jget "$j" "[[s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == '$1'][$2]"
}
expect_eq "run_handler" "$(site run_handler 0)" '["table", "handlers", ["h_add", "h_mul", "h_sub"]]'
expect_eq "shape_area" "$(site shape_area 0)" \
	'["field", "struct shape_ops.area", ["circle_area", "sq_area"]]'
expect_eq "device_read start" "$(site device_read 0)" \
	'["field", "struct device_ops.start", ["spi_start", "uart_start"]]'
expect_eq "device_read read" "$(site device_read 1)" \
	'["field", "struct device_ops.read", ["spi_read", "uart_read"]]'
expect_eq "apply" "$(site apply 0)" \
	'["argument", "int(int)", ["cb_double", "cb_square"]]'
expect_eq "tick" "$(site tick 0)" '["field", "struct timer.fire", ["on_tick"]]'
expect_eq "log_message" "$(site log_message 0)" '["table", "log_hook", ["log_loud", "log_quiet"]]'

# where each call is: the source line, the call instruction's address
expect_eq "device_read lines" \
	"$(jget "$j" "[(s['file'], s['line']) for s in j['indirect_calls'] if s['function'] == 'device_read']")" \
	'[["ops/drivers.c", 61], ["ops/drivers.c", 62]]'
addr=$(jget "$j" "[s['address'] for s in j['indirect_calls'] if s['function'] == 'shape_area'][0]" | tr -d '"')
objdump -d --start-address="$addr" --stop-address=$((addr + 8)) $elf | grep -q "^ *${addr#0x}:.*call" ||
	fail "shape_area's site $addr is no call instruction"

# the totals the targets give
self_run=$(s run_handler ops); self_shape=$(s shape_area ops); self_dev=$(s device_read drivers)
want_run=$((self_run + $(max $(s h_add ops) $(s h_sub ops) $(s h_mul ops))))
want_shape=$((self_shape + $(max $(s sq_area ops) $(s circle_area ops))))
want_dev=$((self_dev + $(max $(s uart_start drivers) $(s spi_start drivers) \
	$(s uart_read drivers) $(s spi_read drivers))))
expect_eq "run_handler total" "$(jget "$j" 'fn("run_handler")["total"]')" "$want_run"
expect_eq "shape_area total" "$(jget "$j" 'fn("shape_area")["total"]')" "$want_shape"
expect_eq "device_read total" "$(jget "$j" 'fn("device_read")["total"]')" "$want_dev"
expect_eq "shape_area assumed, bounded" \
	"$(jget "$j" '[fn("shape_area")["assumed"], fn("shape_area")["bounded"]]')" '[true, true]'
expect_eq "shape_area's path" \
	"$(jget "$j" '[(d["name"], d["via"], d["resolved_by"]) for d in fn("shape_area")["path_detail"]]')" \
	'[["shape_area", null, null], ["circle_area", "assumed", "field"]]'

# the text: the edge says how, the reason names the member
run_sp --indirect=types --entry shape_area $elf
grep -q "circle_area .*\[assumed: field\]" "$OUT/stdout" || fail "text: no [assumed: field] edge"
grep -q "reason: indirect call in shape_area: targets assumed (field struct shape_ops.area, 2)" \
	"$OUT/stdout" || fail "text: reason '$(grep reason "$OUT/stdout")'"

# -v: the counts
run_sp -v --indirect=types $elf
grep -q "^stackprof: indirect calls: [0-9]* sites: [0-9]* table, 4 field, 0 prototype, [0-9]* address-taken, 0 tracepoint, 0 bpf, 0 paravirt, 1 argument" \
	"$OUT/stderr" || fail "-v: '$(grep 'indirect calls' "$OUT/stderr" | head -1)'"
grep -q "^stackprof: indirect calls: mean targets per site: table or field " "$OUT/stderr" ||
	fail "-v: no mean targets line"

# an annotation replaces what was found: the site says so
printf 'calls shape_area sq_area\n' >"$OUT/a.ann"
run_sp --json --indirect=types --annotate "$OUT/a.ann" $elf
cp "$OUT/stdout" "$OUT/ann.json"
expect_eq "annotated site" \
	"$(jget "$OUT/ann.json" "[[s['resolved_by'], s['targets']] for s in j['indirect_calls'] if s['function'] == 'shape_area']")" \
	'[["annotation", ["sq_area"]]]'
expect_eq "annotated total" "$(jget "$OUT/ann.json" 'fn("shape_area")["total"]')" \
	"$((self_shape + $(s sq_area ops)))"

# the default and the other mode are unchanged
run_sp --json $elf
expect_eq "default: no indirect_calls" "$(jget "$OUT/stdout" '"indirect_calls" in j')" false
run_sp --json --indirect=address-taken $elf
expect_eq "address-taken: no indirect_calls" "$(jget "$OUT/stdout" '"indirect_calls" in j')" false
finish
