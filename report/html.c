/*
 * html.c - --html: one self-contained page, no network: inline CSS and
 * JavaScript, the picture as inline SVG (report/graphviz.c rendered to
 * memory: the worst path's column, or the call graph), and the data
 * (html_data.c: a row of numbers per function, the strings they share)
 * in a <script type="application/json"> element that the script turns
 * into a sortable, filterable table, a page of rows at a time, whose
 * rows expand to their worst path, built from the worst callees, and
 * into an icicle of the selected row's worst path (the stacks --folded
 * writes, drawn as bars).
 *
 * Everything the page shows about the program comes from that data, so
 * no text is escaped by hand for HTML: only '<' in the JSON, written as
 * \u003c (it occurs inside strings only), so that no "</script>" or
 * "<!--" in a function name can end the element.
 */
#include "report/html.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static const char page_head[] =
"<!DOCTYPE html>\n"
"<html lang=\"en\">\n"
"<head>\n"
"<meta charset=\"utf-8\">\n"
"<title>stackprof</title>\n"
"<style>\n"
"body { font: 14px/1.4 sans-serif; margin: 1em 2em; color: #222; }\n"
"h1 { font-size: 1.4em; margin: 0 0 .3em; }\n"
"h2 { font-size: 1.15em; margin: 1.5em 0 .5em; }\n"
"#summary, #status { color: #555; }\n"
"#pager button { font: inherit; }\n"
"#filter { width: 24em; padding: .3em; margin: .5em 0; }\n"
"table { border-collapse: collapse; }\n"
"th, td { padding: .2em .7em; text-align: left; border-bottom: 1px solid #ddd; }\n"
"th { background: #f0f0f0; cursor: pointer; user-select: none; white-space: nowrap; }\n"
"th.sorted-desc::after { content: \" \\25BC\"; }\n"
"th.sorted-asc::after { content: \" \\25B2\"; }\n"
"td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
"tr.func { cursor: pointer; }\n"
"tr.func:hover { background: #fff8d8; }\n"
"tr.func.open { background: #ffefb0; }\n"
"tr.unbounded td.total { color: #b00; font-weight: bold; }\n"
"tr.detail td { background: #fafafa; padding: .4em 1.5em; }\n"
"ol.path { margin: .2em 0; padding-left: 1.5em; font-family: monospace; }\n"
"ul.reasons { margin: .2em 0; color: #a40; }\n"
".flag { display: inline-block; padding: 0 .4em; margin-right: .2em; border-radius: 3px;\n"
"\tfont-size: .85em; background: #e4e4e4; }\n"
".flag.unbounded { background: #f6c6c6; }\n"
".flag.partial { background: #f6e2b0; }\n"
"#graph { overflow: auto; border: 1px solid #ddd; max-height: 80vh; }\n"
"#icicle { border: 1px solid #ddd; padding: 4px; font: 12px/18px sans-serif; }\n"
"#icicle .bar { height: 18px; margin-bottom: 1px; text-indent: 4px; box-sizing: border-box;\n"
"\tmin-width: 2px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis;\n"
"\tbackground: #f7b25c; border-radius: 2px; }\n"
"#icicle .bar.dynamic { background: #e5703f; }\n"
"#icicle .bar.unknown { background: #ddd; border: 1px dashed #999; }\n"
"#icicle .bar.tail { border: 1px dotted #555; }\n"
"p.note { color: #555; max-width: 60em; }\n"
"#selftest { white-space: pre-wrap; }\n"
"</style>\n"
"</head>\n"
"<body>\n"
"<h1>Worst-case stack usage of <span id=\"binary\"></span></h1>\n"
"<p id=\"summary\"></p>\n"
"<noscript><p>The table needs JavaScript; the report is the JSON at the end of this file.</p></noscript>\n"
"<input id=\"filter\" type=\"search\" placeholder=\"filter by function or file\" autocomplete=\"off\">\n"
"<table id=\"functions\">\n"
"<thead><tr><th data-key=\"name\">function</th><th data-key=\"total\" class=\"num\">total</th>"
"<th data-key=\"self\" class=\"num\">self</th><th data-key=\"qualifier\">qualifier</th>"
"<th data-key=\"flags\">flags</th><th data-key=\"location\">location</th></tr></thead>\n"
"<tbody></tbody>\n"
"</table>\n"
"<p id=\"pager\"><button id=\"prev\">&lsaquo; previous</button> <span id=\"status\"></span>\n"
"<button id=\"next\">next &rsaquo;</button></p>\n"
"<p>Click a column to sort, a row to show its worst path here and in the icicle.</p>\n"
"<h2>Icicle of <span id=\"icicle-root\"></span></h2>\n"
"<p class=\"note\">The worst path, one bar per frame from the root down.  A bar is as\n"
"wide as the stack its frame and the frames below it need, the root's its total: what\n"
"the bar below leaves uncovered is the frame's own bytes (none for a frame that a tail\n"
"call replaces).  The same stacks as <code>--folded</code> writes for flame graphs.</p>\n"
"<div id=\"icicle\"></div>\n";

/* then the picture's heading, and the picture */
static const char page_graph[] =
"<h2>%s</h2>\n"
"<div id=\"graph\">\n";

static const char page_data[] =
"</div>\n"
"<pre id=\"selftest\"></pre>\n"
"<script type=\"application/json\" id=\"stackprof-data\">\n";

static const char page_script[] =
"</script>\n"
"<script>\n"
"(function () {\n"
"'use strict';\n"
"var data = JSON.parse(document.getElementById('stackprof-data').textContent);\n"
"var S = data.strings, F = data.functions, SEG = data.segments;\n"
"/* the fields of a row of data.functions (report/html_data.c) */\n"
"var NAME = 0, FILE = 1, LINE = 2, SELF = 3, RED = 4, TOTAL = 5, FLAGS = 6, QUAL = 7,\n"
"\tDYN = 8, WORST = 9, TAIL = 10, VIA = 11, WHY = 14, SEGMENT = 13, CERTAIN = 15;\n"
"var BOUNDED = 1, PARTIAL = 2, RECURSIVE = 4, ASSUMED = 8, SELECTED = 16;\n"
"var PAGE = 100;\t/* rows drawn at once: a kernel has 10^5 functions */\n"
"var table = document.getElementById('functions');\n"
"var tbody = table.tBodies[0];\n"
"var filterBox = document.getElementById('filter');\n"
"var state = { key: null, desc: true, filter: '', page: 0 };\n"
"var selected = [], shown = [];\n"
"F.forEach(function (r, i) { if (r[FLAGS] & SELECTED) selected.push(i); });\n"
"\n"
"function str(k) { return k < 0 ? null : S[k]; }\n"
"function name(i) { return F[i][NAME]; }\n"
"function frameBytes(i) { return (F[i][SELF] === null ? 0 : F[i][SELF]) + F[i][RED]; }\n"
"function selfText(i) {\n"
"\treturn (F[i][SELF] === null ? '?' : String(F[i][SELF])) + (F[i][RED] ? '+' + F[i][RED] : '');\n"
"}\n"
"function totalText(i) {\n"
"\tvar fl = F[i][FLAGS];\n"
"\treturn (!(fl & BOUNDED) ? '>= ' : fl & ASSUMED ? '~ ' : '') + F[i][TOTAL] +\n"
"\t\t(fl & PARTIAL ? '+' : '');\n"
"}\n"
"function locText(i) {\n"
"\tvar f = str(F[i][FILE]);\n"
"\treturn f ? f + (F[i][LINE] ? ':' + F[i][LINE] : '') : '';\n"
"}\n"
"function flags(i) {\n"
"\tvar fl = F[i][FLAGS], v = [fl & BOUNDED ? 'bounded' : 'unbounded'];\n"
"\tif (fl & PARTIAL) v.push('partial');\n"
"\tif (fl & RECURSIVE) v.push('recursive');\n"
"\tif (fl & ASSUMED) v.push('assumed');\n"
"\treturn v;\n"
"}\n"
"function qualText(i) {\n"
"\tvar dyn = str(F[i][DYN]);\n"
"\treturn (str(F[i][QUAL]) || 'unknown') + (dyn ? ' (' + dyn + ')' : '');\n"
"}\n"
"\n"
"/*\n"
" * The worst path of function i, [{id, tail, via}], as the JSON schema\n"
" * says: worst callees until a function with a segment (a once/nest\n"
" * function), then its segments.  A row's TAIL and VIA are those of the\n"
" * edge to its worst callee.  An unbounded total's path (its lower bound)\n"
" * goes over certain calls: through a bounded function it takes CERTAIN\n"
" * when that is given.\n"
" */\n"
"function worstPath(i) {\n"
"\tvar out = [{ id: i, tail: false, via: null }], seg, n = 0;\n"
"\tvar certain = !(F[i][FLAGS] & BOUNDED);\n"
"\tfor (;;) {\n"
"\t\tvar r = F[i], st = certain && r[CERTAIN] !== -1 ? r[CERTAIN] : r.slice(WORST, WORST + 5);\n"
"\t\tif (st[4] >= 0) {\n"
"\t\t\tfor (seg = st[4]; seg >= 0 && n++ <= SEG.length; seg = SEG[seg][1])\n"
"\t\t\t\tSEG[seg][0].forEach(function (s) {\n"
"\t\t\t\t\tout.push({ id: s[0], tail: s[1] === 1, via: str(s[2]) });\n"
"\t\t\t\t});\n"
"\t\t\treturn out;\n"
"\t\t}\n"
"\t\tif (st[0] < 0 || out.length > F.length) return out;\n"
"\t\ti = st[0];\n"
"\t\tout.push({ id: i, tail: st[1] === 1, via: str(st[2]) });\n"
"\t}\n"
"}\n"
"/* what each frame adds to the total: nothing when a tail call replaces it */\n"
"function weights(path) {\n"
"\treturn path.map(function (p, k) {\n"
"\t\treturn k + 1 < path.length && path[k + 1].tail ? 0 : frameBytes(p.id);\n"
"\t});\n"
"}\n"
"\n"
"/* sort keys: numbers sort largest first on the first click */\n"
"var keys = {\n"
"\tname: name,\n"
"\ttotal: function (i) { return F[i][TOTAL]; },\n"
"\tself: function (i) { return F[i][SELF] === null ? -1 : F[i][SELF] + F[i][RED]; },\n"
"\tqualifier: qualText,\n"
"\tflags: function (i) { return flags(i).join(' '); },\n"
"\tlocation: locText\n"
"};\n"
"\n"
"function cell(tr, text, cls) {\n"
"\tvar td = document.createElement('td');\n"
"\ttd.textContent = text;\n"
"\tif (cls) td.className = cls;\n"
"\ttr.appendChild(td);\n"
"\treturn td;\n"
"}\n"
"\n"
"function funcRow(i) {\n"
"\tvar tr = document.createElement('tr'), fl;\n"
"\ttr.className = 'func' + (F[i][FLAGS] & BOUNDED ? '' : ' unbounded');\n"
"\ttr.dataset.index = i;\n"
"\ttr.dataset.name = name(i);\n"
"\ttr.dataset.total = F[i][TOTAL];\n"
"\tcell(tr, name(i), 'name');\n"
"\tcell(tr, totalText(i), 'num total');\n"
"\tcell(tr, selfText(i), 'num self');\n"
"\tcell(tr, qualText(i), 'qualifier');\n"
"\tfl = cell(tr, '', 'flags');\n"
"\tflags(i).forEach(function (x) {\n"
"\t\tvar s = document.createElement('span');\n"
"\t\ts.className = 'flag ' + x;\n"
"\t\ts.textContent = x;\n"
"\t\tfl.appendChild(s);\n"
"\t});\n"
"\tcell(tr, locText(i), 'location');\n"
"\ttr.addEventListener('click', function () { toggle(tr); });\n"
"\treturn tr;\n"
"}\n"
"\n"
"/* the worst path, with the stack in use while each frame runs: a tail\n"
" * callee's frame replaces its caller's */\n"
"function pathList(path) {\n"
"\tvar ol = document.createElement('ol'), cum = 0, prev = null;\n"
"\tol.className = 'path';\n"
"\tpath.forEach(function (p) {\n"
"\t\tvar li = document.createElement('li'), i = p.id;\n"
"\t\tif (prev !== null && p.tail) cum -= Math.min(frameBytes(prev), cum);\n"
"\t\tcum += frameBytes(i);\n"
"\t\tli.dataset.name = name(i);\n"
"\t\tli.dataset.stack = cum;\n"
"\t\tli.textContent = name(i) + '  self ' + selfText(i) + '  stack ' + cum +\n"
"\t\t\t(locText(i) ? '  ' + locText(i) : '') + (p.tail ? '  [tail]' : '') +\n"
"\t\t\t(p.via ? '  [' + p.via + ']' : '');\n"
"\t\tol.appendChild(li);\n"
"\t\tprev = i;\n"
"\t});\n"
"\treturn ol;\n"
"}\n"
"\n"
"var icicle = document.getElementById('icicle');\n"
"function drawIcicle(i) {\n"
"\tvar path = worstPath(i), w = weights(path);\n"
"\tvar total = w.reduce(function (a, b) { return a + b; }, 0), below = total;\n"
"\ticicle.textContent = '';\n"
"\tdocument.getElementById('icicle-root').textContent = name(i) + ' (' + totalText(i) + ' bytes)';\n"
"\tpath.forEach(function (p, k) {\n"
"\t\tvar bar = document.createElement('div'), j = p.id;\n"
"\t\tbar.className = 'bar' + (F[j][SELF] === null ? ' unknown' : '') +\n"
"\t\t\t(k + 1 < path.length && path[k + 1].tail ? ' tail' : '');\n"
"\t\tbar.style.width = (total ? 100 * below / total : 100) + '%';\n"
"\t\tbar.dataset.name = name(j);\n"
"\t\tbar.dataset.bytes = below;\n"
"\t\tbar.textContent = name(j) + '  ' + selfText(j);\n"
"\t\tbar.title = name(j) + ': frame ' + selfText(j) + ' B, ' + below + ' B from here down' +\n"
"\t\t\t(locText(j) ? ', ' + locText(j) : '');\n"
"\t\ticicle.appendChild(bar);\n"
"\t\tbelow -= w[k];\n"
"\t});\n"
"}\n"
"\n"
"function toggle(tr) {\n"
"\tvar next = tr.nextSibling, i, td, ul, why;\n"
"\tif (next && next.classList.contains('detail')) {\n"
"\t\ttbody.removeChild(next);\n"
"\t\ttr.classList.remove('open');\n"
"\t\treturn;\n"
"\t}\n"
"\ti = Number(tr.dataset.index);\n"
"\tdrawIcicle(i);\n"
"\tnext = document.createElement('tr');\n"
"\tnext.className = 'detail';\n"
"\ttd = document.createElement('td');\n"
"\ttd.colSpan = 6;\n"
"\ttd.appendChild(document.createTextNode('worst path of ' + name(i) + ': ' + totalText(i) + ' bytes'));\n"
"\ttd.appendChild(pathList(worstPath(i)));\n"
"\twhy = F[i][WHY];\n"
"\tif (why.length) {\n"
"\t\tul = document.createElement('ul');\n"
"\t\tul.className = 'reasons';\n"
"\t\twhy.forEach(function (k) {\n"
"\t\t\tvar li = document.createElement('li');\n"
"\t\t\tli.textContent = str(k);\n"
"\t\t\tul.appendChild(li);\n"
"\t\t});\n"
"\t\ttd.appendChild(ul);\n"
"\t}\n"
"\tnext.appendChild(td);\n"
"\ttbody.insertBefore(next, tr.nextSibling);\n"
"\ttr.classList.add('open');\n"
"}\n"
"\n"
"function matches(i, text) {\n"
"\treturn !text || name(i).toLowerCase().indexOf(text) >= 0 ||\n"
"\t\tlocText(i).toLowerCase().indexOf(text) >= 0;\n"
"}\n"
"\n"
"/* the selected functions that match the filter, in the order shown */\n"
"function order() {\n"
"\tvar text = state.filter.toLowerCase(), key = keys[state.key];\n"
"\tvar idx = text ? selected.filter(function (i) { return matches(i, text); }) : selected.slice();\n"
"\tif (!key) return idx;\n"
"\treturn idx.sort(function (a, b) {\n"
"\t\tvar x = key(a), y = key(b);\n"
"\t\tvar c = x < y ? -1 : x > y ? 1 : 0;\n"
"\t\treturn (state.desc ? -c : c) || a - b;\n"
"\t});\n"
"}\n"
"\n"
"/* A page of PAGE rows of the matching functions in the order shown. */\n"
"function draw() {\n"
"\tvar pages, from;\n"
"\tshown = order();\n"
"\tpages = Math.max(1, Math.ceil(shown.length / PAGE));\n"
"\tstate.page = Math.min(Math.max(state.page, 0), pages - 1);\n"
"\tfrom = state.page * PAGE;\n"
"\ttbody.textContent = '';\n"
"\tshown.slice(from, from + PAGE).forEach(function (i) { tbody.appendChild(funcRow(i)); });\n"
"\tdocument.getElementById('status').textContent = (shown.length ? (from + 1) + '\\u2013' +\n"
"\t\tMath.min(from + PAGE, shown.length) : '0') + ' of ' + shown.length +\n"
"\t\t(state.filter ? ' matching' : '') + ' (' + selected.length + ' functions; page ' +\n"
"\t\t(state.page + 1) + ' of ' + pages + ')';\n"
"\tdocument.getElementById('prev').disabled = state.page === 0;\n"
"\tdocument.getElementById('next').disabled = state.page + 1 >= pages;\n"
"\tArray.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {\n"
"\t\tth.className = (th.classList.contains('num') ? 'num ' : '') +\n"
"\t\t\t(th.dataset.key === state.key ? (state.desc ? 'sorted-desc' : 'sorted-asc') : '');\n"
"\t});\n"
"}\n"
"\n"
"Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {\n"
"\tth.addEventListener('click', function () {\n"
"\t\tvar numeric = th.classList.contains('num');\n"
"\t\tstate.desc = state.key === th.dataset.key ? !state.desc : numeric;\n"
"\t\tstate.key = th.dataset.key;\n"
"\t\tstate.page = 0;\n"
"\t\tdraw();\n"
"\t});\n"
"});\n"
"filterBox.addEventListener('input', function () {\n"
"\tstate.filter = filterBox.value;\n"
"\tstate.page = 0;\n"
"\tdraw();\n"
"});\n"
"document.getElementById('prev').addEventListener('click', function () { state.page--; draw(); });\n"
"document.getElementById('next').addEventListener('click', function () { state.page++; draw(); });\n"
"\n"
"document.title = 'stackprof: ' + data.binary;\n"
"document.getElementById('binary').textContent = data.binary;\n"
"document.getElementById('summary').textContent = selected.length + ' functions; frames from ' +\n"
"\tdata.su.files + ' .su files, ' + data.su.matched + ' of ' + data.su.rows + ' rows matched';\n"
"draw();\n"
"if (selected.length) drawIcicle(selected[0]);\n"
"var drawnMs = performance.now();\n"
"\n"
"/*\n"
" * #selftest=sort:KEY,expand:NAME,filter:TEXT,page:N,... - for tests in a\n"
" * headless browser: each step acts as a user would (a click on the\n"
" * column header, a click on the row, text typed into the filter box,\n"
" * clicks on \"next\" up to page N); after each one the table as the DOM\n"
" * shows it is recorded, and the record is written to #selftest as JSON,\n"
" * with the time from the page's start to its table drawn.\n"
" */\n"
"function snapshot(step) {\n"
"\tvar s = { step: step, rows: [], totals: [], expanded: [], stacks: [], icicle: [],\n"
"\t\ticicle_width: icicle.clientWidth, page: state.page, matched: shown.length,\n"
"\t\tstatus: document.getElementById('status').textContent };\n"
"\tvar th = table.querySelector('th.sorted-desc, th.sorted-asc');\n"
"\tArray.prototype.forEach.call(tbody.querySelectorAll('tr.func'), function (tr) {\n"
"\t\ts.rows.push(tr.dataset.name);\n"
"\t\ts.totals.push(Number(tr.dataset.total));\n"
"\t});\n"
"\tArray.prototype.forEach.call(tbody.querySelectorAll('tr.detail ol.path li'), function (li) {\n"
"\t\ts.expanded.push(li.dataset.name);\n"
"\t\ts.stacks.push(Number(li.dataset.stack));\n"
"\t});\n"
"\tArray.prototype.forEach.call(icicle.querySelectorAll('.bar'), function (bar) {\n"
"\t\ts.icicle.push([bar.dataset.name, Number(bar.dataset.bytes), bar.getBoundingClientRect().width]);\n"
"\t});\n"
"\ts.sorted = th ? th.dataset.key + ' ' + th.className : null;\n"
"\treturn s;\n"
"}\n"
"\n"
"function click(el) { el.dispatchEvent(new MouseEvent('click', { bubbles: true })); }\n"
"\n"
"function selfTestStep(step) {\n"
"\tvar m = /^(sort|expand|filter|page):(.*)$/.exec(step), what, el, n;\n"
"\tif (!m) return 'bad step ' + step;\n"
"\twhat = decodeURIComponent(m[2]);\n"
"\tif (m[1] === 'sort') {\n"
"\t\tel = table.querySelector('th[data-key=\"' + what + '\"]');\n"
"\t\tif (!el) return 'no column ' + what;\n"
"\t\tclick(el);\n"
"\t} else if (m[1] === 'expand') {\n"
"\t\tel = Array.prototype.filter.call(tbody.rows, function (tr) {\n"
"\t\t\treturn tr.dataset.name === what;\n"
"\t\t})[0];\n"
"\t\tif (!el) return 'no row ' + what;\n"
"\t\tclick(el);\n"
"\t} else if (m[1] === 'page') {\n"
"\t\tfor (n = Number(what) - 1; state.page < n; ) {\n"
"\t\t\tel = document.getElementById('next');\n"
"\t\t\tif (el.disabled) return 'no page ' + what;\n"
"\t\t\tclick(el);\n"
"\t\t}\n"
"\t} else {\n"
"\t\tfilterBox.value = what;\n"
"\t\tfilterBox.dispatchEvent(new Event('input', { bubbles: true }));\n"
"\t}\n"
"\treturn null;\n"
"}\n"
"\n"
"function selfTest(spec) {\n"
"\tvar out = { errors: [], steps: [], drawn_ms: drawnMs, functions: F.length };\n"
"\tspec.split(',').forEach(function (step) {\n"
"\t\tvar e = selfTestStep(step);\n"
"\t\tif (e) out.errors.push(e);\n"
"\t\tout.steps.push(snapshot(step));\n"
"\t});\n"
"\tdocument.getElementById('selftest').textContent = JSON.stringify(out);\n"
"}\n"
"\n"
"var test = /(?:^#|&)selftest=([^&]*)/.exec(location.hash);\n"
"if (test) selfTest(test[1]);\n"
"})();\n"
"</script>\n"
"</body>\n"
"</html>\n";

/* Something rendered into a memory buffer by a FILE-writing report. */
struct membuf {
	char *buf;
	size_t len;
};

static int membuf_open(struct membuf *m, FILE **fp, struct sp_err *err)
{
	m->buf = NULL;
	m->len = 0;
	*fp = open_memstream(&m->buf, &m->len);
	if (!*fp)
		return sp_err_set(err, "cannot allocate the HTML report");
	return 0;
}

static int membuf_close(FILE *fp, struct sp_err *err)
{
	if (fclose(fp))
		return sp_err_set(err, "cannot allocate the HTML report");
	return 0;
}

/* '<' only ever occurs inside JSON strings, where \u003c means the same */
static void put_script_json(const char *s, size_t len, FILE *out)
{
	const char *end = s + len, *lt;

	while ((lt = memchr(s, '<', (size_t)(end - s)))) {
		fwrite(s, 1, (size_t)(lt - s), out);
		fputs("\\u003c", out);
		s = lt + 1;
	}
	fwrite(s, 1, (size_t)(end - s), out);
}

/* Inline SVG starts at <svg: graphviz's XML declaration and DOCTYPE (with
 * its DTD's address) have no place inside HTML. */
static int put_inline_svg(const char *s, size_t len, FILE *out, struct sp_err *err)
{
	const char *svg = memmem(s, len, "<svg", 4);

	if (!svg)
		return sp_err_set(err, "graphviz wrote no <svg> element");
	fwrite(svg, 1, len - (size_t)(svg - s), out);
	return 0;
}

static int render_svg(struct sp_gv *gv, const struct sp_graph *g,
		      const struct sp_gv_opts *go, struct membuf *m, struct sp_err *err)
{
	FILE *fp;
	int ret;

	if (membuf_open(m, &fp, err))
		return -1;
	ret = sp_gv_render(gv, g, go, "svg", fp, err);
	if (membuf_close(fp, err))
		ret = -1;
	return ret;
}

static int render_data(const struct sp_graph *g, const struct sp_report_opts *ro,
		       struct membuf *m, struct sp_err *err)
{
	FILE *fp;

	if (membuf_open(m, &fp, err))
		return -1;
	sp_report_html_data(g, ro, fp);
	return membuf_close(fp, err);
}

int sp_report_html(struct sp_gv *gv, const struct sp_graph *g,
		   const struct sp_report_opts *ro, const struct sp_gv_opts *go,
		   FILE *out, struct sp_err *err)
{
	struct membuf svg = { 0 }, json = { 0 };
	int ret = -1;

	if (render_svg(gv, g, go, &svg, err) || render_data(g, ro, &json, err))
		goto out_free;
	fputs(page_head, out);
	fprintf(out, page_graph, go->view == SP_GV_CALLS ? "Call graph" : "Worst path");
	if (put_inline_svg(svg.buf, svg.len, out, err))
		goto out_free;
	fputs(page_data, out);
	put_script_json(json.buf, json.len, out);
	fputs(page_script, out);
	if (ferror(out)) {
		sp_err_set(err, "cannot write the HTML report");
		goto out_free;
	}
	ret = 0;
out_free:
	free(svg.buf);
	free(json.buf);
	return ret;
}
