#!/usr/bin/env python3
"""html_check.py - checks of a stackprof --html page for t4400.

    html_check.py static PAGE REPORT.json
        the page is self-contained (no external reference: no http(s)://
        except the SVG/XLink/XHTML namespaces, no src=, no <link>, no
        @import), has an inline <svg>, and its embedded JSON holds no
        "</" and equals REPORT.json (stackprof --json of the same run)
    html_check.py dom DOM.html REPORT.json ORACLE_TOTAL SPEC
        DOM.html is chromium's --dump-dom after #selftest=SPEC; SPEC must
        be sort:name,sort:total,expand:F,filter:TEXT.  Checks the record
        the page wrote (the icicle of F after its row's click: bars,
        bytes and widths) and the table rows of the DOM itself.
Prints what is wrong, exits 1 then.
"""
import html
import json
import re
import sys
from html.parser import HTMLParser

NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink",
              "http://www.w3.org/1999/xhtml"}
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def embedded_json(page):
    m = re.search(r'<script type="application/json" id="stackprof-data">(.*?)</script>',
                  page, re.S)
    if not m:
        sys.exit("no <script type=\"application/json\" id=\"stackprof-data\">")
    return m.group(1)


def static(page_path, report_path):
    page = open(page_path, encoding="utf-8").read()
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
    want = json.load(open(report_path))
    check(json.loads(text) == want, "embedded JSON differs from --json")


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


def dom(dom_path, report_path, oracle_total, spec):
    text = open(dom_path, encoding="utf-8").read()
    report = json.load(open(report_path))
    funcs = {f["name"]: f for f in report["functions"]}
    steps = spec.split(",")
    kinds = [s.split(":", 1) for s in steps]
    if [k for k, _ in kinds] != ["sort", "sort", "expand", "filter"] or \
            kinds[0][1] != "name" or kinds[1][1] != "total":
        sys.exit("SPEC must be sort:name,sort:total,expand:F,filter:TEXT")
    expand, filt = kinds[2][1], kinds[3][1]
    m = re.search(r'<pre id="selftest">(.*?)</pre>', text, re.S)
    if not m or not m.group(1).strip():
        sys.exit("the page wrote no #selftest record (did its script run?)")
    rec = json.loads(html.unescape(m.group(1)))
    check(rec["errors"] == [], f"self-test errors {rec['errors']}")
    check([s["step"] for s in rec["steps"]] == steps, "steps not all recorded")
    by_name, by_total, expanded, filtered = rec["steps"]
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
    want_shown = [n for n in by_total["rows"] if filt.lower() in n.lower() or
                  filt.lower() in (funcs[n]["file"] or "").lower()]
    check(0 < len(want_shown) < len(funcs), f"filter '{filt}' is not selective")
    check(filtered["shown"] == want_shown,
          f"filter '{filt}': shown {filtered['shown']}, want {want_shown}")
    parser = Rows()
    parser.feed(text)
    check([n for n, _ in parser.rows] == by_total["rows"], "DOM rows not in total order")
    check([n for n, hidden in parser.rows if not hidden] == want_shown,
          "DOM: the filter's hidden rows differ")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "static":
        static(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "dom":
        dom(*sys.argv[2:])
    else:
        sys.exit(__doc__)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
