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
