#!/usr/bin/env python3
"""call_type.py IN.s OUT.s CALLER=NAME...: give the indirect call sites in
CALLER a DW_AT_type naming the typedef NAME (or, to test a type that is
none, the function NAME), in the assembly `gcc -S -gdwarf-5 -dA` writes
(a comment per DIE and per attribute).

DWARF 5 lets a call site say the type of the function it calls; GCC 12
and clang 14 never write it, so the test makes one.  A site with children
has a DW_AT_sibling (ref4): it becomes the DW_AT_type (ref4) under a new
abbreviation, so no offset moves.  DIEs are found by name and tag, never
by offset, so another GCC's layout works too."""
import re, sys

from dwarf_asm import die_re, dies as read_dies, setref

src, dst = sys.argv[1:3]
want = dict(a.split("=", 1) for a in sys.argv[3:])
lines = open(src).read().split("\n")
abbrev_re = re.compile(r"^\s*\.uleb128\s+(0x[0-9a-f]+)\s+# \(abbrev code\)")
dies = read_dies(lines)

def named(name, tags):
    for d in dies:
        if d["name"] == name and d["tag"] in tags:
            return d
    sys.exit("call_type.py: no %s named %s" % ("/".join(tags), name))

# the abbreviations: code -> lines of its definition
abbrevs, first = {}, None
for i, l in enumerate(lines):
    m = abbrev_re.match(l)
    if not m:
        continue
    first = i if first is None else first
    j = i
    while not (lines[j].strip().startswith(".byte") and lines[j + 1].strip().startswith(".byte")
               and lines[j].split()[1] == "0" and lines[j + 1].split()[1] == "0"):
        j += 1
    abbrevs[int(m.group(1), 16)] = lines[i:j + 2]

new_code, new_abbrevs, typed = {}, [], 0
caller = None
for d in dies:
    if d["tag"] == "DW_TAG_subprogram":
        caller = d["name"]
    if d["tag"] != "DW_TAG_call_site" or caller not in want or \
       "DW_AT_call_origin" in d["attrs"] or "DW_AT_sibling" not in d["attrs"]:
        continue
    t = named(want[caller], ("DW_TAG_typedef", "DW_TAG_subprogram"))
    code = new_code.get(d["code"])
    if code is None:
        code = max(abbrevs) + 1 + len(new_abbrevs)
        if code >= 0x80:
            sys.exit("call_type.py: abbreviation code %#x would not fit one byte" % code)
        body = [re.sub(r"0x[0-9a-f]+", "%#x" % code, abbrevs[d["code"]][0], count=1)]
        for l in abbrevs[d["code"]][1:]:
            body.append(l.replace(".uleb128 0x1\t# (DW_AT_sibling)", ".uleb128 0x49\t# (DW_AT_type)"))
        if body == abbrevs[d["code"]]:
            sys.exit("call_type.py: no DW_AT_sibling in abbreviation %#x" % d["code"])
        new_code[d["code"]] = code
        new_abbrevs.extend(body)
    m = die_re.match(lines[d["line"]])
    lines[d["line"]] = "%s%#x%s" % (m.group(1), code, m.group(3))
    setref(lines, d, "DW_AT_sibling", t["off"], "DW_AT_type")
    typed += 1
if typed < len(want):
    sys.exit("call_type.py: typed %d call sites for %d callers" % (typed, len(want)))
lines[first:first] = new_abbrevs
open(dst, "w").write("\n".join(lines))
