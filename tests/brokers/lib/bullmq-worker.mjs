// A BullMQ worker in its own process, so that a crash can be a real SIGKILL. For each job
// it runs it reports { id, attemptsMade, attemptsStarted } to the parent and waits for
// the outcome: 'ok' returns, 'transient' throws an Error, 'permanent' throws an
// UnrecoverableError, 'crash' waits for the parent's SIGKILL. It also reports each retry's
// scheduled backoff.
import { UnrecoverableError, Worker } from 'bullmq';

// The process starts idle (bullmq already loaded, so a spare can wait warm) and becomes a
// worker on { type: 'work', connection, queue, prefix, workerOptions }.
const pending = new Map();
let next = 0;
const setup = new Promise((resolve) => {
  process.on('message', (m) => {
    if (m.type === 'work') resolve(m);
    if (m.type === 'outcome') {
      pending.get(m.ticket)?.(m.outcome);
      pending.delete(m.ticket);
    }
  });
});
process.on('disconnect', () => process.exit(0));  // the test process is gone: so is its worker
process.send({ type: 'loaded' });
const { connection, queue, prefix, workerOptions } = await setup;

const worker = new Worker(queue, async (job) => {
  const ticket = next++;
  const outcome = await new Promise((resolve) => {
    pending.set(ticket, resolve);
    process.send({ type: 'start', ticket, id: job.id, attemptsMade: job.attemptsMade,
      attemptsStarted: job.attemptsStarted });
  });
  if (outcome === 'transient') throw new Error(`transient failure of ${job.id}`);
  if (outcome === 'permanent') throw new UnrecoverableError(`permanent failure of ${job.id}`);
  if (outcome === 'crash') await new Promise(() => {});  // the parent kills this process
  return 'done';
}, { connection, prefix, ...workerOptions });
worker.on('error', (error) => process.send({ type: 'error', message: error.message }));
// After a failed run BullMQ sets job.delay to the backoff it scheduled the retry with
// (Job#moveToFailed, the value it writes to the delayed set); 0 when no delayed retry.
worker.on('failed', (job) => {
  if (job?.delay > 0) process.send({ type: 'scheduled', id: job.id, delay: job.delay });
});
await worker.waitUntilReady();
process.send({ type: 'ready' });
