// web/src/shared/time-format.mjs: grouped() and tenths() write numbers themselves (Intl.NumberFormat
// is made only on first need, so a page's start-up does not pay for the locale data) and must write
// exactly what Intl.NumberFormat('en-US', { maximumFractionDigits: 0 or 1 }) writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grouped, ms, roughMs, roughSeconds, tenths } from '../../web/src/shared/time-format.mjs';

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

const intlTenths = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

test('tenths() writes what Intl.NumberFormat en-US writes with one decimal: ties, trailing zeros, signs, the huge', () => {
  const cases = [0, -0, 0.04, 0.05, 0.05000000000000001, 0.15, 0.25, 0.35, 1.25, 1.45, 2.55, 4.249, 4.25, 9.95, 59.95, 59.96,
    99.95, 999.95, 1000, 1234.56, 12_345.05, 999_999.95, 2 ** 53, 1e20, 1e21 - 65536, 1e21, 1.5e300, -0.04, -1.25, -1234.5,
    NaN, Infinity, -Infinity, 1.5e-7];
  for (const n of cases) assert.equal(tenths(n), intlTenths.format(n), `tenths(${n})`);
});

test('tenths() agrees with Intl on 20,000 numbers from a fixed sequence over every magnitude', () => {
  let x = 54321;  // a fixed linear congruential sequence: the same numbers every run
  for (let i = 0; i < 20_000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = (x / 2147483648) * 10 ** (i % 19 - 2);
    // Every fifth number on a tie of the decimal grid (k + 0.05): where rounding rules part.
    const m = i % 5 === 0 ? Math.floor(n * 10) / 10 + 0.05 : n;
    assert.equal(tenths(m), intlTenths.format(m), `tenths(${m})`);
  }
});

test('the formats built on it: ms, roughMs and roughSeconds', () => {
  assert.equal(ms(2277), '2,277 ms');
  assert.equal(roughMs(850), '850 ms');
  assert.equal(roughMs(4_249), '4.2 s');
  assert.equal(roughSeconds(12.46), '12.5 s');
  assert.equal(roughMs(Infinity), '–');
});
