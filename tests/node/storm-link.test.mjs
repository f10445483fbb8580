// Storm links (web/src/storm/storm-presets.mjs, parseStormLink): integer text is checked
// before Number() rounds it, and refusals quote at most a short prefix of a bad
// value (issue 20, item 8). Plain Node: the link reader needs no browser.
import test from 'node:test';
import assert from 'node:assert/strict';

import { inexactIntegerMessage, isInexactInteger, parseStormLink, quoteShort } from '../../web/src/storm/storm-presets.mjs';

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
  assert.equal(refusal('s1;q=1'), 'unknown field q');
  assert.equal(quoteShort('😀'.repeat(50)), `"${'😀'.repeat(40)}"… (50 characters)`, 'cut on a character, not a UTF-16 unit');
});
