// wasm/index.d.ts's option and action types are generated from the core's tables
// (scripts/gen-types.mjs): the committed file must be exactly what a fresh
// generation writes, so a field or an action type added to a table without
// regenerating fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TYPES_FILE, generate, rewrite, typeTables } from '../../scripts/gen-types.mjs';
import { lab, sim } from './helpers.mjs';

test('index.d.ts: the generated regions are a fresh generation from lab.schema and sim.schema', () => {
  const committed = readFileSync(TYPES_FILE, 'utf8');
  const fresh = rewrite(committed, generate(typeTables(lab, sim)));
  assert.ok(fresh === committed, 'wasm/index.d.ts differs from a fresh generation: run node scripts/gen-types.mjs');
});

test('index.d.ts: its header says which parts are generated, and by what', () => {
  const header = readFileSync(TYPES_FILE, 'utf8').split('\n').slice(0, 8).join('\n');
  assert.match(header, /scripts\/gen-types\.mjs/);
  for (const region of Object.keys(generate(typeTables(lab, sim)))) assert.match(header, new RegExp(`\\b${region}\\b`));
});

test('gen-types: a region missing from the file is an error, not a silent skip', () => {
  assert.throws(() => rewrite('// nothing here\n', generate(typeTables(lab, sim))), /no region PolicyOptions/);
});
