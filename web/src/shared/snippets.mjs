// @ts-check
// One configuration snippet per real queue system: the lab's policy in force, as
// the core reports it (queue.policy(), queue.rules()), written as that system's own
// configuration by the core (core/config/config.h, WriteSnippet; each writer in its
// system's core/config/<system>_config.cpp or <system>_snippet.cpp). Used by the
// lessons' real-system presets (lessons/systems.mjs) and the playground's Config
// snippet panel. Nothing here decides what a snippet says: this file connects the
// lab, shapes the policy in force, and names the systems.

// The lab whose core writes the snippets (the page connects the lab it loaded).
let lab = null;

/** Connects the loaded lab, whose core writes every snippet (the page connects the lab it loaded). */
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

// The one statement of RabbitMQ's mapping (observed on 3.10.8: x-delivery-limit 2 gave 3 deliveries), for the
// lesson's facts; the core's snippet says it too (core/config/rabbitmq_quorum_config.cpp, kDeliveryLimitRule).
export const DELIVERY_LIMIT_RULE = 'delivery-limit L allows L returns, so L + 1 deliveries: maxAttempts N is delivery-limit N - 1';

// ---- the generators ------------------------------------------------------------------

/**
 * Every system a snippet is written for, in the lessons' order: `key`, its `name`,
 * `mode`: the policy `system` whose semantics it is (null: the core has no mode for
 * it), and `generate(policy, rules)` -> { language, text }.
 */
export const SNIPPETS = Object.freeze([
  { key: 'sqs', name: 'Amazon SQS', mode: 'sqs' },
  { key: 'rabbitmq', name: 'RabbitMQ quorum queues', mode: 'rabbitmq-quorum' },
  { key: 'sidekiq', name: 'Sidekiq', mode: 'sidekiq' },
  { key: 'bullmq', name: 'BullMQ', mode: 'bullmq' },
  { key: 'temporal', name: 'Temporal', mode: null },
  { key: 'kafka', name: 'Apache Kafka (Spring Kafka retry topics)', mode: 'spring-kafka' },
  { key: 'pubsub', name: 'Google Cloud Pub/Sub', mode: 'pubsub' },
  { key: 'servicebus', name: 'Azure Service Bus', mode: 'service-bus' },
  { key: 'kafka-connect', name: 'Kafka Connect (a sink connector\'s errors.*)', mode: 'kafka-connect' },
].map((s) => Object.freeze({ ...s, generate: (policy, rules) => written(s.key, policy, rules) })));

/** The snippet system with `key`, or undefined. */
export function snippetByKey(key) {
  return SNIPPETS.find((s) => s.key === key);
}

/** The snippet system for policy mode `mode` ('bullmq', 'rabbitmq-quorum', …), or undefined ('lab' has none). */
export function snippetForMode(mode) {
  return SNIPPETS.find((s) => s.mode !== null && s.mode === mode);
}
