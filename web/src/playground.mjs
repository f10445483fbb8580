// mount(element, options): one independent playground inside `element`.
// It wires the set-up form, step controls, timeline, state lists and event log
// to a Session (model.mjs). JS only adapts and draws: outcomes go to the core,
// and every sentence about a rule is the core's event `explanation`.
import { loadLab } from '../wasm/index.mjs';
import { h, uid } from './dom.mjs';
import { Session } from './model.mjs';
import { Timeline } from './timeline.mjs';
import { StateViews, EventLog } from './state-views.mjs';
import { commandFor, helpDialog, shortcutsEnabled } from './keyboard.mjs';
import { PRESETS, DEFAULT_SCENARIO } from './presets.mjs';
import { linkFromHash, isScenarioLink, linkErrorMessage, urlFor } from './url.mjs';

const OUTCOMES = [['success', 'Success', '1'], ['transient', 'Transient failure', '2'], ['permanent', 'Permanent failure', '3']];
const SPEEDS = [['1', '1 step/s'], ['2', '2 steps/s'], ['4', '4 steps/s'], ['10', '10 steps/s']];

/** Adds the playground's stylesheet to the document once (a <link>: CSP style-src 'self'). */
function ensureStylesheet(doc) {
  if (doc.querySelector('link[data-dlq-style]')) return;
  doc.head.append(h('link', { rel: 'stylesheet', href: new URL('./playground.css', import.meta.url).href, 'data-dlq-style': '' }));
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
 *                   else this site's index.html)
 * options.label     accessible name of the playground (default "Dead-letter queue playground")
 * Resolves to a controller: { element, session, load(scenario), link(), destroy() }.
 */
export async function mount(element, options = {}) {
  ensureStylesheet(element.ownerDocument);
  const lab = await loadLab();
  return new Playground(element, lab, options);
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

  constructor(element, lab, options) {
    this.#lab = lab;
    this.#options = options;
    this.element = element;
    const id = uid('dlq');
    this.#ui.id = id;
    const root = this.#build(id, options.label ?? 'Dead-letter queue playground');
    element.replaceChildren(root);
    this.root = root;

    // Start from the default, then load the given scenario exactly as a later
    // load would: a refused one leaves the default and an alert, never a blank page.
    this.session = new Session(lab, DEFAULT_SCENARIO);
    const hash = options.syncUrl ? linkFromHash(location.hash) : '';
    if (options.syncUrl) this.#lastHash = hash; // read: the first write may replace it
    if (isScenarioLink(hash)) this.#loadFromHash(hash);
    else if (options.scenario !== undefined && options.scenario !== null && options.scenario !== '') this.#loadOrAlert(options.scenario);
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

  /** load() without drawing: the core parses link text; a refusal throws before anything changes. */
  #load(scenario) {
    const parsed = typeof scenario === 'string' ? this.#lab.parseScenario(scenario) : scenario;
    this.#pause();
    this.session.load(parsed);
    this.#clearLinkError();
  }

  /** #load(), or on a refusal the default scenario and the link alert; false then. */
  #loadOrAlert(scenario) {
    try {
      this.#load(scenario);
      return true;
    } catch (error) {
      this.#pause();
      if (!isRefusal(error)) throw error;
      this.session.load(DEFAULT_SCENARIO);
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
    return this.#lab.formatScenario(this.session.scenario);
  }

  destroy() {
    this.#pause();
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
    const presets = h('div', { class: 'dlq-presets', role: 'group', 'aria-labelledby': `${id}-presets` },
      h('span', { class: 'dlq-label', id: `${id}-presets` }, 'Presets'),
      PRESETS.map((p) => h('button', {
        type: 'button', class: 'dlq-btn dlq-chip', title: p.summary, 'aria-keyshortcuts': p.key.toUpperCase(),
        onclick: () => this.#preset(p.key),
      }, p.name, kbd(p.key.toUpperCase()))));
    ui.linkField = h('input', { type: 'text', readonly: true, id: `${id}-link`, class: 'dlq-input dlq-link', spellcheck: 'false' });
    ui.shareStatus = h('span', { class: 'dlq-share-status', role: 'status' });
    const share = h('div', { class: 'dlq-share' },
      h('label', { for: `${id}-link`, class: 'dlq-label' }, 'Link'), ui.linkField,
      ui.copy = h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#copyLink() }, 'Copy link'),
      ui.shareStatus);
    this.#keys = shortcutsEnabled();
    ui.help = helpDialog(id, { onToggle: (on) => { this.#keys = on; } });
    const helpButton = h('button', {
      type: 'button', class: 'dlq-btn dlq-btn-quiet', 'aria-keyshortcuts': '?', onclick: () => ui.help.showModal(),
    }, 'Shortcuts', kbd('?'));

    // Step controls
    ui.outcomes = OUTCOMES.map(([value, name, key], i) => h('input', {
      type: 'radio', name: `${id}-outcome`, value, id: `${id}-o-${value}`, checked: i === 0,
    }));
    const outcome = h('fieldset', { class: 'dlq-outcome' }, h('legend', {}, 'Outcome'),
      OUTCOMES.map(([value, name, key], i) => h('label', { for: `${id}-o-${value}`, class: `dlq-radio o-${value}` },
        ui.outcomes[i], h('span', {}, name), kbd(key))));
    ui.errorText = h('input', { type: 'text', id: `${id}-err`, class: 'dlq-input', placeholder: 'e.g. db timeout', autocomplete: 'off', 'aria-describedby': `${id}-err-hint` });
    ui.stepAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-step-err` });
    // The alert is about the text that was refused: editing it clears the alert.
    ui.errorText.addEventListener('input', () => fieldError(ui.errorText, ui.stepAlert, null));
    const errorField = h('div', { class: 'dlq-field' },
      h('div', { class: 'dlq-label-row' }, h('label', { for: `${id}-err` }, 'Error text'),
        h('span', { class: 'dlq-hint', id: `${id}-err-hint` }, 'optional, for failures')), ui.errorText, ui.stepAlert);
    ui.step = h('button', { type: 'button', class: 'dlq-btn dlq-primary', 'aria-keyshortcuts': 'S', onclick: () => this.#step() }, 'Step', kbd('S'));
    ui.back = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'B', onclick: () => this.#navigate(this.session.cursor - 1) }, 'Back', kbd('B'));
    ui.forward = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'F', onclick: () => this.#navigate(this.session.cursor + 1) }, 'Forward', kbd('F'));
    ui.runLabel = h('span', {}, 'Run');
    ui.run = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'Space', onclick: () => this.#toggleRun() }, ui.runLabel);
    ui.speed = h('select', { id: `${id}-speed`, class: 'dlq-input' },
      SPEEDS.map(([v, text]) => h('option', { value: v, selected: v === '2' }, text)));
    ui.speed.addEventListener('change', () => { if (this.#runTimer) { this.#pause(); this.#run(); } });
    ui.reset = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'R', onclick: () => this.#reset() }, 'Reset', kbd('R'));
    ui.scrub = h('input', { type: 'range', id: `${id}-scrub`, min: 0, max: 0, value: 0, step: 1, class: 'dlq-scrub' });
    ui.scrub.addEventListener('input', () => this.#navigate(Number(ui.scrub.value)));
    ui.position = h('output', { for: `${id}-scrub`, class: 'dlq-position' });
    // What the last edit did to the script (replaced or dropped later actions).
    ui.scriptNote = h('p', { class: 'dlq-script-note', role: 'status' });
    const controls = h('section', { class: 'dlq-panel dlq-controls', 'aria-labelledby': `${id}-controls-h` },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: `${id}-controls-h` }, 'Step controls')),
      outcome, errorField,
      h('div', { class: 'dlq-buttons dlq-nav' }, ui.step, ui.back, ui.forward, ui.reset),
      h('div', { class: 'dlq-buttons dlq-play' }, ui.run,
        h('label', { for: `${id}-speed`, class: 'dlq-label' }, 'Speed'), ui.speed),
      h('div', { class: 'dlq-field dlq-scrubber' },
        h('label', { for: `${id}-scrub` }, 'Position in script'), ui.scrub, ui.position, ui.scriptNote));

    // Set-up
    ui.maxAttempts = h('input', { type: 'number', id: `${id}-max`, min: 1, step: 1, class: 'dlq-input dlq-narrow', inputmode: 'numeric' });
    ui.maxAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-max-err` });
    ui.maxAttempts.addEventListener('change', () => this.#setMaxAttempts());
    ui.jobId = h('input', { type: 'text', id: `${id}-jobid`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    ui.payload = h('input', { type: 'text', id: `${id}-payload`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    ui.jobAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-job-err` });
    for (const input of [ui.jobId, ui.payload]) {
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.#addJob(); });
    }
    const setup = h('section', { class: 'dlq-panel dlq-setup', 'aria-labelledby': `${id}-setup-h` },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: `${id}-setup-h` }, 'Set-up'), share, helpButton),
      presets,
      h('div', { class: 'dlq-setup-row' },
        h('div', { class: 'dlq-field' }, h('label', { for: `${id}-max` }, 'Max attempts'), ui.maxAttempts),
        h('div', { class: 'dlq-field dlq-grow' }, h('label', { for: `${id}-jobid` }, 'Job id'), ui.jobId),
        h('div', { class: 'dlq-field dlq-grow2' }, h('label', { for: `${id}-payload` }, 'Payload'), ui.payload),
        h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#addJob() }, 'Add job')),
      ui.maxAlert, ui.jobAlert,
      h('p', { class: 'dlq-hint' }, 'A job joins the ready tail at the current step; one that has not run yet can be removed from Ready. Presets load a script: play it with Forward or Run.'));

    // Why, timeline, state, log
    ui.whyMeta = h('span', { class: 'dlq-why-meta' });
    ui.whyText = h('span', { class: 'dlq-why-text' });
    ui.why = h('p', { class: 'dlq-why', role: 'status' }, h('span', { class: 'dlq-why-label' }, 'Why'), ui.whyMeta, ui.whyText);
    // A refused action that has no field of its own (replay, remove, moving the cursor, a preset).
    ui.actionAlert = h('p', { class: 'dlq-field-error dlq-action-error', role: 'alert', hidden: true });
    this.timeline = new Timeline({ idPrefix: id, onSelect: (seq) => this.#navigate(this.session.cursorForEvent(seq)) });
    this.states = new StateViews({ idPrefix: id, onReplay: (jobId) => this.#replay(jobId), onRemove: (jobId) => this.#removeJob(jobId) });
    this.log = new EventLog({ idPrefix: id });

    return h('section', { class: 'dlq', 'aria-label': label },
      ui.linkAlert, setup,
      h('div', { class: 'dlq-body' },
        h('div', { class: 'dlq-side' }, controls),
        h('div', { class: 'dlq-main' }, ui.actionAlert, ui.why, this.timeline.element, this.states.element, this.log.element)),
      ui.help);
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

  /** Step with the chosen outcome; false when nothing is ready or the step was refused. */
  #step(outcome = this.#outcome()) {
    const { errorText, stepAlert } = this.#ui;
    const text = outcome === 'success' ? '' : errorText.value;
    let result = null;
    const accepted = this.#attempt(() => { result = this.session.step(outcome, text); },
      (message) => fieldError(errorText, stepAlert, `Step not taken: ${message}.`));
    if (!accepted) return false;
    fieldError(errorText, stepAlert, null);
    if (result === null) {
      this.#render({ notice: 'Nothing is ready: there is no job to process.' });
      return false;
    }
    this.#render();
    return true;
  }

  #replay(id) {
    this.#pause();
    let replayed = false;
    if (!this.#attempt(() => { replayed = this.session.replay(id); }, this.#refusedAs(`Replay of "${id}" refused`))) return;
    if (!replayed) {
      this.#render({ notice: `"${id}" is not in quarantine at this step.` });
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
    const preset = PRESETS.find((p) => p.key === key);
    this.#flushLink();
    if (!this.#attempt(() => this.#load(preset.scenario), this.#refusedAs(`The preset "${preset.name}" was not loaded`))) return;
    this.#pushNext = true;
    this.#render();
  }

  #addJob() {
    const { jobId, payload, jobAlert } = this.#ui;
    const accepted = this.#attempt(() => this.session.addJob(jobId.value, payload.value),
      (message) => fieldError(jobId, jobAlert, `Could not add the job: ${message}.`));
    if (!accepted) return;
    fieldError(jobId, jobAlert, null);
    jobId.value = '';
    payload.value = '';
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
    const current = String(this.session.scenario.maxAttempts);
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

  /** Plays the rest of the script; past its end, steps with the chosen outcome until nothing is ready. */
  #run() {
    const interval = 1000 / Number(this.#ui.speed.value);
    this.#ui.runLabel.textContent = 'Pause';
    this.#ui.run.classList.add('is-running');
    this.#runTimer = setInterval(() => {
      const { session } = this;
      const moved = session.cursor < session.length ? this.#goTo(session.cursor + 1) : this.#step();
      if (!moved) this.#pause(); // nothing ready, or a refusal (already shown)
    }, interval);
  }

  #pause() {
    if (!this.#runTimer) return;
    clearInterval(this.#runTimer);
    this.#runTimer = 0;
    this.#ui.runLabel.textContent = 'Run';
    this.#ui.run.classList.remove('is-running');
  }

  // ---- keyboard -------------------------------------------------------------

  #onKey(e) {
    if (this.#ui.help.open || !this.#keys) return;
    const command = commandFor(e);
    if (!command) return;
    e.preventDefault();
    const [name, arg] = command.split(':');
    switch (name) {
      case 'step': this.#step(); break;
      case 'back': this.#navigate(this.session.cursor - 1); break;
      case 'forward': this.#navigate(this.session.cursor + 1); break;
      case 'run': this.#toggleRun(); break;
      case 'reset': this.#reset(); break;
      case 'outcome': this.#ui.outcomes.find((r) => r.value === arg).checked = true; break;
      case 'preset': this.#preset(arg); break;
      case 'help': this.#ui.help.showModal(); break;
      default: break;
    }
  }

  // ---- drawing --------------------------------------------------------------

  /** Brings every view up to date with the session; only what changed is touched. */
  #render({ notice } = {}) {
    const { session } = this;
    const ui = this.#ui;
    ui.actionAlert.hidden = true; // a refusal holds until the next change is drawn
    ui.actionAlert.textContent = '';
    const dirty = session.takeDirty();
    const applied = session.eventsAtCursor;
    const stats = session.queue.stats();
    this.timeline.sync(session.events, dirty, applied, stats.step);
    this.log.sync(session.events, dirty, applied);
    this.states.sync(session.queue, stats, (jobId) => session.isRemovable(jobId));

    const { cursor, length } = session;
    ui.back.setAttribute('aria-disabled', String(cursor === 0));
    ui.forward.setAttribute('aria-disabled', String(cursor === length));
    ui.scrub.max = String(length);
    ui.scrub.value = String(cursor);
    ui.position.textContent = `step ${stats.step} · action ${cursor} of ${length}`;
    if (document.activeElement !== ui.maxAttempts) ui.maxAttempts.value = String(stats.maxAttempts);
    this.root.dataset.step = String(stats.step);
    this.root.dataset.cursor = String(cursor);

    const event = session.lastActionEvent();
    if (notice) {
      ui.whyMeta.textContent = '';
      ui.whyText.textContent = notice;
    } else if (event) {
      ui.whyMeta.textContent = `step ${event.step} · "${event.id}"`;
      ui.whyText.textContent = event.explanation;
    } else {
      ui.whyMeta.textContent = 'step 0';
      ui.whyText.textContent = length > 0
        ? 'Set-up done. Choose an outcome and press Step, or press Forward / Run to play the script.'
        : 'Set-up done. Choose an outcome and press Step.';
    }
    ui.why.classList.toggle('is-notice', Boolean(notice));
    const dropped = session.takeDropped();
    if (dropped) {
      const n = `${dropped.count} later action${dropped.count === 1 ? '' : 's'}`;
      ui.scriptNote.textContent = dropped.reason === null
        ? `This change replaced the script's ${n}.`
        : `The script's ${n} no longer ${dropped.count === 1 ? 'applies' : 'apply'} and ${dropped.count === 1 ? 'was' : 'were'} dropped: ${dropped.reason}.`;
    } else if (!notice) {
      ui.scriptNote.textContent = '';
    }
    this.#scheduleLink();
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
    const base = this.#options.linkBase ?? (this.#options.syncUrl ? location.href : new URL('../index.html', import.meta.url).href);
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
