// A page of many <dlq-playground> embeds, written as docs/playground.md tells an
// author to (the site's stylesheets, main.mjs, one element per playground), for
// the page benchmark (its longest main-thread task) and the browser suite (every
// embed mounts and works). writeManyEmbedsSite() copies dist/ to a temporary
// folder with the pages in it; the caller serves that folder and removes it.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './serve.mjs';

/** How many playgrounds the page holds (issue 20: "200 embeds on one page"). */
export const MANY_EMBEDS = 200;

/** The scenario each embed shows: the embedding example's a/b walkthrough. */
const SCENARIO = 'v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0';

/** The page's HTML: `count` playgrounds one under another, each under its heading; `lazy` adds loading="lazy". */
export function manyEmbedsPage({ count = MANY_EMBEDS, lazy = false } = {}) {
  const embeds = Array.from({ length: count }, (_, i) => [
    `<h2>Playground ${i + 1}</h2>`,
    `<dlq-playground id="embed-${i + 1}" label="Playground ${i + 1}"${lazy ? ' loading="lazy"' : ''} scenario="${SCENARIO}"></dlq-playground>`,
  ].join('\n')).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>dlq-lab · ${count} ${lazy ? 'lazy ' : ''}embeds</title>
<link rel="icon" href="./favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="./src/page.css">
<link rel="stylesheet" href="./src/playground.css" data-dlq-style>
<script type="module" src="./src/main.mjs"></script>
</head>
<body>
<main>
<h1>${count} playgrounds on one page</h1>
${embeds}
</main>
</body>
</html>
`;
}

/**
 * Copies `dist` to a new temporary folder and writes the eager and the lazy page
 * into it. Returns { dir, eager, lazy, remove() }: the folder, the two pages' file
 * names, and a function that deletes the folder.
 */
export function writeManyEmbedsSite(dist, { count = MANY_EMBEDS } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'dlq-embeds-'));
  cpSync(dist, dir, { recursive: true });
  const eager = `embeds-${count}.html`;
  const lazy = `embeds-${count}-lazy.html`;
  writeFileSync(path.join(dir, eager), manyEmbedsPage({ count }));
  writeFileSync(path.join(dir, lazy), manyEmbedsPage({ count, lazy: true }));
  return { dir, eager, lazy, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
