// Storms: createStorm()'s options read once, and the storm and storm-set handles.
import { coded, describe, typeError, unwrap } from './errors.mjs';
import { call, sim, simSchema, stormSeries } from './runtime.mjs';
import { checkObject } from './checks.mjs';
import { copyBackoff, copyFields } from './schema.mjs';
import { Lifetime } from './lifetime.mjs';

// ---- storms -------------------------------------------------------------

const STORM_EXAMPLE = "{ jobs: 10000, outage: { startMs: 0, durationMs: 5000 }, maxAttempts: 10, " +
  "backoff: { kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' } }";

/**
 * createStorm()'s options (sim.schema.storm: core/sim/storm.cpp; docs/storm.md)
 * read once by the storm's rows through the one converter, its backoff by the
 * backoff's, into a plain copy for the core, which fills in its defaults and
 * checks ranges, names and pairs. The rows say which groups may be null and
 * which take text (a budget), and which fields only one arrival kind reads.
 */
export function copyStormOptions(source) {
  checkObject('options', source, STORM_EXAMPLE);
  const backoffIn = source.backoff;
  const options = copyFields(source, simSchema.storm, {
    prefix: '', namedChoices: true, integerMessage: (name, described) => sim.stormTypeMessage(name, described),
  });
  if (backoffIn !== undefined) options.backoff = copyBackoff('', '', backoffIn);
  return options;
}

/** Runs on one grid: what sim.createStormSet() returns. */
export class StormSet {
  #life;

  constructor(handle, size, forget) {
    this.#life = new Lifetime(handle, forget, ['storm set', 'sim.createStormSet()']);
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
    this.#life = new Lifetime(handle, forget, ['storm', 'sim.createStorm()']);
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
