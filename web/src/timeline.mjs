// The Timeline region: an SVG lane chart, one lane per job, x = step. Only the
// glyphs in view (plus a margin) are in the DOM: a window is computed from the
// scroll position, and a pool of <g> nodes is re-pointed at the events in it,
// so a step costs the same with 5 events or 5,000. Events after the cursor (the
// redo tail of the script) are drawn faint. Hover or focus shows the core's
// sentence for an event; click / Enter moves the playground to that step. The
// events are one Tab stop (a roving tabindex that rests on the latest event at
// the cursor); arrow keys move between them. The Event log is the complete
// text twin.
import { h, s } from './dom.mjs';
import { GLYPHS, glyphKey, glyphPath, glyphIcon } from './glyphs.mjs';

const COL = 38;   // px per step
const LANE = 30;  // px per job lane
const PAD = 4;    // px left of step 0
const AXIS = 24;  // px axis height
const MARGIN_COLS = 6;   // columns drawn beyond each side of the view
const MARGIN_LANES = 3;  // lanes drawn beyond the top and bottom of the view
const MAX_DRAWN = 4000;  // a hard cap on glyph nodes, whatever the view size
const RING = 8.6;  // focus ring radius in glyph units (the glyph is drawn at scale 1.2: about 10px)
const TAIL = 6;    // characters at the end of a long lane label that always show
const SLOT = { requeued: 1, completed: 1, quarantined: 1 }; // consequences sit right of their attempt

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

const x = (step, slot = 0) => PAD + step * COL + (slot ? 27 : 12);
const y = (lane) => lane * LANE + LANE / 2;

export class Timeline {
  #events = [];      // every event of the script, by index (steps never decrease)
  #laneIndex = [];   // lane of events[i]
  #shown = new Map(); // event index -> its <g>, for the events in the window
  #pool = [];        // spare <g> nodes
  #lanes = [];       // { id, first (event index), label }
  #laneOf = new Map();
  #maxStep = -1;     // the last step drawn
  #tickPool = [];    // axis labels for the visible columns only (virtualised)
  #tickRange = '';
  #applied = 0;      // events not drawn as "future"
  #active = -1;      // roving-tabindex event
  #scrollQueued = false;
  #onSelect;
  #resize;
  #width = 0;
  #height = 0;
  #step = -1;
  #view = { width: 0, height: 0, labels: 0, left: 0, top: 0 }; // cached scroller geometry

  constructor({ idPrefix, onSelect }) {
    this.#onSelect = onSelect;
    const headingId = `${idPrefix}-tl-h`;
    const patternId = `${idPrefix}-tl-stripes`;
    this.tooltip = h('div', { class: 'dlq-tooltip', role: 'tooltip', id: `${idPrefix}-tl-tip`, hidden: true });
    this.tooltipTitle = h('strong', { class: 'dlq-tooltip-title' });
    this.tooltipText = h('span', { class: 'dlq-tooltip-text' });
    this.tooltipLine = h('code', { class: 'dlq-tooltip-line' });
    this.tooltip.append(this.tooltipTitle, this.tooltipText, this.tooltipLine);

    this.nowAxis = s('rect', { class: 'dlq-now', x: 0, y: 0, width: COL, height: AXIS });
    this.axis = s('svg', { class: 'dlq-tl-axis', height: AXIS, width: COL, 'aria-hidden': 'true' }, this.nowAxis);
    this.now = s('rect', { class: 'dlq-now', x: 0, y: 0, width: COL, height: 0 });
    this.stripes = s('rect', { x: 0, y: 0, width: 0, height: 0, fill: `url(#${patternId})` });
    this.glyphLayer = s('g', { class: 'dlq-tl-events' });
    this.svg = s('svg', {
      class: 'dlq-tl-lanes', width: COL, height: LANE, role: 'group',
      'aria-label': 'Events, one lane per job and one column per step. Arrow keys move between events; Enter goes to that step.',
    },
    s('defs', {}, s('pattern', { id: patternId, width: COL, height: LANE * 2, patternUnits: 'userSpaceOnUse' },
      s('rect', { class: 'dlq-stripe', x: 0, y: LANE, width: COL, height: LANE }),
      s('line', { class: 'dlq-laneline', x1: 0, x2: COL, y1: LANE / 2, y2: LANE / 2 }),
      s('line', { class: 'dlq-laneline', x1: 0, x2: COL, y1: LANE * 1.5, y2: LANE * 1.5 }))),
    this.stripes, this.now, this.glyphLayer);
    this.labels = h('ol', { class: 'dlq-tl-labels', 'aria-label': 'Lanes (jobs)' });
    this.scroller = h('div', { class: 'dlq-tl-scroll' },
      h('div', { class: 'dlq-tl-grid' },
        h('div', { class: 'dlq-tl-corner', 'aria-hidden': 'true' }, 'step'),
        this.axis, this.labels, this.svg));
    this.empty = h('p', { class: 'dlq-tl-empty', hidden: true }, 'No jobs yet: add one in Set-up, or pick a preset.');

    const legend = h('ul', { class: 'dlq-legend', 'aria-label': 'Legend' },
      Object.entries(GLYPHS).map(([key, glyph]) => h('li', { hidden: glyph.clock === true, 'data-kind': key },
        glyphIcon(key), glyph.label)),
      h('li', { class: 'dlq-legend-future' }, h('span', { class: 'dlq-legend-swatch', 'aria-hidden': 'true' }), 'Faint: later in the script (Forward / Run)'));

    this.clockLegend = [...legend.querySelectorAll('li[hidden]')];
    this.element = h('section', { class: 'dlq-panel dlq-timeline', 'aria-labelledby': headingId },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Timeline')),
      legend, this.scroller, this.empty, this.tooltip);

    this.scroller.addEventListener('scroll', () => {
      this.#view.left = this.scroller.scrollLeft;
      this.#view.top = this.scroller.scrollTop;
      this.#ticks();
      this.#draw();
    }, { passive: true });
    this.#resize = new ResizeObserver(() => {
      this.#view.width = this.scroller.clientWidth;
      this.#view.height = this.scroller.clientHeight;
      this.#view.labels = this.labels.offsetWidth;
      this.#width = 0; // re-fit the stripes to the new width
      this.#size(Math.max(this.#step, 0));
      this.#draw();
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

  /**
   * Brings the picture up to date: events[] is the whole script's timeline,
   * `dirtyFrom` the first index that changed since the last sync, `applied`
   * how many have happened, `step` the queue's step at the cursor.
   */
  sync(events, dirtyFrom, applied, step) {
    const had = this.#events.length;
    const before = Math.min(had, dirtyFrom);
    if (before < had) this.#truncate(before);
    const appliedChanged = applied !== this.#applied;
    this.#applied = applied;
    for (let i = before; i < events.length; i++) this.#append(events[i]);
    if (before < had || before < events.length) {
      for (const li of this.clockLegend) li.hidden = !events.some((e) => e.kind === li.dataset.kind);
    }
    if (appliedChanged || before < events.length) {
      for (const lane of this.#lanes) lane.label.classList.toggle('is-future', lane.first >= applied);
    }
    // The timeline's one Tab stop follows the cursor (the latest event that has
    // happened), unless focus is in the timeline: then it stays where the reader is.
    const changed = appliedChanged || before < had || before < events.length;
    const stale = this.#active < 0 || this.#active >= events.length;
    if (stale || (changed && !this.element.contains(document.activeElement))) {
      if (applied > 0) this.#active = Math.min(applied, events.length) - 1;
      else this.#active = events.length > 0 ? 0 : -1;
    }
    this.#size(step);
    this.#follow(step, events[applied - 1]);
    this.#draw(true);
  }

  /** Stops observing sizes (the playground is being destroyed). */
  destroy() {
    this.#resize.disconnect();
  }

  #append(event) {
    let lane = this.#laneOf.get(event.id);
    if (lane === undefined) {
      lane = this.#lanes.length;
      const label = laneLabel(event.id);
      this.#lanes.push({ id: event.id, first: this.#events.length, label });
      this.#laneOf.set(event.id, lane);
      this.labels.append(label);
    }
    this.#events.push(event);
    this.#laneIndex.push(lane);
    if (event.step > this.#maxStep) this.#maxStep = event.step;
  }

  /** The first event index whose step is >= `step` (events are sorted by step). */
  #firstAtStep(step) {
    let lo = 0;
    let hi = this.#events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#events[mid].step < step) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /**
   * Puts a node in the DOM for every event in the window (columns and lanes in
   * view, plus margins, plus the roving-focus event) and takes the others out.
   * `restyle` re-applies the classes that depend on the cursor.
   */
  #draw(restyle = false) {
    const v = this.#view;
    const width = v.width > 0 ? v.width - v.labels : 1280;
    const height = v.height > 0 ? v.height - AXIS : 600;
    const firstCol = Math.max(0, Math.floor((v.left - PAD) / COL) - MARGIN_COLS);
    const lastCol = Math.floor((v.left + width - PAD) / COL) + MARGIN_COLS;
    const firstLane = Math.max(0, Math.floor(v.top / LANE) - MARGIN_LANES);
    const lastLane = Math.floor((v.top + height) / LANE) + MARGIN_LANES;
    const wanted = new Set();
    const end = this.#firstAtStep(lastCol + 1);
    for (let i = this.#firstAtStep(firstCol); i < end && wanted.size < MAX_DRAWN; i++) {
      const lane = this.#laneIndex[i];
      if (lane >= firstLane && lane <= lastLane) wanted.add(i);
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
  }

  /** Makes node `g` draw event `i`. */
  #point(g, i) {
    const event = this.#events[i];
    const key = glyphKey(event);
    g.setAttribute('transform', `translate(${x(event.step, SLOT[event.kind])} ${y(this.#laneIndex[i])}) scale(1.2)`);
    g.setAttribute('data-seq', event.seq);
    g.setAttribute('aria-label', `"${event.id}", step ${event.step}: ${event.explanation}`);
    if (g.dataset.key !== key) {
      g.dataset.key = key;
      // The focus ring (shown by CSS on :focus-visible) stays; only the glyph changes.
      g.replaceChildren(g.firstChild, glyphPath(key));
    }
    this.#style(g, i);
  }

  #style(g, i) {
    const className = `dlq-ev g-${g.dataset.key}${i >= this.#applied ? ' is-future' : ''}`;
    if (g.getAttribute('class') !== className) g.setAttribute('class', className);
    const tabindex = i === this.#active ? '0' : '-1';
    if (g.getAttribute('tabindex') !== tabindex) g.setAttribute('tabindex', tabindex);
  }

  /** Draws step numbers for the columns in view (plus a margin) only: thousands of SVG texts are slow. */
  #ticks() {
    const v = this.#view;
    const first = Math.max(0, Math.floor((v.left - PAD) / COL) - 8);
    const last = Math.min(Math.max(this.#maxStep, this.#step), first + Math.ceil(Math.max(v.width, 1280) / COL) + 16);
    const key = `${first}:${last}`;
    if (key === this.#tickRange) return;
    this.#tickRange = key;
    let used = 0;
    for (let k = first; k <= last; k++, used++) {
      let text = this.#tickPool[used];
      if (!text) {
        text = s('text', { y: 16, class: 'dlq-tick' });
        this.#tickPool.push(text);
        this.axis.append(text);
      }
      text.setAttribute('x', PAD + k * COL + COL / 2);
      text.textContent = k < 1000 || k % 5 === 0 ? String(k) : '';
    }
    while (this.#tickPool.length > used) this.#tickPool.pop().remove();
  }

  #truncate(keep) {
    for (const [i, g] of this.#shown) {
      if (i < keep) continue;
      g.remove();
      this.#shown.delete(i);
      this.#pool.push(g);
    }
    this.#events.length = keep;
    this.#laneIndex.length = keep;
    while (this.#lanes.length > 0 && this.#lanes[this.#lanes.length - 1].first >= keep) {
      const lane = this.#lanes.pop();
      lane.label.remove();
      this.#laneOf.delete(lane.id);
    }
    this.#maxStep = keep > 0 ? this.#events[keep - 1].step : -1;
    if (this.#active >= keep) this.#active = -1;
  }

  #size(step) {
    const steps = Math.max(this.#maxStep + 1, step + 1, 1);
    // Grow in chunks of 32 columns so most steps do not resize the SVG (a resize relayouts it).
    const columns = Math.ceil((steps + 1) / 32) * 32;
    const width = Math.max(PAD + columns * COL, this.#view.width - this.#view.labels - 2);
    const height = Math.max(this.#lanes.length, 3) * LANE;
    if (width !== this.#width) {
      this.#width = width;
      for (const el of [this.svg, this.axis, this.stripes]) el.setAttribute('width', width);
    }
    if (height !== this.#height) {
      this.#height = height;
      for (const el of [this.svg, this.stripes, this.now]) el.setAttribute('height', height);
    }
    if (step !== this.#step) {
      this.#step = step;
      this.now.setAttribute('x', PAD + step * COL);
      this.nowAxis.setAttribute('x', PAD + step * COL);
    }
    this.empty.hidden = this.#lanes.length > 0;
    this.#ticks();
  }

  /**
   * Keeps the cursor's column (and the lane of the latest event) in view. It
   * reads only cached sizes and scroll offsets (ResizeObserver, scroll
   * events), so a step never forces a synchronous layout of a big timeline.
   */
  #follow(step, event) {
    const sc = this.scroller;
    const v = this.#view;
    if (v.width === 0) return; // not laid out yet (or hidden)
    const view = v.width - v.labels;
    const left = PAD + step * COL;
    let moved = false;
    if (left < v.left || left + COL > v.left + view) {
      v.left = Math.max(0, left - view * 0.6);
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
    this.#reveal(this.#events[next]);
    this.#shown.get(next)?.focus();
  }

  /** Scrolls an event's column and lane into view and draws the window there. */
  #reveal(event) {
    this.#follow(event.step, event);
    this.#ticks();
    this.#draw();
  }

  #show(target, focused = false) {
    const index = this.#indexOf(target);
    if (index < 0) return;
    if (focused) this.#setActive(index);
    const event = this.#events[index];
    this.tooltipTitle.textContent = `"${event.id}" · step ${event.step}`;
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
