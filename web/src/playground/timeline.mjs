// @ts-check
// The Timeline region: an SVG lane chart, one lane per job. Two x axes:
//
// - steps (lesson 1, and any playground without the clock): one column per
//   step; the strip grows at the right and scrolls to follow the cursor;
// - time, in a clock playground (the caller says so, or an event happened
//   after time 0, or has a due time or an expiry): a LINEAR axis in virtual ms
//   that fits the whole scenario (its events, open bars and outage) to the
//   width, zoomed and panned with timeline-zoom.mjs's controls, with a "now"
//   readout and line. Events at one instant of one lane stand side by side in
//   step order; every lane's events at one time share its x. Backoff delays
//   are dashed bars from the delaying failure to the due time, leases solid
//   bars from 'leased' to the settle or expiry, the world's outage a named band.
//
// The parts: timeline-layout.mjs places events (lanes, columns, the scale),
// timeline-axis.mjs labels the axis, timeline-bands.mjs draws the outage,
// timeline-spans.mjs keeps the bars, timeline-zoom.mjs the zoom and pan
// controls and the "now" readout, timeline-legend.mjs and
// timeline-tooltip.mjs the rest. This module puts them together and draws the
// window: only the glyphs (and bars) and the lane labels in view plus a margin are in the DOM, a
// pool of <g> nodes re-pointed at the events in the window, so a step costs the
// same with 5 events or 5,000; on the time axis, of a lane's glyphs on one pixel
// only the last (the one on top) is drawn — zoom in to tell them apart. Events after the cursor (the redo tail of the
// script) are drawn faint and named "later in the script" (futureMarker).
// Hover or focus shows the core's sentence for an event; click / Enter moves
// the playground to that step. The events are one Tab stop (a roving tabindex
// that rests on the latest event at the cursor); arrow keys move between them.
// The Event log is the complete text twin; the axis note says the scale and the
// band in words. Everything drawn comes from the session's view.
import { h, s } from '../shared/dom.mjs';
import { glyphKey, glyphPath } from '../shared/glyphs.mjs';
import { ms } from '../shared/time-format.mjs';
import { Tooltip } from './timeline-tooltip.mjs';
import { Legend, latestDelay } from './timeline-legend.mjs';
import { latestRequeue } from '../shared/requeue-words.mjs';
import { Bands } from './timeline-bands.mjs';
import { ZoomControls } from './timeline-zoom.mjs';
import { TimelineAxis, AXIS } from './timeline-axis.mjs';
import { MIN_ZOOM } from '../shared/time-scale.mjs';
import { COL, FIRST, LANE, TimelineLayout, laneY, usesClock } from './timeline-layout.mjs';

const MARGIN = 6 * COL;  // px drawn beyond each side of the view
const MARGIN_LANES = 3;  // lanes drawn beyond the top and bottom of the view
const MAX_DRAWN = 4000;  // a hard cap on glyph nodes, whatever the view size
const RING = 8.6;  // focus ring radius in glyph units (the glyph is drawn at scale 1.2: about 10px)
const TAIL = 6;    // characters at the end of a long lane label that always show
const BAR_DY = 9;  // px below the lane's centre line where lease and delay bars run

/** Sets an attribute only when its value changes (setting it, even to its value, restyles the element). */
function setIf(el, name, value) {
  const text = String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
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

/**
 * The "later in the script" marker, in one place: event `i` is drawn faint and
 * named so while it has not happened (i >= applied). Returns whether, the class
 * suffix, and the words its name and its tooltip carry ('' once it happened).
 */
export function futureMarker(i, applied) {
  const future = i >= applied;
  return { future, cls: future ? ' is-future' : '', label: future ? ' (later in the script)' : '', tip: future ? ' · later in the script' : '' };
}

const LABELS = {
  steps: 'Events, one lane per job and one column per step. Arrow keys move between events; Enter goes to that step.',
  time: 'Events along the virtual clock, one lane per job; events at the same time stand side by side in step order, '
    + 'and bars show leases and backoff delays. Arrow keys move between events; Enter goes to that step.',
};

export class Timeline {
  #layout = new TimelineLayout();
  #labels = new Map(); // lane -> its label <li>, for the lanes in the window
  #longest = '';     // the longest lane id: it sizes the labels' column (CSS ::before), as if every label were there
  #shown = new Map(); // event index -> its <g>, for the events in the window
  #pool = new Map(); // glyph key -> spare <g> nodes drawing it (a node reused for its own kind keeps its glyph)
  #spanShown = new Map(); // span -> its <g>
  #spanPool = [];
  #applied = 0;      // events that have happened
  #active = -1;      // roving-tabindex event
  #scrollQueued = false;
  /** @type {(seq: number) => void} */
  #onSelect = () => {};
  #resize;
  #width = 0;
  #height = 0;
  #step = 0;
  #now = 0;
  #latest = undefined; // the latest event that has happened
  #nowBox = { x: 0, w: COL }; // the cursor's band
  #view = { width: 0, height: 0, labels: 0, left: 0, top: 0 }; // cached scroller geometry

  /** `handler(seq)`: the reader chose an event (a click, or Enter on it); seq is its index + 1. */
  bindSelect(handler) {
    this.#onSelect = handler;
  }

  constructor({ idPrefix }) {
    const headingId = `${idPrefix}-tl-h`;
    const patternId = `${idPrefix}-tl-stripes`;
    this.tooltip = new Tooltip(`${idPrefix}-tl-tip`);
    this.bands = new Bands();
    this.zoom = new ZoomControls();
    this.axis = new TimelineAxis(this.bands.axis);
    this.now = s('rect', { class: 'dlq-now', x: 0, y: 0, width: COL, height: 0 });
    this.stripes = s('rect', { x: 0, y: 0, width: 0, height: 0, fill: `url(#${patternId})` });
    this.spanLayer = s('g', { class: 'dlq-tl-spans', 'aria-hidden': 'true' });
    this.glyphLayer = s('g', { class: 'dlq-tl-events' });
    this.svg = s('svg', { class: 'dlq-tl-lanes', width: COL, height: LANE, role: 'group', 'aria-label': LABELS.steps },
      s('defs', {}, s('pattern', { id: patternId, width: COL, height: LANE * 2, patternUnits: 'userSpaceOnUse' },
        s('rect', { class: 'dlq-stripe', x: 0, y: LANE, width: COL, height: LANE }),
        s('line', { class: 'dlq-laneline', x1: 0, x2: COL, y1: LANE / 2, y2: LANE / 2 }),
        s('line', { class: 'dlq-laneline', x1: 0, x2: COL, y1: LANE * 1.5, y2: LANE * 1.5 }))),
      this.stripes, this.bands.lanes, this.now, this.spanLayer, this.glyphLayer);
    this.labels = h('ol', { class: 'dlq-tl-labels', 'aria-label': 'Lanes (jobs)' });
    this.corner = h('div', { class: 'dlq-tl-corner', 'aria-hidden': 'true' }, 'step');
    this.scroller = h('div', { class: 'dlq-tl-scroll' },
      h('div', { class: 'dlq-tl-grid' }, this.corner, this.axis.element, this.labels, this.svg));
    this.empty = h('p', { class: 'dlq-tl-empty', hidden: true }, 'No jobs yet: add one in Set-up, or pick a preset.');
    // What the axis is, in words: the scale, and the band.
    this.axisNote = h('p', { class: 'dlq-tl-note', hidden: true });
    this.legend = new Legend();
    this.element = h('section', { class: 'dlq-panel dlq-timeline', 'aria-labelledby': headingId },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Timeline'), this.zoom.readout),
      this.legend.element, this.axisNote, this.zoom.toolbar, this.scroller, this.empty, this.tooltip.element);

    this.scroller.addEventListener('scroll', () => {
      this.#view.left = this.scroller.scrollLeft;
      this.#view.top = this.scroller.scrollTop;
      this.#ticks();
      this.#draw();
      this.#renderRange();
    }, { passive: true });
    this.#resize = new ResizeObserver(() => {
      const first = this.#view.width === 0;
      this.#view.width = this.scroller.clientWidth;
      this.#view.height = this.scroller.clientHeight;
      this.#view.labels = this.labels.offsetWidth;
      this.#width = 0; // re-fit the stripes to the new width
      const rescaled = this.#rescale();
      this.#size();
      // Laid out for the first time (or shown again): bring the cursor into view.
      if (first) this.#follow(this.#nowBox.x, this.#nowBox.w, this.#latest);
      this.#draw(true, rescaled);
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
      if (from && !from.contains(e.relatedTarget) && !from.contains(document.activeElement)) this.tooltip.hide();
    });
    sc.addEventListener('focusin', (e) => this.#show(e.target, true));
    sc.addEventListener('focusout', () => this.tooltip.hide());
    sc.addEventListener('keydown', (e) => this.#key(e));

    this.zoom.bindZoom((factor, anchor) => this.#zoomTo(this.#layout.zoom * factor, anchor));
    this.zoom.bindPan((share) => this.#pan(share));
    this.zoom.bindFit(() => this.#zoomTo(MIN_ZOOM, null));
    this.zoom.attach(sc, this.element, {
      isEvent: (target) => Boolean(target.closest?.('.dlq-ev')),
      left: () => this.svg.getBoundingClientRect().left + this.scroller.scrollLeft,
      active: () => this.#layout.clock,
    });
  }

  /** True when the timeline draws a time axis. */
  get usesClock() {
    return this.#layout.clock;
  }

  /**
   * Brings the picture up to date: events[] is the whole script's timeline,
   * `dirtyFrom` the first index that changed since the last sync, `applied`
   * how many have happened, `step` the queue's step at the cursor and `now`
   * (optional) its time (default: the time of the latest applied event).
   * `world` (view.world, or null) has the outage drawn as a band; `clock` says
   * the playground is a clock playground (its clock controls are on offer), so
   * the time axis is on before any event needs it.
   */
  sync(events, dirtyFrom, applied, step, now, { world = null, clock: hint = false } = {}) {
    const layout = this.#layout;
    const had = layout.events.length;
    let before = Math.min(had, dirtyFrom);
    // The axis follows the whole script: a change that adds or removes the clock's first use redraws everything.
    let clock = hint || layout.firstClock < before;
    for (let i = before; !clock && i < events.length; i++) clock = usesClock(events[i]);
    if (clock !== layout.clock) {
      before = 0;
      layout.clock = clock;
      this.svg.setAttribute('aria-label', clock ? LABELS.time : LABELS.steps);
      this.corner.textContent = clock ? 'time' : 'step';
      this.axisNote.hidden = !clock;
      this.element.classList.toggle('is-clock', clock);
      this.zoom.show(clock);
    }
    const bandChanged = this.bands.set(world?.outage ?? null);
    // A whole new timeline (a load, a preset, a set-up change replayed from the start) is shown whole.
    if (before === 0 && had > 0) layout.zoom = MIN_ZOOM;
    if (before < had) this.#truncate(before);
    const appliedChanged = applied !== this.#applied;
    this.#applied = applied;
    for (let i = before; i < events.length; i++) {
      if (layout.append(events[i]) >= 0 && [...events[i].id].length > [...this.#longest].length) this.#longest = events[i].id;
    }
    if (before < had || before < events.length) this.#sizeLabels();
    const eventsChanged = before < had || before < events.length;
    if (eventsChanged || bandChanged) {
      this.legend.update(layout.kinds, layout.clock, this.bands.outage !== null, latestRequeue(layout.events),
        latestDelay(layout.events));
    }
    // The timeline's one Tab stop follows the cursor (the latest event that has
    // happened), unless focus is in the timeline: then it stays where the reader is.
    const stale = this.#active < 0 || this.#active >= events.length;
    if (stale || ((appliedChanged || eventsChanged) && !this.scroller.contains(document.activeElement))) {
      if (applied > 0) this.#active = Math.min(applied, events.length) - 1;
      else this.#active = events.length > 0 ? 0 : -1;
    }
    const latest = layout.events[Math.min(applied, layout.events.length) - 1];
    this.#latest = latest;
    this.#step = step;
    this.#now = now ?? latest?.time ?? 0;
    const rescaled = this.#rescale();
    this.#size();
    this.#follow(this.#nowBox.x, this.#nowBox.w, latest);
    this.#draw(true, rescaled || bandChanged);
    this.zoom.renderNow(this.#now, step);
    this.#note();
  }

  /** Stops observing sizes (the playground is being destroyed). */
  destroy() {
    this.#resize.disconnect();
  }

  // ---- layout ---------------------------------------------------------------

  #truncate(keep) {
    for (const [i, g] of this.#shown) {
      if (i < keep) continue;
      g.remove();
      this.#shown.delete(i);
      this.#spare(g);
    }
    this.#layout.truncate(keep);
    const lanes = this.#layout.lanes.length;
    for (const [lane, li] of this.#labels) {
      if (lane < lanes) continue;
      li.remove();
      this.#labels.delete(lane);
    }
    // The longest id may have gone with its lane.
    this.#longest = '';
    for (const lane of this.#layout.lanes) if ([...lane.id].length > [...this.#longest].length) this.#longest = lane.id;
    for (const [k, g] of this.#spanShown) {
      g.remove();
      this.#spanPool.push(g);
      this.#spanShown.delete(k);
    }
    if (this.#active >= keep) this.#active = -1;
  }

  /** The lanes' width in view (the scroller less the lane labels). */
  #viewWidth() {
    const v = this.#view;
    return v.width > 0 ? v.width - v.labels - 2 : 1280;
  }

  #rescale() {
    return this.#layout.rescale(this.#viewWidth(), this.#now, this.bands.outage);
  }

  #size() {
    const layout = this.#layout;
    const box = layout.cursorBox(this.#step, this.#now);
    this.#nowBox = box;
    const right = layout.right(box);
    // The step axis grows in chunks of 32 columns so most steps do not resize the SVG (a resize relayouts it).
    const chunk = 32 * COL;
    const grown = layout.clock ? Math.ceil(right) : Math.ceil(right / chunk) * chunk;
    const width = Math.max(grown, this.#viewWidth());
    const height = Math.max(layout.lanes.length, 3) * LANE;
    if (width !== this.#width) {
      this.#width = width;
      for (const el of [this.svg, this.axis.element, this.stripes]) el.setAttribute('width', width);
    }
    if (height !== this.#height) {
      this.#height = height;
      for (const el of [this.svg, this.stripes, this.now]) el.setAttribute('height', height);
    }
    for (const el of [this.now, this.axis.now]) {
      if (el.getAttribute('x') !== String(box.x)) el.setAttribute('x', box.x);
      if (el.getAttribute('width') !== String(box.w)) el.setAttribute('width', box.w);
      el.classList.toggle('is-line', layout.clock);
    }
    this.bands.draw(layout.clock, (t) => layout.xOfTime(t), height);
    this.empty.hidden = layout.lanes.length > 0;
    this.axis.invalidate(); // columns may have changed under the same scroll position
    this.#ticks();
    this.#renderRange();
  }

  // ---- zoom and pan (time axis) ---------------------------------------------

  /** Zooms to `zoom` keeping the time under `anchor` (px from the lanes' left edge in view; null: now, or the middle) in place. */
  #zoomTo(zoom, anchor) {
    const layout = this.#layout;
    const width = this.#viewWidth();
    const next = Math.min(Math.max(zoom, MIN_ZOOM), layout.maxZoom(width));
    if (next === layout.zoom) return;
    const v = this.#view;
    let at = anchor;
    if (at === null) {
      const nowX = layout.xOfTime(this.#now) - v.left;
      at = nowX >= 0 && nowX <= width ? nowX : width / 2;
    }
    const t = layout.timeAt(v.left + at);
    layout.zoom = next;
    this.#rescale();
    this.#size();
    this.#scrollTo(layout.xOfTime(t) - at);
    this.#draw(true, true);
  }

  #pan(share) {
    this.#scrollTo(this.#view.left + share * this.#viewWidth());
    this.#draw();
  }

  /** The range in view, in words, and which controls can act. */
  #renderRange() {
    const layout = this.#layout;
    if (!layout.clock) return;
    const v = this.#view;
    const width = this.#viewWidth();
    const fitted = layout.zoom <= MIN_ZOOM;
    const from = Math.round(layout.timeAt(v.left));
    const to = fitted ? layout.extent : Math.round(Math.min(layout.extent, layout.timeAt(v.left + width)));
    this.zoom.renderRange(from, to, { fitted, zoomIn: layout.zoom < layout.maxZoom(width), zoomOut: !fitted });
    this.element.dataset.zoom = layout.zoom.toFixed(3);
  }

  /** The axis note: the scale and the band in words (the text twin of what the axis shows). */
  #note() {
    if (!this.#layout.clock) return;
    const outage = this.bands.outage;
    const text = `One linear time scale, 0 to ${ms(this.#layout.extent)} fitted to the width. Zoom and pan: the buttons, `
      + 'Ctrl + wheel, a drag, or + − 0 and Shift + ← → in the timeline.'
      + (outage ? ` Shaded: the outage, ${ms(outage.startMs)} to ${ms(outage.endMs)} (the dependency is down).` : '');
    if (this.axisNote.textContent !== text) this.axisNote.textContent = text;
  }

  // ---- drawing --------------------------------------------------------------

  /** Labels the axis over the view plus a margin. */
  #ticks() {
    const v = this.#view;
    this.axis.draw(this.#layout, v.left - MARGIN, v.left + Math.max(this.#viewWidth(), 1280) + MARGIN);
  }

  /**
   * Puts a node in the DOM for every event in the window (columns and lanes in
   * view, plus margins, plus the roving-focus event) and takes the others out;
   * likewise the bars. `restyle` re-applies what depends on the cursor;
   * `moved` re-places every node (the time axis's scale changed).
   */
  #draw(restyle = false, moved = false) {
    const layout = this.#layout;
    const v = this.#view;
    const height = v.height > 0 ? v.height - AXIS : 600;
    const left = v.left - MARGIN;
    const right = v.left + this.#viewWidth() + MARGIN;
    const firstLane = Math.max(0, Math.floor(v.top / LANE) - MARGIN_LANES);
    const lastLane = Math.floor((v.top + height) / LANE) + MARGIN_LANES;
    this.#drawLabels(firstLane, Math.min(lastLane, layout.lanes.length - 1));
    const wanted = new Set();
    const [c0, c1] = layout.columnsIn(left, right);
    if (c0 <= c1) {
      // On the time axis glyphs of one lane on the same pixel are one picture: only the last (on top) is drawn.
      const lastAt = layout.clock ? new Map() : null; // lane -> [px, event] of the glyph kept there last
      const end = layout.columnStart(c1 + 1);
      for (let i = layout.columnStart(c0); i < end && wanted.size < MAX_DRAWN; i++) {
        const lane = layout.laneIndex[i];
        if (lane < firstLane || lane > lastLane) continue;
        if (lastAt) {
          const px = Math.round(layout.x(i));
          const prev = lastAt.get(lane);
          if (prev && prev[0] === px) wanted.delete(prev[1]);
          lastAt.set(lane, [px, i]);
        }
        wanted.add(i);
      }
    }
    if (this.#active >= 0) wanted.add(this.#active);
    for (const [i, g] of this.#shown) {
      if (wanted.has(i)) continue;
      if (g.contains(document.activeElement)) continue; // never pull the focused glyph out
      g.remove();
      this.#shown.delete(i);
      this.#spare(g);
    }
    const fresh = [];
    for (const i of wanted) {
      let g = this.#shown.get(i);
      if (!g) {
        g = this.#take(glyphKey(layout.events[i]));
        this.#point(g, i);
        this.#shown.set(i, g);
        fresh.push(g);
      } else if (moved) {
        this.#point(g, i);
      } else if (restyle) {
        this.#style(g, i);
      }
    }
    this.glyphLayer.append(...fresh);
    if (layout.clock) this.#drawSpans(left, right, firstLane, Math.min(lastLane, layout.lanes.length - 1), restyle || moved);
  }

  /**
   * The lane labels in the window, lanes [first, last], in lane order (the DOM's order is
   * the lanes'), each placed at its lane's top; the others are not in the DOM, so a big
   * timeline's label column costs what is on screen. Each says whether its job has
   * happened yet (faint: its first event is later in the script).
   */
  #drawLabels(first, last) {
    const lanes = this.#layout.lanes;
    let changed = false;
    for (const [lane, li] of this.#labels) {
      if (lane >= first && lane <= last && li.title === lanes[lane].id) continue;
      li.remove();
      this.#labels.delete(lane);
      changed = true;
    }
    for (let lane = first; lane <= last; lane++) {
      let li = this.#labels.get(lane);
      if (!li) {
        li = laneLabel(lanes[lane].id);
        li.style.top = `${lane * LANE}px`;
        if (lane % 2 === 1) li.classList.add('is-alt');
        this.#labels.set(lane, li);
        changed = true;
      }
      li.classList.toggle('is-future', futureMarker(lanes[lane].first, this.#applied).future);
    }
    if (!changed) return;
    // In lane order: put back only what is out of place (usually one label at either end).
    let expected = this.labels.firstChild;
    for (let lane = first; lane <= last; lane++) {
      const li = this.#labels.get(lane);
      if (li !== expected) this.labels.insertBefore(li, expected);
      expected = li.nextSibling;
    }
  }

  /** The labels' column: as tall as every lane, as wide as the longest id (the labels drawn are only the window's). */
  #sizeLabels() {
    // A minimum: with fewer than three lanes the column still stretches to the lanes' drawing (its row).
    const height = `${this.#layout.lanes.length * LANE}px`;
    if (this.labels.style.minHeight !== height) this.labels.style.minHeight = height;
    if (this.labels.dataset.longest !== this.#longest) this.labels.dataset.longest = this.#longest;
  }

  /** The bars in the window: each split at the cursor into what has happened and what is still to come. */
  #drawSpans(left, right, firstLane, lastLane, restyle) {
    const layout = this.#layout;
    const wanted = new Map();
    for (let lane = firstLane; lane <= lastLane; lane++) {
      for (const span of layout.spans.byLane[lane]) {
        const x0 = layout.x(span.start);
        const x1 = layout.spanEnd(span);
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
    const yy = laneY(span.lane) + BAR_DY;
    // What has happened: from the start to the cursor; the rest is later in the script (faint).
    const started = span.start < this.#applied;
    const ended = span.end >= 0 && span.end < this.#applied;
    const cut = !started ? x0 : ended ? x1 : Math.min(Math.max(this.#nowBox.x + this.#nowBox.w / 2, x0), x1);
    const [done, todo] = g.children;
    const cls = `dlq-span-line is-${span.kind}`;
    // Written only on a change: a Step restyles every bar in view, and most stay as they were.
    setIf(g, 'class', `dlq-span is-${span.kind}${span.end < 0 ? ' is-open' : ''}`);
    for (const [line, a, b, state] of [[done, x0, cut, ''], [todo, cut, x1, ' is-future']]) {
      setIf(line, 'class', cls + state);
      setIf(line, 'x1', a);
      setIf(line, 'x2', b);
      setIf(line, 'y1', yy);
      setIf(line, 'y2', yy);
      if (line.hasAttribute('hidden') !== (b - a < 0.5)) line.toggleAttribute('hidden', b - a < 0.5);
    }
  }

  /** Puts a glyph node back in the pool of its kind. */
  #spare(g) {
    const key = g.dataset.key;
    const pool = this.#pool.get(key);
    if (pool) pool.push(g); else this.#pool.set(key, [g]);
  }

  /** A spare node for a glyph of kind `key`: one that draws it already, else any, else a new one. */
  #take(key) {
    const own = this.#pool.get(key);
    if (own?.length) return own.pop();
    for (const pool of this.#pool.values()) if (pool.length) return pool.pop();
    return s('g', { role: 'button' }, s('circle', { class: 'dlq-ring', r: RING }));
  }

  /** Makes node `g` draw event `i`. */
  #point(g, i) {
    const layout = this.#layout;
    const event = layout.events[i];
    const key = glyphKey(event);
    setIf(g, 'transform', `translate(${layout.x(i)} ${laneY(layout.laneIndex[i])}) scale(1.2)`);
    setIf(g, 'data-seq', event.seq);
    if (g.dataset.key !== key) {
      g.dataset.key = key;
      // The focus ring (shown by CSS on :focus-visible) stays; only the glyph changes.
      g.replaceChildren(g.firstChild, glyphPath(key));
    }
    this.#style(g, i);
  }

  /** When an event happened, in words: 'step 3', or 'at 2,277 ms, step 4' on the time axis. */
  #when(event) {
    return this.#layout.clock ? `at ${ms(event.time)}, step ${event.step}` : `step ${event.step}`;
  }

  #style(g, i) {
    const marker = futureMarker(i, this.#applied);
    const className = `dlq-ev g-${g.dataset.key}${marker.cls}`;
    if (g.getAttribute('class') !== className) g.setAttribute('class', className);
    const tabindex = i === this.#active ? '0' : '-1';
    if (g.getAttribute('tabindex') !== tabindex) g.setAttribute('tabindex', tabindex);
    // Faint is not enough: the name says when an event has not happened yet.
    const event = this.#layout.events[i];
    const label = `"${event.id}", ${this.#when(event)}${marker.label}: ${event.explanation}`;
    if (g.getAttribute('aria-label') !== label) g.setAttribute('aria-label', label);
  }

  /** Moves the view to `left` (px) now for drawing; the scroller follows at the next frame. */
  #scrollTo(left, top = this.#view.top) {
    const v = this.#view;
    v.left = Math.min(Math.max(0, left), Math.max(0, this.#width - this.#viewWidth()));
    v.top = top;
    this.#ticks();
    this.#renderRange();
    // The window is drawn for the new offsets at once; the scroller itself moves
    // at the next frame, where the layout that a scroll needs happens anyway.
    if (!this.#scrollQueued) {
      this.#scrollQueued = true;
      requestAnimationFrame(() => {
        this.#scrollQueued = false;
        this.scroller.scrollTo({ left: this.#view.left, top: this.#view.top, behavior: 'instant' });
      });
    }
  }

  /**
   * Keeps the cursor's band [x, x + w] (and the lane of the latest event) in
   * view. It reads only cached sizes and scroll offsets (ResizeObserver, scroll
   * events), so a step never forces a synchronous layout of a big timeline.
   */
  #follow(x, w, event) {
    const v = this.#view;
    if (v.width === 0) return; // not laid out yet (or hidden)
    const view = this.#viewWidth();
    let left = v.left;
    let top = v.top;
    if (x < v.left || x + w > v.left + view) left = Math.max(0, x - view * 0.6);
    const lane = event ? this.#layout.laneOf.get(event.id) : undefined;
    if (lane !== undefined) {
      const laneTop = lane * LANE;
      const viewH = v.height - AXIS;
      if (laneTop < v.top || laneTop + LANE > v.top + viewH) top = Math.max(0, laneTop - viewH / 2);
    }
    if (left !== v.left || top !== v.top) this.#scrollTo(left, top);
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
    if (index < 0 || e.defaultPrevented) return;
    const last = this.#layout.events.length - 1;
    let next = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = Math.min(index + 1, last);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = Math.max(index - 1, 0);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = last;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.#onSelect(index + 1);
      return;
    } else if (e.key === 'Escape') {
      this.tooltip.hide();
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
    this.#follow(this.#layout.x(index) - FIRST, COL, this.#layout.events[index]);
    this.#ticks();
    this.#draw();
  }

  #show(target, focused = false) {
    const index = this.#indexOf(target);
    if (index < 0) return;
    if (focused) this.#setActive(index);
    const event = this.#layout.events[index];
    const when = this.#layout.clock ? `${ms(event.time)} · step ${event.step}` : `step ${event.step}`;
    const title = `"${event.id}" · ${when}${futureMarker(index, this.#applied).tip}`;
    this.tooltip.show({ title, text: event.explanation, line: event.text }, this.#shown.get(index), this.element);
  }
}
