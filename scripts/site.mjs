// Writes dist/: a self-contained static site that works from any static host
// under any sub-path (every URL inside it is relative).
//
//   dist/            the contents of web/ (page, embedding example, styles, modules)
//   dist/wasm/       index.mjs, index.d.ts and gen/ (the Emscripten module + .wasm)
//
// Each page's `<!-- dlq:preload … -->` marker becomes modulepreload links for
// every module and a preload of the .wasm: the browser then fetches them all in
// one wave instead of discovering the import graph level by level.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MARKER = /<!-- dlq:preload[^>]*-->/;

function preloadLinks(dist) {
  const modules = readdirSync(path.join(dist, 'src'))
    .filter((name) => name.endsWith('.mjs') && name !== 'embed-example.mjs' && name !== 'main.mjs')
    .sort()
    .map((name) => `./src/${name}`);
  modules.push('./wasm/index.mjs', './wasm/gen/dlq_core.mjs');
  return [
    ...modules.map((href) => `<link rel="modulepreload" href="${href}">`),
    '<link rel="preload" href="./wasm/gen/dlq_core.wasm" as="fetch" type="application/wasm" crossorigin>',
  ].join('\n');
}

export function buildSite(root) {
  const dist = path.join(root, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(path.join(dist, 'wasm', 'gen'), { recursive: true });
  cpSync(path.join(root, 'web'), dist, { recursive: true });
  for (const file of ['index.mjs', 'index.d.ts']) cpSync(path.join(root, 'wasm', file), path.join(dist, 'wasm', file));
  for (const file of ['dlq_core.mjs', 'dlq_core.wasm']) {
    cpSync(path.join(root, 'wasm', 'gen', file), path.join(dist, 'wasm', 'gen', file));
  }
  const links = preloadLinks(dist);
  for (const page of readdirSync(dist).filter((name) => name.endsWith('.html'))) {
    const file = path.join(dist, page);
    writeFileSync(file, readFileSync(file, 'utf8').replace(MARKER, links));
  }
  return dist;
}
