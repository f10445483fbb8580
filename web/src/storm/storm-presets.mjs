// @ts-check
// The storm lab's scenarios: the defaults, the presets, the link format
// (location.hash, see docs/storm.md "Storm links") and how one scenario becomes
// the runs the worker makes (one per strategy, or per strategy and arrival
// pattern). No DOM here and no core: every value is checked by the core
// (sim.createStorm) when it runs, so a link may carry a value the core refuses.
//
// A scenario, as the form holds it (numbers, or null for a blank field):
//   { jobs, arrival: 'burst' | 'rate' | 'both' | 'closed' | 'loops', perSecond, clients,
//     outageStartMs, outageMs (null: no outage), perWindow (null: unlimited), windowMs,
//     failurePerMillion, budgets: [budget text or 'none', ...], refusedRetry: 'quarantine' | 'fail',
//     serverPerSecond (null: no server), timeoutMs, dropStartMs, dropMs, dropPerSecond,
//     workers, workMs, leaseMs, maxAttempts, backoff: 'none' | 'fixed' | 'exponential', baseMs, capMs,
//     seed, strategies: [...] }
// 'both' runs each strategy twice, a burst and at the rate; 'loops' twice, open loop at the rate
// and closed loop with `clients`; each budget in `budgets` is one more run of each (a budget's
// text is the core's grammar, read by the core: grpc:10:0.1, aws-standard, finagle:20:10:10000).

// The names of strategies, backoff kinds and contention strategies are the core's
// (sim.schema: backoff.jitter, backoff.kind, contention.strategy choices; coreLists()).
// What this page keeps, keyed by those names, is its own presentation: each one's
// label, and its letter in the link format (s1's letters are frozen: old links keep
// loading). storm-presets.test.mjs checks every core name has a label and a letter.
export const STRATEGY_LABELS = { none: 'No jitter', full: 'Full jitter', equal: 'Equal jitter', decorrelated: 'Decorrelated jitter',
  bullmq: 'BullMQ jitter (j = 0.5)' };
const STRATEGY_LETTERS = { none: 'n', full: 'f', equal: 'e', decorrelated: 'd', bullmq: 'b' };
const BACKOFF_LETTERS = { none: 'n', fixed: 'f', exponential: 'e' };
export const LINK_LETTERS = Object.freeze({ strategy: STRATEGY_LETTERS, backoff: BACKOFF_LETTERS });

/** runContention's strategies as this page labels them (the core's names and order: coreLists). */
export const CONTENTION_LABELS = {
  none: 'No backoff', exponential: 'Exponential', equal: 'Equal jitter', full: 'Full jitter', decorrelated: 'Decorrelated jitter',
};
/** The published settings are the core's defaults (base 5 ms, cap 2000 ms); runs: how many runs each point averages. */
export const CONTENTION_DEFAULTS = { seed: 1, runs: 20 };

/**
 * The lists this page takes from the core, out of sim.schema's rows (`schema`: at
 * least { backoff, contention }, as the worker's describe answer carries them):
 * { jitters: the storm's strategies (backoff.jitter), backoffKinds (backoff.kind),
 * contentionStrategies (contention.strategy) }, each the core's names in its order.
 */
export function coreLists(schema) {
  const choices = (rows, name) => {
    const row = rows.find((r) => r.name === name);
    if (!row?.choices) throw new Error(`sim.schema has no choices for ${name}`);
    return row.choices.map((c) => c.name);
  };
  return {
    jitters: choices(schema.backoff, 'jitter'),
    backoffKinds: choices(schema.backoff, 'kind'),
    contentionStrategies: choices(schema.contention, 'strategy'),
  };
}

/**
 * A link runs as soon as it is opened only when the core bounds its whole cost by
 * these (sim.stormCost over its runs, sim.contentionCost; see totalStormCost); a
 * costlier one waits for Run and says what it will cost. 10 million attempts are
 * about a third of a second of the core's time here (about 30 ns an attempt in
 * WebAssembly); 2 million contention calls about one second (about 450 ns a call).
 * The defaults (4 × 10,000 jobs × 10 attempts; 20 contention runs) are well inside;
 * the million-job preset (40 million) is not.
 */
export const AUTO_RUN_MAX_ATTEMPTS = 10_000_000;
export const AUTO_RUN_MAX_CONTENTION_CALLS = 2_000_000;

/**
 * A storm lab scenario as the page holds it: the s1 link format's fields (a number is null
 * when its field is blank or the link leaves it to the core).
 * @typedef {{ jobs: number, arrival: string, perSecond: number, clients: number, outageStartMs: number, outageMs: number,
 *   perWindow: number | null, windowMs: number, failurePerMillion: number, budgets: readonly string[], refusedRetry: string,
 *   serverPerSecond: number | null, timeoutMs: number, dropStartMs: number, dropMs: number, dropPerSecond: number,
 *   workers: number, workMs: number, leaseMs: number, maxAttempts: number, backoff: string, baseMs: number, capMs: number,
 *   seed: number, strategies: string[] }} StormScenario
 */

/**
 * The value of every field a link leaves out (the s1 format's defaults: frozen, so an old link
 * keeps meaning what it meant). Storm lab II's fields default to what the page did before them:
 * no failure rate, no budget, no server, 100 clients when a loop is closed.
 * @type {Readonly<StormScenario>}
 */
export const DEFAULT_SCENARIO = Object.freeze({
  jobs: 10_000,
  arrival: 'burst',
  perSecond: 1000,
  clients: 100,
  outageStartMs: 0,
  outageMs: 5000,
  perWindow: null,
  windowMs: 1000,
  failurePerMillion: 0,
  budgets: Object.freeze(['none']),
  refusedRetry: 'quarantine',
  serverPerSecond: null,
  timeoutMs: 1000,
  dropStartMs: 0,
  dropMs: 0,
  dropPerSecond: 0,
  workers: 10_000,
  workMs: 10,
  leaseMs: 30_000,
  maxAttempts: 10,
  backoff: 'exponential',
  baseMs: 100,
  capMs: 10_000,
  seed: 1,
  strategies: ['none', 'full', 'equal', 'decorrelated'],
});

/**
 * The presets, each a scenario (or the contention experiment) with a one-line summary.
 * `note` is said above the results while they are on show.
 */
export const PRESETS = [
  {
    key: 'jitter-wins',
    title: 'Jitter after an outage, into a dependency that takes 1,500 a second',
    summary: '10,000 jobs fail through a 5 s outage; the dependency then serves 1,500 a second. Without jitter the herd overflows it at every retry and runs out of attempts.',
    scenario: { ...DEFAULT_SCENARIO, perWindow: 1500, windowMs: 1000, strategies: ['none', 'full', 'equal', 'decorrelated'] },
    note: 'Capacity after recovery decides what completes. Without jitter all 10,000 jobs come back in the same 10 ms: 1,500 succeed, 8,500 are throttled and come back together again, and after the 4 attempts the outage left them only 6,000 have completed. Full and equal jitter spread the herd over many windows: all or nearly all complete, and sooner. Decorrelated jitter completes more than no jitter but quarantines over a quarter: its early delays sit near the base (100 ms), so it spends more attempts inside the outage (docs/storm.md, "Why decorrelated jitter spends budgets sooner").',
  },
  {
    key: 'outage',
    title: 'No jitter vs jitter after a 5 s outage',
    summary: '10,000 jobs fail through a 5 s outage; without jitter they return in lockstep and hit the recovered dependency all at once.',
    scenario: { ...DEFAULT_SCENARIO },
    note: 'The herd (docs/storm.md): a worker for every job, so the retry timing is all that shapes the recovery. Without jitter every job retries at the same instants, and all 10,000 succeed in one interval after the outage.',
  },
  {
    key: 'budget',
    title: 'A budget shorter than the outage',
    summary: 'Four attempts with 100 ms exponential backoff are used up in under a second: a 5 s outage quarantines every healthy job.',
    scenario: { ...DEFAULT_SCENARIO, maxAttempts: 4, capMs: 1000, strategies: ['none', 'full'] },
    note: 'Every quarantined job here is healthy: the policy gave up before the dependency came back. The bounded-path worst case is shorter than the outage.',
  },
  {
    key: 'tight-loop',
    title: 'No backoff at all: the tight loop',
    summary: 'Each failure retries at once: the workers spin through the outage at full speed, and 20 attempts each are gone in a fifth of a second.',
    scenario: { ...DEFAULT_SCENARIO, backoff: 'none', baseMs: null, capMs: null, maxAttempts: 20, strategies: ['none'] },
    note: 'With no backoff there is no delay to jitter, so one run shows it: attempts limited only by the workers, every one of them wasted, and every job quarantined long before the dependency is back.',
  },
  {
    key: 'capacity',
    title: 'A capacity-limited recovery',
    summary: 'After the outage the dependency takes 1,000 successes a second; lockstep retries overflow it, fail again and come back as a second storm.',
    scenario: { ...DEFAULT_SCENARIO, perWindow: 1000, windowMs: 1000, strategies: ['none', 'full', 'equal', 'decorrelated'] },
  },
  {
    key: 'redrive',
    title: 'Redrive the quarantine: all at once vs in batches',
    summary: '10,000 quarantined jobs sent back into a dependency that takes 1,000 a second: all at once, or 800 a second.',
    scenario: {
      ...DEFAULT_SCENARIO, arrival: 'both', perSecond: 800, outageMs: null, perWindow: 1000, windowMs: 1000,
      maxAttempts: 6, strategies: ['full'],
    },
    note: 'A storm has no redrive operation of its own, so a redrive is shown as what it does to arrivals: the whole quarantine (10,000 jobs) as one burst, beside the same jobs released at 800 a second. The burst overflows the capacity: most of it is throttled until its budget is gone and lands back in quarantine. The batches stay under the capacity and all complete.',
  },
  {
    key: 'metastable',
    title: 'A metastable failure: no budget, then gRPC and AWS budgets',
    summary: '600 jobs a second into a server of 1,000 a second; its capacity drops to 100 for one second. Clients time out after 500 ms and retry: without a budget the retries keep the queue growing long after the drop.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 30_000, arrival: 'rate', perSecond: 600, outageMs: null, workers: 100_000, maxAttempts: 3,
      backoff: 'none', baseMs: null, capMs: null, strategies: ['none'], budgets: ['none', 'grpc:10:0.1', 'aws-standard'],
      serverPerSecond: 1000, timeoutMs: 500, dropStartMs: 5000, dropMs: 1000, dropPerSecond: 100,
    },
    note: 'Metastable (Bronson et al., HotOS ’21): the trigger lasts 1 s, the failure lasts as long as the arrivals. With no budget every attempt waits longer than its client’s timeout, each timeout sends a retry, and the server still does the abandoned work: 1,800 attempts a second against a capacity of 1,000, and goodput stays at 0 from 6 s to the end. A budget refuses the retries once failures pile up, the load falls back to 600 a second and the queue drains within a few timeouts.',
  },
  {
    key: 'metastable-closed',
    title: 'The same trigger with closed-loop clients',
    summary: 'Six clients that wait for their answer send the same 600 jobs a second; the same capacity drop slows them down instead of burying the server.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 30_000, arrival: 'loops', perSecond: 600, clients: 6, outageMs: null, workers: 100_000,
      maxAttempts: 3, backoff: 'none', baseMs: null, capMs: null, strategies: ['none'],
      serverPerSecond: 1000, timeoutMs: 500, dropStartMs: 5000, dropMs: 1000, dropPerSecond: 100,
    },
    note: 'Open loop (left) against closed loop (right). A closed-loop client has at most one attempt outstanding, so the server’s queue never holds more than the clients: during the drop they go at the server’s pace, and goodput is back at 600 a second as soon as the capacity is.',
  },
  {
    key: 'grpc-5',
    title: 'gRPC retry throttling at 5% failures: retries flow',
    summary: '100,000 jobs at 10,000 a second, 5% of attempts fail, 3 attempts, grpc:10:0.1: successes refill the tokens faster than failures take them.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 100_000, arrival: 'rate', perSecond: 10_000, outageMs: null, workers: 1000, maxAttempts: 3,
      backoff: 'none', baseMs: null, capMs: null, strategies: ['none'], failurePerMillion: 50_000, budgets: ['none', 'grpc:10:0.1'],
    },
    note: 'gRPC’s throttle (gRFC A6) takes a token per failure and gives back 0.1 per success; retries stop while the bucket is at half or less. At a failure share f the bucket drifts by (1 − f) × 0.1 − f per attempt: upwards below 0.1 / 1.1 ≈ 9.1%. At 5% it stays full and almost no retry is refused.',
  },
  {
    key: 'grpc-15',
    title: 'gRPC retry throttling at 15% failures: retries stop',
    summary: 'The same at 15% failures: past ratio / (1 + ratio) ≈ 9.1% the bucket empties and nearly every retry is refused.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 100_000, arrival: 'rate', perSecond: 10_000, outageMs: null, workers: 1000, maxAttempts: 3,
      backoff: 'none', baseMs: null, capMs: null, strategies: ['none'], failurePerMillion: 150_000, budgets: ['none', 'grpc:10:0.1'],
    },
    note: 'At 15% the bucket drifts down, sits at or under half, and nearly every retry is refused: the client sends about one attempt per job, whatever maxAttempts says. The jobs whose retry was refused go to the quarantine with reason budget.',
  },
  {
    key: 'aws-bucket',
    title: 'The AWS SDK retry quota: 100 retries from a full bucket',
    summary: '1,000 jobs through a minute-long outage, 3 attempts each, the AWS standard retry mode: 500 tokens at 5 a retry.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 1000, outageMs: 60_000, workers: 1000, maxAttempts: 3, backoff: 'none', baseMs: null, capMs: null,
      strategies: ['none'], budgets: ['none', 'aws-standard'],
    },
    note: 'A full bucket (500 tokens) pays for exactly 100 retries at 5 each; after that every retry is refused until successes refill it (1 token for a first-try success, 5 back for a successful retry). Without the quota every job retries twice: 3,000 attempts instead of 1,100.',
  },
  {
    key: 'open-closed-nobackoff',
    title: 'Overload, open vs closed loop, no backoff',
    summary: 'A dependency that takes 1,000 successes a second: 2,000 jobs a second that do not wait (open loop) beside 50 clients that do (closed loop), retrying at once.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 20_000, arrival: 'loops', perSecond: 2000, clients: 50, outageMs: null, perWindow: 100, windowMs: 100,
      workers: 100_000, maxAttempts: 5, backoff: 'none', baseMs: null, capMs: null, strategies: ['none'],
    },
    note: 'Amplification (attempts per job) without backoff: about 3.98 open loop, 3.33 closed loop. The next preset adds exponential backoff with full jitter ("What is backoff for?", Brooker 2022).',
  },
  {
    key: 'open-closed-backoff',
    title: 'Overload, open vs closed loop, with backoff',
    summary: 'The same overload with exponential backoff (100 ms to 5 s, full jitter): it barely helps the open loop, and more than halves the closed loop’s attempts per job.',
    scenario: {
      ...DEFAULT_SCENARIO, jobs: 20_000, arrival: 'loops', perSecond: 2000, clients: 50, outageMs: null, perWindow: 100, windowMs: 100,
      workers: 100_000, maxAttempts: 5, backoff: 'exponential', baseMs: 100, capMs: 5000, strategies: ['full'],
    },
    note: 'Backoff slows down clients that wait for their answer, so a closed loop sends less while the dependency is overloaded: amplification falls from 3.33 to about 1.42. Open-loop arrivals keep coming whatever the backoff: it only moves their retries later, and amplification stays near 3.8. Against an open loop a budget is what limits the work.',
  },
  {
    key: 'million',
    title: 'A million jobs',
    summary: 'The first preset at scale: 1,000,000 jobs and 100,000 workers through the same 5 s outage, four runs in the page’s worker.',
    scenario: { ...DEFAULT_SCENARIO, jobs: 1_000_000, workers: 100_000 },
  },
  {
    key: 'contention',
    title: 'The contention experiment',
    summary: 'N clients race to update one record with optimistic concurrency (10 to 190 clients): total calls and completion time per strategy.',
    contention: true,
    note: 'A model of its own (docs/contention.md), not the storm: each client updates one row once, a lost write is retried after the strategy’s backoff, with the published base of 5 ms and cap of 2 s; every point is the mean of {runs} runs from seed {seed}. The scenario form does not apply to it.',
  },
];

// ---- the link -------------------------------------------------------------

/** The format tags: a storm scenario (`#s1;…`) and the contention experiment (`#c1;…`). */
const STORM_TAG = 's1';
const CONTENTION_TAG = 'c1';

const num = (n) => (n === null || n === undefined ? '' : String(n));

/**
 * The scenario as link text (no '#'): `s1;n=10000;a=b;o=0:5000;c=-;w=500;t=20;l=30000;m=12;b=e:100:10000;r=1;j=nfed`,
 * then Storm lab II's fields, each written only when it is not its default (so a scenario without
 * them has the link it always had): p (failures per million), g (budgets), q (refused retry),
 * s (server), d (its capacity drop).
 */
export function formatStormLink(s) {
  const arrival = s.arrival === 'burst' ? 'b'
    : s.arrival === 'closed' ? `c${num(s.clients)}`
      : s.arrival === 'loops' ? `l${num(s.perSecond)}:${num(s.clients)}`
        : `${s.arrival === 'rate' ? 'r' : 'x'}${num(s.perSecond)}`;
  const outage = s.outageMs === null ? '-' : `${num(s.outageStartMs)}:${num(s.outageMs)}`;
  const capacity = s.perWindow === null ? '-' : `${num(s.perWindow)}:${num(s.windowMs)}`;
  const backoff = [BACKOFF_LETTERS[s.backoff], num(s.baseMs), num(s.capMs)].join(':').replace(/:+$/, '');
  const strategies = Object.keys(STRATEGY_LETTERS).filter((k) => s.strategies.includes(k)).map((k) => STRATEGY_LETTERS[k]).join('');
  const fields = [STORM_TAG, `n=${num(s.jobs)}`, `a=${arrival}`, `o=${outage}`, `c=${capacity}`, `w=${num(s.workers)}`,
    `t=${num(s.workMs)}`, `l=${num(s.leaseMs)}`, `m=${num(s.maxAttempts)}`, `b=${backoff}`, `r=${num(s.seed)}`,
    `j=${strategies}`];
  const d = DEFAULT_SCENARIO;
  if (s.failurePerMillion !== d.failurePerMillion) fields.push(`p=${num(s.failurePerMillion)}`);
  const budgets = s.budgets ?? d.budgets;
  if (budgets.join(',') !== d.budgets.join(',')) fields.push(`g=${budgets.map((b) => (b === 'none' ? '-' : b)).join(',')}`);
  if ((s.refusedRetry ?? d.refusedRetry) !== d.refusedRetry) fields.push(`q=${s.refusedRetry === 'fail' ? 'f' : 'q'}`);
  if (s.serverPerSecond !== null && s.serverPerSecond !== undefined) {
    fields.push(`s=${num(s.serverPerSecond)}:${num(s.timeoutMs)}`);
    if (s.dropMs) fields.push(`d=${num(s.dropStartMs)}:${num(s.dropMs)}:${num(s.dropPerSecond)}`);
  }
  return fields.join(';');
}

/** The contention experiment as link text: `c1;r=1;k=20` (seed, runs). */
export function formatContentionLink(c) {
  return [CONTENTION_TAG, `r=${num(c.seed)}`, `k=${num(c.runs)}`].join(';');
}

/** Is this fragment (without '#') one of the storm lab's links? */
export function isStormLink(text) {
  return /^[sc][0-9]+;/.test(text) || text === STORM_TAG || text === CONTENTION_TAG;
}

class LinkError extends Error {}

/** A value as a refusal quotes it: in double quotes, cut to its first 40 characters (a link may be megabytes long). */
export function quoteShort(text) {
  const chars = [...text];
  return chars.length > 40 ? `${JSON.stringify(chars.slice(0, 40).join(''))}… (${chars.length} characters)` : JSON.stringify(text);
}

/** A field name as a refusal names it (unquoted), cut to its first 40 characters. */
const cutShort = (text) => ([...text].length > 40 ? `${[...text].slice(0, 40).join('')}…` : text);

/**
 * True for integer text that no JavaScript number holds exactly (beyond ±(2^53 - 1)):
 * it is refused as written, before Number() rounds it to a neighbour.
 */
export function isInexactInteger(text) {
  return /^-?[0-9]+$/.test(text) && !Number.isSafeInteger(Number(text));
}

/** `<name> must be …, got <text as written>`: the refusal of integer text that isInexactInteger. */
export function inexactIntegerMessage(name, text) {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `${name} must be an integer from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} `
    + `(a larger one cannot be held exactly), got ${shown}`;
}

/** An integer field of the link, or null for an empty one; anything else is refused by name. */
function integer(name, text) {
  if (text === '') return null;
  if (!/^-?[0-9]{1,16}$/.test(text)) throw new LinkError(`${name}: expected an integer, got ${quoteShort(text)}`);
  // Checked as text: Number('9007199254740993') is 9007199254740992, which a range check would then quote.
  if (isInexactInteger(text)) {
    throw new LinkError(`${name}: expected an integer from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} `
      + `(a larger one cannot be held exactly), got "${text}"`);
  }
  return Number(text);
}

/** The link's name=value parts as a Map (values URL-decoded); a malformed or repeated part is refused. */
function linkFields(parts) {
  const fields = new Map();
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 1) throw new LinkError(`${quoteShort(part)}: expected name=value`);
    const key = part.slice(0, eq);
    if (fields.has(key)) throw new LinkError(`${cutShort(key)}: given twice`);
    let value;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      throw new LinkError(`${cutShort(key)}: not a valid URL encoding`);
    }
    fields.set(key, value);
  }
  return fields;
}

/** a=: b, r<per second>, x<per second>, c<clients> or l<per second>:<clients>. */
function readArrival(s, v) {
  if (v === 'b') { s.arrival = 'burst'; return; }
  const loops = /^l([^:]*):([^:]*)$/.exec(v);
  if (loops) {
    s.arrival = 'loops';
    s.perSecond = integer('a (jobs per second)', loops[1]);
    s.clients = integer('a (clients)', loops[2]);
    return;
  }
  const m = /^([rxc])([^:]*)$/.exec(v);
  if (!m) {
    throw new LinkError(`a (arrival): expected b, r<per second>, x<per second>, c<clients> or l<per second>:<clients>, got ${quoteShort(v)}`);
  }
  if (m[1] === 'c') {
    s.arrival = 'closed';
    s.clients = integer('a (clients)', m[2]);
    return;
  }
  s.arrival = m[1] === 'r' ? 'rate' : 'both';
  s.perSecond = integer('a (jobs per second)', m[2]);
}

/** Two integers joined by ":" (o=, c=, s=). */
function pair(name, v) {
  const m = /^([^:]*):([^:]*)$/.exec(v);
  if (!m) throw new LinkError(`${name}: expected -, or two numbers joined by ":", got ${quoteShort(v)}`);
  return [integer(name, m[1]), integer(name, m[2])];
}

/** b=: a backoff letter and up to two numbers (base, cap). */
function readBackoffField(s, v) {
  const [kind, base = '', cap = '', ...rest] = v.split(':');
  const found = Object.keys(BACKOFF_LETTERS).find((k) => BACKOFF_LETTERS[k] === kind);
  if (!found || rest.length > 0) throw new LinkError(`b (backoff): expected n, f or e and up to two numbers, got ${quoteShort(v)}`);
  s.backoff = found;
  s.baseMs = integer('b (base delay)', base);
  s.capMs = integer('b (cap)', cap);
}

/** j=: strategy letters, each once. */
function readStrategies(s, v) {
  const letters = [...v];
  const strategies = Object.keys(STRATEGY_LETTERS).filter((k) => letters.includes(STRATEGY_LETTERS[k]));
  if (strategies.length !== letters.length || new Set(letters).size !== letters.length) {
    throw new LinkError(`j (strategies): expected letters from n, f, e, d, got ${quoteShort(v)}`);
  }
  s.strategies = strategies;
}

/** g=: budgets joined by ",", each once ("-": none). */
function readBudgets(s, v) {
  // Each budget's text is the core's to read (a wrong one is refused by the core, by name, when it runs).
  const budgets = v.split(',').map((b) => (b === '-' ? 'none' : b));
  if (budgets.some((b) => b === '') || new Set(budgets).size !== budgets.length) {
    throw new LinkError(`g (budgets): expected budgets joined by ",", each once ("-" for none), got ${quoteShort(v)}`);
  }
  s.budgets = budgets;
}

/** d=: the capacity drop's start, length and rate. */
function readDrop(s, v) {
  const m = /^([^:]*):([^:]*):([^:]*)$/.exec(v);
  if (!m) throw new LinkError(`d (capacity drop): expected three numbers joined by ":", got ${quoteShort(v)}`);
  s.dropStartMs = integer('d (capacity drop)', m[1]);
  s.dropMs = integer('d (capacity drop)', m[2]);
  s.dropPerSecond = integer('d (capacity drop)', m[3]);
}

// A storm link's fields, each with its reader, in the order they are read (the
// first refusal a link meets is the first field's in this order).
const STORM_LINK_FIELDS = [
  ['n', (s, v) => { s.jobs = integer('n (jobs)', v); }],
  ['a', readArrival],
  ['o', (s, v) => { if (v === '-') s.outageMs = null; else [s.outageStartMs, s.outageMs] = pair('o (outage)', v); }],
  ['c', (s, v) => { if (v === '-') s.perWindow = null; else [s.perWindow, s.windowMs] = pair('c (capacity)', v); }],
  ['w', (s, v) => { s.workers = integer('w (workers)', v); }],
  ['t', (s, v) => { s.workMs = integer('t (work time)', v); }],
  ['l', (s, v) => { s.leaseMs = integer('l (lease time)', v); }],
  ['m', (s, v) => { s.maxAttempts = integer('m (max attempts)', v); }],
  ['b', readBackoffField],
  ['r', (s, v) => { s.seed = integer('r (seed)', v); }],
  ['j', readStrategies],
  ['p', (s, v) => { s.failurePerMillion = integer('p (failures per million)', v); }],
  ['g', readBudgets],
  ['q', (s, v) => {
    if (v !== 'q' && v !== 'f') throw new LinkError(`q (refused retry): expected q (quarantine) or f (fail), got ${quoteShort(v)}`);
    s.refusedRetry = v === 'f' ? 'fail' : 'quarantine';
  }],
  ['s', (s, v) => { [s.serverPerSecond, s.timeoutMs] = pair('s (server)', v); }],
  ['d', readDrop],
];
const CONTENTION_LINK_FIELDS = [
  ['r', (c, v) => { c.seed = integer('r (seed)', v); }],
  ['k', (c, v) => { c.runs = integer('k (runs)', v); }],
];

/** Reads each field of `table` present in `fields` into `into`, in the table's order; a field left over is refused. */
function readLinkFields(fields, table, into) {
  for (const [key, read] of table) {
    if (fields.has(key)) read(into, fields.get(key));
    fields.delete(key);
  }
  if (fields.size > 0) throw new LinkError(`unknown field ${cutShort([...fields.keys()][0])}`);
  return into;
}

/**
 * Reads link text (no '#'): { kind: 'storm', scenario } or { kind: 'contention', contention }.
 * Throws an Error naming the field for text it cannot read; a missing field keeps its default.
 */
export function parseStormLink(text) {
  const [tag, ...parts] = text.split(';');
  const fields = linkFields(parts);
  if (tag === CONTENTION_TAG) {
    return { kind: 'contention', contention: readLinkFields(fields, CONTENTION_LINK_FIELDS, { ...CONTENTION_DEFAULTS }) };
  }
  if (tag !== STORM_TAG) throw new LinkError(`${quoteShort(tag)}: this page reads ${STORM_TAG} and ${CONTENTION_TAG} links`);
  const s = { ...DEFAULT_SCENARIO, strategies: [...DEFAULT_SCENARIO.strategies], budgets: [...DEFAULT_SCENARIO.budgets] };
  return { kind: 'storm', scenario: readLinkFields(fields, STORM_LINK_FIELDS, s) };
}

// ---- from a scenario to the core's options ---------------------------------

/**
 * The core's StormOptions for one strategy, arrival pattern ('burst', 'rate' or 'closed') and
 * budget (its text, or 'none'); blank fields are left out (the core's default).
 */
export function stormOptions(s, strategy, arrival = s.arrival, budget = (s.budgets ?? ['none'])[0]) {
  const options = { jobs: s.jobs };
  const set = (key, value) => { if (value !== null && value !== undefined) options[key] = value; };
  options.arrival = arrival === 'burst' ? { kind: 'burst' }
    : arrival === 'closed' ? { kind: 'closed', clients: s.clients } : { kind: 'rate', perSecond: s.perSecond };
  options.outage = s.outageMs === null ? null : { startMs: s.outageStartMs ?? 0, durationMs: s.outageMs };
  options.capacity = s.perWindow === null ? null : { perWindow: s.perWindow, windowMs: s.windowMs };
  if (s.failurePerMillion) options.failurePerMillion = s.failurePerMillion;
  if (budget !== 'none') {
    options.budget = budget;
    if (s.refusedRetry && s.refusedRetry !== 'quarantine') options.refusedRetry = s.refusedRetry;
  }
  if (s.serverPerSecond !== null && s.serverPerSecond !== undefined) {
    options.server = { capacityPerSecond: s.serverPerSecond, timeoutMs: s.timeoutMs };
    if (s.dropMs) Object.assign(options.server, { dropStartMs: s.dropStartMs ?? 0, dropMs: s.dropMs, dropPerSecond: s.dropPerSecond ?? 0 });
  }
  set('workers', s.workers);
  set('workMs', s.workMs);
  set('leaseMs', s.leaseMs);
  options.maxAttempts = s.maxAttempts;
  const backoff = { kind: s.backoff };
  if (s.backoff !== 'none') {
    if (s.baseMs !== null) backoff.baseMs = s.baseMs;
    if (s.capMs !== null) backoff.capMs = s.capMs;
  }
  backoff.jitter = strategy;
  options.backoff = backoff;
  set('seed', s.seed);
  return options;
}

/**
 * The runs one scenario makes, in order: [{ key, label, strategy, arrival, options }].
 * One per chosen strategy, in the core's order (`jitters`: coreLists().jitters);
 * with arrival 'both', one per strategy and pattern.
 */
export function stormRuns(s, jitters) {
  const runs = [];
  const budgets = s.budgets ?? ['none'];
  const paired = s.arrival === 'both' || s.arrival === 'loops';
  const arrivals = s.arrival === 'both' ? ['burst', 'rate'] : s.arrival === 'loops' ? ['rate', 'closed'] : [s.arrival];
  const patternOf = (arrival) => (arrival === 'burst' ? 'all at once'
    : arrival === 'closed' ? `closed loop, ${s.clients?.toLocaleString('en-US') ?? '?'} clients`
      : `${s.arrival === 'loops' ? 'open loop, ' : ''}${s.perSecond?.toLocaleString('en-US') ?? '?'} a second`);
  for (const strategy of jitters.filter((k) => s.strategies.includes(k))) {
    for (const arrival of arrivals) {
      for (const [b, budget] of budgets.entries()) {
        const key = [strategy, ...(paired ? [arrival] : []), ...(budgets.length > 1 ? [`b${b}`] : [])].join('-');
        const label = [STRATEGY_LABELS[strategy], ...(paired ? [patternOf(arrival)] : []),
          ...(budgets.length > 1 || budget !== 'none' ? [budget === 'none' ? 'no budget' : `budget ${budget}`] : [])].join(', ');
        runs.push({ key, label, strategy, arrival, budget, options: stormOptions(s, strategy, arrival, budget) });
      }
    }
  }
  return runs;
}

// ---- what a scenario will cost: the core's bound, this page's guard -----------

/**
 * Each run's bound, from the core (`stormCost`: sim.stormCost): { attempts, horizonMs },
 * or { refused, code } with the core's refusal of the run's options (nothing would run).
 */
export function runCosts(runs, stormCost) {
  return runs.map((run) => {
    try {
      return stormCost(run.options);
    } catch (error) {
      return { refused: String(error?.message ?? error), code: error?.code ?? 'error' };
    }
  });
}

/**
 * What a scenario's runs cost together, from runCosts(): { runs, attempts, perRun:
 * [attempts…], horizonMs, autoRun }. `attempts` is the sum over the runs, or null when
 * the core bounds one of them by nothing (it refused its options); perRun holds null
 * there. `autoRun`: a link may start it by itself (at most AUTO_RUN_MAX_ATTEMPTS).
 */
export function totalStormCost(costs) {
  const perRun = costs.map((c) => (c.refused === undefined ? c.attempts : null));
  const attempts = perRun.includes(null) ? null : perRun.reduce((a, b) => a + b, 0);
  const horizons = costs.map((c) => (c.refused === undefined ? c.horizonMs : null));
  const horizonMs = horizons.length === 0 || horizons.includes(null) ? null : Math.max(...horizons);
  return { runs: costs.length, attempts, perRun, horizonMs, autoRun: attempts !== null && attempts <= AUTO_RUN_MAX_ATTEMPTS };
}

/**
 * The contention guard on the core's cost (sim.contentionCost: { runs, calls }, or
 * { refused } as runCosts gives it): { runs, calls, autoRun }. A refused one costs
 * nothing: it runs, and the core's refusal is shown.
 */
export function contentionGuard(cost) {
  if (cost.refused !== undefined) return { runs: null, calls: 0, autoRun: true };
  return { runs: cost.runs, calls: cost.calls, autoRun: cost.calls <= AUTO_RUN_MAX_CONTENTION_CALLS };
}
