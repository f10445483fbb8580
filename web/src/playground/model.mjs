// @ts-check
// The playground's model is the core's session (core/session/session.h, through
// lab.createSession): the script, the cursor, the queue at the cursor and the
// whole script's timeline live there. This adapter only forwards each user
// action and keeps the view the core answered with; it decides nothing and
// keeps no history of its own. Every action is one call into the core, set-up
// edits too (policy, world, jobs).
//
// `view` is what the page draws (index.d.ts: SessionView); after every call
// that changes something, the page renders it.

export class Session {
  #core;
  #lab;

  /** `core`: the core's session of `scenario`, when made already (Session.create makes it a task earlier). */
  constructor(lab, scenario, core = lab.createSession(scenario)) {
    this.#lab = lab;
    this.#core = core;
    this.view = this.#core.view();
  }

  /**
   * The same Session as the constructor's, over two tasks (`pause()` resolves in a later one):
   * the core's session, then its first view. The first of each call compiles the core's code
   * for it (the browser compiles WebAssembly lazily), about as much for the one as the other.
   */
  static async create(lab, scenario, pause) {
    const core = lab.createSession(scenario);
    await pause();
    return new Session(lab, scenario, core);
  }

  get lab() { return this.#lab; }
  get cursor() { return this.view.cursor; }
  get length() { return this.view.length; }
  get generation() { return this.view.generation; }
  get isAdvanced() { return this.view.advanced; }
  get canUndo() { return this.view.canUndo; }
  /** The world that plays the scenario on, or null. */
  get world() { return this.view.world; }

  /**
   * The queue at the cursor, for reads that are not drawn on every step: its
   * policy and rules in force, its journal, a job's place, a goal's check, its
   * snapshot text. Each is one call into the core.
   */
  get queue() { return this.#core; }

  /** A copy of the scenario (set-up, script, cursor, world), as links carry it (one call into the core). */
  get scenario() { return this.#core.scenario(); }

  /** The view again, with the share link ({ text } or { error, message }). */
  withLink() {
    this.view = this.#core.view({ link: true });
    return this.view;
  }

  /** The share link alone ({ text } or { error, message }): one call, no view built. */
  link() { return this.#core.link(); }

  /** Replaces everything (a new authored script); the core refuses, and nothing changes, or the view is new. */
  load(scenario, { clamp = false } = {}) {
    this.view = this.#core.load(scenario, { clamp });
  }

  /** Applies a script action at the cursor; false when the queue found nothing to do. */
  act(action) {
    const { accepted, view } = this.#core.act(action);
    this.view = view;
    return accepted;
  }

  /** An operator's redrive at perSecond entries a virtual second (the core records its actions); false when none matches. */
  redriveAtRate(perSecond, only) {
    const { accepted, view } = this.#core.redriveAtRate(perSecond, only);
    this.view = view;
    return accepted;
  }

  step(outcome, errorText = '') {
    const { accepted, view } = this.#core.step(outcome, errorText);
    this.view = view;
    return accepted;
  }

  /** A worker's report as text (the core parses it; a refusal throws its error and changes nothing). */
  report(outcome, errorText = '') {
    const { accepted, view } = this.#core.report(outcome, errorText);
    this.view = view;
    return accepted;
  }

  /** A new view from the core (not the one this model keeps): what a reader gets after editing a view. */
  freshView() { return this.#core.view(); }

  /** `{ resetAttempts: false }`: BullMQ's retry without a reset (the core refuses it elsewhere). */
  replay(id, { resetAttempts = true } = {}) {
    return this.act(resetAttempts ? { type: 'replay', id } : { type: 'replay', id, resetAttempts: false });
  }

  /** The world's next action, applied; false when nothing will happen again. */
  worldStep() {
    const { accepted, view } = this.#core.actWorld();
    this.view = view;
    return accepted;
  }

  /** Time travel: moves the cursor (clamped); true if it moved. */
  goTo(cursor) {
    const { moved, view } = this.#core.seek(Math.max(0, cursor));
    this.view = view;
    return moved;
  }

  undo() {
    const { undone, view } = this.#core.undo();
    this.view = view;
    return undone;
  }

  cursorForEvent(seq) {
    return this.#core.cursorForEvent(seq);
  }

  /** Policy fields ({ system, backoff, leaseMs, seed, ordering, quarantine, classes, unsafeQuarantineOrder, maxAttempts }). */
  setPolicy(changes) { this.view = this.#core.setPolicy(changes); }
  setMaxAttempts(maxAttempts) { this.view = this.#core.setPolicy({ maxAttempts }, { replayWorld: false }); }
  /** The world that plays on (null: none). */
  setWorld(world) { this.view = this.#core.setWorld(world); }

  /**
   * Adds a job at the cursor: a set-up job at step 0, else an 'enqueue' action.
   * A behaviour is the world's (the core checks it with the rest of the world).
   */
  addJob(id, payload, { key = null, behaviour = null } = {}) {
    const options = key === null ? {} : { key };
    // With a behaviour, the job and the world's behaviour for it are one change,
    // which the core checks whole (refused: nothing changes): a set-up job at
    // step 0, else an enqueue action at the cursor (the script past it is replaced).
    if (behaviour !== null) options.behaviour = behaviour;
    this.view = this.#core.addJob(id, payload, Object.keys(options).length === 0 ? undefined : options);
  }

  /**
   * Removes a job that has not run yet (view.ready[i].removable); the script is kept as far as it plays.
   * The world's behaviour for the job goes with it (addJob adds the two as one change), so the core,
   * which refuses a behaviour naming no job (a link's), checks one whole change. One call: the core
   * drops the set-up job or the script's enqueue of it (core/session/session.h RemoveJob).
   */
  removeJob(id) { this.view = this.#core.removeJob(id); }

  dispose() {
    this.#core.dispose();
  }
}
