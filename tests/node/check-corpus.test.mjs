// The corpus's rule table (tests/fixtures/check/README.md "Rules") against the goldens
// (tests/golden/check/<case>/<case>.json, which check-golden.test.mjs keeps equal to all three
// front doors): every rule id of the core's list has a case and queue that fail it and one that
// passes it, and docs/check.md has the "### <ID>" heading the SARIF helpUri links to.
// The rule ids come from the core itself: the checker names them all when a skip names a rule
// it does not know (check_config.cpp lists RuleIds()), so no list is kept here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.join(root, 'tests/fixtures/check');
const nativeCli = path.join(root, 'build/native/dlq-lab');

// RuleIds(), as the core's own refusal of an unknown rule id lists them.
function coreRuleIds() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-corpus-'));
  try {
    const config = path.join(dir, 'config.yml');
    writeFileSync(config, 'skip:\n  - rule: NO-SUCH-RULE\n    reason: asks for the list\n');
    const run = spawnSync(nativeCli, ['check', '--config', config, dir], { encoding: 'utf8' });
    assert.equal(run.error, undefined, `${nativeCli}: ${run.error}`);
    assert.equal(run.status, 2, run.stderr);
    const m = /expected a rule id \(([^)]*)\), got "NO-SUCH-RULE"/.exec(run.stderr);
    assert.ok(m, run.stderr);
    return m[1].split(', ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The README's rule tables: | `RULE` | `case` / `queue` | `case` / `queue` | why |. The first
// table has one row per rule; a system's own table (Azure Service Bus) adds rows of its own.
function ruleRows() {
  const readme = readFileSync(path.join(corpus, 'README.md'), 'utf8');
  const rows = [];
  const cell = /^`([^`]+)` \/ `([^`]+)`$/;
  for (const line of readme.split('\n')) {
    const m = /^\| `([A-Z-]+)` \| ([^|]+) \| ([^|]+) \|/.exec(line);
    if (!m) continue;
    const fails = cell.exec(m[2].trim());
    const passes = cell.exec(m[3].trim());
    assert.ok(fails && passes, `README row for ${m[1]}: expected \`case\` / \`queue\` in both columns: ${line}`);
    const row = { fails: { name: fails[1], queue: fails[2] }, passes: { name: passes[1], queue: passes[2] } };
    assert.ok(!rows.some(([rule, r]) => rule === m[1] && JSON.stringify(r) === JSON.stringify(row)), `README lists ${line} twice`);
    rows.push([m[1], row]);
  }
  return rows;
}
function ruleTable() {
  return new Map(ruleRows().filter(([rule], i, all) => all.findIndex(([r]) => r === rule) === i));
}

const cases = () => readdirSync(corpus).filter((n) => n !== 'formats' && statSync(path.join(corpus, n)).isDirectory());
const golden = (name) => JSON.parse(readFileSync(path.join(root, 'tests/golden/check', name, `${name}.json`), 'utf8'));

test('every rule id of the core has a row in the corpus table, and the table names no other', () => {
  const ids = coreRuleIds();
  assert.ok(ids.length >= 11, ids.join(', '));
  assert.deepEqual([...ruleTable().keys()].sort(), [...ids].sort());
});

test('each listed failing queue fails its rule in the golden (an error or a warning, not skipped)', () => {
  for (const [rule, { fails }] of ruleRows()) {
    assert.ok(cases().includes(fails.name), `${rule}: no case ${fails.name}`);
    const report = golden(fails.name);
    const found = report.findings.filter((f) => f.rule === rule && f.queue === fails.queue);
    assert.ok(found.some((f) => !f.skipped && (f.level === 'error' || f.level === 'warning')),
      `${rule}: ${fails.name} / ${fails.queue} does not fail it: ${JSON.stringify(found)}`);
  }
});

test('each listed passing queue is judged by its rule and passes (no failure, no skip, no note)', () => {
  for (const [rule, { passes }] of ruleRows()) {
    assert.ok(cases().includes(passes.name), `${rule}: no case ${passes.name}`);
    const report = golden(passes.name);
    assert.ok(report.queues.some((q) => q.name === passes.queue), `${rule}: ${passes.name} has no queue ${passes.queue}`);
    const found = report.findings.filter((f) => f.rule === rule && f.queue === passes.queue);
    assert.deepEqual(found, [], `${rule}: ${passes.name} / ${passes.queue}`);
  }
});

test('the README names a public project for every case', () => {
  const readme = readFileSync(path.join(corpus, 'README.md'), 'utf8');
  for (const name of cases()) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    assert.ok(row, `README: no row for case ${name}`);
    assert.match(row, /https:\/\/github\.com\/[\w.-]+\/[\w.-]+/, `README: case ${name} cites no repository`);
  }
});

test('a sidekiq_retry_in block is a note, not a guessed schedule', () => {
  const report = golden('sidekiq');
  const charge = report.findings.filter((f) => f.queue === 'Billing::ChargeJob');
  assert.ok(charge.some((f) => f.rule === 'READER-NOTE' && /custom schedule, not read/.test(f.message)));
  for (const rule of ['RETRY-BOUNDED', 'BACKOFF-CAP', 'JITTER']) {
    const found = charge.filter((f) => f.rule === rule);
    assert.equal(found.length, 1, `${rule}: ${JSON.stringify(found)}`);
    assert.equal(found[0].level, 'note');
    assert.match(found[0].message, /not known: sidekiq_retry_in \(custom schedule, not read\)/);
  }
});

test('every rule id has its "### <ID>" heading in docs/check.md (the SARIF helpUri anchor)', () => {
  const doc = readFileSync(path.join(root, 'docs/check.md'), 'utf8');
  const headings = new Set(doc.split('\n').filter((l) => l.startsWith('### ')).map((l) => l.slice(4).trim()));
  for (const id of [...coreRuleIds(), 'READER-NOTE']) assert.ok(headings.has(id), `docs/check.md: no "### ${id}"`);
  // The helpUri of each rule in the goldens is that page with that anchor.
  for (const name of cases()) {
    const sarif = JSON.parse(readFileSync(path.join(root, 'tests/golden/check', name, `${name}.sarif`), 'utf8'));
    for (const rule of sarif.runs[0].tool.driver.rules) {
      assert.equal(rule.helpUri, `https://dlq-lab.dev/docs/check.md#${rule.id.toLowerCase()}`);
      assert.ok(headings.has(rule.id), `${name}.sarif: ${rule.id} has no heading`);
      assert.ok(rule.fullDescription.text.length > rule.shortDescription.text.length || rule.id === 'READER-NOTE',
        `${rule.id}: fullDescription is its long text`);
    }
  }
});
