// Lighthouse (npm `lighthouse` 12.2.3, the last release that runs on Node 20) in its default
// mobile mode (a mid-range phone: slow 4G and a 4x slower CPU, simulated) against pages served
// from dist/: each page's performance, accessibility and best-practices scores, with the
// metrics that explain a performance score. Used by `npm run bench:page`; also
//   node scripts/lighthouse.mjs [page.html ...]     (serves dist/ itself)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

export const LIGHTHOUSE_PAGES = ['index.html', 'lesson-1.html', 'lesson-2.html', 'playground.html', 'compare.html', 'storm.html', 'check.html'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

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
 * Lighthouse's mobile run of each page under `base` (a URL ending in /): { page: { performance,
 * accessibility, 'best-practices', fcpMs, lcpMs, tbtMs, cls, speedIndexMs } }, scores 0..1.
 */
export async function lighthouseScores(base, pages = LIGHTHOUSE_PAGES) {
  const { default: lighthouse } = await import('lighthouse');
  const chromium = await startChromium();
  const out = {};
  try {
    for (const page of pages) {
      const result = await lighthouse(`${base}${page}`, { port: chromium.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
      const { categories, audits } = result.lhr;
      const metric = (id) => Math.round(audits[id]?.numericValue ?? NaN);
      out[page] = {
        ...Object.fromEntries(CATEGORIES.map((c) => [c, categories[c]?.score ?? null])),
        fcpMs: metric('first-contentful-paint'), lcpMs: metric('largest-contentful-paint'),
        tbtMs: metric('total-blocking-time'), cls: +(audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3),
        speedIndexMs: metric('speed-index'),
      };
    }
  } finally {
    await chromium.close();
  }
  return out;
}

/** Table lines for the scores, each page beside the aim (performance >= 0.95 on a phone). */
export function lighthouseLines(scores) {
  const lines = ['Lighthouse 12.2.3, mobile (simulated slow 4G, 4x CPU)   perf  a11y  best   FCP ms   LCP ms   TBT ms    CLS   aim perf >= 0.95'];
  for (const [page, s] of Object.entries(scores)) {
    const f = (v) => (v === null ? '  -  ' : v.toFixed(2));
    lines.push(`  ${page.padEnd(52)} ${f(s.performance)}  ${f(s.accessibility)}  ${f(s['best-practices'])}  ${String(s.fcpMs).padStart(7)}  ` +
      `${String(s.lcpMs).padStart(7)}  ${String(s.tbtMs).padStart(7)}  ${s.cls.toFixed(3).padStart(5)}   ${s.performance >= 0.95 ? 'met' : 'missed'}`);
  }
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
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
