// Run by boundary.test.mjs in a child process (the module's memory only grows,
// and an aborted module stays aborted): fills wasm memory with 16 MiB payloads
// and prints one JSON line describing what happened. Mode:
//   budget  the default heap budget refuses in time: a clean 'resource-exhausted'
//   abort   the budget raised to the maximum: allocation fails, the core aborts,
//           and every later call is refused with 'aborted'
import { loadLab } from 'dlq-lab';

const mode = process.argv[2];
const lab = await loadLab();
const big = 'x'.repeat(16 << 20);
const report = { mode };
const describe = (error) => ({ name: error?.constructor?.name, code: error?.code, message: error?.message });

const bystander = lab.createQueue({ maxAttempts: 3 });
bystander.enqueue('keep', 'me');
if (mode === 'abort') lab.setHeapBudget(lab.heapBudget().limitBytes * 2);

// No journal: it would keep a second copy of every payload (its enqueue record),
// and this test is about the queue's own storage filling memory.
const q = lab.createQueue({ maxAttempts: 3, journal: false });
let stored = 0;
try {
  for (;;) {
    q.enqueue(`j${stored}`, big);
    stored++;
  }
} catch (error) {
  report.fill = describe(error);
}
report.stored = stored;
report.memoryBytes = lab.memoryBytes();
try {
  q.enqueue('m', 'y'.repeat(12 << 20));  // the second call
  report.second = 'accepted';
} catch (error) {
  report.second = describe(error);
}
report.nullPageIsClean = lab.nullPageIsClean();
report.aborted = lab.aborted;

const attempt = (name, fn) => {
  try {
    fn();
    report[name] = 'ok';
  } catch (error) {
    report[name] = describe(error);
  }
};
attempt('bystander', () => {
  if (bystander.ready()[0].payload !== 'me') throw new Error('bystander payload changed');
});
attempt('newQueue', () => {
  const fresh = lab.createQueue({ maxAttempts: 2 });
  fresh.enqueue('a', 'A');
  fresh.process('success');
  fresh.dispose();
});
attempt('parse', () => lab.parseScenario('v1;m3'));
attempt('dispose', () => q.dispose());
attempt('afterDispose', () => {
  const again = lab.createQueue({ maxAttempts: 1 });
  again.enqueue('big', big);  // the budget has room again once the filler is gone
  again.dispose();
});
// Queues dropped without dispose(): the finalizer must not throw, aborted or not.
attempt('dropped', () => {
  for (let i = 0; i < 100; i++) lab.createQueue({ maxAttempts: 1 });
});
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 50));
report.nullPageIsCleanAtEnd = lab.nullPageIsClean();
console.log(JSON.stringify(report));
