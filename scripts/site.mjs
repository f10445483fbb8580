// Writes dist/: a self-contained static site that works from any static host
// under any sub-path (every URL inside it is relative).
//
//   dist/            the contents of web/ (page, embedding example, styles, modules)
//   dist/wasm/       index.mjs, index.d.ts and gen/ (the Emscripten module + .wasm)
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export function buildSite(root) {
  const dist = path.join(root, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(path.join(dist, 'wasm', 'gen'), { recursive: true });
  cpSync(path.join(root, 'web'), dist, { recursive: true });
  for (const file of ['index.mjs', 'index.d.ts']) cpSync(path.join(root, 'wasm', file), path.join(dist, 'wasm', file));
  for (const file of ['dlq_core.mjs', 'dlq_core.wasm']) {
    cpSync(path.join(root, 'wasm', 'gen', file), path.join(dist, 'wasm', 'gen', file));
  }
  return dist;
}
