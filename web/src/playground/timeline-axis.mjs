// @ts-check
// The timeline's axis strip: the step numbers (step axis) or round times
// (time axis) over the columns in view plus a margin — thousands of SVG texts
// are slow, so only those are in the DOM — the outage band's name, and the
// cursor's band. Hidden from assistive technology: the events' names say when
// each happened, and the axis note says the scale in words.
import { s } from '../shared/dom.mjs';
import { tick } from '../shared/time-format.mjs';
import { tickStep, ticksIn } from '../shared/time-scale.mjs';
import { COL } from './timeline-layout.mjs';

export const AXIS = 34;  // px axis height: the band's name above, the ticks below
const TICK_Y = 24;       // the ticks' baseline (their marks run below it, to the axis's foot)

export class TimelineAxis {
  #pool = [];
  #range = '';

  /** `band`: the outage band's axis part (timeline-bands.mjs). */
  constructor(band) {
    this.now = s('rect', { class: 'dlq-now', x: 0, y: 0, width: COL, height: AXIS });
    this.marks = s('path', { class: 'dlq-tick-mark', d: '' });
    this.element = s('svg', { class: 'dlq-tl-axis', height: AXIS, width: COL, 'aria-hidden': 'true' }, band, this.now, this.marks);
  }

  /** Forgets what is drawn: the next draw() redraws even for the same range. */
  invalidate() {
    this.#range = '';
  }

  /** Labels [from, to] (px) of `layout` (timeline-layout.mjs). */
  draw(layout, from, to) {
    const labels = [];  // [x, text]
    let marks = '';
    if (!layout.clock) {
      const [c0, c1] = layout.columnsIn(from, to);
      const key = `${c0}:${c1}:steps`;
      if (key === this.#range) return;
      this.#range = key;
      for (let c = Math.max(c0, 0); c <= c1; c++) {
        const k = layout.colStep(c);
        if (k < 1000 || k % 5 === 0) labels.push([layout.colLeft(c) + layout.colWidth(c) / 2, String(k)]);
      }
    } else {
      const step = tickStep(layout.k);
      const t0 = layout.timeAt(Math.max(0, from));
      const t1 = Math.min(layout.extent, layout.timeAt(to));
      const key = `${Math.floor(t0 / step)}:${Math.ceil(t1 / step)}:${layout.k}`;
      if (key === this.#range) return;
      this.#range = key;
      for (const t of ticksIn(t0, t1, step)) {
        const x = layout.xOfTime(t);
        marks += `M${x} ${AXIS - 5}V${AXIS}`;
        const text = tick(t);
        labels.push([Math.max(x, text.length * 3.3 + 3), text]);
      }
    }
    if (this.marks.getAttribute('d') !== marks) this.marks.setAttribute('d', marks);
    let used = 0;
    for (const [x, text] of labels) {
      let node = this.#pool[used];
      if (!node) {
        node = s('text', { class: 'dlq-tick', y: TICK_Y });
        this.#pool.push(node);
        this.element.append(node);
      }
      if (node.getAttribute('x') !== String(x)) node.setAttribute('x', x);
      if (node.textContent !== text) node.textContent = text;
      used += 1;
    }
    while (this.#pool.length > used) this.#pool.pop().remove();
  }
}
