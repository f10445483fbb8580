// dlq-lab check in the browser and Node (wasm/check.mjs): the core's checker in its own module.
// The report's shape is docs/check.md's JSON format (tests/schemas/).

/** One file, as it is named on the command line (or found in a folder given, with inFolder). */
export interface CheckFile {
  name: string;
  text: string;
  /** Found in a folder: a file the checker does not read is passed over instead of refused. */
  inFolder?: boolean;
}

export interface CheckOptions {
  /** 'text' (default), 'json', 'junit', 'sarif' or 'github'. */
  format?: string;
  /** A .dlq-lab.yml's text (goals and skips). */
  config?: string;
  /** The playground each finding's link opens (default https://dlq-lab.dev/playground.html). */
  linkBase?: string;
  /** 'error' (default) or 'warning': the level that makes the exit code 1. */
  failOn?: 'warning' | 'error';
}

export interface CheckFinding {
  rule: string;
  level: 'note' | 'warning' | 'error';
  /** '' for a finding about a file. */
  queue: string;
  file: string;
  /** 0: the file as a whole. */
  line: number;
  message: string;
  /** A v2 scenario URL that plays the case in the playground, or ''. */
  link: string;
  skipped: boolean;
  reason: string;
}

export interface CheckQueue {
  name: string;
  system: string;
  file: string;
  line: number;
  /** '' for none. */
  dlq: string;
  /** null: unbounded. */
  attempts: number | null;
  /** null: unbounded or unknown. */
  worstCaseMs: number | null;
}

/** docs/check.md's JSON format. */
export interface CheckReport {
  version: 1;
  queues: CheckQueue[];
  findings: CheckFinding[];
  summary: { queues: number; errors: number; warnings: number; notes: number; skipped: number };
}

/** What the CLI would print and its exit code. */
export type CheckResult =
  | { exitCode: 0 | 1; output: string; stderr: string; text: string; report: CheckReport; failure?: undefined }
  | { exitCode: 2; failure: string; stderr: string; output?: undefined; report?: undefined };

export interface Checker {
  /** The formats the checker reads, in the core's words. */
  readonly reads: string;
  /** Throws TypeError / RangeError (with `code`) for a wrong argument, naming it. */
  check(files: readonly CheckFile[], options?: CheckOptions): CheckResult;
}

/** Loads wasm/gen/dlq_check.wasm once. */
export function loadChecker(): Promise<Checker>;
