#!/usr/bin/env python3
"""dwarf_mutate.py IN.s OUT.s MUTATION: break one kind of DWARF reference
in the assembly `gcc -S -g -dA` writes of tests/data/dwarf/refs.c (a
comment per DIE and per attribute), for tests/e2e/t3120.  DIEs are found
by name and tag, never by offset, so another GCC's layout works too."""
import sys

import dwarf_asm

FAR = 0x7ffffff0	# beyond the end of any test's compile unit
src, dst, what = sys.argv[1:4]
lines = open(src).read().split("\n")
dies = dwarf_asm.dies(lines)

def named(name, tag="DW_TAG_subprogram"):
    return next(d for d in dies if d["name"] == name and d["tag"] == tag)

def clone_of(name):
    """the concrete out-of-line copy whose abstract_origin is NAME"""
    off = named(name)["off"]
    for d in dies:
        i = d["attrs"].get("DW_AT_abstract_origin")
        if d["tag"] == "DW_TAG_subprogram" and i is not None and \
           dwarf_asm.ref(lines, d, "DW_AT_abstract_origin") == off:
            return d
    sys.exit("no clone of " + name)

def setref(d, attr, value):
    dwarf_asm.setref(lines, d, attr, value)

def var_type(func, var):
    """the DIE of VAR's DW_AT_type inside FUNC"""
    f = named(func)
    v = next(d for d in dies if d["off"] > f["off"] and d["name"] == var)
    t = dwarf_asm.ref(lines, v, "DW_AT_type")
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
    arr = next(d for d in dies if d["off"] == dwarf_asm.ref(lines, vol, "DW_AT_type"))
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
