// @ts-check
// Scenario links. The core owns the format (lab.parseScenario / formatScenario);
// this module only moves link text in and out of the URL fragment and turns the
// core's error codes into the message the page shows.

/**
 * What counts as a scenario link in a URL fragment: a format version tag
 * ('v' and decimal digits) followed by ';' ('v1;m3;…', also 'v2;…' from a newer
 * build, which the core then refuses with a message). Every other fragment —
 * '', 'section-2', 'v2' alone, 'V1;…' — is an ordinary in-page anchor and is
 * never read as a scenario.
 */
export const SCENARIO_LINK = /^v[0-9]+;/;

/** The fragment's text ('#v1;…' -> 'v1;…', '#top' -> 'top'), or '' when there is none. */
export function linkFromHash(hash) {
  return hash.startsWith('#') ? hash.slice(1) : hash;
}

/** True when fragment text (without '#') is a scenario link, see SCENARIO_LINK. */
export function isScenarioLink(text) {
  return SCENARIO_LINK.test(text);
}

/**
 * The scenario link in what a reader pastes, in any of the forms "Copy link" gives or a
 * page shows: a full URL ("https://…/playground.html#v2;m3;…", or relative), a fragment
 * ("#v2;m3;…") or the bare link ("v2;m3;…"). Returns the link text, which the core then
 * reads (and names what is wrong with it); text in none of these forms is returned as
 * given, for the core to refuse. An absolute URL with no link after its '#' throws an
 * error with code 'invalid-argument' that names `what` (the field or attribute), what
 * was expected and what was given. Every place that takes a link reads it through this.
 */
export function scenarioLinkFrom(text, what = 'scenario') {
  if (typeof text !== 'string') return text;
  const trimmed = text.trim();
  if (isScenarioLink(trimmed)) return trimmed;
  // A URL or a fragment: what follows its first '#', as written (a URL's hash getter would re-encode it).
  const at = trimmed.indexOf('#');
  const fragment = at < 0 ? '' : trimmed.slice(at + 1);
  if (isScenarioLink(fragment)) return fragment;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;  // not a URL: the core names what is wrong
  const shown = trimmed.length > 80 ? `${trimmed.slice(0, 77)}…` : trimmed;
  throw Object.assign(new Error(`${what}: expected a scenario link (v2;…), a URL that ends in #v2;… `
    + `(as Copy link gives) or its #fragment, got a URL with ${at < 0 ? 'no #fragment' : 'no scenario link after #'}: ${JSON.stringify(shown)}`),
  { code: 'invalid-argument' });
}

/** The specific, human message for a link the page could not load (by the core's error code). */
export function linkErrorMessage(error) {
  const detail = error?.message ?? String(error);
  const instead = 'Showing the default scenario instead.';
  switch (error?.code) {
    case 'too-large':
      return `This link is too long to load: ${detail}. ${instead}`;
    case 'unsupported-version':
      return `This link uses a version of the link format that this page cannot read: ${detail}. ${instead}`;
    case 'out-of-range':
      return `This link has a value out of range: ${detail}. ${instead}`;
    case 'already-exists':
    case 'not-found':
    case 'failed-precondition':
      return `This link is well-formed but describes a run that cannot happen: ${detail}. ${instead}`;
    case 'invalid-argument':
    case 'invalid-type':
      return `This link is malformed and could not be loaded: ${detail}. ${instead}`;
    default:
      return `This link could not be loaded: ${detail}. ${instead}`;
  }
}

/**
 * A full URL for `link` on the page at `base` (its own fragment replaced). A
 * relative `base` ('./playground.html', '/playground.html', '') is resolved
 * against the document, as a link in the page would be.
 */
export function urlFor(base, link) {
  const url = new URL(base, globalThis.document?.baseURI);
  url.hash = link;
  return url.href;
}

/**
 * A file of this site by its path from the site's root ('playground.html',
 * 'src/playground.css'). The root is the folder that holds src/, found from this
 * module's own URL: src/shared/url.mjs as written, src/<name>.mjs once bundled
 * (scripts/site.mjs), so the answer is the same file either way.
 */
export function siteURL(path) {
  const here = import.meta.url;
  return new URL(path, here.slice(0, here.lastIndexOf('/src/') + 1)).href;
}
