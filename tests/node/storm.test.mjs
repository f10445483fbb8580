// Storms through the JS API (sim.createStorm, sim.runStorm; core/sim/storm.h,
// docs/storm.md): results and their typed arrays, slicing and progress,
// refusals by name, determinism, and native == WebAssembly byte for byte: the
// released fixtures in tests/fixtures/storms/ (which the native suite checks
// too) and, when the native build is there, the native CLI itself.
//
// DLQ_UPDATE_STORM_FIXTURES=1 rewrites the fixtures from the native CLI
// (DLQ_NATIVE_DIR, default build/native) instead of checking them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lab, sim, root, throwsWith } from './helpers.mjs';

const FIXTURE_DIR = path.join(root, 'tests/fixtures/storms');
const NATIVE_DIR = path.resolve(root, process.env.DLQ_NATIVE_DIR ?? 'build/native');
const CLI = path.join(NATIVE_DIR, 'dlq_storm');
const SERIES = ['success', 'outage', 'throttled', 'ready', 'delayed', 'inFlight', 'quarantine'];
// Storm lab II's numbers: the CLI prints them; the released fixtures were made before them.
const NEW_SERIES = ['failed', 'timedOut', 'completed', 'denied', 'serverQueue'];
const NEW_SUMMARY = ['randomFailures', 'timedOut', 'retriesDenied', 'goodput', 'amplification', 'quarantinedByBudget', 'failedJobs'];

/**
 * A released fixture against a run: every number it holds, byte for byte (it stays as released),
 * and the new numbers as they must be for a storm without the new options.
 */
function assertFixtureRun(actual, fixture, label) {
  const { summary, series } = actual;
  const old = Object.fromEntries(Object.keys(fixture.summary).map((k) => [k, summary[k]]));
  assert.deepEqual(old, fixture.summary, `${label}: summary`);
  assert.deepEqual(Object.keys(summary).filter((k) => !(k in fixture.summary)).sort(), [...NEW_SUMMARY].sort());
  for (const key of ['randomFailures', 'timedOut', 'retriesDenied', 'quarantinedByBudget', 'failedJobs']) assert.equal(summary[key], 0);
  assert.equal(summary.amplification, summary.attempts / summary.jobs);
  assert.equal(series.bucketMs, fixture.series.bucketMs, `${label}: bucketMs`);
  assert.equal(series.length, fixture.series.length, `${label}: length`);
  for (const name of SERIES) {
    assert.ok(bytes(series[name]).equals(bytes(Uint32Array.from(fixture.series[name]))), `${label}: ${name}, byte for byte`);
  }
}

// The released fixtures: options as the JS API takes them. Their summaries and
// series are the native build's (written by the update mode above).
const FIXTURES = {
  'outage-full-jitter': {
    jobs: 2000, outage: { startMs: 100, durationMs: 1500 }, workers: 50, workMs: 10, maxAttempts: 6,
    backoff: { kind: 'exponential', baseMs: 50, capMs: 2000, jitter: 'full' }, seed: 7,
  },
  'rate-capacity-decorrelated': {
    jobs: 5000, arrival: { kind: 'rate', perSecond: 2000 }, outage: { startMs: 500, durationMs: 1000 },
    capacity: { perWindow: 300, windowMs: 100 }, workers: 100, workMs: 15, leaseMs: 1000, maxAttempts: 8,
    backoff: { kind: 'exponential', baseMs: 20, capMs: 1000, jitter: 'decorrelated' }, seed: 3,
  },
  'fixed-equal-buckets-25': {
    jobs: 1000, outage: { startMs: 0, durationMs: 300 }, workers: 20, workMs: 7, maxAttempts: 4,
    backoff: { kind: 'fixed', baseMs: 100, jitter: 'equal' }, seed: 11, bucketMs: 25,
  },
  'no-backoff-quarantine': {
    jobs: 500, outage: { startMs: 0, durationMs: 2000 }, workers: 10, workMs: 5, maxAttempts: 5, seed: 1,
  },
  // 60 days of virtual time: past 2^32 ms, where a 32-bit size_t (WebAssembly's) would wrap.
  'sixty-days': {
    jobs: 60, outage: { startMs: 0, durationMs: 86_400_000 }, workers: 1, workMs: 86_399_999, leaseMs: 86_400_000,
    maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 86_400_000, capMs: 86_400_000, jitter: 'full' }, seed: 2,
  },
};

/** The CLI flags for one storm's options (tests/tools/storm.cpp). */
function cliArgs(o) {
  const args = ['--jobs', o.jobs, '--attempts', o.maxAttempts];
  if (o.arrival?.kind === 'rate') args.push('--arrival', `rate:${o.arrival.perSecond}`);
  if (o.arrival?.kind === 'closed') args.push('--arrival', `closed:${o.arrival.clients}`);
  if (o.failurePerMillion) args.push('--failure-rate', `0.${String(o.failurePerMillion).padStart(6, '0')}`);
  if (o.budget) args.push('--budget', o.budget);  // the text form
  if (o.refusedRetry) args.push('--refused-retry', o.refusedRetry);
  if (o.server) {
    args.push('--server', `${o.server.capacityPerSecond}:${o.server.timeoutMs}`);
    if (o.server.dropMs) args.push('--drop', `${o.server.dropStartMs}:${o.server.dropMs}:${o.server.dropPerSecond}`);
  }
  if (o.outage) args.push('--outage', `${o.outage.startMs}:${o.outage.durationMs}`);
  if (o.capacity) args.push('--capacity', `${o.capacity.perWindow}:${o.capacity.windowMs}`);
  for (const [key, flag] of [['workers', '--workers'], ['workMs', '--work-ms'], ['leaseMs', '--lease-ms'],
    ['seed', '--seed'], ['bucketMs', '--bucket-ms']]) {
    if (o[key] !== undefined) args.push(flag, o[key]);
  }
  const b = o.backoff ?? { kind: 'none' };
  const cap = b.capMs === undefined ? '' : `:${b.capMs}`;
  args.push('--backoff', b.kind === 'none' ? 'none' : `${b.kind}:${b.baseMs}${cap}`);
  args.push('--jitter', b.jitter ?? 'none', '--json', '--series');
  return args.map(String);
}

/** The native CLI's { summary, series } for `options` (series as plain arrays). */
function native(options) {
  const r = spawnSync(CLI, cliArgs(options), { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `${CLI} failed: ${r.stderr}`);
  const [run] = JSON.parse(r.stdout);
  return { summary: run.summary, series: run.series };
}

/** The bytes of a Uint32Array, little-endian (as wasm memory holds them). */
const bytes = (array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
const readFixture = (name) => JSON.parse(readFileSync(path.join(FIXTURE_DIR, `${name}.json`), 'utf8'));

/** Asserts a JS result equals a plain { summary, series } byte for byte. */
function assertSameRun(actual, expected, label) {
  assert.deepEqual(actual.summary, expected.summary, `${label}: summary`);
  assert.equal(actual.series.bucketMs, expected.series.bucketMs, `${label}: bucketMs`);
  assert.equal(actual.series.length, expected.series.length, `${label}: length`);
  for (const name of [...SERIES, ...NEW_SERIES]) {
    assert.ok(actual.series[name] instanceof Uint32Array, `${label}: ${name} is a Uint32Array`);
    assert.ok(bytes(actual.series[name]).equals(bytes(Uint32Array.from(expected.series[name]))), `${label}: ${name}, byte for byte`);
  }
}

const small = {
  jobs: 300, outage: { startMs: 0, durationMs: 800 }, workers: 20, workMs: 10, maxAttempts: 6,
  backoff: { kind: 'exponential', baseMs: 50, capMs: 1000, jitter: 'full' }, seed: 5,
};

if (process.env.DLQ_UPDATE_STORM_FIXTURES === '1') {
  test('update the storm fixtures from the native CLI', () => {
    for (const [name, options] of Object.entries(FIXTURES)) {
      const run = native(options);
      writeFileSync(path.join(FIXTURE_DIR, `${name}.json`), `${JSON.stringify({ options, ...run })}\n`);
    }
    writeFileSync(path.join(FIXTURE_DIR, 'fixtures.txt'),
      `# Storm fixtures (tests/node/storm.test.mjs writes them; the native and Node suites read them)\n${Object.keys(FIXTURES).join('\n')}\n`);
  });
}

test('runStorm: a summary whose counts add up, and series of Uint32Arrays, one value per bucket', () => {
  const { summary, series } = sim.runStorm(small);
  assert.deepEqual(Object.keys(summary), ['jobs', 'attempts', 'successes', 'failures', 'outageFailures', 'throttled',
    'randomFailures', 'timedOut', 'wastedAttempts', 'retriesDenied', 'goodput', 'amplification', 'peakRetryRate',
    'peakRateAfterRecovery', 'drainMs', 'completed', 'quarantined', 'quarantinedByBudget', 'failedJobs', 'worstCase']);
  assert.equal(summary.jobs, 300);
  assert.equal(summary.completed + summary.quarantined, 300);
  assert.equal(summary.attempts, summary.successes + summary.failures);
  assert.equal(summary.failures, summary.outageFailures + summary.throttled);
  assert.equal(summary.wastedAttempts, summary.failures);
  assert.ok(summary.outageFailures > 0);
  assert.equal(summary.throttled, 0);
  const { attempts, timeMs } = lab.createQueue({ maxAttempts: 6, backoff: small.backoff }).worstCase();
  assert.deepEqual(summary.worstCase, { attempts, timeMs });
  assert.equal(series.bucketMs, 10);
  assert.equal(series.length, Math.floor(summary.drainMs / 10) + 1);
  for (const name of SERIES) {
    assert.ok(series[name] instanceof Uint32Array, name);
    assert.equal(series[name].length, series.length, name);
  }
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  assert.equal(sum(series.success), summary.successes);
  assert.equal(sum(series.outage), summary.outageFailures);
  const last = series.length - 1;
  assert.equal(series.ready[last] + series.delayed[last] + series.inFlight[last], 0);
  assert.equal(series.quarantine[last], summary.quarantined);
  // An outage from 0: nothing succeeds before it ends.
  assert.equal(sum(series.success.subarray(0, 80)), 0);
});

test('a storm runs in slices: progress rises to 1, run() says when it is over, and the result is the same', () => {
  const whole = sim.runStorm(small);
  const storm = sim.createStorm(small);
  assert.equal(storm.progress, 0);
  let previous = 0;
  let slices = 0;
  while (!storm.run(500)) {
    slices++;
    assert.ok(storm.progress >= previous);
    previous = storm.progress;
    if (slices === 3) {
      const partial = storm.result();
      assert.ok(partial.summary.completed + partial.summary.quarantined < 300);
      assert.ok(partial.series.length <= whole.series.length);
    }
  }
  assert.ok(slices > 3);
  assert.equal(storm.progress, 1);
  assert.equal(storm.run(0), true);
  const sliced = storm.result();
  storm.dispose();
  assert.equal(storm.disposed, true);
  assertSameRun(sliced, { summary: whole.summary, series: { ...whole.series } }, 'sliced');
  // The arrays are the caller's: they outlive the storm.
  assert.ok(sliced.series.success.some((n) => n > 0));
  throwsWith(assert, () => storm.run(1), Error, 'disposed', /this storm has been disposed/);
  throwsWith(assert, () => storm.progress, Error, 'disposed', /disposed/);
  throwsWith(assert, () => storm.result(), Error, 'disposed', /disposed/);
  throwsWith(assert, () => storm.dispose(), Error, 'disposed', /disposed/);
});

test('the same options give the same storm; another seed gives another', () => {
  const a = sim.runStorm(small);
  const b = sim.runStorm({ ...small });
  assertSameRun(a, b, 'again');
  const c = sim.runStorm({ ...small, seed: 6 });
  assert.ok(!bytes(c.series.success).equals(bytes(a.series.success)));
});

test('storm options are refused by name: wrong types (TypeError), ranges and names (RangeError); nothing is kept', () => {
  const used = sim.heapBudget().usedBytes;
  const bad = (change, Kind, code, pattern) => throwsWith(assert, () => sim.createStorm({ ...small, ...change }), Kind, code, pattern);
  throwsWith(assert, () => sim.createStorm(null), TypeError, 'invalid-type', /^options must be an object such as/);
  bad({ jobs: '5' }, TypeError, 'invalid-type', /^jobs must be an integer from 10 to 1000000, got "5" \(a string\)$/);
  bad({ jobs: 5 }, RangeError, 'out-of-range', /^jobs must be an integer from 10 to 1000000, got 5$/);
  bad({ jobs: 10.5 }, RangeError, 'out-of-range', /^jobs must be an integer from 10 to 1000000, got 10\.5$/);
  bad({ jobs: undefined }, TypeError, 'invalid-type', /^jobs must be an integer from 10 to 1000000, got undefined$/);
  bad({ arrival: 'burst' }, TypeError, 'invalid-type', /^arrival must be an object such as/);
  bad({ arrival: { kind: 7 } }, TypeError, 'invalid-type', /^arrival\.kind must be 'burst', 'rate' or 'closed', got 7$/);
  bad({ arrival: { kind: 'storm' } }, RangeError, 'invalid-argument', /^arrival\.kind must be one of "burst", "rate", "closed", got "storm"$/);
  bad({ arrival: { kind: 'rate' } }, TypeError, 'invalid-type', /^arrival\.perSecond must be an integer from 1 to 10000000, got undefined$/);
  bad({ arrival: { kind: 'rate', perSecond: 0 } }, RangeError, 'out-of-range', /^arrival\.perSecond must be an integer from 1 to 10000000, got 0$/);
  bad({ outage: 5000 }, TypeError, 'invalid-type', /^outage must be an object such as \{ startMs: 0, durationMs: 5000 \} or null, got 5000$/);
  bad({ outage: { startMs: 0 } }, TypeError, 'invalid-type', /^outage\.durationMs must be an integer from 0 to 86400000, got undefined$/);
  bad({ outage: { startMs: -1, durationMs: 5 } }, RangeError, 'out-of-range', /^outage\.startMs must be an integer from 0 to 86400000, got -1$/);
  bad({ capacity: { perWindow: 'x', windowMs: 100 } }, TypeError, 'invalid-type', /^capacity\.perWindow must be an integer/);
  bad({ capacity: { perWindow: 5, windowMs: 0 } }, RangeError, 'out-of-range', /^capacity\.windowMs must be an integer from 1 to 86400000, got 0$/);
  bad({ workers: 100001 }, RangeError, 'out-of-range', /^workers must be an integer from 1 to 100000, got 100001$/);
  bad({ workers: true }, TypeError, 'invalid-type', /^workers must be an integer from 1 to 100000, got true \(a boolean\)$/);
  bad({ workMs: 0 }, RangeError, 'out-of-range', /^workMs must be an integer from 1 to 86400000, got 0$/);
  bad({ leaseMs: 10 }, RangeError, 'out-of-range',
    /^leaseMs must be an integer from workMs \+ 1 \(11\) to 86400000 \(an attempt ends before its lease\), got 10$/);
  bad({ leaseMs: '1' }, TypeError, 'invalid-type', /^leaseMs must be an integer from 1 to 86400000/);
  bad({ maxAttempts: undefined }, TypeError, 'invalid-type', /^maxAttempts must be an integer from 1 to 1000000, got undefined$/);
  bad({ maxAttempts: 0 }, RangeError, 'out-of-range', /^maxAttempts must be an integer from 1 to 1000000, got 0$/);
  bad({ backoff: 'full' }, TypeError, 'invalid-type', /^backoff must be an object such as/);
  bad({ backoff: { kind: 'linear' } }, RangeError, 'invalid-argument', /^backoff\.kind must be one of "none", "fixed", "exponential", got "linear"$/);
  bad({ backoff: { kind: 'none', jitter: 'full' } }, RangeError, 'invalid-argument', /^backoff\.jitter must be "none" when backoff\.kind is "none"/);
  bad({ backoff: { ...small.backoff, capMs: 10 } }, RangeError, 'out-of-range', /^backoff\.capMs must be an integer from backoff\.baseMs \(50\)/);
  bad({ seed: -1 }, RangeError, 'out-of-range', /^seed must be an integer from 0 to 4294967295, got -1$/);
  bad({ bucketMs: NaN }, RangeError, 'out-of-range', /^bucketMs must be an integer from 0 to 86400000, got NaN$/);
  bad({ bucketMs: '10' }, TypeError, 'invalid-type', /^bucketMs must be an integer from 0 to 86400000, got "10" \(a string\)$/);
  throwsWith(assert, () => sim.createStorm({ get jobs() { throw new Error('boom'); } }), TypeError, 'invalid-type',
    /^options could not be read: boom$/);
  assert.equal(sim.heapBudget().usedBytes, used);
  const storm = sim.createStorm(small);
  throwsWith(assert, () => storm.run('10'), TypeError, 'invalid-type', /^maxEvents must be a non-negative integer or Infinity, got "10" \(a string\)$/);
  throwsWith(assert, () => storm.run(-1), RangeError, 'out-of-range', /^maxEvents must be a non-negative integer or Infinity, got -1$/);
  throwsWith(assert, () => storm.run(1.5), RangeError, 'out-of-range', /got 1\.5$/);
  assert.equal(storm.progress, 0, 'a refused run changes nothing');
  storm.dispose();
  assert.equal(sim.heapBudget().usedBytes, used);
});

test('the heap budget refuses a storm it has no room for, naming createStorm', () => {
  const { limitBytes, usedBytes } = sim.heapBudget();
  sim.setHeapBudget(usedBytes + 1000);
  try {
    throwsWith(assert, () => sim.createStorm({ ...small, jobs: 1_000_000 }), Error, 'resource-exhausted', /^createStorm needs \d+ bytes/);
  } finally {
    sim.setHeapBudget(limitBytes);
  }
  assert.equal(sim.heapBudget().usedBytes, usedBytes);
});

test('the herd preset (docs/storm.md): without jitter the post-recovery peak is at least 10x full jitter\'s', () => {
  const herd = { jobs: 10_000, outage: { startMs: 0, durationMs: 5000 }, workers: 10_000, workMs: 10, maxAttempts: 10,
    backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, jitter: 'none' }, seed: 1 };
  const none = sim.runStorm(herd).summary;
  const full = sim.runStorm({ ...herd, backoff: { ...herd.backoff, jitter: 'full' } }).summary;
  assert.equal(none.peakRateAfterRecovery, 1_000_000);  // all 10,000 in one 10 ms bucket
  assert.ok(none.peakRateAfterRecovery >= 10 * full.peakRateAfterRecovery, `${none.peakRateAfterRecovery} vs ${full.peakRateAfterRecovery}`);
});

test('the released fixtures: WebAssembly gives the native summaries and series, byte for byte', () => {
  const names = readFileSync(path.join(FIXTURE_DIR, 'fixtures.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  assert.deepEqual(names, Object.keys(FIXTURES));
  for (const name of names) {
    const fixture = readFixture(name);
    assert.deepEqual(fixture.options, FIXTURES[name], `${name}: the options the fixture was made from`);
    assertFixtureRun(sim.runStorm(fixture.options), fixture, name);
  }
});

test('native == WebAssembly, byte for byte, through the native CLI', (t) => {
  if (!existsSync(CLI)) {
    t.skip(`no native build at ${CLI} (set DLQ_NATIVE_DIR); the fixtures above still compare the two`);
    return;
  }
  const cases = [...Object.values(FIXTURES), small,
    { ...small, jobs: 20_000, arrival: { kind: 'rate', perSecond: 5000 }, capacity: { perWindow: 40, windowMs: 10 },
      backoff: { kind: 'exponential', baseMs: 10, capMs: 3000, jitter: 'decorrelated' } },
    // Storm lab II: a failure rate with the outage, each budget, a server with its drop, a closed loop.
    { ...small, failurePerMillion: 125_000, budget: 'grpc:10:0.1' },
    { ...small, budget: 'aws-standard', refusedRetry: 'fail' },
    { ...small, jobs: 3000, arrival: { kind: 'closed', clients: 40 }, failurePerMillion: 300_000, budget: 'finagle:20:10:1000' },
    { ...small, jobs: 5000, arrival: { kind: 'rate', perSecond: 600 }, workers: 100_000, outage: null, maxAttempts: 3,
      server: { capacityPerSecond: 1000, timeoutMs: 500, dropStartMs: 1000, dropMs: 1000, dropPerSecond: 100 } }];
  for (const [i, options] of cases.entries()) assertSameRun(sim.runStorm(options), native(options), `case ${i}`);
});

test('a storm set runs every storm on the first one\'s grid, equal to each run alone on that grid', () => {
  const first = { jobs: 2000, maxAttempts: 6, outage: { startMs: 0, durationMs: 3000 },
    backoff: { kind: 'exponential', baseMs: 100, capMs: 5000, jitter: 'none' } };
  const second = { ...first, jobs: 50000, backoff: { ...first.backoff, jitter: 'full' } };
  const set = sim.createStormSet([first, second]);
  try {
    assert.equal(set.size, 2);
    let slices = 0;
    while (!set.run(10000)) slices++;
    assert.ok(slices > 2);
    assert.equal(set.current, 2);
    const [a, b] = [set.result(0), set.result(1)];
    assert.equal(b.series.bucketMs, a.series.bucketMs);
    const alone = sim.runStorm({ ...second, bucketMs: a.series.bucketMs });
    assert.deepEqual(b.summary, alone.summary);
    for (const name of sim.stormSeries) assert.deepEqual(b.series[name], alone.series[name], name);
    assert.throws(() => set.result(2), (e) => e.code === 'out-of-range' && /^i must be an integer from 0 to 1/.test(e.message));
  } finally {
    set.dispose();
  }
  assert.deepEqual([...sim.stormSeries], ['success', 'outage', 'throttled', 'ready', 'delayed', 'inFlight', 'quarantine',
    'failed', 'timedOut', 'completed', 'denied', 'serverQueue']);
});

test('a storm set refuses a bad run by its index, and nothing runs', () => {
  assert.throws(() => sim.createStormSet([{ jobs: 100, maxAttempts: 3 }, { jobs: 5, maxAttempts: 3 }]), (e) => {
    assert.equal(e.code, 'out-of-range');
    assert.equal(e.index, 1);
    assert.match(e.message, /^runs\[1\]: jobs must be an integer from 10 to 1000000, got 5$/);
    return true;
  });
  assert.throws(() => sim.createStormSet([{ jobs: '100', maxAttempts: 3 }]), (e) => e.code === 'invalid-type' && e.index === 0 && /^runs\[0\]: jobs/.test(e.message));
  assert.throws(() => sim.createStormSet('x'), (e) => e.code === 'invalid-type' && /^runs must be an array/.test(e.message));
});
