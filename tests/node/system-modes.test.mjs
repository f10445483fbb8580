// The system modes' own settings and records through the JS API (the rules are the
// core's, tests/native/systems_test.cpp): each setting is taken and refused by name
// from the schema, and each quarantine entry carries its system's own record.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';

const lab = await loadLab();

test('the modes\' settings are schema rows, refused by name outside their mode or out of range', () => {
  const rows = Object.fromEntries(lab.schema.policy.map((r) => [r.name, r]));
  assert.equal(rows.maxStalledCount.kind, 'integer');
  assert.equal(rows.deadMaxJobs.kind, 'integer');
  assert.deepEqual(rows.deliveryLimit.choices.map((c) => c.name), ['explicit', 'unset-3.x', 'unset-4.x', 'classic-queue']);
  assert.throws(() => lab.createQueue({ maxAttempts: 3, deadMaxJobs: 5 }),
    { code: 'invalid-argument', message: 'deadMaxJobs applies only with system "sidekiq" (leave it at its default otherwise), got 5 with system "lab"' });
  assert.throws(() => lab.createQueue({ maxAttempts: 3, system: 'bullmq', maxStalledCount: 1001 }),
    { message: /^maxStalledCount must be an integer from 0 to 1000, got 1001/ });
  assert.throws(() => lab.createQueue({ maxAttempts: 3, system: 'rabbitmq-quorum', deliveryLimit: '4' }),
    { message: 'deliveryLimit must be one of "explicit", "unset-3.x", "unset-4.x", "classic-queue", got "4"' });
});

test('each system records its dead letter in its own terms (systemRecord); a lab entry has none', () => {
  const rabbit = lab.createQueue({ maxAttempts: 2, system: 'rabbitmq-quorum' });
  rabbit.enqueue('a', 'x');
  rabbit.process('transient');
  rabbit.process('transient');
  rabbit.advance(50);
  rabbit.replay('a');
  rabbit.process('permanent');
  assert.deepEqual(rabbit.quarantined()[0].systemRecord, {
    'x-death': [{ queue: 'orders', reason: 'rejected', count: 1, time: 50 }, { queue: 'orders', reason: 'delivery_limit', count: 1, time: 0 }],
    'x-first-death-queue': 'orders',
    'x-first-death-reason': 'delivery_limit',
  });
  rabbit.dispose();

  const sqs = lab.createQueue({ maxAttempts: 1, system: 'sqs' });
  sqs.advance(7);
  sqs.enqueue('a', 'body of a');
  sqs.advance(5);
  sqs.process('transient', 'the worker\'s error');
  const [entry] = sqs.quarantined();
  assert.deepEqual(entry.systemRecord, { body: 'body of a', ApproximateReceiveCount: 1, SentTimestamp: 7, sourceQueue: 'orders' });
  assert.equal(entry.reason, 'exhausted');  // the lab keeps its own
  assert.equal(entry.systemReason, '');
  sqs.dispose();

  const bull = lab.createQueue({ maxAttempts: 3, system: 'bullmq', maxStalledCount: 0, leaseMs: 100 });
  bull.enqueue('a', 'x');
  bull.lease();
  bull.advance(100);
  const [stalled] = bull.quarantined();
  assert.equal(stalled.reason, 'stalled');
  assert.deepEqual(stalled.systemRecord,
    { attemptsMade: 1, stalledCounter: 1, failedReason: 'job stalled more than allowable limit', finishedOn: 100 });
  bull.dispose();

  const plain = lab.createQueue({ maxAttempts: 1 });
  plain.enqueue('a', 'x');
  plain.process('transient');
  assert.equal('systemRecord' in plain.quarantined()[0], false);
  plain.dispose();
});

test('links carry the modes\' settings, and a lab link is as before', () => {
  const settings = { rbs3: { maxStalledCount: 3 }, rkd500: { deadMaxJobs: 500 }, rqu4: { deliveryLimit: 'unset-4.x' },
    rqu3: { deliveryLimit: 'unset-3.x' }, rquc: { deliveryLimit: 'classic-queue' } };
  for (const [field, expected] of Object.entries(settings)) {
    const link = `v2;m3;s1;${field}`;
    const scenario = lab.parseScenario(link);
    for (const [name, value] of Object.entries(expected)) assert.equal(scenario[name], value, link);  // the policy fields, flat
    assert.equal(lab.formatScenario(scenario), link);
  }
  assert.equal(lab.formatScenario(lab.parseScenario('v2;m3;s1;rb')), 'v2;m3;s1;rb');
  assert.throws(() => lab.runScenario('v2;m3;s1;rbd500'), { message: /deadMaxJobs applies only with system "sidekiq"/ });
});

test('sidekiq retryInJitter: 6.4.1\'s jitter on a custom delay, in the schedule card, the link and the snapshot; refused by name', () => {
  const rows = Object.fromEntries(lab.schema.policy.map((r) => [r.name, r]));
  assert.equal(rows.retryInJitter.kind, 'boolean');
  const policy = { maxAttempts: 4, system: 'sidekiq', backoff: { kind: 'fixed', baseMs: 10_000, capMs: 10_000, jitter: 'none' } };
  // The card: the fixed 10 s plus rand(10)·(count + 1) s, each retry's range from the core's own draws.
  const card = lab.retrySchedule({ ...policy, retryInJitter: true }, { samples: 2000 });
  assert.equal(card.exact, false);
  assert.equal(card.rows.filter((r) => r.delay !== null).length, 3);
  for (const row of card.rows.filter((r) => r.delay !== null)) {
    const count = row.attempt - 1;
    assert.equal(row.delay.min, 10_000, `attempt ${row.attempt}`);
    assert.equal(row.delay.max, 10_000 + 9_000 * (count + 1), `attempt ${row.attempt}`);
  }
  // Off (the default): the delay as given, exactly.
  const plain = lab.retrySchedule(policy);
  assert.equal(plain.exact, true);
  assert.deepEqual(plain.rows.filter((r) => r.delay !== null).map((r) => r.delay.max), [10_000, 10_000, 10_000]);
  // Under 1 s 6.4.1 falls back to its own schedule: 15 s + rand(10) at count 0.
  const short = lab.retrySchedule({ ...policy, retryInJitter: true, backoff: { kind: 'fixed', baseMs: 500, capMs: 500, jitter: 'none' } });
  assert.equal(short.rows[0].delay.min, 15_000);
  assert.equal(short.rows[0].delay.max, 24_000);

  // The link (j after the mode's letter) and the snapshot carry it only when on.
  const q = lab.createQueue({ ...policy, retryInJitter: true });
  assert.equal(q.policy().retryInJitter, true);
  const link = lab.formatScenario({ ...policy, retryInJitter: true, jobs: [] });
  assert.match(link, /;rkj(;|$)/);
  assert.equal(lab.parseScenario(link).retryInJitter, true);
  assert.doesNotMatch(lab.formatScenario({ ...policy, jobs: [] }), /;rkj/);
  q.enqueue('a', 'x');
  q.process('transient');
  const text = q.snapshot();
  assert.match(text, / system sidekiq retryInJitter\n/);
  assert.equal(lab.restoreQueue(text).policy().retryInJitter, true);
  q.dispose();

  // Bad input: named, expected and given; nothing is created.
  assert.throws(() => lab.createQueue({ maxAttempts: 3, retryInJitter: true }),
    { code: 'invalid-argument', message: 'retryInJitter applies only with system "sidekiq" (leave it at its default otherwise), got true with system "lab"' });
  assert.throws(() => lab.createQueue({ ...policy, retryInJitter: 'yes' }), { message: /^retryInJitter must be a boolean, got "yes"/ });
  assert.throws(() => lab.parseScenario('v2;m3;s1;rbj'), { message: /retryInJitter applies only with system "sidekiq"/ });
});

test('sidekiq retryEveryError: a permanent failure is retried like any other (6.4.1 has no :kill), its class still the worker\'s', () => {
  const policy = { maxAttempts: 3, system: 'sidekiq', backoff: { kind: 'fixed', baseMs: 1000, capMs: 1000, jitter: 'none' } };
  const killed = lab.createQueue(policy);
  killed.enqueue('a', 'x');
  assert.equal(killed.process('permanent').disposition, 'quarantined');
  assert.equal(killed.quarantined()[0].reason, 'permanent');
  assert.equal(killed.rules().permanent.retry, 'never');
  killed.dispose();
  const q = lab.createQueue({ ...policy, retryEveryError: true });
  assert.equal(q.rules().permanent.retry, 'bounded');  // was 'never'
  assert.equal(q.rules().permanent.maxAttempts, 3);
  assert.equal(q.rules().precondition.maxAttempts, 3);  // its own budget needs :kill too
  q.enqueue('a', 'x');
  for (let run = 1; run <= 3; run++) {
    const a = q.process('permanent');
    assert.equal(a.disposition, run < 3 ? 'delayed' : 'quarantined', `run ${run}`);
    if (run < 3) q.advance(1000);
  }
  const [entry] = q.quarantined();
  assert.equal(entry.reason, 'exhausted');
  assert.equal(entry.attempts, 3);
  assert.match(lab.formatScenario({ ...policy, retryEveryError: true, jobs: [] }), /;rke(;|$)/);
  assert.match(q.snapshot(), / system sidekiq retryEveryError\n/);
  q.dispose();
  assert.throws(() => lab.createQueue({ maxAttempts: 3, system: 'bullmq', retryEveryError: true }),
    { code: 'invalid-argument', message: 'retryEveryError applies only with system "sidekiq" (leave it at its default otherwise), got true with system "bullmq"' });
  assert.throws(() => lab.createQueue({ ...policy, retryEveryError: 1 }), { message: /^retryEveryError must be a boolean, got 1/ });
});
