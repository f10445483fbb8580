// scripts/serve.mjs, the static server of `npm start`, the browser suites and the
// page benchmark, sent what a hostile visitor would send. After every request the
// same server must still answer a plain GET: no request can stop it. The server
// runs in a child process (children/serve-folder.mjs), as under `npm start`, so a
// request that throws in it ends that process, and the next request is refused.
import { test, before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CONTENT_SECURITY_POLICY, FRAME_ANCESTORS } from '../../scripts/serve.mjs';
import { precompress } from '../../scripts/compression.mjs';

const CHILD = fileURLToPath(new URL('./children/serve-folder.mjs', import.meta.url));

const PAGE = '<!doctype html><title>t</title><p>0123456789</p>\n';
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
/** A module big enough to be precompressed (scripts/compression.mjs: 1 KiB and over). */
const BIG = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${i * 7};\n`).join('');
const BIG_CSS = Array.from({ length: 100 }, (_, i) => `.c${i} { margin: ${i}px; }\n`).join('');
let base; // a temporary folder holding the served folder `site/` and a secret outside it
let child; // the process serving it
let exited = null; // how the child ended, if it did
let port;

before(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'dlq-serve-'));
  const site = path.join(base, 'site');
  mkdirSync(path.join(site, 'wasm'), { recursive: true });
  mkdirSync(path.join(site, '.git'));
  writeFileSync(path.join(site, 'index.html'), PAGE);
  writeFileSync(path.join(site, 'page.html'), PAGE);
  writeFileSync(path.join(site, 'app.mjs'), 'export const x = 1;\n');
  writeFileSync(path.join(site, 'wasm', 'index.d.ts'), 'export declare const x: number;\n');
  writeFileSync(path.join(site, 'wasm', 'core.wasm'), WASM);
  writeFileSync(path.join(site, '.env'), 'SECRET=dotfile\n');
  writeFileSync(path.join(site, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(base, 'secret.txt'), 'outside the served folder\n');
  mkdirSync(path.join(base, 'elsewhere'));
  writeFileSync(path.join(base, 'elsewhere', 'index.html'), 'outside too\n');
  symlinkSync(path.join(base, 'secret.txt'), path.join(site, 'link.txt'));
  symlinkSync(path.join(base, 'elsewhere'), path.join(site, 'out'));
  symlinkSync(path.join(site, 'page.html'), path.join(site, 'inside.html')); // stays inside: served
  writeFileSync(path.join(site, 'big.mjs'), BIG);
  writeFileSync(path.join(site, 'wasm', 'big style.css'), BIG_CSS);
  precompress(site);
  child = spawn(process.execPath, [CHILD, site], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  child.on('exit', (code, signal) => { exited = { code, signal, stderr }; });
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  port = Number(out.trim());
  assert.ok(Number.isInteger(port) && port > 0, `the server printed its port (got ${JSON.stringify(out)}, ${stderr})`);
});

after(async () => {
  if (exited === null) {
    child.kill();
    await once(child, 'exit');
  }
  rmSync(base, { recursive: true, force: true });
});

/** One request with node:http; resolves { status, headers, body } (body a Buffer). */
function request(pathname, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The server still answers: a plain GET of the page, whole, with its type. */
async function stillServes() {
  assert.equal(exited, null, `the server process is still running (it ended: ${JSON.stringify(exited)})`);
  const res = await request('/page.html');
  assert.equal(res.status, 200, 'the server still serves after that request');
  assert.equal(res.body.toString(), PAGE);
}

/** A Content-Type with its parameters spaced one way ('text/html;charset=utf-8' and 'text/html; charset=utf-8' are the same type). */
const typeOf = (res) => res.headers['content-type']?.replace(/\s*;\s*/g, '; ');

function assertSecurityHeaders(res, what) {
  assert.equal(res.headers['content-security-policy'], `${CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`, `${what}: CSP with frame-ancestors`);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  assert.ok(res.headers['content-type'], `${what}: a Content-Type`);
}

test('a plain GET and HEAD: the file, its type and the security headers', async () => {
  const res = await request('/page.html');
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), PAGE);
  assert.equal(typeOf(res), 'text/html; charset=utf-8');
  assertSecurityHeaders(res, 'GET /page.html');
  const head = await request('/page.html', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(Number(head.headers['content-length']), Buffer.byteLength(PAGE));
  assertSecurityHeaders(head, 'HEAD /page.html');
  const index = await request('/');
  assert.equal(index.status, 200);
  assert.equal(index.body.toString(), PAGE, '/ serves index.html');
  const bare = await request('/page');
  assert.equal(bare.body.toString(), PAGE, '/page serves page.html');
});

test('an unsatisfiable or malformed Range never stops the server', async () => {
  // bytes=5-2 made sirv 3.0.2 call createReadStream({ start: 5, end: 2 }), which threw and ended Node.
  for (const range of ['bytes=5-2', `bytes=${PAGE.length}-`, 'bytes=999999-1000000', 'bytes=-0']) {
    const res = await request('/page.html', { headers: { Range: range } });
    assert.equal(res.status, 416, `${range}: 416`);
    assert.equal(res.headers['content-range'], `bytes */${PAGE.length}`, `${range}: Content-Range names the length`);
    assertSecurityHeaders(res, range);
    await stillServes();
  }
  // Malformed or not in bytes: the RFC lets a server ignore it and send the whole file.
  for (const range of ['bytes=abc', 'bytes=', 'bytes=--', 'items=0-4', 'bytes=1-2,', 'bytes=0-1,3-4', 'bytes=99999999999999999999999-']) {
    const res = await request('/page.html', { headers: { Range: range } });
    assert.ok(res.status === 200 || res.status === 416, `${range}: 200 or 416, got ${res.status}`);
    if (res.status === 200) assert.equal(res.body.toString(), PAGE, `${range}: the whole file`);
    assertSecurityHeaders(res, range);
    await stillServes();
  }
});

test('a satisfiable Range returns exactly the bytes asked for', async () => {
  const cases = [
    ['bytes=-5', PAGE.slice(-5), `bytes ${PAGE.length - 5}-${PAGE.length - 1}/${PAGE.length}`], // the LAST 5 bytes
    ['bytes=0-0', PAGE.slice(0, 1), `bytes 0-0/${PAGE.length}`], // exactly one byte
    ['bytes=3-7', PAGE.slice(3, 8), `bytes 3-7/${PAGE.length}`],
    ['bytes=10-', PAGE.slice(10), `bytes 10-${PAGE.length - 1}/${PAGE.length}`],
    [`bytes=0-${PAGE.length + 100}`, PAGE, `bytes 0-${PAGE.length - 1}/${PAGE.length}`], // end past the file: clamped
  ];
  for (const [range, body, contentRange] of cases) {
    const res = await request('/page.html', { headers: { Range: range } });
    assert.equal(res.status, 206, range);
    assert.equal(res.body.toString(), body, range);
    assert.equal(res.headers['content-range'], contentRange, range);
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(body), range);
    assertSecurityHeaders(res, range);
    await stillServes();
  }
});

test('methods other than GET and HEAD get 405 with Allow: GET, HEAD', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND']) {
    const res = await request('/page.html', { method });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.allow, 'GET, HEAD', method);
    assert.notEqual(res.body.toString(), PAGE, `${method}: not the file`);
    assertSecurityHeaders(res, method);
    await stillServes();
  }
});

test('every response carries the security headers and a Content-Type, 404s included', async () => {
  for (const pathname of ['/missing.html', '/nope/', '/%E0%A4%A', '/..%2F..%2Fetc%2Fpasswd', '/page.html%00', '/wasm']) {
    const res = await request(pathname);
    assert.ok(res.status >= 300 && res.status < 500, `${pathname}: a refusal or redirect, got ${res.status}`);
    assertSecurityHeaders(res, `${pathname} (${res.status})`);
    await stillServes();
  }
  const missing = await request('/missing.html');
  assert.equal(missing.status, 404);
  assert.equal(typeOf(missing), 'text/plain; charset=utf-8');
});

test('Content-Type by file name: .d.ts is text, .mjs JavaScript, .wasm application/wasm', async () => {
  const cases = [
    ['/wasm/index.d.ts', 'text/plain; charset=utf-8'], // mime-db says video/mp2t for .ts
    ['/app.mjs', 'text/javascript; charset=utf-8'],
    ['/wasm/core.wasm', 'application/wasm'],
    ['/page.html', 'text/html; charset=utf-8'],
  ];
  for (const [pathname, type] of cases) {
    const res = await request(pathname);
    assert.equal(res.status, 200, pathname);
    assert.equal(typeOf(res), type, pathname);
    assertSecurityHeaders(res, pathname);
  }
  assert.deepEqual((await request('/wasm/core.wasm')).body, WASM);
});

test('dotfiles and symlinks that leave the folder are not served', async () => {
  for (const pathname of ['/.env', '/.git/config', '/%2Eenv', '/wasm/../.env', '/link.txt', '/out/index.html', '/out/', '/out']) {
    const res = await request(pathname);
    assert.equal(res.status, 404, `${pathname}: 404, got ${res.status} ${res.body}`);
    assert.doesNotMatch(res.body.toString(), /SECRET|outside/, `${pathname}: nothing of the file`);
    assertSecurityHeaders(res, pathname);
    await stillServes();
  }
  for (const method of ['GET', 'HEAD']) {
    const res = await request('/link.txt', { method, headers: { Range: 'bytes=0-3' } });
    assert.equal(res.status, 404, `${method} /link.txt with a Range`);
  }
  const inside = await request('/inside.html');
  assert.equal(inside.status, 200, 'a symlink that stays inside the folder is served');
  assert.equal(inside.body.toString(), PAGE);
});

test('a raw malformed request line or a dropped connection does not stop the server', async () => {
  for (const raw of ['GARBAGE\r\n\r\n', 'GET /page.html HTTP/1.1\r\nRange: bytes=5-2\r\nHost: x\r\n\r\n', 'GET /page.html HTTP/1.1\r\nHost: x\r\n']) {
    await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(raw);
        // Close without reading: the server must cope with a peer that goes away.
        setImmediate(() => socket.destroy());
      });
      socket.on('close', resolve);
      socket.on('error', resolve);
    });
    await stillServes();
  }
});

test('a precompressed copy goes to a request that accepts it: brotli first, then gzip, else the file', async () => {
  const cases = [
    [undefined, undefined],
    ['', undefined],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['identity', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['deflate', undefined],
  ];
  for (const [accept, encoding] of cases) {
    const res = await request('/big.mjs', { headers: accept === undefined ? {} : { 'Accept-Encoding': accept } });
    const what = `Accept-Encoding: ${JSON.stringify(accept)}`;
    assert.equal(res.status, 200, what);
    assert.equal(res.headers['content-encoding'], encoding, `${what}: Content-Encoding`);
    assert.equal(res.headers.vary, 'Accept-Encoding', `${what}: Vary`);
    assert.equal(typeOf(res), 'text/javascript; charset=utf-8', `${what}: the original's type`);
    assertSecurityHeaders(res, what);
    const body = encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body;
    assert.equal(body.toString(), BIG, `${what}: the same bytes once decoded`);
    if (encoding) assert.ok(res.body.length < BIG.length / 2, `${what}: the copy is smaller (${res.body.length} B of ${BIG.length})`);
  }
  await stillServes();
});

test('precompressed copies: HEAD, a name to encode, a file too small to compress, ETags per encoding', async () => {
  const head = await request('/big.mjs', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-encoding'], 'br');
  assert.equal(head.body.length, 0);
  const br = await request('/big.mjs', { headers: { 'Accept-Encoding': 'br' } });
  assert.equal(Number(head.headers['content-length']), br.body.length, 'HEAD gives the copy\'s length');
  const plainFile = await request('/big.mjs');
  assert.notEqual(br.headers.etag, plainFile.headers.etag, 'each encoding has its own ETag');
  const again = await request('/big.mjs', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag } });
  assert.equal(again.status, 304, 'a conditional GET of the copy');
  const css = await request('/wasm/big%20style.css', { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(css.headers['content-encoding'], 'gzip');
  assert.equal(typeOf(css), 'text/css; charset=utf-8');
  assert.equal(gunzipSync(css.body).toString(), BIG_CSS);
  const small = await request('/page.html', { headers: { 'Accept-Encoding': 'br, gzip' } });
  assert.equal(small.headers['content-encoding'], undefined, 'a file under 1 KiB has no copy: sent as it is');
  assert.equal(small.body.toString(), PAGE);
  const wasm = await request('/wasm/core.wasm', { headers: { 'Accept-Encoding': 'br' } });
  assert.equal(typeOf(wasm), 'application/wasm');
  assert.deepEqual(wasm.body, WASM);
  await stillServes();
});
