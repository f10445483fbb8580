// The RabbitMQ corpus (corpus/rabbitmq-quorum.json) against a real RabbitMQ on 127.0.0.1.
import { startRabbitMQ } from './lib/rabbitmq.mjs';
import { runRabbitScenario } from './lib/rabbitmq-runner.mjs';
import { corpusSuite } from './lib/run-corpus.mjs';

corpusSuite('rabbitmq-quorum', {
  start: startRabbitMQ,
  play: (server, scenario) => runRabbitScenario(server.url, scenario),
});
