#!/usr/bin/env python3
"""column_check.py - checks of stackprof's column picture for t5110.

    column_check.py svg SVG FRAMES [BUDGET]
        FRAMES has one line per frame of the path, "name bytes" (bytes:
        what the frame takes, from .su and objdump or the --json report).
        In the SVG graphviz drew: one box per frame (<g id="a_c0fN">),
        named in order, its height max(18, round(bytes / B)) pt where the
        legend says "1 pt per B B" and B is a power of two, the boxes
        stacked without a gap; with BUDGET, the frame during which the
        stack passes it drawn in two parts around a 3 pt line at the
        budget's share of the frame.  Prints "WIDTH HEIGHT" of the canvas
        in pt, then one line per box: "id top height" in pt.
    column_check.py page SVG PAGE
        writes PAGE, an HTML page with SVG inline and a script that
        records, once drawn, the canvas and each box's rectangle in
        CSS pixels into <pre id="rects"> (for chromium --dump-dom).
    column_check.py look DOM PNG BOXES MAXWIDTH
        DOM: chromium's --dump-dom of PAGE; PNG: its --screenshot; BOXES:
        what `svg` printed.  The canvas is at most MAXWIDTH px wide, every
        box is drawn as tall as the SVG says (4/3 px per pt), and the
        screenshot shows it: down a few pixel columns inside the boxes,
        the dark border rows are where the boxes begin and end.
Prints what is wrong, exits 1 then.
"""
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
MIN_H = 18
LINE_H = 3
PX_PER_PT = 4 / 3
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def done():
    """Exit 1 after the problems, if any."""
    for p in problems[:20]:
        print("    " + p)
    if problems:
        sys.exit(1)


def bbox(polygon):
    pts = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def boxes_of(root):
    """{id: (x0, y0, x1, y1, name)} of every frame box (or part)."""
    out = {}
    for g in root.iter(SVG + "g"):
        m = re.fullmatch(r"a_(c\d+f\d+[ab]?)", g.get("id") or "")
        if not m:
            continue
        polys = [p for p in g.iter(SVG + "polygon")] + [p for p in g.iter(SVG + "polyline")]
        xs0, ys0, xs1, ys1 = zip(*(bbox(p) for p in polys))
        texts = [t.text or "" for t in g.iter(SVG + "text")]
        out[m.group(1)] = (min(xs0), min(ys0), max(xs1), max(ys1),
                           texts[0].strip() if texts else "")
    return out


def svg_check(svg_path, frames_path, budget):
    root = ET.parse(svg_path).getroot()
    width = float(root.get("width").rstrip("pt"))
    height = float(root.get("height").rstrip("pt"))
    legend = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    m = re.search(r"1 pt per (\d+) B \(at least (\d+) pt\)", legend)
    if not m:
        sys.exit(f"no 'box height 1 pt per N B' in the legend: {legend[:200]!r}")
    bpp = int(m.group(1))
    check(bpp & (bpp - 1) == 0, f"{bpp} B per pt is not a power of two")
    check(int(m.group(2)) == MIN_H, f"least height {m.group(2)}, want {MIN_H}")
    frames = [(n, int(b)) for n, b in (l.split() for l in open(frames_path) if l.strip())]
    boxes = boxes_of(root)
    cum, prev_bottom, rows = 0, None, []
    for i, (name, nbytes) in enumerate(frames):
        want = max(MIN_H, (nbytes + bpp // 2) // bpp)
        whole, parts = boxes.get(f"c0f{i}"), (boxes.get(f"c0f{i}a"), boxes.get(f"c0f{i}b"))
        if whole is None and None in parts:
            problems.append(f"frame {i} ({name}): no box")
            break
        if whole:
            x0, top, x1, bottom, label = whole
        else:
            a, b = parts
            x0, top, x1, bottom = a[0], a[1], a[2], b[3]
            label = a[4] or b[4]
            line_top, line_bottom = a[3], b[1]
            check(abs(line_bottom - line_top - LINE_H) < 0.6,
                  f"frame {i}: budget line {line_bottom - line_top} pt, want {LINE_H}")
            share = (budget - cum) / nbytes if nbytes else 0
            want_at = top + share * (want - LINE_H)
            check(abs(line_top - want_at) <= 1.6,
                  f"frame {i} ({name}): budget line at {line_top - top:.1f} pt of "
                  f"{want} pt, want {want_at - top:.1f} (budget {budget} from {cum})")
        got = bottom - top
        check(abs(got - want) < 0.6,
              f"frame {i} ({name}, {nbytes} B): box {got:g} pt high, want {want}")
        check(label == name, f"frame {i}: box named {label!r}, want {name!r}")
        if prev_bottom is not None:
            check(abs(top - prev_bottom) < 0.6, f"frame {i}: {top - prev_bottom:g} pt gap above")
        prev_bottom = bottom
        rows.append(f"c0f{i} {top:.2f} {got:.2f}")
        cum += nbytes
    extra = [k for k in boxes if not re.fullmatch(r"c0f(\d+)[ab]?", k) or
             int(re.match(r"c0f(\d+)", k).group(1)) >= len(frames)]
    check(not extra, f"boxes beyond the path: {sorted(extra)[:5]}")
    if budget is not None and cum > budget:
        check(any(k.endswith("a") for k in boxes), f"budget {budget} < {cum} B: no line")
    done()
    print(f"{width:g} {height:g}")
    print("\n".join(rows))


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>body { margin: 0; background: white; }</style></head>
<body>%s
<pre id="rects"></pre>
<script>
var svg = document.querySelector('svg'), out = { canvas: null, boxes: {} };
var r = svg.getBoundingClientRect();
out.canvas = [r.width, r.height];
Array.prototype.forEach.call(document.querySelectorAll('g[id^="a_c"]'), function (g) {
	var b = g.querySelector('polygon, polyline').getBoundingClientRect();
	out.boxes[g.id.slice(2)] = [b.left, b.top, b.width, b.height];
});
document.getElementById('rects').textContent = JSON.stringify(out);
</script></body></html>
"""


def page(svg_path, page_path):
    text = open(svg_path, encoding="utf-8").read()
    text = text[text.index("<svg"):]
    open(page_path, "w", encoding="utf-8").write(PAGE % text)


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path} is not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f"{path}: PNG depth {depth} colour type {ctype} interlace {interlace}")
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, [[tuple(r[x * bpp:x * bpp + 3]) for x in range(w)] for r in rows]


def dark(p):
    return max(p) < 110


def look(dom_path, png_path, boxes_path, max_width):
    m = re.search(r'<pre id="rects">(.*?)</pre>', open(dom_path, encoding="utf-8").read(), re.S)
    if not m or not m.group(1).strip():
        sys.exit("the page recorded no rectangles (did its script run?)")
    rects = json.loads(m.group(1).replace("&quot;", '"'))
    cw, ch = rects["canvas"]
    check(cw <= max_width, f"canvas {cw:.0f} px wide, more than {max_width}")
    lines = open(boxes_path).read().split("\n")
    boxes = [l.split() for l in lines[1:] if l.strip()]
    w, h, px = png_pixels(png_path)
    check(w >= cw - 1, f"screenshot {w} px wide, canvas {cw:.0f}")
    for bid, _, height_pt in boxes:
        r = rects["boxes"].get(bid) or rects["boxes"].get(bid + "a")
        if not r:
            problems.append(f"{bid}: not drawn in the page")
            continue
        if bid not in rects["boxes"]:
            b = rects["boxes"][bid + "b"]
            r = [r[0], r[1], r[2], b[1] + b[3] - r[1]]
        want = float(height_pt) * PX_PER_PT
        check(abs(r[3] - want) <= 1.5, f"{bid}: {r[3]:.1f} px high in the page, want {want:.1f}")
        # down a few columns near the box's right edge: its top and bottom
        # borders are dark rows, and nothing between them is
        left, top, width, height = r
        cols = [int(left + width) - k for k in range(3, 12)]
        def dark_row(y):
            return any(dark(px[y][x]) for x in cols if 0 <= y < h and 0 <= x < w)
        top_y, bot_y = int(round(top)), int(round(top + height))
        check(any(dark_row(y) for y in range(top_y - 1, top_y + 2)),
              f"{bid}: no border drawn at its top (y {top_y})")
        check(any(dark_row(y) for y in range(bot_y - 2, bot_y + 1)),
              f"{bid}: no border drawn at its bottom (y {bot_y})")
        inner = [y for y in range(top_y + 3, bot_y - 3) if dark_row(y)]
        red = [y for y in range(top_y + 2, bot_y - 2)
               if all(px[y][x][0] > 200 and px[y][x][1] < 80 for x in cols)]
        check(not inner or (red and all(abs(y - red[0]) <= LINE_H * PX_PER_PT + 2 for y in inner)),
              f"{bid}: dark rows inside the box at {inner[:4]} (two boxes drawn as one?)")
    done()


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "svg":
        svg_check(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else None)
    elif cmd == "page":
        page(sys.argv[2], sys.argv[3])
    elif cmd == "look":
        look(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    else:
        sys.exit(__doc__)
