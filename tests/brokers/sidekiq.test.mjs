// The Sidekiq corpus (corpus/sidekiq.json) against Debian's Sidekiq 6.4.1 on a real Redis on 127.0.0.1.
import { startRedis } from './lib/redis.mjs';
import { corpusSuite } from './lib/run-corpus.mjs';
import { runSidekiqScenario } from './lib/sidekiq-runner.mjs';

corpusSuite('sidekiq', { start: startRedis, play: (server, scenario) => runSidekiqScenario(server, scenario) });
