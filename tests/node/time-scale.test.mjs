// The playground's time-axis scale (web/src/shared/time-scale.mjs), pure:
// the fit, the zoom's caps, and round ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PX_PER_MS, MAX_WIDTH, maxZoom, pxPerMs, tickStep, ticksIn } from '../../web/src/shared/time-scale.mjs';

test('the fit puts the whole extent in the width; zoom multiplies it up to its caps, never below the fit', () => {
  assert.equal(pxPerMs(3000, 900, 1), 0.3);
  assert.equal(pxPerMs(3000, 900, 4), 1.2);
  assert.equal(pxPerMs(3000, 900, 0.25), 0.3, 'never less than the fit');
  assert.equal(pxPerMs(3000, 900, 1e6), MAX_PX_PER_MS, 'at most 4 px per ms');
  assert.equal(pxPerMs(86_400_000, 900, 1e6), MAX_WIDTH / 86_400_000, 'a day-long strip stops at 1,000,000 px');
  assert.equal(pxPerMs(10, 900, 1), 90, 'a short scenario keeps its fit, above the cap');
  assert.equal(maxZoom(3000, 900), MAX_PX_PER_MS / 0.3);
  assert.equal(maxZoom(10, 900), 1);
});

test('ticks fall on 1, 2 or 5 × 10^k ms, at least 72 px apart', () => {
  assert.equal(tickStep(0.3), 500);   // 72 px = 240 ms -> 500
  assert.equal(tickStep(1.2), 100);   // 60 ms -> 100
  assert.equal(tickStep(4), 20);      // 18 ms -> 20
  assert.equal(tickStep(0.001), 100_000);
  assert.deepEqual(ticksIn(0, 3000, 500), [0, 500, 1000, 1500, 2000, 2500, 3000]);
  assert.deepEqual(ticksIn(1694, 2623, 200), [1800, 2000, 2200, 2400, 2600]);
});
