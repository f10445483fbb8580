// Lighthouse (npm `lighthouse` 12.2.3, the last release that runs on Node 20) in its default
// mobile mode (a mid-range phone: slow 4G and a 4x slower CPU, simulated) against pages served
// from dist/: each page's performance, accessibility and best-practices scores, with the
// metrics that explain a performance score. Each page is run LIGHTHOUSE_RUNS times and the
// median run reported, chosen as Lighthouse's own tooling chooses it (computeMedianRun: the run
// nearest the median first paint and time to interactive), as Lighthouse's documentation advises
// for a noisy machine: on this one a page's score moved by up to 0.1 from run to run. Five runs
// by default: its variability guide (docs/variability.md, "Run Lighthouse multiple times") finds
// that the median of five roughly halves the spread of a single run; three left a page's median
// 0.94 in one bench and 0.99 in the next on the same build.
// Used by `npm run bench:page`; also
//   node scripts/lighthouse.mjs [page.html ...]     (serves dist/ itself; LIGHTHOUSE_RUNS=n)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { AIMS, aimText, isMet } from './aims.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

export const LIGHTHOUSE_PAGES = ['index.html', 'lesson-1.html', 'lesson-2.html', 'playground.html', 'compare.html', 'storm.html', 'check.html'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/**
 * Runs per page: LIGHTHOUSE_RUNS in `env`, default 5 (the median one is reported, with every
 * run's score). A RangeError naming the variable for anything but an integer from 1 to 15.
 */
export function lighthouseRuns(env = process.env) {
  const text = env.LIGHTHOUSE_RUNS ?? '5';
  const runs = Number(text);
  if (!/^[0-9]+$/.test(text) || runs < 1 || runs > 15) {
    throw new RangeError(`LIGHTHOUSE_RUNS must be an integer from 1 to 15, got ${JSON.stringify(text)}`);
  }
  return runs;
}

/** Starts headless Chromium with a DevTools port; resolves { port, close }. */
function startChromium() {
  const profile = mkdtempSync(path.join(tmpdir(), 'dlq-lighthouse-'));
  const child = spawn(CHROMIUM, ['--headless=new', ...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
  { stdio: ['ignore', 'ignore', 'pipe'], detached: true });  // its own process group: closed whole
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const close = async () => {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { child.kill(); }
    await exited;
    // Chromium's helper processes may still be flushing into the profile for a moment after the
    // browser exits; a temporary folder left behind must not cost the run its results.
    for (let attempt = 0; ; attempt += 1) {
      try { rmSync(profile, { recursive: true, force: true }); return; } catch (error) {
        if (attempt === 10) { console.warn(`lighthouse: could not remove ${profile}: ${error.message}`); return; }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) resolve({ port: Number(m[1]), close });
    });
    child.on('exit', (code) => reject(new Error(`chromium ended (exit ${code}) before its DevTools port was known:\n${err}`)));
  });
}

/**
 * Lighthouse's mobile run of each page under `base` (a URL ending in /), `runs` times: the
 * median run's { performance, accessibility, 'best-practices', fcpMs, lcpMs, tbtMs, cls,
 * speedIndexMs } per page, scores 0..1, with `performanceRuns`: every run's performance score.
 * The pages take turns (page 1, 2, …, then again), so a slow minute of the machine does not
 * land on one page's every run.
 */
export async function lighthouseScores(base, pages = LIGHTHOUSE_PAGES, runs = lighthouseRuns()) {
  const { default: lighthouse } = await import('lighthouse');
  const chromium = await startChromium();
  const results = Object.fromEntries(pages.map((page) => [page, []]));
  const out = {};
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const page of pages) {
        const result = await lighthouse(`${base}${page}`, { port: chromium.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
        results[page].push(result.lhr);
      }
    }
    for (const page of pages) {
      const valid = filterToValidRuns(results[page]);
      if (valid.length === 0) throw new Error(`lighthouse: no run of ${page} measured its first paint and time to interactive`);
      const { categories, audits } = computeMedianRun(valid);
      const metric = (id) => Math.round(audits[id]?.numericValue ?? NaN);
      out[page] = {
        ...Object.fromEntries(CATEGORIES.map((c) => [c, categories[c]?.score ?? null])),
        fcpMs: metric('first-contentful-paint'), lcpMs: metric('largest-contentful-paint'),
        tbtMs: metric('total-blocking-time'), cls: +(audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3),
        speedIndexMs: metric('speed-index'),
        performanceRuns: results[page].map((lhr) => lhr.categories.performance?.score ?? null),
      };
    }
  } finally {
    await chromium.close();
  }
  return out;
}

/** Table lines for the scores (the median run of each page, every run's score), each page beside the aim (performance >= 0.95 on a phone). */
export function lighthouseLines(scores) {
  const runs = Object.values(scores)[0]?.performanceRuns?.length ?? 1;
  const lines = [`Lighthouse 12.2.3, mobile (simulated slow 4G, 4x CPU), median of ${runs}   perf  a11y  best   FCP ms   LCP ms   TBT ms    CLS   ${`aim perf ${aimText(AIMS.lighthousePerformance)}`.padEnd(18)} every run's perf`];
  for (const [page, s] of Object.entries(scores)) {
    const f = (v) => (v === null || v === undefined ? '  -  ' : v.toFixed(2));
    lines.push(`  ${page.padEnd(52)} ${f(s.performance)}  ${f(s.accessibility)}  ${f(s['best-practices'])}  ${String(s.fcpMs).padStart(7)}  ` +
      `${String(s.lcpMs).padStart(7)}  ${String(s.tbtMs).padStart(7)}  ${s.cls.toFixed(3).padStart(5)}   ${(isMet(AIMS.lighthousePerformance, s.performance) ? 'met' : 'missed').padEnd(18)} ` +
      `${(s.performanceRuns ?? []).map(f).join(' ')}`);
  }
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    lighthouseRuns();
  } catch (error) {
    console.error(`lighthouse: ${error.message}`);
    process.exit(2);
  }
  const { serve } = await import('./serve.mjs');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const server = await serve({ dir: path.join(root, 'dist') });
  try {
    const pages = process.argv.slice(2);
    const scores = await lighthouseScores(`http://127.0.0.1:${server.address().port}/`, pages.length ? pages : LIGHTHOUSE_PAGES);
    for (const line of lighthouseLines(scores)) console.log(line);
    console.log(JSON.stringify({ lighthouse: scores }));
  } finally {
    server.close();
  }
}
