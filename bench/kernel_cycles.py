#!/usr/bin/env python3
"""The cycles through one function (default: panic) that a stackprof
report leaves unbounded, by class.

    kernel_cycles.py [--through FUNC] [--annotate FILE]... REPORT.json|-

FUNC may be a node such as '<page fault>'.

REPORT is `stackprof --json [--annotate ...]` output, read as a stream
(a kernel's report is over a gigabyte): one function object at a time.
Two views:

  - the reasons: every function whose "recursion ..." reason (one not
    "bounded by annotation") passes FUNC, and its cycle, rotated to start
    at FUNC: the class of a cycle is the call FUNC makes that starts it
    and the function that calls FUNC again to close it;
  - the graph: the strongly connected component of FUNC in the report's
    calls, without the functions that the annotation files given bound
    (once, nest, recursion: a cycle through them is bounded) and the
    calls their 'ignore ... below' lines drop on every way from FUNC, so
    that it holds the cycles through FUNC that nothing bounds.  Every
    caller of FUNC in it closes at least one such cycle (the shortest is
    printed), and every callee of FUNC in it opens one.

Functions are told apart by name and file, as the calls name them.  A
function the report does not list (one without code, such as the node
for an exception's entry) has the calls that follow it on the paths.
"""
import argparse
import collections
import json
import re
import sys


def functions(f, chunk=1 << 20):
    """Each object of the top-level "functions" array of a JSON report in
    file f, decoded one at a time."""
    return array(f, 'functions', chunk)


def array(f, key, chunk=1 << 20):
    """Each element of the top-level array "key" of a JSON report in file
    f, decoded one at a time (what comes before it is skipped)."""
    dec = json.JSONDecoder()
    buf, tag = '', '"%s"' % key
    while True:
        data = f.read(chunk)
        if not data:
            raise ValueError('no "%s" array' % key)
        buf += data
        k = buf.find(tag)
        if k >= 0 and buf.find('[', k) >= 0:
            buf = buf[buf.find('[', k) + 1:]
            break
        buf = buf[-len(tag):]
    pos, eof = 0, False
    while True:
        while pos < len(buf) and buf[pos] in ' \t\r\n,':
            pos += 1
        if pos < len(buf) and buf[pos] == ']':
            return
        try:
            obj, end = dec.raw_decode(buf, pos)
        except json.JSONDecodeError:
            if eof:
                raise
            data = f.read(chunk)
            eof = not data
            buf, pos = buf[pos:] + data, 0
            continue
        yield obj
        pos = end
        if pos > chunk:
            buf, pos = buf[pos:], 0


def words(line):
    """The words of an annotation line, as annotate/parse.c splits it: a
    node's name ("<page fault>") holds blanks."""
    return re.findall(r'<[^>]*>[^\s#]*|[^\s#]+', line.split('#', 1)[0])


def annotation_lines(paths):
    """The functions the annotation files bound (once, nest, recursion),
    and their 'ignore FUNC CALLEE below ANCESTOR' lines as (FUNC, CALLEE,
    ANCESTOR)."""
    names, belows = set(), []
    for path in paths:
        for line in open(path):
            ws = [w if w.startswith('<') else w.rsplit(':', 1)[-1] for w in words(line)]
            if ws and ws[0] == 'optional':
                ws = ws[1:]
            if len(ws) >= 2 and ws[0] in ('once', 'nest', 'recursion'):
                names.add(ws[1])
            if len(ws) == 5 and ws[0] == 'ignore' and ws[3] == 'below':
                belows.append((ws[1], ws[2], ws[4]))
    return names, belows


def drop_belows(graph, root, belows):
    """Drop the calls that 'below' lines drop on every path from root to
    them: their ancestor is root, or every path from root to the caller
    passes it."""
    for func, callee, ancestor in belows:
        if ancestor != root[0]:
            seen, queue = {root}, collections.deque([root])
            while queue:
                for w in graph.get(queue.popleft(), ()):
                    if w not in seen and w[0] != ancestor:
                        seen.add(w)
                        queue.append(w)
            if any(v[0] == func for v in seen):
                continue
        for v, ws in graph.items():
            if v[0] == func:
                ws.difference_update({w for w in ws if w[0] == callee})


def rotate(cycle, through):
    """A cycle "a -> b -> ... -> a" as a list starting and ending at
    through, or None when through is not on it."""
    names = cycle.split(' -> ')[:-1]
    if through not in names:
        return None
    k = names.index(through)
    return names[k:] + names[:k] + [through]


def components(roots, adj, within=None):
    """The strongly connected components reached from roots (inside the
    set within, when given), each a list, by an iterative Tarjan."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in roots:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(adj.get(root, ())))]
        while work:
            v, it = work[-1]
            for w in it:
                if within is not None and w not in within:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(adj.get(w, ()))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
    return out


def tarjan_component(adj, root):
    """The strongly connected component of root."""
    return next(set(c) for c in components([root], adj) if root in c)


def reaching(adj, targets):
    """Every function with a call path into targets (targets included)."""
    callers = collections.defaultdict(set)
    for v, ws in adj.items():
        for w in ws:
            callers[w].add(v)
    seen, queue = set(targets), collections.deque(targets)
    while queue:
        for v in callers.get(queue.popleft(), ()):
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return seen


def shortest(adj, src, dst, inside):
    """The shortest call path from src to dst within the node set inside."""
    parent, queue = {src: None}, collections.deque([src])
    while queue:
        x = queue.popleft()
        for y in adj.get(x, ()):
            if y in parent or y not in inside:
                continue
            parent[y] = x
            if y == dst:
                path = [y]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(y)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--through', default='panic')
    ap.add_argument('--annotate', action='append', default=[])
    ap.add_argument('report')
    a = ap.parse_args()
    through = a.through

    f = sys.stdin if a.report == '-' else open(a.report)
    adj = collections.defaultdict(set)
    nodes_named = collections.defaultdict(set)
    unbounded = 0
    classes = collections.defaultdict(lambda: [0, collections.Counter()])
    total = 0
    by_id = {}			# version 2 names a call's callee by its id
    callee_ids = collections.defaultdict(list)
    for fn in functions(f):
        total += 1
        me = (fn['name'], fn['file'])
        by_id[fn.get('id', total - 1)] = me
        nodes_named[fn['name']].add(me)
        for c in fn.get('calls', ()):
            if c.get('via') == 'stack-switch':	# on another stack
                continue
            if 'id' in c:
                callee_ids[me].append(c['id'])
            else:
                adj[me].add((c['name'], c['file']))
        # the report lists no function without code (an exception's
        # entry node): its calls are the steps that follow it on paths
        steps = fn.get('path_detail') or ()
        for x, y in zip(steps, steps[1:]):
            adj[(x['name'], x['file'])].add((y['name'], y['file']))
        for r in fn.get('reasons', ()):
            if not r.startswith('recursion ') or 'bounded by annotation' in r:
                continue
            cyc = rotate(r[len('recursion '):], through)
            if cyc:
                unbounded += 1
                cls = classes[(cyc[1], cyc[-2])]
                cls[0] += 1
                cls[1][' -> '.join(cyc)] += 1

    for me, ids in callee_ids.items():
        adj[me].update(by_id[i] for i in ids)
    print(f'{unbounded} of {total} functions are unbounded by a cycle through {through} '
          f'({sum(len(c[1]) for c in classes.values())} different cycles named in their reasons)')
    for (first, closer), (n, cycles) in sorted(classes.items(), key=lambda kv: -kv[1][0]):
        example = min(cycles, key=lambda c: c.count(' -> '))
        print(f'  {n:6d} functions, {len(cycles):3d} cycles: {through} -> {first} ... '
              f'{closer} -> {through}\n         e.g. {example}')

    bounded, belows = annotation_lines(a.annotate)
    # a node without code (an exception's entry) is known by its calls
    roots = nodes_named.get(through) or {v for v in adj if v[0] == through}
    if not roots:
        print(f'no function {through} in the report')
        return 0
    root = min(roots, key=lambda n: n[1] or '')
    graph = {v: {w for w in ws if w[0] not in bounded} for v, ws in adj.items()
             if v[0] not in bounded or v == root}
    drop_belows(graph, root, belows)
    comp = tarjan_component(graph, root)
    print(f'the component of {through} without the functions the annotations bound: '
          f'{len(comp)} functions')
    if len(comp) == 1:
        return 0
    print(f'{len(reaching(adj, comp))} functions reach it (their totals are unbounded '
          f'by a cycle through {through} that nothing bounds)')
    closers = sorted(v for v in comp if root in graph.get(v, ()))
    for v in closers:
        path = shortest(graph, root, v, comp)
        print(f'  closed by {v[0]} ({v[1]}): {" -> ".join(n for n, _ in path)} -> {through}')
    opens = sorted(w for w in graph.get(root, ()) if w in comp)
    print(f'  opened by: {", ".join(n for n, _ in opens)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
