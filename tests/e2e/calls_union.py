#!/usr/bin/env python3
"""calls_union.py BOTH.json DWARF.json DISASM.json [--need-both-sides]

The edges of three --json reports of one binary (each function's "calls"):
under --calls=both no (caller, callee, tail) edge may repeat, and the set
must be exactly the union of the --calls=dwarf and --calls=disasm sets.
A function is its (name, file); a callee with no entry of its own (an
external function) is its name alone, since only DWARF knows its header.
With --need-both-sides each source must add an edge the other lacks, or
the union tests nothing.  Prints what differs, exits 1 then."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sp_report  # noqa: E402


def edges(path):
    rep = sp_report.load(path)
    defined = {(f["name"], f["file"]) for f in rep["functions"]}
    out = []
    for f in rep["functions"]:
        for c in f["calls"]:
            callee = (c["name"], c["file"])
            if callee not in defined:
                callee = (c["name"], None)
            out.append(((f["name"], f["file"]), callee, c["tail"]))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    both, dwarf, disasm = (edges(p) for p in args)
    bad = False
    seen = set()
    for e in both:
        if e in seen:
            print("repeated under both:", e)
            bad = True
        seen.add(e)
    union = set(dwarf) | set(disasm)
    for e in sorted(seen - union, key=str):
        print("only under both:", e)
        bad = True
    for e in sorted(union - seen, key=str):
        print("missing under both:", e)
        bad = True
    if "--need-both-sides" in sys.argv:
        if not set(dwarf) - set(disasm):
            print("no edge comes from DWARF alone")
            bad = True
        if not set(disasm) - set(dwarf):
            print("no edge comes from the code alone")
            bad = True
    print("both %d, dwarf %d, disasm %d, dwarf-only %d, disasm-only %d" %
          (len(both), len(set(dwarf)), len(set(disasm)),
           len(set(dwarf) - set(disasm)), len(set(disasm) - set(dwarf))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
