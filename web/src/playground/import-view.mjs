// The "Import a broker's config…" dialog: a text box for one broker's settings,
// Import, and what came of it: the fields set (each with the broker's setting it
// came from) and the keys read but ignored, or every refusal by name. A view:
// it says what the reader pasted through bindImport(handler); the controller
// translates it (import.mjs), applies it through the session and tells this
// view what to show. A refusal leaves the text in the box, to be corrected.
import { h } from '../shared/dom.mjs';

const EXAMPLES = [
  ['BullMQ', '{"attempts":3,"backoff":{"type":"exponential","delay":1000}}'],
  ['SQS', '{"Attributes":{"VisibilityTimeout":"30","MessageRetentionPeriod":"1209600","RedrivePolicy":"{\\"deadLetterTargetArn\\":\\"arn:aws:sqs:us-east-1:123456789012:orders-dlq\\",\\"maxReceiveCount\\":5}"}}'],
  ['Sidekiq', 'sidekiq_options retry: 5, queue: "default"'],
  ['RabbitMQ', '{"delivery-limit":20,"dead-letter-exchange":"dlx"}'],
];

export class ImportView {
  #onImport = () => {};

  constructor(idPrefix) {
    const id = `${idPrefix}-import`;
    const headingId = `${id}-h`;
    this.text = h('textarea', { id: `${id}-text`, class: 'dlq-input dlq-import-text', rows: 7, spellcheck: 'false',
      autocomplete: 'off', 'aria-describedby': `${id}-hint` });
    this.refusal = h('div', { class: 'dlq-field-error dlq-import-refusal', role: 'alert', hidden: true });
    this.result = h('div', { class: 'dlq-import-result', role: 'status' });
    this.importButton = h('button', { type: 'button', class: 'dlq-btn dlq-primary' }, 'Import');
    const close = h('button', { type: 'button', class: 'dlq-btn' }, 'Close');
    const example = ([name, text]) => h('button', { type: 'button', class: 'dlq-btn dlq-chip', onclick: () => {
      this.text.value = text;
      this.text.focus();
    } }, name);
    this.element = h('dialog', { class: 'dlq-help dlq-dialog dlq-import', 'aria-labelledby': headingId },
      h('h2', { id: headingId }, 'Import a broker\'s config'),
      h('p', { id: `${id}-hint` },
        'Paste one of: BullMQ job options (JSON), SQS queue attributes as ', h('code', {}, 'aws sqs get-queue-attributes'),
        ' prints them (JSON; MessageRetentionPeriod is read as the dead-letter queue\'s), one ',
        h('code', {}, 'sidekiq_options'), ' line, or a RabbitMQ policy definition (JSON). The playground switches to that system\'s mode ' +
        'with those settings; the jobs and the script stay. What the lab cannot express is refused by name, and then nothing changes.'),
      h('p', { class: 'dlq-import-examples' }, h('span', { class: 'dlq-label' }, 'Examples'), EXAMPLES.map(example)),
      h('label', { for: this.text.id, class: 'dlq-label' }, 'Broker config'), this.text,
      h('p', {}, this.importButton), this.refusal, this.result,
      h('div', { class: 'dlq-help-foot' }, close));
    close.addEventListener('click', () => this.element.close());
    this.importButton.addEventListener('click', () => this.#onImport(this.text.value));
    this.text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) this.#onImport(this.text.value);
    });
  }

  /** `handler(text)`: Import (or Ctrl+Enter in the box). */
  bindImport(handler) { this.#onImport = handler; }

  show() {
    if (!this.element.open) this.element.showModal();
    this.text.focus();
  }

  /** A refused import: every refusal's message (`heading` says what was refused). Nothing was changed. */
  refused(heading, messages) {
    this.result.replaceChildren();
    this.refusal.replaceChildren(h('p', {}, h('strong', {}, heading)), h('ul', {}, messages.map((m) => h('li', {}, m))));
    this.refusal.hidden = false;
  }

  /** An accepted import: what it set (`set`: [{ field, value, from }]) and what it read but ignored. */
  accepted(heading, set, ignored) {
    this.refusal.hidden = true;
    this.refusal.replaceChildren();
    const value = (v) => (typeof v === 'string' ? v : v.toLocaleString('en'));
    this.result.replaceChildren(
      h('p', {}, h('strong', {}, heading)),
      h('ul', { class: 'dlq-import-set' }, set.map((s) => h('li', {}, h('code', {}, s.field), ` = ${value(s.value)} `, h('span', { class: 'dlq-hint' }, `← ${s.from}`)))),
      ...(ignored.length === 0 ? [] : [h('p', {}, 'Read, changing nothing:'),
        h('ul', { class: 'dlq-import-ignored' }, ignored.map((i) => h('li', {}, h('code', {}, i.key), ` ${i.why}`)))]));
  }
}
