// @ts-check
// The timeline's legend: a glyph per event kind (the clock's and the
// capstone's kinds only once the timeline has them), the bars, the outage band
// and the faint "later in the script" swatch.
import { h, s } from '../shared/dom.mjs';
import { GLYPHS, glyphIcon } from '../shared/glyphs.mjs';
import { requeueWords } from '../shared/requeue-words.mjs';

const spanItem = (kind, label) => h('li', { 'data-span': kind, hidden: true },
  s('svg', { viewBox: '0 0 18 8', width: 18, height: 8, 'aria-hidden': 'true', focusable: 'false', class: 'dlq-icon' },
    s('line', { x1: 1.5, x2: 16.5, y1: 4, y2: 4, class: `dlq-span-line is-${kind}` })), label);

/** The latest 'delayed' event in `events`, or undefined. */
export function latestDelay(events) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === 'delayed') return events[i];
  return undefined;
}

/** The delay bar's words: where the core says the delay waits (event.waitsIn), when not in the broker. */
function delayLegendWords(delayed) {
  const where = delayed?.waitsIn;
  if (where === undefined) return 'Backoff delay: until due';
  return where === 'worker' ? 'Backoff delay: its worker asleep until due' : `Backoff delay: in ${where} until due`;
}

export class Legend {
  constructor() {
    this.element = h('ul', { class: 'dlq-legend', 'aria-label': 'Legend' },
      Object.entries(GLYPHS).map(([key, glyph]) => h('li', { hidden: glyph.clock === true, 'data-kind': key },
        glyphIcon(key), glyph.label)),
      spanItem('lease', 'Lease: leased until settled or expired'),
      spanItem('delay', 'Backoff delay: until due'),
      h('li', { 'data-band': 'outage', hidden: true },
        h('span', { class: 'dlq-legend-band', 'aria-hidden': 'true' }), 'Outage: the dependency is down'),
      h('li', { class: 'dlq-legend-future' }, h('span', { class: 'dlq-legend-swatch', 'aria-hidden': 'true' }), 'Faint: later in the script (Forward / Run)'));
    this.optional = [...this.element.querySelectorAll('li[data-kind][hidden]')];
    this.spans = [...this.element.querySelectorAll('li[data-span]')];
    this.band = this.element.querySelector('li[data-band]');
    this.requeue = this.element.querySelector('li[data-kind="requeued"]').lastChild;
    this.delay = this.element.querySelector('li[data-span="delay"]').lastChild;
  }

  /** `kinds`: event kind -> count; `clock`: the time axis is on; `outage`: a band is drawn;
   * `requeued`: the latest requeued attempt, if any; `delayed`: the latest 'delayed' event, if any. */
  update(kinds, clock, outage, requeued, delayed) {
    // Written only on a change: setting an attribute, even to its value, restyles the element.
    const hide = (li, hidden) => { if (li.hidden !== hidden) li.hidden = hidden; };
    for (const li of this.optional) hide(li, !kinds.get(li.dataset.kind));
    const has = { lease: kinds.get('leased'), delay: kinds.get('delayed') };
    for (const li of this.spans) hide(li, !(clock && has[li.dataset.span]));
    hide(this.band, !(clock && outage));
    const words = requeueWords(requeued);
    if (this.requeue.data !== words) this.requeue.data = words;
    const delayWords = delayLegendWords(delayed);
    if (this.delay.data !== delayWords) this.delay.data = delayWords;
  }
}
