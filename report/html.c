/*
 * html.c - --html: one self-contained page, no network: inline CSS and
 * JavaScript, the picture as inline SVG (report/graphviz.c rendered to
 * memory: the worst path's column, or the call graph), and the JSON
 * report (report/json.c) in a <script type="application/json"> element
 * that the script turns into a sortable, filterable table whose rows
 * expand to their worst path, and into an icicle of the selected row's
 * worst path (the stacks --folded writes, drawn as bars).
 *
 * Everything the page shows about the program comes from that JSON, so
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
"#icicle .bar { height: 18px; margin-bottom: 1px; padding: 0 4px; box-sizing: border-box;\n"
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
"<p id=\"status\"></p>\n"
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
"var funcs = data.functions;\n"
"var LIMIT = 2000;\t/* rows drawn at once: a kernel has 10^5 functions */\n"
"var table = document.getElementById('functions');\n"
"var tbody = table.tBodies[0];\n"
"var filterBox = document.getElementById('filter');\n"
"var state = { key: null, desc: true, filter: '' };\n"
"\n"
"function frameBytes(p) { return (p.self === null ? 0 : p.self) + p.red_zone; }\n"
"function selfText(p) {\n"
"\treturn (p.self === null ? '?' : String(p.self)) + (p.red_zone ? '+' + p.red_zone : '');\n"
"}\n"
"function totalText(f) {\n"
"\treturn (!f.bounded ? '>= ' : f.assumed ? '~ ' : '') + f.lower_bound + (f.partial ? '+' : '');\n"
"}\n"
"function locText(p) { return p.file ? p.file + (p.line ? ':' + p.line : '') : ''; }\n"
"/* what each frame adds to the total: nothing when a tail call replaces it */\n"
"function weights(f) {\n"
"\tvar d = f.path_detail;\n"
"\treturn d.map(function (p, i) { return i + 1 < d.length && d[i + 1].tail ? 0 : frameBytes(p); });\n"
"}\n"
"function flags(f) {\n"
"\tvar v = [];\n"
"\tv.push(f.bounded ? 'bounded' : 'unbounded');\n"
"\tif (f.partial) v.push('partial');\n"
"\tif (f.recursive) v.push('recursive');\n"
"\tif (f.assumed) v.push('assumed');\n"
"\treturn v;\n"
"}\n"
"function qualText(f) {\n"
"\treturn (f.qualifier || 'unknown') + (f.dynamic_cause ? ' (' + f.dynamic_cause + ')' : '');\n"
"}\n"
"\n"
"/* sort keys: numbers sort largest first on the first click */\n"
"var keys = {\n"
"\tname: function (f) { return f.name || ''; },\n"
"\ttotal: function (f) { return f.lower_bound; },\n"
"\tself: function (f) { return f.self === null ? -1 : f.self + f.red_zone; },\n"
"\tqualifier: qualText,\n"
"\tflags: function (f) { return flags(f).join(' '); },\n"
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
"function funcRow(f, index) {\n"
"\tvar tr = document.createElement('tr'), fl;\n"
"\ttr.className = 'func' + (f.bounded ? '' : ' unbounded');\n"
"\ttr.dataset.index = index;\n"
"\ttr.dataset.name = f.name;\n"
"\ttr.dataset.total = f.lower_bound;\n"
"\tcell(tr, f.name, 'name');\n"
"\tcell(tr, totalText(f), 'num total');\n"
"\tcell(tr, selfText(f), 'num self');\n"
"\tcell(tr, qualText(f), 'qualifier');\n"
"\tfl = cell(tr, '', 'flags');\n"
"\tflags(f).forEach(function (x) {\n"
"\t\tvar s = document.createElement('span');\n"
"\t\ts.className = 'flag ' + x;\n"
"\t\ts.textContent = x;\n"
"\t\tfl.appendChild(s);\n"
"\t});\n"
"\tcell(tr, locText(f), 'location');\n"
"\ttr.addEventListener('click', function () { toggle(tr); });\n"
"\treturn tr;\n"
"}\n"
"\n"
"/* the worst path, with the stack in use while each frame runs: a tail\n"
" * callee's frame replaces its caller's */\n"
"function pathList(f) {\n"
"\tvar ol = document.createElement('ol'), cum = 0, prev = null;\n"
"\tol.className = 'path';\n"
"\tf.path_detail.forEach(function (p) {\n"
"\t\tvar li = document.createElement('li');\n"
"\t\tif (prev && p.tail) cum -= Math.min(frameBytes(prev), cum);\n"
"\t\tcum += frameBytes(p);\n"
"\t\tli.dataset.name = p.name;\n"
"\t\tli.dataset.stack = cum;\n"
"\t\tli.textContent = p.name + '  self ' + selfText(p) + '  stack ' + cum +\n"
"\t\t\t(locText(p) ? '  ' + locText(p) : '') + (p.tail ? '  [tail]' : '') +\n"
"\t\t\t(p.via ? '  [' + p.via + ']' : '');\n"
"\t\tol.appendChild(li);\n"
"\t\tprev = p;\n"
"\t});\n"
"\treturn ol;\n"
"}\n"
"\n"
"var icicle = document.getElementById('icicle');\n"
"function drawIcicle(f) {\n"
"\tvar w = weights(f), total = w.reduce(function (a, b) { return a + b; }, 0), below = total;\n"
"\ticicle.textContent = '';\n"
"\tdocument.getElementById('icicle-root').textContent = f.name + ' (' + totalText(f) + ' bytes)';\n"
"\tf.path_detail.forEach(function (p, i) {\n"
"\t\tvar bar = document.createElement('div');\n"
"\t\tbar.className = 'bar' + (p.self === null ? ' unknown' : '') +\n"
"\t\t\t(i + 1 < w.length && f.path_detail[i + 1].tail ? ' tail' : '');\n"
"\t\tbar.style.width = (total ? 100 * below / total : 100) + '%';\n"
"\t\tbar.dataset.name = p.name;\n"
"\t\tbar.dataset.bytes = below;\n"
"\t\tbar.textContent = p.name + '  ' + selfText(p);\n"
"\t\tbar.title = p.name + ': frame ' + selfText(p) + ' B, ' + below + ' B from here down' +\n"
"\t\t\t(locText(p) ? ', ' + locText(p) : '');\n"
"\t\ticicle.appendChild(bar);\n"
"\t\tbelow -= w[i];\n"
"\t});\n"
"}\n"
"\n"
"function toggle(tr) {\n"
"\tvar next = tr.nextSibling, f, td, ul;\n"
"\tif (next && next.classList.contains('detail')) {\n"
"\t\ttbody.removeChild(next);\n"
"\t\ttr.classList.remove('open');\n"
"\t\treturn;\n"
"\t}\n"
"\tf = funcs[tr.dataset.index];\n"
"\tdrawIcicle(f);\n"
"\tnext = document.createElement('tr');\n"
"\tnext.className = 'detail';\n"
"\tnext.hidden = tr.hidden;\n"
"\ttd = document.createElement('td');\n"
"\ttd.colSpan = 6;\n"
"\ttd.appendChild(document.createTextNode('worst path of ' + f.name + ': ' + totalText(f) + ' bytes'));\n"
"\ttd.appendChild(pathList(f));\n"
"\tif (f.reasons.length) {\n"
"\t\tul = document.createElement('ul');\n"
"\t\tul.className = 'reasons';\n"
"\t\tf.reasons.forEach(function (r) {\n"
"\t\t\tvar li = document.createElement('li');\n"
"\t\t\tli.textContent = r;\n"
"\t\t\tul.appendChild(li);\n"
"\t\t});\n"
"\t\ttd.appendChild(ul);\n"
"\t}\n"
"\tnext.appendChild(td);\n"
"\ttbody.insertBefore(next, tr.nextSibling);\n"
"\ttr.classList.add('open');\n"
"}\n"
"\n"
"function order() {\n"
"\tvar idx = funcs.map(function (f, i) { return i; }), key = keys[state.key];\n"
"\tif (!key) return idx;\n"
"\treturn idx.sort(function (a, b) {\n"
"\t\tvar x = key(funcs[a]), y = key(funcs[b]);\n"
"\t\tvar c = x < y ? -1 : x > y ? 1 : 0;\n"
"\t\treturn (state.desc ? -c : c) || a - b;\n"
"\t});\n"
"}\n"
"\n"
"function matches(f, text) {\n"
"\treturn !text || f.name.toLowerCase().indexOf(text) >= 0 ||\n"
"\t\tlocText(f).toLowerCase().indexOf(text) >= 0;\n"
"}\n"
"\n"
"/*\n"
" * Up to LIMIT functions have rows, all of them in a small program, and\n"
" * the filter only hides rows; with more, the rows are the first LIMIT\n"
" * matches in the order shown, drawn again when the filter changes.\n"
" */\n"
"function draw() {\n"
"\tvar text = state.filter.toLowerCase(), idx = order();\n"
"\ttbody.textContent = '';\n"
"\tif (idx.length > LIMIT)\n"
"\t\tidx = idx.filter(function (i) { return matches(funcs[i], text); });\n"
"\tidx.slice(0, LIMIT).forEach(function (i) { tbody.appendChild(funcRow(funcs[i], i)); });\n"
"\tapplyFilter();\n"
"\tArray.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {\n"
"\t\tth.className = (th.classList.contains('num') ? 'num ' : '') +\n"
"\t\t\t(th.dataset.key === state.key ? (state.desc ? 'sorted-desc' : 'sorted-asc') : '');\n"
"\t});\n"
"}\n"
"\n"
"function applyFilter() {\n"
"\tvar text = state.filter.toLowerCase(), shown = 0, matched = 0;\n"
"\tfuncs.forEach(function (f) { if (matches(f, text)) matched++; });\n"
"\tArray.prototype.forEach.call(tbody.rows, function (tr) {\n"
"\t\tif (tr.classList.contains('detail')) {\n"
"\t\t\ttr.hidden = tr.previousSibling.hidden;\n"
"\t\t\treturn;\n"
"\t\t}\n"
"\t\ttr.hidden = !matches(funcs[tr.dataset.index], text);\n"
"\t\tif (!tr.hidden) shown++;\n"
"\t});\n"
"\tdocument.getElementById('status').textContent = shown + ' of ' + funcs.length +\n"
"\t\t' functions shown' + (matched > shown ? ', ' + matched + ' match (rows for the first ' +\n"
"\t\tLIMIT + ' only: sort or filter to see others)' : '');\n"
"}\n"
"\n"
"Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {\n"
"\tth.addEventListener('click', function () {\n"
"\t\tvar numeric = th.classList.contains('num');\n"
"\t\tstate.desc = state.key === th.dataset.key ? !state.desc : numeric;\n"
"\t\tstate.key = th.dataset.key;\n"
"\t\tdraw();\n"
"\t});\n"
"});\n"
"filterBox.addEventListener('input', function () {\n"
"\tstate.filter = filterBox.value;\n"
"\tif (funcs.length > LIMIT)\n"
"\t\tdraw();\n"
"\telse\n"
"\t\tapplyFilter();\n"
"});\n"

"\n"
"document.title = 'stackprof: ' + data.binary;\n"
"document.getElementById('binary').textContent = data.binary;\n"
"document.getElementById('summary').textContent = funcs.length + ' functions; frames from ' +\n"
"\tdata.su.files + ' .su files, ' + data.su.matched + ' of ' + data.su.rows + ' rows matched';\n"
"draw();\n"
"if (funcs.length) drawIcicle(funcs[0]);\n"
"\n"
"/*\n"
" * #selftest=sort:KEY,expand:NAME,filter:TEXT,... - for tests in a headless\n"
" * browser: each step acts as a user would (a click on the column header,\n"
" * a click on the row, text typed into the filter box); after each one the\n"
" * table as the DOM shows it is recorded, and the record is written to\n"
" * #selftest as JSON.\n"
" */\n"
"function snapshot(step) {\n"
"\tvar s = { step: step, rows: [], totals: [], shown: [], expanded: [], stacks: [],\n"
"\t\ticicle: [], icicle_width: icicle.clientWidth };\n"
"\tvar th = table.querySelector('th.sorted-desc, th.sorted-asc');\n"
"\tArray.prototype.forEach.call(tbody.querySelectorAll('tr.func'), function (tr) {\n"
"\t\ts.rows.push(tr.dataset.name);\n"
"\t\ts.totals.push(Number(tr.dataset.total));\n"
"\t\tif (!tr.hidden) s.shown.push(tr.dataset.name);\n"
"\t});\n"
"\tArray.prototype.forEach.call(tbody.querySelectorAll('tr.detail li'), function (li) {\n"
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
"\tvar m = /^(sort|expand|filter):(.*)$/.exec(step), what, el;\n"
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
"\t} else {\n"
"\t\tfilterBox.value = what;\n"
"\t\tfilterBox.dispatchEvent(new Event('input', { bubbles: true }));\n"
"\t}\n"
"\treturn null;\n"
"}\n"
"\n"
"function selfTest(spec) {\n"
"\tvar out = { errors: [], steps: [] };\n"
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

static int render_json(const struct sp_graph *g, const struct sp_report_opts *ro,
		       struct membuf *m, struct sp_err *err)
{
	FILE *fp;
	int ret;

	if (membuf_open(m, &fp, err))
		return -1;
	ret = sp_report_json(g, ro, fp, err);
	if (membuf_close(fp, err))
		ret = -1;
	return ret;
}

int sp_report_html(struct sp_gv *gv, const struct sp_graph *g,
		   const struct sp_report_opts *ro, const struct sp_gv_opts *go,
		   FILE *out, struct sp_err *err)
{
	struct membuf svg = { 0 }, json = { 0 };
	int ret = -1;

	if (render_svg(gv, g, go, &svg, err) || render_json(g, ro, &json, err))
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
