// A queue: what lab.createQueue(), restoreQueue(), recover() and runScenario() return.
import { readInput, unwrap } from './errors.mjs';
import { call, limits } from './runtime.mjs';
import {
  checkBoolean, checkCount, checkGoalText, checkInteger, checkKey, checkObject, checkOutcome, checkRoom, checkSize,
  checkString, checkText, copyArray, isObject, isWellFormed, tooLarge, utf8, utf8Length, wireBytes, wireText,
} from './checks.mjs';
import { copyWorld } from './schema.mjs';
import { copyAction } from './scenario.mjs';
import { Lifetime } from './lifetime.mjs';

export class Queue {
  #life;

  constructor(handle, forget) {
    this.#life = new Lifetime(handle, forget, ['queue', 'lab.createQueue()']);
  }

  #live() {
    return this.#life.live();
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Appends a job at the ready tail; `options.key` (a non-empty string, at most
   * lab.limits.keyBytes) orders it among its key's jobs. No options: no key.
   */
  enqueue(id, payload, options) {
    const handle = this.#live();
    const key = options === undefined ? undefined : readInput('options', () => {
      checkObject('options', options, "{ key: 'acct-7' }");
      return options.key ?? undefined;
    });
    const idIn = wireText('id', id, limits.idBytes);
    const payloadIn = wireText('payload', payload, limits.payloadBytes);
    checkKey('key', key);  // the core's own name for it
    unwrap(call(() => handle.enqueue(idIn, payloadIn, key ?? '')));
  }

  /** All or nothing: appends every { id, payload, key? } in order, or none. */
  enqueueMany(jobs) {
    const handle = this.#live();
    const { ids, payloads, keys, bytes } = readInput('jobs', () => {
      const list = copyArray('jobs', jobs, limits.batchJobs);
      const ids = new Array(list.length);
      const payloads = new Array(list.length);
      let keys = null;  // made at the first job with a key: '' for none
      let bytes = 0;
      // The checks below build a name like `jobs[${i}].id` only when they refuse:
      // made eagerly, three names a job cost more than the rest of the loop.
      // A short string's bound (3 bytes a unit) is checkSize()'s fast path.
      const { idBytes: idLimit, payloadBytes: payloadLimit } = limits;
      for (let i = 0; i < list.length; i++) {
        const job = list[i];
        if (!isObject(job)) checkObject(`jobs[${i}]`, job, "{ id: 'a', payload: '' }");
        const id = job.id;
        const payload = job.payload;
        const key = job.key ?? undefined;  // null (as views report it) is no key too
        if (typeof id !== 'string') checkString(`jobs[${i}].id`, id);
        if (typeof payload !== 'string') checkString(`jobs[${i}].payload`, payload);
        bytes += id.length * 3 <= idLimit ? id.length * 3 : checkSize(`jobs[${i}].id`, id, idLimit);
        bytes += payload.length * 3 <= payloadLimit ? payload.length * 3
          : checkSize(`jobs[${i}].payload`, payload, payloadLimit);
        if (key !== undefined) {
          bytes += checkKey(`jobs[${i}].key`, key);
          keys ??= new Array(list.length).fill('');
          keys[i] = key;
        }
        ids[i] = id;
        payloads[i] = payload;
      }
      return { ids, payloads, keys, bytes };
    });
    const checkEach = () => {
      ids.forEach((id, i) => { checkString(`jobs[${i}].id`, id); checkString(`jobs[${i}].payload`, payloads[i]); });
    };
    if (bytes > limits.batchBytes) {
      // Maybe too large to join (past V8's longest string): the exact size before
      // joining, after the per-string checks a joined check would have made first.
      checkEach();
      const exact = ids.reduce((sum, id) => sum + utf8Length(id), 0) + payloads.reduce((sum, p) => sum + utf8Length(p), 0) +
        (keys === null ? 0 : keys.reduce((sum, key) => sum + utf8Length(key), 0));
      if (exact > limits.batchBytes) tooLarge('jobs (ids and payloads together)', limits.batchBytes, exact);
    }
    // Well-formedness once over the joined text (joining cannot pair up lone
    // surrogates: a NUL separates every string); per string only to name one.
    // Keys were checked one by one above.
    const idText = ids.join('\0');
    const payloadText = payloads.join('\0');
    if (!isWellFormed(idText) || !isWellFormed(payloadText)) checkEach();
    checkRoom(2 * bytes, 'enqueueMany');
    // One boundary crossing for the whole batch: NUL-joined strings, encoded to
    // UTF-8 here and copied in as bytes (keys as a third string, only when some
    // job has one), each with one TypedArray.set (values.cpp ReadBytes). Every
    // string was checked above.
    const idBytes = utf8.encode(idText);
    const payloadBytes = utf8.encode(payloadText);
    const packed = keys === null ? call(() => handle.enqueuePacked(idBytes, payloadBytes, ids.length))
      : call(() => handle.enqueuePackedKeys(idBytes, payloadBytes, utf8.encode(keys.join('\0')), ids.length));
    // false: some string holds NUL itself, so the fields did not split back; let
    // the core read the strings one by one instead.
    if (packed !== false) {
      unwrap(packed);
      return;
    }
    const list = ids.map((id, i) => (keys === null || keys[i] === '' ? { id, payload: payloads[i] }
      : { id, payload: payloads[i], key: keys[i] }));
    unwrap(call(() => handle.enqueueArray(list)));
  }

  process(outcome, errorText = '') {
    const handle = this.#live();
    checkOutcome('outcome', outcome);
    const errorIn = wireText('errorText', errorText, limits.errorTextBytes);
    return unwrap(call(() => handle.process(outcome, errorIn)));
  }

  /** One attempt per letter of `outcomes` ('s', 't', 'p'), until nothing is ready; returns attempts made. */
  processMany(outcomes, errorText = '') {
    const handle = this.#live();
    // Bytes: a million letters cross as one TypedArray.set, not letter by letter.
    const outcomesIn = wireBytes('outcomes', outcomes, limits.outcomeLetters);
    const errorIn = wireText('errorText', errorText, limits.errorTextBytes);
    return unwrap(call(() => handle.processMany(outcomesIn, errorIn)));
  }

  /**
   * Moves quarantined `id` back to the ready tail with attempts reset; false if it is not in
   * quarantine. `{ resetAttempts: false }` (system bullmq only) keeps its attempts, as BullMQ's
   * job.retry() without resetAttemptsMade does: one more run, and a failure there is final.
   */
  replay(id, { resetAttempts = true } = {}) {
    const handle = this.#live();
    checkText('id', id, limits.idBytes);
    checkBoolean('resetAttempts', resetAttempts);
    if (resetAttempts) return call(() => handle.replay(id));
    return unwrap(call(() => handle.replayKeepingAttempts(id)));
  }

  /**
   * One scenario action ({ type: 'process', outcome }, { type: 'crash', after }, …), applied
   * by the core exactly as a script plays it: one that would find nothing to do is refused,
   * and nothing changes. Returns null, or a crash's report ({ applied, journal,
   * tornDiscarded, lost, duplicated }); the queue is then the recovered one.
   */
  apply(action) {
    const handle = this.#live();
    const { action: copy, bytes } = readInput('action', () => copyAction(action, 'action'));
    checkRoom(bytes, 'this action');
    return unwrap(call(() => handle.apply(copy)));
  }

  /** Where job `id` is now, in one lookup (no pass over the views); null if this queue was never given it. */
  locate(id) {
    const handle = this.#live();
    checkText('id', id, limits.idBytes);
    return call(() => handle.locate(id));
  }

  /**
   * Takes the ready head and counts its attempt now: { id, payload, attempt,
   * token, leasedAt, expiresAt }, or null when nothing is ready.
   */
  lease() {
    const handle = this.#live();
    return unwrap(call(() => handle.lease()));
  }

  /**
   * Ends the lease `token` with the worker's outcome, like process(). The outcome
   * and error text are checked first, then the token: unknown, settled or expired
   * is an Error with code 'stale-lease', and nothing changes.
   */
  settle(token, outcome, errorText = '') {
    const handle = this.#live();
    checkOutcome('outcome', outcome);
    const errorIn = wireText('errorText', errorText, limits.errorTextBytes);
    // The core has no limit of its own for a token ("lease-<n>"); an id's bounds the copy.
    checkText('token', token, limits.idBytes);
    return unwrap(call(() => handle.settle(token, outcome, errorIn)));
  }

  /** Moves the virtual clock on by `ms`, firing every timer due on the way, each at its own time. */
  advance(ms) {
    const handle = this.#live();
    checkInteger('', 'ms', ms, true);
    unwrap(call(() => handle.advance(ms)));
  }

  /** Jumps to the earliest pending timer and fires what is due then: the new time, or null (nothing pending). */
  advanceToNext() {
    const handle = this.#live();
    return call(() => handle.advanceToNext());
  }

  /**
   * An operator's fix before a replay: gives the quarantined job `id` the payload
   * `payload` (a 'patched' event); its entry keeps id, attempts and reason. Throws,
   * naming the argument, for an unknown id, a job not in quarantine or a payload past
   * the limit; nothing changes then.
   */
  patch(id, payload) {
    const handle = this.#live();
    checkText('id', id, limits.idBytes);
    checkText('payload', payload, limits.payloadBytes);
    unwrap(call(() => handle.patch(id, payload)));
  }

  /**
   * An operator's decision to let key `key`'s jobs run past its holders in
   * quarantine (or whose evidence expired): returns how many holders it
   * released (0: nothing changed). Holders in flight or delayed keep holding.
   */
  releaseKey(key) {
    const handle = this.#live();
    checkKey('key', key, true);
    return unwrap(call(() => handle.releaseKey(key)));
  }

  /**
   * Replays the `max` oldest quarantine entries (by arrival), each exactly like
   * replay(id); returns how many moved. `options` ({ max }) is required.
   */
  redrive(options) {
    const handle = this.#live();
    const max = readInput('options', () => {
      checkObject('options', options, '{ max: 10 }');
      return options.max;
    });
    checkInteger('', 'max', max, true);  // the core checks the range
    return unwrap(call(() => handle.redrive(max)));
  }

  /**
   * What the simulated world (core/scenario/world.h) does next to this queue, as a
   * scenario action object ({ type: 'lease' }, { type: 'settle', token, outcome,
   * error }, { type: 'advance', ms } or { type: 'advanceToNext' }), or null when
   * nothing will ever happen again. Changes nothing: apply the action to play it.
   */
  nextWorldAction(world) {
    const handle = this.#live();
    const copy = readInput('world', () => copyWorld('', world));
    return unwrap(call(() => handle.nextWorldAction(copy))).action;
  }

  /** The quarantine's depth alarm: { raised, depth, threshold } (threshold 0: no alarm). */
  alarm() {
    const handle = this.#live();
    return call(() => handle.alarm());
  }

  /** Completions that broke their key's order, as they happened: [{ key, id, overtook }]; optionally a slice. */
  reorders(from = 0, count = Infinity) { return this.#slice('reorders', from, count); }

  /** The virtual time in milliseconds. */
  now() {
    const handle = this.#live();
    return call(() => handle.now());
  }

  /** { attempts, timeMs }: the most attempts and the longest time a job can spend from its first lease to quarantine. */
  worstCase() {
    const handle = this.#live();
    return call(() => handle.worstCase());
  }

  /**
   * The whole state as a canonical text (equal states, equal texts) with a
   * checksum; lab.restoreQueue() reads it back. Starts a new journal, which
   * follows this snapshot. 'too-large' past lab.limits.snapshotBytes (nothing changes).
   */
  snapshot() {
    const handle = this.#live();
    return unwrap(call(() => handle.snapshot()));
  }

  /** The same text as snapshot(), the journal left as it is. */
  snapshotText() {
    const handle = this.#live();
    return unwrap(call(() => handle.snapshotText()));
  }

  /**
   * The durable writes since the last snapshot() (or since creation, whose first
   * write is 'create'), in order: [{ write, op, id, record }], id null for the
   * writes of no job ('create', 'clock'). 'failed-precondition' when the policy
   * keeps no journal (journal: false).
   */
  journal() {
    const handle = this.#live();
    return unwrap(call(() => handle.journal()));
  }

  /** The whole policy, defaults filled in, as an options object createQueue() takes. */
  policy() {
    const handle = this.#live();
    return call(() => handle.policy());
  }

  /**
   * { <class>: { retry, maxAttempts, backoff, alert } }: the rule in force for each
   * failure class, as the core resolves it (maxAttempts capped by the policy's,
   * the policy's backoff filled in where the class has none of its own).
   */
  rules() {
    const handle = this.#live();
    return call(() => handle.rules());
  }

  /** Ready jobs, head first; optionally the slice [from, from + count). */
  ready(from = 0, count = Infinity) { return this.#slice('ready', from, count); }
  /** Completed jobs in completion order; optionally a slice. */
  completed(from = 0, count = Infinity) { return this.#slice('completed', from, count); }
  /** Quarantine entries in arrival order; optionally a slice. */
  quarantined(from = 0, count = Infinity) { return this.#slice('quarantined', from, count); }
  /** Jobs dead-lettered with no dead-letter exchange (deadLetterExchange 'none'): gone, in enqueue order. */
  discarded(from = 0, count = Infinity) { return this.#slice('discarded', from, count); }
  /** Delayed jobs in firing order (earliest due first, ties in the order set); optionally a slice. */
  delayed(from = 0, count = Infinity) { return this.#slice('delayed', from, count); }
  /** Active leases in expiry order; optionally a slice. */
  leased(from = 0, count = Infinity) { return this.#slice('leased', from, count); }

  #slice(view, from, count) {
    const handle = this.#live();
    checkCount('from', from);
    if (count !== Infinity) checkCount('count', count);
    return call(() => handle[view](from, count));
  }

  /** { step, ready, completed, quarantined, events, maxAttempts, now, actions, delayed, leased, reorders, expired, lost[, discarded] } */
  stats() {
    const handle = this.#live();
    return call(() => handle.stats());
  }

  /** Events from index `from` (0-based), at most `count` of them. */
  timeline(from = 0, count = Infinity) { return this.#slice('timeline', from, count); }

  /** The timeline as text, one stable line per event, each ending in "\n". */
  timelineText() {
    const handle = this.#live();
    return call(() => handle.timelineText());
  }

  /**
   * Checks a goal (docs/goals.md) against this queue now: { met, clauses: [{ text,
   * met, actual }] }, a clause per clause in order, `text` canonical, `actual` what
   * is true now. Never changes the queue; a goal that does not parse throws
   * lab.parseGoal()'s error.
   */
  checkGoal(goal) {
    const handle = this.#live();
    checkGoalText(goal);
    return unwrap(call(() => handle.checkGoal(goal)));
  }

  /**
   * Frees the queue's wasm memory. Disposing twice throws 'disposed'. After the
   * core has aborted, dispose() only forgets the queue (it never calls into the
   * broken module) and does not throw, so cleanup code always runs to the end.
   */
  dispose() {
    this.#life.dispose();
  }
}
