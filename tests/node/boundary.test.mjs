// The JS/wasm boundary under a hostile caller: values that change between
// reads, Proxies that lie, revoked Proxies, strings far past every limit, memory
// filled to the cap, and floods of refused calls. The module must never be
// corrupted, every error must be an Error with a code, and a refused call must
// change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { lab, linkFixtures, root, throwsWith } from './helpers.mjs';

const run = promisify(execFile);

/** Asserts `fn` throws an Error that carries a string code, and returns it. */
function coded(fn) {
  let caught;
  assert.throws(fn, (error) => {
    caught = error;
    assert.ok(error instanceof Error, `not an Error: ${error}`);
    assert.equal(typeof error.code, 'string', `no code: ${error}`);
    return true;
  });
  return caught;
}

test('a getter is read once: it cannot pass the check and then hand the core something else', () => {
  let reads = 0;
  const q = lab.runScenario({ maxAttempts: 3, jobs: [{ get id() { return ++reads === 1 ? 'a' : 42; } }] });
  assert.equal(reads, 1);
  assert.deepEqual(q.ready().map((j) => j.id), ['a']);
  q.dispose();

  // The second case: an id whose second read is raw bytes that are not UTF-8.
  let idReads = 0;
  const job = { get id() { return ++idReads === 1 ? 'b' : new Uint8Array([0xff, 0xfe]); }, payload: '' };
  const batch = lab.createQueue({ maxAttempts: 3 });
  batch.enqueueMany([job]);
  assert.equal(idReads, 1);
  assert.equal(batch.replay('b'), false);  // the job is there under its real id:
  assert.deepEqual(batch.ready().map((j) => j.id), ['b']);
  batch.dispose();

  // The other way round: the first read is what is checked, and refused.
  let flips = 0;
  throwsWith(assert, () => lab.runScenario({ maxAttempts: 3, jobs: [{ get id() { return ++flips === 1 ? 42 : 'a'; } }] }),
    TypeError, 'invalid-type', /^scenario\.jobs\[0\]\.id must be a string, got 42$/);
  assert.equal(flips, 1);

  let max = 0;
  throwsWith(assert, () => lab.createQueue({ get maxAttempts() { return ++max === 1 ? '3' : 3; } }), TypeError,
    'invalid-type', /^maxAttempts must be an integer/);
});

test('Proxies that lie about length are copied once, within a limit', () => {
  const endless = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 31 : { id: 'x', payload: '' }) });
  throwsWith(assert, () => lab.runScenario({ maxAttempts: 3, jobs: endless }), RangeError, 'too-large',
    /^scenario\.jobs must be at most 1048576 items, got 2147483648 items$/);
  const q = lab.createQueue({ maxAttempts: 3 });
  throwsWith(assert, () => q.enqueueMany(endless), RangeError, 'too-large',
    /^jobs must be at most 16777216 items, got 2147483648 items$/);
  for (const length of [-1, 1.5, NaN, '2', 2 ** 53]) {
    const liar = new Proxy([], { get: (target, key) => (key === 'length' ? length : undefined) });
    throwsWith(assert, () => q.enqueueMany(liar), TypeError, 'invalid-type', /^jobs has an invalid length: /);
  }
  // A length that grows while being read: the first read is the one used.
  let lengthReads = 0;
  const growing = new Proxy([{ id: 'a', payload: '' }], {
    get: (target, key) => (key === 'length' ? ++lengthReads : target[key]),
  });
  q.enqueueMany(growing);
  assert.equal(lengthReads, 1);
  assert.equal(q.stats().ready, 1);
  q.dispose();
});

test('revoked Proxies, throwing getters and thrown non-Errors become TypeErrors with a code', () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const q = lab.createQueue({ maxAttempts: 3 });
  const before = q.timelineText();
  const throwing = { get id() { throw 42; } };  // not even an Error
  const cases = [
    [() => lab.createQueue(proxy), /^options could not be read: /],
    [() => lab.runScenario(proxy), /^scenario could not be read: /],
    [() => lab.formatScenario(proxy), /^scenario could not be read: /],
    [() => lab.playableActions(proxy), /^scenario could not be read: /],
    [() => lab.randomOutcomes(proxy), /^options could not be read: /],
    [() => lab.runScenario({ maxAttempts: 3, jobs: proxy }), /^scenario\.jobs must be an array, got an object$/],
    [() => lab.runScenario({ maxAttempts: 3, jobs: [proxy] }), /^scenario could not be read: /],
    [() => lab.runScenario({ maxAttempts: 3, jobs: [throwing] }), /^scenario could not be read: 42$/],
    [() => q.enqueueMany(proxy), /^jobs must be an array, got an object$/],
    [() => q.enqueueMany([proxy]), /^jobs could not be read: /],
    [() => q.enqueueMany([throwing]), /^jobs could not be read: 42$/],
  ];
  for (const [fn, message] of cases) throwsWith(assert, fn, TypeError, 'invalid-type', message);
  assert.equal(q.timelineText(), before);
  q.dispose();
});

test('a string far past its limit is refused by its length before anything scans it', () => {
  // 256 M characters ending in a lone surrogate: a well-formedness scan first would refuse it as
  // malformed (TypeError); a byte count first would say 268435459 bytes. Refused by length alone,
  // each says "at least" its UTF-16 length, with the usual name, limit and code.
  const huge = `${'v'.repeat(256 * 1024 * 1024)}\uD800`;
  const at = 256 * 1024 * 1024 + 1;
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', '');
  const s = lab.createSession('v2;m3;s1;ja:');
  const before = [q.timelineText(), s.view({ link: true }).link.text];
  const cases = [
    [() => q.enqueue(huge, ''), `id must be at most 1024 bytes, got at least ${at} bytes`],
    [() => q.enqueue('b', huge), `payload must be at most 16777216 bytes, got at least ${at} bytes`],
    [() => q.enqueue('b', '', { key: huge }), `key must be at most 1024 bytes, got at least ${at} bytes`],
    [() => q.enqueueMany([{ id: huge, payload: '' }]), `jobs[0].id must be at most 1024 bytes, got at least ${at} bytes`],
    [() => q.replay(huge), `id must be at most 1024 bytes, got at least ${at} bytes`],
    [() => q.process(huge), `outcome must be at most 64 bytes, got at least ${at} bytes`],
    [() => q.process('transient', huge), `errorText must be at most 65536 bytes, got at least ${at} bytes`],
    [() => lab.parseScenario(huge), `scenario link must be at most 8192 bytes, got at least ${at} bytes`],
    [() => lab.runScenario(huge), `scenario link must be at most 8192 bytes, got at least ${at} bytes`],
    [() => lab.createSession(huge), `scenario link must be at most 8192 bytes, got at least ${at} bytes`],
    [() => lab.parseGoal(huge), `goal must be at most ${lab.limits.goalBytes} bytes, got at least ${at} bytes`],
    [() => lab.restoreQueue(huge), `snapshot must be at most ${lab.limits.snapshotBytes} bytes, got at least ${at} bytes`],
    [() => lab.recover(null, [huge, huge]),  // 384 MiB is the limit of the records together
      `journal (its records together) must be at most ${lab.limits.journalBytes} bytes, got at least ${2 * at} bytes`],
    [() => s.step('transient', huge), `errorText must be at most 65536 bytes, got at least ${at} bytes`],
    [() => s.addJob(huge, ''), `id must be at most 1024 bytes, got at least ${at} bytes`],
  ];
  const exactly = (message) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  for (const [fn, message] of cases) throwsWith(assert, fn, RangeError, 'too-large', exactly(message));
  assert.deepEqual([q.timelineText(), s.view({ link: true }).link.text], before, 'nothing changed');
  q.dispose();
  s.dispose();
});

test('strings of any size are measured before the copy: wasm memory does not grow', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', '');
  const memory = lab.memoryBytes();
  const huge = 'v'.repeat(200 * 1024 * 1024);
  const cases = [
    [() => lab.parseScenario(huge), /^scenario link must be at most 8192 bytes, got at least 209715200 bytes$/],
    [() => lab.runScenario(huge), /^scenario link must be at most 8192 bytes, got at least 209715200 bytes$/],
    [() => lab.playableActions(huge), /^scenario link must be at most 8192 bytes/],
    [() => q.replay(huge), /^id must be at most 1024 bytes, got at least 209715200 bytes$/],
    [() => q.process(huge), /^outcome must be at most 64 bytes, got at least 209715200 bytes$/],
    [() => q.processMany(huge), /^outcomes must be at most 4194304 bytes, got at least 209715200 bytes$/],
    [() => q.process('success', huge), /^errorText must be at most 65536 bytes, got at least 209715200 bytes$/],
    [() => q.processMany('s', huge), /^errorText must be at most 65536 bytes/],
    [() => q.enqueue(huge, ''), /^id must be at most 1024 bytes/],
    [() => q.enqueue('b', huge), /^payload must be at most 16777216 bytes, got at least 209715200 bytes$/],
    [() => q.enqueue('b', '', { key: huge }), /^key must be at most 1024 bytes, got at least 209715200 bytes$/],
    [() => q.enqueueMany([{ id: 'b', payload: '', key: huge }]), /^jobs\[0\]\.key must be at most 1024 bytes, got at least 209715200 bytes$/],
    [() => q.releaseKey(huge), /^key must be at most 1024 bytes, got at least 209715200 bytes$/],
    [() => lab.runScenario({ maxAttempts: 3, jobs: [{ id: 'b', key: huge }] }), /^scenario\.jobs\[0\]\.key must be at most 1024 bytes/],
  ];
  for (const [fn, message] of cases) throwsWith(assert, fn, RangeError, 'too-large', message);
  // Two-byte characters: the UTF-8 size is what counts, measured without a copy.
  throwsWith(assert, () => q.replay('é'.repeat(513)), RangeError, 'too-large', /^id must be at most 1024 bytes, got 1026 bytes$/);
  throwsWith(assert, () => q.enqueue('b', 'é'.repeat(9 << 20)), RangeError, 'too-large',
    /^payload must be at most 16777216 bytes, got 18874368 bytes$/);
  // A batch whose strings are each within limits but add up past the batch limit.
  const tenMiB = 'p'.repeat(10 << 20);
  const heavy = Array.from({ length: 26 }, (_, i) => ({ id: `h${i}`, payload: tenMiB }));
  throwsWith(assert, () => q.enqueueMany(heavy), RangeError, 'too-large',
    /^jobs \(ids and payloads together\) must be at most 268435456 bytes, got 272629828 bytes$/);
  // Longer than V8's longest string once joined: still the batch limit, by name.
  const sixteenMiB = 'p'.repeat(16 << 20);
  const joinless = Array.from({ length: 40 }, (_, i) => ({ id: `j${i}`, payload: sixteenMiB }));
  throwsWith(assert, () => q.enqueueMany(joinless), RangeError, 'too-large',
    /^jobs \(ids and payloads together\) must be at most 268435456 bytes, got 671088750 bytes$/);
  assert.equal(lab.memoryBytes(), memory, 'nothing was copied into wasm memory');
  assert.equal(q.stats().events, 1);
  q.dispose();
});

// 20,000 calls per entry point: the heap is compared to the byte, so a leak of one byte a call
// shows as 20,000; more calls would only cost time (100,000 took 45 s of the suite).
test('20,000 refused calls per entry point leave the module working and the heap where it was', () => {
  const q = lab.createQueue({ maxAttempts: 2 });
  q.enqueue('a', 'A');
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const longKey = 'k'.repeat(lab.limits.keyBytes + 1);
  let flip = 0;
  // A getter that changes its answer on every read: both answers are refused.
  const flipping = { maxAttempts: 3, jobs: [{ get id() { return ++flip % 2 ? 42 : 'x'.repeat(2000); } }] };
  // Each entry point, refused once in JS and (where it can be) once by the core.
  const refusals = {
    createQueue: [() => lab.createQueue({ maxAttempts: 0 }), () => lab.createQueue(proxy)],
    runScenario: [() => lab.runScenario('v1;m3;ja:;as,s'), () => lab.runScenario(flipping), () => lab.runScenario(proxy)],
    parseScenario: [() => lab.parseScenario('v9;m3'), () => lab.parseScenario(7)],
    formatScenario: [() => lab.formatScenario({ maxAttempts: 3, jobs: [{ id: '' }] }), () => lab.formatScenario(flipping)],
    playableActions: [() => lab.playableActions({ maxAttempts: '3' }), () => lab.playableActions(proxy)],
    randomOutcomes: [() => lab.randomOutcomes({ seed: 1, count: 1, successPercent: 90, transientPercent: 90 })],
    setHeapBudget: [() => lab.setHeapBudget(-1)],
    enqueue: [() => q.enqueue('a', ''), () => q.enqueue('', 'x'), () => q.enqueue(1, 'x')],
    enqueueMany: [() => q.enqueueMany([{ id: 'b', payload: '' }, { id: 'a', payload: '' }]), () => q.enqueueMany([proxy])],
    process: [() => q.process('later'), () => q.process('success', 5)],
    processMany: [() => q.processMany('sx'), () => q.processMany(null)],
    replay: [() => q.replay(3)],
    views: [() => q.ready(-1), () => q.completed(0, 1.5), () => q.quarantined('0'), () => q.timeline(NaN), () => q.delayed(-1),
      () => q.leased('0')],
    // The clock: a policy the core refuses, stale and malformed settles, bad durations, bad scripted actions.
    policy: [() => lab.createQueue({ maxAttempts: 3, backoff: { kind: 'fixed', jitter: 'decorrelated' } }),
      () => lab.createQueue({ maxAttempts: 3, backoff: { baseMs: '1' } }), () => lab.createQueue({ maxAttempts: 3, seed: -1 })],
    settle: [() => q.settle('lease-1', 'success'), () => q.settle('x', 'maybe'), () => q.settle(1, 'success')],
    advance: [() => q.advance(-1), () => q.advance('1'), () => q.advance(2 ** 53)],
    scriptedClock: [() => lab.runScenario({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'settle', token: 'lease-1', outcome: 's' }] }),
      () => lab.runScenario({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'settle', token: 'lease-1', outcome: 'success' }] }),
      () => lab.formatScenario({ maxAttempts: 3, actions: [{ type: 'advance', ms: -5 }] })],
    // Ordering and the operable quarantine: bad policy fields, keys, operator calls and scripted operator actions.
    ordering: [() => lab.createQueue({ maxAttempts: 3, ordering: 'fifo' }), () => lab.createQueue({ maxAttempts: 3, ordering: 1 }),
      () => lab.createQueue({ maxAttempts: 3, quarantine: { retentionMs: -1 } }),
      () => lab.createQueue({ maxAttempts: 3, quarantine: { alarmDepth: '1' } }), () => lab.createQueue({ maxAttempts: 3, quarantine: proxy })],
    keyedEnqueue: [() => q.enqueue('k', '', { key: '' }), () => q.enqueue('k', '', { key: longKey }), () => q.enqueue('k', '', 7),
      () => q.enqueue('a', '', { key: 'k' }), () => q.enqueue('k', '', proxy)],
    keyedEnqueueMany: [() => q.enqueueMany([{ id: 'k', payload: '', key: 'k' }, { id: 'a', payload: '', key: 'k' }]),
      () => q.enqueueMany([{ id: 'k', payload: '', key: 'k\0' }, { id: 'k', payload: '' }]),
      () => q.enqueueMany([{ id: 'k', payload: '', key: 7 }]), () => q.enqueueMany([{ id: 'k', payload: '', key: longKey }])],
    releaseKey: [() => q.releaseKey(''), () => q.releaseKey(longKey), () => q.releaseKey(3)],
    redrive: [() => q.redrive({ max: 0 }), () => q.redrive({ max: 1.5 }), () => q.redrive(5), () => q.redrive({ max: '1' }), () => q.redrive(proxy)],
    reorders: [() => q.reorders(-1), () => q.reorders(0, '1')],
    scriptedOperator: [() => lab.runScenario({ maxAttempts: 3, actions: [{ type: 'releaseKey', key: 'k' }] }),
      () => lab.runScenario({ maxAttempts: 3, actions: [{ type: 'redrive', max: 1 }] }),
      () => lab.runScenario({ maxAttempts: 3, actions: [{ type: 'redrive', max: 0 }] }),
      () => lab.formatScenario({ maxAttempts: 3, jobs: [{ id: 'a', key: '' }] }),
      () => lab.runScenario({ maxAttempts: 3, ordering: 'key', jobs: [{ id: 'a', key: 'k' }, { id: 'a', key: 'k' }] })],
  };
  const before = JSON.stringify([q.ready(), q.stats(), q.alarm(), q.reorders(), q.timelineText()]);
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;  // stack capture would be most of the cost of a refusal
  let heap = 0;
  try {
    // Each call once before the count: a container's first growth stays allocated (a
    // refused keyed batch is appended and undone, and the per-key index keeps its
    // buckets), which is not a leak; any growth after it is.
    for (const calls of Object.values(refusals)) for (const fn of calls) { try { fn(); } catch { /* refused */ } }
    heap = lab.heapInUse();
    for (const [entry, calls] of Object.entries(refusals)) {
      for (let i = 0; i < 20_000; i++) {
        let error = null;
        try { calls[i % calls.length](); } catch (caught) { error = caught; }
        if (!(error instanceof Error) || typeof error.code !== 'string' || error.code === 'aborted') {
          assert.fail(`${entry}, call ${i % calls.length}: expected a coded refusal, got ${error?.code}: ${error}`);
        }
      }
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  assert.equal(lab.aborted, false);
  assert.equal(lab.heapInUse(), heap, 'refused calls leak nothing on the wasm heap');
  assert.equal(JSON.stringify([q.ready(), q.stats(), q.alarm(), q.reorders(), q.timelineText()]), before, 'and change nothing');
  // The module still works: every released link gives its recorded timeline.
  for (const { name, link, timeline } of linkFixtures()) {
    const replayed = lab.runScenario(link);
    assert.equal(replayed.timelineText(), timeline, name);
    replayed.dispose();
  }
  q.dispose();
});

test('the heap budget is readable and settable within the module memory, refusing anything else', () => {
  const { limitBytes, usedBytes } = lab.heapBudget();
  assert.equal(limitBytes, 1024 ** 3);
  assert.ok(usedBytes >= 0);
  throwsWith(assert, () => lab.setHeapBudget(2 ** 31 + 1), RangeError, 'out-of-range',
    /^bytes must be an integer from 0 to 2147483648, got 2147483649$/);
  throwsWith(assert, () => lab.setHeapBudget('1'), TypeError, 'invalid-type', /got "1" \(a string\)$/);
  const q = lab.createQueue({ maxAttempts: 3 });
  lab.setHeapBudget(lab.heapBudget().usedBytes + 100);
  try {
    const error = coded(() => q.enqueue('a', 'x'.repeat(1000)));
    assert.equal(error.code, 'resource-exhausted');
    assert.match(error.message, /^enqueue needs \d+ bytes of the heap budget; \d+ of \d+ are free/);
    assert.equal(q.stats().events, 0);
  } finally {
    lab.setHeapBudget(limitBytes);
  }
  q.enqueue('a', 'x'.repeat(1000));
  q.dispose();
});

/** Runs the memory-filling child in `mode` and returns its JSON report. */
async function fill(mode) {
  const child = path.join(root, 'tests/node/children/fill-memory.mjs');
  const { stdout } = await run(process.execPath, ['--expose-gc', child, mode], { cwd: root, maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop());
}

test('filling memory: the budget refuses cleanly in time, and an abort is refused for good', async () => {
  const [budget, aborted] = await Promise.all([fill('budget'), fill('abort')]);

  // The default budget: a clean, typed refusal; nothing written through null;
  // every queue, old and new, still works, and disposing gives the room back.
  assert.equal(budget.fill.code, 'resource-exhausted');
  assert.equal(budget.fill.name, 'Error');
  assert.ok(budget.stored >= 60, `stored ${budget.stored} × 16 MiB`);
  assert.equal(budget.aborted, false);
  assert.equal(budget.nullPageIsClean, true);
  for (const step of ['bystander', 'newQueue', 'parse', 'dispose', 'afterDispose', 'dropped']) {
    assert.equal(budget[step], 'ok', step);
  }
  assert.equal(budget.nullPageIsCleanAtEnd, true);

  // With the budget raised to the maximum, allocation fails: the core aborts
  // instead of writing at address 0, and every later call says so.
  assert.equal(aborted.fill.code, 'aborted');
  assert.match(aborted.fill.message, /^the WebAssembly core stopped after a fatal error \(Aborted\(OOM\)\) and refuses every call/);
  assert.equal(aborted.aborted, true);
  assert.equal(aborted.nullPageIsClean, true);
  for (const step of ['second', 'bystander', 'newQueue', 'parse', 'afterDispose', 'dropped']) {
    assert.equal(aborted[step].code, 'aborted', step);
  }
  assert.equal(aborted.dispose, 'ok', 'dispose() after an abort only forgets the queue');
  assert.equal(aborted.nullPageIsCleanAtEnd, true);
});
