// One playground's views, put together: the refused-link alert, the set-up
// panel (with the share box), the step controls, the Why line, the timeline,
// the places, the event log, the Config snippet, the phone's bar and the help dialog; the snapshot
// and crash dialogs are built when first opened. What an embed shows (its
// panels, presets, locked, compact, heading level) is applied here once, and
// which capabilities show (features) on every draw. The controller
// (controller.mjs) binds to the parts and tells them what to draw.
import { h } from '../shared/dom.mjs';
import { helpDialog } from '../shared/keyboard.mjs';
import { setHeadingLevel } from './embed-options.mjs';
import { ControlsView, PhoneBar } from './controls-view.mjs';
import { SetupView } from './setup-view.mjs';
import { LinkAlertView, ShareView } from './share-view.mjs';
import { WhyView } from './why-view.mjs';
import { Timeline } from './timeline.mjs';
import { StateViews } from './state-views.mjs';
import { EventLog } from './event-log.mjs';
import { ScheduleCard } from './schedule-view.mjs';
import { crashDialog, snapshotDialog } from './durability.mjs';
import { ImportView } from './import-view.mjs';
import { SnippetView } from './snippet-view.mjs';
import { PinnedFieldsView } from './setup-fields.mjs';
import { LedgerView } from './ledger-view.mjs';
import { SwitchesView } from './switches-view.mjs';
import { ReportView } from './report-view.mjs';

export class PlaygroundView {
  #embed;
  #onShortcuts = () => {};
  #onUnsafeOrder = () => false;
  #onCrash = () => false;
  #onFind = () => null;
  #snapshot = null;  // the dialogs, built on first use (most readers never open them)
  #crash = null;
  #import = null;
  #onImport = () => {};
  #schema;
  #pinnedHandlers = null;
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
   * the page's one (sync-url), else its panels are named groups.
   */
  constructor(id, { lab, embed, label, presets, capstonePresets, systemPresets, restorable, landmark }) {
    this.#embed = embed;
    this.#schema = lab.schema;
    this.id = id;
    const offered = (p) => embed.presets === null || embed.presets.has(p.key);
    this.linkAlert = new LinkAlertView(id);
    this.share = new ShareView(id);
    this.setup = new SetupView(id, {
      presets: presets.filter(offered), capstonePresets: capstonePresets.filter(offered), systemPresets: systemPresets.filter(offered),
      outcomes: lab.outcomes, classes: lab.failureClasses, schema: lab.schema, share: this.share.element, headingLevel: embed.headingLevel,
    });
    this.help = helpDialog(id, { outcomes: lab.outcomes, onToggle: (enabled) => this.#onShortcuts(enabled) });
    this.controls = new ControlsView(id, { outcomes: lab.outcomes, restorable, classes: lab.failureClasses, reasons: lab.reasons,
      perSecond: lab.integerFields.perSecond });
    this.why = new WhyView();
    this.timeline = new Timeline({ idPrefix: id });
    this.states = new StateViews({ idPrefix: id });
    this.log = new EventLog({ idPrefix: id });
    this.snippet = new SnippetView(id);
    this.schedule = new ScheduleCard(id);
    this.bar = new PhoneBar({ outcomes: lab.outcomes });
    this.switches = new SwitchesView(embed.switches);
    this.report = new ReportView();
    this.report.element.hidden = !embed.reportBox;
    this.ledger = new LedgerView({ idPrefix: id });
    this.root = h('section', { class: 'dlq', 'aria-label': label },
      this.linkAlert.element, this.setup.element,
      h('div', { class: 'dlq-body' },
        h('div', { class: 'dlq-side' }, this.switches.element, this.controls.element, this.report.element),
        h('div', { class: 'dlq-main' }, this.why.actionAlert, this.why.element,
          this.timeline.element, this.states.element, this.ledger.element, this.schedule.element, this.log.element, this.snippet.element)),
      this.bar.element,
      this.help);
    this.#applyEmbed(landmark);
    // The cards that foretell the run (the policy's projection of a job's whole
    // future, not what has happened): a predict question's playground withholds
    // them, with the script past the cursor, until the answer is in.
    this.foretelling = [this.schedule.element, this.states.worst];
  }

  /**
   * Hides (`withheld`) every foretelling card, after the views drew: each card
   * shows itself again on the next draw once it is no longer withheld.
   */
  withholdForetelling(withheld) {
    if (!withheld) return;
    for (const card of this.foretelling) card.hidden = true;
  }

  /** `handler(enabled)`: the help dialog's "Single-key shortcuts" switch. */
  bindShortcuts(handler) { this.#onShortcuts = handler; }
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

  /** The import dialog (built on first use). */
  importDialog() {
    if (this.#import === null) {
      this.#import = new ImportView(this.id);
      this.#import.bindImport((text, options) => this.#onImport(text, options));
      this.root.append(this.#import.element);
    }
    return this.#import;
  }

  /** The snapshot dialog (built on first use). */
  snapshotDialog() {
    if (this.#snapshot === null) {
      this.#snapshot = snapshotDialog(this.id);
      this.root.append(this.#snapshot);
    }
    return this.#snapshot;
  }

  /** The crash dialog (built on first use). */
  crashDialog() {
    if (this.#crash === null) {
      this.#crash = crashDialog(this.id, {
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
