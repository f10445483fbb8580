// Type-checked (tsc --noEmit) against wasm/index.d.ts through the package's
// "exports"; never run. The @ts-expect-error lines must stay errors.
import {
  loadLab, type AttemptResult, type TimelineEvent, type Lab, type LabError, type Lease, type Policy, type QueueOptions,
  type ScenarioAction, type ParsedScenario, type DelayedJob, type LeasedJob, type WorstCase, type ErrorCode,
} from 'dlq-lab';

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

  // The clock, backoff and leases.
  const options: QueueOptions = {
    maxAttempts: 4, backoff: { kind: 'exponential', baseMs: 100, capMs: 5000, jitter: 'full' }, leaseMs: 2000, seed: 7,
  };
  const timed = lab.createQueue(options);
  lab.createQueue({ maxAttempts: 2, backoff: { kind: 'fixed' } }).dispose();
  timed.enqueue('a', '');
  const lease: Lease | null = timed.lease();
  if (lease !== null) {
    const settled: AttemptResult = timed.settle(lease.token, 'transient', 'db timeout');
    if (settled.disposition === 'delayed') {
      const due: number | undefined = settled.dueAt;
      const delay: number | undefined = settled.delayMs;
      void [due, delay];
    }
    const expires: number = lease.expiresAt - lease.leasedAt;
    void expires;
  }
  timed.advance(100);
  const next: number | null = timed.advanceToNext();
  const now: number = timed.now() + timed.stats().now + timed.stats().actions + timed.stats().delayed + timed.stats().leased;
  const delayed: DelayedJob[] = timed.delayed(0, 10);
  const leased: LeasedJob[] = timed.leased();
  const dueAt: number = delayed[0]!.dueAt;
  const token: string = leased[0]!.token;
  const worst: WorstCase = timed.worstCase();
  const policy: Policy = timed.policy();
  const jitter: 'none' | 'full' | 'equal' | 'decorrelated' = policy.backoff.jitter;
  lab.createQueue(policy).dispose();
  const event = timed.timeline()[0]!;
  const when: number = event.time + event.action;
  const until: number | undefined = event.until;
  const eventToken: string | undefined = event.token;
  const eventDelay: number | undefined = event.delayMs;
  const kinds: TimelineEvent['kind'][] = ['leased', 'expired', 'delayed', 'due'];
  const stale: ErrorCode = 'stale-lease';
  const range: number = lab.integerFields['backoff.baseMs'].max - lab.integerFields.ms.min;
  const script: ScenarioAction[] = [
    { type: 'lease' }, { type: 'settle', token: 'lease-1', outcome: 'success' }, { type: 'advance', ms: 10 },
    { type: 'advanceToNext' }, { type: 'settle', token: 'lease-2', outcome: 'permanent', error: 'bad' },
  ];
  const link: string = lab.formatScenario({ ...options, jobs: [{ id: 'a' }], actions: script });
  const parsed: ParsedScenario = lab.parseScenario(link);
  const parsedSeed: number = parsed.seed + parsed.leaseMs + parsed.backoff.baseMs;
  for (const action of parsed.actions) {
    if (action.type === 'settle') {
      const settledToken: string = action.token;
      const error: string = action.error;
      void [settledToken, error];
    } else if (action.type === 'advance') {
      const ms: number = action.ms;
      void ms;
    }
  }
  timed.dispose();
  void [next, now, dueAt, token, worst, jitter, when, until, eventToken, eventDelay, kinds, stale, range, parsedSeed];

  // @ts-expect-error: outcomes are three fixed strings
  q.process('retry');
  // @ts-expect-error: maxAttempts is required
  lab.createQueue({});
  // @ts-expect-error: replay takes an id
  q.replay();
  // @ts-expect-error: backoff kinds are three fixed strings
  lab.createQueue({ maxAttempts: 3, backoff: { kind: 'linear' } });
  // @ts-expect-error: jitter is one of four fixed strings
  lab.createQueue({ maxAttempts: 3, backoff: { kind: 'fixed', jitter: 'half' } });
  // @ts-expect-error: settle takes a token and an outcome
  q.settle('lease-1');
  // @ts-expect-error: advance takes a number of ms
  q.advance('10');
  // @ts-expect-error: a settle action needs its token
  lab.formatScenario({ maxAttempts: 3, actions: [{ type: 'settle', outcome: 'success' }] });
  // @ts-expect-error: advanceToNext may answer null
  const later: number = q.advanceToNext();
  void later;
}
void main;
