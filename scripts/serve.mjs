// A static server for dist/, used by `npm start`, the browser tests and the page
// benchmark. Files go out through `send` (the file server under Express's
// serve-static): it reads each file when it is asked for (a dist/ rebuilt while this
// serves is served as it is now), parses Range with range-parser (a suffix range,
// a one-byte range, an unsatisfiable one answered 416, a malformed one ignored),
// and answers conditional GETs. What this file adds:
// - only GET and HEAD; any other method gets 405 with `Allow: GET, HEAD`;
// - every response, errors included, carries the Content-Security-Policy the
//   pages declare in their <meta>, plus what only a header can carry
//   (frame-ancestors), X-Content-Type-Options: nosniff and a Content-Type, and the
//   CORS headers a page on another origin needs to load the modules and the .wasm;
// - TypeScript sources are text, never video/mp2t (what `.ts` means to mime-db);
// - a file with a precompressed copy beside it (<file>.br, <file>.gz: `npm run build`
//   writes them, scripts/compression.mjs) is sent as the copy the request's
//   Accept-Encoding prefers, with Content-Encoding, the original's Content-Type and
//   `Vary: Accept-Encoding`; without an accepted copy, the file as it is;
// - dotfiles (any path segment starting with a dot) and files whose real path
//   (symlinks followed) leaves the served folder answer 404;
// - no request can stop the server: a handler that throws, or a read that fails,
//   ends that one response (500, or a closed socket if headers were sent).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import send from 'send';
import { acceptedEncodings, compressibleType } from './compression.mjs';

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

/** The methods served; every other one gets 405 with this as `Allow`. */
export const ALLOWED_METHODS = 'GET, HEAD';

/**
 * Content types this server decides itself, by how a file's name ends (longest
 * first); any other name gets what mime-db says (through send), or
 * application/octet-stream.
 */
const TYPES = [
  ['.d.ts', 'text/plain; charset=utf-8'],
  ['.d.mts', 'text/plain; charset=utf-8'],
  ['.ts', 'text/plain; charset=utf-8'],
  ['.mts', 'text/plain; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.wasm', 'application/wasm'],
  ['.html', 'text/html; charset=utf-8'],
];

/** The Content-Type this server sends for a file name (undefined: send looks it up). */
export function contentTypeFor(name) {
  const lower = name.toLowerCase();
  return TYPES.find(([end]) => lower.endsWith(end))?.[1];
}

/**
 * What a page on another origin needs to load the playground from here: module
 * scripts and the .wasm are fetched in CORS mode, so every file says any origin
 * may read it (a static, public folder: no cookies, no credentials are involved),
 * and may be embedded by a page that isolates itself (Cross-Origin-Embedder-Policy).
 * The CSP above is unchanged: it governs this site's own pages, not a host page.
 */
export const CROSS_ORIGIN_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

function securityHeaders(res) {
  res.setHeader('Content-Security-Policy', `${CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(CROSS_ORIGIN_HEADERS)) res.setHeader(name, value);
}

/** A short plain-text answer (errors, 405, redirects) with the security headers. */
function plain(res, status, text, headers = {}) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  securityHeaders(res);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const body = `${text}\n`;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

const inside = (root, file) => file === root || file.startsWith(root + path.sep);

/**
 * True when `file` exists and may not be served: its real path (every symlink
 * followed) leaves `realRoot`, or has a segment that starts with a dot.
 */
function escapes(realRoot, file) {
  let real;
  try {
    real = fs.realpathSync(file);
  } catch {
    return false; // not there: send answers 404 (or tries the next candidate)
  }
  if (!inside(realRoot, real)) return true;
  return path.relative(realRoot, real).split(path.sep).some((part) => part.startsWith('.'));
}

/**
 * `pathname` decoded and joined to `root`: { decoded, file }, or null for a path send
 * refuses itself (not decodable: 400; `..` above the root or a NUL: 403).
 */
function resolvePath(root, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = path.join(root, decoded);
  return inside(root, file) && !decoded.includes('\0') ? { decoded, file } : null;
}

/**
 * The files send may open for `pathname` (as it is, with .html added, its
 * index.html) that exist and escape: any one refuses the request. False for
 * a path send refuses itself.
 */
function refused(root, realRoot, pathname) {
  const resolved = resolvePath(root, pathname);
  if (!resolved) return false;
  const { file } = resolved;
  return [file, `${file}.html`, path.join(file, 'index.html')].some((candidate) => escapes(realRoot, candidate));
}

/**
 * The file send serves for `pathname` when that is a regular file (as it is, with
 * .html added, or a folder's index.html for a path ending in /), or null (a folder
 * without its slash is redirected; anything else is send's to answer).
 */
function servedFile(root, pathname) {
  const resolved = resolvePath(root, pathname);
  if (!resolved) return null;
  const { decoded, file } = resolved;
  const candidates = decoded.endsWith('/') ? [path.join(file, 'index.html')] : [file, `${file}.html`];
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not there: the next candidate
    }
  }
  return null;
}

/**
 * The precompressed copy of `file` the request accepts, best first:
 * { encoding, pathname } (the copy's URL path under root), or null.
 */
function acceptedCopy(root, file, acceptEncoding) {
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const copy = file + encoding.suffix;
    try {
      if (!fs.statSync(copy).isFile()) continue;
    } catch {
      continue;
    }
    const pathname = `/${path.relative(root, copy).split(path.sep).map(encodeURIComponent).join('/')}`;
    return { encoding, pathname };
  }
  return null;
}

/** Serves `dir`; resolves with the listening http.Server. Port 0 picks a free port. */
export function serve({ dir, port = 0, host = '127.0.0.1', quiet = true }) {
  const root = path.resolve(dir);
  const realRoot = fs.realpathSync(root);

  function handle(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'method not allowed', { Allow: ALLOWED_METHODS });
      return;
    }
    let pathname;
    try {
      pathname = new URL(req.url, 'http://localhost').pathname;
    } catch {
      plain(res, 400, 'bad request');
      return;
    }
    if (refused(root, realRoot, pathname)) {
      plain(res, 404, 'not found');
      return;
    }
    // A compressible file is sent as the precompressed copy the request accepts, if there is one.
    const file = servedFile(root, pathname);
    const type = file ? compressibleType(file) : undefined;
    const copy = type ? acceptedCopy(root, file, req.headers['accept-encoding']) : null;
    const stream = send(req, copy ? copy.pathname : pathname, {
      root,
      dotfiles: 'ignore', // a path with a dot segment: 404, as if it were not there
      extensions: ['html'], // /playground serves playground.html
      index: ['index.html'],
      etag: true,
      lastModified: true,
      cacheControl: false, // set below: revalidate every time (dist/ is rebuilt while this serves)
    });
    stream.on('error', (error) => {
      const status = Number.isInteger(error.status) ? error.status : 500;
      const range = error.headers?.['Content-Range'];
      plain(res, status, status === 404 ? 'not found' : http.STATUS_CODES[status] ?? 'error',
        range ? { 'Content-Range': range } : {});
    });
    stream.on('directory', () => {
      const location = `${pathname}/`.replace(/^\/+/, '/');
      plain(res, 301, `see ${location}`, { Location: location });
    });
    // 'headers' comes after the file is found and before anything is written.
    stream.on('headers', (response, sent) => {
      securityHeaders(response);
      response.setHeader('Cache-Control', 'no-cache');
      if (type) response.setHeader('Vary', 'Accept-Encoding');
      if (copy) response.setHeader('Content-Encoding', copy.encoding.name);
      const fileType = contentTypeFor(copy ? file : sent) ?? (copy ? type : undefined);
      if (fileType) response.setHeader('Content-Type', fileType);
    });
    stream.pipe(res);
  }

  const server = http.createServer((req, res) => {
    if (!quiet) res.on('finish', () => console.log(`${res.statusCode} ${req.url}`));
    res.on('error', () => res.destroy());
    // Every response gets the security headers, whatever path wrote it (send's
    // 304 drops Content-* fields, the CSP among them): Node's res.end() without
    // headers also goes through writeHead.
    const writeHead = res.writeHead;
    res.writeHead = function writeHeadWithPolicy(...args) {
      if (!this.hasHeader('Content-Security-Policy')) securityHeaders(this);
      return writeHead.apply(this, args);
    };
    try {
      handle(req, res);
    } catch (error) {
      if (!quiet) console.error(`500 ${req.url}: ${error?.message ?? error}`);
      plain(res, 500, 'internal error');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
