// dlq-lab check's SARIF and JUnit output against their schemas: the format goldens
// (tests/fixtures/check/formats/, written by the native suite's check_format_test.cpp) and
// the command line's own output over the fixture corpus (tests/fixtures/check/).
//  * SARIF 2.1.0: Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool, pinned), whose
//    validate exits 0 even when it reports errors, so its report is read: any "error" line fails.
//  * JUnit: xmllint (Debian libxml2-utils) with tests/schemas/junit.xsd (docs/check.md "Output").
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const goldens = path.join(root, 'tests/fixtures/check/formats');
const corpus = path.join(root, 'tests/fixtures/check');
const checkGoldens = path.join(root, 'tests/golden/check');

// The platform binary itself: the package's bin.js passes its arguments through a shell.
const multitool = path.join(root, 'node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool');

// The validator must really run: a missing binary (npm ci without the optional
// @microsoft/sarif-multitool-linux), one that cannot start, or a run that scanned nothing fails
// the test; it is never skipped. One run validates many files (the tool's start-up, about a
// second, is paid once); each error line names its file.
function sarifErrorsOf(files, tool = multitool) {
  assert.ok(existsSync(tool), `the SARIF validator is not installed: ${tool} (npm ci installs ` +
    '@microsoft/sarif-multitool and its platform package @microsoft/sarif-multitool-linux)');
  const run = spawnSync(tool, ['validate', ...files], { encoding: 'utf8' });
  assert.equal(run.error, undefined, `sarif-multitool cannot run: ${run.error}`);
  const output = `${run.stdout}\n${run.stderr}`;
  // Every error, and the one warning the output must never earn: SARIF2005, a tool.driver
  // without its version or informationUri (code scanning shows both beside each alert).
  const errors = output.split('\n').filter((line) => /\b(error [A-Z]+[0-9]+|warning SARIF2005):/.test(line));
  const what = `sarif-multitool validate ${files.join(' ')}`;
  assert.equal(run.status, 0, `${what} exited ${run.status}:\n${run.stdout}${run.stderr}`);
  assert.match(output, new RegExp(`Done\\. ${files.length} files scanned\\.`), `${what} did not scan every file:\n${output}`);
  assert.match(output, /Analysis completed successfully\./, `${what} did not finish:\n${output}`);
  return new Map(files.map((file) => [file, errors.filter((line) => line.startsWith(`${path.resolve(file)}(`))]));
}
const sarifErrors = (file, tool) => sarifErrorsOf([file], tool).get(file);

function junitErrors(file) {
  const run = spawnSync('xmllint', ['--noout', '--schema', path.join(root, 'tests/schemas/junit.xsd'), file],
    { encoding: 'utf8' });
  assert.equal(run.error, undefined, `xmllint: ${run.error}`);
  return run.status === 0 ? [] : [run.stderr];
}

const goldenFiles = (extension) => readdirSync(goldens).filter((name) => name.endsWith(extension)).sort();

test('the SARIF goldens are valid SARIF 2.1.0', () => {
  const files = goldenFiles('.sarif');
  assert.ok(files.length >= 3, `SARIF goldens in ${goldens}`);
  const errors = sarifErrorsOf(files.map((name) => path.join(goldens, name)));
  for (const name of files) assert.deepEqual(errors.get(path.join(goldens, name)), [], name);
});

test('the SARIF validator does report a broken log (the check is not vacuous)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-sarif-'));
  try {
    const broken = path.join(dir, 'broken.sarif');
    writeFileSync(broken, JSON.stringify({
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'dlq-lab' } }, results: [{ ruleId: 'X', message: {}, locations: 'here' }] }],
    }));
    assert.ok(sarifErrors(broken).length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a validator that is missing or cannot run fails the check instead of passing it', () => {
  const sample = path.join(goldens, goldenFiles('.sarif')[0]);
  assert.throws(() => sarifErrors(sample, path.join(root, 'node_modules/.no-such-validator')), /not installed/);
  // A program that runs but validates nothing (prints no scan report) is caught too.
  assert.throws(() => sarifErrors(sample, '/bin/true'), /did not scan every file/);
});

test('the JUnit goldens are valid against the JUnit schema; a broken report is not', () => {
  const files = goldenFiles('.junit.xml');
  assert.ok(files.length >= 3, `JUnit goldens in ${goldens}`);
  for (const name of files) assert.deepEqual(junitErrors(path.join(goldens, name)), [], name);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-junit-'));
  try {
    const broken = path.join(dir, 'broken.xml');
    writeFileSync(broken, '<testsuites><testsuite name="x" tests="-1" failures="0" errors="0"/></testsuites>\n');
    assert.equal(junitErrors(broken).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the corpus goldens (dlq-lab check over each case) are valid SARIF and JUnit', () => {
  // tests/golden/check/<case>/: byte-identical to the output of all three front doors
  // (check-golden.test.mjs), so validating them validates what the command line writes.
  const cases = readdirSync(corpus).filter((name) => name !== 'formats').filter((n) => statSync(path.join(corpus, n)).isDirectory());
  assert.ok(cases.length >= 8, cases.join(', '));
  const sarif = cases.map((name) => path.join(checkGoldens, name, `${name}.sarif`));
  const errors = sarifErrorsOf(sarif);
  for (const file of sarif) assert.deepEqual(errors.get(file), [], path.basename(file));
  for (const name of cases) assert.deepEqual(junitErrors(path.join(checkGoldens, name, `${name}.xml`)), [], `${name}.xml`);
});
