#!/usr/bin/env python3
"""dump_frames.py DUMP NM: every sized function's ORC frame, from objtool's
own reading of a linked program's table (`objtool --dump=orc`) and from
`nm -S`, by the rule stackprof documents: the rows in effect over
[start, start + size) -- the last one at or before the start, then those
inside -- all "sp:sp+N" of type call give the largest N; an undefined
row ("sp:(und)", end:0) inside is unreachable code and skipped, at the
start it means no ORC.  Prints "NAME N", "NAME other" or "NAME none",
and "NAME undefined-inside" for each function with such a row inside."""
import bisect
import re
import sys

ROW = re.compile(r"^([0-9a-f]+): sp:(\S+) bp:\S+ type:(.+) end:(\d)$")
rows = []
for line in open(sys.argv[1]):
    m = ROW.match(line.strip())
    if not m:
        sys.exit("dump_frames.py: unexpected line: " + line)
    ip, sp, kind, end = int(m[1], 16), m[2], m[3], m[4] == "1"
    weak = sp == "(und)" and not end
    rows.append((ip, 0 if weak else 1, sp, kind, end))
# the kernel's order: by address, a terminator before a real row
rows.sort(key=lambda r: (r[0], r[1]))
ips = [r[0] for r in rows]

def frame(lo, hi):
    """(N, "other" or "none"; whether an undefined row is inside)"""
    i = bisect.bisect_right(ips, lo) - 1     # the row in effect at lo
    if i < 0:
        return "none", False
    best, und = 0, False
    for j in range(i, len(rows)):
        ip, real, sp, kind, end = rows[j]
        if ip >= hi:
            break
        if not real and j + 1 < len(rows) and rows[j + 1][0] == ip:
            continue            # a terminator, overridden by the real row
        if not real:
            if j == i:
                return "none", False
            und = True
            continue
        m = re.match(r"^sp\+(\d+)$", sp)
        if not m or kind != "call" or end:
            return "other", und
        best = max(best, int(m[1]))
    return str(best), und


for line in open(sys.argv[2]):
    f = line.split()
    if len(f) != 4 or f[2] not in "tTwW":
        continue
    lo, size, name = int(f[0], 16), int(f[1], 16), f[3]
    if size:
        what, und = frame(lo, lo + size)
        print(name, what)
        if und:
            print(name, "undefined-inside")
