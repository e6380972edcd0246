// speedscope_folded.mjs - read folded stacks with speedscope's own importer
// and print what it computed, for t5120:
//
//     node speedscope_folded.mjs SPEEDSCOPE_DIR FOLDED
//
// SPEEDSCOPE_DIR is the npm package (node_modules/speedscope).  Its
// release bundle is the web application; its importer is reached as the
// application reaches it, through the module that exports
// importProfileGroupFromText, and given FOLDED under a name without a
// known extension, so that speedscope itself recognises the format.
// Prints JSON: {"format": the importer's "Importing as ..." line,
// "total": the profile's total weight, "roots": {name: weight}} where
// the roots are the call tree's first frames and weight the width
// speedscope gives each.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

const [dir, folded] = process.argv.slice(2);
const release = path.join(dir, 'dist', 'release');
const bundle = fs.readdirSync(release).find((f) => /^speedscope-.*\.js$/.test(f));
if (!bundle) {
	console.error(`no speedscope-*.js in ${release}`);
	process.exit(2);
}
let src = fs.readFileSync(path.join(release, bundle), 'utf8');

// async function X(t,e){return(await M).importProfileGroupFromText(t,e)}:
// M is the import module's promise; keep it where the test can reach it
const entry = /async function \w+\((\w+),(\w+)\)\{return\(await (\w+)\)\.importProfileGroupFromText\(\1,\2\)\}/;
const m = entry.exec(src);
if (!m) {
	console.error('the bundle has no importProfileGroupFromText entry');
	process.exit(2);
}
const at = m.index + m[0].length;
src = `${src.slice(0, at)};globalThis.__stackprofImporter=${m[3]};${src.slice(at)}`;

// just enough of a browser for the bundle to run as far as that entry;
// the user interface that follows fails without a DOM, which is fine
const logs = [];
const inert = () => new Proxy(function () {}, {
	get: (t, k) => (k === Symbol.toPrimitive ? () => '' : inert()),
	apply: () => inert(),
	construct: () => inert(),
});
const ctx = {
	console: { log: (...a) => logs.push(a.join(' ')), warn() {}, error() {}, info() {} },
	setTimeout, clearTimeout, Promise, URL, TextDecoder, TextEncoder,
	location: { hash: '', search: '', href: 'file:///', protocol: 'file:' },
	navigator: { userAgent: 'node', platform: 'node' },
	document: inert(),
};
ctx.globalThis = ctx.window = ctx.self = ctx;
vm.createContext(ctx);
try {
	vm.runInContext(src, ctx);
} catch (e) {
	// the application's start-up, past the importer
}
if (!ctx.__stackprofImporter) {
	console.error('the bundle stopped before its importer was defined');
	process.exit(2);
}
const importer = await ctx.__stackprofImporter;
const group = await importer.importProfileGroupFromText('stackprof-worst-paths',
	fs.readFileSync(folded, 'utf8'));
if (!group || group.profiles.length !== 1) {
	console.log(JSON.stringify({ format: logs.find((l) => /Importing/.test(l)) || null,
		total: null, roots: {} }));
	process.exit(0);
}
const profile = group.profiles[0];
const roots = {};
for (const node of profile.getAppendOrderCalltreeRoot().children)
	roots[node.frame.name] = node.getTotalWeight();
console.log(JSON.stringify({
	format: logs.find((l) => /Importing/.test(l)) || null,
	total: profile.getTotalWeight(),
	roots,
}));
process.exit(0);
