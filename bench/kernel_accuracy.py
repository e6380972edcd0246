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

  tail      a jmp to another function's entry is a tail call: GCC sums it
  alias     a call to a name GCC left undefined that the image defines as an
            alias of a function GCC compiled (blake2s_compress)
  code      calls in the machine code that the .ci lacks (inline assembly,
            alternatives, static-call trampolines)
"""

import argparse
import collections
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tests', 'e2e'))
import ci_oracle  # noqa: E402

CLASSES = ('tail', 'alias', 'code')
COLD_RE = re.compile(r'\.cold(\.\d+)?$')
FUNC_RE = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
BRANCH_RE = re.compile(r'^\s*([0-9a-f]+):\s+(call|jmp)\s+([0-9a-f]+) <([^>]+)>\s*$')
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
        self.file_of = {}                             # (addr, name) -> file
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
                    self.branches.append((caller, m.group(2), int(m.group(3), 16)))

    def read_symtab(self, fp):
        file = None
        for line in fp:
            parts = line.split()
            if len(parts) < 8 or not parts[0].endswith(':'):
                continue
            typ, bind, name = parts[3], parts[4], parts[7]
            if typ == 'FILE':
                file = name
                continue
            if typ not in ('FUNC', 'NOTYPE') or parts[6] in ('UND', 'ABS'):
                continue
            addr = int(parts[1], 16)
            local = bind == 'LOCAL'
            self.names_at[addr].add(name)
            self.syms_at[addr].append((name, file if local else None))
            self.addr_of.setdefault(name, addr)
            self.kind.setdefault(name, {'LOCAL': 't', 'WEAK': 'W'}.get(bind, 'T'))

    def entry_names(self, addr):
        return self.names_at.get(addr, set())


class Resolver:
    """ELF symbols -> .ci nodes: a global's title is its name, a static's
    is "CU:name" for the compile unit whose basename its FILE entry names."""

    def __init__(self, graph, image, cus):
        self.graph, self.image = graph, image
        self.cus_of = collections.defaultdict(list)
        for cu in cus:
            self.cus_of[os.path.basename(cu)].append(cu)

    def titles(self, addr):
        out = []
        for name, file in self.image.syms_at.get(addr, ()):
            base = COLD_RE.sub('', name)
            if file is None:
                cands = [base]
            else:
                cands = [f"{cu}:{base}" for cu in self.cus_of.get(file, ())] + [base]
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
    is a tail call."""
    n = 0
    for caller, insn, addr in res.image.branches:
        if insn != 'jmp' or addr not in res.image.names_at or addr == caller:
            continue
        for src_t in res.titles(caller):
            src = graph.nodes[src_t]
            for dst in res.titles(addr):
                if dst in src.succ and dst not in src.tails and dst != src_t:
                    src.tails.add(dst)
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


def code_pairs(graph, res, insns=('call', 'jmp')):
    """(caller, callee, insn) of every direct call or tail jump between
    functions in the machine code that the .ci lacks."""
    out = set()
    for caller, insn, addr in res.image.branches:
        if insn not in insns or addr not in res.image.names_at or addr == caller:
            continue
        if caller not in res.image.names_at:
            continue
        for src in code_node(graph, res, caller):
            for dst in code_node(graph, res, addr):
                if dst != src and dst not in graph.nodes[src].succ:
                    out.add((src, dst, insn))
    return out


def add_code_calls(graph, res):
    """The calls and tail jumps of the machine code that the .ci lacks;
    a function GCC did not compile (assembly, a static-call trampoline)
    that makes some has no frame of its own but its callees count."""
    pairs = code_pairs(graph, res)
    for src, dst, insn in pairs:
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
    counts, changes = collections.OrderedDict(), {}
    g = copy.deepcopy(graph)
    steps = (('tail', add_tails), ('alias', add_aliases), ('code', add_code_calls))
    for name, step in steps:
        res.graph = g
        change = step(g, res)
        changes[name] = len(change) if isinstance(change, set) else change
        rebuild(g)
        gain = 0
        for i, gr in enumerate(groups):
            m = matched(g, gr)[0]
            if m > best[i]:
                gain += m - best[i]
                best[i] = m
        counts[name] = gain
    unexplained = []
    for i, gr in enumerate(groups):
        if best[i] < len(gr[1]):
            unexplained += [(t, f, describe(g.fast[t], f))
                            for t, f in matched(g, gr)[1]]
    return {'functions': sum(len(gr[1]) for gr in groups), 'equal': equal,
            'classes': counts, 'changes': changes,
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
    for opt in ('tree', 'both', 'dwarf', 'verbose', 'syms', 'disasm', 'cus'):
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
    print(f"  unexplained      {len(res['unexplained']):6}")
    for t, f, why in res['unexplained'][:args.list]:
        print(f"    {f['name']} ({f['file']}:{f['line']}): {why}")
    print(f"  .ci functions of linked objects not in the report: {len(res['missing'])}")
    for node in res['missing'][:args.list]:
        print(f"    {node.name} ({node.file}:{node.line})")

    resolver.graph = graph
    pairs = {(a, b) for a, b, _ in code_pairs(copy.deepcopy(graph), resolver, ('call',))
             if graph.nodes.get(a) is not None and graph.nodes[a].defined}
    print(f"direct calls in the machine code that the .ci lacks (caller/callee "
          f"pairs, from objdump): {len(pairs)}")
    m = re.search(r'code: (\d+) more call pairs', open(args.verbose).read())
    print(f"  stackprof's disassembly pass: {m.group(1) if m else '?'} call pairs "
          f"that DWARF lacks")
    grew = growth(both, dwarf)
    print(f"  functions whose worst case grew through them: {len(grew)}")
    for d, name, old, new, unb in grew[:5]:
        print(f"    {name}: {old} -> {new} (+{d}){' and unbounded' if unb else ''}")

    causes, unnamed = dynamic_frames(both, None)
    total = sum(causes.values())
    print(f"dynamic frames in the report: {total} (.su rows of linked objects: "
          f"{su_dynamic_rows(args.tree, cus)})")
    for cause, k in causes.most_common():
        print(f"  {cause}: {k}")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
