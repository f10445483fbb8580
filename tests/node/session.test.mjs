// The session behind every playground (core/session/session.h, lab.createSession): the
// core owns the script, the cursor, the queue and the timeline; a page draws its
// view. No browser here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, linkFixtures, rng, throwsWith } from './helpers.mjs';

const OUTCOMES = ['success', 'transient', 'permanent', 'precondition'];

/** A random action for the session's queue now (it may be refused: then nothing may change). */
function randomAction(pick, view, n) {
  switch (pick(11)) {
    case 0: case 1: case 2: return { type: 'process', outcome: OUTCOMES[pick(4)], error: pick(2) ? 'boom' : '' };
    case 3: return { type: 'enqueue', id: `n${n}`, payload: `p${pick(5)}` };
    case 4: return { type: 'lease' };
    case 5: return { type: 'settle', token: view.leased[0]?.token ?? 'lease-1', outcome: OUTCOMES[pick(4)], error: '' };
    case 6: return { type: 'advance', ms: pick(3000) };
    case 7: return { type: 'advanceToNext' };
    case 8: return { type: 'replay', id: view.quarantined[0]?.id ?? 'a' };
    case 9: return { type: 'redrive', max: 1 };
    default: return { type: 'crash', after: 1 + pick(Math.max(1, view.stats.actions * 3)), torn: pick(3) === 0 };
  }
}

/** The state at the session's cursor, replayed from zero by the core. */
function replayed(session) {
  const q = lab.runScenario(session.scenario());
  try {
    return q.snapshotText();
  } finally {
    q.dispose();
  }
}

test('seek equals replaying from zero, over 1,000 random scripts', () => {
  for (let seed = 1; seed <= 1000; seed++) {
    const pick = rng(seed);
    const session = lab.createSession({
      maxAttempts: 3, backoff: { kind: 'exponential', baseMs: 100, capMs: 5000, jitter: 'full' }, leaseMs: 500, seed,
      jobs: [{ id: 'a', payload: 'x' }, { id: 'b', payload: 'y' }], actions: [],
    });
    try {
      let view = session.view();
      for (let n = 0; n < 24; n++) {
        const before = session.snapshotText();
        const length = view.length;
        try {
          const result = session.act(randomAction(pick, view, n));
          view = result.view;
          if (!result.accepted) assert.equal(session.snapshotText(), before);
        } catch (error) {
          assert.equal(typeof error.code, 'string', error.message);
          assert.equal(session.snapshotText(), before, `seed ${seed}: a refusal changed the queue`);
          assert.equal(session.view().length, length);
        }
      }
      const target = pick(view.length + 1);
      view = session.seek(target).view;
      assert.equal(view.cursor, target);
      assert.equal(session.snapshotText(), replayed(session), `seed ${seed}, cursor ${target}`);
      // The timeline the page holds is the one a fresh load of the same scenario gives.
      const fresh = lab.createSession(session.scenario());
      try {
        assert.deepEqual(fresh.view().timeline.map((e) => e.text), view.timeline.map((e) => e.text), `seed ${seed}`);
      } finally {
        fresh.dispose();
      }
    } finally {
      session.dispose();
    }
  }
});

test('a crash action is the state, and round-trips through a link', () => {
  // Unsafe order: quarantining b removes it from ready before putting it in quarantine.
  const session = lab.createSession({ maxAttempts: 1, unsafeQuarantineOrder: true, jobs: [{ id: 'a', payload: 'order a' }, { id: 'b', payload: 'order b' }], actions: [] });
  try {
    session.step('success');
    session.step('permanent', 'bad');
    const write = session.journal().find((w) => w.op === 'remove-ready' && w.id === 'b').write;
    const { accepted, view } = session.act({ type: 'crash', after: write });
    assert.equal(accepted, true);
    assert.equal(view.stats.lost, 1);
    assert.equal(view.quarantined.length, 0, 'b is in no place');
    assert.match(view.last.explanation, /crashed after write \d+ of \d+ .*lost "b"/);
    assert.equal(view.timeline.at(-1).kind, 'lost');
    const link = view.link ?? session.view({ link: true }).link;
    assert.match(link.text, new RegExp(`,c${write}$`));
    const loaded = lab.createSession(link.text);
    try {
      assert.equal(loaded.snapshotText(), session.snapshotText());
      assert.equal(loaded.view().stats.lost, 1);
    } finally {
      loaded.dispose();
    }
    // Time travel across the crash.
    assert.equal(session.seek(1).view.stats.lost, 0);
    assert.equal(session.seek(3).view.stats.lost, 1);
  } finally {
    session.dispose();
  }
});

test('a bad crash action is refused by name and changes nothing', () => {
  const session = lab.createSession('v1;m3;ja:;at');
  try {
    const { max } = lab.integerFields.after;  // a journal's most writes (lab.limits.journalRecords)
    assert.equal(max, lab.limits.journalRecords);
    throwsWith(assert, () => session.act({ type: 'crash', after: -1 }), RangeError, 'out-of-range', new RegExp(`^action\\.after must be an integer from 0 to ${max}, got -1$`));
    throwsWith(assert, () => session.act({ type: 'crash', after: 1, torn: 'yes' }), TypeError, 'invalid-type', /^action\.torn must be a boolean, got "yes"/);
    throwsWith(assert, () => session.act({ type: 'crash', after: 999 }), RangeError, 'out-of-range', /crash_after|999/);
    assert.equal(session.view().length, 1);
  } finally {
    session.dispose();
  }
});

test('captions belong to the authored script: the history tells when the learner diverged', () => {
  const session = lab.createSession('v1;m3;ja:;at,t,t;c0');
  try {
    let view = session.step('transient').view;
    assert.equal(view.cursor, 1);
    assert.ok(view.cursor <= view.authoredThrough, 'along the script');
    view = session.step('transient').view;
    view = session.step('success').view;  // the script said transient: diverged at position 2
    assert.equal(view.authoredThrough, 2);
    assert.ok(view.cursor > view.authoredThrough, 'the caption for position 3 no longer holds');
    assert.equal(view.stats.completed, 1);
    assert.match(view.last.explanation, /success|completed/i);
    assert.equal(view.dropped.count, 1);
    view = session.undo().view;
    assert.equal(view.authoredThrough, 3);
  } finally {
    session.dispose();
  }
});

test('one crossing into the core per user action', () => {
  const session = lab.createSession('v2;m3;bx100.5000f;s1;ja:x,b:y;at,s,n,s;c0');
  try {
    const actions = [
      () => session.step('transient'),
      () => session.act({ type: 'advanceToNext' }),
      () => session.seek(0),
      () => session.seek(4),
      () => session.undo(),
      () => session.view(),
      () => session.load('v1;m3;ja:,b:;at,s,s'),
    ];
    for (const action of actions) {
      const before = lab.crossings;
      action();
      assert.equal(lab.crossings - before, 1, String(action));
    }
  } finally {
    session.dispose();
  }
});

test('every released link loads into a session with its released timeline', () => {
  for (const { name, link, timeline } of linkFixtures()) {
    const session = lab.createSession(link);
    try {
      assert.equal(session.timelineText(), timeline, name);
    } finally {
      session.dispose();
    }
  }
});

test('the write that matters is found in one pass, and is the one a recovery after it would name', () => {
  const unsafe = lab.createSession({ maxAttempts: 1, unsafeQuarantineOrder: true, jobs: [{ id: 'a', payload: '' }, { id: 'b', payload: '' }], actions: [] });
  const safe = lab.createSession({ maxAttempts: 1, jobs: [{ id: 'a', payload: '' }, { id: 'b', payload: '' }], actions: [] });
  try {
    for (const s of [unsafe, safe]) { s.step('success'); s.step('permanent', 'bad'); }
    const lost = unsafe.writeThatMatters();
    assert.equal(lost.rank, 3);
    const between = unsafe.journal().find((w) => w.op === 'remove-ready' && w.id === 'b').write;
    assert.equal(lost.after, between);
    const r = lab.recover(null, unsafe.journal(), { crashAfter: lost.after });
    assert.deepEqual(r.lost, ['b']);
    r.queue.dispose();
    const kept = safe.writeThatMatters();
    assert.equal(kept.rank, 2, 'the safe order keeps b in quarantine and in ready: kept once, in quarantine');
    const r2 = lab.recover(null, safe.journal(), { crashAfter: kept.after });
    assert.deepEqual(r2.duplicated, ['b']);
    assert.equal(r2.queue.locate('b').place, 'quarantine');
    r2.queue.dispose();
    // After a crash the journal starts again, and nothing in it matters yet.
    unsafe.act({ type: 'crash', after: lost.after });
    assert.equal(unsafe.writeThatMatters(), null);
  } finally {
    unsafe.dispose();
    safe.dispose();
  }
});
