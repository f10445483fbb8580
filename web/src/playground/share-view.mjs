// @ts-check
// The share box (the link to this state, Copy link) and the refused-link alert
// (why a link was refused, the refused text whole with its own Copy). Views:
// each builds its DOM once and says what the reader did through bindX(handler).
import { h } from '../shared/dom.mjs';
import { blockedSelected, copyText } from '../shared/clipboard.mjs';

export class ShareView {
  constructor(id) {
    this.field = h('input', { type: 'text', readonly: true, id: `${id}-link`, class: 'dlq-input dlq-link', spellcheck: 'false' });
    this.status = h('span', { class: 'dlq-share-status', role: 'status' });
    this.copy = h('button', { type: 'button', class: 'dlq-btn' }, 'Copy link');
    this.element = h('div', { class: 'dlq-share' },
      h('label', { for: `${id}-link`, class: 'dlq-label' }, 'Link'), this.field, this.copy, this.status);
  }

  bindCopy(handler) { this.copy.addEventListener('click', () => handler()); }

  /** The link's URL; `fresh`: it is another link than the one on show (a status about that one no longer holds). */
  render(url, fresh) {
    if (fresh) this.status.textContent = '';
    this.field.value = url;
    this.copy.disabled = false;
  }

  /** No link for this state (`message`: the core's reason). */
  renderNone(message) {
    // Written only on a change: a playground too large for a link says so again after every change.
    const status = `No link: ${message}.`;
    if (this.field.value !== '') this.field.value = '';
    if (this.field.placeholder !== 'too large for a link') this.field.placeholder = 'too large for a link';
    if (this.status.textContent !== status) this.status.textContent = status;
    if (!this.copy.disabled) this.copy.disabled = true;
  }

  /** Copies `url`; where copying is blocked the link is selected instead. */
  copyLink(url) {
    return copyText(url, { status: this.status, field: this.field, copied: 'Link copied.', blocked: blockedSelected('link') });
  }
}

export class LinkAlertView {
  constructor(id) {
    this.text = h('p', {});
    this.refusedField = h('input', { type: 'text', readonly: true, id: `${id}-refused`, class: 'dlq-input dlq-link', spellcheck: 'false' });
    this.refusedStatus = h('span', { class: 'dlq-refused-status' });
    this.copy = h('button', { type: 'button', class: 'dlq-btn' }, 'Copy refused link');
    this.refused = h('div', { class: 'dlq-alert-refused' },
      h('label', { for: `${id}-refused`, class: 'dlq-label' }, 'Refused link'), this.refusedField, this.copy, this.refusedStatus);
    this.dismiss = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet' }, 'Dismiss');
    this.element = h('div', { class: 'dlq-alert', role: 'alert', hidden: true },
      h('div', { class: 'dlq-alert-body' }, this.text, this.refused), this.dismiss);
  }

  bindCopyRefused(handler) { this.copy.addEventListener('click', () => handler()); }
  bindDismiss(handler) { this.dismiss.addEventListener('click', () => handler()); }

  /** Why a link was refused (`message`), and the refused `text` whole ('' when there is none to show). */
  show(message, text = '') {
    this.text.textContent = message;
    this.refused.hidden = text === '';
    // A bare link is shown as the fragment it was; a URL or a '#fragment' as it was given.
    this.refusedField.value = text === '' || text.startsWith('#') || /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `#${text}`;
    this.refusedStatus.textContent = '';
    this.element.hidden = false;
  }

  clear() {
    this.element.hidden = true;
    this.text.textContent = '';
    this.refusedField.value = '';
    this.refusedStatus.textContent = '';
  }

  /** Copies the refused text; where copying is blocked it is selected instead. */
  copyRefused() {
    return copyText(this.refusedField.value, { status: this.refusedStatus, field: this.refusedField, blocked: blockedSelected('link') });
  }
}
