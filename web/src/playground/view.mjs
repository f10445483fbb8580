// @ts-check
// One playground's views, put together: the refused-link alert, the set-up
// panel (with the share box), the step controls, the Why line, the timeline,
// the places, the event log, the Config snippet, the phone's bar and the help dialog; the import,
// snapshot and crash dialogs are loaded (lazy-parts.mjs) and built when first opened. What an embed shows (its
// panels, presets, locked, compact, heading level) is applied here once, and
// which capabilities show (features) on every draw. It is the controllers' one
// view (controller.mjs and its panel controllers): they bind to it (bindX), read
// what the reader chose and tell it what to draw (render and the sayings below),
// never reaching into its parts; the panels' own controllers are handed their
// part once (share, snippet, schedule, the dialogs).
import { h } from '../shared/dom.mjs';
import { commandFor, helpDialog, shortcutsEnabled } from '../shared/keyboard.mjs';
import { setHeadingLevel } from './embed-options.mjs';
import { ControlsView, PhoneBar } from './controls-view.mjs';
import { SetupView } from './setup-view.mjs';
import { LinkAlertView, ShareView } from './share-view.mjs';
import { WhyView } from './why-view.mjs';
import { Timeline } from './timeline.mjs';
import { StateViews } from './state-views.mjs';
import { EventLog } from './event-log.mjs';
import { ScheduleCard } from './schedule-view.mjs';
import { LazyParts } from './lazy-parts.mjs';
import { SnippetView } from './snippet-view.mjs';
import { PinnedFieldsView } from './setup-fields.mjs';
import { LedgerView } from './ledger-view.mjs';
import { SwitchesView } from './switches-view.mjs';
import { ReportView } from './report-view.mjs';

/**
 * @typedef {{ linkAlert: LinkAlertView, share: ShareView, setup: SetupView, controls: ControlsView, why: WhyView,
 *   timeline: Timeline, states: StateViews, log: EventLog, snippet: SnippetView, schedule: ScheduleCard, bar: PhoneBar,
 *   switches: SwitchesView, report: ReportView, ledger: LedgerView }} Parts
 */

/** A playground's parts (the constructor adds Help and puts them together), built in three groups of about equal cost. */
function partStages(id, { lab, embed, presets, capstonePresets, systemPresets, restorable }) {
  const offered = (p) => embed.presets === null || embed.presets.has(p.key);
  return [
    () => {
      const share = new ShareView(id);
      return {
        linkAlert: new LinkAlertView(id),
        share,
        setup: new SetupView(id, {
          presets: presets.filter(offered), capstonePresets: capstonePresets.filter(offered), systemPresets: systemPresets.filter(offered),
          outcomes: lab.outcomes, classes: lab.failureClasses, schema: lab.schema, share: share.element, headingLevel: embed.headingLevel,
        }),
      };
    },
    () => ({
      controls: new ControlsView(id, { outcomes: lab.outcomes, restorable, classes: lab.failureClasses, reasons: lab.reasons,
        perSecond: lab.integerFields.perSecond }),
      why: new WhyView(),
      timeline: new Timeline({ idPrefix: id }),
    }),
    () => {
      const report = new ReportView();
      report.element.hidden = !embed.reportBox;
      return {
        states: new StateViews({ idPrefix: id }),
        log: new EventLog({ idPrefix: id }),
        snippet: new SnippetView(id),
        schedule: new ScheduleCard(id),
        bar: new PhoneBar({ outcomes: lab.outcomes }),
        switches: new SwitchesView(embed.switches),
        report,
        ledger: new LedgerView({ idPrefix: id }),
      };
    },
  ];
}

/**
 * Every part at once (partStages, in one task).
 * @returns {Parts}
 */
function buildAll(id, options) {
  return Object.assign({}, ...partStages(id, options).map((stage) => stage()));
}

export class PlaygroundView {
  #embed;
  #keys = shortcutsEnabled();  // single-key shortcuts on (the help dialog's switch)
  /** @type {(on: boolean) => boolean} */
  #onUnsafeOrder = () => false;
  /** @type {(after: number, torn: boolean) => boolean} */
  #onCrash = () => false;
  #onFind = () => null;
  #parts = new LazyParts();  // the dialogs' modules, loaded on first use (most readers never open them)
  #snapshot = null;  // the dialogs, built on first use
  #crash = null;
  #import = null;
  /** @type {(text: string, options: { dlqRetention: string }) => void} */
  #onImport = () => {};
  #schema;
  #pinnedHandlers = null;
  #listeners = [];
  #element = null;  // where mountIn() put the playground
  /** The set-up's editable part is shown (panels has setup, not locked). */
  setupShown = true;
  /** The clock's controls are on offer (showFeatures): the timeline draws time from the start. */
  clockPlayground = false;
  /** Next event is on offer (features has clock, not locked): Step's "nothing is ready" names it. */
  nextEventOffered = false;
  /** The set-up fields shown outside Advanced (setup-fields.mjs), or null. */
  pinned = null;

  /**
   * `lab`: the core (its outcome and class lists); `embed`: embedOptions(); `presets`: every preset;
   * `restorable`: offer Discard my changes (the lesson scenario again); `landmark`: the playground is
   * the page's one (sync-url), else its panels are named groups. Builds every part at once;
   * PlaygroundView.create builds the same in a few tasks.
   * @param {string} id
   * @param {any} options
   * @param {Parts} [parts]
   */
  constructor(id, options, parts = buildAll(id, options)) {
    const { lab, embed, label, landmark } = options;
    this.#embed = embed;
    this.#schema = lab.schema;
    this.id = id;
    this.linkAlert = parts.linkAlert;
    this.share = parts.share;
    this.setup = parts.setup;
    this.controls = parts.controls;
    this.why = parts.why;
    this.timeline = parts.timeline;
    this.states = parts.states;
    this.log = parts.log;
    this.snippet = parts.snippet;
    this.schedule = parts.schedule;
    this.bar = parts.bar;
    this.switches = parts.switches;
    this.report = parts.report;
    this.ledger = parts.ledger;
    this.help = helpDialog(id, { outcomes: lab.outcomes, onToggle: (enabled) => { this.#keys = enabled; } });
    this.root = h('section', { class: 'dlq', 'aria-label': label },
      this.linkAlert.element, this.setup.element,
      h('div', { class: 'dlq-body' },
        h('div', { class: 'dlq-side' }, this.switches.element, this.controls.element, this.report.element),
        h('div', { class: 'dlq-main' }, this.#parts.status, this.why.actionAlert, this.why.element,
          this.timeline.element, this.states.element, this.ledger.element, this.schedule.element, this.log.element, this.snippet.element)),
      this.bar.element,
      this.help);
    this.#applyEmbed(landmark);
    this.#wireWithin();
    // The cards that foretell the run (the policy's projection of a job's whole
    // future, not what has happened): a predict question's playground withholds
    // them, with the script past the cursor, until the answer is in.
    this.foretelling = [this.schedule.element, this.states.worst];
  }

  /**
   * The same view as the constructor's, its parts built over a few tasks (`pause()` resolves in
   * a later one): each part of a playground is a few milliseconds of a slow phone's main thread,
   * and together they were one of the longest tasks of a page's start-up.
   */
  static async create(id, options, pause) {
    const parts = /** @type {Parts} */ ({});
    for (const stage of partStages(id, options)) {
      Object.assign(parts, stage());
      await pause();
    }
    return new PlaygroundView(id, options, parts);
  }

  /**
   * Hides (`withheld`) every foretelling card, after the views drew: each card
   * shows itself again on the next draw once it is no longer withheld.
   */
  withholdForetelling(withheld) {
    if (!withheld) return;
    for (const card of this.foretelling) card.hidden = true;
  }

  /** What one view does for another, with no decision in it: the two outcome pickers agree, Help opens, the link alert's buttons. */
  #wireWithin() {
    const { controls, bar, linkAlert } = this;
    bar.bindOutcome((value) => controls.chooseOutcomeValue(value));
    controls.bindOutcome((value) => bar.showOutcome(value));
    this.setup.bindHelp(() => this.help.showModal());
    linkAlert.bindCopyRefused(() => linkAlert.copyRefused());
    linkAlert.bindDismiss(() => linkAlert.clear());
  }

  // ---- what the reader did (each handler once; the controller owns what it means) ----

  bindStep(handler) { this.controls.bindStep(handler); this.bar.bindStep(handler); }
  bindBack(handler) { this.controls.bindBack(handler); this.bar.bindBack(handler); }
  bindForward(handler) { this.controls.bindForward(handler); this.bar.bindForward(handler); }
  bindNextEvent(handler) { this.controls.bindNextEvent(handler); this.bar.bindNextEvent(handler); }
  bindReset(handler) { this.controls.bindReset(handler); }
  bindRestore(handler) { this.controls.bindRestore(handler); }
  bindRun(handler) { this.controls.bindRun(handler); }
  bindPlay(handler) { this.controls.bindPlay(handler); }
  bindSpeed(handler) { this.controls.bindSpeed(handler); }
  bindUndo(handler) { this.controls.bindUndo(handler); }
  /** `handler(cursor)`: the script's slider. */
  bindScrub(handler) { this.controls.bindScrub(handler); }
  /** `handler(seq)`: an event picked on the timeline. */
  bindSelect(handler) { this.timeline.bindSelect(handler); }
  bindLease(handler) { this.controls.bindLease(handler); }
  bindSettle(handler) { this.controls.bindSettle(handler); }
  bindCrashWorker(handler) { this.controls.bindCrashWorker(handler); }
  /** `handler(ms)`. */
  bindAdvance(handler) { this.controls.bindAdvance(handler); }
  /**
   * `handler(id, { fromField, resetAttempts })`: the operator's Replay (the id typed:
   * fromField), a quarantine entry's Replay, or its Retry without reset.
   */
  bindReplay(handler) {
    this.controls.bindReplay((id) => handler(id, { fromField: true }));
    this.states.bindReplay((id) => handler(id, {}));
    this.states.bindRetryWithoutReset((id) => handler(id, { resetAttempts: false }));
  }
  /** `handler(key)`. */
  bindReleaseKey(handler) { this.controls.bindReleaseKey(handler); }
  /** `handler(max, only, perSecond)` (controls-view.mjs). */
  bindRedrive(handler) { this.controls.bindRedrive(handler); }
  /** `handler(id, payload)`: a quarantine entry's Patch and replay. */
  bindPatchAndReplay(handler) { this.states.bindPatchAndReplay(handler); }
  /** `handler(id)`: a job's Remove. */
  bindRemove(handler) { this.states.bindRemove(handler); }
  /** `handler(text)`: the report box's Send. */
  bindReport(handler) { this.report.bindSend(handler); }
  bindSnapshot(handler) { this.controls.bindSnapshot(handler); }
  /** Crash and restart… (the dialog's own Crash is bindCrash). */
  bindCrashOpen(handler) { this.controls.bindCrashRestart(handler); }
  /** `handler(key)`: a preset's button. */
  bindPreset(handler) { this.setup.bindPreset(handler); }
  bindMaxAttempts(handler) { this.setup.bindMaxAttempts(handler); }
  bindAddJob(handler) { this.setup.bindAddJob(handler); }
  /** `handler(changes, alert)`: an Advanced policy field. */
  bindPolicy(handler) { this.setup.bindPolicy(handler); }
  /** `handler(world, alert)`: an Advanced world field. */
  bindWorld(handler) { this.setup.bindWorld(handler); }
  bindAdvancedOpen(handler) { this.setup.bindAdvancedOpen(handler); }
  bindImportOpen(handler) { this.setup.bindImportOpen(handler); }
  /** `handler(path, on, alert)`: a switch (options.switches). */
  bindSwitch(handler) { this.switches.bindToggle((path, on) => handler(path, on, this.switches.alert)); }

  /**
   * `handler(name, arg)`: a single-key shortcut (shared/keyboard.mjs commandFor) pressed in the
   * playground or (`pageWide`) on the page's body; none while Help is open or the shortcuts are
   * off. A locked walkthrough takes only its script's keys; an embed only its presets' keys.
   */
  bindCommand(handler, { pageWide }) {
    const onKey = (e) => {
      if (this.help.open || !this.#keys) return;
      const command = commandFor(e);
      if (!command) return;
      const [name, arg] = command.split(':');
      const { locked, panels, presets } = this.#embed;
      if (locked && !['back', 'forward', 'run', 'help'].includes(name)) return;
      if (name === 'preset' && !(panels.has('presets') && (presets === null || presets.has(arg)))) return;
      e.preventDefault();
      handler(name, arg);
    };
    this.#listen(this.root, 'keydown', onKey);
    if (pageWide) {
      this.#listen(document, 'keydown', (e) => {
        if (e.target === document.body || e.target === document.documentElement) onKey(e);
      });
    }
  }

  #listen(target, type, fn) {
    target.addEventListener(type, fn);
    this.#listeners.push([target, type, fn]);
  }

  // ---- what the reader chose ----

  chosenOutcome() { return this.controls.chosenOutcome(); }
  errorText() { return this.controls.errorTextValue(); }
  chosenToken() { return this.controls.chosenToken(); }
  offeredOutcomes() { return this.controls.offeredOutcomes(); }
  stepsPerSecond() { return this.controls.stepsPerSecond(); }
  maxAttemptsInput() { return this.setup.maxAttemptsInput(); }
  jobInput() { return this.setup.jobInput(); }
  /** Keyboard focus is inside the playground. */
  focusWithin() { return this.root.contains(document.activeElement); }
  /** Keyboard focus fell to the page (the focused control was removed). */
  focusLost() { return document.activeElement === document.body || !document.activeElement; }

  // ---- what the controller shows ----

  /** Puts the playground in `element` (its children replaced). */
  mountIn(element) {
    this.#element = element;
    element.replaceChildren(this.root);
  }
  /** The first draw is done. */
  ready() { this.root.dataset.ready = 'true'; }
  /** Says a change was drawn: 'dlq-change' on the element the playground is mounted in. */
  changed(detail) { this.#element.dispatchEvent(new CustomEvent('dlq-change', { detail })); }
  /** The refused-link alert (`message` null clears it); `text`: the refused link, whole. */
  linkRefused(message, text) {
    if (message === null) this.linkAlert.clear();
    else this.linkAlert.show(message, text);
  }
  /** The action alert: `what` was refused with the core's `message` (cleared by the next change drawn). */
  refused(what, message) { this.why.refused(what, message); }
  /** `where` ('clock', 'operator', or an alert a view handed over) says `message`; null clears it. */
  alert(where, message) {
    const named = { clock: this.controls.clockAlert, operator: this.controls.opAlert };
    this.controls.alert(named[where] ?? where, message);
  }
  stepError(message) { this.controls.stepError(message); }
  say(text) { this.controls.say(text); }
  running(kind) { this.controls.running(kind); }
  chooseOutcome(n) { this.controls.chooseOutcome(n); }
  showHelp() { this.help.showModal(); }
  focusStep() { this.controls.focusStep(); }
  maxError(message, restore) { this.setup.maxError(message, restore); }
  jobError(message) { this.setup.jobError(message); }
  clearJob() { this.setup.clearJob(); }
  focusJobId() { this.setup.focusJobId(); }
  renderReport(refusal, refused) { this.report.render(refusal, refused); }

  /** Pins the set-up fields `paths` (checked) outside Advanced, in `view`'s values, and focuses the first. */
  showFields(paths, view) {
    const pinned = this.pinFields(paths);
    pinned.sync(view.policy, view.world);
    pinned.focus(paths);
  }

  /**
   * Draws the session's `view`: `shown` (future.mjs shownEvents), the Why line's `notice`
   * and `caption`, the `worst` case bound, `rules` (the class rules in force, when the
   * set-up changed: null otherwise), `advanced` (the scenario uses the capstone) and
   * `capstone` (showFeatures() showed its controls). Only what changed is touched.
   */
  render(view, { shown, notice, caption, futureShown, advanced, capstone, worst, rules }) {
    const { timeline, controls, setup } = this;
    const { stats } = view;
    const applied = view.eventsAtCursor;
    this.root.classList.toggle('is-future-hidden', !futureShown);
    timeline.sync(shown.events, shown.from, applied, stats.step, stats.now, { world: view.world, clock: this.clockPlayground });
    this.log.sync(view.timeline, view.eventsFrom, applied);
    this.states.sync(view, { removable: this.setupShown, clock: timeline.usesClock, worst });
    controls.render(view);
    controls.suggestSpeed(timeline.usesClock || advanced);
    setup.render(stats);
    this.root.dataset.step = String(stats.step);
    this.root.dataset.cursor = String(view.cursor);
    this.bar.render(this.why.render(view, { notice, caption }));
    if (rules !== null) {
      setup.renderAdvanced(view.policy, view.world, rules);
      this.pinned?.sync(view.policy, view.world);
    }
    if (capstone) controls.renderLeases(view.leased);
    this.ledger.render(view.ledger, { clock: timeline.usesClock });
    if (!this.ledgerShown) this.ledger.element.hidden = true;
    this.switches.render(view.policy);
  }

  destroy() {
    this.help.release();
    for (const [target, type, fn] of this.#listeners) target.removeEventListener(type, fn);
    this.timeline.destroy();
    this.root.remove();
  }

  /** `handler(on)`: the crash dialog's unsafe quarantine order; true when taken. */
  bindUnsafeOrder(handler) { this.#onUnsafeOrder = handler; }
  /** `handler(after, torn)`: the crash dialog's Crash and restart; true when taken. */
  bindCrash(handler) { this.#onCrash = handler; }
  /** `handler()`: the crash dialog's Find the write that matters; the core's answer ({ after, rank } or null). */
  bindFind(handler) { this.#onFind = handler; }

  /**
   * The pinned fields' handlers: { policy(changes, alert), world(world, alert),
   * maxAttempts(n, alert) }. Fields the embed names are pinned now.
   */
  bindPinned(handlers) {
    this.#pinnedHandlers = handlers;
    if (this.#embed.fields && this.pinned === null) this.pinFields(this.#embed.fields);
  }

  /**
   * Shows `paths` (checked: setup-fields.mjs resolveFields) outside Advanced, with
   * the ones already pinned; returns the view. Not offered in a locked walkthrough.
   */
  pinFields(paths) {
    const all = [...(this.pinned ? this.pinned.paths : []), ...paths].filter((p, i, a) => a.indexOf(p) === i);
    if (this.pinned && all.length === this.pinned.paths.length) return this.pinned;
    // Max attempts is outside Advanced already (when the set-up is shown): that field is the one focused.
    const shared = new Map(this.setupShown ? [['maxAttempts', this.setup.maxAttempts]] : []);
    const next = new PinnedFieldsView(this.id, { schema: this.#schema, paths: all, shared });
    const handlers = this.#pinnedHandlers;
    next.bindPolicy((changes, alert) => handlers.policy(changes, alert));
    next.bindWorld((world, alert) => handlers.world(world, alert));
    next.bindMaxAttempts((n, alert) => handlers.maxAttempts(n, alert));
    if (this.pinned) this.pinned.element.replaceWith(next.element);
    else this.setup.head.after(next.element);
    this.pinned = next;
    this.setup.leaveOutOfAdvanced([...next.inputs.keys()]);
    if (this.#embed.locked) next.element.hidden = true;
    if (!next.element.hidden) this.setup.element.hidden = false;
    if (this.#embed.headingLevel !== 2) setHeadingLevel(next.element, this.#embed.headingLevel);
    return next;
  }

  /** `handler(text, { dlqRetention })`: the import dialog's Import (import-view.mjs). */
  bindImport(handler) { this.#onImport = handler; }

  /**
   * Loads the module of `part` ('import': the import dialog; 'durability': the crash and snapshot
   * dialogs) on first use, saying so while it is slow; rejects with the browser's error if it fails.
   * The dialog's getter below may be called once this resolved.
   */
  load(part) { return this.#parts.load(part); }

  /** The import dialog (built on first use, after load('import')). */
  importDialog() {
    if (this.#import === null) {
      const { ImportView } = this.#parts.module('import');
      this.#import = new ImportView(this.id);
      this.#import.bindImport((text, options) => this.#onImport(text, options));
      this.root.append(this.#import.element);
    }
    return this.#import;
  }

  /** The snapshot dialog (built on first use, after load('durability')). */
  snapshotDialog() {
    if (this.#snapshot === null) {
      this.#snapshot = this.#parts.module('durability').snapshotDialog(this.id);
      this.root.append(this.#snapshot);
    }
    return this.#snapshot;
  }

  /** The crash dialog (built on first use, after load('durability')). */
  crashDialog() {
    if (this.#crash === null) {
      this.#crash = this.#parts.module('durability').crashDialog(this.id, {
        onUnsafe: (on) => this.#onUnsafeOrder(on),
        onCrash: (after, torn) => this.#onCrash(after, torn),
        onFind: () => this.#onFind(),
      });
      this.root.append(this.#crash);
    }
    return this.#crash;
  }

  /**
   * What the author chose to show (options.panels, presets, locked, compact,
   * headingLevel), applied once to the built DOM. The capabilities (features) are
   * applied on every draw (showFeatures), as they may depend on the scenario.
   */
  #applyEmbed(landmark) {
    const { setup, controls } = this;
    const { panels, locked, compact, headingLevel } = this.#embed;
    const groups = [setup.presets, setup.capstonePresets, setup.systemPresets];
    const setupBody = [...setup.element.children].filter((c) => c !== setup.head && !groups.includes(c));
    const editable = panels.has('setup') && !locked;
    for (const child of setupBody) if (!editable) child.hidden = true;
    this.setupShown = editable;
    const presetsShown = panels.has('presets') && !locked;
    for (const group of groups) group.hidden = !presetsShown || group.querySelectorAll('button').length === 0;
    this.share.element.hidden = !panels.has('link');
    // The set-up panel goes when nothing in it is shown (the help stays on "?").
    if (!editable && groups.every((g) => g.hidden) && this.share.element.hidden) setup.element.hidden = true;
    controls.element.hidden = !panels.has('controls');
    this.states.element.hidden = !panels.has('state');
    this.timeline.element.hidden = !panels.has('timeline');
    this.log.element.hidden = !panels.has('log');
    // The snippet's Apply is a set-up change: not in a locked walkthrough.
    this.snippet.element.hidden = !panels.has('snippet') || locked;
    this.ledgerShown = panels.has('ledger');
    if (locked) {
      // A walkthrough: the script's own steps only (Back, Forward, Run, its position).
      this.root.classList.add('is-locked');
      for (const el of [controls.outcome, controls.errorField, controls.step, controls.clock, controls.operator]) el.hidden = true;
      this.bar.lock();
    }
    if (!landmark) {
      // Several playgrounds on one page: only each playground is a landmark (by its
      // label); its panels are named groups, so the page has no two landmarks alike.
      for (const section of this.root.querySelectorAll('section[aria-labelledby]')) section.setAttribute('role', 'group');
    }
    this.root.classList.toggle('is-compact', compact);
    this.root.classList.toggle('no-controls', !panels.has('controls'));
    setHeadingLevel(this.root, headingLevel);
  }

  /**
   * Shows the capabilities the embed's features (or, by default, the scenario:
   * `advanced`) call for. True when any capstone control is on show.
   */
  showFeatures(advanced) {
    const { controls, setup } = this;
    const { features, locked } = this.#embed;
    const has = (f) => (features === null ? advanced || setup.advancedOpen : features.has(f));
    const show = (el, visible) => { if (el.hidden === visible) el.hidden = !visible; };
    show(controls.moreOutcomes, has('classes'));
    this.bar.showAllOutcomes(has('classes'));
    const clock = has('clock');
    // A clock playground: its clock controls are on offer (the timeline draws the time axis from the start).
    this.clockPlayground = clock || has('world');
    show(controls.clock, !locked && this.clockPlayground);
    for (const el of [controls.leaseButton, controls.nextButton, controls.settleRow, controls.advanceRow]) show(el, clock);
    this.nextEventOffered = clock && !locked;
    this.bar.showNextEvent(clock);
    show(controls.play, has('world'));
    show(controls.operator, !locked);
    show(controls.opMore, has('ordering') || has('operator') || has('durability'));
    show(controls.releaseRow, has('ordering'));
    show(controls.redriveRow, has('operator'));
    show(controls.durabilityRow, has('durability'));
    show(setup.jobExtra, this.setupShown && (has('ordering') || has('world')));
    show(setup.keyField, has('ordering'));
    for (const el of [setup.behaviourFields, setup.behaviourDetail, setup.behaviourHint]) show(el, has('world'));
    show(setup.advanced.element, this.setupShown && (features === null || ['clock', 'classes', 'ordering', 'world', 'durability'].some((f) => features.has(f))));
    return clock || has('world') || has('ordering') || has('operator') || has('durability') || has('classes');
  }
}
