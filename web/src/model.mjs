// The session behind one playground: a scenario (set-up jobs + a script of
// actions + a cursor), the core's events for the whole script, and a live core
// queue at the cursor. It only drives the core and keeps book of what the core
// returned; every decision (disposition, reason, budget, wording) comes from it.
//
// Contract for views: `events` is the full script's timeline; the first
// `eventsAtCursor` of them have happened. `takeDirty()` returns the index from
// which `events` changed since the last call (Infinity: nothing changed), so a
// view truncates its nodes there and appends the rest — never a full rebuild.

/**
 * The policy fields of a scenario object: everything but its jobs, script and
 * cursor (maxAttempts, and backoff, leaseMs, seed, classes, … as the core
 * returned them), copied so that edits never share objects with the caller.
 */
function policyOf(scenario) {
  const { jobs, actions, cursor, world, ...policy } = scenario;
  return structuredClone(policy);
}

/** The world a scenario carries (a copy), or null. */
function worldOf(scenario) {
  return scenario.world == null ? null : structuredClone(scenario.world);
}

/** A scenario object with `changes` over `scenario`'s policy, jobs, script, cursor and world. */
function withChanges(scenario, changes) {
  const world = worldOf(scenario);
  const next = { ...policyOf(scenario), jobs: scenario.jobs, actions: scenario.actions, cursor: scenario.cursor, ...changes };
  if (!('world' in changes) && world !== null) next.world = world;
  if (next.world === null) delete next.world;
  return next;
}

/**
 * `scenario` with its world's run as the script past the cursor: the actions up to
 * the cursor (none for a preset) are kept, then the core's world (core/world.h)
 * plays a scratch queue on from there to the end (at most `limit` more actions),
 * and the actions it took become the rest of the script. The cursor stays where it
 * was. Nothing is decided here.
 */
export function played(lab, scenario, limit = 2000) {
  const cursor = scenario.cursor ?? 0;
  const kept = (scenario.actions ?? []).slice(0, cursor);
  const q = lab.runScenario({ ...scenario, actions: kept, cursor: kept.length });
  const actions = [...kept];
  const world = scenario.world ?? {};
  try {
    for (let a = q.nextWorldAction(world); a !== null && actions.length - kept.length < limit; a = q.nextWorldAction(world)) {
      switch (a.type) {
        case 'lease': q.lease(); break;
        case 'settle': q.settle(a.token, a.outcome, a.error); break;
        case 'advance': q.advance(a.ms); break;
        case 'advanceToNext': q.advanceToNext(); break;
        default: throw new Error(`the world took an unexpected action ${a.type}`);
      }
      actions.push(a);
    }
  } finally {
    q.dispose();
  }
  return { ...scenario, actions, cursor };
}

/** True if two script actions are the same call (a recorded one may lack defaults). */
function sameAction(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = a[k] ?? (k === 'error' || k === 'payload' ? '' : undefined);
    const y = b[k] ?? (k === 'error' || k === 'payload' ? '' : undefined);
    if (x !== y) return false;
  }
  return true;
}

export class Session {
  #lab;
  #dirtyFrom = 0;
  #dropped = null;
  #undo = null;  // the scenario before the last change that dropped script actions (one Undo brings it back)
  #firstRun = new Map(); // id -> seq of its first attempt or replay (for "removable before it runs")

  constructor(lab, scenario) {
    this.#lab = lab;
    this.queue = null;
    this.scenario = null;
    this.events = [];
    this.starts = []; // starts[i] = index in events where action i's events begin
    this.load(scenario);
  }

  get lab() { return this.#lab; }
  get cursor() { return this.scenario.cursor; }
  get length() { return this.scenario.actions.length; }

  /** How many events have happened when `cursor` actions are applied. */
  eventsAt(cursor) {
    return cursor < this.starts.length ? this.starts[cursor] : this.events.length;
  }

  get eventsAtCursor() { return this.eventsAt(this.cursor); }

  /** The cursor that shows the state right after the action that produced event `seq`. */
  cursorForEvent(seq) {
    const index = seq - 1;
    let lo = 0;
    let hi = this.starts.length; // first action whose events start after `index`
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= index) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /**
   * The core's first event of the last applied action (the one "Why" explains),
   * or null at cursor 0 or when that action wrote no event (an advance that
   * fired no timer: see lastAction()).
   */
  lastActionEvent() {
    if (this.cursor === 0) return null;
    const start = this.starts[this.cursor - 1];
    const end = this.eventsAt(this.cursor);
    return start < end ? this.events[start] : null;
  }

  /** The last applied script action, or null at cursor 0. */
  lastAction() {
    return this.cursor === 0 ? null : this.scenario.actions[this.cursor - 1];
  }

  takeDirty() {
    const from = this.#dirtyFrom;
    this.#dirtyFrom = Infinity;
    return from;
  }

  /**
   * Replaces everything with `scenario` ({maxAttempts, backoff?, leaseMs?, seed?,
   * jobs, actions, cursor?}); the policy fields beyond maxAttempts are kept as given.
   * The core checks it; if it refuses, this throws and nothing changes.
   *
   * The redo tail (actions past the cursor) keeps only what still plays: the core
   * says how far the script is accepted (lab.playableActions) and the rest is
   * dropped, with the core's reason in takeDropped(). With `clamp` (edits such
   * as a new budget or a removed job), the cursor also moves back to what still
   * plays instead of the load being refused.
   */
  load(scenario, { clamp = false } = {}) {
    const next = {
      ...policyOf(scenario),
      jobs: (scenario.jobs ?? []).map((j) => (j.key == null ? { id: j.id, payload: j.payload ?? '' }
        : { id: j.id, payload: j.payload ?? '', key: j.key })),
      actions: (scenario.actions ?? []).map((a) => ({ ...a })),
      cursor: scenario.cursor ?? (scenario.actions ?? []).length,
    };
    const world = worldOf(scenario);
    if (world !== null) next.world = world;
    const before = this.scenario === null ? null : structuredClone(this.scenario);
    const reach = this.#lab.playableActions({ ...next, cursor: 0 });
    if (reach.playable < next.cursor) {
      if (!clamp) this.#lab.runScenario(next).dispose(); // throws the core's error for the refused action
      next.cursor = reach.playable;
    }
    const dropped = next.actions.length - reach.playable;
    next.actions.length = reach.playable;
    const full = this.#lab.runScenario({ ...next, cursor: next.actions.length }); // throws for a bad set-up
    let atCursor = full;
    try {
      if (next.cursor !== next.actions.length) atCursor = this.#lab.runScenario(next);
      this.events = full.timeline();
    } catch (error) {
      full.dispose();
      throw error;
    } finally {
      if (atCursor !== full && !full.disposed) full.dispose();
    }
    this.queue?.dispose();
    this.queue = atCursor;
    this.scenario = next;
    this.starts = [];
    this.#firstRun.clear();
    this.#index(0);
    this.#dirtyFrom = 0;
    this.#dropped = dropped > 0 ? { count: dropped, reason: reach.stopped?.message ?? null } : null;
    this.#undo = dropped > 0 ? before : null;
    this.#checkAdvanced();
    this.generation += 1;
  }

  /** Counts loads: the policy and the world change only with one (views that show them redraw then). */
  generation = 0;

  /** The world that plays this scenario on (null: none set; Play then uses healthy jobs and one worker). */
  get world() { return this.scenario.world ?? null; }

  /**
   * True when the scenario uses anything beyond lesson 1 (the clock, classes,
   * keys, a world): the core's own test, whether its link needs format v2.
   */
  get isAdvanced() { return this.#advanced; }

  #advanced = false;

  /** Asks the core whether lesson 1's link format can carry the scenario. */
  #checkAdvanced() {
    try {
      this.#advanced = !this.#lab.formatScenario(this.scenario).startsWith('v1;');
    } catch {
      // Too large for a link (e.g. 1,000 jobs): judge by what it holds instead.
      const s = this.scenario;
      this.#advanced = s.world != null || s.jobs.some((j) => j.key != null) ||
        s.actions.some((a) => !['process', 'replay', 'enqueue'].includes(a.type));
    }
  }

  /** True if the last change dropped script actions that undo() can bring back. */
  get canUndo() { return this.#undo !== null; }

  /** Brings back the scenario from before the last change that dropped script actions. */
  undo() {
    const before = this.#undo;
    if (before === null) return false;
    this.load(before);
    this.#undo = null;
    return true;
  }

  /**
   * Replaces policy fields ({ backoff, leaseMs, seed, ordering, quarantine, classes,
   * unsafeQuarantineOrder, maxAttempts }) and replays the script under them; the
   * core refuses a bad value (this throws, nothing changes). The script is kept as
   * far as it still plays.
   */
  setPolicy(changes) {
    this.#change(withChanges(this.scenario, changes));
  }

  /** Sets the world (null: none); the state does not change (the script alone gives it). */
  setWorld(world) {
    this.#change(withChanges(this.scenario, { world }));
  }

  /**
   * A set-up change. Without a world the script is kept as far as it still plays.
   * With one, the actions past the cursor are what the simulated workers did under
   * the old set-up, so the world plays them again under the new one (what has
   * happened, up to the cursor, stays); one Undo brings the old script back.
   */
  #change(next) {
    if (next.world == null || next.cursor >= next.actions.length) {
      this.load(next, { clamp: true });
      return;
    }
    const before = structuredClone(this.scenario);
    const reach = this.#lab.playableActions({ ...next, cursor: 0 });  // throws for a bad set-up: nothing changes
    const cursor = Math.min(next.cursor, reach.playable);
    const replayed = played(this.#lab, { ...next, cursor });
    const oldTail = next.actions.length - cursor;
    const same = replayed.actions.length === next.actions.length &&
      replayed.actions.every((a, i) => sameAction(a, next.actions[i]));
    this.load(replayed);
    if (!same) {
      this.#dropped = { count: oldTail, reason: null, replayed: true };
      this.#undo = before;
    }
  }

  /**
   * What the last change dropped from the script since the previous call:
   * null, or { count, reason } (reason null: replaced by an edit at the cursor;
   * else the core's refusal that ended what still plays).
   */
  takeDropped() {
    const dropped = this.#dropped;
    this.#dropped = null;
    return dropped;
  }

  /** Processes the head with `outcome`; returns the core's result, or null when nothing is ready. */
  step(outcome, errorText = '') {
    // At a scripted position whose next action is this very step, step along the
    // script instead of replacing it.
    const next = this.scenario.actions[this.cursor];
    if (next?.type === 'process' && next.outcome === outcome && (next.error ?? '') === errorText) {
      this.goTo(this.cursor + 1);
      return { scripted: true };
    }
    const result = this.queue.process(outcome, errorText);
    if (result !== null) this.#record({ type: 'process', outcome, error: errorText });
    return result;
  }

  /**
   * Applies `action` (a script action object) to the live queue at the cursor and
   * records it; the core refuses or finds nothing to do (this returns false or
   * throws, nothing changes). The next scripted action, if it is this one, is
   * stepped along instead.
   */
  act(action) {
    const next = this.scenario.actions[this.cursor];
    if (next !== undefined && sameAction(next, action)) {
      this.goTo(this.cursor + 1);
      return true;
    }
    if (!this.#apply(action)) return false;
    this.#record(action);
    return true;
  }

  /** What the world does next (the core decides), or null when nothing will happen again. */
  nextWorldAction() {
    return this.queue.nextWorldAction(this.world ?? {});
  }

  /** An operator's replay of a quarantined job; false (nothing changes) if the core refuses. */
  replay(id) {
    const accepted = this.queue.replay(id);
    if (accepted) this.#record({ type: 'replay', id });
    return accepted;
  }

  /**
   * Adds a job at the cursor: a set-up job at step 0 (cursor 0; the script is
   * kept as far as it still plays), else an 'enqueue' action. The core validates
   * the id; on refusal this throws and nothing changes.
   */
  addJob(id, payload, { key = null, behaviour = null } = {}) {
    const options = key === null ? undefined : { key };
    // A behaviour is the world's: checked by the core with the rest of the world before anything changes.
    let world = this.scenario.world ?? null;
    if (behaviour !== null) {
      world = { ...(world ?? {}), behaviours: [...(world?.behaviours ?? []).filter((b) => b.id !== id), { id, ...behaviour }] };
      this.queue.nextWorldAction(world);
    }
    const job = key === null ? { id, payload } : { id, payload, key };
    if (this.cursor === 0) {
      this.queue.enqueue(id, payload, options); // validates against the set-up; the reload below replaces this queue
      const { jobs, actions } = this.scenario;
      this.load(withChanges(this.scenario, { jobs: [...jobs, job], actions, cursor: 0, world }), { clamp: true });
    } else {
      this.queue.enqueue(id, payload, options);
      if (behaviour !== null) this.scenario.world = world;
      this.#record({ type: 'enqueue', ...job });
    }
  }

  /** True while job `id` is ready and has not been attempted yet (at the cursor). */
  isRemovable(id) {
    const first = this.#firstRun.get(id);
    return first === undefined || first > this.eventsAtCursor;
  }

  /** Removes a job that has not run yet; the script is kept as far as it still plays. */
  removeJob(id) {
    const { actions } = this.scenario;
    let { jobs, cursor } = this.scenario;
    const setupIndex = jobs.findIndex((j) => j.id === id);
    const kept = actions.slice();
    if (setupIndex >= 0) {
      jobs = jobs.filter((_, i) => i !== setupIndex);
    } else {
      const at = kept.findIndex((a) => a.type === 'enqueue' && a.id === id);
      if (at < 0) throw new Error(`job "${id}" is not in the set-up or the script`);
      kept.splice(at, 1);
      if (at < cursor) cursor -= 1;
    }
    this.load(withChanges(this.scenario, { jobs, actions: kept, cursor }), { clamp: true });
  }

  /**
   * Replays the whole script under a new budget. The core refuses a budget out
   * of range (this throws, nothing changes); otherwise the script is kept as
   * far as it still plays under it, the cursor included.
   */
  setMaxAttempts(maxAttempts) {
    this.load(withChanges(this.scenario, { maxAttempts }), { clamp: true });
  }

  /** Time travel: moves the cursor (0 … length). One step forward applies the next action to the live queue. */
  goTo(cursor) {
    const target = Math.max(0, Math.min(this.length, cursor));
    if (target === this.cursor) return false;
    if (target === this.cursor + 1) {
      this.#apply(this.scenario.actions[this.cursor]);
    } else {
      const queue = this.#lab.runScenario({ ...this.scenario, cursor: target });
      this.queue.dispose();
      this.queue = queue;
    }
    this.scenario.cursor = target;
    return true;
  }

  dispose() {
    this.queue?.dispose();
    this.queue = null;
  }

  /**
   * One scripted action on the live queue: the JS API call of the same name,
   * nothing decided here. False when the call found nothing to do (nothing
   * ready, no such job in quarantine, no timer, no holder): the core's answer,
   * which a script never records (the runner refuses such an action too).
   */
  #apply(action) {
    const q = this.queue;
    switch (action.type) {
      case 'process': return q.process(action.outcome, action.error ?? '') !== null;
      case 'replay': return q.replay(action.id);
      case 'enqueue': q.enqueue(action.id, action.payload ?? '', action.key == null ? undefined : { key: action.key }); return true;
      case 'lease': return q.lease() !== null;
      case 'settle': q.settle(action.token, action.outcome, action.error ?? ''); return true;
      case 'advance': q.advance(action.ms); return true;
      case 'advanceToNext': return q.advanceToNext() !== null;
      case 'releaseKey': return q.releaseKey(action.key) > 0;
      case 'redrive': return q.redrive({ max: action.max }) > 0;
      default: throw new Error(`unknown scripted action type ${JSON.stringify(action.type)}`);
    }
  }

  /** After the live queue accepted `action` at the cursor: drop the redo tail, append. */
  #record(action) {
    this.#truncateTail();
    this.scenario.actions.push(action);
    this.#appendNew();
    // Lesson 1's actions (its three outcomes, replay, enqueue without a key) keep a
    // lesson-1 scenario lesson 1; anything else makes it the capstone's.
    const lessonOne = (action.type === 'process' && ['success', 'transient', 'permanent'].includes(action.outcome)) ||
      action.type === 'replay' || (action.type === 'enqueue' && action.key == null);
    if (!lessonOne) this.#advanced = true;
  }

  #truncateTail() {
    const { scenario } = this;
    if (scenario.cursor >= scenario.actions.length) return;
    this.#dropped = { count: scenario.actions.length - scenario.cursor, reason: null };
    this.#undo = structuredClone(scenario);
    const keep = this.eventsAt(scenario.cursor);
    scenario.actions.length = scenario.cursor;
    this.starts.length = scenario.cursor;
    this.events.length = keep;
    for (const [id, seq] of this.#firstRun) if (seq > keep) this.#firstRun.delete(id);
    this.#dirtyFrom = Math.min(this.#dirtyFrom, keep);
  }

  #appendNew() {
    const from = this.events.length;
    const fresh = this.queue.timeline(from);
    for (const event of fresh) this.events.push(event);
    this.scenario.cursor = this.scenario.actions.length;
    this.#index(from);
  }

  /**
   * Indexes events[from…]: which action each belongs to, and each job's first run.
   * Action boundaries come from the core: every event carries `action`, the
   * queue call that caused it (1-based). Set-up enqueues each job with one call,
   * so script action k (0-based) is queue action jobs + k + 1. An action that
   * wrote no event starts where the next one does.
   */
  #index(from) {
    const setup = this.scenario.jobs.length;
    for (let i = from; i < this.events.length; i++) {
      const event = this.events[i];
      const k = event.action - setup - 1;
      while (k >= this.starts.length) this.starts.push(i);
      if (['attempt', 'leased', 'replayed'].includes(event.kind) && !this.#firstRun.has(event.id)) {
        this.#firstRun.set(event.id, event.seq);
      }
    }
  }
}
