// @ts-check
// The embedding example's two lines to copy (with this site's own URL), and its
// third playground, mounted with the JS API.
import { mount } from './playground.mjs';
import { showEmbedLines } from './embed-lines.mjs';

showEmbedLines(document);

const target = document.querySelector('#lesson-mounted');
if (target) {
  mount(target, {
    label: 'Playground 3: mounted from JavaScript',
    scenario: { maxAttempts: 2, jobs: [{ id: 'report', payload: 'q3' }, { id: 'export', payload: 'csv' }], actions: [], cursor: 0 },
  }).then(() => target.setAttribute('data-ready', 'true'));
}
