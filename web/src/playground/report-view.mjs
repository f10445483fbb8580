// @ts-check
// A worker's report typed as text (the embed's `report-box`): the page sends it
// to the core as it is (Session.report), and the core parses the outcome. An
// outcome it does not know is refused in its own words, shown here, and changes
// nothing: the next job keeps its place and its attempts.
import { h, uid } from '../shared/dom.mjs';

export class ReportView {
  /** @type {(text: string) => void} */
  #onSend = () => {};

  constructor() {
    const id = uid('dlq-report');
    this.input = h('input', { type: 'text', id, value: 'retry-later', spellcheck: 'false', autocomplete: 'off' });
    this.send = h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#onSend(this.input.value) }, 'Send report');
    this.result = h('p', { class: 'dlq-report-result', role: 'status' });
    this.element = h('div', { class: 'dlq-report', hidden: true },
      h('label', { for: id }, 'Outcome, as text'), ' ', this.input, ' ', this.send, this.result);
  }

  /** `handler(text)`: Send report. */
  bindSend(handler) { this.#onSend = handler; }

  /** The core's refusal (its message), or null when the report was taken; `refused`: the session's count. */
  render(message, refused) {
    this.result.classList.toggle('is-refused', message !== null);
    this.result.textContent = message !== null
      ? `Refused by the core (${refused} so far): ${message}. Nothing changed.`
      : 'Taken: the report was a known outcome.';
  }
}
