// A BullMQ worker in its own process, so that a crash can be a real SIGKILL. For each job
// it runs it reports { id, attemptsMade, attemptsStarted, at } to the parent and waits for
// the outcome: 'ok' returns, 'transient' throws an Error, 'permanent' throws an
// UnrecoverableError, 'crash' waits for the parent's SIGKILL.
import { UnrecoverableError, Worker } from 'bullmq';

const { connection, queue, prefix, workerOptions } = JSON.parse(process.argv[2]);
const pending = new Map();
let next = 0;

process.on('message', ({ ticket, outcome }) => {
  pending.get(ticket)?.(outcome);
  pending.delete(ticket);
});

const worker = new Worker(queue, async (job) => {
  const ticket = next++;
  const outcome = await new Promise((resolve) => {
    pending.set(ticket, resolve);
    process.send({ type: 'start', ticket, id: job.id, attemptsMade: job.attemptsMade,
      attemptsStarted: job.attemptsStarted, at: Date.now() });
  });
  if (outcome === 'transient') throw new Error(`transient failure of ${job.id}`);
  if (outcome === 'permanent') throw new UnrecoverableError(`permanent failure of ${job.id}`);
  if (outcome === 'crash') await new Promise(() => {});  // the parent kills this process
  return 'done';
}, { connection, prefix, ...workerOptions });
worker.on('error', (error) => process.send({ type: 'error', message: error.message }));
await worker.waitUntilReady();
process.send({ type: 'ready' });
