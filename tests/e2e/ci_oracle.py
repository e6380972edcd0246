#!/usr/bin/env python3
"""ci_oracle.py - an independent worst-case stack oracle for stackprof.

Reads GCC's -fcallgraph-info=su,da graphs (.ci, VCG text) of one program,
merges them by node title, computes every defined function's worst case
with its own search, then checks stackprof's --json report against it.

    ci_oracle.py [--tail CALLER=CALLEE ...] [--objdump ELF] [--print]
                 [--json REPORT] CI|DIR ...
    ci_oracle.py --red-zones ELF

REPORT is stackprof's --json output ("-" for standard input); each CI|DIR
is a .ci file or a directory searched recursively for them.  The .su
beside each .ci names the functions that must all be in the report.

It shares nothing with stackprof: GCC's own graph, not DWARF, is the
source of the calls.  Its rules:
  - total = self + the largest callee total; callees without a frame
    (externals such as printf) count 0 and make the total partial;
  - __indirect_call counts 0 and makes the total unbounded;
  - a "dynamic" frame (not "dynamic,bounded") anywhere below makes it
    unbounded, its known bytes still count toward the lower bound;
  - recursion makes it unbounded; the oracle's value is then the largest
    sum over simple paths (no function twice);
  - an x86-64 leaf may use up to 128 bytes below %rsp (the red zone),
    which neither .su nor .ci counts: the "red_zone" bytes the report
    gives a function are added to its .ci frame (t1000 checks those
    bytes against the machine code and a painted stack);
  - GCC sums a tail call like any other, so a tail call must be named
    with --tail, or found by --objdump ELF (a jmp to another function's
    entry in objdump -d): the callee's frame replaces the caller's,
    total(caller) = max(self + normal callees, total(tail callees)).

Exit: 0 all agree, 1 some differ, 2 bad usage or unreadable input.
"""

import argparse
import json
import os
import re
import subprocess
import sys

INDIRECT = "__indirect_call"

ATTR_RE = re.compile(r'(\w+)\s*:\s*"((?:[^"\\]|\\.)*)"')
BYTES_RE = re.compile(r'^(\d+) bytes \((static|dynamic|dynamic,bounded)\)$')
LOC_RE = re.compile(r'^(.*):(\d+):(\d+)$')
SU_RE = re.compile(r'^(.*):(\d+):(\d+):(.+)\t(\d+)\t(\S+)$')


class OracleError(Exception):
    pass


class Node:
    def __init__(self, title, name, file, line, self_bytes, qual):
        self.title = title
        self.name = name
        self.file = file
        self.line = line
        self.self_bytes = self_bytes    # None for an external declaration
        self.qual = qual
        self.red = 0                    # red-zone bytes (objdump, report)
        self.red_known = False          # red from objdump's code
        self.succ = []                  # titles, in file order
        self.tails = set()              # titles reached by a tail call

    @property
    def defined(self):
        return self.self_bytes is not None

    def key(self):
        return (self.name, self.file, self.line)


def unescape(s):
    return re.sub(r'\\(.)', lambda m: '\n' if m.group(1) == 'n' else m.group(1), s)


def parse_label(title, label):
    """'name\\nfile:line:col\\nN bytes (qual)\\n...' -> Node."""
    lines = label.split('\n')
    name = lines[0] if lines else title
    file, line = None, 0
    if len(lines) > 1:
        m = LOC_RE.match(lines[1])
        if m:
            file, line = m.group(1), int(m.group(2))
    self_bytes = qual = None
    if len(lines) > 2:
        m = BYTES_RE.match(lines[2])
        if m:
            self_bytes, qual = int(m.group(1)), m.group(2)
    return Node(title, name, file, line, self_bytes, qual)


def parse_ci(path, nodes, edges):
    try:
        with open(path, encoding='utf-8', errors='replace') as fp:
            text = fp.read()
    except OSError as e:
        raise OracleError(f"{path}: {e.strerror}")
    for lineno, raw in enumerate(text.splitlines(), 1):
        raw = raw.strip()
        if raw.startswith('node:'):
            attrs = dict((k, unescape(v)) for k, v in ATTR_RE.findall(raw))
            if 'title' not in attrs:
                raise OracleError(f"{path}:{lineno}: node without a title")
            node = parse_label(attrs['title'], attrs.get('label', attrs['title']))
            old = nodes.get(node.title)
            # a definition wins over the declarations other units saw
            if old is None or (node.defined and not old.defined):
                nodes[node.title] = node
            elif node.defined and old.defined and \
                    (node.key(), node.self_bytes) != (old.key(), old.self_bytes):
                raise OracleError(f"{path}:{lineno}: '{node.title}' defined twice")
        elif raw.startswith('edge:'):
            attrs = dict((k, unescape(v)) for k, v in ATTR_RE.findall(raw))
            if 'sourcename' not in attrs or 'targetname' not in attrs:
                raise OracleError(f"{path}:{lineno}: edge without its ends")
            edges.append((attrs['sourcename'], attrs['targetname']))


def parse_su(path):
    """The (name, file, line) of every row of a .su file."""
    keys = []
    try:
        with open(path, encoding='utf-8', errors='replace') as fp:
            for lineno, raw in enumerate(fp, 1):
                raw = raw.rstrip('\n')
                if not raw:
                    continue
                m = SU_RE.match(raw)
                if not m:
                    raise OracleError(f"{path}:{lineno}: malformed .su line")
                keys.append((m.group(4), m.group(1), int(m.group(2))))
    except OSError as e:
        raise OracleError(f"{path}: {e.strerror}")
    return keys


def find_ci(paths):
    found = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                found += [os.path.join(root, f) for f in sorted(files)
                          if f.endswith('.ci')]
        elif os.path.isfile(p):
            found.append(p)
        else:
            raise OracleError(f"{p}: no such file or directory")
    if not found:
        raise OracleError("no .ci files found in " + ' '.join(paths))
    return found


X86_JUMP = re.compile(r'\sjmp\s+[0-9a-f]+ <([^>+]+)>\s*$')
ARM_JUMP = re.compile(r'\sb(?:eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?'
                      r'(?:\.[nw])?\s+[0-9a-f]+ <([^>+]+)>\s*$')
X86_CALL = re.compile(r'\scall\s+[0-9a-f]+ <([^>+]+)>\s*$')
ARM_CALL = re.compile(r'\sblx?\s+[0-9a-f]+ <([^>+]+)>\s*$')
A64_JUMP = re.compile(r'\sb(?:\.(?:eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al))?'
                      r'\s+[0-9a-f]+ <([^>+]+)>\s*$')
A64_CALL = re.compile(r'\sbl\s+[0-9a-f]+ <([^>+]+)>\s*$')
EM_ARM = 40
EM_AARCH64 = 183


def objdump_for(elf):
    """The objdump that reads elf's machine code, its jump and its call
    patterns: the host's for x86, arm-none-eabi-objdump for 32-bit ARM,
    aarch64-linux-gnu-objdump for AArch64."""
    try:
        with open(elf, 'rb') as fp:
            head = fp.read(20)
    except OSError as e:
        raise OracleError(f"{elf}: {e.strerror}")
    if len(head) < 20 or head[:4] != b'\x7fELF':
        raise OracleError(f"{elf}: not an ELF file")
    machine = int.from_bytes(head[18:20], 'little' if head[5] == 1 else 'big')
    if machine == EM_ARM:
        return 'arm-none-eabi-objdump', ARM_JUMP, ARM_CALL
    if machine == EM_AARCH64:
        return 'aarch64-linux-gnu-objdump', A64_JUMP, A64_CALL
    return 'objdump', X86_JUMP, X86_CALL


def code_functions(elf):
    """The names of the functions elf's code holds: a function GCC's .ci
    files only declare but the ELF links in (assembly, a library) has a
    frame stackprof reads from the binary (CFI, ORC, the code)."""
    return set(re.findall(r'^[0-9a-f]+ <([^>+]+)>:$', objdump(elf), re.M))


def objdump(elf):
    tool = objdump_for(elf)[0]
    try:
        dis = subprocess.run([tool, '-d', '--no-show-raw-insn', elf],
                             capture_output=True, text=True, check=False)
    except OSError as e:
        raise OracleError(f"{tool}: {e.strerror}")
    if dis.returncode:
        raise OracleError(f"{tool} -d {elf} failed: {dis.stderr.strip()}")
    return dis.stdout


HEX = r'(-?)0x([0-9a-f]+)'


def leaf_red_zone(insns):
    """The red zone of one function from its objdump lines, None when it
    calls: how far the deepest byte it touches lies below its deepest
    %rsp.  Depths count down from the entry %rsp: push/pop, sub/add of a
    constant to %rsp, mov %rsp,%rbp (then -N(%rbp) is known), leave.
    Straight-line reading: after a ret the code is taken to run at the
    deepest %rsp (the body the epilogue left)."""
    depth = deepest = touched = 0
    rbp = None
    for ins in insns:
        op = ins.split()[0] if ins.split() else ''
        if op.startswith('call'):
            return None
        for sign, num, reg in re.findall(HEX + r'\(%(rsp|rbp)[,)]', ins):
            n = int(num, 16) * (-1 if sign else 1)
            if op in ('nop', 'nopw', 'nopl'):
                continue        # lea counts: its address is for use
            if reg == 'rsp':
                touched = max(touched, depth - n)
            elif rbp is not None:
                touched = max(touched, rbp - n)
        m = re.match(r'(sub|add)\s+\$' + HEX + r',%rsp$', ins)
        if op == 'push':
            depth += 8
        elif op == 'pop':
            depth -= 8
        elif m:
            n = int(m.group(3), 16)
            depth += n if m.group(1) == 'sub' else -n
        elif re.match(r'mov\s+%rsp,%rbp$', ins):
            rbp = depth
        elif op == 'leave':
            depth, rbp = rbp - 8, None
        elif op.startswith('ret'):
            depth = deepest
        deepest = max(deepest, depth)
    return max(0, touched - deepest)


def objdump_red_zones(elf):
    """{symbol: [red-zone bytes of each function of that name]}; none
    for ARM, which has no red zone"""
    out, func, insns = {}, None, []
    if objdump_for(elf)[0] != 'objdump':
        return out

    def close():
        if func:
            r = leaf_red_zone(insns)
            out.setdefault(func, []).append(r or 0)
    for line in objdump(elf).splitlines():
        m = re.match(r'^[0-9a-f]+ <([^>]+)>:$', line)
        if m:
            close()
            func, insns = m.group(1), []
            continue
        m = re.match(r'^\s+[0-9a-f]+:\s+(.*)$', line)
        if m and func:
            insns.append(re.sub(r'\s+#.*$', '', m.group(1)).strip())
    close()
    return out


def check_red_zones(report, elf):
    """Every function's red_zone in the report equals the one objdump's
    code gives (the functions of one symbol name compared as a set)."""
    want = objdump_red_zones(elf)
    got = {}
    for f in report.get('functions') or []:
        if f.get('symbol'):
            got.setdefault(f['symbol'], []).append(f.get('red_zone') or 0)
    bad = []
    for sym, reds in sorted(got.items()):
        w = sorted(want.get(sym, []))[:len(reds)] if sym in want else None
        if w is not None and sorted(reds) != sorted(want[sym]):
            bad.append((f"{sym}", [f"red_zone {sorted(reds)}, objdump gives {sorted(want[sym])}"]))
    return bad


class Graph:
    def __init__(self, ci_files, tails, objdump=None):
        self.nodes = {}
        edges = []
        for path in ci_files:
            parse_ci(path, self.nodes, edges)
        for src, dst in edges:
            if src not in self.nodes:
                raise OracleError(f"edge from unknown node '{src}'")
            if dst not in self.nodes:
                self.nodes[dst] = Node(dst, dst, None, 0, None, None)
            if dst not in self.nodes[src].succ:
                self.nodes[src].succ.append(dst)
        self.apply_tails(tails)
        self.in_code = set()
        if objdump:
            self.objdump_tails(objdump)
            self.in_code = code_functions(objdump)
            self.objdump_reds(objdump)
        self.scc_of = {}
        self.cyclic = set()     # titles of functions in a cycle
        self.order = []         # components, callees before callers
        self.tarjan()
        self.memo = {}
        self.calls_by_name = {}
        for n in self.nodes.values():
            self.calls_by_name.setdefault(n.name, set()).update(
                self.nodes[s].name for s in n.succ)
        self.fast = None        # set by fast_mode()

    def lookup(self, name):
        """A title or a label name, which must then be unique."""
        if name in self.nodes:
            return self.nodes[name]
        hits = [n for n in self.nodes.values() if n.name == name and n.defined]
        if len(hits) != 1:
            raise OracleError(f"--tail: '{name}' names {len(hits)} functions")
        return hits[0]

    def apply_tails(self, tails):
        for spec in tails:
            if '=' not in spec:
                raise OracleError(f"--tail '{spec}': want CALLER=CALLEE")
            caller, callee = (self.lookup(s) for s in spec.split('=', 1))
            if callee.title not in caller.succ:
                raise OracleError(f"--tail '{spec}': GCC lists no such call")
            caller.tails.add(callee.title)

    def by_symbol(self, sym):
        """The node of an ELF symbol: a global's title is its name, a
        static's is "file.c:name"; None when unknown or ambiguous."""
        if sym in self.nodes:
            return self.nodes[sym]
        if not hasattr(self, 'by_suffix'):
            self.by_suffix = {}
            for t, n in self.nodes.items():
                if ':' in t:
                    self.by_suffix.setdefault(t.rsplit(':', 1)[1], []).append(n)
        hits = self.by_suffix.get(sym, [])
        if len(hits) > 1:
            print(f"ci_oracle: warning: symbol '{sym}' is ambiguous, "
                  f"its tail calls are not known", file=sys.stderr)
        return hits[0] if len(hits) == 1 else None

    def objdump_reds(self, elf):
        """Red zones from the code: a symbol's, when every function of
        that name has the same (else the report's, set_red_zones)."""
        for sym, reds in objdump_red_zones(elf).items():
            if len(set(reds)) != 1:
                continue
            nodes = [self.nodes[sym]] if sym in self.nodes else \
                [n for t, n in self.nodes.items()
                 if ':' in t and t.rsplit(':', 1)[1] == sym]
            # GCC's clone "f.constprop.0" is "f.constprop" in .ci
            base = re.sub(r'\.\d+$', '', sym)
            if not nodes and base != sym:
                nodes = [n for n in self.nodes.values() if n.name == base]
            for n in nodes:
                if n.defined:
                    n.red, n.red_known = reds[0], True

    def objdump_tails(self, elf):
        """Tail calls: a jump to the entry of another function (x86 jmp,
        ARM/Thumb b, b.w, b<cond>, AArch64 b, b.<cond>), unless the caller also calls it: then
        the callee's frame sits on top of the caller's at that call."""
        _, jump, call = objdump_for(elf)
        func = None
        jumps, calls = set(), set()
        for line in objdump(elf).splitlines():
            m = re.match(r'^[0-9a-f]+ <([^>]+)>:$', line)
            if m:
                # a .cold part's jumps belong to its function
                func = re.sub(r'\.cold(\.\d+)?$', '', m.group(1))
                continue
            m = jump.search(line)
            kind = jumps
            if not m:
                m, kind = call.search(line), calls
            if not m or not func:
                continue
            target = re.sub(r'@plt$', '', m.group(1))
            if target == func or re.search(r'\.cold(\.\d+)?$', target):
                continue
            caller, callee = self.by_symbol(func), self.by_symbol(target)
            if caller and callee and callee.title in caller.succ:
                kind.add((caller.title, callee.title))
        for src, dst in jumps - calls:
            self.nodes[src].tails.add(dst)

    def tarjan(self):
        """Strongly connected components, iteratively (no recursion limit)."""
        index, low, on_stack, stack, counter = {}, {}, set(), [], [0]
        for root in self.nodes:
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                v, i = work.pop()
                if i == 0:
                    index[v] = low[v] = counter[0]
                    counter[0] += 1
                    stack.append(v)
                    on_stack.add(v)
                succ = self.nodes[v].succ
                if i < len(succ):
                    work.append((v, i + 1))
                    w = succ[i]
                    if w not in index:
                        work.append((w, 0))
                    elif w in on_stack:
                        low[v] = min(low[v], index[w])
                    continue
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    for w in comp:
                        self.scc_of[w] = v
                    self.order.append(comp)
                    if len(comp) > 1 or v in self.nodes[v].succ:
                        self.cyclic.update(comp)
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])

    def best(self, title, visited):
        """Largest sum over simple paths from title; visited holds the
        functions of title's component already on the path."""
        node = self.nodes[title]
        if not node.defined:
            return 0
        normal, tail = 0, 0
        for s in node.succ:
            if self.scc_of[s] == self.scc_of[title]:
                if s in visited:
                    continue
                v = self.best(s, visited | {s})
            else:
                v = self.value(s)
            if s in node.tails:
                tail = max(tail, v)
            else:
                normal = max(normal, v)
        return max(node.self_bytes + node.red + normal, tail)

    def value(self, title):
        if title not in self.memo:
            self.memo[title] = self.best(title, frozenset([title]))
        return self.memo[title]

    def set_red_zones(self, report):
        """Each function's red zone, from the report entry of the same
        name, place and frame (header copies differ by frame)."""
        red = {}
        for f in report.get('functions') or []:
            if f.get('red_zone'):
                red[(f.get('name'), f.get('file'), f.get('line'), f.get('self'))] = f['red_zone']
        for n in self.nodes.values():
            if n.defined and not n.red_known:
                n.red = red.get(n.key() + (n.self_bytes,), 0)
        self.memo = {}

    def has_call(self, caller, callee):
        """Does a function labelled caller call one labelled callee?"""
        return callee in self.calls_by_name.get(caller, ())

    def reach(self, title):
        """Every title reachable from title, title included."""
        seen, todo = {title}, [title]
        while todo:
            for s in self.nodes[todo.pop()].succ:
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen

    def fast_mode(self):
        """Every function's figures in one pass over the components in
        topological order (callees first): linear, no path search.  A
        function in or reaching a cycle is unbounded and gets no value
        (None); the rest take the memoised longest path of the DAG."""
        self.fast = {}
        for comp in self.order:
            flags = {'indirect': False, 'dynamic': False, 'partial': False,
                     'recursion': comp[0] in self.cyclic}
            for t in comp:
                n = self.nodes[t]
                flags['indirect'] |= t == INDIRECT
                flags['partial'] |= not n.defined and t != INDIRECT and t not in self.in_code
                flags['dynamic'] |= n.defined and n.qual == 'dynamic'
                for s in n.succ:
                    if self.scc_of[s] != self.scc_of[t]:
                        for k, v in self.fast[s].items():
                            if k in flags:
                                flags[k] |= v
            for t in comp:
                e = dict(flags, recursive=t in self.cyclic,
                         self=self.nodes[t].self_bytes,
                         qual=self.nodes[t].qual)
                e['value'] = None if flags['recursion'] else \
                    self.dag_value(self.nodes[t])
                e['bounded'] = not (e['indirect'] or e['dynamic'] or
                                    e['recursion'])
                self.fast[t] = e

    def dag_value(self, node):
        """self + the largest callee (tail callees replace the frame);
        the callees' values are already known: none is in a cycle."""
        if not node.defined:
            return 0
        normal = tail = 0
        for s in node.succ:
            v = self.fast[s]['value']
            if s in node.tails:
                tail = max(tail, v)
            else:
                normal = max(normal, v)
        return max(node.self_bytes + node.red + normal, tail)

    def expect(self, title):
        if self.fast is not None:
            return self.fast[title]
        node = self.nodes[title]
        reach = self.reach(title)
        defined = [self.nodes[t] for t in reach if self.nodes[t].defined]
        e = {
            'value': self.value(title),
            'self': node.self_bytes,
            'qual': node.qual,
            'indirect': INDIRECT in reach,
            'dynamic': any(n.qual == 'dynamic' for n in defined),
            'partial': any(not self.nodes[t].defined and t != INDIRECT and
                           t not in self.in_code for t in reach),
            # reaches a function whose frame .ci does not give: its total
            # can only be held against what .ci's frames add up to
            'binary': any(not self.nodes[t].defined and t in self.in_code for t in reach),
            'recursive': title in self.cyclic,
            'recursion': any(t in self.cyclic for t in reach),
        }
        e['bounded'] = not (e['indirect'] or e['dynamic'] or e['recursion'])
        return e


def has_reason(func, word):
    return any(word in r for r in func.get('reasons') or [])


def compare(graph, e, f):
    """The differences between the oracle's expectation e and report entry f."""
    bad = []
    if f.get('self') != e['self']:
        bad.append(f"self {f.get('self')} != .ci {e['self']}")
    if f.get('qualifier') != e['qual']:
        bad.append(f"qualifier {f.get('qualifier')} != .ci {e['qual']}")
    if f.get('bounded') != e['bounded']:
        bad.append(f"bounded {f.get('bounded')} != oracle {e['bounded']}")
    if e['bounded'] and e.get('binary'):
        if not isinstance(f.get('total'), int) or f['total'] < e['value']:
            bad.append(f"total {f.get('total')} below oracle {e['value']}")
    elif e['bounded']:
        if f.get('total') != e['value']:
            bad.append(f"total {f.get('total')} != oracle {e['value']}")
    else:
        if f.get('total') is not None:
            bad.append(f"total {f.get('total')} should be null (unbounded)")
        lb = f.get('lower_bound')
        if not isinstance(lb, int):
            bad.append(f"lower_bound {lb!r} is not a number")
        elif e['recursion'] and e['value'] is None:
            if lb < e['self']:
                bad.append(f"lower_bound {lb} below self {e['self']}")
        elif e['recursion']:
            if not e['self'] <= lb <= e['value']:
                bad.append(f"lower_bound {lb} not within [self {e['self']}, "
                           f"max simple path {e['value']}]")
        elif lb != e['value']:
            bad.append(f"lower_bound {lb} != oracle {e['value']}")
    if e['recursive'] != bool(f.get('recursive')):
        bad.append(f"recursive {f.get('recursive')} != oracle {e['recursive']}")
    if e['recursion'] and not has_reason(f, 'recursion'):
        bad.append("no reason names the recursion")
    if e['indirect'] and not has_reason(f, 'indirect'):
        bad.append("no reason names the indirect call")
    if e['dynamic'] and not has_reason(f, 'dynamic'):
        bad.append("no reason names the dynamic frame")
    if e['partial'] and not f.get('partial'):
        bad.append("not partial, yet it reaches an external function")
    bad += check_path(graph, f)
    return bad


def check_path(graph, f):
    """The worst path must start at the function, follow calls that GCC
    lists and its frames must add up to the lower bound (tail calls
    replacing their caller's frame)."""
    path, detail = f.get('path'), f.get('path_detail')
    if not path or path[0] != f.get('name'):
        return [f"path {path!r} does not start with the function"]
    if not isinstance(detail, list) or [d.get('name') for d in detail] != path:
        return ["path_detail does not follow path"]
    for a, b in zip(path, path[1:]):
        if not graph.has_call(a, b):
            return [f"path {' -> '.join(path)}: GCC lists no call {a} -> {b}"]
    stack = deepest = 0
    prev = 0
    for i, d in enumerate(detail):
        own = (d.get('self') or 0) + (d.get('red_zone') or 0)
        if i and d.get('tail'):
            stack -= prev
        stack += own
        deepest = max(deepest, stack)
        prev = own
    if deepest != f.get('lower_bound'):
        return [f"path {' -> '.join(path)} adds up to {deepest}, "
                f"not lower_bound {f.get('lower_bound')}"]
    return []


def group(items, key):
    out = {}
    for it in items:
        out.setdefault(key(it), []).append(it)
    return out


def check(graph, report, su_keys):
    funcs = report.get('functions')
    if not isinstance(funcs, list):
        raise OracleError("report has no \"functions\" array")
    by_key = group(funcs, lambda f: (f.get('name'), f.get('file'), f.get('line')))
    defined = [n for n in graph.nodes.values() if n.defined]
    agree, differ = 0, []
    for key, nodes in sorted(group(defined, Node.key).items(),
                             key=lambda kv: tuple(str(x) for x in kv[0])):
        label = f"{key[0]} ({key[1]}:{key[2]})"
        entries = by_key.get(key, [])
        if len(entries) != len(nodes):
            differ.append((label, [f"{len(nodes)} in .ci, {len(entries)} in the report"]))
            continue
        # copies of one header function: pair them by frame size
        exps = sorted((graph.expect(n.title) for n in nodes),
                      key=lambda e: (e['self'], e['value'] or 0))
        entries = sorted(entries, key=lambda f: (f.get('self') or 0,
                                                 f.get('lower_bound') or 0))
        for e, f in zip(exps, entries):
            bad = compare(graph, e, f)
            if bad:
                differ.append((label, bad))
            else:
                agree += 1
    for key in sorted(set(su_keys), key=lambda k: tuple(str(x) for x in k)):
        if key not in by_key:
            differ.append((f"{key[0]} ({key[1]}:{key[2]})",
                           ["in a .su file but not in the report"]))
    return agree, differ


def print_expectations(graph):
    for n in sorted((n for n in graph.nodes.values() if n.defined),
                    key=lambda n: (str(n.file), n.line, n.name)):
        e = graph.expect(n.title)
        flags = [k for k in ('indirect', 'dynamic', 'recursive', 'recursion',
                             'partial') if e[k]]
        red = f"+{n.red}" if n.red else ""
        print(f"{n.name}\t{n.file}:{n.line}\tself={e['self']}{red}\t"
              f"{'total' if e['bounded'] else 'lower'}={e['value']}\t{','.join(flags)}")


def load_report(path):
    """The report as tests/e2e/sp_report.py checks and expands it: every
    function's worst path rebuilt from its worst callee."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import sp_report
    try:
        return sp_report.load(path)
    except sp_report.ReportError as e:
        raise OracleError(str(e))
    except OSError as e:
        raise OracleError(f"{path}: {e.strerror}")
    except ValueError as e:
        raise OracleError(f"{path}: not JSON: {e}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--json', help="stackprof --json report ('-': stdin)")
    ap.add_argument('--tail', action='append', default=[],
                    metavar='CALLER=CALLEE', help='this call is a tail call')
    ap.add_argument('--objdump', metavar='ELF',
                    help="find the tail calls in ELF's machine code")
    ap.add_argument('--red-zones', metavar='ELF',
                    help="print each function's red zone from objdump -d")
    ap.add_argument('--print', action='store_true',
                    help="print the oracle's own figures")
    ap.add_argument('--fast', action='store_true',
                    help='linear time: no path search through cycles, '
                    'a recursive function only gets lower_bound >= self')
    ap.add_argument('paths', nargs='*', metavar='CI|DIR')
    args = ap.parse_args(argv)
    if not args.paths and not args.red_zones:
        ap.error('the following arguments are required: CI|DIR')
    if args.red_zones:
        try:
            for sym, reds in sorted(objdump_red_zones(args.red_zones).items()):
                print(f"{sym}\t{' '.join(map(str, reds))}")
        except OracleError as e:
            print(f"ci_oracle: {e}", file=sys.stderr)
            return 2
        return 0
    try:
        ci_files = find_ci(args.paths)
        graph = Graph(ci_files, args.tail, args.objdump)
        report = load_report(args.json) if args.json else None
        if report is not None:
            graph.set_red_zones(report)
        if args.fast:
            graph.fast_mode()
        if args.print:
            print_expectations(graph)
        if report is None:
            return 0
        su_keys = []
        for ci in ci_files:
            su = ci[:-3] + '.su'
            if os.path.exists(su):
                su_keys += parse_su(su)
        agree, differ = check(graph, report, su_keys)
        if args.objdump:
            differ += check_red_zones(report, args.objdump)
    except OracleError as e:
        print(f"ci_oracle: {e}", file=sys.stderr)
        return 2
    for label, bad in differ:
        print(f"  differ: {label}: " + '; '.join(bad))
    print(f"{agree} functions agree, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
