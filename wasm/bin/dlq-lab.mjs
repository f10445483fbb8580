#!/usr/bin/env node
// `npx dlq-lab …`: dlq-lab's command line (core/cli/) compiled to WebAssembly for Node, for
// teams without a compiler. The same C++ as build/native/dlq-lab: the same bytes on standard
// output and standard error, the same exit code. Files are reached through NODERAWFS (the
// module's own filesystem is the real one, relative to the working directory).
//
// The module is wasm/gen/dlq-lab.cjs + dlq-lab.wasm (built by `npm run build`, the wasm
// preset's dlq_lab_node target). Its .wasm is read here and handed over, so Node's fetch is
// never asked for a file path. A WebAssembly trap or abort (out of memory) is an internal
// error: exit 3, as the native build's.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = (name) => fileURLToPath(new URL(`../gen/${name}`, import.meta.url));
const EXIT_INTERNAL = 3;

if (!existsSync(here('dlq-lab.cjs')) || !existsSync(here('dlq-lab.wasm'))) {
  process.stderr.write('dlq-lab: internal error: wasm/gen/dlq-lab.cjs is not built (run npm run build)\n');
  process.exit(EXIT_INTERNAL);
}

function internalError(error) {
  process.stderr.write(`dlq-lab: internal error: ${error?.message ?? error}\n`);
  process.exit(EXIT_INTERNAL);
}

const createDlqLab = createRequire(import.meta.url)(here('dlq-lab.cjs'));
try {
  // Runs main(process.argv) at once; the runtime exits the process with main's code.
  createDlqLab({
    wasmBinary: readFileSync(here('dlq-lab.wasm')),
    arguments: process.argv.slice(2),
    thisProgram: 'dlq-lab',
    onAbort: internalError,
  }).catch(internalError);
} catch (error) {
  internalError(error);
}
