// Snapshots, the journal and crash recovery through the JS API (the native half:
// tests/native/durable_test.cpp). Over seeded random runs of every operation:
// a snapshot restores to a queue with the same text that answers the same calls
// the same way; the last snapshot plus the whole journal recovers the live queue
// after every call; a crash after any write (torn or not) loses nothing with the
// safe order, and the unsafe quarantine order loses a job at exactly one write.
// Then byte identity with the native core (tests/fixtures/snapshots/), every
// refusal by name with nothing created, and no leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { lab, root, throwsWith } from './helpers.mjs';

const OUTCOMES = ['success', 'transient', 'permanent', 'undeserializable', 'unknown-schema', 'precondition'];
const WRITE_OPS = ['create', 'enqueue', 'put-ready', 'remove-ready', 'put-delayed', 'remove-delayed', 'put-lease',
  'end-lease', 'put-completed', 'put-quarantine', 'remove-quarantine', 'release-key', 'clock'];
const PLACES = ['ready', 'delayed', 'leased', 'completed', 'quarantine'];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A small seeded PRNG (mulberry32): below(n) is an integer in [0, n). */
function prng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n) => Math.floor(next() * n) };
}

/** A random policy over every knob, as createQueue() takes it. */
function randomPolicy(r) {
  const policy = { maxAttempts: 1 + r.below(4), seed: r.below(1000), leaseMs: 1 + r.below(500) };
  const backoff = r.below(3);
  if (backoff === 1) policy.backoff = { kind: 'fixed', baseMs: 1 + r.below(300), capMs: 1000, jitter: r.below(2) ? 'full' : 'none' };
  if (backoff === 2) {
    policy.backoff = { kind: 'exponential', baseMs: 1 + r.below(200), capMs: 2000,
      jitter: ['none', 'full', 'equal', 'decorrelated'][r.below(4)] };
  }
  policy.ordering = ['none', 'key', 'stall'][r.below(3)];
  policy.quarantine = { retentionMs: r.below(3) === 0 ? 1 + r.below(2000) : 0, alarmDepth: r.below(3) === 0 ? 1 + r.below(3) : 0 };
  policy.unsafeQuarantineOrder = r.below(4) === 0;
  return policy;
}

/** What a call answered, as text: its result, or its refusal. */
function answer(fn) {
  try {
    return JSON.stringify(fn()) ?? 'undefined';
  } catch (error) {
    if (typeof error.code !== 'string' || error.code === 'aborted') throw error;
    return `${error.code}: ${error.message}`;
  }
}

/**
 * One random call on `q` (every operation: enqueue with keys and odd payloads,
 * the six outcomes, lease and settle, the clock, replay, redrive, releaseKey);
 * returns what it answered. `state` holds the ids given and the tokens seen.
 */
function randomOp(q, r, state) {
  const pick = r.below(20);
  if (pick < 5) {
    const id = r.below(10) === 0 && state.next > 0 ? `j${r.below(state.next)}` : `j${state.next++}`;
    let payload = `p${r.below(100)}`;
    if (r.below(5) === 0) payload += '\0 %\n"é😀';
    const key = r.below(2) ? 'ab'[r.below(2)] : undefined;
    return `enqueue ${answer(() => q.enqueue(id, payload, key === undefined ? undefined : { key }))}`;
  }
  if (pick < 10) {
    const error = r.below(3) === 0 ? `err ${r.below(3)}` : '';
    return `process ${answer(() => q.process(OUTCOMES[r.below(6)], error))}`;
  }
  if (pick < 12) {
    return `lease ${answer(() => {
      const grant = q.lease();
      if (grant !== null) state.tokens.push(grant.token);
      return grant;
    })}`;
  }
  if (pick < 14 && state.tokens.length > 0) {
    const token = state.tokens[r.below(state.tokens.length)];
    return `settle ${answer(() => q.settle(token, OUTCOMES[r.below(6)]))}`;
  }
  if (pick < 16) return `advance ${answer(() => q.advance(r.below(700)))}`;
  if (pick < 17) return `next ${answer(() => q.advanceToNext())}`;
  if (pick < 18 && state.next > 0) return `replay ${answer(() => q.replay(`j${r.below(state.next)}`))}`;
  if (pick < 19) return `redrive ${answer(() => q.redrive({ max: 1 + r.below(3) }))}`;
  return `release ${answer(() => q.releaseKey(r.below(2) ? 'a' : 'b'))}`;
}

/** Every observable of a queue but its journal, for equality. */
function observe(q) {
  return {
    ready: q.ready(), delayed: q.delayed(), leased: q.leased(), completed: q.completed(), quarantined: q.quarantined(),
    stats: q.stats(), now: q.now(), policy: q.policy(), rules: q.rules(), alarm: q.alarm(), reorders: q.reorders(),
    worstCase: q.worstCase(), timeline: q.timeline(),
  };
}

/** { id: place } over every job the views show, checking each is in one place. */
function places(q) {
  const at = new Map();
  const put = (jobs, place) => {
    for (const { id } of jobs) {
      assert.ok(!at.has(id), `${id} is in two places`);
      at.set(id, place);
    }
  };
  put(q.ready(), 'ready');
  put(q.delayed(), 'delayed');
  put(q.leased(), 'leased');
  put(q.completed(), 'completed');
  put(q.quarantined(), 'quarantine');
  return at;
}

test('a snapshot restores to an equal queue that continues identically, over 300 random runs', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const r = prng(seed);
    const q = lab.createQueue(randomPolicy(r));
    const state = { next: 0, tokens: [] };
    const before = r.below(40);
    for (let i = 0; i < before; i++) randomOp(q, r, state);
    const text = q.snapshot();
    assert.equal(q.journal().length, 0, 'a snapshot starts a new journal');
    const b = lab.restoreQueue(text);
    assert.equal(b.snapshotText(), text, `seed ${seed}`);
    assert.equal(b.timelineText(), q.timelineText());
    assert.deepEqual(observe(b), observe(q), `seed ${seed}`);
    assert.deepEqual(b.journal(), []);
    // Both continue with the same calls: the same answers, states and timelines.
    const ra = prng(seed * 7919);
    const rb = prng(seed * 7919);
    const sa = { next: state.next, tokens: [...state.tokens] };
    const sb = { next: state.next, tokens: [...state.tokens] };
    for (let i = 0; i < 30; i++) {
      assert.equal(randomOp(b, rb, sb), randomOp(q, ra, sa), `seed ${seed} call ${i}`);
    }
    assert.equal(b.snapshotText(), q.snapshotText(), `seed ${seed}`);
    assert.deepEqual(b.timeline(), q.timeline(), `seed ${seed}`);
    // And both journals since the snapshot are the same writes.
    assert.deepEqual(b.journal(), q.journal(), `seed ${seed}`);
    q.dispose();
    b.dispose();
  }
});

test('the last snapshot plus the whole journal recovers the live queue exactly, after every call', () => {
  let fromCreation = 0;
  let fromSnapshot = 0;
  for (let seed = 1; seed <= 100; seed++) {
    const r = prng(seed + 50_000);
    const q = lab.createQueue(randomPolicy(r));
    let base = null;  // null: since creation
    const state = { next: 0, tokens: [] };
    for (let i = 0; i < 40; i++) {
      randomOp(q, r, state);
      if (r.below(12) === 0) {
        base = q.snapshot();
        assert.equal(q.journal().length, 0);
      }
      const journal = q.journal();
      // Record objects as q.journal() gives them, or (every third call) their record strings as stored.
      const given = i % 3 === 2 ? journal.map((entry) => entry.record) : journal;
      const recovery = lab.recover(base, given);
      const where = `seed ${seed} call ${i}`;
      assert.deepEqual(recovery.lost, [], where);
      assert.deepEqual(recovery.duplicated, [], where);
      assert.equal(recovery.applied, journal.length, where);
      assert.equal(recovery.tornDiscarded, false);
      assert.equal(recovery.queue.snapshotText(), q.snapshotText(), where);
      assert.deepEqual(recovery.queue.journal(), [], 'a recovered queue starts a new journal');
      recovery.queue.dispose();
      if (base === null) fromCreation++;
      else fromSnapshot++;
    }
    q.dispose();
  }
  assert.ok(fromCreation > 100 && fromSnapshot > 100, `${fromCreation} from creation, ${fromSnapshot} from a snapshot`);
});

test('journal(): numbered writes, the op names, id null for the writes of no job', () => {
  const q = lab.createQueue({ maxAttempts: 2, leaseMs: 50 });
  q.enqueue('a', 'x');
  q.lease();
  q.advance(60);
  const journal = q.journal();
  assert.deepEqual(journal.map(({ write }) => write), journal.map((_, i) => i + 1));
  assert.deepEqual(Object.keys(journal[0]), ['write', 'op', 'id', 'record']);
  assert.equal(journal[0].op, 'create');
  assert.equal(journal[0].id, null);
  assert.equal(journal[1].op, 'enqueue');
  assert.equal(journal[1].id, 'a');
  for (const { op, id, record } of journal) {
    assert.ok(WRITE_OPS.includes(op), op);
    assert.equal(id === null, op === 'create' || op === 'clock', `${op} ${id}`);
    assert.equal(typeof record, 'string');
  }
  assert.ok(journal.some(({ op }) => op === 'end-lease'), 'the expiry ended the lease');
  assert.notEqual(q.journal(), q.journal(), 'a fresh copy each time');
  // Recovery from creation with every write: the same queue.
  const recovery = lab.recover(null, journal);
  assert.equal(recovery.applied, journal.length);
  assert.equal(recovery.queue.snapshotText(), q.snapshotText());
  recovery.queue.dispose();
  q.dispose();
});

test('a crash after any write, torn or not, loses nothing with the safe order', () => {
  let duplicates = 0;
  let crashPoints = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const r = prng(seed + 90_000);
    const policy = { ...randomPolicy(r), unsafeQuarantineOrder: false };
    const q = lab.createQueue(policy);
    const state = { next: 0, tokens: [] };
    const fromCreation = seed % 5 === 0;  // some journals since creation, the rest since a snapshot
    for (let i = 0; i < 12; i++) randomOp(q, r, state);
    const base = fromCreation ? null : q.snapshot();
    const idsBefore = fromCreation ? new Map() : places(q);
    for (let i = 0; i < 25; i++) randomOp(q, r, state);
    const journal = q.journal();
    for (let k = fromCreation ? 1 : 0; k <= journal.length; k++) {
      for (const torn of [false, true]) {
        const where = `seed ${seed} k ${k} torn ${torn}`;
        const recovery = lab.recover(base, journal, { crashAfter: k, torn });
        crashPoints++;
        assert.equal(recovery.applied, k, where);
        assert.equal(recovery.tornDiscarded, torn && k < journal.length, where);
        assert.deepEqual(recovery.lost, [], where);
        duplicates += recovery.duplicated.length;
        const rq = recovery.queue;
        const at = places(rq);
        for (const id of idsBefore.keys()) {
          if (!at.has(id)) assert.ok(rq.stats().expired > 0, `${where}: ${id} is gone but nothing expired`);
        }
        assert.equal(rq.stats().lost, 0);
        const keptOnce = rq.timeline().filter((event) => event.kind === 'kept-once');
        assert.deepEqual(keptOnce.map((event) => event.id), recovery.duplicated, where);
        for (const event of keptOnce) {
          assert.ok(PLACES.includes(event.place), event.place);
          assert.equal(at.get(event.id), event.place, `${where}: ${event.id} is where its event says`);
        }
        // The recovered queue works: it takes a step and a snapshot round trip.
        rq.advance(1);
        const again = lab.restoreQueue(rq.snapshotText());
        assert.equal(again.snapshotText(), rq.snapshotText());
        again.dispose();
        rq.dispose();
      }
    }
    q.dispose();
  }
  assert.ok(crashPoints > 1000, `crash points checked: ${crashPoints}`);
  assert.ok(duplicates > 0, 'half-done moves of the safe order really happened and were kept once');
});

test('the unsafe quarantine order loses a job at exactly one write; the safe order keeps it once', () => {
  for (const unsafe of [false, true]) {
    const q = lab.createQueue({ maxAttempts: 1, unsafeQuarantineOrder: unsafe });
    q.enqueue('a', 'x');
    q.enqueue('b', 'y');
    const base = q.snapshot();
    q.process('success');
    q.process('permanent', 'bad payload');  // b -> quarantine
    const journal = q.journal();
    assert.deepEqual(journal.map(({ op, id }) => `${op} ${id}`), ['put-completed a', 'remove-ready a',
      ...(unsafe ? ['remove-ready b', 'put-quarantine b'] : ['put-quarantine b', 'remove-ready b'])]);
    const lostAt = [];
    for (let k = 0; k <= journal.length; k++) {
      for (const torn of [false, true]) {
        const { queue, lost, duplicated } = lab.recover(base, journal, { crashAfter: k, torn });
        if (lost.length > 0 && !torn) lostAt.push(`${k}:${lost.join(',')}`);
        assert.equal(queue.stats().lost, lost.length);
        if (k === 3 && unsafe) {
          assert.deepEqual(lost, ['b']);
          assert.deepEqual(queue.ready(), []);
          assert.deepEqual(queue.quarantined(), []);
          const event = queue.timeline().at(-1);
          assert.equal(event.kind, 'lost');
          assert.equal(event.id, 'b');
          assert.equal(event.place, undefined);
          assert.match(queue.timelineText(), /lost "b"/);
          // A lost job's id stays used.
          throwsWith(assert, () => queue.enqueue('b', 'again'), Error, 'already-exists', /"b"/);
        }
        if (k === 3 && !unsafe) {
          assert.deepEqual(duplicated, ['b']);
          assert.deepEqual(queue.quarantined().map(({ id, lastError }) => [id, lastError]), [['b', 'bad payload']]);
          assert.deepEqual(queue.ready(), []);
          const event = queue.timeline().at(-1);
          assert.equal(event.kind, 'kept-once');
          assert.equal(event.place, 'quarantine');
          assert.match(event.text, /kept-once "b" in quarantine/);
          assert.equal(typeof event.explanation, 'string');
        }
        queue.dispose();
      }
    }
    assert.deepEqual(lostAt, unsafe ? ['3:b'] : []);
    q.dispose();
  }
});

test('random runs with the unsafe order: every loss is a job whose quarantine move was cut in two', () => {
  let losses = 0;
  for (let seed = 1; seed <= 40 && losses < 5; seed++) {
    const r = prng(seed + 70_000);
    const q = lab.createQueue({ ...randomPolicy(r), unsafeQuarantineOrder: true });
    const state = { next: 0, tokens: [] };
    for (let i = 0; i < 30; i++) randomOp(q, r, state);
    const journal = q.journal();
    for (let k = 1; k <= journal.length; k++) {
      const { queue, lost } = lab.recover(null, journal, { crashAfter: k });
      if (lost.length > 0) {
        losses += lost.length;
        // The last write applied took the job from its source; the next one would have put it in quarantine.
        assert.deepEqual(lost, [journal[k - 1].id], `seed ${seed} k ${k}`);
        assert.equal(journal[k]?.op, 'put-quarantine', `seed ${seed} k ${k}`);
        assert.equal(queue.stats().lost, lost.length);
        assert.deepEqual(queue.timeline().filter((event) => event.kind === 'lost').map((event) => event.id), lost);
      }
      queue.dispose();
    }
    q.dispose();
  }
  assert.ok(losses > 0, 'some random run quarantined a job');
});

test('leases survive a restore and a recovery: tokens still settle, expiries still fire', () => {
  const q = lab.createQueue({ maxAttempts: 3, leaseMs: 100 });
  q.enqueue('a', 'x');
  q.enqueue('b', 'y');
  const ga = q.lease();
  q.lease();
  q.advance(10);
  const restored = lab.restoreQueue(q.snapshotText());
  assert.equal(restored.settle(ga.token, 'success').id, 'a');
  throwsWith(assert, () => restored.settle(ga.token, 'success'), Error, 'stale-lease', /lease-1/);
  const { queue } = lab.recover(null, q.journal());
  assert.equal(queue.leased().length, 2);
  assert.equal(queue.advanceToNext(), 100);
  assert.equal(queue.stats().leased, 0);
  assert.deepEqual(queue.ready().map(({ id, attempts }) => [id, attempts]), [['a', 1], ['b', 1]]);
  for (const x of [q, restored, queue]) x.dispose();
});

test('snapshot text is byte-identical to the native core\'s (tests/fixtures/snapshots/)', () => {
  const dir = path.join(root, 'tests/fixtures/snapshots');
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.snap')).sort() : [];
  assert.ok(files.length > 0, `no *.snap fixtures in ${dir}`);
  for (const name of files) {
    const bytes = readFileSync(path.join(dir, name));
    const text = bytes.toString('utf8');
    assert.ok(Buffer.from(text, 'utf8').equals(bytes), `${name} is UTF-8`);
    const q = lab.restoreQueue(text);
    assert.ok(Buffer.from(q.snapshotText(), 'utf8').equals(bytes), `${name}: snapshotText()`);
    assert.ok(Buffer.from(q.snapshot(), 'utf8').equals(bytes), `${name}: snapshot()`);
    // A snapshot named after a released link is that link's state: made here from scratch, the same bytes.
    const link = path.join(root, 'tests/fixtures/links', name.replace(/\.snap$/, '.link'));
    if (existsSync(link)) {
      const run = lab.runScenario(readFileSync(link, 'utf8').trimEnd());
      assert.ok(Buffer.from(run.snapshotText(), 'utf8').equals(bytes), `${name}: the link's queue`);
      assert.equal(q.timelineText(), run.timelineText(), name);
      run.dispose();
    }
    q.dispose();
  }
});

test('snapshot text is canonical: equal states, equal texts, starting with the version and the policy', () => {
  const [a, b] = [lab.createQueue({ maxAttempts: 3 }), lab.createQueue({ maxAttempts: 3 })];
  for (const q of [a, b]) {
    q.enqueue('x', '1');
    q.process('transient');
  }
  assert.equal(a.snapshot(), b.snapshotText());
  assert.ok(a.snapshotText().startsWith('dlq-snapshot 1\npolicy 3 none 1000 60000 none 30000 1 none 0 0 0 1\n'));
  a.dispose();
  b.dispose();
});

test('createQueue: unsafeQuarantineOrder and journal are booleans; policy() gives them back; links carry the first', () => {
  const plain = lab.createQueue({ maxAttempts: 3 });
  assert.equal(plain.policy().unsafeQuarantineOrder, false);
  assert.equal(plain.policy().journal, true);
  assert.equal(plain.stats().lost, 0);
  plain.dispose();
  const set = lab.createQueue({ maxAttempts: 3, unsafeQuarantineOrder: true, journal: false });
  assert.equal(set.policy().unsafeQuarantineOrder, true);
  assert.equal(set.policy().journal, false);
  const again = lab.createQueue(set.policy());  // policy() is an options object
  assert.deepEqual(again.policy(), set.policy());
  again.dispose();
  for (const [options, message] of [
    [{ unsafeQuarantineOrder: 'yes' }, 'unsafeQuarantineOrder must be a boolean, got "yes" (a string)'],
    [{ unsafeQuarantineOrder: 1 }, 'unsafeQuarantineOrder must be a boolean, got 1'],
    [{ unsafeQuarantineOrder: null }, 'unsafeQuarantineOrder must be a boolean, got null'],
    [{ journal: 0 }, 'journal must be a boolean, got 0'],
    [{ journal: 'false' }, 'journal must be a boolean, got "false" (a string)'],
  ]) {
    throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, ...options }), TypeError, 'invalid-type',
      new RegExp(`^${escape(message)}$`));
  }
  // No journal kept: journal() is refused; snapshots still round-trip.
  set.enqueue('a', 'x');
  throwsWith(assert, () => set.journal(), Error, 'failed-precondition',
    /^this queue keeps no journal \(its policy has journal: false\)$/);
  const restored = lab.restoreQueue(set.snapshot());
  assert.equal(restored.snapshotText(), set.snapshotText());
  assert.equal(restored.policy().journal, false);
  restored.dispose();
  set.dispose();
  // A v2 link carries unsafeQuarantineOrder (q…u), so scenario objects take it; the journal switch
  // is bookkeeping no link carries: a scenario object ignores it like any other unknown field.
  const scripted = lab.runScenario({ maxAttempts: 3, unsafeQuarantineOrder: true, journal: false });
  assert.equal(scripted.policy().unsafeQuarantineOrder, true);
  assert.equal(scripted.policy().journal, true);
  scripted.dispose();
  const link = lab.formatScenario({ maxAttempts: 3, unsafeQuarantineOrder: true });
  assert.match(link, /;q0\.0u(;|$)/);
  const parsed = lab.parseScenario(link);
  assert.equal(parsed.unsafeQuarantineOrder, true);
  assert.equal('journal' in parsed, false);
  assert.equal(lab.parseScenario('v2;m3;s1').unsafeQuarantineOrder, false);
  assert.equal(lab.formatScenario(parsed), link);
  throwsWith(assert, () => lab.runScenario({ maxAttempts: 3, unsafeQuarantineOrder: 'yes' }), TypeError, 'invalid-type',
    /^scenario\.unsafeQuarantineOrder must be a boolean, got "yes" \(a string\)$/);
});

/** A small snapshot with every kind of entry: ready, delayed, leased, quarantined, a key, odd payload bytes. */
function smallSnapshot() {
  const q = lab.createQueue({ maxAttempts: 3, backoff: { kind: 'exponential', baseMs: 100, capMs: 1000, jitter: 'full' },
    quarantine: { retentionMs: 5000 } });
  q.enqueue('a', 'x', { key: 'k' });
  q.enqueue('b', '\0é');
  q.enqueue('c', 'z');
  q.process('transient', 'timeout');
  q.process('unknown-schema');
  q.lease();
  const text = q.snapshotText();
  q.dispose();
  return text;
}

test('restoreQueue refuses what is not a whole, unaltered snapshot of this version, creating nothing', () => {
  const text = smallSnapshot();
  lab.restoreQueue(text).dispose();
  const heap = lab.heapInUse();
  throwsWith(assert, () => lab.restoreQueue('nope'), Error, 'invalid-snapshot', /not a dlq-lab snapshot/);
  throwsWith(assert, () => lab.restoreQueue(''), Error, 'invalid-snapshot', /not a dlq-lab snapshot/);
  throwsWith(assert, () => lab.restoreQueue('v2;m3'), Error, 'invalid-snapshot', /not a dlq-lab snapshot/);
  throwsWith(assert, () => lab.restoreQueue(42), TypeError, 'invalid-type', /^text must be a snapshot string from q\.snapshot\(\), got 42$/);
  throwsWith(assert, () => lab.restoreQueue(undefined), TypeError, 'invalid-type', /got undefined$/);
  throwsWith(assert, () => lab.restoreQueue(`${text}\uD800`), TypeError, 'invalid-type',
    new RegExp(`^text must be a well-formed string, but it has a lone surrogate at index ${text.length}$`));
  // Every truncation.
  for (let cut = 0; cut < text.length; cut++) {
    assert.throws(() => lab.restoreQueue(text.slice(0, cut)), (error) => {
      assert.equal(error.code, 'invalid-snapshot', `cut at ${cut}: ${error.message}`);
      return true;
    });
  }
  // Every position flipped (in UTF-16 units: a flip past 0x7F changes the UTF-8 length too).
  let unsupported = 0;
  for (let i = 0; i < text.length; i++) {
    for (const flip of [0x01, 0x03, 0x20, 0x80]) {
      const bad = text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ flip) + text.slice(i + 1);
      if (!bad.isWellFormed()) continue;  // a surrogate half turned into another: refused in JS as not well-formed
      assert.throws(() => lab.restoreQueue(bad), (error) => {
        assert.ok(['invalid-snapshot', 'unsupported-version'].includes(error.code), `char ${i} ^ ${flip}: ${error.code} ${error.message}`);
        if (error.code === 'unsupported-version') unsupported++;
        return true;
      });
    }
  }
  assert.ok(unsupported > 0, 'the version digit');
  // A future version, before any other check.
  throwsWith(assert, () => lab.restoreQueue(`dlq-snapshot 2${text.slice(14)}`), Error, 'unsupported-version',
    /^snapshot is format version 2; this build reads version 1 and older$/);
  assert.equal(lab.heapInUse(), heap, 'nothing was created');
});

test('snapshots and journals past the size limits are refused before anything is copied', () => {
  const memory = lab.memoryBytes();
  const heap = lab.heapInUse();
  const limit = lab.limits.snapshotBytes;
  assert.equal(limit, 128 * 1024 * 1024);
  // A journal's limits agree: 256 B a record (docs/snapshot-format.md).
  assert.equal(lab.limits.journalRecords, 1572864);
  assert.equal(lab.limits.journalBytes, 384 * 2 ** 20);
  assert.equal(lab.limits.journalBytes / lab.limits.journalRecords, 256);
  const huge = 'd'.repeat(limit + 1);
  throwsWith(assert, () => lab.restoreQueue(huge), RangeError, 'too-large',
    /^snapshot must be at most 134217728 bytes, got at least 134217729 bytes$/);
  throwsWith(assert, () => lab.recover(huge, []), RangeError, 'too-large',
    /^snapshot must be at most 134217728 bytes, got at least 134217729 bytes$/);
  // Three records of 128 MiB + 1 byte: one byte past the journal's 384 MiB … and two more.
  throwsWith(assert, () => lab.recover(null, [huge, huge, { record: huge }]), RangeError, 'too-large',
    /^journal \(its records together\) must be at most 402653184 bytes, got at least 402653187 bytes$/);
  // UTF-8 bytes count, measured without a copy: 2 bytes per 'é'.
  throwsWith(assert, () => lab.restoreQueue('é'.repeat(limit / 2 + 1)), RangeError, 'too-large',
    /^snapshot must be at most 134217728 bytes, got 134217730 bytes$/);
  const endless = new Proxy([], { get: (target, key) => (key === 'length' ? lab.limits.journalRecords + 1 : 'x') });
  throwsWith(assert, () => lab.recover(null, endless), RangeError, 'too-large',
    /^journal must be at most 1572864 items, got 1572865 items$/);
  assert.equal(lab.memoryBytes(), memory, 'nothing was copied into wasm memory');
  assert.equal(lab.heapInUse(), heap);
});

test('recover refuses bad arguments by name, and journals that are not its own, creating nothing', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'x');
  const base = q.snapshot();
  q.process('transient');
  q.process('success');
  const journal = q.journal();
  assert.equal(journal.length, 4);
  const other = lab.restoreQueue(base);
  other.process('permanent');
  const theirs = other.journal();
  const fresh = lab.createQueue({ maxAttempts: 3 });
  fresh.enqueue('a', 'x');
  const since = fresh.journal();
  lab.recover(base, journal).queue.dispose();
  const heap = lab.heapInUse();

  const type = (fn, message) => throwsWith(assert, fn, TypeError, 'invalid-type', new RegExp(`^${escape(message)}$`));
  // The snapshot: a string, or null (from creation).
  type(() => lab.recover(undefined, journal), 'snapshot must be a snapshot string from q.snapshot(), or null to recover from creation, got undefined');
  type(() => lab.recover(7, journal), 'snapshot must be a snapshot string from q.snapshot(), or null to recover from creation, got 7');
  type(() => lab.recover({}, journal), 'snapshot must be a snapshot string from q.snapshot(), or null to recover from creation, got an object');
  // The journal: an array of record objects (or record strings).
  type(() => lab.recover(base, 'records'), 'journal must be an array, got "records" (a string)');
  type(() => lab.recover(base, undefined), 'journal must be an array, got undefined');
  type(() => lab.recover(base, { 0: journal[0], length: 1 }), 'journal must be an array, got an object');
  type(() => lab.recover(base, [journal[0], journal[1], journal[2], 42]),
    'journal[3] must be a journal record object from q.journal() (or its record string), got 42');
  type(() => lab.recover(base, [null]), 'journal[0] must be a journal record object from q.journal() (or its record string), got null');
  type(() => lab.recover(base, [[journal[0].record]]),
    'journal[0] must be a journal record object from q.journal() (or its record string), got an array');
  type(() => lab.recover(base, [{ write: 1, op: 'clock' }]), 'journal[0].record must be a string, got undefined');
  type(() => lab.recover(base, [journal[0], { record: 5 }]), 'journal[1].record must be a string, got 5');
  type(() => lab.recover(base, [journal[0], { record: 'x\uDC00' }]),
    'journal[1].record must be a well-formed string, but it has a lone surrogate at index 1');
  type(() => lab.recover(base, ['\uD800']), 'journal[0] must be a well-formed string, but it has a lone surrogate at index 0');
  // The options: { crashAfter?, torn? } and nothing else.
  type(() => lab.recover(base, journal, 3), 'options must be an object such as { crashAfter: 3, torn: false }, got 3');
  type(() => lab.recover(base, journal, null), 'options must be an object such as { crashAfter: 3, torn: false }, got null');
  type(() => lab.recover(base, journal, [4]), 'options must be an object such as { crashAfter: 3, torn: false }, got an array');
  for (const key of ['crashafter', 'tear', 'applied']) {
    throwsWith(assert, () => lab.recover(base, journal, { crashAfter: 1, [key]: true }), RangeError, 'invalid-argument',
      new RegExp(`^${escape(`options: a recover() option must be one of "crashAfter", "torn", got "${key}"`)}$`));
  }
  const range = "crashAfter must be an integer from 0 to 4 (the journal's length), got ";
  type(() => lab.recover(base, journal, { crashAfter: '2' }), `${range}"2" (a string)`);
  type(() => lab.recover(base, journal, { crashAfter: null }), `${range}null`);
  type(() => lab.recover(base, journal, { crashAfter: 2n }), `${range}2n (a bigint)`);
  for (const [value, shown] of [[5, '5'], [-1, '-1'], [2.5, '2.5'], [NaN, 'NaN'], [Infinity, 'Infinity'], [2 ** 53, '9007199254740992']]) {
    throwsWith(assert, () => lab.recover(base, journal, { crashAfter: value }), RangeError, 'out-of-range',
      new RegExp(`^${escape(range + shown)}$`));
  }
  // From creation the range starts at 1: write 1 creates the queue. (5 comes from the core, 0.5 from JS: the same words.)
  for (const [value, shown] of [[0, '0'], [3, '3'], [0.5, '0.5']]) {
    throwsWith(assert, () => lab.recover(null, since, { crashAfter: value }), RangeError, 'out-of-range',
      new RegExp(`^${escape(`crashAfter must be an integer from 1 to 2 (the journal's length; write 1 creates the queue), got ${shown}`)}$`));
  }
  for (const torn of [1, 'true', null]) {
    throwsWith(assert, () => lab.recover(base, journal, { torn }), TypeError, 'invalid-type', /^torn must be a boolean, got /);
  }
  // Records the core refuses, each named.
  const invalid = (fn, pattern) => throwsWith(assert, fn, RangeError, 'invalid-argument', pattern);
  invalid(() => lab.recover(base, [journal[0], theirs[1], journal[2], journal[3]]), /^journal\[1\] /);
  invalid(() => lab.recover(base, [journal[1], journal[0], journal[2], journal[3]]), /^journal\[0\] does not follow/);
  const damaged = journal[2].record.replace(/^(.{5})./, (_, head) => head + (journal[2].record[5] === 'x' ? 'y' : 'x'));
  invalid(() => lab.recover(base, [journal[0], journal[1], damaged, journal[3]]), /^journal\[2\] must be a journal record of this lab/);
  invalid(() => lab.recover(base, [journal[0], 'a record\0with NUL']), /^journal\[1\] must be a journal record of this lab/);
  invalid(() => lab.recover(base, since), /^journal\[0\] /);  // a journal since creation against a snapshot
  invalid(() => lab.recover(null, journal), /^journal\[0\] must create the queue/);
  throwsWith(assert, () => lab.recover('nope', journal), Error, 'invalid-snapshot', /not a dlq-lab snapshot/);
  // A record cut short past crashAfter is never read.
  lab.recover(base, [...journal.slice(0, 3), 'garbage'], { crashAfter: 3 }).queue.dispose();
  assert.equal(lab.heapInUse(), heap, 'nothing was created');
  for (const x of [q, other, fresh]) x.dispose();
});

test('recover reads each value once: getters run once, a throwing Proxy is a TypeError naming its argument', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'x');
  const journal = q.journal();
  let reads = 0;
  const flipping = journal.map((entry, i) => (i === 1 ? { get record() { return ++reads === 1 ? entry.record : 42; } } : entry));
  const { queue, applied } = lab.recover(null, flipping);
  assert.equal(reads, 1);
  assert.equal(applied, journal.length);
  queue.dispose();
  let optionReads = 0;
  const options = { get crashAfter() { optionReads++; return 1; } };
  lab.recover(null, journal, options).queue.dispose();
  assert.equal(optionReads, 1);
  const hostile = new Proxy({}, { get() { throw new Error('boom'); }, ownKeys() { throw new Error('keys'); } });
  throwsWith(assert, () => lab.recover(null, [hostile]), TypeError, 'invalid-type', /^journal could not be read: boom$/);
  throwsWith(assert, () => lab.recover(null, journal, hostile), TypeError, 'invalid-type', /^options could not be read: keys$/);
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  throwsWith(assert, () => lab.recover(null, proxy), TypeError, 'invalid-type', /^journal must be an array, got /);
  q.dispose();
});

test('2,000 snapshot/restore/recover/dispose cycles, refusals among them, leave the heap where it was', () => {
  const make = (i) => {
    const q = lab.createQueue({ maxAttempts: 2, leaseMs: 20, backoff: { kind: 'fixed', baseMs: 5 }, ordering: i % 2 ? 'key' : 'none',
      unsafeQuarantineOrder: i % 3 === 0 });
    q.enqueue(`a${i}`, 'payload'.repeat(10), { key: 'k' });
    q.enqueueMany([{ id: 'b', payload: '\0' }, { id: 'c', payload: 'y', key: 'k' }]);
    return q;
  };
  function cycle(i) {
    const q = make(i);
    const base = q.snapshot();
    q.process('transient', `error ${i}`);
    q.lease();
    q.process('permanent');
    q.advance(30);
    q.process('success');
    const journal = q.journal();
    const restored = lab.restoreQueue(base);
    restored.process('success');
    restored.snapshotText();
    restored.dispose();
    const recovery = lab.recover(base, journal, { crashAfter: i % (journal.length + 1), torn: i % 2 === 0 });
    recovery.queue.timeline();
    recovery.queue.snapshot();
    recovery.queue.dispose();
    const created = lab.createQueue({ maxAttempts: 1, journal: i % 5 !== 0 });
    if (i % 5 !== 0) lab.recover(null, created.journal()).queue.dispose();  // from creation
    created.dispose();
    try { lab.restoreQueue(base.slice(0, -3)); } catch { /* refused on purpose: a refusal must not leak either */ }
    try { lab.recover(base, [...journal.slice(0, 2), 'x']); } catch { /* refused on purpose */ }
    try { lab.recover(base, journal, { crashAfter: journal.length + 1 }); } catch { /* refused on purpose */ }
    q.dispose();
  }
  for (let i = 0; i < 50; i++) cycle(i);  // warm-up: first-use allocations
  const heap = lab.heapInUse();
  const memory = lab.memoryBytes();
  for (let i = 0; i < 2000; i++) cycle(i);
  assert.equal(lab.heapInUse(), heap, 'bytes allocated on the wasm heap');
  assert.equal(lab.memoryBytes(), memory, 'wasm linear memory size');
});
