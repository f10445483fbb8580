// @ts-check
// The compare page (compare.html): one scenario link played by the core under
// two to four columns (systems or policy overrides), drawn on one time axis
// under a short diff. The fragment holds the request (compare-link.mjs). Split
// the way TodoMVC splits it: model.mjs asks the core, form-view.mjs and
// results-view.mjs (with chart-view.mjs) draw and report, controller.mjs owns
// the flow. This entry wires them.
import { loadLab } from '../../wasm/index.mjs';
import { CompareModel } from './model.mjs';
import { FormView } from './form-view.mjs';
import { ResultsView } from './results-view.mjs';
import { CompareController } from './controller.mjs';
import '../shared/skip-link.mjs';

async function main() {
  document.documentElement.classList.add('has-js');
  try {
    const lab = await loadLab();
    const controller = new CompareController({
      model: new CompareModel(lab),
      form: new FormView(document),
      results: new ResultsView(document),
      window,
    });
    await controller.start();
    document.documentElement.dataset.ready = 'true';
  } finally {
    document.documentElement.dataset.drawn = 'true';  // the page's .js-only parts are shown (page.css), drawn or not
  }
}

main();
