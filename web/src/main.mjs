// Entry point of the standalone page and the embedding example: registers
// <dlq-playground> and, once every playground on the page is drawn, marks the
// page interactive (data-ready on <html> and a 'dlq:interactive' performance mark).
import './element.mjs';

export { mount } from './playground.mjs';

const elements = [...document.querySelectorAll('dlq-playground')];
Promise.allSettled(elements.map((el) => el.ready)).then(() => {
  performance.mark('dlq:interactive');
  document.documentElement.dataset.ready = 'true';
});
