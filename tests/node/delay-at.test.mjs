// Where a retry's delay lives (idea 23; policy field delayAt) through the JS API:
// taken from the schema, defaulted, carried by links and snapshots, refused by name,
// and visible in the views and events the playground draws.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

// One worker (the world's default), a fails once, b is healthy; a fixed 1 s backoff.
const scenario = (delayAt) => ({
  maxAttempts: 3, seed: 1, delayAt,
  backoff: { kind: 'fixed', baseMs: 1000, capMs: 60_000, jitter: 'none' },
  jobs: [{ id: 'a', payload: 'order a' }, { id: 'b', payload: 'order b' }],
  world: { behaviours: [{ id: 'a', kind: 'flaky', count: 1 }] },
});

test('delayAt is a schema row: its choices are the core\'s, broker the default', () => {
  const row = lab.schema.policy.find((f) => f.name === 'delayAt');
  assert.ok(row, 'a policy row');
  assert.deepEqual(row.choices.map((c) => c.name), ['broker', 'consumer-sleep', 'retry-queue']);
  const q = lab.createQueue({ maxAttempts: 3 });
  assert.equal(q.policy().delayAt, 'broker');
  q.dispose();
  assert.equal(lab.retryQueueName, 'orders.retry');
});

test('bad input is refused by name, with what was expected and what was given', () => {
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, delayAt: 'sleep' }), RangeError, 'invalid-argument',
    /^delayAt must be one of "broker", "consumer-sleep", "retry-queue", got "sleep"/);
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, delayAt: 'retry-queue', system: 'sqs' }), RangeError,
    'invalid-argument', /^delayAt applies only with system "lab" .*got "retry-queue" with system "sqs"/);
  throwsWith(assert, () => lab.parseScenario('v2;m3;s1;rbq;ja:'), RangeError, 'invalid-argument',
    /delayAt applies only with system "lab"/);
});

test('links carry it after the lab\'s r only when it is not the broker; snapshots likewise', () => {
  for (const [delayAt, letters] of [['consumer-sleep', ';rlc'], ['retry-queue', ';rlq']]) {
    const link = lab.formatScenario(scenario(delayAt));
    assert.ok(link.includes(letters), `${delayAt}: ${link}`);
    assert.equal(lab.parseScenario(link).delayAt, delayAt);
    assert.equal(lab.formatScenario(lab.parseScenario(link)), link);
  }
  assert.ok(!lab.formatScenario(scenario('broker')).includes(';r'));
  const q = lab.createQueue({ maxAttempts: 3, delayAt: 'retry-queue', backoff: { kind: 'fixed', baseMs: 500 } });
  q.enqueue('a', '');
  q.process('transient');
  const text = q.snapshot();
  assert.match(text, /delayAt retry-queue/);
  const back = lab.restoreQueue(text);
  assert.equal(back.policy().delayAt, 'retry-queue');
  assert.deepEqual(back.delayed(), q.delayed());
  q.dispose();
  back.dispose();
});

test('played by one worker: only the sleeping worker makes b wait for a', () => {
  const completed = (delayAt) => {
    const played = lab.playWorld(scenario(delayAt));
    const s = lab.createSession(played);
    s.seek(played.actions.length);
    const view = s.view();
    const order = view.timeline.filter((e) => e.kind === 'completed').map((e) => [e.id, e.time]);
    const goal = s.checkGoal('order a, b').met;
    s.dispose();
    return { order, goal };
  };
  assert.deepEqual(completed('broker'), { order: [['b', 200], ['a', 1200]], goal: false });
  assert.deepEqual(completed('consumer-sleep'), { order: [['a', 1200], ['b', 1300]], goal: true });
  assert.deepEqual(completed('retry-queue'), { order: [['b', 200], ['a', 1200]], goal: false });
});

test('the views name where a delayed job waits; the broker\'s views are as before', () => {
  const at = (delayAt) => {
    const s = lab.createSession({ ...scenario(delayAt), world: undefined, actions: [{ type: 'process', outcome: 'transient' }] });
    const view = s.view();
    s.dispose();
    return view;
  };
  const broker = at('broker');
  assert.equal(broker.delayedIn, undefined);
  assert.deepEqual(Object.keys(broker.delayed[0]).sort(), ['attempts', 'dueAt', 'id', 'payload']);
  const delayedEvent = (view) => view.timeline.find((e) => e.kind === 'delayed');
  assert.equal(delayedEvent(broker).delayAt, undefined);

  const retry = at('retry-queue');
  assert.equal(retry.delayedIn, 'orders.retry');
  assert.equal(retry.delayed[0].waitsIn, 'orders.retry');
  assert.equal(delayedEvent(retry).delayAt, 'retry-queue');
  assert.equal(delayedEvent(retry).waitsIn, 'orders.retry');
  assert.match(delayedEvent(retry).explanation, /published to the retry queue orders\.retry and acked/);

  const sleep = at('consumer-sleep');
  assert.equal(sleep.delayedIn, 'worker');
  assert.equal(sleep.delayed[0].waitsIn, 'worker');
  assert.match(delayedEvent(sleep).explanation, /waits in its worker, which sleeps holding it/);
});

test('the config snippets say where a lab retry waits when no configuration of theirs puts it there', async () => {
  const { SNIPPETS, connectSnippets } = await import('../../web/src/shared/snippets.mjs');
  connectSnippets(lab);
  const textOf = (key, delayAt) => {
    const q = lab.createQueue({ maxAttempts: 3, delayAt, backoff: { kind: 'fixed', baseMs: 1000 } });
    const text = SNIPPETS.find((s) => s.key === key).generate(q.policy(), q.rules()).text;
    q.dispose();
    return text;
  };
  for (const { key } of SNIPPETS) {
    assert.doesNotMatch(textOf(key, 'broker'), /delayAt/, key);
    assert.match(textOf(key, 'consumer-sleep'), /delayAt consumer-sleep: the worker sleeps holding the job/, key);
  }
  assert.match(textOf('sqs', 'retry-queue'), /delayAt retry-queue: the delay waits in a retry queue/);
  // Spring Kafka's non-blocking retries are retry topics: its configuration is the retry queue itself.
  assert.doesNotMatch(textOf('kafka', 'retry-queue'), /delayAt/);
});
