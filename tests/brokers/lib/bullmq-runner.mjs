// Plays one corpus scenario against real BullMQ on a real Redis and returns the observed
// trace. The worker runs in a child process (bullmq-worker.mjs); a 'crash' outcome is a
// SIGKILL of that process, after which a fresh worker process takes over, as a restarted
// deployment would. config: { jobOptions, workerOptions } in BullMQ's own terms; a job may
// add its own `options`, and `withoutJobId: true` adds it without a jobId.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Job, Queue } from 'bullmq';
import { outcomeOf } from './corpus.mjs';
import { sleep, stopPid } from './processes.mjs';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bullmq-worker.mjs');
const QUIET_MS = 150;

// Loading bullmq takes seconds on a busy machine, so one worker process is always kept
// loaded and idle, ready for the next scenario or the next crash.
let spare = null;
function forkWorker() {
  const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const loaded = new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`worker process exited (${code ?? signal}) while loading`)));
    child.on('message', (m) => { if (m.type === 'loaded') resolve(child); });
  });
  loaded.catch(() => {});
  return { child, loaded };
}
async function takeWorkerProcess() {
  const taken = spare ?? forkWorker();
  spare = forkWorker();
  return taken.loaded;
}
export async function stopSpareWorker() {
  if (spare) await stopPid(spare.child.pid, { signal: 'SIGKILL' });
  spare = null;
}

export async function runBullScenario(redis, scenario, index) {
  const { config } = scenario;
  const connection = { host: redis.host, port: redis.port, maxRetriesPerRequest: null };
  const name = `s${index}`;
  const prefix = 'dlqlab';
  const queue = new Queue(name, { connection, prefix });
  await queue.waitUntilReady();
  const deliveries = [];
  const seen = {};
  let lastActivity = Date.now();
  let worker = null;
  const errors = [];
  const delays = {};  // the backoff BullMQ scheduled for each retry, as the worker reports it

  async function startWorker() {
    const child = await takeWorkerProcess();
    worker = child;
    child.send({ type: 'work', connection, queue: name, prefix, workerOptions: config.workerOptions ?? {} });
    let killed = false;
    const ready = new Promise((resolve, reject) => {
      child.once('exit', (code, signal) => {
        if (!killed) reject(new Error(`worker exited (${code ?? signal}) before it was ready`));
      });
      child.on('message', (m) => { if (m.type === 'ready' || m.type === 'start') resolve(); });
    });
    child.on('message', (m) => {
      if (m.type === 'error') errors.push(m.message);
      if (m.type === 'scheduled') (delays[m.id] ??= []).push(m.delay);
      if (m.type !== 'start' || child !== worker) return;
      const n = seen[m.id] = (seen[m.id] ?? -1) + 1;
      deliveries.push({ job: m.id, count: m.attemptsMade });
      lastActivity = Date.now();
      const outcome = outcomeOf(scenario, m.id, n);
      if (outcome === 'crash') {
        worker = null;
        killed = true;
        stopPid(child.pid, { signal: 'SIGKILL' }).then(() => startWorker());
      } else {
        child.send({ type: 'outcome', ticket: m.ticket, outcome });
      }
    });
    return ready;
  }

  async function settle() {
    for (;;) {
      await sleep(25);
      if (Date.now() - lastActivity < QUIET_MS || !worker) continue;
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused');
      const busy = Object.values(counts).reduce((a, b) => a + b, 0);
      if (busy === 0 && Date.now() - lastActivity >= QUIET_MS) return;
      if (Date.now() - lastActivity > (config.stuckAfterMs ?? 10000)) return;  // e.g. a job left waiting on purpose
    }
  }

  for (const job of scenario.jobs) {
    const options = { ...(config.jobOptions ?? {}), ...(job.options ?? {}) };
    if (!job.withoutJobId) options.jobId = job.id;
    await queue.add(job.name ?? 'job', job.payload ?? { id: job.id }, options);
  }
  await startWorker();
  await settle();

  for (const step of scenario.steps ?? []) {
    if (step.wait) await sleep(step.wait);
    if (step.retry) {
      const job = await Job.fromId(queue, step.retry);
      await job.retry('failed', step.options ?? {});
    }
    if (step.add) {
      const options = { ...(config.jobOptions ?? {}), ...(step.add.options ?? {}), jobId: step.add.id };
      await queue.add('job', { id: step.add.id }, options);
    }
    lastActivity = Date.now();
    await settle();
  }

  if (worker) await stopPid(worker.pid);
  worker = null;
  const final = {};
  const dlq = {};
  const ids = new Set([...scenario.jobs.map((j) => j.id), ...(scenario.steps ?? []).flatMap((s) => (s.add ? [s.add.id] : [])),
    ...deliveries.map((d) => d.job)]);
  for (const id of ids) {
    const job = await Job.fromId(queue, id);
    const state = job ? await job.getState() : 'missing';
    final[id] = { completed: 'completed', failed: 'dlq', waiting: 'waiting', delayed: 'waiting', prioritized: 'waiting',
      active: 'waiting', missing: 'dropped', unknown: 'dropped' }[state] ?? state;
    if (state === 'failed') {
      dlq[id] = { failedReason: job.failedReason, attemptsMade: job.attemptsMade, attemptsStarted: job.attemptsStarted,
        stalledCounter: job.stalledCounter, finishedOn: job.finishedOn };
    }
  }
  await queue.obliterate({ force: true });
  await queue.close();
  if (errors.length) final.__workerErrors = errors.join('; ');
  return { deliveries: deliveries.map(({ job, count }) => ({ job, count })), delays, final, dlq };
}
