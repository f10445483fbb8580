// @ts-check
// A playground's controller: it owns the flow. Every user action is the same
// loop, RaftScope's over the core's session: the view says what the reader did
// (bindX), the controller calls the session (model.mjs, one call into the core,
// through flow.mjs) and renders the view the session answered with. The view
// (view.mjs, or a test's fake) builds and draws; the session decides. The panels
// with a life of their own have their own small controllers over the same flow:
// the run timer (run-timer.mjs), the link in the URL (url-sync.mjs), the Config
// snippet (snippet-panel.mjs), the import (import-panel.mjs), Crash and restart
// (crash-panel.mjs), the core's checks (checks.mjs); the capstone's actions and
// the set-up's edits are operator-actions.mjs and setup-edits.mjs.
import { Session } from './model.mjs';
import { DEFAULT_SCENARIO } from './presets.mjs';
import { fieldLabel, resolveFields } from './setup-fields.mjs';
import { shownEvents } from './future.mjs';
import { Flow } from './flow.mjs';
import { ALL_PRESETS, ScenarioLoader } from './scenario-loader.mjs';
import { RunTimer } from './run-timer.mjs';
import { UrlSync } from './url-sync.mjs';
import { SnippetPanel } from './snippet-panel.mjs';
import { ImportPanel } from './import-panel.mjs';
import { connectImport } from './import.mjs';
import { CrashPanel } from './crash-panel.mjs';
import { Checks } from './checks.mjs';
import { OperatorActions } from './operator-actions.mjs';
import { SetupEdits } from './setup-edits.mjs';

export { ALL_PRESETS };

/** The controller mount() resolves to (docs/playground.md lists its API). */
export class Controller {
  #lab;
  #options;
  #embed;
  #view;
  #flow;
  #run;
  #url;
  #snippet;
  #crash;
  #checks;
  #operator;
  #loader;
  #syncedGeneration = -1;
  #futureShown = true;  // the script past the cursor is drawn (faint); false for a predict question's playground
  #drawnEvents = 0;     // timeline events handed to the timeline at the last draw

  /**
   * `view`: view.mjs's PlaygroundView (mount() builds it); `session`: a Session of the default
   * scenario (made here when not given); `host` (the window) and `timers` (setTimeout,
   * setInterval, their clears) default to the page's; `snippets` loads the snippets.
   * @param {HTMLElement} element
   * @param {import('../../wasm/index.mjs').Lab} lab
   * @param {object} options
   * @param {object} embed
   * @param {{ view?: any, session?: Session, host?: any, timers?: any, snippets?: () => Promise<any> }} [seams]
   */
  constructor(element, lab, options, embed, { view, session, host = globalThis, timers = globalThis, snippets } = {}) {
    this.#lab = lab;
    connectImport(lab);  // the import and the snippet read-back read through this lab's core
    this.#options = options;
    this.#embed = embed;
    this.#futureShown = embed.futureShown !== false;
    this.element = element;
    this.root = view.root;
    this.#view = view;
    // Start from the default, then load the given scenario exactly as a later
    // load would: a refused one leaves the default and an alert, never a blank page.
    this.session = session ?? new Session(lab, DEFAULT_SCENARIO);
    const flow = this.#flow = new Flow(lab, view, this.session);
    flow.render = (drawn) => this.#render(drawn);
    this.#run = new RunTimer(flow, { step: (opts) => this.#step(undefined, opts), timers });
    this.#url = new UrlSync(flow, view.share, { options, host, timers });
    this.#snippet = new SnippetPanel(flow, view.snippet, { load: snippets });
    this.#crash = new CrashPanel(flow);
    this.#checks = new Checks(flow, view.schedule, () => this.#scheduleShown());
    const loader = this.#loader = new ScenarioLoader(flow, { url: this.#url, crash: this.#crash });
    this.#operator = new OperatorActions(flow);
    // These two keep no state of their own: they live on in the handlers they bind.
    new ImportPanel(flow);
    new SetupEdits(flow);
    this.#bind(view);
    view.mountIn(element);

    const hash = this.#url.initialLink();
    if (hash !== '') loader.loadFromHash(hash);
    else if (options.scenario !== undefined && options.scenario !== null && options.scenario !== '') loader.loadOrAlert(options.scenario, true);
    else loader.captioned = true;
    this.#render();
    view.ready();
    // With sync-url the playground is the page's one: its shortcuts work page-wide.
    view.bindCommand((name, arg) => this.#command(name, arg), { pageWide: Boolean(options.syncUrl) });
    if (options.syncUrl) this.#url.listen(() => loader.hashChanged());
  }

  /** What each of the view's controls does. */
  #bind(view) {
    const back = () => this.#navigate(this.session.cursor - 1);
    const forward = () => this.#navigate(this.session.cursor + 1);
    const run = this.#run;
    view.bindStep(() => this.#step());
    view.bindBack(back);
    view.bindForward(forward);
    view.bindReset(() => this.#navigate(0));
    view.bindRestore(() => this.restore());
    view.bindRun(() => run.toggleRun());
    view.bindPlay(() => run.togglePlay());
    view.bindSpeed(() => run.changeSpeed());
    view.bindUndo(() => this.#undo());
    view.bindScrub((cursor) => this.#navigate(cursor));
    view.bindSelect((seq) => this.#navigate(this.session.cursorForEvent(seq)));
    view.bindPreset((key) => this.#loader.preset(key));
    view.bindAdvancedOpen(() => this.#render());
  }

  // ---- public API ---------------------------------------------------------

  /** Loads link text or a scenario object; throws the core's error (nothing changes) if refused. */
  load(scenario) {
    this.#loader.load(scenario);
    this.#render();
  }

  /** Like load(), but a refused link shows the link alert and the default scenario (as on start-up). */
  loadOrAlert(scenario) {
    this.#loader.loadOrAlert(scenario);
    this.#render();
  }

  /** The link text for the current state (the core formats it). */
  link() { return this.#url.link(); }

  /** A declarative goal (docs/goals.md) checked by the core against the state shown (checks.mjs). */
  checkGoal(goal) { return this.#checks.goal(goal); }

  /** Loads the scenario this playground was given (options.scenario) again, set-up and script. */
  restore() {
    if (this.#options.scenario === undefined) return;
    this.#run.pause();
    this.#loader.loadOrAlert(this.#options.scenario, true);
    this.#render();
  }

  /** Plays the script from the cursor (as the Run button does). */
  run() { if (this.#run.running === null) this.#run.toggleRun(); }

  /** Moves to the end of the script at once. */
  toEnd() { this.#navigate(this.session.length); }

  /**
   * Opens Crash and restart at write `after` of the journal, or (null) at the write that matters;
   * resolves once it is open (its dialog's module loads on first use).
   */
  crashAt(after = null) { return this.#crash.openAt(after); }

  /** Shows or hides the future (the script past the cursor, the cards that foretell the run): a predict question's. */
  showFuture(shown) {
    if (this.#futureShown === Boolean(shown)) return;
    this.#futureShown = Boolean(shown);
    this.#render();
  }

  /** Opens the set-up fields `fields` names outside Advanced; EmbedOptionError('fields', …) for one the core has not. */
  showFields(fields) {
    const paths = resolveFields(fields, this.#lab.schema);
    this.#view.showFields(paths, this.session.view);
  }

  /** The labels the set-up shows for `fields` (checked as showFields() checks them). */
  fieldLabels(fields) {
    return resolveFields(fields, this.#lab.schema).map((path) => fieldLabel(path, this.#lab.schema));
  }

  destroy() {
    this.#run.pause();
    this.#url.destroy();
    this.#view.destroy();
    this.session.dispose();
  }

  // ---- actions --------------------------------------------------------------

  /**
   * Step with the chosen outcome; false when nothing is ready or the step was
   * refused. `quiet` (a run reaching its end) keeps the last explanation on show.
   */
  #step(outcome = this.#view.chosenOutcome(), { quiet = false } = {}) {
    const view = this.#view;
    const text = outcome === 'success' ? '' : view.errorText();
    let stepped = false;
    const accepted = this.#flow.attempt(() => { stepped = this.session.step(outcome, text); },
      (message) => view.stepError(`Step not taken: ${message}.`));
    if (!accepted) return false;
    view.stepError(null);
    if (!stepped) {
      if (quiet) view.say('Run ended: nothing is ready.');
      else this.#render({ notice: view.nextEventOffered
        ? 'Nothing is ready to step now. Press Next event to move the clock to the next due time or lease expiry.'
        : 'Nothing is ready: there is no job to process.' });
      return false;
    }
    this.#render();
    return true;
  }

  #undo() {
    this.#run.pause();
    if (!this.#flow.attempt(() => this.session.undo(), this.#flow.refusedAs('Undo failed'))) return;
    this.#render({ notice: 'Undone: the script is back as it was before the change.' });
  }

  /** A reader's own move through the script: it pauses a run first (the run itself uses flow.goTo). */
  #navigate(cursor) {
    this.#run.pause();
    this.#flow.goTo(cursor);
  }

  /** A single-key shortcut (the view says which: view.bindCommand). */
  #command(name, arg) {
    const commands = {
      step: () => this.#step(),
      back: () => this.#navigate(this.session.cursor - 1),
      forward: () => this.#navigate(this.session.cursor + 1),
      run: () => this.#run.toggleRun(),
      play: () => this.#run.togglePlay(),
      lease: () => this.#operator.lease(),
      next: () => this.#operator.nextEvent(),
      undo: () => { if (this.session.canUndo) this.#undo(); },
      reset: () => this.#navigate(0),
      outcome: () => this.#view.chooseOutcome(Number(arg)),
      preset: () => this.#loader.preset(arg),
      help: () => this.#view.showHelp(),
    };
    commands[name]?.();
  }

  // ---- drawing --------------------------------------------------------------

  /** A clock playground that shows the state and its future shows the retry-schedule card. */
  #scheduleShown() {
    return this.#view.clockPlayground && this.#embed.panels.has('state') && this.#futureShown;
  }

  /**
   * Brings every view up to date with the session's view; only what changed is touched.
   * @param {{ notice?: string }} [drawn]
   */
  #render({ notice } = {}) {
    const { view } = this.session;
    const { cursor, length, stats } = view;
    // The capstone's controls: the embed's features, or once the scenario (or the reader, opening Advanced) uses them.
    const capstone = this.#view.showFeatures(this.session.isAdvanced);
    const shown = shownEvents(view, this.#futureShown, this.#drawnEvents);
    this.#drawnEvents = shown.events.length;
    // An author's caption narrates the authored script: it holds only while the
    // history up to the cursor is that script's (the learner may have diverged).
    const captions = this.#embed.captions;
    const authored = this.#loader.captioned && cursor <= view.authoredThrough;
    const caption = authored ? captions?.[Math.min(cursor, captions.length - 1)] ?? '' : '';
    // The policy and the world change only with a load or a set-up change: redraw them then.
    const changedSetUp = this.#syncedGeneration !== view.generation;
    this.#syncedGeneration = view.generation;
    this.#view.render(view, {
      shown, notice, caption, futureShown: this.#futureShown, advanced: this.session.isAdvanced, capstone,
      worst: this.#checks.worstCase({ outcomes: this.#view.offeredOutcomes(), leases: this.#view.clockPlayground }),
      rules: changedSetUp ? this.session.queue.rules() : null,
    });
    if (changedSetUp) this.#snippet.render();
    this.#checks.schedule(this.#scheduleShown());
    // A predict question's playground: nothing that answers it is drawn before the answer.
    this.#view.withholdForetelling(!this.#futureShown);
    this.#url.schedule();
    this.#view.changed({ cursor, length, stats, recovered: view.last.action?.type === 'crash' });
  }
}
