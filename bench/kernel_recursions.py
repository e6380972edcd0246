#!/usr/bin/env python3
"""Which recursions keep a kernel's entry points unbounded, ranked: the
work list of an annotation file.

    kernel_recursions.py [--annotate FILE]... [--class syscall] [--top N] REPORT.json

REPORT is `stackprof --kernel-summary --json [--indirect=types]
[--annotate ...]` output, loaded whole.  Three views of the entries of a
class (system calls by default) that no bound reaches:

  - the reasons: each unbounded entry's first "recursion" reason that no
    annotation bounds, counted: the cycle the solver met first, so the
    next one shows only once it is cut;
  - the components: the call graph's strongly connected components that
    those entries reach, with the functions the annotation files bound
    (once, nest, recursion) left out and their plain 'ignore FUNC CALLEE'
    calls dropped ('below' lines are kept: they cut only some paths);
  - a cut: functions, chosen greedily (those that call themselves, then
    the most calls in and out inside a component first), whose bound
    would leave no component, each with the number of unbounded entries
    that reach it.  Every one needs a
    reason in the kernel's source (or stays a real, unbounded
    recursion); the count says where a line pays most.
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_cycles  # noqa: E402


def plain_ignores(paths):
    """'ignore FUNC CALLEE' lines without 'below': (FUNC, CALLEE)."""
    out = set()
    for path in paths:
        for line in open(path):
            ws = kernel_cycles.words(line)
            if ws and ws[0] == 'optional':
                ws = ws[1:]
            if len(ws) == 3 and ws[0] == 'ignore':
                out.add((ws[1], ws[2]))
    return out


def cyclic(nodes, adj):
    """The components of the graph adj restricted to nodes that hold a
    cycle (more than one function, or one that calls itself)."""
    return [c for c in kernel_cycles.components(nodes, adj, nodes)
            if len(c) > 1 or c[0] in adj.get(c[0], ())]


def reach(entries, adj, nodes):
    """For each node, the entries (bit i: entries[i]) that reach it."""
    bits = collections.defaultdict(int)
    order, seen = [], set()
    for e in entries:          # a forward DFS postorder from every entry
        if e in seen:
            continue
        seen.add(e)
        work = [(e, iter(adj[e]))]
        while work:
            v, it = work[-1]
            for w in it:
                if w in nodes and w not in seen:
                    seen.add(w)
                    work.append((w, iter(adj[w])))
                    break
            else:
                work.pop()
                order.append(v)
    for i, e in enumerate(entries):
        bits[e] |= 1 << i
    # reverse postorder visits callers first, except inside a cycle:
    # repeat until nothing changes (a cycle's members share their set)
    changed = True
    while changed:
        changed = False
        for v in reversed(order):
            for w in adj[v]:
                if w in nodes and bits[w] | bits[v] != bits[w]:
                    bits[w] |= bits[v]
                    changed = True
    return bits


def greedy_cut(comps, adj):
    """Functions whose removal leaves no cycle in comps: those that call
    themselves, then by calls in times calls out inside their component
    (a fiftieth of a component at a time: a kernel's is 30,000 wide)."""
    cut, work = [], [set(c) for c in comps]
    while work:
        comp = work.pop()
        sub = {v: [w for w in adj[v] if w in comp] for v in comp}
        picks = [v for v in comp if v in sub[v]]
        if not picks:
            indeg = collections.Counter(w for v in comp for w in sub[v])
            picks = sorted(comp, key=lambda v: (-len(sub[v]) * indeg[v], v))
            picks = picks[:max(1, len(comp) // 50)]
        cut.extend(picks)
        comp.difference_update(picks)
        work.extend(set(c) for c in cyclic(comp, sub))
    return cut


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('report')
    ap.add_argument('--annotate', action='append', default=[])
    ap.add_argument('--class', dest='cls', default='syscall')
    ap.add_argument('--top', type=int, default=30)
    a = ap.parse_args()
    j = json.load(open(a.report))
    funcs = {f['id']: f for f in j['functions']}
    bounded, _ = kernel_cycles.annotation_lines(a.annotate)
    ignores = plain_ignores(a.annotate)
    adj = {i: [c['id'] for c in f.get('calls', []) if c['id'] in funcs and
               (f['name'], funcs[c['id']]['name']) not in ignores]
           for i, f in funcs.items()}
    entries = [e['id'] for e in j['kernel'][a.cls]['entries']
               if not funcs[e['id']]['bounded']]
    print('%s: %d entries, %d unbounded' %
          (a.cls, j['kernel'][a.cls]['count'], len(entries)))

    print('\nFirst unbounded recursion of each (the cycle met first):')
    first = collections.Counter()
    for e in entries:
        rs = [r for r in funcs[e]['reasons']
              if r.startswith('recursion ') and 'bounded by annotation' not in r]
        first[rs[0] if rs else '(no recursion: ' + (funcs[e]['reasons'] or ['?'])[0] + ')'] += 1
    for r, n in first.most_common(a.top):
        print('%6d  %s' % (n, r))

    nodes = {i for i, f in funcs.items() if f['name'] not in bounded}
    bits = reach(entries, adj, nodes)
    reached = {v for v in nodes if bits.get(v)}
    comps = sorted(cyclic(reached, adj), key=len, reverse=True)
    print('\n%d components reached, of %s functions' %
          (len(comps), ', '.join(str(len(c)) for c in comps[:12]) +
           (', ...' if len(comps) > 12 else '')))

    cut = greedy_cut(comps, adj)
    cut.sort(key=lambda v: -bin(bits[v]).count('1'))
    print('\nA cut of %d functions, by the unbounded entries that reach each:'
          % len(cut))
    for v in cut[:a.top]:
        f = funcs[v]
        print('%6d  %s  %s:%s' % (bin(bits[v]).count('1'), f['name'],
                                  f.get('file') or '?', f.get('line') or '?'))
    if len(cut) > a.top:
        print('   ... %d more (--top)' % (len(cut) - a.top))


if __name__ == '__main__':
    main()
