// scripts/lighthouse.mjs without a browser: how many runs a page gets (LIGHTHOUSE_RUNS, refused
// by name when it is not an integer from 1 to 15) and the table bench:page prints from the
// median runs (each page beside the aim, every run's score after it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lighthouseLines, lighthouseRuns } from '../../scripts/lighthouse.mjs';

test('LIGHTHOUSE_RUNS: 5 by default, an integer from 1 to 15, anything else refused by name', () => {
  assert.equal(lighthouseRuns({}), 5);
  assert.equal(lighthouseRuns({ LIGHTHOUSE_RUNS: '1' }), 1);
  assert.equal(lighthouseRuns({ LIGHTHOUSE_RUNS: '15' }), 15);
  for (const bad of ['0', '16', '2.5', '-1', '', ' 3', '3x', '1e1']) {
    assert.throws(() => lighthouseRuns({ LIGHTHOUSE_RUNS: bad }),
      { name: 'RangeError', message: `LIGHTHOUSE_RUNS must be an integer from 1 to 15, got ${JSON.stringify(bad)}` });
  }
});

test('the table: the median run of each page beside the aim, then every run\'s score', () => {
  const run = (performance, runs) => ({
    performance, accessibility: 1, 'best-practices': 1, fcpMs: 1200, lcpMs: 1500, tbtMs: 180, cls: 0.004, speedIndexMs: 1300, performanceRuns: runs,
  });
  const lines = lighthouseLines({ 'index.html': run(0.97, [0.97, 0.99, 0.96]), 'playground.html': run(0.93, [0.9, 0.93, 0.96]) });
  assert.match(lines[0], /median of 3/);
  assert.match(lines[1], /^ {2}index\.html +0\.97 {2}1\.00 {2}1\.00 +1200 +1500 +180 +0\.004 {3}met +0\.97 0\.99 0\.96$/);
  assert.match(lines[2], /^ {2}playground\.html +0\.93 .* missed +0\.90 0\.93 0\.96$/);
});
