// @ts-check
// Reading an edited config snippet back for "Apply to playground": from a snippet
// that shared/snippets.mjs generated, and the reader then edited, the part the
// import dialog's parser reads (import.mjs), in that parser's own format, so an
// Apply goes through importConfig exactly like a paste. No DOM; an object is read by
// the core's reader (import.mjs's readObjectText), as a paste is.
//
// The contract: readBack(key, edited, generated) returns
//   { ok: true, config, part, keep }
//     config: the text to hand to importConfig;
//     part:   what was read, in the snippet's words ("jobOptions");
//     keep:   policy fields the snippet carries where the parser does not read (the
//             playground keeps its own for them: the import would set a default);
//   or { ok: false, refusals: [{ key, expected, given, message }] }, as import.mjs refuses.
// Every edit outside the part read back is refused by name (its line, or its JSON
// path): an edit is applied whole or not at all, never dropped silently. The text is
// refused by its length first, and every pattern here is linear in it.
import { isolated, quoted } from '../shared/quote.mjs';
import { readObjectText } from './import.mjs';

/** The longest snippet read back: a generated one is a few kilobytes. */
export const MAX_SNIPPET_CHARS = 65_536;

function refusal(key, expected, given, why = '') {
  const name = isolated(key);  // a JSON path can be the reader's own
  const message = why === '' ? `${name}: expected ${expected}, got ${given}` : `${name} ${why}: expected ${expected}, got ${given}`;
  return { key, expected, given, message };
}

/** The most refusals said for edits outside the part read back (the first ones, in order). */
const MAX_OUTSIDE = 3;

const lines = (text) => text.replace(/\r\n?/g, '\n').split('\n');

/**
 * A line-based part: `find(lines)` gives [first, last] line indexes of the part, or null;
 * `read(partLines)` gives { config, keep? } (or throws a SnippetError).
 */
function lineSnippet({ part, expected, find, read }) {
  return (edited, generated) => {
    const e = lines(edited);
    const g = lines(generated);
    const at = find(e);
    const was = find(g);
    if (at === null) return { ok: false, refusals: [refusal(part, expected, 'none', 'is missing')] };
    if (was === null) throw new Error(`snippet-readback: the generated snippet has no ${part}`);
    const outside = [];
    const compare = (edits, gens, lineOf) => {
      for (let i = 0; i < Math.max(edits.length, gens.length) && outside.length < MAX_OUTSIDE; i++) {
        if (edits[i] === gens[i]) continue;
        outside.push(refusal(`line ${lineOf(i)}`, gens[i] === undefined ? 'no line (as generated)' : `${quoted(gens[i])} (as generated)`,
          edits[i] === undefined ? 'no line' : quoted(edits[i]), `is outside ${part}, the only part Apply reads back`));
      }
    };
    compare(e.slice(0, at[0]), g.slice(0, was[0]), (i) => i + 1);
    // After the part, line by line from its end (a part that grew or shrank moves the lines after it).
    compare(e.slice(at[1] + 1), g.slice(was[1] + 1), (i) => at[1] + 2 + i);
    if (outside.length > 0) return { ok: false, refusals: outside };
    try {
      return { ok: true, part, keep: [], ...read(e.slice(at[0], at[1] + 1)) };
    } catch (error) {
      if (!(error instanceof SnippetError)) throw error;
      return { ok: false, refusals: [refusal(part, expected, error.given, error.why)] };
    }
  };
}

class SnippetError extends Error {
  constructor(why, given) {
    super(why);
    this.why = why;
    this.given = given;
  }
}

const indexOf = (list, test, from = 0) => {
  for (let i = from; i < list.length; i++) if (test(list[i])) return i;
  return -1;
};

// BullMQ: the `const jobOptions = { … };` block, a JavaScript object literal (comments,
// unquoted keys, single quotes, trailing commas), read by the core's object-text reader (JSON5) and passed on as JSON.
// `backoff: { type: 'custom' }` is the worker's backoffStrategy, which the parser does not
// read (the lab's capped delay, jitter or a class's own budget): the playground keeps its backoff.
const CUSTOM = JSON.stringify({ type: 'custom' });
const bullmq = lineSnippet({
  part: 'jobOptions',
  expected: 'the snippet\'s "const jobOptions = { … };" with plain values (numbers, strings, true/false, objects)',
  find(list) {
    const first = indexOf(list, (l) => /^const jobOptions = \{/.test(l));
    if (first < 0) return null;
    const last = indexOf(list, (l) => /^\};\s*$/.test(l), first);
    return last < 0 ? null : [first, last];
  },
  read(part) {
    const literal = part.join('\n').replace(/^const jobOptions = /, '').replace(/;\s*$/, '');
    const read = readObjectText(literal, 'jobOptions');
    if (!read.ok && read.refusal.why === 'is not JSON') {
      throw new SnippetError(`is not a plain object literal (${read.refusal.detail})`, quoted(literal));
    }
    if (!read.ok) throw new SnippetError(`${read.refusal.key === 'jobOptions' ? '' : `has ${read.refusal.key}, which `}${read.refusal.why}`, read.refusal.given);
    const options = read.value;
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new SnippetError('is not an object', quoted(options));
    }
    if (JSON.stringify(options.backoff) !== CUSTOM) return { config: JSON.stringify(options) };
    const { backoff, ...rest } = options;
    return { config: JSON.stringify(rest), keep: ['backoff'] };
  },
});

// Sidekiq: the one `sidekiq_options …` line. Its delays are the sidekiq_retry_in block,
// which the parser does not read, so the playground keeps its backoff, whether 6.4.1's
// jitter is added to it (retryInJitter) and whether a class may skip retries (retryEveryError).
const sidekiq = lineSnippet({
  part: 'sidekiq_options',
  expected: 'the snippet\'s "sidekiq_options retry: N" line',
  find(list) {
    const at = indexOf(list, (l) => /^\s*sidekiq_options\b/.test(l));
    return at < 0 ? null : [at, at];
  },
  read: (part) => ({ config: part[0].trim(), keep: ['backoff', 'retryInJitter', 'retryEveryError'] }),
});

// RabbitMQ: the definition of the orders-retry policy, the last single-quoted word of its
// `rabbitmqctl … set_policy … orders-retry …` line.
const rabbitmq = lineSnippet({
  part: 'the orders-retry policy definition',
  expected: 'the snippet\'s "rabbitmqctl … set_policy … orders-retry \'^orders$\' \'{…}\'" line',
  find(list) {
    // Three separate tests, each linear (one pattern with two .* would be quadratic in a long line).
    const at = indexOf(list, (l) => /^\s*rabbitmqctl\b/.test(l) && /\bset_policy\b/.test(l) && /\sorders-retry\s/.test(l));
    return at < 0 ? null : [at, at];
  },
  read(part) {
    const m = /'([^']*)'\s*$/.exec(part[0]);
    if (!m) throw new SnippetError('has no single-quoted JSON definition at its end', quoted(part[0]));
    return { config: m[1] };
  },
});

// SQS: the CloudFormation template. Apply reads the source queue's VisibilityTimeout and
// RedrivePolicy (the attributes the parser reads); every other value must be as generated.
// The source queue's MessageRetentionPeriod is not the lab's retention (the DLQ's is, counted
// from the original enqueue time), so the playground keeps its quarantine.
const SQS_QUEUE = ['Resources', 'OrdersQueue', 'Properties'];
const SQS_READ = ['VisibilityTimeout', 'RedrivePolicy'];

/** Every leaf of plain JSON data as [path, value]; an empty object or array is a leaf. */
function leaves(value, path = [], out = []) {
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  } else {
    out.push([path, value]);
  }
  return out;
}

// A JSON template snippet (SQS's CloudFormation, Service Bus's ARM): the keys `read` of the
// object at `at` are read back as `config(object)`; every other value must be as generated.
function templateSnippet({ at, read: readKeys, what, config, keep }) {
  return (edited, generated) => {
    const part = `${at.join('.')}.{${readKeys.join(', ')}}`;
    const read = readObjectText(edited, 'template');
    if (!read.ok && read.refusal.why === 'is not JSON') {
      return { ok: false, refusals: [refusal('template', `the snippet's ${what} as JSON`, 'text that is not JSON', `(${read.refusal.detail})`)] };
    }
    if (!read.ok) {
      const r = read.refusal;
      return { ok: false, refusals: [refusal(r.key, r.expected, r.given, r.why)] };
    }
    const template = read.value;
    const queue = at.reduce((v, k) => (v !== null && typeof v === 'object' ? v[k] : undefined), template);
    if (queue === null || typeof queue !== 'object' || Array.isArray(queue)) {
      return { ok: false, refusals: [refusal(at.join('.'), 'the orders queue\'s properties (an object)', quoted(queue ?? 'none'), 'is missing')] };
    }
    const isRead = (path) => at.every((k, i) => path[i] === k) && readKeys.includes(path[at.length]);
    const mine = new Map(leaves(template).filter(([p]) => !isRead(p)).map(([p, v]) => [p.join('.'), v]));
    const theirs = new Map(leaves(JSON.parse(generated)).filter(([p]) => !isRead(p)).map(([p, v]) => [p.join('.'), v]));
    const outside = [];
    for (const key of new Set([...theirs.keys(), ...mine.keys()])) {
      if (outside.length >= MAX_OUTSIDE) break;
      const [a, b] = [mine.get(key), theirs.get(key)];
      if (JSON.stringify(a) === JSON.stringify(b)) continue;
      outside.push(refusal(key, b === undefined ? 'it absent (as generated)' : `${quoted(b)} (as generated)`,
        a === undefined ? 'none' : quoted(a), `is outside ${part}, the only part Apply reads back`));
    }
    if (outside.length > 0) return { ok: false, refusals: outside };
    const given = Object.fromEntries(readKeys.filter((k) => k in queue).map((k) => [k, queue[k]]));
    return { ok: true, config: JSON.stringify(config(given, template)), part, keep };
  };
}

const sqs = templateSnippet({ at: SQS_QUEUE, read: SQS_READ, what: 'CloudFormation template', config: (attributes) => attributes, keep: ['quarantine'] });

// Azure Service Bus: the ARM template. Apply reads the queue's maxDeliveryCount, lockDuration and
// requiresSession, handed to the import as the queue resource (the core tells it by its type).
const SERVICE_BUS_QUEUE = ['resources', '0', 'properties'];
const SERVICE_BUS_READ = ['maxDeliveryCount', 'lockDuration', 'requiresSession'];
const servicebus = templateSnippet({
  at: SERVICE_BUS_QUEUE, read: SERVICE_BUS_READ, what: 'ARM template',
  config: (properties, template) => ({ type: template.resources[0].type, properties }), keep: [],
});

// Google Cloud Pub/Sub: the `gcloud pubsub subscriptions create` commands, from the first one
// to the end of the last (its `\` continuation lines included): the dead-letter topic's
// subscription, if any, then orders-sub with its flags. The reader skips the comments
// between them; the topic and the IAM bindings around them must be as generated.
const GCLOUD_CREATE = /^gcloud pubsub subscriptions create\b/;
const pubsub = lineSnippet({
  part: 'the gcloud pubsub subscriptions create commands',
  expected: 'the snippet\'s "gcloud pubsub subscriptions create …" commands',
  find(list) {
    const first = indexOf(list, (l) => GCLOUD_CREATE.test(l));
    if (first < 0) return null;
    let last = first;
    for (let i = first; i < list.length; i++) {
      if (!GCLOUD_CREATE.test(list[i])) continue;
      last = i;
      while (last + 1 < list.length && /\\\s*$/.test(list[last])) last += 1;  // its continuation lines
    }
    return [first, last];
  },
  read: (part) => ({ config: part.join('\n') }),
});

// Spring Kafka: the Java code after the snippet's leading // comments (the policy and its notes),
// imports included: the reader takes @RetryableTopic's arguments or the DefaultErrorHandler bean's
// BackOff and recoverer from it; the leading comments must be as generated.
const kafka = lineSnippet({
  part: 'the Java code',
  expected: 'the snippet\'s Java code (a @RetryableTopic listener or a DefaultErrorHandler bean)',
  find(list) {
    const first = indexOf(list, (l) => !/^\s*\/\//.test(l));
    if (first < 0) return null;
    let last = list.length - 1;
    while (last > first && list[last].trim() === '') last -= 1;
    return [first, last];
  },
  read: (part) => ({ config: part.join('\n') }),
});

const READERS = { bullmq, sidekiq, rabbitmq, sqs, servicebus, pubsub, kafka };

/** True when a snippet system's snippet can be read back (import.mjs reads its format). */
export function canReadBack(key) {
  return Object.hasOwn(READERS, key);
}

/** The edited snippet's part the import reads, or why not (see the module's comment). */
export function readBack(key, edited, generated) {
  if (!canReadBack(key)) {
    return { ok: false, refusals: [refusal('system', `one of ${Object.keys(READERS).join(', ')} (the snippets the import reads)`, quoted(key), 'has no import')] };
  }
  if (typeof edited !== 'string') return { ok: false, refusals: [refusal('snippet', 'text', quoted(edited))] };
  if (edited.length > MAX_SNIPPET_CHARS) {
    return { ok: false, refusals: [refusal('snippet', `at most ${MAX_SNIPPET_CHARS.toLocaleString('en')} characters`,
      `${edited.length.toLocaleString('en')}`, 'is too long')] };
  }
  return READERS[key](edited, generated);
}
