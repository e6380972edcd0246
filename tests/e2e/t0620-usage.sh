#!/bin/sh
# Bad usage: exit 2 and a "stackprof: ..." message first on stderr,
# nothing on stdout; --help and --version exit 0.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain

# expect_usage DESC PATTERN ARGS...
expect_usage()
{
	_d=$1 _p=$2
	shift 2
	run_sp "$@"
	expect_rc 2 "$_d"
	head -1 "$OUT/stderr" | grep -Eq "^stackprof: .*$_p" ||
		fail "$_d: stderr '$(head -1 "$OUT/stderr")' does not match '$_p'"
	[ -s "$OUT/stdout" ] && fail "$_d: wrote to stdout"
}

for b in abc 12Q -5 '' 1.5K 99999999999999999999 18446744073709551616 0x; do
	expect_usage "--budget '$b'" "budget" --budget "$b" $bin
done
expect_usage "--budget without a value" "budget" $bin --budget
expect_usage "unknown option" "frobnicate" --frobnicate $bin
expect_usage "unknown short option" "-q" -q $bin
expect_usage "--top x" "top" --top x $bin
expect_usage "no ELF" "ELF" --json

run_sp --budget 16K $bin
expect_rc 0 "--budget 16K"
run_sp --budget 1M $bin
expect_rc 0 "--budget 1M"

run_sp --help
expect_rc 0 "--help"
grep -q '^usage: stackprof ' "$OUT/stdout" || fail "--help: no usage on stdout"
run_sp -h
expect_rc 0 "-h"
run_sp --version
expect_rc 0 "--version"
grep -Eq '^stackprof [0-9]+\.[0-9]+' "$OUT/stdout" || fail "--version: '$(cat "$OUT/stdout")'"
run_sp -V
expect_rc 0 "-V"

# --graph: a view that does not exist, or --graph=column with the call
# graph's pruning: usage, and no picture left behind
expect_usage "--graph=nonsense" "invalid --graph 'nonsense' \(column or calls\)" \
	--graph=nonsense --svg "$OUT/g.svg" $bin
[ -e "$OUT/g.svg" ] && fail "--graph=nonsense left the picture"
expect_usage "--graph=column --depth 2" "--depth, --min-total and --all apply to --graph=calls" \
	--graph=column --depth 2 --svg "$OUT/g.svg" $bin
expect_usage "--graph without a view" "needs a value" $bin --graph
run_sp --graph calls --depth 1 --dot "$OUT/g.dot" $bin
expect_rc 0 "--graph calls --depth 1"

# --help groups the options (input, selection, report formats, pictures,
# budgets and build integration, kernel, other) and lists each option of
# the parser's table; the man page has the same groups in the same order
./stackprof --help >"$OUT/help"
python3 - "$OUT/help" doc/stackprof.1 src/options.c <<'PY' || fail "--help and the man page (above)"
import re, sys
help_text, man, options_c = (open(f).read() for f in sys.argv[1:4])
want_groups = ["Input", "Selection", "Report formats", "Pictures",
               "Budgets and build integration", "Kernel", "Other"]
errors = []
groups = [l for l in help_text.splitlines() if re.fullmatch(r"[A-Z][a-z ]+", l)]
if groups != want_groups:
    errors.append(f"--help groups {groups}, want {want_groups}")
opts = []
for l in help_text.splitlines():
    m = re.match(r"\s+(?:-\w, )?--([a-z-]+)", l)
    if m and m.group(1) not in opts:
        opts.append(m.group(1))
known = set(re.findall(r'\{ "--([a-z-]+)', options_c))
if sorted(opts) != sorted(known):
    errors.append(f"--help lists {sorted(set(opts) ^ set(known))} differently from the parser")
section = man[man.index(".SH OPTIONS"):man.index(".SH ANNOTATIONS")]
lines = section.splitlines()
man_groups = [l[4:] for l in lines if l.startswith(".SS ")]
if man_groups != want_groups:
    errors.append(f"man page groups {man_groups}, want {want_groups}")
man_opts = []
for prev, l in zip(lines, lines[1:]):
    m = re.search(r"\\-\\-((?:[a-z]|\\-)+)", l) if prev == ".TP" else None
    if m and m.group(1).replace("\\-", "-") not in man_opts:
        man_opts.append(m.group(1).replace("\\-", "-"))
if man_opts != opts:
    errors.append(f"man page order {man_opts}\n    --help order    {opts}")
for e in errors:
    print("    " + e)
sys.exit(1 if errors else 0)
PY
finish
