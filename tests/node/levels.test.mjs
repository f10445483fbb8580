// Lessons as levels, the core's side: an exercise's par (lab.goalPar, core/lesson/par.h), the
// bounded path's terms (worstCase().delays, core/systems/backoff.h), and every predict
// question and exercise on the lesson pages answered by the core exactly as the page asks it
// (predict-answer.mjs, the page's own code): one true choice each, an order the run gives, a par.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lab } from './helpers.mjs';
import { coreChoice, coreOrder, orderProblem, parseOrder } from '../../web/src/lessons/predict-answer.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LESSONS = ['lesson-1.html', 'lesson-2.html'];

/** The attributes of an opening tag's text. */
function attributes(tag) {
  return Object.fromEntries([...tag.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].slice(1).map(([, k, v]) => [k, v ?? '']));
}

/** The page's playgrounds (id -> attributes), exercises and predict questions, read from its HTML. */
function readLesson(file) {
  const html = readFileSync(path.join(ROOT, 'web', file), 'utf8');
  const playgrounds = new Map([...html.matchAll(/<dlq-playground\b[^>]*>/g)].map(([tag]) => attributes(tag)).map((a) => [a.id, a]));
  const exercises = [...html.matchAll(/<dlq-exercise\b[^>]*>/g)].map(([tag]) => attributes(tag));
  const predicts = [...html.matchAll(/(<dlq-predict\b[^>]*>)([\s\S]*?)<\/dlq-predict>/g)].map(([, tag, body]) => ({
    ...attributes(tag),
    goals: [...body.matchAll(/<li data-goal="([^"]*)">/g)].map(([, goal]) => goal),
  }));
  return { playgrounds, exercises, predicts };
}

test('goalPar: the first action of the solution after which the goal holds, and the steps then', () => {
  assert.deepEqual(lab.goalPar('order c, b, a; completed = 3', 'v1;m3;ja:,b:,c:;at,t,s,t,s,s;c0'), { actions: 6, steps: 6, moves: 6 });
  assert.deepEqual(lab.goalPar('completed a', 'v1;m3;ja:;at,s,eb:x'), { actions: 2, steps: 2, moves: 2 });
  assert.deepEqual(lab.goalPar('ready a', 'v1;m3;ja:;as'), { actions: 0, steps: 0, moves: 0 });
  assert.deepEqual(lab.goalPar('quarantined a class crash; now = 6000',
    'v2;m3;bx1000.4000n;l1000;s1;ja:;al,w1000,n,l,w1000,n,l,w1000;c0'), { actions: 8, steps: 3, moves: 8 });
  // A scenario object works as its link does.
  assert.deepEqual(lab.goalPar('completed a', lab.parseScenario('v1;m3;ja:;at,s')), { actions: 2, steps: 2, moves: 2 });
  assert.equal(lab.goalPar('quarantined a', 'v1;m3;ja:;as'), null, 'never met: no par');
});

test('moves count the learner\'s own actions: the ones the simulated workers take on Run are not moves', () => {
  // Lesson 2's outage: Show me changes the set-up and runs; its 29 actions are all the world's.
  const outage = readLesson('lesson-2.html').exercises.find((e) => e.for === 'l2-outage');
  const par = lab.goalPar(outage.goal, outage.solution);
  assert.equal(par.actions, 29);
  assert.equal(par.moves, 0, 'the issue\'s "par is 29": none of them is a move');
  assert.equal(lab.learnerMoves(outage.solution), 0, 'a run the world played: no move (the link\'s cursor is at its end: c0 is 0 actions)');
  const played = { ...lab.parseScenario(outage.solution) };
  played.cursor = played.actions.length;
  assert.equal(lab.learnerMoves(played), 0);
  // The learner takes over by hand: an Advance of 50 ms where the world would lease is a move; the rest is the world's.
  assert.equal(lab.learnerMoves('v2;m3;s1;y2.100.0.0;ja:order%20a;aw50,l,w100,k1s'), 1);
  assert.equal(lab.learnerMoves('v2;m3;s1;y2.100.0.0;ja:order%20a;al,w100,k1s'), 0, 'the same job, all by the world');
  // Without a world, every action is a move, up to the cursor.
  assert.equal(lab.learnerMoves('v1;m3;ja:,b:,c:;at,t,s,t,s,s'), 6);
  assert.equal(lab.learnerMoves('v1;m3;ja:,b:,c:;at,t,s,t,s,s;c2'), 2);
  assert.throws(() => lab.learnerMoves('v9;m3'), (e) => e.code === 'unsupported-version');
  assert.throws(() => lab.learnerMoves(7), (e) => e.code === 'invalid-type');
});

test('goalPar refuses a bad goal, a bad link or a broken script by name, like parseGoal and runScenario', () => {
  assert.throws(() => lab.goalPar('attempts a >> 3', 'v1;m3;ja:;as'), (e) => e.code === 'invalid-argument' && /^goal: clause 1/.test(e.message));
  assert.throws(() => lab.goalPar('completed a', 'v9;m3'), (e) => e.code === 'unsupported-version');
  assert.throws(() => lab.goalPar('completed b', 'v1;m3;ja:;as,s;c0'), (e) => /scenario action 2/.test(e.message));
  assert.throws(() => lab.goalPar(42, 'v1;m3;ja:;as'), (e) => e.code === 'invalid-type' && /goal/.test(e.message));
  assert.throws(() => lab.goalPar('completed a', 7), (e) => e.code === 'invalid-type');
});

test('worstCase() gives its terms: attempts × leaseMs plus each run of delays, with the class that gives it', () => {
  const q = lab.createQueue({ maxAttempts: 5, leaseMs: 30000, backoff: { kind: 'exponential', baseMs: 100, capMs: 400 } });
  const w = q.worstCase();
  assert.equal(w.leaseMs, 30000);
  assert.equal(w.attemptsClass, 'transient');
  assert.deepEqual(w.delays, [
    { firstAttempt: 1, lastAttempt: 1, delayMs: 1000, class: 'precondition', ownBackoff: true },
    { firstAttempt: 2, lastAttempt: 2, delayMs: 200, class: 'transient', ownBackoff: false },
    { firstAttempt: 3, lastAttempt: 4, delayMs: 400, class: 'transient', ownBackoff: false },
  ]);
  const sum = w.attempts * w.leaseMs + w.delays.reduce((s, d) => s + (d.lastAttempt - d.firstAttempt + 1) * d.delayMs, 0);
  assert.equal(sum, w.timeMs);
  assert.equal(w.timeMs, 152000, "the issue's 2 min 32 s, now explained");
  q.dispose();
  const huge = lab.createQueue({ maxAttempts: 1000000, backoff: { kind: 'exponential', baseMs: 100, capMs: 60000 } });
  assert.ok(huge.worstCase().delays.length < 16, 'a capped tail is one term');
  huge.dispose();
});

test('worstCase() under the teaching switches: decide-before-count gives one attempt more, count-in-body no bound for crashes', () => {
  const policy = { maxAttempts: 3, leaseMs: 1000, backoff: { kind: 'fixed', baseMs: 500, capMs: 500 } };
  const plain = lab.createQueue(policy);
  assert.deepEqual([plain.worstCase().attempts, plain.worstCase().unbounded], [3, false]);
  plain.dispose();
  const before = lab.createQueue({ ...policy, antiPatterns: { decideBeforeCount: true } });
  const w = before.worstCase();
  assert.equal(w.attempts, 4, 'a budget of 3 gives a 4th attempt');
  assert.equal(w.delays.at(-1).lastAttempt, 3, 'and a wait after the 3rd');
  assert.equal(w.unbounded, false);
  before.dispose();
  const body = lab.createQueue({ ...policy, antiPatterns: { countInBody: true } });
  assert.equal(body.worstCase().unbounded, true);
  body.dispose();
});

test('the page reads an order as typed, and says what is wrong with one', () => {
  assert.deepEqual(parseOrder(' b, c →a '), ['b', 'c', 'a']);
  assert.deepEqual(parseOrder('b > c > a'), ['b', 'c', 'a']);
  assert.equal(orderProblem(['b', 'c', 'a'], ['a', 'b', 'c']), null);
  assert.match(orderProblem([], ['a', 'b']), /^Name each of a, b once/);
  assert.match(orderProblem(['a', 'z'], ['a', 'b']), /no job "z"/);
  assert.match(orderProblem(['a', 'a'], ['a', 'b']), /"a" is named twice/);
  assert.match(orderProblem(['a'], ['a', 'b']), /^Missing b/);
});

for (const file of LESSONS) {
  test(`${file}: every predict question has exactly one answer the core's run makes true`, () => {
    const { playgrounds, predicts } = readLesson(file);
    assert.ok(predicts.length >= 5, `${file} has predict questions`);
    for (const p of predicts) {
      assert.ok(playgrounds.has(p.for), `${file}: predict for="${p.for}" names a playground`);
      const link = p.run ?? playgrounds.get(p.for).scenario;
      if (p.order !== undefined) {
        const ids = parseOrder(p.order);
        const { order } = coreOrder(lab, link, ids, ids);
        assert.equal(order.length, ids.length, `${file} #${p.for}: every job asked about completes`);
        assert.equal(coreOrder(lab, link, ids, order).right, true);
        assert.equal(coreOrder(lab, link, ids, [...order].reverse()).right, false);
      } else {
        assert.ok(p.goals.length >= 2, `${file} #${p.for}: a choice to make`);
        assert.doesNotThrow(() => coreChoice(lab, link, p.goals), `${file} #${p.for}`);
      }
    }
  });

  test(`${file}: every exercise with a Show me run has a par from the core`, () => {
    const { exercises } = readLesson(file);
    for (const e of exercises) {
      if (e.solution === undefined || e['solution-crash'] !== undefined) continue;
      const par = lab.goalPar(e.goal, e.solution);
      assert.ok(par !== null && par.actions > 0, `${file} #${e.for}: Show me meets "${e.goal}" (par ${JSON.stringify(par)})`);
    }
  });
}

test('the Worst case card\'s actual path is read off the core\'s timeline, a step at a time as at once', async () => {
  const { PathTracker, actualPath } = await import('../../web/src/playground/worst-view.mjs');
  const session = lab.createSession('v2;m3;bx1000.4000n;l1000;s1;ja:render%20report%209;al,w1000,n,l,w1000,n,l,w1000');
  const view = session.view();
  const path = actualPath(view.timeline.slice(0, view.eventsAtCursor), view.stats.now);
  assert.equal(path.id, 'a');
  assert.equal(path.attempts, 3);
  assert.deepEqual(path.leases, [1000, 1000, 1000]);
  assert.deepEqual([...path.delays], [[1, 1000], [2, 2000]]);
  assert.deepEqual([path.start, path.end, path.endKind], [0, 6000, 'quarantined']);
  // Fed event by event, the tracker ends where one pass does; mid-lease, the running lease counts up to now.
  const tracker = new PathTracker();
  for (let i = 1; i <= view.eventsAtCursor; i++) tracker.feed(view.timeline, i);
  assert.deepEqual(tracker.furthest(view.stats.now), path);
  const early = session.seek(1).view;  // leased, not yet expired
  const mid = actualPath(early.timeline.slice(0, early.eventsAtCursor), 400);
  assert.deepEqual([mid.attempts, mid.leases, mid.end], [1, [400], null]);
  session.dispose();
});
