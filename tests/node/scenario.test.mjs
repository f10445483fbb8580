// Scenario links through the JS API: the core parses and formats; errors carry a
// code the page turns into a specific message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';

test('the a/b example with ten actions is a link under 200 characters that round-trips', () => {
  const scenario = {
    maxAttempts: 3,
    jobs: [{ id: 'a', payload: 'charge order 1' }, { id: 'b', payload: 'charge order 2' }],
    actions: [
      { type: 'process', outcome: 'transient', error: 'db timeout' }, { type: 'process', outcome: 'success' },
      { type: 'process', outcome: 'transient', error: 'db timeout' }, { type: 'process', outcome: 'transient' },
      { type: 'replay', id: 'a' }, { type: 'process', outcome: 'success' },
      { type: 'enqueue', id: 'c', payload: 'late' }, { type: 'process', outcome: 'permanent', error: 'bad schema' },
      { type: 'replay', id: 'c' }, { type: 'process', outcome: 'success' },
    ],
    cursor: 7,
  };
  const text = lab.formatScenario(scenario);
  assert.ok(text.length < 200, `${text.length} characters`);
  assert.ok(text.startsWith('v1;'));
  const parsed = lab.parseScenario(text);
  assert.equal(parsed.cursor, 7);
  assert.equal(parsed.actions.length, 10);
  assert.equal(lab.formatScenario(parsed), text);
  const q = lab.runScenario(text);
  assert.deepEqual(q.stats(), { step: 6, ready: 1, completed: 2, quarantined: 0, events: 14, maxAttempts: 3, now: 0,
    actions: 9, delayed: 0, leased: 0, reorders: 0, expired: 0, lost: 0 });
  q.dispose();
});

test('an XSS payload survives the link round trip as plain text', () => {
  const xss = '<img src=x onerror=alert(1)>';
  const text = lab.formatScenario({ maxAttempts: 3, jobs: [{ id: xss, payload: xss }] });
  assert.doesNotMatch(text, /[<>" ]/);
  assert.deepEqual(lab.parseScenario(text).jobs, [{ id: xss, payload: xss }]);
});

test('malformed, over-long and future-version links are refused with distinct codes', () => {
  assert.throws(() => lab.parseScenario('hello'), { name: 'RangeError', code: 'invalid-argument', message: /malformed at character 1/ });
  assert.throws(() => lab.parseScenario(`v1;m3;ja:${'x'.repeat(9000)}`), { code: 'too-large', message: /^scenario link must be at most 8192 bytes, got 9009 bytes$/ });
  assert.throws(() => lab.parseScenario('v3;m3'), { code: 'unsupported-version', message: /needs a newer dlq-lab/ });
  assert.throws(() => lab.runScenario('v1;m3;ja:;ara'), { code: 'not-found', message: 'scenario action 1: replay("a") found no such job in quarantine' });
});

test('formatScenario refuses a scenario too large to share, so every link it gives loads', () => {
  const jobs = Array.from({ length: 1000 }, (_, i) => ({ id: `job-${i}`, payload: 'x'.repeat(20) }));
  assert.throws(() => lab.formatScenario({ maxAttempts: 3, jobs }), { code: 'too-large' });
  // ... while the same scenario still runs.
  const q = lab.runScenario({ maxAttempts: 3, jobs });
  assert.equal(q.stats().ready, 1000);
  q.dispose();
});

test('playableActions reports how far a script plays, whatever its cursor', () => {
  assert.deepEqual(lab.playableActions('v1;m2;ja:;at,t,ra,s,s;c1'),
    { playable: 4, stopped: { code: 'failed-precondition', message: 'scenario action 5: process(success) found nothing ready' } });
  assert.deepEqual(lab.playableActions({ maxAttempts: 2, jobs: [{ id: 'a' }], actions: [{ type: 'process', outcome: 'success' }] }),
    { playable: 1, stopped: null });
  assert.equal(lab.playableActions({ maxAttempts: 3, jobs: [{ id: 'a' }, { id: 'a' }] }).stopped.code, 'already-exists');
  assert.throws(() => lab.playableActions('v9;m3'), { code: 'unsupported-version' });
});
