// The generated snippets run as they are (issue 21): the BullMQ and RabbitMQ snippets, and the
// Sidekiq one on Debian's 6.4.1, are written to a temp file and executed against the real broker
// on 127.0.0.1, with one line changed: the snippet's named connection constant, which is where
// the reader's own address goes. A poison job, a transient one (and for BullMQ and RabbitMQ a
// permanent one) go through, and the outcome must be what the lab predicts for the same policy
// and world: runs before the DLQ = the lab's attempts, the DLQ entry present, and the replay
// puts the job back for a whole new budget.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { Job, Queue } from 'bullmq';
import IORedis from 'ioredis';
import { loadLab } from 'dlq-lab';
import { systemByKey } from '../../web/src/lessons/systems.mjs';
import { connectSnippets } from '../../web/src/shared/snippets.mjs';
import { startRabbitMQ } from './lib/rabbitmq.mjs';
import { startRedis } from './lib/redis.mjs';
import { runSidekiqScenario } from './lib/sidekiq-runner.mjs';
import { killOnExit, sleep, stopPid, waitUntil } from './lib/processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const lab = await loadLab();
connectSnippets(lab);  // the core writes the snippets it has ported

// The lab's own extras (precondition's 2 attempts, unknown-schema's alert) off, so the snippet uses the
// system's built-in backoff; the first policy keeps them, so the custom strategy path runs too.
const PLAIN = { 'unknown-schema': { alert: false }, precondition: { maxAttempts: 0, backoff: 'policy' } };
const POLICIES = {
  'maxAttempts 3, fixed 200 ms (lab classes)': { maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 200, capMs: 200, jitter: 'none' } },
  'maxAttempts 4, exponential 100 ms, retention 1 h': { maxAttempts: 4, classes: PLAIN,
    backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, jitter: 'none' }, quarantine: { retentionMs: 3_600_000, alarmDepth: 0 } },
};

// The Sidekiq snippet also under the sidekiq mode with 6.4.1's jitter on its custom delay (retryInJitter).
const SIDEKIQ_POLICIES = { ...POLICIES,
  'sidekiq mode, maxAttempts 3, fixed 2 s, retryInJitter': { maxAttempts: 3, system: 'sidekiq', retryInJitter: true,
    backoff: { kind: 'fixed', baseMs: 2000, capMs: 2000, jitter: 'none' } },
};

// The BullMQ snippet also runs under the bullmq mode with BullMQ's own jitter (written as backoff.jitter).
const BULLMQ_POLICIES = {
  ...POLICIES,
  'system bullmq, maxAttempts 3, fixed 200 ms, bullmq jitter 0.5': { maxAttempts: 3, system: 'bullmq', classes: PLAIN,
    backoff: { kind: 'fixed', baseMs: 200, capMs: 200, jitter: 'bullmq', jitterPermille: 500 } },
};

// b is poison (a transient failure every time), a fails once then succeeds, p fails permanently.
const WORLD = { behaviours: [{ id: 'a', kind: 'flaky', count: 1 }, { id: 'b', kind: 'poison', failure: 'transient' },
  { id: 'p', kind: 'poison', failure: 'permanent' }] };

/** What the lab does with `policy` and WORLD: runs per job, where each ends, and b's runs after replay(b). */
function labPrediction(policy, ids) {
  const world = { behaviours: WORLD.behaviours.filter((b) => ids.includes(b.id)) };
  const q = lab.runScenario({ ...policy, seed: 1, jobs: ids.map((id) => ({ id, payload: id })), world });
  // Plays until every job has settled for good (not on to a retention expiry, which would drop the entry).
  const settled = () => q.completed().length + q.quarantined().length === ids.length;
  const play = () => {
    for (let a, n = 0; !settled() && (a = q.nextWorldAction(world)) !== null; n++) {
      assert.ok(n < 5000, 'the lab\'s world stops');
      q.apply(a);
    }
  };
  try {
    play();
    const runs = {};
    const final = {};
    for (const j of q.completed()) {
      runs[j.id] = j.attempts;
      final[j.id] = 'completed';
    }
    const reasons = {};
    for (const e of q.quarantined()) {
      runs[e.id] = e.attempts;
      final[e.id] = 'dlq';
      reasons[e.id] = e.reason;
    }
    assert.equal(q.replay('b'), true, 'the lab replays b');
    play();
    const again = q.quarantined().find((e) => e.id === 'b');
    return { runs, final, reasons, replayRuns: again.attempts };
  } finally {
    q.dispose();
  }
}

/** The snippet for `policy` as a page gets it: the core's policy() and rules(). */
function snippetFor(key, policy) {
  const q = lab.createQueue(policy);
  try {
    return systemByKey(key).snippet(q.policy(), q.rules());
  } finally {
    q.dispose();
  }
}

/** `text` with its one connection line replaced: the only change a reader makes before running it. */
function withConnection(text, line, replacement) {
  const at = text.split('\n').filter((l) => l.startsWith(line));
  assert.equal(at.length, 1, `the snippet has one connection line starting ${JSON.stringify(line)}`);
  return text.replace(line, replacement);
}

const runsOf = (file) => {
  let text = '';
  try { text = readFileSync(file, 'utf8'); } catch { /* no run yet */ }
  const runs = {};
  for (const line of text.split('\n').filter(Boolean)) runs[line] = (runs[line] ?? 0) + 1;
  return runs;
};

// ---- BullMQ -------------------------------------------------------------------------

const ORDER_HANDLER_MJS = `// The test's work for the snippet: each run is logged; a fails once, b always, p permanently.
import { appendFileSync } from 'node:fs';
import { UnrecoverableError } from 'bullmq';
const RUNS = new URL('./runs.log', import.meta.url);
export async function handleOrder(order, job) {
  appendFileSync(RUNS, order.id + '\\n');
  if (order.id === 'a' && job.attemptsMade === 0) throw new Error('transient failure of a');
  if (order.id === 'b') throw new Error('transient failure of b');
  if (order.id === 'p') throw new UnrecoverableError('permanent failure of p');
}
`;

function node(dir, args) {
  const r = spawnSync(process.execPath, ['orders.mjs', ...args], { cwd: dir, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, `node orders.mjs ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

test('the BullMQ snippet runs as it is against Redis + BullMQ and does what the lab predicts', async (t) => {
  const began = Date.now();
  const redis = await startRedis();
  const client = new IORedis({ host: redis.host, port: redis.port, maxRetriesPerRequest: null });
  try {
    for (const [name, policy] of Object.entries(BULLMQ_POLICIES)) {
      await t.test(name, async () => {
        await client.flushdb();
        const ids = ['a', 'b', 'p'];
        const want = labPrediction(policy, ids);
        // The snippet imports bullmq, so its directory must resolve this tree's node_modules.
        const dir = mkdtempSync(path.join(root, 'build', 'snippet-bullmq-'));
        const worker = { child: null };
        const forgetExit = killOnExit(() => (worker.child ? [worker.child.pid] : []));
        const queue = new Queue('orders', { connection: client });
        try {
          const { language, text } = snippetFor('bullmq', policy);
          assert.equal(language, 'javascript');
          if (policy.backoff.jitter === 'bullmq') assert.match(text, /backoff: \{ type: 'fixed', delay: 200, jitter: 0\.5 \}/);
          writeFileSync(path.join(dir, 'orders.mjs'), withConnection(text, "const connection = { host: 'localhost', port: 6379 };",
            `const connection = { host: '${redis.host}', port: ${redis.port} };`));
          writeFileSync(path.join(dir, 'order-handler.mjs'), ORDER_HANDLER_MJS);
          const runs = path.join(dir, 'runs.log');
          worker.child = spawn(process.execPath, ['orders.mjs', 'worker'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          worker.child.stderr.on('data', (d) => { stderr += d; });
          for (const id of ids) node(dir, ['add', id]);
          const stateOf = async (id) => (await Job.fromId(queue, id))?.getState();
          const settled = async () => {
            assert.equal(worker.child.exitCode, null, `the worker exited: ${stderr}`);
            const states = await Promise.all(ids.map(stateOf));
            return states.every((s, i) => s === (want.final[ids[i]] === 'dlq' ? 'failed' : 'completed'));
          };
          await waitUntil('a completed, b and p failed', settled, { timeoutMs: 60000 });
          assert.deepEqual(runsOf(runs), want.runs, 'runs per job: the lab\'s attempts');
          const b = await Job.fromId(queue, 'b');
          assert.equal(b.failedReason, 'transient failure of b');
          assert.equal(b.attemptsMade, want.runs.b);
          assert.equal((await Job.fromId(queue, 'p')).failedReason, 'permanent failure of p');
          assert.equal(want.reasons.p, 'permanent');

          // The snippet's replay line: b runs a whole new budget, as the lab's replay(b) gives.
          assert.equal(node(dir, ['replay', 'b']), 'replayed b');
          await waitUntil('b failed again', async () => (await stateOf('b')) === 'failed' &&
            (runsOf(runs).b ?? 0) >= want.runs.b + want.replayRuns, { timeoutMs: 60000 });
          await sleep(300);  // a run past the budget would show here
          assert.equal(runsOf(runs).b, want.runs.b + want.replayRuns, 'after replay: the lab\'s full budget again');
          assert.equal(node(dir, ['replay', 'nosuch']), 'no job nosuch');
        } finally {
          await queue.close();
          if (worker.child) await stopPid(worker.child.pid);
          forgetExit();
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  } finally {
    client.disconnect();
    await redis.stop();
    console.log(`[brokers] snippets: BullMQ in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
});

// ---- RabbitMQ -------------------------------------------------------------------------

/** Writes the RabbitMQ snippet `text` to `dir` with its connection line pointed at `server`, and runs it as it is. */
function runRabbitSnippet(server, dir, text) {
  writeFileSync(path.join(dir, 'orders.sh'), withConnection(text, 'NODE=rabbit@localhost ', `NODE=${server.nodename} `));
  const r = spawnSync('bash', [path.join(dir, 'orders.sh')], { env: server.ctlEnv, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, `bash orders.sh: ${r.stderr}`);
}

/** The topology the snippet's comments tell the reader to declare: orders.dlx -> orders.dlq, and "orders" of `queueType`. */
async function declareOrders(ch, queueType = 'quorum') {
  await ch.assertExchange('orders.dlx', 'fanout', { durable: true });
  await ch.assertQueue('orders.dlq', { durable: true });
  await ch.bindQueue('orders.dlq', 'orders.dlx', '');
  await ch.assertQueue('orders', { durable: true, arguments: { 'x-queue-type': queueType } });
}

/**
 * Does what the snippet's comments tell the reader to do: declare the queues, then consume
 * "orders", failing an attempt with basic.reject(requeue=true) and a permanent failure with
 * requeue=false. Returns deliveries per id and the dead letters once `dead` of them arrived.
 */
async function consumeAsTheSnippetSays(url, ids, dead) {
  const connection = await amqp.connect(url);
  try {
    const ch = await connection.createConfirmChannel();
    await declareOrders(ch);
    for (const id of ids) ch.sendToQueue('orders', Buffer.from(id), { messageId: id, persistent: true });
    await ch.waitForConfirms();
    const deliveries = {};
    await ch.prefetch(1);
    await ch.consume('orders', (msg) => {
      const id = msg.properties.messageId;
      deliveries[id] = (deliveries[id] ?? 0) + 1;
      if (id === 'p') ch.reject(msg, false);
      else if (id === 'b' || (id === 'a' && deliveries[id] === 1)) ch.reject(msg, true);
      else ch.ack(msg);
    });
    const letters = [];
    await waitUntil(`${dead} dead letters in orders.dlq`, async () => {
      for (let m; (m = await ch.get('orders.dlq', { noAck: true })) !== false;) letters.push(m);
      return letters.length >= dead;
    }, { timeoutMs: 30000 });
    await sleep(300);  // a delivery past the limit would show here
    return { deliveries, letters };
  } finally {
    await connection.close();
  }
}

test('the RabbitMQ snippet runs as it is against RabbitMQ 3.10 and does what the lab predicts, maxLength and messageTtlMs included', async (t) => {
  const began = Date.now();
  const server = await startRabbitMQ();
  try {
    for (const [name, policy] of Object.entries(POLICIES)) {
      await t.test(name, async () => {
        const want = labPrediction(policy, ['a', 'b', 'p']);
        const dir = mkdtempSync(path.join(os.tmpdir(), 'dlqlab-snippet-rabbitmq-'));
        try {
          const { language, text } = snippetFor('rabbitmq', policy);
          assert.equal(language, 'shell');
          runRabbitSnippet(server, dir, text);
          const policies = JSON.parse(server.ctl('list_policies', '--formatter', 'json'));
          assert.deepEqual(policies.map((p) => p.name).sort(), policy.quarantine ? ['orders-dlq', 'orders-retry'] : ['orders-retry']);

          const { deliveries, letters } = await consumeAsTheSnippetSays(server.url, ['a', 'b', 'p'], 2);
          assert.deepEqual(deliveries, want.runs, 'deliveries per message: the lab\'s attempts');
          const death = Object.fromEntries(letters.map((m) => [m.properties.messageId, m.properties.headers['x-death'][0]]));
          assert.deepEqual(Object.keys(death).sort(), ['b', 'p']);
          assert.equal(death.b.reason, 'delivery_limit');
          assert.equal(death.b.queue, 'orders');
          assert.equal(death.p.reason, 'rejected', 'the lab\'s permanent failure: rejected with requeue=false');
          if (policy.quarantine) {
            const queues = JSON.parse(server.ctl('list_queues', 'name', 'policy', '--formatter', 'json'));
            assert.equal(queues.find((q) => q.name === 'orders.dlq').policy, 'orders-dlq', 'the retention policy applies');
          }

          // The snippet's replay: republish b from orders.dlq. A new message gets the whole budget again.
          const replay = await consumeAfterReplay(server.url, letters.find((m) => m.properties.messageId === 'b'));
          assert.equal(replay.deliveries.b, want.replayRuns, 'after replay: the lab\'s full budget again');
          assert.equal(replay.letters[0].properties.headers['x-death'][0].reason, 'delivery_limit');
        } finally {
          await deleteTopology(server);
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
    await t.test('deliveryLimit classic-queue: no count, a return keeps its place, only a reject dead-letters',
      () => classicQueueSnippetRuns(server));
    // maxLength and messageTtlMs: each snippet set up alone on the same server (every part deletes its topology).
    await t.test('maxLength 1: each publish past max-length dead-letters the oldest as maxlen', async () => {
      const want = await publishBeforeConsuming(server, { maxAttempts: 6, system: 'rabbitmq-quorum', maxLength: 1 }, ['a', 'b', 'c'], 0,
        (definition) => {
          assert.equal(definition['max-length'], 1);
          assert.equal(definition.overflow, 'drop-head');
        });
      assert.deepEqual(want, { dead: ['a', 'b'], reasons: ['maxlen', 'maxlen'], ready: ['c'] });
    });
    await t.test('messageTtlMs 100: messages nobody takes expire at the head as expired', async () => {
      const want = await publishBeforeConsuming(server, { maxAttempts: 6, system: 'rabbitmq-quorum', messageTtlMs: 100 }, ['a', 'b'], 400,
        (definition) => assert.equal(definition['message-ttl'], 100));
      assert.deepEqual(want, { dead: ['a', 'b'], reasons: ['expired', 'expired'], ready: [] });
    });
  } finally {
    await server.stop();
    console.log(`[brokers] snippets: RabbitMQ in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
});

/**
 * The snippet for `policy` set up on `server` as it is; `ids` published one at a time before any
 * consumer, then `waitMs` of waiting: the dead letters and the messages left must be the lab's.
 */
async function publishBeforeConsuming(server, policy, ids, waitMs, check) {
  const q = lab.createQueue(policy);  // the lab's prediction: every job published before any consumer
  for (const id of ids) q.enqueue(id, id);
  q.advance(waitMs);
  const want = { dead: q.quarantined().map((e) => e.id), reasons: q.quarantined().map((e) => e.systemReason),
    ready: q.ready().map((j) => j.id) };
  q.dispose();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlqlab-snippet-rabbitmq-'));
  try {
    runRabbitSnippet(server, dir, snippetFor('rabbitmq', policy).text);
    const [main] = JSON.parse(server.ctl('list_policies', '--formatter', 'json'));
    check(typeof main.definition === 'string' ? JSON.parse(main.definition) : main.definition);
    const connection = await amqp.connect(server.url);
    try {
      const ch = await connection.createConfirmChannel();
      await declareOrders(ch);
      for (const id of ids) {
        ch.sendToQueue('orders', Buffer.from(id), { messageId: id, persistent: true });
        await ch.waitForConfirms();  // one publish at a time, as the lab's enqueues
      }
      await sleep(waitMs);
      const letters = [];
      await waitUntil(`${want.dead.length} dead letters in orders.dlq`, async () => {
        for (let m; (m = await ch.get('orders.dlq', { noAck: true })) !== false;) letters.push(m);
        return letters.length >= want.dead.length;
      }, { timeoutMs: 30000 });
      assert.deepEqual(letters.map((m) => m.properties.messageId), want.dead);
      assert.deepEqual(letters.map((m) => m.properties.headers['x-death'][0].reason), want.reasons);
      const left = [];
      for (let m; (m = await ch.get('orders', { noAck: true })) !== false;) left.push(m.properties.messageId);
      assert.deepEqual(left, want.ready);
      return want;
    } finally {
      await connection.close();
    }
  } finally {
    await deleteTopology(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

// deliveryLimit classic-queue: the snippet for a classic queue, played as its comments say on `server`, against
// the lab's prediction for the same world (a fails three times, then succeeds; p is rejected).
async function classicQueueSnippetRuns(server) {
  const policy = { maxAttempts: 3, system: 'rabbitmq-quorum', deliveryLimit: 'classic-queue', backoff: { kind: 'none' } };
  const world = { behaviours: [{ id: 'a', kind: 'flaky', count: 3 }, { id: 'p', kind: 'poison', failure: 'permanent' }] };
  const q = lab.runScenario({ ...policy, seed: 1, jobs: [{ id: 'a', payload: 'a' }, { id: 'b', payload: 'b' }, { id: 'p', payload: 'p' }], world });
  const labOrder = [];
  try {
    for (let a, n = 0; (a = q.nextWorldAction(world)) !== null; n++) {
      assert.ok(n < 100, 'the lab\'s world stops');
      q.apply(a);
    }
    for (const e of q.timeline()) if (e.kind === 'attempt') labOrder.push(e.id);
    assert.deepEqual(q.quarantined().map((e) => [e.id, e.systemRecord['x-first-death-reason']]), [['p', 'rejected']]);
  } finally {
    q.dispose();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlqlab-snippet-rabbitmq-classic-'));
  try {
    runRabbitSnippet(server, dir, snippetFor('rabbitmq', policy).text);
    const connection = await amqp.connect(server.url);
    try {
      const ch = await connection.createConfirmChannel();
      await declareOrders(ch, 'classic');  // as the snippet says
      for (const id of ['a', 'b', 'p']) ch.sendToQueue('orders', Buffer.from(id), { messageId: id, persistent: true });
      await ch.waitForConfirms();
      const order = [];
      const counts = [];
      await ch.prefetch(1);
      await ch.consume('orders', (msg) => {
        const id = msg.properties.messageId;
        order.push(id);
        counts.push(msg.properties.headers?.['x-delivery-count']);
        const runs = order.filter((x) => x === id).length;
        if (id === 'p') ch.reject(msg, false);
        else if (id === 'a' && runs <= 3) ch.reject(msg, true);
        else ch.ack(msg);
      });
      await waitUntil('a dead letter in orders.dlq', async () => (await ch.checkQueue('orders.dlq')).messageCount >= 1,
        { timeoutMs: 30000 });
      await waitUntil('every delivery', async () => order.length >= labOrder.length, { timeoutMs: 30000 });
      await sleep(300);  // a further delivery would show here
      assert.deepEqual(order, labOrder, 'the delivery order: a again in its place at the head, as the lab plays it');
      assert.ok(counts.every((c) => c === undefined), 'a classic queue sets no x-delivery-count');
      const letter = await ch.get('orders.dlq', { noAck: true });
      assert.equal(letter.properties.messageId, 'p');
      assert.equal(letter.properties.headers['x-death'][0].reason, 'rejected');
      const policies = JSON.parse(server.ctl('list_policies', '--formatter', 'json'));
      const definition = policies.find((x) => x.name === 'orders-retry').definition;
      assert.deepEqual(typeof definition === 'string' ? JSON.parse(definition) : definition, { 'dead-letter-exchange': 'orders.dlx' });
    } finally {
      await connection.close();
    }
  } finally {
    await deleteTopology(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function consumeAfterReplay(url, letter) {
  const connection = await amqp.connect(url);
  try {
    const ch = await connection.createConfirmChannel();
    ch.sendToQueue('orders', letter.content, { messageId: letter.properties.messageId, persistent: true });
    await ch.waitForConfirms();
  } finally {
    await connection.close();
  }
  return consumeAsTheSnippetSays(url, [], 1);
}

async function deleteTopology(server) {
  const connection = await amqp.connect(server.url);
  try {
    const ch = await connection.createChannel();
    await ch.deleteQueue('orders');
    await ch.deleteQueue('orders.dlq');
    await ch.deleteExchange('orders.dlx');
  } finally {
    await connection.close();
  }
  for (const name of ['orders-retry', 'orders-dlq']) {
    try { server.ctl('clear_policy', name); } catch { /* not set by this policy */ }
  }
}

// ---- Sidekiq 6.4.1 ----------------------------------------------------------------------

// The snippet's work for the driver: DlqJob#perform plays the scenario's outcomes and counts them.
const ORDER_HANDLER_RB = `module OrderHandler
  def self.call(order_id) = DlqJob.new.perform(order_id)
end
`;

test('the Sidekiq snippet loads on Sidekiq 6.4.1 as a server and does what it says against Redis', async (t) => {
  const began = Date.now();
  const redis = await startRedis();
  try {
    for (const [name, policy] of Object.entries(SIDEKIQ_POLICIES)) {
      await t.test(name, async () => {
        const want = labPrediction(policy, ['a', 'b']);
        const dir = mkdtempSync(path.join(os.tmpdir(), 'dlqlab-snippet-sidekiq-'));
        try {
          const { language, text } = snippetFor('sidekiq', policy);
          assert.equal(language, 'ruby');
          const file = path.join(dir, 'orders_job.rb');
          writeFileSync(file, withConnection(text, "REDIS_URL = 'redis://localhost:6379/0' ", `REDIS_URL = '${redis.url}/0' `));
          writeFileSync(path.join(dir, 'order_handler.rb'), ORDER_HANDLER_RB);
          const observed = await runSidekiqScenario(redis, {
            jobs: [{ id: 'a' }, { id: 'b' }],
            outcomes: { a: ['transient', 'ok'], b: ['transient'] },
            config: { snippet: file, jobClass: 'OrdersJob' },
            steps: [{ retryDead: 'b' }],
          });
          assert.equal(observed.version, '6.4.1');
          const runs = {};
          for (const d of observed.deliveries) runs[d.job] = (runs[d.job] ?? 0) + 1;
          // retry: N-1 gives the lab's N runs before the Dead set; retrying the dead job, as the snippet
          // says, gives exactly one more run (the lab's replay would give a whole budget).
          assert.deepEqual(runs, { a: want.runs.a, b: want.runs.b + 1 });
          assert.deepEqual(observed.final, { a: 'completed', b: 'dlq' });
          assert.equal(observed.dlq.b.error_message, 'transient failure of b');
          assert.equal(observed.dlq.b.retry, policy.maxAttempts - 1);
          // The lab's delay in whole seconds (at least 1; truncated under retryInJitter, which plays 6.4.1's
          // own rule), plus the jitter 6.4.1 adds: rand(10)·(count + 1) s.
          const b = policy.backoff;
          const labDelays = [0, 1, 2].map((count) => (b.kind === 'fixed' ? b.baseMs : Math.min(b.capMs, b.baseMs * 2 ** count)));
          for (const [count, ms] of observed.delays.b.entries()) {
            const base = policy.retryInJitter ? Math.floor(labDelays[count] / 1000) * 1000
              : Math.max(1000, Math.ceil(labDelays[count] / 1000) * 1000);
            assert.ok(ms >= base && ms <= base + 9000 * (count + 1) + 20, `b's delay ${count}: ${ms} ms from ${base} ms`);
          }
          const timeout = observed.options.dead_timeout_in_seconds;
          assert.equal(timeout, policy.quarantine ? policy.quarantine.retentionMs / 1000 : 180 * 24 * 3600,
            'the configure_server block ran on 6.4.1 and set the Dead set\'s retention');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  } finally {
    await redis.stop();
    console.log(`[brokers] snippets: Sidekiq in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
});
