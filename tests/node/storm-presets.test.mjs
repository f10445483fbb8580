// The storm lab keeps no list the core owns (web/src/storm/storm-presets.mjs): its
// strategies, backoff kinds and contention strategies are sim.schema's choices
// (coreLists), and what the page keeps keyed by them (labels, link letters) covers
// every name the core has, and no other. The static form (web/storm.html) offers
// exactly the core's names. And the core's cost functions the page's guard asks
// (sim.stormCost, sim.contentionCost) refuse bad input by name, as createStorm and
// runContention refuse it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sim, readText, throwsWith } from './helpers.mjs';
import {
  CONTENTION_LABELS, DEFAULT_SCENARIO, LINK_LETTERS, PRESETS, STRATEGY_LABELS, coreLists, formatStormLink, parseStormLink,
  stormRuns,
} from '../../web/src/storm/storm-presets.mjs';

const lists = coreLists(sim.schema);
const sorted = (names) => [...names].sort();

test('the lists are the core\'s choices, in its order', () => {
  const choices = (rows, name) => rows.find((r) => r.name === name).choices.map((c) => c.name);
  assert.deepEqual(lists.jitters, choices(sim.schema.backoff, 'jitter'));
  assert.deepEqual(lists.backoffKinds, choices(sim.schema.backoff, 'kind'));
  assert.deepEqual(lists.contentionStrategies, choices(sim.schema.contention, 'strategy'));
  assert.throws(() => coreLists({ backoff: [], contention: [] }), /sim\.schema has no choices for jitter/);
});

test('every core name has a label and a link letter, and the page keys nothing else', () => {
  assert.deepEqual(sorted(Object.keys(STRATEGY_LABELS)), sorted(lists.jitters));
  assert.deepEqual(sorted(Object.keys(LINK_LETTERS.strategy)), sorted(lists.jitters));
  assert.deepEqual(sorted(Object.keys(LINK_LETTERS.backoff)), sorted(lists.backoffKinds));
  assert.deepEqual(sorted(Object.keys(CONTENTION_LABELS)), sorted(lists.contentionStrategies));
  for (const letters of Object.values(LINK_LETTERS)) {
    assert.equal(new Set(Object.values(letters)).size, Object.keys(letters).length, 'one letter a name');
  }
  // Every strategy and backoff kind survives its link.
  for (const backoff of lists.backoffKinds) {
    const s = { ...DEFAULT_SCENARIO, backoff, strategies: [...lists.jitters] };
    const back = parseStormLink(formatStormLink(s)).scenario;
    assert.equal(back.backoff, backoff);
    assert.deepEqual(sorted(back.strategies), sorted(lists.jitters));
  }
});

test('a scenario\'s runs go in the core\'s order of strategies', () => {
  const s = { ...DEFAULT_SCENARIO, strategies: [...lists.jitters].reverse() };
  assert.deepEqual(stormRuns(s, lists.jitters).map((r) => r.strategy), lists.jitters);
  assert.deepEqual(stormRuns({ ...s, strategies: [] }, lists.jitters), []);
});

test('the static form offers exactly the core\'s strategies and backoff kinds', () => {
  const html = readText('web/storm.html');
  const checkboxes = [...html.matchAll(/<input type="checkbox" name="strategy" value="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(checkboxes, lists.jitters);
  const select = /<select id="f-backoff"[^>]*>([^]*?)<\/select>/.exec(html)[1];
  assert.deepEqual([...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]), lists.backoffKinds);
});

test('sim.stormCost refuses what createStorm refuses, by name, and runs nothing', () => {
  const options = stormRuns(PRESETS.find((p) => p.key === 'outage').scenario, lists.jitters)[0].options;
  const refusal = (fn) => {
    try {
      fn();
    } catch (error) {
      return [error.constructor, error.code, error.message];
    }
    assert.fail('not refused');
  };
  for (const change of [{ jobs: 5 }, { jobs: null }, { workMs: 40_000 }, { maxAttempts: 'ten' }, { backoff: { kind: 'fixed', jitter: 'decorrelated' } }]) {
    const bad = { ...options, ...change };
    assert.deepEqual(refusal(() => sim.stormCost(bad)), refusal(() => sim.createStorm(bad)), JSON.stringify(change));
  }
  throwsWith(assert, () => sim.stormCost({ ...options, jobs: 5 }), RangeError, 'out-of-range', /^jobs must be an integer from 10 to 1000000, got 5$/);
  throwsWith(assert, () => sim.stormCost(null), TypeError, 'invalid-type', /^options must be/);
  assert.deepEqual(sim.stormCost(options), { attempts: 100_000, horizonMs: 5000 + 10_000 + 10 * 2 });
  assert.deepEqual(sim.stormCost({ ...options, capacity: { perWindow: 10, windowMs: 100 } }), { attempts: 100_000, horizonMs: null });
});

test('sim.contentionCost: the grid\'s cost; seed and runs refused as runContention refuses them', () => {
  assert.deepEqual(sim.contentionCost({}), { runs: 1, calls: 82_000 });
  assert.deepEqual(sim.contentionCost({ seed: 3, runs: 20 }), { runs: 20, calls: 1_640_000 });
  for (const change of [{ runs: 0 }, { runs: 1001 }, { runs: 'x' }, { seed: -1 }, { seed: 1.5 }]) {
    let got;
    let want;
    try { sim.contentionCost(change); } catch (error) { got = [error.constructor, error.code, error.message]; }
    try { sim.runContention({ clients: 10, strategy: 'full', ...change }); } catch (error) { want = [error.constructor, error.code, error.message]; }
    assert.ok(want, JSON.stringify(change));
    assert.deepEqual(got, want, JSON.stringify(change));
  }
  throwsWith(assert, () => sim.contentionCost('20'), TypeError, 'invalid-type', /^options must be/);
  assert.deepEqual(sim.contentionGridClients, [10, 30, 50, 70, 90, 110, 130, 150, 170, 190]);
  assert.ok(Object.isFrozen(sim.contentionGridClients));
});
