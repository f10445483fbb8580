// The home page. Scenario links made before the playground moved to
// playground.html point at index.html#v1;…: they are sent on to the playground,
// fragment and all, so a shared link keeps working (on load, and when only the
// fragment changes).
import { isScenarioLink, linkFromHash } from '../shared/url.mjs';

function forward() {
  if (isScenarioLink(linkFromHash(location.hash))) location.replace(`./playground.html${location.hash}`);
}
forward();
window.addEventListener('hashchange', forward);
