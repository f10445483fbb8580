// Writes dist/: a self-contained static site that works from any static host
// under any sub-path (every URL inside it is relative).
//
//   dist/                 index.html, embed.html, favicon.svg (from web/)
//   dist/src/             the page's modules bundled and minified by esbuild (ES modules,
//                         each with a .map beside it), and the stylesheets, minified, all
//                         flat (the names embedders use, whatever folder of web/src holds them)
//     main.mjs              the standalone page and <dlq-playground> (also exports mount)
//     playground.mjs        mount(), for embedders
//     embed-example.mjs     the embedding example's own script
//     url.mjs               the scenario-link rule (isScenarioLink, …)
//     storm-worker.mjs      the storm lab's Web Worker (storm.html starts it by URL)
//     chunk-<hash>.mjs      code those entry points share (one copy: one module instance)
//     page.css, playground.css, …
//     uplot.css             uPlot's stylesheet (the storm lab's charts), from node_modules
//   dist/docs/check.md    docs/check.md as it is: the checker's SARIF helpUri links point into it
//   dist/wasm/            index.mjs (the JS API and the Emscripten glue, one minified
//                         module), index.d.ts, gen/dlq_core.wasm; check.mjs + check.d.ts +
//                         gen/dlq_check.wasm, the checker (wasm/check.mjs), which only the Check
//                         page imports, when it starts (the other pages never fetch it); sim.mjs +
//                         gen/dlq_sim.wasm, the simulations (wasm/sim.mjs), which only the storm
//                         lab's worker imports, when it starts; compile-worker.mjs, the worker a
//                         page compiles a .wasm in (wasm/instantiate.mjs), as it is
//   dist/examples/check/  the checker's corpus cases the Check page offers as examples
//                         (web/src/check/examples.mjs names them)
//   <file>.br, <file>.gz  a brotli and a gzip copy beside every text and .wasm file worth
//                         compressing (scripts/compression.mjs), which scripts/serve.mjs and
//                         any static host that serves precompressed files send as they are
//
// web/src is in folders (shared/, playground/, lessons/, storm/, compare/); a module there
// imports the JS API as '../../wasm/index.mjs', which is dist/wasm/index.mjs from
// dist/src/<folder>/. The bundler reads the modules from that place (web/src copied
// into dist/src while it runs, then removed), keeps the JS API external and writes
// the import relative to each output, '../wasm/index.mjs' from dist/src: so the page
// and anyone importing dist/wasm/index.mjs share one instance, and the .wasm is still
// found next to it (new URL('./gen/dlq_core.wasm', import.meta.url)). The source in
// web/src stays plain modules; DLQ_BUNDLE=0 writes the unbundled site instead (web/
// and wasm/ copied as they are, with a flat dist/src/<name> for each entry point and
// stylesheet above), for debugging.
//
// Each page's `<!-- dlq:preload … -->` marker becomes modulepreload links for every
// module its scripts import (statically, at any depth): the browser then fetches them
// all in one wave instead of discovering the import graph level by level.
import { createRequire } from 'node:module';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR, exampleFiles } from '../web/src/check/examples.mjs';
import { precompress } from './compression.mjs';

// esbuild is loaded when a bundle is built, not when this module is imported:
// scripts/dlq.mjs imports it before its set-up has run `npm ci` on a fresh clone.
const require = createRequire(import.meta.url);
const buildSync = (options) => require('esbuild').buildSync(options);

const MARKER = /<!-- dlq:preload[^>]*-->/;
const MODULE_SCRIPT = /<script type="module" src="\.\/(src\/[^"]+\.mjs)"><\/script>/g;
// No page preloads a .wasm. A preload of the core (282 KB brotli) in <head> competes with the
// stylesheets for a phone's slow link, and Lighthouse's simulated phone then counts the whole
// download before the first paint (the playground's LCP was 3.2 s with it, 1.1 s without):
// the core is fetched when the page's modules ask for it, after the page has painted.
// The simulations' module (dlq_sim.wasm) is not preloaded, not even by storm.html: only its
// worker fetches it, and Chromium counts a preload used only when the document itself reads
// it, so the page would log "preloaded but not used" (the worker's fetch is a 304 from the
// HTTP cache). The worker starts with the page and fetches it at once.

/**
 * Every module and stylesheet dist/src names flat, by its file in web/src: the
 * pages' scripts (each page's <script type="module" src="./src/<name>">), what
 * docs/playground.md promises embedders, url.mjs (the browser tests import it)
 * and the storm lab's worker.
 */
const FLAT = {
  'main.mjs': 'playground/main.mjs',
  'playground.mjs': 'playground/playground.mjs',
  'embed-example.mjs': 'playground/embed-example.mjs',
  'url.mjs': 'shared/url.mjs',
  'home.mjs': 'lessons/home.mjs',
  'lesson.mjs': 'lessons/lesson.mjs',
  'storm-page.mjs': 'storm/storm-page.mjs',
  'storm-worker.mjs': 'storm/storm-worker.mjs',
  'compare-page.mjs': 'compare/compare-page.mjs',
  'check-page.mjs': 'check/check-page.mjs',
  'page.css': 'shared/page.css',
  'playground.css': 'playground/playground.css',
  'lesson.css': 'lessons/lesson.css',
  'storm.css': 'storm/storm.css',
  'compare.css': 'compare/compare.css',
  'check.css': 'check/check.css',
};
/** dist/src entry points besides the pages' own scripts, which are entry points too. */
const ENTRY_POINTS = ['main.mjs', 'playground.mjs', 'url.mjs', 'storm-worker.mjs'];
/** The folders of web/src (dist/src/<folder> only in the unbundled site). */
const FOLDERS = ['shared', 'playground', 'lessons', 'storm', 'compare', 'check'];

/** Files under `dir` (relative to it, with '/'), depth first, in a stable order. */
function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap((entry) => (entry.isDirectory()
    ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
    : [`${prefix}${entry.name}`]));
}

/** uPlot (the storm lab's charts): bundled into the pages' modules; its stylesheet is copied as a file. */
const UPLOT_CSS = path.join('node_modules', 'uplot', 'dist', 'uPlot.min.css');
/**
 * The npm packages the modules import by their bare names, each with its ES module: uPlot (the storm
 * lab's charts) and JSON5 (the playground's Config snippet reads a JavaScript object literal back).
 */
const PACKAGES = { uplot: 'dist/uPlot.esm.js' };
/** Syntax the bundles may use: the source's own (ES2022: class fields, private methods), kept as written. */
const TARGET = 'es2022';

function bundleOptions(dist) {
  return {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: TARGET,
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: dist,  // metafile paths are then relative to dist/
  };
}

/**
 * Bundles web/src (entry points by their flat names, above) into dist/src and
 * wasm/index.mjs + its glue into dist/wasm/index.mjs. Returns, for each output
 * module (relative to dist/, as './src/main.mjs'), the modules it imports statically.
 */
function bundle(root, dist, entryPoints) {
  const graph = new Map();
  const record = (metafile) => {
    for (const [output, info] of Object.entries(metafile.outputs)) {
      if (!output.endsWith('.mjs')) continue;
      const from = path.dirname(output);
      const imports = info.imports
        .filter((i) => i.kind === 'import-statement')
        .map((i) => `./${path.posix.join(i.external ? from : '.', i.path)}`);
      graph.set(`./${output}`, imports);
    }
  };
  // The JS API first: one module (the glue inlined), in the place the page imports it from.
  const api = path.join(dist, 'wasm', 'index.mjs');
  record(buildSync({
    ...bundleOptions(dist),
    entryPoints: [path.join(root, 'wasm', 'index.mjs')],
    outfile: api,
    // index.mjs reads the .wasm with node:fs when it runs in Node, and imports the
    // simulations (./sim.mjs, bundled beside it below) only when loadSim() is called.
    external: ['node:*', './sim.mjs'],
  }).metafile);
  // The checker (wasm/check.mjs) and the simulations (wasm/sim.mjs: only the storm lab's
  // worker imports it, so no page that plays a queue fetches it), each with its glue, one
  // module of its own beside the API.
  const checker = path.join(dist, 'wasm', 'check.mjs');
  const simulations = path.join(dist, 'wasm', 'sim.mjs');
  for (const outfile of [checker, simulations]) {
    record(buildSync({
      ...bundleOptions(dist),
      entryPoints: [path.join(root, 'wasm', path.basename(outfile))],
      outfile,
      external: ['node:*'],
    }).metafile);
  }
  // The modules, read where they import dist/wasm/index.mjs from (see the top of this file).
  const source = path.join(dist, 'src');
  cpSync(path.join(root, 'web', 'src'), source, { recursive: true, filter: (file) => !file.endsWith('.css') });
  const sourceOf = (name) => {
    if (!FLAT[name]) throw new Error(`site: no module of web/src is named ${name} in dist/src (scripts/site.mjs FLAT)`);
    return path.join(source, FLAT[name]);
  };
  try {
    record(buildSync({
      ...bundleOptions(dist),
      entryPoints: entryPoints.map((name) => ({ in: sourceOf(name), out: path.basename(name, '.mjs') })),
      outdir: source,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      chunkNames: '[name]-[hash]',
      external: [api, checker, simulations],  // written relative to each output: '../wasm/index.mjs' from dist/src
    }).metafile);
  } finally {
    for (const folder of FOLDERS) rmSync(path.join(source, folder), { recursive: true, force: true });
  }
  // Keep the stylesheets as files (CSP style-src 'self'), minified.
  buildSync({
    ...bundleOptions(dist),
    bundle: false,
    metafile: false,
    entryPoints: Object.keys(FLAT).filter((n) => n.endsWith('.css'))
      .map((name) => ({ in: path.join(root, 'web', 'src', FLAT[name]), out: path.basename(name, '.css') })),
    outdir: source,
  });
  return graph;
}

/** Every module reachable from `entries` by static imports, in a stable order, the entries themselves excluded. */
function staticImports(graph, entries) {
  const seen = new Set(entries);
  const found = [];
  const visit = (module) => {
    for (const next of graph.get(module) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      found.push(next);
      visit(next);
    }
  };
  entries.forEach(visit);
  return found;
}

function preloadLinks(graph, page) {
  const entries = pageScripts(page).map((script) => `./${script}`);
  for (const entry of entries) {
    if (!graph.has(entry)) throw new Error(`site: a page loads ${entry}, which the build did not write`);
  }
  const modules = staticImports(graph, entries);
  return modules.map((href) => `<link rel="modulepreload" href="${href}">`).join('\n');
}

/** The unbundled site: web/ and wasm/ as they are, and flat entry points; every module is preloaded. */
function copyModules(root, dist) {
  const source = path.join(dist, 'src');
  cpSync(path.join(root, 'web', 'src'), source, { recursive: true });
  // The JS API: index.mjs and the modules it imports (every .mjs beside it).
  const api = readdirSync(path.join(root, 'wasm')).filter((name) => name.endsWith('.mjs')).sort();
  for (const name of api) cpSync(path.join(root, 'wasm', name), path.join(dist, 'wasm', name));
  cpSync(path.join(root, 'wasm', 'gen', 'dlq_core.mjs'), path.join(dist, 'wasm', 'gen', 'dlq_core.mjs'));
  cpSync(path.join(root, 'wasm', 'gen', 'dlq_check.mjs'), path.join(dist, 'wasm', 'gen', 'dlq_check.mjs'));
  cpSync(path.join(root, 'wasm', 'gen', 'dlq_sim.mjs'), path.join(dist, 'wasm', 'gen', 'dlq_sim.mjs'));
  // A browser cannot resolve a bare package name: each becomes src/<name>.mjs, the package's ES module
  // bundled on its own, and its imports (static, or import('<name>')) point there.
  for (const [name, entry] of Object.entries(PACKAGES)) {
    buildSync({ ...bundleOptions(dist), minify: false, metafile: false, sourcemap: false,
      entryPoints: [path.join(root, 'node_modules', name, entry)], outfile: path.join(source, `${name}.mjs`) });
  }
  const tree = filesUnder(source).filter((name) => name.includes('/'));
  for (const name of tree.filter((n) => n.endsWith('.mjs'))) {
    const file = path.join(source, name);
    let text = readFileSync(file, 'utf8');
    for (const bare of Object.keys(PACKAGES)) {
      const local = path.posix.relative(path.posix.dirname(name), `${bare}.mjs`);
      text = text.replaceAll(`from '${bare}'`, `from '${local}'`).replaceAll(`import('${bare}')`, `import('${local}')`);
    }
    writeFileSync(file, text);
  }
  // The flat names the pages and embedders use: a module that is its file, a copy of each stylesheet.
  for (const [name, file] of Object.entries(FLAT)) {
    if (name.endsWith('.css')) cpSync(path.join(source, file), path.join(source, name));
    else writeFileSync(path.join(source, name), `// ${name} is web/src/${file} (scripts/site.mjs).\nexport * from './${file}';\n`);
  }
  const pageOnly = ['embed-example.mjs', 'main.mjs', 'storm-worker.mjs'].map((name) => FLAT[name]);
  const modules = tree.filter((name) => name.endsWith('.mjs') && !pageOnly.includes(name))
    .map((name) => `./src/${name}`);
  // The checker and the simulations are not preloaded: only the Check page and the storm lab's
  // worker import them, when they start.
  modules.push(...Object.keys(PACKAGES).map((name) => `./src/${name}.mjs`),
    ...api.filter((name) => name !== 'check.mjs' && name !== 'sim.mjs').map((name) => `./wasm/${name}`),
    './wasm/gen/dlq_core.mjs');
  return () => modules.map((href) => `<link rel="modulepreload" href="${href}">`).join('\n');
}

/** The module scripts a page loads, as paths relative to dist/ ('src/main.mjs'). */
function pageScripts(page) {
  return [...page.matchAll(MODULE_SCRIPT)].map((m) => m[1]);
}

/**
 * Writes the site to `out` (default dist/), from web/ and wasm/ under `root`;
 * `bundled: false` (or DLQ_BUNDLE=0) copies the modules as they are instead;
 * `precompressed: false` (or DLQ_PRECOMPRESS=0) writes no .br / .gz copies.
 * Returns the folder written.
 */
export function buildSite(root, {
  out = path.join(root, 'dist'),
  bundled = process.env.DLQ_BUNDLE !== '0',
  precompressed = process.env.DLQ_PRECOMPRESS !== '0',
} = {}) {
  const dist = out;
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(path.join(dist, 'wasm', 'gen'), { recursive: true });
  // The pages and other assets; the modules and stylesheets come from the bundler.
  cpSync(path.join(root, 'web'), dist, {
    recursive: true,
    filter: (source) => !(bundled && /\.(mjs|css)$/.test(source)),
  });
  cpSync(path.join(root, 'wasm', 'index.d.ts'), path.join(dist, 'wasm', 'index.d.ts'));
  cpSync(path.join(root, 'wasm', 'gen', 'dlq_core.wasm'), path.join(dist, 'wasm', 'gen', 'dlq_core.wasm'));
  cpSync(path.join(root, 'wasm', 'check.d.ts'), path.join(dist, 'wasm', 'check.d.ts'));
  cpSync(path.join(root, 'wasm', 'gen', 'dlq_check.wasm'), path.join(dist, 'wasm', 'gen', 'dlq_check.wasm'));
  cpSync(path.join(root, 'wasm', 'gen', 'dlq_sim.wasm'), path.join(dist, 'wasm', 'gen', 'dlq_sim.wasm'));
  cpSync(path.join(root, 'wasm', 'compile-worker.mjs'), path.join(dist, 'wasm', 'compile-worker.mjs'));
  for (const file of exampleFiles()) {
    cpSync(path.join(root, 'tests', 'fixtures', 'check', file), path.join(dist, EXAMPLES_DIR, file));
  }
  cpSync(path.join(root, UPLOT_CSS), path.join(dist, 'src', 'uplot.css'));
  // The checker's documentation, as its SARIF helpUri links name it (dist/docs/check.md#<rule-id>).
  mkdirSync(path.join(dist, 'docs'), { recursive: true });
  cpSync(path.join(root, 'docs', 'check.md'), path.join(dist, 'docs', 'check.md'));
  const pages = readdirSync(dist).filter((n) => n.endsWith('.html'))
    .map((name) => ({ file: path.join(dist, name), text: readFileSync(path.join(dist, name), 'utf8') }));
  let links;
  if (bundled) {
    const entries = new Set(ENTRY_POINTS);
    for (const { text } of pages) for (const script of pageScripts(text)) entries.add(path.posix.relative('src', script));
    const graph = bundle(root, dist, [...entries]);
    links = (page) => preloadLinks(graph, page);
  } else {
    links = copyModules(root, dist);
  }
  for (const { file, text } of pages) {
    if (!MARKER.test(text)) throw new Error(`site: ${path.basename(file)} has no <!-- dlq:preload --> marker`);
    writeFileSync(file, text.replace(MARKER, links(text)));
  }
  if (precompressed) precompress(dist);
  return dist;
}
