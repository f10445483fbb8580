// @ts-check
// Where the timeline puts each event: lanes (one per job, in order of first
// appearance), columns (one per step on the step axis, one per instant on the
// time axis), each glyph's place among its lane's glyphs in its column, the
// bars (timeline-spans.mjs), and the time axis's scale (px per ms from the
// scenario's extent, the width and the zoom: ../shared/time-scale.mjs). Numbers only:
// the timeline (timeline.mjs) draws with them.
import { Spans } from './timeline-spans.mjs';
import { MIN_ZOOM, maxZoom, pxPerMs } from '../shared/time-scale.mjs';

export const COL = 38;   // px: a step's column (two glyphs: an attempt and its consequence)
export const SLOT = 15;  // px between glyphs of one lane at one step or instant
export const FIRST = 12; // px from a column's left edge to its first glyph's centre
export const LANE = 30;  // px per job lane
export const PAD = 4;    // px left of time 0 / the first column
export const RIGHT = 44; // px kept right of the scenario's last instant (a cluster of glyphs, a label)
const MIN_EXTENT = 1000; // ms: the shortest scenario the time axis fits (so a scenario at 0 still has a scale)

/** True if an event needs the time axis: it happened after time 0, or it has a due time or an expiry. */
export function usesClock(event) {
  return event.time > 0 || event.until !== undefined;
}

/** The y of a lane's centre line. */
export const laneY = (lane) => lane * LANE + LANE / 2;

export class TimelineLayout {
  events = [];      // every event of the script, by index (steps and times never decrease)
  laneIndex = [];   // lane of events[i]
  lanes = [];       // { id, first (event index) }
  laneOf = new Map();
  spans = new Spans();
  kinds = new Map(); // event kind -> how many events of that kind
  clock = false;     // the time axis is on
  firstClock = Infinity; // index of the first event that needs the time axis
  // The time axis's scale: px per ms, the zoom (1: the whole scenario fits) and the scenario's extent in ms.
  k = 1;
  zoom = MIN_ZOOM;
  extent = MIN_EXTENT;
  margin = RIGHT;   // px kept right of the extent's instant: RIGHT, or more for a cluster of glyphs there
  #colOf = [];      // column of events[i]
  #slotOf = [];     // its place among its lane's glyphs in that column
  // Columns, left to right.
  #colTime = [];
  #colStep = [];
  #colX = [];       // step axis: left edge (the time axis computes it from the time)
  #colW = [];
  #colFirst = [];   // first event index of each column
  #colSlots = new Map(); // lane -> glyphs so far in the last column

  get columns() {
    return this.#colFirst.length;
  }

  /** The first event of column c (or the event count past the last). */
  columnStart(c) {
    return c < this.#colFirst.length ? this.#colFirst[c] : this.events.length;
  }

  /** Adds event `event` at the end; returns its lane if that lane is new, else -1. */
  append(event) {
    const i = this.events.length;
    let lane = this.laneOf.get(event.id);
    let fresh = -1;
    if (lane === undefined) {
      lane = this.lanes.length;
      fresh = lane;
      this.lanes.push({ id: event.id, first: i });
      this.spans.addLane();
      this.laneOf.set(event.id, lane);
    }
    this.events.push(event);
    this.laneIndex.push(lane);
    this.kinds.set(event.kind, (this.kinds.get(event.kind) ?? 0) + 1);
    if (this.firstClock === Infinity && usesClock(event)) this.firstClock = i;

    // Its column: the last one, or a new one at the right (a new step, or a new instant).
    let c = this.#colFirst.length - 1;
    const time = this.clock ? event.time : 0;
    if (c < 0 || (this.clock ? this.#colTime[c] !== time : this.#colStep[c] !== event.step)) {
      const x = c < 0 ? PAD : this.#colX[c] + this.#colW[c] + Math.max(0, event.step - this.#colStep[c] - 1) * COL;
      c += 1;
      this.#colTime.push(time);
      this.#colStep.push(event.step);
      this.#colX.push(this.clock ? 0 : x);
      this.#colW.push(COL);
      this.#colFirst.push(i);
      this.#colSlots.clear();
    }
    const slot = this.#colSlots.get(lane) ?? 0;
    this.#colSlots.set(lane, slot + 1);
    this.#colW[c] = Math.max(this.#colW[c], FIRST + SLOT * slot + 11);
    this.#colOf.push(c);
    this.#slotOf.push(slot);
    if (this.clock) this.spans.event(event, i, lane);
    return fresh;
  }

  /** Keeps the first `keep` events; returns how many lanes went (the last ones). */
  truncate(keep) {
    for (let i = keep; i < this.events.length; i++) {
      const kind = this.events[i].kind;
      this.kinds.set(kind, this.kinds.get(kind) - 1);
    }
    for (const list of [this.events, this.laneIndex, this.#colOf, this.#slotOf]) list.length = keep;
    if (this.firstClock >= keep) this.firstClock = Infinity;
    let dropped = 0;
    while (this.lanes.length > 0 && this.lanes[this.lanes.length - 1].first >= keep) {
      this.laneOf.delete(this.lanes.pop().id);
      this.spans.dropLane();
      dropped += 1;
    }
    // Columns: drop those that start at or after `keep`, then recount the last one's glyphs.
    let cols = this.#colFirst.length;
    while (cols > 0 && this.#colFirst[cols - 1] >= keep) cols -= 1;
    for (const list of [this.#colTime, this.#colStep, this.#colX, this.#colW, this.#colFirst]) list.length = cols;
    this.#colSlots.clear();
    if (cols > 0) {
      const c = cols - 1;
      this.#colW[c] = COL;
      for (let i = this.#colFirst[c]; i < keep; i++) {
        const lane = this.laneIndex[i];
        const slot = this.#colSlots.get(lane) ?? 0;
        this.#colSlots.set(lane, slot + 1);
        this.#colW[c] = Math.max(this.#colW[c], FIRST + SLOT * slot + 11);
      }
    }
    this.spans.truncate(keep);
    return dropped;
  }

  // ---- geometry ---------------------------------------------------------------

  /** Column c's left edge: the step axis keeps it; the time axis computes it from its time. */
  colLeft(c) {
    return this.clock ? PAD + this.#colTime[c] * this.k : this.#colX[c];
  }

  colWidth(c) {
    return this.#colW[c];
  }

  colStep(c) {
    return this.#colStep[c];
  }

  /** The x of event i's glyph centre. */
  x(i) {
    return this.colLeft(this.#colOf[i]) + FIRST + SLOT * this.#slotOf[i];
  }

  /** The x of time `t` on the time axis (where a glyph at t has its centre), and back. */
  xOfTime(t) {
    return PAD + FIRST + t * this.k;
  }

  timeAt(x) {
    return Math.max(0, (x - PAD - FIRST) / this.k);
  }

  /** Where a bar ends: its end event's glyph, or (still open) the time it is due or expires. */
  spanEnd(span) {
    return span.end >= 0 ? this.x(span.end) : this.xOfTime(span.until);
  }

  /** Columns [first, last] that overlap [left, right] in x. */
  columnsIn(left, right) {
    const n = this.#colFirst.length;
    let lo = 0;
    let hi = n;
    while (lo < hi) { // first column whose right edge is at or past `left`
      const mid = (lo + hi) >> 1;
      if (this.colLeft(mid) + this.#colW[mid] < left) lo = mid + 1; else hi = mid;
    }
    const first = lo;
    hi = n;
    while (lo < hi) { // first column that starts past `right`
      const mid = (lo + hi) >> 1;
      if (this.colLeft(mid) <= right) lo = mid + 1; else hi = mid;
    }
    return [first, lo - 1];
  }

  /** The column index of `step` on the step axis (the latest column at or before it), or -1. */
  #columnOfStep(step) {
    const steps = this.#colStep;
    let lo = 0;
    let hi = steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (steps[mid] <= step) lo = mid + 1; else hi = mid;
    }
    return lo - 1;
  }

  /** The cursor's band { x, w }: its step's column (step axis); a line at `now` (time axis). */
  cursorBox(step, now) {
    if (this.clock) return { x: this.xOfTime(now) - 1.5, w: 3 };
    const c = this.#columnOfStep(step);
    if (c >= 0 && this.#colStep[c] === step) return { x: this.#colX[c], w: this.#colW[c] };
    const x = c < 0 ? PAD + step * COL : this.#colX[c] + this.#colW[c] + (step - this.#colStep[c] - 1) * COL;
    return { x, w: COL };
  }

  /** The drawn strip's right edge (px) for the cursor's band `box`. */
  right(box) {
    if (this.clock) return this.xOfTime(this.extent) + this.margin - FIRST;
    const cols = this.#colFirst.length;
    const right = cols > 0 ? this.#colX[cols - 1] + this.#colW[cols - 1] : PAD + COL;
    return Math.max(right, box.x + box.w) + COL;
  }

  // ---- the time axis's scale ---------------------------------------------------

  /**
   * The width (px) the scenario's extent is fitted to, in a view `viewWidth` px
   * wide, keeping `margin` px right of it (RIGHT, or the last instant's glyphs).
   */
  static fitWidth(viewWidth, margin = RIGHT) {
    return viewWidth - PAD - FIRST - margin;
  }

  /**
   * The scale for the scenario as it stands in a view `viewWidth` px wide: its
   * extent (the last event, the open bars' ends, the outage's end, now) fitted,
   * times the zoom. True when px per ms changed (everything drawn moves then).
   */
  rescale(viewWidth, now, outage) {
    if (!this.clock) return false;
    const cols = this.#colTime.length;
    let extent = cols > 0 ? this.#colTime[cols - 1] : 0;
    for (const span of this.spans.open.values()) extent = Math.max(extent, span.until);
    if (outage) extent = Math.max(extent, outage.endMs);
    extent = Math.max(extent, now, MIN_EXTENT);
    // Rounded up to a tenth of its power of ten (4,174 ms -> 4,200): a step that
    // adds a few ms rarely changes the scale, and so rarely moves every glyph.
    const grain = 10 ** Math.floor(Math.log10(extent)) / 10;
    this.extent = Math.ceil(extent / grain) * grain;
    // The last instant's glyphs sit side by side right of its time: a run that
    // ends with many events at one instant (everything after a crash at 30 s)
    // keeps room for all of them, so the fitted view shows the whole run.
    // Zoomed in, the strip scrolls and simply grows by that room: the zoom keeps
    // its plain meaning there (zoom z: z times the px per ms of the whole extent).
    this.margin = Math.max(RIGHT, cols > 0 ? this.#colW[cols - 1] + SLOT : 0);
    const fitMargin = this.zoom <= MIN_ZOOM ? this.margin : RIGHT;
    const k = pxPerMs(this.extent, TimelineLayout.fitWidth(viewWidth, fitMargin), this.zoom);
    if (k === this.k) return false;
    this.k = k;
    return true;
  }

  /** The zoom past which zooming in shows nothing more, in a view `viewWidth` px wide. */
  maxZoom(viewWidth) {
    return maxZoom(this.extent, TimelineLayout.fitWidth(viewWidth));
  }
}
