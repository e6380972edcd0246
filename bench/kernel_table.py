#!/usr/bin/env python3
"""Write the worst-case stack table of a kernel (doc/kernel-6.1.md) from
a `stackprof --kernel-summary --json` report.

    kernel_table.py --report REPORT.json --notes NOTES --title TITLE
                    [--command CMD] > TABLE.md

The report must carry the paths of the entries the table shows (give
stackprof --top 120).  NOTES holds the sentences on the deepest paths, a
paragraph each, headed by a line "## ENTRY" naming the entry; a path
with no paragraph says so, so that a new kernel's table shows which
paths nobody has read yet.

System calls reach the kernel under several symbols (__x64_sys_NAME,
__ia32_sys_NAME): the rows that share a name and a total are one row.
"""
import argparse
import collections
import json
import re

SYSCALL_PREFIX = re.compile(r'^__(x64|ia32|ia32_compat|x32_compat)_sys_|^__(x64|ia32)_compat_sys_')
HEAD = 4        # the callees that name a path's head
TOP_SYSCALLS = 50
TOP_IRQ = 10
TOP_EXCEPTIONS = 10
WHOLE_PATHS = 5


def total_text(e):
    """An entry's total as the text report writes it."""
    if e['bounded']:
        return '%d%s' % (e['total'], '+' if e['partial'] else '')
    return '>= %d' % e['lower_bound']


def syscall_name(symbol):
    return SYSCALL_PREFIX.sub('', symbol)


def merged(entries, name_of):
    """The entries, worst first, with those of one name and one bound as
    one row: (entry, [symbols])."""
    rows = collections.OrderedDict()
    for e in entries:
        key = (name_of(e['name']), e['total'], e['lower_bound'])
        if key in rows:
            rows[key][1].append(e['name'])
        else:
            rows[key] = (e, [e['name']])
    return list(rows.values())


def reason_kind(reason):
    """The class of an unbounded total's reason: what makes it so."""
    for prefix, kind in (('recursion', 'a recursion no annotation bounds'),
                         ('indirect call', 'an indirect call'),
                         ('dynamic frame', 'a dynamic frame (VLA, alloca)'),
                         ('VLA', 'a dynamic frame (VLA, alloca)'),
                         ('alloca', 'a dynamic frame (VLA, alloca)'),
                         ('unknown frame', 'a frame nobody knows')):
        if reason.startswith(prefix):
            return kind
    return reason.split(' ')[0]


def open_reasons(f):
    """The reasons of a function's report that keep its total unbounded."""
    return [r for r in f.get('reasons') or [] if 'bounded by annotation' not in r]


def head_of_path(f):
    names = [s['name'] for s in f.get('path_detail') or []][1:1 + HEAD]
    return ' → '.join('`%s`' % n for n in names) if names else '-'


def cycle_of(reason):
    """The functions of a "recursion A -> B -> A" reason."""
    m = re.match(r'recursion (.*?)( bounded by annotation.*)?$', reason)
    return m.group(1).split(' -> ') if m else []


def entry_rows(out, funcs, rows, symbol_text):
    out.append('| # | entry | total | frames | head of the path | location |')
    out.append('|---:|---|---:|---:|---|---|')
    for i, (e, names) in enumerate(rows, 1):
        f = funcs[e['id']]
        frames = len(f['path_detail']) if f.get('path_detail') else '-'
        loc = '%s:%d' % (e['file'], e['line']) if e['file'] else '-'
        out.append('| %d | %s | %s | %s | %s | %s |' % (
            i, symbol_text(names), total_text(e), frames, head_of_path(f), loc))


def assumed_cell(c):
    """A class's count with linux-assumed.ann too: finite, and how many of
    those rest on one of its 'assume' lines."""
    if c is None:
        return ''
    pct = 100.0 * c['bounded'] / c['count'] if c['count'] else 0.0
    return ' %d (%.0f %%; %d on an assumption) |' % (
        c['bounded'], pct, c.get('assumed_annotation', 0))


def class_summary(out, kernel, funcs, assumed=None):
    more = ' with `linux-assumed` |' if assumed else ''
    out.append('| class | stack | entries | finite total |%s unbounded, by the first reason |'
               % more)
    out.append('|---|---|---:|---:|%s---|' % ('---:|' if assumed else ''))
    for name, title in (('syscall', 'system calls'), ('irq', 'IRQ handlers'),
                        ('exception', 'exception entries'),
                        ('irq_thread', 'threaded IRQ handlers')):
        if name not in kernel:
            continue
        c = kernel[name]
        why = collections.Counter()
        for e in c['entries']:
            if not e['bounded']:
                rs = open_reasons(funcs[e['id']])
                why[reason_kind(rs[0]) if rs else 'no reason given'] += 1
        whys = ', '.join('%d %s' % (n, k) for k, n in why.most_common())
        pct = 100.0 * c['bounded'] / c['count'] if c['count'] else 0.0
        # a partial total is a lower bound: said apart, with how many
        # reach the code of modules not given
        part = (', %d partial (%d module code)' % (c['partial'], c['partial_module_code'])
                if c.get('partial') else '')
        cell = assumed_cell(assumed.get(name)) if assumed else ''
        out.append('| %s | %s | %d | %d (%.0f %%%s) |%s %s |' % (
            title, c['stack'], c['count'], c['bounded'], pct, part, cell, whys or '-'))


def largest_cycles(out, kernel, funcs, n=5):
    """The cycles that keep most entries unbounded."""
    count = collections.Counter()
    for c in kernel.values():
        for e in c['entries']:
            for r in open_reasons(funcs[e['id']]):
                cyc = cycle_of(r)
                if cyc:
                    count[' → '.join(cyc)] += 1
    if not count:
        out.append('No entry is unbounded by a cycle.')
        return
    out.append('| entries | cycle |')
    out.append('|---:|---|')
    for cyc, k in count.most_common(n):
        out.append('| %d | %s |' % (k, cyc))


def whole_path(out, f, note):
    out.append('| self | total | function | location | how it is called |')
    out.append('|---:|---:|---|---|---|')
    left = f['total'] if f['bounded'] else f['lower_bound']
    for s in f['path_detail']:
        how = s.get('resolved_by') or s.get('via') or ('tail call' if s.get('tail') else '')
        loc = '%s:%s' % (s['file'], s['line']) if s.get('file') else '-'
        self_ = s['self'] if s['self'] is not None else '?'
        out.append('| %s | %s | `%s` | %s | %s |' % (self_, left, s['name'], loc, how))
        if not s.get('tail'):
            left -= (s['self'] or 0) + (s.get('red_zone') or 0)
    out.append('')
    out.append(note or '*Nobody has read this path yet.*')


def read_notes(path):
    notes, name, lines = {}, None, []
    with open(path) as f:
        for line in f:
            if line.startswith('## '):
                if name:
                    notes[name] = ''.join(lines).strip()
                name, lines = line[3:].strip(), []
            elif name:
                lines.append(line)
    if name:
        notes[name] = ''.join(lines).strip()
    return notes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--report', required=True)
    ap.add_argument('--notes', required=True)
    ap.add_argument('--title', required=True)
    ap.add_argument('--command', default='make kernel-table')
    ap.add_argument('--assumed-report',
                    help='the same run with --annotate linux-assumed too')
    a = ap.parse_args()
    with open(a.report) as f:
        r = json.load(f)
    assumed = None
    if a.assumed_report:
        with open(a.assumed_report) as f:
            assumed = json.load(f)['kernel']
    funcs, kernel, notes = r['functions'], r['kernel'], read_notes(a.notes)
    sys_rows = merged([e for e in kernel['syscall']['entries']], syscall_name)
    out = ['# ' + a.title, '',
           'Generated by `%s` from `stackprof --kernel-summary '
           '--indirect=types --annotate linux --json`; do not edit by hand '
           '(the notes on the deepest paths are in `doc/kernel-6.1.notes`).'
           % a.command, '',
           'A total is the worst case in bytes of the stack an entry runs '
           'on, from its own frame down; `>= N` is unbounded, N the deepest '
           'path over calls that certainly exist; `N+` is partial (a frame '
           'is unknown).  Indirect calls reach the targets that '
           '`--indirect=types` gives them (assumed edges); `--annotate '
           'linux` bounds the recursions the kernel bounds (each line cites '
           'its source).', '']
    if assumed:
        out += ['The column *with `linux-assumed`* adds `--annotate '
                'linux-assumed`: recursions that run-time values keep short, '
                'not the code (each line says why it holds and why it is no '
                'fact); a total that may rest on one is *assumed*.  The rest '
                'of this page is the run without it.', '']
    out += ['## Entries bounded, per class', '']
    class_summary(out, kernel, funcs, assumed)
    out += ['', 'The cycles that keep the most entries unbounded:', '']
    largest_cycles(out, kernel, funcs)
    out += ['', '## The %d deepest system calls' % TOP_SYSCALLS, '',
            'Symbols of one system call with one total share a row.', '']
    entry_rows(out, funcs, sys_rows[:TOP_SYSCALLS],
               lambda names: ', '.join('`%s`' % n for n in names))
    for cls, top, title in (('irq', TOP_IRQ, 'IRQ handlers'),
                            ('exception', TOP_EXCEPTIONS, 'exception entries'),
                            ('irq_thread', TOP_IRQ, 'threaded IRQ handlers')):
        if not kernel.get(cls, {}).get('entries'):
            continue
        top = min(top, len(kernel[cls]['entries']))
        out += ['', '## The %d deepest %s (%s)' % (top, title, kernel[cls]['stack']), '']
        rows = [(e, [e['name']]) for e in kernel[cls]['entries'][:top]]
        entry_rows(out, funcs, rows, lambda names: '`%s`' % names[0])
    out += ['', '## The %d deepest system calls, whole' % WHOLE_PATHS, '']
    for e, names in sys_rows[:WHOLE_PATHS]:
        f = funcs[e['id']]
        out += ['### %s: %s bytes' % (', '.join('`%s`' % n for n in names), total_text(e)), '']
        whole_path(out, f, notes.get(names[0]) or notes.get(syscall_name(names[0])))
        out.append('')
    print('\n'.join(out).rstrip() + '\n', end='')


if __name__ == '__main__':
    main()
