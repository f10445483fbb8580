// The embedding example's third playground, mounted with the JS API.
import { mount } from './playground.mjs';

const target = document.querySelector('#lesson-mounted');
if (target) {
  mount(target, {
    label: 'Playground 3: mounted from JavaScript',
    scenario: { maxAttempts: 2, jobs: [{ id: 'report', payload: 'q3' }, { id: 'export', payload: 'csv' }], actions: [], cursor: 0 },
  }).then(() => target.setAttribute('data-ready', 'true'));
}
