// @ts-check
// The storm lab page (storm.html): a scenario form, presets, a Web Worker that
// runs one storm per strategy (storm-worker.mjs), a progress bar with Cancel,
// and the results side by side: a summary table (the charts' text twin) and two
// uPlot charts per run. The scenario lives in location.hash (the link format is
// in storm-presets.mjs and docs/storm.md, "Storm links").
//
// The main thread never loads the core: it asks the worker what it needs from it
// (the strategy lists, the costs of a link's runs), reads the form, posts the runs,
// and draws what comes back, one chart per task, so no task runs long. Split the
// way TodoMVC splits it: views (form-view.mjs, run-view.mjs, results-view.mjs)
// build and draw and report the reader's actions; model.mjs talks to the worker;
// controller.mjs owns the flow and the page's state. This entry wires them.
import { StormController } from './controller.mjs';
import { FormView } from './form-view.mjs';
import { RunView } from './run-view.mjs';
import { ResultsView } from './results-view.mjs';
import { StormWorker } from './model.mjs';
import '../shared/skip-link.mjs';

function main() {
  document.documentElement.classList.add('has-js');
  const controller = new StormController({
    form: new FormView(document),
    run: new RunView(document),
    results: new ResultsView(document),
    worker: new StormWorker(new URL('./storm-worker.mjs', import.meta.url)),
  });
  // Ready once the link is decided: the core (in the worker) bounds its cost first.
  controller.start().finally(() => {
    document.documentElement.dataset.ready = 'true';
    document.documentElement.dataset.drawn = 'true';  // the page's .js-only parts are shown (page.css)
  });
}

main();
