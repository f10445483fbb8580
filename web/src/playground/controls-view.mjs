// @ts-check
// The "Step controls" panel and the phone's sticky bar: views only. Each builds
// its DOM once and says what the reader did through bindX(handler); the
// controller (controller.mjs) decides what happens and tells the view what to
// show. Nothing here calls the core.
import { h, fieldError, alertText } from '../shared/dom.mjs';
import { kbd, outcomeLabel } from '../shared/keyboard.mjs';

// The core's outcomes (lab.outcomes) in its order, the n-th on shortcut key n;
// lesson 1 shows the first three.
const LESSON_ONE_OUTCOMES = 3;
const SPEEDS = [['1', '1 step/s'], ['2', '2 steps/s'], ['5', '5 steps/s'], ['10', '10 steps/s'], ['20', '20 steps/s']];
/**
 * The speed Run starts at until the reader picks one: slow enough to follow one
 * step at a time by hand, and for a clock playground (whose exercises play tens
 * of leases, settles and waits) fast enough to play an exercise in a few seconds.
 */
export const DEFAULT_SPEED = { steps: '2', clock: '20' };

const on = (el, handler, type = 'click') => el.addEventListener(type, () => handler());
const button = (label, extra = {}) => h('button', { type: 'button', class: 'dlq-btn', ...extra }, label);

/**
 * Outcome, error text, Step / Back / Forward / Reset / Discard my changes, Run and its
 * speed, Undo, the clock and workers, the operator, and the script's position.
 */
export class ControlsView {
  #leaseOptions = null;  // the Settle list's tokens as last drawn

  /** `outcomes`: the core's (lab.outcomes); `restorable`: show Discard my changes (the lesson scenario again). */
  constructor(id, { outcomes, restorable, classes = [], reasons = [], perSecond = { min: 1, max: 1000 } }) {
    this.#buildOutcome(id, outcomes);
    this.#buildNavigation(id, restorable);
    this.#buildClock(id);
    this.#buildOperator(id, { classes, reasons, perSecond });
    this.element = h('section', { class: 'dlq-panel dlq-controls', 'aria-labelledby': `${id}-controls-h` },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: `${id}-controls-h` }, 'Step controls')),
      this.outcome, this.errorField,
      h('div', { class: 'dlq-buttons dlq-nav' }, this.step, this.back, this.forward, this.reset),
      h('div', { class: 'dlq-buttons dlq-play' }, this.run,
        h('label', { for: `${id}-speed`, class: 'dlq-label' }, 'Speed'), this.speed, this.undo, this.runStatus),
      this.restoreRow,
      this.clock, this.operator,
      // Last in the panel: one Tab from the script's position reaches the timeline.
      h('div', { class: 'dlq-field dlq-scrubber' },
        h('label', { for: `${id}-scrub` }, 'Position in script'), this.scrub, this.position));
  }

  /** The outcome radios (the capstone's behind moreOutcomes), the error text and its alert. */
  #buildOutcome(id, outcomes) {
    const choices = outcomes.map((value, i) => [value, outcomeLabel(value), String(i + 1)]);
    this.outcomes = choices.map(([value], i) => h('input', {
      type: 'radio', name: `${id}-outcome`, value, id: `${id}-o-${value}`, checked: i === 0,
    }));
    const radio = ([value, name, key], i) => h('label', { for: `${id}-o-${value}`, class: `dlq-radio o-${value}` },
      this.outcomes[i], h('span', {}, name), kbd(key));
    // The capstone's three failures show once a scenario (or the Advanced set-up) uses the capstone.
    this.moreOutcomes = h('div', { class: 'dlq-more-outcomes' }, choices.slice(LESSON_ONE_OUTCOMES).map((o, i) => radio(o, i + LESSON_ONE_OUTCOMES)));
    this.outcome = h('fieldset', { class: 'dlq-outcome' }, h('legend', {}, 'Outcome'),
      choices.slice(0, LESSON_ONE_OUTCOMES).map(radio), this.moreOutcomes);
    this.errorText = h('input', { type: 'text', id: `${id}-err`, class: 'dlq-input', placeholder: 'e.g. db timeout', autocomplete: 'off', 'aria-describedby': `${id}-err-hint` });
    this.stepAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-step-err` });
    // The alert is about the text that was refused: editing it clears the alert.
    this.errorText.addEventListener('input', () => this.stepError(null));
    this.errorField = h('div', { class: 'dlq-field' },
      h('div', { class: 'dlq-label-row' }, h('label', { for: `${id}-err` }, 'Error text'),
        h('span', { class: 'dlq-hint', id: `${id}-err-hint` }, 'optional, for failures')), this.errorText, this.stepAlert);
  }

  /** Step, Back, Forward, Run and its speed, Reset, Discard my changes, the script's position, Undo. */
  #buildNavigation(id, restorable) {
    this.step = h('button', { type: 'button', class: 'dlq-btn dlq-primary', 'aria-keyshortcuts': 'S' }, 'Step', kbd('S'));
    this.back = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'B' }, 'Back', kbd('B'));
    this.forward = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'F' }, 'Forward', kbd('F'));
    this.runLabel = h('span', {}, 'Run');
    this.run = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'Space' }, this.runLabel);
    this.speed = h('select', { id: `${id}-speed`, class: 'dlq-input' },
      SPEEDS.map(([v, text]) => h('option', { value: v, selected: v === DEFAULT_SPEED.steps }, text)));
    this.speedChosen = false;  // the reader picked a speed: the default no longer follows the scenario
    this.speed.addEventListener('change', () => { this.speedChosen = true; });
    // Reset moves to step 0 and keeps everything; Discard my changes throws the reader's changes away.
    // They look and read differently: one is a step control, the other a quiet undo-all under the controls.
    this.reset = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'R',
      title: 'Back to step 0; your set-up and script stay' }, 'Reset', kbd('R'));
    // Embeds: back to the scenario the author gave, whatever the reader changed.
    this.restore = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet dlq-restore', 'aria-describedby': `${id}-restore-hint` },
      h('span', { class: 'dlq-restore-mark', 'aria-hidden': 'true' }, '↺'), 'Discard my changes');
    this.restoreRow = h('p', { class: 'dlq-restore-row', hidden: !restorable }, this.restore,
      h('span', { class: 'dlq-hint', id: `${id}-restore-hint` }, 'Loads the lesson’s scenario again: set-up and script.'));
    this.scrub = h('input', { type: 'range', id: `${id}-scrub`, min: 0, max: 0, value: 0, step: 1, class: 'dlq-scrub' });
    this.position = h('output', { for: `${id}-scrub`, class: 'dlq-position' });
    this.undo = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', hidden: true, 'aria-keyshortcuts': 'Z' }, 'Undo', kbd('Z'));
    this.runStatus = h('span', { class: 'dlq-run-status' });
  }

  /** The clock, leases and the simulated workers (shown once a scenario uses the capstone). */
  #buildClock(id) {
    this.settleToken = h('select', { id: `${id}-token`, class: 'dlq-input' });
    this.advanceMs = h('input', { type: 'number', id: `${id}-adv`, class: 'dlq-input dlq-narrow', min: 0, step: 1, value: 100, inputmode: 'numeric' });
    this.clockAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-clock-err` });
    this.playLabel = h('span', {}, 'Play');
    this.play = h('button', { type: 'button', class: 'dlq-btn', 'aria-keyshortcuts': 'G' }, this.playLabel, kbd('G'));
    this.settle = button('Settle');
    this.crashWorker = button('Crash worker');
    this.advance = button('Advance');
    this.clock = h('div', { class: 'dlq-group dlq-clock-group', role: 'group', 'aria-labelledby': `${id}-clock-h` },
      h('h3', { id: `${id}-clock-h` }, 'Clock and workers'),
      h('div', { class: 'dlq-buttons' },
        this.leaseButton = button(['Lease', kbd('L')], { 'aria-keyshortcuts': 'L' }),
        this.nextButton = button(['Next event', kbd('N')], { 'aria-keyshortcuts': 'N' }), this.play),
      this.settleRow = h('div', { class: 'dlq-inline' },
        h('label', { for: `${id}-token`, class: 'dlq-label' }, 'In flight'), this.settleToken,
        this.settle, this.crashWorker),
      this.advanceRow = h('div', { class: 'dlq-inline' },
        h('label', { for: `${id}-adv`, class: 'dlq-label' }, 'Advance by (ms)'), this.advanceMs,
        this.advance),
      this.clockAlert);
  }

  /** The operator: replay by id (a second replay answers false, visibly), release a key, redrive. */
  #buildOperator(id, { classes, reasons, perSecond }) {
    this.opId = h('input', { type: 'text', id: `${id}-opid`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    this.opKey = h('input', { type: 'text', id: `${id}-opkey`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    this.opMax = h('input', { type: 'number', id: `${id}-opmax`, class: 'dlq-input dlq-narrow', min: 1, step: 1, value: 10, inputmode: 'numeric' });
    // Which entries a redrive takes: every one, one failure class's, or one reason's (the core's names).
    this.opOnly = h('select', { id: `${id}-oponly`, class: 'dlq-input' },
      h('option', { value: '' }, 'of any kind'),
      ...classes.map((c) => h('option', { value: `class:${c}` }, `of class ${c}`)),
      ...reasons.map((r) => h('option', { value: `reason:${r}` }, `with reason ${r}`)));
    // A redrive's pace: blank sends them at once; N sends N a virtual second (the core's range).
    this.opRate = h('input', { type: 'number', id: `${id}-oprate`, class: 'dlq-input dlq-narrow', min: perSecond.min, max: perSecond.max,
      step: 1, inputmode: 'numeric', placeholder: 'at once', 'aria-describedby': `${id}-oprate-note` });
    this.opAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-op-err` });
    this.replay = button('Replay');
    this.releaseKey = button('Release key');
    this.redrive = button('Redrive');
    this.snapshot = button('Snapshot');
    this.crashRestart = button('Crash and restart…');
    this.operator = h('div', { class: 'dlq-group dlq-operator', role: 'group', 'aria-labelledby': `${id}-op-h` },
      h('h3', { id: `${id}-op-h` }, 'Operator'),
      h('div', { class: 'dlq-inline' }, h('label', { for: `${id}-opid`, class: 'dlq-label' }, 'Job to replay'), this.opId, this.replay),
      this.opMore = h('div', { class: 'dlq-op-more' },
        this.releaseRow = h('div', { class: 'dlq-inline' }, h('label', { for: `${id}-opkey`, class: 'dlq-label' }, 'Key to release'), this.opKey,
          this.releaseKey),
        this.redriveRow = h('div', { class: 'dlq-inline' }, h('label', { for: `${id}-opmax`, class: 'dlq-label' }, 'Redrive up to'), this.opMax,
          h('label', { for: `${id}-oponly`, class: 'dlq-label' }, 'Entries'), this.opOnly,
          h('label', { for: `${id}-oprate`, class: 'dlq-label' }, 'at N per second'), this.opRate, this.redrive,
          h('span', { id: `${id}-oprate-note`, class: 'dlq-note' }, 'Blank: at once. With a rate, every entry of that kind goes, N each virtual second.')),
        this.durabilityRow = h('div', { class: 'dlq-buttons' }, this.snapshot, this.crashRestart)),
      this.opAlert);
  }

  // ---- what the reader does ---------------------------------------------------

  bindStep(handler) { on(this.step, handler); }
  bindBack(handler) { on(this.back, handler); }
  bindForward(handler) { on(this.forward, handler); }
  bindReset(handler) { on(this.reset, handler); }
  bindRestore(handler) { on(this.restore, handler); }
  bindRun(handler) { on(this.run, handler); }
  /** A new speed was chosen. */
  bindSpeed(handler) { on(this.speed, handler, 'change'); }
  bindUndo(handler) { on(this.undo, handler); }
  /** `handler(cursor)`: the script's position slider moved. */
  bindScrub(handler) { this.scrub.addEventListener('input', () => handler(Number(this.scrub.value))); }
  bindLease(handler) { on(this.leaseButton, handler); }
  bindNextEvent(handler) { on(this.nextButton, handler); }
  bindPlay(handler) { on(this.play, handler); }
  bindSettle(handler) { on(this.settle, handler); }
  bindCrashWorker(handler) { on(this.crashWorker, handler); }
  /** `handler(ms)`: Advance by the field's ms (NaN when it is blank). */
  bindAdvance(handler) {
    this.advance.addEventListener('click', () => handler(this.advanceMs.value.trim() === '' ? NaN : this.advanceMs.valueAsNumber));
  }
  /** `handler(id)`: Replay of the id typed (trimmed). */
  bindReplay(handler) { this.replay.addEventListener('click', () => handler(this.opId.value.trim())); }
  /** `handler(key)`: Release key of the key typed. */
  bindReleaseKey(handler) { this.releaseKey.addEventListener('click', () => handler(this.opKey.value)); }
  /**
   * `handler(max, only, perSecond)`: Redrive up to the number typed; `only` is {}, { class } or
   * { reason }; perSecond is null when the rate is blank (at once), else the number typed (NaN if not one).
   */
  bindRedrive(handler) {
    this.redrive.addEventListener('click', () => {
      const [kind, name] = this.opOnly.value.split(':');
      const rate = this.opRate.value.trim() === '' && !this.opRate.validity.badInput ? null : this.opRate.valueAsNumber;
      handler(this.opMax.valueAsNumber, kind === '' ? {} : { [kind]: name }, rate);
    });
  }
  bindSnapshot(handler) { on(this.snapshot, handler); }
  bindCrashRestart(handler) { on(this.crashRestart, handler); }

  // ---- what the controller reads -----------------------------------------------

  /** The outcomes the picker offers now (lesson 1's three, or all once the classes are shown). */
  offeredOutcomes() {
    return this.outcomes.filter((r) => !this.moreOutcomes.hidden || !this.moreOutcomes.contains(r)).map((r) => r.value);
  }

  /** The outcome chosen. */
  chosenOutcome() {
    return this.outcomes.find((r) => r.checked)?.value ?? 'success';
  }

  /** The error text typed (for a failure). */
  errorTextValue() {
    return this.errorText.value;
  }

  /** The token chosen in the Settle list ('' when none is in flight). */
  chosenToken() {
    return this.settleToken.value;
  }

  /** `handler(value)`: an outcome was chosen (a click or its shortcut key). */
  bindOutcome(handler) {
    for (const radio of this.outcomes) radio.addEventListener('change', () => { if (radio.checked) handler(radio.value); });
  }

  /** The default speed for a scenario that uses the clock (`clock`) or not, unless the reader chose one. */
  suggestSpeed(clock) {
    const value = clock ? DEFAULT_SPEED.clock : DEFAULT_SPEED.steps;
    if (!this.speedChosen && this.speed.value !== value) this.speed.value = value;
  }

  /** Steps a second at the speed chosen. */
  stepsPerSecond() {
    return Number(this.speed.value);
  }

  // ---- what the controller shows -----------------------------------------------

  /** Chooses the n-th outcome (1-based, its shortcut key); none past the last. */
  chooseOutcome(n) {
    const radio = this.outcomes[n - 1];
    if (radio && !radio.checked) {
      radio.checked = true;
      radio.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }

  /** Chooses the outcome `value` (the phone bar's picker). */
  chooseOutcomeValue(value) {
    this.chooseOutcome(this.outcomes.findIndex((r) => r.value === value) + 1);
  }

  /** The error text's alert (a refused step); null clears it. */
  stepError(message) {
    fieldError(this.errorText, this.stepAlert, message);
  }

  /** `alert` (the clock's, the operator's or the crash dialog's) says `message`; null clears it. */
  alert(alert, message) {
    alertText(alert, message);
  }

  /** The line beside Run: how a run ended. */
  say(text) {
    this.runStatus.textContent = text;
  }

  /** Run or Play (`kind`) shows Pause; null: both show their own names again. */
  running(kind) {
    if (kind === null) {
      this.runLabel.textContent = 'Run';
      this.playLabel.textContent = 'Play';
      this.run.classList.remove('is-running');
      this.play.classList.remove('is-running');
      return;
    }
    (kind === 'run' ? this.runLabel : this.playLabel).textContent = 'Pause';
    (kind === 'run' ? this.run : this.play).classList.add('is-running');
    this.runStatus.textContent = '';
  }

  /** The script's position: Back and Forward at its ends, the slider, "step n · action c of l". */
  render(view) {
    const { stats, cursor, length } = view;
    this.back.setAttribute('aria-disabled', String(cursor === 0));
    this.forward.setAttribute('aria-disabled', String(cursor === length));
    this.scrub.max = String(length);
    this.scrub.value = String(cursor);
    this.position.textContent = `step ${stats.step} · action ${cursor} of ${length}`;
    this.undo.hidden = !(view.dropped && view.canUndo);
  }

  /** The Settle list: the in-flight leases, earliest expiry first; rebuilt only when they change. */
  renderLeases(leases) {
    const key = leases.map((l) => l.token).join(' ');
    if (key === this.#leaseOptions) return;
    this.#leaseOptions = key;
    const chosen = this.settleToken.value;
    this.settleToken.replaceChildren(...(leases.length === 0
      ? [h('option', { value: '' }, 'none in flight')]
      : leases.map((l) => h('option', { value: l.token, selected: l.token === chosen },
        `${l.token}: "${l.id}", expires at ${l.expiresAt} ms`))));
  }

  focusStep() {
    this.step.focus();
  }
}

/**
 * The phone's sticky bar: Step, Back, Forward and the latest explanation stay
 * on screen beside what changed. It repeats controls the panel has, so it is
 * hidden from assistive technology and the tab order (the panel's are the real
 * ones); CSS shows it on narrow screens only.
 */
export class PhoneBar {
  #locked = false;

  /** `outcomes`: the core's (lab.outcomes); the picker offers lesson 1's three until showAllOutcomes(true). */
  constructor({ outcomes = [] } = {}) {
    const twin = (label, extra = '') => h('button', { type: 'button', class: `dlq-btn${extra}`, tabindex: '-1' }, label);
    this.text = h('span', { class: 'dlq-bar-text' });
    this.back = twin('Back');
    this.step = twin('Step', ' dlq-primary');
    this.forward = twin('Forward');
    // A clock playground's Next event, beside Step: a retry waits on the clock, and Step alone cannot reach it.
    this.next = twin('Next event');
    this.next.hidden = true;
    // The outcome Step reports, beside Step: changing it needs no scroll back to the panel.
    this.outcome = h('select', { class: 'dlq-input dlq-bar-outcome', tabindex: '-1', title: 'Outcome' },
      outcomes.map((value, i) => h('option', { value, hidden: i >= LESSON_ONE_OUTCOMES }, outcomeLabel(value))));
    this.element = h('div', { class: 'dlq-bar', 'aria-hidden': 'true' }, this.outcome, this.step, this.next, this.back, this.forward, this.text);
  }

  bindBack(handler) { on(this.back, handler); }
  bindStep(handler) { on(this.step, handler); }
  bindForward(handler) { on(this.forward, handler); }
  bindNextEvent(handler) { on(this.next, handler); }
  /** `handler(value)`: an outcome picked in the bar. */
  bindOutcome(handler) { this.outcome.addEventListener('change', () => handler(this.outcome.value)); }

  /** The outcome chosen in the panel, shown in the bar. */
  showOutcome(value) {
    if (this.outcome.value !== value) this.outcome.value = value;
  }

  /** The capstone's failures are offered once the panel shows them. */
  showAllOutcomes(all) {
    [...this.outcome.options].forEach((option, i) => { if (i >= LESSON_ONE_OUTCOMES) option.hidden = !all; });
  }

  /** Next event is offered on a clock playground (as the panel's). */
  showNextEvent(shown) {
    shown &&= !this.#locked;
    if (this.next.hidden === shown) this.next.hidden = !shown;
  }

  /** A walkthrough has no Step (nor an outcome to pick, nor Next event). */
  lock() {
    this.#locked = true;
    this.next.hidden = true;
    this.step.hidden = true;
    this.outcome.hidden = true;
  }

  render(text) {
    this.text.textContent = text;
  }
}
