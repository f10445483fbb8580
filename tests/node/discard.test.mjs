// The discarded terminal through the JS API (the rule is the core's,
// tests/native/discard_test.cpp): a rabbitmq-quorum policy with deadLetterExchange
// 'none' drops a dead letter, with a 'discarded' event and no quarantine entry.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';

const lab = await loadLab();

test('deadLetterExchange is a schema row; a bad value or a lab policy is refused by name and nothing is made', () => {
  const row = lab.schema.policy.find((r) => r.name === 'deadLetterExchange');
  assert.deepEqual(row.choices.map((c) => c.name), ['set', 'none']);
  assert.throws(() => lab.createQueue({ maxAttempts: 3, system: 'rabbitmq-quorum', deadLetterExchange: 'off' }),
    { code: 'invalid-argument', message: 'deadLetterExchange must be one of "set", "none", got "off"' });
  assert.throws(() => lab.createQueue({ maxAttempts: 3, deadLetterExchange: 'none' }),
    { code: 'invalid-argument', message: 'deadLetterExchange applies only with system "rabbitmq-quorum" (leave it at its default otherwise), got "none" with system "lab"' });
  const s = lab.createSession({ maxAttempts: 2, system: 'rabbitmq-quorum', jobs: [{ id: 'a', payload: 'x' }], actions: [] });
  const before = s.view({ link: true }).link;
  assert.throws(() => s.change({ ...s.scenario(), system: 'lab', deadLetterExchange: 'none' }),
    { message: /^deadLetterExchange applies only with system "rabbitmq-quorum"/ });
  assert.deepEqual(s.view({ link: true }).link, before);
  s.dispose();
});

test('with no dead-letter exchange a dead letter is dropped: a discarded event, counted, listed, never replayable', () => {
  const q = lab.createQueue({ maxAttempts: 2, system: 'rabbitmq-quorum', deadLetterExchange: 'none' });
  q.enqueue('a', 'x');
  q.enqueue('b', 'y');
  q.process('transient');
  const a = q.process('transient');
  assert.equal(a.disposition, 'discarded');
  assert.equal(q.process('permanent').disposition, 'discarded');
  assert.deepEqual(q.quarantined(), []);
  assert.equal(q.stats().discarded, 2);
  assert.equal(q.stats().quarantined, 0);
  assert.deepEqual(q.discarded(), [
    { id: 'a', payload: 'x', attempts: 2, reason: 'exhausted', systemReason: 'delivery_limit', at: 0 },
    { id: 'b', payload: 'y', attempts: 1, reason: 'permanent', systemReason: 'rejected', at: 0 },
  ]);
  const gone = q.timeline().filter((e) => e.kind === 'discarded');
  assert.deepEqual(gone.map((e) => [e.id, e.reason]), [['a', 'exhausted'], ['b', 'permanent']]);
  assert.match(gone[0].explanation, /no dead-letter exchange: the message is dropped/);
  assert.equal(q.replay('a'), false);
  assert.equal(q.locate('a').place, 'discarded');
  // A snapshot keeps it gone.
  const back = lab.restoreQueue(q.snapshot());
  assert.deepEqual(back.discarded(), q.discarded());
  back.dispose();
  q.dispose();
});

test('the default (set) and every other policy keep their stats and views as before: no discarded field', () => {
  const q = lab.createQueue({ maxAttempts: 1, system: 'rabbitmq-quorum' });
  q.enqueue('a', 'x');
  q.process('permanent');
  assert.equal('discarded' in q.stats(), false);
  assert.equal(q.quarantined().length, 1);
  q.dispose();
  const s = lab.createSession({ maxAttempts: 1, jobs: [{ id: 'a', payload: 'x' }], actions: [] });
  assert.equal('discarded' in s.view(), false);
  s.dispose();
});

test('a session view lists the dropped jobs, and the link carries the setting (;rqn)', () => {
  const s = lab.createSession({
    maxAttempts: 2, system: 'rabbitmq-quorum', deadLetterExchange: 'none',
    jobs: [{ id: 'a', payload: 'x' }],
    actions: [{ type: 'process', outcome: 'permanent' }],
  });
  s.seek(1);
  const view = s.view({ link: true });
  assert.equal(view.link.text, 'v2;m2;s1;rqn;ja:x;ap');
  assert.deepEqual(view.discarded.map((j) => [j.id, j.systemReason]), [['a', 'rejected']]);
  assert.equal(view.stats.discarded, 1);
  assert.equal(lab.parseScenario(view.link.text).deadLetterExchange, 'none');
  s.dispose();
});

test('the RabbitMQ snippet writes no dead-letter exchange for deadLetterExchange none, and the import reads it back', async () => {
  const { snippetByKey, connectSnippets } = await import('../../web/src/shared/snippets.mjs');
  connectSnippets(lab);
  const { connectImport, importConfig } = await import('../../web/src/playground/import.mjs');
  connectImport(lab);
  const policyOf = (options) => {
    const q = lab.createQueue(options);
    try { return [q.policy(), q.rules()]; } finally { q.dispose(); }
  };
  const rabbit = snippetByKey('rabbitmq');
  const none = rabbit.generate(...policyOf({ maxAttempts: 3, system: 'rabbitmq-quorum', deadLetterExchange: 'none' })).text;
  const definition = JSON.parse(none.match(/set_policy .* '(\{.*\})'$/m)[1]);
  assert.deepEqual(definition, { 'delivery-limit': 2 });
  assert.match(none, /no dead-letter exchange \(deadLetterExchange none\)/);
  assert.doesNotMatch(none, /orders\.dlq/);
  const set = rabbit.generate(...policyOf({ maxAttempts: 3, system: 'rabbitmq-quorum' })).text;
  assert.equal(JSON.parse(set.match(/set_policy .* '(\{.*\})'$/m)[1])['dead-letter-exchange'], 'orders.dlx');
  const back = importConfig(JSON.stringify(definition));
  assert.equal(back.ok, true);
  assert.equal(back.policy.deadLetterExchange, 'none');
});
