#!/usr/bin/env python3
"""sp_report.py - every JSON report a test reads goes through here.

    load(PATH) -> the report, validated and checked, then expanded
    load_asked(PATH) -> load(PATH, validate=False), kept for the next ask
    python3 tests/e2e/sp_report.py check FILE...   (exit 1: what is wrong)
    python3 tests/e2e/sp_report.py size FILE       (bytes per member)

The checks: the file validates against doc/stackprof.schema.json (draft
2020-12); in a report (version 2), each function's "id" is its index,
every id a call, step, segment, site or kernel entry names is listed,
worst_callee is the callee of calls[worst_call], and the path rebuilt by
the schema's rule from worst_callee and the segments (certain_callee
through a bounded function on an unbounded total's path, assumed_callee
through an unbounded one on an assumed path) equals "path" and
"path_detail" where the report writes them, and adds up to lower_bound
(assumed_path and assumed_lower_bound likewise; the rebuild is written
here from the schema's description, not from stackprof's code).  A failed check raises ReportError.

The expanded report is what version 1 gave, which the tests read:
"functions" holds the selected functions only ("all_functions" every
one), each with its "path", "path_detail" and "path_red_zone" (rebuilt
where the report leaves them out), its calls and the indirect calls'
targets by "name" as well as by id, the kernel entries with their path.
"""
import gc
import hashlib
import json
import os
import pickle
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "doc", "stackprof.schema.json")
SATURATED = 2 ** 64 - 1
_validator = None


class ReportError(Exception):
    pass


def validator():
    global _validator
    if _validator is None:
        import jsonschema
        with open(SCHEMA, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        _validator = jsonschema.Draft202012Validator(schema)
    return _validator


# The keywords whose verdict on a value depends only on its shape
# (shape() below); a schema with another one is checked value by value.
SHAPE_KEYWORDS = {"$defs", "$id", "$ref", "$schema", "additionalProperties", "const",
                  "default", "dependentRequired", "description", "enum", "items",
                  "minItems", "minimum", "oneOf", "anyOf", "allOf", "pattern",
                  "properties", "required", "title", "type"}


class Shapes:
    """A value's shape: its JSON type; a string's answer to each of the
    schema's patterns; a number's to each minimum; a scalar that is an
    enum or const value of the schema, that value; a list's, whether it
    holds minItems items, and the shapes of its items (a set); an
    object's keys and the shape of each value.  Every keyword in
    SHAPE_KEYWORDS gives the same verdict on two values of one shape, so
    a report validates exactly when the report cut to the first item of
    each shape in every list (reduce) validates.  Shapes are numbered so
    that an object's is a tuple of small numbers."""

    def __init__(self, schema):
        self.patterns, self.minimums, self.min_items, self.values = [], set(), set(), set()
        self.plain = self.collect(schema, False)
        self.patterns = [__import__("re").compile(p) for p in self.patterns]
        self.ids = {}

    def collect(self, x, names):
        """Gather the constraints; False when a keyword is not one the
        shape decides.  names: x maps names to schemas, not keywords."""
        if isinstance(x, list):
            return all(self.collect(v, False) for v in x)
        if not isinstance(x, dict):
            return True
        ok = True
        for k, v in x.items():
            if names:
                ok &= self.collect(v, False)
                continue
            if k not in SHAPE_KEYWORDS or (k == "minItems" and v > 1):
                return False
            if k == "pattern":
                self.patterns.append(v)
            elif k == "minimum":
                self.minimums.add(v)
            elif k == "minItems":
                self.min_items.add(v)
            elif k in ("enum", "const"):
                self.values.update(e for e in (v if k == "enum" else [v])
                                   if not isinstance(e, (dict, list)))
            elif k in ("properties", "$defs", "dependentRequired"):
                ok &= self.collect(v, True)
            elif k not in ("description", "title", "default"):
                ok &= self.collect(v, False)
        return ok

    def number(self, key):
        return self.ids.setdefault(key, len(self.ids))

    def of(self, v):
        if isinstance(v, dict):
            return self.number(("object",) + tuple(sorted((k, self.of(x)) for k, x in v.items())))
        if isinstance(v, list):
            return self.number(("array", frozenset(self.of(x) for x in v),
                                tuple(len(v) >= m for m in sorted(self.min_items))))
        value = v if v in self.values else None
        if isinstance(v, str):
            return self.number(("string", value, tuple(bool(p.search(v)) for p in self.patterns)))
        if isinstance(v, bool) or v is None:
            return self.number((type(v).__name__, v))
        return self.number((type(v).__name__, value, isinstance(v, float) and v.is_integer(),
                            tuple(v >= m for m in sorted(self.minimums))))

    def reduce(self, v):
        """V with each list cut to the first item of each shape."""
        if isinstance(v, dict):
            return {k: self.reduce(x) for k, x in v.items()}
        if isinstance(v, list):
            firsts = {}
            for x in v:
                firsts.setdefault(self.of(x), x)
            return [self.reduce(x) for x in firsts.values()]
        return v


_shapes = None


def shapes():
    global _shapes
    if _shapes is None:
        with open(SCHEMA, encoding="utf-8") as f:
            _shapes = Shapes(json.load(f))
    return _shapes


def check_schema(doc, what):
    """doc against the schema: a large report (a kernel's) by its shapes
    (Shapes), in seconds where jsonschema takes minutes; a report that
    fails is checked again value by value, for the place of the error."""
    sh = shapes()
    if sh.plain and len(doc.get("functions", [])) > 2000 and \
            not any(validator().iter_errors(sh.reduce(doc))):
        return
    errors = sorted(validator().iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path)
        raise ReportError(f"{what}: does not validate against the schema "
                          f"({len(errors)} errors), at /{where}: {e.message[:300]}")


def edge_defaults(e):
    return {"id": e["id"], "tail": e.get("tail", False), "via": e.get("via"),
            "resolved_by": e.get("resolved_by")}


OWN = ("worst_callee", "worst_call", "segment")
WAYS = {"certain": ("certain_callee", "certain_call", "certain_segment"),
        "assumed": ("assumed_callee", "assumed_call", "assumed_segment")}


def step_keys(f, way):
    """The keys of f's next step on a path that goes the way WAY: over
    certain calls (an unbounded total's lower bound) or over every call
    ("assumed": a bounded total's, an unbounded one's assumed path)."""
    if way == "certain" and f["bounded"] and "certain_callee" in f:
        return WAYS["certain"]
    if way == "assumed" and not f["bounded"] and "assumed_callee" in f:
        return WAYS["assumed"]
    return OWN


def worst_path(rep, fid, way=None):
    """The path of function fid's lower_bound (way None) or of its
    assumed_lower_bound (way "assumed") as [(id, edge)], by the schema's
    rule: worst_call until a function with a segment, then segments."""
    funcs, segs = rep["functions"], rep["segments"]
    out = [(fid, None)]
    cur = fid
    way = way or ("assumed" if funcs[fid]["bounded"] else "certain")
    while True:
        f = funcs[cur]
        callee, call, segment = step_keys(f, way)
        if segment in f:
            seg, seen = f[segment], set()
            while seg is not None:
                if seg in seen:
                    raise ReportError(f"{f['name']}: the segments loop at {seg}")
                seen.add(seg)
                for st in segs[seg]["steps"]:
                    out.append((st["id"], edge_defaults(st)))
                seg = segs[seg]["next"]
            return out
        if f[call] is None:
            if f[callee] is not None:
                raise ReportError(f"{f['name']}: {callee} without {call}")
            return out
        e = f["calls"][f[call]] if f[call] < len(f["calls"]) else None
        if e is None or e["id"] != f[callee]:
            raise ReportError(f"{f['name']}: calls[{call}] is not {callee}")
        cur = e["id"]
        out.append((cur, edge_defaults(e)))
        if len(out) > len(funcs) + 1:
            raise ReportError(f"{funcs[fid]['name']}: {callee} loops")


def path_bytes(rep, path):
    """What the path adds up to: a tail callee replaces its caller's
    frame; a stack switch ends what counts; a depth-bounded function
    adds its lower_bound and ends it."""
    funcs = rep["functions"]
    total = 0
    for i, (fid, _) in enumerate(path):
        if funcs[fid].get("depth_bounded"):
            total += funcs[fid]["lower_bound"]
            break
        nxt = path[i + 1][1] if i + 1 < len(path) else None
        if nxt and nxt["via"] == "stack-switch":
            total += own(funcs[fid])
            break
        if nxt and nxt["tail"]:
            continue
        total += own(funcs[fid])
    return min(total, SATURATED)


def own(f):
    return (f["self"] or 0) + f["red_zone"]


def detail_of(rep, path):
    funcs = rep["functions"]
    out = []
    for fid, e in path:
        f = funcs[fid]
        out.append({"name": f["name"], "file": f["file"], "line": f["line"],
                    "self": f["self"], "frame_source": f["frame_source"],
                    "image": f["image"],
                    "red_zone": f["red_zone"], "tail": bool(e and e["tail"]),
                    "via": e["via"] if e else None,
                    "resolved_by": e["resolved_by"] if e else None})
    return out


def check_ids(rep):
    funcs = rep["functions"]
    n = len(funcs)

    def known(i, what):
        if i is not None and not 0 <= i < n:
            raise ReportError(f"{what}: id {i} is not listed")
    for i, f in enumerate(funcs):
        if f["id"] != i:
            raise ReportError(f"functions[{i}] has id {f['id']}")
        for c in f["calls"]:
            known(c["id"], f"{f['name']} calls")
        known(f["worst_callee"], f"{f['name']} worst_callee")
        if "segment" in f and not 0 <= f["segment"] < len(rep["segments"]):
            raise ReportError(f"{f['name']}: no segment {f['segment']}")
    selected = [f["selected"] for f in funcs]
    if selected != sorted(selected, reverse=True):
        raise ReportError("a function that is not selected comes before a selected one")
    for k, s in enumerate(rep["segments"]):
        for st in s["steps"]:
            known(st["id"], f"segments[{k}]")
        if s["next"] is not None and not 0 <= s["next"] < len(rep["segments"]):
            raise ReportError(f"segments[{k}]: no segment {s['next']}")
    sets = rep.get("target_sets", [])
    for s in rep.get("indirect_calls", []):
        known(s["function"], "an indirect call")
        if s["targets"] is not None:
            if not 0 <= s["targets"] < len(sets):
                raise ReportError(f"an indirect call names no target set {s['targets']}")
            if len(sets[s["targets"]]) != s["ntargets"]:
                raise ReportError("an indirect call's ntargets is not its set's length")
    for k, t in enumerate(sets):
        for x in t:
            known(x, f"target_sets[{k}]")
    for cls in rep.get("kernel", {}).values():
        for e in cls["entries"]:
            known(e["id"], "a kernel entry")
            if funcs[e["id"]]["name"] != e["name"]:
                raise ReportError(f"kernel entry {e['name']} names function {e['id']}")


def check_path(rep, what, f, p, prefix, bound):
    """p against f's PREFIXpath where written, and against bound."""
    funcs = rep["functions"]
    names = [funcs[x]["name"] for x, _ in p]
    if prefix + "path" in f:
        if f[prefix + "path"] != names:
            raise ReportError(f"{what}: {f['name']}: {prefix}worst_callee rebuilds "
                              f"{names}, \"{prefix}path\" is {f[prefix + 'path']}")
        if f[prefix + "path_detail"] != detail_of(rep, p):
            raise ReportError(f"{what}: {f['name']}: {prefix}path_detail is not the "
                              "rebuilt path's")
        if f[prefix + "path_red_zone"] != sum(funcs[x]["red_zone"] for x, _ in p):
            raise ReportError(f"{what}: {f['name']}: {prefix}path_red_zone")
    if path_bytes(rep, p) != bound:
        raise ReportError(f"{what}: {f['name']}: the {prefix}path {' -> '.join(names)} "
                          f"adds up to {path_bytes(rep, p)}, {prefix}lower_bound is {bound}")


def check_paths(rep, what):
    """Rebuilt paths against the written ones and lower_bound (and the
    assumed ones against assumed_lower_bound); returns the rebuilt path
    of each function."""
    funcs = rep["functions"]
    paths = []
    for i, f in enumerate(funcs):
        p, ap = worst_path(rep, i), None
        check_path(rep, what, f, p, "", f["lower_bound"])
        if f["assumed_lower_bound"] is not None:
            ap = worst_path(rep, i, "assumed")
            check_path(rep, what, f, ap, "assumed_", f["assumed_lower_bound"])
        elif "assumed_path" in f:
            raise ReportError(f"{what}: {f['name']}: an assumed_path without its bound")
        paths.append((p, ap))
    if rep["paths"] == "all" and any("path" not in f for f in funcs):
        raise ReportError(f"{what}: \"paths\": \"all\", yet a function has no path")
    return paths


def expand(rep, paths):
    """The view of version 1 that the tests read."""
    funcs = rep["functions"]
    for f, (p, ap) in zip(funcs, paths):
        for prefix, q in (("", p), ("assumed_", ap)):
            if q is None:
                continue
            f.setdefault(prefix + "path", [funcs[x]["name"] for x, _ in q])
            f.setdefault(prefix + "path_detail", detail_of(rep, q))
            f.setdefault(prefix + "path_red_zone", sum(funcs[x]["red_zone"] for x, _ in q))
        f["calls"] = [dict(edge_defaults(c), name=funcs[c["id"]]["name"],
                           file=funcs[c["id"]]["file"]) for c in f["calls"]]
    for s in rep.get("indirect_calls", []):
        s["function_id"] = s["function"]
        s["function"] = funcs[s["function"]]["name"]
        s["target_ids"] = None if s["targets"] is None else rep["target_sets"][s["targets"]]
        if s["targets"] is not None:
            s["targets"] = [funcs[t]["symbol"] or funcs[t]["name"] for t in s["target_ids"]]
    for cls in rep.get("kernel", {}).values():
        for e in cls["entries"]:
            e["path"] = funcs[e["id"]]["path"]
    rep["all_functions"] = funcs
    rep["functions"] = [f for f in funcs if f["selected"]]
    return rep


def load(path, validate=True):
    """PATH's report ('-': standard input), checked and expanded; without
    validate, not against the schema (whose library takes long to load).
    A report holds no cycle of references: the collector, which would
    walk a kernel's millions of objects again and again as they are
    made, is off meanwhile."""
    was = gc.isenabled()
    gc.disable()
    try:
        return load_checked(path, validate)
    finally:
        if was:
            gc.enable()


def load_checked(path, validate):
    if path == "-":
        rep = json.load(sys.stdin)
    else:
        with open(path, encoding="utf-8") as fp:
            rep = json.load(fp)
    if validate:
        check_schema(rep, path)
    if "vlas" in rep:
        return rep
    check_ids(rep)
    return expand(rep, check_paths(rep, path))


def load_asked(path):
    """load(path, validate=False) for lib.sh's jget, which asks a report
    one question a process, a kernel's up to a dozen times: a report of
    4 MB and more is expanded once and kept beside it (PATH.asked, a
    pickle, read in a quarter of the time) under the digest of its
    bytes, so a report written again to the same file is loaded again."""
    if path == "-" or os.path.getsize(path) < 4 << 20:
        return load(path, validate=False)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    kept = os.path.realpath(path) + ".asked"     # one for a shared report's links
    gc.disable()                # as in load()
    try:
        with open(kept, "rb") as f:
            if pickle.load(f) == digest:
                return pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    rep = load(path, validate=False)
    with open(kept + ".new", "wb") as f:
        pickle.dump(digest, f)
        pickle.dump(rep, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(kept + ".new", kept)
    return rep


def callees_along(rep, root, chain, wanted):
    """The names among wanted that the functions at the end of chain
    call: from each function named root, through a call to a function
    of each name of chain in turn (so an 'ignore ... from' line's copy
    is reached through the callers it was made for, and only them)."""
    by = {f["id"]: f for f in rep["functions"]}
    ends = {f["id"] for f in rep["functions"] if f["name"] == root}
    for name in chain:
        ends = {c["id"] for i in ends for c in by[i]["calls"] if by[c["id"]]["name"] == name}
    return sorted({by[c["id"]]["name"] for i in ends for c in by[i]["calls"]} & set(wanted))


def sizes(path):
    rep = json.load(open(path, encoding="utf-8"))
    per = {}
    for f in rep.get("functions", []):
        for k, v in f.items():
            per[k] = per.get(k, 0) + len(json.dumps(v, separators=(",", ":"))) + len(k) + 4
    for k in ("indirect_calls", "segments", "kernel"):
        if k in rep:
            per["(" + k + ")"] = len(json.dumps(rep[k], separators=(",", ":")))
    for k, v in sorted(per.items(), key=lambda kv: -kv[1]):
        print(f"{v:12d}  {k}")


def main(argv):
    if len(argv) >= 2 and argv[0] == "size":
        sizes(argv[1])
        return 0
    if len(argv) < 2 or argv[0] != "check":
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        try:
            load(path)
        except (ReportError, ValueError, OSError) as e:
            print(f"  {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
