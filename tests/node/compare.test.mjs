// The compare page's pure parts (web/src/compare): the fragment's syntax read and
// written against the core's own tables, every bad fragment refused by name; a
// column put on a scenario; each job's ending read from the core's events; and
// the diff's sentences from what the core played (model.mjs over the real lab).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import {
  columnFields, parseCompareHash, formatCompareHash, parseColumn, applyColumn, CompareLinkError,
} from '../../web/src/compare/compare-link.mjs';
import { jobEndings, diffSentences, clockTime } from '../../web/src/compare/diff.mjs';
import { CompareModel } from '../../web/src/compare/model.mjs';
import { DEFAULT_HASH, CompareController } from '../../web/src/compare/controller.mjs';

const fields = columnFields(lab.schema);
const POISON = 'v2;m3;s1;hb:pt;jb:,a:';  // b is poison (always a transient failure), a is healthy; the world plays them

test('the columns may name exactly the core\'s systems, and every scenario field of the policy and backoff tables', () => {
  const row = lab.schema.policy.find((r) => r.name === 'system');
  assert.deepEqual(fields.systems, row.choices.map((c) => c.name));
  assert.ok(fields.systems.length >= 5 && fields.systems[0] === 'lab');
  assert.ok(fields.fields.has('maxAttempts') && fields.fields.has('backoff.kind') && fields.fields.has('quarantine.retentionMs'));
  assert.ok(!fields.fields.has('system') && !fields.fields.has('journal'));
});

test('a fragment reads into a link and columns, and writes back to the same text', () => {
  const text = `${POISON}&with=lab,rabbitmq-quorum,sidekiq:maxAttempts=5:backoff.kind=fixed,maxAttempts=21`;
  const request = parseCompareHash(text, fields);
  assert.equal(request.link, POISON);
  assert.deepEqual(request.columns.map((c) => [c.system, c.overrides]), [
    ['lab', []], ['rabbitmq-quorum', []], ['sidekiq', [['maxAttempts', 5], ['backoff.kind', 'fixed']]], [null, [['maxAttempts', 21]]],
  ]);
  assert.deepEqual(request.columns.map((c) => c.text), ['lab', 'rabbitmq-quorum', 'sidekiq:maxAttempts=5:backoff.kind=fixed', 'maxAttempts=21']);
  assert.equal(formatCompareHash(request), text);
  assert.equal(parseColumn('unsafeQuarantineOrder=true', fields).overrides[0][1], true);
  // A browser may hand the fragment back percent-encoded.
  assert.equal(parseCompareHash(`${POISON}&with=lab,sidekiq%3AmaxAttempts=5`, fields).columns[1].text, 'sidekiq:maxAttempts=5');
  assert.equal(parseCompareHash(DEFAULT_HASH, fields).columns.length, 3);
});

test('a bad fragment is refused by name: what was wrong, what was expected, what was given', () => {
  const refused = (text, pattern) => assert.throws(() => parseCompareHash(text, fields),
    (error) => error instanceof CompareLinkError && pattern.test(error.message), text);
  refused(POISON, /needs &with=: expected #<scenario link>&with=<system>,<system>…, got "v2;m3;s1;hb:pt;jb:,a:"/);
  refused('&with=lab,sqs', /no scenario link before &with=/);
  refused(`${POISON}&with=lab`, /with= takes 2 to 4 columns, got 1/);
  refused(`${POISON}&with=lab,sqs,bullmq,sidekiq,rabbitmq-quorum`, /with= takes 2 to 4 columns, got 5/);
  refused(`${POISON}&with=lab,rabbitmq`, /column 2: no system is named "rabbitmq"; expected one of lab, rabbitmq-quorum, /);
  refused(`${POISON}&with=lab,`, /column 2 is empty: expected a system/);
  refused(`${POISON}&with=lab,sqs:bullmq`, /column 2 names two systems, sqs and bullmq/);
  refused(`${POISON}&with=lab,sqs:maxAttempt=3`, /column 2: no policy field is named "maxAttempt"/);
  refused(`${POISON}&with=lab,sqs:maxAttempts=three`, /column 2: maxAttempts takes a whole number, got "three"/);
  refused(`${POISON}&with=lab,sqs:maxAttempts=3:maxAttempts=4`, /column 2 sets maxAttempts twice/);
  refused(`${POISON}&with=lab,sqs:unsafeQuarantineOrder=yes`, /unsafeQuarantineOrder takes true or false, got "yes"/);
  refused(`${POISON}&with=sqs,lab,sqs`, /column 3 \(sqs\) repeats column 1/);
});

test('a column is put on a copy of the scenario: its system and its overrides, nested by their path', () => {
  const scenario = lab.parseScenario(POISON);
  const object = applyColumn(scenario, parseColumn('sidekiq:maxAttempts=5:backoff.baseMs=250', fields));
  assert.equal(object.system, 'sidekiq');
  assert.equal(object.maxAttempts, 5);
  assert.deepEqual(object.backoff, { ...scenario.backoff, baseMs: 250 });
  assert.equal(scenario.system, 'lab', 'the scenario itself is untouched');
  assert.equal(scenario.maxAttempts, 3);
  assert.equal(applyColumn(scenario, parseColumn('maxAttempts=4', fields)).system, 'lab', 'no system: the link\'s');
});

test('a job\'s ending: deliveries are its attempt (and expired-lease) events, its place the core\'s, its time the arrival\'s', () => {
  const events = [
    { id: 'b', kind: 'enqueued', time: 0 }, { id: 'b', kind: 'leased', time: 0 }, { id: 'b', kind: 'expired', time: 30 },
    { id: 'b', kind: 'attempt', time: 40 }, { id: 'b', kind: 'quarantined', time: 40 }, { id: 'b', kind: 'evidence-expired', time: 90 },
    { id: 'a', kind: 'enqueued', time: 0 }, { id: '', kind: 'alarm-raised', time: 40 },
  ];
  const endings = jobEndings(events, new Map([['b', 'dropped'], ['a', 'ready']]));
  assert.deepEqual([...endings], [['b', { place: 'dropped', deliveries: 2, at: 90 }], ['a', { place: 'ready', deliveries: 0, at: 0 }]]);
  assert.deepEqual(jobEndings(events.slice(0, 5), new Map([['b', 'quarantine']])).get('b'), { place: 'quarantine', deliveries: 2, at: 40 });
  assert.equal(clockTime(0), '0 s');
  assert.equal(clockTime(16_000), '16 s');
});

test('the diff says, per job that ends differently, only what differs, the first column last', () => {
  const end = (place, deliveries, at) => ({ place, deliveries, at });
  const columns = [
    { label: 'lab', endings: new Map([['a', end('completed', 1, 0)], ['b', end('quarantine', 3, 0)], ['c', end('completed', 1, 5)]]) },
    { label: 'rabbitmq-quorum', endings: new Map([['a', end('completed', 1, 0)], ['b', end('quarantine', 21, 0)], ['c', end('completed', 1, 5)]]) },
    { label: 'sidekiq', endings: new Map([['a', end('completed', 1, 16_000)], ['b', end('quarantine', 3, 0)], ['c', end('completed', 1, 5)]]) },
  ];
  assert.deepEqual(diffSentences(columns.slice(0, 2)), [{ id: 'b', text: 'rabbitmq-quorum quarantines b after 21 deliveries; lab after 3.' }]);
  assert.deepEqual(diffSentences([columns[0], columns[2]]), [{ id: 'a', text: 'sidekiq completes a at 16 s; lab at 0 s.' }]);
  assert.deepEqual(diffSentences(columns).map((s) => s.text), [
    'rabbitmq-quorum completes a at 0 s; sidekiq at 16 s; lab at 0 s.',
    'rabbitmq-quorum quarantines b after 21 deliveries; sidekiq after 3; lab after 3.',
  ]);
  const other = [columns[0], { label: 'sqs', endings: new Map([['b', end('completed', 2, 0)]]) }];
  assert.deepEqual(diffSentences(other).map((s) => s.text), ['sqs completes b after 2 deliveries; lab quarantines it after 3.']);
  assert.deepEqual(diffSentences([columns[0], columns[0]]), []);
});

test('played by the core: a poison job ahead of a healthy one, lab against rabbitmq-quorum (head requeue)', () => {
  const model = new CompareModel(lab);
  assert.deepEqual(model.systems().map((c) => c.name), fields.systems);
  const results = model.play(model.read(`${POISON}&with=lab,rabbitmq-quorum,rabbitmq-quorum:maxAttempts=21`));
  assert.deepEqual(results.map((r) => r.error), [undefined, undefined, undefined]);
  assert.deepEqual(results.map((r) => r.link), ['v2;m3;s1;hb:pt;jb:,a:', 'v2;m3;s1;rq;hb:pt;jb:,a:', 'v2;m21;s1;rq;hb:pt;jb:,a:']);
  assert.deepEqual(results[1].quarantined.map((q) => [q.id, q.systemReason]), [['b', 'delivery_limit']]);
  const sentences = diffSentences(results.map(({ label, endings }) => ({ label, endings }))).map((s) => s.text);
  // The core decides every time: RabbitMQ returns b to the head, so a waits behind all of b's deliveries.
  const a = [...results.map((r) => r.endings.get('a').at)];
  const b = [...results.map((r) => r.endings.get('b'))];
  assert.ok(a[1] > a[0], 'under rabbitmq-quorum a completes later than under the lab');
  assert.deepEqual(b.map((e) => e.deliveries), [3, 3, 21]);
  assert.deepEqual(sentences, [
    `rabbitmq-quorum quarantines b after 3 deliveries at ${clockTime(b[1].at)}; rabbitmq-quorum:maxAttempts=21 after 21 at ${clockTime(b[2].at)}; lab after 3 at ${clockTime(b[0].at)}.`,
    `rabbitmq-quorum completes a at ${clockTime(a[1])}; rabbitmq-quorum:maxAttempts=21 at ${clockTime(a[2])}; lab at ${clockTime(a[0])}.`,
  ]);
});

test('played by the core: pubsub plays in a column with Pub/Sub\'s own budget, and is refused by name below it', () => {
  const model = new CompareModel(lab);
  const results = model.play(model.read(`${POISON}&with=lab,pubsub:maxAttempts=5,pubsub`));
  assert.equal(results[0].error, undefined);
  assert.equal(results[1].error, undefined);
  assert.equal(results[1].endings.get('b').deliveries, 5);  // max_delivery_attempts 5, then the dead-letter topic
  assert.deepEqual(results[1].quarantined.map((q) => [q.id, q.systemReason]), [['b', '']]);  // Pub/Sub keeps no reason
  assert.equal(results[2].error.code, 'invalid-argument');  // the link's maxAttempts 3 is below Pub/Sub's 5
  assert.match(results[2].error.message, /maxAttempts must be an integer from 5 to 100 with system "pubsub"/);
});

test('a column the core refuses keeps the core\'s error; the others still play; a bad link is the core\'s to name', async () => {
  const model = new CompareModel(lab);
  const results = model.play(model.read('v2;m3;s1;ja:,b:;at,t,t&with=lab,sidekiq,lab:maxAttempts=0'));
  assert.equal(results[0].error, undefined);
  assert.equal(results[1].error.code, 'failed-precondition');
  assert.match(results[1].error.message, /process\(transient\) found nothing ready/);
  assert.equal(results[2].error.code, 'out-of-range');
  assert.match(results[2].error.message, /maxAttempts/);
  assert.throws(() => model.read('v2;m3;zz&with=lab,sqs'), (error) => error.code === 'invalid-argument');
});

// ---- the controller, driven against fake views (the page's flow without a DOM) ----

/** A fake form, results view and window: each records what the controller drew. */
function fakePage(hash = '') {
  const page = { formError: null, refusal: null, drawn: null, cleared: 0, shownLink: null, pushed: [] };
  const listeners = {};
  const form = {
    setSystems() {},
    bindCompare(handler) { page.compare = handler; },
    show({ link }) { page.shownLink = link; },
    showError(message) { page.formError = message; },
  };
  const results = {
    showRefusal(message) { page.refusal = message; },
    render(played, sentences, toEnd) { page.drawn = { played, sentences: sentences.map((s) => s.text), toEnd }; },
    clear() { page.drawn = null; page.cleared += 1; },
  };
  const window = {
    location: { hash },
    addEventListener(type, fn) { listeners[type] = fn; },
    history: { pushState(_state, _title, url) { page.pushed.push(url); window.location.hash = url; } },
  };
  page.hashChange = async (next) => { window.location.hash = next; await listeners.hashchange(); };
  return { page, form, results, window };
}

/** A controller over fake views, started on `hash`; resolves once its first comparison is drawn (a column a task). */
async function startController(hash) {
  const fake = fakePage(hash);
  await new CompareController({ model: new CompareModel(lab), form: fake.form, results: fake.results, window: fake.window }).start();
  return fake.page;
}

// The case: a link as a BullMQ import leaves it (the a/b example's script cut where the third action
// no longer plays), compared with an SQS column that has no backoff: a's retry is due at 1 s in one, at 30 s in the other.
const IMPORTED = 'v2;m3;bx1000.3600000n;s1;rb;ja:x,b:y;at:db,s';
const BULLMQ_VS_SQS = `${IMPORTED}&with=bullmq,sqs:backoff.kind=none`;

test('the summary is read from the played results: a retry due at 1 s in one column and 30 s in the other is named', async () => {
  const page = await startController(`#${BULLMQ_VS_SQS}`);
  assert.equal(page.refusal, null);
  assert.deepEqual(page.drawn.sentences, ['sqs:backoff.kind=none leaves a delayed due back at 30 s; bullmq due back at 1 s.']);
  // The played events say the same: each column's delayed event for a is due when the sentence says.
  const due = page.drawn.played.map((r) => r.events.find((e) => e.id === 'a' && e.kind === 'delayed').until);
  assert.deepEqual(due, [1000, 30_000]);
});

test('a script that stops before a job settles is said, with the comparison played to its end (the job always failing)', async () => {
  const page = await startController(`#${BULLMQ_VS_SQS}`);
  assert.deepEqual(page.drawn.toEnd.ids, ['a']);
  assert.equal(page.drawn.toEnd.hash, 'v2;m3;bx1000.3600000n;s1;rb;ha:pt;ja:x,b:y&with=bullmq,sqs:backoff.kind=none');
  await page.hashChange(`#${page.drawn.toEnd.hash}`);
  assert.equal(page.drawn.toEnd, null, 'played to its end: every job settled');
  assert.deepEqual(page.drawn.sentences, ['sqs:backoff.kind=none quarantines a at 60.3 s; bullmq at 3.3 s.']);
  const quarantined = page.drawn.played.map((r) => r.quarantined.map((q) => q.id));
  assert.deepEqual(quarantined, [['a'], ['a']]);
});

test('a job that ends the same way by another path is named by its first event that differs; the same run says it is the same', async () => {
  const end = { place: 'completed', deliveries: 2, at: 50 };
  const path = (t) => [{ kind: 'enqueued', time: 0 }, { kind: 'attempt', time: 0 }, { kind: 'delayed', time: 0, until: t }, { kind: 'attempt', time: 50 }];
  const column = (label, t) => ({ label, endings: new Map([['a', end]]), paths: new Map([['a', path(t)]]) });
  assert.deepEqual(diffSentences([column('lab', 10), column('sqs', 40)]).map((s) => s.text),
    ['a ends the same way in every column, by another path: its third event is sqs delayed at 0 s (until 40 ms); lab delayed at 0 s (until 10 ms).']);
  assert.deepEqual(diffSentences([column('lab', 10), column('sqs', 10)]), []);
  const page = await startController(`#${IMPORTED}&with=bullmq,bullmq:seed=2`);
  assert.deepEqual(page.drawn.sentences, [], 'the same run in both columns: no sentence, so the page says they play the same');
});

test('a comparison still playing when a newer request comes is dropped: only the newer one is drawn', async () => {
  const fake = fakePage(`#${BULLMQ_VS_SQS}`);
  let draws = 0;
  const render = fake.results.render;
  fake.results.render = (...args) => { draws += 1; render(...args); };
  const first = new CompareController({ model: new CompareModel(lab), form: fake.form, results: fake.results, window: fake.window }).start();
  await fake.page.hashChange(`#${IMPORTED}&with=bullmq,bullmq:seed=2`);  // while the first plays its columns
  await first;
  assert.equal(draws, 1, 'one comparison drawn');
  assert.deepEqual(fake.page.drawn.played.map((r) => r.label), ['bullmq', 'bullmq:seed=2'], 'the newer request\'s');
});

test('the form takes the link as Copy link gives it: a full URL, a #fragment or the bare link', async () => {
  for (const pasted of [`https://dlq.example/playground.html#${IMPORTED}`, `http://127.0.0.1:8080/playground.html#${IMPORTED}`,
    `#${IMPORTED}`, IMPORTED, `  ${IMPORTED}\n`]) {
    const page = await startController('');
    await page.compare({ link: pasted, columns: ['bullmq', 'sqs:backoff.kind=none'] });
    assert.equal(page.formError, null, pasted);
    assert.equal(page.shownLink, IMPORTED, pasted);
    assert.deepEqual(page.pushed, [`#${BULLMQ_VS_SQS}`], pasted);
  }
});

test('a refused form names what was given and clears the comparison on show (it was of another request); the URL stays', async () => {
  const page = await startController(`#${BULLMQ_VS_SQS}`);
  assert.notEqual(page.drawn, null);
  await page.compare({ link: 'https://dlq.example/playground.html', columns: ['bullmq', 'sqs'] });
  assert.equal(page.formError, 'Not compared: Scenario link: expected a scenario link (v2;…), a URL that ends in #v2;… (as Copy link gives) '
    + 'or its #fragment, got a URL with no #fragment: "https://dlq.example/playground.html".');
  assert.equal(page.drawn, null, 'no stale result under the error');
  assert.equal(page.cleared, 1);
  assert.deepEqual(page.pushed, [], 'the URL is left as it was');
  await page.compare({ link: 'https://dlq.example/playground.html#zz', columns: ['bullmq', 'sqs'] });
  assert.match(page.formError, /got a URL with no scenario link after #: "https:\/\/dlq.example\/playground.html#zz"\.$/);
  // The core still names what is wrong with a link it cannot read (character 1 is the link's own, not the URL's).
  await page.compare({ link: `https://dlq.example/playground.html#v2;m3;zz`, columns: ['bullmq', 'sqs'] });
  assert.match(page.formError, /^Not compared: .*malformed/);
  assert.equal(page.drawn, null);
});

test('a comparison is played a call into the core a task: at most one call between two pauses, the drawing after one', async () => {
  const fake = fakePage(`#${BULLMQ_VS_SQS}`);
  let calls = 0;
  let most = 0;
  const counted = new Proxy(lab, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function' || name === 'constructor') return value;
      return (...args) => {
        calls += 1;
        most = Math.max(most, calls);
        return value.apply(target, args);
      };
    },
  });
  let pauses = 0;
  const pause = () => new Promise((resolve) => { setTimeout(() => { pauses += 1; calls = 0; resolve(); }, 0); });
  let drawnAfter = -1;
  const render = fake.results.render;
  fake.results.render = (...args) => { drawnAfter = calls; render(...args); };
  const controller = new CompareController({ model: new CompareModel(counted), form: fake.form, results: fake.results, window: fake.window, pause });
  calls = 0;
  most = 0;
  await controller.start();
  assert.deepEqual(fake.page.drawn.played.map((r) => r.label), ['bullmq', 'sqs:backoff.kind=none']);
  assert.ok(pauses >= 2 * 4, `${pauses} pauses for two columns of at least four calls each`);
  assert.equal(most, 1, 'no task made more than one call into the core');
  assert.equal(drawnAfter, 0, 'the drawing is a task of its own');
});
