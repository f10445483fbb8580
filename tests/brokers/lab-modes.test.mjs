// The lab under each system mode against the broker corpus: the same scenarios the
// broker suite plays on real RabbitMQ, BullMQ and Sidekiq (and whose `expected`
// traces those runs check) are played by the lab's core with policy.system set, and
// its trace must equal the same `expected`: delivery order, the count on each
// delivery, the delays, the final place and the dead-letter fields the lab models.
// A scenario the lab cannot express is listed with its reason (printed), never
// silently passed: docs/real-systems.md carries the same list.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from 'dlq-lab';
import { loadCorpus } from './lib/corpus.mjs';
import { compareTraces } from './lib/trace.mjs';

const lab = await loadLab();

// ---- each broker's scenario in the lab's terms ------------------------------------

/** { policy, replay?, dlqFields, count(attempt) } or { skip: reason }. */
const TRANSLATE = {
  'rabbitmq-quorum'(s) {
    const work = s.config.queues?.work ?? {};
    if (work['x-queue-type'] !== 'quorum') return { skip: 'a classic queue keeps no delivery count; the mode is a quorum queue\'s' };
    if (work['x-delivery-limit'] === undefined) return { skip: 'no delivery-limit: a lab queue always has a budget (and 3.x returns to the tail then)' };
    if (work['x-dead-letter-routing-key'] !== 'dlq') return { skip: 'no dead-letter queue (dropped, or the TTL retry pattern): the lab always quarantines' };
    if (Object.keys(s.config.queues.dlq ?? {}).length > 0) return { skip: 'dead-letter queue arguments (x-max-length, x-message-ttl) are not modelled' };
    return {
      policy: { maxAttempts: work['x-delivery-limit'] + 1, system: 'rabbitmq-quorum' },
      replay: s.replay?.jobs ?? [],
      count: (attempt) => attempt - 1,  // x-delivery-count: the returns before this delivery
      dlq: (entry) => ({ 'x-first-death-reason': entry.systemReason, 'x-first-death-queue': 'work' }),
    };
  },
  bullmq(s) {
    const o = s.config.jobOptions ?? {};
    if (s.config.workerOptions) return { skip: 'stalls: BullMQ keeps a separate stall budget (maxStalledCount); the lab counts a crash as an attempt' };
    for (const key of ['lifo', 'priority', 'removeOnFail']) if (o[key] !== undefined) return { skip: `${key} is not modelled` };
    if (s.jobs.some((j) => j.withoutJobId)) return { skip: 'a job added without a jobId: the lab names every job' };
    if (s.jobs.some((j) => j.options)) return { skip: 'per-job options (priority) are not modelled' };
    if (o.backoff?.jitter !== undefined) return { skip: 'BullMQ\'s jitter draws from [v(1-j), v); the lab has full, equal and decorrelated jitter' };
    if (s.steps?.some((step) => step.retry && !step.options?.resetAttemptsMade)) {
      return { skip: 'job.retry() without a reset keeps attemptsMade; the lab\'s replay resets attempts' };
    }
    if (s.steps?.some((step) => step.wait || step.add)) return { skip: 'waits and later jobs are not played here' };
    const backoff = o.backoff === undefined ? undefined
      : { kind: o.backoff.type === 'fixed' ? 'fixed' : 'exponential', baseMs: o.backoff.delay, capMs: Math.max(o.backoff.delay, 1) };
    return {
      policy: { maxAttempts: o.attempts ?? 1, system: 'bullmq', ...(backoff ? { backoff } : {}) },
      replay: (s.steps ?? []).filter((step) => step.retry).map((step) => step.retry),
      count: (attempt) => attempt - 1,  // attemptsMade when the processor starts
      dlq: (entry) => ({ attemptsMade: entry.attempts, failedReason: entry.lastError }),
    };
  },
  sidekiq(s) {
    const so = s.config.sidekiq_options ?? {};
    if (s.config.strict || s.config.queues) return { skip: 'queues and their order are not modelled' };
    if (s.config.options) return { skip: 'Sidekiq.options (max_retries, the Dead set\'s size and timeout) are not modelled' };
    if (s.config.retry_in) return { skip: 'a custom sidekiq_retry_in: 6.4.1 adds its jitter on top, the lab uses the delay as given' };
    if (so.retry === false || so.dead === false) return { skip: 'retry: false / dead: false discard the job; the lab always quarantines' };
    if (Object.values(s.outcomes).flat().includes('crash')) return { skip: 'a crash loses the job in free Sidekiq; the lab keeps it (as Sidekiq Pro\'s reliable fetch does)' };
    if (Object.values(s.outcomes).flat().includes('permanent') && so.retry !== 0) {
      return { skip: '6.4.1 has no permanent-error path (retries it); the lab quarantines a permanent failure at once' };
    }
    if (s.steps?.some((step) => step.wait || step.push)) return { skip: 'waits and later jobs are not played here' };
    const retry = so.retry === true || so.retry === undefined ? 25 : so.retry;
    if (retry > 18) return { skip: 'retries past count 17 wait 18^4 s and more, past the day where the lab\'s delays stop' };
    return {
      policy: { maxAttempts: retry + 1, system: 'sidekiq' },
      replay: (s.steps ?? []).filter((step) => step.retryDead).map((step) => step.retryDead),
      // retry_count: none on a job's very first run; after a failure it is attempts − 2
      // (a dead job retried from retry: 0 runs with −1, as Sidekiq's own decrement leaves it).
      count: (attempt, replayed) => (attempt === 1 && !replayed ? null : attempt - 2),
      dlq: (entry) => ({ retry_count: entry.attempts - 1, error_message: entry.lastError }),
    };
  },
};

const OUTCOME = { ok: 'success', transient: 'transient', permanent: 'permanent' };

/** The lab's trace of scenario `s` under `t` (a translation). */
function labTrace(s, t) {
  const q = lab.createQueue({ ...t.policy, leaseMs: 1000 });
  try {
    for (const job of s.jobs) q.enqueue(job.id, JSON.stringify(job.payload ?? {}));
    const runs = {};       // deliveries so far, by job
    const lastAt = {};     // the time of its last delivery
    const replayed = new Set();
    const trace = { deliveries: [], delays: {}, final: {}, dlq: {} };
    const outcomeOf = (id) => {
      const list = s.outcomes[id] ?? ['ok'];
      return list[Math.min(runs[id] ?? 0, list.length - 1)];
    };
    const deliver = () => {
      const next = q.ready()[0];
      if (next === undefined) return false;
      const outcome = outcomeOf(next.id);
      if (lastAt[next.id] !== undefined) (trace.delays[next.id] ??= []).push(q.now() - lastAt[next.id]);
      lastAt[next.id] = q.now();
      trace.deliveries.push({ job: next.id, count: t.count(next.attempts + 1, replayed.has(next.id)) });
      runs[next.id] = (runs[next.id] ?? 0) + 1;
      if (outcome === 'crash') {
        const lease = q.lease();
        q.advance(lease.expiresAt - q.now());  // the consumer dies: its lease runs out
      } else {
        q.process(OUTCOME[outcome], outcome === 'ok' ? '' : `${outcome} failure of ${next.id}`);
      }
      return true;
    };
    const drain = () => {
      for (let guard = 0; guard < 1000; guard++) {
        if (deliver()) continue;
        if (q.advanceToNext() === null) return;
      }
      throw new Error(`${s.name}: the lab did not settle in 1,000 steps`);
    };
    drain();
    for (const id of t.replay) {
      delete lastAt[id];  // a replayed message is a new one: no gap is counted across it
      assert.ok(q.replay(id), `${s.name}: replay(${id})`);
      replayed.add(id);
      drain();
    }
    for (const job of s.jobs) {
      const place = q.locate(job.id)?.place;
      trace.final[job.id] = place === 'completed' ? 'completed' : place === 'quarantine' ? 'dlq' : place ?? 'dropped';
    }
    for (const entry of q.quarantined()) trace.dlq[entry.id] = t.dlq(entry);
    return trace;
  } finally {
    q.dispose();
  }
}

/** `expected` with only the dead-letter fields the lab models (the translation's), and its delays when the lab can time them. */
function modelled(expected, t, observed) {
  const dlq = {};
  for (const [id, fields] of Object.entries(expected.dlq ?? {})) {
    const ours = observed.dlq[id] ?? {};
    dlq[id] = Object.fromEntries(Object.entries(fields).filter(([k]) => k in ours));
  }
  return { ...expected, dlq };
}

for (const broker of Object.keys(TRANSLATE)) {
  test(`the lab's ${broker} mode gives the broker's own trace on every corpus scenario it can express`, () => {
    const corpus = loadCorpus(broker);
    const played = [];
    const skipped = [];
    const differ = [];  // scenarios the lab's own rules (system 'lab') would get wrong
    for (const s of corpus.scenarios) {
      const t = TRANSLATE[broker](s);
      if (t.skip) {
        skipped.push(`${s.name}: ${t.skip}`);
        continue;
      }
      const observed = labTrace(s, t);
      const expected = modelled(s.expected, t, observed);
      // The lab's delays are exact virtual time: only a jittered range needs its width.
      const difference = compareTraces(expected, observed, { delayMs: { below: 0, above: 0 } });
      assert.equal(difference, null, `${broker} ${s.name}: ${difference?.message}`);
      played.push(s.name);
      // The mode is what makes it match: the lab's own rules give another trace here?
      const asLab = labTrace(s, { ...t, policy: { ...t.policy, system: 'lab' } });
      if (compareTraces(modelled(s.expected, t, asLab), asLab, { delayMs: { below: 0, above: 0 } }) !== null) {
        differ.push(s.name);
      }
    }
    console.log(`[lab-modes] ${broker}: ${played.length} of ${corpus.scenarios.length} scenarios equal the broker's ` +
      `(${differ.length} of them differ under the lab's own rules: ${differ.join(', ')}); not expressible:\n  ${skipped.join('\n  ')}`);
    assert.ok(played.length >= 8, `${broker}: only ${played.length} scenarios expressible`);
    assert.ok(differ.length > 0, `${broker}: the mode changes nothing the corpus sees`);
  });
}
