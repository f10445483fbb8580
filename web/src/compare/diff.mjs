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

/**
 * How each job ended in one column: Map(id -> { place, deliveries, at }), in
 * the order the jobs first appear. `places` maps a job id to its place (the
 * core's locate(id).place); `at` is the time of the event that put it there
 * (the job's last event if it is still in flight).
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
  }
  return endings;
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
 * The diff's sentences. `columns`: [{ label, endings }] (endings from
 * jobEndings), the first column the baseline, which each sentence names last:
 * "rabbitmq-quorum quarantines b after 21 deliveries; lab after 3". A sentence
 * states only what differs: the place always, the deliveries and the time
 * when they differ between columns. A job missing from a column is left out.
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
    const [place, count, time] = [differs('place'), differs('deliveries'), differs('at')];
    if (!place && !count && !time) continue;
    // The others first, in column order, then the baseline.
    const order = [...columns.keys()].slice(1).concat(0);
    let previous = null;
    const phrases = order.map((i) => {
      const e = ends[i];
      const details = [count ? `after ${previous === null ? deliveries(e.deliveries) : e.deliveries}` : '',
        time ? `at ${clockTime(e.at)}` : ''].filter(Boolean).join(' ');
      const samePlace = previous !== null && previous === e.place;
      const what = samePlace ? '' : (previous === null ? verb(e.place, id) : verb(e.place, 'it'));
      previous = e.place;
      return [columns[i].label, what, details].filter(Boolean).join(' ');
    });
    sentences.push({ id, text: `${phrases.join('; ')}.` });
  }
  return sentences;
}
