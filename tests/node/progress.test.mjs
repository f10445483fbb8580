// Lesson progress as read back from storage (web/src/lessons/progress.mjs): only
// what has the expected shape is kept, anything else is discarded, never trusted;
// and a predict question's answer is kept with the solves, and forgotten with them.
/* global localStorage -- the fake storage this file sets on globalThis */
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

/** A localStorage stand-in holding `text` under the progress key. */
function fakeStorage() {
  const items = new Map();
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => { items.set(k, String(v)); },
    removeItem: (k) => { items.delete(k); },
  };
}
globalThis.localStorage = fakeStorage();
const progress = await import('../../web/src/lessons/progress.mjs');
const { STORAGE_KEY, solvedOn, markSolved, answersOn, markAnswered, resetProgress, validProgress } = progress;

beforeEach(() => { globalThis.localStorage = fakeStorage(); });
const store = (data) => localStorage.setItem(STORAGE_KEY, typeof data === 'string' ? data : JSON.stringify(data));

test('tampered progress is discarded entry by entry, and what is left reads as plain numbers', () => {
  store({ v: 1, pages: { 'lesson-1': {
    'l1-classify': { actions: { toString: 1 } },  // the record: it used to crash the par line
    'l1-count': { actions: 4, par: 4 },
    'l1-tail': { actions: -1, par: 6 },
    'l1-entry': { actions: 2.5, par: null },
    'l1-replay': 'solved',
    'l1-quarantine': { actions: '3', par: 3 },
  }, 'lesson-2': [1, 2], 'lesson-3': null } });
  const solved = solvedOn('lesson-1');
  assert.deepEqual([...solved.keys()], ['l1-count']);
  assert.deepEqual(solved.get('l1-count'), { actions: 4, par: 4 });
  assert.equal(`${solved.get('l1-count').actions}`, '4');
  assert.deepEqual([...solvedOn('lesson-2')], []);
  assert.deepEqual([...solvedOn('lesson-3')], []);
});

test('a store of the wrong shape reads as empty, with no crash', () => {
  for (const text of ['{"actions":{"toString":1}}', 'null', '42', '[]', '"x"', '{', '{"v":2,"pages":{}}',
    '{"v":1,"pages":"x"}', '{"v":1,"pages":{"lesson-1":{"a":{"actions":1,"par":1}}},"answers":7}',
    '{"v":1,"pages":{"__proto__":{"a":{"actions":1,"par":null}}}}']) {
    store(text);
    assert.doesNotThrow(() => solvedOn('lesson-1'), text);
    assert.doesNotThrow(() => answersOn('lesson-1'), text);
    assert.ok(solvedOn('lesson-1').size <= 1, text);
    assert.equal(Object.getPrototypeOf({}).actions, undefined, `${text}: nothing leaks into Object.prototype`);
  }
  // A solve after a damaged read writes a clean record: the damage is gone.
  store({ v: 1, pages: { 'lesson-1': { x: { actions: { toString: 1 } } } } });
  markSolved('lesson-1', 'l1-count', { actions: 3, par: 4 });
  assert.deepEqual(JSON.parse(localStorage.getItem(STORAGE_KEY)),
    { v: 1, pages: { 'lesson-1': { 'l1-count': { actions: 3, par: 4 } } }, answers: {} });
});

test('validProgress keeps a valid store as it is', () => {
  const data = { v: 1, pages: { 'lesson-1': { a: { actions: 3, par: null }, 'b#2': { actions: null, par: 2 } } },
    answers: { 'lesson-2': { 'l2-backoff': 1, 'l2-order': ['a2', 'b1', 'b2', 'a1'] } } };
  assert.deepEqual(JSON.parse(JSON.stringify(validProgress(data))), data);
});

test('a predict answer is kept with the lesson\'s progress, and Reset progress forgets it', () => {
  markAnswered('lesson-2', 'l2-backoff', 7);  // a kept answer that no longer fits the question: asked again, replaced
  markAnswered('lesson-2', 'l2-backoff', 1);
  markAnswered('lesson-2', 'l2-order', ['a2', 'b1']);
  markSolved('lesson-2', 'l2-backoff', { actions: 10, par: 10 });
  assert.deepEqual([...answersOn('lesson-2')], [['l2-backoff', 1], ['l2-order', ['a2', 'b1']]]);
  assert.throws(() => markAnswered('lesson-2', 'l2-lease', { toString: 1 }), /answer: expected a choice's index or a list of job ids/);
  assert.equal(answersOn('lesson-2').has('l2-lease'), false, 'a refused answer changes nothing');
  resetProgress('lesson-2');
  assert.equal(answersOn('lesson-2').size, 0);
  assert.equal(solvedOn('lesson-2').size, 0);
});
