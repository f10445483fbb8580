// The Worst case card: the bounded path's sum, term by term, as the core
// computed it (view.worstCase: core/policy/backoff.h WorstCasePath, its leases
// and each run of retry delays with the class that gives it), and beside each
// term what the job furthest along actually spent so far, read off the
// timeline's events. It draws; the worst case itself is the core's.
import { h } from '../shared/dom.mjs';
import { setText } from './regions.mjs';
import { ms, grouped } from '../shared/time-format.mjs';

const plural = (n, one, many = `${one}s`) => `${grouped(n)} ${n === 1 ? one : many}`;

/**
 * The path one job has taken so far, from the events that have happened: the
 * job with the most attempts since its last replay (the earliest to start on a
 * tie). Returns null before any attempt. { id, attempts, leases: [ms], delays:
 * Map(after attempt -> ms), start, end (null: still going), endKind }.
 */
export function actualPath(events, now) {
  const jobs = new Map();
  for (const e of events) {
    if (e.kind === 'replayed') { jobs.delete(e.id); continue; }
    let job = jobs.get(e.id);
    const starts = e.kind === 'leased' || (e.kind === 'attempt' && e.token === undefined);
    if (!job && !starts) continue;
    if (!job) {
      job = { id: e.id, attempts: 0, leases: [], open: new Map(), delays: new Map(), start: e.time, end: null, endKind: null };
      jobs.set(e.id, job);
    }
    if (starts) job.attempts = Math.max(job.attempts, e.attempts);
    if (e.kind === 'leased') job.open.set(e.token, e.time);
    if ((e.kind === 'attempt' || e.kind === 'expired') && e.token !== undefined && job.open.has(e.token)) {
      job.leases.push(e.time - job.open.get(e.token));
      job.open.delete(e.token);
    }
    if (e.kind === 'attempt' && e.token === undefined) job.leases.push(0);  // a Step: an attempt with no lease time
    if (e.kind === 'delayed') job.delays.set(e.attempts, e.delayMs);
    if (e.kind === 'quarantined' || e.kind === 'completed') { job.end = e.time; job.endKind = e.kind; }
  }
  let best = null;
  for (const job of jobs.values()) {
    for (const since of job.open.values()) job.leases.push(now - since);  // a lease still running
    if (!best || job.attempts > best.attempts) best = job;
  }
  return best;
}

/** "after attempt 2", "after attempts 3–4". */
const afterText = (d) => (d.firstAttempt === d.lastAttempt ? `after attempt ${d.firstAttempt}`
  : `after attempts ${d.firstAttempt}–${d.lastAttempt}`);

export class WorstCaseView {
  #signature = '';

  constructor(id) {
    const headingId = `${id}-worst-h`;
    this.text = h('p', { class: 'dlq-worst-text' });
    this.body = h('tbody', {});
    this.actualHead = h('th', { scope: 'col' }, 'Actual so far');
    this.table = h('table', { class: 'dlq-worst-terms' },
      h('caption', {}, 'Where the sum comes from'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Term'), h('th', { scope: 'col' }, 'Worst case'), this.actualHead)),
      this.body);
    this.element = h('section', { class: 'dlq-panel dlq-state dlq-worst', 'aria-labelledby': headingId, hidden: true },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Worst case')), this.text,
      h('div', { class: 'dlq-table-scroll' }, this.table));
  }

  /** Draws view.worstCase beside the path of the job furthest along (view.timeline up to the cursor). */
  sync(view) {
    const w = view.worstCase;
    const events = view.timeline.slice(0, view.eventsAtCursor);
    const path = actualPath(events, view.stats.now);
    const signature = JSON.stringify([w, path && [path.id, path.attempts, path.leases, [...path.delays], path.start, path.end]]);
    if (signature === this.#signature) return;
    this.#signature = signature;
    setText(this.text, `A job is attempted at most ${plural(w.attempts, 'time')} and spends at most ${ms(w.timeMs)} `
      + 'from its first lease to quarantine: every lease running to its expiry, and after each failed attempt the longest '
      + 'wait any class that still retries could give.');
    setText(this.actualHead, path ? `Actual so far: "${path.id}"` : 'Actual so far');
    const leaseActual = path ? `${ms(path.leases.reduce((a, b) => a + b, 0))} (${plural(path.leases.length, 'attempt')})` : '—';
    const rows = [[
      `${plural(w.attempts, 'lease')} of ${ms(w.leaseMs)} (leaseMs; the budget is ${w.attemptsClass}’s)`,
      ms(w.attempts * w.leaseMs), leaseActual,
    ]];
    for (const d of w.delays) {
      const n = d.lastAttempt - d.firstAttempt + 1;
      const from = `${d.class}, ${d.ownBackoff ? 'its own backoff' : 'the policy’s backoff'}`;
      const actual = [];
      for (let a = d.firstAttempt; a <= d.lastAttempt && path; a++) if (path.delays.has(a)) actual.push(path.delays.get(a));
      rows.push([
        `Wait ${afterText(d)}${n > 1 ? `, ${ms(d.delayMs)} each` : ''} (${from})`,
        ms(n * d.delayMs),
        actual.length === 0 ? '—' : actual.map((x) => ms(x)).join(' + '),
      ]);
    }
    const elapsed = path ? `${ms((path.end ?? view.stats.now) - path.start)}${path.end === null ? ' so far' : `, to ${path.endKind === 'completed' ? 'completion' : 'quarantine'}`}` : '—';
    rows.push(['Total', ms(w.timeMs), elapsed]);
    this.body.replaceChildren(...rows.map((cells, i) => h('tr', { class: i === rows.length - 1 ? 'is-total' : '' },
      h('th', { scope: 'row' }, cells[0]), h('td', {}, cells[1]), h('td', {}, cells[2]))));
  }
}
