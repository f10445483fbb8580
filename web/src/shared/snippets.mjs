// One configuration snippet generator per real queue system: the lab's policy
// in force, as the core reports it (snippet(queue.policy(), queue.rules())),
// written as that system's own configuration. The core's account is the input,
// so no rule is worked out again here. Used by the lessons' real-system presets
// (lessons/systems.mjs) and the playground's Config snippet panel.
//
// The writers the core has ported (core/config/<system>_config.cpp, WriteSnippet) are
// the core's: their generate asks the connected lab (connectSnippets). The others are
// still plain functions here: no dependencies, no I/O, safe in the browser.
// A lab setting with no counterpart in the system is said so in a comment of
// the snippet (for JSON, in the template's metadata), never silently dropped.

// ---- the lab's policy in force, as the core reports it ----------------------

// The lab whose core writes the snippets it has ported (core/config/config.h, WriteSnippet).
let lab = null;

/** Connects the loaded lab: the core writes the snippets of the systems it has ported (the page connects the lab it loaded). */
export function connectSnippets(loaded) {
  if (loaded === null || typeof loaded !== 'object' || typeof loaded.writeSnippet !== 'function') {
    throw new TypeError('connectSnippets: expected the loaded lab (loadLab()), with writeSnippet');
  }
  lab = loaded;
}

/** `key`'s snippet of the policy in force, written by the core. */
function written(key, policy, rules) {
  const n = policyInForce(policy, rules);
  if (lab === null) throw new Error(`${key} snippet: connectSnippets(lab) first (the page connects the lab it loaded)`);
  return lab.writeSnippet(key, n);
}

/**
 * What a snippet translates: the core's own account of a queue's policy
 * (Queue.policy(): every default filled in) with each failure class's rule in
 * force (Queue.rules(): budget resolved and capped, backoff resolved), plus
 * whether a class has a backoff of its own. Nothing is defaulted or decided here.
 */
export function policyInForce(policy, rules) {
  if (policy === null || typeof policy !== 'object' || !Number.isSafeInteger(policy.maxAttempts) || !policy.classes) {
    throw new TypeError('policy must be a queue\'s policy() (every field filled in)');
  }
  // The failure classes are the core's, in its order: the keys of rules() (lab.failureClasses).
  const classes = rules !== null && typeof rules === 'object' ? Object.keys(rules) : [];
  if (classes.length === 0 || classes.some((name) => !policy.classes[name])) {
    throw new TypeError('rules must be a queue\'s rules() (one rule per failure class)');
  }
  return {
    ...policy,
    rules: Object.fromEntries(classes.map((name) => [name,
      { ...rules[name], ownBackoff: policy.classes[name].backoff !== 'policy' }])),
  };
}

const sameBackoff = (a, b) => a.kind === b.kind && a.baseMs === b.baseMs && a.capMs === b.capMs && a.jitter === b.jitter &&
  a.jitterPermille === b.jitterPermille;

function backoffText(b) {
  if (b.kind === 'none') return 'none (requeue at once)';
  const range = b.kind === 'fixed' ? `${b.baseMs} ms` : `${b.baseMs}..${b.capMs} ms`;
  const jitter = b.jitter === 'bullmq' ? `bullmq jitter ${b.jitterPermille / 1000}` : `${b.jitter} jitter`;
  return `${b.kind} ${range}${b.jitter === 'none' ? '' : `, ${jitter}`}`;
}

function policyText(n) {
  const q = n.quarantine;
  return `maxAttempts ${n.maxAttempts}; backoff ${backoffText(n.backoff)}; leaseMs ${n.leaseMs}; ordering ${n.ordering}; ` +
    `quarantine retentionMs ${q.retentionMs === 0 ? '0 (forever)' : q.retentionMs}, alarmDepth ${q.alarmDepth === 0 ? '0 (off)' : q.alarmDepth}`;
}

/** How the class table departs from "every failure retried under the policy's budget and backoff". */
function classShape(n) {
  const never = [];
  const own = [];     // bounded classes with a budget or a backoff of their own
  const alerts = [];
  for (const [name, r] of Object.entries(n.rules)) {
    if (r.alert) alerts.push(name);
    if (r.retry === 'never') never.push(name);
    else if (r.maxAttempts < n.maxAttempts || (r.ownBackoff && !sameBackoff(r.backoff, n.backoff))) own.push(name);
  }
  return { never: never.filter((c) => c !== 'crash'), crashNever: never.includes('crash'), own, alerts };
}

function ruleText(n, name) {
  const r = n.rules[name];
  return `classes.${name} (${r.maxAttempts} attempts, backoff ${backoffText(r.backoff)})`;
}


const seconds = (ms) => Math.ceil(ms / 1000);

/** Notes every system shares: the teaching switch, and where the lab's retry waits when not in the broker
 * (`configures`: the delayAt this snippet's configuration itself expresses, so no note is due for it). */
function commonNotes(n, notes, configures = 'broker') {
  if (n.unsafeQuarantineOrder) {
    notes.push('unsafeQuarantineOrder: a lab teaching switch (a crash between two writes loses the job); no configuration equivalent');
  }
  if (n.delayAt === configures) return;
  if (n.delayAt === 'consumer-sleep') {
    notes.push('delayAt consumer-sleep: the worker sleeps holding the job (within its lease); no configuration equivalent, the consumer\'s own code sleeps');
  } else if (n.delayAt === 'retry-queue') {
    notes.push('delayAt retry-queue: the delay waits in a retry queue and a scheduler republishes it; not configured here, the consumer publishes to it and acks');
  }
}

// ---- Amazon SQS ---------------------------------------------------------------

function sqsSnippet(policy, rules) {
  return written('sqs', policy, rules);
}

// ---- RabbitMQ quorum queues ------------------------------------------------------

// The one statement of the mapping (observed on 3.10.8: x-delivery-limit 2 gave 3 deliveries), used by the
// snippet and the facts alike.
export const DELIVERY_LIMIT_RULE = 'delivery-limit L allows L returns, so L + 1 deliveries: maxAttempts N is delivery-limit N - 1';

function rabbitSnippet(policy, rules) {
  return written('rabbitmq', policy, rules);
}

// ---- Sidekiq ----------------------------------------------------------------------

function sidekiqSnippet(policy, rules) {
  return written('sidekiq', policy, rules);
}

// ---- BullMQ -----------------------------------------------------------------------

function bullmqSnippet(policy, rules) {
  return written('bullmq', policy, rules);
}

// ---- Temporal ---------------------------------------------------------------------

function temporalSnippet(policy, rules) {
  return written('temporal', policy, rules);
}

// ---- Apache Kafka with Spring Kafka -----------------------------------------------

function kafkaSnippet(policy, rules) {
  return written('kafka', policy, rules);
}

// ---- Google Cloud Pub/Sub ---------------------------------------------------------

function pubsubSnippet(policy, rules) {
  return written('pubsub', policy, rules);
}

// ---- Azure Service Bus ------------------------------------------------------------

function serviceBusSnippet(policy, rules) {
  return written('servicebus', policy, rules);
}

// ---- the generators ------------------------------------------------------------------

/**
 * Every system a snippet is written for, in the lessons' order: `key`, its `name`,
 * `mode`: the policy `system` whose semantics it is (null: the core has no mode for
 * it), and `generate(policy, rules)` -> { language, text }.
 */
export const SNIPPETS = Object.freeze([
  { key: 'sqs', name: 'Amazon SQS', mode: 'sqs', generate: sqsSnippet },
  { key: 'rabbitmq', name: 'RabbitMQ quorum queues', mode: 'rabbitmq-quorum', generate: rabbitSnippet },
  { key: 'sidekiq', name: 'Sidekiq', mode: 'sidekiq', generate: sidekiqSnippet },
  { key: 'bullmq', name: 'BullMQ', mode: 'bullmq', generate: bullmqSnippet },
  { key: 'temporal', name: 'Temporal', mode: null, generate: temporalSnippet },
  { key: 'kafka', name: 'Apache Kafka (Spring Kafka retry topics)', mode: null, generate: kafkaSnippet },
  { key: 'pubsub', name: 'Google Cloud Pub/Sub', mode: null, generate: pubsubSnippet },
  { key: 'servicebus', name: 'Azure Service Bus', mode: null, generate: serviceBusSnippet },
].map((s) => Object.freeze(s)));

/** The snippet system with `key`, or undefined. */
export function snippetByKey(key) {
  return SNIPPETS.find((s) => s.key === key);
}

/** The snippet system for policy mode `mode` ('bullmq', 'rabbitmq-quorum', …), or undefined ('lab' has none). */
export function snippetForMode(mode) {
  return SNIPPETS.find((s) => s.mode !== null && s.mode === mode);
}
