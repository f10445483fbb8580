// Scenario links. The core owns the format (lab.parseScenario / formatScenario);
// this module only moves link text in and out of the URL fragment and turns the
// core's error codes into the message the page shows.

/** The link text in a URL fragment ('#v1;…' -> 'v1;…'), or '' when there is none. */
export function linkFromHash(hash) {
  return hash.startsWith('#') ? hash.slice(1) : hash;
}

/** The specific, human message for a link the page could not load. */
export function linkErrorMessage(error) {
  const detail = error?.message ?? String(error);
  switch (error?.code) {
    case 'too-large':
      return `This link is too long to load: ${detail}. Showing the default scenario instead.`;
    case 'unsupported-version':
      return `This link uses a version of the link format that this page cannot read: ${detail}. Showing the default scenario instead.`;
    case 'already-exists':
    case 'not-found':
    case 'failed-precondition':
      return `This link is well-formed but describes a run that cannot happen: ${detail}. Showing the default scenario instead.`;
    default:
      return `This link is malformed and could not be loaded: ${detail}. Showing the default scenario instead.`;
  }
}

/** A full URL for `link` on the page at `base` (its own fragment replaced). */
export function urlFor(base, link) {
  const url = new URL(base);
  url.hash = link;
  return url.href;
}
