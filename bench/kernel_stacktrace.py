#!/usr/bin/env python3
"""Hold stackprof's frames and totals against the stacks the kernel's own
stack tracer saw (bench/kernel-stacktrace.sh boots the kernel and writes
the traces).

    kernel_stacktrace.py [--stackprof BIN] [--annotate FILE]... [--indirect MODE]
                         [--no-exception-edges] [--require-total FUNC]...
                         [-v] VMLINUX TRACES

TRACES holds /sys/kernel/tracing/stack_trace dumps between "=== trace
FILTER WORKLOAD" and "=== end" lines.  How the tracer counts (x86-64,
kernel/trace/trace_stack.c check_stack()):

  - it runs at the 'call __fentry__' that starts a traced function F, and
    saves the unwinder's return addresses; each is then looked for on the
    stack, from the tracer's own frame up, and its row's Depth is the
    bytes from the slot where it was found to the top of the thread
    stack (pt_regs included).  A row's Size is its Depth less the next
    row's: the slot of the return address into function X and X's pushes
    and locals above it, i.e. X's frame as .su and ORC count it (its own
    return address, its pushes, its locals), at the call it was making.
  - row 0 is F at 'call __fentry__' (F+5).  The slot found is the copy of
    that return address that the ftrace trampoline saves as regs->ip,
    below the real one: its Size, 48, is 40 bytes of the trampoline's
    saved registers and the 8 of the call, not a frame of F.  F has used
    only its return address, the 8 bytes at the top of row 1.  So the
    stack that function X of row i (i >= 1) and everything it called used
    at that moment is Depth[1] - Depth[i+1] + 8 (Depth past the last row
    is 0).
  - an exception taken on the thread stack (asm_exc_page_fault, ...) is a
    row for the entry code (the return address into it, after its call
    of the C handler: its Size is pt_regs below ip, 128 bytes, and the 8
    of the call), then a row for the function that faulted, found at
    pt_regs->ip: that row holds ip, cs, flags, sp and ss (40 bytes), the
    up to 8 bytes the CPU skips to align the stack to 16, then the
    function's own frame at the faulting instruction.  Its frame is at
    least Size - 40 (Size - 32 when that is less than 8).
  - functions the tracer cannot see: inlined ones (their frame is their
    caller's, as in stackprof's graph), and code that is not a function
    symbol (the entry code, asm_exc_*, ret_from_fork: NOTYPE symbols;
    stackprof's graph has no node for them and they are not compared).
    Functions without ftrace's 'call __fentry__' (notrace, noinstr,
    assembly) are never F, but they are rows like any other.
  - a function that realigns its stack through %r10 (GCC's 'lea
    0x8(%rsp),%r10; and $-16,%rsp; push -0x8(%r10)': udp_sendmsg) pushes
    a copy of its return address below the alignment padding; the search
    finds the copy first, so its caller's row holds 8 or 16 bytes of the
    callee's frame (which of the two the trace does not tell).  The
    caller's frame is then at least Size - 16.
  - the search can find a stale copy of a return address, left in an
    uninitialised slot of the callee's frame by an earlier call: the
    callee's row is then short and the caller's holds the difference
    (__alloc_skb 144 above kmem_cache_alloc_node 8, frames of 72 and
    80).  Such a pair is compared as one: the two rows together may not
    exceed the two frames.
  - only stacks on the task's thread stack are traced (IRQ stacks and
    NMI are skipped), and a return address the search does not find on
    the stack leaves no row: its frame would count in the row above.

Every frame seen is compared with stackprof's frame for its function
('self'; a frame may be larger, a bound, never smaller), and every
finite total with the stack used from that frame up.  Exits 1 when a
frame or a total is smaller than what the kernel used, or a function
named by --require-total had no total compared.  --no-exception-edges:
a stackprof without edges for exceptions taken on the thread stack; a
total below the kernel's with an exception frame above it is then
known (printed, not a failure).
"""
import argparse
import bisect
import collections
import json
import re
import subprocess
import sys

ROW = re.compile(r'^\s*(\d+)\)\s+(\d+)\s+(\d+)\s+(\S+?)\+0x([0-9a-f]+)/0x([0-9a-f]+)(?:\s+\[(\S+)\])?\s*$')
FENTRY_CALL = 5		# 'call __fentry__' (no endbr64 before it: no IBT)
TRAMPOLINE_ROW = 48	# the ftrace trampoline's regs above its ip copy, and the call
HW_FRAME = 40		# ip, cs, flags, sp, ss pushed by the CPU
ALIGN_PAD = 8		# the CPU aligns %rsp to 16 before it pushes them
IDT_ENTRY = re.compile(r'^asm_(exc_|sysvec_|common_interrupt|spurious_interrupt)')


def parse_traces(path):
    """The traces in file path: dicts with filter, workload, max, rows
    (depth, size, name, offset, symbol size, module), deepest row first."""
    traces, cur = [], None
    for line in open(path, errors='replace'):
        line = line.rstrip('\r\n')
        if line.startswith('=== trace '):
            parts = line.split()
            cur = {'filter': parts[2], 'workload': parts[3], 'max': None, 'rows': []}
        elif line.startswith('=== end') and cur is not None:
            if cur['rows']:
                traces.append(cur)
            cur = None
        elif cur is not None and line.startswith('max '):
            cur['max'] = int(line.split()[1])
        elif cur is not None:
            m = ROW.match(line)
            if m:
                cur['rows'].append((int(m[2]), int(m[3]), m[4], int(m[5], 16),
                                    int(m[6], 16), m[7]))
    return traces


DRAP = re.compile(r'lea\s+0x8\(%rsp\),%r10\n.*and\s+\$0xf+[0-9a-f]*0,%rsp\n'
                  r'(.*\n)*?.*push\s+-0x8\(%r10\)')


class Symbols:
    """vmlinux's symbol table: name -> [(address, size, type)], and the
    FUNC symbols by address for the function holding an address."""

    def __init__(self, vmlinux):
        out = subprocess.run(['readelf', '-sW', vmlinux], check=True,
                             capture_output=True, text=True).stdout
        self.by_name = collections.defaultdict(list)
        funcs = []
        for line in out.splitlines():
            f = line.split()
            if len(f) < 8 or not f[0].endswith(':') or f[3] not in ('FUNC', 'NOTYPE'):
                continue
            addr, size = int(f[1], 16), int(f[2], 0)
            self.by_name[f[7]].append((addr, size, f[3]))
            if f[3] == 'FUNC' and size:
                funcs.append((addr, size, f[7]))
        funcs.sort()
        self.funcs = funcs
        self.starts = [a for a, _, _ in funcs]
        self.vmlinux = vmlinux
        self.drap_seen = {}

    def disassemble(self, start, stop):
        return subprocess.run(['objdump', '-d', '--no-show-raw-insn', f'--start-address={start:#x}',
                               f'--stop-address={stop:#x}', self.vmlinux],
                              capture_output=True, text=True).stdout

    def call_returns_to(self, start, off):
        """Whether the code at start has a call whose next instruction is
        at start + off (decoded from start, the function's entry)."""
        prev = None
        for line in self.disassemble(start, start + off + 16).splitlines():
            m = re.match(r'^\s*([0-9a-f]+):\s+(\S+)', line)
            if not m:
                continue
            addr = int(m[1], 16)
            if addr == start + off:
                return prev == 'call'
            prev = m[2]
        return False

    def copies_return_address(self, addrs):
        """Whether the function at each of addrs starts by realigning its
        stack through %r10 and pushing a copy of its return address."""
        key = frozenset(addrs)
        if key not in self.drap_seen:
            found = bool(addrs)
            for a in addrs:
                found = found and bool(DRAP.search(self.disassemble(a, a + 32)))
            self.drap_seen[key] = found
        return self.drap_seen[key]

    def function(self, name, off, size, interrupted):
        """The function that row name+off/size is in, as (symbol, entry
        addresses): name itself when it is a function symbol (a '.cold'
        part stands for its function: it runs in that function's frame),
        else the function symbol around the address (an inner label).
        Static functions of one name whose sizes do not tell them apart
        (a file built twice, as binfmt_elf.c and compat_binfmt_elf.c) give
        all their addresses.
        None outside any function (entry code)."""
        syms = self.by_name.get(name, ())
        # kallsyms' size runs to the next symbol, past the alignment padding
        places = ({(a, t) for a, s, t in syms if s <= size < s + 64} or
                  {(a, t) for a, _, t in syms})
        cold = re.match(r'^(.*)\.cold(\.\d+)?$', name)
        if cold:
            parents = {a for a, _, t in self.by_name.get(cold[1], ()) if t == 'FUNC'}
            return (cold[1], parents) if parents else None
        if len(places) > 1 and not interrupted:
            # copies that differ in code: the one with a call that returns there
            places = {p for p in places if self.call_returns_to(p[0], off)} or places
        if places and all(t == 'FUNC' for _, t in places):
            return name, {a for a, _ in places}
        if len(places) != 1:
            return None
        # a return address may be just past a call that ends its function
        addr = places.pop()[0] + off - (0 if interrupted else 1)
        i = bisect.bisect_right(self.starts, addr) - 1
        if i < 0 or not self.funcs[i][0] <= addr < self.funcs[i][0] + self.funcs[i][1]:
            return None
        return self.function(self.funcs[i][2], 0, self.funcs[i][1], True)


def stackprof_functions(binary, vmlinux, names, options):
    """stackprof's JSON functions for each symbol in names, by entry
    address.  A name stackprof does not know is left out."""
    names = sorted(names)
    while True:
        cmd = [binary, '--json'] + options
        for n in names:
            cmd += ['--entry', n]
        r = subprocess.run(cmd + [vmlinux], capture_output=True, text=True)
        m = re.search(r"no function named '([^']*)'", r.stderr)
        if r.returncode == 2 and m and m[1] in names:
            names.remove(m[1])
            continue
        if r.returncode not in (0, 1):
            sys.exit(f'kernel_stacktrace.py: {r.stderr.strip()}')
        return {int(f['address'], 16): f for f in json.loads(r.stdout)['functions']
                if f['address']}


def frame_seen(size, interrupted):
    """The least frame a row of Size bytes shows for its function."""
    if not interrupted:
        return size
    return size - HW_FRAME if size - HW_FRAME - ALIGN_PAD >= 0 else size - HW_FRAME + ALIGN_PAD


class Tally:
    def __init__(self):
        self.count = collections.Counter()
        self.smaller = []	# (kind, function, seen, bound, where, exception above)
        self.notes = []
        self.funcs = collections.defaultdict(set)

    def compare(self, kind, name, seen, bound, where, exception=False):
        self.funcs[kind].add(name)
        if bound > seen:
            self.count[kind + ' larger'] += 1
        elif bound == seen:
            self.count[kind + ' equal'] += 1
        else:
            self.count[kind + ' smaller'] += 1
            self.smaller.append((kind, name, seen, bound, where, exception))


def check_trace(t, syms, fns, tally, verbose):
    rows = t['rows']
    where = f"{t['filter']}/{t['workload']}"
    d0, s0, n0, off0 = rows[0][:4]
    if off0 != FENTRY_CALL or s0 != TRAMPOLINE_ROW:
        tally.notes.append(f'{where}: row 0 is {n0}+{off0:#x} of {s0} bytes, '
                           f'not a function at its fentry call with the trampoline above')
    top = rows[1][0] if len(rows) > 1 else 0
    exception = False	# an exception frame between row 1 and this one
    callee = None		# the function of the row below, when known
    short = None		# the row below's frame as (seen, self), when seen < self
    for i in range(1, len(rows)):
        depth, size, name, off, symsize, module = rows[i]
        interrupted = bool(IDT_ENTRY.match(rows[i - 1][2]))
        exception = exception or interrupted
        if module:
            tally.count['rows in modules'] += 1
            continue
        func, below = syms.function(name, off, symsize, interrupted), callee
        callee = func
        below_short, short = short, None
        if func is None:
            tally.count['rows of code that is no function (entry code)'] += 1
            continue
        cands = [fns[a] for a in func[1] if a in fns]
        if not cands:
            tally.count['rows of functions not in the report'] += 1
            continue
        # copies of one function: compared when they agree
        if len({(f['self'], f['qualifier'], f['total']) for f in cands}) != 1:
            tally.count['rows of same-named functions that differ'] += 1
            continue
        f, func = cands[0], func[0]
        tally.count['rows compared'] += 1
        seen = frame_seen(size, interrupted)
        if f['self'] is None:
            tally.count['frame unknown to stackprof'] += 1
        elif f['qualifier'] == 'dynamic':
            tally.count['frame dynamic (no bound)'] += 1
        elif seen > f['self'] and below and seen - 16 <= f['self'] and \
                syms.copies_return_address(below[1]):
            tally.funcs['frame'].add(func)
            tally.count['frame realigned'] += 1
        elif seen > f['self'] and below_short and \
                seen + below_short[0] <= f['self'] + below_short[1]:
            tally.funcs['frame'].add(func)
            tally.count['frame split by a stale return address'] += 1
        else:
            tally.compare('frame', func, seen, f['self'], where)
        if f['self'] is not None and seen < f['self'] and not interrupted:
            short = (seen, f['self'])
        used = top - (rows[i + 1][0] if i + 1 < len(rows) else 0) + 8
        if f['total'] is None:
            tally.count['total unbounded'] += 1
        else:
            tally.compare('total', func, used, f['total'], where, exception)
        if verbose:
            print(f"  {where} {i:3d} {func:40s} frame {seen:5d} self {f['self']!s:>5}"
                  f"  used {used:5d} total {f['total']!s:>6}"
                  f"{' [interrupted]' if interrupted else ''}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--stackprof', default='./stackprof')
    ap.add_argument('--annotate', action='append', default=[],
                    help='an annotation file or name for stackprof (repeatable)')
    ap.add_argument('--indirect', help="stackprof's --indirect mode")
    ap.add_argument('--no-exception-edges', action='store_true',
                    help='a total below the kernel\'s with an exception above it is known')
    ap.add_argument('--require-total', action='append', default=[],
                    help='fail unless this function\'s total was compared')
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('vmlinux')
    ap.add_argument('traces')
    a = ap.parse_args()

    traces = parse_traces(a.traces)
    if not traces:
        sys.exit(f'kernel_stacktrace.py: no trace in {a.traces}')
    syms = Symbols(a.vmlinux)
    names = set()
    for t in traces:
        for i, (depth, size, name, off, symsize, module) in enumerate(t['rows'][1:], 1):
            func = None if module else syms.function(name, off, symsize,
                                                     bool(IDT_ENTRY.match(t['rows'][i - 1][2])))
            if func:
                names.add(func[0])
    options = [o for x in a.annotate for o in ('--annotate', x)]
    if a.indirect:
        options.append('--indirect=' + a.indirect)
    fns = stackprof_functions(a.stackprof, a.vmlinux, names, options)

    tally = Tally()
    for t in traces:
        check_trace(t, syms, fns, tally, a.verbose)
    c = tally.count
    print(f"traces: {len(traces)}, deepest {max(t['rows'][0][0] for t in traces)} bytes; "
          f"rows: {sum(len(t['rows']) - 1 for t in traces)} below the traced functions, "
          f"{c['rows compared']} of functions stackprof knows")
    for k in ('rows of code that is no function (entry code)', 'rows in modules',
              'rows of functions not in the report', 'rows of same-named functions that differ',
              'frame unknown to stackprof', 'frame dynamic (no bound)', 'total unbounded'):
        if c[k]:
            print(f'  {k}: {c[k]}')
    for kind in ('frame', 'total'):
        split = c[kind + ' split by a stale return address']
        n = c[kind + ' equal'] + c[kind + ' larger'] + c[kind + ' smaller'] + \
            c[kind + ' realigned'] + split
        realigned = (f", {c[kind + ' realigned']} within the 8-16 bytes of a realigned "
                     f"callee's copy of its return address" if c[kind + ' realigned'] else '')
        realigned += (f", {split} with the callee's row below, a stale copy of its return "
                      f"address splitting the two" if split else '')
        print(f"{kind}s compared: {n} ({len(tally.funcs[kind])} functions): "
              f"{c[kind + ' equal']} equal, {c[kind + ' larger']} larger{realigned}, "
              f"{c[kind + ' smaller']} smaller")
    for note in tally.notes:
        print('note: ' + note)
    bad = 0
    known = 0
    for kind, name, seen, bound, where, exception in tally.smaller:
        is_known = a.no_exception_edges and kind == 'total' and exception
        known += is_known
        bad += not is_known
        print(f"{'known' if is_known else 'SMALLER'}: {kind} of {name}: stackprof {bound}, "
              f"the kernel used {seen} ({where}{', an exception above it' if exception else ''})")
    if a.no_exception_edges and not known:
        print('exceptions: no total is below the kernel\'s for an exception above it')
    for name in a.require_total:
        if name not in tally.funcs['total']:
            print(f'MISSING: no total of {name} was compared')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
