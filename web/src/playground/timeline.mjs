// The Timeline region: an SVG lane chart, one lane per job. Two x axes:
//
// - steps (lesson 1, and any script that never uses the clock): one column per
//   step, as before;
// - time, when the script uses the virtual clock (an event at a time > 0, or a
//   lease or a delay): one column per instant (time, step), the gap between
//   instants drawn to a compressed scale (a square root, capped; a capped gap is
//   marked on the axis), the axis labelled in ms / s. Backoff delays are drawn as
//   dashed bars from the delaying failure to the due time, leases as solid bars
//   from 'leased' to the settle ('attempt' with the same token) or 'expired'.
//
// Columns only ever grow at the right end, so appending events never moves the
// ones already drawn. Only the glyphs (and bars) in view plus a margin are in
// the DOM: a pool of <g> nodes is re-pointed at the events in the window, so a
// step costs the same with 5 events or 5,000. Events after the cursor (the redo
// tail of the script) are drawn faint and named "later in the script". Hover or
// focus shows the core's sentence for an event; click / Enter moves the
// playground to that step. The events are one Tab stop (a roving tabindex that
// rests on the latest event at the cursor); arrow keys move between them. The
// Event log is the complete text twin.
import { h, s } from '../shared/dom.mjs';
import { GLYPHS, glyphKey, glyphPath, glyphIcon } from '../shared/glyphs.mjs';
import { ms, tick } from '../shared/time-format.mjs';

const COL = 38;   // px: the narrowest column (two glyphs: an attempt and its consequence)
const SLOT = 15;  // px between glyphs of one lane in one column
const FIRST = 12; // px from a column's left edge to its first glyph's centre
const LANE = 30;  // px per job lane
const PAD = 4;    // px left of the first column
const AXIS = 24;  // px axis height
const MARGIN = 6 * COL;  // px drawn beyond each side of the view
const MARGIN_LANES = 3;  // lanes drawn beyond the top and bottom of the view
const MAX_DRAWN = 4000;  // a hard cap on glyph nodes, whatever the view size
const RING = 8.6;  // focus ring radius in glyph units (the glyph is drawn at scale 1.2: about 10px)
const TAIL = 6;    // characters at the end of a long lane label that always show
const BAR_DY = 9;  // px below the lane's centre line where lease and delay bars run
const MIN_GAP = 16;  // px between two instants, however close
const MAX_GAP = 560; // px between two instants, however far apart (the gap is then marked as compressed)

/** The gap between two instants `dt` ms apart (dt > 0): a square root, so 23 ms, 500 ms and 5 s all read. */
function gap(dt) {
  return Math.min(MAX_GAP, Math.max(MIN_GAP, Math.round(6 * Math.sqrt(dt))));
}

/** True if an event needs the time axis: it happened after time 0, or it has a due time or an expiry. */
function usesClock(event) {
  return event.time > 0 || event.until !== undefined;
}

/**
 * A lane label: the job id, on one line. A long id is cut in the middle: CSS
 * ellipsizes its head while its last TAIL characters always show, so ids that
 * share a prefix ("order-2024-0001", "order-2024-0002") stay distinguishable.
 * The text is still the whole id (accessible name, copy), and so is the title.
 */
function laneLabel(id) {
  const chars = [...id];
  if (chars.length <= TAIL + 6) return h('li', { title: id }, id);
  return h('li', { title: id, class: 'is-split' },
    h('span', { class: 'dlq-lane-head' }, chars.slice(0, -TAIL).join('')),
    h('span', { class: 'dlq-lane-tail' }, chars.slice(-TAIL).join('')));
}

const y = (lane) => lane * LANE + LANE / 2;

/**
 * The legend's words for a requeue: where the core sent `attempt` (a requeued one), as its
 * explanation ends: "… → requeue at the tail" in the lab's mode, "… → back near the head, as a
 * quorum queue returns it" in rabbitmq-quorum's. Plain "Requeued" until the timeline has one.
 */
function requeueWords(attempt) {
  const text = attempt?.explanation ?? '';
  const at = text.lastIndexOf('→ ');
  if (at < 0) return 'Requeued';
  const where = text.slice(at + 2);
  return `Requeued: ${where}`;
}

const LABELS = {
  steps: 'Events, one lane per job and one column per step. Arrow keys move between events; Enter goes to that step.',
  time: 'Events along the virtual clock, one lane per job; events at the same time stand side by side in step order, '
    + 'and bars show leases and backoff delays. Arrow keys move between events; Enter goes to that step.',
};

export class Timeline {
  #events = [];      // every event of the script, by index (steps and times never decrease)
  #laneIndex = [];   // lane of events[i]
  #colOf = [];       // column of events[i]
  #xOf = [];         // x of events[i]'s glyph centre
  // Columns: one per step (step axis) or per (time, step) instant (time axis), left to right.
  #colTime = [];
  #colStep = [];
  #colX = [];
  #colW = [];
  #colFirst = [];    // first event index of each column
  #colSlots = new Map(); // lane -> glyphs so far in the last column
  #spans = [];       // { kind: 'lease' | 'delay', start, end (-1: open), lane, until, key }
  #laneSpans = [];   // lane -> its spans, in start order
  #open = new Map(); // 'lease:<token>' | 'delay:<id>' -> the span still waiting for its end event
  #kinds = new Map(); // event kind -> how many events of that kind (the legend shows the clock's kinds when present)
  #requeuedAt = -1;   // index of the latest attempt the core requeued (its explanation words the legend's requeue)
  #clock = false;    // the time axis is on
  #firstClock = Infinity; // index of the first event that needs the time axis
  #shown = new Map(); // event index -> its <g>, for the events in the window
  #pool = [];        // spare <g> nodes
  #spanShown = new Map(); // span index -> its <g>
  #spanPool = [];
  #lanes = [];       // { id, first (event index), label }
  #laneOf = new Map();
  #tickPool = [];    // axis labels for the columns in view only (virtualised)
  #tickRange = '';
  #applied = 0;      // events not drawn as "future"
  #active = -1;      // roving-tabindex event
  #scrollQueued = false;
  #onSelect;
  #resize;
  #width = 0;
  #height = 0;
  #step = 0;
  #now = 0;
  #latest = undefined; // the latest event that has happened
  #nowBox = { x: PAD, w: COL }; // the cursor's band
  #view = { width: 0, height: 0, labels: 0, left: 0, top: 0 }; // cached scroller geometry

  /** `handler(seq)`: the reader chose an event (a click, or Enter on it); seq is its index + 1. */
  bindSelect(handler) {
    this.#onSelect = handler;
  }

  constructor({ idPrefix }) {
    this.#onSelect = () => {};
    const headingId = `${idPrefix}-tl-h`;
    const patternId = `${idPrefix}-tl-stripes`;
    this.tooltip = h('div', { class: 'dlq-tooltip', role: 'tooltip', id: `${idPrefix}-tl-tip`, hidden: true });
    this.tooltipTitle = h('strong', { class: 'dlq-tooltip-title' });
    this.tooltipText = h('span', { class: 'dlq-tooltip-text' });
    this.tooltipLine = h('code', { class: 'dlq-tooltip-line' });
    this.tooltip.append(this.tooltipTitle, this.tooltipText, this.tooltipLine);

    this.nowAxis = s('rect', { class: 'dlq-now', x: 0, y: 0, width: COL, height: AXIS });
    this.tickMarks = s('path', { class: 'dlq-tick-mark', d: '' });
    this.breakMarks = s('path', { class: 'dlq-break-mark', d: '' });
    this.axis = s('svg', { class: 'dlq-tl-axis', height: AXIS, width: COL, 'aria-hidden': 'true' }, this.nowAxis, this.tickMarks, this.breakMarks);
    this.now = s('rect', { class: 'dlq-now', x: 0, y: 0, width: COL, height: 0 });
    this.stripes = s('rect', { x: 0, y: 0, width: 0, height: 0, fill: `url(#${patternId})` });
    this.spanLayer = s('g', { class: 'dlq-tl-spans', 'aria-hidden': 'true' });
    this.glyphLayer = s('g', { class: 'dlq-tl-events' });
    this.svg = s('svg', { class: 'dlq-tl-lanes', width: COL, height: LANE, role: 'group', 'aria-label': LABELS.steps },
      s('defs', {}, s('pattern', { id: patternId, width: COL, height: LANE * 2, patternUnits: 'userSpaceOnUse' },
        s('rect', { class: 'dlq-stripe', x: 0, y: LANE, width: COL, height: LANE }),
        s('line', { class: 'dlq-laneline', x1: 0, x2: COL, y1: LANE / 2, y2: LANE / 2 }),
        s('line', { class: 'dlq-laneline', x1: 0, x2: COL, y1: LANE * 1.5, y2: LANE * 1.5 }))),
      this.stripes, this.now, this.spanLayer, this.glyphLayer);
    this.labels = h('ol', { class: 'dlq-tl-labels', 'aria-label': 'Lanes (jobs)' });
    this.corner = h('div', { class: 'dlq-tl-corner', 'aria-hidden': 'true' }, 'step');
    this.scroller = h('div', { class: 'dlq-tl-scroll' },
      h('div', { class: 'dlq-tl-grid' }, this.corner, this.axis, this.labels, this.svg));
    this.empty = h('p', { class: 'dlq-tl-empty', hidden: true }, 'No jobs yet: add one in Set-up, or pick a preset.');

    // What the axis is, in words (the time axis's scale is not linear).
    this.axisNote = h('p', { class: 'dlq-tl-note', hidden: true },
      'Time runs left to right; gaps are drawn shortened (square-root scale, ≈ marks a cut): read the times on the axis.');
    const spanItem = (kind, label) => h('li', { 'data-span': kind, hidden: true },
      s('svg', { viewBox: '0 0 18 8', width: 18, height: 8, 'aria-hidden': 'true', focusable: 'false', class: 'dlq-icon' },
        s('line', { x1: 1.5, x2: 16.5, y1: 4, y2: 4, class: `dlq-span-line is-${kind}` })), label);
    const legend = h('ul', { class: 'dlq-legend', 'aria-label': 'Legend' },
      Object.entries(GLYPHS).map(([key, glyph]) => h('li', { hidden: glyph.clock === true, 'data-kind': key },
        glyphIcon(key), glyph.label)),
      spanItem('lease', 'Lease: leased until settled or expired'),
      spanItem('delay', 'Backoff delay: until due'),
      h('li', { class: 'dlq-legend-future' }, h('span', { class: 'dlq-legend-swatch', 'aria-hidden': 'true' }), 'Faint: later in the script (Forward / Run)'));

    this.requeueLegend = legend.querySelector('li[data-kind="requeued"]').lastChild;
    this.clockLegend = [...legend.querySelectorAll('li[data-kind][hidden]')];
    this.spanLegend = [...legend.querySelectorAll('li[data-span]')];
    this.element = h('section', { class: 'dlq-panel dlq-timeline', 'aria-labelledby': headingId },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Timeline')),
      legend, this.axisNote, this.scroller, this.empty, this.tooltip);

    this.scroller.addEventListener('scroll', () => {
      this.#view.left = this.scroller.scrollLeft;
      this.#view.top = this.scroller.scrollTop;
      this.#ticks();
      this.#draw();
    }, { passive: true });
    this.#resize = new ResizeObserver(() => {
      const first = this.#view.width === 0;
      this.#view.width = this.scroller.clientWidth;
      this.#view.height = this.scroller.clientHeight;
      this.#view.labels = this.labels.offsetWidth;
      this.#width = 0; // re-fit the stripes to the new width
      this.#size();
      // Laid out for the first time (or shown again): bring the cursor into view.
      if (first) this.#follow(this.#nowBox.x, this.#nowBox.w, this.#latest);
      this.#draw(true);
    });
    this.#resize.observe(this.scroller);
    this.#resize.observe(this.labels);

    // Delegated from the scroller (an HTML <div>): in Chromium an SVG element
    // with focus or key listeners becomes a Tab stop of its own, so none go on
    // the glyph layer. Each handler acts only on a target inside a glyph.
    const sc = this.scroller;
    sc.addEventListener('click', (e) => this.#select(e.target));
    sc.addEventListener('pointerover', (e) => this.#show(e.target));
    sc.addEventListener('pointerout', (e) => {
      const from = e.target.closest?.('.dlq-ev');
      if (from && !from.contains(e.relatedTarget) && !from.contains(document.activeElement)) this.#hide();
    });
    sc.addEventListener('focusin', (e) => this.#show(e.target, true));
    sc.addEventListener('focusout', () => this.#hide());
    sc.addEventListener('keydown', (e) => this.#key(e));
  }

  /** True when the timeline draws a time axis: the script uses the virtual clock. */
  get usesClock() {
    return this.#clock;
  }

  /**
   * Brings the picture up to date: events[] is the whole script's timeline,
   * `dirtyFrom` the first index that changed since the last sync, `applied`
   * how many have happened, `step` the queue's step at the cursor and `now`
   * (optional) its time (default: the time of the latest applied event).
   */
  sync(events, dirtyFrom, applied, step, now) {
    const had = this.#events.length;
    let before = Math.min(had, dirtyFrom);
    // The axis follows the whole script: a change that adds or removes the clock's first use redraws everything.
    let clock = this.#firstClock < before;
    for (let i = before; !clock && i < events.length; i++) clock = usesClock(events[i]);
    if (clock !== this.#clock) {
      before = 0;
      this.#clock = clock;
      this.svg.setAttribute('aria-label', clock ? LABELS.time : LABELS.steps);
      this.corner.textContent = clock ? 'time' : 'step';
      this.axisNote.hidden = !clock;
      this.element.classList.toggle('is-clock', clock);
    }
    if (before < had) this.#truncate(before);
    const appliedChanged = applied !== this.#applied;
    this.#applied = applied;
    for (let i = before; i < events.length; i++) this.#append(events[i]);
    const eventsChanged = before < had || before < events.length;
    if (eventsChanged) {
      // Written only on a change: setting an attribute, even to its value, restyles the element.
      const hide = (li, hidden) => { if (li.hidden !== hidden) li.hidden = hidden; };
      for (const li of this.clockLegend) hide(li, !this.#kinds.get(li.dataset.kind));
      const kinds = { lease: this.#kinds.get('leased'), delay: this.#kinds.get('delayed') };
      for (const li of this.spanLegend) hide(li, !(this.#clock && kinds[li.dataset.span]));
      const requeue = requeueWords(this.#events[this.#requeuedAt]);
      if (this.requeueLegend.data !== requeue) this.requeueLegend.data = requeue;
    }
    if (appliedChanged || before < events.length) {
      for (const lane of this.#lanes) lane.label.classList.toggle('is-future', lane.first >= applied);
    }
    // The timeline's one Tab stop follows the cursor (the latest event that has
    // happened), unless focus is in the timeline: then it stays where the reader is.
    const stale = this.#active < 0 || this.#active >= events.length;
    if (stale || ((appliedChanged || eventsChanged) && !this.element.contains(document.activeElement))) {
      if (applied > 0) this.#active = Math.min(applied, events.length) - 1;
      else this.#active = events.length > 0 ? 0 : -1;
    }
    const latest = this.#events[Math.min(applied, this.#events.length) - 1];
    this.#latest = latest;
    this.#step = step;
    this.#now = now ?? latest?.time ?? 0;
    this.#size();
    this.#follow(this.#nowBox.x, this.#nowBox.w, latest);
    this.#draw(true);
  }

  /** Stops observing sizes (the playground is being destroyed). */
  destroy() {
    this.#resize.disconnect();
  }

  // ---- layout ---------------------------------------------------------------

  #append(event) {
    const i = this.#events.length;
    let lane = this.#laneOf.get(event.id);
    if (lane === undefined) {
      lane = this.#lanes.length;
      const label = laneLabel(event.id);
      this.#lanes.push({ id: event.id, first: i, label });
      this.#laneSpans.push([]);
      this.#laneOf.set(event.id, lane);
      this.labels.append(label);
    }
    this.#events.push(event);
    this.#laneIndex.push(lane);
    this.#kinds.set(event.kind, (this.#kinds.get(event.kind) ?? 0) + 1);
    if (event.disposition === 'requeued') this.#requeuedAt = i;
    if (this.#firstClock === Infinity && usesClock(event)) this.#firstClock = i;

    // Its column: the last one, or a new one at the right.
    let c = this.#colX.length - 1;
    const time = this.#clock ? event.time : 0;
    if (c < 0 || this.#colStep[c] !== event.step || this.#colTime[c] !== time) {
      const x = c < 0 ? PAD : this.#colX[c] + this.#colW[c] + this.#gapAfter(c, time, event.step);
      c += 1;
      this.#colTime.push(time);
      this.#colStep.push(event.step);
      this.#colX.push(x);
      this.#colW.push(COL);
      this.#colFirst.push(i);
      this.#colSlots.clear();
    }
    const slot = this.#colSlots.get(lane) ?? 0;
    this.#colSlots.set(lane, slot + 1);
    this.#colW[c] = Math.max(this.#colW[c], FIRST + SLOT * slot + 11);
    this.#colOf.push(c);
    this.#xOf.push(this.#colX[c] + FIRST + SLOT * slot);

    if (this.#clock) this.#spanEvent(event, i, lane);
  }

  /** The space between column c and a new column at (time, step) to its right. */
  #gapAfter(c, time, step) {
    if (this.#clock) return time > this.#colTime[c] ? gap(time - this.#colTime[c]) : 0;
    return Math.max(0, step - this.#colStep[c] - 1) * COL; // steps without events keep their columns
  }

  /** Opens or closes the lease and delay bars an event starts or ends. */
  #spanEvent(event, i, lane) {
    if (event.kind === 'leased' && event.token !== undefined) {
      this.#openSpan({ kind: 'lease', start: i, end: -1, lane, until: event.until, key: `lease:${event.token}` });
    } else if (event.kind === 'delayed') {
      this.#openSpan({ kind: 'delay', start: i, end: -1, lane, until: event.until, key: `delay:${event.id}` });
    } else if ((event.kind === 'attempt' || event.kind === 'expired') && event.token !== undefined) {
      this.#closeSpan(`lease:${event.token}`, i);
    } else if (event.kind === 'due') {
      this.#closeSpan(`delay:${event.id}`, i);
    }
  }

  #openSpan(span) {
    this.#spans.push(span);
    this.#laneSpans[span.lane].push(span);
    this.#open.set(span.key, span);
  }

  #closeSpan(key, i) {
    const span = this.#open.get(key);
    if (!span) return;
    span.end = i;
    this.#open.delete(key);
  }

  #truncate(keep) {
    for (const [i, g] of this.#shown) {
      if (i < keep) continue;
      g.remove();
      this.#shown.delete(i);
      this.#pool.push(g);
    }
    for (let i = keep; i < this.#events.length; i++) {
      const kind = this.#events[i].kind;
      this.#kinds.set(kind, this.#kinds.get(kind) - 1);
    }
    this.#events.length = keep;
    while (this.#requeuedAt >= keep || (this.#requeuedAt >= 0 && this.#events[this.#requeuedAt].disposition !== 'requeued')) this.#requeuedAt -= 1;
    this.#laneIndex.length = keep;
    this.#colOf.length = keep;
    this.#xOf.length = keep;
    if (this.#firstClock >= keep) this.#firstClock = Infinity;
    while (this.#lanes.length > 0 && this.#lanes[this.#lanes.length - 1].first >= keep) {
      const lane = this.#lanes.pop();
      lane.label.remove();
      this.#laneOf.delete(lane.id);
      this.#laneSpans.pop();
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
        const lane = this.#laneIndex[i];
        const slot = this.#colSlots.get(lane) ?? 0;
        this.#colSlots.set(lane, slot + 1);
        this.#colW[c] = Math.max(this.#colW[c], FIRST + SLOT * slot + 11);
      }
    }
    // Bars: drop those that start at or after `keep`; reopen those whose end went.
    while (this.#spans.length > 0 && this.#spans[this.#spans.length - 1].start >= keep) {
      const span = this.#spans.pop();
      this.#laneSpans[span.lane]?.pop();
    }
    this.#open.clear();
    for (const span of this.#spans) {
      if (span.end >= keep) span.end = -1;
      if (span.end === -1) this.#open.set(span.key, span);
    }
    for (const [k, g] of this.#spanShown) {
      g.remove();
      this.#spanPool.push(g);
      this.#spanShown.delete(k);
    }
    if (this.#active >= keep) this.#active = -1;
  }

  /** The x of time `t` on the time axis: its instant's first glyph, or a point in the gap before the next. */
  #xOfTime(t) {
    const times = this.#colTime;
    let lo = 0;
    let hi = times.length; // first column at a time >= t
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < t) lo = mid + 1; else hi = mid;
    }
    if (lo < times.length && times[lo] === t) return this.#colX[lo] + FIRST;
    if (lo === 0) return PAD + FIRST;
    const p = lo - 1;
    const x = this.#colX[p] + this.#colW[p] + gap(t - times[p]) - 2;
    return lo < times.length ? Math.min(x, this.#colX[lo] - 2) : x;
  }

  /** Where a bar ends: its end event's glyph, or (still open) the time it is due or expires. */
  #spanEnd(span) {
    return span.end >= 0 ? this.#xOf[span.end] : this.#xOfTime(span.until);
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

  /** The cursor's band: its step's column (step axis); its instant's column, or a line at `now` (time axis). */
  #cursorBox() {
    const cols = this.#colX.length;
    if (!this.#clock) {
      const c = this.#columnOfStep(this.#step);
      if (c >= 0 && this.#colStep[c] === this.#step) return { x: this.#colX[c], w: this.#colW[c] };
      const x = c < 0 ? PAD + this.#step * COL : this.#colX[c] + this.#colW[c] + (this.#step - this.#colStep[c] - 1) * COL;
      return { x, w: COL };
    }
    const latest = Math.min(this.#applied, this.#events.length) - 1;
    if (latest >= 0 && cols > 0) {
      const c = this.#colOf[latest];
      if (this.#colTime[c] === this.#now) return { x: this.#colX[c], w: this.#colW[c] };
    }
    return { x: this.#xOfTime(this.#now) - 2, w: 4 };
  }

  /** Columns [first, last] that overlap [left, right] in x. */
  #columnsIn(left, right) {
    const xs = this.#colX;
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) { // first column whose right edge is at or past `left`
      const mid = (lo + hi) >> 1;
      if (xs[mid] + this.#colW[mid] < left) lo = mid + 1; else hi = mid;
    }
    const first = lo;
    hi = xs.length;
    while (lo < hi) { // first column that starts past `right`
      const mid = (lo + hi) >> 1;
      if (xs[mid] <= right) lo = mid + 1; else hi = mid;
    }
    return [first, lo - 1];
  }

  #size() {
    const cols = this.#colX.length;
    const box = this.#cursorBox();
    this.#nowBox = box;
    let right = cols > 0 ? this.#colX[cols - 1] + this.#colW[cols - 1] : PAD + COL;
    right = Math.max(right, box.x + box.w);
    for (const span of this.#open.values()) right = Math.max(right, this.#xOfTime(span.until) + FIRST);
    // Grow in chunks of 32 columns so most steps do not resize the SVG (a resize relayouts it).
    const chunk = 32 * COL;
    const width = Math.max(Math.ceil((right + COL) / chunk) * chunk, this.#view.width - this.#view.labels - 2);
    const height = Math.max(this.#lanes.length, 3) * LANE;
    if (width !== this.#width) {
      this.#width = width;
      for (const el of [this.svg, this.axis, this.stripes]) el.setAttribute('width', width);
    }
    if (height !== this.#height) {
      this.#height = height;
      for (const el of [this.svg, this.stripes, this.now]) el.setAttribute('height', height);
    }
    for (const el of [this.now, this.nowAxis]) {
      if (el.getAttribute('x') !== String(box.x)) el.setAttribute('x', box.x);
      if (el.getAttribute('width') !== String(box.w)) el.setAttribute('width', box.w);
    }
    this.empty.hidden = this.#lanes.length > 0;
    this.#tickRange = ''; // columns may have changed under the same scroll position
    this.#ticks();
  }

  // ---- drawing --------------------------------------------------------------

  /**
   * Puts a node in the DOM for every event in the window (columns and lanes in
   * view, plus margins, plus the roving-focus event) and takes the others out;
   * likewise the bars. `restyle` re-applies what depends on the cursor.
   */
  #draw(restyle = false) {
    const v = this.#view;
    const width = v.width > 0 ? v.width - v.labels : 1280;
    const height = v.height > 0 ? v.height - AXIS : 600;
    const left = v.left - MARGIN;
    const right = v.left + width + MARGIN;
    const firstLane = Math.max(0, Math.floor(v.top / LANE) - MARGIN_LANES);
    const lastLane = Math.floor((v.top + height) / LANE) + MARGIN_LANES;
    const wanted = new Set();
    const [c0, c1] = this.#columnsIn(left, right);
    if (c0 <= c1) {
      const end = c1 + 1 < this.#colFirst.length ? this.#colFirst[c1 + 1] : this.#events.length;
      for (let i = this.#colFirst[c0]; i < end && wanted.size < MAX_DRAWN; i++) {
        const lane = this.#laneIndex[i];
        if (lane >= firstLane && lane <= lastLane) wanted.add(i);
      }
    }
    if (this.#active >= 0) wanted.add(this.#active);
    for (const [i, g] of this.#shown) {
      if (wanted.has(i)) continue;
      if (g.contains(document.activeElement)) continue; // never pull the focused glyph out
      g.remove();
      this.#shown.delete(i);
      this.#pool.push(g);
    }
    const fresh = [];
    for (const i of wanted) {
      let g = this.#shown.get(i);
      if (!g) {
        g = this.#pool.pop() ?? s('g', { role: 'button' }, s('circle', { class: 'dlq-ring', r: RING }));
        this.#point(g, i);
        this.#shown.set(i, g);
        fresh.push(g);
      } else if (restyle) {
        this.#style(g, i);
      }
    }
    this.glyphLayer.append(...fresh);
    if (this.#clock) this.#drawSpans(left, right, firstLane, Math.min(lastLane, this.#lanes.length - 1), restyle);
  }

  /** The bars in the window: each split at the cursor into what has happened and what is still to come. */
  #drawSpans(left, right, firstLane, lastLane, restyle) {
    const wanted = new Map();
    for (let lane = firstLane; lane <= lastLane; lane++) {
      for (const span of this.#laneSpans[lane]) {
        const x0 = this.#xOf[span.start];
        const x1 = this.#spanEnd(span);
        if (x1 < left || x0 > right) continue;
        wanted.set(span, [x0, x1]);
      }
    }
    for (const [span, g] of this.#spanShown) {
      if (wanted.has(span)) continue;
      g.remove();
      this.#spanShown.delete(span);
      this.#spanPool.push(g);
    }
    const fresh = [];
    for (const [span, [x0, x1]] of wanted) {
      let g = this.#spanShown.get(span);
      const isNew = !g;
      if (isNew) {
        g = this.#spanPool.pop() ?? s('g', {}, s('line', {}), s('line', {}));
        this.#spanShown.set(span, g);
        fresh.push(g);
      }
      if (isNew || restyle) this.#pointSpan(g, span, x0, x1);
    }
    this.spanLayer.append(...fresh);
  }

  #pointSpan(g, span, x0, x1) {
    const yy = y(span.lane) + BAR_DY;
    // What has happened: from the start to the cursor; the rest is later in the script (faint).
    const started = span.start < this.#applied;
    const ended = span.end >= 0 && span.end < this.#applied;
    const cut = !started ? x0 : ended ? x1 : Math.min(Math.max(this.#nowBox.x + this.#nowBox.w / 2, x0), x1);
    const [done, todo] = g.children;
    const cls = `dlq-span-line is-${span.kind}`;
    g.setAttribute('class', `dlq-span is-${span.kind}${span.end < 0 ? ' is-open' : ''}`);
    for (const [line, a, b, state] of [[done, x0, cut, ''], [todo, cut, x1, ' is-future']]) {
      line.setAttribute('class', cls + state);
      line.setAttribute('x1', a);
      line.setAttribute('x2', b);
      line.setAttribute('y1', yy);
      line.setAttribute('y2', yy);
      line.toggleAttribute('hidden', b - a < 0.5);
    }
  }

  /** Makes node `g` draw event `i`. */
  #point(g, i) {
    const event = this.#events[i];
    const key = glyphKey(event);
    g.setAttribute('transform', `translate(${this.#xOf[i]} ${y(this.#laneIndex[i])}) scale(1.2)`);
    g.setAttribute('data-seq', event.seq);
    if (g.dataset.key !== key) {
      g.dataset.key = key;
      // The focus ring (shown by CSS on :focus-visible) stays; only the glyph changes.
      g.replaceChildren(g.firstChild, glyphPath(key));
    }
    this.#style(g, i);
  }

  /** When an event happened, in words: 'step 3', or 'at 2,277 ms, step 4' on the time axis. */
  #when(event) {
    return this.#clock ? `at ${ms(event.time)}, step ${event.step}` : `step ${event.step}`;
  }

  #style(g, i) {
    const future = i >= this.#applied;
    const className = `dlq-ev g-${g.dataset.key}${future ? ' is-future' : ''}`;
    if (g.getAttribute('class') !== className) g.setAttribute('class', className);
    const tabindex = i === this.#active ? '0' : '-1';
    if (g.getAttribute('tabindex') !== tabindex) g.setAttribute('tabindex', tabindex);
    // Faint is not enough: the name says when an event has not happened yet.
    const event = this.#events[i];
    const label = `"${event.id}", ${this.#when(event)}${future ? ' (later in the script)' : ''}: ${event.explanation}`;
    if (g.getAttribute('aria-label') !== label) g.setAttribute('aria-label', label);
  }

  /** Labels the columns in view (plus a margin) only: thousands of SVG texts are slow. */
  #ticks() {
    const v = this.#view;
    const [c0, c1] = this.#columnsIn(v.left - MARGIN, v.left + Math.max(v.width, 1280) + MARGIN);
    const key = `${c0}:${c1}:${this.#clock}`;
    if (key === this.#tickRange) return;
    this.#tickRange = key;
    const labels = [];  // [x, text, class]
    let marks = '';
    let breaks = '';
    if (!this.#clock) {
      for (let c = Math.max(c0, 0); c <= c1; c++) {
        const k = this.#colStep[c];
        if (k < 1000 || k % 5 === 0) labels.push([this.#colX[c] + this.#colW[c] / 2, String(k), 'dlq-tick']);
      }
    } else {
      let lastRight = -Infinity;
      for (let c = Math.max(c0, 0); c <= c1; c++) {
        const t = this.#colTime[c];
        const x = this.#colX[c] + FIRST;
        if (c > 0 && this.#colTime[c - 1] === t) continue; // one label per instant
        marks += `M${x} ${AXIS - 6}V${AXIS}`;
        if (c > 0 && t - this.#colTime[c - 1] > 0 && gap(t - this.#colTime[c - 1]) === MAX_GAP) {
          const mid = this.#colX[c] - MAX_GAP / 2;
          breaks += `M${mid - 5} ${AXIS - 2}L${mid - 1} ${AXIS - 12}M${mid + 1} ${AXIS - 2}L${mid + 5} ${AXIS - 12}`;
        }
        const text = tick(t);
        const half = text.length * 3.3 + 2;
        const at = Math.max(x, half + 1);
        if (at - half < lastRight + 6) continue; // too close to the previous label: the glyphs' names say it
        lastRight = at + half;
        labels.push([at, text, 'dlq-tick']);
      }
      // The times still to come that no event marks yet: the open leases' expiries and delays' due times.
      const cols = this.#colTime.length;
      const lastTime = cols > 0 ? this.#colTime[cols - 1] : 0;
      const pending = new Set();
      for (const span of this.#open.values()) if (span.until > lastTime) pending.add(span.until);
      for (const t of [...pending].sort((a, b) => a - b)) {
        const x = this.#xOfTime(t);
        marks += `M${x} ${AXIS - 4}V${AXIS}`;
        const text = tick(t);
        const half = text.length * 3.3 + 2;
        if (x - half < lastRight + 6) continue;
        lastRight = x + half;
        labels.push([x, text, 'dlq-tick is-pending']);
      }
    }
    if (this.tickMarks.getAttribute('d') !== marks) this.tickMarks.setAttribute('d', marks);
    if (this.breakMarks.getAttribute('d') !== breaks) this.breakMarks.setAttribute('d', breaks);
    let used = 0;
    for (const [x, text, cls] of labels) {
      let node = this.#tickPool[used];
      if (!node) {
        node = s('text', { y: 14 });
        this.#tickPool.push(node);
        this.axis.append(node);
      }
      if (node.getAttribute('x') !== String(x)) node.setAttribute('x', x);
      if (node.getAttribute('class') !== cls) node.setAttribute('class', cls);
      if (node.textContent !== text) node.textContent = text;
      used += 1;
    }
    while (this.#tickPool.length > used) this.#tickPool.pop().remove();
  }

  /**
   * Keeps the cursor's band [x, x + w] (and the lane of the latest event) in
   * view. It reads only cached sizes and scroll offsets (ResizeObserver, scroll
   * events), so a step never forces a synchronous layout of a big timeline.
   */
  #follow(x, w, event) {
    const sc = this.scroller;
    const v = this.#view;
    if (v.width === 0) return; // not laid out yet (or hidden)
    const view = v.width - v.labels;
    let moved = false;
    if (x < v.left || x + w > v.left + view) {
      v.left = Math.max(0, x - view * 0.6);
      moved = true;
      this.#ticks();
    }
    const lane = event ? this.#laneOf.get(event.id) : undefined;
    if (lane !== undefined) {
      const top = lane * LANE;
      const viewH = v.height - AXIS;
      if (top < v.top || top + LANE > v.top + viewH) {
        v.top = Math.max(0, top - viewH / 2);
        moved = true;
      }
    }
    // The window is drawn for the new offsets at once; the scroller itself moves
    // at the next frame, where the layout that a scroll needs happens anyway.
    if (moved && !this.#scrollQueued) {
      this.#scrollQueued = true;
      requestAnimationFrame(() => {
        this.#scrollQueued = false;
        sc.scrollTo({ left: this.#view.left, top: this.#view.top, behavior: 'instant' });
      });
    }
  }

  // ---- reading and keys -----------------------------------------------------

  #indexOf(target) {
    const g = target?.closest?.('.dlq-ev');
    return g ? Number(g.dataset.seq) - 1 : -1;
  }

  #select(target) {
    const index = this.#indexOf(target);
    if (index >= 0) this.#onSelect(index + 1);
  }

  #setActive(index) {
    const old = this.#shown.get(this.#active);
    this.#active = index;
    if (old) this.#style(old, Number(old.dataset.seq) - 1);
    const now = this.#shown.get(index);
    if (now) this.#style(now, index);
  }

  #key(e) {
    const index = this.#indexOf(e.target);
    if (index < 0) return;
    let next = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = Math.min(index + 1, this.#events.length - 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = Math.max(index - 1, 0);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = this.#events.length - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.#onSelect(index + 1);
      return;
    } else if (e.key === 'Escape') {
      this.#hide();
      return;
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    this.#setActive(next);
    this.#reveal(next);
    this.#shown.get(next)?.focus();
  }

  /** Scrolls an event's glyph and lane into view and draws the window there. */
  #reveal(index) {
    this.#follow(this.#xOf[index] - FIRST, COL, this.#events[index]);
    this.#ticks();
    this.#draw();
  }

  #show(target, focused = false) {
    const index = this.#indexOf(target);
    if (index < 0) return;
    if (focused) this.#setActive(index);
    const event = this.#events[index];
    const when = this.#clock ? `${ms(event.time)} · step ${event.step}` : `step ${event.step}`;
    this.tooltipTitle.textContent = `"${event.id}" · ${when}${index >= this.#applied ? ' · later in the script' : ''}`;
    this.tooltipText.textContent = event.explanation;
    this.tooltipLine.textContent = event.text;
    this.tooltip.hidden = false;
    const node = this.#shown.get(index);
    if (!node) return;
    const box = node.getBoundingClientRect();
    const host = this.element.getBoundingClientRect();
    const tipWidth = this.tooltip.offsetWidth;
    const left = Math.min(Math.max(box.left - host.left + box.width / 2 - tipWidth / 2, 4), host.width - tipWidth - 4);
    this.tooltip.style.left = `${left}px`;
    this.tooltip.style.top = `${box.bottom - host.top + 6}px`;
  }

  #hide() {
    this.tooltip.hidden = true;
  }
}
