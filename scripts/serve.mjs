// A static server for dist/ (sirv), used by `npm start`, the browser tests and the
// page benchmark. It sends the same Content-Security-Policy the page declares.
import http from 'node:http';
import sirv from 'sirv';

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

/** Serves `dir`; resolves with the listening http.Server. Port 0 picks a free port. */
export function serve({ dir, port = 0, host = '127.0.0.1', quiet = true }) {
  const files = sirv(dir, {
    dev: false,
    etag: true,
    setHeaders(res) {
      res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
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
