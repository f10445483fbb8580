// One source of truth for both builds: the WebAssembly core must render the same
// bytes as the native core's golden files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, linkFixtures, readText } from './helpers.mjs';

test('the lesson run through the JS API matches tests/golden/lesson.timeline.txt byte for byte', () => {
  // The same calls as tests/native/golden_test.cpp.
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'charge order 1');
  q.enqueue('b', 'charge order 2');
  q.enqueue('poison', '{"amount": "twelve"');
  q.process('transient', 'db timeout');
  q.process('success');
  q.process('permanent', 'amount is not a number');
  q.process('transient', 'db timeout');
  q.process('transient', 'db "still" down\n');
  assert.equal(q.replay('a'), true);
  assert.equal(q.replay('a'), false);
  q.process('success');
  q.enqueue('🧾', '');
  q.process('success');
  const golden = readText('tests/golden/lesson.timeline.txt');
  assert.equal(q.timelineText(), golden);
  assert.equal(q.timeline().map((event) => `${event.text}\n`).join(''), golden);
  q.dispose();
});

for (const fixture of linkFixtures()) {
  test(`released link ${fixture.name} loads and replays to its recorded timeline`, () => {
    const q = lab.runScenario(fixture.link);
    assert.equal(q.timelineText(), fixture.timeline);
    // Object round trip: the parsed scenario runs the same, and its canonical text is stable.
    const parsed = lab.parseScenario(fixture.link);
    const canonical = lab.formatScenario(parsed);
    assert.equal(lab.formatScenario(lab.parseScenario(canonical)), canonical);
    const again = lab.runScenario(parsed);
    assert.equal(again.timelineText(), fixture.timeline);
    q.dispose();
    again.dispose();
  });
}

test('events carry the fields the page draws from', () => {
  const q = lab.runScenario('v1;m2;ja:;at:boom,t:boom,ra');
  const kinds = q.timeline().map((e) => e.kind);
  assert.deepEqual(kinds, ['enqueued', 'attempt', 'requeued', 'attempt', 'quarantined', 'replayed']);
  const [, first, , last, quarantined, replayed] = q.timeline();
  assert.equal(first.explanation, 'attempt 1 of 2 failed transiently: 1 attempt left → requeue at the tail');
  assert.equal(last.explanation, 'attempt 2 of 2 failed transiently: budget used up → quarantine');
  assert.equal(last.reason, 'exhausted');
  assert.equal(last.error, 'boom');
  assert.equal(quarantined.reason, 'exhausted');
  assert.equal(replayed.attempts, 2);
  assert.equal(replayed.step, 3);
  assert.deepEqual(q.timeline(4, 1).map((e) => e.seq), [5]);
  assert.deepEqual(q.timeline(6), []);
  assert.deepEqual(q.timeline(99), []);
  q.dispose();
});
