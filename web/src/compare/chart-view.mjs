// @ts-check
// The columns' timelines, stacked, on ONE linear time axis: every column is
// drawn with the same pixels per millisecond, and the longest run sets the
// axis, so Sidekiq's 15 s retries stand 15 s to the right of the lab's 0 ms
// requeues. Every column has the same lanes (one per job, in the order the jobs
// first appear in any column). Events at one instant of one lane stand side by
// side in the order they happened. Each event is a glyph with an accessible
// name (the core's sentence for it); a column's events are one Tab stop (a
// roving tabindex), arrow keys move between them, and the focused or hovered
// event's sentence shows under the column. Draws only; the controller hands it
// what the core answered.
import { h, s } from '../shared/dom.mjs';
import { GLYPHS, glyphKey, glyphPath, glyphIcon } from '../shared/glyphs.mjs';
import { tick } from '../shared/time-format.mjs';
import { pxPerMs, tickStep, ticksIn } from '../shared/time-scale.mjs';
import { latestRequeue, requeueWords } from '../shared/requeue-words.mjs';
import { clockTime } from './diff.mjs';

const LANE = 30;     // px per job lane
const AXIS = 22;     // px for the axis labels under the lanes
const LEFT = 14;     // px from the lanes' left edge to time 0
const RIGHT = 16;    // px kept free right of the last instant
const SLOT = 13;     // px between glyphs at one instant of one lane
const BAR_DY = 9;    // px below the lane's centre where a backoff delay's bar runs
const MIN_WIDTH = 240;

/**
 * The axis every column shares: { maxMs, pxPerMs, width, x(t) } for a lanes
 * area `width` px wide, the longest run's last instant at the right edge less
 * room for its widest cluster of glyphs. The scale and the ticks are the
 * playground timeline's (shared/time-scale.mjs, at zoom 1: the whole run fits).
 */
export function sharedAxis(maxMs, width, cluster) {
  const room = Math.max(1, width - LEFT - RIGHT - (cluster - 1) * SLOT);
  const k = maxMs > 0 ? pxPerMs(maxMs, room, 1) : 0;
  return { maxMs, pxPerMs: k, width, x: (t) => LEFT + t * k, ticks: () => ticksIn(0, maxMs, tickStep(k)) };
}

export class ChartView {
  #root;
  #results = [];
  #lanes = [];
  #resize;
  #width = 0;

  constructor(root) {
    this.#root = root;
    this.#resize = new ResizeObserver(() => {
      const width = this.#available();
      if (width !== this.#width && this.#results.length > 0) this.#draw();
    });
    this.#resize.observe(root);
  }

  /** The lanes' width: the chart's own, less the lane labels. */
  #available() {
    return Math.max(MIN_WIDTH, Math.floor(this.#root.clientWidth) - 72);
  }

  /** Nothing drawn (a refused request leaves no other request's columns on show). */
  clear() {
    this.#results = [];
    this.#lanes = [];
    this.#root.replaceChildren();
  }

  /** `results`: what CompareModel.play() answered, one per column. */
  render(results) {
    this.#results = results;
    const lanes = [];
    for (const r of results) for (const e of r.events ?? []) if (e.id && !lanes.includes(e.id)) lanes.push(e.id);
    this.#lanes = lanes;
    this.#draw();
  }

  #draw() {
    this.#width = this.#available();
    const played = this.#results.filter((r) => r.events);
    const maxMs = Math.max(0, ...played.map((r) => lastInstant(r.events)));
    const cluster = Math.max(1, ...played.map((r) => widestCluster(r.events)));
    const axis = sharedAxis(maxMs, this.#width, Math.min(cluster, 6));
    this.#root.replaceChildren(
      h('p', { class: 'cmp-axis-note', id: 'cmp-axis-note' },
        `One time axis for every column: 0 to ${clockTime(maxMs)}, the longest run, at the same scale in each. `
        + 'Events at one instant stand side by side in the order they happened.'),
      legend(played),
      ...this.#results.map((result, i) => this.#column(result, i, axis)));
  }

  #column(result, index, axis) {
    const headingId = `cmp-col-${index + 1}-h`;
    const head = h('header', { class: 'cmp-col-head' },
      h('h3', { id: headingId }, h('span', { class: 'cmp-col-n' }, `${index + 1}`), ' ', result.label));
    const article = h('article', { class: 'cmp-col', 'aria-labelledby': headingId, 'data-column': result.label }, head);
    if (result.error) {
      article.classList.add('is-refused');
      article.append(h('p', { class: 'cmp-refused', role: 'note' },
        h('strong', {}, 'The core refuses this column'), ` (${result.error.code}): ${result.error.message}`));
      return article;
    }
    const { stats } = result;
    head.append(
      h('p', { class: 'cmp-col-sum' }, summary(result)),
      h('a', { class: 'cmp-open', href: `./playground.html#${result.link}`, 'aria-label': `Open ${result.label} in the playground` },
        'Open in the playground'));
    article.dataset.completed = stats.completed;
    const detail = h('p', { class: 'cmp-detail', 'aria-live': 'polite' }, 'Focus or hover an event to read what the core did.');
    article.append(this.#lanesOf(result, axis, detail, headingId), detail);
    return article;
  }

  #lanesOf(result, axis, detail, headingId) {
    const lanes = this.#lanes;
    const height = lanes.length * LANE + AXIS;
    const y = (lane) => lane * LANE + LANE / 2;
    const svg = s('svg', {
      class: 'cmp-lanes', width: axis.width, height, role: 'group',
      'aria-label': `${result.label}: events along the shared time axis, one lane per job. Arrow keys move between events.`,
      'data-max-ms': axis.maxMs, 'data-px-per-ms': axis.pxPerMs.toFixed(6),
    });
    // Lane stripes and the axis's grid lines, then the bars, then the glyphs on top.
    lanes.forEach((id, lane) => {
      if (lane % 2 === 1) svg.append(s('rect', { class: 'cmp-stripe', x: 0, y: lane * LANE, width: axis.width, height: LANE }));
      svg.append(s('line', { class: 'cmp-laneline', x1: 0, x2: axis.width, y1: y(lane), y2: y(lane) }));
    });
    const ticks = s('g', { class: 'cmp-axis', 'aria-hidden': 'true' });
    if (axis.maxMs > 0) {
      for (const t of axis.ticks()) {
        const x = axis.x(t);
        ticks.append(s('line', { class: 'cmp-grid', x1: x, x2: x, y1: 0, y2: height - AXIS + 4 }),
          s('text', { class: 'cmp-tick', x, y: height - 6, 'text-anchor': t === 0 ? 'start' : 'middle' }, tick(t)));
      }
    } else {
      ticks.append(s('text', { class: 'cmp-tick', x: LEFT, y: height - 6 }, 'every event at 0 ms'));
    }
    svg.append(ticks);
    const bars = s('g', { class: 'cmp-bars', 'aria-hidden': 'true' });
    const glyphs = s('g', { class: 'cmp-events' });
    const slots = new Map();  // `${lane}:${time}` -> glyphs so far
    const nodes = [];
    for (const event of result.events) {
      if (!event.id) continue;
      const lane = lanes.indexOf(event.id);
      const key = `${lane}:${event.time}`;
      const k = slots.get(key) ?? 0;
      slots.set(key, k + 1);
      const x = axis.x(event.time) + k * SLOT;
      if (event.delayMs > 0 && event.until !== undefined && event.kind !== 'delayed') {
        bars.append(s('line', { class: 'cmp-delay', x1: x, x2: axis.x(event.until), y1: y(lane) + BAR_DY, y2: y(lane) + BAR_DY }));
      }
      const glyph = glyphKey(event);
      const label = `"${event.id}", at ${clockTime(event.time)} (${result.label}): ${GLYPHS[glyph]?.label ?? event.kind}. ${event.explanation}`;
      const g = s('g', {
        class: `dlq-ev cmp-ev g-${glyph}`, transform: `translate(${x.toFixed(2)} ${y(lane)}) scale(1.1)`,
        role: 'img', 'aria-label': label, tabindex: nodes.length === 0 ? 0 : -1,
        'data-kind': event.kind, 'data-id': event.id, 'data-time': event.time, 'data-x': x.toFixed(2),
      }, s('circle', { class: 'dlq-ring', r: 8.6 }), glyphPath(glyph), s('title', {}, label));
      nodes.push(g);
      glyphs.append(g);
    }
    svg.append(bars, glyphs);
    const show = (g) => { detail.textContent = g.getAttribute('aria-label'); };
    glyphs.addEventListener('focusin', (e) => { const g = e.target.closest('.cmp-ev'); if (g) show(g); });
    glyphs.addEventListener('pointerover', (e) => { const g = e.target.closest('.cmp-ev'); if (g) show(g); });
    svg.addEventListener('keydown', (e) => moveFocus(e, nodes));
    const labels = h('ol', { class: 'cmp-lane-labels', 'aria-label': `Lanes (jobs) of ${result.label}` },
      ...lanes.map((id) => h('li', { title: id }, id)));
    return h('div', { class: 'cmp-lanes-box', 'aria-describedby': 'cmp-axis-note', 'aria-labelledby': headingId }, labels, svg);
  }

  /** The whole chart's state, for tests and the page: every column's axis. */
  axes() {
    return [...this.#root.querySelectorAll('svg.cmp-lanes')].map((svg) => ({ maxMs: Number(svg.dataset.maxMs), pxPerMs: Number(svg.dataset.pxPerMs) }));
  }
}

/** Left / Right / Home / End move the roving tabindex through a column's events (in the order they happened). */
function moveFocus(event, nodes) {
  const at = nodes.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: nodes.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  const next = nodes[Math.max(0, Math.min(nodes.length - 1, to))];
  nodes[at].setAttribute('tabindex', '-1');
  next.setAttribute('tabindex', '0');
  next.focus();
}

/** The latest time a run's timeline reaches: its last event, or a backoff delay's due time past it (not a lease's expiry). */
function lastInstant(events) {
  let last = 0;
  for (const e of events) last = Math.max(last, e.time, e.delayMs !== undefined ? (e.until ?? 0) : 0);
  return last;
}

/** The most glyphs one lane has at one instant. */
function widestCluster(events) {
  const counts = new Map();
  let most = 0;
  for (const e of events) {
    const key = `${e.id}:${e.time}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    most = Math.max(most, n);
  }
  return most;
}

function summary({ stats, events }) {
  const last = events.length > 0 ? events.at(-1).time : 0;
  const parts = [`${stats.completed} completed`, `${stats.quarantined} quarantined`];
  for (const place of ['ready', 'delayed', 'leased']) if (stats[place] > 0) parts.push(`${stats[place]} ${place}`);
  parts.push(`${events.filter((e) => e.kind === 'attempt' || e.kind === 'expired').length} deliveries`, `ends at ${clockTime(last)}`);
  return parts.join(' · ');
}

/**
 * The requeue glyph's words per column, in the core's words (as the playground's legend
 * says them): one item when every column says the same, else one per wording, naming its columns.
 */
function requeueItems(results) {
  const byWords = new Map();  // words -> column labels
  for (const r of results) {
    if (!r.events.some((e) => e.kind === 'requeued')) continue;
    const words = requeueWords(latestRequeue(r.events));
    byWords.set(words, [...(byWords.get(words) ?? []), r.label]);
  }
  const many = byWords.size > 1;
  return [...byWords].map(([words, labels]) => h('li', { 'data-kind': 'requeued' }, glyphIcon('requeued'),
    many ? `${words} (${labels.join(', ')})` : words));
}

/** The glyphs the columns use, once each. */
function legend(results) {
  const keys = [];
  for (const r of results) for (const e of r.events) { const k = glyphKey(e); if (e.id && !keys.includes(k)) keys.push(k); }
  return h('ul', { class: 'cmp-legend', 'aria-label': 'Legend' },
    ...keys.flatMap((k) => (k === 'requeued' ? requeueItems(results) : [h('li', { 'data-kind': k }, glyphIcon(k), GLYPHS[k]?.label ?? k)])),
    h('li', {}, s('svg', { viewBox: '0 0 18 8', width: 18, height: 8, 'aria-hidden': 'true', focusable: 'false', class: 'dlq-icon' },
      s('line', { class: 'cmp-delay', x1: 1, x2: 17, y1: 4, y2: 4 })), 'Backoff delay, to the due time'));
}
