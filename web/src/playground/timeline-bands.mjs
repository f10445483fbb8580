// @ts-check
// Named windows of time drawn as bands across every lane: the world's outage
// (view.world.outage, the dependency down in [startMs, endMs)). The band in the
// lanes carries its name for assistive technology; the axis shows it in words.
import { s } from '../shared/dom.mjs';
import { ms, tick } from '../shared/time-format.mjs';

/** The band's accessible name and its axis label. */
export function outageName({ startMs, endMs }) {
  return {
    name: `Outage: the dependency is down from ${ms(startMs)} to ${ms(endMs)}`,
    label: `outage ${tick(startMs)} – ${tick(endMs)}`,
  };
}

export class Bands {
  #outage = null;

  constructor() {
    this.rect = s('rect', { class: 'dlq-band-rect', x: 0, y: 0, width: 0, height: 0 });
    this.lanes = s('g', { class: 'dlq-band is-outage', role: 'img', hidden: true }, this.rect);
    this.axisRect = s('rect', { class: 'dlq-band-rect', x: 0, y: 0, width: 0, height: 24 });
    this.axisText = s('text', { class: 'dlq-band-label', x: 0, y: 8 });
    this.axis = s('g', { class: 'dlq-band is-outage' }); // filled only while a band is drawn: the axis's texts are its ticks otherwise
  }

  /** The outage in force ({ startMs, endMs } or null). True when it changed. */
  set(outage) {
    const next = outage && outage.endMs > outage.startMs ? { startMs: outage.startMs, endMs: outage.endMs } : null;
    const same = next === this.#outage || (next && this.#outage && next.startMs === this.#outage.startMs && next.endMs === this.#outage.endMs);
    if (same) return false;
    this.#outage = next;
    if (next) this.lanes.setAttribute('aria-label', outageName(next).name);
    return true;
  }

  get outage() {
    return this.#outage;
  }

  /** Draws the band with `x(t)` (px of a time) across `height` px of lanes; hidden off the time axis. */
  draw(clock, x, height) {
    const on = clock && this.#outage !== null;
    this.lanes.toggleAttribute('hidden', !on);
    if (!on) {
      if (this.axis.firstChild) this.axis.replaceChildren();
      return;
    }
    if (!this.axis.firstChild) this.axis.append(this.axisRect, this.axisText);
    const x0 = x(this.#outage.startMs);
    const w = Math.max(2, x(this.#outage.endMs) - x0);
    for (const r of [this.rect, this.axisRect]) {
      r.setAttribute('x', x0);
      r.setAttribute('width', w);
    }
    this.rect.setAttribute('height', height);
    this.axisText.setAttribute('x', x0 + 4);
    this.axisText.textContent = outageName(this.#outage).label;
  }
}
