// The Check page's module (wasm/check.mjs over wasm/gen/dlq_check.wasm, the browser module) run
// in Node gives what the native CLI (build/native/dlq-lab) prints for the same files: the same
// standard output in every format, the same standard error and exit code, for corpus cases read
// as folders, files named one by one, a goals config, a link base and the errors (a file it does
// not read, a file that does not parse, a bad config). Bad arguments throw, naming the argument.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadChecker } from '../../wasm/check.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nativeCli = path.join(root, 'build/native/dlq-lab');
const corpus = 'tests/fixtures/check';
const FORMATS = ['text', 'json', 'junit', 'sarif', 'github'];

function cli(args, cwd = root) {
  const result = spawnSync(nativeCli, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(result.error, undefined);
  return { exitCode: result.status, out: result.stdout, err: result.stderr };
}

// A folder's files as `dlq-lab check DIR` finds them: every regular file under it, sorted bytewise.
function folderFiles(dir, cwd = root) {
  const walk = (relative) => readdirSync(path.join(cwd, relative)).flatMap((name) => {
    const child = `${relative}/${name}`;
    return statSync(path.join(cwd, child)).isDirectory() ? walk(child) : [child];
  });
  return walk(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((name) => ({ name, text: readFileSync(path.join(cwd, name), 'utf8'), inFolder: true }));
}

const named = (...names) => names.map((name) => ({ name, text: readFileSync(path.join(root, name), 'utf8') }));

function same(result, expected, what) {
  assert.equal(result.exitCode, expected.exitCode, `${what}: exit code`);
  assert.equal(result.stderr, expected.err, `${what}: standard error`);
  if (expected.exitCode === 2) {
    assert.equal(`dlq-lab: ${result.failure}\n`, expected.err, `${what}: the failure's message`);
  } else {
    assert.equal(result.output, expected.out, `${what}: standard output`);
  }
}

const CASES = ['bullmq', 'cloudformation', 'rabbitmq-4x', 'rabbitmq-operator', 'sidekiq', 'terraform'];

test('each corpus case read as a folder: byte for byte the CLI in every format', async () => {
  const checker = await loadChecker();
  for (const name of CASES) {
    const dir = `${corpus}/${name}`;
    const files = folderFiles(dir);
    for (const format of FORMATS) {
      const result = checker.check(files, { format });
      same(result, cli(['check', dir, '--format', format]), `${dir} --format ${format}`);
    }
    // The text and the report always come too, as the text and json formats print them.
    const result = checker.check(files);
    assert.equal(result.text, cli(['check', dir]).out);
    assert.deepEqual(result.report, JSON.parse(cli(['check', dir, '--format', 'json']).out));
  }
});

test('files named one by one, a link base and --fail-on warning: the CLI\'s bytes and exit code', async () => {
  const checker = await loadChecker();
  const names = [`${corpus}/bullmq/webhooks.json`, `${corpus}/terraform/inline-redrive/plan.json`];
  const linkBase = 'http://127.0.0.1:8080/sub/playground.html';
  for (const failOn of ['error', 'warning']) {
    const result = checker.check(named(...names), { format: 'json', linkBase, failOn });
    same(result, cli(['check', ...names, '--format', 'json', '--link-base', linkBase, '--fail-on', failOn]), `named, fail-on ${failOn}`);
    assert.ok(result.report.findings.some((f) => f.link.startsWith(`${linkBase}#v2`)), 'links use the base');
  }
  // A file reached twice is checked once, as the CLI does.
  same(checker.check([...named(names[0]), ...named(names[0])]), cli(['check', names[0], names[0]]), 'a file named twice');
});

test('a goals config (.dlq-lab.yml) and a bad one: the CLI\'s output and its error naming file and line', async (t) => {
  const checker = await loadChecker();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-check-module-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(root, corpus, 'terraform'), path.join(dir, 'terraform'), { recursive: true });
  const files = folderFiles('terraform', dir);
  for (const config of ['goals:\n  outage: 2h\n  maxTimeToDlq: 10m\n', 'goals:\n  outage: soon\n', 'skip:\n  - rule: JITTER\n    queue: "*"\n']) {
    writeFileSync(path.join(dir, '.dlq-lab.yml'), config);
    same(checker.check(files, { config }), cli(['check', 'terraform'], dir), `config ${JSON.stringify(config)}`);
  }
});

test('a named file it does not read, one that does not parse, and a folder of none: the CLI\'s errors and warning', async () => {
  const checker = await loadChecker();
  const readme = `${corpus}/bullmq/README.md`;
  same(checker.check(named(readme)), cli(['check', readme]), 'a named README');
  // A broken file, named: the CLI's message (in a folder of its own, as the CLI reads it).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-check-module-'));
  try {
    const broken = { name: 'plan.json', text: '{"format_version": "1.2", "planned_values": ' };
    writeFileSync(path.join(dir, broken.name), broken.text);
    const result = checker.check([broken]);
    same(result, cli(['check', broken.name], dir), 'a broken plan.json');
    assert.match(result.failure, /^plan\.json: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const empty = checker.check([{ name: 'docs/README.md', text: '# nothing\n', inFolder: true }]);
  assert.equal(empty.exitCode, 0);
  assert.match(empty.stderr, /^dlq-lab: found no file it reads \(it reads: .*\)\n$/);
  assert.equal(checker.reads, empty.stderr.match(/it reads: (.*)\)\n$/)[1]);
});

test('bad arguments throw, naming the argument, what was expected and what was given', async () => {
  const checker = await loadChecker();
  const file = { name: 'a.json', text: '{}' };
  const throwsLike = (fn, Kind, code, message) => assert.throws(fn, (e) => e instanceof Kind && e.code === code && message.test(e.message));
  throwsLike(() => checker.check('a.json'), TypeError, 'invalid-type', /^check: files must be an array of \{ name, text \}, got "a\.json" \(a string\)$/);
  throwsLike(() => checker.check([null]), TypeError, 'invalid-type', /^check: files\[0\] must be .*, got null$/);
  throwsLike(() => checker.check([{ name: 1, text: '' }]), TypeError, 'invalid-type', /^check: files\[0\]\.name must be a string, got 1$/);
  throwsLike(() => checker.check([{ name: '', text: '' }]), RangeError, 'invalid-argument', /^check: files\[0\]\.name must not be empty, got ""$/);
  throwsLike(() => checker.check([{ ...file, inFolder: 'yes' }]), TypeError, 'invalid-type', /^check: files\[0\]\.inFolder must be a boolean/);
  throwsLike(() => checker.check([file], { format: 'xml' }), RangeError, 'invalid-argument',
    /^check: options\.format: expected text, json, junit, sarif or github, got "xml"$/);
  throwsLike(() => checker.check([file], { failOn: 'note' }), RangeError, 'invalid-argument',
    /^check: options\.failOn: expected warning or error, got "note"$/);
  throwsLike(() => checker.check([file], { config: 3 }), TypeError, 'invalid-type', /^check: options\.config must be a string, got 3$/);
  throwsLike(() => checker.check([file], null), TypeError, 'invalid-type', /^check: options must be an object, got null$/);
  // A getter that throws is an argument error too, and nothing crossed into the module.
  const hostile = [{ name: 'a.json', get text() { throw new Error('boom'); } }];
  throwsLike(() => checker.check(hostile), TypeError, 'invalid-type', /^check: files could not be read: boom$/);
  // The checker still works after every refusal.
  assert.equal(checker.check(named(`${corpus}/bullmq/emails.json`)).exitCode, cli(['check', `${corpus}/bullmq/emails.json`]).exitCode);
});
