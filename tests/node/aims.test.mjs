// scripts/aims.mjs: issue 35's aims, as npm run bench, bench:page and npm test's stage times print them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { AIMS, aimColumn, aimText, isMet } from '../../scripts/aims.mjs';

test('each aim prints as the issue states it', () => {
  assert.equal(aimText(AIMS.playgroundInteractive), '< 200 ms');
  assert.equal(aimText(AIMS.lessonInteractive), '< 150 ms');
  assert.equal(aimText(AIMS.stepWork), '<= 6 ms');
  assert.equal(aimText(AIMS.travelWork), '<= 8 ms');
  assert.equal(aimText(AIMS.playgroundGzip), '<= 150 KB');
  assert.equal(aimText(AIMS.stormPreset), '< 1000 ms');
  assert.equal(aimText(AIMS.lighthousePerformance), '>= 0.95');
  assert.equal(aimText(AIMS.coreProcessPerAttempt), '<= 40 ns');
  assert.equal(aimText(AIMS.batchedVsNative), '<= 1.5x');
  assert.equal(aimText(AIMS.stormWasmVsNative), '<= 1.3x');
  assert.equal(aimText(AIMS.npmTestFreshMachine), '<= 1200 s');
});

test('a figure on the limit meets an "at most" or "at least" aim, not a "below" one', () => {
  assert.equal(isMet(AIMS.stepWork, 6), true);
  assert.equal(isMet(AIMS.stepWork, 6.01), false);
  assert.equal(isMet(AIMS.playgroundInteractive, 200), false);
  assert.equal(isMet(AIMS.playgroundInteractive, 199.9), true);
  assert.equal(isMet(AIMS.lighthousePerformance, 0.95), true);
  assert.equal(isMet(AIMS.lighthousePerformance, 0.94), false);
  assert.equal(isMet(AIMS.playgroundGzip, 150_000), true);
  assert.equal(isMet(AIMS.playgroundGzip, 150_001), false);
  assert.equal(aimColumn(AIMS.batchedVsNative, 3.75), '<= 1.5x: missed');
  assert.equal(aimColumn(AIMS.stormWasmVsNative, 1.2), '<= 1.3x: met');
});
