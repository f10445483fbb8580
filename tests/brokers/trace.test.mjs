// compareTraces (lib/trace.mjs) is pure: the lead compares the lab's trace under a system
// mode with the same `expected` data, so its verdicts are pinned here without a broker.
import assert from 'node:assert/strict';
import test from 'node:test';
import { loadCorpus, outcomeOf } from './lib/corpus.mjs';
import { compareTraces, delaysFrom } from './lib/trace.mjs';

const expected = {
  deliveries: [{ job: 'a', count: 0 }, { job: 'a', count: 1 }, { job: 'b', count: 0 }],
  delays: { a: [100], b: [] },
  final: { a: 'dlq', b: 'completed' },
  dlq: { a: { reason: 'delivery_limit', time: '$timestamp', last: '$absent', deaths: [{ count: 1, time: '$number' }] } },
};
const observed = () => structuredClone({
  deliveries: [{ job: 'a', count: 0 }, { job: 'a', count: 1 }, { job: 'b', count: 0 }],
  delays: { a: [130], b: [] },
  final: { a: 'dlq', b: 'completed' },
  dlq: { a: { reason: 'delivery_limit', time: 1796167779, extra: 'ignored', deaths: [{ count: 1, time: 5 }] } },
});
const tolerance = { delayMs: { below: 5, above: 50 } };

test('a trace that meets expected gives null', () => {
  assert.equal(compareTraces(expected, observed(), tolerance), null);
});

test('the first difference is named by its path', () => {
  const cases = [
    [(t) => { t.deliveries[1].count = 2; }, 'deliveries[1]', /expected a#1, observed a#2/],
    [(t) => { t.deliveries.pop(); }, 'deliveries[2]', /expected b#0, observed no delivery/],
    [(t) => { t.final.b = 'waiting'; }, 'final.b', /expected "completed", observed "waiting"/],
    [(t) => { t.final.c = 'dropped'; }, 'final.c', /expected nothing, observed "dropped"/],
    [(t) => { t.dlq.a.reason = 'rejected'; }, 'dlq.a.reason', /expected "delivery_limit", observed "rejected"/],
    [(t) => { t.dlq.a.last = 'x'; }, 'dlq.a.last', /expected "\$absent"/],
    [(t) => { t.dlq.a.time = 'soon'; }, 'dlq.a.time', /\$timestamp/],
    [(t) => { t.dlq.a.deaths[0].count = 2; }, 'dlq.a.deaths', /observed \[\{"count":2/],
    [(t) => { t.dlq.b = {}; }, 'dlq.b', /observed a dead-letter entry, expected none/],
    [(t) => { delete t.dlq.a; }, 'dlq.a', /expected a dead-letter entry, observed none/],
    [(t) => { t.delays.a = [151]; }, 'delays.a[0]', /expected 100 ms \(tolerance -5\/\+50\), observed 151 ms/],
    [(t) => { t.delays.a = [94]; }, 'delays.a[0]', /observed 94 ms/],
    [(t) => { t.delays.a = []; }, 'delays.a', /expected 1 gaps, observed 0/],
  ];
  for (const [change, path, message] of cases) {
    const t = observed();
    change(t);
    const difference = compareTraces(expected, t, tolerance);
    assert.equal(difference?.path, path, `after ${change}`);
    assert.match(difference.message, message);
  }
});

test('a delay range is inclusive and widened by the tolerance', () => {
  const e = { deliveries: [], final: {}, delays: { a: [[100, 199]] } };
  const at = (ms) => compareTraces(e, { deliveries: [], final: {}, delays: { a: [ms] } }, { delayMs: { below: 0, above: 0 } });
  assert.equal(at(100), null);
  assert.equal(at(199), null);
  assert.equal(at(200)?.path, 'delays.a[0]');
  assert.equal(at(99)?.path, 'delays.a[0]');
});

test('delaysFrom gives the gaps between a job\'s runs', () => {
  assert.deepEqual(delaysFrom([{ job: 'a', at: 0 }, { job: 'b', at: 5 }, { job: 'a', at: 100 }, { job: 'a', at: 300 }]), { a: [100, 200] });
});

test('outcomeOf repeats the last outcome and defaults to ok', () => {
  const s = { outcomes: { a: ['transient', 'ok'] } };
  assert.deepEqual([0, 1, 5].map((n) => outcomeOf(s, 'a', n)), ['transient', 'ok', 'ok']);
  assert.equal(outcomeOf(s, 'b', 0), 'ok');
});

test('every corpus loads, has at least 20 scenarios and covers every kind', () => {
  for (const broker of ['rabbitmq-quorum', 'bullmq', 'sidekiq']) {
    const corpus = loadCorpus(broker);
    assert.ok(corpus.scenarios.length >= 20, `${broker}: ${corpus.scenarios.length} scenarios`);
    const covered = new Set(corpus.scenarios.map((s) => s.covers));
    for (const kind of ['ordering', 'budget', 'backoff', 'poison', 'crash', 'replay', 'retention']) {
      assert.ok(covered.has(kind), `${broker} covers no ${kind} scenario`);
    }
  }
});

test('a broker with no corpus file is refused by name', () => {
  assert.throws(() => loadCorpus('kafka'), /kafka\.json/);
});
