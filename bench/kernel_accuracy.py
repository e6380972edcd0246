#!/usr/bin/env python3
"""kernel_accuracy.py - how far stackprof's report of a kernel agrees with
GCC's own call graph (-fcallgraph-info .ci files) of the same build, and
why it differs where it does.  Run by bench/kernel-accuracy.sh, which
prepares its inputs:

    kernel_accuracy.py --tree DIR --both BOTH.json --dwarf DWARF.json
                       --verbose STDERR --syms NM --disasm OBJDUMP --cus CUS

BOTH.json is `stackprof --json vmlinux` (calls from DWARF and the machine
code), DWARF.json the same with --calls=dwarf, STDERR the -v output of the
first run, NM `nm vmlinux`, OBJDUMP `objdump -d --no-show-raw-insn
vmlinux`, CUS the compile units of vmlinux's DWARF, one name a line.

Totals are checked with tests/e2e/ci_oracle.py --fast over the .ci files
of the compile units in the image.  A function whose total differs is
explained by the first of these changes to GCC's graph (cumulative, each
taken from the image's symbols and machine code, not from stackprof) that
makes the oracle agree with stackprof:

  weak      GCC titles a weak function like a static, so calls from other
            units do not reach it in the merged graph; and it binds a call
            within the unit to the weak default where the image has the
            strong definition that overrode it (arch_cpu_idle)
  tail      a jmp to another function's entry is a tail call: GCC sums it
  alias     a call to a name GCC left undefined that the image defines as an
            alias of a function GCC compiled (blake2s_compress)
  code      calls in the machine code that the .ci lacks (inline assembly,
            alternatives, static-call trampolines)
"""

import argparse
import bisect
import collections
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tests', 'e2e'))
import ci_oracle  # noqa: E402

CLASSES = ('weak', 'tail', 'alias', 'code')
COLD_RE = re.compile(r'\.cold(\.\d+)?$')
FUNC_RE = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
BRANCH_RE = re.compile(r'^\s*([0-9a-f]+):\s+(call|jmp)\s+([0-9a-f]+) <([^>]+)>\s*$')
DOT_EDGE_RE = re.compile(r'^\s*"?([^";]*?)"? -> "?([^";]*?)"?(?:\s*\[.*)?;$')
UNMATCHED_RE = re.compile(r"^stackprof: (.*?\.su):(\d+): no function in the image for '(.*)'$")


def load_json(path):
    with open(path, encoding='utf-8') as fp:
        return json.load(fp)


class Image:
    """vmlinux's code symbols (with the source file that the symbol
    table's FILE entries give a local one) and the direct calls and jumps
    of its machine code."""

    def __init__(self, syms_path, dis_path):
        self.names_at = collections.defaultdict(set)   # address -> names
        self.syms_at = collections.defaultdict(list)   # address -> (name, file)
        self.addr_of = {}                             # name -> address
        self.kind = {}                                # name -> nm-like letter
        with open(syms_path, encoding='utf-8', errors='replace') as fp:
            self.read_symtab(fp)
        self.branches = []    # (caller address, insn, target address)
        self.calls_from = collections.defaultdict(int)
        caller = None
        with open(dis_path, encoding='utf-8', errors='replace') as fp:
            for line in fp:
                m = FUNC_RE.match(line)
                if m:
                    caller = int(m.group(1), 16)
                    continue
                m = BRANCH_RE.match(line)
                if m and caller is not None:
                    at = self.caller_at(caller, int(m.group(1), 16))
                    if at is not None:
                        self.branches.append((at, m.group(2), int(m.group(3), 16)))

    def read_symtab(self, fp):
        self.files = []       # FILE entries, in link order
        self.funcs = []       # (start, end, name) of sized FUNC symbols
        file = None
        for line in fp:
            parts = line.split()
            if len(parts) < 8 or not parts[0].endswith(':'):
                continue
            typ, bind, name = parts[3], parts[4], parts[7]
            if typ == 'FILE':
                file = len(self.files)
                self.files.append(name)
                continue
            if typ not in ('FUNC', 'NOTYPE') or parts[6] in ('UND', 'ABS'):
                continue
            addr = int(parts[1], 16)
            local = bind == 'LOCAL'
            self.names_at[addr].add(name)
            # globals follow every FILE entry: their unit is unknown
            self.syms_at[addr].append((name, file if local else bind))
            self.addr_of.setdefault(name, addr)
            self.kind.setdefault(name, {'LOCAL': 't', 'WEAK': 'W'}.get(bind, 'T'))
            if typ == 'FUNC' and int(parts[2]) > 0:
                self.funcs.append((addr, addr + int(parts[2]), name))
        self.funcs.sort()
        self.func_starts = [f[0] for f in self.funcs]
        self.end_of = {}
        for lo, hi, _ in self.funcs:
            self.end_of[lo] = max(hi, self.end_of.get(lo, lo))

    def caller_at(self, label, addr):
        """The entry of the function whose code holds addr: objdump goes on
        naming the last symbol over code that has none (a weak default
        the linker overrode keeps its body, not its symbol)."""
        if self.end_of.get(label, label) > addr:
            return label
        i = bisect.bisect_right(self.func_starts, addr)
        for k in range(i - 1, max(i - 5, -1), -1):   # a few aliases at most
            if self.funcs[k][0] <= addr < self.funcs[k][1]:
                return self.funcs[k][0]
        return None

    def containing(self, addr):
        """The names of the sized function symbols whose code holds addr."""
        i = bisect.bisect_right(self.func_starts, addr)
        out = set()
        for k in range(i - 1, max(i - 5, -1), -1):
            if self.funcs[k][0] <= addr < self.funcs[k][1]:
                out.add(self.funcs[k][2])
        return out

    def entry_names(self, addr):
        return self.names_at.get(addr, set())


class Resolver:
    """ELF symbols -> .ci nodes: a global's title is its name, a static's
    is "CU:name".  The symbol table's FILE entries (a basename) follow the
    link order, as the compile units of DWARF do: the k-th FILE is the
    next unit of that basename."""

    def __init__(self, graph, image, cus):
        self.graph, self.image = graph, image
        self.weak_titles = collections.defaultdict(list)
        for t, node in graph.nodes.items():
            if node.defined and ':' in t:
                self.weak_titles[t.rsplit(':', 1)[1]].append(t)
        self.cu_of_file = {}
        i = 0
        for k, base in enumerate(image.files):
            j = i
            while j < len(cus) and os.path.basename(cus[j]) != base:
                j += 1
            if j < len(cus):    # assembly units name their .o: no match
                self.cu_of_file[k] = cus[j]
                i = j + 1

    def titles(self, addr):
        out = []
        for name, file in self.image.syms_at.get(addr, ()):
            base = COLD_RE.sub('', name)
            if file == 'WEAK':     # GCC titles a weak function like a static
                cands = [base] + self.weak_titles.get(base, [])
            elif not isinstance(file, int):
                cands = [base]
            else:
                cu = self.cu_of_file.get(file)
                cands = [f"{cu}:{base}", base] if cu else [base]
            for t in cands:
                node = self.graph.nodes.get(t)
                if node is not None and node.defined and t not in out:
                    out.append(t)
                    break
        return out

    def cold(self, addr):
        return any(COLD_RE.search(n) for n in self.image.entry_names(addr))


def rebuild(graph):
    graph.scc_of, graph.cyclic, graph.order, graph.memo = {}, set(), [], {}
    graph.tarjan()
    graph.fast_mode()


def add_tails(graph, res):
    """A jmp to the entry of another function that GCC lists as a callee
    is a tail call, unless the caller also calls it (then the callee's
    frame sits on top of the caller's at that call)."""
    jumps, calls = set(), set()
    for caller, insn, addr in res.image.branches:
        if addr not in res.image.names_at or addr == caller:
            continue
        for src in res.titles(caller):
            for dst in res.titles(addr):
                (jumps if insn == 'jmp' else calls).add((src, dst))
    n = 0
    for src, dst in jumps - calls:
        node = graph.nodes[src]
        if dst in node.succ and dst not in node.tails and dst != src:
            node.tails.add(dst)
            n += 1
    return n


def add_aliases(graph, res):
    """Redirect calls to an undefined name that is, in the image, another
    name of a function GCC compiled."""
    n = 0
    for node in list(graph.nodes.values()):
        for i, s in enumerate(node.succ):
            if graph.nodes[s].defined or s not in res.image.addr_of:
                continue
            hits = [h for h in res.titles(res.image.addr_of[s]) if h != s]
            if len(hits) == 1 and hits[0] not in node.succ:
                node.succ[i] = hits[0]
                if s in node.tails:
                    node.tails.discard(s)
                    node.tails.add(hits[0])
                n += 1
    return n


def code_node(graph, res, addr):
    """The nodes a code address stands for; an assembly function or a
    trampoline that GCC never compiled gets a node of its own."""
    titles = res.titles(addr)
    if titles:
        return titles
    name = min(res.image.entry_names(addr))
    name = COLD_RE.sub('', name)
    if name not in graph.nodes:
        graph.nodes[name] = ci_oracle.Node(name, name, None, 0, None, None)
    return [name]


def label_of(elf_name):
    """An ELF or .ci name without clone numbers, which a .ci label keeps
    for some clones (f.part.0) and drops for others (f.constprop)."""
    return re.sub(r'\.\d+', '', COLD_RE.sub('', elf_name))


def code_pairs(graph, res, insns=('call', 'jmp')):
    """(caller, callee, insn, target) of every direct call or tail jump between
    functions in the machine code that the .ci lacks under any of the
    callee's names."""
    out = set()
    names = res.image.entry_names
    for caller, insn, addr in res.image.branches:
        if insn not in insns or addr == caller or not names(addr) \
                or not names(caller):
            continue
        callee_labels = {label_of(n) for n in names(addr)}
        for src in code_node(graph, res, caller):
            node = graph.nodes[src]
            listed = {label_of(graph.nodes[t].name) for t in node.succ}
            if callee_labels & listed:
                continue
            for dst in code_node(graph, res, addr):
                if dst != src:
                    out.add((src, dst, insn, addr))
    return out


def add_weak(graph, res):
    """GCC titles a weak function like a static ("unit.c:f"), so in the
    merged .ci graph the calls from other units to f reach no definition;
    and it binds a call within the unit to that weak definition, where the
    image has the strong one from another unit instead."""
    present = set()
    for addr in res.image.syms_at:
        present.update(res.titles(addr))
    n = 0
    for node in list(graph.nodes.values()):
        for i, s in enumerate(node.succ):
            dst = graph.nodes[s]
            new = None
            if not dst.defined and res.image.kind.get(s) == 'W':
                hits = res.titles(res.image.addr_of[s])
                # another function's name at that address: an alias
                new = hits[0] if len(hits) == 1 and hits[0] != s and \
                    graph.nodes[hits[0]].name == s else None
            elif dst.defined and s not in present and ':' in s:
                strong = graph.nodes.get(dst.name)
                if strong is not None and strong.defined and dst.name in present:
                    new = dst.name
            if new is not None and new not in node.succ:
                node.succ[i] = new
                if s in node.tails:
                    node.tails.discard(s)
                    node.tails.add(new)
                n += 1
    return n


def add_code_calls(graph, res):
    """The calls and tail jumps of the machine code that the .ci lacks;
    a function GCC did not compile (assembly, a static-call trampoline)
    that makes some has no frame of its own but its callees count."""
    pairs = code_pairs(graph, res)
    for src, dst, insn, _ in pairs:
        node = graph.nodes[src]
        if dst not in node.succ:
            node.succ.append(dst)
        if insn == 'jmp':
            node.tails.add(dst)
        if not node.defined:
            node.self_bytes, node.qual = 0, 'static'
    return pairs


def pair_groups(graph, report):
    """([titles], [report entries]) per (name, file, line): the copies of
    one header function that several units compiled are told apart only
    by their figures.  Also the defined nodes missing from the report."""
    by_key = ci_oracle.group(report['functions'],
                             lambda f: (f.get('name'), f.get('file'), f.get('line')))
    defined = [n for n in graph.nodes.values() if n.defined]
    groups, missing = [], []
    for key, nodes in ci_oracle.group(defined, ci_oracle.Node.key).items():
        entries = by_key.get(key, [])
        if len(entries) < len(nodes):
            missing += nodes[len(entries):]
            nodes = nodes[:len(entries)]
        if nodes:
            groups.append(([n.title for n in nodes], entries[:len(nodes)]))
    return groups, missing


def matched(graph, group):
    """How many of a group's entries agree with a copy, each copy used once;
    and the entries that do not."""
    titles, entries = group
    free = list(titles)
    left = []
    for f in entries:
        hit = next((t for t in free if agrees(graph.fast[t], f)), None)
        if hit is None:
            left.append(f)
        else:
            free.remove(hit)
    return len(entries) - len(left), list(zip(free, left))


def agrees(e, f):
    if e['bounded'] != f.get('bounded'):
        return False
    if e['value'] is None:
        return True
    return (f.get('total') if e['bounded'] else f.get('lower_bound')) == e['value']


def describe(e, f):
    want = e['value'] if e['bounded'] else f">= {e['value']}"
    got = f.get('total') if f.get('bounded') else f">= {f.get('lower_bound')}"
    return f"stackprof {got}, .ci {want}"


def classify(graph, res, report):
    groups, missing = pair_groups(graph, report)
    rebuild(graph)
    best = [matched(graph, gr)[0] for gr in groups]
    equal = sum(best)
    counts, changes, examples = collections.OrderedDict(), {}, {}
    g = copy.deepcopy(graph)
    steps = (('weak', add_weak), ('tail', add_tails), ('alias', add_aliases), ('code', add_code_calls))
    for name, step in steps:
        res.graph = g
        change = step(g, res)
        changes[name] = len({p[:2] for p in change}) if isinstance(change, set) else change
        rebuild(g)
        gain, who = 0, []
        for i, gr in enumerate(groups):
            m = matched(g, gr)[0]
            if m > best[i]:
                gain += m - best[i]
                best[i] = m
                who.append(gr[1][0]['name'])
        counts[name] = gain
        examples[name] = who
    unexplained = []
    for i, gr in enumerate(groups):
        if best[i] < len(gr[1]):
            unexplained += [(t, f, describe(g.fast[t], f))
                            for t, f in matched(g, gr)[1]]
    return {'functions': sum(len(gr[1]) for gr in groups), 'equal': equal,
            'classes': counts, 'changes': changes, 'examples': examples,
            'unexplained': unexplained, 'missing': missing}


def unmatched_rows(verbose_path, image, report):
    """Every .su row stackprof matched to no function, with its kind."""
    by_symbol = {f.get('symbol'): f for f in report['functions'] if f.get('symbol')}
    rows = []
    with open(verbose_path, encoding='utf-8', errors='replace') as fp:
        for line in fp:
            m = UNMATCHED_RE.match(line.rstrip('\n'))
            if not m:
                continue
            su, lineno, name = m.group(1), m.group(2), m.group(3)
            rows.append((f"{su}:{lineno}", name, su_kind(name, su, image, by_symbol)))
    return rows


def su_kind(name, su, image, by_symbol):
    if name not in image.addr_of:
        return 'not in the image (discarded by the linker)'
    others = image.entry_names(image.addr_of[name]) - {name}
    f = by_symbol.get(name)
    if image.kind[name] in 'TW' and f is not None and \
            os.path.splitext(f['file'])[0] != os.path.splitext(os.path.basename(su))[0] and \
            not su.endswith(os.path.splitext(f['file'])[0] + '.su'):
        return f"weak default overridden (the image's {name} is {f['file']})"
    if others:
        return f"alias: one body under two names ({name} = {min(others)})"
    return 'other'


def dot_edges(path):
    """stackprof's own call pairs, by name, from its --dot --all graph."""
    out = set()
    with open(path, encoding='utf-8', errors='replace') as fp:
        for line in fp:
            m = DOT_EDGE_RE.match(line)
            if m:
                out.add((label_of(m.group(1).rsplit(':', 1)[-1]),
                         label_of(m.group(2).rsplit(':', 1)[-1])))
    return out


def found_by_stackprof(pairs, graph, res, edges):
    """The code-only call pairs that stackprof's graph has, the callee
    under one of its names or as the function whose code holds the call's
    target (__put_user_nocheck_8 is a label inside __put_user_8)."""
    found, lost = 0, []
    for src, addr in sorted({(p[0], p[3]) for p in pairs}):
        caller = label_of(graph.nodes[src].name)
        names = res.image.entry_names(addr) | res.image.containing(addr)
        if any((caller, label_of(n)) in edges for n in names):
            found += 1
        else:
            lost.append((graph.nodes[src].name, min(res.image.entry_names(addr))))
    return found, lost


def growth(both, dwarf):
    """Functions whose worst case the machine-code calls made larger."""
    key = lambda f: (f.get('name'), f.get('file'), f.get('line'), f.get('symbol'))
    old = {key(f): f for f in dwarf['functions']}
    grew = []
    for f in both['functions']:
        o = old.get(key(f))
        if o is None:
            continue
        d = f['lower_bound'] - o['lower_bound']
        became_unbounded = o['bounded'] and not f['bounded']
        if d > 0 or became_unbounded:
            grew.append((d, f['name'], o['lower_bound'], f['lower_bound'],
                         became_unbounded))
    return sorted(grew, reverse=True)


def dynamic_frames(report, su_rows):
    causes = collections.Counter()
    unnamed = []
    for f in report['functions']:
        if not (f.get('qualifier') or '').startswith('dynamic'):
            continue
        cause = f.get('dynamic_cause') or ''
        if cause.startswith('VLA'):
            causes['VLA (named from DWARF)'] += 1
        elif cause.startswith('stack arguments pushed'):
            causes['stack arguments pushed for a call (named from the code)'] += 1
        elif cause.startswith('alloca') and 'no variable-length' in cause:
            causes['alloca() or another dynamic adjustment: no VLA in DWARF'] += 1
        elif cause:
            causes[cause.split(' (')[0]] += 1
        else:
            unnamed.append(f['name'])
            causes['no cause'] += 1
    return causes, unnamed


def su_dynamic_rows(tree, cus):
    n = 0
    for cu in cus:
        su = os.path.join(tree, os.path.splitext(cu)[0] + '.su')
        if os.path.exists(su):
            with open(su, encoding='utf-8', errors='replace') as fp:
                n += sum(1 for line in fp if line.rstrip().endswith('\tdynamic')
                         or line.rstrip().endswith('\tdynamic,bounded'))
    return n


def linked_ci(tree, cus):
    linked = []
    for cu in cus:
        ci = os.path.join(tree, os.path.splitext(cu)[0] + '.ci')
        if os.path.exists(ci):
            linked.append(ci)
    every = ci_oracle.find_ci([tree])
    have = set(os.path.normpath(p) for p in linked)
    unlinked = [p for p in every if os.path.normpath(p) not in have]
    return linked, unlinked


def count_defined(ci):
    with open(ci, encoding='utf-8', errors='replace') as fp:
        return sum(1 for line in fp if line.lstrip().startswith('node:')
                   and ' bytes (' in line)


def pct(a, b):
    return f"{100.0 * a / b:.1f} %" if b else "n/a"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    for opt in ('tree', 'both', 'dwarf', 'dot', 'verbose', 'syms', 'disasm', 'cus'):
        ap.add_argument('--' + opt, required=True)
    ap.add_argument('--list', type=int, default=20,
                    help='list at most N unexplained functions (default 20)')
    args = ap.parse_args(argv)
    both, dwarf = load_json(args.both), load_json(args.dwarf)
    with open(args.cus, encoding='utf-8') as fp:
        cus = [line.strip() for line in fp if line.strip()]
    image = Image(args.syms, args.disasm)

    su = both['su']
    print(f".su rows matched to a DWARF function: {su['matched']} of {su['rows']} "
          f"({pct(su['matched'], su['rows'])}) in {su['files']} files")
    rows = unmatched_rows(args.verbose, image, both)
    kinds = collections.Counter(k.split(' (')[0] for _, _, k in rows)
    for kind, n in kinds.most_common():
        print(f"  unmatched, {kind}: {n}")
    for where, name, kind in rows[:args.list]:
        print(f"    {where} {name}: {kind}")

    linked, unlinked = linked_ci(args.tree, cus)
    print(f".ci files of compile units in the image: {len(linked)}; objects not "
          f"linked: {len(unlinked)} .ci files, {sum(map(count_defined, unlinked))} "
          f"functions (not compared)")
    graph = ci_oracle.Graph(linked, [])
    resolver = Resolver(graph, image, cus)
    res = classify(graph, resolver, both)
    n, eq = res['functions'], res['equal']
    print(f"functions of the image whose total equals the .ci worst case: "
          f"{eq} of {n} ({pct(eq, n)})")
    explained = eq
    for name in CLASSES:
        explained += res['classes'][name]
        print(f"  explained by {name:6} {res['classes'][name]:6}   "
              f"(graph changes: {res['changes'][name]})"
              f"  equal or explained so far: {pct(explained, n)}")
        if args.list and res['examples'][name]:
            print("      e.g. " + ', '.join(res['examples'][name][:args.list]))
    print(f"  unexplained      {len(res['unexplained']):6}")
    for t, f, why in res['unexplained'][:args.list]:
        print(f"    {f['name']} ({f['file']}:{f['line']}): {why}")
    print(f"  .ci functions of linked objects not in the report: {len(res['missing'])}")
    for node in res['missing'][:args.list]:
        print(f"    {node.name} ({node.file}:{node.line})")

    resolver.graph = graph
    calls = [p for p in code_pairs(copy.deepcopy(graph), resolver, ('call',))
             if graph.nodes.get(p[0]) is not None and graph.nodes[p[0]].defined]
    pairs = {(a, b) for a, b, _, _ in calls}
    print(f"direct calls in the machine code that the .ci lacks (caller/callee "
          f"pairs from objdump, callers GCC compiled): {len(pairs)}")
    found, lost = found_by_stackprof(calls, graph, resolver, dot_edges(args.dot))
    print(f"  of those (caller, target) pairs, in stackprof's graph: {found} of "
          f"{found + len(lost)}")
    for a, b in lost[:args.list]:
        print(f"    missing: {a} -> {b}")
    m = re.search(r'code: (\d+) more call pairs', open(args.verbose).read())
    print(f"  stackprof's disassembly pass: {m.group(1) if m else '?'} call pairs "
          f"that DWARF lacks")
    grew = growth(both, dwarf)
    unb = sum(1 for g in grew if g[4])
    print(f"  functions whose worst case grew, against --calls=dwarf: {len(grew)} "
          f"({unb} of them became unbounded), largest growth "
          f"{grew[0][0] if grew else 0} bytes")
    shown = set()
    for d, name, old, new, became in grew:
        if name in shown or len(shown) >= 5:
            continue
        shown.add(name)
        print(f"    {name}: {old} -> {new} (+{d}){' and unbounded' if became else ''}")

    causes, unnamed = dynamic_frames(both, None)
    total = sum(causes.values())
    print(f"dynamic frames in the report: {total} (.su rows of linked objects: "
          f"{su_dynamic_rows(args.tree, cus)})")
    for cause, k in causes.most_common():
        print(f"  {cause}: {k}")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
