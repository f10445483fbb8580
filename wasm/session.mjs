import { describe, readInput, typeError, unwrap } from './errors.mjs';
import { call, limits } from './runtime.mjs';
import {
  checkCount, checkGoalText, checkInteger, checkKey, checkName, checkObject, checkOutcome, copyArray, wireText,
} from './checks.mjs';
import { copyAction, readScenario, readScenarioObject } from './scenario.mjs';
import { copyBehaviour, copyPolicy, copyWorld } from './schema.mjs';
import { Lifetime } from './lifetime.mjs';

/**
 * A session: what lab.createSession() returns. Each action (act, step, seek,
 * load, change, undo, actWorld) is one call into the core and returns the
 * view to draw; view() reads it again without acting. A view's `timeline` is
 * the whole script's events as the core sent them (this object keeps what it
 * was sent and replaces it from where the core says it changed), the first
 * `eventsAtCursor` of which have happened.
 */
export class Session {
  #life;
  #timeline = [];
  #generation = -1;
  #policy = null;
  #world = null;

  constructor(handle, forget) {
    this.#life = new Lifetime(handle, forget, ['session', 'lab.createSession()']);
  }

  get disposed() {
    return this.#life.disposed;
  }

  #ask(link = false) {
    return { from: this.#timeline.length, generation: this.#generation, link };
  }

  /** The core's answer with the timeline, the policy and the world the page already has put back in. */
  #take(view) {
    this.#timeline.length = view.eventsFrom;
    for (const event of view.events) this.#timeline.push(event);
    if (view.policy !== undefined) {
      this.#generation = view.generation;
      this.#policy = view.policy;
      this.#world = view.world;
    }
    view.timeline = this.#timeline;
    view.policy = this.#policy;
    view.world = this.#world;
    return view;
  }

  #acted(result) {
    const out = unwrap(result);
    out.view = this.#take(out.view);
    return out;
  }

  /** The view at the cursor; with `link`, the share link too ({ text } or { error, message }). */
  view({ link = false } = {}) {
    const handle = this.#life.live();
    return this.#take(unwrap(call(() => handle.view(this.#ask(link === true)))));
  }

  /**
   * Applies a script action at the cursor: { accepted, view }. The script's next
   * action, if it is this one, is stepped along; otherwise the redo tail is
   * dropped (undo() brings it back). accepted false: the queue found nothing to do.
   */
  act(action) {
    const handle = this.#life.live();
    const copy = readInput('action', () => copyAction(action, 'action').action);
    return this.#acted(call(() => handle.act(copy, this.#ask())));
  }

  /**
   * An operator's redrive at a rate (core/session/session.h: RedriveAtRate): the
   * entries `only` takes now ({ class, reason }, as a redrive action's; {} every
   * one) go back `perSecond` (1 to 1000) at a time, one batch per virtual second.
   * With a world, the world plays each second (an advance that would cross its
   * end stops at the end); without one, the clock advances 1000 ms after each
   * batch. It ends when that many were redriven (an entry failing back meanwhile
   * is not sent again). All of it is recorded as ordinary actions (redrive, lease,
   * settle, advance), so links carry nothing new. { accepted, view }: accepted
   * false when no entry matches (nothing changes). Bad input is refused by name.
   */
  redriveAtRate(perSecond, only = {}) {
    const handle = this.#life.live();
    checkInteger('', 'perSecond', perSecond, true);  // the core checks the range
    const filter = readInput('only', () => {
      checkObject('only', only, "{ reason: 'exhausted' }");
      return { class: only.class, reason: only.reason };
    });
    checkName('only.class', filter.class);  // the core parses the class and the reason
    checkName('only.reason', filter.reason);
    const copy = {};
    if (filter.class !== undefined) copy.class = filter.class;
    if (filter.reason !== undefined) copy.reason = filter.reason;
    return this.#acted(call(() => handle.redriveAtRate(perSecond, copy, this.#ask())));
  }

  /**
   * The bounded path of the policy in force over the failures this playground can meet
   * (core/session/session.h: FailureScopeFor): `outcomes`, the outcomes its reader can
   * report, and `leases`, whether its attempts hold leases (one that runs out is a crash);
   * the core adds what the world and the authored script produce. Its terms as
   * queue.worstCase() gives them; a class that cannot fail there gives none.
   */
  worstCase({ outcomes, leases } = {}) {
    const handle = this.#life.live();
    const list = readInput('outcomes', () => copyArray('outcomes', outcomes, limits.outcomeLetters));
    list.forEach((outcome, i) => checkOutcome(`outcomes[${i}]`, outcome));
    if (typeof leases !== 'boolean') throw typeError(`leases must be a boolean, got ${describe(leases)}`);
    return unwrap(call(() => handle.worstCase(list, leases)));
  }

  /** act({ type: 'process', outcome, error: errorText }); a bad errorText is refused by that name. */
  step(outcome, errorText = '') {
    wireText('errorText', errorText, limits.errorTextBytes);
    return this.act({ type: 'process', outcome, error: errorText });
  }

  /**
   * A worker's report as text, as a page sends it: the core parses `outcome`
   * and refuses one it does not know with its own message, counting the refusal
   * (view.refused) and changing nothing else; an accepted one is step().
   */
  report(outcome, errorText = '') {
    const handle = this.#life.live();
    const text = wireText('outcome', outcome, limits.outcomeBytes);
    const error = wireText('errorText', errorText, limits.errorTextBytes);
    return this.#acted(call(() => handle.actReport(text, error, this.#ask())));
  }

  /**
   * Adds a job at the cursor: a set-up job at cursor 0 (the script kept as far
   * as it still plays), else an 'enqueue' action. `options.key` orders it. The
   * queue refuses a taken or bad id with its own words; nothing changes then.
   * `options.behaviour` ({ kind, failure?, count?, until?, script?, needsDependency? }:
   * a world behaviour without its id) makes the job and the world's behaviour for
   * it one change (core/session/session.h AddJob): at cursor 0 a set-up job, else
   * an 'enqueue' at the cursor with the script past it replaced.
   */
  addJob(id, payload, options) {
    const handle = this.#life.live();
    const { key, behaviour } = options === undefined ? {} : readInput('options', () => {
      checkObject('options', options, "{ key: 'acct-7' }");
      return { key: options.key ?? undefined, behaviour: options.behaviour ?? undefined };
    });
    const idIn = wireText('id', id, limits.idBytes);
    const payloadIn = wireText('payload', payload, limits.payloadBytes);
    checkKey('key', key);
    if (behaviour === undefined) {
      return this.#take(unwrap(call(() => handle.addJob(idIn, payloadIn, key ?? '', this.#ask()))));
    }
    const copy = readInput('options.behaviour', () => {
      checkObject('options.behaviour', behaviour, "{ kind: 'flaky', count: 2 }");
      return copyBehaviour('options.behaviour', { ...behaviour, id });
    });
    return this.#take(unwrap(call(() => handle.addJobWithBehaviour(idIn, payloadIn, key ?? '', copy, this.#ask()))));
  }

  /**
   * Removes job `id` (a set-up job, else the script's first 'enqueue' of it; the
   * cursor moves back one when that action was before it) with the world's
   * behaviour for it, the script kept as far as it plays: the view. One call;
   * 'not-found' naming `id` when no job of the scenario has it (nothing changes).
   */
  removeJob(id) {
    const handle = this.#life.live();
    const idIn = wireText('id', id, limits.idBytes);
    return this.#take(unwrap(call(() => handle.removeJob(idIn, this.#ask()))));
  }

  /**
   * A policy edit: `policy`'s fields ({ maxAttempts?, backoff?, classes?, system?, … },
   * as createQueue() reads them, none required) put over the scenario's policy, each
   * group whole, as one set-up change in one call: the view. With `replayWorld`
   * (default) and a world, the world plays the script past the cursor again.
   * A bad field is refused by the core's words and nothing changes.
   */
  setPolicy(policy, { replayWorld = true } = {}) {
    const handle = this.#life.live();
    const copy = readInput('policy', () => {
      checkObject('policy', policy, '{ maxAttempts: 3 }');
      return copyPolicy(policy, '', { partial: true });
    });
    return this.#take(unwrap(call(() => handle.setPolicy(copy, replayWorld !== false, this.#ask()))));
  }

  /**
   * The world that plays on, replaced (null: none) in one call: the view. Its jobs'
   * behaviours are checked with the scenario's jobs; the world plays the script past
   * the cursor again. A bad world is refused by the core's words and nothing changes.
   */
  setWorld(world) {
    const handle = this.#life.live();
    const copy = world === null ? null : readInput('world', () => copyWorld('', world));
    return this.#take(unwrap(call(() => handle.setWorld(copy, this.#ask()))));
  }

  /** The share link alone, without a view: { text }, or { error, message } when a reader would refuse it. */
  link() {
    const handle = this.#life.live();
    return call(() => handle.link());
  }

  /** The world's next action, applied: { accepted, action, view } (accepted false: nothing will happen again). */
  actWorld() {
    const handle = this.#life.live();
    return this.#acted(call(() => handle.actWorld(this.#ask())));
  }

  /** Moves the cursor (clamped to 0 … length): { moved, view }. */
  seek(cursor) {
    const handle = this.#life.live();
    checkCount('cursor', cursor);
    const { accepted, view } = this.#acted(call(() => handle.seek(cursor, this.#ask())));
    return { moved: accepted, view };
  }

  /** Brings back the script from before the last change that dropped actions: { undone, view }. */
  undo() {
    const handle = this.#life.live();
    const { accepted, view } = this.#acted(call(() => handle.undo(this.#ask())));
    return { undone: accepted, view };
  }

  /**
   * Replaces everything with `scenario` (link text or object), the new authored
   * script; with `clamp` a cursor past what plays moves back instead of being
   * refused. Returns the view; a refusal throws and nothing changes.
   */
  load(scenario, { clamp = false } = {}) {
    const handle = this.#life.live();
    const input = readScenario(scenario);
    return this.#take(unwrap(call(() => handle.load(input.text ?? input.object, clamp === true, this.#ask()))));
  }

  /**
   * A set-up change (policy, world, jobs) as a whole scenario object, the
   * authored script kept: the view. The script is kept as far as it still
   * plays; with `replayWorld` (default) and a world, the world plays the
   * script past the cursor again under the new set-up (undo() brings the old back).
   */
  change(scenario, { replayWorld = true } = {}) {
    const handle = this.#life.live();
    const object = readScenarioObject(scenario);
    return this.#take(unwrap(call(() => handle.change(object, replayWorld !== false, this.#ask()))));
  }

  /** The scenario (a copy): set-up, script, cursor, world. */
  scenario() {
    const handle = this.#life.live();
    return call(() => handle.scenario());
  }

  /** The world's next action at the cursor (an action object), or null. Changes nothing. */
  nextWorldAction() {
    const handle = this.#life.live();
    return call(() => handle.nextWorldAction()).action;
  }

  /**
   * The crash point that matters most in the journal of the queue at the cursor,
   * found in one pass: { after, rank } with rank 3 (the first write after which
   * a crash loses a job), 2 (else the first that leaves one in quarantine and
   * another place) or 1 (else the first that leaves one in two places); null
   * when no write loses or doubles a job.
   */
  writeThatMatters() {
    const handle = this.#life.live();
    return unwrap(call(() => handle.writeThatMatters()));
  }

  /** Where a click on timeline event `seq` moves the cursor. */
  cursorForEvent(seq) {
    const handle = this.#life.live();
    checkCount('seq', seq);
    return call(() => handle.cursorForEvent(seq));
  }

  /** The queue at the cursor: its whole policy, its rules in force, its journal, a job's place, a goal's check, its snapshot. */
  policy() { const h = this.#life.live(); return call(() => h.policy()); }
  rules() { const h = this.#life.live(); return call(() => h.rules()); }
  journal() { const h = this.#life.live(); return unwrap(call(() => h.journal())); }
  locate(id) { const h = this.#life.live(); const idIn = wireText('id', id, limits.idBytes); return call(() => h.locate(idIn)); }
  checkGoal(goal) { const h = this.#life.live(); checkGoalText(goal); return unwrap(call(() => h.checkGoal(goal))); }
  snapshotText() { const h = this.#life.live(); return unwrap(call(() => h.snapshotText())); }
  /** The timeline up to the cursor, one line an event. */
  timelineText() { const h = this.#life.live(); return call(() => h.timelineText()); }

  dispose() {
    this.#life.dispose();
    this.#timeline = [];
  }
}
