// `npm run bench`: two workloads, each run natively and through the JS API in
// Node; prints attempts per second, their ratio, and the size of what a page
// downloads. Numbers, not a test: nothing here fails on speed.
//  * lesson 1: 1,000,000 jobs, seeded random outcomes (70% success, 25%
//    transient, 5% permanent), maxAttempts 3, process only;
//  * the clock: 200,000 jobs, exponential backoff 100..10,000 ms with full
//    jitter, leases of 1 s, maxAttempts 5; 20% of leases are left to expire, the
//    rest settled at once (tests/bench/native_bench.cpp makes the same calls);
//  * the storm (core/sim/storm.h): 1,000,000 jobs at once through a 5 s outage, 10
//    attempts, exponential backoff 100..10,000 ms with full jitter, 1,000 workers
//    x 10 ms: natively and sim.runStorm() in Node, best of three each; and the storm
//    with a budget (the gRPC preset at scale: 5% failures, grpc:10:0.1), the same way;
//  * the yardstick: lesson 1's process-only rate on the core beside a minimal C++
//    loop applying the same policy to 8-byte records, and the core's enqueue cost
//    per job beside its process cost per attempt.
//  * a set-up edit (scripts/bench-edit.mjs): a policy edit in the playground at
//    1,000 jobs, its calls into the core and the bytes that cross, before (the
//    scenario round trip) and after (session.setPolicy), beside its aim.
//
//  * the checker (scripts/bench-check.mjs): `dlq-lab check` on a generated RabbitMQ
//    export (10,000 queues, 2,000 policies) and Terraform plan (10,000 queues),
//    natively, beside `jq .` on the same file, and through Node; each beside its aim.
//
//   node scripts/bench.mjs [jobs] [seed] [clockJobs]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { loadLab, loadSim } from 'dlq-lab';
import { printShape } from './shape.mjs';
import { measurePolicyEdit, policyEditLines } from './bench-edit.mjs';
import { measureCheck, checkLines } from './bench-check.mjs';
import { AIMS, aimColumn, aimText, isMet } from './aims.mjs';
import { RECORDS_DIR } from './budgets.mjs';

const jobs = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 42);
const clockJobs = Number(process.argv[4] ?? 200_000);
const mix = { successPercent: 70, transientPercent: 25 };

function nativeRun() {
  const out = execFileSync('build/native/dlq_bench', [String(jobs), String(seed)], { encoding: 'utf8' });
  return JSON.parse(out);
}

function makeJobs(count = jobs) {
  const list = new Array(count);
  for (let i = 0; i < count; i++) list[i] = { id: `job-${i}`, payload: `payload ${i}` };
  return list;
}

function nativeClockRun() {
  const out = execFileSync('build/native/dlq_bench', ['clock', String(clockJobs), String(seed)], { encoding: 'utf8' });
  return JSON.parse(out);
}

// The storm preset: scripts/bench.mjs and `dlq_bench storm` run the same options.
const STORM_RUNS = 5;  // V8 tiers hot wasm up during the first runs
const stormOptions = (stormJobs) => ({ jobs: stormJobs, outage: { startMs: 0, durationMs: 5000 }, maxAttempts: 10,
  backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, jitter: 'full' }, workers: 1000, workMs: 10 });

// The storm with a budget (`dlq_bench storm-budget`): the gRPC preset at scale, 5% failures, grpc:10:0.1.
const budgetStormOptions = (stormJobs) => ({ jobs: stormJobs, arrival: { kind: 'rate', perSecond: 100_000 },
  failurePerMillion: 50_000, maxAttempts: 3, budget: 'grpc:10:0.1', workers: 1000, workMs: 10 });

function nativeStormRun(stormJobs, workload = 'storm') {
  const out = execFileSync('build/native/dlq_bench', [workload, String(stormJobs), String(STORM_RUNS)], { encoding: 'utf8' });
  return JSON.parse(out);
}

// sim.runStorm() in Node: the best of STORM_RUNS, as natively.
function jsStormRun(sim, stormJobs, options = stormOptions) {
  let best = Infinity;
  let bestCpu = Infinity;
  let summary;
  for (let i = 0; i < STORM_RUNS; i++) {
    collect();
    const cpu = process.cpuUsage();  // this process's CPU time: what a busy machine does not inflate
    const start = performance.now();
    ({ summary } = sim.runStorm(options(stormJobs)));
    best = Math.min(best, (performance.now() - start) / 1000);
    const used = process.cpuUsage(cpu);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1e6);
  }
  return { ...summary, seconds: best, cpuSeconds: bestCpu };
}

// The yardstick is run in YARDSTICK_RUNS fresh processes and each time is the
// median: one run on a shared 2-core machine can be off by half.
const YARDSTICK_RUNS = 5;
function nativeYardstickRun() {
  const runs = [];
  for (let r = 0; r < YARDSTICK_RUNS; r++) {
    runs.push(JSON.parse(execFileSync('build/native/dlq_bench', ['yardstick', String(jobs), String(seed)], { encoding: 'utf8' })));
  }
  const median = (pick) => runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return {
    ...runs[0],
    agree: runs.every((run) => run.agree && run.attempts === runs[0].attempts),
    core: { enqueueSeconds: median((run) => run.core.enqueueSeconds), processSeconds: median((run) => run.core.processSeconds) },
    loop: { enqueueSeconds: median((run) => run.loop.enqueueSeconds), processSeconds: median((run) => run.loop.processSeconds) },
    loopWithHistory: { processSeconds: median((run) => run.loopWithHistory.processSeconds) },
  };
}

// The clock workload through the JS API: one call per lease, settle and jump.
function clockRun(lab) {
  const names = { s: 'success', t: 'transient', p: 'permanent' };
  const outcomes = lab.randomOutcomes({ seed, count: clockJobs * 6, ...mix });
  const settles = lab.randomOutcomes({ seed: seed + 1, count: clockJobs * 6, successPercent: 80, transientPercent: 20 });
  const list = makeJobs(clockJobs);
  collect();
  const start = performance.now();
  const q = lab.createQueue({ maxAttempts: 5, leaseMs: 1000, seed, journal: false,
    backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, jitter: 'full' } });
  q.enqueueMany(list);
  const enqueued = performance.now();
  let attempts = 0;
  let expired = 0;
  for (;;) {
    const lease = q.lease();
    if (lease === null) {
      if (q.advanceToNext() === null) break;
      continue;
    }
    const settle = settles[attempts] === 's';
    const letter = outcomes[attempts];
    attempts++;
    if (settle) q.settle(lease.token, names[letter]); else expired++;
  }
  const done = performance.now();
  const stats = q.stats();
  q.dispose();
  return { attempts, expired, stats, enqueueSeconds: (enqueued - start) / 1000, processSeconds: (done - enqueued) / 1000 };
}

// Each run starts from a collected JS heap (node --expose-gc, as scripts/dlq.mjs
// runs it), so no run pays for the garbage of the set-up or of the run before.
const collect = () => globalThis.gc?.();

// Batched: one enqueueMany and one processMany call (two boundary crossings).
function batchedRun(lab, outcomes, list) {
  collect();
  const start = performance.now();
  const q = lab.createQueue({ maxAttempts: 3, journal: false });  // as natively: no journal
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
  const q = lab.createQueue({ maxAttempts: 3, journal: false });  // as natively: no journal
  for (const job of list) q.enqueue(job.id, job.payload);
  const enqueued = performance.now();
  let attempts = 0;
  while (q.process(names[outcomes[attempts]]) !== null) attempts++;
  const done = performance.now();
  const stats = q.stats();
  q.dispose();
  return { attempts, stats, enqueueSeconds: (enqueued - start) / 1000, processSeconds: (done - enqueued) / 1000 };
}

/** Raw and gzip -9 bytes of `files` together (the JS API's modules: one text, as the site bundles them). */
function sizeOf(...files) {
  const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const rate = (run) => run.attempts / (run.enqueueSeconds + run.processSeconds);
const fmt = (n) => Math.round(n).toLocaleString('en-US');

const lab = await loadLab();
const sim = await loadSim();
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

// Best of CLOCK_RUNS each: one run of the same build swung from 2.3 to 4.9 s of CPU through the JS
// API (stops 51-52), past the budget's margin; the fastest run is what the code costs.
const CLOCK_RUNS = 3;
const fastest = (runs) => runs.reduce((best, run) => (rate(run) > rate(best) ? run : best));
const nativeClock = fastest(Array.from({ length: CLOCK_RUNS }, nativeClockRun));
const jsClock = fastest(Array.from({ length: CLOCK_RUNS }, () => clockRun(lab)));
if (jsClock.attempts !== nativeClock.attempts || jsClock.stats.events !== nativeClock.events ||
    jsClock.stats.now !== nativeClock.now || jsClock.stats.quarantined !== nativeClock.quarantined) {
  console.error('the clock runs disagree: native', nativeClock, 'JS', jsClock);
  process.exit(1);
}

const sizes = {
  wasm: sizeOf('wasm/gen/dlq_core.wasm'),
  glue: sizeOf('wasm/gen/dlq_core.mjs'),
  api: sizeOf(...readdirSync('wasm').filter((name) => name.endsWith('.mjs')).sort().map((name) => `wasm/${name}`)),
};
const totalGzip = sizes.wasm.gzip + sizes.glue.gzip + sizes.api.gzip;

console.log(`workload: ${fmt(jobs)} jobs, seed ${seed}, 70/25/5 success/transient/permanent, maxAttempts 3`);
console.log(`          ${fmt(native.attempts)} attempts, ${fmt(native.completed)} completed, ${fmt(native.quarantined)} quarantined, ${fmt(native.events)} events\n`);
console.log('run                 enqueue s  process s  attempts/s   vs native');
for (const [name, run] of [['native (C++)', native], ['JS API, batched', batched], ['JS API, per call', perCall]]) {
  const ratio = rate(native) / rate(run);
  console.log(`${name.padEnd(18)} ${run.enqueueSeconds.toFixed(3).padStart(9)}  ${run.processSeconds.toFixed(3).padStart(9)}  ` +
    `${fmt(rate(run)).padStart(10)}   ${ratio.toFixed(2)}x${run === batched ? `   aim ${aimColumn(AIMS.batchedVsNative, ratio)}` : ''}`);
}
console.log(`\nclock workload: ${fmt(clockJobs)} jobs, exponential 100..10000 ms, full jitter, leases 1 s, maxAttempts 5, 20% of leases expire (best of ${CLOCK_RUNS})`);
console.log(`          ${fmt(nativeClock.attempts)} attempts (${fmt(nativeClock.expired)} expired), ${fmt(nativeClock.completed)} completed, ` +
  `${fmt(nativeClock.quarantined)} quarantined, ${fmt(nativeClock.events)} events, ends at ${fmt(nativeClock.now)} ms\n`);
console.log('run                 enqueue s  process s  attempts/s   vs native');
for (const [name, run] of [['native (C++)', nativeClock], ['JS API, per call', jsClock]]) {
  console.log(`${name.padEnd(18)} ${run.enqueueSeconds.toFixed(3).padStart(9)}  ${run.processSeconds.toFixed(3).padStart(9)}  ` +
    `${fmt(rate(run)).padStart(10)}   ${(rate(nativeClock) / rate(run)).toFixed(2)}x`);
}
const stormJobs = 1_000_000;
const nativeStorm = nativeStormRun(stormJobs);
const jsStorm = jsStormRun(sim, stormJobs);
if (jsStorm.attempts !== nativeStorm.attempts || jsStorm.completed !== nativeStorm.completed ||
    jsStorm.quarantined !== nativeStorm.quarantined || jsStorm.drainMs !== nativeStorm.drainMs) {
  console.error('the storm runs disagree: native', nativeStorm, 'JS', jsStorm);
  process.exit(1);
}
const stormRate = (run) => run.attempts / run.seconds;
console.log(`\nstorm workload: ${fmt(stormJobs)} jobs at once, 5 s outage from 0, 10 attempts, exponential 100..10000 ms, ` +
  'full jitter, 1,000 workers x 10 ms');
console.log(`          ${fmt(nativeStorm.attempts)} attempts (${fmt(nativeStorm.outageFailures)} failed in the outage), ` +
  `${fmt(nativeStorm.completed)} completed, ${fmt(nativeStorm.quarantined)} quarantined, drains at ${fmt(nativeStorm.drainMs)} ms, ` +
  `${fmt(nativeStorm.events)} events\n`);
console.log(`run                 seconds  attempts/s   vs native   CPU s  attempts/CPU s   (best of ${STORM_RUNS}, set-up included)`);
for (const [name, run] of [['native (C++)', nativeStorm], ['wasm in Node', jsStorm]]) {
  const ratio = stormRate(nativeStorm) / stormRate(run);
  console.log(`${name.padEnd(18)} ${run.seconds.toFixed(3).padStart(8)}  ${fmt(stormRate(run)).padStart(10)}   ` +
    `${ratio.toFixed(2).padStart(8)}x  ${run.cpuSeconds.toFixed(3).padStart(6)}  ` +
    `${fmt(run.attempts / run.cpuSeconds).padStart(14)}${run === jsStorm ? `   aim ${aimColumn(AIMS.stormWasmVsNative, ratio)}` : ''}`);
}

const nativeBudgetStorm = nativeStormRun(stormJobs, 'storm-budget');
const jsBudgetStorm = jsStormRun(sim, stormJobs, budgetStormOptions);
if (jsBudgetStorm.attempts !== nativeBudgetStorm.attempts || jsBudgetStorm.retriesDenied !== nativeBudgetStorm.retriesDenied ||
    jsBudgetStorm.drainMs !== nativeBudgetStorm.drainMs) {
  console.error('the storms with a budget disagree: native', nativeBudgetStorm, 'JS', jsBudgetStorm);
  process.exit(1);
}
console.log(`\nstorm with a budget: ${fmt(stormJobs)} jobs at 100,000 a second, 5% of attempts failing, 3 attempts, ` +
  'no backoff, budget grpc:10:0.1, 1,000 workers x 10 ms');
console.log(`          ${fmt(nativeBudgetStorm.attempts)} attempts, ${fmt(nativeBudgetStorm.retriesDenied)} retries refused, ` +
  `${fmt(nativeBudgetStorm.completed)} completed, drains at ${fmt(nativeBudgetStorm.drainMs)} ms, ${fmt(nativeBudgetStorm.events)} events\n`);
console.log(`run                 seconds  attempts/s   vs native   CPU s  attempts/CPU s   (best of ${STORM_RUNS}, set-up included)`);
for (const [name, run] of [['native (C++)', nativeBudgetStorm], ['wasm in Node', jsBudgetStorm]]) {
  console.log(`${name.padEnd(18)} ${run.seconds.toFixed(3).padStart(8)}  ${fmt(stormRate(run)).padStart(10)}   ` +
    `${(stormRate(nativeBudgetStorm) / stormRate(run)).toFixed(2).padStart(8)}x  ${run.cpuSeconds.toFixed(3).padStart(6)}  ` +
    `${fmt(run.attempts / run.cpuSeconds).padStart(14)}`);
}

const yard = nativeYardstickRun();
if (!yard.agree || yard.attempts !== native.attempts) {
  console.error('the yardstick disagrees with the core:', yard, native);
  process.exit(1);
}
const ns = (seconds, count) => (seconds * 1e9 / count).toFixed(1);
console.log(`\nyardstick: lesson 1 (${fmt(jobs)} jobs, ${fmt(yard.attempts)} attempts), process only, ` +
  `the core beside a minimal loop on 8-byte records (same outcomes, same counts; C++ rows: median of ${YARDSTICK_RUNS} processes)`);
console.log('run                    enqueue ns/job  process ns/attempt  process attempts/s');
// "+ history": the same loop writing one 16-byte line per event (two per attempt)
// to fresh memory taken as the core takes its own (core/base/block_memory.h).
for (const [name, run] of [['core (C++)', yard.core], ['minimal loop (C++)', yard.loop],
  [' + history, 16 B/event', yard.loopWithHistory], ['JS API, batched', batched]]) {
  const enqueue = run.enqueueSeconds === undefined ? '' : ns(run.enqueueSeconds, jobs);
  console.log(`${name.padEnd(22)} ${enqueue.padStart(14)}  ${ns(run.processSeconds, yard.attempts).padStart(18)}  ` +
    `${fmt(yard.attempts / run.processSeconds).padStart(18)}`);
}
const rateShare = yard.loop.processSeconds / yard.core.processSeconds;
const enqueueRatio = yard.core.enqueueSeconds / jobs / (yard.core.processSeconds / yard.attempts);
console.log(`aim: process rate >= 1/3 of the minimal loop's: 1/${(1 / rateShare).toFixed(1)}, ${rateShare >= 1 / 3 ? 'met' : 'missed'} ` +
  `(1/${(yard.core.processSeconds / yard.loopWithHistory.processSeconds).toFixed(1)} of the loop that keeps a history)`);
const coreNs = yard.core.processSeconds * 1e9 / yard.attempts;
const coreMet = isMet(AIMS.coreProcessPerAttempt, coreNs) ? 'met' : 'missed';
console.log(`aim: process per attempt ${aimText(AIMS.coreProcessPerAttempt)}: ${coreNs.toFixed(1)} ns, ${coreMet}`);
console.log(`aim: enqueue per job <= 2x process per attempt: ${enqueueRatio.toFixed(2)}x, ${enqueueRatio <= 2 ? 'met' : 'missed'}`);
const policyEdit = measurePolicyEdit(lab);
for (const line of policyEditLines(policyEdit)) console.log(line);
const check = measureCheck();
console.log('');
for (const line of checkLines(check)) console.log(line);
console.log('');
printShape();  // the code's shape next to issue 32's aims (node scripts/shape.mjs --list names each)
console.log('\nsize            raw bytes   gzip -9');
for (const [name, s] of Object.entries(sizes)) {
  console.log(`${name.padEnd(14)} ${fmt(s.raw).padStart(10)} ${fmt(s.gzip).padStart(9)}`);
}
console.log(`${'total'.padEnd(14)} ${fmt(sizes.wasm.raw + sizes.glue.raw + sizes.api.raw).padStart(10)} ${fmt(totalGzip).padStart(9)}`);
const record = { jobs, seed, attempts: native.attempts, attemptsPerSecond: {
  native: Math.round(rate(native)), batched: Math.round(rate(batched)), perCall: Math.round(rate(perCall)) },
ratio: { batched: +(rate(native) / rate(batched)).toFixed(2), perCall: +(rate(native) / rate(perCall)).toFixed(2) },
clock: { attempts: nativeClock.attempts, attemptsPerSecond: { native: Math.round(rate(nativeClock)), js: Math.round(rate(jsClock)) },
  ratio: +(rate(nativeClock) / rate(jsClock)).toFixed(2) },
storm: { jobs: stormJobs, attempts: nativeStorm.attempts, seconds: { native: nativeStorm.seconds, js: jsStorm.seconds },
  attemptsPerSecond: { native: Math.round(stormRate(nativeStorm)), js: Math.round(stormRate(jsStorm)) } },
stormBudget: { jobs: stormJobs, attempts: nativeBudgetStorm.attempts, retriesDenied: nativeBudgetStorm.retriesDenied,
  seconds: { native: nativeBudgetStorm.seconds, js: jsBudgetStorm.seconds },
  attemptsPerSecond: { native: Math.round(stormRate(nativeBudgetStorm)), js: Math.round(stormRate(jsBudgetStorm)) } },
yardstick: { processAttemptsPerSecond: { core: Math.round(yard.attempts / yard.core.processSeconds),
  loop: Math.round(yard.attempts / yard.loop.processSeconds),
  loopWithHistory: Math.round(yard.attempts / yard.loopWithHistory.processSeconds) },
  enqueueNsPerJob: +ns(yard.core.enqueueSeconds, jobs), processNsPerAttempt: +ns(yard.core.processSeconds, yard.attempts),
  enqueueToProcess: +enqueueRatio.toFixed(2) },
policyEdit, check: Object.fromEntries(Object.entries(check).map(([name, r]) => [name, { bytes: r.bytes,
  native: { wall: r.native.wall, cpu: r.native.cpu }, jq: { wall: r.jq.wall, cpu: r.jq.cpu },
  node: { wall: r.node.wall, cpu: r.node.cpu } }])), sizes, totalGzip };
console.log(`\n${JSON.stringify(record)}`);
// The record `npm run bench:check` compares with the committed baseline (scripts/budgets.mjs).
mkdirSync(RECORDS_DIR, { recursive: true });
writeFileSync(path.join(RECORDS_DIR, 'bench.json'), `${JSON.stringify(record, null, 2)}\n`);
console.log(`record: ${path.relative(process.cwd(), path.join(RECORDS_DIR, 'bench.json'))}`);
