// @ts-check
// The "Event log": the text twin of the timeline, one line per event that has
// happened, as the core writes and explains it.
import { h } from '../shared/dom.mjs';
import { setText } from './regions.mjs';

/**
 * The "Event log": one line per event that has happened (the core's text and
 * explanation). The DOM holds a window of the latest LOG_WINDOW lines so a step
 * stays cheap at 5,000 events; "Show all events" lifts the window on request and
 * "Show latest only" puts it back.
 */
const LOG_WINDOW = 200;

/**
 * The content-visibility: auto element that skips `el` now (its contents are not
 * rendered: out of view), or null when `el` is rendered, or hidden some other way
 * (display: none), or the browser has no checkVisibility. checkVisibility with
 * contentVisibilityAuto answers a skipped element without updating it; the plain
 * call would lay the skipped playground out, the very cost this avoids.
 */
function skippedBy(el) {
  if (typeof el.checkVisibility !== 'function' || el.checkVisibility({ contentVisibilityAuto: true })) return null;
  let up = el.parentElement;  // the nearest ancestor rendered itself: the skipping one, if any
  while (up && !up.checkVisibility({ contentVisibilityAuto: true })) up = up.parentElement;
  return up && getComputedStyle(up).contentVisibility === 'auto' ? up : null;
}

export class EventLog {
  #items = [];      // li for events[#start + i]
  #start = 0;
  #window = LOG_WINDOW;
  #follow = true;
  #scrollQueued = false;
  #waitingFor = null;  // the content-visibility element a deferred scroll waits on
  #events = [];
  #applied = 0;

  constructor({ idPrefix }) {
    const headingId = `${idPrefix}-log-h`;
    this.count = h('span', { class: 'dlq-count' }, '0');
    this.list = h('ol', { class: 'dlq-log-list' });
    this.earlier = h('p', { class: 'dlq-more dlq-log-earlier', hidden: true });
    this.earlierText = h('span', {});
    // One button that toggles between the latest LOG_WINDOW lines and all of them.
    this.toggle = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', onclick: () => this.#toggleAll() }, 'Show all events');
    this.earlier.append(this.earlierText, ' ', this.toggle);
    this.scroller = h('div', { class: 'dlq-log-scroll', tabindex: 0, role: 'group', 'aria-labelledby': headingId }, this.list);
    this.element = h('section', { class: 'dlq-panel dlq-log', 'aria-labelledby': headingId },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Event log'), this.count),
      this.earlier, this.scroller);
    this.scroller.addEventListener('scroll', () => {
      const sc = this.scroller;
      this.#follow = sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 8;
    }, { passive: true });
  }

  /** Shows events[0 … applied) (the latest window of them); `dirtyFrom` as in Session.takeDirty(). */
  sync(events, dirtyFrom, applied) {
    this.#events = events;
    this.#applied = applied;
    const end = this.#start + this.#items.length;
    const keep = Math.min(end, dirtyFrom, applied);
    const from = Math.max(0, applied - this.#window);
    if (keep < this.#start || from > end) {
      this.#rebuild(from);
    } else {
      for (let i = keep - this.#start; i < this.#items.length; i++) this.#items[i].remove();
      this.#items.length = keep - this.#start;
      this.#appendUpTo(applied);
      if (from - this.#start > 100) { // trim the head in batches
        const drop = from - this.#start;
        for (let i = 0; i < drop; i++) this.#items[i].remove();
        this.#items.splice(0, drop);
        this.#start = from;
      }
    }
    this.count.textContent = String(applied);
    this.#bar();
    // Follow the newest line unless the reader scrolled up. Writing scrollTop
    // needs a layout: do it at the next frame, where that layout happens anyway.
    if ((this.#follow || keep === 0) && !this.#scrollQueued) {
      this.#scrollQueued = true;
      requestAnimationFrame(() => {
        this.#scrollQueued = false;
        this.#scrollToEnd();
      });
    }
  }

  /**
   * Scrolls to the newest line. While content-visibility skips this log (its
   * playground is out of view) nothing of it is laid out, and a write would force
   * that layout: then the scroll waits until the playground is shown again.
   */
  #scrollToEnd() {
    const sc = this.scroller;
    const skipper = skippedBy(sc);
    if (!skipper) {
      sc.scrollTop = 1e9;
      return;
    }
    if (this.#waitingFor === skipper) return;
    this.#waitingFor = skipper;
    const shown = (event) => {
      if (event.target !== skipper || event.skipped) return;
      skipper.removeEventListener('contentvisibilityautostatechange', shown);
      this.#waitingFor = null;
      sc.scrollTop = 1e9;
    };
    skipper.addEventListener('contentvisibilityautostatechange', shown);
  }

  #rebuild(from) {
    for (const li of this.#items) li.remove();
    this.#items = [];
    this.#start = from;
    this.#appendUpTo(this.#applied);
  }

  #appendUpTo(applied) {
    const batch = document.createDocumentFragment();
    for (let i = this.#start + this.#items.length; i < applied; i++) {
      const event = this.#events[i];
      const li = h('li', { class: `dlq-log-${event.kind}` },
        h('code', { class: 'dlq-log-text' }, event.text),
        h('span', { class: 'dlq-log-why' }, event.explanation));
      this.#items.push(li);
      batch.append(li);
    }
    this.list.append(batch);
  }

  /** The line above the log: how much is hidden, and the button to show all / the latest only. */
  #bar() {
    const all = this.#window === Infinity;
    this.earlier.hidden = all ? this.#applied <= LOG_WINDOW : this.#start === 0;
    if (this.earlier.hidden) return;
    setText(this.earlierText, all ? `Showing all ${this.#applied} events.` : `${this.#start} earlier events are not shown.`);
    setText(this.toggle, all ? 'Show latest only' : 'Show all events');
  }

  /** Shows every line, or goes back to the latest LOG_WINDOW; the lines in view stay in view. */
  #toggleAll() {
    const sc = this.scroller;
    const fromBottom = sc.scrollHeight - sc.scrollTop;
    this.#window = this.#window === Infinity ? LOG_WINDOW : Infinity;
    this.#rebuild(Math.max(0, this.#applied - this.#window));
    this.#bar();
    sc.scrollTop = sc.scrollHeight - fromBottom;
  }
}
