// Storms: createStorm()'s options read once, and the storm and storm-set handles.
import { coded, describe, typeError, unwrap } from './errors.mjs';
import { call, core, limits, stormSeries } from './runtime.mjs';
import { checkInteger, checkObject, checkText } from './checks.mjs';
import { copyBackoff } from './schema.mjs';
import { Lifetime } from './lifetime.mjs';

// ---- storms -------------------------------------------------------------

const STORM_EXAMPLE = "{ jobs: 10000, outage: { startMs: 0, durationMs: 5000 }, maxAttempts: 10, " +
  "backoff: { kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' } }";

/** A number for a storm's integer option (absent is fine unless `required`); the core checks the range. */
function checkStormInteger(name, value, required = false) {
  if (value === undefined && !required) return;
  if (typeof value !== 'number') throw typeError(unwrap(call(() => core.stormTypeMessage(name, describe(value)))));
}

/** `outage` or `capacity`: undefined or null (none), or an object whose two integer fields are read once. */
function copyStormPair(name, source, fields, example) {
  if (source === undefined || source === null) return source;
  checkObject(name, source, `${example} or null`);
  const copy = { [fields[0]]: source[fields[0]], [fields[1]]: source[fields[1]] };
  for (const field of fields) checkStormInteger(`${name}.${field}`, copy[field], true);
  return copy;
}

/**
 * createStorm()'s options (core/sim/storm.h; docs/storm.md) read once into a plain
 * copy for the core, which fills in its defaults and checks ranges, names and pairs.
 */
export function copyStormOptions(source) {
  checkObject('options', source, STORM_EXAMPLE);
  const jobs = source.jobs;
  const arrivalIn = source.arrival;
  const outageIn = source.outage;
  const capacityIn = source.capacity;
  const workers = source.workers;
  const workMs = source.workMs;
  const leaseMs = source.leaseMs;
  const maxAttempts = source.maxAttempts;
  const backoffIn = source.backoff;
  const seed = source.seed;
  const bucketMs = source.bucketMs;
  const failurePerMillion = source.failurePerMillion;
  const budgetIn = source.budget;
  const refusedRetry = source.refusedRetry;
  const serverIn = source.server;
  checkStormInteger('jobs', jobs, true);
  let arrival;
  if (arrivalIn !== undefined) {
    checkObject('arrival', arrivalIn, "{ kind: 'burst' } or { kind: 'rate', perSecond: 1000 }");
    arrival = { kind: arrivalIn.kind, perSecond: arrivalIn.perSecond, clients: arrivalIn.clients };
    if (typeof arrival.kind !== 'string') {
      throw typeError(`arrival.kind must be 'burst', 'rate' or 'closed', got ${describe(arrival.kind)}`);
    }
    checkText('arrival.kind', arrival.kind, limits.outcomeBytes);  // the core names a wrong one
    if (arrival.kind === 'rate') checkStormInteger('arrival.perSecond', arrival.perSecond, true);
    if (arrival.kind === 'closed') checkStormInteger('arrival.clients', arrival.clients, true);
  }
  checkStormInteger('failurePerMillion', failurePerMillion);
  let budget = budgetIn;
  if (typeof budgetIn === 'string') {
    checkText('budget', budgetIn, limits.outcomeBytes);  // the core parses it and names what is wrong
  } else if (budgetIn !== undefined && budgetIn !== null) {
    checkObject('budget', budgetIn, "{ kind: 'grpc', maxTokens: 10, tokenRatioPerMille: 100 }, text such as 'grpc:10:0.1', or null");
    budget = { kind: budgetIn.kind };
    if (typeof budget.kind !== 'string') {
      throw typeError(`budget.kind must be 'grpc', 'aws-standard' or 'finagle', got ${describe(budget.kind)}`);
    }
    checkText('budget.kind', budget.kind, limits.outcomeBytes);
    for (const key of ['maxTokens', 'tokenRatioPerMille', 'percent', 'minPerSecond', 'windowMs']) {
      budget[key] = budgetIn[key];
      checkStormInteger(`budget.${key}`, budget[key]);
    }
  }
  if (refusedRetry !== undefined) {
    if (typeof refusedRetry !== 'string') {
      throw typeError(`refusedRetry must be 'quarantine' or 'fail', got ${describe(refusedRetry)}`);
    }
    checkText('refusedRetry', refusedRetry, limits.outcomeBytes);
  }
  let server = serverIn;
  if (serverIn !== undefined && serverIn !== null) {
    checkObject('server', serverIn, '{ capacityPerSecond: 1000, timeoutMs: 500 } or null');
    server = {};
    for (const [key, required] of [['capacityPerSecond', true], ['timeoutMs', true], ['dropStartMs', false],
      ['dropMs', false], ['dropPerSecond', false]]) {
      server[key] = serverIn[key];
      checkStormInteger(`server.${key}`, server[key], required);
    }
  }
  const outage = copyStormPair('outage', outageIn, ['startMs', 'durationMs'], '{ startMs: 0, durationMs: 5000 }');
  const capacity = copyStormPair('capacity', capacityIn, ['perWindow', 'windowMs'], '{ perWindow: 500, windowMs: 100 }');
  checkStormInteger('workers', workers);
  checkStormInteger('workMs', workMs);
  checkInteger('', 'leaseMs', leaseMs);
  checkInteger('', 'maxAttempts', maxAttempts, true);
  const backoff = backoffIn === undefined ? undefined : copyBackoff('', '', backoffIn);
  checkInteger('', 'seed', seed);
  checkStormInteger('bucketMs', bucketMs);
  return {
    jobs, arrival, outage, capacity, failurePerMillion, budget, refusedRetry, server, workers, workMs, leaseMs,
    maxAttempts, backoff, seed, bucketMs,
  };
}

/** Runs on one grid: what lab.createStormSet() returns. */
export class StormSet {
  #life;

  constructor(handle, size, forget) {
    this.#life = new Lifetime(handle, forget, ['storm set', 'lab.createStormSet()']);
    this.size = size;
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Advances the running storm by at most `maxEvents` events (a non-negative
   * integer, or Infinity); a storm that finishes keeps its result and the next
   * starts. True when every run is over.
   */
  run(maxEvents) {
    const handle = this.#life.live();
    const message = () => `maxEvents must be a non-negative integer or Infinity, got ${describe(maxEvents)}`;
    if (typeof maxEvents !== 'number') throw typeError(message());
    if (maxEvents !== Infinity && (!Number.isSafeInteger(maxEvents) || maxEvents < 0)) {
      throw coded(RangeError, 'out-of-range', message());
    }
    return unwrap(call(() => handle.run(maxEvents)));
  }

  /** The run stepping now (size when all are over), its progress (0 to 1) and its attempts so far. */
  get current() { const h = this.#life.live(); return call(() => h.current()); }
  get progress() { const h = this.#life.live(); return call(() => h.progress()); }
  get attempts() { const h = this.#life.live(); return call(() => h.attempts()); }

  /** Run i's { summary, series } (i below current); each series a Uint32Array of its own. */
  result(i) {
    const handle = this.#life.live();
    const done = call(() => handle.current());
    if (!Number.isSafeInteger(i) || i < 0 || i >= done) {
      throw coded(RangeError, 'out-of-range', `i must be an integer from 0 to ${done - 1} (the runs over so far), got ${describe(i)}`);
    }
    return call(() => {
      const { bucketMs, length, ...summary } = handle.summary(i);
      const series = { bucketMs, length };
      stormSeries.forEach((name, k) => { series[name] = handle.series(i, k).slice(); });
      return { summary, series };
    });
  }

  dispose() {
    this.#life.dispose();
  }
}

export class Storm {
  #life;

  constructor(handle, forget) {
    this.#life = new Lifetime(handle, forget, ['storm', 'lab.createStorm()']);
  }

  #live() {
    return this.#life.live();
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Advances at most `maxEvents` events (a non-negative integer, or Infinity: to
   * the end); an event is one job moving (an arrival, a delay's end, an
   * attempt's start or its decision). True when the storm is over.
   */
  run(maxEvents) {
    const handle = this.#live();
    const message = () => `maxEvents must be a non-negative integer or Infinity, got ${describe(maxEvents)}`;
    if (typeof maxEvents !== 'number') throw typeError(message());
    if (maxEvents !== Infinity && (!Number.isSafeInteger(maxEvents) || maxEvents < 0)) {
      throw coded(RangeError, 'out-of-range', message());
    }
    return call(() => handle.run(maxEvents));
  }

  /** Jobs completed or quarantined so far, over the jobs (0 to 1). */
  get progress() {
    const handle = this.#live();
    return call(() => handle.progress());
  }

  /** Attempts decided so far (a counter: no copy of the result). */
  get attempts() {
    const handle = this.#live();
    return call(() => handle.attempts());
  }

  /**
   * { summary, series }: when the storm is over, its result; before, the counters
   * now and the series so far. Each series is a Uint32Array of its own (copied
   * out of wasm memory once), so it outlives dispose().
   */
  result() {
    const handle = this.#live();
    return call(() => {
      const { bucketMs, length, ...summary } = handle.summary();
      const series = { bucketMs, length };
      stormSeries.forEach((name, i) => { series[name] = handle.series(i).slice(); });
      return { summary, series };
    });
  }

  /** Frees the storm's wasm memory; disposing twice throws 'disposed'. After an abort it only forgets the storm. */
  dispose() {
    this.#life.dispose();
  }
}
