// The contention experiment through the JS API (sim.runContention()): the same
// numbers as the native build (tests/native/contention_test.cpp pins the same
// totals), the defaults, the published ordering, and refusals that name the option.
// The model itself is tested natively, from traced runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sim, throwsWith } from './helpers.mjs';

const STRATEGIES = ['none', 'exponential', 'equal', 'full', 'decorrelated'];

test('runContention() gives the native build\'s numbers, bit for bit (25 clients, 4 runs, seed 2024)', () => {
  // Totals over the 4 runs: write calls and the sum of the runs' completion times in µs.
  const pinned = {
    none: [879, 2_755_947],
    exponential: [901, 85_123_562],
    equal: [570, 8_603_468],
    full: [545, 5_951_856],
    decorrelated: [540, 3_873_544],
  };
  for (const strategy of STRATEGIES) {
    const [calls, us] = pinned[strategy];
    const result = sim.runContention({ clients: 25, strategy, runs: 4, seed: 2024 });
    assert.deepEqual(Object.keys(result).sort(), ['meanCalls', 'meanCompletionMs']);
    assert.equal(result.meanCalls, calls / 4, strategy);
    assert.equal(result.meanCompletionMs, us / 4000, strategy);
    assert.deepEqual(sim.runContention({ clients: 25, strategy, runs: 4, seed: 2024 }), result);  // deterministic
    assert.notDeepEqual(sim.runContention({ clients: 25, strategy, runs: 4, seed: 2025 }), result);
  }
});

test('the defaults are the published experiment\'s: base 5 ms, cap 2000 ms; and seed 1, one run', () => {
  for (const strategy of STRATEGIES) {
    assert.deepEqual(sim.runContention({ clients: 30, strategy }),
      sim.runContention({ clients: 30, strategy, baseMs: 5, capMs: 2000, seed: 1, runs: 1 }));
  }
  // A longer cap changes plain exponential backoff (it reaches 2 s at n = 9) ...
  assert.notDeepEqual(sim.runContention({ clients: 100, strategy: 'exponential', capMs: 100 }),
    sim.runContention({ clients: 100, strategy: 'exponential' }));
  // ... and none ignores base and cap.
  assert.deepEqual(sim.runContention({ clients: 30, strategy: 'none', baseMs: 50, capMs: 60 }),
    sim.runContention({ clients: 30, strategy: 'none' }));
  // One client never contends: one call, four hops of about 10 ms.
  const alone = sim.runContention({ clients: 1, strategy: 'full', runs: 50 });
  assert.equal(alone.meanCalls, 1);
  assert.ok(alone.meanCompletionMs > 37 && alone.meanCompletionMs < 43, String(alone.meanCompletionMs));
});

test('the published ordering at 50 and 100 clients: jitter cuts the work and the time of plain exponential backoff', () => {
  for (const clients of [50, 100]) {
    const r = Object.fromEntries(STRATEGIES.map((strategy) => [strategy, sim.runContention({ clients, strategy, runs: 20 })]));
    const calls = (s) => r[s].meanCalls;
    const ms = (s) => r[s].meanCompletionMs;
    assert.ok(calls('none') > calls('exponential'), `${clients}: none ${calls('none')} vs exponential ${calls('exponential')}`);
    for (const jittered of ['equal', 'full', 'decorrelated']) {
      assert.ok(calls('exponential') > 1.5 * calls(jittered), `${clients} clients, ${jittered}`);
      assert.ok(ms('exponential') > 5 * ms(jittered), `${clients} clients, ${jittered}`);
      assert.ok(ms('none') < ms(jittered), `${clients} clients, ${jittered}`);
    }
    assert.ok(calls('full') < calls('decorrelated'));
    assert.ok(calls('full') < calls('equal'));
    assert.ok(ms('equal') > ms('full'));
  }
});

test('runContention() refuses bad options by name, with what was expected and what was given', () => {
  const ok = { clients: 10, strategy: 'full' };
  const types = [
    [{ strategy: 'full' }, /^clients must be an integer from 1 to 10000, got undefined$/],
    [{ ...ok, clients: '10' }, /^clients must be an integer from 1 to 10000, got "10" \(a string\)$/],
    [{ ...ok, clients: 10n }, /^clients must be an integer from 1 to 10000, got 10n \(a bigint\)$/],
    [{ clients: 10 }, /^strategy must be one of "none", "exponential", "equal", "full", "decorrelated", got undefined$/],
    [{ ...ok, strategy: 3 }, /^strategy must be one of .*, got 3$/],
    [{ ...ok, baseMs: null }, /^baseMs must be an integer from 1 to 100000, got null$/],
    [{ ...ok, capMs: '2000' }, /^capMs must be an integer from 1 to 1000000, got "2000" \(a string\)$/],
    [{ ...ok, seed: true }, /^seed must be an integer from 0 to 4294967295, got true \(a boolean\)$/],
    [{ ...ok, runs: [] }, /^runs must be an integer from 1 to 1000, got an array$/],
  ];
  for (const [options, pattern] of types) throwsWith(assert, () => sim.runContention(options), TypeError, 'invalid-type', pattern);
  const ranges = [
    [{ ...ok, clients: 0 }, /^clients must be an integer from 1 to 10000, got 0$/],
    [{ ...ok, clients: 10001 }, /^clients must be an integer from 1 to 10000, got 10001$/],
    [{ ...ok, clients: 2.5 }, /^clients must be an integer from 1 to 10000, got 2\.5$/],
    [{ ...ok, clients: NaN }, /^clients must be an integer from 1 to 10000, got NaN$/],
    [{ ...ok, baseMs: 0 }, /^baseMs must be an integer from 1 to 100000, got 0$/],
    [{ ...ok, baseMs: Infinity }, /^baseMs must be an integer from 1 to 100000, got Infinity$/],
    [{ ...ok, baseMs: 50, capMs: 49 }, /^capMs must be an integer from baseMs \(50\) to 1000000, got 49$/],
    [{ ...ok, capMs: 4 }, /^capMs must be an integer from baseMs \(5\) to 1000000, got 4$/],
    [{ ...ok, capMs: 1e6 + 1 }, /^capMs must be an integer from 1 to 1000000, got 1000001$/],
    [{ ...ok, seed: -1 }, /^seed must be an integer from 0 to 4294967295, got -1$/],
    [{ ...ok, seed: 2 ** 32 }, /^seed must be an integer from 0 to 4294967295, got 4294967296$/],
    [{ ...ok, runs: 0 }, /^runs must be an integer from 1 to 1000, got 0$/],
    [{ ...ok, runs: 1001 }, /^runs must be an integer from 1 to 1000, got 1001$/],
    [{ ...ok, runs: 1e300 }, /^runs must be an integer from 1 to 1000, got 1e\+300$/],
  ];
  for (const [options, pattern] of ranges) throwsWith(assert, () => sim.runContention(options), RangeError, 'out-of-range', pattern);
  for (const strategy of ['Full', '', 'jitter', 'full ']) {
    throwsWith(assert, () => sim.runContention({ ...ok, strategy }), RangeError, 'invalid-argument',
      /^strategy must be one of "none", "exponential", "equal", "full", "decorrelated", got ".*"$/);
  }
  throwsWith(assert, () => sim.runContention({ ...ok, strategy: 'x'.repeat(100_000) }), RangeError, 'too-large', /^strategy /);
  for (const options of [undefined, null, 'full', 10, [ok]]) {
    throwsWith(assert, () => sim.runContention(options), TypeError, 'invalid-type',
      /^options must be an object such as \{ clients: 100, strategy: 'full' \}, got /);
  }
  const throwing = { clients: 10, get strategy() { throw new Error('boom'); } };
  throwsWith(assert, () => sim.runContention(throwing), TypeError, 'invalid-type', /^options could not be read: boom$/);
  // The extremes are accepted.
  assert.equal(sim.runContention({ clients: 1, strategy: 'decorrelated', baseMs: 100000, capMs: 1000000, seed: 2 ** 32 - 1, runs: 1 }).meanCalls, 1);
});

test('each option is read once: a getter cannot pass the check and then hand the core something else', () => {
  let reads = 0;
  const options = {
    strategy: 'full',
    get clients() {
      reads += 1;
      return reads === 1 ? 10 : 0;
    },
  };
  assert.deepEqual(sim.runContention(options), sim.runContention({ clients: 10, strategy: 'full' }));
  assert.equal(reads, 1);
});
