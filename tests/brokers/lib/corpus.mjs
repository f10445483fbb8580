// Loads tests/brokers/corpus/<broker>.json and checks its shape, so a typo in the corpus
// fails by name instead of as a puzzling trace.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'corpus');
export const OUTCOMES = ['ok', 'transient', 'permanent', 'crash'];
export const DESTINATIONS = ['completed', 'dlq', 'dropped', 'waiting'];
export const COVERS = ['ordering', 'budget', 'backoff', 'poison', 'crash', 'replay', 'retention'];

function fail(file, where, message) {
  throw new Error(`${file}: ${where}: ${message}`);
}

export function loadCorpus(broker) {
  const file = path.join(DIR, `${broker}.json`);
  const corpus = JSON.parse(readFileSync(file, 'utf8'));
  if (corpus.broker !== broker) fail(file, 'broker', `expected ${JSON.stringify(broker)}, got ${JSON.stringify(corpus.broker)}`);
  const names = new Set();
  for (const [i, s] of corpus.scenarios.entries()) {
    const where = `scenarios[${i}] (${s.name ?? 'unnamed'})`;
    if (typeof s.name !== 'string' || names.has(s.name)) fail(file, where, 'needs a unique name');
    names.add(s.name);
    if (!COVERS.includes(s.covers)) fail(file, where, `covers must be one of ${COVERS.join(', ')}, got ${JSON.stringify(s.covers)}`);
    if (typeof s.source !== 'string' || s.source === '') fail(file, where, 'needs a source (what the docs predict, and where)');
    const ids = new Set([...(s.jobs ?? []).map((j) => j.id), ...(s.steps ?? []).flatMap((step) => [step.add?.id, step.push?.id].filter(Boolean))]);
    if ((s.jobs ?? []).length === 0) fail(file, where, 'needs jobs');
    for (const [job, list] of Object.entries(s.outcomes ?? {})) {
      if (!ids.has(job)) fail(file, `${where}.outcomes`, `names no job of the scenario: ${JSON.stringify(job)}`);
      for (const o of list) if (!OUTCOMES.includes(o)) fail(file, `${where}.outcomes.${job}`, `expected one of ${OUTCOMES.join(', ')}, got ${JSON.stringify(o)}`);
    }
    const e = s.expected;
    if (!e || !Array.isArray(e.deliveries) || typeof e.final !== 'object') fail(file, where, 'expected needs deliveries and final');
    for (const [job, dest] of Object.entries(e.final)) {
      if (!DESTINATIONS.includes(dest)) fail(file, `${where}.expected.final.${job}`, `expected one of ${DESTINATIONS.join(', ')}, got ${JSON.stringify(dest)}`);
    }
  }
  return corpus;
}

// The outcome of a job's n-th delivery (0-based): the list's entry, its last entry once
// the list is used up, and 'ok' for a job the scenario lists no outcomes for.
export function outcomeOf(scenario, job, n) {
  const list = scenario.outcomes?.[job];
  if (!list || list.length === 0) return 'ok';
  return list[Math.min(n, list.length - 1)];
}
