// mount(element, options): one independent playground inside `element`.
// It wires the set-up form, step controls, timeline, state lists and event log
// to a Session (model.mjs). JS only adapts and draws: outcomes go to the core,
// and every sentence about a rule is the core's event `explanation`.
import { loadLab } from '../../wasm/index.mjs';
import { h, uid } from '../shared/dom.mjs';
import { Session } from './model.mjs';
import { Timeline } from './timeline.mjs';
import { StateViews, EventLog } from './state-views.mjs';
import { commandFor, helpDialog, outcomeLabel, shortcutsEnabled } from '../shared/keyboard.mjs';
import { PRESETS, CAPSTONE_PRESETS, DEFAULT_SCENARIO } from './presets.mjs';
import { advancedSetup, behaviourFromFields, behaviours } from './setup-advanced.mjs';
import { crashDialog, snapshotDialog } from './durability.mjs';
import { linkFromHash, isScenarioLink, linkErrorMessage, siteURL, urlFor } from '../shared/url.mjs';
import { embedOptions, setHeadingLevel } from './embed-options.mjs';

// The core's outcomes (lab.outcomes) in its order, the n-th on shortcut key n;
// lesson 1 shows the first three.
const LESSON_ONE_OUTCOMES = 3;
const ALL_PRESETS = [...PRESETS, ...CAPSTONE_PRESETS];
const SPEEDS = [['1', '1 step/s'], ['2', '2 steps/s'], ['4', '4 steps/s'], ['10', '10 steps/s']];

/** Adds the playground's stylesheet to the document once (a <link>: CSP style-src 'self'). */
function ensureStylesheet(doc) {
  if (doc.querySelector('link[data-dlq-style]')) return;
  doc.head.append(h('link', { rel: 'stylesheet', href: siteURL('src/playground.css'), 'data-dlq-style': '' }));
}

function kbd(key) {
  return h('kbd', { 'aria-hidden': 'true' }, key);
}

/**
 * A refusal from the lab API: every error it throws is an Error with a string
 * `code` ('too-large', 'out-of-range', 'invalid-type', …). Anything else is a
 * bug in the page and is rethrown, never shown as if the input were wrong.
 */
function isRefusal(error) {
  return error instanceof Error && typeof error.code === 'string';
}

/**
 * Shows `message` in a field's alert and marks the field invalid; null clears both.
 * The alert is added to (and removed from) the field's aria-describedby, so a
 * hint the field already points at stays.
 */
function fieldError(input, alert, message) {
  alert.hidden = message === null;
  alert.textContent = message ?? '';
  const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((t) => t !== '' && t !== alert.id);
  if (message === null) {
    input.removeAttribute('aria-invalid');
  } else {
    input.setAttribute('aria-invalid', 'true');
    described.push(alert.id);
  }
  if (described.length > 0) input.setAttribute('aria-describedby', described.join(' '));
  else input.removeAttribute('aria-describedby');
}

/**
 * Mounts a playground into `element` (its children are replaced).
 * options.scenario  link text ('v1;…') or a scenario object; default: the a/b example
 * options.syncUrl   read the scenario from location.hash and keep the hash up to date
 *                   (one playground per page should do this); also enables page-wide shortcuts
 * options.linkBase  the page "Copy link" points at (default: the hash's page when syncUrl,
 *                   else this site's playground.html)
 * options.label     accessible name of the playground (default "Dead-letter queue playground")
 * What an embed shows (embed-options.mjs checks them; a bad one rejects, named):
 * options.features  'all' (default: lesson 1, the rest once a scenario uses it), 'basic'
 *                   (lesson 1 only) or a list of clock classes ordering operator durability world
 * options.panels    a list of setup presets controls state timeline log link (default: all)
 * options.presets   'all', 'none' or a list of preset keys
 * options.locked    a read-only walkthrough: Back, Forward, Run and the script's position only
 * options.headingLevel  2 (default) to 5: the panels' heading level
 * options.compact   a shorter playground
 * options.captions  caption i is shown (in the Why line) at script position i
 * Resolves to a controller: { element, session, load(scenario), loadOrAlert(scenario), link(),
 * checkGoal(goal), restore(), run(), toEnd(), crashAt(write), destroy() }. It dispatches 'dlq-change' on `element`
 * after every change it draws (detail: { cursor, length, stats }, stats as queue.stats()).
 */
export async function mount(element, options = {}) {
  ensureStylesheet(element.ownerDocument);
  const embed = embedOptions(options, ALL_PRESETS.map((p) => p.key));  // a bad option rejects before the core loads
  const lab = await loadLab();
  return new Playground(element, lab, options, embed);
}

class Playground {
  #lab;
  #options;
  #urlTimer = 0;
  #runTimer = 0;
  #lastHash = null;  // with sync-url: the fragment text this playground last wrote or read
  #held = null;  // with sync-url: the link shown instead of a refused hash link (see #writeHash)
  #keys = true;  // single-key shortcuts on
  #pushNext = false;  // the next hash write adds a history entry (after a preset)
  #listeners = [];
  #ui = {};

  #embed;
  #captioned = false;  // the authored script is the one options.captions belong to (options.scenario)

  constructor(element, lab, options, embed) {
    this.#lab = lab;
    this.#options = options;
    this.#embed = embed;
    this.element = element;
    const id = uid('dlq');
    this.#ui.id = id;
    const root = this.#build(id, options.label ?? 'Dead-letter queue playground');
    this.#applyEmbed(root);
    element.replaceChildren(root);
    this.root = root;

    // Start from the default, then load the given scenario exactly as a later
    // load would: a refused one leaves the default and an alert, never a blank page.
    this.session = new Session(lab, DEFAULT_SCENARIO);
    const hash = options.syncUrl ? linkFromHash(location.hash) : '';
    if (options.syncUrl) this.#lastHash = hash; // read: the first write may replace it
    if (isScenarioLink(hash)) this.#loadFromHash(hash);
    else if (options.scenario !== undefined && options.scenario !== null && options.scenario !== '') this.#loadOrAlert(options.scenario, true);
    else this.#captioned = true;
    this.#render();
    root.dataset.ready = 'true';

    this.#on(root, 'keydown', (e) => this.#onKey(e));
    if (options.syncUrl) {
      this.#on(window, 'hashchange', () => this.#onHashChange());
      this.#on(document, 'keydown', (e) => {
        if (e.target === document.body || e.target === document.documentElement) this.#onKey(e);
      });
    }
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

  /**
   * load() without drawing: the core parses link text; a refusal throws before
   * anything changes. `captioned`: the scenario is the one options.captions narrate.
   */
  #load(scenario, captioned = false) {
    this.#pause();
    this.session.load(scenario);
    this.#captioned = captioned;
    this.#clearLinkError();
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
      this.#showLinkError(error, typeof scenario === 'string' ? scenario : '');
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

  /** The link text for the current state (the core formats it). */
  link() {
    const { link } = this.session.withLink();
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
    if (after === null) this.#dialog('crash').findFirst();
    else this.#dialog('crash').crashAt(after);
  }

  destroy() {
    this.#pause();
    this.#ui.help.release();
    clearTimeout(this.#urlTimer);
    this.#urlTimer = 0;
    for (const [target, type, fn] of this.#listeners) target.removeEventListener(type, fn);
    this.timeline.destroy();
    this.session.dispose();
    this.root.remove();
  }

  // ---- building the DOM ---------------------------------------------------

  #on(target, type, fn) {
    target.addEventListener(type, fn);
    this.#listeners.push([target, type, fn]);
  }

  #build(id, label) {
    const ui = this.#ui;
    // A refused link: why, and the refused text whole (a link from a newer build
    // must stay recoverable), in a read-only field with its own Copy button.
    ui.linkAlert = h('div', { class: 'dlq-alert', role: 'alert', hidden: true });
    ui.linkAlertText = h('p', {});
    ui.refusedField = h('input', { type: 'text', readonly: true, id: `${id}-refused`, class: 'dlq-input dlq-link', spellcheck: 'false' });
    ui.refusedStatus = h('span', { class: 'dlq-refused-status' });
    ui.refused = h('div', { class: 'dlq-alert-refused' },
      h('label', { for: `${id}-refused`, class: 'dlq-label' }, 'Refused link'), ui.refusedField,
      h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#copyRefused() }, 'Copy refused link'),
      ui.refusedStatus);
    ui.linkAlert.append(h('div', { class: 'dlq-alert-body' }, ui.linkAlertText, ui.refused),
      h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', onclick: () => this.#clearLinkError() }, 'Dismiss'));

    // Presets, share, help
    const chip = (p) => h('button', {
      type: 'button', class: 'dlq-btn dlq-chip', title: p.summary, 'aria-keyshortcuts': p.key.toUpperCase(),
      onclick: () => this.#preset(p.key),
    }, p.name, kbd(p.key.toUpperCase()));
    const offered = (p) => this.#embed.presets === null || this.#embed.presets.has(p.key);
    const presets = ui.presets = h('div', { class: 'dlq-presets', role: 'group', 'aria-labelledby': `${id}-presets` },
      h('span', { class: 'dlq-label', id: `${id}-presets` }, 'Presets'), PRESETS.filter(offered).map(chip));
    const capstonePresets = ui.capstonePresets = h('div', { class: 'dlq-presets dlq-presets-capstone', role: 'group', 'aria-labelledby': `${id}-presets2` },
      h('span', { class: 'dlq-label', id: `${id}-presets2` }, 'Capstone'), CAPSTONE_PRESETS.filter(offered).map(chip));
    ui.linkField = h('input', { type: 'text', readonly: true, id: `${id}-link`, class: 'dlq-input dlq-link', spellcheck: 'false' });
    ui.shareStatus = h('span', { class: 'dlq-share-status', role: 'status' });
    const share = ui.share = h('div', { class: 'dlq-share' },
      h('label', { for: `${id}-link`, class: 'dlq-label' }, 'Link'), ui.linkField,
      ui.copy = h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#copyLink() }, 'Copy link'),
      ui.shareStatus);
    this.#keys = shortcutsEnabled();
    ui.help = helpDialog(id, { outcomes: this.#lab.outcomes, onToggle: (on) => { this.#keys = on; } });
    // The snapshot and crash dialogs are built when first opened (see #dialog).
    ui.snapshot = null;
    ui.crash = null;
    const helpButton = h('button', {
      type: 'button', class: 'dlq-btn dlq-btn-quiet', 'aria-keyshortcuts': '?', onclick: () => ui.help.showModal(),
    }, 'Shortcuts', kbd('?'));

    // Step controls
    const outcomes = this.#lab.outcomes.map((value, i) => [value, outcomeLabel(value), String(i + 1)]);
    ui.outcomes = outcomes.map(([value, name, key], i) => h('input', {
      type: 'radio', name: `${id}-outcome`, value, id: `${id}-o-${value}`, checked: i === 0,
    }));
    const radio = ([value, name, key], i) => h('label', { for: `${id}-o-${value}`, class: `dlq-radio o-${value}` },
      ui.outcomes[i], h('span', {}, name), kbd(key));
    // The capstone's three failures show once a scenario (or the Advanced set-up) uses the capstone.
    ui.moreOutcomes = h('div', { class: 'dlq-more-outcomes' }, outcomes.slice(LESSON_ONE_OUTCOMES).map((o, i) => radio(o, i + LESSON_ONE_OUTCOMES)));
    const outcome = ui.outcome = h('fieldset', { class: 'dlq-outcome' }, h('legend', {}, 'Outcome'),
      outcomes.slice(0, LESSON_ONE_OUTCOMES).map(radio), ui.moreOutcomes);
    ui.errorText = h('input', { type: 'text', id: `${id}-err`, class: 'dlq-input', placeholder: 'e.g. db timeout', autocomplete: 'off', 'aria-describedby': `${id}-err-hint` });
    ui.stepAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-step-err` });
    // The alert is about the text that was refused: editing it clears the alert.
    ui.errorText.addEventListener('input', () => fieldError(ui.errorText, ui.stepAlert, null));
    const errorField = ui.errorField = h('div', { class: 'dlq-field' },
      h('div', { class: 'dlq-label-row' }, h('label', { for: `${id}-err` }, 'Error text'),
        h('span', { class: 'dlq-hint', id: `${id}-err-hint` }, 'optional, for failures')), ui.errorText, ui.stepAlert);
    ui.step = h('button', { type: 'button', class: 'dlq-btn dlq-primary', 'aria-keyshortcuts': 'S', onclick: () => this.#step() }, 'Step', kbd('S'));
    ui.back = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'B', onclick: () => this.#navigate(this.session.cursor - 1) }, 'Back', kbd('B'));
    ui.forward = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'F', onclick: () => this.#navigate(this.session.cursor + 1) }, 'Forward', kbd('F'));
    ui.runLabel = h('span', {}, 'Run');
    ui.run = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'Space', onclick: () => this.#toggleRun() }, ui.runLabel);
    ui.speed = h('select', { id: `${id}-speed`, class: 'dlq-input' },
      SPEEDS.map(([v, text]) => h('option', { value: v, selected: v === '2' }, text)));
    ui.speed.addEventListener('change', () => {
      if (!this.#runTimer) return;
      const kind = this.#running;
      this.#pause();
      if (kind === 'play') this.#togglePlay(); else this.#run();
    });
    ui.reset = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'R', onclick: () => this.#reset() }, 'Reset', kbd('R'));
    // Embeds: back to the scenario the author gave, whatever the reader changed.
    ui.restore = h('button', { type: 'button', class: 'dlq-btn dlq-restore', hidden: this.#options.scenario === undefined || this.#options.syncUrl,
      onclick: () => this.restore() }, 'Restore lesson scenario');
    ui.scrub = h('input', { type: 'range', id: `${id}-scrub`, min: 0, max: 0, value: 0, step: 1, class: 'dlq-scrub' });
    ui.scrub.addEventListener('input', () => this.#navigate(Number(ui.scrub.value)));
    ui.position = h('output', { for: `${id}-scrub`, class: 'dlq-position' });
    // What the last edit did to the script (replaced or dropped later actions):
    // part of the Why line's live region, so a step is announced once.
    ui.scriptNote = h('span', { class: 'dlq-script-note' });
    ui.undo = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', hidden: true, 'aria-keyshortcuts': 'Z', onclick: () => this.#undo() },
      'Undo', kbd('Z'));
    ui.runStatus = h('span', { class: 'dlq-run-status' });

    // The clock, leases and the simulated workers (shown once a scenario uses the capstone).
    const button = (label, onclick, extra = {}) => h('button', { type: 'button', class: 'dlq-btn', onclick, ...extra }, label);
    ui.settleToken = h('select', { id: `${id}-token`, class: 'dlq-input' });
    ui.advanceMs = h('input', { type: 'number', id: `${id}-adv`, class: 'dlq-input dlq-narrow', min: 0, step: 1, value: 100, inputmode: 'numeric' });
    ui.clockAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-clock-err` });
    ui.playLabel = h('span', {}, 'Play');
    ui.play = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'G', onclick: () => this.#togglePlay() }, ui.playLabel, kbd('G'));
    ui.clock = h('div', { class: 'dlq-group dlq-clock-group', role: 'group', 'aria-labelledby': `${id}-clock-h` },
      h('h3', { id: `${id}-clock-h` }, 'Clock and workers'),
      h('div', { class: 'dlq-buttons' },
        ui.leaseButton = button(['Lease', kbd('L')], () => this.#act({ type: 'lease' }, 'Lease'), { 'aria-keyshortcuts': 'L' }),
        ui.nextButton = button(['Next event', kbd('N')], () => this.#nextEvent(), { 'aria-keyshortcuts': 'N' }), ui.play),
      ui.settleRow = h('div', { class: 'dlq-inline' },
        h('label', { for: `${id}-token`, class: 'dlq-label' }, 'In flight'), ui.settleToken,
        button('Settle', () => this.#settle()), button('Crash worker', () => this.#crashWorker())),
      ui.advanceRow = h('div', { class: 'dlq-inline' },
        h('label', { for: `${id}-adv`, class: 'dlq-label' }, 'Advance by (ms)'), ui.advanceMs,
        button('Advance', () => this.#advanceBy())),
      ui.clockAlert);

    // The operator: replay by id (a second replay answers false, visibly), release a key, redrive.
    ui.opId = h('input', { type: 'text', id: `${id}-opid`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    ui.opKey = h('input', { type: 'text', id: `${id}-opkey`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    ui.opMax = h('input', { type: 'number', id: `${id}-opmax`, class: 'dlq-input dlq-narrow', min: 1, step: 1, value: 10, inputmode: 'numeric' });
    ui.opAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-op-err` });
    ui.operator = h('div', { class: 'dlq-group dlq-operator', role: 'group', 'aria-labelledby': `${id}-op-h` },
      h('h3', { id: `${id}-op-h` }, 'Operator'),
      h('div', { class: 'dlq-inline' }, h('label', { for: `${id}-opid`, class: 'dlq-label' }, 'Job to replay'), ui.opId,
        button('Replay', () => this.#replay(ui.opId.value.trim(), { fromField: true }))),
      ui.opMore = h('div', { class: 'dlq-op-more' },
      ui.releaseRow = h('div', { class: 'dlq-inline' }, h('label', { for: `${id}-opkey`, class: 'dlq-label' }, 'Key to release'), ui.opKey,
        button('Release key', () => this.#act({ type: 'releaseKey', key: ui.opKey.value }, 'Release key', ui.opAlert,
          `No quarantined job holds key "${ui.opKey.value}": nothing to release.`))),
      ui.redriveRow = h('div', { class: 'dlq-inline' }, h('label', { for: `${id}-opmax`, class: 'dlq-label' }, 'Redrive up to'), ui.opMax,
        button('Redrive', () => this.#act({ type: 'redrive', max: ui.opMax.valueAsNumber }, 'Redrive', ui.opAlert,
          'The quarantine is empty: nothing to redrive.'))),
      ui.durabilityRow = h('div', { class: 'dlq-buttons' },
        button('Snapshot', () => this.#showSnapshot()),
        button('Crash and restart…', () => this.#showCrash()))),
      ui.opAlert);
    const controls = ui.controls = h('section', { class: 'dlq-panel dlq-controls', 'aria-labelledby': `${id}-controls-h` },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: `${id}-controls-h` }, 'Step controls')),
      outcome, errorField,
      h('div', { class: 'dlq-buttons dlq-nav' }, ui.step, ui.back, ui.forward, ui.reset, ui.restore),
      h('div', { class: 'dlq-buttons dlq-play' }, ui.run,
        h('label', { for: `${id}-speed`, class: 'dlq-label' }, 'Speed'), ui.speed, ui.undo, ui.runStatus),
      ui.clock, ui.operator,
      // Last in the panel: one Tab from the script's position reaches the timeline.
      h('div', { class: 'dlq-field dlq-scrubber' },
        h('label', { for: `${id}-scrub` }, 'Position in script'), ui.scrub, ui.position));

    // Set-up
    ui.maxAttempts = h('input', { type: 'number', id: `${id}-max`, min: 1, step: 1, class: 'dlq-input dlq-narrow', inputmode: 'numeric' });
    ui.maxAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-max-err` });
    ui.maxAttempts.addEventListener('change', () => this.#setMaxAttempts());
    ui.jobId = h('input', { type: 'text', id: `${id}-jobid`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    ui.payload = h('input', { type: 'text', id: `${id}-payload`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    ui.jobAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-job-err` });
    ui.jobKey = h('input', { type: 'text', id: `${id}-jobkey`, class: 'dlq-input dlq-narrow2', autocomplete: 'off', spellcheck: 'false' });
    ui.behaviour = h('select', { id: `${id}-beh`, class: 'dlq-input' }, behaviours(this.#lab.outcomes).map(([value, text]) => h('option', { value }, text)));
    ui.behaviourArg = h('input', { type: 'text', id: `${id}-beharg`, class: 'dlq-input dlq-narrow2', autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': `${id}-beharg-hint` });
    ui.jobExtra = h('div', { class: 'dlq-setup-row dlq-job-extra' },
      ui.keyField = h('div', { class: 'dlq-field' }, h('label', { for: `${id}-jobkey` }, 'Key'), ui.jobKey),
      ui.behaviourFields = h('div', { class: 'dlq-field' }, h('label', { for: `${id}-beh` }, 'Behaviour'), ui.behaviour),
      ui.behaviourDetail = h('div', { class: 'dlq-field' }, h('label', { for: `${id}-beharg` }, 'Behaviour detail'), ui.behaviourArg),
      ui.behaviourHint = h('p', { class: 'dlq-hint dlq-basis' , id: `${id}-beharg-hint` },
        'Behaviour detail: n for flaky and crashes, T in ms for precondition, letters s t p u v q c for a script. ' +
        'Behaviours play with Play, or with Run past the script.'));
    for (const input of [ui.jobId, ui.payload, ui.jobKey, ui.behaviourArg]) {
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.#addJob(); });
    }
    const setup = ui.setup = h('section', { class: 'dlq-panel dlq-setup', 'aria-labelledby': `${id}-setup-h` },
      ui.setupHead = h('div', { class: 'dlq-panel-head' }, h('h2', { id: `${id}-setup-h` }, 'Set-up'), share, helpButton),
      presets,
      h('div', { class: 'dlq-setup-row' },
        h('div', { class: 'dlq-field' }, h('label', { for: `${id}-max` }, 'Max attempts'), ui.maxAttempts),
        h('div', { class: 'dlq-field dlq-grow' }, h('label', { for: `${id}-jobid` }, 'Job id'), ui.jobId),
        h('div', { class: 'dlq-field dlq-grow2' }, h('label', { for: `${id}-payload` }, 'Payload'), ui.payload),
        h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#addJob() }, 'Add job')),
      ui.jobExtra,
      ui.maxAlert, ui.jobAlert,
      h('p', { class: 'dlq-hint' }, 'A job joins the ready tail at the current step; one that has not run yet can be removed from Ready. Presets load a script: play it with Forward or Run.'),
      capstonePresets,
      (ui.advanced = advancedSetup(id, {
        classes: this.#lab.failureClasses,
        onPolicy: (changes, alert) => this.#setPolicy(changes, alert),
        onWorld: (world, alert) => this.#setWorld(world, alert),
        onOpen: () => {
          // Built when first opened: its headings follow the embed's level then.
          if (!ui.advanced.element.dataset.levelled) {
            ui.advanced.element.dataset.levelled = 'true';
            if (this.#embed.headingLevel !== 2) {
              for (const h3 of ui.advanced.element.querySelectorAll('h3')) {
                const next = h(`h${this.#embed.headingLevel + 1}`, {}, ...h3.childNodes);
                h3.replaceWith(next);
              }
            }
          }
          this.#render();
        },
      })).element);

    // Why, timeline, state, log
    ui.whyMeta = h('span', { class: 'dlq-why-meta' });
    ui.whyText = h('span', { class: 'dlq-why-text' });
    // An author's caption for this position of the script (options.captions): in the Why line's live region.
    ui.caption = h('span', { class: 'dlq-caption', hidden: true });
    ui.why = h('p', { class: 'dlq-why', role: 'status' }, ui.caption, h('span', { class: 'dlq-why-label' }, 'Why'), ui.whyMeta, ui.whyText,
      ui.scriptNote);
    // A refused action that has no field of its own (replay, remove, moving the cursor, a preset).
    ui.actionAlert = h('p', { class: 'dlq-field-error dlq-action-error', role: 'alert', hidden: true });
    this.timeline = new Timeline({ idPrefix: id, onSelect: (seq) => this.#navigate(this.session.cursorForEvent(seq)) });
    this.states = new StateViews({ idPrefix: id, onReplay: (jobId) => this.#replay(jobId), onRemove: (jobId) => this.#removeJob(jobId) });
    this.log = new EventLog({ idPrefix: id });

    return h('section', { class: 'dlq', 'aria-label': label },
      ui.linkAlert, setup,
      h('div', { class: 'dlq-body' },
        h('div', { class: 'dlq-side' }, controls),
        h('div', { class: 'dlq-main' }, ui.actionAlert, ui.why,
          this.timeline.element, this.states.element, this.log.element)),
      ui.bar = this.#phoneBar(),
      ui.help);
  }

  /**
   * What the author chose to show (options.panels, presets, locked, compact,
   * headingLevel), applied once to the built DOM. The capabilities (features) are
   * applied on every draw, in #render, as they may depend on the scenario.
   */
  #applyEmbed(root) {
    const ui = this.#ui;
    const { panels, locked, compact, headingLevel } = this.#embed;
    const setupBody = [...ui.setup.children].filter((c) => c !== ui.setupHead && c !== ui.presets && c !== ui.capstonePresets);
    const editable = panels.has('setup') && !locked;
    for (const child of setupBody) if (!editable) child.hidden = true;
    this.#setupShown = editable;
    const presetsShown = panels.has('presets') && !locked;
    ui.presets.hidden = !presetsShown || ui.presets.querySelectorAll('button').length === 0;
    ui.capstonePresets.hidden = !presetsShown || ui.capstonePresets.querySelectorAll('button').length === 0;
    ui.share.hidden = !panels.has('link');
    // The set-up panel goes when nothing in it is shown (the help stays on "?").
    if (!editable && ui.presets.hidden && ui.capstonePresets.hidden && ui.share.hidden) ui.setup.hidden = true;
    ui.controls.hidden = !panels.has('controls');
    this.states.element.hidden = !panels.has('state');
    this.timeline.element.hidden = !panels.has('timeline');
    this.log.element.hidden = !panels.has('log');
    if (locked) {
      // A walkthrough: the script's own steps only (Back, Forward, Run, its position).
      root.classList.add('is-locked');
      for (const el of [ui.outcome, ui.errorField, ui.step, ui.clock, ui.operator]) el.hidden = true;
      ui.bar.querySelector('.dlq-primary').hidden = true;
    }
    if (!this.#options.syncUrl) {
      // Several playgrounds on one page: only each playground is a landmark (by its
      // label); its panels are named groups, so the page has no two landmarks alike.
      for (const section of root.querySelectorAll('section[aria-labelledby]')) section.setAttribute('role', 'group');
    }
    root.classList.toggle('is-compact', compact);
    root.classList.toggle('no-controls', !panels.has('controls'));
    setHeadingLevel(root, headingLevel);
  }

  #setupShown = true;

  /** Shows the capabilities the embed's features (or, by default, the scenario) call for. */
  #showFeatures() {
    const ui = this.#ui;
    const { features, locked } = this.#embed;
    const advanced = this.session.isAdvanced || ui.advanced.open;
    const has = (f) => (features === null ? advanced : features.has(f));
    const show = (el, visible) => { if (el.hidden === visible) el.hidden = !visible; };
    show(ui.moreOutcomes, has('classes'));
    const clock = has('clock');
    show(ui.clock, !locked && (clock || has('world')));
    for (const el of [ui.leaseButton, ui.nextButton, ui.settleRow, ui.advanceRow]) show(el, clock);
    show(ui.play, has('world'));
    show(ui.operator, !locked);
    show(ui.opMore, has('ordering') || has('operator') || has('durability'));
    show(ui.releaseRow, has('ordering'));
    show(ui.redriveRow, has('operator'));
    show(ui.durabilityRow, has('durability'));
    show(ui.jobExtra, this.#setupShown && (has('ordering') || has('world')));
    show(ui.keyField, has('ordering'));
    for (const el of [ui.behaviourFields, ui.behaviourDetail, ui.behaviourHint]) show(el, has('world'));
    show(ui.advanced.element, this.#setupShown && (features === null || ['clock', 'classes', 'ordering', 'world', 'durability'].some((f) => features.has(f))));
    return clock || has('world') || has('ordering') || has('operator') || has('durability') || has('classes');
  }

  #syncedGeneration = -1;
  #leaseOptions = null;

  /** The Settle list: the in-flight leases, earliest expiry first; rebuilt only when they change. */
  #syncLeases() {
    const ui = this.#ui;
    const leases = this.session.view.leased;
    const key = leases.map((l) => l.token).join(' ');
    if (key === this.#leaseOptions) return;
    this.#leaseOptions = key;
    const chosen = ui.settleToken.value;
    ui.settleToken.replaceChildren(...(leases.length === 0
      ? [h('option', { value: '' }, 'none in flight')]
      : leases.map((l) => h('option', { value: l.token, selected: l.token === chosen },
        `${l.token}: "${l.id}", expires at ${l.expiresAt} ms`))));
  }

  /**
   * The phone's sticky bar: Step, Back, Forward and the latest explanation stay
   * on screen beside what changed. It repeats controls the panel has, so it is
   * hidden from assistive technology and the tab order (the panel's are the real
   * ones); CSS shows it on narrow screens only.
   */
  #phoneBar() {
    const ui = this.#ui;
    const twin = (label, onclick) => h('button', { type: 'button', class: 'dlq-btn', tabindex: '-1', onclick }, label);
    ui.barText = h('span', { class: 'dlq-bar-text' });
    return h('div', { class: 'dlq-bar', 'aria-hidden': 'true' },
      twin('Back', () => this.#navigate(this.session.cursor - 1)),
      h('button', { type: 'button', class: 'dlq-btn dlq-primary', tabindex: '-1', onclick: () => this.#step() }, 'Step'),
      twin('Forward', () => this.#navigate(this.session.cursor + 1)),
      ui.barText);
  }

  // ---- scenario sources -----------------------------------------------------

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

  /** Shows why a link was refused, and the refused text whole, so its author can mend or keep it. */
  #showLinkError(error, text = '') {
    const ui = this.#ui;
    ui.linkAlertText.textContent = linkErrorMessage(error);
    ui.refused.hidden = text === '';
    ui.refusedField.value = text === '' ? '' : `#${text}`;
    ui.refusedStatus.textContent = '';
    ui.linkAlert.hidden = false;
  }

  #clearLinkError() {
    const ui = this.#ui;
    ui.linkAlert.hidden = true;
    ui.linkAlertText.textContent = '';
    ui.refusedField.value = '';
    ui.refusedStatus.textContent = '';
  }

  async #copyRefused() {
    const { refusedField, refusedStatus } = this.#ui;
    try {
      await navigator.clipboard.writeText(refusedField.value);
      refusedStatus.textContent = 'Copied.';
    } catch {
      refusedField.focus();
      refusedField.select();
      refusedStatus.textContent = 'Copying is blocked here: the link is selected, copy it with Ctrl+C.';
    }
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
    return (message) => {
      this.#ui.actionAlert.textContent = `${what}: ${message}.`;
      this.#ui.actionAlert.hidden = false;
    };
  }

  #outcome() {
    return this.#ui.outcomes.find((r) => r.checked)?.value ?? 'success';
  }

  /**
   * Step with the chosen outcome; false when nothing is ready or the step was
   * refused. `quiet` (a run reaching its end) keeps the last explanation on show.
   */
  #step(outcome = this.#outcome(), { quiet = false } = {}) {
    const { errorText, stepAlert } = this.#ui;
    const text = outcome === 'success' ? '' : errorText.value;
    let stepped = false;
    const accepted = this.#attempt(() => { stepped = this.session.step(outcome, text); },
      (message) => fieldError(errorText, stepAlert, `Step not taken: ${message}.`));
    if (!accepted) return false;
    fieldError(errorText, stepAlert, null);
    if (!stepped) {
      if (quiet) this.#ui.runStatus.textContent = 'Run ended: nothing is ready.';
      else this.#render({ notice: 'Nothing is ready: there is no job to process.' });
      return false;
    }
    this.#render();
    return true;
  }

  /**
   * One capstone action (lease, settle, advance, advanceToNext, releaseKey,
   * redrive) through the session; `nothing` is what to say when the core finds
   * nothing to do. True when the action was taken.
   */
  #act(action, what, alert = this.#ui.clockAlert, nothing = 'Nothing is ready: there is no job to lease.') {
    this.#pause();
    let taken = false;
    const accepted = this.#attempt(() => { taken = this.session.act(action); }, (message) => {
      alert.textContent = `${what} not taken: ${message}.`;
      alert.hidden = false;
    });
    if (!accepted) return false;
    alert.hidden = true;
    alert.textContent = '';
    if (!taken) {
      this.#render({ notice: nothing });
      return false;
    }
    this.#render();
    return true;
  }

  /** The in-flight lease chosen in the Settle list (the earliest to expire by default), or null. */
  #chosenLease() {
    const token = this.#ui.settleToken.value;
    return this.session.view.leased.find((l) => l.token === token) ?? null;
  }

  #settle() {
    const lease = this.#chosenLease();
    if (lease === null) {
      this.#render({ notice: 'Nothing is in flight: lease a job first.' });
      return;
    }
    const outcome = this.#outcome();
    const error = outcome === 'success' ? '' : this.#ui.errorText.value;
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
    this.#act({ type: 'advanceToNext' }, 'Next event', this.#ui.clockAlert, 'Nothing is waiting on the clock: no due time, lease or retention is pending.');
  }

  #advanceBy() {
    const { advanceMs } = this.#ui;
    const ms = advanceMs.value.trim() === '' ? NaN : advanceMs.valueAsNumber;
    this.#act({ type: 'advance', ms }, 'Advance');
  }

  /** Applies policy changes (the Advanced set-up, the crash dialog's order); a refusal goes to `alert`. */
  #setPolicy(changes, alert) {
    return this.#edit(() => this.session.setPolicy(changes), alert);
  }

  #setWorld(world, alert) {
    return this.#edit(() => this.session.setWorld(world), alert);
  }

  /** An edit the core may refuse: the refusal is said in `alert` (nothing changed), else the page redraws. */
  #edit(change, alert) {
    this.#pause();
    const accepted = this.#attempt(change, (message) => {
      alert.textContent = `Not changed: ${message}.`;
      alert.hidden = false;
    });
    if (!accepted) return false;
    alert.hidden = true;
    alert.textContent = '';
    this.#render();
    return true;
  }

  #undo() {
    this.#pause();
    if (!this.#attempt(() => this.session.undo(), this.#refusedAs('Undo failed'))) return;
    this.#render({ notice: 'Undone: the script is back as it was before the change.' });
  }

  /** The snapshot or crash dialog, built on first use (most readers never open them). */
  #dialog(which) {
    const ui = this.#ui;
    if (ui[which] === null) {
      const id = this.#ui.id;
      ui[which] = which === 'snapshot' ? snapshotDialog(id)
        : crashDialog(id, {
          lab: this.#lab,
          onUnsafe: (on) => this.#setPolicy({ unsafeQuarantineOrder: on }, ui.crash.alert),
          onCrash: (after, torn) => this.#crash(after, torn),
        });
      this.root.append(ui[which]);
    }
    return ui[which];
  }

  #showSnapshot() {
    let text = '';
    if (!this.#attempt(() => { text = this.session.queue.snapshotText(); }, this.#refusedAs('No snapshot'))) return;
    this.#dialog('snapshot').show(text);
  }

  #showCrash() {
    this.#pause();
    this.#crashedAt = null;
    this.#dialog('crash').show(this.session);
  }

  #crashedAt = null;  // the cursor right after the crash the open dialog carried out

  /**
   * The crash dialog's crash, as a script action: the recovered queue is the
   * state from then on (time travel and links carry it). A second try from the
   * same dialog replaces its first, so the reader can compare writes.
   */
  #crash(after, torn) {
    const alert = this.#ui.crash.alert;
    if (this.#crashedAt !== null && this.session.cursor === this.#crashedAt) this.session.goTo(this.#crashedAt - 1);
    const done = this.#act({ type: 'crash', after, torn }, 'Crash and restart', alert);
    this.#crashedAt = done ? this.session.cursor : null;
    return done;
  }

  #replay(id, { fromField = false } = {}) {
    this.#pause();
    let replayed = false;
    if (!this.#attempt(() => { replayed = this.session.replay(id); }, this.#refusedAs(`Replay of "${id}" refused`))) return;
    if (!replayed) {
      this.#render({ notice: fromField
        ? `replay("${id}") returned false: "${id}" is not in quarantine at this step, so nothing changed.`
        : `"${id}" is not in quarantine at this step.` });
      return;
    }
    this.#render();
    // The replayed entry's button is gone; keep keyboard focus somewhere sensible.
    if (!this.root.contains(document.activeElement) || document.activeElement === document.body) this.#ui.step.focus();
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
    const scenario = () => (preset.scenario.world ? this.#lab.playWorld(preset.scenario) : preset.scenario);
    if (!this.#attempt(() => this.#load(scenario()), this.#refusedAs(`The preset "${preset.name}" was not loaded`))) return;
    this.#pushNext = true;
    if (preset.crash) {
      // The crash presets play their script, then open Crash and restart at the write that matters.
      this.#goTo(this.session.length);
      this.#render({ notice: `${preset.name}: ${preset.summary}` });
      this.#showCrash();
      this.#dialog('crash').findFirst();
      return;
    }
    this.#render({ notice: `${preset.name}: ${preset.summary} Press Run or Forward to play it.` });
  }

  #addJob() {
    const { jobId, payload, jobAlert, jobKey, behaviour, behaviourArg } = this.#ui;
    const key = jobKey.value === '' ? null : jobKey.value;
    let chosen = null;
    const accepted = this.#attempt(() => {
      chosen = behaviourFromFields(behaviour.value, behaviourArg.value);
      this.session.addJob(jobId.value, payload.value, { key, behaviour: chosen });
    }, (message) => fieldError(jobId, jobAlert, `Could not add the job: ${message}.`));
    if (!accepted) return;
    fieldError(jobId, jobAlert, null);
    jobId.value = '';
    payload.value = '';
    jobKey.value = '';
    behaviourArg.value = '';
    behaviour.value = 'healthy';
    this.#render();
    jobId.focus();
  }

  #removeJob(id) {
    const wasFocused = this.root.contains(document.activeElement);
    if (!this.#attempt(() => this.session.removeJob(id), this.#refusedAs(`Could not remove "${id}"`))) return;
    this.#render();
    if (wasFocused && (document.activeElement === document.body || !document.activeElement)) this.#ui.jobId.focus();
  }

  #setMaxAttempts() {
    const { maxAttempts, maxAlert } = this.#ui;
    const current = String(this.session.view.policy.maxAttempts);
    this.#pause();
    if (maxAttempts.value.trim() === '') {
      fieldError(maxAttempts, maxAlert, `Max attempts unchanged: the field is empty; enter a whole number from 1 to ${this.#lab.maxAttemptsLimit}.`);
      maxAttempts.value = current;
      return;
    }
    const accepted = this.#attempt(() => this.session.setMaxAttempts(maxAttempts.valueAsNumber), (message) => {
      fieldError(maxAttempts, maxAlert, `Max attempts unchanged (still ${current}): ${message}.`);
      maxAttempts.value = current;
    });
    if (!accepted) return;
    fieldError(maxAttempts, maxAlert, null);
    this.#render();
  }

  // ---- run / pause ----------------------------------------------------------

  #toggleRun() {
    if (this.#runTimer) this.#pause(); else this.#run();
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
      this.#ui.runStatus.textContent = 'Played to the end: nothing more will happen.';
      return false;
    }
    this.#render();
    return true;
  }

  #running = null;

  #startTimer(kind, tick) {
    const interval = 1000 / Number(this.#ui.speed.value);
    this.#running = kind;
    const label = kind === 'run' ? this.#ui.runLabel : this.#ui.playLabel;
    const button = kind === 'run' ? this.#ui.run : this.#ui.play;
    label.textContent = 'Pause';
    button.classList.add('is-running');
    this.#ui.runStatus.textContent = '';
    this.#runTimer = setInterval(() => {
      if (!tick()) this.#pause(); // the end, or a refusal (already shown)
    }, interval);
  }

  #pause() {
    if (!this.#runTimer) return;
    clearInterval(this.#runTimer);
    this.#runTimer = 0;
    this.#running = null;
    this.#ui.runLabel.textContent = 'Run';
    this.#ui.playLabel.textContent = 'Play';
    this.#ui.run.classList.remove('is-running');
    this.#ui.play.classList.remove('is-running');
  }

  // ---- keyboard -------------------------------------------------------------

  #onKey(e) {
    if (this.#ui.help.open || !this.#keys) return;
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
      case 'lease': this.#act({ type: 'lease' }, 'Lease'); break;
      case 'next': this.#nextEvent(); break;
      case 'undo': if (this.session.canUndo) this.#undo(); break;
      case 'reset': this.#reset(); break;
      case 'outcome': {
        const radio = this.#ui.outcomes[Number(arg) - 1];
        if (radio) radio.checked = true;
        break;
      }
      case 'preset': this.#preset(arg); break;
      case 'help': this.#ui.help.showModal(); break;
      default: break;
    }
  }

  // ---- drawing --------------------------------------------------------------

  /** Brings every view up to date with the session's view; only what changed is touched. */
  #render({ notice } = {}) {
    const { session } = this;
    const { view } = session;
    const ui = this.#ui;
    ui.actionAlert.hidden = true; // a refusal holds until the next change is drawn
    ui.actionAlert.textContent = '';
    const { stats, cursor, length } = view;
    const applied = view.eventsAtCursor;
    this.timeline.sync(view.timeline, view.eventsFrom, applied, stats.step, stats.now);
    this.log.sync(view.timeline, view.eventsFrom, applied);
    this.states.sync(view, { removable: this.#setupShown, clock: this.timeline.usesClock });

    ui.back.setAttribute('aria-disabled', String(cursor === 0));
    ui.forward.setAttribute('aria-disabled', String(cursor === length));
    ui.scrub.max = String(length);
    ui.scrub.value = String(cursor);
    ui.position.textContent = `step ${stats.step} · action ${cursor} of ${length}`;
    if (document.activeElement !== ui.maxAttempts) ui.maxAttempts.value = String(stats.maxAttempts);
    this.root.dataset.step = String(stats.step);
    this.root.dataset.cursor = String(cursor);

    // Why: the core's own sentence for the last action (its first event, a crash's recovery, the clock).
    const event = view.last.event;
    if (notice) {
      ui.whyMeta.textContent = '';
      ui.whyText.textContent = notice;
    } else if (view.last.action !== null) {
      ui.whyMeta.textContent = event ? `step ${event.step} · "${event.id}"` : `step ${stats.step}`;
      ui.whyText.textContent = view.last.explanation;
    } else {
      ui.whyMeta.textContent = 'step 0';
      ui.whyText.textContent = length > 0
        ? 'Set-up done. Choose an outcome and press Step, or press Forward / Run to play the script.'
        : 'Set-up done. Choose an outcome and press Step.';
    }
    ui.why.classList.toggle('is-notice', Boolean(notice));
    const { dropped } = view;
    if (dropped) {
      const n = `${dropped.count} later action${dropped.count === 1 ? '' : 's'}`;
      ui.scriptNote.textContent = dropped.replayed
        ? `The simulated world played the script past this point again under the new set-up (${n} replaced; Undo brings them back).`
        : (dropped.reason === null
        ? `This change replaced the script's ${n} (Undo brings them back).`
        : `The script's ${n} no longer ${dropped.count === 1 ? 'applies' : 'apply'} and ${dropped.count === 1 ? 'was' : 'were'} dropped: ${dropped.reason}.`);
    } else if (!notice) {
      ui.scriptNote.textContent = '';
    }
    ui.undo.hidden = !(dropped && view.canUndo);
    ui.barText.textContent = `${ui.whyText.textContent} ${ui.scriptNote.textContent}`.trim();

    // An author's caption narrates the authored script: it holds only while the
    // history up to the cursor is that script's (the learner may have diverged).
    const captions = this.#embed.captions;
    const authored = this.#captioned && cursor <= view.authoredThrough;
    const caption = authored ? captions?.[Math.min(cursor, captions.length - 1)] ?? '' : '';
    if (ui.caption.textContent !== caption) ui.caption.textContent = caption;
    if (ui.caption.hidden !== (caption === '')) ui.caption.hidden = caption === '';

    // The capstone's controls: the embed's features, or once the scenario (or the reader, opening Advanced) uses them.
    const advanced = this.#showFeatures();
    // The policy and the world change only with a load or a set-up change: redraw them then.
    if (this.#syncedGeneration !== view.generation) {
      this.#syncedGeneration = view.generation;
      ui.advanced.sync(view.policy, view.world);
    }
    if (advanced) this.#syncLeases();
    this.#scheduleLink();
    this.element.dispatchEvent(new CustomEvent('dlq-change', {
      detail: { cursor, length, stats, recovered: view.last.action?.type === 'crash' },
    }));
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
    const ui = this.#ui;
    let link;
    try {
      link = this.link();
    } catch (error) {
      if (!isRefusal(error)) throw error;
      ui.linkField.value = '';
      ui.linkField.placeholder = 'too large for a link';
      ui.shareStatus.textContent = `No link: ${error.message}.`;
      ui.copy.disabled = true;
      this.#currentUrl = null;
      this.#writeHash('');
      return;
    }
    const url = this.#linkUrl(link);
    // A status about an earlier link ("No link", "Link copied.") no longer holds.
    if (url !== this.#currentUrl) ui.shareStatus.textContent = '';
    this.#currentUrl = url;
    ui.linkField.value = url;
    ui.copy.disabled = false;
    this.#writeHash(link);
  }

  #currentUrl = null;

  async #copyLink() {
    this.#flushLink(true);
    const ui = this.#ui;
    if (!this.#currentUrl) return;
    try {
      await navigator.clipboard.writeText(this.#currentUrl);
      ui.shareStatus.textContent = 'Link copied.';
    } catch {
      ui.linkField.focus();
      ui.linkField.select();
      ui.shareStatus.textContent = 'Copying is blocked here: the link is selected, copy it with Ctrl+C.';
    }
  }
}
