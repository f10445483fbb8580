// The scenario form (#storm-form, written in storm.html), the preset buttons
// (#storm-presets) and the form's refusal (#storm-error). It reads and fills a
// scenario (storm-presets.mjs describes its shape), shows a refusal next to the
// field it names, and says what the reader did through bindX(handler).
import { h } from '../shared/dom.mjs';
import { DEFAULT_SCENARIO } from './storm-presets.mjs';

/** Each number field: its input, the scenario key, and the core's option paths that name it. */
const NUMBER_FIELDS = [
  { id: 'f-jobs', key: 'jobs', paths: ['jobs'] },
  { id: 'f-rate', key: 'perSecond', paths: ['arrival.perSecond'] },
  { id: 'f-clients', key: 'clients', paths: ['arrival.clients'] },
  { id: 'f-outage-start', key: 'outageStartMs', paths: ['outage.startMs'] },
  { id: 'f-outage-length', key: 'outageMs', paths: ['outage.durationMs', 'outage'] },
  { id: 'f-capacity', key: 'perWindow', paths: ['capacity.perWindow', 'capacity'] },
  { id: 'f-window', key: 'windowMs', paths: ['capacity.windowMs'] },
  { id: 'f-failure', key: 'failurePerMillion', paths: ['failurePerMillion'] },
  { id: 'f-server', key: 'serverPerSecond', paths: ['server.capacityPerSecond', 'server'] },
  { id: 'f-timeout', key: 'timeoutMs', paths: ['server.timeoutMs'] },
  { id: 'f-drop-start', key: 'dropStartMs', paths: ['server.dropStartMs'] },
  { id: 'f-drop-length', key: 'dropMs', paths: ['server.dropMs'] },
  { id: 'f-drop-rate', key: 'dropPerSecond', paths: ['server.dropPerSecond'] },
  { id: 'f-workers', key: 'workers', paths: ['workers'] },
  { id: 'f-work', key: 'workMs', paths: ['workMs'] },
  { id: 'f-lease', key: 'leaseMs', paths: ['leaseMs'] },
  { id: 'f-attempts', key: 'maxAttempts', paths: ['maxAttempts'] },
  { id: 'f-base', key: 'baseMs', paths: ['backoff.baseMs'] },
  { id: 'f-cap', key: 'capMs', paths: ['backoff.capMs'] },
  { id: 'f-seed', key: 'seed', paths: ['seed'] },
];
/** The fields that are no number input, and the core's option paths that name them. */
const OTHER_FIELDS = [
  { id: 'f-backoff', key: 'backoff', paths: ['backoff.kind', 'backoff'] },
  { id: 'f-strategies', key: 'strategies', paths: ['backoff.jitter', 'jitter'] },
  { id: 'f-arrival', key: 'arrival', paths: ['arrival.kind', 'arrival'] },
  { id: 'f-budgets', key: 'budgets', paths: ['budget'] },
  { id: 'f-refused', key: 'refusedRetry', paths: ['refusedRetry'] },
];

/** The budgets field's text as a list (blank: none); each budget's text is the core's to read. */
const readBudgets = (text) => {
  const budgets = text.split(',').map((b) => b.trim()).filter((b) => b !== '');
  return budgets.length === 0 ? ['none'] : budgets;
};
const FIELDS = [...NUMBER_FIELDS, ...OTHER_FIELDS];

/** A number input's value: null when blank, NaN when the browser holds text that is no number. */
function readNumber(input) {
  if (input.validity.badInput) return Number.NaN;
  const text = input.value.trim();
  return text === '' ? null : Number(text);
}

/** Which field a core message names: the longest option path it starts with (null: none). */
function fieldForMessage(message) {
  const head = /^[A-Za-z][A-Za-z.]*/.exec(message)?.[0] ?? '';
  let best = null;
  for (const field of FIELDS) {
    for (const path of field.paths) {
      if ((head === path || head.startsWith(`${path}.`)) && (!best || path.length > best.path.length)) best = { field, path };
    }
  }
  return best?.field ?? null;
}

export class FormView {
  #doc;
  #form;
  #error;
  #presets;

  constructor(doc = document) {
    this.#doc = doc;
    this.#form = doc.getElementById('storm-form');
    this.#error = doc.getElementById('storm-error');
    this.#presets = doc.getElementById('storm-presets');
  }

  /** `handler()`: the reader pressed Run (the form is submitted). */
  bindRun(handler) {
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      handler();
    });
  }

  /** `handler()`: the reader edited the form. */
  bindEdit(handler) { this.#form.addEventListener('input', () => handler()); }

  /** `handler(key)`: the reader pressed the preset with this key. */
  bindPreset(handler) {
    this.#presets.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-preset]');
      if (button) handler(button.dataset.preset);
    });
  }

  /** A button and its one-line summary per preset ({ key, title, summary }). */
  renderPresets(presets) {
    for (const preset of presets) {
      const summaryId = `preset-${preset.key}-summary`;
      const button = h('button', { type: 'button', class: 'storm-btn', 'data-preset': preset.key, 'aria-describedby': summaryId }, preset.title);
      this.#presets.append(h('li', {}, button, h('span', { class: 'storm-preset-summary', id: summaryId }, preset.summary)));
    }
  }

  /** The scenario the form holds (numbers, or null for a blank field; NaN for text that is no number). */
  read() {
    const s = { ...DEFAULT_SCENARIO };
    for (const { id, key } of NUMBER_FIELDS) s[key] = readNumber(this.#input(id));
    s.arrival = this.#form.querySelector('input[name="arrival"]:checked')?.value ?? 'burst';
    s.backoff = this.#input('f-backoff').value;
    s.budgets = readBudgets(this.#input('f-budgets').value);
    s.refusedRetry = this.#input('f-refused').value;
    s.strategies = [...this.#form.querySelectorAll('input[name="strategy"]:checked')].map((el) => el.value);
    return s;
  }

  /** Each number field's text as typed (trimmed): [{ key, path (the core's name of it), text }]. */
  numberTexts() {
    return NUMBER_FIELDS.map(({ id, key, paths }) => ({ key, path: paths[0], text: this.#input(id).value.trim() }));
  }

  /** Shows scenario `s` in the form, and clears any refusal. */
  fill(s) {
    for (const { id, key } of NUMBER_FIELDS) this.#input(id).value = s[key] === null || s[key] === undefined ? '' : String(s[key]);
    for (const radio of this.#form.querySelectorAll('input[name="arrival"]')) radio.checked = radio.value === s.arrival;
    this.#input('f-backoff').value = s.backoff;
    this.#input('f-budgets').value = (s.budgets ?? DEFAULT_SCENARIO.budgets).join(', ');
    this.#input('f-refused').value = s.refusedRetry ?? DEFAULT_SCENARIO.refusedRetry;
    for (const box of this.#form.querySelectorAll('input[name="strategy"]')) box.checked = s.strategies.includes(box.value);
    this.clearError();
  }

  /**
   * Shows a refusal next to the form and marks the field it is about invalid. `field`: a
   * scenario key ('jobs', 'strategies', …), 'auto' for the field the core's message names, or
   * null for none. `focus`: move the focus to that field.
   */
  renderError(message, { field = 'auto', focus = false } = {}) {
    this.clearError();
    const found = field === 'auto' ? fieldForMessage(message) : FIELDS.find((f) => f.key === field) ?? null;
    this.#error.textContent = found ? `${this.#labelOf(found.id)}: ${message}` : message;
    if (!found) return;
    const el = this.#input(found.id);
    if (el.tagName !== 'FIELDSET') el.setAttribute('aria-invalid', 'true');
    el.dataset.errorDescribed = el.getAttribute('aria-describedby') ?? '';
    el.setAttribute('aria-describedby', `${el.dataset.errorDescribed} storm-error`.trim());
    if (focus) (el.tagName === 'FIELDSET' ? el.querySelector('input') : el).focus();
  }

  clearError() {
    this.#error.textContent = '';
    for (const el of this.#form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    for (const el of this.#form.querySelectorAll('[data-error-described]')) {
      el.setAttribute('aria-describedby', el.dataset.errorDescribed);
      delete el.dataset.errorDescribed;
    }
  }

  #input(id) { return this.#doc.getElementById(id); }

  /** A field's name as the form shows it: its label, or a fieldset's legend. */
  #labelOf(id) {
    const el = this.#input(id);
    if (el.tagName === 'FIELDSET') return el.querySelector('legend').textContent.trim();
    return this.#form.querySelector(`label[for="${id}"]`).textContent.trim();
  }
}
