// Issue 35's table (docs/benchmarks.md, "Issue 35's table, row by row"): the aim of each
// measure, kept here once, so `npm run bench`, `npm run bench:page` and `npm test`'s stage
// times print each figure beside the same aim, with "met" or "missed".
// An aim is { below } (met when the figure is less), { atMost } or { atLeast }, in `unit`.

/** @typedef {{ below?: number, atMost?: number, atLeast?: number, unit: string, shown?: string }} Aim */

/** @type {Record<string, Aim>} */
export const AIMS = {
  playgroundInteractive: { below: 200, unit: 'ms' },     // desktop, median of 5 cold loads
  lessonInteractive: { below: 150, unit: 'ms' },         // each lesson page, median of 5
  stepWork: { atMost: 6, unit: 'ms' },                   // handler + frame at 1,000 jobs, clock on or off
  travelWork: { atMost: 8, unit: 'ms' },                 // Back at action 6,000, and a scrubber jump
  playgroundGzip: { atMost: 150_000, unit: 'bytes', shown: '150 KB' },
  stormPreset: { below: 1000, unit: 'ms' },              // 1 M jobs × 4 strategies, 100,000 workers
  lighthousePerformance: { atLeast: 0.95, unit: '' },    // mobile, every page
  coreProcessPerAttempt: { atMost: 40, unit: 'ns' },     // lesson-1 workload, process only
  batchedVsNative: { atMost: 1.5, unit: 'x' },
  stormWasmVsNative: { atMost: 1.3, unit: 'x' },
  npmTestFreshMachine: { atMost: 1200, unit: 's' },      // set-up included, on the 2-core machine
};

/** "< 200 ms", "<= 1.5x", ">= 0.95": the aim as the benches print it. */
export function aimText(aim) {
  const [op, limit] = aim.below !== undefined ? ['<', aim.below] : aim.atMost !== undefined ? ['<=', aim.atMost] : ['>=', aim.atLeast];
  if (aim.shown) return `${op} ${aim.shown}`;
  return `${op} ${limit}${aim.unit === 'x' || aim.unit === '' ? aim.unit : ` ${aim.unit}`}`;
}

/** Whether `value` meets `aim`. */
export function isMet(aim, value) {
  if (aim.below !== undefined) return value < aim.below;
  if (aim.atMost !== undefined) return value <= aim.atMost;
  return value >= aim.atLeast;
}

/** "aim < 200 ms: missed": the aim column of a bench row. */
export function aimColumn(aim, value) {
  return `${aimText(aim)}: ${isMet(aim, value) ? 'met' : 'missed'}`;
}
