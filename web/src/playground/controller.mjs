// A playground's controller: it owns the flow. Every user action is the same
// loop, RaftScope's over the core's session: a view says what the reader did
// (bindX), the controller calls the session (model.mjs, one call into the core)
// and renders the view the session answered with. The views (view.mjs and the
// modules it puts together) build and draw; the session decides; this module
// only connects them, keeps the run timer, the keyboard and the link in the URL.
import { uid } from '../shared/dom.mjs';
import { Session } from './model.mjs';
import { commandFor, shortcutsEnabled } from '../shared/keyboard.mjs';
import { PRESETS, CAPSTONE_PRESETS, SYSTEM_PRESETS, DEFAULT_SCENARIO } from './presets.mjs';
import { FORMATS, importConfig, policyChanges } from './import.mjs';
import { behaviourFromFields } from './setup-advanced.mjs';
import { linkFromHash, isScenarioLink, linkErrorMessage, scenarioLinkFrom, siteURL, urlFor } from '../shared/url.mjs';
import { PlaygroundView } from './view.mjs';
import { fieldLabel, resolveFields } from './setup-fields.mjs';
import { shownEvents } from './future.mjs';
import { switchChange } from './switches-view.mjs';

export const ALL_PRESETS = [...PRESETS, ...CAPSTONE_PRESETS, ...SYSTEM_PRESETS];

/**
 * A refusal from the lab API: every error it throws is an Error with a string
 * `code` ('too-large', 'out-of-range', 'invalid-type', …). Anything else is a
 * bug in the page and is rethrown, never shown as if the input were wrong.
 */
function isRefusal(error) {
  return error instanceof Error && typeof error.code === 'string';
}

/** The controller mount() resolves to (docs/playground.md lists its API). */
export class Controller {
  #lab;
  #options;
  #embed;
  #view;
  #urlTimer = 0;
  #runTimer = 0;
  #running = null;  // 'run' or 'play' while the timer runs
  #lastHash = null;  // with sync-url: the fragment text this playground last wrote or read
  #held = null;  // with sync-url: the link shown instead of a refused hash link (see #writeHash)
  #keys = true;  // single-key shortcuts on
  #pushNext = false;  // the next hash write adds a history entry (after a preset)
  #listeners = [];
  #captioned = false;  // the authored script is the one options.captions belong to (options.scenario)
  #syncedGeneration = -1;
  #crashedAt = null;  // the cursor right after the crash the open dialog carried out
  #currentUrl = null;
  #snippets = null;  // the Config snippet's modules, loaded when the panel is first opened
  #snippetKey = null;  // the system whose snippet is on show
  #snippetMode = null;  // the policy mode the picker last followed
  #worstKey = '';  // the set-up and offer the Worst case card's bound was asked for
  #worst = null;
  #scheduleKey = '';  // the policy generation the retry-schedule card was drawn for ('' : not drawn)
  #futureShown = true;  // the script past the cursor is drawn (faint); false for a predict question's playground
  #drawnEvents = 0;     // timeline events handed to the timeline at the last draw

  constructor(element, lab, options, embed) {
    this.#lab = lab;
    this.#options = options;
    this.#embed = embed;
    this.#futureShown = embed.futureShown !== false;
    this.element = element;
    this.#keys = shortcutsEnabled();
    const view = this.#view = new PlaygroundView(uid('dlq'), {
      lab, embed, label: options.label ?? 'Dead-letter queue playground', presets: PRESETS, capstonePresets: CAPSTONE_PRESETS,
      systemPresets: SYSTEM_PRESETS,
      restorable: !(options.scenario === undefined || options.syncUrl), landmark: Boolean(options.syncUrl),
    });
    this.root = view.root;
    this.timeline = view.timeline;
    this.states = view.states;
    this.log = view.log;
    this.#bind(view);
    element.replaceChildren(view.root);

    // Start from the default, then load the given scenario exactly as a later
    // load would: a refused one leaves the default and an alert, never a blank page.
    this.session = new Session(lab, DEFAULT_SCENARIO);
    const hash = options.syncUrl ? linkFromHash(location.hash) : '';
    if (options.syncUrl) this.#lastHash = hash; // read: the first write may replace it
    if (isScenarioLink(hash)) this.#loadFromHash(hash);
    else if (options.scenario !== undefined && options.scenario !== null && options.scenario !== '') this.#loadOrAlert(options.scenario, true);
    else this.#captioned = true;
    this.#render();
    view.root.dataset.ready = 'true';

    this.#on(view.root, 'keydown', (e) => this.#onKey(e));
    if (options.syncUrl) {
      this.#on(window, 'hashchange', () => this.#onHashChange());
      this.#on(document, 'keydown', (e) => {
        if (e.target === document.body || e.target === document.documentElement) this.#onKey(e);
      });
    }
  }

  /** What each view's controls do. */
  #bind(view) {
    const { controls, setup, share, linkAlert, bar, timeline, states } = view;
    const back = () => this.#navigate(this.session.cursor - 1);
    const forward = () => this.#navigate(this.session.cursor + 1);
    controls.bindStep(() => this.#step());
    controls.bindBack(back);
    controls.bindForward(forward);
    controls.bindReset(() => this.#reset());
    controls.bindRestore(() => this.restore());
    controls.bindRun(() => this.#toggleRun());
    controls.bindSpeed(() => this.#changeSpeed());
    controls.bindUndo(() => this.#undo());
    controls.bindScrub((cursor) => this.#navigate(cursor));
    controls.bindLease(() => this.#lease());
    controls.bindNextEvent(() => this.#nextEvent());
    controls.bindPlay(() => this.#togglePlay());
    controls.bindSettle(() => this.#settle());
    controls.bindCrashWorker(() => this.#crashWorker());
    controls.bindAdvance((ms) => this.#act({ type: 'advance', ms }, 'Advance'));
    controls.bindReplay((id) => this.#replay(id, { fromField: true }));
    controls.bindReleaseKey((key) => this.#act({ type: 'releaseKey', key }, 'Release key', controls.opAlert,
      `No quarantined job holds key "${key}": nothing to release.`));
    controls.bindRedrive((max, only, perSecond) => {
      const nothing = only.class === undefined && only.reason === undefined ? 'The quarantine is empty: nothing to redrive.'
        : `No quarantine entry ${only.class !== undefined ? `of class ${only.class}` : `with reason ${only.reason}`}: nothing to redrive.`;
      if (perSecond === null) this.#act({ type: 'redrive', max, ...only }, 'Redrive', controls.opAlert, nothing);
      else this.#take(() => this.session.redriveAtRate(perSecond, only), 'Redrive', controls.opAlert, nothing);
    });
    controls.bindSnapshot(() => this.#showSnapshot());
    controls.bindCrashRestart(() => this.#showCrash());
    bar.bindBack(back);
    bar.bindStep(() => this.#step());
    bar.bindForward(forward);
    bar.bindNextEvent(() => this.#nextEvent());
    bar.bindOutcome((value) => controls.chooseOutcomeValue(value));
    controls.bindOutcome((value) => bar.showOutcome(value));
    setup.bindPreset((key) => this.#preset(key));
    setup.bindHelp(() => view.help.showModal());
    setup.bindMaxAttempts(() => this.#setMaxAttempts());
    setup.bindAddJob(() => this.#addJob());
    setup.bindPolicy((changes, alert) => this.#setPolicy(changes, alert));
    setup.bindWorld((world, alert) => this.#edit(() => this.session.setWorld(world), alert));
    setup.bindAdvancedOpen(() => this.#render());
    setup.bindImportOpen(() => { this.#pause(); view.importDialog().show(); });
    view.bindImport((text, options) => this.#import(text, options));
    share.bindCopy(() => this.#copyLink());
    linkAlert.bindCopyRefused(() => linkAlert.copyRefused());
    linkAlert.bindDismiss(() => linkAlert.clear());
    timeline.bindSelect((seq) => this.#navigate(this.session.cursorForEvent(seq)));
    view.schedule.bindOutage(() => this.#renderSchedule(true));
    states.bindReplay((jobId) => this.#replay(jobId));
    states.bindRetryWithoutReset((jobId) => this.#replay(jobId, { resetAttempts: false }));
    states.bindPatchAndReplay((jobId, payload) => this.#patchAndReplay(jobId, payload));
    states.bindRemove((jobId) => this.#removeJob(jobId));
    view.bindShortcuts((on) => { this.#keys = on; });
    view.bindUnsafeOrder((on) => this.#setPolicy({ unsafeQuarantineOrder: on }, view.crashDialog().alert));
    view.bindCrash((after, torn) => this.#crash(after, torn));
    view.bindFind(() => this.#writeThatMatters());
    view.snippet.bindOpen(() => this.#openSnippet());
    view.snippet.bindSystem((key) => {
      this.#snippetKey = key;
      this.#renderSnippet();
    });
    view.snippet.bindApply((key, edited, base) => this.#applySnippet(key, edited, base));
    view.bindPinned({
      policy: (changes, alert) => this.#setPolicy(changes, alert),
      world: (world, alert) => this.#edit(() => this.session.setWorld(world), alert),
      maxAttempts: (n, alert) => this.#edit(() => this.session.setMaxAttempts(n), alert),
    });
    view.switches.bindToggle((path, on) =>
      this.#setPolicy(switchChange(this.session.view.policy, path, on), view.switches.alert));
    view.report.bindSend((text) => this.#report(text));
  }

  // ---- public API ---------------------------------------------------------

  /** Loads link text or a scenario object; throws the core's error (nothing changes) if refused. */
  load(scenario) {
    this.#load(scenario);
    this.#render();
  }

  /** Like load(), but a refused link shows the link alert and the default scenario (as on start-up). */
  loadOrAlert(scenario) {
    this.#loadOrAlert(scenario);
    this.#render();
  }

  /** The link text for the current state (the core formats it; one call, no view rebuilt). */
  link() {
    const link = this.session.link();
    if (link.text !== undefined) return link.text;
    const error = new RangeError(link.message);
    error.code = link.error;
    throw error;
  }

  /**
   * Checks a declarative goal (docs/goals.md) against the state shown: the queue
   * at the cursor, or the queue a crash and restart just recovered. The core
   * parses and evaluates it; a bad goal throws its refusal.
   */
  checkGoal(goal) {
    return { ...this.session.queue.checkGoal(goal), recovered: this.session.view.last.action?.type === 'crash' };
  }

  /** Loads the scenario this playground was given (options.scenario) again, set-up and script. */
  restore() {
    if (this.#options.scenario === undefined) return;
    this.#pause();
    this.#loadOrAlert(this.#options.scenario, true);
    this.#render();
  }

  /** Plays the script from the cursor (as the Run button does). */
  run() {
    if (!this.#runTimer) this.#toggleRun();
  }

  /** Moves to the end of the script at once. */
  toEnd() {
    this.#navigate(this.session.length);
  }

  /**
   * Opens Crash and restart and shows the recovery after write `after` of the
   * journal, or (null) after the write that matters (Find the write that matters).
   */
  crashAt(after = null) {
    this.#showCrash();
    if (after === null) this.#view.crashDialog().findFirst();
    else this.#view.crashDialog().crashAt(after);
  }

  /**
   * Shows (true) or hides (false) the future: the script past the cursor on the
   * timeline and the cards that foretell the run (view.foretelling). A predict
   * question's playground hides it until the learner has answered.
   */
  showFuture(shown) {
    if (this.#futureShown === Boolean(shown)) return;
    this.#futureShown = Boolean(shown);
    this.#render();
  }

  /**
   * Opens the set-up fields `fields` names (as the embed's fields option: a list
   * of paths, checked against the core's tables) outside Advanced and focuses the
   * first. Throws EmbedOptionError('fields', …) for a name the core has not.
   */
  showFields(fields) {
    const paths = resolveFields(fields, this.#lab.schema);
    const pinned = this.#view.pinFields(paths);
    pinned.sync(this.session.view.policy, this.session.view.world);
    pinned.focus(paths);
  }

  /** The labels the set-up shows for `fields` (checked as showFields() checks them). */
  fieldLabels(fields) {
    return resolveFields(fields, this.#lab.schema).map((path) => fieldLabel(path, this.#lab.schema));
  }

  destroy() {
    this.#pause();
    this.#view.help.release();
    clearTimeout(this.#urlTimer);
    this.#urlTimer = 0;
    for (const [target, type, fn] of this.#listeners) target.removeEventListener(type, fn);
    this.timeline.destroy();
    this.session.dispose();
    this.root.remove();
  }

  #on(target, type, fn) {
    target.addEventListener(type, fn);
    this.#listeners.push([target, type, fn]);
  }

  // ---- scenario sources -----------------------------------------------------

  /**
   * load() without drawing: the core parses link text (a full URL or a #fragment as
   * Copy link gives it, or the bare link: scenarioLinkFrom); a refusal throws before
   * anything changes. `captioned`: the scenario is the one options.captions narrate.
   */
  #load(scenario, captioned = false) {
    const link = scenarioLinkFrom(scenario, 'scenario');
    this.#pause();
    this.session.load(link);
    this.#captioned = captioned;
    this.#view.linkAlert.clear();
  }

  /** #load(), or on a refusal the default scenario and the link alert; false then. */
  #loadOrAlert(scenario, captioned = false) {
    try {
      this.#load(scenario, captioned);
      return true;
    } catch (error) {
      this.#pause();
      if (!isRefusal(error)) throw error;
      this.session.load(DEFAULT_SCENARIO);
      this.#captioned = false;
      this.#view.linkAlert.show(linkErrorMessage(error), typeof scenario === 'string' ? scenario : '');
      return false;
    }
  }

  /**
   * Loads a scenario link read from location.hash (sync-url). A refused one is
   * held: it stays in the address bar until the scenario shown instead changes.
   */
  #loadFromHash(text) {
    this.#held = this.#loadOrAlert(text) ? null : this.link();
  }

  /**
   * sync-url: only a scenario link (url.mjs SCENARIO_LINK) is a scenario. Any
   * other fragment — emptied, '#', an in-page anchor — is the browser's (it
   * scrolls as usual); the scenario stays and its link is put straight back
   * (replaceState: no history entry, no scroll), so a reload keeps the work.
   */
  #onHashChange() {
    const text = linkFromHash(location.hash);
    if (!isScenarioLink(text)) {
      this.#held = null;
      this.#flushLink(true);
      return;
    }
    if (text === this.#lastHash) return;
    this.#lastHash = text;
    this.#loadFromHash(text);
    this.#render();
  }

  /**
   * Writes `text` as the fragment (with sync-url). It does not overwrite a
   * scenario link someone else put there since this playground last wrote or
   * read it: that change's hashchange event is still to come and loads it. A
   * non-scenario fragment holds nothing to keep and is overwritten.
   *
   * A refused link read from the hash is held: while the link to write is still
   * the one shown instead (#held), the address bar keeps the refused text; the
   * first change writes a new history entry, so Back returns to it.
   */
  #writeHash(text) {
    if (!this.#options.syncUrl) return;
    const current = linkFromHash(location.hash);
    if (isScenarioLink(current) && current !== this.#lastHash) return;
    let push = this.#pushNext;
    if (this.#held !== null) {
      if (text === this.#held) return;
      this.#held = null;
      push = true;
    }
    if (current !== text) {
      const url = text === '' ? location.pathname + location.search : `#${text}`;
      if (push && isScenarioLink(current)) history.pushState(null, '', url);
      else history.replaceState(history.state, '', url);
    }
    this.#pushNext = false;
    this.#lastHash = text;
  }

  // ---- actions --------------------------------------------------------------
  //
  // Every call into the lab goes through #attempt: the core (or the JS API's
  // type and size checks) refuses before anything changes, so a refusal only
  // needs saying — next to the field it concerns, else in the action alert —
  // and a running Run pauses.

  /** Runs `call`; on a refusal pauses, passes the API's message to `show` and returns false. */
  #attempt(call, show) {
    try {
      call();
      return true;
    } catch (error) {
      this.#pause();
      if (!isRefusal(error)) throw error;
      show(error.message);
      return false;
    }
  }

  /** A `show` for #attempt that has no field: the action alert (cleared by the next change drawn). */
  #refusedAs(what) {
    return (message) => this.#view.why.refused(what, message);
  }

  /**
   * Step with the chosen outcome; false when nothing is ready or the step was
   * refused. `quiet` (a run reaching its end) keeps the last explanation on show.
   */
  #step(outcome = this.#view.controls.chosenOutcome(), { quiet = false } = {}) {
    const { controls } = this.#view;
    const text = outcome === 'success' ? '' : controls.errorTextValue();
    let stepped = false;
    const accepted = this.#attempt(() => { stepped = this.session.step(outcome, text); },
      (message) => controls.stepError(`Step not taken: ${message}.`));
    if (!accepted) return false;
    controls.stepError(null);
    if (!stepped) {
      if (quiet) controls.say('Run ended: nothing is ready.');
      else this.#render({ notice: this.#view.nextEventOffered
        ? 'Nothing is ready to step now. Press Next event to move the clock to the next due time or lease expiry.'
        : 'Nothing is ready: there is no job to process.' });
      return false;
    }
    this.#render();
    return true;
  }

  /** A report typed as text: the core parses the outcome; its refusal is shown, and nothing changed. */
  #report(text) {
    const { report } = this.#view;
    this.#pause();
    let refusal = null;
    const taken = this.#attempt(() => this.session.report(text, text === 'success' ? '' : this.#view.controls.errorTextValue()),
      (message) => { refusal = message; });
    if (!taken) this.session.view = this.session.freshView();  // the refusal count is the core's
    report.render(refusal, this.session.view.refused);
    this.#render();
  }

  /**
   * One capstone action (lease, settle, advance, advanceToNext, releaseKey,
   * redrive, crash) through the session; `nothing` is what to say when the core
   * finds nothing to do. True when the action was taken.
   */
  #act(action, what, alert = this.#view.controls.clockAlert, nothing = 'Nothing is ready: there is no job to lease.') {
    return this.#take(() => this.session.act(action), what, alert, nothing);
  }

  /** One operator call through the session (`act` answers whether it was taken), drawn as #act draws an action. */
  #take(act, what, alert, nothing) {
    const { controls } = this.#view;
    this.#pause();
    let taken = false;
    const accepted = this.#attempt(() => { taken = act(); },
      (message) => controls.alert(alert, `${what} not taken: ${message}.`));
    if (!accepted) return false;
    controls.alert(alert, null);
    if (!taken) {
      this.#render({ notice: nothing });
      return false;
    }
    this.#render();
    return true;
  }

  #lease() {
    this.#act({ type: 'lease' }, 'Lease');
  }

  /** The in-flight lease chosen in the Settle list (the earliest to expire by default), or null. */
  #chosenLease() {
    const token = this.#view.controls.chosenToken();
    return this.session.view.leased.find((l) => l.token === token) ?? null;
  }

  #settle() {
    const lease = this.#chosenLease();
    if (lease === null) {
      this.#render({ notice: 'Nothing is in flight: lease a job first.' });
      return;
    }
    const { controls } = this.#view;
    const outcome = controls.chosenOutcome();
    const error = outcome === 'success' ? '' : controls.errorTextValue();
    this.#act({ type: 'settle', token: lease.token, outcome, error }, 'Settle');
  }

  /**
   * The worker holding the chosen lease dies: it never settles. The clock moves
   * to the lease's expiry, where the queue (not the worker) decides the attempt.
   */
  #crashWorker() {
    const lease = this.#chosenLease();
    if (lease === null) {
      this.#render({ notice: 'Nothing is in flight: lease a job first.' });
      return;
    }
    this.#act({ type: 'advance', ms: lease.expiresAt - this.session.view.stats.now }, 'Crash worker');
  }

  #nextEvent() {
    this.#act({ type: 'advanceToNext' }, 'Next event', this.#view.controls.clockAlert, 'Nothing is waiting on the clock: no due time, lease or retention is pending.');
  }

  /** Applies policy changes (the Advanced set-up, the crash dialog's order); a refusal goes to `alert`. */
  #setPolicy(changes, alert) {
    return this.#edit(() => this.session.setPolicy(changes), alert);
  }

  /** An edit the core may refuse: the refusal is said in `alert` (nothing changed), else the page redraws. */
  #edit(change, alert) {
    const { controls } = this.#view;
    this.#pause();
    const accepted = this.#attempt(change, (message) => controls.alert(alert, `Not changed: ${message}.`));
    if (!accepted) return false;
    controls.alert(alert, null);
    this.#render();
    return true;
  }

  #undo() {
    this.#pause();
    if (!this.#attempt(() => this.session.undo(), this.#refusedAs('Undo failed'))) return;
    this.#render({ notice: 'Undone: the script is back as it was before the change.' });
  }

  #showSnapshot() {
    let text = '';
    if (!this.#attempt(() => { text = this.session.queue.snapshotText(); }, this.#refusedAs('No snapshot'))) return;
    this.#view.snapshotDialog().show(text);
  }

  #showCrash() {
    this.#pause();
    this.#crashedAt = null;
    this.#view.crashDialog().show(this.session);
  }

  /**
   * The crash dialog's crash, as a script action: the recovered queue is the
   * state from then on (time travel and links carry it). A second try from the
   * same dialog replaces its first, so the reader can compare writes.
   */
  #crash(after, torn) {
    const { alert } = this.#view.crashDialog();
    if (this.#crashedAt !== null && this.session.cursor === this.#crashedAt) this.session.goTo(this.#crashedAt - 1);
    const done = this.#act({ type: 'crash', after, torn }, 'Crash and restart', alert);
    this.#crashedAt = done ? this.session.cursor : null;
    return done;
  }

  /** The core's write that matters in the journal the dialog shows (before a crash it carried out). */
  #writeThatMatters() {
    if (this.#crashedAt !== null && this.session.cursor === this.#crashedAt) {
      this.session.goTo(this.#crashedAt - 1);
      this.#crashedAt = null;
      this.#render();
    }
    return this.session.queue.writeThatMatters();
  }

  #replay(id, { fromField = false, resetAttempts = true } = {}) {
    this.#pause();
    let replayed = false;
    if (!this.#attempt(() => { replayed = this.session.replay(id, { resetAttempts }); }, this.#refusedAs(`Replay of "${id}" refused`))) return;
    if (!replayed) {
      // The session counts each false replay (a goal's refused-replays); the notice says how many so far.
      const count = this.session.view.refusedReplays;
      this.#render({ notice: fromField
        ? `replay("${id}") returned false: "${id}" is not in quarantine at this step, so nothing changed (${count} refused ${count === 1 ? 'replay' : 'replays'} so far).`
        : `"${id}" is not in quarantine at this step.` });
      return;
    }
    this.#render();
    // The replayed entry's button is gone; keep keyboard focus somewhere sensible.
    if (!this.root.contains(document.activeElement) || document.activeElement === document.body) this.#view.controls.focusStep();
  }

  /**
   * An operator's fix, made visible: the entry's payload patched (one 'patch' action, a
   * 'patched' event), then the job replayed (a second action); each steps back on its own.
   */
  #patchAndReplay(id, payload) {
    if (!this.#act({ type: 'patch', id, payload }, `Patch of "${id}"`, this.#view.controls.opAlert,
      `"${id}" is not in quarantine at this step: nothing to patch.`)) return;
    this.#replay(id);
  }

  /** Moves the cursor; true if it moved. */
  #goTo(cursor) {
    let moved = false;
    this.#attempt(() => { moved = this.session.goTo(cursor); }, this.#refusedAs(`Could not go to action ${cursor}`));
    if (moved) this.#render();
    return moved;
  }

  /** A reader's own move through the script: it pauses a run first (the run itself uses #goTo). */
  #navigate(cursor) {
    this.#pause();
    this.#goTo(cursor);
  }

  #reset() {
    this.#pause();
    this.#goTo(0);
  }

  /**
   * Loads a preset. With sync-url the link before it stays in the browser's
   * history, so Back undoes it: a change still waiting for its debounced hash
   * write is written first, so it is that history entry and is not lost.
   */
  #preset(key) {
    const preset = ALL_PRESETS.find((p) => p.key === key);
    this.#flushLink();
    // A world's preset is its world's run (played by the core), then its own further actions (`then`).
    const played = (s) => ({ ...s, actions: [...s.actions, ...(preset.then ?? [])] });
    const scenario = () => (preset.scenario.world ? played(this.#lab.playWorld(preset.scenario)) : preset.scenario);
    if (!this.#attempt(() => this.#load(scenario()), this.#refusedAs(`The preset "${preset.name}" was not loaded`))) return;
    this.#pushNext = true;
    if (preset.crash) {
      // The crash presets play their script, then open Crash and restart at the write that matters.
      this.#goTo(this.session.length);
      this.#render({ notice: `${preset.name}: ${preset.summary}` });
      this.#showCrash();
      this.#view.crashDialog().findFirst();
      return;
    }
    this.#render({ notice: `${preset.name}: ${preset.summary} Press Run or Forward to play it.` });
  }

  /**
   * The import dialog's Import: the broker's config in the lab's terms (import.mjs), applied as
   * one set-up change (the system and the policy fields it determines; backoff and quarantine
   * merged over the policy in force), which the core checks whole. A refusal, the translation's
   * or the core's, is said by name in the dialog and changes nothing; an accepted import lists
   * every field it set, and those only the old system had, reset (lab.schema's onlyUnder).
   */
  #import(text, options) {
    const dialog = this.#view.importDialog();
    const result = importConfig(text, options);
    const what = result.format === null ? 'the config' : FORMATS[result.format];
    if (!result.ok) {
      dialog.refused(`Not imported (${what}): nothing changed.`, result.refusals.map((r) => r.message));
      return;
    }
    const { changes, set: changed } = policyChanges(result, this.session.view.policy, [], this.#lab.schema.policy);
    this.#pause();
    const accepted = this.#attempt(() => this.session.setPolicy(changes), (message) => {
      // The core names its field; say which broker setting that field came from.
      const from = changed.filter((s) => message.includes(s.field)).map((s) => `${s.field} from ${s.from}`);
      dialog.refused(`Not imported (${what}): nothing changed.`, [`${message}${from.length ? ` (${from.join('; ')})` : ''}.`]);
    });
    if (!accepted) return;
    const set = [{ field: 'system', value: result.system, from: what }, ...changed];
    dialog.accepted(`Imported ${what}: ${set.length} fields set.`, set, result.ignored);
    this.#render({ notice: `Imported ${what}: system ${result.system}, ${set.slice(1).map((s) => `${s.field} ${s.value}`).join(', ')}.` });
  }

  // ---- the Config snippet ----------------------------------------------------

  /** Loads the generators and the read-back (once; a playground never opened loads neither), then draws. */
  async #openSnippet() {
    if (this.#snippets === null) {
      const [snippets, readback] = await Promise.all([import('../shared/snippets.mjs'), import('./snippet-readback.mjs')]);
      this.#snippets = { ...snippets, ...readback };
      this.#view.snippet.setSystems(snippets.SNIPPETS);
    }
    this.#renderSnippet();
  }

  /**
   * Generates the snippet of the system picked from the policy in force (the core's policy()
   * and rules()). The picker follows the policy's mode when it changes to one with a snippet,
   * unless the snippet on show is the reader's edit.
   */
  #renderSnippet() {
    const { snippet } = this.#view;
    if (this.#snippets === null || !snippet.open) return;
    const { SNIPPETS, snippetByKey, snippetForMode, canReadBack } = this.#snippets;
    const { queue } = this.session;
    const policy = queue.policy();
    if (policy.system !== this.#snippetMode) {
      this.#snippetMode = policy.system;
      const own = snippetForMode(policy.system);
      if (own && !snippet.edited) this.#snippetKey = own.key;
    }
    this.#snippetKey ??= SNIPPETS[0].key;
    const { key, name, generate } = snippetByKey(this.#snippetKey);
    snippet.show({ key, name, ...generate(policy, queue.rules()), readable: canReadBack(key) });
  }

  /**
   * Apply to playground: the edited snippet's part the import reads (snippet-readback.mjs; `base`,
   * the generated text the edit was made from, is what the rest must still be), through the
   * import's parser (import.mjs), as one set-up change over the policy now, which the core checks
   * whole. A refusal, of an edit outside that part, the parser's or the core's, is said by name and
   * changes nothing.
   */
  #applySnippet(key, edited, base) {
    const { snippet } = this.#view;
    const { readBack, snippetByKey } = this.#snippets;
    const { name } = snippetByKey(key);
    const heading = `Not applied (${name} snippet): nothing changed.`;
    const read = readBack(key, edited, base);
    if (!read.ok) {
      snippet.refused(heading, read.refusals.map((r) => r.message));
      return;
    }
    const result = importConfig(read.config);
    if (!result.ok) {
      snippet.refused(heading, result.refusals.map((r) => `${r.message} (in ${read.part})`));
      return;
    }
    const { changes, set } = policyChanges(result, this.session.view.policy, read.keep, this.#lab.schema.policy);
    this.#pause();
    const accepted = this.#attempt(() => this.session.setPolicy(changes), (message) => snippet.refused(heading, [`${message}.`]));
    if (!accepted) return;
    const all = [{ field: 'system', value: result.system, from: name }, ...set];
    snippet.applied(`Applied the ${name} snippet (${read.part}): ${all.length} fields set.`, all);
    this.#render({ notice: `Applied the ${name} snippet: system ${result.system}, ${set.map((s) => `${s.field} ${s.value}`).join(', ')}.` });
    this.#renderSnippet();
  }

  #addJob() {
    const { setup } = this.#view;
    const job = setup.jobInput();
    const accepted = this.#attempt(() => {
      const behaviour = behaviourFromFields(job.behaviour, job.detail);
      this.session.addJob(job.id, job.payload, { key: job.key, behaviour });
    }, (message) => setup.jobError(`Could not add the job: ${message}.`));
    if (!accepted) return;
    setup.jobError(null);
    setup.clearJob();
    this.#render();
    setup.focusJobId();
  }

  #removeJob(id) {
    const wasFocused = this.root.contains(document.activeElement);
    if (!this.#attempt(() => this.session.removeJob(id), this.#refusedAs(`Could not remove "${id}"`))) return;
    this.#render();
    if (wasFocused && (document.activeElement === document.body || !document.activeElement)) this.#view.setup.focusJobId();
  }

  #setMaxAttempts() {
    const { setup } = this.#view;
    const current = String(this.session.view.policy.maxAttempts);
    this.#pause();
    const field = setup.maxAttemptsInput();
    if (field.text.trim() === '') {
      setup.maxError(`Max attempts unchanged: the field is empty; enter a whole number from 1 to ${this.#lab.maxAttemptsLimit}.`, current);
      return;
    }
    const accepted = this.#attempt(() => this.session.setMaxAttempts(field.value),
      (message) => setup.maxError(`Max attempts unchanged (still ${current}): ${message}.`, current));
    if (!accepted) return;
    setup.maxError(null);
    this.#render();
  }

  // ---- run / pause ----------------------------------------------------------

  #toggleRun() {
    if (this.#runTimer) this.#pause(); else this.#run();
  }

  /** A new speed: a run (or play) in progress goes on at it. */
  #changeSpeed() {
    if (!this.#runTimer) return;
    const kind = this.#running;
    this.#pause();
    if (kind === 'play') this.#togglePlay(); else this.#run();
  }

  /**
   * Plays the rest of the script; past its end, the scenario's world plays on
   * (when it has one), else steps with the chosen outcome until nothing is ready.
   * The last explanation stays on show when it ends.
   */
  #run() {
    this.#startTimer('run', () => {
      const { session } = this;
      if (session.cursor < session.length) return this.#goTo(session.cursor + 1);
      if (session.world !== null) return this.#worldStep();
      return this.#step(undefined, { quiet: true });
    });
  }

  /** Play: the simulated workers (the scenario's world, else healthy jobs and one worker) run from here. */
  #togglePlay() {
    if (this.#runTimer && this.#running === 'play') this.#pause();
    else {
      this.#pause();
      this.#startTimer('play', () => {
        const { session } = this;
        if (session.cursor < session.length) return this.#goTo(session.cursor + 1);
        return this.#worldStep();
      });
    }
  }

  /** The world's next action (the core chooses it), recorded like a click; false when nothing will happen. */
  #worldStep() {
    let acted = false;
    if (!this.#attempt(() => { acted = this.session.worldStep(); }, this.#refusedAs('The world stopped'))) return false;
    if (!acted) {
      this.#view.controls.say('Played to the end: nothing more will happen.');
      return false;
    }
    this.#render();
    return true;
  }

  #startTimer(kind, tick) {
    const { controls } = this.#view;
    const interval = 1000 / controls.stepsPerSecond();
    this.#running = kind;
    controls.running(kind);
    this.#runTimer = setInterval(() => {
      if (!tick()) this.#pause(); // the end, or a refusal (already shown)
    }, interval);
  }

  #pause() {
    if (!this.#runTimer) return;
    clearInterval(this.#runTimer);
    this.#runTimer = 0;
    this.#running = null;
    this.#view.controls.running(null);
  }

  // ---- keyboard -------------------------------------------------------------

  #onKey(e) {
    const view = this.#view;
    if (view.help.open || !this.#keys) return;
    const command = commandFor(e);
    if (!command) return;
    const [name, arg] = command.split(':');
    // A locked walkthrough moves along its script only; an embed offers only its presets.
    if (this.#embed.locked && !['back', 'forward', 'run', 'help'].includes(name)) return;
    if (name === 'preset' && !(this.#embed.panels.has('presets') && (this.#embed.presets === null || this.#embed.presets.has(arg)))) return;
    e.preventDefault();
    switch (name) {
      case 'step': this.#step(); break;
      case 'back': this.#navigate(this.session.cursor - 1); break;
      case 'forward': this.#navigate(this.session.cursor + 1); break;
      case 'run': this.#toggleRun(); break;
      case 'play': this.#togglePlay(); break;
      case 'lease': this.#lease(); break;
      case 'next': this.#nextEvent(); break;
      case 'undo': if (this.session.canUndo) this.#undo(); break;
      case 'reset': this.#reset(); break;
      case 'outcome': view.controls.chooseOutcome(Number(arg)); break;
      case 'preset': this.#preset(arg); break;
      case 'help': view.help.showModal(); break;
      default: break;
    }
  }

  // ---- drawing --------------------------------------------------------------

  /** Brings every view up to date with the session's view; only what changed is touched. */
  #render({ notice } = {}) {
    const { view } = this.session;
    const { timeline, log, states, controls, setup, why, bar } = this.#view;
    const { stats, cursor, length } = view;
    const applied = view.eventsAtCursor;
    // The capstone's controls: the embed's features, or once the scenario (or the reader, opening Advanced) uses them.
    const advanced = this.#view.showFeatures(this.session.isAdvanced);
    const shown = shownEvents(view, this.#futureShown, this.#drawnEvents);
    this.#drawnEvents = shown.events.length;
    this.root.classList.toggle('is-future-hidden', !this.#futureShown);
    timeline.sync(shown.events, shown.from, applied, stats.step, stats.now,
      { world: view.world, clock: this.#view.clockPlayground });
    log.sync(view.timeline, view.eventsFrom, applied);
    states.sync(view, { removable: this.#view.setupShown, clock: timeline.usesClock, worst: this.#worstCase(view) });
    controls.render(view);
    controls.suggestSpeed(timeline.usesClock || this.session.isAdvanced);
    setup.render(stats);
    this.root.dataset.step = String(stats.step);
    this.root.dataset.cursor = String(cursor);

    // An author's caption narrates the authored script: it holds only while the
    // history up to the cursor is that script's (the learner may have diverged).
    const captions = this.#embed.captions;
    const authored = this.#captioned && cursor <= view.authoredThrough;
    const caption = authored ? captions?.[Math.min(cursor, captions.length - 1)] ?? '' : '';
    bar.render(why.render(view, { notice, caption }));

    // The policy and the world change only with a load or a set-up change: redraw them then.
    if (this.#syncedGeneration !== view.generation) {
      this.#syncedGeneration = view.generation;
      setup.renderAdvanced(view.policy, view.world, this.session.queue.rules());
      this.#renderSnippet();
      this.#view.pinned?.sync(view.policy, view.world);
    }
    if (advanced) controls.renderLeases(view.leased);
    this.#renderSchedule();
    this.#view.ledger.render(view.ledger, { clock: timeline.usesClock });
    if (!this.#view.ledgerShown) this.#view.ledger.element.hidden = true;
    this.#view.switches.render(view.policy);
    // A predict question's playground: nothing that answers it is drawn before the answer.
    this.#view.withholdForetelling(!this.#futureShown);
    this.#scheduleLink();
    this.element.dispatchEvent(new CustomEvent('dlq-change', {
      detail: { cursor, length, stats, recovered: view.last.action?.type === 'crash' },
    }));
  }

  /**
   * The Worst case card's bound: the core's, over the failures this playground can
   * meet (the outcomes its picker offers; crashes when its attempts hold leases, as
   * in a clock playground). Asked again only when the set-up or the offer changed.
   */
  #worstCase(view) {
    const outcomes = this.#view.controls.offeredOutcomes();
    const leases = this.#view.clockPlayground;
    const key = `${view.generation}|${outcomes.join(' ')}|${leases}`;
    if (key !== this.#worstKey) {
      this.#worst = this.session.queue.worstCase({ outcomes, leases });
      this.#worstKey = key;
    }
    return this.#worst;
  }

  /**
   * The retry-schedule card, in a clock playground that shows the state: the
   * core's retrySchedule() for the policy in force, each attempt taking the
   * world's work time (or, in a script that holds leases, each lease), against the
   * outage length the reader picked (at first, the world's outage). Asked again
   * only when the policy or the leases changed, or `asked`.
   */
  #renderSchedule(asked = false) {
    const card = this.#view.schedule;
    // Withheld while a predict question waits (showFuture): not even asked of the core.
    const shown = this.#view.clockPlayground && this.#embed.panels.has('state') && this.#futureShown;
    card.show(shown);
    const { view } = this.session;
    const key = shown ? `${view.generation}|${view.leases}` : '';
    if (!asked && key === this.#scheduleKey) return;
    this.#scheduleKey = key;
    if (!shown) return;
    const world = view.world;
    // With a world its workers take workMs an attempt (never past the lease); without one, once the
    // script holds leases (view.leases, the core's) each counts to its expiry, as the run counts it.
    const timing = world ? { workMs: world.workMs } : { leases: view.leases };
    const outage = world?.outage ? world.outage.endMs - world.outage.startMs : 5000;
    try {
      card.render(this.#lab.retrySchedule(view.policy, { outageMs: card.outageMs(outage), ...timing }), timing);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      card.renderError(error.message);
    }
  }

  // ---- link -----------------------------------------------------------------

  /** Formats the link (and writes the hash, with syncUrl) after the burst of changes settles. */
  #scheduleLink() {
    clearTimeout(this.#urlTimer);
    // Deferred off the step: formatting a 1,000-job scenario takes a few ms.
    this.#urlTimer = setTimeout(() => {
      this.#urlTimer = 0;
      this.#writeLink();
    }, 120);
  }

  /** Writes the link now if a write is pending (or `always`), instead of at the end of the debounce. */
  #flushLink(always = false) {
    if (!always && !this.#urlTimer) return;
    clearTimeout(this.#urlTimer);
    this.#urlTimer = 0;
    this.#writeLink();
  }

  #linkUrl(link) {
    const base = this.#options.linkBase ?? (this.#options.syncUrl ? location.href : siteURL('playground.html'));
    return urlFor(base, link);
  }

  #writeLink() {
    const { share } = this.#view;
    let link;
    try {
      link = this.link();
    } catch (error) {
      if (!isRefusal(error)) throw error;
      share.renderNone(error.message);
      this.#currentUrl = null;
      this.#writeHash('');
      return;
    }
    const url = this.#linkUrl(link);
    share.render(url, url !== this.#currentUrl);
    this.#currentUrl = url;
    this.#writeHash(link);
  }

  async #copyLink() {
    this.#flushLink(true);
    if (!this.#currentUrl) return;
    await this.#view.share.copyLink(this.#currentUrl);
  }
}
