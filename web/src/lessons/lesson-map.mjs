// @ts-check
// The lesson map: the page's table of contents becomes its levels (levels.mjs),
// each with a mark for its exercises solved (progress.mjs), "n of m" for the
// lesson, and Reset progress. A view with bindReset(); startLessonMap() is the
// small controller that keeps it in step with the stored progress.
import { h } from '../shared/dom.mjs';
import { levelsOf, tally } from './levels.mjs';
import { answersOn, onProgress, pageKey, resetProgress, solvedOn } from './progress.mjs';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export class LessonMapView {
  #onReset = () => {};

  /** `levels`: levelsOf(document); `title`: the map's heading text. */
  constructor(levels, { title = 'Levels in this lesson' } = {}) {
    this.levels = levels;
    this.summary = h('p', { class: 'levels-summary', role: 'status' });
    this.meter = h('progress', { class: 'levels-meter', max: 1, value: 0, 'aria-hidden': 'true' });
    this.reset = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet levels-reset' }, 'Reset progress');
    this.reset.addEventListener('click', () => this.#onReset());
    this.items = levels.map((level, i) => {
      const mark = h('span', { class: 'level-mark' });
      const li = h('li', { class: 'level', 'data-level': level.id },
        h('span', { class: 'level-n', 'aria-hidden': 'true' }, String(i + 1)),
        h('a', { href: `#${level.id}` }, level.title), ' ', mark);
      return { li, mark, level };
    });
    // Each section says which level it is, under its heading.
    this.tags = levels.map((level, i) => {
      const mark = h('span', { class: 'level-tag-mark' });
      const tag = h('p', { class: 'level-tag' }, `Level ${i + 1} of ${levels.length}`, mark);
      level.section.querySelector(':scope > h2')?.after(tag);
      return { mark, level };
    });
    this.element = h('div', { class: 'levels' },
      h('div', { class: 'levels-head' }, h('h2', { class: 'levels-title' }, title), this.summary, this.meter, this.reset),
      h('ol', { class: 'levels-list' }, this.items.map((item) => item.li)));
  }

  bindReset(handler) { this.#onReset = handler; }

  /** Draws the marks for `solved` (a Map of exercise keys); `answered`: predict answers kept (Reset forgets them too). */
  render(solved, answered = 0) {
    for (const { li, mark, level } of this.items) {
      const { done, total } = tally([level], solved);
      li.classList.toggle('is-done', total > 0 && done === total);
      li.classList.toggle('is-reading', total === 0);
      mark.textContent = total === 0 ? 'reading' : done === total ? `✓ ${plural(total, 'exercise')} done` : `${done} of ${total} done`;
    }
    for (const { mark, level } of this.tags) {
      const { done, total } = tally([level], solved);
      mark.textContent = total === 0 ? '' : done === total ? ` · ✓ ${plural(total, 'exercise')} done` : ` · ${done} of ${plural(total, 'exercise')} done`;
    }
    const { done, total } = tally(this.levels, solved);
    this.summary.textContent = `${done} of ${plural(total, 'exercise')} done`;
    this.meter.max = Math.max(1, total);
    this.meter.value = done;
    this.reset.hidden = done === 0 && answered === 0;
  }
}

/**
 * Replaces the page's <nav class="toc"> list with its lesson map (the nav stays,
 * so without JavaScript it is a plain table of contents). Returns the view, or
 * null when the page has no such nav.
 */
export function startLessonMap(doc = document) {
  const nav = doc.querySelector('nav.toc');
  if (!nav) return null;
  const levels = levelsOf(doc);
  const page = pageKey(doc.location?.href ?? doc.baseURI);
  const view = new LessonMapView(levels);
  const render = () => view.render(solvedOn(page), answersOn(page).size);
  view.bindReset(() => {
    resetProgress(page);
    doc.dispatchEvent(new CustomEvent('dlq-progress-reset', { detail: { page } }));
  });
  nav.classList.add('is-levels');
  nav.replaceChildren(view.element);
  render();
  onProgress(render);
  return view;
}
