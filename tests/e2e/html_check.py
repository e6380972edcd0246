#!/usr/bin/env python3
"""html_check.py - checks of a stackprof --html page for t4400.

    html_check.py static PAGE REPORT.json
        the page is self-contained (no external reference: no http(s)://
        except the SVG/XLink/XHTML namespaces, no src=, no <link>, no
        @import), has an inline <svg>, and its embedded data holds no
        "</" and says what REPORT.json (stackprof --json of the same run,
        read by sp_report.py) says of every function: name, location,
        frame, totals, flags, reasons, and the worst path that the page's
        rows rebuild (by the schema's rule, written here again)
    html_check.py dom DOM.html REPORT.json ORACLE_TOTAL SPEC
        DOM.html is chromium's --dump-dom after #selftest=SPEC; SPEC must
        be sort:name,sort:total,expand:F,filter:TEXT.  Checks the record
        the page wrote (the icicle of F after its row's click: bars,
        bytes and widths) and the table rows of the DOM itself.
    html_check.py pages DOM.html REPORT.json SPEC
        a page of more functions than one page of rows shows, after
        #selftest=sort:total,page:N,expand:F,filter:TEXT: page N holds
        the right hundred rows, F's path is the report's, the filter's
        first page is the first hundred matches.
Prints what is wrong, exits 1 then.
"""
import html
import json
import os
import re
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sp_report  # noqa: E402

NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink",
              "http://www.w3.org/1999/xhtml"}
PAGE = 100
problems = []
# a row of the page's "functions" (report/html_data.c)
NAME, FILE, LINE, SELF, RED, TOTAL, FLAGS, QUAL, DYN, WORST, TAIL, VIA, RES, SEGMENT, WHY, \
    CERTAIN = range(16)
FLAG_BITS = {"bounded": 1, "partial": 2, "recursive": 4, "assumed": 8, "selected": 16}


def check(cond, what):
    if not cond:
        problems.append(what)


def embedded_json(page):
    m = re.search(r'<script type="application/json" id="stackprof-data">(.*?)</script>',
                  page, re.S)
    if not m:
        sys.exit("no <script type=\"application/json\" id=\"stackprof-data\">")
    return m.group(1)


def page_path(data, i):
    """The worst path of row i as [(id, tail, via)], by the schema's rule:
    an unbounded row's goes over certain calls, taking a bounded row's
    CERTAIN step where it has one."""
    rows, segs, s = data["functions"], data["segments"], data["strings"]
    out = [(i, False, None)]
    certain = not rows[i][FLAGS] & FLAG_BITS["bounded"]
    while True:
        r = rows[i]
        # callee, tail, via, resolved_by, segment
        st = r[CERTAIN] if certain and r[CERTAIN] != -1 else r[WORST:SEGMENT + 1]
        if st[4] >= 0:
            seg = st[4]
            while seg >= 0:
                out += [(x[0], x[1] == 1, s[x[2]] if x[2] >= 0 else None)
                        for x in segs[seg][0]]
                seg = segs[seg][1]
            return out
        if st[0] < 0 or len(out) > len(rows):
            return out
        out.append((st[0], st[1] == 1, s[st[2]] if st[2] >= 0 else None))
        i = st[0]


def static(page_path_arg, report_path):
    page = open(page_path_arg, encoding="utf-8").read()
    check(page.startswith("<!DOCTYPE html>"), "no <!DOCTYPE html> first")
    for url in sorted(set(re.findall(r'(?i)https?://[^\s"\'<>)]*', page))):
        check(url in NAMESPACES, f"external reference {url}")
    check(not re.search(r'(?i)\ssrc\s*=', page), "a src= attribute")
    check(not re.search(r'(?i)<link\b', page), "a <link> element")
    check("@import" not in page, "a CSS @import")
    check(not re.search(r'(?i)<!DOCTYPE svg|<\?xml', page), "graphviz's XML prolog kept")
    check(page.count("<svg") == 1 and "</svg>" in page, "not one inline <svg>")
    text = embedded_json(page)
    check("</" not in text, "'</' inside the JSON script element")
    data = json.loads(text)
    report = sp_report.load(report_path)
    funcs = report["all_functions"]
    rows, s = data["functions"], data["strings"]
    check(len(rows) == len(funcs), f"{len(rows)} rows, {len(funcs)} functions in the report")

    def string(k):
        return s[k] if k >= 0 else None
    for i, (r, f) in enumerate(zip(rows, funcs)):
        flags = sum(b for k, b in FLAG_BITS.items() if f[k])
        got = (r[NAME], string(r[FILE]), r[LINE], r[SELF], r[RED], r[TOTAL], r[FLAGS] & 31,
               string(r[QUAL]), string(r[DYN]), [string(k) for k in r[WHY]])
        want = (f["name"], f["file"], f["line"], f["self"], f["red_zone"], f["lower_bound"],
                flags, f["qualifier"], f["dynamic_cause"], f["reasons"])
        check(got == want, f"row {i}: {got}, the report says {want}")
        path = page_path(data, i)
        check([funcs[x]["name"] for x, _, _ in path] == f["path"],
              f"row {i} ({f['name']}): the page's path differs from the report's")
        check([(t, v) for _, t, v in path] == [(d["tail"], d["via"]) for d in f["path_detail"]],
              f"row {i} ({f['name']}): the page's path edges differ from the report's")


class Rows(HTMLParser):
    """The tbody rows of #functions: (name, hidden) of each tr.func."""

    def __init__(self):
        super().__init__()
        self.rows = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "func" in (a.get("class") or "").split():
            self.rows.append((a.get("data-name"), "hidden" in a))


def icicle_check(f, step):
    """The icicle after a row's click: that function's worst path, each
    bar the bytes from its frame down (the root's its total), drawn that
    wide relative to the root's bar."""
    bars = step["icicle"]
    names = [b[0] for b in bars]
    check(names == f["path"], f"icicle of {f['name']}: {names}, want --json's {f['path']}")
    if not bars or names != f["path"]:
        return
    d = f["path_detail"]
    weights = [0 if i + 1 < len(d) and d[i + 1]["tail"] else (p["self"] or 0) + p["red_zone"]
               for i, p in enumerate(d)]
    want = [sum(weights[i:]) for i in range(len(d))]
    check(want[0] == f["lower_bound"], f"{f['name']}: frames add up to {want[0]}, "
          f"total {f['lower_bound']} (the check's own arithmetic)")
    check([b[1] for b in bars] == want, f"icicle bytes {[b[1] for b in bars]}, want {want}")
    root_px = bars[0][2]
    for name, nbytes, px in bars:
        want_px = root_px * nbytes / want[0] if want[0] else root_px
        check(abs(px - max(want_px, 2)) <= 1.5,
              f"icicle bar {name}: {px:.1f} px wide, want {want_px:.1f} ({nbytes} of {want[0]} B)")


def record(text, steps):
    m = re.search(r'<pre id="selftest">(.*?)</pre>', text, re.S)
    if not m or not m.group(1).strip():
        sys.exit("the page wrote no #selftest record (did its script run?)")
    rec = json.loads(html.unescape(m.group(1)))
    check(rec["errors"] == [], f"self-test errors {rec['errors']}")
    check([s["step"] for s in rec["steps"]] == steps, "steps not all recorded")
    return rec


def matching(funcs, order, text):
    text = text.lower()
    return [n for n in order if text in n.lower() or text in (funcs[n]["file"] or "").lower()]


def dom(dom_path, report_path, oracle_total, spec):
    text = open(dom_path, encoding="utf-8").read()
    report = sp_report.load(report_path)
    funcs = {f["name"]: f for f in report["functions"]}
    steps = spec.split(",")
    kinds = [s.split(":", 1) for s in steps]
    if [k for k, _ in kinds] != ["sort", "sort", "expand", "filter"] or \
            kinds[0][1] != "name" or kinds[1][1] != "total":
        sys.exit("SPEC must be sort:name,sort:total,expand:F,filter:TEXT")
    expand, filt = kinds[2][1], kinds[3][1]
    by_name, by_total, expanded, filtered = record(text, steps)["steps"]
    names = sorted(funcs)
    check(by_name["rows"] == names, f"sort:name rows {by_name['rows']}, want {names}")
    totals = by_total["totals"]
    check(len(totals) == len(funcs), "sort:total: not every function has a row")
    check(totals == sorted(totals, reverse=True), f"sort:total not descending: {totals}")
    check(by_total["rows"] != by_name["rows"], "sort:total did not change the order")
    for name, total in zip(by_total["rows"], totals):
        check(funcs[name]["lower_bound"] == total, f"row {name}: total {total}")
    want_path = funcs[expand]["path"]
    check(expanded["expanded"] == want_path,
          f"expanded {expand}: {expanded['expanded']}, want --json's {want_path}")
    check(expanded["stacks"] and max(expanded["stacks"]) == int(oracle_total),
          f"expanded {expand}: deepest stack {expanded['stacks']}, oracle {oracle_total}")
    icicle_check(funcs[expand], expanded)
    want_shown = matching(funcs, by_total["rows"], filt)
    check(0 < len(want_shown) < len(funcs), f"filter '{filt}' is not selective")
    check(filtered["rows"] == want_shown,
          f"filter '{filt}': rows {filtered['rows']}, want {want_shown}")
    parser = Rows()
    parser.feed(text)
    check([n for n, hidden in parser.rows if not hidden] == want_shown,
          "DOM: the rows after the filter differ")


def pages(dom_path, report_path, spec):
    text = open(dom_path, encoding="utf-8").read()
    report = sp_report.load(report_path)
    sel = report["functions"]
    funcs = {f["name"]: f for f in sel}
    steps = spec.split(",")
    kinds = [s.split(":", 1) for s in steps]
    if [k for k, _ in kinds] != ["sort", "page", "expand", "filter"] or kinds[0][1] != "total":
        sys.exit("SPEC must be sort:total,page:N,expand:F,filter:TEXT")
    n, expand, filt = int(kinds[1][1]), kinds[2][1], kinds[3][1]
    rec = record(text, steps)
    by_total, paged, expanded, filtered = rec["steps"]
    check(len(sel) > n * PAGE, f"{len(sel)} functions: no page {n} of {PAGE} rows")
    # the report's order is the page's: total, descending; ties as listed
    order = [f["name"] for f in sel]
    check(by_total["rows"] == order[:PAGE], "sort:total: the first page is not the "
          "hundred worst functions")
    check(paged["page"] == n - 1 and paged["rows"] == order[(n - 1) * PAGE:n * PAGE],
          f"page {n}: rows {paged['rows'][:3]}..., want {order[(n - 1) * PAGE:][:3]}...")
    check(paged["matched"] == len(sel), f"page {n}: {paged['matched']} rows to page through")
    check(expanded["expanded"] == funcs[expand]["path"],
          f"expanded {expand}: {expanded['expanded'][:5]}..., want --json's "
          f"{funcs[expand]['path'][:5]}...")
    icicle_check(funcs[expand], expanded)
    want = matching(funcs, order, filt)
    check(filtered["matched"] == len(want), f"filter '{filt}': {filtered['matched']} "
          f"match, want {len(want)}")
    check(filtered["rows"] == want[:PAGE], f"filter '{filt}': the first page differs")
    print(f"  {rec['functions']} functions, {len(sel)} rows to page through, "
          f"table drawn {rec['drawn_ms']:.0f} ms after the page's start")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "static":
        static(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "dom":
        dom(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "pages":
        pages(*sys.argv[2:])
    else:
        sys.exit(__doc__)
    for p in problems[:20]:
        print(p)
    sys.exit(1 if problems else 0)


main()
