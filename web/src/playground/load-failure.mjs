// @ts-check
// What a playground says when it cannot load its own code (its modules or the
// core's .wasm): the file it asked for, the browser's reason, and what to do. A
// page on another origin than the lab's site is the usual cause (the server must
// allow the cross-origin load, and the page's own Content-Security-Policy must
// allow that origin), so the advice names both origins. The element shows it in
// place of the playground: never a blank box with the reason only in the console.

/** A load of the playground's own code failed; `message` says what to do. */
export class LoadFailure extends Error {
  constructor(message, cause) {
    super(message, { cause });
    this.name = 'LoadFailure';
    this.code = 'unavailable';
  }
}

/**
 * A LoadFailure for `what` ("its modules", "its core") fetched from `url`, which
 * failed with `cause`. `pageOrigin`: the origin of the page that embeds it.
 */
export function loadFailure(what, url, cause, pageOrigin = globalThis.location?.origin) {
  const from = new URL(url);
  const reason = cause?.message ?? String(cause);
  const advice = pageOrigin !== undefined && pageOrigin !== from.origin
    ? `This page is on ${pageOrigin}, the playground on ${from.origin}: that server must send `
      + 'Access-Control-Allow-Origin (the lab\'s own server, npm start, does), and this page\'s Content-Security-Policy, '
      + `if it has one, must allow ${from.origin} in script-src and connect-src, and 'wasm-unsafe-eval'. `
      + 'Or copy the lab\'s dist/ folder into this site and load it from there.'
    : 'Reload the page; if it fails again, the browser\'s console says why.';
  return new LoadFailure(`could not load ${what} from ${from.href} (${reason}). ${advice}`, cause);
}
