// dlq-lab check's goldens (issue 33): every corpus case (each first-level folder of
// tests/fixtures/check/ but formats/, read as one project) in every format, byte for byte,
// through the front doors, run from the repository root with the case's relative path so
// no golden depends on the checkout's directory:
//   build/native/dlq-lab check and node wasm/bin/dlq-lab.mjs check, every case;
//   npx --no-install dlq-lab check, the first case: npx runs the same wasm/bin/dlq-lab.mjs
//   (package.json's bin), so one case in every format shows the link works, and npm's own
//   start-up (about a second a call) is not paid 70 times.
// Goldens: tests/golden/check/<case>/<case>.{txt,json,xml,sarif,github} and <case>.exit (the
// exit code, the same in every format). Regenerate from the native binary, then read each one:
//   DLQ_UPDATE_GOLDENS=1 node --test tests/node/check-golden.test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = 'tests/fixtures/check';
const goldenDir = path.join(root, 'tests/golden/check');
const update = process.env.DLQ_UPDATE_GOLDENS === '1';
// --format → the golden's extension.
const FORMATS = { text: 'txt', json: 'json', junit: 'xml', sarif: 'sarif', github: 'github' };

// The same list check-cli.test.mjs runs: each first-level folder but the format goldens.
function corpusCases() {
  return readdirSync(path.join(root, corpus)).filter((name) => name !== 'formats')
    .filter((name) => statSync(path.join(root, corpus, name)).isDirectory()).sort();
}

const FRONT_DOORS = {
  native: (args) => [path.join(root, 'build/native/dlq-lab'), args],
  node: (args) => [process.execPath, [path.join(root, 'wasm/bin/dlq-lab.mjs'), ...args]],
  npx: (args) => ['npx', ['--no-install', 'dlq-lab', ...args]],
};

function run(door, args) {
  const [command, argv] = FRONT_DOORS[door](args);
  const result = spawnSync(command, argv, { cwd: root, encoding: 'buffer', maxBuffer: 64 << 20 });
  assert.equal(result.error, undefined, `${door}: ${result.error}`);
  return { status: result.status, out: result.stdout, err: result.stderr.toString('utf8') };
}

const goldenPath = (name, ext) => path.join(goldenDir, name, `${name}.${ext}`);

const NPX_CASE = corpusCases()[0];

for (const name of corpusCases()) {
  const doors = Object.keys(FRONT_DOORS).filter((door) => door !== 'npx' || name === NPX_CASE);
  test(`${name}: every format, byte-identical to its golden through ${doors.join(', ')}`, () => {
    const dir = `${corpus}/${name}`;
    if (update) {
      mkdirSync(path.join(goldenDir, name), { recursive: true });
      let status;
      for (const [format, ext] of Object.entries(FORMATS)) {
        const r = run('native', ['check', dir, '--format', format]);
        assert.equal(r.err, '', `${dir} --format ${format}: standard error`);
        status ??= r.status;
        assert.equal(r.status, status, `${dir}: the exit code differs between formats`);
        writeFileSync(goldenPath(name, ext), r.out);
      }
      writeFileSync(goldenPath(name, 'exit'), `${status}\n`);
    }
    const exit = Number(readFileSync(goldenPath(name, 'exit'), 'utf8'));
    assert.ok(exit === 0 || exit === 1, `${name}.exit is ${exit}`);
    for (const [format, ext] of Object.entries(FORMATS)) {
      const golden = readFileSync(goldenPath(name, ext));
      for (const door of doors) {
        const r = run(door, ['check', dir, '--format', format]);
        const what = `${door}: dlq-lab check ${dir} --format ${format}`;
        assert.equal(r.err, '', `${what}: standard error`);
        assert.equal(r.status, exit, `${what}: exit code`);
        assert.ok(r.out.equals(golden), `${what}: differs from ${path.relative(root, goldenPath(name, ext))}\n` +
          `--- got\n${r.out.toString('utf8')}`);
      }
    }
  });
}

// Last, so an update run has written the folders first.
test('every golden folder is a corpus case (no golden outlives its case)', () => {
  const cases = corpusCases();
  assert.ok(cases.length >= 8, cases.join(', '));
  if (!existsSync(goldenDir)) assert.fail(`${goldenDir} (DLQ_UPDATE_GOLDENS=1 writes it)`);
  assert.deepEqual(readdirSync(goldenDir).sort(), cases);
});
