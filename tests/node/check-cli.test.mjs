// dlq-lab's two front doors print the same bytes: build/native/dlq-lab and the same C++
// through WebAssembly for Node (wasm/bin/dlq-lab.mjs, what `npx dlq-lab` runs) are run on
// the fixture corpus (tests/fixtures/check/**) in every format, on usage errors and on
// hostile input, and must agree on standard output, standard error and the exit code.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nativeCli = path.join(root, 'build/native/dlq-lab');
const nodeCli = path.join(root, 'wasm/bin/dlq-lab.mjs');
const corpus = 'tests/fixtures/check';

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'buffer', maxBuffer: 64 << 20 });
  assert.equal(result.error, undefined, `${command}: ${result.error}`);
  return { status: result.status, signal: result.signal, out: result.stdout, err: result.stderr };
}

// Both front doors on the same arguments, from the same working directory; they must agree.
function both(args, cwd = root) {
  const native = run(nativeCli, args, cwd);
  const wasm = run(process.execPath, [nodeCli, ...args], cwd);
  const what = `dlq-lab ${args.join(' ')}`;
  assert.equal(wasm.status, native.status, `${what}: exit codes (native ${native.status}, node ${wasm.status})\n` +
    `native stderr: ${native.err}\nnode stderr: ${wasm.err}`);
  assert.ok(native.out.equals(wasm.out), `${what}: standard output differs\n--- native\n${native.out}\n--- node\n${wasm.out}`);
  assert.ok(native.err.equals(wasm.err), `${what}: standard error differs\n--- native\n${native.err}\n--- node\n${wasm.err}`);
  return { status: native.status, out: native.out.toString('utf8'), err: native.err.toString('utf8') };
}

// The corpus's cases: each first-level folder but the format goldens is one project, read as a
// directory (the RabbitMQ cases describe the same queues as three clusters would, so the corpus
// as a whole is not one project: a queue declared twice is an error).
function corpusCases() {
  return readdirSync(path.join(root, corpus)).filter((name) => name !== 'formats')
    .map((name) => `${corpus}/${name}`).filter((relative) => statSync(path.join(root, relative)).isDirectory()).sort();
}

// The corpus's input files: everything under tests/fixtures/check/ but the format goldens.
function corpusFiles(dir = corpus) {
  const files = [];
  for (const name of readdirSync(path.join(root, dir)).sort()) {
    const relative = `${dir}/${name}`;
    if (relative === `${corpus}/formats`) continue;
    if (statSync(path.join(root, relative)).isDirectory()) files.push(...corpusFiles(relative));
    else files.push(relative);
  }
  return files;
}

function withTempDir(body) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-cli-'));
  try {
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('both front doors are built', () => {
  assert.ok(existsSync(nativeCli), `${nativeCli} (npm run build)`);
  assert.ok(existsSync(path.join(root, 'wasm/gen/dlq-lab.cjs')), 'wasm/gen/dlq-lab.cjs (npm run build)');
});

test('--version is package.json\'s version, --help the usage, in both', () => {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const v = both(['--version']);
  assert.equal(v.status, 0);
  assert.equal(v.out, `dlq-lab ${version}\n`);
  const h = both(['--help']);
  assert.equal(h.status, 0);
  assert.match(h.out, /^usage: dlq-lab check \[PATH\.\.\.\]/);
});

// Every case as a directory in every format is check-golden.test.mjs's: both front doors
// byte for byte against the same golden. Here, what the goldens do not hold: --fail-on.
test('every corpus case, as a directory, with --fail-on warning: the same bytes, and the exit code follows the summary', () => {
  const cases = corpusCases();
  assert.ok(cases.length >= 8, cases.join(', '));
  for (const dir of cases) {
    const failOn = both(['check', dir, '--fail-on', 'warning', '--format', 'json']);
    const { summary } = JSON.parse(failOn.out);
    assert.equal(failOn.status, summary.errors + summary.warnings > 0 ? 1 : 0);
  }
});

test('two cases that declare the same queue, read as one project: exit 2 naming both places, in both', () => {
  const r = both(['check', `${corpus}/rabbitmq-4x`, `${corpus}/rabbitmq-operator`]);
  assert.equal(r.status, 2);
  assert.match(r.err, /^dlq-lab: tests\/fixtures\/check\/rabbitmq-operator\/topology\.yaml:\d+: queue \/orders is declared twice \(first at tests\/fixtures\/check\/rabbitmq-4x\/definitions\.json:\d+\)\n$/);
});

// Each file alone in text (what a person reads) and json (the whole report, every location);
// every format's writer is compared on every case by check-golden.test.mjs.
test('every corpus file alone, in text and json: the same bytes and exit code', () => {
  const files = corpusFiles();
  for (const file of files) {
    for (const format of ['text', 'json']) {
      const r = both(['check', file, '--format', format]);
      assert.ok([0, 1, 2].includes(r.status), `${file} --format ${format} exited ${r.status}: ${r.err}`);
      if (r.status === 2) assert.match(r.err, new RegExp(`^dlq-lab: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
  }
});

test('--output writes the same file from both front doors, and nothing on standard output', () => {
  withTempDir((dir) => {
    const out = (name) => path.join(dir, name);
    const a = run(nativeCli, ['check', `${corpus}/terraform`, '--format', 'sarif', '--output', out('native.sarif')], root);
    const b = run(process.execPath, [nodeCli, 'check', `${corpus}/terraform`, '--format', 'sarif', '--output', out('node.sarif')], root);
    assert.equal(a.status, b.status);
    assert.equal(a.out.length + b.out.length, 0);
    assert.ok(readFileSync(out('native.sarif')).equals(readFileSync(out('node.sarif'))));
    assert.equal(JSON.parse(readFileSync(out('node.sarif'), 'utf8')).version, '2.1.0');
  });
});

test('usage errors: exit 2 and a message naming the argument, in both', () => {
  const cases = [
    [[], /^dlq-lab: expected a command \(check\), --help or --version, got nothing\n/],
    [['lint'], /^dlq-lab: expected a command \(check\), --help or --version, got "lint"\n/],
    [['check', '--format', 'xml'], /^dlq-lab: --format: expected text, json, junit, sarif or github, got "xml"\n/],
    [['check', '--fail-on', 'never'], /^dlq-lab: --fail-on: expected warning or error, got "never"\n/],
    [['check', '--bogus'], /^dlq-lab: unknown option "--bogus"/],
    [['check', 'no/such/file.json'], /^dlq-lab: no\/such\/file\.json: no such file or directory\n$/],
    [['check', 'tests/schemas/junit.xsd'], /^dlq-lab: tests\/schemas\/junit\.xsd: not a file dlq-lab reads \(it reads: /],
    [['check', '--config', 'no/such/.dlq-lab.yml', corpus], /^dlq-lab: no\/such\/\.dlq-lab\.yml: no such file or directory\n$/],
    [['check', `${corpus}/terraform`, '--output', 'no/such/dir/out.json'], /^dlq-lab: --output no\/such\/dir\/out\.json: cannot write: /],
  ];
  for (const [args, message] of cases) {
    const r = both(args);
    assert.equal(r.status, 2, `dlq-lab ${args.join(' ')}`);
    assert.equal(r.out, '');
    assert.match(r.err, message, `dlq-lab ${args.join(' ')}`);
  }
});

test('hostile input: a symlink loop ends, a file past the limit and bad bytes are exit 2 by name, in both', () => {
  withTempDir((dir) => {
    mkdirSync(path.join(dir, 'infra'));
    symlinkSync(dir, path.join(dir, 'infra', 'loop'));  // the directory search must not follow it
    const looped = both(['check', '.', '--format', 'json'], dir);
    assert.equal(looped.status, 0);
    assert.equal(JSON.parse(looped.out).summary.queues, 0);
    assert.match(looped.err, /^dlq-lab: found no file it reads/);

    writeFileSync(path.join(dir, 'definitions.json'), '{');
    truncateSync(path.join(dir, 'definitions.json'), 100 << 20);  // 100 MB, sparse
    const big = both(['check', 'definitions.json'], dir);
    assert.equal(big.status, 2);
    assert.equal(big.err, 'dlq-lab: definitions.json: 104857600 bytes, past the 64 MiB a file may have\n');
    rmSync(path.join(dir, 'definitions.json'));

    writeFileSync(path.join(dir, 'deep.json'), '['.repeat(10000) + ']'.repeat(10000));
    writeFileSync(path.join(dir, 'bytes.json'), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
    for (const file of ['deep.json', 'bytes.json']) {
      const r = both(['check', file], dir);
      assert.equal(r.status, 2, `${file}: ${r.err}`);
      assert.match(r.err, new RegExp(`^dlq-lab: ${file.replace('.', '\\.')}`));
    }
  });
});
