// @ts-check
// The time axis's controls: the "now" readout, Zoom out / Zoom in / Fit /
// Earlier / Later buttons and the range in view (a toolbar: one Tab stop, arrow
// keys between its buttons), and the gestures on the lanes: Ctrl + wheel (or
// a pinch) zooms around the pointer, a drag or a sideways wheel pans, and the
// keys + - 0 and Shift + ← → do the same while focus is in the timeline.
// A view: it reports what the reader asked for (bindZoom, bindPan, bindFit);
// the timeline decides what that means for its scale.
import { h } from '../shared/dom.mjs';
import { ms, tick } from '../shared/time-format.mjs';

const PAN_SHARE = 0.4; // Earlier / Later move the view by this share of its width

export class ZoomControls {
  /** @type {(factor: number, anchorPx: number | null) => void} */
  #onZoom = () => {};
  /** @type {(share: number) => void} */
  #onPan = () => {};
  #onFit = () => {};

  constructor() {
    this.nowValue = h('strong', { class: 'dlq-tl-now-value' }, '0 ms');
    this.readout = h('p', { class: 'dlq-tl-now', hidden: true }, 'Now ', this.nowValue);
    const button = (label, text, act) => h('button', {
      type: 'button', class: 'dlq-tl-zoom-button', 'aria-label': label, title: label, tabindex: -1, onclick: act,
    }, text);
    this.buttons = [
      button('Zoom out', '−', () => this.#onZoom(0.5, null)),
      button('Zoom in', '+', () => this.#onZoom(2, null)),
      button('Fit the whole scenario', 'Fit', () => this.#onFit()),
      button('Earlier', '◀', () => this.#onPan(-PAN_SHARE)),
      button('Later', '▶', () => this.#onPan(PAN_SHARE)),
    ];
    this.buttons[0].tabIndex = 0;
    this.range = h('span', { class: 'dlq-tl-range' });
    this.toolbar = h('div', { class: 'dlq-tl-zoom', role: 'toolbar', 'aria-label': 'Time axis: zoom and pan', hidden: true },
      ...this.buttons, this.range);
    this.toolbar.addEventListener('keydown', (e) => this.#roving(e));
  }

  /** `handler(factor, anchorPx | null)`: zoom by `factor` around a point of the view (null: the cursor, or the middle). */
  bindZoom(handler) { this.#onZoom = handler; }
  /** `handler(share)`: pan by `share` of the view's width (negative: earlier). */
  bindPan(handler) { this.#onPan = handler; }
  /** `handler()`: back to the whole scenario. */
  bindFit(handler) { this.#onFit = handler; }

  /** Shown on the time axis only. */
  show(clock) {
    if (this.toolbar.hidden === clock) this.toolbar.hidden = !clock;
    if (this.readout.hidden === clock) this.readout.hidden = !clock;
  }

  /** The session's virtual clock at the cursor, and the step. */
  renderNow(now, step) {
    const text = `${ms(now)} · step ${step}`;
    if (this.nowValue.textContent !== text) this.nowValue.textContent = text;
  }

  /** The range in view, in ms, and whether it is the whole scenario; `zoomIn` / `zoomOut` say which way can go further. */
  renderRange(from, to, { fitted, zoomIn, zoomOut }) {
    const text = fitted ? `0 – ${tick(to)}: the whole scenario` : `${tick(from)} – ${tick(to)} in view`;
    if (this.range.textContent !== text) this.range.textContent = text;
    const [out, into, fit, earlier, later] = this.buttons;
    const set = (b, off) => { if ((b.getAttribute('aria-disabled') === 'true') !== off) b.setAttribute('aria-disabled', String(off)); };
    set(out, !zoomOut);
    set(into, !zoomIn);
    set(fit, fitted);
    set(earlier, fitted || from <= 0);
    set(later, fitted);
  }

  /**
   * The gestures and keys on the timeline: `scroller` (the lanes' scroll box),
   * `panel` (where the keys count), `isEvent(target)`: a glyph (a drag never
   * starts on one), `left()`: the lanes' left edge in the viewport (px).
   */
  attach(scroller, panel, { isEvent, left, active }) {
    scroller.addEventListener('wheel', (e) => {
      if (!active()) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        this.#onZoom(Math.exp(-e.deltaY / 300), e.clientX - left());
      }
      // A sideways wheel (or Shift + wheel) scrolls the strip natively: that is the pan.
    }, { passive: false });
    let drag = null;
    scroller.addEventListener('pointerdown', (e) => {
      if (!active() || e.button !== 0 || isEvent(e.target) || e.pointerType === 'touch') return;
      // Not on the scroller's own scrollbars: they pan natively.
      const box = scroller.getBoundingClientRect();
      if (e.clientX - box.left > scroller.clientLeft + scroller.clientWidth || e.clientY - box.top > scroller.clientTop + scroller.clientHeight) return;
      drag = { x: e.clientX, left: scroller.scrollLeft, id: e.pointerId, moved: false };
    });
    scroller.addEventListener('pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const dx = e.clientX - drag.x;
      if (!drag.moved && Math.abs(dx) < 4) return;
      if (!drag.moved) {
        drag.moved = true;
        scroller.setPointerCapture(e.pointerId);
        scroller.classList.add('is-panning');
      }
      scroller.scrollLeft = drag.left - dx;
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (drag.moved) scroller.releasePointerCapture(e.pointerId);
      scroller.classList.remove('is-panning');
      drag = null;
    };
    scroller.addEventListener('pointerup', end);
    scroller.addEventListener('pointercancel', end);
    panel.addEventListener('keydown', (e) => {
      if (!active() || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      let act = null;
      if (e.key === '+' || e.key === '=') act = () => this.#onZoom(2, null);
      else if (e.key === '-' || e.key === '_') act = () => this.#onZoom(0.5, null);
      else if (e.key === '0') act = () => this.#onFit();
      else if (e.shiftKey && e.key === 'ArrowLeft') act = () => this.#onPan(-PAN_SHARE);
      else if (e.shiftKey && e.key === 'ArrowRight') act = () => this.#onPan(PAN_SHARE);
      if (!act) return;
      e.preventDefault();
      e.stopPropagation();
      act();
    }, true); // capture: before a glyph's own arrow keys
  }

  /** The toolbar's one Tab stop moves with the arrow keys (Home / End too). */
  #roving(e) {
    const i = this.buttons.indexOf(e.target);
    if (i < 0 || e.shiftKey) return;
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % this.buttons.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + this.buttons.length) % this.buttons.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = this.buttons.length - 1;
    if (next < 0) return;
    e.preventDefault();
    e.stopPropagation();
    for (const b of this.buttons) b.tabIndex = -1;
    this.buttons[next].tabIndex = 0;
    this.buttons[next].focus();
  }
}
