// @ts-check
// The home page. Scenario links made before the playground moved to
// playground.html point at index.html#v1;…: they are sent on to the playground,
// fragment and all, so a shared link keeps working (on load, and when only the
// fragment changes).
//
// Each lesson card says how many of that lesson's exercises this browser has
// seen solved ("2 of 6 exercises done", progress.mjs), with Reset progress. The
// exercises are counted from the lesson page itself (fetched and parsed:
// levels.mjs), so the count cannot drift from the lesson.
import { h } from '../shared/dom.mjs';
import { isScenarioLink, linkFromHash } from '../shared/url.mjs';
import { levelsOf, tally } from './levels.mjs';
import { answersOn, onProgress, pageKey, resetProgress, solvedOn } from './progress.mjs';
import { showEmbedLines } from '../playground/embed-lines.mjs';
import '../shared/skip-link.mjs';

/** Sends an old scenario link on to the playground; true when it did (this page is leaving). */
function forward() {
  if (!isScenarioLink(linkFromHash(location.hash))) return false;
  location.replace(`./playground.html${location.hash}`);
  return true;
}
const leaving = forward();
window.addEventListener('hashchange', forward);

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The lesson's levels, from its page. */
async function lessonLevels(href) {
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${href}: ${response.status}`);
  return levelsOf(new DOMParser().parseFromString(await response.text(), 'text/html'));
}

/** One card's progress line and its Reset button. */
async function showProgress(card, link) {
  const page = pageKey(link.href);
  const line = h('span', { class: 'home-progress-text' }, 'Counting the exercises…');
  const reset = h('button', { type: 'button', class: 'home-reset', hidden: true }, 'Reset progress');
  const box = h('p', { class: 'home-progress', role: 'status' }, line, ' ', reset);
  card.append(box);
  let levels;
  try {
    levels = await lessonLevels(link.href);
  } catch {
    line.textContent = 'Your progress is kept in this browser.';
    return;
  }
  const render = () => {
    const { done, total } = tally(levels, solvedOn(page));
    line.textContent = `${done} of ${plural(total, 'exercise')} done, in ${plural(levels.length, 'level')}.`;
    box.classList.toggle('is-done', total > 0 && done === total);
    reset.hidden = done === 0 && answersOn(page).size === 0;  // predict answers are progress too
  };
  reset.addEventListener('click', () => resetProgress(page));
  onProgress(render);
  render();
}

// Not while the page is leaving for the playground: nothing to count, and nothing to fetch.
if (!leaving) {
  for (const link of document.querySelectorAll('.home-cards h2 a[href*="lesson-"]')) showProgress(link.closest('li'), link);
}
// The Embedding card's two lines, with this site's own URL.
showEmbedLines(document);
