// @ts-check
// The Config snippet panel: a system picker, an editable code area holding that
// system's snippet of the playground's policy (shared/snippets.mjs writes it),
// Copy, and for an edited snippet "Apply to playground" and "Reset to generated".
// A view: it builds its DOM once and says what the reader did through bindX(handler);
// the controller generates the snippet, reads an edit back and applies it.
//
// The one state kept here is the reader's: an edit. Each system's edited text is
// kept (a draft, with the generated text it was made from) until it is applied,
// reset, or typed back to the generated text, so a policy change regenerates only
// a snippet nobody edited; an edited one stays as it is and says so ("edited"),
// and picking another system and back finds the edit again. Apply reads an edit
// against the text it was made from, so a kept edit applies what it changed.
import { h } from '../shared/dom.mjs';
import { blockedSelected, copyText } from '../shared/clipboard.mjs';

export class SnippetView {
  #onOpen = () => {};
  /** @type {(key: string) => void} */
  #onSystem = () => {};
  /** @type {(key: string, edited: string, base: string) => void} */
  #onApply = () => {};
  #generated = null;  // { key, name, language, text, readable } on show
  #drafts = new Map();  // system key -> the reader's edit: { text, base: the generated text it was made from }

  constructor(idPrefix) {
    const id = `${idPrefix}-snippet`;
    const headingId = `${id}-h`;
    this.toggle = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', 'aria-expanded': 'false', 'aria-controls': `${id}-body` }, 'Show snippet');
    this.system = h('select', { id: `${id}-system`, class: 'dlq-input' });
    this.language = h('span', { class: 'dlq-hint' });
    this.state = h('p', { class: 'dlq-config-state', id: `${id}-state`, role: 'status' });
    this.text = h('textarea', { id: `${id}-text`, class: 'dlq-input dlq-config-text', rows: 14, spellcheck: 'false', autocomplete: 'off',
      autocapitalize: 'off', wrap: 'off', 'aria-describedby': `${id}-state` });
    this.copy = h('button', { type: 'button', class: 'dlq-btn' }, 'Copy');
    this.apply = h('button', { type: 'button', class: 'dlq-btn dlq-primary', hidden: true }, 'Apply to playground');
    this.reset = h('button', { type: 'button', class: 'dlq-btn', hidden: true }, 'Reset to generated');
    this.copyStatus = h('span', { class: 'dlq-copy-status', role: 'status' });
    this.refusal = h('div', { class: 'dlq-field-error dlq-config-refusal', role: 'alert', hidden: true });
    this.result = h('div', { class: 'dlq-config-result', role: 'status' });
    this.body = h('div', { class: 'dlq-config-body', id: `${id}-body`, hidden: true },
      h('p', { class: 'dlq-hint' }, 'Generated from the playground\'s policy and mode, and regenerated when they change; ' +
        'an edit is kept until you apply (Ctrl+Enter) or reset it. Apply reads a BullMQ, SQS, Sidekiq or RabbitMQ snippet back through ' +
        'the import\'s parser: what the lab cannot express is refused by name, and then nothing changes.'),
      h('div', { class: 'dlq-inline' }, h('label', { for: this.system.id, class: 'dlq-label' }, 'Snippet for'), this.system),
      h('label', { for: this.text.id, class: 'dlq-label' }, 'Snippet ', this.language), this.text, this.state,
      h('div', { class: 'dlq-buttons' }, this.copy, this.apply, this.reset, this.copyStatus),
      this.refusal, this.result);
    this.element = h('section', { class: 'dlq-panel dlq-config', 'aria-labelledby': headingId },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Config snippet'), this.toggle),
      this.body);

    this.toggle.addEventListener('click', () => {
      const open = this.body.hidden;
      this.body.hidden = !open;
      this.toggle.setAttribute('aria-expanded', String(open));
      this.toggle.textContent = open ? 'Hide snippet' : 'Show snippet';
      if (open) this.#onOpen();
    });
    this.system.addEventListener('change', () => this.#onSystem(this.system.value));
    this.text.addEventListener('input', () => this.#edited());
    this.reset.addEventListener('click', () => {
      this.#drafts.delete(this.#generated.key);
      this.text.value = this.#generated.text;
      this.#clearOutcome();
      this.#say();
      this.text.focus();
    });
    this.apply.addEventListener('click', () => this.#apply());
    this.text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !this.apply.hidden && !this.apply.disabled) {
        e.preventDefault();
        this.#apply();
      }
    });
    this.copy.addEventListener('click', () => copyText(this.text.value, {
      status: this.copyStatus, field: this.text, copied: 'Snippet copied.', blocked: blockedSelected('snippet') }));
  }

  /** `handler()`: the panel was opened (it generates nothing while closed). */
  bindOpen(handler) { this.#onOpen = handler; }
  /** `handler(key)`: another system was picked. */
  bindSystem(handler) { this.#onSystem = handler; }
  /** `handler(key, edited, base)`: Apply to playground, or Ctrl+Enter in an edit (`base`: the generated text it was made from). */
  bindApply(handler) { this.#onApply = handler; }

  get open() { return !this.body.hidden; }
  /** The snippet on show is the reader's edit. */
  get edited() { return this.#generated !== null && this.#drafts.has(this.#generated.key); }

  /** `on`: the generators are loading (the panel's first open), said in the state line until a snippet shows. */
  loading(on) {
    if (on) this.state.textContent = 'Loading the snippet generators…';
    else if (this.#generated === null) this.state.textContent = '';
  }

  /** The picker's systems ([{ key, name }], in order), once they are loaded. */
  setSystems(systems) {
    this.system.replaceChildren(...systems.map((s) => h('option', { value: s.key }, s.name)));
  }

  /**
   * Shows system `key`'s snippet generated from the policy now ({ key, name, language, text }; `readable`:
   * Apply can read it back). An edited snippet of that system is kept, and marked edited.
   */
  show({ key, name, language, text, readable }) {
    const previous = this.#generated;
    this.#generated = { key, name, language, text, readable };
    if (this.system.value !== key) this.system.value = key;
    this.language.textContent = `(${name}, ${language})`;
    const shown = this.#drafts.get(key)?.text ?? text;
    if (this.text.value !== shown) this.text.value = shown;
    if (previous?.key !== key) this.#clearOutcome();
    this.#say();
  }

  /**
   * The edit was applied: the draft goes, and the snippet generated from the new policy shows
   * (show()). Apply goes with the edit, so keyboard focus moves to the snippet.
   */
  applied(heading, set) {
    this.#drafts.delete(this.#generated.key);
    if (this.apply.contains(document.activeElement)) this.text.focus();
    this.refusal.hidden = true;
    this.refusal.replaceChildren();
    const value = (v) => (typeof v === 'string' ? v : v.toLocaleString('en'));
    this.result.replaceChildren(h('p', {}, h('strong', {}, heading)),
      h('ul', { class: 'dlq-import-set' }, set.map((s) => h('li', {}, h('code', {}, s.field), ` = ${value(s.value)} `,
        h('span', { class: 'dlq-hint' }, `← ${s.from}`)))));
  }

  /** The edit was refused (`messages`: each refusal, by name); the edit stays, nothing changed. */
  refused(heading, messages) {
    this.result.replaceChildren();
    this.refusal.replaceChildren(h('p', {}, h('strong', {}, heading)), h('ul', {}, messages.map((m) => h('li', {}, m))));
    this.refusal.hidden = false;
  }

  #apply() {
    const { key, text } = this.#generated;
    this.#onApply(key, this.text.value, this.#drafts.get(key)?.base ?? text);
  }

  #edited() {
    const { key, text } = this.#generated;
    const base = this.#drafts.get(key)?.base ?? text;
    if (this.text.value === text) this.#drafts.delete(key);
    else this.#drafts.set(key, { text: this.text.value, base });
    this.#say();
  }

  #clearOutcome() {
    this.refusal.hidden = true;
    this.refusal.replaceChildren();
    this.result.replaceChildren();
  }

  /** The state line and the buttons an edit brings. */
  #say() {
    const { key, readable, name } = this.#generated;
    const draft = this.#drafts.get(key);
    const edited = draft !== undefined;
    this.element.classList.toggle('is-edited', edited);
    this.apply.hidden = !edited;
    this.reset.hidden = !edited;
    this.apply.disabled = !readable;
    let state = 'Generated from the playground\'s policy now.';
    if (edited) {
      state = `Edited${draft.base !== this.#generated.text ? ': the policy has changed since, and this text was kept' : ''}. ` +
        (readable ? 'Apply to playground reads it back; Reset to generated drops the edit.'
          : `The ${name} snippet has no import to read it back: copy it, or Reset to generated.`);
    }
    if (this.state.textContent !== state) this.state.textContent = state;
  }
}
