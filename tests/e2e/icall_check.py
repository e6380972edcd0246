#!/usr/bin/env python3
"""icall_check.py - are the indirect calls a run took among the targets
stackprof --indirect=types gives?

    icall_check.py ELF REPORT.json TRACE... [--min-percent P] [--show N]

TRACE files hold "SITE CALLEE" hex pairs (tests/oracle/icall_trace.c):
SITE is the return address of a call.  The instruction that ends at SITE
is read from objdump: when it is an indirect call (call *..., or a call
through a retpoline thunk), the pair must be one of the targets of the
site REPORT lists at that instruction's address.  A site resolved as
"address-taken" holds every function whose address the program takes,
which a call can only reach: it counts as holding the callee.

Prints the counts and each miss (caller, source line, callee); exits 1
when fewer than P percent (default 100) of the indirect pairs are held,
2 on bad input.
"""
import json
import re
import subprocess
import sys

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
    """address -> names of the code symbols there"""
    out = subprocess.run(['nm', elf], check=True, capture_output=True, text=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tTwW':
            names.setdefault(int(parts[0], 16), set()).add(parts[2])
    return names


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
    for s in json.load(open(report)).get('indirect_calls', []):
        if s['address']:
            sites[int(s['address'], 16)] = s
    ends, names = disassembly(elf), symbols(elf)
    pairs = set()
    for t in traces:
        for line in open(t):
            if line.startswith('overflow'):
                print(f'icall_check: {t}: the trace table overflowed', file=sys.stderr)
                return 2
            site, fn = line.split()
            pairs.add((int(site, 16), int(fn, 16)))
    indirect = held = by_any = 0
    misses = []
    for site, fn in sorted(pairs):
        insn = ends.get(site)
        if not insn or not INDIRECT.search(insn[1]):
            continue
        indirect += 1
        s = sites.get(insn[0])
        callee = names.get(fn, {hex(fn)})
        if s and s['resolved_by'] == 'address-taken':
            held += 1
            by_any += 1
        elif s and callee & set(s['targets'] or []):
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
