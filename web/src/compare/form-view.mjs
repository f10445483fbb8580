// @ts-check
// The compare form (compare.html #cmp-form): the scenario link and one row per
// column, a system picked from the core's list (lab.schema's system row, handed
// in) and its policy overrides as field=value words. It reports a Compare press
// through bindCompare(handler) and shows a refusal in its own alert; it reads
// and fills the fields, nothing more.
import { h, alertText } from '../shared/dom.mjs';
import { MIN_COLUMNS, MAX_COLUMNS, formatColumn } from './compare-link.mjs';

export class FormView {
  #form;
  #link;
  #error;
  #rows = [];
  /** @type {(form: { link: string, columns: string[] }) => void} */
  #onCompare = () => {};

  constructor(doc) {
    this.#form = doc.getElementById('cmp-form');
    this.#link = doc.getElementById('cmp-link');
    this.#error = doc.getElementById('cmp-form-error');
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#onCompare(this.read());
    });
  }

  /** `handler({ link, columns: [column text…] })` on Compare (the button, or Enter in a field). */
  bindCompare(handler) {
    this.#onCompare = handler;
  }

  /** Draws the column rows, each with a picker of `systems` ([{ name, label }], the core's order). */
  setSystems(systems) {
    const holder = this.#form.querySelector('#cmp-columns-form');
    this.#rows = [];
    for (let i = 0; i < MAX_COLUMNS; i++) {
      const n = i + 1;
      const optional = i >= MIN_COLUMNS;
      const select = h('select', { id: `cmp-col-${n}-system`, name: `system${n}` },
        optional ? h('option', { value: '' }, 'none') : null,
        ...systems.map(({ name, label }) => h('option', { value: name, title: label }, name)));
      const overrides = h('input', {
        id: `cmp-col-${n}-overrides`, name: `overrides${n}`, type: 'text', spellcheck: 'false', autocomplete: 'off',
        placeholder: 'maxAttempts=5', 'aria-describedby': 'cmp-overrides-hint',
      });
      holder.append(h('fieldset', { class: 'cmp-col-row' },
        h('legend', {}, `Column ${n}${optional ? ' (optional)' : ''}`),
        h('div', { class: 'cmp-field' }, h('label', { for: select.id }, `Column ${n} system`), select),
        h('div', { class: 'cmp-field' }, h('label', { for: overrides.id }, `Column ${n} overrides`), overrides)));
      this.#rows.push({ select, overrides });
    }
  }

  /** What the form says: the link and the columns' texts (a blank optional row is left out). */
  read() {
    const columns = [];
    for (const { select, overrides } of this.#rows) {
      const words = overrides.value.split(/[\s,:]+/).filter(Boolean);
      if (select.value === '' && words.length === 0) continue;
      columns.push([select.value, ...words].filter(Boolean).join(':'));
    }
    return { link: this.#link.value.trim(), columns };
  }

  /** Fills the form with a request the page shows ({ link, columns }); `linkSystem` for a column that names none. */
  show({ link, columns }, linkSystem) {
    this.#link.value = link;
    this.#rows.forEach(({ select, overrides }, i) => {
      const column = columns[i];
      select.value = column ? (column.system ?? linkSystem) : '';
      overrides.value = column ? formatColumn({ system: null, overrides: column.overrides }).replaceAll(':', ' ') : '';
    });
  }

  /** The form's refusal, by name; null clears it. */
  showError(message) {
    alertText(this.#error, message);
  }
}
