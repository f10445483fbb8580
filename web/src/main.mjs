// Entry point of the site's pages: registers <dlq-playground> and, once every
// playground that is drawn at load (all but the loading="lazy" ones out of view)
// is ready, marks the page interactive: data-ready on <html>, a 'dlq:interactive'
// performance mark and a 'dlq:interactive' event on document (lazy playgrounds
// then mount in idle time, or as they come near the viewport).
import './element.mjs';

export { mount } from './playground.mjs';

const elements = [...document.querySelectorAll('dlq-playground')].filter((el) => el.mounting);
Promise.allSettled(elements.map((el) => el.ready)).then(() => {
  performance.mark('dlq:interactive');
  document.documentElement.dataset.ready = 'true';
  document.dispatchEvent(new Event('dlq:interactive'));
});
