// Hand-written types for dlq-lab's JavaScript API (wasm/index.mjs).
// Emscripten 3.1.6 cannot emit these; keep them in step with index.mjs.

export type Outcome = 'success' | 'transient' | 'permanent';
export type Disposition = 'completed' | 'requeued' | 'quarantined';
export type Reason = 'permanent' | 'exhausted';
export type EventKind = 'enqueued' | 'attempt' | 'requeued' | 'completed' | 'quarantined' | 'replayed';

/**
 * Every thrown error is an Error with a `code`: 'invalid-type' (a TypeError: wrong JS type,
 * or a value that could not be read, such as a revoked Proxy), the core's 'invalid-argument' /
 * 'out-of-range' / 'too-large' (RangeError), 'already-exists', 'not-found', 'failed-precondition',
 * 'unsupported-version', 'resource-exhausted' (the heap budget has no room), 'disposed', or
 * 'aborted' (the WebAssembly core stopped after a fatal error; every later call is refused).
 * A refused call changes nothing.
 */
export type ErrorCode =
  | 'invalid-type' | 'invalid-argument' | 'out-of-range' | 'already-exists' | 'not-found'
  | 'failed-precondition' | 'unsupported-version' | 'too-large' | 'resource-exhausted' | 'disposed' | 'aborted';
export interface LabError extends Error { code: ErrorCode; }

export interface QueueOptions {
  /** Total attempts per job, the first included: an integer from 1 to 1,000,000. */
  maxAttempts: number;
}

export interface Job { id: string; payload: string; attempts: number; }

export interface QuarantineEntry extends Job {
  reason: Reason;
  /** The worker's error text on the final attempt. */
  lastError: string;
  /** The step at which the job arrived in quarantine. */
  step: number;
}

export interface AttemptResult {
  id: string;
  /** This attempt's number, 1-based. */
  attempt: number;
  outcome: Outcome;
  disposition: Disposition;
  /** Present when disposition is 'quarantined'. */
  reason?: Reason;
}

export interface TimelineEvent {
  /** 1, 2, 3, … in order. */
  seq: number;
  /** The queue's step when it happened; 0 = before the first step. */
  step: number;
  kind: EventKind;
  id: string;
  /** 'attempt': this attempt's number; 'replayed': the count before the reset; else the job's count. */
  attempts: number;
  maxAttempts: number;
  outcome?: Outcome;          // 'attempt'
  disposition?: Disposition;  // 'attempt'
  error?: string;             // 'attempt'
  reason?: Reason;            // 'quarantined', and a quarantining 'attempt'
  payloadBytes?: number;      // 'enqueued', 'replayed'
  /** One stable line, byte-identical to the native core's (golden files). */
  text: string;
  /** One sentence stating the rule applied. */
  explanation: string;
}

export interface QueueStats {
  step: number; ready: number; completed: number; quarantined: number; events: number; maxAttempts: number;
}

export interface Queue {
  /** Appends a job at the ready tail. Ids are unique over everything the queue was ever given. */
  enqueue(id: string, payload: string): void;
  /** All or nothing. */
  enqueueMany(jobs: ReadonlyArray<{ id: string; payload: string }>): void;
  /** One attempt at the head job; null when nothing is ready. The outcome is validated first. */
  process(outcome: Outcome, errorText?: string): AttemptResult | null;
  /** One attempt per letter ('s', 't', 'p') until nothing is ready; returns the attempts made. */
  processMany(outcomes: string, errorText?: string): number;
  /** An operator's explicit replay: attempts reset to 0, appended at the ready tail. False if not quarantined. */
  replay(id: string): boolean;
  /** Fresh copies: head first. `from` / `count` select a slice (default: all). */
  ready(from?: number, count?: number): Job[];
  /** Fresh copies, in completion order. */
  completed(from?: number, count?: number): Job[];
  /** Fresh copies, in arrival order. */
  quarantined(from?: number, count?: number): QuarantineEntry[];
  stats(): QueueStats;
  /** Events from index `from` (0-based), at most `count`. */
  timeline(from?: number, count?: number): TimelineEvent[];
  /** Every event's `text`, each followed by "\n". */
  timelineText(): string;
  /**
   * Frees the wasm object; every later call throws (code 'disposed'). After the core aborted it
   * only forgets the queue and does not throw.
   */
  dispose(): void;
  readonly disposed: boolean;
}

export type ScenarioAction =
  | { type: 'process'; outcome: Outcome; error?: string }
  | { type: 'replay'; id: string }
  | { type: 'enqueue'; id: string; payload?: string };

export interface Scenario {
  maxAttempts: number;
  /** Enqueued in order before the first step. */
  jobs?: ReadonlyArray<{ id: string; payload?: string }>;
  /** The script. */
  actions?: ReadonlyArray<ScenarioAction>;
  /** How many actions are applied; defaults to all of them. */
  cursor?: number;
}

export interface ParsedScenario {
  maxAttempts: number;
  jobs: { id: string; payload: string }[];
  actions: ({ type: 'process'; outcome: Outcome; error: string } | { type: 'replay'; id: string } |
    { type: 'enqueue'; id: string; payload: string })[];
  cursor: number;
}

export interface Lab {
  createQueue(options: QueueOptions): Queue;
  /** A queue in the state the scenario (object or link text) reaches at its cursor. */
  runScenario(scenario: Scenario | string): Queue;
  /** Link text -> scenario. Codes: 'too-large', 'unsupported-version', 'invalid-argument', 'out-of-range'. */
  parseScenario(text: string): ParsedScenario;
  /** Scenario -> link text that parseScenario() reads back; 'too-large' past maxScenarioTextBytes. */
  formatScenario(scenario: Scenario): string;
  /**
   * How far a script plays, whatever its cursor: the first `playable` actions are
   * accepted in order; `stopped` is the first refusal, or null when all are.
   */
  playableActions(scenario: Scenario | string): { playable: number; stopped: { code: ErrorCode; message: string } | null };
  /** `count` letters 's' / 't' / 'p' from the core's seeded PRNG. */
  randomOutcomes(options: { seed: number; count: number; successPercent: number; transientPercent: number }): string;
  /** The cap on what all queues keep (half the 2 GiB module memory by default), and what they keep now. */
  heapBudget(): { limitBytes: number; usedBytes: number };
  /**
   * An integer from 0 to 2 GiB. Calls that would keep more are refused ('resource-exhausted');
   * at 2 GiB nothing is refused early and running out of memory aborts the core.
   */
  setHeapBudget(bytes: number): void;
  /** True once the core has aborted; every later call then throws code 'aborted'. */
  readonly aborted: boolean;
  /** Bytes allocated on the wasm heap now. */
  heapInUse(): number;
  /** Size of the wasm linear memory in bytes; it grows, never shrinks. */
  memoryBytes(): number;
  /** True while the first 1,024 bytes of wasm memory are zero: a canary for writes through null. */
  nullPageIsClean(): boolean;
  /**
   * The core's size limits; past one a call is refused (code 'too-large') before anything is
   * copied into wasm memory. Strings are measured in UTF-8 bytes.
   */
  readonly limits: {
    readonly idBytes: number;           // 1,024
    readonly payloadBytes: number;      // 16 MiB
    readonly errorTextBytes: number;    // 64 KiB
    readonly outcomeBytes: number;      // 64: an outcome's name
    readonly outcomeLetters: number;    // 4,194,304: one processMany() call
    readonly batchBytes: number;        // 256 MiB: ids + payloads of one enqueueMany()
    readonly batchJobs: number;         // 16,777,216 jobs in one enqueueMany()
    readonly scenarioTextBytes: number; // 8,192: a scenario link
    readonly scenarioItems: number;     // 1,048,576 jobs, and actions, in one scenario object
  };
  readonly scenarioFormatVersion: number;
  readonly maxScenarioTextBytes: number;
  readonly maxAttemptsLimit: number;
}

/** Loads the core once (Node >= 20 and browsers) and returns the shared lab. */
export function loadLab(): Promise<Lab>;
