// @ts-check
// Durations as the pages write them, the one place they are formatted. The
// playground's virtual clock: exact milliseconds with thousands separators
// ("2,277 ms") up to 100 s, as the core's own sentences count them; longer spans
// in larger units ("2 min 30 s", "1 day 2 h"), which a reader can take in at a
// glance (ms, ofTotal, tick). The storm lab's results, a million jobs' worth:
// rounded to a tenth of a second and coarser (roughMs, roughSeconds). Formatting
// only: no rule is decided here.

// Intl.NumberFormat is made on first use, not when the module loads: its first construction
// loads the engine's locale data, about 30 ms of a page's start-up on a slow phone. grouped()
// and tenths() write what it would themselves, so no page's numbers wait for it: only a
// number plain digits cannot hold (or, for tenths, a negative one) is handed to it.
let groupedFormat = null;
let tenthsFormat = null;
const GROUPED = () => (groupedFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }));
const TENTHS = () => (tenthsFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }));

/**
 * 1234 -> "1,234": rounded half away from zero, with thousands commas, as
 * Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }) writes it; a number too
 * large for plain digits, or not finite, is handed to that format itself.
 */
export function grouped(n) {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return GROUPED().format(n);
  const digits = String(Math.round(Math.abs(n)));
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return sign + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * 1234.56 -> "1,234.6": at most one decimal (none when it is 0), with thousands commas, as
 * Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }) writes it. Intl rounds the number's
 * shortest decimal form (String(0.15) is "0.15", so 0.2), half away from zero: so does this, on
 * String(n), for 0 to 1e21 (plain digits there from 1e-6 up; below, it rounds to 0); anything
 * else (negative, huge, not finite) is handed to that format itself.
 */
export function tenths(n) {
  if (!(n >= 0 && n < 1e21) || Object.is(n, -0)) return TENTHS().format(n);
  if (n < 1e-6) return '0';
  const [whole, decimals = ''] = String(n).split('.');
  let tenth = Number(decimals[0] ?? '0');
  let digits = whole;
  if ((decimals[1] ?? '0') >= '5') {
    tenth += 1;
    if (tenth === 10) {
      tenth = 0;
      digits = String(BigInt(whole) + 1n);
    }
  }
  return digits.replace(/\B(?=(\d{3})+$)/g, ',') + (tenth === 0 ? '' : `.${tenth}`);
}

/** @type {[string, number][]} */
const UNITS = [['day', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]];

/** A duration or a point on the clock in words: "420 ms", "5,000 ms", "2 min 30 s", "1 day 2 h". */
export function ms(n) {
  if (n < 100_000) return `${grouped(n)} ms`;
  const parts = [];
  let rest = n;
  for (const [unit, size] of UNITS) {
    const k = Math.floor(rest / size);
    if (k > 0) {
      parts.push(unit === 'day' ? `${grouped(k)} ${k === 1 ? 'day' : 'days'}` : `${k} ${unit}`);
      rest -= k * size;
    }
    if (parts.length === 2) break; // two units are enough for a glance
  }
  if (rest > 0 && parts.length < 2 && n < 3_600_000) parts.push(`${rest} ms`);
  return parts.join(' ');
}

/** "kept 1,200 of 5,000 ms": one unit when both fit the exact form, else each in its own words. */
export function ofTotal(part, total) {
  if (total < 100_000) return `${grouped(part)} of ${grouped(total)} ms`;
  return `${ms(part)} of ${ms(total)}`;
}

/** A compact axis label: "0", "23 ms", "2.277 s", "95 s", "15 min", "2 h", "3 d". */
export function tick(t) {
  if (t === 0) return '0';
  if (t < 1000) return `${t} ms`;
  if (t < 100_000) return `${Number((t / 1000).toFixed(3))} s`;
  if (t < 6_000_000) return `${Number((t / 60_000).toFixed(1))} min`;
  if (t < 172_800_000) return `${Number((t / 3_600_000).toFixed(1))} h`;
  return `${grouped(Math.round(t / 86_400_000))} d`;
}

/** A duration rounded for a summary: "850 ms", "4.2 s", "3 min 12 s", "2 h 5 min"; "–" when it is not finite. */
export function roughMs(n) {
  if (!Number.isFinite(n)) return '–';
  if (n < 1000) return `${grouped(n)} ms`;
  if (n < 60_000) return `${tenths(n / 1000)} s`;
  const s = Math.round(n / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** Seconds the same way: "12.5 s" under a minute, else as roughMs. */
export function roughSeconds(s) {
  return s < 60 ? `${tenths(s)} s` : roughMs(s * 1000);
}
