// @ts-check
// The scenario form (#storm-form, framed in storm.html), the preset buttons
// (#storm-presets) and the form's refusal (#storm-error). It draws the number
// fields from the core's rows (sim.schema.storm and .backoff) into the frame's
// slots, reads and fills a scenario (storm-presets.mjs describes its shape),
// shows a refusal next to the field it names, and says what the reader did
// through bindX(handler).
import { h } from '../shared/dom.mjs';
import { fmtInt } from './format.mjs';
import { DEFAULT_SCENARIO } from './storm-presets.mjs';

/**
 * The frame's number slots (storm.html: `data-field` names the field's row, then any other
 * name a refusal may give it; `data-key` the scenario's key): [{ slot, id, key, paths }].
 */
function numberSlots(form) {
  return [...form.querySelectorAll('[data-field]')].map((slot) => {
    const key = slot.dataset.key;
    return { slot, id: `f-${key}`, key, paths: slot.dataset.field.split(' ') };
  });
}

/** A slot's row: sim.schema.storm's row of that name, else the row of the table its group names ("backoff.baseMs"). */
function rowOf(schema, path) {
  const row = schema.storm.find((r) => r.name === path);
  if (row) return row;
  const dot = path.indexOf('.');
  const found = dot > 0 ? schema[path.slice(0, dot)]?.find((r) => r.name === path.slice(dot + 1)) : undefined;
  if (!found || found.kind !== 'integer') throw new Error(`sim.schema has no integer field ${path} for the storm form`);
  return found;
}

/**
 * One number field drawn into its slot from its row: the row's label (its unit in it),
 * an integer input over the row's range, and under it the row's hint, or its range where
 * the frame asks for one (data-hint="range"). A top-level required row is required.
 */
function drawNumberField({ slot, id, key }, row) {
  const hint = row.hint ?? (slot.dataset.hint === 'range' ? `${fmtInt(row.min)} to ${fmtInt(row.max)}` : null);
  const described = [hint === null ? null : `${id}-hint`, slot.dataset.describedby].filter(Boolean).join(' ');
  const input = h('input', {
    id, name: key, type: 'number', inputmode: 'numeric', min: row.min, max: row.max, step: 1,
    required: row.required && !row.name.includes('.'), 'aria-describedby': described || null,
  });
  slot.replaceChildren(h('label', { for: id }, row.label), input);
  if (hint !== null) slot.append(h('p', { class: 'storm-hint', id: `${id}-hint` }, hint));
}

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

/** A number input's value: null when blank, NaN when the browser holds text that is no number. */
function readNumber(input) {
  if (input.validity.badInput) return Number.NaN;
  const text = input.value.trim();
  return text === '' ? null : Number(text);
}

/** Which of `fields` a core message names: the longest option path it starts with (null: none). */
function fieldForMessage(fields, message) {
  const head = /^[A-Za-z][A-Za-z.]*/.exec(message)?.[0] ?? '';
  let best = null;
  for (const field of fields) {
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
  #numbers;  // the frame's number slots (numberSlots)
  #drawn = false;  // whether renderFields drew them
  #shown = DEFAULT_SCENARIO;  // the scenario last filled in

  constructor(doc = document) {
    this.#doc = doc;
    this.#form = doc.getElementById('storm-form');
    this.#error = doc.getElementById('storm-error');
    this.#presets = doc.getElementById('storm-presets');
    this.#numbers = numberSlots(this.#form);
  }

  /**
   * Draws the number fields from the core's rows (`schema`: { storm, backoff }, as the
   * worker's describe answer carries them, read once) and shows the scenario last filled in.
   */
  renderFields(schema) {
    for (const field of this.#numbers) drawNumberField(field, rowOf(schema, field.paths[0]));
    this.#drawn = true;
    this.#fillNumbers(this.#shown);
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
      /** @type {HTMLButtonElement | null} */
      const button = /** @type {Element} */ (event.target).closest('button[data-preset]');
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
    for (const { id, key } of this.#numbers) s[key] = this.#drawn ? readNumber(this.#input(id)) : this.#shown[key];
    s.arrival = /** @type {HTMLInputElement | null} */ (this.#form.querySelector('input[name="arrival"]:checked'))?.value ?? 'burst';
    s.backoff = this.#input('f-backoff').value;
    s.budgets = readBudgets(this.#input('f-budgets').value);
    s.refusedRetry = this.#input('f-refused').value;
    s.strategies = [.../** @type {NodeListOf<HTMLInputElement>} */ (this.#form.querySelectorAll('input[name="strategy"]:checked'))].map((el) => el.value);
    return s;
  }

  /** Each number field's text as typed (trimmed): [{ key, path (the core's name of it), text }]. */
  numberTexts() {
    if (!this.#drawn) return [];
    return this.#numbers.map(({ id, key, paths }) => ({ key, path: paths[0], text: this.#input(id).value.trim() }));
  }

  /** Shows scenario `s` in the form, and clears any refusal. */
  fill(s) {
    this.#shown = s;
    this.#fillNumbers(s);
    for (const radio of /** @type {NodeListOf<HTMLInputElement>} */ (this.#form.querySelectorAll('input[name="arrival"]'))) radio.checked = radio.value === s.arrival;
    this.#input('f-backoff').value = s.backoff;
    this.#input('f-budgets').value = (s.budgets ?? DEFAULT_SCENARIO.budgets).join(', ');
    this.#input('f-refused').value = s.refusedRetry ?? DEFAULT_SCENARIO.refusedRetry;
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (this.#form.querySelectorAll('input[name="strategy"]'))) box.checked = s.strategies.includes(box.value);
    this.clearError();
  }

  /**
   * Shows a refusal next to the form and marks the field it is about invalid. `field`: a
   * scenario key ('jobs', 'strategies', …), 'auto' for the field the core's message names, or
   * null for none. `focus`: move the focus to that field.
   */
  renderError(message, { field = 'auto', focus = false } = {}) {
    this.clearError();
    const fields = [...(this.#drawn ? this.#numbers : []), ...OTHER_FIELDS];
    const found = field === 'auto' ? fieldForMessage(fields, message) : fields.find((f) => f.key === field) ?? null;
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
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (this.#form.querySelectorAll('[data-error-described]'))) {
      el.setAttribute('aria-describedby', el.dataset.errorDescribed);
      delete el.dataset.errorDescribed;
    }
  }

  #fillNumbers(s) {
    if (!this.#drawn) return;
    for (const { id, key } of this.#numbers) this.#input(id).value = s[key] === null || s[key] === undefined ? '' : String(s[key]);
  }

  /** A field by id: an <input>, or the <fieldset> of a group (used only as an element then). @returns {HTMLInputElement} */
  #input(id) { return /** @type {HTMLInputElement} */ (this.#doc.getElementById(id)); }

  /** A field's name as the form shows it: its label, or a fieldset's legend. */
  #labelOf(id) {
    const el = this.#input(id);
    if (el.tagName === 'FIELDSET') return el.querySelector('legend').textContent.trim();
    return this.#form.querySelector(`label[for="${id}"]`).textContent.trim();
  }
}
