// Budgets that hold: figures a change must not make worse.
//
// Two kinds, each with its baseline committed in tests/budgets/:
//  * sizes (sizes.json): bytes, deterministic for a given toolchain, so `npm test` checks them
//    (tests/node/budget-sizes.test.mjs): each WebAssembly module raw and brotli, and what each
//    page fetches at start (the page, its module scripts, modulepreloads, preloads and
//    stylesheets, and the core's .wasm and the worker that compiles it when it imports the JS
//    API at start, as dist/ serves them: the brotli copy where the build wrote one; what a
//    page imports later, on demand, is not counted: bench:page weighs whole loads);
//  * ratios (ratios.json): figures of `npm run bench` and `bench:page` that stay put on a
//    noisy machine because they divide two runs made side by side (the core vs the minimal
//    loop, wasm vs native), plus the page weights; `npm run bench:check` compares the last
//    records (build/bench/*.json, written by the benches) with them. Timings are never tested.
//
// A figure fails when it is worse than its baseline by more than the file's margin. After a
// deliberate change, `node scripts/budgets.mjs sizes --write` (or `ratios --write`) records
// the new baseline, and the commit shows the change.
//
//   node scripts/budgets.mjs sizes [--write]     the byte budget (dist/ and wasm/gen built)
//   node scripts/budgets.mjs ratios [--write]    the bench budget (after bench and bench:page)
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SIZES_FILE = path.join(ROOT, 'tests', 'budgets', 'sizes.json');
export const RATIOS_FILE = path.join(ROOT, 'tests', 'budgets', 'ratios.json');
/** Where the benches write their last records. */
export const RECORDS_DIR = path.join(ROOT, 'build', 'bench');

/** The pages whose first load is budgeted (dist/<name>). */
export const PAGES = ['index.html', 'lesson-1.html', 'lesson-2.html', 'playground.html', 'compare.html', 'storm.html', 'check.html', 'embed.html'];
/** The WebAssembly modules budgeted (wasm/gen/<name>). */
export const MODULES = ['dlq_core.wasm', 'dlq_sim.wasm', 'dlq_check.wasm', 'dlq-lab.wasm'];

const brotli = (data) => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length;

/** The URLs (relative to dist/) a page fetches before it is drawn, in the order the page names them. */
export function pageLoadSet(html) {
  const urls = [];
  const attr = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    let url;
    if (tag.startsWith('<script')) url = attr(tag, 'src');
    else if (/\brel\s*=\s*"(modulepreload|preload|stylesheet)"/.test(tag)) url = attr(tag, 'href');
    if (url && !/^[a-z]+:/i.test(url) && !urls.includes(url)) urls.push(url);
  }
  return urls.map((url) => url.replace(/^\.\//, '').replace(/[?#].*$/, ''));
}

/**
 * What a page fetches at start: what it names (pageLoadSet), and the core's .wasm and the worker
 * that compiles it (wasm/instantiate.mjs) when one of those is the JS API (wasm/index.mjs), whose
 * loader fetches both as the page starts (no page preloads a .wasm, so the page does not name it).
 */
export function pageStartSet(html) {
  const urls = pageLoadSet(html);
  return urls.includes('wasm/index.mjs') ? [...urls, 'wasm/compile-worker.mjs', 'wasm/gen/dlq_core.wasm'] : urls;
}

/** Bytes of dist/<file> as the server sends it to a browser: its brotli copy when the build wrote one. */
function servedBytes(dist, file) {
  const full = path.join(dist, file);
  if (!existsSync(full)) throw new Error(`budgets: ${file} is named by a page but not in dist/`);
  return existsSync(`${full}.br`) ? statSync(`${full}.br`).size : statSync(full).size;
}

/** The size figures of the built tree: { name: bytes }. Throws when a page or module is missing. */
export function sizeFigures(root = ROOT) {
  const figures = {};
  for (const name of MODULES) {
    const file = path.join(root, 'wasm', 'gen', name);
    if (!existsSync(file)) throw new Error(`budgets: wasm/gen/${name} is not built (npm run build)`);
    const data = readFileSync(file);
    figures[`${name} raw`] = data.length;
    // The build's own copy when dist/ serves this module and holds the same bytes (it is
    // the same brotli, quality 11), else compressed here.
    const served = path.join(root, 'dist', 'wasm', 'gen', name);
    const copy = existsSync(`${served}.br`) && existsSync(served) && readFileSync(served).equals(data) ? `${served}.br` : null;
    figures[`${name} brotli`] = copy ? statSync(copy).size : brotli(data);
  }
  const dist = path.join(root, 'dist');
  for (const page of PAGES) {
    const file = path.join(dist, page);
    if (!existsSync(file)) throw new Error(`budgets: dist/${page} is not built (npm run build)`);
    const files = [page, ...pageStartSet(readFileSync(file, 'utf8'))];
    figures[`${page}: what it fetches at start, as sent`] = files.reduce((sum, f) => sum + servedBytes(dist, f), 0);
  }
  return figures;
}

/** The figures of the last bench records that the ratio budget compares. */
export function ratioFigures(dir = RECORDS_DIR) {
  const read = (name) => {
    const file = path.join(dir, name);
    if (!existsSync(file)) throw new Error(`budgets: ${path.relative(ROOT, file)} is missing: run \`npm run ${name === 'bench.json' ? 'bench' : 'bench:page'}\` first`);
    return JSON.parse(readFileSync(file, 'utf8'));
  };
  const bench = read('bench.json');
  const page = read('page.json');
  const y = bench.yardstick.processAttemptsPerSecond;
  // Not the clock workload's JS-vs-native ratio (the bench prints it): one call per lease, settle
  // and jump, it swung from 5.1x to 8.9x on unchanged code (stops 51-52, best of three runs too),
  // and the baseline commit's own modules measured the same as today's, turn about.
  const figures = {
    'core vs the minimal loop (time per attempt, x)': +(y.loop / y.core).toFixed(2),
    'JS API batched vs native (x)': bench.ratio.batched,
    'storm, wasm vs native (x)': +(bench.storm.seconds.js / bench.storm.seconds.native).toFixed(2),
  };
  for (const [name, bytes] of Object.entries(page.gzipBytes ?? {})) figures[`gzip of what ${name} loads (B)`] = bytes;
  if (page.bytesOnTheWire !== undefined) figures['playground bytes on the wire (B)'] = page.bytesOnTheWire;
  for (const [name, scores] of Object.entries(page.lighthouse ?? {})) {
    figures[`Lighthouse mobile performance: ${name}`] = scores.performance;
  }
  return figures;
}

/** Figures where higher is better (the rest: lower is better). */
const HIGHER_IS_BETTER = /^Lighthouse /;

/**
 * Compares `figures` with `baseline` ({ margin, figures }): a row per figure with its verdict.
 * A figure the baseline lacks, or a baseline figure no longer measured, is a failure too:
 * the budget covers exactly what is measured.
 */
export function compare(figures, baseline) {
  const rows = [];
  const margin = baseline.margin;
  for (const [name, value] of Object.entries(figures)) {
    const base = baseline.figures[name];
    if (base === undefined) {
      rows.push({ name, value, base: null, ok: false, why: 'not in the baseline (record it with --write)' });
      continue;
    }
    const higher = HIGHER_IS_BETTER.test(name);
    const limit = higher ? base * (1 - margin) : base * (1 + margin);
    const ok = higher ? value >= limit : value <= limit;
    rows.push({ name, value, base, ok, why: ok ? '' : `worse than ${base} by more than ${Math.round(margin * 100)}%` });
  }
  for (const name of Object.keys(baseline.figures)) {
    if (!(name in figures)) rows.push({ name, value: null, base: baseline.figures[name], ok: false, why: 'in the baseline but not measured' });
  }
  return rows;
}

export function printRows(title, rows) {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(title);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(width)}  ${String(r.value ?? '-').padStart(10)}  baseline ${String(r.base ?? '-').padStart(10)}  ${r.ok ? 'ok' : `FAIL: ${r.why}`}`);
  }
}

function main(argv) {
  const [kind, flag] = argv;
  const kinds = { sizes: [SIZES_FILE, sizeFigures, 0.02], ratios: [RATIOS_FILE, ratioFigures, 0.15] };
  if (!(kind in kinds) || (flag !== undefined && flag !== '--write')) {
    console.error(`usage: node scripts/budgets.mjs sizes|ratios [--write] (got ${JSON.stringify(argv.join(' '))})`);
    return 2;
  }
  const [file, measure, defaultMargin] = kinds[kind];
  let figures;
  try {
    figures = measure();
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  if (flag === '--write') {
    const margin = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).margin : defaultMargin;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ margin, figures }, null, 2)}\n`);
    console.log(`wrote ${path.relative(ROOT, file)}`);
    return 0;
  }
  if (!existsSync(file)) {
    console.error(`budgets: no baseline ${path.relative(ROOT, file)}; record one with \`node scripts/budgets.mjs ${kind} --write\``);
    return 1;
  }
  const rows = compare(figures, JSON.parse(readFileSync(file, 'utf8')));
  printRows(`${kind} budget (${path.relative(ROOT, file)})`, rows);
  return rows.every((r) => r.ok) ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
