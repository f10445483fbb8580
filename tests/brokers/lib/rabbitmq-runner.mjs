// Plays one corpus scenario against a real RabbitMQ with amqplib and returns the
// observed trace. The consumer settles each delivery as the scenario's outcome says:
//   ok         ack
//   transient  config.transient: 'nack-requeue' | 'reject-requeue' | 'reject-no-requeue'
//   permanent  config.permanent: 'reject-no-requeue' | 'nack-no-requeue'
//   crash      the consumer's connection is closed with the delivery unacked
// Queues are declared from config.queues (name -> arguments, in RabbitMQ's own terms).
// config.consumeAfterMs: the consumer attaches this long after the jobs are published, so a
// source queue's x-message-ttl can expire them first.
import amqp from 'amqplib';
import { outcomeOf } from './corpus.mjs';
import { sleep } from './processes.mjs';
import { delaysFrom } from './trace.mjs';

const QUIET_MS = 150;  // no delivery for this long and no ready message: the run has settled (config.quietMs)

function deathFields(headers = {}) {
  const fields = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'x-death') {
      fields[name] = value.map((d) => ({ ...d, time: d.time?.value ?? d.time }));
    } else if (name.startsWith('x-first-death-') || name.startsWith('x-last-death-') || name === 'x-delivery-count') {
      fields[name] = value;
    }
  }
  return fields;
}

async function declare(channel, queues) {
  for (const name of Object.keys(queues)) await channel.deleteQueue(name);
  for (const [name, args] of Object.entries(queues)) {
    await channel.assertQueue(name, { durable: true, arguments: args });
  }
}

async function drain(channel, queue) {
  const messages = [];
  for (;;) {
    const m = await channel.get(queue, { noAck: true });
    if (!m) return messages;
    messages.push(m);
  }
}

const SETTLE_STYLES = {
  transient: ['nack-requeue', 'reject-requeue', 'reject-no-requeue'],
  permanent: ['reject-no-requeue', 'nack-no-requeue'],
};

export async function runRabbitScenario(url, scenario) {
  const { config } = scenario;
  for (const [key, styles] of Object.entries(SETTLE_STYLES)) {
    if (config[key] !== undefined && !styles.includes(config[key])) {
      throw new Error(`${scenario.name}: config.${key} must be one of ${styles.join(', ')}, got ${JSON.stringify(config[key])}`);
    }
  }
  if (typeof config.queues !== 'object' || !config.queues[config.consume ?? 'work']) {
    throw new Error(`${scenario.name}: config.queues must declare the consumed queue ${JSON.stringify(config.consume ?? 'work')}`);
  }
  const work = config.consume ?? 'work';
  const deliveries = [];
  const seen = {};
  const completed = new Set();
  let lastActivity = Date.now();
  let connection;
  let stopped = false;

  const admin = await amqp.connect(url);
  const adminChannel = await admin.createConfirmChannel();
  await declare(adminChannel, config.queues);

  async function consume() {
    connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    await channel.prefetch(config.prefetch ?? 1);
    await channel.consume(work, async (msg) => {
      if (!msg || stopped) return;
      const job = msg.properties.messageId;
      const n = seen[job] = (seen[job] ?? -1) + 1;
      deliveries.push({ job, count: msg.properties.headers?.['x-delivery-count'] ?? 0, at: Date.now() });
      lastActivity = Date.now();
      if (deliveries.length >= (config.maxDeliveries ?? 100)) stopped = true;
      const outcome = stopped ? 'stop' : outcomeOf(scenario, job, n);
      if (outcome === 'ok') {
        completed.add(job);
        channel.ack(msg);
      } else if (outcome === 'transient') {
        if (config.transient === 'reject-requeue') channel.reject(msg, true);
        else if (config.transient === 'reject-no-requeue') channel.reject(msg, false);
        else channel.nack(msg, false, true);
      } else if (outcome === 'permanent') {
        if (config.permanent === 'nack-no-requeue') channel.nack(msg, false, false);
        else channel.reject(msg, false);
      } else if (outcome === 'crash') {
        const dead = connection;
        connection = null;
        await dead.close();  // unacked: the broker takes the delivery back
        await consume();
      }
    }, { noAck: false });
  }

  async function settle() {
    for (;;) {
      await sleep(25);
      if (stopped) return;
      if (Date.now() - lastActivity < (config.quietMs ?? QUIET_MS)) continue;
      let ready = 0;
      for (const q of Object.keys(config.queues)) {
        if (q === (config.dlq ?? 'dlq')) continue;
        ready += (await adminChannel.checkQueue(q)).messageCount;
      }
      if (ready === 0 && Date.now() - lastActivity >= (config.quietMs ?? QUIET_MS)) return;
    }
  }

  for (const { id, payload } of scenario.jobs) {
    adminChannel.sendToQueue(work, Buffer.from(JSON.stringify(payload ?? {})), { messageId: id, persistent: true });
  }
  await adminChannel.waitForConfirms();
  if (config.consumeAfterMs) await sleep(config.consumeAfterMs);
  await consume();
  await settle();

  if (scenario.replay) {
    // Republished by hand, as RabbitMQ has no redrive: body, id and headers (x-death) kept.
    const dlq = config.dlq ?? 'dlq';
    for (const m of await drain(adminChannel, dlq)) {
      const id = m.properties.messageId;
      const target = scenario.replay.jobs.includes(id) ? (scenario.replay.to ?? work) : dlq;
      adminChannel.sendToQueue(target, m.content, { messageId: id, persistent: true, headers: m.properties.headers });
    }
    await adminChannel.waitForConfirms();
    lastActivity = Date.now();
    await settle();
  }

  const closing = connection;
  connection = null;
  if (closing) await closing.close();
  if (config.inspectAfterMs) await sleep(config.inspectAfterMs);

  const final = {};
  const dlq = {};
  for (const { id } of scenario.jobs) final[id] = completed.has(id) ? 'completed' : 'dropped';
  if (config.queues[config.dlq ?? 'dlq']) {
    for (const m of await drain(adminChannel, config.dlq ?? 'dlq')) {
      const id = m.properties.messageId;
      final[id] = 'dlq';
      dlq[id] = deathFields(m.properties.headers);
    }
  }
  for (const q of Object.keys(config.queues)) {
    if (q === (config.dlq ?? 'dlq')) continue;
    for (const m of await drain(adminChannel, q)) final[m.properties.messageId] = 'waiting';
  }
  for (const q of Object.keys(config.queues)) await adminChannel.deleteQueue(q);
  await admin.close();
  return {
    deliveries: deliveries.map(({ job, count }) => ({ job, count })),
    delays: delaysFrom(deliveries),
    final,
    dlq,
  };
}
