// Precompressed files: `npm run build` writes a brotli (.br) and a gzip (.gz) copy
// beside every text or WebAssembly file of dist/ worth compressing, and scripts/serve.mjs
// sends the copy a request accepts (Accept-Encoding), so `npm start` and any static host
// that serves precompressed files (nginx gzip_static/brotli_static, Caddy precompressed,
// Netlify, …) send them as they are, at no cost per request.
//
// Contract: a copy is written once per build, at maximum compression (brotli quality 11,
// gzip level 9), and only when it is smaller than the file; the output is deterministic
// (Node's gzip writes no time or name), so two builds of the same site are byte-identical.
// This module needs nothing from node_modules: scripts/dlq.mjs imports the site builder
// before its set-up has installed the packages on a fresh clone.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * The files precompressed, by how their name ends, with the Content-Type the server sends
 * for the copy (the original's type: the copy differs only in Content-Encoding).
 */
export const COMPRESSIBLE_TYPES = [
  ['.d.ts', 'text/plain; charset=utf-8'],
  ['.html', 'text/html; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.wasm', 'application/wasm'],
  ['.svg', 'image/svg+xml'],
  ['.json', 'application/json; charset=utf-8'],
  ['.md', 'text/markdown; charset=utf-8'],
  ['.txt', 'text/plain; charset=utf-8'],
  ['.yml', 'text/plain; charset=utf-8'],
  ['.yaml', 'text/plain; charset=utf-8'],
  ['.rb', 'text/plain; charset=utf-8'],
  ['.xml', 'application/xml; charset=utf-8'],
];

/** Files smaller than this are sent as they are: a compressed copy would save less than a packet. */
export const MIN_COMPRESS_BYTES = 1024;

/** The encodings a copy may have, best first, with the name ending of its file. */
export const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];

/** The Content-Type of a compressible file's name, or undefined when it is not compressed. */
export function compressibleType(name) {
  const lower = name.toLowerCase();
  return COMPRESSIBLE_TYPES.find(([end]) => lower.endsWith(end))?.[1];
}

/**
 * The encodings an Accept-Encoding header allows, best first by its q-values (ties: brotli
 * before gzip), among the ones in ENCODINGS. `*` stands for any encoding it does not name;
 * q=0 (or a malformed q) refuses one. No header, or an empty one: none (identity).
 */
export function acceptedEncodings(header) {
  if (typeof header !== 'string' || header.trim() === '') return [];
  const q = new Map();
  for (const part of header.split(',')) {
    const [token, ...params] = part.trim().split(';');
    const name = token.trim().toLowerCase();
    if (name === '') continue;
    let weight = 1;
    for (const param of params) {
      const m = /^\s*q\s*=(.*)$/i.exec(param);
      if (m) weight = Number(m[1].trim());
    }
    // A q that is not a number in [0, 1] is malformed: the encoding is not taken.
    if (!(weight >= 0 && weight <= 1)) weight = 0;
    q.set(name, weight);
  }
  const weightOf = (name) => (q.has(name) ? q.get(name) : q.get('*') ?? 0);
  return ENCODINGS.map((encoding, order) => ({ encoding, order, weight: weightOf(encoding.name) }))
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .map((e) => e.encoding);
}

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(file));
    else if (entry.isFile()) out.push(file);
  }
  return out;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file under `dir` of at
 * least MIN_COMPRESS_BYTES, each only when smaller than the file. Returns
 * { files, bytes, brotli, gzip }: how many files, and their total sizes raw and compressed
 * (a file without a smaller copy counts at its own size).
 */
export function precompress(dir) {
  const totals = { files: 0, bytes: 0, brotli: 0, gzip: 0 };
  for (const file of filesUnder(dir)) {
    if (!compressibleType(file) || statSync(file).size < MIN_COMPRESS_BYTES) continue;
    const data = readFileSync(file);
    const copies = {
      brotli: brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          [constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm') ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
        },
      }),
      gzip: gzipSync(data, { level: 9 }),
    };
    totals.files += 1;
    totals.bytes += data.length;
    for (const [kind, suffix] of [['brotli', '.br'], ['gzip', '.gz']]) {
      const copy = copies[kind];
      if (copy.length < data.length) writeFileSync(file + suffix, copy);
      totals[kind] += Math.min(copy.length, data.length);
    }
  }
  return totals;
}
