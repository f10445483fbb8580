// The checker's bench inputs (issue 33), generated deterministically: the same
// arguments give the same bytes on every machine (a seeded generator, no clock).
//  * definitions(): a RabbitMQ definitions export (`rabbitmqctl export_definitions`)
//    with `queues` queues and `policies` policies: work queues dead-lettering
//    through DLX exchanges bound to their DLQs, delivery limits and TTL retry
//    queues set by queue arguments or by policies (anchored name patterns with
//    priorities and apply-to), as a large cluster's export looks;
//  * plan(): a Terraform plan as `terraform show -json` prints it, with `queues`
//    aws_sqs_queue resources (work queues and their DLQs), redrive policies inline
//    or as aws_sqs_queue_redrive_policy / redrive_allow_policy resources, and
//    CloudWatch depth alarms on the DLQs; planned_values, resource_changes and
//    configuration, as Terraform writes all three.
//
//   node scripts/bench-check-inputs.mjs [outDir]   writes definitions.json and plan.json

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// mulberry32: a small seeded generator (deterministic, enough for picking shapes).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (random, list) => list[Math.floor(random() * list.length)];
const pad = (n, width = 5) => String(n).padStart(width, '0');

const TEAMS = ['orders', 'payments', 'billing', 'shipping', 'emails', 'audit', 'search', 'reports', 'identity', 'events'];

/** A RabbitMQ definitions export: `queues` queues (about half of them DLQs or retry queues), `policies` policies. */
export function definitions({ queues = 10_000, policies = 2_000, seed = 33 } = {}) {
  const random = generator(seed);
  const out = {
    rabbit_version: '3.13.7', rabbitmq_version: '3.13.7', product_name: 'RabbitMQ', product_version: '3.13.7',
    users: [], vhosts: [{ name: '/', description: 'Default virtual host', tags: [], metadata: { description: 'Default virtual host', tags: [] } }],
    permissions: [], topic_permissions: [], parameters: [], global_parameters: [],
    policies: [], queues: [], exchanges: [], bindings: [],
  };
  const queue = (name, args) => out.queues.push({ name, vhost: '/', durable: true, auto_delete: false, arguments: args });
  const exchange = (name, type) => out.exchanges.push({ name, vhost: '/', type, durable: true, auto_delete: false, internal: false, arguments: {} });
  const binding = (source, destination, key, type = 'queue') => out.bindings.push({ source, vhost: '/', destination,
    destination_type: type, routing_key: key, arguments: {} });

  // Services of a few queues each: svc-NNNNN.<team>.work (and .dlq, sometimes .retry).
  // Policies match a service's queues by an anchored prefix; the rest come from arguments.
  let service = 0;
  const services = [];
  while (out.queues.length < queues) {
    const name = `svc-${pad(service)}.${pick(random, TEAMS)}`;
    const quorum = random() < 0.7;
    const type = { 'x-queue-type': quorum ? 'quorum' : 'classic' };
    const shape = queues - out.queues.length === 1 ? 1 : random();  // one left: a lone queue
    const work = `${name}.work`;
    if (shape < 0.45) {  // DLX exchange (fanout or direct) bound to the DLQ; limit by argument or policy
      const dlx = `${name}.dlx`;
      exchange(dlx, random() < 0.5 ? 'fanout' : 'direct');
      const args = { ...type, 'x-dead-letter-exchange': dlx };
      if (quorum && random() < 0.5) args['x-delivery-limit'] = 1 + Math.floor(random() * 20);
      queue(work, args);
      queue(`${name}.dlq`, { ...type });
      binding(dlx, `${name}.dlq`, random() < 0.5 ? '' : work);
    } else if (shape < 0.65) {  // the default exchange and a routing key straight to the DLQ
      queue(work, { ...type, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${name}.dlq` });
      queue(`${name}.dlq`, { ...type });
    } else if (shape < 0.8) {  // a TTL retry queue dead-lettering back to the work queue
      const retryX = `${name}.retry.x`;
      exchange(retryX, 'direct');
      queue(work, { ...type, 'x-delivery-limit': 3 + Math.floor(random() * 8), 'x-dead-letter-exchange': retryX });
      queue(`${name}.retry`, { ...type, 'x-message-ttl': 1000 * (1 + Math.floor(random() * 60)),
        'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': work });
      binding(retryX, `${name}.retry`, work);
    } else if (shape === 1) {
      queue(work, { ...type });
    } else {  // nothing in the arguments: a policy (below) or nobody sets the DLX
      queue(work, { ...type });
      queue(`${name}.dlq`, { ...type });
      exchange(`${name}.dlx`, 'fanout');
      binding(`${name}.dlx`, `${name}.dlq`, '');
    }
    services.push({ name, quorum });
    service++;
  }

  // Policies: most name one service (an anchored literal prefix, as teams write them);
  // some are team-wide blankets at priority 0 with a regex alternation.
  for (let p = 0; p < policies; p++) {
    const applyTo = pick(random, ['queues', 'quorum_queues', 'classic_queues', 'all']);
    if (p % 10 === 9) {
      const team = TEAMS[(p / 10) % TEAMS.length | 0];
      out.policies.push({ vhost: '/', name: `blanket-${pad(p)}`, pattern: `^svc-\\d+\\.${team}\\.(work|dlq)$`, 'apply-to': applyTo,
        priority: 0, definition: { 'dead-letter-exchange': `${team}.blanket.dlx` } });
      continue;
    }
    const target = services[Math.floor(random() * services.length)].name;
    const definition = { 'dead-letter-exchange': `${target}.dlx` };
    if (random() < 0.6) definition['delivery-limit'] = 1 + Math.floor(random() * 30);
    if (random() < 0.3) definition['dead-letter-strategy'] = 'at-least-once', definition.overflow = 'reject-publish';
    if (random() < 0.2) definition['message-ttl'] = 60_000 * (1 + Math.floor(random() * 60));
    out.policies.push({ vhost: '/', name: `policy-${pad(p)}`, pattern: `^${target.replace(/\./g, '\\.')}\\.work$`,
      'apply-to': applyTo, priority: 1 + Math.floor(random() * 20), definition });
  }
  return out;
}

/** A Terraform plan (`terraform show -json`) with `queues` aws_sqs_queue resources. */
export function plan({ queues = 10_000, seed = 33 } = {}) {
  const random = generator(seed);
  const account = '123456789012';
  const region = 'eu-west-1';
  const arn = (name) => `arn:aws:sqs:${region}:${account}:${name}`;
  const url = (name) => `https://sqs.${region}.amazonaws.com/${account}/${name}`;
  const planned = [];
  const changes = [];
  const configured = [];
  const resource = (type, name, values, expressions) => {
    const address = `${type}.${name}`;
    planned.push({ address, mode: 'managed', type, name, provider_name: 'registry.terraform.io/hashicorp/aws',
      schema_version: 0, values, sensitive_values: {} });
    changes.push({ address, mode: 'managed', type, name, provider_name: 'registry.terraform.io/hashicorp/aws',
      change: { actions: ['create'], before: null, after: values, after_unknown: { arn: true, id: true, url: true },
        before_sensitive: false, after_sensitive: {} } });
    configured.push({ address, mode: 'managed', type, name, provider_config_key: 'aws', expressions, schema_version: 0 });
  };
  const sqsQueue = (key, name, visibility, redrivePolicy, redriveAllow, expressions) => resource('aws_sqs_queue', key, {
    arn: arn(name), content_based_deduplication: false, deduplication_scope: '', delay_seconds: 0, fifo_queue: false,
    fifo_throughput_limit: '', id: url(name), kms_data_key_reuse_period_seconds: 300, kms_master_key_id: '',
    max_message_size: 262144, message_retention_seconds: redriveAllow ? 1209600 : 345600, name, name_prefix: '', policy: '',
    receive_wait_time_seconds: 20, redrive_allow_policy: redriveAllow, redrive_policy: redrivePolicy,
    sqs_managed_sse_enabled: true, tags: { Team: name.split('-')[0] }, tags_all: { Team: name.split('-')[0] },
    url: url(name), visibility_timeout_seconds: visibility,
  }, expressions);

  for (let i = 0; 2 * i < queues; i++) {
    const team = pick(random, TEAMS);
    const key = `${team}_${pad(i)}`;
    const name = `${team}-${pad(i)}`;
    const dlq = `${name}-dlq`;
    const visibility = pick(random, [30, 60, 120, 300, 900]);
    const maxReceive = 1 + Math.floor(random() * 15);
    const redrive = JSON.stringify({ deadLetterTargetArn: arn(dlq), maxReceiveCount: maxReceive });
    const allow = JSON.stringify({ redrivePermission: 'byQueue', sourceQueueArns: [arn(name)] });
    const nameExpr = (n) => ({ name: { constant_value: n } });
    const separate = random() < 0.4;
    sqsQueue(`${key}_dlq`, dlq, 30, '', separate ? '' : allow, nameExpr(dlq));
    sqsQueue(key, name, visibility, separate ? '' : redrive, '', { ...nameExpr(name),
      visibility_timeout_seconds: { constant_value: visibility },
      ...(separate ? {} : { redrive_policy: { references: [`aws_sqs_queue.${key}_dlq.arn`, `aws_sqs_queue.${key}_dlq`] } }) });
    if (separate) {
      resource('aws_sqs_queue_redrive_policy', key, { queue_url: url(name), redrive_policy: redrive },
        { queue_url: { references: [`aws_sqs_queue.${key}.id`, `aws_sqs_queue.${key}`] } });
      resource('aws_sqs_queue_redrive_allow_policy', `${key}_dlq`, { queue_url: url(dlq), redrive_allow_policy: allow },
        { queue_url: { references: [`aws_sqs_queue.${key}_dlq.id`, `aws_sqs_queue.${key}_dlq`] } });
    }
    if (random() < 0.7) {
      resource('aws_cloudwatch_metric_alarm', `${key}_dlq_depth`, {
        actions_enabled: true, alarm_actions: [`arn:aws:sns:${region}:${account}:on-call`], alarm_description: '',
        alarm_name: `${dlq}-not-empty`, comparison_operator: 'GreaterThanThreshold', datapoints_to_alarm: null,
        dimensions: { QueueName: dlq }, evaluation_periods: 1, metric_name: 'ApproximateNumberOfMessagesVisible',
        namespace: 'AWS/SQS', ok_actions: [], period: 300, statistic: 'Maximum', tags: null, threshold: 0,
        treat_missing_data: 'missing',
      }, { dimensions: { references: [`aws_sqs_queue.${key}_dlq.name`, `aws_sqs_queue.${key}_dlq`] } });
    }
  }
  return {
    format_version: '1.2', terraform_version: '1.6.6',
    planned_values: { root_module: { resources: planned } },
    resource_changes: changes,
    configuration: { provider_config: { aws: { name: 'aws', full_name: 'registry.terraform.io/hashicorp/aws' } },
      root_module: { resources: configured } },
  };
}

/** Writes both inputs into `dir`; returns their paths. On one line, as `terraform show -json` and
 *  `rabbitmqctl export_definitions` write them. */
export function writeInputs(dir, options = {}) {
  mkdirSync(dir, { recursive: true });
  const files = { definitions: path.join(dir, 'definitions.json'), plan: path.join(dir, 'plan.json') };
  writeFileSync(files.definitions, `${JSON.stringify(definitions(options.definitions))}\n`);
  writeFileSync(files.plan, `${JSON.stringify(plan(options.plan))}\n`);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = writeInputs(process.argv[2] ?? 'build/bench-check');
  console.log(`${files.definitions}\n${files.plan}`);
}
