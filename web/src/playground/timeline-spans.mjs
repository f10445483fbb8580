// @ts-check
// The timeline's bars, as the events say: a lease from 'leased' to its settle
// (the 'attempt' with the same token) or its 'expired'; a backoff delay from
// 'delayed' to the job's 'due'. A bar still open runs to the time it names
// (`until`). Bookkeeping only: the timeline draws them.

/** A bar: { kind: 'lease' | 'delay', start (event index), end (-1: open), lane, until, key }. */
export class Spans {
  all = [];          // every bar, in start order
  byLane = [];       // lane -> its bars, in start order
  open = new Map();  // 'lease:<token>' | 'delay:<id>' -> the bar still waiting for its end event

  addLane() {
    this.byLane.push([]);
  }

  dropLane() {
    this.byLane.pop();
  }

  /** Opens or closes the bar that event `i` (on `lane`) starts or ends. */
  event(event, i, lane) {
    if (event.kind === 'leased' && event.token !== undefined) {
      this.#start({ kind: 'lease', start: i, end: -1, lane, until: event.until, key: `lease:${event.token}` });
    } else if (event.kind === 'delayed') {
      this.#start({ kind: 'delay', start: i, end: -1, lane, until: event.until, key: `delay:${event.id}` });
    } else if ((event.kind === 'attempt' || event.kind === 'expired') && event.token !== undefined) {
      this.#end(`lease:${event.token}`, i);
    } else if (event.kind === 'due') {
      this.#end(`delay:${event.id}`, i);
    }
  }

  /** Forgets the bars that start at or after event `keep`, and reopens those whose end went. */
  truncate(keep) {
    while (this.all.length > 0 && this.all[this.all.length - 1].start >= keep) {
      const span = this.all.pop();
      this.byLane[span.lane]?.pop();
    }
    this.open.clear();
    for (const span of this.all) {
      if (span.end >= keep) span.end = -1;
      if (span.end === -1) this.open.set(span.key, span);
    }
  }

  #start(span) {
    this.all.push(span);
    this.byLane[span.lane].push(span);
    this.open.set(span.key, span);
  }

  #end(key, i) {
    const span = this.open.get(key);
    if (!span) return;
    span.end = i;
    this.open.delete(key);
  }
}
