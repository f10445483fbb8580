// @ts-check
// The Check page (check.html): `dlq-lab check` in the browser. Paste or drop a team's queue
// configuration, see the findings the CLI prints, and open each finding's scenario in the
// playground. The checker is its own module (wasm/check.mjs), fetched when this page starts,
// never by the playground. This entry wires view.mjs and controller.mjs.
import { CheckView } from './view.mjs';
import { CheckController } from './controller.mjs';
import '../shared/skip-link.mjs';

const loadChecker = () => import('../../wasm/check.mjs').then((module) => module.loadChecker());

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.text();
}

function main() {
  document.documentElement.classList.add('has-js');
  const controller = new CheckController({
    view: new CheckView(document),
    loadChecker,
    fetchText,
    linkBase: new URL('./playground.html', window.location.href).href,
  });
  try {
    controller.start();
  } finally {
    document.documentElement.dataset.drawn = 'true';  // the page's .js-only parts are shown (page.css)
  }
  loadChecker().then(() => { document.documentElement.dataset.ready = 'true'; }, (error) => {
    document.documentElement.dataset.ready = 'failed';
    console.error(error);
  });
}

main();
