#!/usr/bin/env python3
"""icall_mutate.py IN.s OUT.s MUTATION: break the DWARF --indirect=types
reads in the assembly `gcc -S -g -dA` writes of samples/ops/ops.c, for
tests/e2e/t1180:

    loclist-nowhere   every location list offset past the section's end
    member-overlap    struct shape_ops' perimeter at area's offset
    table-size        handlers[3] said to have 128 elements
"""
import re
import sys

src, dst, what = sys.argv[1:4]
lines = open(src).read().split("\n")
hits = 0

if what == "loclist-nowhere":
    for i, l in enumerate(lines):
        if re.match(r"\s*\.long\s+\.LLST\d+\s+# DW_AT_location", l):
            lines[i] = "\t.long\t0x7ffffff0\t# DW_AT_location"
            hits += 1
elif what == "member-overlap":
    for i, l in enumerate(lines):
        if '# DW_AT_name: "perimeter"' in l:
            for k in range(i + 1, i + 8):
                if "# DW_AT_data_member_location" in lines[k]:
                    lines[k] = "\t.byte\t0\t# DW_AT_data_member_location"
                    hits += 1
                    break
elif what == "table-size":
    for i, l in enumerate(lines):
        if re.match(r"\s*\.byte\s+0x2\s+# DW_AT_upper_bound", l):
            lines[i] = "\t.byte\t0x7f\t# DW_AT_upper_bound"
            hits += 1
else:
    sys.exit("unknown mutation " + what)
if not hits:
    sys.exit("no place for " + what)
open(dst, "w").write("\n".join(lines))
