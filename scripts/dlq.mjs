#!/usr/bin/env node
// One entry point for set-up, build, test, serve and benchmarks, so that `npm start`
// and `npm test` work on a fresh Debian 12 machine (root, node 20 + npm, cmake, g++).
//
//   node scripts/dlq.mjs setup | build | test | start | bench | bench-page
//
// Set-up is idempotent and quick when everything is there: it installs missing
// Debian packages with apt-get (as root; otherwise it prints the command and
// stops) and npm packages with `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
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
  ['chromium', '/usr/bin/chromium'],
];

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
  const marker = 'node_modules/.package-lock.json';
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs) {
    say('installing npm packages (npm ci)');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

// Configures every time (under a second once cached), so an interrupted or failed
// configure never leaves a build directory that later runs skip.
function cmakePreset(preset) {
  run('cmake', ['--preset', preset], { stdio: ['inherit', 'ignore', 'inherit'] });
  run('cmake', ['--build', '--preset', preset, '--parallel', '2']);
}

function build({ sanitize = false } = {}) {
  cmakePreset('native');
  if (sanitize) cmakePreset('native-sanitize');
  cmakePreset('wasm');
  for (const file of ['dlq_core.mjs', 'dlq_core.wasm']) {
    if (!existsSync(`wasm/gen/${file}`)) run('cmake', ['-E', 'copy', `build/wasm/wasm/${file}`, 'wasm/gen/']);
  }
  buildSite(root);
  say('built: build/native, build/wasm, wasm/gen, dist/');
}

function nodeTests() {
  const files = [];
  for (const dir of ['tests/node', 'tests/browser']) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) if (name.endsWith('.test.mjs')) files.push(path.join(dir, name));
  }
  return files;
}

function test() {
  setup();
  build({ sanitize: true });
  say('native suite (ctest, optimised build)');
  run('ctest', ['--preset', 'native']);
  say('native suite (ctest, AddressSanitizer + UndefinedBehaviorSanitizer)');
  run('ctest', ['--preset', 'native-sanitize']);
  say('type check of wasm/index.d.ts (tsc --noEmit)');
  run('npx', ['--no-install', 'tsc', '--noEmit', '-p', 'tests/types']);
  say('JavaScript API and browser suites (node --test)');
  run('node', ['--test', '--test-concurrency=1', ...nodeTests()]);
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
  build();
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

const command = process.argv[2];
switch (command) {
  case 'setup': setup(); break;
  case 'build': setup(); build(); break;
  case 'test': test(); break;
  case 'start': await start(); break;
  case 'bench': setup(); build(); run('node', ['--expose-gc', 'scripts/bench.mjs', ...process.argv.slice(3)]); break;
  case 'bench-page': setup(); build(); run('node', ['scripts/bench-page.mjs', ...process.argv.slice(3)]); break;
  default:
    console.error('usage: node scripts/dlq.mjs setup | build | test | start | bench | bench-page');
    process.exit(2);
}
