// Per-key ordering and an operable quarantine through the JS API: the three
// ordering modes on the lesson's a/b/c example with two accounts (a and b on
// 'acct-7', c on 'acct-9'), reorders as a view, a stat and an event,
// releaseKey, retention to the millisecond, the depth alarm's hysteresis,
// redrive, keys in batches and scenarios, and bad input for every new argument
// with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const ids = (jobs) => jobs.map((job) => job.id);
const kinds = (events) => events.map((e) => e.kind);

/** Everything a refused call must leave as it was. */
function snapshot(q) {
  return JSON.stringify([q.ready(), q.delayed(), q.leased(), q.completed(), q.quarantined(), q.stats(), q.now(),
    q.alarm(), q.reorders(), q.timelineText()]);
}

/** A queue with `options` and the two accounts' jobs: a, b on 'acct-7', c on 'acct-9'. */
function accounts(options = {}) {
  const q = lab.createQueue({ maxAttempts: 3, ...options });
  q.enqueue('a', 'pay 1', { key: 'acct-7' });
  q.enqueue('b', 'pay 2', { key: 'acct-7' });
  q.enqueue('c', 'pay 1', { key: 'acct-9' });
  return q;
}

/** A queue with `options` whose jobs `names` are all quarantined at once (permanent), in order. */
function quarantinedAll(options, names) {
  const q = lab.createQueue({ maxAttempts: 3, ...options });
  q.enqueueMany(names.map((id) => ({ id, payload: '' })));
  for (let i = 0; i < names.length; i++) q.process('permanent');
  return q;
}

// ---- the three modes --------------------------------------------------------

test('none: a retried job is overtaken by a later job of its key; reorders(), stats() and the event agree', () => {
  const q = accounts();
  assert.equal(q.policy().ordering, 'none');
  assert.equal(q.process('transient', 'db timeout').disposition, 'requeued');
  assert.deepEqual(q.ready(), [
    { id: 'b', payload: 'pay 2', attempts: 0, key: 'acct-7', heldBy: null },
    { id: 'c', payload: 'pay 1', attempts: 0, key: 'acct-9', heldBy: null },
    { id: 'a', payload: 'pay 1', attempts: 1, key: 'acct-7', heldBy: null },
  ]);
  q.process('success');  // b completes before a
  q.process('success');  // c
  q.process('success');  // a
  assert.deepEqual(ids(q.completed()), ['b', 'c', 'a']);
  assert.deepEqual(q.completed()[0], { id: 'b', payload: 'pay 2', attempts: 1, key: 'acct-7' });
  assert.deepEqual(q.reorders(), [{ key: 'acct-7', id: 'b', overtook: ['a'] }]);
  assert.equal(q.stats().reorders, 1);
  const reorders = q.timeline().filter((e) => e.kind === 'reorder');
  assert.equal(reorders.length, 1);
  assert.deepEqual({ ...reorders[0], explanation: undefined }, {
    seq: 8, step: 2, action: 5, time: 0, kind: 'reorder', id: 'b', attempts: 1, maxAttempts: 3, key: 'acct-7',
    overtook: ['a'], text: '#8 step 2 reorder "b" key "acct-7" overtook "a"', explanation: undefined,
  });
  assert.match(reorders[0].explanation, /"b" completed before "a".*"acct-7"/);
  // The view is a fresh copy, and it slices like the others.
  q.reorders()[0].overtook.push('changed');
  assert.deepEqual(q.reorders(0, 1), [{ key: 'acct-7', id: 'b', overtook: ['a'] }]);
  assert.deepEqual(q.reorders(1), []);
  assert.deepEqual(q.reorders(0, 0), []);
  q.dispose();
});

test('key: b waits behind a (heldBy "a") while c flows; no reorder', () => {
  const q = accounts({ ordering: 'key' });
  assert.equal(q.policy().ordering, 'key');
  q.process('transient');  // a to the tail; b is held by it
  assert.deepEqual(q.ready(), [
    { id: 'b', payload: 'pay 2', attempts: 0, key: 'acct-7', heldBy: 'a' },
    { id: 'c', payload: 'pay 1', attempts: 0, key: 'acct-9', heldBy: null },
    { id: 'a', payload: 'pay 1', attempts: 1, key: 'acct-7', heldBy: null },
  ]);
  assert.equal(q.process('success').id, 'c', 'account 9 flows past the held b');
  assert.equal(q.process('success').id, 'a');
  assert.equal(q.process('success').id, 'b');
  assert.deepEqual(q.reorders(), []);
  assert.equal(q.stats().reorders, 0);
  assert.equal(q.timeline().some((e) => e.kind === 'reorder'), false);
  q.dispose();

  // lease() takes the first eligible job too; a job without a key is never held.
  const leased = lab.createQueue({ maxAttempts: 3, ordering: 'key' });
  leased.enqueueMany([{ id: 'a', payload: '', key: 'k' }, { id: 'b', payload: '', key: 'k' }, { id: 'free', payload: '' }]);
  assert.equal(leased.lease().id, 'a');
  assert.equal(leased.lease().id, 'free');
  assert.equal(leased.lease(), null, 'only the held b is ready');
  assert.deepEqual(leased.ready(), [{ id: 'b', payload: '', attempts: 0, key: 'k', heldBy: 'a' }]);
  leased.dispose();
});

test('stall: a delayed head blocks everything behind it and shows in delayed(); it retries in place', () => {
  const q = accounts({ ordering: 'stall', backoff: { kind: 'fixed', baseMs: 100 } });
  assert.deepEqual(q.process('transient'),
    { id: 'a', attempt: 1, outcome: 'transient', disposition: 'delayed', delayMs: 100, dueAt: 100 });
  assert.deepEqual(q.delayed(), [{ id: 'a', payload: 'pay 1', attempts: 1, dueAt: 100 }]);
  assert.deepEqual(ids(q.ready()), ['b', 'c']);
  assert.equal(q.process('success'), null, 'nothing runs until the head\'s retry');
  assert.equal(q.lease(), null);
  assert.equal(q.stats().step, 1);
  assert.equal(q.advanceToNext(), 100);
  assert.deepEqual(ids(q.ready()), ['a', 'b', 'c'], 'back at the head, not the tail');
  assert.equal(q.process('success').id, 'a');
  assert.equal(q.process('success').id, 'b');
  assert.deepEqual(q.reorders(), []);
  q.dispose();

  // Without a backoff the failed head retries in place at once.
  const inPlace = accounts({ ordering: 'stall' });
  inPlace.process('transient');
  assert.deepEqual(ids(inPlace.ready()), ['a', 'b', 'c']);
  assert.equal(inPlace.process('success').id, 'a');
  inPlace.dispose();
});

// ---- releaseKey ---------------------------------------------------------------

test('releaseKey on a quarantined holder returns 1, is an event, and the next completion is a reorder', () => {
  const q = accounts({ ordering: 'key' });
  q.process('permanent', 'card declined');  // a quarantined: b waits
  assert.equal(q.process('success').id, 'c');
  assert.equal(q.process('success'), null, 'b is held by the quarantined a');
  assert.equal(q.ready()[0].heldBy, 'a');
  assert.equal(q.quarantined()[0].key, 'acct-7');
  const actions = q.stats().actions;
  assert.equal(q.releaseKey('acct-7'), 1);
  assert.equal(q.stats().actions, actions + 1);
  const released = q.timeline().at(-1);
  assert.deepEqual({ ...released, explanation: undefined }, {
    seq: 8, step: 2, action: actions + 1, time: 0, kind: 'key-released', id: 'a', attempts: 1, maxAttempts: 3,
    key: 'acct-7', text: '#8 step 2 key-released "a" key "acct-7"', explanation: undefined,
  });
  assert.match(released.explanation, /released key "acct-7" from "a"/);
  assert.equal(q.ready()[0].heldBy, null);
  assert.equal(q.process('success').id, 'b');
  assert.deepEqual(q.reorders(), [{ key: 'acct-7', id: 'b', overtook: ['a'] }]);
  assert.deepEqual(kinds(q.timeline().slice(-3)), ['attempt', 'completed', 'reorder']);
  // Nothing left to release, or a key nobody holds: 0, and nothing changes.
  const before = snapshot(q);
  assert.equal(q.releaseKey('acct-7'), 0);
  assert.equal(q.releaseKey('nobody'), 0);
  assert.equal(snapshot(q), before);
  q.dispose();
});

test('releaseKey: holders in flight or delayed keep holding', () => {
  const q = accounts({ ordering: 'key', backoff: { kind: 'fixed', baseMs: 100 } });
  const lease = q.lease();  // a in flight
  assert.equal(lease.id, 'a');
  const before = snapshot(q);
  assert.equal(q.releaseKey('acct-7'), 0);
  assert.equal(snapshot(q), before);
  q.settle(lease.token, 'transient');  // a delayed
  assert.deepEqual(ids(q.delayed()), ['a']);
  assert.equal(q.releaseKey('acct-7'), 0);
  assert.equal(q.ready()[0].heldBy, 'a');
  assert.equal(q.process('success').id, 'c');
  assert.equal(q.process('success'), null);
  q.dispose();
});

// ---- an operable quarantine -------------------------------------------------

test('retention drops an entry at the exact millisecond; it can no longer be replayed', () => {
  const retentionMs = 1000;
  const q = lab.createQueue({ maxAttempts: 3, quarantine: { retentionMs } });
  assert.deepEqual(q.policy().quarantine, { retentionMs, alarmDepth: 0 });
  q.enqueue('a', '');
  q.advance(5);
  q.process('permanent');  // arrives at 5: dropped at 1005
  assert.equal(q.quarantined()[0].arrivedAt, 5);
  q.advance(retentionMs - 1);
  assert.deepEqual(ids(q.quarantined()), ['a']);
  assert.equal(q.stats().expired, 0);
  q.advance(1);
  assert.deepEqual(q.quarantined(), []);
  assert.equal(q.stats().expired, 1);
  assert.equal(q.stats().quarantined, 0);
  const expired = q.timeline().at(-1);
  assert.deepEqual([expired.kind, expired.id, expired.time, expired.text],
    ['evidence-expired', 'a', 1005, '#4 step 1 at 1005ms evidence-expired "a" attempts 1']);
  assert.equal(q.replay('a'), false, 'its evidence is gone for good');
  assert.equal(q.redrive({ max: 10 }), 0);
  assert.equal(q.stats().expired, 1);
  q.dispose();

  // Retention ends are timers: advanceToNext stops at one; a replay cancels its timer.
  const timed = quarantinedAll({ quarantine: { retentionMs: 300 } }, ['a', 'b']);
  assert.equal(timed.replay('a'), true);
  assert.equal(timed.advanceToNext(), 300);
  assert.deepEqual(timed.quarantined(), []);
  assert.deepEqual(ids(timed.ready()), ['a']);
  assert.equal(timed.stats().expired, 1);
  assert.equal(timed.advanceToNext(), null);
  timed.dispose();
});

test('the depth alarm: raised at the depth, cleared by a replay, raised again, cleared by a retention drop', () => {
  const q = lab.createQueue({ maxAttempts: 3, quarantine: { retentionMs: 500, alarmDepth: 2 } });
  q.enqueueMany(['a', 'b', 'c'].map((id) => ({ id, payload: '' })));
  assert.deepEqual(q.alarm(), { raised: false, depth: 0, threshold: 2 });
  q.process('permanent');
  assert.deepEqual(q.alarm(), { raised: false, depth: 1, threshold: 2 });
  q.process('permanent');
  assert.deepEqual(q.alarm(), { raised: true, depth: 2, threshold: 2 });
  const raised = q.timeline().at(-1);
  assert.deepEqual([raised.kind, raised.id, raised.depth, raised.text],
    ['alarm-raised', 'b', 2, '#8 step 2 alarm-raised "b" depth 2']);
  assert.match(raised.explanation, /alarm depth/);
  assert.equal(q.replay('a'), true);
  assert.deepEqual(q.alarm(), { raised: false, depth: 1, threshold: 2 });
  const cleared = q.timeline().at(-1);
  assert.deepEqual([cleared.kind, cleared.depth], ['alarm-cleared', 1]);
  q.advance(100);
  q.process('permanent');  // c, at 100: dropped at 600
  assert.deepEqual(q.alarm(), { raised: true, depth: 2, threshold: 2 });
  q.advance(399);
  assert.equal(q.alarm().raised, true);
  q.advance(1);  // b's retention ends at 500: the drop clears the alarm
  assert.deepEqual(q.alarm(), { raised: false, depth: 1, threshold: 2 });
  const alarms = q.timeline().filter((e) => e.kind.startsWith('alarm-'));
  assert.deepEqual(alarms.map((e) => [e.kind, e.depth]),
    [['alarm-raised', 2], ['alarm-cleared', 1], ['alarm-raised', 2], ['alarm-cleared', 1]]);
  assert.deepEqual(kinds(q.timeline().slice(-2)), ['evidence-expired', 'alarm-cleared']);
  q.dispose();

  const off = quarantinedAll({}, ['a', 'b']);
  assert.deepEqual(off.alarm(), { raised: false, depth: 2, threshold: 0 });
  assert.equal(off.timeline().some((e) => e.kind.startsWith('alarm-')), false);
  off.dispose();
});

test('redrive replays the oldest entries first, each like replay, and returns the count', () => {
  const q = quarantinedAll({}, ['a', 'b', 'c']);
  const actions = q.stats().actions;
  assert.equal(q.redrive({ max: 2 }), 2);
  assert.equal(q.stats().actions, actions + 1, 'one action');
  assert.deepEqual(q.ready(), [
    { id: 'a', payload: '', attempts: 0, key: null, heldBy: null },
    { id: 'b', payload: '', attempts: 0, key: null, heldBy: null },
  ]);
  assert.deepEqual(ids(q.quarantined()), ['c']);
  assert.deepEqual(q.timeline().slice(-2).map((e) => [e.kind, e.id, e.attempts]), [['replayed', 'a', 1], ['replayed', 'b', 1]]);
  assert.equal(q.redrive({ max: 10 }), 1);
  assert.deepEqual(ids(q.ready()), ['a', 'b', 'c']);
  const before = snapshot(q);
  assert.equal(q.redrive({ max: 10 }), 0, 'an empty quarantine: nothing changes');
  assert.equal(snapshot(q), before);
  q.dispose();
});

// ---- keys in batches and scenarios --------------------------------------------

test('enqueueMany carries keys: mixed batches, NUL in a key, all or nothing', () => {
  const q = lab.createQueue({ maxAttempts: 3, ordering: 'key' });
  q.enqueueMany([{ id: 'a', payload: 'A', key: 'k' }, { id: 'free', payload: '' }, { id: 'b', payload: 'B', key: 'k' }]);
  assert.deepEqual(q.ready().map((j) => [j.id, j.key, j.heldBy]), [['a', 'k', null], ['free', null, null], ['b', 'k', 'a']]);
  // A key holding NUL (so the packed form cannot split it), and non-ASCII keys.
  q.enqueueMany([{ id: 'c', payload: 'x\0y', key: 'k\0' }, { id: 'd', payload: '', key: '🧾é' }]);
  assert.deepEqual(q.ready().slice(3).map((j) => [j.id, j.payload, j.key]), [['c', 'x\0y', 'k\0'], ['d', '', '🧾é']]);
  // A key exactly at the limit is fine; one byte over names the job; nothing of the batch is kept.
  const atLimit = 'k'.repeat(lab.limits.keyBytes);
  q.enqueue('e', '', { key: atLimit });
  assert.equal(q.ready().at(-1).key, atLimit);
  const before = snapshot(q);
  throwsWith(assert, () => q.enqueueMany([{ id: 'f', payload: '', key: 'k' }, { id: 'g', payload: '', key: `${atLimit}k` }]),
    RangeError, 'too-large', /^jobs\[1\]\.key must be at most 1024 bytes, got 1025 bytes$/);
  throwsWith(assert, () => q.enqueueMany([{ id: 'f', payload: '', key: 'k' }, { id: 'a', payload: '', key: 'k' }]),
    Error, 'already-exists', /^jobs\[1\]\.id "a" was already given to this queue/);
  throwsWith(assert, () => q.enqueueMany([{ id: 'f', payload: '\0', key: 'k' }, { id: 'f', payload: '', key: 'k' }]),
    Error, 'already-exists', /^jobs\[1\]\.id "f" appears twice in this batch/);
  assert.equal(snapshot(q), before);
  q.dispose();
});

test('scenario objects carry ordering, quarantine and keys at the top level; the link round-trips them', () => {
  const scenario = {
    maxAttempts: 3, ordering: 'key', quarantine: { retentionMs: 1000, alarmDepth: 2 },
    jobs: [{ id: 'a', payload: 'pay 1', key: 'acct-7' }, { id: 'b', payload: 'pay 2', key: 'acct-7' },
      { id: 'c', payload: 'pay 1', key: 'acct-9' }, { id: 'free', payload: '' }],
    actions: [
      { type: 'process', outcome: 'permanent', error: 'card declined' }, { type: 'process', outcome: 'success' },
      { type: 'releaseKey', key: 'acct-7' }, { type: 'process', outcome: 'success' },
      { type: 'enqueue', id: 'd', payload: 'refund', key: 'acct-9' }, { type: 'process', outcome: 'permanent' },
      { type: 'process', outcome: 'permanent' }, { type: 'redrive', max: 1 },
    ],
  };
  const q = lab.runScenario(scenario);
  assert.deepEqual(q.policy().ordering, 'key');
  assert.deepEqual(q.policy().quarantine, { retentionMs: 1000, alarmDepth: 2 });
  assert.deepEqual(q.reorders(), [{ key: 'acct-7', id: 'b', overtook: ['a'] }]);
  assert.deepEqual(ids(q.quarantined()), ['free', 'd']);
  assert.deepEqual(q.ready().map((j) => [j.id, j.key]), [['a', 'acct-7']]);
  assert.deepEqual(kinds(q.timeline()).filter((k) => ['key-released', 'reorder', 'alarm-raised', 'alarm-cleared'].includes(k)),
    ['key-released', 'reorder', 'alarm-raised']);
  assert.deepEqual(q.alarm(), { raised: true, depth: 2, threshold: 2 }, 'the redrive left the depth at 2');

  const link = lab.formatScenario(scenario);
  const parsed = lab.parseScenario(link);
  assert.equal(parsed.ordering, 'key');
  assert.deepEqual(parsed.quarantine, { retentionMs: 1000, alarmDepth: 2 });
  assert.deepEqual(parsed.jobs, scenario.jobs, 'key present only for a job that has one');
  assert.deepEqual(parsed.actions.slice(2, 5), [{ type: 'releaseKey', key: 'acct-7' }, { type: 'process', outcome: 'success', error: '' },
    { type: 'enqueue', id: 'd', payload: 'refund', key: 'acct-9' }]);
  assert.deepEqual(parsed.actions.at(-1), { type: 'redrive', max: 1 });
  assert.equal(lab.formatScenario(parsed), link);
  const again = lab.runScenario(parsed);
  assert.equal(again.timelineText(), q.timelineText());
  again.dispose();
  const fromLink = lab.runScenario(link);
  assert.equal(fromLink.timelineText(), q.timelineText());
  fromLink.dispose();
  q.dispose();

  // An operator action that would change nothing is refused when the script plays.
  assert.deepEqual(lab.playableActions({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [
    { type: 'process', outcome: 'permanent' }, { type: 'redrive', max: 5 }, { type: 'redrive', max: 5 }] }),
  { playable: 2, stopped: { code: 'failed-precondition', message: 'scenario action 3: redrive() found the quarantine empty' } });
  throwsWith(assert, () => lab.runScenario({ maxAttempts: 3, actions: [{ type: 'releaseKey', key: 'k' }] }), Error,
    'failed-precondition', /^scenario action 1: releaseKey\("k"\) found no quarantined holder of that key$/);
});

// ---- bad input ----------------------------------------------------------------

test('bad ordering and quarantine options are refused by name: TypeErrors for types, the core\'s RangeErrors for values', () => {
  const base = { maxAttempts: 3 };
  const cases = [
    [{ ...base, ordering: 'fifo' }, RangeError, 'invalid-argument', /^ordering must be one of "none", "key", "stall", got "fifo"$/],
    [{ ...base, ordering: 'Key' }, RangeError, 'invalid-argument', /^ordering must be one of "none", "key", "stall", got "Key"$/],
    [{ ...base, ordering: '' }, RangeError, 'invalid-argument', /^ordering must be one of .*, got ""$/],
    [{ ...base, ordering: 1 }, TypeError, 'invalid-type', /^ordering must be a string, got 1$/],
    [{ ...base, ordering: null }, TypeError, 'invalid-type', /^ordering must be a string, got null$/],
    [{ ...base, ordering: 'k'.repeat(100) }, RangeError, 'too-large', /^ordering must be at most 64 bytes, got 100 bytes$/],
    [{ ...base, quarantine: 5 }, TypeError, 'invalid-type', /^quarantine must be an object such as \{ retentionMs: .*\}, got 5$/],
    [{ ...base, quarantine: null }, TypeError, 'invalid-type', /^quarantine must be an object such as .*, got null$/],
    [{ ...base, quarantine: [] }, TypeError, 'invalid-type', /^quarantine must be an object such as .*, got an array$/],
  ];
  const fields = { 'quarantine.retentionMs': [0, Number.MAX_SAFE_INTEGER], 'quarantine.alarmDepth': [0, 1000000000] };
  for (const [name, [min, max]] of Object.entries(fields)) {
    assert.deepEqual(lab.integerFields[name], { min, max }, name);
    const inner = name.split('.')[1];
    const escaped = name.replace('.', '\\.');
    for (const [value, shown] of [['3', '"3" \\(a string\\)'], [true, 'true \\(a boolean\\)'], [null, 'null'], [3n, '3n \\(a bigint\\)']]) {
      cases.push([{ ...base, quarantine: { [inner]: value } }, TypeError, 'invalid-type',
        new RegExp(`^${escaped} must be an integer from ${min} to ${max}, got ${shown}$`)]);
    }
    for (const value of [min - 1, max + 1, 1.5, NaN, Infinity]) {
      cases.push([{ ...base, quarantine: { [inner]: value } }, RangeError, 'out-of-range',
        new RegExp(`^${escaped} must be an integer from ${min} to ${max}, got `)]);
    }
  }
  for (const [options, Kind, code, message] of cases) {
    throwsWith(assert, () => lab.createQueue(options), Kind, code, message);
    // The same fields of a scenario object: what JS checks (types, sizes) carries the "scenario." prefix;
    // the core's value messages name the field as Policy::Check does.
    const prefixed = Kind === TypeError || code === 'too-large' ? new RegExp(`^scenario\\.${message.source.slice(1)}`) : message;
    throwsWith(assert, () => lab.runScenario(options), Kind, code, prefixed);
    throwsWith(assert, () => lab.formatScenario(options), Kind, code, prefixed);
  }
  // Absent and the edges of each range are fine.
  for (const quarantine of [{}, { retentionMs: 0, alarmDepth: 0 }, { retentionMs: Number.MAX_SAFE_INTEGER, alarmDepth: 1000000000 }]) {
    const q = lab.createQueue({ ...base, quarantine });
    assert.deepEqual(q.policy().quarantine, { retentionMs: 0, alarmDepth: 0, ...quarantine });
    q.dispose();
  }
  for (const ordering of ['none', 'key', 'stall']) {
    const q = lab.createQueue({ ...base, ordering });
    assert.equal(q.policy().ordering, ordering);
    lab.createQueue(q.policy()).dispose();
    q.dispose();
  }
});

test('a null key is no key, as the views report it, so a view can be enqueued again', () => {
  const q = lab.createQueue({ maxAttempts: 3, ordering: 'key' });
  q.enqueue('a', '', { key: null });
  q.enqueueMany([{ id: 'b', payload: '', key: null }]);
  assert.deepEqual(q.ready().map((j) => j.key), [null, null]);
  const copy = lab.createQueue({ maxAttempts: 3 });
  copy.enqueueMany(q.ready().map(({ id, payload, key }) => ({ id, payload, key })));
  assert.equal(copy.stats().ready, 2);
  const run = lab.runScenario({ maxAttempts: 3, jobs: [{ id: 'a', key: null }] });
  assert.equal(run.ready()[0].key, null);
  for (const queue of [q, copy, run]) queue.dispose();
});

test('bad keys, releaseKey, redrive and reorders arguments are refused by name, and nothing changes', () => {
  const q = accounts({ ordering: 'key' });
  q.process('permanent');
  const before = snapshot(q);
  const heap = lab.heapInUse();
  const overKey = 'k'.repeat(lab.limits.keyBytes + 1);
  const optional = 'must be a non-empty string, or null \\(or left out\\) for no key, got';
  const cases = [
    // enqueue's options and key
    [() => q.enqueue('x', '', 5), TypeError, 'invalid-type', /^options must be an object such as \{ key: 'acct-7' \}, got 5$/],
    [() => q.enqueue('x', '', null), TypeError, 'invalid-type', /^options must be an object such as .*, got null$/],
    [() => q.enqueue('x', '', 'acct-7'), TypeError, 'invalid-type', /^options must be an object such as .*, got "acct-7" \(a string\)$/],
    [() => q.enqueue('x', '', ['acct-7']), TypeError, 'invalid-type', /^options must be an object such as .*, got an array$/],
    [() => q.enqueue('x', '', { key: 7 }), TypeError, 'invalid-type', new RegExp(`^key ${optional} 7$`)],
    [() => q.enqueue('x', '', { key: '' }), TypeError, 'invalid-type', new RegExp(`^key ${optional} "" \\(a string\\)$`)],
    [() => q.enqueue('x', '', { key: '\uD800k' }), TypeError, 'invalid-type', /^key must be a well-formed string, but it has a lone surrogate at index 0$/],
    [() => q.enqueue('x', '', { key: overKey }), RangeError, 'too-large', /^key must be at most 1024 bytes, got 1025 bytes$/],
    [() => q.enqueue('x', '', { key: 'é'.repeat(513) }), RangeError, 'too-large', /^key must be at most 1024 bytes, got 1026 bytes$/],
    [() => q.enqueue('a', '', { key: 'acct-7' }), Error, 'already-exists', /^id "a" was already given to this queue/],
    // enqueueMany's keys, by index
    [() => q.enqueueMany([{ id: 'x', payload: '' }, { id: 'y', payload: '', key: 7 }]), TypeError, 'invalid-type',
      new RegExp(`^jobs\\[1\\]\\.key ${optional} 7$`)],
    [() => q.enqueueMany([{ id: 'x', payload: '', key: '' }]), TypeError, 'invalid-type', new RegExp(`^jobs\\[0\\]\\.key ${optional} ""`)],
    [() => q.enqueueMany([{ id: 'x', payload: '', key: 'k\uDC00' }]), TypeError, 'invalid-type',
      /^jobs\[0\]\.key must be a well-formed string, but it has a lone surrogate at index 1$/],
    [() => q.enqueueMany([{ id: 'x', payload: '', key: overKey }]), RangeError, 'too-large', /^jobs\[0\]\.key must be at most 1024 bytes/],
    // releaseKey
    [() => q.releaseKey(), TypeError, 'invalid-type', /^key must be a non-empty string, got undefined$/],
    [() => q.releaseKey(7), TypeError, 'invalid-type', /^key must be a non-empty string, got 7$/],
    [() => q.releaseKey(''), TypeError, 'invalid-type', /^key must be a non-empty string, got "" \(a string\)$/],
    [() => q.releaseKey({ key: 'acct-7' }), TypeError, 'invalid-type', /^key must be a non-empty string, got an object$/],
    [() => q.releaseKey('\uD800'), TypeError, 'invalid-type', /^key must be a well-formed string/],
    [() => q.releaseKey(overKey), RangeError, 'too-large', /^key must be at most 1024 bytes, got 1025 bytes$/],
    // redrive: the options object is required; max is the core's "max" field
    [() => q.redrive(), TypeError, 'invalid-type', /^options must be an object such as \{ max: 10 \}, got undefined$/],
    [() => q.redrive(5), TypeError, 'invalid-type', /^options must be an object such as \{ max: 10 \}, got 5$/],
    [() => q.redrive(null), TypeError, 'invalid-type', /^options must be an object such as .*, got null$/],
    [() => q.redrive({}), TypeError, 'invalid-type', /^max must be an integer from 1 to 1000000000, got undefined$/],
    [() => q.redrive({ max: '2' }), TypeError, 'invalid-type', /^max must be an integer from 1 to 1000000000, got "2" \(a string\)$/],
    [() => q.redrive({ max: 2n }), TypeError, 'invalid-type', /^max must be an integer from 1 to 1000000000, got 2n \(a bigint\)$/],
    [() => q.redrive({ max: 0 }), RangeError, 'out-of-range', /^max must be an integer from 1 to 1000000000, got 0$/],
    [() => q.redrive({ max: -1 }), RangeError, 'out-of-range', /^max must be an integer from 1 to 1000000000, got -1$/],
    [() => q.redrive({ max: 1.5 }), RangeError, 'out-of-range', /^max must be an integer from 1 to 1000000000, got 1\.5$/],
    [() => q.redrive({ max: NaN }), RangeError, 'out-of-range', /^max must be an integer from 1 to 1000000000, got NaN$/],
    [() => q.redrive({ max: Infinity }), RangeError, 'out-of-range', /^max must be an integer from 1 to 1000000000, got Infinity$/],
    [() => q.redrive({ max: 1000000001 }), RangeError, 'out-of-range', /^max must be an integer from 1 to 1000000000, got 1000000001$/],
    // reorders' slice
    [() => q.reorders(-1), RangeError, 'out-of-range', /^from must be a non-negative integer, got -1$/],
    [() => q.reorders(0, 1.5), RangeError, 'out-of-range', /^count must be a non-negative integer, got 1\.5$/],
    [() => q.reorders('0'), TypeError, 'invalid-type', /^from must be a non-negative integer, got "0" \(a string\)$/],
  ];
  for (const [fn, Kind, code, message] of cases) throwsWith(assert, fn, Kind, code, message);
  assert.equal(snapshot(q), before);
  assert.ok(lab.heapInUse() <= heap + 4096, 'the refusals left nothing behind');
  assert.deepEqual(lab.integerFields.max, { min: 1, max: 1000000000 });
  q.dispose();
});

test('scenario keys and the new actions are checked by name before anything runs', () => {
  const one = { maxAttempts: 3, jobs: [{ id: 'a' }] };
  const overKey = 'k'.repeat(lab.limits.keyBytes + 1);
  const cases = [
    [{ ...one, jobs: [{ id: 'a', key: 7 }] }, TypeError, 'invalid-type', /^scenario\.jobs\[0\]\.key must be a non-empty string, or null \(or left out\) for no key, got 7$/],
    [{ ...one, jobs: [{ id: 'a', key: '' }] }, TypeError, 'invalid-type', /^scenario\.jobs\[0\]\.key must be a non-empty string/],
    [{ ...one, jobs: [{ id: 'a', key: overKey }] }, RangeError, 'too-large', /^scenario\.jobs\[0\]\.key must be at most 1024 bytes, got 1025 bytes$/],
    [{ ...one, actions: [{ type: 'enqueue', id: 'b', key: 7 }] }, TypeError, 'invalid-type',
      /^scenario\.actions\[0\]\.key must be a non-empty string, or null \(or left out\) for no key, got 7$/],
    [{ ...one, actions: [{ type: 'enqueue', id: 'b', key: overKey }] }, RangeError, 'too-large', /^scenario\.actions\[0\]\.key must be at most 1024 bytes/],
    [{ ...one, actions: [{ type: 'releaseKey' }] }, TypeError, 'invalid-type', /^scenario\.actions\[0\]\.key must be a non-empty string, got undefined$/],
    [{ ...one, actions: [{ type: 'releaseKey', key: '' }] }, TypeError, 'invalid-type', /^scenario\.actions\[0\]\.key must be a non-empty string, got ""/],
    [{ ...one, actions: [{ type: 'releaseKey', key: overKey }] }, RangeError, 'too-large', /^scenario\.actions\[0\]\.key must be at most 1024 bytes/],
    [{ ...one, actions: [{ type: 'redrive' }] }, TypeError, 'invalid-type', /^scenario\.actions\[0\]\.max must be an integer from 1 to 1000000000, got undefined$/],
    [{ ...one, actions: [{ type: 'redrive', max: '1' }] }, TypeError, 'invalid-type', /^scenario\.actions\[0\]\.max must be an integer from 1 to 1000000000, got "1"/],
    [{ ...one, actions: [{ type: 'redrive', max: 0 }] }, RangeError, 'out-of-range', /^scenario\.actions\[0\]\.max must be an integer from 1 to 1000000000, got 0$/],
    [{ ...one, actions: [{ type: 'redrive', max: 2.5 }] }, RangeError, 'out-of-range', /^scenario\.actions\[0\]\.max must be an integer from 1 to 1000000000, got 2\.5$/],
    [{ ...one, actions: [{ type: 'Redrive', max: 1 }] }, TypeError, 'invalid-type',
      /^scenario\.actions\[0\]\.type must be .*'redrive', 'patch' or 'crash', got "Redrive" \(a string\)$/],
  ];
  for (const [scenario, Kind, code, message] of cases) {
    throwsWith(assert, () => lab.runScenario(scenario), Kind, code, message);
    throwsWith(assert, () => lab.formatScenario(scenario), Kind, code, message);
    throwsWith(assert, () => lab.playableActions(scenario), Kind, code, message);
  }
});

test('a getter is read once: options.key and options.max cannot pass the check and then change', () => {
  const q = lab.createQueue({ maxAttempts: 3, ordering: 'key' });
  let reads = 0;
  q.enqueue('a', '', { get key() { return ++reads === 1 ? 'k' : 42; } });
  assert.equal(reads, 1);
  assert.equal(q.ready()[0].key, 'k');
  let flips = 0;
  throwsWith(assert, () => q.enqueue('b', '', { get key() { return ++flips === 1 ? 42 : 'k'; } }), TypeError, 'invalid-type',
    /^key must be a non-empty string, or null \(or left out\) for no key, got 42$/);
  assert.equal(flips, 1);
  let jobReads = 0;
  q.enqueueMany([{ id: 'b', payload: '', get key() { return ++jobReads === 1 ? 'k' : 'x'.repeat(5000); } }]);
  assert.equal(jobReads, 1);
  assert.equal(q.ready()[1].key, 'k');
  q.process('permanent');
  let maxReads = 0;
  assert.equal(q.redrive({ get max() { return ++maxReads === 1 ? 1 : 0; } }), 1);
  assert.equal(maxReads, 1);
  throwsWith(assert, () => q.redrive({ get max() { throw new Error('boom'); } }), TypeError, 'invalid-type',
    /^options could not be read: boom$/);
  throwsWith(assert, () => q.enqueue('c', '', { get key() { throw new Error('boom'); } }), TypeError, 'invalid-type',
    /^options could not be read: boom$/);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  throwsWith(assert, () => q.redrive(proxy), TypeError, 'invalid-type', /^options could not be read: /);
  throwsWith(assert, () => q.enqueue('c', '', proxy), TypeError, 'invalid-type', /^options could not be read: /);
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, quarantine: proxy }), TypeError, 'invalid-type',
    /^options could not be read: /);
  q.dispose();
});

test('the new calls on a disposed queue throw code "disposed"', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.dispose();
  for (const fn of [() => q.releaseKey('k'), () => q.redrive({ max: 1 }), () => q.alarm(), () => q.reorders(),
    () => q.enqueue('a', '', { key: 'k' })]) {
    throwsWith(assert, fn, Error, 'disposed', /^this queue has been disposed/);
  }
});
