// web/src/shared/time-format.mjs: grouped() writes integers itself (Intl.NumberFormat is made only
// on first need, so a page's start-up does not pay for the locale data) and must write exactly
// what Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }) writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grouped, ms, roughMs, roughSeconds } from '../../web/src/shared/time-format.mjs';

const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

test('grouped() writes what Intl.NumberFormat en-US writes: edges, halves, signs, the huge and the non-finite', () => {
  const cases = [0, -0, 1, -1, 0.4, -0.4, 0.5, -0.5, 2.5, -2.5, 999, 999.5, 1000, 1234, -1234, 12345.5, 999_999.5,
    -1_234_567.49, 2 ** 53, 1e20, 1e21, 1.5e300, NaN, Infinity, -Infinity, 1.5e-7, 123_456_789_012];
  for (const n of cases) assert.equal(grouped(n), intl.format(n), `grouped(${n})`);
});

test('grouped() agrees with Intl on 20,000 numbers from a fixed sequence over every magnitude', () => {
  let x = 12345;  // a fixed linear congruential sequence: the same numbers every run
  for (let i = 0; i < 20_000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = ((x / 2147483648) - 0.5) * 10 ** (i % 17);
    assert.equal(grouped(n), intl.format(n), `grouped(${n})`);
  }
});

test('the formats built on it: ms, roughMs and roughSeconds', () => {
  assert.equal(ms(2277), '2,277 ms');
  assert.equal(roughMs(850), '850 ms');
  assert.equal(roughMs(4_249), '4.2 s');
  assert.equal(roughSeconds(12.46), '12.5 s');
  assert.equal(roughMs(Infinity), '–');
});
