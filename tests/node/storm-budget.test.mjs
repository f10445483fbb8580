// Storm lab II through the JS API (sim.runStorm; docs/storm.md "Retry budgets",
// "Closed and open loops", "A server and a timeout", "Presets that reproduce
// published results"): each published result as a claim on the core's numbers
// in WebAssembly (tests/native/storm_budget_test.cpp makes the same claims
// natively), the new summary numbers and series, and their refusals by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sim, root, throwsWith } from './helpers.mjs';

const CLI = path.join(path.resolve(root, process.env.DLQ_NATIVE_DIR ?? 'build/native'), 'dlq_storm');

/** Completions per second over [fromMs, toMs), from the series. */
function goodputBetween({ series }, fromMs, toMs) {
  const w = series.bucketMs;
  assert.equal(fromMs % w, 0);
  assert.equal(toMs % w, 0);
  let sum = 0;
  for (let b = fromMs / w; b < toMs / w && b < series.length; b += 1) sum += series.completed[b];
  return (sum * 1000) / (toMs - fromMs);
}

/** Retries refused over retries wanted (made + refused). */
const deniedShare = (s) => s.retriesDenied / (s.attempts - s.jobs + s.retriesDenied);

const grpcCutoff = (failurePerMillion) => ({
  jobs: 100_000, arrival: { kind: 'rate', perSecond: 10_000 }, failurePerMillion, maxAttempts: 3, budget: 'grpc:10:0.1',
});
const metastable = {
  jobs: 30_000, arrival: { kind: 'rate', perSecond: 600 }, workers: 100_000, maxAttempts: 3, bucketMs: 100,
  server: { capacityPerSecond: 1000, timeoutMs: 500, dropStartMs: 5000, dropMs: 1000, dropPerSecond: 100 },
};
const overload = (closed, backoff) => ({
  jobs: 20_000, arrival: closed ? { kind: 'closed', clients: 50 } : { kind: 'rate', perSecond: 2000 },
  capacity: { perWindow: 100, windowMs: 100 }, workers: 100_000, maxAttempts: 5,
  ...(backoff ? { backoff: { kind: 'exponential', baseMs: 100, capMs: 5000, jitter: 'full' } } : {}),
});

test('gRPC throttling cuts retries off near ratio / (1 + ratio): grpc:10:0.1 flows at 5% failures, stops at 15%', () => {
  assert.ok(deniedShare(sim.runStorm(grpcCutoff(50_000)).summary) < 0.05);
  assert.ok(deniedShare(sim.runStorm(grpcCutoff(150_000)).summary) > 0.95);
  let crossing = null;
  for (let ppm = 50_000; ppm <= 150_000 && crossing === null; ppm += 5000) {
    if (deniedShare(sim.runStorm(grpcCutoff(ppm)).summary) > 0.5) crossing = ppm;
  }
  assert.ok(crossing >= 80_000 && crossing <= 100_000, `half the retries refused from ${crossing} per million`);
});

test('the AWS bucket: a full bucket pays for 100 retries, then retries stop', () => {
  const options = { jobs: 1000, outage: { startMs: 0, durationMs: 60_000 }, maxAttempts: 3, budget: 'aws-standard' };
  const { summary } = sim.runStorm(options);
  assert.equal(summary.attempts - summary.jobs, 100);
  assert.equal(summary.retriesDenied, 1000);
  assert.equal(summary.quarantinedByBudget, 1000);
  const failed = sim.runStorm({ ...options, budget: { kind: 'aws-standard' }, refusedRetry: 'fail' }).summary;
  assert.equal(failed.failedJobs, 1000);
  assert.equal(failed.quarantined, 0);
});

test('metastable: with three attempts and no budget, goodput stays near zero long after the capacity drop', () => {
  const run = sim.runStorm(metastable);
  assert.ok(goodputBetween(run, 0, 5000) > 590);
  assert.ok(goodputBetween(run, 10_000, 50_000) < 6, `goodput ${goodputBetween(run, 10_000, 50_000)}`);
  assert.ok(run.summary.amplification > 2.7);
  assert.ok(Math.max(...run.series.serverQueue) > 30_000, 'the server\'s queue keeps growing after the trigger');
});

test('metastable: the same trigger with a budget, or closed-loop clients, recovers within a few timeouts', () => {
  for (const budget of ['grpc:10:0.1', 'aws-standard']) {
    const run = sim.runStorm({ ...metastable, budget });
    assert.ok(goodputBetween(run, 8000, 50_000) > 590, `${budget}: ${goodputBetween(run, 8000, 50_000)}`);
    assert.ok(run.summary.completed > 29_000);
  }
  const closed = sim.runStorm({ ...metastable, arrival: { kind: 'closed', clients: 6 } });
  assert.ok(goodputBetween(closed, 7000, 50_000) > 590);
  assert.equal(closed.summary.completed, 30_000);
});

test('open versus closed loop: backoff barely lowers open-loop amplification, and clearly lowers closed-loop', () => {
  const amp = (closed, backoff) => sim.runStorm(overload(closed, backoff)).summary.amplification;
  const [open, openBackoff, closed, closedBackoff] = [amp(false, false), amp(false, true), amp(true, false), amp(true, true)];
  assert.ok(openBackoff > 0.9 * open, `open ${open} -> ${openBackoff}`);
  assert.ok(closedBackoff < 0.6 * closed, `closed ${closed} -> ${closedBackoff}`);
});

test('the new numbers: retriesDenied, goodput, amplification, and the series that add up to them', () => {
  const { summary: s, series } = sim.runStorm({ ...metastable, jobs: 3000, budget: 'finagle:20:10:10000' });
  assert.equal(s.amplification, s.attempts / s.jobs);
  assert.equal(s.goodput, (s.completed * 1000) / s.drainMs);
  assert.equal(series.completed.reduce((a, b) => a + b, 0), s.completed);
  assert.equal(series.denied.reduce((a, b) => a + b, 0), s.retriesDenied);
  assert.equal(series.timedOut.reduce((a, b) => a + b, 0), s.timedOut);
  assert.equal(s.failures, s.outageFailures + s.throttled + s.randomFailures + s.timedOut);
  assert.equal(s.completed + s.quarantined + s.failedJobs, s.jobs);
  // Text and object budgets are the same budget.
  const object = sim.runStorm({ ...metastable, jobs: 3000, budget: { kind: 'finagle', percent: 20, minPerSecond: 10, windowMs: 10_000 } });
  assert.deepEqual(object.summary, s);
});

test('storm II options are refused by name, saying what was expected and what was given', () => {
  const base = { jobs: 100, maxAttempts: 3 };
  const bad = (extra, Kind, code, pattern) => throwsWith(assert, () => sim.createStorm({ ...base, ...extra }), Kind, code, pattern);
  bad({ budget: 'grpc:10' }, RangeError, 'invalid-argument',
    /^budget must be grpc:MAX_TOKENS:TOKEN_RATIO, aws-standard or finagle:PERCENT:MIN_PER_S:WINDOW_MS, got "grpc:10"$/);
  bad({ budget: 'grpc:10:0.0001' }, RangeError, 'invalid-argument', /^budget: TOKEN_RATIO must be a decimal from 0\.001 to 1/);
  bad({ budget: 5 }, TypeError, 'invalid-type', /^budget must be an object such as/);
  bad({ budget: { kind: 'hystrix' } }, RangeError, 'invalid-argument', /^budget\.kind must be one of "grpc", "aws-standard", "finagle", got "hystrix"$/);
  bad({ budget: { kind: 'grpc', maxTokens: 0 } }, RangeError, 'out-of-range', /^budget\.maxTokens must be an integer from 1 to 1000, got 0$/);
  bad({ budget: { kind: 'finagle', windowMs: 1500 } }, RangeError, 'out-of-range', /^budget\.windowMs must be whole seconds from 1000 to 60000/);
  bad({ refusedRetry: 'drop' }, RangeError, 'invalid-argument', /^refusedRetry must be one of "quarantine", "fail", got "drop"$/);
  bad({ failurePerMillion: 0.5 }, RangeError, 'out-of-range', /^failurePerMillion must be an integer from 0 to 1000000, got 0\.5$/);
  bad({ failurePerMillion: '5' }, TypeError, 'invalid-type', /^failurePerMillion must be an integer/);
  bad({ arrival: { kind: 'closed' } }, TypeError, 'invalid-type', /^arrival\.clients must be an integer from 1 to 100000, got undefined$/);
  bad({ server: { capacityPerSecond: 10 } }, TypeError, 'invalid-type', /^server\.timeoutMs must be an integer from 1 to 86400000, got undefined$/);
  bad({ server: { capacityPerSecond: 0, timeoutMs: 5 } }, RangeError, 'out-of-range', /^server\.capacityPerSecond must be an integer from 1 to 10000000, got 0$/);
});

test('storm cost: a failure rate, a server or a closed loop leave the time open; the attempts bound stays', () => {
  const base = { jobs: 1000, maxAttempts: 4 };
  for (const extra of [{ failurePerMillion: 1 }, { server: { capacityPerSecond: 10, timeoutMs: 50 } }, { arrival: { kind: 'closed', clients: 5 } }]) {
    assert.deepEqual(sim.stormCost({ ...base, ...extra }), { attempts: 4000, horizonMs: null });
  }
});

test('the default preset: after a 5 s outage into 1,500 successes a second, every jitter completes more than none', () => {
  const run = (jitter) => sim.runStorm({
    jobs: 10_000, outage: { startMs: 0, durationMs: 5000 }, capacity: { perWindow: 1500, windowMs: 1000 }, workers: 10_000,
    maxAttempts: 10, backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, jitter },
  }).summary;
  const [none, full, equal, decorrelated] = ['none', 'full', 'equal', 'decorrelated'].map(run);
  assert.equal(none.completed, 6000);
  assert.ok(full.completed > 9900);
  assert.equal(equal.completed, 10_000);
  assert.ok(decorrelated.completed > none.completed);
  assert.ok(decorrelated.quarantined > full.quarantined, 'decorrelated jitter spends its attempts inside the outage');
});

test('the command line: --json carries retriesDenied, goodput and amplification; bad storm II flags are refused by name, exit 2', (t) => {
  if (!existsSync(CLI)) {
    t.skip(`no native build at ${CLI} (set DLQ_NATIVE_DIR)`);
    return;
  }
  const run = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });
  const ok = run('--jobs', '1000', '--outage', '0:60000', '--attempts', '3', '--budget', 'aws-standard', '--json');
  assert.equal(ok.status, 0, ok.stderr);
  const [{ summary }] = JSON.parse(ok.stdout);
  assert.equal(summary.retriesDenied, 1000);
  assert.equal(summary.amplification, 1.1);
  assert.equal(summary.goodput, 0);
  assert.deepEqual(summary, sim.runStorm({ jobs: 1000, outage: { startMs: 0, durationMs: 60_000 }, maxAttempts: 3, budget: 'aws-standard' }).summary);
  const table = run('--jobs', '1000', '--attempts', '3', '--failure-rate', '0.05', '--budget', 'grpc:10:0.1');
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /failure rate 0\.05; budget grpc:10:0\.1 \(a refused retry: quarantine\)/);
  assert.match(table.stdout, / denied +goodput\/s +ampl\./);
  const refused = (args, message) => {
    const r = run('--jobs', '1000', '--attempts', '3', ...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.equal(r.stderr, `dlq_storm: ${message}\n`);
    assert.equal(r.stdout, '', 'nothing runs');
  };
  refused(['--budget', 'grpc:10'],
    '--budget must be grpc:MAX_TOKENS:TOKEN_RATIO, aws-standard or finagle:PERCENT:MIN_PER_S:WINDOW_MS, got "grpc:10"');
  refused(['--budget', 'grpc:0:0.1'], '--budget: budget.maxTokens must be an integer from 1 to 1000, got 0');
  refused(['--budget', 'finagle:20:10:500'], '--budget: budget.windowMs must be an integer from 1000 to 60000, got 500');
  refused(['--budget', 'grpc:10:1.5'], '--budget: TOKEN_RATIO must be a decimal from 0.001 to 1 with at most 3 decimals, got "1.5"');
  refused(['--failure-rate', '5%'], '--failure-rate must be a probability from 0 to 1 with at most 6 decimals, got "5%"');
  refused(['--failure-rate', '1.5'], '--failure-rate must be a probability from 0 to 1 with at most 6 decimals, got "1.5"');
  refused(['--refused-retry', 'drop'], '--refused-retry must be quarantine or fail, got "drop"');
  refused(['--drop', '0:100:5'], '--drop needs --server (a drop is the server\'s capacity dropping), got no --server');
  refused(['--server', '0:500'], '--server: server.capacityPerSecond must be an integer from 1 to 10000000, got 0');
  refused(['--arrival', 'closed:0'], '--arrival: arrival.clients must be an integer from 1 to 100000, got 0');
});
