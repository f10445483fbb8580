// A node --test reporter for npm test's JavaScript stage: at the end, the test files that took
// longest, each with the sum of its top-level tests' durations (its hooks, such as a browser's
// start, not counted). Files run two at a time, so these are shares of the stage's wall time.
import path from 'node:path';

const SHOWN = 12;

export default async function* slowestFiles(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `[dlq] the ${Math.min(SHOWN, rows.length)} slowest of ${rows.length} test files (their tests' time; ${(total / 1000).toFixed(0)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, SHOWN)) {
    yield `  ${path.relative(process.cwd(), file).padEnd(48)} ${(ms / 1000).toFixed(1).padStart(7)} s\n`;
  }
}
