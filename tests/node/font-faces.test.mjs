// The pages' type scale: two font weights (400 and 700) and whole-pixel font sizes, in every
// stylesheet under web/. Each distinct size and weight is a font of its own to the browser: at
// a page's first layout each costs a font lookup and, for a new size, a request to the browser
// process (on the playground, 48 lookups and 20 of those requests took 165 ms of a 4x-throttled
// 250 ms layout; docs/benchmarks.md, stop 46). Debian's DejaVu has a book and a bold face only,
// so weights in between drew as one of those two anyway.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEIGHTS = new Set(['400', '700', 'normal', 'bold', 'inherit']);

function stylesheets(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return stylesheets(relative);
    return entry.name.endsWith('.css') ? [relative] : [];
  });
}

/** Every `font`, `font-weight` and `font-size` declaration of a stylesheet's text: { property, value, line }. */
function fontDeclarations(css) {
  const found = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  for (const match of text.matchAll(/(?<![\w-])(font|font-weight|font-size)\s*:\s*([^;}]+)/g)) {
    found.push({ property: match[1], value: match[2].trim(), line: text.slice(0, match.index).split('\n').length });
  }
  return found;
}

/** What is wrong with one declaration, or null: a weight but 400 or 700, a size in fractions of a pixel. */
function faceProblem({ property, value }) {
  const weight = property === 'font-weight' ? value : property === 'font' ? /^(?:(?:italic|normal|small-caps)\s+)*(\d{3})\b/.exec(value)?.[1] : undefined;
  if (weight !== undefined && !WEIGHTS.has(weight)) return `weight ${weight}: expected 400 or 700`;
  if (/\bbolder\b|\blighter\b/.test(value)) return `${value}: a relative weight, expected 400 or 700`;
  const fraction = /\b\d+\.\d+px\b/.exec(property === 'font-weight' ? '' : value);
  if (fraction) return `size ${fraction[0]}: expected a whole number of pixels`;
  return null;
}

test('fontDeclarations and faceProblem: what is read and what is refused', () => {
  const css = '/* font-weight: 600 in a comment */\n.a { font-weight: 600; }\n.b { font: 700 12.5px/1 sans-serif }\n.c{font-size:13px}\n.d { font: inherit; font-weight: bolder }';
  const found = fontDeclarations(css);
  assert.deepEqual(found.map((d) => [d.property, d.line]), [['font-weight', 2], ['font', 3], ['font-size', 4], ['font', 5], ['font-weight', 5]]);
  assert.deepEqual(found.map(faceProblem), ['weight 600: expected 400 or 700', 'size 12.5px: expected a whole number of pixels', null, null,
    'weight bolder: expected 400 or 700']);
});

test('every stylesheet under web/ uses weights 400 and 700 and whole-pixel font sizes', () => {
  const files = stylesheets('web');
  assert.ok(files.length >= 6, files.join(', '));
  const problems = [];
  for (const file of files) {
    for (const declaration of fontDeclarations(readFileSync(path.join(root, file), 'utf8'))) {
      const problem = faceProblem(declaration);
      if (problem) problems.push(`${file}:${declaration.line}: ${declaration.property}: ${declaration.value}: ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
});
