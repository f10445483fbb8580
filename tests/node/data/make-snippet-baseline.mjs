// Wrote tests/node/data/snippet-baseline.jsonl (now stored as .jsonl.gz, gzip -9 -n): for every preset's and fixture link's
// policy, and several hundred generated ones (a fixed-seed PRNG over the policy's fields,
// each kept only if lab.createQueue accepts it), every system's snippet as the writers gave
// it when they were JavaScript (web/src/shared/snippets.mjs before issue 32). It was run once,
// from the repository root, against those writers; every writer is the core's now, so running
// it again would pin the core against itself: never rerun it to make the baseline test pass.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { lab, linkFixtures } from '../helpers.mjs';
import { SNIPPETS, connectSnippets } from '../../../web/src/shared/snippets.mjs';
import { SYSTEMS } from '../../../web/src/lessons/systems.mjs';
import { PRESETS, CAPSTONE_PRESETS, SYSTEM_PRESETS } from '../../../web/src/playground/presets.mjs';

// The scenario's policy options only (jobs, world, actions… are not the policy's).
const POLICY_FIELDS = new Set(lab.schema.policy.filter((r) => r.name !== 'journal').map((r) => r.name.split('.')[0]));
const policyOptions = (scenario) => Object.fromEntries(Object.entries(scenario).filter(([k]) => POLICY_FIELDS.has(k)));

connectSnippets(lab);

let seed = 0x5eed32;
const next = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const pick = (list) => list[Math.floor(next() * list.length)];
const maybe = (p) => next() < p;

function backoffOptions() {
  const kind = pick(['none', 'fixed', 'exponential']);
  const baseMs = pick([1, 250, 500, 1000, 1500, 2000, 15000, 60000, 700001]);
  const b = { kind, baseMs, capMs: kind === 'fixed' ? baseMs : baseMs * pick([1, 2, 8, 100]), jitter: pick(['none', 'none', 'full', 'equal', 'bullmq']) };
  if (b.jitter === 'bullmq') b.jitterPermille = pick([0, 250, 500, 1000]);
  return b;
}

function generatedOptions() {
  const o = { system: pick(['lab', 'sqs', 'bullmq', 'sidekiq', 'rabbitmq-quorum']), maxAttempts: pick([1, 2, 3, 4, 5, 6, 10, 25, 101, 1000, 1001]) };
  if (maybe(0.8)) o.backoff = backoffOptions();
  if (maybe(0.6)) o.leaseMs = pick([1, 999, 1000, 5000, 30000, 300001, 43200000, 50000000]);
  if (maybe(0.4)) o.ordering = pick(['none', 'key', 'stall']);
  if (maybe(0.5)) o.quarantine = { retentionMs: pick([0, 1, 59000, 86400000, 2000000000]), alarmDepth: pick([0, 1, 5]) };
  if (maybe(0.4)) o.delayAt = pick(['broker', 'consumer-sleep', 'retry-queue']);
  if (maybe(0.1)) o.unsafeQuarantineOrder = true;
  if (o.system === 'rabbitmq-quorum') {
    if (maybe(0.5)) o.deliveryLimit = pick(['explicit', 'unset-3.x', 'unset-4.x', 'classic-queue']);
    if (maybe(0.5)) o.deadLetterExchange = pick(['set', 'none']);
    if (maybe(0.3)) o.maxLength = pick([1, 10]);
    if (maybe(0.3)) o.messageTtlMs = pick([1000, 60000]);
    if (maybe(0.3)) o.dlqMaxLength = pick([1, 100]);
  }
  if (o.system === 'sidekiq') {
    if (maybe(0.3)) o.retryInJitter = true;
    if (maybe(0.3)) o.retryEveryError = true;
    if (maybe(0.3)) o.deadMaxJobs = pick([0, 10, 10000]);
    if (maybe(0.3)) o.skipDeadSet = true;
  }
  if (o.system === 'bullmq') {
    if (maybe(0.3)) o.removeOnFail = true;
    if (maybe(0.3)) o.removeOnFailCount = pick([0, 5]);
    if (maybe(0.3)) o.maxStalledCount = pick([0, 1, 3]);
  }
  if (maybe(0.6)) {
    o.classes = {};
    for (const name of ['transient', 'permanent', 'undeserializable', 'unknown-schema', 'precondition', 'crash']) {
      if (!maybe(0.4)) continue;
      const c = {};
      if (maybe(0.5)) c.retry = pick(['never', 'bounded']);
      if (maybe(0.4)) c.maxAttempts = pick([1, 2, 3, 50]);
      if (maybe(0.3)) c.backoff = maybe(0.3) ? 'policy' : backoffOptions();
      if (maybe(0.3)) c.alert = true;
      o.classes[name] = c;
    }
  }
  return o;
}

const inputs = [];
for (const s of SYSTEMS) inputs.push({ from: `system ${s.key}`, options: policyOptions(s.scenario) });
for (const p of [...PRESETS, ...CAPSTONE_PRESETS, ...SYSTEM_PRESETS]) inputs.push({ from: `preset ${p.key}`, options: policyOptions(p.scenario) });
for (const { name, link } of linkFixtures()) inputs.push({ from: `link ${name}`, options: policyOptions(lab.parseScenario(link)) });
let tries = 0;
while (inputs.filter((i) => i.from === 'generated').length < 250 && tries++ < 20000) {
  const options = generatedOptions();
  try { lab.createQueue(options).dispose(); } catch { continue; }
  inputs.push({ from: 'generated', options });
}

const lines = [];
for (const { from, options } of inputs) {
  const q = lab.createQueue(options);
  const policy = q.policy(); const rules = q.rules();
  q.dispose();
  for (const s of SNIPPETS) lines.push(JSON.stringify({ from, key: s.key, options, ...s.generate(policy, rules) }));
}
writeFileSync(new URL('./snippet-baseline.jsonl.gz', import.meta.url), gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
console.log(`${inputs.length} policies, ${lines.length} snippets`);
