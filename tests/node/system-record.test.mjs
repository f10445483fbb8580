// The bindings convert a system's dead-letter record (SystemRules::Record, core/systems/)
// field by field: the page and snippets read it as JSON, so each system's fields keep
// their names, types and order exactly (JSON.stringify compares the order too).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';

const lab = await loadLab();

function deadLetter(policy, steps) {
  const q = lab.createQueue(policy);
  q.enqueue('a', 'body of a');
  steps(q);
  const [entry] = q.quarantined();
  q.dispose();
  return entry;
}

test('each system\'s record keeps its fields\' names, types and order through the bindings', () => {
  const rabbit = deadLetter({ maxAttempts: 1, system: 'rabbitmq-quorum' }, (q) => {
    q.advance(3);
    q.process('transient');
  });
  assert.equal(JSON.stringify(rabbit.systemRecord),
    '{"x-death":[{"queue":"orders","reason":"delivery_limit","count":1,"time":3}],'
    + '"x-first-death-queue":"orders","x-first-death-reason":"delivery_limit"}');
  assert.equal(rabbit.systemReason, 'delivery_limit');

  const sqs = deadLetter({ maxAttempts: 1, system: 'sqs' }, (q) => q.process('transient', 'boom'));
  assert.equal(JSON.stringify(sqs.systemRecord),
    '{"body":"body of a","ApproximateReceiveCount":1,"SentTimestamp":0,"sourceQueue":"orders"}');

  const bull = deadLetter({ maxAttempts: 1, system: 'bullmq' }, (q) => {
    q.advance(9);
    q.process('transient', 'boom');
  });
  assert.equal(JSON.stringify(bull.systemRecord),
    '{"attemptsMade":1,"stalledCounter":0,"failedReason":"boom","finishedOn":9}');

  const sidekiq = deadLetter({ maxAttempts: 2, system: 'sidekiq', backoff: { kind: 'fixed', baseMs: 10, capMs: 10 } },
    (q) => {
      q.process('transient', 'first');
      q.advance(1_000_000);
      q.process('transient', 'last');
    });
  assert.equal(JSON.stringify(sidekiq.systemRecord), '{"retry_count":1,"error_message":"last"}');

  // Pub/Sub: the message with the attributes its dead-lettering adds (docs/real-systems.md [G4]).
  const pubsub = deadLetter({ maxAttempts: 5, system: 'pubsub' }, (q) => {
    for (let i = 0; i < 5; i += 1) q.process('transient');
  });
  assert.equal(JSON.stringify(pubsub.systemRecord),
    '{"data":"body of a","CloudPubSubDeadLetterSourceDeliveryCount":5,'
    + '"CloudPubSubDeadLetterSourceSubscription":"orders","CloudPubSubDeadLetterSourceTopicPublishTime":0}');
  assert.equal(pubsub.systemReason, '');

  const plain = deadLetter({ maxAttempts: 1 }, (q) => q.process('transient'));
  assert.equal('systemRecord' in plain, false);
  assert.equal('systemReason' in plain, false);
});
