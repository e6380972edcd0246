#!/usr/bin/env python3
"""dwarf_mutate.py IN.s OUT.s MUTATION: break one kind of DWARF reference
in the assembly `gcc -S -g -dA` writes of tests/data/dwarf/refs.c (a
comment per DIE and per attribute), for tests/e2e/t3120.  DIEs are found
by name and tag, never by offset, so another GCC's layout works too."""
import re, sys

FAR = 0x7ffffff0	# beyond the end of any test's compile unit
src, dst, what = sys.argv[1:4]
lines = open(src).read().split("\n")
die_re = re.compile(r"# \(DIE \((0x[0-9a-f]+)\) (DW_TAG_\w+)\)")
attr_re = re.compile(r"^(\s*\.(?:long|4byte)\s+)(0x[0-9a-f]+)(\s+# (DW_AT_\w+).*)$")

# DIEs in order: offset, tag, {attribute: line index}, name
dies, cur = [], None
for i, l in enumerate(lines):
    m = die_re.search(l)
    if m:
        cur = {"off": int(m.group(1), 16), "tag": m.group(2), "attrs": {}, "name": None}
        dies.append(cur)
        continue
    if cur is None:
        continue
    m = attr_re.match(l)
    if m:
        cur["attrs"].setdefault(m.group(4), i)
    m = re.search(r'# DW_AT_name: "(\w+)"|"(\w+)\\0"\s+# DW_AT_name', l)
    if m and cur["name"] is None:
        cur["name"] = m.group(1) or m.group(2)

def named(name, tag="DW_TAG_subprogram"):
    return next(d for d in dies if d["name"] == name and d["tag"] == tag)

def clone_of(name):
    """the concrete out-of-line copy whose abstract_origin is NAME"""
    off = named(name)["off"]
    for d in dies:
        i = d["attrs"].get("DW_AT_abstract_origin")
        if d["tag"] == "DW_TAG_subprogram" and i is not None and \
           int(attr_re.match(lines[i]).group(2), 16) == off:
            return d
    sys.exit("no clone of " + name)

def setref(d, attr, value):
    i = d["attrs"][attr]
    m = attr_re.match(lines[i])
    lines[i] = "%s%#x%s" % (m.group(1), value, m.group(3))

def var_type(func, var):
    """the DIE of VAR's DW_AT_type inside FUNC"""
    f = named(func)
    v = next(d for d in dies if d["off"] > f["off"] and d["name"] == var)
    t = int(attr_re.match(lines[v["attrs"]["DW_AT_type"]]).group(2), 16)
    return v, next(d for d in dies if d["off"] == t)

twig, leaf = clone_of("twig"), clone_of("leaf")
if what == "origin-self":
    setref(twig, "DW_AT_abstract_origin", twig["off"])
elif what == "origin-cycle":
    setref(twig, "DW_AT_abstract_origin", leaf["off"])
    setref(leaf, "DW_AT_abstract_origin", twig["off"])
elif what == "origin-far":
    setref(twig, "DW_AT_abstract_origin", FAR)
elif what == "call-origin-far":
    for d in dies:
        if "DW_AT_call_origin" in d["attrs"]:
            setref(d, "DW_AT_call_origin", FAR)
elif what == "origin-mid":
    setref(twig, "DW_AT_abstract_origin", named("twig")["off"] + 1)
elif what == "call-origin-mid":
    for d in dies:
        if "DW_AT_call_origin" in d["attrs"]:
            setref(d, "DW_AT_call_origin", named("work")["off"] + 3)
elif what == "call-origin-self":
    work = named("work")
    for d in dies:
        if "DW_AT_call_origin" in d["attrs"]:
            setref(d, "DW_AT_call_origin", work["off"])
elif what == "sibling-far":
    setref(named("main"), "DW_AT_sibling", FAR)
elif what == "sibling-self":
    setref(named("work"), "DW_AT_sibling", named("work")["off"])
elif what == "sibling-back":
    setref(named("vla"), "DW_AT_sibling", named("main")["off"])
elif what == "type-cycle":
    # buf: volatile -> array -> (the volatile again)
    v, vol = var_type("vla", "buf")
    arr = next(d for d in dies if d["off"] == int(attr_re.match(
        lines[vol["attrs"]["DW_AT_type"]]).group(2), 16))
    setref(arr, "DW_AT_type", vol["off"])
elif what == "type-self":
    v, vol = var_type("vla", "buf")
    setref(vol, "DW_AT_type", vol["off"])
elif what == "type-far":
    v, vol = var_type("vla", "buf")
    setref(v, "DW_AT_type", FAR)
else:
    sys.exit("unknown mutation " + what)
open(dst, "w").write("\n".join(lines))
