// web/src/storm/task-queue.mjs: the storm lab's work split into tasks. Each function runs in a
// task of its own, in order; one that returns a promise (loading uPlot before the first chart,
// charts.mjs) holds the functions queued after it until it settles, and a rejection neither
// stops the queue nor goes unreported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskQueue } from '../../web/src/storm/task-queue.mjs';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const until = async (check) => { for (let i = 0; i < 100 && !check(); i++) await tick(); };

test('each function runs later, in a task of its own, in the order queued', async () => {
  const queue = new TaskQueue();
  const ran = [];
  let sameTask = true;
  queue.later(() => { ran.push('a'); Promise.resolve().then(() => { sameTask = ran.length === 1; }); });
  queue.later(() => ran.push('b'));
  assert.deepEqual(ran, [], 'nothing runs in the caller\'s task');
  await until(() => ran.length === 2);
  assert.deepEqual(ran, ['a', 'b']);
  assert.equal(sameTask, true, 'a\'s microtasks ran before b: b is a task of its own');
});

test('a function that returns a promise holds the queue until it settles', async () => {
  const queue = new TaskQueue();
  const ran = [];
  let release;
  queue.later(() => new Promise((resolve) => { release = resolve; }).then(() => ran.push('loaded')));
  queue.later(() => ran.push('drawn'));
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual(ran, [], 'the next function waits for the load');
  release();
  await until(() => ran.length === 2);
  assert.deepEqual(ran, ['loaded', 'drawn']);
});

test('a rejected promise is reported, and the queue goes on', async () => {
  const reported = [];
  const queue = new TaskQueue({ report: (error) => reported.push(error.message) });
  const ran = [];
  queue.later(() => Promise.reject(new Error('no uPlot')));
  queue.later(() => ran.push('after'));
  await until(() => ran.length === 1 && reported.length === 1);
  assert.deepEqual(ran, ['after']);
  assert.deepEqual(reported, ['no uPlot']);
});
