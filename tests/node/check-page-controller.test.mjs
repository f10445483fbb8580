// The Check page's controller (web/src/check/controller.mjs) with a fake view and a fake
// checker: what it hands the checker (files in order, the pasted file under its name, the config,
// the link base), what it shows for a report, a failure and bad input, and the examples it loads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { CheckController, groupReport } from '../../web/src/check/controller.mjs';
import { EXAMPLES, EXAMPLES_DIR } from '../../web/src/check/examples.mjs';

class FakeView {
  constructor() {
    this.handlers = {};
    this.shown = [];
    this.fields = { paste: '', pasteName: 'plan.json', config: '' };
  }
  bindCheck(h) { this.handlers.check = h; }
  bindFiles(h) { this.handlers.files = h; }
  bindRemove(h) { this.handlers.remove = h; }
  bindClear(h) { this.handlers.clear = h; }
  bindExample(h) { this.handlers.example = h; }
  input() { return { ...this.fields }; }
  clearInput() { this.fields.paste = ''; }
  showExamples(examples) { this.examples = examples; }
  showReads(reads) { this.reads = reads; }
  showFiles(files) { this.files = files.map((f) => f.name); }
  showFailure(message) { this.shown.push({ failure: message }); }
  showNothing() { this.shown.push({ nothing: true }); }
  showReport(view) { this.shown.push({ report: view }); }
  get last() { return this.shown.at(-1); }
}

const REPORT = {
  version: 1,
  queues: [{ name: 'orders', system: 'sqs', file: 'plan.json', line: 3, dlq: 'orders-dlq', attempts: 5, worstCaseMs: 60000 },
    { name: 'orders-dlq', system: 'sqs', file: 'plan.json', line: 9, dlq: '', attempts: null, worstCaseMs: null }],
  findings: [
    { rule: 'DLQ-ALARM', level: 'warning', queue: '', file: 'plan.json', line: 0, message: 'nothing alarms', link: '', skipped: false, reason: '' },
    { rule: 'RETRY-OUTLASTS-OUTAGE', level: 'warning', queue: 'orders', file: 'plan.json', line: 4, message: 'm', link: 'L#v2=x', skipped: false, reason: '' },
    { rule: 'DLQ-RETENTION', level: 'error', queue: 'orders-dlq', file: 'plan.json', line: 10, message: 'r', link: '', skipped: true, reason: 'ok' },
  ],
  summary: { queues: 2, errors: 0, warnings: 2, notes: 0, skipped: 1 },
};

function fakeChecker(result = { exitCode: 0, output: 'out', stderr: '', text: 'text', report: REPORT }) {
  const calls = [];
  return { calls, reads: 'Terraform plan JSON, …', check(files, options) { calls.push({ files, options }); return typeof result === 'function' ? result(files) : result; } };
}

function setUp({ checker = fakeChecker(), fetchText = async (url) => `text of ${url}` } = {}) {
  const view = new FakeView();
  const controller = new CheckController({ view, loadChecker: async () => checker, fetchText, linkBase: 'http://site/playground.html' });
  controller.start();
  return { view, controller, checker };
}

test('the report is grouped by queue in the report\'s order, the findings about whole files last', () => {
  const groups = groupReport(REPORT);
  assert.deepEqual(groups.map((g) => g.queue?.name ?? null), ['orders', 'orders-dlq', null]);
  assert.deepEqual(groups.map((g) => g.findings.map((f) => f.rule)), [['RETRY-OUTLASTS-OUTAGE'], ['DLQ-RETENTION'], ['DLQ-ALARM']]);
  // Every finding is shown once, and the summary's counts are the findings' own.
  const all = groups.flatMap((g) => g.findings).filter((f) => !f.skipped);
  assert.equal(all.filter((f) => f.level === 'warning').length, REPORT.summary.warnings);
});

test('Check hands the files in order, the pasted text under its name last, the config and the link base', async () => {
  const { view, controller, checker } = setUp();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(view.reads, 'Terraform plan JSON, …');
  assert.deepEqual(view.examples, EXAMPLES);
  view.handlers.files([{ name: 'b.json', text: 'B', inFolder: false }, { name: 'infra/a.json', text: 'A', inFolder: true }]);
  assert.deepEqual(view.files, ['b.json', 'infra/a.json']);
  view.fields = { paste: '{"x":1}', pasteName: ' pasted.json ', config: 'goals: { outage: 15m }' };
  await view.handlers.check();
  assert.deepEqual(checker.calls[0].files, [
    { name: 'b.json', text: 'B', inFolder: false }, { name: 'infra/a.json', text: 'A', inFolder: true },
    { name: 'pasted.json', text: '{"x":1}', inFolder: false }]);
  assert.deepEqual(checker.calls[0].options, { config: 'goals: { outage: 15m }', linkBase: 'http://site/playground.html' });
  const { report } = view.last;
  assert.equal(report.exitCode, 0);
  assert.equal(report.text, 'text');
  assert.deepEqual(report.files, ['b.json', 'infra/a.json', 'pasted.json']);
  assert.equal(report.groups.length, 3);
  // A file dropped again replaces the one listed; Remove and Clear.
  controller.addFiles([{ name: 'b.json', text: 'B2', inFolder: false }]);
  assert.deepEqual(controller.files.map((f) => f.text), ['B2', 'A']);
  view.handlers.remove(0);
  assert.deepEqual(view.files, ['infra/a.json']);
  view.handlers.clear();
  assert.deepEqual(view.files, []);
  assert.equal(view.fields.paste, '');
  assert.deepEqual(view.last, { nothing: true });
});

test('an empty config is no config; nothing to check and a pasted file without a name are refused by name', async () => {
  const { view, checker } = setUp();
  await view.handlers.check();
  assert.match(view.last.failure, /^Nothing to check/);
  view.fields = { paste: 'x', pasteName: '  ', config: '  ' };
  await view.handlers.check();
  assert.match(view.last.failure, /^File name: expected .*, got nothing$/);
  assert.equal(checker.calls.length, 0);
  view.fields.pasteName = 'plan.json';
  await view.handlers.check();
  assert.equal(checker.calls[0].options.config, undefined);
});

test('the checker\'s failure (exit 2) and a thrown argument error are shown as they are', async () => {
  const failing = fakeChecker({ exitCode: 2, failure: 'plan.json:3: expected a value', stderr: 'dlq-lab: plan.json:3: expected a value\n' });
  let { view } = setUp({ checker: failing });
  view.fields.paste = '{';
  await view.handlers.check();
  assert.deepEqual(view.last, { failure: 'plan.json:3: expected a value' });
  const throwing = { reads: '', check() { throw new TypeError('check: files[0].name must be a string, got 1'); } };
  ({ view } = setUp({ checker: throwing }));
  view.fields.paste = '{}';
  await view.handlers.check();
  assert.deepEqual(view.last, { failure: 'check: files[0].name must be a string, got 1' });
});

test('an example replaces the files with its corpus files, fetched from the site, and is checked', async () => {
  const fetched = [];
  const { view, checker } = setUp({ fetchText: async (url) => { fetched.push(url); return `T:${url}`; } });
  view.handlers.files([{ name: 'mine.json', text: 'M', inFolder: false }]);
  view.fields.paste = 'leftover';
  const bullmq = EXAMPLES.find((e) => e.id === 'bullmq');
  await view.handlers.example('bullmq');
  assert.deepEqual(fetched, bullmq.files.map((f) => `${EXAMPLES_DIR}/${f}`));
  assert.deepEqual(checker.calls[0].files.map((f) => f.name), bullmq.files);
  assert.equal(checker.calls[0].files[0].text, `T:${EXAMPLES_DIR}/${bullmq.files[0]}`);
  assert.equal(view.fields.paste, '');
  assert.ok(view.last.report);
  // A fetch that fails says which example.
  const broken = setUp({ fetchText: async () => { throw new Error('404 Not Found'); } });
  await broken.view.handlers.example('terraform');
  assert.match(broken.view.last.failure, /Terraform plan \(SQS\)".*404 Not Found/);
});
