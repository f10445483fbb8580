#!/usr/bin/env node
// One entry point for set-up, build, test, serve and benchmarks, so that `npm start`
// and `npm test` work on a fresh Debian 12 machine (root, node 20 + npm, cmake, g++).
//
//   node scripts/dlq.mjs setup | build | test | lint | format | start | bench | bench-page
//   node scripts/dlq.mjs third-party   (only the Debian source packages CMake builds, into build/third_party/)
//   node scripts/dlq.mjs fuzz [--seconds N | --smoke] [[--target] link|queue|snapshot|goal|check-json|check-yaml|check-config|check-<reader format>]
//   node scripts/dlq.mjs storm [--jobs N --outage START:DURATION …]   (the native storm CLI; --help)
//
// Set-up is idempotent and quick when everything is there: it installs missing
// Debian packages with apt-get (as root; otherwise it prints the command and
// stops) and npm packages with `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { AIMS, aimColumn } from './aims.mjs';
import { buildSite } from './site.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// Debian packages: [package, a file it installs that proves it is there].
const DEBIAN_PACKAGES = [
  ['cmake', '/usr/bin/cmake'],
  ['g++', '/usr/bin/g++'],
  ['make', '/usr/bin/make'],
  ['doctest-dev', '/usr/lib/cmake/doctest/doctestConfig.cmake'],
  ['emscripten', '/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake'],
  ['chromium', '/usr/bin/chromium'],  // bench:page and Lighthouse
  ['chromium-headless-shell', '/usr/bin/chromium-headless-shell'],  // the browser suites (scripts/chromium.mjs)
  ['clang-14', '/usr/bin/clang++-14'],  // the fuzz preset's compiler
  ['libclang-rt-14-dev', '/usr/lib/llvm-14/lib/clang/14.0.6/include/fuzzer/FuzzedDataProvider.h'],  // libFuzzer
  ['clang-format-14', '/usr/bin/clang-format-14'],  // the C++ style (.clang-format), checked by lint
  // The real brokers the broker suite (tests/brokers/) starts on 127.0.0.1 and compares with the lab.
  ['redis-server', '/usr/bin/redis-server'],
  ['rabbitmq-server', '/usr/lib/rabbitmq/bin/rabbitmq-server'],
  ['ruby-sidekiq', '/usr/bin/sidekiq'],
  ['libxml2-utils', '/usr/bin/xmllint'],  // dlq-lab check's JUnit output against tests/schemas/junit.xsd
  // The checker's parsers (core/check/internal/): RapidJSON (header-only) for JSON; libfyaml,
  // built from Debian's source (third-party sources below), for YAML. dpkg-dev unpacks it.
  ['rapidjson-dev', '/usr/include/rapidjson/document.h'],
  ['dpkg-dev', '/usr/bin/dpkg-source'],
  ['patch', '/usr/bin/patch'],  // upstream fixes carried for those sources (third_party/patches/<package>/)
  ['jq', '/usr/bin/jq'],  // npm run bench: `dlq-lab check` beside `jq .` parsing the same file
];

// Libraries built from Debian's source packages, natively and for WebAssembly alike
// (CMakeLists.txt builds each as a static library): [package, version, the folder
// `apt-get source` unpacks under build/third_party/ (git-ignored)].
const DEBIAN_SOURCES = [
  ['libfyaml', '0.7.12-2', 'libfyaml-0.7.12'],
];
const DEBIAN_SOURCE_LIST = '/etc/apt/sources.list.d/dlq-lab-src.sources';

const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };  // Emscripten's JS optimizer needs acorn from there

function say(message) {
  console.log(`[dlq] ${message}`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    say(`failed: ${command} ${args.join(' ')} (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

function setup() {
  const missing = DEBIAN_PACKAGES.filter(([, file]) => !existsSync(file)).map(([name]) => name);
  if (missing.length > 0) {
    const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
    if (process.getuid?.() !== 0) {
      say(`missing Debian packages: ${missing.join(', ')}. Run as root:\n\n  ${command}\n`);
      process.exit(1);
    }
    say(`installing Debian packages: ${missing.join(', ')}`);
    run('sh', ['-c', command], { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  fetchDebianSources();
  const marker = 'node_modules/.package-lock.json';
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs) {
    say('installing npm packages (npm ci)');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

// Fetches and unpacks each DEBIAN_SOURCES package into build/third_party/ once; a folder
// already there is kept. Needs a deb-src entry for bookworm: added when apt has none.
function fetchDebianSources() {
  const dir = 'build/third_party';
  const missing = DEBIAN_SOURCES.filter(([, , folder]) => !existsSync(path.join(dir, folder, '.dlq-fetched')));
  if (missing.length > 0) fetchMissingSources(dir, missing);
  for (const [name, , folder] of DEBIAN_SOURCES) applyPatches(name, path.join(dir, folder));
}

// Upstream fixes a Debian source lacks, as patch files third_party/patches/<package>/*.patch,
// applied in name order once each: <folder>/.dlq-patches lists those applied, so a re-run is a
// no-op and a new patch file is applied on the next set-up. (A changed patch needs a fresh
// folder: delete it and set up again.)
function applyPatches(name, folder) {
  const patches = `third_party/patches/${name}`;
  if (!existsSync(patches)) return;
  const record = path.join(folder, '.dlq-patches');
  const applied = new Set(existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []);
  for (const file of readdirSync(patches).filter((f) => f.endsWith('.patch')).sort()) {
    if (applied.has(file)) continue;
    say(`applying ${patches}/${file} to ${folder}`);
    run('patch', ['--quiet', '--forward', '-p1', '-d', folder, '-i', path.resolve(patches, file)]);
    writeFileSync(record, `${[...applied, file].join('\n')}\n`);
    applied.add(file);
  }
}

function fetchMissingSources(dir, missing) {
  const hasDebSrc = () => spawnSync('sh', ['-c', 'grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/'])
    .status === 0;
  if (!hasDebSrc()) {
    const entry = 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' +
                  'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n';
    if (process.getuid?.() !== 0) {
      say(`apt has no deb-src entry for Debian's source packages. Run as root:\n\n` +
          `  printf '${entry.replace(/\n/g, '\\n')}' > ${DEBIAN_SOURCE_LIST} && apt-get update\n`);
      process.exit(1);
    }
    say(`adding ${DEBIAN_SOURCE_LIST} (deb-src for bookworm) and updating apt`);
    writeFileSync(DEBIAN_SOURCE_LIST, entry);
    run('apt-get', ['update']);
  }
  mkdirSync(dir, { recursive: true });
  for (const [name, version, folder] of missing) {
    say(`fetching Debian's source of ${name} ${version} into ${dir}/${folder}`);
    rmSync(path.join(dir, folder), { recursive: true, force: true });  // a half-unpacked folder from an interrupted run
    run('apt-get', ['source', '--quiet', `${name}=${version}`], { cwd: dir });
    writeFileSync(path.join(dir, folder, '.dlq-fetched'), `${name} ${version}\n`);
  }
}

// Configures every time (under a second once cached), so an interrupted or failed
// configure never leaves a build directory that later runs skip.
function cmakePreset(preset) {
  run('cmake', ['--preset', preset], { stdio: ['inherit', 'ignore', 'inherit'] });
  run('cmake', ['--build', '--preset', preset, '--parallel', '2']);
}

// The same, for builds that run side by side: each one's output is collected and printed
// as one block when it ends (three builds' lines interleaved would be unreadable), and a
// failure prints it and ends the run. Resolves when the build is done.
async function cmakePresetQuietly(preset) {
  for (const args of [['--preset', preset], ['--build', '--preset', preset, '--parallel', '2']]) {
    const { status, output } = await spawnCollected('cmake', args);
    // A configure's report is shown when it failed or warns (as cmakePreset shows its stderr).
    if (args[0] === '--build' || status !== 0 || /CMake (Deprecation )?Warning/.test(output)) process.stdout.write(output);
    if (status !== 0) {
      say(`failed: cmake ${args.join(' ')} (exit ${status})`);
      process.exit(typeof status === 'number' && status > 0 ? status : 1);
    }
  }
}

/** The WebAssembly modules' loaders in wasm/gen/ (a fresh clone has none), then the site in dist/. */
function copyModulesAndBuildSite() {
  for (const file of ['dlq_core.mjs', 'dlq_core.wasm', 'dlq_sim.mjs', 'dlq_sim.wasm']) {
    if (!existsSync(`wasm/gen/${file}`)) run('cmake', ['-E', 'copy', `build/wasm/wasm/${file}`, 'wasm/gen/']);
  }
  buildSite(root);
}

// The native and the WebAssembly builds side by side: each is two compile jobs, and a
// build alone leaves a core idle at its links and its serial steps (11-14% of its time).
async function build() {
  await Promise.all([cmakePresetQuietly('native'), cmakePresetQuietly('wasm')]);
  copyModulesAndBuildSite();
  say('built: build/native, build/wasm, wasm/gen, dist/');
}

// The test files of `dirs`, in the order node --test starts them as files end: the folders in
// the order given, each folder's files by name except those `first` names, which lead.
// Two at a time, a stage ends when its last file does, so the broker files go longest first
// (alone: snippets 43 s, bullmq 23 s, rabbitmq-quorum 17 s, sidekiq 13 s, the others under 1 s)
// and the short ones fill the end. (The node and browser files were tried longest first too, in
// stop 50: the stage's idle share stayed at 4.7%, so they keep their order by name.)
function nodeTests(dirs = ['tests/node', 'tests/browser'], first = []) {
  const files = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const names = readdirSync(dir).filter((name) => name.endsWith('.test.mjs')).sort();
    const rank = (name) => { const i = first.indexOf(name.replace(/\.test\.mjs$/, '')); return i < 0 ? first.length : i; };
    for (const name of names.sort((a, b) => rank(a) - rank(b))) files.push(path.join(dir, name));
  }
  return files;
}
const BROKER_FILES_LONGEST_FIRST = ['snippets', 'bullmq', 'rabbitmq-quorum', 'sidekiq'];

// libFuzzer harnesses (tests/fuzz/, built by the 'fuzz' preset). Each new input
// libFuzzer keeps goes to a corpus directory and each crash to build/fuzz/artifacts/,
// all under build/ (not in git); the seeds are copied, so the fixtures never change.
const FUZZ_TARGETS = {
  link: {  // ParseScenario / FormatScenario / RunScenario, seeded with every released link
    binary: 'build/fuzz/tests/fuzz/link_fuzz',
    flags: ['-dict=tests/fuzz/link.dict', '-max_len=8300'],  // a little past the 8,192-character limit
    smoke: { runs: 50000, flags: [] },  // 12–21 s in npm test's fresh runs (two harnesses at a time)
    seed(dir) {
      const fixtures = 'tests/fixtures/links';
      for (const name of readdirSync(fixtures).sort()) {
        if (!name.endsWith('.link')) continue;
        // The link without the file's final newline, as a URL fragment carries it.
        writeFileSync(path.join(dir, name), readFileSync(path.join(fixtures, name), 'utf8').replace(/\r?\n$/, ''));
      }
    },
  },
  queue: {  // operation sequences on one Queue, seeded from tests/fuzz/queue-seeds.txt (hex, one per line)
    binary: 'build/fuzz/tests/fuzz/queue_fuzz',
    flags: [],
    // 24–33 s in npm test's fresh runs (two harnesses at a time), the stage's longest; entropic
    // scheduling's bookkeeping costs half of a run this short
    // here, for the same coverage (the link harness gains from it).
    smoke: { runs: 20000, flags: ['-entropic=0'] },
    seed(dir) {
      const lines = readFileSync('tests/fuzz/queue-seeds.txt', 'utf8').split('\n');
      let n = 0;
      for (const line of lines) {
        const hex = line.replace(/#.*/, '').replace(/\s+/g, '');
        if (hex === '') continue;
        if (!/^([0-9A-Fa-f]{2})+$/.test(hex)) throw new Error(`tests/fuzz/queue-seeds.txt: not hex bytes: ${line}`);
        writeFileSync(path.join(dir, `seed-${++n}`), Buffer.from(hex, 'hex'));
      }
    },
  },
  snapshot: {  // Restore of fuzzed snapshot texts, Recover from mutated journals (tests/fuzz/snapshot_fuzz.cpp)
    binary: 'build/fuzz/tests/fuzz/snapshot_fuzz',
    flags: ['-dict=tests/fuzz/snapshot.dict', '-max_len=6000'],
    smoke: { runs: 1000, flags: [] },  // 4–5 s in npm test's fresh runs
    // The binary writes its seeds itself (snapshots of small scenarios and journal-mode
    // inputs, from the core's own writer), so they follow the format as it changes.
    seed(dir) {
      const result = spawnSync(this.binary, [], {
        env: { ...env, DLQ_SNAPSHOT_FUZZ_SEEDS: dir }, encoding: 'utf8',
      });
      if (result.error) throw result.error;
      if (result.status !== 0) {
        throw new Error(`${this.binary} could not write its seeds (exit ${result.status ?? result.signal}):\n` +
                        `${result.stdout}${result.stderr}`);
      }
    },
  },
  goal: {  // ParseGoal / FormatGoal / CheckGoal (tests/fuzz/goal_fuzz.cpp), seeded from tests/fuzz/goal-seeds.txt (one goal per line)
    binary: 'build/fuzz/tests/fuzz/goal_fuzz',
    flags: ['-dict=tests/fuzz/goal.dict', '-max_len=4200'],  // a little past the 4,096-byte limit
    // About 20 s on the 2-core machine: the seeds and regressions hold goals near the 4,096-byte
    // limit, and their mutants run at 20–40 ms each under ASan (every input is parsed, formatted,
    // parsed again spread and compacted, and checked on two queues). 30,000 inputs took 70–80 s
    // and reached 2,179–2,194 edges; 12,000 reach 2,173–2,180.
    smoke: { runs: 12000, flags: [] },
    seed(dir) {
      const lines = readFileSync('tests/fuzz/goal-seeds.txt', 'utf8').split('\n');
      let n = 0;
      for (const line of lines) {
        const goal = line.replace(/\r$/, '');  // as written: spaces and tabs are part of the goal
        if (goal.trim() === '' || goal.startsWith('#')) continue;
        writeFileSync(path.join(dir, `seed-${++n}`), goal);
      }
    },
  },
  // The checker's parsers and its configuration file (tests/fuzz/check_*_fuzz.cpp), seeded from
  // tests/fuzz/check-seeds/<kind>/ and every file of that syntax in the corpus (tests/fixtures/check/).
  'check-json': checkFuzzTarget('check_json_fuzz', 'json', ['.json']),
  'check-yaml': checkFuzzTarget('check_yaml_fuzz', 'yaml', ['.yaml', '.yml']),
  'check-config': checkFuzzTarget('check_config_fuzz', 'config', []),
  // One harness per checker reader (tests/fuzz/check_reader_fuzz.cpp): the whole check of one file.
  // The smoke's inputs each: about 5 s apiece on the 2-core machine (a RabbitMQ definitions
  // check is slow under ASan: its seeds are whole exports), 40 s for all seven at most.
  ...Object.fromEntries(Object.entries({
    'terraform-plan': 1500, cloudformation: 700, 'rabbitmq-definitions': 150, 'rabbitmq-topology': 250,
    'sidekiq-yml': 1500, 'sidekiq-ruby': 300, 'bullmq-options': 5000, 'kafka-connect': 5000,
  }).map(([format, runs]) => [`check-${format}`, checkReaderFuzzTarget(format, runs)])),
};
const FUZZ_ARTIFACTS = 'build/fuzz/artifacts';

// A checker harness: its seeds are the files of tests/fuzz/check-seeds/<kind>/ and the corpus
// files (tests/fixtures/check/, any depth) whose names end in one of `extensions`.
function checkFuzzTarget(name, kind, extensions) {
  return {
    binary: `build/fuzz/tests/fuzz/${name}`,
    flags: ['-max_len=16384', '-timeout=10'],  // real-shaped files are a few KB; a slow input is a bug
    smoke: { runs: 20000, flags: [] },
    seed(dir) {
      const files = [];
      const walk = (from, keep) => {
        if (!existsSync(from)) return;
        for (const entry of readdirSync(from, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
          const file = path.join(from, entry.name);
          if (entry.isDirectory()) walk(file, keep);
          else if (entry.isFile() && keep(entry.name)) files.push(file);
        }
      };
      walk(`tests/fuzz/check-seeds/${kind}`, () => true);
      walk('tests/fixtures/check', (file) => extensions.some((ext) => file.endsWith(ext)));
      files.forEach((file, n) => copyFileSync(file, path.join(dir, `seed-${n + 1}-${path.basename(file)}`)));
    },
  };
}

// A checker reader's harness: the binary writes its own seeds, the files of tests/fixtures/check/
// and tests/fuzz/check-seeds/<format>/ that the core's DetectFormat gives its format (JS keeps no
// list of which file is which format).
function checkReaderFuzzTarget(format, smokeRuns) {
  return {
    reader: true,
    binary: `build/fuzz/tests/fuzz/check_${format.replaceAll('-', '_')}_fuzz`,
    flags: [`-dict=tests/fuzz/check-dicts/${format}.dict`, '-max_len=16384', '-timeout=10'],
    smoke: { runs: smokeRuns, flags: [] },
    seed(dir) {
      const result = spawnSync(this.binary, [], {
        env: { ...env, DLQ_CHECK_FUZZ_SEEDS: dir, DLQ_CHECK_FUZZ_FROM: `tests/fixtures/check:tests/fuzz/check-seeds/${format}` },
        encoding: 'utf8',
      });
      if (result.error) throw result.error;
      if (result.status !== 0) {
        throw new Error(`${this.binary} could not write its seeds (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
      }
    },
  };
}

// `setarch -R` turns address randomisation off for the run: libFuzzer feeds compared
// values (pointers among them) back into its mutations, so with ASLR the same seed
// would not give the same inputs.
let setarchWorks;
function fuzzCommand(binary, args) {
  setarchWorks ??= spawnSync('setarch', ['-R', 'true'], { stdio: 'ignore' }).status === 0;
  return setarchWorks ? ['setarch', ['-R', binary, ...args]] : [binary, args];
}

function freshSeeds(target, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  FUZZ_TARGETS[target].seed(dir);
}

// Runs `command` to its end with stdout and stderr collected together: { status, output }
// (status: the exit code, or the signal's name).
// Each runs in a process group of its own: when this process ends early (a failure beside it,
// Ctrl+C), the groups still running are ended with it, compilers and shards included.
function spawnCollected(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('error', (error) => { running.delete(child); reject(error); });
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ status: code ?? signal, output });
    });
  });
}
const running = new Set();
process.on('exit', () => {
  for (const child of running) {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
  }
});
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15]]) process.on(signal, () => process.exit(128 + number));

// Calls `work(item)` for every item, `concurrency` at a time (independent processes on
// the 2-core machine: a single-threaded one leaves the other core idle).
async function inPool(items, concurrency, work) {
  const queue = [...items];
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (queue.length > 0) await work(queue.shift());
  }));
}

// Names the inputs this run saved (crash-, leak-, timeout-, oom-…) and how to replay them.
function reportCrash(target, since, log) {
  const crashes = readdirSync(FUZZ_ARTIFACTS)
    .filter((name) => name.startsWith(`${target}-`))
    .map((name) => path.join(FUZZ_ARTIFACTS, name))
    .filter((file) => statSync(file).mtimeMs >= since);
  say(`fuzz ${target}: the harness found a failing input${log ? `; full output in ${log}` : ''}`);
  for (const file of crashes) say(`  ${file}    reproduce: ${FUZZ_TARGETS[target].binary} ${file}`);
  if (target === 'queue' || target === 'snapshot') say('  DLQ_FUZZ_TRACE=1 before the command prints each decoded operation');
}

// A short, fixed run for `npm test`: smoke.runs inputs from a fresh copy of the
// seeds, with a fixed seed and no corpus reloading, so every run tries the same inputs.
// Resolves to its wall time in seconds; a failing input ends the process (exit 1).
async function fuzzSmoke(target) {
  const { binary, flags, smoke } = FUZZ_TARGETS[target];
  const corpus = mkdtempSync(path.join(os.tmpdir(), `dlq-fuzz-${target}-`));
  const log = `build/fuzz/${target}-smoke.log`;
  try {
    freshSeeds(target, corpus);
    // Inputs that once found a bug (tests/fuzz/regressions/<target>/) run first, every time.
    const regressions = `tests/fuzz/regressions/${target}`;
    if (existsSync(regressions)) {
      for (const file of readdirSync(regressions)) copyFileSync(path.join(regressions, file), path.join(corpus, `regression-${file}`));
    }
    mkdirSync(FUZZ_ARTIFACTS, { recursive: true });
    const args = [corpus, `-runs=${smoke.runs}`, '-seed=1', '-reload=0', '-timeout=60',
      `-artifact_prefix=${FUZZ_ARTIFACTS}/${target}-`, ...flags, ...smoke.flags];
    const [command, commandArgs] = fuzzCommand(binary, args);
    const since = Date.now() - 1000;
    const started = process.hrtime.bigint();
    const result = await spawnCollected(command, commandArgs);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { output } = result;
    writeFileSync(log, output);
    if (result.status !== 0) {
      console.error(output.split('\n').slice(-80).join('\n'));
      reportCrash(target, since, log);
      process.exit(1);
    }
    const done = output.match(/#\d+\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/);
    say(`fuzz ${target}: ${smoke.runs} inputs, no failure, in ${seconds.toFixed(1)} s` +
        (done ? ` (coverage ${done[1]} edges, ${done[2]} features, corpus ${done[3]})` : ''));
    return seconds;
  } finally {
    rmSync(corpus, { recursive: true, force: true });
  }
}

const FUZZ_USAGE = 'usage: npm run fuzz -- [--seconds N | --smoke] ' +
  `[[--target] ${Object.keys(FUZZ_TARGETS).join('|')}]\n` +
  '  runs each harness (all unless a target is named) for N seconds (default 60), one after the other;\n' +
  '  --smoke runs the short fixed run of npm test instead (a fixed number of inputs, seed 1)';

function parseFuzzArgs(argv) {
  const options = { seconds: 60, smoke: false, targets: Object.keys(FUZZ_TARGETS) };
  const fail = (message) => {
    console.error(`[dlq] ${message}\n${FUZZ_USAGE}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--help' || flag === '-h') {
      console.log(FUZZ_USAGE);
      process.exit(0);
    }
    if (flag === '--smoke' && inline === undefined) {
      options.smoke = true;
      continue;
    }
    if (inline === undefined && Object.hasOwn(FUZZ_TARGETS, flag)) {  // `npm run fuzz -- check-cloudformation`
      options.targets = [flag];
      continue;
    }
    if (flag !== '--seconds' && flag !== '--target') fail(`unknown argument ${JSON.stringify(argv[i])}`);
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`${flag} needs a value`);
    if (flag === '--seconds') {
      if (!/^[1-9][0-9]{0,6}$/.test(value)) fail(`--seconds must be a whole number of seconds from 1 to 9999999, got ${JSON.stringify(value)}`);
      options.seconds = Number(value);
      options.secondsGiven = true;
    } else {
      if (!Object.hasOwn(FUZZ_TARGETS, value)) fail(`--target must be one of ${Object.keys(FUZZ_TARGETS).join(', ')}, got ${JSON.stringify(value)}`);
      options.targets = [value];
    }
  }
  if (options.smoke && options.secondsGiven) fail('--smoke runs a fixed number of inputs; leave out --seconds');
  return options;
}

// `npm run fuzz`: each harness for as long as asked, random seed, growing a corpus
// that is kept in build/fuzz/corpus/<target> from one run to the next.
async function fuzz(argv) {
  const { seconds, smoke, targets } = parseFuzzArgs(argv);
  setup();
  cmakePreset('fuzz');
  if (smoke) {
    for (const target of targets) await fuzzSmoke(target);
    return;
  }
  mkdirSync(FUZZ_ARTIFACTS, { recursive: true });
  for (const target of targets) {
    const { binary, flags } = FUZZ_TARGETS[target];
    const corpus = `build/fuzz/corpus/${target}`;
    const seeds = `build/fuzz/seeds/${target}`;
    mkdirSync(corpus, { recursive: true });
    freshSeeds(target, seeds);
    say(`fuzz ${target}: ${seconds} s; corpus ${corpus} (kept), seeds ${seeds}, crashes ${FUZZ_ARTIFACTS}/${target}-*`);
    // Inputs that once found a bug seed every run too, as they do the smoke runs.
    const regressions = `tests/fuzz/regressions/${target}`;
    const extra = existsSync(regressions) ? [regressions] : [];
    const args = [corpus, seeds, ...extra, `-max_total_time=${seconds}`, '-timeout=60', '-print_final_stats=1',
      `-artifact_prefix=${FUZZ_ARTIFACTS}/${target}-`, ...flags];
    const since = Date.now() - 1000;
    const result = spawnSync(binary, args, { stdio: 'inherit', env });
    if (result.error) throw result.error;
    if (result.status !== 0) {
      reportCrash(target, since);
      process.exit(1);
    }
    say(`fuzz ${target}: ${seconds} s, no failure`);
  }
}

// ESLint (eslint.config.mjs) over the project's own JavaScript; a violation fails the run.
const LINT_PATHS = ['web/src', 'wasm', 'scripts', 'tests', 'eslint.config.mjs'];
function lint() {
  run('npx', ['--no-install', 'eslint', '--max-warnings', '0', ...LINT_PATHS]);
  const files = cppSources();
  const result = spawnSync(CLANG_FORMAT, ['--dry-run', '--Werror', ...files], { stdio: 'inherit', env });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    say(`clang-format: the C++ above is not in the project's style (.clang-format); \`npm run format\` applies it`);
    process.exit(1);
  }
  say(`clang-format: ${files.length} C++ files in style`);
}

// The C++ style: .clang-format over the project's own C++ (core/, wasm/, tests/; not the
// fixtures), found by walking the folders so an untracked file is checked too.
const CLANG_FORMAT = '/usr/bin/clang-format-14';
const CPP_DIRS = ['core', 'wasm', 'tests'];
function cppSources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) { if (file !== path.join('tests', 'fixtures')) walk(file); }
      else if (/\.(h|cpp)$/.test(entry.name)) files.push(file);
    }
  };
  for (const dir of CPP_DIRS) walk(dir);
  return files;
}
function format() {
  run(CLANG_FORMAT, ['-i', ...cppSources()]);
  say(`formatted ${cppSources().length} C++ files (.clang-format)`);
}

// `npm test`'s stages, timed: each one's wall time is printed when the run ends, passed or not.
// Stages in a group run side by side, so the group's wall time, not theirs, adds to the total.
const stageTimes = [];
async function stage(name, work, group = null) {
  say(group ? `${name} (started)` : name);
  const started = Date.now();
  const entry = { name, seconds: null, group };
  stageTimes.push(entry);
  await work();
  entry.seconds = (Date.now() - started) / 1000;
  if (group) say(`${name}: done in ${entry.seconds.toFixed(1)} s`);
}
/** Runs each chain (a list of [name, work], one after the other) beside the others. */
async function sideBySide(name, chains) {
  const group = { name };
  await stage(name, () => Promise.all(chains.map(async (chain) => {
    for (const [stageName, work] of chain) await stage(stageName, work, group);
  })));
}
function printStageTimes() {
  if (stageTimes.length === 0) return;
  const label = (s) => (s.group ? `  ${s.name}` : s.name);
  const width = Math.max(...stageTimes.map((s) => label(s).length));
  const total = stageTimes.filter((s) => !s.group).reduce((sum, s) => sum + (s.seconds ?? 0), 0);
  say('time per stage (an indented stage ran beside the others of its group, inside the group\'s time):');
  for (const s of stageTimes) {
    const time = s.seconds === null ? 'did not finish' : `${s.seconds.toFixed(1).padStart(7)} s`;
    console.log(`  ${label(s).padEnd(width)}  ${time}`);
  }
  // The aim is a fresh machine's (set-up included); a run that stopped early has no total to judge.
  const finished = stageTimes.every((s) => s.seconds !== null);
  console.log(`  ${'total'.padEnd(width)}  ${total.toFixed(1).padStart(7)} s` +
    (finished ? `   aim on a fresh machine ${aimColumn(AIMS.npmTestFreshMachine, total)}` : ''));
}

// The test files of `dirs` run side by side (JS_TEST_CONCURRENCY, TEST_CONCURRENCY below): each
// serves dist/ on its own port 0 and starts its own browser (tests/node, tests/browser), or starts its own brokers on free
// ports with their own data folders and epmd (tests/brokers/lib), as a stage of its own after
// the browsers: a broker's start is mostly one busy core (RabbitMQ's about 10 s), and the
// brokers' scenarios measure delays, which want no browser beside them.
const TEST_CONCURRENCY = String(Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length)));
// The JavaScript and browser files, one more than the cores: a browser file waits on frames,
// debounces and its pages' timers, and two at a time left a tenth of the two cores idle
// (stop 52: 375–381 s at three against 405–460 s at two, the same files, turn about).
const JS_TEST_CONCURRENCY = String(Number(TEST_CONCURRENCY) + 1);

// The doctest suite (tests/native), optimised and sanitized, in shards: each shard one process
// running its share of the test cases, in a random order with a fixed seed (the long cases spread
// across the shards, and no case may lean on another). ctest starts the binary once per test case:
// under ASan + UBSan each start costs about 0.1 s of CPU, and 650 of them were a third of the stage.
const NATIVE_TESTS = 'build/native/tests/native/dlq_tests';
const SANITIZED_TESTS = 'build/fuzz/tests/native/dlq_tests';
const TEST_SHARDS = 8;

/** The number of test cases `binary` runs (doctest's own count). */
function doctestCount(binary) {
  const counted = spawnSync(binary, ['--count'], { encoding: 'utf8', env });
  const total = Number(/passing the current filters: (\d+)/.exec(counted.stdout ?? '')?.[1]);
  if (counted.status !== 0 || !Number.isInteger(total) || total === 0) {
    say(`failed: ${binary} --count (exit ${counted.status}): ${counted.stdout}${counted.stderr}`);
    process.exit(1);
  }
  return total;
}

// ctest (for a developer's `ctest -R name`) lists one test per test case; a name CMake cannot
// carry whole (a ';' splits it in two) would be a ctest entry that runs nothing. Checked here,
// since npm test itself runs the binary directly.
function checkCtestList(preset, binary) {
  const listed = spawnSync('ctest', ['--preset', preset, '-N'], { encoding: 'utf8', env });
  const tests = Number(/Total Tests: (\d+)/.exec(listed.stdout ?? '')?.[1]);
  const cases = doctestCount(binary);
  if (tests !== cases) {
    say(`ctest --preset ${preset} lists ${tests} tests for the ${cases} test cases of ${binary}: ` +
      'a test case name with a \';\' is split by CMake into entries that run nothing (use \',\')');
    process.exit(1);
  }
}

async function doctestShards(binary, shards, concurrency) {
  const total = doctestCount(binary);
  const size = Math.ceil(total / shards);
  const ranges = Array.from({ length: shards }, (_, i) => [i * size + 1, Math.min(total, (i + 1) * size)])
    .filter(([first, last]) => first <= last);
  const failed = [];
  const runShard = async ([first, last]) => {
    const args = ['--order-by=rand', '--rand-seed=20261205', `--first=${first}`, `--last=${last}`, '--no-intro'];
    const { status, output } = await spawnCollected(binary, args);
    const what = `test cases ${first}–${last} of ${total}`;
    if (status === 0) {
      say(`${what}: passed`);
    } else {
      process.stdout.write(output);
      say(`${what}: failed (exit ${status}): ${binary} ${args.join(' ')}`);
      failed.push(what);
    }
  };
  await inPool(ranges, concurrency, runShard);
  if (failed.length > 0) process.exit(1);
}

async function test() {
  process.on('exit', printStageTimes);
  await stage('set-up (packages, toolchains, brokers)', () => setup());
  await stage('lint (ESLint, eslint.config.mjs; clang-format, .clang-format)', () => lint());
  // Three chains side by side: each build is two compile jobs, and one alone left a core idle
  // at its links and serial steps (11-14% of its time), the doctest shards at their tails.
  // One sanitized core (clang, ASan + UBSan, the 'fuzz' preset) serves both its doctest
  // suite and the libFuzzer harnesses.
  await sideBySide('the builds and the native suites, side by side', [
    [
      ['build: native', () => cmakePresetQuietly('native')],
      [`native suite (the optimised build's doctest suite in ${TEST_SHARDS} shards)`, () => {
        checkCtestList('native', NATIVE_TESTS);
        return doctestShards(NATIVE_TESTS, TEST_SHARDS, Number(TEST_CONCURRENCY));
      }],
    ],
    [
      ['build: WebAssembly, site', async () => {
        await cmakePresetQuietly('wasm');
        copyModulesAndBuildSite();
      }],
    ],
    [
      ['build: the sanitized core (clang, ASan + UBSan), its doctest suite and the fuzz harnesses', () => cmakePresetQuietly('fuzz')],
      [`native suite under ASan + UBSan (the sanitized build's doctest suite in ${TEST_SHARDS} shards)`,
        () => doctestShards(SANITIZED_TESTS, TEST_SHARDS, Number(TEST_CONCURRENCY))],
      // Each harness is one single-threaded process with its own seed and inputs: two at a time.
      [`fuzz harnesses (libFuzzer, ASan + UBSan), a fixed number of inputs each, ${TEST_CONCURRENCY} at a time`, async () => {
        let readerSeconds = 0;
        await inPool(Object.keys(FUZZ_TARGETS), Number(TEST_CONCURRENCY), async (target) => {
          const seconds = await fuzzSmoke(target);
          if (FUZZ_TARGETS[target].reader) readerSeconds += seconds;
        });
        say(`fuzz harnesses of the checker's readers: ${readerSeconds.toFixed(1)} s of harness time together (aim: under 40 s)`);
      }],
    ],
  ]);
  // tests/types: the JS API's .d.ts as TypeScript users see it; tsconfig.web.json: web/src's JSDoc (// @ts-check).
  await stage('type check of wasm/index.d.ts and web/src (tsc --noEmit)', () => {
    run('npx', ['--no-install', 'tsc', '--noEmit', '-p', 'tests/types']);
    run('npx', ['--no-install', 'tsc', '--noEmit', '-p', 'tests/types/tsconfig.web.json']);
  });
  await stage(`JavaScript API and browser suites (node --test, ${JS_TEST_CONCURRENCY} files at a time)`,
    () => run('node', ['--test', `--test-concurrency=${JS_TEST_CONCURRENCY}`, '--test-reporter=tap', '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/slowest-files.mjs', '--test-reporter-destination=stdout', ...nodeTests()]));
  // Real brokers on 127.0.0.1, each started and stopped by its own test file (tests/brokers/).
  await stage(`broker suite (RabbitMQ, Redis + BullMQ, Sidekiq; ${TEST_CONCURRENCY} files at a time; aim: under 180 s)`,
    () => run('node', ['--test', `--test-concurrency=${TEST_CONCURRENCY}`, ...nodeTests(['tests/brokers'], BROKER_FILES_LONGEST_FIRST)]));
  say('all suites passed');
}

async function start() {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    say(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
    process.exit(2);
  }
  const host = process.env.HOST ?? 'localhost';
  setup();
  await build();
  const { serve } = await import('./serve.mjs');
  try {
    const server = await serve({ dir: path.join(root, 'dist'), port, host });
    say(`playground: http://${host}:${server.address().port}/   (Ctrl+C stops)`);
  } catch (error) {
    const why = error.code === 'EADDRINUSE' ? `port ${port} is in use; choose another with PORT=…` : error.message;
    say(`cannot serve on ${host}:${port}: ${why}`);
    process.exit(1);
  }
}

// `npm run storm -- <options>`: builds the native storm CLI (tests/tools/storm.cpp)
// alone and runs it with the options; its exit status is the command's (2 for a
// bad flag, named on stderr).
function storm(argv) {
  setup();
  const quiet = { stdio: ['inherit', 'ignore', 'inherit'] };  // the table alone on stdout
  run('cmake', ['--preset', 'native'], quiet);
  run('cmake', ['--build', '--preset', 'native', '--target', 'dlq_storm', '--parallel', '2'], quiet);
  const result = spawnSync('build/native/dlq_storm', argv, { stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

const command = process.argv[2];
switch (command) {
  case 'setup': setup(); break;
  case 'third-party': fetchDebianSources(); break;  // only the Debian source packages (part of setup)
  case 'build': setup(); await build(); break;
  case 'test': await test(); break;
  case 'lint': setup(); lint(); break;
  case 'format': setup(); format(); break;
  case 'start': await start(); break;
  case 'bench': setup(); await build(); run('node', ['--expose-gc', 'scripts/bench.mjs', ...process.argv.slice(3)]); break;
  case 'bench-page': setup(); await build(); run('node', ['scripts/bench-page.mjs', ...process.argv.slice(3)]); break;
  case 'fuzz': await fuzz(process.argv.slice(3)); break;
  case 'storm': storm(process.argv.slice(3)); break;
  default:
    console.error('usage: node scripts/dlq.mjs setup | third-party | build | test | lint | format | start | bench | bench-page | fuzz | storm');
    process.exit(2);
}
