// The storm lab's guard: a shared link starts by itself only when its whole cost is
// bounded. The bound is the core's (sim.stormCost: core/sim/storm.h EstimateStormCost;
// sim.contentionCost: core/sim/contention.h EstimateContentionGridCost), summed over a
// scenario's runs and held against the page's limits (web/src/storm/storm-presets.mjs:
// runCosts, totalStormCost, contentionGuard). The bound must really bound: over 300
// seeded random scenarios, every run the core makes stays within the attempts and the
// simulated time the core estimated. And the links that burned CPU for hours (or 30 s)
// are the ones that wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sim } from './helpers.mjs';
import {
  AUTO_RUN_MAX_ATTEMPTS, PRESETS, contentionGuard, coreLists, parseStormLink, runCosts, stormRuns as presetRuns, totalStormCost,
} from '../../web/src/storm/storm-presets.mjs';

const { jitters } = coreLists(sim.schema);
const stormRuns = (s) => presetRuns(s, jitters);
/** What scenario `s` will cost, as the page reckons it from the core's bound of each run. */
const stormCost = (s) => totalStormCost(runCosts(stormRuns(s), (options) => sim.stormCost(options)));
/** One run's core bound: its attempts and its horizon (null: no time bound). */
const runCost = (run) => sim.stormCost(run.options);
const stormRunAttempts = (run) => runCost(run).attempts;
const stormHorizonMs = (run) => runCost(run).horizonMs;
/** The contention experiment's guard, as the page reckons it from sim.contentionCost. */
const contentionCost = (c) => {
  const options = {};
  if (c.seed !== null) options.seed = c.seed;
  if (c.runs !== null) options.runs = c.runs;
  return contentionGuard(sim.contentionCost(options));
};

/** A small deterministic generator, mulberry32 (no Math.random: the same scenarios every run): an integer in [0, n). */
function generator(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

test('the estimate bounds what the core does: attempts and simulated time, 300 seeded scenarios', (t) => {
  const rnd = generator(7);
  let runs = 0;
  let tightened = 0;
  for (let i = 0; i < 300; i++) {
    const backoff = ['none', 'fixed', 'exponential'][rnd(3)];
    const s = {
      jobs: 10 + rnd(3000),
      arrival: ['burst', 'rate', 'both'][rnd(3)],
      perSecond: 1 + rnd(5000),
      outageStartMs: rnd(3) ? rnd(2000) : 0,
      outageMs: rnd(5) ? rnd(8000) : null,
      perWindow: rnd(4) ? null : 1 + rnd(300),
      windowMs: 1 + rnd(1000),
      workers: 1 + rnd(500),
      workMs: 1 + rnd(50),
      leaseMs: 60_000,
      maxAttempts: rnd(3) === 0 ? 1 + rnd(1_000_000) : 1 + rnd(30),  // a third with a budget no outage here uses up
      backoff,
      baseMs: backoff === 'none' ? null : 1 + rnd(500),
      capMs: null,
      seed: rnd(100),
      strategies: { none: ['none'], fixed: ['none', 'full', 'equal'], exponential: ['none', 'full', 'equal', 'decorrelated'] }[backoff],
    };
    if (s.baseMs !== null && rnd(4) > 0) s.capMs = s.baseMs + rnd(5000);  // else the core's default cap
    for (const run of stormRuns(s)) {
      const storm = sim.createStorm(run.options);
      storm.run(Infinity);
      const { summary } = storm.result();
      storm.dispose();
      const attempts = stormRunAttempts(run);
      const horizon = stormHorizonMs(run);
      const what = `${JSON.stringify(s)} ${run.key}`;
      assert.ok(summary.attempts <= attempts, `${what}: ${summary.attempts} attempts, estimated at most ${attempts}`);
      if (horizon !== null) assert.ok(summary.drainMs <= horizon, `${what}: drained at ${summary.drainMs} ms, estimated by ${horizon}`);
      else assert.notEqual(s.perWindow, null, `${what}: only a capacity limit leaves the time open`);
      if (attempts < s.jobs * s.maxAttempts) tightened++;
      runs++;
    }
  }
  t.diagnostic(`${runs} runs checked; the time horizon tightened the bound in ${tightened}`);
  assert.ok(runs > 900, `${runs} runs checked`);
  assert.ok(tightened > 50, `the time horizon tightened the bound in ${tightened} runs`);
});

test('the link from the issue (about 10^11 attempts) waits; every preset but the million starts by itself', () => {
  const bad = stormCost(parseStormLink('s1;n=100000;a=b;o=0:86400000;c=-;w=100000;t=1;l=30000;m=1000000;b=n;r=1;j=n').scenario);
  assert.deepEqual(bad, { runs: 1, attempts: 100_000_000_000, perRun: [100_000_000_000], horizonMs: 86_400_002, autoRun: false });
  // Its four-strategy form (with a backoff, so jitter applies) costs four times as much.
  const four = stormCost(parseStormLink('s1;n=100000;a=b;o=0:86400000;c=-;w=100000;t=1;l=30000;m=1000000;b=e:1:1;r=1;j=nfed').scenario);
  assert.equal(four.attempts, 400_000_000_000);
  assert.equal(four.autoRun, false);
  // A job count the old guard let through (100,000) with a budget the outage cannot use up: bounded by time.
  const short = stormCost(parseStormLink('s1;n=100000;a=b;o=0:5000;c=-;w=100000;t=1;l=30000;m=1000000;b=n;r=1;j=n').scenario);
  assert.equal(short.attempts, 100_000 * 5003, 'workers × (horizon / work time + 1)');
  assert.equal(short.autoRun, false);
  for (const preset of PRESETS.filter((p) => p.scenario)) {
    const cost = stormCost(preset.scenario);
    assert.equal(cost.autoRun, preset.key !== 'million', `${preset.key}: ${cost.attempts} attempts`);
  }
  assert.equal(stormCost(PRESETS.find((p) => p.key === 'million').scenario).attempts, 40_000_000);
  // A blank job count or budget: no bound, so no auto-run.
  assert.equal(stormCost({ ...PRESETS[0].scenario, jobs: null }).autoRun, false);
  assert.equal(stormCost({ ...PRESETS[0].scenario, maxAttempts: null }).attempts, null);
  assert.ok(stormCost(PRESETS[0].scenario).attempts <= AUTO_RUN_MAX_ATTEMPTS);
});

test('contention links: the default 20 runs start by themselves, 1,000 runs (about 30 s) wait', () => {
  assert.equal(contentionCost(parseStormLink('c1;r=1;k=20').contention).autoRun, true);
  assert.equal(contentionCost(parseStormLink('c1').contention).autoRun, true);
  const big = contentionCost(parseStormLink('c1;k=1000').contention);
  assert.equal(big.autoRun, false);
  assert.equal(big.calls, 1000 * 82_000);
  // The per-run figure holds: one run of the whole grid makes at most 82,000 calls, at any of these seeds.
  for (const seed of [1, 4, 7]) {
    let calls = 0;
    for (const clients of sim.contentionGridClients) {
      for (const strategy of ['none', 'exponential', 'equal', 'full', 'decorrelated']) {
        calls += sim.runContention({ clients, strategy, seed, runs: 1 }).meanCalls;
      }
    }
    assert.ok(calls <= 82_000 && calls > 78_000, `seed ${seed}: ${calls} calls a run`);
  }
});
