// The checker's speed (issue 33), for `npm run bench`: the generated inputs of
// scripts/bench-check-inputs.mjs (a RabbitMQ export of 10,000 queues and 2,000
// policies, a Terraform plan of 10,000 queues) each checked by
//  * build/native/dlq-lab check (aim: under 1 s),
//  * jq . FILE >/dev/null, Debian's jq parsing the same file (aim: the native check
//    within 3x of it),
//  * node wasm/bin/dlq-lab.mjs check, the Node front door (printed, no aim),
// with goals stated for every rule (outage probabilities included). Each time is the
// median of RUNS fresh processes, wall and CPU (user + system, from /usr/bin/time);
// a run over SLOW seconds is not repeated. The aims are judged on CPU seconds (what 5
// agents sharing 2 cores do not inflate), the wall time printed beside. The native and Node reports must be the
// same bytes with the same exit code, or the bench stops. Numbers, not a test.
//
//   node scripts/bench-check.mjs [runs]

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeInputs } from './bench-check-inputs.mjs';

const DIR = 'build/bench-check';
const SLOW = 20;  // seconds: one run is enough to say "missed"
const AIM_NATIVE = 1;  // seconds
const AIM_JQ = 3;  // times jq's

// Every goal stated, so every rule is judged as an error, RETRY-OUTLASTS-OUTAGE included.
const CONFIG = 'goals:\n  outage: 5m\n  outageProbability: 0.99\n  maxTimeToDlq: 24h\n  maxDelay: 1h\n';

/** Wall and CPU seconds of one run of `argv` (stdout to `out`), and its exit code. */
function timeOnce(argv) {
  const times = path.join(DIR, 'time.txt');
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', times, ...argv], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const [wall, user, system] = readFileSync(times, 'utf8').trim().split(/\s+/).slice(-3).map(Number);
  return { wall, cpu: user + system, status: run.status, stderr: run.stderr };
}

/** The median wall and CPU seconds of up to `runs` runs (one when a run is slow). */
function time(argv, runs) {
  const all = [];
  for (let r = 0; r < runs; r++) {
    all.push(timeOnce(argv));
    if (all[0].wall > SLOW) break;
  }
  const median = (key) => all.map((run) => run[key]).sort((a, b) => a - b)[Math.floor(all.length / 2)];
  return { wall: median('wall'), cpu: median('cpu'), runs: all.length, status: all[0].status, stderr: all[0].stderr };
}

/** Times the three programs on both inputs; throws when native and Node disagree. */
export function measureCheck(runs = 3) {
  mkdirSync(DIR, { recursive: true });
  const files = writeInputs(DIR);
  const config = path.join(DIR, 'bench.dlq-lab.yml');
  writeFileSync(config, CONFIG);
  const results = {};
  for (const [name, file] of Object.entries(files)) {
    const out = (who) => path.join(DIR, `${name}.${who}.json`);
    const args = (who) => ['check', file, '--config', config, '--format', 'json', '--output', out(who)];
    const native = time(['build/native/dlq-lab', ...args('native')], runs);
    const jq = time(['jq', '.', file], runs);
    const node = time(['node', 'wasm/bin/dlq-lab.mjs', ...args('node')], runs);
    if (native.status > 1 || native.status !== node.status || !readFileSync(out('native')).equals(readFileSync(out('node')))) {
      throw new Error(`check ${file}: native (exit ${native.status}) and Node (exit ${node.status}) disagree\n${native.stderr}${node.stderr}`);
    }
    const findings = JSON.parse(readFileSync(out('native'), 'utf8'));
    results[name] = { file, bytes: statSync(file).size, exit: native.status, native, jq, node,
      findings: Array.isArray(findings.findings) ? findings.findings.length : undefined };
    rmSync(out('node'));
  }
  return results;
}

const met = (ok) => (ok ? 'met' : 'missed');
const s = (seconds) => `${seconds.toFixed(2)} s`;

/** The lines `npm run bench` prints: each time beside its aim. */
export function checkLines(results) {
  const lines = [`checker (issue 33): median of fresh processes, wall / CPU; every goal stated; aims: native < ${AIM_NATIVE} s, ` +
    `native <= ${AIM_JQ}x jq .`];
  for (const [name, r] of Object.entries(results)) {
    const ratio = r.native.cpu / r.jq.cpu;
    lines.push(`${name} (${(r.bytes / 1e6).toFixed(1)} MB, ${r.findings ?? '?'} findings, exit ${r.exit}):`);
    lines.push(`  native dlq-lab check  ${s(r.native.wall).padStart(9)} / ${s(r.native.cpu).padStart(9)} CPU  ` +
      `aim < ${AIM_NATIVE} s CPU: ${met(r.native.cpu < AIM_NATIVE)}  (${r.native.runs} runs)`);
    lines.push(`  jq .                  ${s(r.jq.wall).padStart(9)} / ${s(r.jq.cpu).padStart(9)} CPU  ` +
      `native/jq ${ratio.toFixed(2)}x CPU, aim <= ${AIM_JQ}x: ${met(ratio <= AIM_JQ)}`);
    lines.push(`  node dlq-lab.mjs check ${s(r.node.wall).padStart(8)} / ${s(r.node.cpu).padStart(9)} CPU  ` +
      `${(r.node.cpu / r.native.cpu).toFixed(2)}x native CPU (same report, same exit code)`);
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const results = measureCheck(Number(process.argv[2] ?? 3));
  for (const line of checkLines(results)) console.log(line);
  const summary = Object.fromEntries(Object.entries(results).map(([name, r]) => [name,
    { native: r.native, jq: r.jq, node: r.node }]));
  for (const r of Object.values(summary)) for (const t of Object.values(r)) delete t.stderr;
  console.log(JSON.stringify(summary));
}
