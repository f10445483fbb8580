// Type-checked (tsc --noEmit) against wasm/index.d.ts through the package's
// "exports"; never run. The @ts-expect-error lines must stay errors.
import {
  loadLab, loadSim, type Sim, type AttemptResult, type TimelineEvent, type Lab, type LabError, type Lease, type Policy, type QueueOptions,
  type ScenarioAction, type ParsedScenario, type DelayedJob, type LeasedJob, type WorstCase, type ErrorCode,
  type Outcome, type FailureClass, type Retry, type ClassTable, type ClassRule, type ResolvedClassRule, type ClassOptions,
  type QuarantineEntry, type EventKind, type BackoffOptions, type Ordering, type QuarantineOptions, type ReadyJob,
  type KeyedJob, type JobInput, type Reorder, type Alarm, type QueueStats, type JobLocation, type SchemaField, type BehaviourKind,
  type SessionView,
} from 'dlq-lab';

async function main(): Promise<void> {
  const lab: Lab = await loadLab();
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'payload');
  q.enqueueMany([{ id: 'b', payload: '' }]);
  const r: AttemptResult | null = q.process('transient', 'db timeout');
  if (r !== null && r.disposition === 'quarantined') {
    const reason: 'permanent' | 'exhausted' | 'stalled' | undefined = r.reason;
    void reason;
  }
  const replayed: boolean = q.replay('a');
  const where = q.locate('a');
  if (where !== null && where.place === 'quarantine') {
    const why: 'permanent' | 'exhausted' | 'stalled' | 'max-length' | 'expired' = where.reason;
    void why;
  }
  if (where !== null && where.place === 'leased') {
    const expires: number = where.expiresAt;
    void expires;
  }
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
  const term: { firstAttempt: number; delayMs: number; class: FailureClass; ownBackoff: boolean } | undefined = worst.delays[0];
  void term;
  const leases: number = worst.attempts * worst.leaseMs;
  void leases;
  const par: { actions: number; steps: number } | null = lab.goalPar('completed a', 'v1;m3;ja:;as');
  void par;
  const policy: Policy = timed.policy();
  const jitter: 'none' | 'full' | 'equal' | 'decorrelated' | 'bullmq' = policy.backoff.jitter;
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

  // Failure classes.
  const classOptions: ClassOptions = {
    precondition: { maxAttempts: 3 }, 'unknown-schema': { alert: false }, crash: { retry: 'never' },
    transient: { backoff: { kind: 'fixed', baseMs: 100 } }, permanent: { backoff: 'policy' },
  };
  const classed = lab.createQueue({ maxAttempts: 4, classes: classOptions });
  classed.enqueueMany([{ id: 'a', payload: '' }, { id: 'b', payload: '' }]);
  const failing: Outcome = 'unknown-schema';
  classed.process(failing, 'schema v9');
  classed.settle(classed.lease()!.token, 'undeserializable');
  const entry: QuarantineEntry = classed.quarantined()[0]!;
  const entryClass: FailureClass = entry.class;
  const alerted: boolean = entry.alert;
  const waited: number = entry.arrivedAt - entry.firstAttemptAt;
  const table: ClassTable = classed.policy().classes;
  const configured: ClassRule = table.precondition;
  const configuredBackoff: Required<BackoffOptions> | 'policy' = configured.backoff;
  const inForce: ResolvedClassRule = classed.rules().crash;
  const inForceMs: number = inForce.maxAttempts + inForce.backoff.baseMs;
  const retry: Retry = inForce.retry;
  const eventClass: FailureClass | undefined = classed.timeline()[0]!.class;
  const alertKind: EventKind = 'alert';
  const everyOutcome: readonly Outcome[] = lab.outcomes;
  const everyClass: readonly FailureClass[] = lab.failureClasses;
  lab.createQueue(classed.policy()).dispose();
  const classedLink: string = lab.formatScenario({
    maxAttempts: 3, classes: { precondition: { maxAttempts: 2 } }, jobs: [{ id: 'a' }],
    actions: [{ type: 'lease' }, { type: 'settle', token: 'lease-1', outcome: 'precondition' }, { type: 'process', outcome: 'unknown-schema' }],
  });
  const parsedClasses: ClassTable = lab.parseScenario(classedLink).classes;
  const classRange: number = lab.integerFields['classes.<class>.maxAttempts'].max;
  classed.dispose();
  void [entryClass, alerted, waited, configuredBackoff, inForceMs, retry, eventClass, alertKind, everyOutcome, everyClass,
    parsedClasses, classRange];

  // Ordering and an operable quarantine.
  const ordering: Ordering = 'key';
  const operated: QuarantineOptions = { retentionMs: 60_000, alarmDepth: 5 };
  const accounts = lab.createQueue({ maxAttempts: 3, ordering, quarantine: operated });
  lab.createQueue({ maxAttempts: 3, ordering: 'stall', quarantine: {} }).dispose();
  accounts.enqueue('a', 'pay 1', { key: 'acct-7' });
  accounts.enqueue('b', 'pay 2', {});
  accounts.enqueue('c', 'pay 3');
  const batch: JobInput[] = [{ id: 'd', payload: '', key: 'acct-9' }, { id: 'e', payload: '' }];
  accounts.enqueueMany(batch);
  accounts.process('permanent');
  const held: ReadyJob = accounts.ready()[0]!;
  const holder: string | null = held.heldBy;
  const heldKey: string | null = held.key;
  const done: KeyedJob[] = accounts.completed();
  const quarantinedKey: string | null = accounts.quarantined()[0]!.key;
  const released: number = accounts.releaseKey('acct-7');
  const moved: number = accounts.redrive({ max: 10 });
  // An operator's fix before a replay: patch(id, payload), a 'patched' event with both sizes.
  const patchedNothing: void = accounts.patch('a', '{"fixed":true}');
  const patchEvent = accounts.timeline().find((e) => e.kind === 'patched');
  const patchSizes: number | undefined = (patchEvent?.payloadBytes ?? 0) + (patchEvent?.oldPayloadBytes ?? 0);
  const malformed: BehaviourKind = 'malformed';
  void [patchedNothing, patchSizes, malformed];
  const alarm: Alarm = accounts.alarm();
  const alarmed: boolean = alarm.raised && alarm.depth >= alarm.threshold;
  const reorders: Reorder[] = accounts.reorders(0, 5);
  const overtook: string[] = reorders.flatMap((r) => r.overtook.concat(r.id, r.key));
  const counts: QueueStats = accounts.stats();
  const brokenOrder: number = counts.reorders + counts.expired;
  const configuredOrdering: Ordering = accounts.policy().ordering;
  const retention: number = accounts.policy().quarantine.retentionMs + accounts.policy().quarantine.alarmDepth;
  const reorderEvent = accounts.timeline().find((e) => e.kind === 'reorder');
  const eventKey: string | undefined = reorderEvent?.key;
  const eventOvertook: string[] | undefined = reorderEvent?.overtook;
  const eventDepth: number | undefined = reorderEvent?.depth;
  const newKinds: EventKind[] = ['reorder', 'key-released', 'evidence-expired', 'alarm-raised', 'alarm-cleared'];
  const keyLimit: number = lab.limits.keyBytes + lab.integerFields['quarantine.retentionMs'].max +
    lab.integerFields['quarantine.alarmDepth'].max + lab.integerFields.max.min;
  const orderedLink: string = lab.formatScenario({
    maxAttempts: 3, ordering: 'key', quarantine: { alarmDepth: 2 }, jobs: [{ id: 'a', key: 'acct-7' }, { id: 'b' }],
    actions: [{ type: 'process', outcome: 'permanent' }, { type: 'releaseKey', key: 'acct-7' }, { type: 'redrive', max: 1 },
      { type: 'enqueue', id: 'c', key: 'acct-7' }, { type: 'patch', id: 'a', payload: '{}' }],
  });
  const parsedOrdered = lab.parseScenario(orderedLink);
  const parsedOrdering: Ordering = parsedOrdered.ordering;
  const parsedJobKey: string | undefined = parsedOrdered.jobs[0]!.key;
  for (const action of parsedOrdered.actions) {
    if (action.type === 'releaseKey') {
      const releasedKey: string = action.key;
      void releasedKey;
    } else if (action.type === 'redrive') {
      const max: number = action.max;
      void max;
    } else if (action.type === 'patch') {
      const fixed: string = action.payload + action.id;
      void fixed;
    }
  }
  accounts.dispose();
  void [holder, heldKey, done, quarantinedKey, released, moved, alarmed, overtook, brokenOrder, configuredOrdering, retention, eventKey,
    eventOvertook, eventDepth, newKinds, keyLimit, parsedOrdering, parsedJobKey];

  // @ts-expect-error: ordering is one of three fixed strings
  lab.createQueue({ maxAttempts: 3, ordering: 'fifo' });
  // @ts-expect-error: retentionMs is a number
  lab.createQueue({ maxAttempts: 3, quarantine: { retentionMs: '1000' } });
  // @ts-expect-error: a key is a string
  q.enqueue('k', '', { key: 7 });
  // @ts-expect-error: a job's key is a string or absent, never null
  q.enqueueMany([{ id: 'k', payload: '', key: null }]);
  // @ts-expect-error: redrive takes an options object
  q.redrive(5);
  // @ts-expect-error: releaseKey takes a key
  q.releaseKey();
  // @ts-expect-error: a ready job's holder may be null
  const notNull: string = q.ready()[0]!.heldBy;
  void notNull;
  // @ts-expect-error: a redrive action needs its max
  lab.formatScenario({ maxAttempts: 3, actions: [{ type: 'redrive' }] });

  // @ts-expect-error: outcomes are six fixed strings
  q.process('retry');
  // @ts-expect-error: 'crash' is a failure class, not an outcome a worker reports
  q.process('crash');
  // @ts-expect-error: classes are six fixed names
  lab.createQueue({ maxAttempts: 3, classes: { poison: { retry: 'never' } } });
  // @ts-expect-error: retry is 'never' or 'bounded'
  lab.createQueue({ maxAttempts: 3, classes: { transient: { retry: 'always' } } });
  // @ts-expect-error: alert is a boolean
  lab.createQueue({ maxAttempts: 3, classes: { transient: { alert: 'yes' } } });
  // @ts-expect-error: a class's backoff is a backoff object or 'policy'
  lab.createQueue({ maxAttempts: 3, classes: { transient: { backoff: 'none' } } });
  // @ts-expect-error: a rule in force always has a backoff object
  const notPolicy: 'policy' = q.rules().transient.backoff;
  void notPolicy;
  // @ts-expect-error: maxAttempts is required
  lab.createQueue({});
  // @ts-expect-error: replay takes an id
  q.replay();
  // @ts-expect-error: only a delayed job has a due time
  void (q.locate('a') as JobLocation & { place: 'ready' }).dueAt;
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

  // Goals: parsed and checked by the core.
  const canonical: string = lab.parseGoal('quarantined b as exhausted; steps <= 3');
  const check = q.checkGoal(canonical);
  const met: boolean = check.met && check.clauses.every((c) => c.met || c.actual.length > 0);
  void met;
  // @ts-expect-error: a goal is text
  q.checkGoal({ quarantined: 'b' });

  // Storms: the simulations' own module, stepped in slices (a worker reports progress), series as typed arrays.
  const sim: Sim = await loadSim();
  // @ts-expect-error: the storms are the Sim's, no longer the Lab's
  lab.createStorm({ jobs: 10, maxAttempts: 3 });
  const storm = sim.createStorm({ jobs: 1000, maxAttempts: 10, outage: { startMs: 0, durationMs: 5000 },
    backoff: { kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' }, workers: 100, workMs: 10 });
  while (!storm.run(100_000)) void storm.progress;
  const { summary, series } = storm.result();
  const drained: number = summary.drainMs;
  const ready: Uint32Array = series.ready;
  void drained; void ready;
  storm.dispose();
  const once = sim.runStorm({ jobs: 10, maxAttempts: 3 });
  void once.summary.worstCase.attempts;
  // @ts-expect-error: jobs is a number
  sim.runStorm({ jobs: '10', maxAttempts: 3 });

  // The contention experiment.
  const c = sim.runContention({ clients: 50, strategy: 'full', runs: 10 });
  const calls: number = c.meanCalls;
  void calls;
  // @ts-expect-error: strategies are five fixed names
  sim.runContention({ clients: 50, strategy: 'half' });

  // A policy's retry schedule.
  const schedule = lab.retrySchedule({ maxAttempts: 5, backoff: { kind: 'exponential', jitter: 'full' } }, { outageMs: 3000 });
  const leaseTime: number = lab.retrySchedule({ maxAttempts: 2, leaseMs: 1000 }, { leases: true }).attemptMs;
  void leaseTime;
  const p99: number = schedule.rows[1].start.p99;
  const chance: number = schedule.outage.probability;
  void p99; void chance; void schedule.rows[0].delay?.median;
  // @ts-expect-error: outageMs is a number
  lab.retrySchedule({ maxAttempts: 3 }, { outageMs: '3000' });

  // A session: one call per action, each returning the view to draw.
  const session = lab.createSession('v1;m3;ja:,b:;at,s,s;c0');
  const stepped = session.step('transient');
  const view = stepped.view;
  const along: boolean = view.cursor <= view.authoredThrough;
  const why: string = view.last.explanation;
  const lost: number = view.stats.lost;
  const crashed = session.act({ type: 'crash', after: 3, torn: false });
  const report = crashed.view.last.crash;
  if (report !== null) void report.lost.length;
  for (const card of view.ready) if (card.id !== '') void card;
  void along; void why; void lost;
  // @ts-expect-error: a crash names the write
  session.act({ type: 'crash' });
  const paced: boolean = session.redriveAtRate(3, { reason: 'exhausted' }).accepted;
  void paced; void session.redriveAtRate(5);
  // @ts-expect-error: a redrive's reason is permanent or exhausted
  session.redriveAtRate(3, { reason: 'stalled' });
  const here: WorstCase = session.worstCase({ outcomes: ['success', 'transient'], leases: true });
  void here.stalls;
  // @ts-expect-error: the outcomes are the core's names
  session.worstCase({ outcomes: ['maybe'], leases: false });
  // Set-up edits, one call each; the link without a view.
  const edited: SessionView = session.setPolicy({ backoff: { kind: 'fixed', baseMs: 500 } }, { replayWorld: false });
  void edited; void session.removeJob('b');
  void session.addJob('c', '', { key: 'k', behaviour: { kind: 'flaky', count: 2 } });
  const shared = session.link();
  if ('text' in shared) void shared.text.length;
  // @ts-expect-error: maxAttempts is a number
  session.setPolicy({ maxAttempts: '5' });
  session.dispose();
}
void main;

// lab.schema: the core's field tables, typed.
export function schemaUsage(lab: Lab): void {
  const rows: readonly SchemaField[] = lab.schema.policy;
  const first = rows[0];
  const label: string = first.label;
  const range: number | undefined = first.min;
  const names: string[] | undefined = lab.schema.backoff.find((r) => r.name === 'jitter')?.choices?.map((c) => c.name);
  void label; void range; void names;
}

// q.apply(action) and lab.scenarioFeatures(): the core's action rule and link-version decision.
export function applyUsage(lab: Lab): void {
  const q = lab.createQueue({ maxAttempts: 3 });
  const report = q.apply({ type: 'crash', after: 1 });
  const lost: string[] | undefined = report?.lost;
  const version: 1 | 2 = lab.scenarioFeatures({ maxAttempts: 3, jobs: [], actions: [] }).version;
  void lost; void version;
}
