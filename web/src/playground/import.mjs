// "Import a broker's config…": one broker's retry and dead-letter settings, pasted
// as text, translated into the lab's terms: a system mode and the policy fields
// that config determines. Pure: no DOM, no core. The core still checks every
// value (its ranges and rules) when the controller applies the result as one
// set-up change; this module only reads the broker's own format.
//
// Four formats, told apart by their shape (docs/playground.md, "Import"):
//   BullMQ   job options as JSON or as the JavaScript object literal code has
//            ({ attempts: 3, backoff: { type: 'exponential', delay: 1000 }, }); every
//            object is read by object-text.mjs (JSON5, a key given twice refused, nesting bounded)
//   SQS      queue attributes as `aws sqs get-queue-attributes` prints them ({"Attributes":{…}}
//            or the attributes alone): RedrivePolicy, VisibilityTimeout, MessageRetentionPeriod; with
//            options.dlqRetention (the dead-letter queue's MessageRetentionPeriod) the attributes'
//            own retention is the source queue's
//   Sidekiq  one `sidekiq_options retry: 5, queue: "default"` line
//   RabbitMQ a policy definition JSON ({"delivery-limit":20,"dead-letter-exchange":"dlx"}; no
//            dead-letter-exchange: deadLetterExchange none, a dead letter is dropped; max-length with
//            overflow drop-head, the default: maxLength; message-ttl: messageTtlMs),
//            or a policy as `rabbitmqctl list_policies --formatter json` gives it ({…,"definition":{…}})
//
// The contract: importConfig(text, { dlqRetention }) returns
//   { ok: true, format, system, policy, set, ignored }
//     policy: the fields to change ({ maxAttempts, backoff, leaseMs?, quarantine?, and a mode's own:
//             maxStalledCount?, deliveryLimit? }; backoff and
//             quarantine are partial: the controller merges them over the policy in force);
//     set:    [{ field, value, from }] every field set, leaf by leaf, with the broker's setting it came from;
//     ignored:[{ key, why }] keys read that change nothing in the lab (read-only counters, names);
//   or { ok: false, format, refusals: [{ key, expected, given, message }] }: every key the lab cannot
//   express, by name. A refusal changes nothing. Every value a message echoes is quoted (or isolated)
//   by shared/quote.mjs, so no value turns the sentence around it. Every reader is linear in the text.
import { isolated, quoted } from '../shared/quote.mjs';
import { readObjectText } from './object-text.mjs';

/** The most text the dialog reads: a queue's attributes or a policy are a few hundred bytes. */
export const MAX_IMPORT_CHARS = 65_536;
/** The longest sidekiq_options line read (refused by its length before it is read): real ones are one short line. */
export const MAX_SIDEKIQ_CHARS = 1024;

export const FORMATS = {
  bullmq: 'BullMQ job options',
  sqs: 'Amazon SQS queue attributes',
  sidekiq: 'Sidekiq sidekiq_options',
  rabbitmq: 'RabbitMQ policy definition',
};

const DAY_MS = 86_400_000;

function refusal(key, expected, given, why = '') {
  const name = isolated(key);  // a key can be the reader's own (an unknown one)
  const message = why === '' ? `${name}: expected ${expected}, got ${given}` : `${name} ${why}: expected ${expected}, got ${given}`;
  return { key, expected, given, message };
}

/** `key` is a setting the lab has no counterpart for; `given`: the value as the format spells it. */
const notModelled = (key, given, detail, expected = 'it absent') =>
  refusal(key, expected, given, `is not modelled by the lab${detail ? ` (${detail})` : ''}`);

/** Collects one import's settings, ignored keys and refusals; `result()` gives importConfig's answer. */
class Translation {
  constructor(format, system) {
    this.format = format;
    this.system = system;
    this.policy = {};
    this.set = [];
    this.ignored = [];
    this.refusals = [];
  }

  /** Sets `field` ("backoff.kind") to `value`, naming the broker setting it came from. */
  to(field, value, from) {
    const [group, leaf] = field.split('.');
    if (leaf === undefined) this.policy[group] = value;
    else this.policy[group] = { ...this.policy[group], [leaf]: value };
    this.set.push({ field, value, from });
  }

  ignore(key, why) { this.ignored.push({ key, why }); }
  refuse(r) { this.refusals.push(r); }

  result() {
    if (this.refusals.length > 0) return { ok: false, format: this.format, refusals: this.refusals };
    return { ok: true, format: this.format, system: this.system, policy: this.policy, set: this.set, ignored: this.ignored };
  }
}

const refused = (format, ...refusals) => ({ ok: false, format, refusals });
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isWhole = (v) => Number.isSafeInteger(v);

/** A whole number from `text` as SQS prints it ("30") or as a number; NaN otherwise. */
function wholeOf(v) {
  if (typeof v === 'number') return isWhole(v) ? v : NaN;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return NaN;
}

/** The lab's backoff for a broker that has none at the broker: requeue at once (the mode decides where and when). */
function noBackoff(t, from) {
  t.to('backoff.kind', 'none', from);
  t.to('backoff.jitter', 'none', from);
}

// ---- BullMQ ------------------------------------------------------------------

// BullMQ 6's JobsOptions (src/interfaces/base-job-options.ts, job-options.ts) and the Worker's
// own options a reader might paste with them.
const BULLMQ_JOB_KEYS = new Set(['attempts', 'backoff', 'removeOnFail', 'removeOnComplete', 'lifo', 'delay', 'priority',
  'jobId', 'repeat', 'repeatJobKey', 'timestamp', 'parent', 'keepLogs', 'stackTraceLimit', 'sizeLimit', 'rateLimiterKey',
  'prevMillis', 'failParentOnFailure', 'ignoreDependencyOnFailure', 'removeDependencyOnFailure', 'continueParentOnFailure',
  'deduplication', 'debounce', 'telemetry']);
const BULLMQ_WORKER_KEYS = new Set(['maxStalledCount', 'stalledInterval', 'lockDuration', 'concurrency', 'limiter']);
// Job options with no bearing on retries or the failed set: read, and listed as changing nothing.
const BULLMQ_NO_BEARING = {
  jobId: 'names the job; the lab names its jobs itself',
  timestamp: 'when the job was created; the lab\'s clock starts at 0',
  keepLogs: 'how many log lines the job keeps',
  stackTraceLimit: 'how many stack frames a failure keeps; the lab keeps the last error\'s text',
  sizeLimit: 'the most data a job may carry, checked when it is added',
  telemetry: 'tracing metadata',
};

function bullmq(options) {
  const t = new Translation('bullmq', 'bullmq');
  for (const [key, value] of Object.entries(options)) {
    switch (key) {
      case 'attempts':
      case 'backoff':
        break;
      case 'removeOnFail':
        // The bullmq mode plays an age lazily, as BullMQ does: a later failure trims the failed set.
        // A count N is removeOnFailCount: each failure keeps the newest N (BullMQ's removeJobsByMaxCount).
        if (value === false) t.ignore(key, 'false: BullMQ keeps failed jobs, as the lab keeps its quarantine');
        else if (isWhole(value) && value >= 1) {
          t.to('removeOnFailCount', value, `removeOnFail ${value} (each failure keeps the newest ${value} failed jobs)`);
          t.to('removeOnFail', false, `removeOnFail ${value} (a count, so not true: failed jobs are kept, the newest ${value})`);
        } else if (isObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k === 'age' || k === 'count') &&
            (value.age === undefined || (isWhole(value.age) && value.age >= 1)) && (value.count === undefined || (isWhole(value.count) && value.count >= 1))) {
          if (value.age !== undefined) t.to('quarantine.retentionMs', value.age * 1000, `removeOnFail { age: ${value.age} } (seconds; evicted when a later job fails)`);
          if (value.count !== undefined) t.to('removeOnFailCount', value.count, `removeOnFail { count: ${value.count} } (each failure keeps the newest ${value.count})`);
          t.to('removeOnFail', false, 'removeOnFail { age, count } (not true: failed jobs are kept until then)');
        } else if (value === true) {
          t.to('removeOnFail', true, 'removeOnFail true (a job that fails for good is removed: dropped, no entry)');
          t.to('removeOnFailCount', 0, 'removeOnFail true (every failed job goes, so no count)');
        } else {
          t.refuse(refusal(key, 'true, false, a whole number from 1 or { "age": seconds, "count": n }', quoted(value)));
        }
        break;
      case 'maxStalledCount':
        if (isWhole(value) && value >= 0) t.to('maxStalledCount', value, `maxStalledCount ${value} (a Worker option: stalls have their own budget)`);
        else t.refuse(refusal(key, 'a whole number from 0', quoted(value)));
        break;
      case 'removeOnComplete':
        if (value === false) t.ignore(key, 'false: the lab keeps completed jobs');
        else t.refuse(notModelled(key, quoted(value), 'the lab keeps every completed job', 'it absent or false'));
        break;
      case 'lifo':
        if (value === false) t.ignore(key, 'false: new jobs join the tail, as in the lab');
        else t.refuse(notModelled(key, quoted(value), 'the lab adds jobs at the tail', 'it absent or false'));
        break;
      case 'delay':
        if (value === 0) t.ignore(key, '0: the job is ready at once, as in the lab');
        else t.refuse(notModelled(key, quoted(value), 'a job\'s first delay', 'it absent or 0'));
        break;
      default:
        if (Object.hasOwn(BULLMQ_NO_BEARING, key)) {
          t.ignore(key, `${quoted(value)}: ${BULLMQ_NO_BEARING[key]}; no bearing on retries`);
        } else if (BULLMQ_WORKER_KEYS.has(key)) {
          t.refuse(notModelled(key, quoted(value), 'a Worker option, not a job option'));
        } else if (BULLMQ_JOB_KEYS.has(key)) {
          t.refuse(notModelled(key, quoted(value), 'the import sets the retry policy'));
        } else {
          t.refuse(refusal(key, `one of BullMQ's job options (${[...BULLMQ_JOB_KEYS].slice(0, 5).join(', ')}, …)`, quoted(value), 'is unknown'));
        }
    }
  }

  if (!('attempts' in options)) t.to('maxAttempts', 1, 'attempts absent (BullMQ\'s default 1: no retries)');
  else if (isWhole(options.attempts) && options.attempts >= 1) t.to('maxAttempts', options.attempts, `attempts ${options.attempts} (every run counts)`);
  else t.refuse(refusal('attempts', 'a whole number from 1', quoted(options.attempts)));

  bullmqBackoff(t, options.backoff);
  if (t.refusals.length === 0 && !t.set.some((s) => s.field === 'quarantine.retentionMs')) {
    t.to('quarantine.retentionMs', 0, 'removeOnFail absent or false (BullMQ keeps failed jobs)');
  }
  return t.result();
}

function bullmqBackoff(t, backoff) {
  if (backoff === undefined) {
    noBackoff(t, 'backoff absent (BullMQ retries at once, at the end of waiting)');
    return;
  }
  let type;
  let delay;
  let jitter = 0;
  if (typeof backoff === 'number') {
    [type, delay] = ['fixed', backoff];  // BullMQ's shorthand: a number is a fixed delay
  } else if (isObject(backoff)) {
    for (const key of Object.keys(backoff)) {
      if (!['type', 'delay', 'jitter'].includes(key)) t.refuse(refusal(`backoff.${key}`, 'type, delay or jitter', quoted(backoff[key]), 'is unknown'));
    }
    ({ type, delay = 0, jitter = 0 } = backoff);
    if (type !== 'fixed' && type !== 'exponential') {
      t.refuse(typeof type === 'string'
        ? refusal('backoff.type', '"fixed" or "exponential"', quoted(type), 'names a custom backoffStrategy, which is not modelled by the lab')
        : refusal('backoff.type', '"fixed" or "exponential"', quoted(type)));
      return;
    }
  } else {
    t.refuse(refusal('backoff', 'a number of ms or { type, delay }', quoted(backoff)));
    return;
  }
  if (!isWhole(delay) || delay < 0) {
    t.refuse(refusal(typeof backoff === 'number' ? 'backoff' : 'backoff.delay', 'a whole number of ms from 0', quoted(delay)));
    return;
  }
  // BullMQ's jitter j: the lab's jitter 'bullmq' ([v(1−j), v), BullMQ's own formula) in thousandths.
  const permille = typeof jitter === 'number' ? Math.round(jitter * 1000) : NaN;
  if (!(permille >= 0 && permille <= 1000 && Math.abs(permille - jitter * 1000) < 1e-6)) {
    t.refuse(refusal('backoff.jitter', 'a number from 0 to 1 in thousandths (0.5, 0.125)', quoted(jitter)));
    return;
  }
  const from = typeof backoff === 'number' ? `backoff ${backoff}` : `backoff ${type}, delay ${delay}`;
  if (delay === 0) {
    noBackoff(t, `${from} (a delay of 0 retries at once, at the end of waiting)`);
    return;
  }
  t.to('backoff.kind', type, from);
  t.to('backoff.baseMs', delay, from);
  // BullMQ's exponential has no cap (the bullmq mode ignores the lab's); a fixed delay is its own cap.
  t.to('backoff.capMs', type === 'fixed' ? delay : DAY_MS,
    type === 'fixed' ? `${from} (a fixed delay is its own cap)` : `${from} (BullMQ has no cap; the lab's delays stop at a day)`);
  if (permille === 0) {
    t.to('backoff.jitter', 'none', typeof backoff === 'object' && 'jitter' in backoff ? 'backoff.jitter 0' : 'no backoff.jitter');
  } else {
    t.to('backoff.jitter', 'bullmq', `backoff.jitter ${jitter} (each delay drawn from [v(1−j), v), BullMQ's own formula)`);
    t.to('backoff.jitterPermille', permille, `backoff.jitter ${jitter} (in thousandths)`);
  }
}

// ---- Amazon SQS -------------------------------------------------------------

const SQS_READ_ONLY = new Set(['QueueArn', 'ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed', 'CreatedTimestamp', 'LastModifiedTimestamp']);
const SQS_NO_BEARING = new Set(['MaximumMessageSize', 'ReceiveMessageWaitTimeSeconds', 'Policy', 'RedriveAllowPolicy',
  'SqsManagedSseEnabled', 'KmsMasterKeyId', 'KmsDataKeyReusePeriodSeconds']);
const SQS_FIFO = new Set(['ContentBasedDeduplication', 'DeduplicationScope', 'FifoThroughputLimit']);
const SQS_SETTINGS = new Set(['RedrivePolicy', 'VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'FifoQueue']);
const SQS_KEYS = new Set([...SQS_READ_ONLY, ...SQS_NO_BEARING, ...SQS_FIFO, ...SQS_SETTINGS]);

/** A whole number of seconds in [lo, hi] from an SQS attribute, or a refusal. */
function sqsSeconds(t, key, value, lo, hi) {
  const n = wholeOf(value);
  if (Number.isNaN(n) || n < lo || n > hi) {
    t.refuse(refusal(key, `whole seconds from ${lo} to ${hi}`, quoted(value)));
    return null;
  }
  return n;
}

function sqs(attributes, dlqRetention) {
  const t = new Translation('sqs', 'sqs');
  for (const [key, value] of Object.entries(attributes)) {
    if (SQS_READ_ONLY.has(key)) t.ignore(key, 'read-only: it reports the queue, it configures nothing');
    else if (SQS_NO_BEARING.has(key)) t.ignore(key, 'no bearing on retries or the dead-letter queue');
    else if (SQS_FIFO.has(key)) t.refuse(notModelled(key, quoted(value), 'a FIFO queue\'s setting; the sqs mode is a standard queue\'s'));
    else if (key === 'DelaySeconds') {
      if (wholeOf(value) === 0) t.ignore(key, '0: a message is visible at once, as in the lab');
      else t.refuse(notModelled(key, quoted(value), 'a delivery delay', 'it absent or "0"'));
    } else if (key === 'FifoQueue') {
      if (value === false || value === 'false') t.ignore(key, 'false: a standard queue, as the sqs mode is');
      else t.refuse(notModelled(key, quoted(value), 'a FIFO queue\'s message groups; the sqs mode is a standard queue\'s', 'it absent or "false"'));
    } else if (!SQS_SETTINGS.has(key)) {
      t.refuse(refusal(key, 'an SQS queue attribute (RedrivePolicy, VisibilityTimeout, MessageRetentionPeriod, …)', quoted(value), 'is unknown'));
    }
  }

  // RedrivePolicy: a JSON string as the CLI prints it, or the object.
  let redrive = attributes.RedrivePolicy;
  if (redrive === undefined) {
    t.refuse(refusal('RedrivePolicy', 'a redrive policy with maxReceiveCount', 'none',
      'is missing: without it SQS has no dead-letter queue and keeps a failing message until its retention ends, which the lab cannot express'));
  } else {
    let inner = null;  // a duplicate key or too deep a nesting inside the string
    if (typeof redrive === 'string') {
      const read = readObjectText(redrive, 'RedrivePolicy');
      redrive = read.ok ? read.value : null;
      if (!read.ok && read.refusal.why !== 'is not JSON') inner = read.refusal;
    }
    if (inner !== null) {
      const key = inner.key === 'RedrivePolicy' ? inner.key : `RedrivePolicy.${inner.key}`;
      t.refuse(refusal(key, inner.expected, inner.given, inner.why));
    } else if (!isObject(redrive)) {
      t.refuse(refusal('RedrivePolicy', 'a JSON object {"deadLetterTargetArn": …, "maxReceiveCount": …}', quoted(attributes.RedrivePolicy)));
    } else {
      for (const key of Object.keys(redrive)) {
        if (key === 'deadLetterTargetArn') t.ignore('RedrivePolicy.deadLetterTargetArn', `${quoted(redrive[key])}: the dead-letter queue is the lab's quarantine`);
        else if (key !== 'maxReceiveCount') t.refuse(refusal(`RedrivePolicy.${key}`, 'deadLetterTargetArn or maxReceiveCount', quoted(redrive[key]), 'is unknown'));
      }
      const n = wholeOf(redrive.maxReceiveCount);
      if (Number.isNaN(n) || n < 1 || n > 1000) t.refuse(refusal('RedrivePolicy.maxReceiveCount', 'a whole number from 1 to 1000', quoted(redrive.maxReceiveCount)));
      else t.to('maxAttempts', n, `RedrivePolicy.maxReceiveCount ${n} (every receive counts, crashes included)`);
    }
  }

  if (attributes.VisibilityTimeout === undefined) t.to('leaseMs', 30_000, 'VisibilityTimeout absent (SQS\'s default 30 s)');
  else {
    const s = sqsSeconds(t, 'VisibilityTimeout', attributes.VisibilityTimeout, 0, 43_200);
    if (s !== null) t.to('leaseMs', s * 1000, `VisibilityTimeout ${s} s`);
  }
  noBackoff(t, 'SQS has no backoff: a failed message is back when its visibility timeout ends');
  sqsRetention(t, attributes.MessageRetentionPeriod, dlqRetention);
  return t.result();
}

// SQS's retention, as the sqs mode plays it: the dead-letter queue's MessageRetentionPeriod is the
// quarantine's retention, counted from the message's first enqueue in the source (a standard queue
// keeps that timestamp when it moves a message), so a DLQ that keeps no longer than its source can
// drop a message soon after it arrives. The source queue's own retention has no counterpart: the
// lab's source keeps a message until it is settled.
const SQS_RETENTION = [60, 1_209_600];
const SQS_DEFAULT_RETENTION = 345_600;

function sqsRetention(t, source, dlq) {
  if (dlq === undefined) {
    // One queue's attributes: its retention is read as the dead-letter queue's.
    if (source === undefined) {
      t.to('quarantine.retentionMs', SQS_DEFAULT_RETENTION * 1000, 'MessageRetentionPeriod absent (SQS\'s default 4 days), read as the dead-letter queue\'s');
    } else {
      const s = sqsSeconds(t, 'MessageRetentionPeriod', source, ...SQS_RETENTION);
      if (s !== null) t.to('quarantine.retentionMs', s * 1000, `MessageRetentionPeriod ${s} s, read as the dead-letter queue's`);
    }
    return;
  }
  const d = sqsSeconds(t, 'DLQ MessageRetentionPeriod', dlq, ...SQS_RETENTION);
  const s = source === undefined ? SQS_DEFAULT_RETENTION : sqsSeconds(t, 'MessageRetentionPeriod', source, ...SQS_RETENTION);
  if (d === null || s === null) return;
  t.to('quarantine.retentionMs', d * 1000, `the dead-letter queue's MessageRetentionPeriod ${d} s, counted from the first enqueue in the source`);
  t.ignore('MessageRetentionPeriod', `${s} s${source === undefined ? ' (absent: SQS\'s default 4 days)' : ''}: the source queue's; ` +
    'the lab\'s source keeps a message until it is settled' +
    (d <= s ? `. The DLQ keeps no longer than its source (${d} s ≤ ${s} s): a message that waited in the source arrives with that time spent, ` +
      'and can be dropped soon after it arrives' : ''));
}

// ---- Sidekiq ----------------------------------------------------------------

/**
 * The arguments of one `sidekiq_options …` line as { args: [[key, value, text]] } or { why }:
 * Ruby keyword arguments (`retry: 5`), hash rockets (`:retry => 5`, `"retry" => 5`); values are
 * integers, true, false, nil, strings and symbols; a `#` outside a string starts a comment. One
 * pass, each token read where it stands (sticky patterns with no nested repetition): linear.
 */
function sidekiqArguments(line) {
  const token = (pattern) => {
    pattern.lastIndex = at;
    const m = pattern.exec(line);
    if (m) at = pattern.lastIndex;
    return m;
  };
  const KEYWORD = /([A-Za-z_]\w*):(?!:)/y;
  const ROCKET = /(?::([A-Za-z_]\w*)|"([A-Za-z_]\w*)"|'([A-Za-z_]\w*)')[ \t]*=>/y;
  const VALUE = /-?\d+(?![\w.])|(?:true|false|nil)(?!\w)|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|:[A-Za-z_]\w*(?!\w)/y;
  const SPACE = /[ \t]*/y;
  let at = 'sidekiq_options'.length;
  token(SPACE);
  const paren = line[at] === '(';
  if (paren) at++;
  else if (at === 'sidekiq_options'.length && at < line.length) return { why: 'has no space after sidekiq_options' };
  const args = [];
  const close = () => at >= line.length || line[at] === '#' || (paren && line[at] === ')');
  for (token(SPACE); !close(); token(SPACE)) {
    const k = token(KEYWORD) ?? token(ROCKET);
    if (k === null) return { why: `has no key: value pair at character ${at + 1}` };
    token(SPACE);
    const v = token(VALUE);
    if (v === null) return { why: `has no value (a number, true, false, nil, a string or a symbol) at character ${at + 1}` };
    const text = v[0];
    const parsed = /^-?\d/.test(text) ? Number(text) : text === 'true' ? true : text === 'false' ? false
      : text === 'nil' ? null : text.startsWith(':') ? text.slice(1) : text.slice(1, -1);
    args.push([k[1] ?? k[2] ?? k[3] ?? k[4], parsed, text]);
    token(SPACE);
    if (line[at] === ',') at++;
    else if (!close()) return { why: `has no comma between pairs at character ${at + 1}` };
  }
  if (paren) {
    if (line[at] !== ')') return { why: 'opens a parenthesis it does not close' };
    at++;
    token(SPACE);
  }
  if (at < line.length && line[at] !== '#') return { why: `has text after its arguments at character ${at + 1}` };
  if (args.length === 0) return { why: 'has no arguments' };
  return { args };
}

function sidekiq(line) {
  const read = sidekiqArguments(line);
  if (read.why !== undefined) {
    return refused('sidekiq', refusal('sidekiq_options', 'one line of key: value pairs, e.g. sidekiq_options retry: 5, queue: "default"',
      quoted(line), read.why));
  }
  const t = new Translation('sidekiq', 'sidekiq');
  let retry = { value: true, text: null };
  const seen = new Set();
  for (const [key, value, rawText] of read.args) {
    const text = isolated(rawText);  // echoed as the line spells it
    if (seen.has(key)) {
      t.refuse(refusal(key, 'each key once', `${key} a second time (${text})`, 'is a duplicate key'));
      continue;
    }
    seen.add(key);
    switch (key) {
      case 'retry': retry = { value, text }; break;
      case 'queue': t.ignore(key, `${text}: the lab has one queue`); break;
      case 'backtrace': t.ignore(key, `${text}: the lab keeps the last error's text`); break;
      case 'tags': t.ignore(key, `${text}: labels for the Web UI`); break;
      case 'dead':
        if (value === true) t.ignore(key, 'true: an exhausted job goes to the Dead set, as the lab quarantines it');
        else if (value === false) t.to('skipDeadSet', true, 'dead: false (a job that fails for good is dropped, not put in the Dead set)');
        else t.refuse(refusal(key, 'true or false', text));
        break;
      case 'retry_for': t.refuse(notModelled(key, text, 'a time limit on retries; the lab\'s limit is a count')); break;
      case 'retry_queue': t.refuse(notModelled(key, text, 'the lab has one queue')); break;
      default:
        t.refuse(refusal(key, 'one of retry, dead, queue, backtrace, tags, retry_for, retry_queue', text, 'is unknown'));
    }
  }
  const { value, text } = retry;
  if (value === true) t.to('maxAttempts', 26, text === null ? 'retry absent (Sidekiq\'s default: 25 retries, 26 runs)' : 'retry: true (25 retries, 26 runs)');
  else if (isWhole(value) && value >= 0) t.to('maxAttempts', value + 1, `retry: ${value} (${value} retries after the first run)`);
  else if (value === false) {
    t.to('maxAttempts', 1, 'retry: false (one run, no retry)');
    t.to('skipDeadSet', true, 'retry: false (and no Dead entry: a failed job is dropped)');
  } else t.refuse(refusal('retry', 'true, false or a whole number from 0', text));
  noBackoff(t, 'Sidekiq\'s own delay: count⁴ + 15 + rand(10)·(count + 1) s');
  // The line has no sidekiq_retry_in; should one be added (a lab backoff), 6.4.1 jitters it.
  t.to('retryInJitter', true, 'Sidekiq 6.4.1 adds rand(10)·(count + 1) s to a custom sidekiq_retry_in delay, and falls back to its own under 1 s');
  return t.result();
}

// ---- RabbitMQ ---------------------------------------------------------------

const RABBIT_KEYS = new Set(['delivery-limit', 'dead-letter-exchange', 'dead-letter-routing-key', 'dead-letter-strategy',
  'overflow', 'max-length', 'max-length-bytes', 'message-ttl', 'expires', 'queue-mode', 'queue-version', 'max-age',
  'queue-leader-locator', 'queue-master-locator', 'initial-cluster-size', 'target-group-size', 'ha-mode', 'ha-params',
  'ha-sync-mode', 'ha-promote-on-shutdown', 'ha-promote-on-failure', 'federation-upstream', 'federation-upstream-set',
  'stream-max-segment-size-bytes', 'alternate-exchange', 'single-active-consumer']);
// Policy keys with no bearing on retries or dead-lettering: read, and listed as changing nothing.
const RABBIT_NO_BEARING = {
  'queue-mode': 'where a classic queue keeps its messages (memory or disk); storage only',
  'queue-version': 'a classic queue\'s storage format',
  'queue-leader-locator': 'which node a new queue\'s leader starts on',
  'queue-master-locator': 'which node a new queue\'s leader starts on',
  'initial-cluster-size': 'how many nodes hold a quorum queue\'s replicas',
  'target-group-size': 'how many nodes hold a quorum queue\'s replicas',
  'stream-max-segment-size-bytes': 'a stream\'s segment files',
};
// The other fields of a policy as list_policies / definitions export print it.
const RABBIT_POLICY_FIELDS = new Set(['vhost', 'name', 'pattern', 'apply-to', 'priority', 'definition']);

function rabbitmq(input) {
  const t = new Translation('rabbitmq', 'rabbitmq-quorum');
  let definition = input;
  if ('definition' in input) {
    definition = input.definition;
    for (const [key, value] of Object.entries(input)) {
      if (key === 'definition') continue;
      if (!RABBIT_POLICY_FIELDS.has(key)) t.refuse(refusal(key, 'vhost, name, pattern, apply-to, priority or definition', quoted(value), 'is unknown'));
      else if (key === 'apply-to' && !['queues', 'all', 'quorum_queues'].includes(value)) {
        t.refuse(refusal(key, '"queues", "quorum_queues" or "all" (the mode is a quorum queue\'s)', quoted(value)));
      } else t.ignore(key, 'which queues the policy applies to; the lab has one');
    }
    if (!isObject(definition)) return refused('rabbitmq', refusal('definition', 'a JSON object of policy keys', quoted(definition)));
  }
  for (const [key, value] of Object.entries(definition)) {
    switch (key) {
      case 'delivery-limit':
        break;
      case 'dead-letter-exchange':
        if (typeof value === 'string' && value !== '') t.to('deadLetterExchange', 'set', `dead-letter-exchange ${quoted(value)}: its dead letters are the lab's quarantine`);
        else t.refuse(refusal(key, 'an exchange name', quoted(value)));
        break;
      case 'dead-letter-routing-key': t.ignore(key, `${quoted(value)}: the lab has one quarantine`); break;
      case 'dead-letter-strategy':
        if (value === 'at-most-once' || value === 'at-least-once') t.ignore(key, `${quoted(value)}: the lab's quarantine always receives the message`);
        else t.refuse(refusal(key, '"at-most-once" or "at-least-once"', quoted(value)));
        break;
      case 'overflow':
        // With max-length only drop-head (RabbitMQ's default) is the lab's maxLength; the others refuse a publish.
        if ('max-length' in definition) {
          if (value !== 'drop-head') {
            t.refuse(notModelled(key, quoted(value), 'with max-length the lab drops the oldest ready message, as drop-head does',
              '"drop-head" (or it absent)'));
          }
        } else if ('max-length-bytes' in definition) t.ignore(key, 'acts only with a length limit (refused below)');
        else t.ignore(key, `${quoted(value)}: acts only with a length limit, and none is set`);
        break;
      case 'message-ttl':
        // 0 expires a message unless a consumer takes it at once, while the lab's messageTtlMs 0 is no TTL.
        if (!isWhole(value) || value < 1) {
          t.refuse(refusal(key, 'a whole number of ms from 1 (message-ttl 0 expires what no consumer takes at once)', quoted(value)));
        } else {
          t.to('messageTtlMs', value, `message-ttl ${value}: a message at the head that long after its publish is dead-lettered (reason expired)`);
        }
        break;
      case 'max-length':
        // 0 keeps no message ready on RabbitMQ, while the lab's maxLength 0 is no limit; the core checks the top.
        if (!isWhole(value) || value < 1) {
          t.refuse(refusal(key, 'a whole number from 1 (max-length 0 keeps no message ready)', quoted(value)));
        } else {
          t.to('maxLength', value, `max-length ${value} with overflow ${quoted(definition.overflow ?? 'drop-head')}` +
            `${'overflow' in definition ? '' : ' (the default)'}: a publish past it dead-letters the oldest ready message (reason maxlen)`);
        }
        break;
      case 'queue-mode':
        if (value === 'lazy' || value === 'default') t.ignore(key, `${quoted(value)}: ${RABBIT_NO_BEARING[key]}; no bearing on retries`);
        else t.refuse(refusal(key, '"lazy" or "default"', quoted(value)));
        break;
      default:
        if (Object.hasOwn(RABBIT_NO_BEARING, key)) t.ignore(key, `${quoted(value)}: ${RABBIT_NO_BEARING[key]}; no bearing on retries`);
        else if (RABBIT_KEYS.has(key)) t.refuse(notModelled(key, quoted(value), ''));
        else t.refuse(refusal(key, 'a RabbitMQ policy key (delivery-limit, dead-letter-exchange, …)', quoted(value), 'is unknown'));
    }
  }
  const limit = definition['delivery-limit'];
  // No limit is the version's default: none on 3.x (deliveryLimit unset-3.x), 20 from 4.0 (unset-4.x, set in Advanced).
  if (limit === undefined || limit === -1) {
    t.to('deliveryLimit', 'unset-3.x', limit === undefined
      ? 'delivery-limit absent: RabbitMQ 3.x sets no limit (4.0 and later default to 20: choose unset-4.x in Advanced)'
      : 'delivery-limit -1: no limit');
  } else if (!isWhole(limit) || limit < 0) {
    t.refuse(refusal('delivery-limit', 'a whole number from 0', quoted(limit)));
  } else {
    t.to('maxAttempts', limit + 1, `delivery-limit ${limit} (it counts returns: ${limit} + 1 deliveries)`);
    t.to('deliveryLimit', 'explicit', `delivery-limit ${limit}`);
  }
  if (!('dead-letter-exchange' in definition)) {
    t.to('deadLetterExchange', 'none',
      'dead-letter-exchange absent: at the limit, or on a reject, RabbitMQ drops the message (no entry is kept)');
  }
  noBackoff(t, 'RabbitMQ has no backoff: a returned message is redelivered at once, near the head');
  return t.result();
}

// ---- which format -----------------------------------------------------------

const EXPECTED = 'BullMQ job options (JSON or a JavaScript object literal), SQS queue attributes (JSON), a sidekiq_options line or a RabbitMQ policy definition (JSON)';

/**
 * Text → the lab's { system, policy } with what it set, or a refusal by name (see the module's comment).
 * `dlqRetention`: the SQS dead-letter queue's MessageRetentionPeriod as typed ('' or undefined: none given).
 */
export function importConfig(text, { dlqRetention } = {}) {
  if (typeof text !== 'string') return refused(null, refusal('config', 'text', quoted(text)));
  if (text.length > MAX_IMPORT_CHARS) {
    return refused(null, refusal('config', `at most ${MAX_IMPORT_CHARS.toLocaleString('en')} characters`, `${text.length.toLocaleString('en')}`));
  }
  const dlq = typeof dlqRetention === 'string' && dlqRetention.trim() === '' ? undefined : dlqRetention;
  const trimmed = text.trim();
  if (trimmed === '') return refused(null, refusal('config', EXPECTED, 'nothing', 'is empty'));
  if (/^sidekiq_options\b/.test(trimmed)) {
    if (trimmed.includes('\n')) return refused('sidekiq', refusal('sidekiq_options', 'one line', `${trimmed.split('\n').length} lines`));
    if (trimmed.length > MAX_SIDEKIQ_CHARS) {
      return refused('sidekiq', refusal('sidekiq_options', `one line of at most ${MAX_SIDEKIQ_CHARS.toLocaleString('en')} characters`,
        `${trimmed.length.toLocaleString('en')} characters`, 'is too long'));
    }
    return onlySqsRetention('sidekiq', dlq) ?? sidekiq(trimmed);
  }
  const read = readObjectText(trimmed, 'config');
  if (!read.ok) {
    const r = read.refusal;
    if (r.why !== 'is not JSON') return refused(null, refusal(r.key, r.expected, r.given, r.why));
    return refused(null, refusal('config', EXPECTED, quoted(trimmed), `is not JSON nor a sidekiq_options line (${r.detail})`));
  }
  const json = read.value;
  if (!isObject(json)) return refused(null, refusal('config', `${EXPECTED}: a JSON object`, quoted(json)));

  const keys = Object.keys(json);
  const kinds = [];
  if (isObject(json.Attributes) && keys.length === 1) return sqs(json.Attributes, dlq);
  if ('definition' in json) return onlySqsRetention('rabbitmq', dlq) ?? rabbitmq(json);  // a whole policy: its priority is not BullMQ's
  if (keys.some((k) => BULLMQ_JOB_KEYS.has(k) || BULLMQ_WORKER_KEYS.has(k))) kinds.push('bullmq');
  if (keys.some((k) => SQS_KEYS.has(k))) kinds.push('sqs');
  if ('definition' in json || keys.some((k) => RABBIT_KEYS.has(k))) kinds.push('rabbitmq');
  if (kinds.length !== 1) {
    return refused(null, refusal('config', EXPECTED, kinds.length === 0
      ? `an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.slice(0, 4).map(isolated).join(', ')}${keys.length > 4 ? ', …' : ''}`}`
      : `keys of ${kinds.map((k) => FORMATS[k]).join(' and ')} together`, 'is not one broker\'s config'));
  }
  if (kinds[0] === 'sqs') return sqs(json, dlq);
  return onlySqsRetention(kinds[0], dlq) ?? { bullmq, rabbitmq }[kinds[0]](json);
}

/** A dead-letter queue's retention given with another broker's config: refused (it would be dropped silently). */
function onlySqsRetention(format, dlq) {
  if (dlq === undefined) return null;
  return refused(format, refusal('DLQ MessageRetentionPeriod', `it empty (it is an SQS setting; this is ${FORMATS[format]})`, quoted(dlq),
    'applies only to SQS queue attributes'));
}

/**
 * An accepted import as one set-up change over `current` (the policy in force): the system and
 * the fields it set, backoff and quarantine merged over the current ones, which the core then
 * checks whole. `keep`: groups or fields ('backoff', 'quarantine.retentionMs') left as they are;
 * `set` is the import's list without them. `rows`: lab.schema.policy; a row's `onlyUnder` names
 * the one system whose setting it is, so each field only another system has goes back to its
 * default (listed in `set`, from "only under system X"): a new system's import resets what only
 * the old one had.
 */
export function policyChanges(result, current, keep = [], rows = []) {
  const kept = (field) => keep.some((k) => field === k || field.startsWith(`${k}.`));
  const set = result.set.filter((s) => !kept(s.field));
  const valueAt = (policy, field) => field.split('.').reduce((o, k) => o?.[k], policy);
  for (const row of rows) {
    if (row.onlyUnder === undefined || row.onlyUnder === result.system || set.some((s) => s.field === row.name)) continue;
    if (valueAt(current, row.name) === row.default) continue;
    set.push({ field: row.name, value: row.default, from: `only under system ${row.onlyUnder}: back to its default` });
  }
  const changes = { system: result.system };
  for (const { field, value } of set) {
    const [group, leaf] = field.split('.');
    if (leaf === undefined) changes[group] = value;
    else changes[group] = { ...(changes[group] ?? current[group]), [leaf]: value };
  }
  return { changes, set };
}
