// Storm links (web/src/storm/storm-presets.mjs, parseStormLink): integer text is checked
// before Number() rounds it, and refusals quote at most a short prefix of a bad
// value (issue 20, item 8). Plain Node: the link reader needs no browser.
import test from 'node:test';
import assert from 'node:assert/strict';

import {
  DEFAULT_SCENARIO, PRESETS, formatStormLink, inexactIntegerMessage, isInexactInteger, parseStormLink, quoteShort, stormRuns,
} from '../../web/src/storm/storm-presets.mjs';

const refusal = (text) => {
  try {
    parseStormLink(text);
  } catch (error) {
    return error.message;
  }
  assert.fail(`${text.slice(0, 60)} was read`);
};

test('a 16-digit number past 2^53 - 1 is refused as written, not as the number it rounds to', () => {
  assert.equal(refusal('s1;n=9007199254740993'),
    'n (jobs): expected an integer from -9007199254740991 to 9007199254740991 (a larger one cannot be held exactly), '
    + 'got "9007199254740993"');
  assert.match(refusal('s1;r=-9999999999999999'), /^r \(seed\): expected an integer .*, got "-9999999999999999"$/);
  assert.match(refusal('s1;o=0:9007199254740992'), /^o \(outage\): .*got "9007199254740992"$/);
  // The largest exact integer is read exactly; the core checks its range later.
  assert.equal(parseStormLink('s1;o=0:9007199254740991').scenario.outageMs, 9007199254740991);
  assert.equal(parseStormLink('s1;n=1000').scenario.jobs, 1000);
});

test('the text check itself', () => {
  assert.equal(isInexactInteger('9007199254740991'), false);
  assert.equal(isInexactInteger('-9007199254740991'), false);
  assert.equal(isInexactInteger('9007199254740992'), true);
  assert.equal(isInexactInteger('12345678901234567890'), true);
  assert.equal(isInexactInteger('1e20'), false, 'not integer text: Number() reads it, and the core refuses it by value');
  assert.equal(isInexactInteger(''), false);
  assert.equal(inexactIntegerMessage('jobs', '9007199254740993'),
    'jobs must be an integer from -9007199254740991 to 9007199254740991 (a larger one cannot be held exactly), got 9007199254740993');
  assert.ok(inexactIntegerMessage('jobs', '9'.repeat(100_000)).length < 200);
});

test('a refusal quotes at most a short prefix of a megabyte value', () => {
  const mb = 'x'.repeat(1 << 20);
  for (const link of [`s1;n=${mb}`, `s1;a=${mb}`, `s1;o=${mb}`, `s1;b=${mb}`, `s1;j=${mb}`, `s1;${mb}`, `${mb};n=1`,
    `s1;${mb}=1`, `c1;k=${mb}`]) {
    const message = refusal(link);
    assert.ok(message.length < 200, `${message.slice(0, 80)}… is ${message.length} characters`);
    assert.match(message, /x{40}/, 'the prefix is quoted');
  }
  assert.equal(refusal(`s1;j=${mb}`), `j (strategies): expected letters from n, f, e, d, got "${'x'.repeat(40)}"… (1048576 characters)`);
  // Short values are quoted whole, as before.
  assert.equal(refusal('s1;j=nz'), 'j (strategies): expected letters from n, f, e, d, got "nz"');
  assert.equal(refusal('s1;z=1'), 'unknown field z');
  assert.equal(quoteShort('😀'.repeat(50)), `"${'😀'.repeat(40)}"… (50 characters)`, 'cut on a character, not a UTF-16 unit');
});

// Storm lab II: the link carries the failure rate, the budgets, the refused retry, the server and its
// drop, and the closed and open-vs-closed loops; a link without them reads and writes as it always did.
const OLD_LINKS = [
  's1;n=10000;a=b;o=0:5000;c=-;w=10000;t=10;l=30000;m=10;b=e:100:10000;r=1;j=nfed',
  's1;n=10000;a=x800;o=-;c=1000:1000;w=10000;t=10;l=30000;m=6;b=e:100:10000;r=1;j=f',
  's1;n=1000000;a=b;o=0:5000;c=-;w=100000;t=10;l=30000;m=10;b=e:100:10000;r=1;j=nfed',
  's1;n=500;a=r20;m=3',
];
const JITTERS = ['none', 'full', 'equal', 'decorrelated'];

test('old storm links load unchanged: the same scenario, the same runs, written back byte for byte', () => {
  for (const link of OLD_LINKS) {
    const { scenario } = parseStormLink(link);
    for (const key of ['failurePerMillion', 'refusedRetry', 'serverPerSecond', 'clients']) assert.equal(scenario[key], DEFAULT_SCENARIO[key], key);
    assert.deepEqual(scenario.budgets, ['none']);
    for (const run of stormRuns(scenario, JITTERS)) {
      for (const key of ['failurePerMillion', 'budget', 'refusedRetry', 'server']) assert.equal(run.options[key], undefined, `${link}: ${key}`);
    }
  }
  for (const link of OLD_LINKS.slice(0, 3)) assert.equal(formatStormLink(parseStormLink(link).scenario), link);
});

test('the new fields survive their link, and every preset is its own link', () => {
  const s = {
    ...DEFAULT_SCENARIO, arrival: 'loops', perSecond: 600, clients: 6, failurePerMillion: 50_000,
    budgets: ['none', 'grpc:10:0.1', 'finagle:20:10:10000'], refusedRetry: 'fail',
    serverPerSecond: 1000, timeoutMs: 500, dropStartMs: 5000, dropMs: 1000, dropPerSecond: 100,
  };
  const link = formatStormLink(s);
  assert.match(link, /;a=l600:6;.*;p=50000;g=-,grpc:10:0\.1,finagle:20:10:10000;q=f;s=1000:500;d=5000:1000:100$/);
  assert.deepEqual(parseStormLink(link).scenario, { ...s, strategies: [...s.strategies] });
  assert.equal(parseStormLink('s1;a=c40').scenario.clients, 40);
  for (const preset of PRESETS.filter((p) => p.scenario)) {
    const back = parseStormLink(formatStormLink(preset.scenario)).scenario;
    assert.equal(formatStormLink(back), formatStormLink(preset.scenario), preset.key);
  }
  const runs = stormRuns(s, JITTERS);
  assert.deepEqual(runs.map((r) => r.label), ['No jitter, open loop, 600 a second, no budget',
    'No jitter, open loop, 600 a second, budget grpc:10:0.1', 'No jitter, open loop, 600 a second, budget finagle:20:10:10000',
    'No jitter, closed loop, 6 clients, no budget', 'No jitter, closed loop, 6 clients, budget grpc:10:0.1',
    'No jitter, closed loop, 6 clients, budget finagle:20:10:10000', ...runs.slice(6).map((r) => r.label)]);
  assert.deepEqual(runs[4].options.arrival, { kind: 'closed', clients: 6 });
  assert.equal(runs[4].options.budget, 'grpc:10:0.1');
  assert.equal(runs[4].options.refusedRetry, 'fail');
  assert.deepEqual(runs[4].options.server, { capacityPerSecond: 1000, timeoutMs: 500, dropStartMs: 5000, dropMs: 1000, dropPerSecond: 100 });
});

test('the new fields are refused by name when the link cannot be read', () => {
  assert.equal(refusal('s1;q=1'), 'q (refused retry): expected q (quarantine) or f (fail), got "1"');
  assert.equal(refusal('s1;g=-,,aws-standard'), 'g (budgets): expected budgets joined by ",", each once ("-" for none), got "-,,aws-standard"');
  assert.equal(refusal('s1;s=1000'), 's (server): expected -, or two numbers joined by ":", got "1000"');
  assert.equal(refusal('s1;d=1:2'), 'd (capacity drop): expected three numbers joined by ":", got "1:2"');
  assert.equal(refusal('s1;p=5x'), 'p (failures per million): expected an integer, got "5x"');
  assert.match(refusal('s1;a=k5'), /^a \(arrival\): expected b, r<per second>, x<per second>, c<clients> or l<per second>:<clients>, got "k5"$/);
});
