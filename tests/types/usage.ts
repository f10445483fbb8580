// Type-checked (tsc --noEmit) against wasm/index.d.ts through the package's
// "exports"; never run. The @ts-expect-error lines must stay errors.
import { loadLab, type AttemptResult, type TimelineEvent, type Lab, type LabError } from 'dlq-lab';

async function main(): Promise<void> {
  const lab: Lab = await loadLab();
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'payload');
  q.enqueueMany([{ id: 'b', payload: '' }]);
  const r: AttemptResult | null = q.process('transient', 'db timeout');
  if (r !== null && r.disposition === 'quarantined') {
    const reason: 'permanent' | 'exhausted' | undefined = r.reason;
    void reason;
  }
  const replayed: boolean = q.replay('a');
  const ids: string[] = q.ready().map((job) => job.id);
  const lastErrors: string[] = q.quarantined().map((entry) => entry.lastError);
  const events: TimelineEvent[] = q.timeline(0, 10);
  const lines: string = q.timelineText();
  const made: number = q.processMany('sstp');
  const text: string = lab.formatScenario({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'process', outcome: 'success' }] });
  const again = lab.runScenario(text);
  again.dispose();
  q.dispose();
  try {
    lab.parseScenario('v9;m3');
  } catch (e) {
    const code: LabError['code'] = (e as LabError).code;
    void code;
  }
  const budget: number = lab.heapBudget().limitBytes - lab.heapBudget().usedBytes;
  lab.setHeapBudget(lab.limits.batchBytes * 2);
  const broken: boolean = lab.aborted || !lab.nullPageIsClean();
  void [replayed, ids, lastErrors, events, lines, made, budget, broken];

  // @ts-expect-error: outcomes are three fixed strings
  q.process('retry');
  // @ts-expect-error: maxAttempts is required
  lab.createQueue({});
  // @ts-expect-error: replay takes an id
  q.replay();
}
void main;
