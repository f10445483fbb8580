// @ts-check
// The timeline's tooltip: the core's sentence for the event under the pointer
// or focus, placed under its glyph inside the timeline's panel.
import { h } from '../shared/dom.mjs';

export class Tooltip {
  constructor(id) {
    this.title = h('strong', { class: 'dlq-tooltip-title' });
    this.text = h('span', { class: 'dlq-tooltip-text' });
    this.line = h('code', { class: 'dlq-tooltip-line' });
    this.element = h('div', { class: 'dlq-tooltip', role: 'tooltip', id, hidden: true }, this.title, this.text, this.line);
  }

  /** Shows { title, text, line } under `node` (a glyph), inside `host` (the panel). */
  show({ title, text, line }, node, host) {
    this.title.textContent = title;
    this.text.textContent = text;
    this.line.textContent = line;
    this.element.hidden = false;
    if (!node) return;
    const box = node.getBoundingClientRect();
    const frame = host.getBoundingClientRect();
    const width = this.element.offsetWidth;
    const left = Math.min(Math.max(box.left - frame.left + box.width / 2 - width / 2, 4), frame.width - width - 4);
    this.element.style.left = `${left}px`;
    this.element.style.top = `${box.bottom - frame.top + 6}px`;
  }

  hide() {
    this.element.hidden = true;
  }
}
