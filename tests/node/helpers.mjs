// Shared by the Node suites: the lab and the simulations (through the package's public
// entry) and fixtures.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadLab, loadSim } from 'dlq-lab';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const lab = await loadLab();
export const sim = await loadSim();

export function readText(relative) {
  return readFileSync(path.join(root, relative), 'utf8');
}

/** [{ name, link, timeline }] for every released link fixture. */
export function linkFixtures() {
  const dir = 'tests/fixtures/links';
  return readdirSync(path.join(root, dir))
    .filter((name) => name.endsWith('.link'))
    .sort()
    .map((name) => ({
      name,
      link: readText(`${dir}/${name}`).trimEnd(),
      timeline: readText(`${dir}/${name.replace(/\.link$/, '.timeline.txt')}`),
    }));
}

/** Asserts `fn` throws an error of class `Kind` with `code` whose message matches `pattern`. */
export function throwsWith(assert, fn, Kind, code, pattern) {
  assert.throws(fn, (error) => {
    assert.equal(error.constructor, Kind, `expected ${Kind.name}, got ${error.constructor.name}: ${error.message}`);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

/** A small seeded PRNG for the tests' own choices (not the core's): rng(seed)(n) is in [0, n). */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}
