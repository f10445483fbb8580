// `npm run bench`: one workload — 1,000,000 jobs, seeded random outcomes (70%
// success, 25% transient, 5% permanent), maxAttempts 3 — run natively and
// through the JS API in Node; prints attempts per second, their ratio, and the
// size of what a page downloads. Numbers, not a test: nothing here fails on speed.
//
//   node scripts/bench.mjs [jobs] [seed]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { loadLab } from 'dlq-lab';

const jobs = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 42);
const mix = { successPercent: 70, transientPercent: 25 };

function nativeRun() {
  const out = execFileSync('build/native/dlq_bench', [String(jobs), String(seed)], { encoding: 'utf8' });
  return JSON.parse(out);
}

function makeJobs() {
  const list = new Array(jobs);
  for (let i = 0; i < jobs; i++) list[i] = { id: `job-${i}`, payload: `payload ${i}` };
  return list;
}

// Each run starts from a collected JS heap (node --expose-gc, as scripts/dlq.mjs
// runs it), so no run pays for the garbage of the set-up or of the run before.
const collect = () => globalThis.gc?.();

// Batched: one enqueueMany and one processMany call (two boundary crossings).
function batchedRun(lab, outcomes, list) {
  collect();
  const start = performance.now();
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueueMany(list);
  const enqueued = performance.now();
  const attempts = q.processMany(outcomes);
  const done = performance.now();
  const stats = q.stats();
  q.dispose();
  return { attempts, stats, enqueueSeconds: (enqueued - start) / 1000, processSeconds: (done - enqueued) / 1000 };
}

// Per call: one enqueue() per job and one process() per attempt.
function perCallRun(lab, outcomes, list) {
  const names = { s: 'success', t: 'transient', p: 'permanent' };
  collect();
  const start = performance.now();
  const q = lab.createQueue({ maxAttempts: 3 });
  for (const job of list) q.enqueue(job.id, job.payload);
  const enqueued = performance.now();
  let attempts = 0;
  while (q.process(names[outcomes[attempts]]) !== null) attempts++;
  const done = performance.now();
  const stats = q.stats();
  q.dispose();
  return { attempts, stats, enqueueSeconds: (enqueued - start) / 1000, processSeconds: (done - enqueued) / 1000 };
}

function sizeOf(file) {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const rate = (run) => run.attempts / (run.enqueueSeconds + run.processSeconds);
const fmt = (n) => Math.round(n).toLocaleString('en-US');

const lab = await loadLab();
const outcomes = lab.randomOutcomes({ seed, count: jobs * 2, ...mix });
const list = makeJobs();
const native = nativeRun();
const batched = batchedRun(lab, outcomes, list);
const perCall = perCallRun(lab, outcomes, list);
if (batched.attempts !== native.attempts || perCall.attempts !== native.attempts ||
    batched.stats.quarantined !== native.quarantined || batched.stats.events !== native.events) {
  console.error('the runs disagree: native', native, 'batched', batched, 'per call', perCall);
  process.exit(1);
}

const sizes = {
  wasm: sizeOf('wasm/gen/dlq_core.wasm'),
  glue: sizeOf('wasm/gen/dlq_core.mjs'),
  api: sizeOf('wasm/index.mjs'),
};
const totalGzip = sizes.wasm.gzip + sizes.glue.gzip + sizes.api.gzip;

console.log(`workload: ${fmt(jobs)} jobs, seed ${seed}, 70/25/5 success/transient/permanent, maxAttempts 3`);
console.log(`          ${fmt(native.attempts)} attempts, ${fmt(native.completed)} completed, ${fmt(native.quarantined)} quarantined, ${fmt(native.events)} events\n`);
console.log('run                 enqueue s  process s  attempts/s   vs native');
for (const [name, run] of [['native (C++)', native], ['JS API, batched', batched], ['JS API, per call', perCall]]) {
  console.log(`${name.padEnd(18)} ${run.enqueueSeconds.toFixed(3).padStart(9)}  ${run.processSeconds.toFixed(3).padStart(9)}  ` +
    `${fmt(rate(run)).padStart(10)}   ${(rate(native) / rate(run)).toFixed(2)}x`);
}
console.log('\nsize            raw bytes   gzip -9');
for (const [name, s] of Object.entries(sizes)) {
  console.log(`${name.padEnd(14)} ${fmt(s.raw).padStart(10)} ${fmt(s.gzip).padStart(9)}`);
}
console.log(`${'total'.padEnd(14)} ${fmt(sizes.wasm.raw + sizes.glue.raw + sizes.api.raw).padStart(10)} ${fmt(totalGzip).padStart(9)}`);
console.log(`\n${JSON.stringify({ jobs, seed, attempts: native.attempts, attemptsPerSecond: {
  native: Math.round(rate(native)), batched: Math.round(rate(batched)), perCall: Math.round(rate(perCall)) },
ratio: { batched: +(rate(native) / rate(batched)).toFixed(2), perCall: +(rate(native) / rate(perCall)).toFixed(2) },
sizes, totalGzip })}`);
