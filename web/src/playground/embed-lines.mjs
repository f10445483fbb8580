// @ts-check
// The two lines an author copies to put a playground from this site into a page:
// the script (by its full URL on the site being read, so it works from any page)
// and the element. The element holds a sentence that stays only if the script
// never ran (blocked, or not found): then the page itself says what failed and
// where to read what to do, not only the browser's console.
import { siteURL } from '../shared/url.mjs';

/** The a/b example, as embed.html's first playground shows it. */
export const EXAMPLE_SCENARIO = 'v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0';

/** The two lines, for `scenario` (link text), with the site found from this module's own URL. */
export function embedLines(scenario = EXAMPLE_SCENARIO) {
  const script = siteURL('src/main.mjs');
  const help = siteURL('embed.html');
  return `<script type="module" src="${script}"></script>\n`
    + `<dlq-playground scenario="${scenario}">If this text stays, the playground's script did not load: see ${help}</dlq-playground>`;
}

/** Fills every <code data-embed-lines> in `doc` with the lines (its value, if any, is the scenario). */
export function showEmbedLines(doc) {
  for (const code of doc.querySelectorAll('code[data-embed-lines]')) {
    code.textContent = embedLines(code.dataset.embedLines || EXAMPLE_SCENARIO);
  }
}
