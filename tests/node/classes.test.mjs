// Failure classes through the JS API: the six outcomes, the class table's
// defaults row by row, overrides merged field by field, a class's budget capped
// by the policy's, one attempt count per job across classes, the quarantine's
// context fields, 'crash' refused as an outcome, classes in scenario objects and
// links, and bad input for every new argument with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const NONE = { kind: 'none', baseMs: 1000, capMs: 60000, jitter: 'none' };
const ONE_SECOND = { kind: 'fixed', baseMs: 1000, capMs: 1000, jitter: 'none' };
// The core's class table (the article's defaults), as policy() gives it.
const DEFAULT_CLASSES = {
  transient: { retry: 'bounded', maxAttempts: 0, backoff: 'policy', alert: false },
  permanent: { retry: 'never', maxAttempts: 0, backoff: 'policy', alert: false },
  undeserializable: { retry: 'never', maxAttempts: 0, backoff: 'policy', alert: false },
  'unknown-schema': { retry: 'never', maxAttempts: 0, backoff: 'policy', alert: true },
  precondition: { retry: 'bounded', maxAttempts: 2, backoff: ONE_SECOND, alert: false },
  crash: { retry: 'bounded', maxAttempts: 0, backoff: 'policy', alert: false },
};
const SIX = '"success", "transient", "permanent", "undeserializable", "unknown-schema", "precondition"';
const CLASS_NAMES = '"transient", "permanent", "undeserializable", "unknown-schema", "precondition", "crash"';

/** Everything a refused call must leave as it was. */
function snapshot(q) {
  return JSON.stringify([q.ready(), q.delayed(), q.leased(), q.completed(), q.quarantined(), q.stats(), q.now(),
    q.timelineText()]);
}

const kinds = (events) => events.map((e) => e.kind);

/** A queue with `options` and jobs `ids` enqueued (payload: the id upper-cased). */
function queueWith(options, ids) {
  const q = lab.createQueue(options);
  q.enqueueMany(ids.map((id) => ({ id, payload: id.toUpperCase() })));
  return q;
}

// ---- the vocabulary -------------------------------------------------------

test('lab.outcomes and lab.failureClasses are the core\'s names, in its order, frozen', () => {
  assert.deepEqual(lab.outcomes, ['success', 'transient', 'permanent', 'undeserializable', 'unknown-schema', 'precondition']);
  assert.deepEqual(lab.failureClasses, ['transient', 'permanent', 'undeserializable', 'unknown-schema', 'precondition', 'crash']);
  assert.ok(Object.isFrozen(lab.outcomes) && Object.isFrozen(lab.failureClasses));
  assert.deepEqual(lab.integerFields['classes.<class>.maxAttempts'], { min: 0, max: 1000000 });
});

test('the class table\'s defaults: policy() gives every row as configured, rules() each rule in force', () => {
  const backoff = { kind: 'exponential', baseMs: 100, capMs: 5000, jitter: 'full' };
  const q = lab.createQueue({ maxAttempts: 4, backoff });
  assert.deepEqual(q.policy().classes, DEFAULT_CLASSES);
  assert.deepEqual(Object.keys(q.policy().classes), lab.failureClasses);
  assert.deepEqual(q.rules(), {
    transient: { retry: 'bounded', maxAttempts: 4, backoff, alert: false },
    permanent: { retry: 'never', maxAttempts: 4, backoff, alert: false },
    undeserializable: { retry: 'never', maxAttempts: 4, backoff, alert: false },
    'unknown-schema': { retry: 'never', maxAttempts: 4, backoff, alert: true },
    precondition: { retry: 'bounded', maxAttempts: 2, backoff: ONE_SECOND, alert: false },
    crash: { retry: 'bounded', maxAttempts: 4, backoff, alert: false },
  });
  assert.notEqual(q.rules(), q.rules(), 'a fresh copy each time');
  q.dispose();
});

// ---- the defaults, row by row -----------------------------------------------

test('undeserializable: quarantined at once, reason permanent, class undeserializable, no alert', () => {
  const q = queueWith({ maxAttempts: 5 }, ['bad', 'next']);
  assert.deepEqual(q.process('undeserializable', 'not JSON'),
    { id: 'bad', attempt: 1, outcome: 'undeserializable', disposition: 'quarantined', reason: 'permanent' });
  assert.deepEqual(q.quarantined(), [{
    id: 'bad', payload: 'BAD', attempts: 1, reason: 'permanent', lastError: 'not JSON', step: 1,
    class: 'undeserializable', alert: false, arrivedAt: 0, firstAttemptAt: 0, key: null, sourceQueue: 'orders',
  }]);
  const events = q.timeline(2);
  assert.deepEqual(kinds(events), ['attempt', 'quarantined']);
  assert.equal(events[0].class, 'undeserializable');
  assert.equal(events[0].outcome, 'undeserializable');
  assert.equal(events[0].maxAttempts, 5);
  assert.equal(events[0].text, '#3 step 1 attempt "bad" 1/5 undeserializable error "not JSON" -> quarantined');
  assert.deepEqual(q.ready().map((job) => job.id), ['next']);
  q.dispose();
});

test('unknown-schema: quarantined at once with alert: true and an \'alert\' event', () => {
  const q = queueWith({ maxAttempts: 5 }, ['v9']);
  assert.deepEqual(q.process('unknown-schema', 'schema v9'),
    { id: 'v9', attempt: 1, outcome: 'unknown-schema', disposition: 'quarantined', reason: 'permanent' });
  const [entry] = q.quarantined();
  assert.equal(entry.class, 'unknown-schema');
  assert.equal(entry.alert, true);
  assert.equal(entry.reason, 'permanent');
  const events = q.timeline(1);
  assert.deepEqual(kinds(events), ['attempt', 'quarantined', 'alert']);
  const alert = events[2];
  assert.deepEqual({ ...alert, explanation: undefined }, {
    seq: 4, step: 1, action: 2, time: 0, kind: 'alert', id: 'v9', attempts: 1, maxAttempts: 5, class: 'unknown-schema',
    text: '#4 step 1 alert "v9" class unknown-schema', explanation: undefined,
  });
  assert.match(alert.explanation, /alert/);
  assert.equal(q.stats().quarantined, 1);
  q.dispose();
});

test('transient: bounded by the policy\'s maxAttempts, with the policy\'s backoff', () => {
  const q = queueWith({ maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 500 } }, ['a']);
  assert.deepEqual(q.process('transient', 'db'),
    { id: 'a', attempt: 1, outcome: 'transient', disposition: 'delayed', delayMs: 500, dueAt: 500 });
  assert.equal(q.timeline(1, 1)[0].class, 'transient');
  assert.equal(q.timeline(1, 1)[0].maxAttempts, 3);
  q.advanceToNext();
  assert.equal(q.process('transient', 'db').delayMs, 500);
  q.advanceToNext();
  assert.deepEqual(q.process('transient', 'db'),
    { id: 'a', attempt: 3, outcome: 'transient', disposition: 'quarantined', reason: 'exhausted' });
  const [entry] = q.quarantined();
  assert.deepEqual([entry.class, entry.alert, entry.attempts, entry.reason, entry.arrivedAt, entry.firstAttemptAt],
    ['transient', false, 3, 'exhausted', 1000, 0]);
  q.dispose();
});

test('precondition: 2 attempts with exactly 1000 ms between them, never jittered, whatever the policy\'s backoff', () => {
  for (const seed of [1, 2, 7, 99, 4294967295]) {
    const q = queueWith({ maxAttempts: 5, backoff: { kind: 'exponential', baseMs: 100, capMs: 60000, jitter: 'full' }, seed },
      ['a', 'b']);
    assert.deepEqual(q.process('precondition', 'customer missing'),
      { id: 'a', attempt: 1, outcome: 'precondition', disposition: 'delayed', delayMs: 1000, dueAt: 1000 });
    const attempt = q.timeline(2, 1)[0];
    assert.deepEqual([attempt.kind, attempt.class, attempt.maxAttempts, attempt.delayMs, attempt.until],
      ['attempt', 'precondition', 2, 1000, 1000]);
    // The policy's own jittered backoff still applies to transient failures.
    const transient = q.process('transient');
    assert.ok(transient.delayMs >= 0 && transient.delayMs <= 100, `seed ${seed}: ${transient.delayMs}`);
    assert.equal(q.advanceToNext(), transient.delayMs === 0 ? 1000 : transient.delayMs);
    q.advance(1000 - q.now());
    assert.deepEqual(q.ready().map((job) => job.id), ['b', 'a']);
    q.process('success');
    assert.deepEqual(q.process('precondition', 'still missing'),
      { id: 'a', attempt: 2, outcome: 'precondition', disposition: 'quarantined', reason: 'exhausted' });
    const [entry] = q.quarantined();
    assert.deepEqual([entry.class, entry.reason, entry.attempts, entry.arrivedAt, entry.firstAttemptAt],
      ['precondition', 'exhausted', 2, 1000, 0]);
    assert.equal(q.timeline().findLast((e) => e.kind === 'attempt').maxAttempts, 2, 'the class\'s budget in force');
    q.dispose();
  }
});

test('crash: an expired lease is bounded by the policy\'s maxAttempts; arrivedAt is the last lease\'s expiresAt', () => {
  const q = queueWith({ maxAttempts: 3, leaseMs: 100 }, ['a']);
  const expiries = [];
  for (let n = 1; n <= 3; n++) {
    q.advance(10);
    expiries.push(q.lease().expiresAt);
    assert.equal(q.advanceToNext(), expiries.at(-1));
  }
  assert.deepEqual(expiries, [110, 220, 330]);
  const expired = q.timeline().filter((e) => e.kind === 'expired');
  assert.deepEqual(expired.map((e) => [e.class, e.attempts, e.maxAttempts, e.disposition]),
    [['crash', 1, 3, 'requeued'], ['crash', 2, 3, 'requeued'], ['crash', 3, 3, 'quarantined']]);
  assert.deepEqual(q.quarantined(), [{
    id: 'a', payload: 'A', attempts: 3, reason: 'exhausted', lastError: 'lease-3 expired after 100 ms without a settle',
    step: 3, class: 'crash', alert: false, arrivedAt: 330, firstAttemptAt: 10, key: null, sourceQueue: 'orders',
  }]);
  q.dispose();
});

test('permanent: never retried, whatever budget is left', () => {
  const q = queueWith({ maxAttempts: 1000 }, ['a']);
  assert.equal(q.process('permanent', 'refund closed').disposition, 'quarantined');
  const [entry] = q.quarantined();
  assert.deepEqual([entry.class, entry.reason, entry.alert, entry.attempts], ['permanent', 'permanent', false, 1]);
  q.dispose();
});

test('events: class on failing attempts, expiries and alerts only', () => {
  const q = queueWith({ maxAttempts: 3, leaseMs: 10 }, ['a', 'b', 'c']);
  q.process('success');
  q.process('precondition');
  q.lease();
  q.advanceToNext();
  const byKind = {};
  for (const e of q.timeline()) (byKind[e.kind] ??= []).push(e);
  assert.deepEqual(byKind.attempt.map((e) => [e.outcome, e.class]), [['success', undefined], ['precondition', 'precondition']]);
  assert.ok(!('class' in byKind.attempt[0]));
  assert.equal(byKind.expired[0].class, 'crash');
  for (const kind of ['enqueued', 'completed', 'delayed', 'leased']) {
    for (const e of byKind[kind]) assert.ok(!('class' in e), `${kind} has no class`);
  }
  q.dispose();
});

// ---- overrides ---------------------------------------------------------------

test('overrides merge with the defaults row by row and field by field', () => {
  const cases = [
    // Only maxAttempts: precondition keeps its 1 s fixed backoff.
    [{ precondition: { maxAttempts: 3 } }, { precondition: { ...DEFAULT_CLASSES.precondition, maxAttempts: 3 } }],
    // A backoff field merges over the class's own backoff.
    [{ precondition: { backoff: { baseMs: 200 } } },
      { precondition: { ...DEFAULT_CLASSES.precondition, backoff: { ...ONE_SECOND, baseMs: 200 } } }],
    // A class with the policy's backoff gets one of its own over the backoff option's defaults.
    [{ transient: { backoff: { kind: 'fixed' } } },
      { transient: { ...DEFAULT_CLASSES.transient, backoff: { ...NONE, kind: 'fixed' } } }],
    [{ precondition: { backoff: 'policy' } }, { precondition: { ...DEFAULT_CLASSES.precondition, backoff: 'policy' } }],
    [{ 'unknown-schema': { alert: false } }, { 'unknown-schema': { ...DEFAULT_CLASSES['unknown-schema'], alert: false } }],
    [{ permanent: { retry: 'bounded', maxAttempts: 2 } }, { permanent: { ...DEFAULT_CLASSES.permanent, retry: 'bounded', maxAttempts: 2 } }],
    [{ crash: { retry: 'never' }, undeserializable: { alert: true } },
      { crash: { ...DEFAULT_CLASSES.crash, retry: 'never' }, undeserializable: { ...DEFAULT_CLASSES.undeserializable, alert: true } }],
    [{}, {}],
    // A row given whole is taken whole.
    [{ transient: DEFAULT_CLASSES.transient }, {}],
  ];
  for (const [classes, changed] of cases) {
    const q = lab.createQueue({ maxAttempts: 3, classes });
    assert.deepEqual(q.policy().classes, { ...DEFAULT_CLASSES, ...changed }, JSON.stringify(classes));
    assert.deepEqual(q.policy().backoff, NONE, 'the policy\'s own backoff is untouched');
    // policy() is an options object: it builds the same queue again.
    const again = lab.createQueue(q.policy());
    assert.deepEqual(again.policy(), q.policy());
    q.dispose();
    again.dispose();
  }
});

test('overrides take effect: a merged precondition, a bounded permanent, a silent unknown-schema, a policy backoff', () => {
  const q = queueWith({
    maxAttempts: 5, backoff: { kind: 'fixed', baseMs: 50 },
    classes: {
      precondition: { maxAttempts: 3 }, permanent: { retry: 'bounded', maxAttempts: 2 }, 'unknown-schema': { alert: false },
      undeserializable: { alert: true }, crash: { maxAttempts: 1 },
    },
  }, ['pre', 'perm', 'v9', 'bad', 'crash']);
  // precondition: 3 attempts now, still 1 s apart.
  assert.equal(q.process('precondition').delayMs, 1000);
  // permanent: retried once after the policy's backoff, then exhausted.
  assert.equal(q.process('permanent').delayMs, 50);
  // unknown-schema: quarantined at once, but no alert.
  q.process('unknown-schema');
  // undeserializable: quarantined at once, with an alert now.
  q.process('undeserializable');
  // crash: one lease expiry quarantines.
  q.lease();
  q.advance(30000);
  assert.deepEqual(q.quarantined().map((e) => [e.id, e.class, e.reason, e.alert]), [
    ['v9', 'unknown-schema', 'permanent', false], ['bad', 'undeserializable', 'permanent', true], ['crash', 'crash', 'exhausted', false],
  ]);
  assert.deepEqual(q.timeline().filter((e) => e.kind === 'alert').map((e) => [e.id, e.class]), [['bad', 'undeserializable']]);
  // perm came back at 50 ms, pre at 1000 ms.
  assert.deepEqual(q.ready().map((job) => job.id), ['perm', 'pre']);
  assert.deepEqual(q.process('permanent'), { id: 'perm', attempt: 2, outcome: 'permanent', disposition: 'quarantined', reason: 'exhausted' });
  assert.deepEqual(q.process('precondition'),
    { id: 'pre', attempt: 2, outcome: 'precondition', disposition: 'delayed', delayMs: 1000, dueAt: 31000 });
  q.dispose();

  // A class given the policy's backoff uses it, jitter and all.
  const p = queueWith({ maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 70 }, classes: { precondition: { backoff: 'policy' } } }, ['a']);
  assert.equal(p.process('precondition').delayMs, 70);
  assert.deepEqual(p.rules().precondition, { retry: 'bounded', maxAttempts: 2, backoff: { ...NONE, kind: 'fixed', baseMs: 70 }, alert: false });
  p.dispose();
});

test('a class\'s maxAttempts is capped by the policy\'s: policy() keeps the configured value, rules() and events the one in force', () => {
  const q = queueWith({ maxAttempts: 2, classes: { precondition: { maxAttempts: 5 }, transient: { maxAttempts: 1 } } }, ['a', 'b']);
  assert.equal(q.policy().classes.precondition.maxAttempts, 5);
  assert.equal(q.policy().classes.transient.maxAttempts, 1);
  assert.equal(q.policy().classes.crash.maxAttempts, 0);
  assert.deepEqual([q.rules().precondition.maxAttempts, q.rules().transient.maxAttempts, q.rules().crash.maxAttempts], [2, 1, 2]);
  assert.equal(q.process('precondition').disposition, 'delayed');
  assert.equal(q.process('transient').disposition, 'quarantined', 'the transient class\'s own budget of 1');
  q.advanceToNext();
  assert.deepEqual(q.process('precondition'),
    { id: 'a', attempt: 2, outcome: 'precondition', disposition: 'quarantined', reason: 'exhausted' });
  const attempts = q.timeline().filter((e) => e.kind === 'attempt');
  assert.deepEqual(attempts.map((e) => [e.id, e.class, e.maxAttempts]), [['a', 'precondition', 2], ['b', 'transient', 1], ['a', 'precondition', 2]]);
  assert.equal(q.stats().maxAttempts, 2);
  q.dispose();
  // At the limit: a class may ask for 1,000,000 and get what the policy allows.
  const big = lab.createQueue({ maxAttempts: 1000000, classes: { precondition: { maxAttempts: 1000000 } } });
  assert.equal(big.rules().precondition.maxAttempts, 1000000);
  big.dispose();
});

test('attempts are counted once per job across mixed classes', () => {
  // precondition, then transient, then precondition: the third attempt is past
  // precondition's budget of 2, so it quarantines as exhausted.
  const q = queueWith({ maxAttempts: 5 }, ['a']);
  assert.equal(q.process('precondition').attempt, 1);
  q.advanceToNext();
  assert.deepEqual(q.process('transient'), { id: 'a', attempt: 2, outcome: 'transient', disposition: 'requeued' });
  assert.deepEqual(q.process('precondition'),
    { id: 'a', attempt: 3, outcome: 'precondition', disposition: 'quarantined', reason: 'exhausted' });
  assert.deepEqual([q.quarantined()[0].attempts, q.quarantined()[0].class], [3, 'precondition']);
  q.dispose();
  // transient, then precondition: its second attempt is precondition's last.
  const t = queueWith({ maxAttempts: 5 }, ['a']);
  t.process('transient');
  assert.deepEqual(t.process('precondition'),
    { id: 'a', attempt: 2, outcome: 'precondition', disposition: 'quarantined', reason: 'exhausted' });
  t.dispose();
  // Leases count too: an expiry (crash), then a precondition on the second lease.
  const l = queueWith({ maxAttempts: 5, leaseMs: 10 }, ['a']);
  l.lease();
  l.advanceToNext();
  const second = l.lease();
  assert.equal(second.attempt, 2);
  assert.equal(l.settle(second.token, 'precondition').disposition, 'quarantined');
  assert.deepEqual([l.quarantined()[0].class, l.quarantined()[0].arrivedAt, l.quarantined()[0].firstAttemptAt], ['precondition', 10, 0]);
  l.dispose();
});

// ---- the quarantine's context ---------------------------------------------------

test('quarantine context: arrivedAt is the failure that quarantined it, firstAttemptAt restarts on replay', () => {
  const q = queueWith({ maxAttempts: 3, leaseMs: 1000, backoff: { kind: 'fixed', baseMs: 100 } }, ['a', 'b']);
  q.advance(40);
  const lease = q.lease();  // a: first attempt at 40
  q.advance(260);
  q.settle(lease.token, 'undeserializable', 'not JSON');  // at 300
  assert.deepEqual(q.quarantined().map((e) => [e.id, e.arrivedAt, e.firstAttemptAt]), [['a', 300, 40]]);
  // b: first attempt at 300, the second at 400, the third a lease that expires at 1500 (a crash, budget used up).
  q.process('transient');
  q.advance(100);
  q.process('transient');
  q.advance(100);
  q.lease();  // third attempt at 500, expires at 1500
  assert.equal(q.advanceToNext(), 1500);
  assert.deepEqual(q.quarantined().map((e) => [e.id, e.class, e.arrivedAt, e.firstAttemptAt]),
    [['a', 'undeserializable', 300, 40], ['b', 'crash', 1500, 300]]);
  // Replay b at 2000: its context restarts with the next attempt.
  q.advance(500);
  assert.equal(q.replay('b'), true);
  q.advance(25);
  q.process('permanent', 'closed');
  assert.deepEqual(q.quarantined().map((e) => [e.id, e.class, e.alert, e.attempts, e.arrivedAt, e.firstAttemptAt, e.lastError]), [
    ['a', 'undeserializable', false, 1, 300, 40, 'not JSON'], ['b', 'permanent', false, 1, 2025, 2025, 'closed'],
  ]);
  q.dispose();
});

// ---- outcomes -------------------------------------------------------------------

test('every failing outcome works through process() and settle(); processMany stays s/t/p', () => {
  for (const outcome of lab.outcomes) {
    const q = queueWith({ maxAttempts: 3 }, ['a', 'b']);
    assert.equal(q.process(outcome).outcome, outcome);
    const lease = q.lease();
    assert.equal(q.settle(lease.token, outcome).outcome, outcome);
    q.dispose();
  }
  const q = queueWith({ maxAttempts: 3 }, ['a']);
  const before = snapshot(q);
  for (const letters of ['u', 'v', 'q', 'c', 'su']) {
    throwsWith(assert, () => q.processMany(letters), RangeError, 'invalid-argument',
      /^outcomes\[\d\] must be 's' \(success\), 't' \(transient\) or 'p' \(permanent\), got "[uvqc]"$/);
  }
  assert.equal(snapshot(q), before);
  q.dispose();
});

test('\'crash\' is not an outcome a worker may report: refused like any unknown one, nothing changes', () => {
  const q = queueWith({ maxAttempts: 3 }, ['a', 'b']);
  const lease = q.lease();
  const before = snapshot(q);
  const CRASH = new RegExp(`^outcome must be one of ${SIX}, got "crash"$`);
  throwsWith(assert, () => q.process('crash'), RangeError, 'invalid-argument', CRASH);
  throwsWith(assert, () => q.settle(lease.token, 'crash'), RangeError, 'invalid-argument', CRASH);
  for (const bad of ['Crash', 'unknown_schema', 'unknownSchema', 'Precondition', 'undeserialisable']) {
    throwsWith(assert, () => q.process(bad), RangeError, 'invalid-argument', new RegExp(`^outcome must be one of ${SIX}, got `));
  }
  throwsWith(assert, () => q.process(6), TypeError, 'invalid-type',
    /^outcome must be one of 'success', 'transient', 'permanent', 'undeserializable', 'unknown-schema' or 'precondition', got 6$/);
  assert.equal(snapshot(q), before);
  q.dispose();
  for (const action of [{ type: 'process', outcome: 'crash' }, { type: 'settle', token: 'lease-1', outcome: 'crash' }]) {
    for (const entry of ['runScenario', 'formatScenario', 'playableActions']) {
      throwsWith(assert, () => lab[entry]({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'lease' }, action] }),
        RangeError, 'invalid-argument', new RegExp(`^scenario\\.actions\\[1\\]\\.outcome must be one of ${SIX}, got "crash"$`));
    }
  }
});

// ---- scenarios --------------------------------------------------------------------

const CLASSED = {
  maxAttempts: 3, leaseMs: 500, seed: 1,
  classes: { transient: { maxAttempts: 2, backoff: { kind: 'fixed', baseMs: 250, capMs: 250 } }, permanent: { alert: true } },
  jobs: [{ id: 'bad', payload: '{' }, { id: 'v9', payload: 'order v9' }, { id: 'pre', payload: 'order 42' }, { id: 'db', payload: 'charge' }],
  actions: [
    { type: 'process', outcome: 'undeserializable', error: 'not JSON' }, { type: 'process', outcome: 'unknown-schema', error: 'v9' },
    { type: 'process', outcome: 'precondition', error: 'missing' }, { type: 'lease' },
    { type: 'settle', token: 'lease-1', outcome: 'permanent', error: 'closed' }, { type: 'advanceToNext' }, { type: 'lease' },
    { type: 'advanceToNext' },
  ],
};

test('scenario objects carry classes and the new outcomes; runScenario replays them like the calls', () => {
  const q = lab.runScenario(CLASSED);
  const { jobs, actions, ...options } = CLASSED;
  const direct = queueWith(options, []);
  direct.enqueueMany(jobs);
  direct.process('undeserializable', 'not JSON');
  direct.process('unknown-schema', 'v9');
  direct.process('precondition', 'missing');
  direct.settle(direct.lease().token, 'permanent', 'closed');
  direct.advanceToNext();
  direct.lease();
  direct.advanceToNext();
  assert.equal(q.timelineText(), direct.timelineText());
  assert.deepEqual(q.policy(), direct.policy());
  assert.deepEqual(q.quarantined(), direct.quarantined());
  assert.deepEqual(q.quarantined().map((e) => [e.id, e.class, e.alert]),
    [['bad', 'undeserializable', false], ['v9', 'unknown-schema', true], ['db', 'permanent', true]]);
  assert.deepEqual(lab.playableActions(CLASSED), { playable: actions.length, stopped: null });
  q.dispose();
  direct.dispose();
});

test('link v2 carries the class table: objects round-trip, parseScenario always gives the whole table', () => {
  const link = lab.formatScenario(CLASSED);
  assert.ok(link.startsWith('v2;'), link);
  const parsed = lab.parseScenario(link);
  const expected = {
    ...DEFAULT_CLASSES,
    transient: { retry: 'bounded', maxAttempts: 2, backoff: { kind: 'fixed', baseMs: 250, capMs: 250, jitter: 'none' }, alert: false },
    permanent: { ...DEFAULT_CLASSES.permanent, alert: true },
  };
  assert.deepEqual(parsed.classes, expected);
  assert.equal(lab.formatScenario(parsed), link);
  assert.deepEqual(parsed.actions.map((a) => a.outcome ?? a.type), ['undeserializable', 'unknown-schema', 'precondition', 'lease',
    'permanent', 'advanceToNext', 'lease', 'advanceToNext']);
  const again = lab.runScenario(parsed);
  const original = lab.runScenario(CLASSED);
  assert.equal(again.timelineText(), original.timelineText());
  again.dispose();
  original.dispose();
  // Links without classes, and objects without them, get the defaults in full.
  assert.deepEqual(lab.parseScenario('v1;m3').classes, DEFAULT_CLASSES);
  assert.deepEqual(lab.parseScenario('v2;m3;s1').classes, DEFAULT_CLASSES);
  // The default table written out in full is no override: lesson 1 still writes v1.
  assert.equal(lab.formatScenario({ maxAttempts: 3, classes: DEFAULT_CLASSES }), 'v1;m3');
  // A new outcome needs v2.
  assert.ok(lab.formatScenario({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'process', outcome: 'precondition' }] })
    .startsWith('v2;'));
});

// ---- bad input ---------------------------------------------------------------------

const SHAPES = {
  classes: "{ precondition: { maxAttempts: 3 } }",
  rule: "{ retry: 'bounded', maxAttempts: 2, backoff: { kind: 'fixed', baseMs: 1000 }, alert: false }",
};
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// [classes, Kind, code, message]; in scenario objects a TypeError's (and a key's size) is prefixed with 'scenario.'.
const BAD_CLASSES = [
  ['x', TypeError, 'invalid-type', `classes must be an object such as ${SHAPES.classes}, got "x" (a string)`],
  [null, TypeError, 'invalid-type', `classes must be an object such as ${SHAPES.classes}, got null`],
  [[], TypeError, 'invalid-type', `classes must be an object such as ${SHAPES.classes}, got an array`],
  [3, TypeError, 'invalid-type', `classes must be an object such as ${SHAPES.classes}, got 3`],
  [{ foo: {} }, RangeError, 'invalid-argument', `classes: a failure class must be one of ${CLASS_NAMES}, got "foo"`],
  [{ success: {} }, RangeError, 'invalid-argument', `classes: a failure class must be one of ${CLASS_NAMES}, got "success"`],
  [{ Transient: {} }, RangeError, 'invalid-argument', `classes: a failure class must be one of ${CLASS_NAMES}, got "Transient"`],
  [{ precondition: {}, __proto__: null, ['unknown_schema']: {} }, RangeError, 'invalid-argument',
    `classes: a failure class must be one of ${CLASS_NAMES}, got "unknown_schema"`],
  [{ ['x'.repeat(65)]: {} }, RangeError, 'too-large', 'classes key must be at most 64 bytes, got 65 bytes'],
  [{ ['crash\uD800']: {} }, TypeError, 'invalid-type', 'classes key must be a well-formed string, but it has a lone surrogate at index 5'],
  [{ precondition: 3 }, TypeError, 'invalid-type', `classes.precondition must be an object such as ${SHAPES.rule}, got 3`],
  [{ precondition: null }, TypeError, 'invalid-type', `classes.precondition must be an object such as ${SHAPES.rule}, got null`],
  [{ precondition: [] }, TypeError, 'invalid-type', `classes.precondition must be an object such as ${SHAPES.rule}, got an array`],
  [{ precondition: { retry: 'sometimes' } }, RangeError, 'invalid-argument',
    'classes.precondition.retry must be one of "never", "bounded", got "sometimes"'],
  [{ precondition: { retry: 'Never' } }, RangeError, 'invalid-argument', 'classes.precondition.retry must be one of "never", "bounded", got "Never"'],
  [{ precondition: { retry: true } }, TypeError, 'invalid-type', 'classes.precondition.retry must be a string, got true (a boolean)'],
  [{ precondition: { maxAttempts: '3' } }, TypeError, 'invalid-type',
    'classes.precondition.maxAttempts must be an integer from 0 to 1000000, got "3" (a string)'],
  [{ crash: { maxAttempts: null } }, TypeError, 'invalid-type', 'classes.crash.maxAttempts must be an integer from 0 to 1000000, got null'],
  [{ 'unknown-schema': { maxAttempts: 2n } }, TypeError, 'invalid-type',
    'classes.unknown-schema.maxAttempts must be an integer from 0 to 1000000, got 2n (a bigint)'],
  [{ precondition: { maxAttempts: -1 } }, RangeError, 'out-of-range', 'classes.precondition.maxAttempts must be an integer from 0 to 1000000, got -1'],
  [{ precondition: { maxAttempts: 1.5 } }, RangeError, 'out-of-range', 'classes.precondition.maxAttempts must be an integer from 0 to 1000000, got 1.5'],
  [{ transient: { maxAttempts: NaN } }, RangeError, 'out-of-range', 'classes.transient.maxAttempts must be an integer from 0 to 1000000, got NaN'],
  [{ transient: { maxAttempts: 1000001 } }, RangeError, 'out-of-range',
    'classes.transient.maxAttempts must be an integer from 0 to 1000000, got 1000001'],
  [{ transient: { maxAttempts: Infinity } }, RangeError, 'out-of-range',
    'classes.transient.maxAttempts must be an integer from 0 to 1000000, got Infinity'],
  [{ precondition: { backoff: 'x' } }, RangeError, 'invalid-argument',
    'classes.precondition.backoff must be a backoff object or "policy" (the policy\'s), got "x"'],
  [{ precondition: { backoff: 3 } }, TypeError, 'invalid-type',
    "classes.precondition.backoff must be an object such as { kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' } or 'policy', got 3"],
  [{ precondition: { backoff: null } }, TypeError, 'invalid-type', "classes.precondition.backoff must be an object such as { kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' } or 'policy', got null"],
  [{ precondition: { backoff: { kind: 'linear' } } }, RangeError, 'invalid-argument',
    'classes.precondition.backoff.kind must be one of "none", "fixed", "exponential", got "linear"'],
  [{ precondition: { backoff: { kind: 3 } } }, TypeError, 'invalid-type', 'classes.precondition.backoff.kind must be a string, got 3'],
  [{ precondition: { backoff: { baseMs: '1' } } }, TypeError, 'invalid-type',
    'classes.precondition.backoff.baseMs must be an integer from 1 to 86400000, got "1" (a string)'],
  [{ precondition: { backoff: { baseMs: 0 } } }, RangeError, 'out-of-range', 'classes.precondition.backoff.baseMs must be an integer from 1 to 86400000, got 0'],
  [{ crash: { backoff: { kind: 'fixed', capMs: 86400001 } } }, RangeError, 'out-of-range',
    'classes.crash.backoff.capMs must be an integer from 1 to 86400000, got 86400001'],
  [{ crash: { backoff: { kind: 'fixed', baseMs: 500, capMs: 100 } } }, RangeError, 'out-of-range',
    'classes.crash.backoff.capMs must be an integer from classes.crash.backoff.baseMs (500) to 86400000, got 100'],
  [{ crash: { backoff: { jitter: 'full' } } }, RangeError, 'invalid-argument',
    'classes.crash.backoff.jitter must be "none" when classes.crash.backoff.kind is "none" (there is no delay to jitter), got "full"'],
  [{ precondition: { backoff: { jitter: 'decorrelated' } } }, RangeError, 'invalid-argument',
    'classes.precondition.backoff.jitter "decorrelated" needs classes.precondition.backoff.kind "exponential", got "fixed"'],
  [{ precondition: { backoff: { jitter: 'half' } } }, RangeError, 'invalid-argument',
    'classes.precondition.backoff.jitter must be one of "none", "full", "equal", "decorrelated", "bullmq", got "half"'],
  [{ 'unknown-schema': { alert: 1 } }, TypeError, 'invalid-type', 'classes.unknown-schema.alert must be a boolean, got 1'],
  [{ 'unknown-schema': { alert: 'yes' } }, TypeError, 'invalid-type', 'classes.unknown-schema.alert must be a boolean, got "yes" (a string)'],
  [{ 'unknown-schema': { alert: null } }, TypeError, 'invalid-type', 'classes.unknown-schema.alert must be a boolean, got null'],
];

test('bad classes are refused by name in createQueue and in scenario objects, and nothing changes', () => {
  const q = queueWith({ maxAttempts: 3 }, ['a']);
  const before = snapshot(q);
  const used = lab.heapBudget().usedBytes;
  for (const [classes, Kind, code, message] of BAD_CLASSES) {
    throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, classes }), Kind, code, new RegExp(`^${escape(message)}$`));
    // The checks index.mjs makes itself (types, a key's size) name the scenario's field in full.
    const scenarioMessage = Kind === TypeError || code === 'too-large' ? `scenario.${message}` : message;
    const scenario = { maxAttempts: 3, classes, jobs: [{ id: 'a' }], actions: [{ type: 'process', outcome: 'precondition' }] };
    for (const entry of ['runScenario', 'formatScenario', 'playableActions']) {
      throwsWith(assert, () => lab[entry](scenario), Kind, code, new RegExp(`^${escape(scenarioMessage)}$`));
    }
  }
  assert.equal(lab.heapBudget().usedBytes, used, 'no queue was kept');
  assert.equal(snapshot(q), before);
  q.dispose();
});

test('classes are read once: getters run once, reading stops at the first unknown class, a throwing Proxy is a TypeError', () => {
  let reads = 0;
  const rule = {
    get maxAttempts() {
      reads += 1;
      return reads === 1 ? 3 : 'swapped';
    },
  };
  const q = lab.createQueue({ maxAttempts: 5, classes: { precondition: rule } });
  assert.equal(reads, 1);
  assert.equal(q.policy().classes.precondition.maxAttempts, 3);
  q.dispose();

  let touched = false;
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, classes: { nope: {}, get precondition() { touched = true; return {}; } } }),
    RangeError, 'invalid-argument', /^classes: a failure class must be one of .*, got "nope"$/);
  assert.equal(touched, false, 'nothing after the unknown class is read');

  // Inherited and non-enumerable keys are not the caller's overrides.
  const inherited = Object.create({ precondition: { maxAttempts: 9 } });
  Object.defineProperty(inherited, 'crash', { value: { maxAttempts: 9 }, enumerable: false });
  const plain = lab.createQueue({ maxAttempts: 3, classes: inherited });
  assert.deepEqual(plain.policy().classes, DEFAULT_CLASSES);
  plain.dispose();

  const hostile = new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, classes: hostile }), TypeError, 'invalid-type',
    /^options could not be read: no keys$/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, classes: hostile }), TypeError, 'invalid-type',
    /^scenario could not be read: no keys$/);
  const getterThrows = { get precondition() { throw new Error('no row'); } };
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, classes: getterThrows }), TypeError, 'invalid-type',
    /^options could not be read: no row$/);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, classes: { precondition: proxy } }), TypeError, 'invalid-type',
    /^options could not be read: /);
});

test('rules() on a disposed queue is refused like every other call', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.dispose();
  throwsWith(assert, () => q.rules(), Error, 'disposed', /^this queue has been disposed/);
});
