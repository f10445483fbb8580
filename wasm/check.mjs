// dlq-lab check in the browser (the page's Check panel, web/check.html) and in Node: the
// core's checker in a module of its own, wasm/gen/dlq_check.{mjs,wasm} (wasm/check_binding.cpp),
// fetched when loadChecker() is first called, so the playground's dlq_core.wasm does not grow.
// Argument checks and conversion only: which files are read, the rules, the goals, the report's
// words and every error's are the core's, the same code `dlq-lab check` runs, so the page shows
// byte for byte what the CLI prints for the same files. Types: ./check.d.ts.
import createDlqCheck from './gen/dlq_check.mjs';
import { coded, describe, isArray, readInput, typeError } from './errors.mjs';
import { instantiate } from './instantiate.mjs';

let modulePromise = null;

/** The checker, loaded once (a failed load is tried again on the next call). */
export function loadChecker() {
  modulePromise ??= instantiate(createDlqCheck, new URL('./gen/dlq_check.wasm', import.meta.url)).then((module) => new Checker(module), (error) => {
    modulePromise = null;
    throw error;
  });
  return modulePromise;
}

const string = (name, value) => {
  if (typeof value !== 'string') throw typeError(`check: ${name} must be a string, got ${describe(value)}`);
  return value;
};

// Each file read once into a plain { name, text, named } (a getter cannot change it after the check).
function readFiles(files) {
  if (!isArray(files)) throw typeError(`check: files must be an array of { name, text }, got ${describe(files)}`);
  const length = files.length;
  const out = [];
  for (let i = 0; i < length; i += 1) {
    const file = files[i];
    if (file === null || typeof file !== 'object') {
      throw typeError(`check: files[${i}] must be { name: string, text: string, inFolder?: boolean }, got ${describe(file)}`);
    }
    const name = string(`files[${i}].name`, file.name);
    const text = string(`files[${i}].text`, file.text);
    const inFolder = file.inFolder ?? false;
    if (typeof inFolder !== 'boolean') throw typeError(`check: files[${i}].inFolder must be a boolean, got ${describe(inFolder)}`);
    if (name === '') throw coded(RangeError, 'invalid-argument', `check: files[${i}].name must not be empty, got ""`);
    out.push({ name, text, named: !inFolder });
  }
  return out;
}

class Checker {
  #core;
  #aborted = null;

  constructor(module) {
    this.#core = module;
    /** The formats the checker reads, in the core's words ("Terraform plan JSON, …"). */
    this.reads = this.#enter((core) => core.facts()).knownFormats;
    Object.freeze(this);
  }

  // One crossing into the module; after a trap (out of memory, say) its memory is not trusted again.
  #enter(fn) {
    const stopped = () => `the checker stopped after a fatal error (${this.#aborted.message}); reload the page`;
    if (this.#aborted) throw coded(Error, 'aborted', stopped());
    try {
      return fn(this.#core);
    } catch (error) {
      this.#aborted = error instanceof Error ? error : new Error(String(error));
      throw coded(Error, 'aborted', stopped(), error);
    }
  }

  /**
   * Checks `files` as `dlq-lab check FILE… [--config .dlq-lab.yml] --format F --link-base L
   * --fail-on W` would, each file named on the command line (one the checker does not read is
   * an error) or, with inFolder, found in a folder it was given (such a file is passed over).
   * Returns { exitCode, output (standard output, byte for byte the CLI's), stderr, text (the
   * text format), report (the json format, parsed) }; a file that does not parse, a bad config:
   * { exitCode: 2, failure (the message, naming file and line), stderr }. A wrong argument
   * throws (TypeError or RangeError, with `code`), naming it.
   */
  check(files, options = {}) {
    const given = readInput('check: files', () => readFiles(files));
    const { format, config, linkBase, failOn } = readInput('check: options', () => {
      if (options === null || typeof options !== 'object') throw typeError(`check: options must be an object, got ${describe(options)}`);
      return {
        format: string('options.format', options.format ?? 'text'),
        config: options.config === undefined ? undefined : string('options.config', options.config),
        linkBase: string('options.linkBase', options.linkBase ?? ''),
        failOn: string('options.failOn', options.failOn ?? 'error'),
      };
    });
    const result = this.#enter((core) => core.check(given, config ?? '', config !== undefined, format, linkBase, failOn));
    if (typeof result.error === 'string') throw coded(RangeError, result.error, `check: ${result.message}`);
    if (typeof result.failure === 'string') return { exitCode: result.exitCode, failure: result.failure, stderr: result.stderr };
    return {
      exitCode: result.exitCode, output: result.output, stderr: result.stderr, text: result.text,
      report: JSON.parse(result.report),
    };
  }
}
