#!/usr/bin/env python3
"""icall_check.py - are the indirect calls a run took among the targets
stackprof --indirect=types gives?

    icall_check.py ELF REPORT.json TRACE... [--min-percent P] [--show N]

TRACE files hold "SITE CALLEE HOOK" hex triples
(tests/oracle/icall_trace.c): SITE is the return address of a call, HOOK
where CALLEE's entry hook was called from; a HOOK outside CALLEE's own
code is a copy of CALLEE inlined into another function (GCC instruments
those too), entered by no call: left out.  The instruction that ends at SITE
is read from objdump: when it is an indirect call (call *..., or a call
through a retpoline thunk), the pair must be one of the targets of the
site REPORT lists at that instruction's address.  A site resolved as
"address-taken" holds every function whose address the program takes,
which a call can only reach: it counts as holding the callee.

A callee entered by a tail call from a target is entered with the
target's return address: a pair whose callee a target reaches through
tail calls (REPORT's "calls" with "tail": true) is held too.

Prints the counts and each miss (caller, source line, callee); exits 1
when fewer than P percent (default 100) of the indirect pairs are held,
2 on bad input.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sp_report  # noqa: E402

INSN = re.compile(r'^\s*([0-9a-f]+):\s+(.*)$')
INDIRECT = re.compile(r'\bcall\w*\s+(\*|[0-9a-f]+ <__x86_indirect_(call_)?thunk_)')


def disassembly(elf):
    """end address -> (address, text) of every instruction"""
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-w', elf],
                         check=True, capture_output=True, text=True).stdout
    ends, prev = {}, None
    for line in out.splitlines():
        m = INSN.match(line)
        if not m:
            prev = None
            continue
        addr = int(m.group(1), 16)
        if prev:
            ends[addr] = prev
        prev = (addr, m.group(2))
    return ends


def symbols(elf):
    """address -> (names of the code symbols there, their largest size)"""
    out = subprocess.run(['nm', '-S', elf], check=True, capture_output=True, text=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in 'tTwW':
            addr, size = int(parts[0], 16), int(parts[1], 16)
            old = names.get(addr, (set(), 0))
            old[0].add(parts[3])
            names[addr] = (old[0], max(old[1], size))
    return names


def tail_closure(report):
    """symbol -> the symbols it reaches through tail calls, itself included"""
    funcs = report.get('functions', [])
    symbol = {f['name']: f['symbol'] or f['name'] for f in funcs}
    tails = {}
    for f in funcs:
        tails[symbol[f['name']]] = {symbol.get(c['name'], c['name'])
                                    for c in f['calls'] if c['tail']}
    closure = {}

    def reach(s):
        if s not in closure:
            seen, todo = {s}, [s]
            while todo:
                for t in tails.get(todo.pop(), ()):
                    if t not in seen:
                        seen.add(t)
                        todo.append(t)
            closure[s] = seen
        return closure[s]
    return reach


def main(argv):
    args, min_percent, show = [], 100.0, 20
    i = 1
    while i < len(argv):
        if argv[i] == '--min-percent':
            min_percent = float(argv[i + 1])
            i += 2
        elif argv[i] == '--show':
            show = int(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    elf, report, traces = args[0], args[1], args[2:]
    sites = {}
    data = sp_report.load(report)
    for s in data.get('indirect_calls', []):
        if s['address']:
            sites[int(s['address'], 16)] = s
    reach = tail_closure(data)
    ends, names = disassembly(elf), symbols(elf)
    pairs = set()
    for t in traces:
        for line in open(t):
            if line.startswith('overflow'):
                print(f'icall_check: {t}: the trace table overflowed', file=sys.stderr)
                return 2
            site, fn, hook = (int(x, 16) for x in line.split())
            size = names.get(fn, (None, 0))[1]
            if size and not fn <= hook < fn + size:
                continue    # an inlined copy: entered by no call
            pairs.add((site, fn))
    indirect = held = by_any = 0
    misses = []
    for site, fn in sorted(pairs):
        insn = ends.get(site)
        if not insn or not INDIRECT.search(insn[1]):
            continue
        indirect += 1
        s = sites.get(insn[0])
        callee = names.get(fn, ({hex(fn)}, 0))[0]
        if s and s['resolved_by'] == 'address-taken':
            held += 1
            by_any += 1
        elif s and any(callee & reach(t) for t in s['targets'] or []):
            held += 1
        else:
            misses.append((s, insn, callee))
    pct = 100.0 * held / indirect if indirect else 100.0
    print(f'icall_check: {len(pairs)} call pairs, {indirect} through indirect calls, '
          f'{held} among the targets ({pct:.2f} %, {by_any} at address-taken sites), '
          f'{len(misses)} missed')
    for s, insn, callee in misses[:show]:
        where = f"{s['function']} {s['file']}:{s['line']} ({s['resolved_by']} {s['type']})" \
            if s else f'no site at {insn[0]:#x}'
        print(f'  miss: {where}: {insn[1].strip()} -> {" ".join(sorted(callee))}')
    return 0 if pct >= min_percent else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
