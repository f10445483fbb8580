// @ts-check
// The "Import a broker's config…" dialog: a text box for one broker's settings (and,
// for SQS, the dead-letter queue's retention, which the source's attributes do not hold),
// Import, and what came of it: the fields set (each with the broker's setting it
// came from) and the keys read but ignored, or every refusal by name. A view:
// it says what the reader pasted through bindImport(handler); the controller
// translates it (import.mjs), applies it through the session and tells this
// view what to show. A refusal leaves the text in the box, to be corrected.
import { h } from '../shared/dom.mjs';

// [name, text, the SQS dead-letter queue's retention ('' for the other formats)]
/** @type {[name: string, text: string, dlqRetention?: string][]} */
const EXAMPLES = [
  ['BullMQ', '{ attempts: 3, backoff: { type: \'exponential\', delay: 1000 } }'],
  ['SQS', '{"Attributes":{"VisibilityTimeout":"30","MessageRetentionPeriod":"345600","RedrivePolicy":"{\\"deadLetterTargetArn\\":\\"arn:aws:sqs:us-east-1:123456789012:orders-dlq\\",\\"maxReceiveCount\\":5}"}}',
    '1209600'],
  ['Sidekiq', 'sidekiq_options retry: 5, queue: "default"'],
  ['RabbitMQ', '{"delivery-limit":20,"dead-letter-exchange":"dlx"}'],
];

export class ImportView {
  /** @type {(text: string, options: { dlqRetention: string }) => void} */
  #onImport = () => {};

  constructor(idPrefix) {
    const id = `${idPrefix}-import`;
    const headingId = `${id}-h`;
    this.text = h('textarea', { id: `${id}-text`, class: 'dlq-input dlq-import-text', rows: 7, spellcheck: 'false',
      autocomplete: 'off', 'aria-describedby': `${id}-hint` });
    this.dlqRetention = h('input', { id: `${id}-dlq-retention`, class: 'dlq-input dlq-import-dlq', type: 'text', inputmode: 'numeric',
      autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. 1209600', 'aria-describedby': `${id}-dlq-hint` });
    this.refusal = h('div', { class: 'dlq-field-error dlq-import-refusal', role: 'alert', hidden: true });
    this.result = h('div', { class: 'dlq-import-result', role: 'status' });
    this.importButton = h('button', { type: 'button', class: 'dlq-btn dlq-primary' }, 'Import');
    const close = h('button', { type: 'button', class: 'dlq-btn' }, 'Close');
    const example = ([name, text, dlqRetention = '']) => h('button', { type: 'button', class: 'dlq-btn dlq-chip', onclick: () => {
      this.text.value = text;
      this.dlqRetention.value = dlqRetention;
      this.text.focus();
    } }, name);
    this.element = h('dialog', { class: 'dlq-help dlq-dialog dlq-import', 'aria-labelledby': headingId },
      h('h2', { id: headingId }, 'Import a broker\'s config'),
      h('p', { id: `${id}-hint` },
        'Paste one of: BullMQ job options (JSON), SQS queue attributes as ', h('code', {}, 'aws sqs get-queue-attributes'),
        ' prints them (JSON), one ',
        h('code', {}, 'sidekiq_options'), ' line, or a RabbitMQ policy definition (JSON). BullMQ options may be the object as your code ' +
        'has it (unquoted keys, single quotes, trailing commas). The playground switches to that system\'s mode ' +
        'with those settings, and what only the old system had goes back to its default; the jobs and the script stay. ' +
        'Settings with no bearing on retries are listed as read, changing nothing. What the lab cannot express is refused by name, ' +
        'and then nothing changes.'),
      h('p', { class: 'dlq-hint dlq-import-check' }, 'To check a whole configuration (a Terraform plan, a CloudFormation template, ' +
        'RabbitMQ definitions, a Sidekiq app…) against every rule, with each finding\'s scenario a click away, use the ',
      h('a', { href: './check.html' }, 'Check page'), '.'),
      h('p', { class: 'dlq-import-examples' }, h('span', { class: 'dlq-label' }, 'Examples'), EXAMPLES.map(example)),
      h('label', { for: this.text.id, class: 'dlq-label' }, 'Broker config'), this.text,
      h('div', { class: 'dlq-import-sqs' },
        h('label', { for: this.dlqRetention.id, class: 'dlq-label' }, 'SQS: the dead-letter queue\'s MessageRetentionPeriod (s)'),
        this.dlqRetention,
        h('p', { id: `${id}-dlq-hint`, class: 'dlq-hint' }, 'Optional, SQS only. The attributes above are the source queue\'s. ' +
          'The lab counts the dead-letter queue\'s retention from the message\'s first enqueue, as a standard queue does, so a DLQ ' +
          'that keeps no longer than its source can lose a message soon after it arrives. Left empty, the source\'s retention is ' +
          'read as the dead-letter queue\'s.')),
      h('p', {}, this.importButton), this.refusal, this.result,
      h('div', { class: 'dlq-help-foot' }, close));
    close.addEventListener('click', () => this.element.close());
    const submit = () => this.#onImport(this.text.value, { dlqRetention: this.dlqRetention.value });
    this.importButton.addEventListener('click', submit);
    for (const box of [this.text, this.dlqRetention]) {
      box.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
      });
    }
  }

  /** `handler(text, { dlqRetention })`: Import (or Ctrl+Enter in a box); `dlqRetention` as typed ('' when empty). */
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
      ...(ignored.length === 0 ? [] : [h('p', {}, 'Read, changes nothing:'),
        h('ul', { class: 'dlq-import-ignored' }, ignored.map((i) => h('li', {}, h('code', {}, i.key), ` ${i.why}`)))]));
  }
}
