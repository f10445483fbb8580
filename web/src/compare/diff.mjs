// @ts-check
// The short diff above the columns: one sentence per job that ends in a
// different place, after a different number of deliveries or at a different
// time in some column than in the first. It reads only what the core answered
// (each column's timeline and each job's place from queue.locate()); no rule is
// decided here.
import { tick } from '../shared/time-format.mjs';

/** Events that are one delivery of a job: a decided attempt, or a lease that expired unsettled (a crash). */
const DELIVERY = new Set(['attempt', 'expired']);
/** The event that put a job in its final place, by place. */
const ARRIVAL = { completed: 'completed', quarantine: 'quarantined', dropped: 'evidence-expired', lost: 'lost', discarded: 'discarded' };

/** True when a job in `place` has settled (it will not be delivered again by itself). */
export const settled = (place) => ARRIVAL[place] !== undefined;

/**
 * How each job ended in one column: Map(id -> { place, deliveries, at[, due] }),
 * in the order the jobs first appear. `places` maps a job id to its place (the
 * core's locate(id).place); `at` is the time of the event that put it there
 * (the job's last event if it is still in flight); `due`, for a delayed job
 * only, the time its retry is due (the core's `until` on its last event that
 * has one), so two columns that both leave a job waiting differ when it comes back.
 */
export function jobEndings(events, places) {
  const endings = new Map();
  for (const event of events) {
    if (!event.id) continue;
    let ending = endings.get(event.id);
    if (!ending) {
      ending = { place: places.get(event.id) ?? 'unknown', deliveries: 0, at: event.time };
      endings.set(event.id, ending);
    }
    if (DELIVERY.has(event.kind)) ending.deliveries += 1;
    const arrival = ARRIVAL[ending.place];
    if (arrival === undefined || event.kind === arrival) ending.at = event.time;
    if (ending.place === 'delayed' && event.until !== undefined) ending.due = event.until;
  }
  return endings;
}

/** Each job's path in one column: Map(id -> [{ kind, time, until }]) (until only where the core gave one). */
export function jobPaths(events) {
  const paths = new Map();
  for (const { id, kind, time, until } of events) {
    if (!id) continue;
    if (!paths.has(id)) paths.set(id, []);
    paths.get(id).push(until === undefined ? { kind, time } : { kind, time, until });
  }
  return paths;
}

/** A time on the clock in a sentence: "0 s", "250 ms", "16 s", "2.5 min". */
export function clockTime(t) {
  return t === 0 ? '0 s' : tick(t);
}

const VERBS = {
  completed: (id) => `completes ${id}`,
  quarantine: (id) => `quarantines ${id}`,
  dropped: (id) => `drops ${id}'s evidence (retention)`,
  lost: (id) => `loses ${id}`,
  discarded: (id) => `drops ${id} (kept nowhere)`,
  ready: (id) => `leaves ${id} ready`,
  delayed: (id) => `leaves ${id} delayed`,
  leased: (id) => `leaves ${id} leased`,
};
const verb = (place, id) => (VERBS[place] ?? ((j) => `leaves ${j} in ${place}`))(id);
const deliveries = (n) => `${n} ${n === 1 ? 'delivery' : 'deliveries'}`;

/**
 * The diff's sentences. `columns`: [{ label, endings[, paths] }] (endings from
 * jobEndings, paths from jobPaths), the first column the baseline, which each
 * sentence names last: "rabbitmq-quorum quarantines b after 21 deliveries; lab
 * after 3". A sentence states only what differs: the place always, the
 * deliveries, the time and when a waiting job is due back when they differ
 * between columns. A job that ends the same way everywhere but got there by
 * another path (given `paths`) is named by its first event that differs. A job
 * missing from a column is left out. No sentence: every job played the same.
 */
export function diffSentences(columns) {
  if (columns.length < 2) return [];
  const ids = [];
  for (const { endings } of columns) for (const id of endings.keys()) if (!ids.includes(id)) ids.push(id);
  const sentences = [];
  for (const id of ids) {
    const ends = columns.map((c) => c.endings.get(id));
    if (ends.some((e) => e === undefined)) continue;
    const differs = (key) => ends.some((e) => e[key] !== ends[0][key]);
    const [place, count, time, due] = [differs('place'), differs('deliveries'), differs('at'), differs('due')];
    if (!place && !count && !time && !due) {
      const path = pathDifference(id, columns);
      if (path) sentences.push({ id, text: path });
      continue;
    }
    // The others first, in column order, then the baseline.
    const order = [...columns.keys()].slice(1).concat(0);
    let previous = null;
    const phrases = order.map((i) => {
      const e = ends[i];
      const details = [count ? `after ${previous === null ? deliveries(e.deliveries) : e.deliveries}` : '',
        time ? `at ${clockTime(e.at)}` : '',
        due && e.due !== undefined ? `due back at ${clockTime(e.due)}` : ''].filter(Boolean).join(' ');
      const samePlace = previous !== null && previous === e.place;
      const what = samePlace ? '' : (previous === null ? verb(e.place, id) : verb(e.place, 'it'));
      previous = e.place;
      return [columns[i].label, what, details].filter(Boolean).join(' ');
    });
    sentences.push({ id, text: `${phrases.join('; ')}.` });
  }
  return sentences;
}

const ORDINAL = ['first', 'second', 'third'];
const nth = (i) => ORDINAL[i] ?? `${i + 1}th`;
const step = (e) => (e === undefined ? 'nothing'
  : `${e.kind} at ${clockTime(e.time)}${e.until === undefined ? '' : ` (until ${clockTime(e.until)})`}`);
const sameStep = (a, b) => a !== undefined && b !== undefined && a.kind === b.kind && a.time === b.time && a.until === b.until;

/**
 * For a job that ends the same way in every column: its first event that is not
 * the same (kind, time, until) in all of them, as a sentence, or null when its
 * paths are the same (or not given).
 */
function pathDifference(id, columns) {
  if (columns.some((c) => c.paths === undefined)) return null;
  const paths = columns.map((c) => c.paths.get(id) ?? []);
  const longest = Math.max(...paths.map((p) => p.length));
  for (let i = 0; i < longest; i++) {
    if (paths.every((p) => sameStep(p[i], paths[0][i]))) continue;
    const order = [...columns.keys()].slice(1).concat(0);
    const phrases = order.map((c) => `${columns[c].label} ${step(paths[c][i])}`);
    return `${id} ends the same way in every column, by another path: its ${nth(i)} event is ${phrases.join('; ')}.`;
  }
  return null;
}
