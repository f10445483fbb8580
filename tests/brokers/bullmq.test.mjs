// The BullMQ corpus (corpus/bullmq.json) against real BullMQ on a real Redis on 127.0.0.1.
import { runBullScenario, stopSpareWorker } from './lib/bullmq-runner.mjs';
import { startRedis } from './lib/redis.mjs';
import { corpusSuite } from './lib/run-corpus.mjs';

corpusSuite('bullmq', {
  async start() {
    const redis = await startRedis();
    return { ...redis, async stop() { await stopSpareWorker(); await redis.stop(); } };
  },
  play: runBullScenario,
});
