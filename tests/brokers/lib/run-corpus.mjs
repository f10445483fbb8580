// One node:test suite per broker: start the broker once, play every scenario of its
// corpus against it, and assert the observed trace meets `expected` (compareTraces).
import assert from 'node:assert/strict';
import test from 'node:test';
import { loadCorpus } from './corpus.mjs';
import { compareTraces } from './trace.mjs';

export function corpusSuite(broker, { start, play }) {
  const corpus = loadCorpus(broker);
  test(`${broker}: ${corpus.scenarios.length} scenarios against the real broker (${corpus.versions})`, async (t) => {
    const began = Date.now();
    const server = await start();
    try {
      for (const [index, scenario] of corpus.scenarios.entries()) {
        await t.test(`${scenario.covers}: ${scenario.name}`, async () => {
          const observed = await play(server, scenario, index);
          const difference = compareTraces(scenario.expected, observed, corpus.tolerance);
          assert.equal(difference, null,
            `${scenario.name}: ${difference?.message}\nobserved trace: ${JSON.stringify(observed)}`);
        });
      }
    } finally {
      await server.stop();
      console.log(`[brokers] ${broker}: ${corpus.scenarios.length} scenarios in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
  });
}
