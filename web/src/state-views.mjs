// The queue's state as lists (regions "Ready", "Completed", "Quarantine") and
// the "Event log", the text twin of the timeline. Lists are keyed by job id and
// patched in place; each shows at most LIST_CAP entries so a step stays cheap
// with 1,000 jobs (the log and the counts always cover everything).
import { h } from './dom.mjs';

const LIST_CAP = 100;

function region(idPrefix, name, extraClass) {
  const headingId = `${idPrefix}-${name.toLowerCase().replace(/\W+/g, '-')}-h`;
  const count = h('span', { class: 'dlq-count' }, '0');
  // Focusable so keyboard users can scroll a long list (it may hold no buttons).
  const list = h('ol', { class: 'dlq-list', tabindex: 0, 'aria-labelledby': headingId });
  const more = h('p', { class: 'dlq-more', hidden: true });
  const empty = h('p', { class: 'dlq-empty' }, 'None');
  const section = h('section', { class: `dlq-panel dlq-state ${extraClass}`, 'aria-labelledby': headingId },
    h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, name), count),
    list, empty, more);
  return { section, count, list, more, empty, nodes: new Map() };
}

/** Patches `view.list` to show `shown` (the first LIST_CAP of `total` items, in order) keyed by id. */
function syncList(view, shown, total, make, update) {
  const want = new Set(shown.map((item) => item.id));
  for (const [id, li] of view.nodes) {
    if (!want.has(id)) {
      li.remove();
      view.nodes.delete(id);
    }
  }
  let expected = view.list.firstChild;
  for (const item of shown) {
    let li = view.nodes.get(item.id);
    if (!li) {
      li = make(item);
      view.nodes.set(item.id, li);
    }
    update(li, item);
    if (li !== expected) view.list.insertBefore(li, expected);
    expected = li.nextSibling;
  }
  view.count.textContent = String(total);
  view.empty.hidden = total > 0;
  view.more.hidden = total <= LIST_CAP;
  if (total > LIST_CAP) view.more.textContent = `… and ${total - LIST_CAP} more (the Event log lists every event).`;
}

/** Sets text only when it changed (keeps a step's DOM writes minimal). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function field(name, cls) {
  const value = h('span', { class: `dlq-v ${cls}` });
  return [h('span', { class: 'dlq-k' }, name), value];
}

export class StateViews {
  constructor({ idPrefix, onReplay, onRemove }) {
    this.ready = region(idPrefix, 'Ready', 'dlq-ready');
    this.completed = region(idPrefix, 'Completed', 'dlq-completed');
    this.quarantine = region(idPrefix, 'Quarantine', 'dlq-quarantine');
    this.ready.list.classList.add('is-queue');
    this.ready.empty.textContent = 'Nothing is ready.';
    this.quarantine.empty.textContent = 'Nothing quarantined.';
    this.completed.empty.textContent = 'Nothing completed yet.';
    this.element = h('div', { class: 'dlq-states' }, this.ready.section, this.completed.section, this.quarantine.section);
    this.#wire(this.ready.list, 'remove', onRemove);
    this.#wire(this.quarantine.list, 'replay', onReplay);
  }

  #wire(list, action, handler) {
    list.addEventListener('click', (e) => {
      const button = e.target.closest(`button[data-action="${action}"]`);
      if (button) handler(button.closest('li').dataset.id);
    });
  }

  /** `isRemovable(id)` says which ready jobs have not run yet. */
  sync(queue, stats, isRemovable) {
    const { maxAttempts } = stats;
    syncList(this.ready, queue.ready(0, LIST_CAP), stats.ready, (job) => {
      const li = h('li', { 'data-id': job.id },
        h('span', { class: 'dlq-id' }, job.id),
        h('span', { class: 'dlq-badge' }),
        h('span', { class: 'dlq-payload' }, job.payload),
        h('button', { type: 'button', class: 'dlq-remove', 'data-action': 'remove', 'aria-label': `Remove ${job.id}` }, 'Remove'));
      return li;
    }, (li, job) => {
      setText(li.children[1], `${job.attempts}/${maxAttempts} tried`);
      li.children[1].classList.toggle('is-tried', job.attempts > 0);
      li.children[3].hidden = !isRemovable(job.id);
    });
    syncList(this.completed, queue.completed(0, LIST_CAP), stats.completed, (job) => h('li', { 'data-id': job.id },
      h('span', { class: 'dlq-id' }, job.id),
      h('span', { class: 'dlq-badge is-done' }),
      h('span', { class: 'dlq-payload' }, job.payload)),
    (li, job) => setText(li.children[1], `${job.attempts} ${job.attempts === 1 ? 'attempt' : 'attempts'}`));
    syncList(this.quarantine, queue.quarantined(0, LIST_CAP), stats.quarantined, (entry) => {
      const [ak, av] = field('attempts', 'dlq-attempts');
      const [rk, rv] = field('reason', 'dlq-reason');
      const [ek, ev] = field('last error', 'dlq-error');
      return h('li', { 'data-id': entry.id },
        h('span', { class: 'dlq-id' }, entry.id),
        h('button', { type: 'button', class: 'dlq-replay', 'data-action': 'replay' }, `Replay ${entry.id}`),
        h('span', { class: 'dlq-payload' }, entry.payload),
        h('span', { class: 'dlq-facts' }, ak, av, rk, rv, ek, ev));
    }, (li, entry) => {
      const facts = li.children[3];
      setText(facts.querySelector('.dlq-attempts'), String(entry.attempts));
      setText(facts.querySelector('.dlq-reason'), entry.reason);
      setText(facts.querySelector('.dlq-error'), entry.lastError === '' ? '(none)' : entry.lastError);
    });
  }
}

/**
 * The "Event log": one line per event that has happened (the core's text and
 * explanation). The DOM holds a window of the latest LOG_WINDOW lines so a step
 * stays cheap at 5,000 events; "Show all events" lifts the window on request and
 * "Show latest only" puts it back.
 */
const LOG_WINDOW = 200;

export class EventLog {
  #items = [];      // li for events[#start + i]
  #start = 0;
  #window = LOG_WINDOW;
  #follow = true;
  #scrollQueued = false;
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
        this.scroller.scrollTop = 1e9;
      });
    }
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
