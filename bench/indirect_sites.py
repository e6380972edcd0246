#!/usr/bin/env python3
"""The indirect calls of a stackprof --indirect=types report, grouped:
how many each way was resolved (resolved_by) with their mean targets,
and the sites left to a prototype or to every address-taken function,
by source file, by calling function and by prototype.

    indirect_sites.py [--top N] REPORT.json

REPORT is read as a stream (a kernel's report is over a gigabyte): the
functions for their names and files, then "indirect_calls".  It is what
doc/accuracy.md's breakdown of the kernel's sites is made from.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_cycles import array  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--top', type=int, default=15)
    ap.add_argument('report')
    a = ap.parse_args()
    with open(a.report) as f:
        names = [fn.get('name') for fn in array(f, 'functions')]
    by = collections.Counter()
    targets = collections.Counter()
    groups = {k: [collections.Counter() for _ in range(3)]
              for k in ('prototype', 'address-taken')}
    with open(a.report) as f:
        for s in array(f, 'indirect_calls'):
            how = s.get('resolved_by') or 'none'
            by[how] += 1
            targets[how] += s.get('ntargets') or 0
            if how in groups:
                fn = names[s['function']] if s.get('function') is not None else '?'
                g = groups[how]
                g[0][s.get('file') or '?'] += 1
                g[1][fn] += 1
                g[2][s.get('type') or '-'] += 1
    total = sum(by.values())
    print('%d indirect call sites' % total)
    for how, n in by.most_common():
        print('  %-14s %6d  %5.1f %%  mean targets %.1f'
              % (how, n, 100.0 * n / total, targets[how] / n))
    for how, g in groups.items():
        for title, c in zip(('file', 'function', 'type'), g):
            if how == 'address-taken' and title == 'type':
                continue
            print('\n%s sites by %s:' % (how, title))
            for k, n in c.most_common(a.top):
                print('  %6d  %s' % (n, k))


if __name__ == '__main__':
    main()
