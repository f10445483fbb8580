// @ts-check
// <dlq-copy-check for="<playground id>">: views are copies. The reader edits
// the first Ready job's payload in a view the page got from the core, then the
// page asks the core again (a fresh view, and locate(id)) and compares. The
// check is the core's answer, not the edited object: ✓ when the queue still
// holds the original payload although the view says otherwise.
import { h } from '../shared/dom.mjs';
import { quoted } from '../shared/quote.mjs';

export class DlqCopyCheckElement extends HTMLElement {
  #started = false;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    const id = this.getAttribute('for');
    const target = id ? this.ownerDocument.getElementById(id) : null;
    if (!target || target.localName !== 'dlq-playground') {
      this.append(h('p', { class: 'dlq-fatal', role: 'alert' },
        `This copy check could not start: for: expected the id of a <dlq-playground> on this page, got ${quoted(id ?? '')}.`));
      return;
    }
    const inputId = `${id}-copy-edit`;
    const input = h('input', { type: 'text', id: inputId, value: 'EDITED THROUGH A VIEW', autocomplete: 'off' });
    const status = h('p', { class: 'dlq-goal-status', role: 'status' }, 'Not tried yet.');
    const button = h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#edit(target, input.value, status) },
      'Edit the head job through a view');
    this.classList.add('is-live');
    this.append(h('div', { class: 'dlq-copy-form' }, h('label', { for: inputId }, 'New payload'), ' ', input, ' ', button), status);
  }

  #edit(target, text, status) {
    const controller = target.controller;
    if (!controller) return;
    const view = controller.session.freshView();
    const job = view.ready.find((j) => j.id !== '');
    if (job === undefined) {
      status.textContent = 'Nothing is ready: bring a job back (Reset) and try again.';
      return;
    }
    const original = job.payload;
    job.payload = text;  // the reader's edit, on the copy the core handed out
    view.quarantined.length = 0;
    const again = controller.session.freshView().ready.find((j) => j.id === job.id);
    const unchanged = again !== undefined && again.payload === original && again.payload !== job.payload;
    this.dataset.met = String(unchanged);
    status.textContent = unchanged
      ? `✓ The queue is unchanged: the view now says ${quoted(job.payload)}, the core still holds ${quoted(again.payload)} for ${quoted(job.id)}.`
      : `✗ The core now holds ${quoted(again?.payload ?? '')} for ${quoted(job.id)}: a view was not a copy.`;
  }
}

if (!customElements.get('dlq-copy-check')) customElements.define('dlq-copy-check', DlqCopyCheckElement);
