// A static server for dist/ (sirv), used by `npm start`, the browser tests and the
// page benchmark. It sends the Content-Security-Policy the pages declare in their
// <meta>, plus what only a header can carry: frame-ancestors.
import http from 'node:http';
import sirv from 'sirv';

/** The policy the pages also declare in a <meta> (web/*.html); keep the two in step. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Only pages of this origin may frame the playground (clickjacking: a page on
 * another origin could frame it and steer clicks). Browsers ignore
 * frame-ancestors in a <meta> CSP, so it is sent as a header only; another
 * origin embeds a copy of dist/ with <dlq-playground> or mount() instead.
 */
export const FRAME_ANCESTORS = "frame-ancestors 'self'";

/** Serves `dir`; resolves with the listening http.Server. Port 0 picks a free port. */
export function serve({ dir, port = 0, host = '127.0.0.1', quiet = true }) {
  const files = sirv(dir, {
    // Looks each file up when it is asked for: a dist/ rebuilt while this serves
    // (new chunk names, new lengths) is served as it is now, never from a list
    // taken at start (which sent stale lengths and 404'd the new chunks).
    dev: true,
    etag: true,
    setHeaders(res) {
      res.setHeader('Content-Security-Policy', `${CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const server = http.createServer((req, res) => {
    files(req, res, () => {
      res.statusCode = 404;
      res.end('not found');
    });
    if (!quiet) res.on('finish', () => console.log(`${res.statusCode} ${req.url}`));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
