// @ts-check
// The Why line (a polite live region): an author's caption while the history is
// the authored script's, the core's sentence for the last action (or a notice),
// and what the last edit did to the script; above it, the alert for a refused
// action that has no field of its own. A view: the controller says what to show.
import { h, alertText } from '../shared/dom.mjs';

export class WhyView {
  constructor() {
    this.meta = h('span', { class: 'dlq-why-meta' });
    this.text = h('span', { class: 'dlq-why-text' });
    // An author's caption for this position of the script (options.captions): in the Why line's live region.
    this.caption = h('span', { class: 'dlq-caption', hidden: true });
    // What the last edit did to the script (replaced or dropped later actions):
    // part of the Why line's live region, so a step is announced once.
    this.scriptNote = h('span', { class: 'dlq-script-note' });
    this.element = h('p', { class: 'dlq-why', role: 'status' }, this.caption, h('span', { class: 'dlq-why-label' }, 'Why'), this.meta, this.text,
      this.scriptNote);
    // A refused action that has no field of its own (replay, remove, moving the cursor, a preset).
    this.actionAlert = h('p', { class: 'dlq-field-error dlq-action-error', role: 'alert', hidden: true });
  }

  /** A refused action without a field: "<what>: <message>." until the next change is drawn. */
  refused(what, message) {
    alertText(this.actionAlert, `${what}: ${message}.`);
  }

  /**
   * Draws the session's view: `notice` (a sentence of the page's) instead of the
   * core's explanation, and `caption` ('' for none). Returns the line's text, for
   * the phone's bar.
   */
  render(view, { notice, caption }) {
    alertText(this.actionAlert, null);  // a refusal holds until the next change is drawn
    const { stats, length } = view;
    // Why: the core's own sentence for the last action (its first event, a crash's recovery, the clock).
    const event = view.last.event;
    if (notice) {
      this.meta.textContent = '';
      this.text.textContent = notice;
    } else if (view.last.action !== null) {
      this.meta.textContent = event ? `step ${event.step} · "${event.id}"` : `step ${stats.step}`;
      this.text.textContent = view.last.explanation;
    } else {
      this.meta.textContent = 'step 0';
      this.text.textContent = length > 0
        ? 'Set-up done. Choose an outcome and press Step, or press Forward / Run to play the script.'
        : 'Set-up done. Choose an outcome and press Step.';
    }
    this.element.classList.toggle('is-notice', Boolean(notice));
    const { dropped } = view;
    if (dropped) {
      const n = `${dropped.count} later action${dropped.count === 1 ? '' : 's'}`;
      this.scriptNote.textContent = dropped.replayed
        ? `The simulated world played the script past this point again under the new set-up (${n} replaced; Undo brings them back).`
        : (dropped.reason === null
        ? `This change replaced the script's ${n} (Undo brings them back).`
        : `The script's ${n} no longer ${dropped.count === 1 ? 'applies' : 'apply'} and ${dropped.count === 1 ? 'was' : 'were'} dropped: ${dropped.reason}.`);
    } else if (!notice) {
      this.scriptNote.textContent = '';
    }
    if (this.caption.textContent !== caption) this.caption.textContent = caption;
    if (this.caption.hidden !== (caption === '')) this.caption.hidden = caption === '';
    return `${this.text.textContent} ${this.scriptNote.textContent}`.trim();
  }
}
