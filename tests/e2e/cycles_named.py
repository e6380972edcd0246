#!/usr/bin/env python3
"""cycles_named.py REPORT NAME=F1,F2,... ...: how many functions of a JSON
report give each cycle as an unbounded recursion (a reason "recursion F1
-> F2 -> ... -> F1" with no "bounded by annotation"), the cycle matched
in any rotation.  Prints {"NAME": count, ...} in the order given."""
import json
import sys


def rotations(nodes):
    return {tuple(nodes[i:] + nodes[:i]) for i in range(len(nodes))}


def main():
    report = json.load(open(sys.argv[1]))
    want = {}
    for arg in sys.argv[2:]:
        name, cycle = arg.split("=", 1)
        want[name] = rotations(cycle.split(","))
    named = {name: 0 for name in want}
    for f in report["functions"]:
        for r in f.get("reasons") or []:
            if not r.startswith("recursion ") or "bounded by annotation" in r:
                continue
            nodes = tuple(r[len("recursion "):].split(" -> ")[:-1])
            for name, rots in want.items():
                if nodes in rots:
                    named[name] += 1
    print(json.dumps(named))


main()
