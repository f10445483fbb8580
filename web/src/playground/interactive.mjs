// @ts-check
// When a page is interactive: once every playground that began drawing at load
// (all but the loading="lazy" ones out of view) is ready, the page gets
// data-ready on <html>, a 'dlq:interactive' performance mark and a
// 'dlq:interactive' event on document (lazy playgrounds then mount in idle time,
// or as they come near the viewport). Call it once, after <dlq-playground> is defined.
import { DlqPlaygroundElement } from './element.mjs';

export function markInteractive() {
  // Lazy elements learn whether they are in view in a microtask (element.mjs): ask after it.
  return DlqPlaygroundElement.placed().then(() => {
    const elements = [...document.querySelectorAll('dlq-playground')].filter((el) => el.mounting);
    return Promise.allSettled(elements.map((el) => el.ready));
  }).then(() => {
    performance.mark('dlq:interactive');
    document.documentElement.dataset.ready = 'true';
    document.dispatchEvent(new Event('dlq:interactive'));
  });
}
