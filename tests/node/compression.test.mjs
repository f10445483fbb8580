// scripts/compression.mjs: what `npm run build` precompresses, and which copy a request's
// Accept-Encoding picks (scripts/serve.mjs sends it; tests/node/server.test.mjs asserts that).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedEncodings, compressibleType, precompress, MIN_COMPRESS_BYTES } from '../../scripts/compression.mjs';

const names = (header) => acceptedEncodings(header).map((e) => e.name);

test('acceptedEncodings: q-values order the encodings, q=0 refuses one, * stands for the rest', () => {
  assert.deepEqual(names(undefined), []);
  assert.deepEqual(names(''), []);
  assert.deepEqual(names('gzip, deflate, br, zstd'), ['br', 'gzip'], 'ties: brotli first');
  assert.deepEqual(names('gzip;q=1.0, br;q=0.8'), ['gzip', 'br']);
  assert.deepEqual(names('BR ; Q=0.5 ,GZIP'), ['gzip', 'br'], 'names and q are case-insensitive, spaces allowed');
  assert.deepEqual(names('br;q=0'), []);
  assert.deepEqual(names('*'), ['br', 'gzip']);
  assert.deepEqual(names('*;q=0.1, gzip;q=0'), ['br']);
  assert.deepEqual(names('identity, deflate'), []);
  assert.deepEqual(names('br;q=abc, gzip'), ['gzip'], 'a q that is not a number refuses the encoding');
  assert.deepEqual(names(',,;q=1, gzip'), ['gzip'], 'empty parts are skipped');
});

test('compressibleType: text and .wasm are compressed, images and source maps are not', () => {
  assert.equal(compressibleType('a/b/page.HTML'), 'text/html; charset=utf-8');
  assert.equal(compressibleType('index.d.ts'), 'text/plain; charset=utf-8');
  assert.equal(compressibleType('gen/dlq_core.wasm'), 'application/wasm');
  assert.equal(compressibleType('shot.png'), undefined);
  assert.equal(compressibleType('main.mjs.map'), undefined);
  assert.equal(compressibleType('main.mjs.br'), undefined, 'a copy is never compressed again');
});

test('precompress writes a smaller, deterministic brotli and gzip copy of each file worth it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dlq-precompress-'));
  try {
    const big = 'export const x = "0123456789";\n'.repeat(100);
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'big.mjs'), big);
    writeFileSync(path.join(dir, 'small.css'), 'a{}'.repeat(10));
    writeFileSync(path.join(dir, 'photo.png'), Buffer.alloc(4096, 1));
    // Random bytes do not compress: no copy bigger than the file is written.
    let seed = 12345;
    const noise = Buffer.alloc(MIN_COMPRESS_BYTES * 2, 0).map(() => { seed = (seed * 1103515245 + 12345) >>> 0; return seed >>> 24; });
    writeFileSync(path.join(dir, 'noise.txt'), noise);
    const totals = precompress(dir);
    assert.equal(totals.files, 2, 'big.mjs and noise.txt are big enough and compressible');
    assert.ok(existsSync(path.join(dir, 'sub', 'big.mjs.br')) && existsSync(path.join(dir, 'sub', 'big.mjs.gz')));
    assert.equal(brotliDecompressSync(readFileSync(path.join(dir, 'sub', 'big.mjs.br'))).toString(), big);
    assert.equal(gunzipSync(readFileSync(path.join(dir, 'sub', 'big.mjs.gz'))).toString(), big);
    assert.ok(!existsSync(path.join(dir, 'small.css.br')), 'under 1 KiB: no copy');
    assert.ok(!existsSync(path.join(dir, 'photo.png.br')), 'not compressible: no copy');
    for (const suffix of ['.br', '.gz']) {
      const copy = path.join(dir, `noise.txt${suffix}`);
      assert.ok(!existsSync(copy) || readFileSync(copy).length < noise.length, `noise.txt${suffix} is written only when smaller`);
    }
    assert.equal(totals.bytes, big.length + noise.length);
    assert.ok(totals.brotli < totals.bytes && totals.gzip < totals.bytes);
    // Deterministic: a second run writes the same bytes (gzip carries no time or name).
    const first = readFileSync(path.join(dir, 'sub', 'big.mjs.gz'));
    rmSync(path.join(dir, 'sub', 'big.mjs.gz'));
    rmSync(path.join(dir, 'sub', 'big.mjs.br'));
    precompress(dir);
    assert.deepEqual(readFileSync(path.join(dir, 'sub', 'big.mjs.gz')), first);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
