// One preset per real queue system: a lab scenario as close to the system's
// defaults as the lab's policy can say, the one place where the lab's rule and
// the system's part ways, a few sourced facts, and a configuration snippet for
// that system generated from a queue's policy in force: snippet(queue.policy(),
// queue.rules()) — the core's own account, so no rule is worked out again here.
//
// Plain data and pure functions: no dependencies, no I/O, safe in the browser.
// Every fact is sourced: each entry's `sources` names the system's documentation
// it comes from, and it is written in this project's own words. A lab setting
// with no counterpart in the system is said so in a comment of the snippet (for
// JSON, in the template's metadata), never silently dropped.
//
// The lab's rule, for comparison: count the attempt first; requeue at the tail
// while budget is left; quarantine permanent failures at once and exhausted ones
// at the end; only an explicit replay(id) brings a job back, with its attempts reset.

// ---- the lab's policy in force, as the core reports it ----------------------


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

/** A rule's delay after a first failed attempt, before jitter: its base (core/policy/backoff.h: 2^0 · base for exponential). */
function firstDelay(backoff) {
  return backoff.kind === 'none' ? 0 : backoff.baseMs;
}

const sameBackoff = (a, b) => a.kind === b.kind && a.baseMs === b.baseMs && a.capMs === b.capMs && a.jitter === b.jitter;

function backoffText(b) {
  if (b.kind === 'none') return 'none (requeue at once)';
  const range = b.kind === 'fixed' ? `${b.baseMs} ms` : `${b.baseMs}..${b.capMs} ms`;
  return `${b.kind} ${range}${b.jitter === 'none' ? '' : `, ${b.jitter} jitter`}`;
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

// Error type names a worker would use for the lab's failure classes.
const ERROR_TYPE = {
  transient: 'TransientError', permanent: 'PermanentError', undeserializable: 'UndeserializableError',
  'unknown-schema': 'UnknownSchemaError', precondition: 'PreconditionError',
};
const JAVA_EXCEPTION = {
  transient: 'TransientFailureException', permanent: 'PermanentFailureException',
  undeserializable: 'DeserializationException', 'unknown-schema': 'UnknownSchemaException',
  precondition: 'PreconditionFailedException',
};

const seconds = (ms) => Math.ceil(ms / 1000);
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

/** Notes every system shares: the teaching switch. */
function commonNotes(n, notes) {
  if (n.unsafeQuarantineOrder) {
    notes.push('unsafeQuarantineOrder: a lab teaching switch (a crash between two writes loses the job); no configuration equivalent');
  }
}

const hashComments = (notes) => notes.map((line) => `# ${line}`);
const slashComments = (notes, indent = '') => notes.map((line) => `${indent}// ${line}`);

// ---- the jobs every preset runs: a and c healthy, b the poison one ------------

const JOBS = [{ id: 'a', payload: 'order-1' }, { id: 'b', payload: 'order-2' }, { id: 'c', payload: 'order-3' }];
// The lab's precondition row (2 attempts, its own 1 s) and unknown-schema's alert are the lab's
// own teaching rules; no system below has them, so every preset treats those failures like the rest.
const NO_LAB_EXTRAS = { 'unknown-schema': { alert: false }, precondition: { maxAttempts: 0, backoff: 'policy' } };
// A broker with no notion of a permanent failure retries every failure alike.
const ALL_RETRIED = {
  permanent: { retry: 'bounded' }, undeserializable: { retry: 'bounded' },
  'unknown-schema': { retry: 'bounded', alert: false }, precondition: { maxAttempts: 0, backoff: 'policy' },
};
const poison = (failure) => ({ behaviours: [{ id: 'b', kind: 'poison', failure }] });
const neverSettles = (count) => ({ behaviours: [{ id: 'b', kind: 'crashes', count }] });

const gh = (repo, path) => `https://github.com/${repo}/blob/HEAD/${path}`;

// ---- Amazon SQS ---------------------------------------------------------------

const SQS_SOURCE_RETENTION = 345600;  // the source queue's MessageRetentionPeriod: SQS's default, 4 days
const SQS_MAX_RETENTION = 1209600;    // 14 days, the most SQS keeps a message

function sqsSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const fifo = n.ordering !== 'none';
  const receives = clamp(n.maxAttempts, 1, 1000);
  if (receives !== n.maxAttempts) notes.push(`maxAttempts ${n.maxAttempts}: maxReceiveCount stops at 1000, so it is set to 1000`);
  let visibility = seconds(n.leaseMs);
  if (visibility * 1000 !== n.leaseMs) notes.push(`leaseMs ${n.leaseMs}: the visibility timeout is whole seconds, rounded up to ${visibility}`);
  if (visibility > 43200) {
    visibility = 43200;
    notes.push(`leaseMs ${n.leaseMs}: the visibility timeout stops at 12 hours (43200 s)`);
  }
  if (n.backoff.kind !== 'none') {
    notes.push(`backoff ${backoffText(n.backoff)}: no broker backoff in SQS; an unsettled message returns when its visibility timeout ends ` +
      '(a consumer can set a per-message delay with ChangeMessageVisibility)');
  }
  if (shape.never.length > 0) {
    notes.push(`${shape.never.join(', ')}: quarantined at once in the lab; SQS has no permanent failure at the broker, ` +
      'so the consumer must send such a message to the DLQ itself and delete it');
  }
  if (shape.crashNever) notes.push('classes.crash never retries in the lab; in SQS every receive that ends unsettled is retried until maxReceiveCount');
  for (const name of shape.own) notes.push(`${ruleText(n, name)}: SQS has one receive budget for every failure`);
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no per-failure alert in SQS (the CloudWatch alarm watches depth only)`);
  if (n.ordering === 'key') {
    notes.push('ordering key: a FIFO queue with one MessageGroupId per key; a group waits only while a message is in flight, ' +
      'so once one is dead-lettered the rest of its group goes on (the lab holds the key until replay or releaseKey)');
  }
  if (n.ordering === 'stall') notes.push('ordering stall: a FIFO queue where every message carries the same MessageGroupId');
  // A moved message keeps its original enqueue time on a standard queue [A2], so the DLQ's retention must cover
  // the time spent in the source queue plus the lab's retention (a FIFO DLQ resets it; the margin does no harm).
  let retention = SQS_MAX_RETENTION;
  if (n.quarantine.retentionMs === 0) {
    notes.push('quarantine.retentionMs 0 keeps entries forever; SQS keeps a message at most 14 days, the value used here');
  } else {
    const wanted = SQS_SOURCE_RETENTION + Math.max(60, seconds(n.quarantine.retentionMs));
    retention = Math.min(SQS_MAX_RETENTION, wanted);
    notes.push(`quarantine.retentionMs ${n.quarantine.retentionMs} -> DLQ MessageRetentionPeriod ${retention} s: ` +
      `the source queue's ${SQS_SOURCE_RETENTION} s plus the lab's retention${retention !== wanted ? ', stopped at the 14-day maximum' : ''}`);
  }
  if (!fifo) {
    notes.push('standard queues: a dead-lettered message keeps its original enqueue time, so the DLQ retention counts from there, ' +
      'not from arrival in the DLQ as the lab does; that is why the DLQ keeps messages longer than the source');
  }
  const threshold = n.quarantine.alarmDepth > 0 ? n.quarantine.alarmDepth : 1;
  notes.push(n.quarantine.alarmDepth > 0
    ? `quarantine.alarmDepth ${n.quarantine.alarmDepth} -> the CloudWatch alarm on the DLQ's depth`
    : 'quarantine.alarmDepth 0 (off): the CloudWatch alarm still fires on the first message in the DLQ, as AWS advises');
  notes.push('replay(id) resets attempts; SQS moves dead letters back in bulk with StartMessageMoveTask (the redrive), no single-message replay');
  commonNotes(n, notes);

  const name = (base) => (fifo ? `${base}.fifo` : base);
  const queueProps = (extra) => ({ QueueName: name(extra.name), ...(fifo ? { FifoQueue: true } : {}), ...extra.props });
  const resources = {
    OrdersDLQ: { Type: 'AWS::SQS::Queue', Properties: queueProps({ name: 'orders-dlq', props: { MessageRetentionPeriod: retention } }) },
    OrdersDLQAlarmTopic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'orders-dlq-alarm' } },
    OrdersQueue: {
      Type: 'AWS::SQS::Queue',
      Properties: queueProps({
        name: 'orders',
        props: {
          VisibilityTimeout: visibility,
          MessageRetentionPeriod: SQS_SOURCE_RETENTION,
          RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['OrdersDLQ', 'Arn'] }, maxReceiveCount: receives },
        },
      }),
    },
  };
  resources.OrdersDLQDepthAlarm = {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmDescription: `orders-dlq holds ${threshold} or more messages (quarantine.alarmDepth ${n.quarantine.alarmDepth})`,
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': ['OrdersDLQ', 'QueueName'] } }],
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 1,
      Threshold: threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: 'OrdersDLQAlarmTopic' }],
    },
  };
  const template = {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: `dlq-lab policy as an SQS queue with a redrive policy: maxAttempts ${n.maxAttempts} -> maxReceiveCount ${receives}`,
    Metadata: { 'dlq-lab': { policy: policyText(n), notes } },
    Resources: resources,
  };
  return { language: 'json', text: `${JSON.stringify(template, null, 2)}\n` };
}

// ---- RabbitMQ quorum queues ------------------------------------------------------

// The one statement of the mapping (observed on 3.10.8: x-delivery-limit 2 gave 3 deliveries), used by the
// snippet and the facts alike.
const DELIVERY_LIMIT_RULE = 'delivery-limit L allows L returns, so L + 1 deliveries: maxAttempts N is delivery-limit N - 1';

function rabbitSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const limit = n.maxAttempts - 1;
  if (n.backoff.kind !== 'none') {
    notes.push(`backoff ${backoffText(n.backoff)}: RabbitMQ has no redelivery delay of its own (a TTL + dead-letter "retry queue" is the usual workaround)`);
  }
  if (shape.never.length > 0) {
    notes.push(`${shape.never.join(', ')}: quarantined at once in the lab; the consumer does basic.reject with requeue=false ` +
      '(dead-lettered at once, reason "rejected" in x-death)');
  }
  for (const name of shape.own) notes.push(`${ruleText(n, name)}: one delivery-limit for every failure`);
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no per-failure alert in RabbitMQ`);
  notes.push(`leaseMs ${n.leaseMs}: no per-message lease; the broker-wide consumer timeout does not add to the delivery count`);
  if (shape.crashNever) notes.push('classes.crash never retries in the lab; RabbitMQ requeues a lost delivery');
  notes.push('a returned message goes back near the head of the queue when a delivery-limit is set (the lab: the tail)');
  if (n.ordering !== 'none') notes.push(`ordering ${n.ordering}: no per-key hold in RabbitMQ`);
  if (n.quarantine.alarmDepth > 0) notes.push(`quarantine.alarmDepth ${n.quarantine.alarmDepth}: no built-in depth alarm configured here`);
  notes.push('replay(id): no native replay; republish the message from orders.dlq yourself');
  commonNotes(n, notes);
  const main = {
    'delivery-limit': limit,
    'dead-letter-exchange': 'orders.dlx',
    'dead-letter-strategy': 'at-least-once',
    overflow: 'reject-publish',
  };
  const lines = [
    '#!/usr/bin/env bash',
    `# dlq-lab policy -> RabbitMQ quorum queue "orders" (3.10 or later): ${policyText(n)}`,
    ...hashComments(notes),
    'set -euo pipefail',
    `NODE=rabbit@localhost # the connection: the RabbitMQ node rabbitmqctl talks to (rabbitmqctl -n)`,
    '',
    '# Declare "orders" as a quorum queue (x-queue-type=quorum: a policy cannot change a queue type),',
    '# a fanout exchange "orders.dlx" and a queue "orders.dlq" bound to it.',
    `# ${DELIVERY_LIMIT_RULE}: maxAttempts ${n.maxAttempts} -> delivery-limit ${limit}.`,
    '# Fail an attempt with basic.reject (requeue=true): since 4.3 a nack with requeue is not counted.',
    `rabbitmqctl -n "$NODE" set_policy --apply-to queues orders-retry '^orders$' '${JSON.stringify(main)}'`,
  ];
  if (n.quarantine.retentionMs > 0) {
    lines.push(`# quarantine.retentionMs ${n.quarantine.retentionMs} -> message-ttl on the dead-letter queue`);
    lines.push(`rabbitmqctl -n "$NODE" set_policy --apply-to queues orders-dlq '^orders\\.dlq$' '${JSON.stringify({ 'message-ttl': n.quarantine.retentionMs })}'`);
  } else {
    lines.push('# quarantine.retentionMs 0: orders.dlq is an ordinary queue and keeps its messages');
  }
  return { language: 'shell', text: `${lines.join('\n')}\n` };
}

// ---- Sidekiq ----------------------------------------------------------------------

const SIDEKIQ_MIN = '6.4.1';   // Debian 12's ruby-sidekiq, the version the broker suite runs this on
const SIDEKIQ_KILL = '6.5.2';  // the first version where sidekiq_retry_in may return :kill

/** Ruby for the lab's delay after the attempt numbered count + 1 (Sidekiq wants whole seconds, at least 1). */
function rubyDelay(b) {
  if (b.kind === 'none') return '1';
  if (b.kind === 'fixed') return String(Math.max(1, seconds(b.baseMs)));
  return `[([${b.baseMs} * 2**count, ${b.capMs}].min / 1000.0).ceil, 1].max`;
}

function sidekiqSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const retry = n.maxAttempts - 1;
  if (n.backoff.kind === 'none') notes.push('backoff none: Sidekiq waits at least 1 s (a block returning 0 falls back to its own schedule)');
  if (n.backoff.kind !== 'none' && (n.backoff.baseMs % 1000 !== 0 || n.backoff.capMs % 1000 !== 0)) {
    notes.push(`backoff ${backoffText(n.backoff)}: Sidekiq delays are whole seconds, rounded up`);
  }
  notes.push(n.backoff.jitter === 'none'
    ? 'Sidekiq always adds its own jitter, rand(10 * (count + 1)) seconds; the lab adds none here'
    : `jitter ${n.backoff.jitter}: no equivalent; Sidekiq adds its own, rand(10 * (count + 1)) seconds`);
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no per-failure alert in Sidekiq`);
  notes.push(`leaseMs ${n.leaseMs}: no per-job lease in Sidekiq's retry settings`);
  if (shape.crashNever) notes.push('classes.crash: no equivalent');
  if (n.ordering !== 'none') notes.push(`ordering ${n.ordering}: Sidekiq documents no ordering guarantee`);
  if (n.quarantine.alarmDepth > 0) notes.push(`quarantine.alarmDepth ${n.quarantine.alarmDepth}: Sidekiq shows the Dead set size (Web UI, Stats#dead_size) but raises no alarm`);
  notes.push('replay(id) resets attempts; retrying a dead job in Sidekiq lowers retry_count by one, so it gets one more run');
  commonNotes(n, notes);

  // Sidekiq 6.4.1 (Debian 12) is the oldest this is written for: Sidekiq.options is its configuration (config[...] is 7),
  // and sidekiq_retry_in returning :kill needs 6.5.2, so the permanent path is a comment naming that version.
  const ownClasses = shape.own.filter((c) => c !== 'crash');
  const lines = [
    `# dlq-lab policy -> Sidekiq job options: ${policyText(n)}`,
    `# Needs Sidekiq ${SIDEKIQ_MIN} or later (Debian 12's ruby-sidekiq); 6.x configuration (Sidekiq 7 writes config[...]).`,
    ...hashComments(notes),
    "require 'sidekiq'",
    "require_relative 'order_handler' # your work: OrderHandler.call(order_id) raises to fail the attempt",
    '',
    "REDIS_URL = 'redis://localhost:6379/0' # the connection: where your Redis is",
    '',
    'Sidekiq.configure_client { |config| config.redis = { url: REDIS_URL } }',
    'Sidekiq.configure_server do |config|',
    '  config.redis = { url: REDIS_URL }',
  ];
  if (n.quarantine.retentionMs > 0) {
    lines.push(`  Sidekiq.options[:dead_timeout_in_seconds] = ${seconds(n.quarantine.retentionMs)} # quarantine.retentionMs ${n.quarantine.retentionMs}`);
    lines.push('  # the Dead set also drops its oldest entries past dead_max_jobs (10,000 by default); the lab has no such cap');
  } else {
    lines.push('  # quarantine.retentionMs 0 (forever): no equivalent; the Dead set drops entries after dead_timeout_in_seconds',
      '  # (180 days by default) and past dead_max_jobs (10,000)');
  }
  lines.push('end', '');
  for (const name of ownClasses) lines.push(`class ${ERROR_TYPE[name]} < StandardError; end`);
  if (ownClasses.length > 0) lines.push('');
  lines.push(
    'class OrdersJob',
    '  include Sidekiq::Worker',
    `  # maxAttempts ${n.maxAttempts} -> retry: ${retry} (the first run is not a retry; retry_count is 0 at the first failure)`,
    `  sidekiq_options retry: ${retry}`,
  );
  if (shape.never.length > 0) {
    lines.push(`  # ${shape.never.join(', ')}: quarantined at once in the lab. For them sidekiq_retry_in`,
      `  # may return :kill (straight to Dead) on Sidekiq >= ${SIDEKIQ_KILL} only; ${SIDEKIQ_MIN} retries them like any failure`);
  }
  lines.push(
    '',
    '  # The lab\'s backoff below; without a sidekiq_retry_in block Sidekiq waits count**4 + 15 s instead.',
    '  # count is retry_count: attempt count + 1 has just failed. 6.4.1 adds its jitter to the result.',
    '  sidekiq_retry_in do |count, exception|',
  );
  const delay = rubyDelay(n.backoff);
  if (ownClasses.length === 0) {
    lines.push(`    ${delay} # backoff ${backoffText(n.backoff)}`);
  } else {
    lines.push('    case exception');
    for (const name of ownClasses) {
      const r = n.rules[name];
      lines.push(`    when ${ERROR_TYPE[name]}`);
      lines.push(`      # ${ruleText(n, name)}: its own budget needs Sidekiq >= ${SIDEKIQ_KILL}: count + 1 >= ${r.maxAttempts} ? :kill : delay`);
      lines.push(`      ${rubyDelay(r.backoff)}`);
    }
    lines.push('    else');
    lines.push(`      ${delay} # backoff ${backoffText(n.backoff)}`);
    lines.push('    end');
  }
  lines.push('  end', '', '  def perform(order_id)', '    OrderHandler.call(order_id)', '  end', 'end');
  if (shape.own.includes('crash')) lines.push(`# ${ruleText(n, 'crash')}: no equivalent`);
  return { language: 'ruby', text: `${lines.join('\n')}\n` };
}

// ---- BullMQ -----------------------------------------------------------------------

/** TypeScript for the lab's delay (before jitter) after attempt number attemptsMade, in ms. */
function tsDelay(b) {
  if (b.kind === 'none') return '0';
  if (b.kind === 'fixed') return String(b.baseMs);
  return `Math.min(${b.capMs}, ${b.baseMs} * 2 ** (attemptsMade - 1))`;
}

function bullmqSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const b = n.backoff;
  const ownClasses = shape.own.filter((c) => c !== 'crash');
  // BullMQ's exponential is 2^(attemptsMade-1) * delay with no cap: the built-in fits while the cap is never reached.
  const capReached = b.kind === 'exponential' && n.maxAttempts >= 2 && b.baseMs * 2 ** (n.maxAttempts - 2) > b.capMs;
  const custom = capReached || b.jitter === 'decorrelated' || ownClasses.length > 0;
  if (b.jitter === 'decorrelated') notes.push('jitter decorrelated: no equivalent (it needs the previous delay); plain exponential used');
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no per-failure alert in BullMQ`);
  if (shape.crashNever || shape.own.includes('crash')) {
    notes.push('classes.crash: a job whose lock lapses is handled by the stalled-job check (maxStalledCount), not by attempts');
  }
  if (n.ordering !== 'none') notes.push(`ordering ${n.ordering}: no per-key hold in open-source BullMQ (groups are a Pro feature)`);
  if (n.quarantine.alarmDepth > 0) notes.push(`quarantine.alarmDepth ${n.quarantine.alarmDepth}: no built-in alarm on the failed set`);
  commonNotes(n, notes);

  const lines = [
    `// dlq-lab policy -> BullMQ (written against 6.7): ${policyText(n)}`,
    ...slashComments(notes),
    '// A runnable module: node orders.mjs worker | node orders.mjs add <id> | node orders.mjs replay <id>',
  ];
  const imports = ['Queue', 'Worker', 'Job'];
  lines.push(`import { ${imports.join(', ')} } from 'bullmq';`);
  lines.push("import { handleOrder } from './order-handler.mjs'; // your work: throw an Error to fail the attempt");
  if (shape.never.length > 0) {
    lines.push(`// ${shape.never.join(', ')}: quarantined at once in the lab; handleOrder throws UnrecoverableError (from bullmq) for them`);
  }
  lines.push('');
  for (const name of ownClasses) lines.push(`export class ${ERROR_TYPE[name]} extends Error { name = '${ERROR_TYPE[name]}'; }`);
  if (ownClasses.length > 0) lines.push('');
  lines.push("const connection = { host: 'localhost', port: 6379 }; // the connection: where your Redis is",
    "const queue = new Queue('orders', { connection });", '');

  let backoffLine = null;
  if (custom) {
    backoffLine = "backoff: { type: 'custom' }, // the worker's backoffStrategy below";
  } else if (b.kind === 'fixed' || b.kind === 'exponential') {
    const jitter = b.jitter === 'full' ? ', jitter: 1' : b.jitter === 'equal' ? ', jitter: 0.5' : '';
    backoffLine = `backoff: { type: '${b.kind}', delay: ${b.baseMs}${jitter} }, // backoff ${backoffText(b)}`;
  }
  lines.push(
    'const jobOptions = {',
    `  attempts: ${n.maxAttempts}, // maxAttempts ${n.maxAttempts}: BullMQ counts the first run as an attempt too`,
  );
  if (backoffLine !== null) lines.push(`  ${backoffLine}`);
  else lines.push('  // backoff none: no backoff option; a failed job goes back to the end of the waiting list');
  lines.push(n.quarantine.retentionMs === 0
    ? '  removeOnFail: false, // quarantine.retentionMs 0: failed jobs are kept (the default)'
    : `  removeOnFail: { age: ${seconds(n.quarantine.retentionMs)} }, // quarantine.retentionMs ${n.quarantine.retentionMs}, in seconds; ` +
      'applied lazily, when a later job finishes, not on a timer as in the lab');
  lines.push('};', '');

  lines.push('const workerOptions = {', '  connection,', `  lockDuration: ${n.leaseMs}, // leaseMs: how long a worker holds the job's lock`,
    '  maxStalledCount: 1, // a crashed attempt (a stalled job) is not counted in attemptsMade: stalls have this budget of their own',
    '  // (the default, 1); one stall more fails the job even with attempts left. The lab counts a crash as an attempt.');
  if (custom) {
    const jitterExpr = b.jitter === 'full' ? 'Math.round(Math.random() * delay)'
      : b.jitter === 'equal' ? 'Math.floor(delay / 2) + Math.round(Math.random() * (delay - Math.floor(delay / 2)))' : 'delay';
    const formula = tsDelay(b);
    lines.push('  settings: {', '    backoffStrategy: (attemptsMade, type, err) => {');
    for (const name of ownClasses) {
      const r = n.rules[name];
      lines.push(`      if (err instanceof ${ERROR_TYPE[name]}) return attemptsMade >= ${r.maxAttempts} ? -1 : ${tsDelay(r.backoff)}; // ${ruleText(n, name)}; -1: failed`);
    }
    lines.push(`      const delay = ${formula}; // backoff ${backoffText(b)}`);
    lines.push(`      return ${b.jitter === 'decorrelated' ? 'delay' : jitterExpr};`, '    },', '  },');
  }
  lines.push('};', '');
  lines.push(
    'const [command, id] = process.argv.slice(2);',
    "if (command === 'add') {",
    "  await queue.add('order', { id }, { ...jobOptions, jobId: id }); // jobId: so Job.fromId(queue, id) finds it",
    '  await queue.close();',
    "} else if (command === 'replay') {",
    '  // replay(id), which resets attempts; without resetAttemptsMade the job runs once more, then fails again',
    '  const failed = await Job.fromId(queue, id);',
    "  if (failed) await failed.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });",
    "  console.log(failed ? `replayed ${id}` : `no job ${id}`);",
    '  await queue.close();',
    "} else if (command === 'worker') {",
    "  new Worker('orders', (job) => handleOrder(job.data, job), workerOptions);",
    '} else {',
    "  console.error('usage: node orders.mjs worker | add <id> | replay <id>');",
    '  process.exitCode = 2;',
    '}',
  );
  return { language: 'javascript', text: `${lines.join('\n')}\n` };
}

// ---- Temporal ----------------------------------------------------------------------

const LAB_MAX_ATTEMPTS = 1_000_000;  // the top of maxAttempts' range (core/policy/policy.h)

function temporalSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const b = n.backoff;
  let initial = b.baseMs;
  let coefficient = 2;
  let maximum = b.capMs;
  if (b.kind === 'none') {
    initial = 1;
    coefficient = 1;
    maximum = 1;
    notes.push('backoff none: Temporal always waits between attempts; 1 ms is the nearest to retrying at once');
  } else if (b.kind === 'fixed') {
    coefficient = 1;
    maximum = b.baseMs;
  }
  // The lab's largest budget is its nearest to "no limit": Temporal says that with 0 (its default).
  const unlimited = n.maxAttempts >= LAB_MAX_ATTEMPTS;
  const maximumAttempts = unlimited ? 0 : n.maxAttempts;
  if (unlimited) notes.push(`maxAttempts ${n.maxAttempts} is the lab's largest budget, its nearest to unlimited: maximumAttempts 0`);
  if (b.jitter !== 'none') notes.push(`jitter ${b.jitter}: no jitter is documented for Temporal retries`);
  for (const name of shape.own) {
    notes.push(name === 'crash'
      ? `${ruleText(n, name)}: a timed-out attempt uses the same retry policy`
      : `${ruleText(n, name)}: no per-error budget; the activity can read its attempt number and throw ` +
        `ApplicationFailure.create({ type: '${ERROR_TYPE[name]}', nonRetryable: attempt >= ${n.rules[name].maxAttempts}, nextRetryDelay: ${firstDelay(n.rules[name].backoff)} })`);
  }
  if (shape.crashNever) notes.push('classes.crash never retries in the lab; a timed-out Temporal attempt is retried like any failure');
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no equivalent`);
  if (n.ordering !== 'none') notes.push(`ordering ${n.ordering}: not applicable to activity retries`);
  notes.push('quarantine (retention, alarm, replay, redrive): no equivalent; Temporal has no dead-letter queue, ' +
    'the final failure goes back to the workflow');
  commonNotes(n, notes);

  const nonRetryable = shape.never.map((c) => `'${ERROR_TYPE[c]}'`);
  const lines = [
    `// dlq-lab policy -> Temporal activity retry policy (TypeScript SDK): ${policyText(n)}`,
    ...slashComments(notes),
    "import { proxyActivities } from '@temporalio/workflow';",
    "import type * as activities from './activities';",
    '',
    'const { processOrder } = proxyActivities<typeof activities>({',
    `  startToCloseTimeout: ${n.leaseMs}, // leaseMs: an attempt running longer times out and counts as failed`,
    '  retry: {',
    `    maximumAttempts: ${maximumAttempts}, // ${unlimited ? 'unlimited' : `maxAttempts ${n.maxAttempts}, the first attempt included`}; ` +
      '0 means unlimited (the default), 1 no retries',
    `    initialInterval: ${initial}, // ${b.kind === 'none' ? 'backoff none: the shortest wait' : 'backoff.baseMs'}`,
    `    backoffCoefficient: ${coefficient}, // ${b.kind === 'exponential' ? 'the lab doubles each delay' : 'the same delay every time'}`,
    `    maximumInterval: ${maximum}, // ${b.kind === 'exponential' ? 'backoff.capMs' : 'no growth'}`,
    `    nonRetryableErrorTypes: [${nonRetryable.join(', ')}],${nonRetryable.length > 0
      ? ` // ${shape.never.join(', ')}: quarantined at once in the lab (or throw ApplicationFailure.nonRetryable)` : ''}`,
    '  },',
    '});',
  ];
  return { language: 'typescript', text: `${lines.join('\n')}\n` };
}

// ---- Apache Kafka with Spring Kafka -----------------------------------------------

const exceptionsOf = (shape) => shape.never.map((c) => JAVA_EXCEPTION[c]);

function kafkaSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const b = n.backoff;
  const blocking = n.ordering !== 'none';
  const retries = n.maxAttempts - 1;
  if (b.jitter !== 'none') notes.push(`jitter ${b.jitter}: not set; Spring's @BackOff jitter adds or subtracts a fixed number of ms instead`);
  for (const name of shape.own) notes.push(`${ruleText(n, name)}: no per-exception budget or delay here`);
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no equivalent`);
  notes.push(`leaseMs ${n.leaseMs}: no per-record lease or broker delivery count; Spring counts attempts in the consumer's memory`);
  if (shape.crashNever) notes.push('classes.crash: no equivalent');
  if (n.rules.undeserializable.retry === 'bounded') {
    notes.push('classes.undeserializable retries in the lab; Spring does not retry a DeserializationException by default');
  }
  if (exceptionsOf(shape).some((e) => e !== 'DeserializationException')) {
    notes.push(`${exceptionsOf(shape).filter((e) => e !== 'DeserializationException').join(', ')}: your own exception types for those failures`);
  }
  if (n.ordering === 'key') {
    notes.push('ordering key: blocking retries hold the whole partition (every key on it), and after the last attempt the partition moves on; ' +
      'the lab holds only the key, until replay or releaseKey');
  }
  if (n.quarantine.retentionMs > 0) notes.push(`quarantine.retentionMs ${n.quarantine.retentionMs}: set retention.ms=${n.quarantine.retentionMs} on the topic orders-dlt`);
  else notes.push('quarantine.retentionMs 0: the DLT keeps records as long as its topic retention allows');
  if (n.quarantine.alarmDepth > 0) notes.push(`quarantine.alarmDepth ${n.quarantine.alarmDepth}: no equivalent in Spring Kafka`);
  notes.push('replay(id): no built-in DLT replay; republish the record yourself');
  commonNotes(n, notes);

  const exceptions = exceptionsOf(shape);
  const lines = [`// dlq-lab policy -> Spring Kafka 4: ${policyText(n)}`, ...slashComments(notes)];
  if (!blocking) {
    let backOff;
    if (b.kind === 'none') backOff = '@BackOff(delay = 0)';
    else if (b.kind === 'fixed') backOff = `@BackOff(delay = ${b.baseMs})`;
    else backOff = `@BackOff(delay = ${b.baseMs}, multiplier = 2.0, maxDelay = ${b.capMs})`;
    lines.push(
      'import org.springframework.kafka.annotation.BackOff;',
      'import org.springframework.kafka.annotation.KafkaListener;',
      'import org.springframework.kafka.annotation.RetryableTopic;',
      ...(exceptions.includes('DeserializationException') ? ['import org.springframework.kafka.support.serializer.DeserializationException;'] : []),
      'import org.springframework.stereotype.Component;',
      '',
      '// Non-blocking retries: each retry goes through a retry topic, then the record lands in orders-dlt.',
      '// This gives up partition order, like the lab\'s ordering none.',
      '@Component',
      'public class OrdersListener {',
      '',
      `    // maxAttempts ${n.maxAttempts} -> attempts = "${n.maxAttempts}" (the first delivery counts); backoff ${backoffText(b)}`,
      '    @RetryableTopic(',
      `        attempts = "${n.maxAttempts}",`,
      `        backOff = ${backOff}${exceptions.length > 0 ? ',' : ')'}`,
    );
    if (exceptions.length > 0) {
      lines.push(`        exclude = { ${exceptions.map((e) => `${e}.class`).join(', ')} }) // ${shape.never.join(', ')}: straight to the DLT`);
    }
    lines.push(
      '    @KafkaListener(topics = "orders")',
      '    public void listen(String order) {',
      '        // the work; throw to fail the attempt',
      '    }',
      '}',
    );
  } else {
    const backOffLines = b.kind === 'exponential'
      ? [`        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(${retries});`,
        `        backOff.setInitialInterval(${b.baseMs});`, '        backOff.setMultiplier(2.0);', `        backOff.setMaxInterval(${b.capMs});`]
      : [`        FixedBackOff backOff = new FixedBackOff(${b.kind === 'fixed' ? b.baseMs : 0}L, ${retries}L);`];
    lines.push(
      ...(exceptions.includes('DeserializationException') ? ['import org.springframework.kafka.support.serializer.DeserializationException;'] : []),
      'import org.springframework.context.annotation.Bean;',
      'import org.springframework.context.annotation.Configuration;',
      'import org.springframework.kafka.core.KafkaOperations;',
      'import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;',
      'import org.springframework.kafka.listener.DefaultErrorHandler;',
      b.kind === 'exponential' ? 'import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;' : 'import org.springframework.util.backoff.FixedBackOff;',
      '',
      `// Blocking retries (ordering ${n.ordering}): the consumer seeks back and retries in place, holding the partition in order;`,
      '// after the last attempt DeadLetterPublishingRecoverer writes the record to orders-dlt.',
      '@Configuration',
      'public class OrdersErrorHandling {',
      '',
      '    @Bean',
      '    public DefaultErrorHandler errorHandler(KafkaOperations<Object, Object> template) {',
      `        // maxAttempts ${n.maxAttempts} -> ${retries} retries after the first delivery; backoff ${backoffText(b)}`,
      ...backOffLines,
      '        DefaultErrorHandler handler = new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), backOff);',
    );
    if (exceptions.length > 0) {
      lines.push(`        handler.addNotRetryableExceptions(${exceptions.map((e) => `${e}.class`).join(', ')}); // ${shape.never.join(', ')}: straight to the DLT`);
    }
    lines.push('        return handler;', '    }', '}');
  }
  return { language: 'java', text: `${lines.join('\n')}\n` };
}

// ---- Google Cloud Pub/Sub ---------------------------------------------------------

function pubsubSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  const b = n.backoff;
  const attempts = clamp(n.maxAttempts, 5, 100);
  if (attempts !== n.maxAttempts) notes.push(`maxAttempts ${n.maxAttempts}: max-delivery-attempts must be 5 to 100, set to ${attempts}`);
  const ack = clamp(seconds(n.leaseMs), 10, 600);
  if (ack * 1000 !== n.leaseMs) notes.push(`leaseMs ${n.leaseMs}: the ack deadline is whole seconds within 10..600, set to ${ack}`);
  const flags = ['--topic=orders', `--ack-deadline=${ack}`, '--dead-letter-topic=orders-dlt', `--max-delivery-attempts=${attempts}`];
  if (b.kind !== 'none') {
    const min = clamp(seconds(b.baseMs), 0, 600);
    const max = clamp(seconds(b.kind === 'fixed' ? b.baseMs : b.capMs), min, 600);
    flags.push(`--min-retry-delay=${min}s`, `--max-retry-delay=${max}s`);
    if (b.kind === 'exponential') notes.push('backoff exponential: Pub/Sub grows the delay between the two bounds its own way, best effort');
    if (min * 1000 !== b.baseMs || (b.kind === 'exponential' && max * 1000 !== b.capMs)) {
      notes.push(`backoff ${backoffText(b)}: retry delays are whole seconds up to 600 s, set to ${min}s..${max}s`);
    }
  } else {
    notes.push('backoff none: no retry policy, so a nacked message is redelivered at once');
  }
  if (b.jitter !== 'none') notes.push(`jitter ${b.jitter}: no equivalent`);
  if (shape.never.length > 0) {
    notes.push(`${shape.never.join(', ')}: quarantined at once in the lab; Pub/Sub has no permanent failure, ` +
      'so such a message is redelivered until max-delivery-attempts (or the subscriber publishes it to orders-dlt and acks it)');
  }
  for (const name of shape.own) notes.push(`${ruleText(n, name)}: one delivery budget for every failure`);
  if (shape.crashNever) notes.push('classes.crash never retries in the lab; an expired ack deadline is a redelivery in Pub/Sub');
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no equivalent`);
  if (n.ordering === 'key') {
    flags.push('--enable-message-ordering');
    notes.push('ordering key: ordering keys, enabled per subscription; how they interact with dead-lettering is not documented in the reference');
  }
  if (n.ordering === 'stall') notes.push('ordering stall: no equivalent (ordering is per ordering key)');
  if (n.quarantine.alarmDepth > 0) notes.push(`quarantine.alarmDepth ${n.quarantine.alarmDepth}: no alarm configured here`);
  notes.push('dead-lettering is best effort: a message may reach orders-dlt more than once');
  notes.push('replay(id): no built-in replay; republish from orders-dlt-sub');
  commonNotes(n, notes);

  const lines = [
    `# dlq-lab policy -> Google Cloud Pub/Sub subscription with a dead-letter topic: ${policyText(n)}`,
    ...hashComments(notes),
    '# The dead-letter topic needs a subscription: messages sent to a topic without one are lost.',
    'gcloud pubsub topics create orders-dlt',
  ];
  if (n.quarantine.retentionMs > 0) {
    const keep = clamp(seconds(n.quarantine.retentionMs), 600, 604800);
    if (keep * 1000 !== n.quarantine.retentionMs) {
      lines.push(`# quarantine.retentionMs ${n.quarantine.retentionMs}: subscription retention is 10 minutes to 7 days, set to ${keep}s`);
    }
    lines.push(`gcloud pubsub subscriptions create orders-dlt-sub --topic=orders-dlt --message-retention-duration=${keep}s`);
  } else {
    lines.push('# quarantine.retentionMs 0 (forever): no equivalent; the subscription keeps unacked messages for its retention duration');
    lines.push('gcloud pubsub subscriptions create orders-dlt-sub --topic=orders-dlt');
  }
  lines.push(`# maxAttempts ${n.maxAttempts} -> --max-delivery-attempts=${attempts}; leaseMs -> --ack-deadline (seconds)`);
  lines.push('gcloud pubsub subscriptions create orders-sub \\');
  flags.forEach((flag, i) => lines.push(`  ${flag}${i < flags.length - 1 ? ' \\' : ''}`));
  const serviceAccount = '--member="serviceAccount:service-${PROJECT_NUMBER}@gcp-sa-pubsub.iam.gserviceaccount.com"';
  lines.push(
    '# Dead-lettering works only when the project\'s Pub/Sub service account may publish to the',
    '# dead-letter topic and subscribe to (acknowledge on) the source subscription.',
    'PROJECT_NUMBER=$(gcloud projects describe "$(gcloud config get-value project)" --format=\'value(projectNumber)\')',
    'gcloud pubsub topics add-iam-policy-binding orders-dlt \\', `  ${serviceAccount} \\`, '  --role=roles/pubsub.publisher',
    'gcloud pubsub subscriptions add-iam-policy-binding orders-sub \\', `  ${serviceAccount} \\`, '  --role=roles/pubsub.subscriber',
  );
  return { language: 'shell', text: `${lines.join('\n')}\n` };
}

// ---- Azure Service Bus --------------------------------------------------------------

function serviceBusSnippet(policy, rules) {
  const n = policyInForce(policy, rules);
  const notes = [];
  const shape = classShape(n);
  let lock = seconds(n.leaseMs);
  if (lock * 1000 !== n.leaseMs) notes.push(`leaseMs ${n.leaseMs}: lockDuration rounded up to ${lock} s`);
  if (lock > 300) {
    lock = 300;
    notes.push(`leaseMs ${n.leaseMs}: lockDuration stops at 5 minutes`);
  }
  if (n.backoff.kind !== 'none') notes.push(`backoff ${backoffText(n.backoff)}: no redelivery backoff at the broker`);
  if (shape.never.length > 0) {
    notes.push(`${shape.never.join(', ')}: the receiver calls DeadLetterMessageAsync(message, reason, description): dead-lettered at once`);
  }
  for (const name of shape.own) notes.push(`${ruleText(n, name)}: one MaxDeliveryCount for every failure`);
  if (shape.crashNever) notes.push('classes.crash never retries in the lab; an expired lock counts a delivery in Service Bus');
  if (shape.alerts.length > 0) notes.push(`alert on ${shape.alerts.join(', ')}: no equivalent`);
  if (n.ordering === 'key') notes.push('ordering key: sessions (requiresSession, one session per key); their interplay with dead-lettering is unverified');
  if (n.ordering === 'stall') notes.push('ordering stall: no equivalent');
  if (n.quarantine.retentionMs > 0) {
    notes.push(`quarantine.retentionMs ${n.quarantine.retentionMs}: no equivalent; time-to-live does not apply in the dead-letter queue and nothing cleans it up`);
  }
  if (n.quarantine.alarmDepth > 0) notes.push(`quarantine.alarmDepth ${n.quarantine.alarmDepth}: no alarm here; read the dead-letter count through the CLI or Service Bus Explorer`);
  notes.push('replay(id): receive from orders/$deadletterqueue, send a copy to orders, complete the original');
  commonNotes(n, notes);
  const template = {
    $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
    contentVersion: '1.0.0.0',
    metadata: {
      'dlq-lab': {
        policy: policyText(n),
        translation: `maxAttempts ${n.maxAttempts} -> maxDeliveryCount ${n.maxAttempts}; leaseMs ${n.leaseMs} -> lockDuration PT${lock}S`,
        notes,
      },
    },
    resources: [{
      type: 'Microsoft.ServiceBus/namespaces/queues',
      apiVersion: '2021-11-01',
      name: 'orders-ns/orders',
      properties: { maxDeliveryCount: n.maxAttempts, lockDuration: `PT${lock}S`, requiresSession: n.ordering === 'key' },
    }],
  };
  return { language: 'json', text: `${JSON.stringify(template, null, 2)}\n` };
}

// ---- the systems ---------------------------------------------------------------------

/** A frozen deep copy of plain data (each preset gets its own, so no two share an object). */
function frozen(value) {
  if (value === null || typeof value !== 'object') return value;
  const copy = Array.isArray(value) ? value.map(frozen) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozen(v)]));
  return Object.freeze(copy);
}

function entry({ sources, scenario, facts, ...rest }) {
  return Object.freeze({ ...rest, source: sources.join(' '), sources: frozen(sources), scenario: frozen(scenario), facts: frozen(facts) });
}

export const SYSTEMS = Object.freeze([
  entry({
    key: 'sqs',
    name: 'Amazon SQS',
    sources: [
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues',
      'https://docs.amazonaws.cn/en_us/AWSSimpleQueueService/latest/SQSDeveloperGuide/setting-up-dead-letter-queue-retention.html',
      'https://docs.aws.amazon.com/goto/WebAPI/sqs-2012-11-05/StartMessageMoveTask',
      'https://aws.github.io/modern-data-architecture-accelerator/typedocs/interfaces/_aws-mdaa_dataops-lambda-l3-construct.QueueDlqProps.html',
      'https://www.rubydoc.info/gems/aws-sdk-sqs/1.10.0/Aws/SQS/Resource',
    ],
    // maxReceiveCount has no default (no redrive policy, no DLQ); 3 is the lab's lesson value.
    // b is never deleted: each receive ends when its 30 s visibility timeout runs out. Retention stays 0 (forever):
    // a played world runs every timer, so any finite retention would drop b before the learner sees it; the
    // system's retention (4 days, at most 14) is in the facts and in the snippet's DLQ.
    scenario: { maxAttempts: 3, seed: 1, classes: ALL_RETRIED, jobs: JOBS, world: neverSettles(3) },
    differs: 'SQS counts receives, not failures: it cannot tell a permanent error from a crash, so an undeleted message comes back ' +
      'after every visibility timeout until maxReceiveCount.',
    facts: [
      'The broker counts how often a message was received without being deleted (on any queue); maxReceiveCount, 1 to 1000 ' +
        'with no default, caps it, and there is a DLQ only if you set a redrive policy.',
      'SQS has no backoff of its own: a message nobody deletes becomes visible again when its visibility timeout ' +
        '(30 s unless changed, 0 s to 12 h) runs out.',
      'A dead-lettered message keeps its body and attributes but gets no reason or error field; on a standard queue its ' +
        'original enqueue time keeps counting against the DLQ retention (4 days by default, up to 14).',
      'Moving messages back is a bulk move task (StartMessageMoveTask), not a per-message replay.',
    ],
    snippet: sqsSnippet,
  }),
  entry({
    key: 'rabbitmq',
    name: 'RabbitMQ quorum queues',
    sources: [
      gh('rabbitmq/rabbitmq-website', 'docs/dlx.md'),
      gh('rabbitmq/rabbitmq-website', 'docs/quorum-queues/index.md'),
      gh('rabbitmq/rabbitmq-server', 'deps/rabbit/src/rabbit_dead_letter.erl'),
      'https://github.com/rabbitmq/rabbitmq-server/discussions/18226',
    ],
    // The 4.x default delivery-limit 20: L + 1 deliveries, so the lab's maxAttempts 21 (3.x has no default limit).
    scenario: { maxAttempts: 21, seed: 1, classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'A quorum queue with a delivery-limit returns a failed message near the head, not the tail, and its limit counts returns, ' +
      'so the lab\'s maxAttempts is delivery-limit + 1.',
    facts: [
      'Quorum queues count unsuccessful deliveries in the x-delivery-count header; since 4.0 a delivery-limit of 20 applies ' +
        'unless set otherwise (-1 switches it off), while classic queues count nothing.',
      'A reject with requeue=false dead-letters at once (reason "rejected"); x-death keeps queue, reason, count and time, not the consumer\'s error.',
      'Past the limit a message is dropped, or dead-lettered with reason delivery_limit when a dead-letter exchange is set; ' +
        'at-least-once dead-lettering also needs dead-letter-strategy at-least-once and overflow reject-publish.',
      `Quorum queues count returns: ${DELIVERY_LIMIT_RULE}.`,
    ],
    snippet: rabbitSnippet,
  }),
  entry({
    key: 'sidekiq',
    name: 'Sidekiq',
    sources: [
      gh('sidekiq/sidekiq', 'lib/sidekiq/job_retry.rb'),
      gh('sidekiq/sidekiq', 'lib/sidekiq/config.rb'),
      gh('sidekiq/sidekiq', 'lib/sidekiq/api.rb'),
      'https://github.com/sidekiq/sidekiq/issues/3101',
    ],
    // retry: true is 25 retries, 26 runs. The lab cannot say count**4 + 15 s; an exponential from 15 s,
    // capped at the lab's longest delay (1 day), is the nearest curve. The Dead set keeps 180 days, but the
    // preset keeps b forever (retention 0): a played world runs every timer and would drop it (see the facts).
    scenario: { maxAttempts: 26, seed: 1, backoff: { kind: 'exponential', baseMs: 15_000, capMs: 86_400_000, jitter: 'none' },
      classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'Sidekiq budgets retries, not runs (retry: 25 means 26 runs), and retrying a dead job gives it one more run ' +
      'instead of a reset count.',
    facts: [
      'retry: N allows N retries after the first run: true means 25, 0 sends a failed job straight to the Dead set, and false keeps it out of Dead entirely.',
      'The default wait before the next run is count⁴ + 15 s plus a random 0 to 10·(count + 1) s, with no cap: about 20 days across 25 retries.',
      'From Sidekiq 6.5.2 a sidekiq_retry_in block can return :kill to send a job to the Dead set at once; 6.4.1 has no such path.',
      'The Dead set keeps at most 10,000 jobs for 180 days; retrying one lowers its retry_count by one, so it gets a single extra run.',
    ],
    snippet: sidekiqSnippet,
  }),
  entry({
    key: 'bullmq',
    name: 'BullMQ',
    sources: [
      gh('taskforcesh/bullmq', 'src/classes/backoffs.ts'),
      gh('taskforcesh/bullmq', 'docs/gitbook/guide/retrying-failing-jobs.md'),
      gh('taskforcesh/bullmq', 'docs/gitbook/patterns/stop-retrying-jobs.md'),
      gh('taskforcesh/bullmq', 'docs/gitbook/guide/jobs/retrying-job.md'),
      gh('taskforcesh/bullmq', 'src/interfaces/base-job-options.ts'),
    ],
    // attempts defaults to 1: the first error fails the job.
    scenario: { maxAttempts: 1, seed: 1, classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'BullMQ counts failed runs but not crashes (stalls have their own budget), job.retry() keeps attemptsMade unless ' +
      'reset, and its exponential backoff has no cap.',
    facts: [
      'attempts includes the first run and defaults to 1, so without it a job fails on its first error.',
      'Fixed backoff waits delay; exponential waits 2^(attemptsMade − 1)·delay with no cap; jitter j draws from [v·(1 − j), v].',
      'Throwing UnrecoverableError, or a backoff strategy returning −1, moves a job to failed whatever attempts says.',
      'job.retry() resets attemptsMade only with resetAttemptsMade; without it the job runs once more. A removeOnFail age is applied lazily, when a later job finishes.',
    ],
    snippet: bullmqSnippet,
  }),
  entry({
    key: 'temporal',
    name: 'Temporal',
    sources: [
      gh('temporalio/documentation', 'docs/encyclopedia/retry-policies.mdx'),
      'https://typescript.temporal.io/api/classes/common.ApplicationFailure',
      'https://docs.temporal.io/design-patterns/non-retryable-errors',
    ],
    // maximumAttempts is unlimited by default; the lab's largest budget, 1,000,000, stands in for it. The
    // default interval is 1 s doubling to 100 s. b fails with a non-retryable error.
    scenario: { maxAttempts: 1_000_000, seed: 1, backoff: { kind: 'exponential', baseMs: 1000, capMs: 100_000, jitter: 'none' },
      classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('permanent') },
    differs: 'Temporal has no quarantine: when its retry policy gives up, the failure goes back to the calling workflow, ' +
      'so there is nothing to replay, expire or alarm on.',
    facts: [
      'The server counts activity attempts; maximumAttempts is unlimited by default (0 also means unlimited, 1 means no retry).',
      'The wait is min(initialInterval·backoffCoefficient^retries, maximumInterval): 1 s doubling up to 100 s by default, with no documented jitter.',
      'An error whose ApplicationFailure type is in nonRetryableErrorTypes (an exact match), or one marked nonRetryable, ends the retries at once.',
      'The final failure wraps the last ApplicationFailure (type, message, details) and is handed back to the workflow.',
    ],
    snippet: temporalSnippet,
  }),
  entry({
    key: 'kafka',
    name: 'Apache Kafka (Spring Kafka retry topics)',
    sources: [
      gh('spring-projects/spring-kafka', 'spring-kafka-docs/src/main/antora/modules/ROOT/pages/kafka/annotation-error-handling.adoc'),
      gh('spring-projects/spring-kafka', 'spring-kafka-docs/src/main/antora/modules/ROOT/pages/retrytopic/how-the-pattern-works.adoc'),
      gh('spring-projects/spring-kafka', 'spring-kafka/src/main/java/org/springframework/kafka/annotation/RetryableTopic.java'),
      gh('spring-projects/spring-kafka', 'spring-kafka/src/main/java/org/springframework/kafka/listener/DeadLetterPublishingRecoverer.java'),
      'https://github.com/spring-projects/spring-kafka/issues/4523',
    ],
    // @RetryableTopic: 3 attempts, a fixed 1 s; retry topics give up partition order (ordering none).
    scenario: { maxAttempts: 3, seed: 1, backoff: { kind: 'fixed', baseMs: 1000, capMs: 1000, jitter: 'none' },
      classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'Kafka keeps no per-record delivery count or lease, so Spring counts attempts in the consumer, and its retry topics ' +
      'give up partition order to keep the partition moving.',
    facts: [
      'The broker counts nothing per record: Spring\'s DefaultErrorHandler tracks attempts in memory, so a crash can lose the count.',
      'Blocking retries (FixedBackOff(0, 9) by default: ten deliveries) seek back and hold the partition in order; @RetryableTopic ' +
        '(3 attempts, fixed 1 s by default) forwards through retry topics and loses that order.',
      'Deserialization and conversion errors are not retried by default, and more can be listed; DeadLetterPublishingRecoverer then writes to <topic>-dlt (the default recoverer only logs).',
      'The DLT record carries exception headers and its original topic, partition and offset; replaying it is left to the application.',
    ],
    snippet: kafkaSnippet,
  }),
  entry({
    key: 'pubsub',
    name: 'Google Cloud Pub/Sub',
    sources: [
      'https://cloud.google.com/python/docs/reference/pubsub/latest/google.cloud.pubsub_v1.types.DeadLetterPolicy',
      'https://cloud.google.com/php/docs/reference/cloud-pubsub/latest/V1.RetryPolicy',
      'https://cloud.google.com/pubsub/docs/handling-failures',
      'https://docs.cloud.google.com/pubsub/docs/ordering.md.txt',
    ],
    // max_delivery_attempts 5, immediate redelivery, every failure alike (the subscriber can only nack).
    scenario: { maxAttempts: 5, seed: 1, classes: ALL_RETRIED, jobs: JOBS, world: poison('transient') },
    differs: 'Pub/Sub has no notion of a permanent failure and allows no fewer than 5 delivery attempts, and its dead-lettering ' +
      'is best effort, possibly more than once.',
    facts: [
      'The broker counts 1 + nacks + expired ack deadlines, approximately; max_delivery_attempts is 5 to 100, 5 by default.',
      'Redelivery is immediate unless a retry policy asks for exponential backoff between minimum_backoff (10 s) and maximum_backoff (600 s).',
      'Dead letters are forwarded to a topic, best effort; a dead-letter topic with no subscription loses them.',
      'Ordering keys are switched on per subscription.',
    ],
    snippet: pubsubSnippet,
  }),
  entry({
    key: 'servicebus',
    name: 'Azure Service Bus',
    sources: [
      'https://learn.microsoft.com/EN-US/AZURE/service-bus-messaging/service-bus-dead-letter-queues',
      'https://learn.microsoft.com/en-us/dotnet/api/azure.messaging.servicebus.administration.queueproperties.maxdeliverycount',
      'https://learn.microsoft.com/dotnet/api/azure.messaging.servicebus.servicebusreceiver.deadlettermessageasync',
      'https://github.com/Azure/azure-service-bus/issues/445',
    ],
    // MaxDeliveryCount 10; b's receiver never completes it, so every peek-lock expires.
    scenario: { maxAttempts: 10, seed: 1, classes: NO_LAB_EXTRAS, jobs: JOBS, world: neverSettles(10) },
    differs: 'Service Bus counts expired locks as deliveries as the lab counts crashes, but its dead-letter queue never expires ' +
      'entries, and a replay is a copy your code sends.',
    facts: [
      'DeliveryCount goes up when a peek-lock expires without the message being completed; MaxDeliveryCount is 10 by default, at least 1.',
      'An exhausted message moves to the $deadletterqueue subqueue with reason MaxDeliveryCountExceeded; a receiver can dead-letter ' +
        'at once with DeadLetterMessageAsync and its own reason and description.',
      'Time-to-live does not apply inside the dead-letter queue, and nothing removes its messages automatically.',
      'Resubmitting means receiving from the DLQ, sending a copy and completing the original; from a subscription\'s DLQ the copy goes to the whole topic.',
    ],
    snippet: serviceBusSnippet,
  }),
]);

/** The system with `key`, or undefined. */
export function systemByKey(key) {
  return SYSTEMS.find((s) => s.key === key);
}
