// @ts-check
// The queue's state as regions (the "Event log", the timeline's text twin, is event-log.mjs).
//
//   Depth alarm     a banner in a status live region while the alarm is raised
//   Ready           a head → tail strip: a requeued job visibly joins the tail
//   In flight       each lease: token, attempt n of max, expiry and time left
//   Delayed         each job with its due time and time left
//   Completed       with the reorders called out on the jobs that broke their key's order
//   Quarantine      each entry with its context: class, reason, attempts, last error,
//                   the time of its final attempt and its age against the retention
//   Worst case      the policy's worst case, term by term, beside the actual path (worst-view.mjs)
//
// In flight, Delayed and Worst case appear only when the scenario uses the
// clock; lesson 1 sees Ready, Completed and Quarantine as before. Lists are
// keyed by job and content (cardKey) and patched in place; each shows what the
// session's view holds (the core caps every list, Ready as head, gap and tail) so
// a step stays cheap with 1,000 jobs (the log and the counts cover everything).
// Every value is read from the core's views; nothing here decides a rule.
import { h } from '../shared/dom.mjs';
import { cardKey, region, syncList, setText, show, facts, meter } from './regions.mjs';
import { ms, ofTotal, grouped } from '../shared/time-format.mjs';
import { WorstCaseView } from './worst-view.mjs';

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
function idList(ids) {
  const q = ids.map((id) => `"${id}"`);
  return q.length < 2 ? q.join('') : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
}

const plural = (n, one, many = `${one}s`) => `${grouped(n)} ${n === 1 ? one : many}`;

/** A record value as the system keeps it: a time (a name in `times`) as its instant, an empty text as "". */
function recordValue(name, value, times) {
  if (times.includes(name)) return `at ${ms(value)}`;
  return value === '' ? '""' : String(value);
}

/**
 * A dead letter as its own system records it (entry.systemRecord, under the core's title
 * entry.systemRecordTitle): each field under the system's name for it, in the core's order; a
 * list field (RabbitMQ's x-death, one entry per {queue, reason}, newest first) as a table whose
 * columns are its items' fields. The core names the time fields (entry.systemRecordTimes).
 * `set(entry)` draws it; an entry without a record (the lab's) hides it.
 */
function systemRecordCard() {
  const title = h('span', { class: 'dlq-record-title' });
  const fields = h('span', { class: 'dlq-record-fields' });
  const element = h('span', { class: 'dlq-record', hidden: true }, title, fields);
  return {
    element,
    set(entry) {
      const record = entry.systemRecord;
      show(element, record !== undefined);
      if (record === undefined) return;
      const times = entry.systemRecordTimes ?? [];
      setText(title, entry.systemRecordTitle);
      fields.replaceChildren(...Object.entries(record).map(([name, value]) => {
        if (!Array.isArray(value)) {
          return h('span', { class: 'dlq-record-field' }, h('span', { class: 'dlq-record-name' }, name), ' ', recordValue(name, value, times));
        }
        const columns = [...new Set(value.flatMap((item) => Object.keys(item)))];
        return h('table', { class: 'dlq-record-table', 'aria-label': name },
          h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, ...value.map((item) => h('tr', {}, ...columns.map((c) =>
            h('td', {}, item[c] === undefined ? '' : recordValue(c, item[c], times)))))));
      }));
    },
  };
}

/**
 * An operator's fix on a quarantine card: a closed "Fix payload" disclosure with the
 * entry's payload to edit and a Patch and replay button (the controller sends the core
 * patch(id, payload), then replay(id)). `set(payload)` shows the entry's payload unless
 * the reader is editing it.
 */
function patchEditor(id) {
  const text = h('textarea', { class: 'dlq-patch-payload', rows: 2, spellcheck: 'false', 'aria-label': `New payload for ${id}` });
  const element = h('details', { class: 'dlq-patch' },
    h('summary', {}, 'Fix payload…'),
    text,
    h('button', { type: 'button', class: 'dlq-replay', 'data-action': 'patch-replay' }, `Patch and replay ${id}`));
  let shown = null;
  return {
    element,
    text,
    set(payload) {
      if (element.open && shown !== null) return;  // the reader's edit stays
      shown = payload;
      text.value = payload;
    },
  };
}

/** True (and remembered) when a card's inputs differ from the last time it was drawn: most cards do not change in a step. */
function changed(d, signature) {
  if (d.signature === signature) return false;
  d.signature = signature;
  return true;
}

/**
 * Whether the queue uses the clock (or anything past lesson 1): a backoff, a
 * retention or alarm, ordering by key, or time, leases or delays in its state.
 */
function clockFromQueue(policy, stats) {
  return policy.backoff.kind !== 'none' || policy.ordering !== 'none' || policy.quarantine.retentionMs > 0 ||
    policy.quarantine.alarmDepth > 0 || stats.now > 0 || stats.delayed > 0 || stats.leased > 0 ||
    stats.reorders > 0 || stats.expired > 0 || stats.lost > 0;
}

/** Cards a list shows in full before it is capped with a Show all button. */
const FULL_LIST = 8;

/** Gives region `r` a Show all / Show fewer toggle, and r.sizeToFit() to call after a sync. */
function expandable(r) {
  r.list.classList.add('is-full');
  r.expand = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet dlq-expand', hidden: true, 'aria-expanded': 'false' });
  r.expand.addEventListener('click', () => {
    const open = r.expand.getAttribute('aria-expanded') !== 'true';
    r.expand.setAttribute('aria-expanded', String(open));
    r.sizeToFit();
  });
  r.more.before(r.expand);
  r.sizeToFit = () => {
    const cards = r.list.children.length;
    const long = cards > FULL_LIST;
    const open = r.expand.getAttribute('aria-expanded') === 'true';
    r.list.classList.toggle('is-capped', long && !open);
    show(r.expand, long);
    if (long) setText(r.expand, open ? 'Show fewer' : `Show all ${grouped(cards)}`);
  };
}

export class StateViews {
  #reorderKey = '';
  #reorders = new Map(); // completed id -> the reorders it made
  #tail = null;       // the Ready tail's id at the last sync
  #synced = false;

  constructor({ idPrefix }) {
    // The depth alarm: a polite live region, always in the page (one that appears is not
    // reliably announced); the banner is put into it while the alarm is raised.
    this.alarmText = h('span', { class: 'dlq-alarm-text' });
    this.alarm = h('p', { class: 'dlq-alarm' }, h('strong', { class: 'dlq-alarm-title' }, 'Depth alarm raised'), ' ', this.alarmText);
    this.alarmLive = h('div', { class: 'dlq-alarm-live', role: 'status' });

    this.ready = region(idPrefix, 'Ready', 'dlq-ready', 'Nothing is ready.');
    this.ready.list.classList.add('is-queue');
    this.ready.ends = h('span', { class: 'dlq-ends', 'aria-hidden': 'true' }, 'head → tail');
    this.ready.head.insertBefore(this.ready.ends, this.ready.count);
    this.flight = region(idPrefix, 'In flight', 'dlq-flight', 'Nothing in flight.');
    this.delayed = region(idPrefix, 'Delayed', 'dlq-delayed', 'Nothing delayed.');
    this.completed = region(idPrefix, 'Completed', 'dlq-completed', 'Nothing completed yet.');
    this.reorderNote = h('p', { class: 'dlq-reorders', hidden: true });
    this.completed.list.before(this.reorderNote);
    this.quarantine = region(idPrefix, 'Quarantine', 'dlq-quarantine', 'Nothing quarantined.');
    this.alarmNote = h('p', { class: 'dlq-note', hidden: true });
    this.quarantine.list.before(this.alarmNote);
    // Dead letters with nowhere to go (no DLX, removeOnFail true, dead: false): only for such a policy.
    this.dropped = region(idPrefix, 'Dropped', 'dlq-dropped', 'Nothing dropped.');
    this.dropped.section.hidden = true;

    this.worstCase = new WorstCaseView(idPrefix);
    this.worst = this.worstCase.element;
    // The lists an exercise compares are shown in full; a long one is capped, with Show all.
    for (const r of [this.completed, this.quarantine]) expandable(r);

    this.grid = h('div', { class: 'dlq-states' }, this.ready.section, this.flight.section,
      this.delayed.section, this.completed.section, this.quarantine.section, this.dropped.section, this.worst);
    this.element = h('div', { class: 'dlq-state-views' }, this.alarmLive, this.grid);
  }

  /** `handler(id)`: Replay on a quarantine entry. */
  bindReplay(handler) {
    this.#wire(this.quarantine.list, 'replay', handler);
  }

  /** `handler(id, payload)`: Patch and replay on a quarantine entry, with the payload typed in its editor. */
  bindPatchAndReplay(handler) {
    this.quarantine.list.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-action="patch-replay"]');
      if (!button) return;
      const li = button.closest('li');
      handler(li.dataset.id, li.dlq.patch.text.value);
    });
  }

  /** `handler(id)`: Retry without a reset on a quarantine entry (offered where the core accepts it: bullmq). */
  bindRetryWithoutReset(handler) {
    this.#wire(this.quarantine.list, 'retry-keep', handler);
  }

  /** `handler(id)`: Remove on a ready job that has not run. */
  bindRemove(handler) {
    this.#wire(this.ready.list, 'remove', handler);
  }

  #wire(list, action, handler) {
    list.addEventListener('click', (e) => {
      const button = e.target.closest(`button[data-action="${action}"]`);
      if (button) handler(button.closest('li').dataset.id);
    });
  }

  /**
   * Draws a session view (lab.createSession). `options.removable` (default
   * true): ready jobs that have not run show Remove. `options.clock`
   * (optional): true when the scenario's script uses the clock (the playground
   * passes Timeline.usesClock, so the clock's regions are there from step 0).
   * Either way they also show when the queue's policy or state uses the clock
   * (a backoff, ordering, a retention or alarm; time past 0, leases, delays).
   * `options.worst` (optional): the Worst case card's bound, the core's over the
   * failures this playground can meet (session.worstCase()); else view.worstCase.
   */
  sync(view, options = {}) {
    const { stats, policy } = view;
    const clock = options.clock === true || clockFromQueue(policy, stats);
    const { now, maxAttempts } = stats;
    this.grid.classList.toggle('is-clock', clock);

    // Depth alarm
    const alarm = policy.quarantine.alarmDepth > 0 ? view.alarm : null;
    if (alarm?.raised) setText(this.alarmText, `Quarantine depth ${grouped(alarm.depth)}, alarm threshold ${grouped(alarm.threshold)}.`);
    if ((alarm?.raised === true) !== (this.alarm.parentNode === this.alarmLive)) this.alarmLive.replaceChildren(...(alarm?.raised ? [this.alarm] : []));
    show(this.alarmNote, alarm !== null && !alarm.raised);
    if (alarm && !alarm.raised) setText(this.alarmNote, `Depth alarm at ${plural(alarm.threshold, 'entry', 'entries')}.`);

    this.#syncReady(view, options.removable !== false, clock);

    show(this.flight.section, clock);
    show(this.delayed.section, clock);
    // Where the delayed jobs wait, as the core names it (policy.delayAt): the broker's, a sleeping worker, the retry queue.
    // (The heading is looked up: an embed's heading level replaces the element built here.)
    setText(this.delayed.head.querySelector(`[id="${this.delayed.headingId}"]`), view.delayedIn === undefined ? 'Delayed'
      : view.delayedIn === 'worker' ? 'Delayed: asleep in its worker' : `Delayed in ${view.delayedIn}`);
    show(this.worst, clock);
    if (clock) {
      syncList(this.flight, view.leased, stats.leased, (lease) => {
        const li = h('li', { 'data-id': lease.id });
        li.dlq = {
          token: h('span', { class: 'dlq-badge' }),
          when: h('span', { class: 'dlq-when' }),
          at: h('span', { class: 'dlq-at' }),
          attempt: h('span', { class: 'dlq-attempt' }),
          meter: meter('lease'),
        };
        li.append(h('span', { class: 'dlq-id' }, lease.id), li.dlq.token, li.dlq.attempt,
          h('span', { class: 'dlq-timing' }, li.dlq.when, ' ', li.dlq.at), li.dlq.meter.element,
          h('span', { class: 'dlq-payload' }, lease.payload));
        return li;
      }, (li, lease) => {
        const d = li.dlq;
        if (!changed(d, `${now}|${lease.token}|${lease.attempts}|${lease.expiresAt}|${maxAttempts}|${policy.leaseMs}`)) return;
        setText(d.token, lease.token);
        setText(d.attempt, `attempt ${grouped(lease.attempts)} of ${grouped(maxAttempts)}`);
        setText(d.when, `expires in ${ms(Math.max(0, lease.expiresAt - now))}`);
        setText(d.at, `(at ${ms(lease.expiresAt)})`);
        d.meter.set(policy.leaseMs > 0 ? 1 - (lease.expiresAt - now) / policy.leaseMs : 0);
      });
      syncList(this.delayed, view.delayed, stats.delayed, (job) => {
        const li = h('li', { 'data-id': job.id });
        li.dlq = { badge: h('span', { class: 'dlq-badge is-tried' }), when: h('span', { class: 'dlq-when' }), at: h('span', { class: 'dlq-at' }) };
        li.append(h('span', { class: 'dlq-id' }, job.id), li.dlq.badge,
          h('span', { class: 'dlq-timing' }, li.dlq.when, ' ', li.dlq.at), h('span', { class: 'dlq-payload' }, job.payload));
        return li;
      }, (li, job) => {
        const d = li.dlq;
        if (!changed(d, `${now}|${job.attempts}|${job.dueAt}|${maxAttempts}`)) return;
        setText(d.badge, `${job.attempts}/${maxAttempts} tried`);
        setText(d.when, `due in ${ms(Math.max(0, job.dueAt - now))}`);
        setText(d.at, `(at ${ms(job.dueAt)})`);
      });
      this.worstCase.sync(view, options.worst ?? view.worstCase);
    } else {
      this.worstCase.forget();
    }

    this.#syncCompleted(view);
    this.#syncQuarantine(view, clock);
    this.#syncDropped(view, clock);
    for (const r of [this.completed, this.quarantine]) r.sizeToFit();
    this.#synced = true;
  }

  #syncReady(view, removableShown, clock) {
    const { stats } = view;
    const { maxAttempts } = stats;
    const shown = view.ready;
    syncList(this.ready, shown, stats.ready, (job) => {
      if (job.gap !== undefined) {
        const li = h('li', { class: 'dlq-gap' });
        li.dlq = { text: h('span', { class: 'dlq-gap-text' }) };
        li.append(li.dlq.text);
        return li;
      }
      const li = h('li', { 'data-id': job.id });
      li.dlq = {
        badge: h('span', { class: 'dlq-badge' }),
        key: h('span', { class: 'dlq-key', hidden: true }),
        held: h('span', { class: 'dlq-held', hidden: true }),
        remove: h('button', { type: 'button', class: 'dlq-remove', 'data-action': 'remove', 'aria-label': `Remove ${job.id}` }, 'Remove'),
      };
      li.append(h('span', { class: 'dlq-id' }, job.id), li.dlq.badge, h('span', { class: 'dlq-payload' }, job.payload),
        li.dlq.key, li.dlq.held, li.dlq.remove);
      return li;
    }, (li, job) => {
      const d = li.dlq;
      if (job.gap !== undefined) {
        setText(d.text, `… ${grouped(job.gap)} more between head and tail …`);
        return;
      }
      const removable = removableShown && job.removable;
      if (!changed(d, `${job.attempts}|${maxAttempts}|${job.key}|${job.heldBy}|${removable}`)) return;
      setText(d.badge, `${job.attempts}/${maxAttempts} tried`);
      d.badge.classList.toggle('is-tried', job.attempts > 0);
      show(d.key, job.key !== null);
      if (job.key !== null) setText(d.key, `key ${job.key}`);
      show(d.held, job.heldBy !== null);
      if (job.heldBy !== null) setText(d.held, `waits for "${job.heldBy}"`);
      show(d.remove, removable);
    });
    // The job that just joined the tail (a requeue, a due delay, a replay) is marked for a moment.
    const tail = stats.ready > 0 ? cardKey(shown[shown.length - 1]) : null;
    if (tail !== this.#tail) {
      for (const li of this.ready.list.querySelectorAll('.is-arrived')) li.classList.remove('is-arrived');
      if (this.#synced && tail !== null && stats.ready > 1) this.ready.nodes.get(tail)?.classList.add('is-arrived');
      this.#tail = tail;
    }
    show(this.ready.ends, stats.ready > 1 || clock);
  }

  #syncCompleted(view) {
    const { stats } = view;
    // Reorders: regrouped only when they changed.
    const key = view.reorders.map((r) => `${r.id}:${r.overtook.join(',')}`).join(' ');
    if (key !== this.#reorderKey) {
      this.#reorderKey = key;
      this.#reorders.clear();
      const list = view.reorders;
      for (const r of list) {
        const mine = this.#reorders.get(r.id) ?? [];
        mine.push(r);
        this.#reorders.set(r.id, mine);
      }
      show(this.reorderNote, list.length > 0);
      if (list.length > 0) {
        const first = list.slice(0, 3).map((r) => `"${r.id}" overtook ${idList(r.overtook)} (key ${r.key})`).join('; ');
        const rest = stats.reorders - Math.min(3, list.length);
        setText(this.reorderNote, `${plural(stats.reorders, 'reorder')}: ${first}${rest > 0 ? `; and ${grouped(rest)} more` : ''}.`);
      }
    }
    syncList(this.completed, view.completed, stats.completed, (job) => {
      const li = h('li', { 'data-id': job.id });
      li.dlq = {
        badge: h('span', { class: 'dlq-badge is-done' }),
        key: h('span', { class: 'dlq-key', hidden: true }),
        reorder: h('span', { class: 'dlq-reorder', hidden: true }),
      };
      li.append(h('span', { class: 'dlq-id' }, job.id), li.dlq.badge, h('span', { class: 'dlq-payload' }, job.payload),
        li.dlq.key, li.dlq.reorder);
      return li;
    }, (li, job) => {
      const d = li.dlq;
      const reorders = this.#reorders.get(job.id);
      if (!changed(d, `${job.attempts}|${job.key}|${reorders ? reorders.flatMap((r) => r.overtook).join('\n') : ''}`)) return;
      setText(d.badge, plural(job.attempts, 'attempt'));
      show(d.key, job.key !== null);
      if (job.key !== null) setText(d.key, `key ${job.key}`);
      show(d.reorder, reorders !== undefined);
      li.classList.toggle('is-reorder', reorders !== undefined);
      if (reorders) setText(d.reorder, `Reorder: overtook ${idList(reorders.flatMap((r) => r.overtook))}`);
    });
  }

  /** The core's discarded jobs (view.discarded: present only when the policy keeps its dead letters nowhere). */
  #syncDropped(view, clock) {
    show(this.dropped.section, view.discarded !== undefined);
    if (view.discarded === undefined) return;
    syncList(this.dropped, view.discarded, view.stats.discarded, (job) => {
      const li = h('li', { 'data-id': job.id });
      li.dlq = { facts: facts([['reason', 'reason'], ['attempts', 'attempts'], ['at', 'dropped']]) };
      li.append(h('span', { class: 'dlq-id' }, job.id), h('span', { class: 'dlq-payload' }, job.payload), li.dlq.facts.element);
      return li;
    }, (li, job) => {
      const d = li.dlq;
      if (!changed(d, `${clock}|${job.attempts}|${job.systemReason}|${job.at}`)) return;
      d.facts.set('reason', job.systemReason);
      d.facts.set('attempts', String(job.attempts));
      d.facts.set('at', clock ? `at ${ms(job.at)}` : null);
    });
  }

  #syncQuarantine(view, clock) {
    const { stats } = view;
    const { now } = stats;
    syncList(this.quarantine, view.quarantined, stats.quarantined, (entry) => {
      const li = h('li', { 'data-id': entry.id });
      li.dlq = {
        alert: h('span', { class: 'dlq-alert-badge', hidden: true }, 'alert'),
        facts: facts([['class', 'class'], ['reason', 'reason'], ['system', 'system reason'], ['attempts', 'attempts'], ['error', 'last error'],
          ['key', 'key'], ['final', 'final attempt'], ['kept', 'kept'], ['retention', 'retention'], ['source', 'source queue']]),
        meter: meter('retention'),
        record: systemRecordCard(),
        // BullMQ's job.retry() without resetAttemptsMade: attempts kept, one more run.
        keep: h('button', { type: 'button', class: 'dlq-replay', 'data-action': 'retry-keep', hidden: true,
          title: 'job.retry() without resetAttemptsMade: attemptsMade stays, so it runs once more and a failure there is final' },
        `Retry ${entry.id} without reset`),
        payload: h('span', { class: 'dlq-payload' }),
        patch: patchEditor(entry.id),
      };
      li.append(h('span', { class: 'dlq-id' }, entry.id), li.dlq.alert,
        h('button', { type: 'button', class: 'dlq-replay', 'data-action': 'replay' }, `Replay ${entry.id}`), li.dlq.keep,
        li.dlq.payload, li.dlq.facts.element, li.dlq.record.element, li.dlq.meter.element, li.dlq.patch.element);
      return li;
    }, (li, entry) => {
      const d = li.dlq;
      const e = entry;
      show(d.keep, view.retryWithoutReset === true);
      // The payload is the entry's own, as the core has it now (a patch changes it).
      setText(d.payload, entry.payload);
      d.patch.set(entry.payload);
      if (!changed(d, `${clock}|${now}|${e.retentionFrom}|${e.retentionUntil}|${e.attempts}|${e.reason}|${e.systemReason}|${e.class}|${e.lastError}|${e.key}|${e.arrivedAt}|${e.alert}|${e.sourceQueue}|${JSON.stringify(e.systemRecord ?? null)}`)) return;
      show(d.alert, entry.alert);
      d.facts.set('class', clock ? entry.class : null);
      d.facts.set('reason', entry.reason);
      // Only under a real system's mode (the core names the reason as that system does: x-death's, or none for SQS).
      d.facts.set('system', entry.systemReason === undefined ? null : entry.systemReason === '' ? '(no reason kept)' : entry.systemReason);
      // Under a system's mode the entry is drawn as that system records it too (the core keeps it).
      d.record.set(entry);
      d.facts.set('attempts', String(entry.attempts));
      d.facts.set('error', entry.lastError === '' ? '(none)' : entry.lastError);
      d.facts.set('key', entry.key);
      // Dead-lettered by a TTL or a length limit, it was never delivered: no attempt to date.
      d.facts.set('final', !clock ? null : entry.attempts === 0 ? `none (dead-lettered undelivered at ${ms(entry.arrivedAt)})`
        : `at ${ms(entry.arrivedAt)}`);
      // The retention window is the core's (entry.retentionFrom/Until): from the arrival, or under
      // sqs from the job's first enqueue; the card draws it and says where it starts when that is
      // not the arrival.
      const kept = entry.retentionUntil !== undefined;
      const span = kept ? entry.retentionUntil - entry.retentionFrom : 0;
      const fromArrival = kept && entry.retentionFrom === entry.arrivedAt;
      d.facts.set('kept', clock ? (fromArrival ? ofTotal(now - entry.arrivedAt, span) : ms(now - entry.arrivedAt)) : null);
      d.facts.set('retention', clock && kept && !fromArrival
        ? `${ofTotal(now - entry.retentionFrom, span)} since ${ms(entry.retentionFrom)}; dropped at ${ms(entry.retentionUntil)}` : null);
      show(d.meter.element, clock && kept);
      if (clock && kept) d.meter.set(span > 0 ? (now - entry.retentionFrom) / span : 1);
      // The queue it came from, named by the core: where a replay sends it back.
      d.facts.set('source', entry.sourceQueue);
    });
  }
}
