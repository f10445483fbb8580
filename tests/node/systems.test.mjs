// The real-system presets (web/src/lessons/systems.mjs): each scenario loads in the core and
// shares as a short link; each plays out to the system's budget; each snippet, from
// its own preset's policy and from three more, is valid for its language, carries
// the lab's settings translated by the system's rules, and says where one has no
// equivalent; each `differs` is one short sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lab } from './helpers.mjs';
import { SYSTEMS, policyInForce } from '../../web/src/lessons/systems.mjs';
import { connectSnippets } from '../../web/src/shared/snippets.mjs';

connectSnippets(lab);  // the core writes the snippets it has ported

let ts = null;
try {
  ts = (await import('typescript')).default;
} catch {
  ts = null;  // the TypeScript syntax check is skipped without the dev dependency
}
const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;

const KEYS = ['sqs', 'rabbitmq', 'sidekiq', 'bullmq', 'temporal', 'kafka', 'pubsub', 'servicebus', 'kafka-connect'];

// Three policies besides each preset's own: lesson 1's, exponential with full jitter, and a
// large cap that also pushes every system past its ranges and sets what has no equivalent.
const POLICIES = {
  'lesson 1': { maxAttempts: 3 },
  'exponential, full jitter': { maxAttempts: 5, seed: 7, leaseMs: 2000,
    backoff: { kind: 'exponential', baseMs: 100, capMs: 5000, jitter: 'full' } },
  'large cap': { maxAttempts: 1500, leaseMs: 86_400_000, ordering: 'key', unsafeQuarantineOrder: true,
    backoff: { kind: 'exponential', baseMs: 30_000, capMs: 86_400_000, jitter: 'equal' },
    quarantine: { retentionMs: 30 * 86_400_000, alarmDepth: 10 },
    classes: { precondition: { maxAttempts: 3 }, permanent: { alert: true } } },
};

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const seconds = (ms) => Math.ceil(ms / 1000);

/** Plays `q` by `world` to the end (as the page's played() does), calling `after()` after each action. */
function play(q, world, after = () => {}, limit = 5000) {
  let steps = 0;
  for (let a; (a = q.nextWorldAction(world)) !== null; steps++, after()) {
    assert.ok(steps < limit, 'the world stops');
    switch (a.type) {
      case 'lease': q.lease(); break;
      case 'settle': q.settle(a.token, a.outcome, a.error); break;
      case 'advance': q.advance(a.ms); break;
      case 'advanceToNext': q.advanceToNext(); break;
      default: assert.fail(`unexpected world action ${a.type}`);
    }
  }
}

/** The number after `name` in `text` (first match), e.g. number(t, /retry: (\d+)/). */
function number(text, pattern) {
  const m = pattern.exec(text);
  assert.ok(m, `expected ${pattern} in:\n${text}`);
  return Number(m[1]);
}

/** Delimiters balance outside strings and comments (Java, TypeScript-like text). */
function balanced(text) {
  const code = text.replace(/\/\/.*$/gm, '').replace(/"(?:\\.|[^"\\])*"/g, '""').replace(/'(?:\\.|[^'\\])*'/g, "''");
  const stack = [];
  const pairs = { ')': '(', ']': '[', '}': '{' };
  for (const ch of code) {
    if ('([{'.includes(ch)) stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return stack.length === 0;
}

/** Ruby blocks open (class, def, case, do) and close (end) in pairs; one-line classes close themselves. */
function rubyBalanced(text) {
  let depth = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    if (/^(class|def|case|module)\b/.test(line) && !/;\s*end$/.test(line)) depth++;
    if (/\bdo(\s*\|[^|]*\|)?$/.test(line)) depth++;
    if (line === 'end') depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Checks `snippet` is valid for its language, as far as this machine can check it. */
function assertValid(snippet, label) {
  assert.equal(typeof snippet.text, 'string', label);
  assert.ok(snippet.text.trim().length > 0, `${label}: empty snippet`);
  assert.ok(snippet.text.endsWith('\n'), `${label}: ends with a newline`);
  switch (snippet.language) {
    case 'json':
      assert.doesNotThrow(() => JSON.parse(snippet.text), `${label}: JSON`);
      break;
    case 'shell':
      if (hasBash) {
        const r = spawnSync('bash', ['-n'], { input: snippet.text, encoding: 'utf8' });
        assert.equal(r.status, 0, `${label}: bash -n: ${r.stderr}`);
      }
      break;
    case 'javascript':
    {
      const r = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: snippet.text, encoding: 'utf8' });
      assert.equal(r.status, 0, `${label}: node --check: ${r.stderr}`);
    }
      assert.ok(balanced(snippet.text), `${label}: balanced delimiters`);
      break;
    case 'typescript':
      if (ts) {
        const out = ts.transpileModule(snippet.text, { reportDiagnostics: true,
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
        assert.deepEqual(out.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], `${label}: TypeScript syntax`);
      }
      assert.ok(balanced(snippet.text), `${label}: balanced delimiters`);
      break;
    case 'java':
      assert.ok(balanced(snippet.text), `${label}: balanced delimiters`);
      break;
    case 'ruby':
      assert.ok(rubyBalanced(snippet.text), `${label}: every Ruby block has its end`);
      break;
    default:
      assert.fail(`${label}: unexpected language ${snippet.language}`);
  }
}

// Per system: the lab policy's settings, translated by the system's rules, found in the snippet.
const TRANSLATED = {
  sqs(p, text) {
    const t = JSON.parse(text);
    const queue = t.Resources.OrdersQueue.Properties;
    assert.equal(queue.RedrivePolicy.maxReceiveCount, clamp(p.maxAttempts, 1, 1000), 'maxReceiveCount = maxAttempts (1..1000)');
    assert.equal(queue.VisibilityTimeout, Math.min(43200, seconds(p.leaseMs)), 'VisibilityTimeout = leaseMs in s (up to 12 h)');
    const retention = p.quarantine.retentionMs === 0 ? 1209600 : Math.min(1209600, 345600 + Math.max(60, seconds(p.quarantine.retentionMs)));
    assert.equal(t.Resources.OrdersDLQ.Properties.MessageRetentionPeriod, retention);
    assert.equal(queue.FifoQueue === true, p.ordering !== 'none', 'FIFO for key and stall ordering');
    const alarm = t.Resources.OrdersDLQDepthAlarm;
    assert.equal(alarm.Properties.Threshold, p.quarantine.alarmDepth === 0 ? 1 : p.quarantine.alarmDepth, 'alarm at alarmDepth, else at 1');
    assert.ok(Array.isArray(t.Metadata['dlq-lab'].notes));
  },
  rabbitmq(p, text) {
    const policies = [...text.matchAll(/^rabbitmqctl -n "\$NODE" set_policy .* '(\{.*\})'$/gm)].map((m) => JSON.parse(m[1]));
    assert.equal(policies[0]['delivery-limit'], p.maxAttempts - 1, 'delivery-limit = maxAttempts - 1 (it counts returns)');
    assert.equal(policies[0]['dead-letter-exchange'], 'orders.dlx');
    if (p.quarantine.retentionMs > 0) assert.equal(policies[1]['message-ttl'], p.quarantine.retentionMs);
    else assert.equal(policies.length, 1);
  },
  sidekiq(p, text) {
    assert.equal(number(text, /sidekiq_options retry: (\d+)/), p.maxAttempts - 1, 'retry = maxAttempts - 1 (the first run is no retry)');
    const b = p.backoff;
    if (b.kind === 'exponential') assert.ok(text.includes(`[${b.baseMs} * 2**count, ${b.capMs}].min`), 'the lab\'s exponential, capped');
    if (b.kind === 'fixed') assert.match(text, new RegExp(`^\\s+${Math.max(1, seconds(b.baseMs))} # backoff fixed`, 'm'));
    if (p.quarantine.retentionMs > 0) {
      assert.equal(number(text, /Sidekiq\.options\[:dead_timeout_in_seconds\] = (\d+)/), seconds(p.quarantine.retentionMs));
    }
  },
  bullmq(p, text) {
    assert.equal(number(text, /^\s+attempts: (\d+),/m), p.maxAttempts, 'attempts = maxAttempts (the first run counts)');
    assert.equal(number(text, /lockDuration: (\d+)/), p.leaseMs);
    const b = p.backoff;
    if (b.kind !== 'none') {
      assert.ok(text.includes(`delay: ${b.baseMs}`) || text.includes(`${b.baseMs} * 2 ** (attemptsMade - 1)`) ||
        text.includes(`const delay = ${b.baseMs};`), 'backoff.baseMs');
    }
    if (b.kind === 'exponential' && b.baseMs * 2 ** (p.maxAttempts - 2) > b.capMs) {
      assert.ok(text.includes(`Math.min(${b.capMs}, ${b.baseMs} * 2 ** (attemptsMade - 1))`), 'a cap BullMQ lacks, in a custom strategy');
    }
    if (p.quarantine.retentionMs > 0) assert.equal(number(text, /removeOnFail: \{ age: (\d+) \}/), seconds(p.quarantine.retentionMs));
    else assert.match(text, /removeOnFail: false/);
  },
  temporal(p, text) {
    assert.equal(number(text, /maximumAttempts: (\d+)/), p.maxAttempts === 1_000_000 ? 0 : p.maxAttempts, 'maximumAttempts = maxAttempts (the largest: 0, unlimited)');
    assert.equal(number(text, /startToCloseTimeout: (\d+)/), p.leaseMs);
    const b = p.backoff;
    if (b.kind !== 'none') assert.equal(number(text, /initialInterval: (\d+)/), b.baseMs);
    if (b.kind === 'exponential') {
      assert.equal(number(text, /maximumInterval: (\d+)/), b.capMs);
      assert.equal(number(text, /backoffCoefficient: (\d+)/), 2);
    }
    const never = Object.entries(p.rules).filter(([c, r]) => r.retry === 'never' && c !== 'crash');
    for (const [c] of never) assert.match(text, new RegExp(`nonRetryableErrorTypes: \\[[^\\]]*'[A-Za-z]+Error'`), c);
  },
  kafka(p, text) {
    const b = p.backoff;
    if (p.ordering === 'none') {
      assert.equal(number(text, /attempts = "(\d+)"/), p.maxAttempts, '@RetryableTopic attempts = maxAttempts');
      if (b.kind !== 'none') assert.equal(number(text, /@BackOff\(delay = (\d+)/), b.baseMs);
      if (b.kind === 'exponential') assert.equal(number(text, /maxDelay = (\d+)/), b.capMs);
    } else if (b.kind === 'exponential') {
      assert.equal(number(text, /new ExponentialBackOffWithMaxRetries\((\d+)\)/), p.maxAttempts - 1, 'retries = maxAttempts - 1');
      assert.equal(number(text, /setInitialInterval\((\d+)\)/), b.baseMs);
      assert.equal(number(text, /setMaxInterval\((\d+)\)/), b.capMs);
    } else {
      assert.equal(number(text, /new FixedBackOff\(\d+L, (\d+)L\)/), p.maxAttempts - 1, 'FixedBackOff retries = maxAttempts - 1');
    }
  },
  pubsub(p, text) {
    assert.equal(number(text, /--max-delivery-attempts=(\d+)/), clamp(p.maxAttempts, 5, 100), 'max-delivery-attempts = maxAttempts (5..100)');
    assert.equal(number(text, /--ack-deadline=(\d+)/), clamp(seconds(p.leaseMs), 10, 600));
    const b = p.backoff;
    if (b.kind === 'none') assert.doesNotMatch(text, /--min-retry-delay/);
    else {
      assert.equal(number(text, /--min-retry-delay=(\d+)s/), clamp(seconds(b.baseMs), 0, 600));
      if (b.kind === 'exponential') assert.equal(number(text, /--max-retry-delay=(\d+)s/), clamp(seconds(b.capMs), 0, 600));
    }
    assert.equal(text.includes('--enable-message-ordering'), p.ordering === 'key');
  },
  servicebus(p, text) {
    const props = JSON.parse(text).resources[0].properties;
    assert.equal(props.maxDeliveryCount, p.maxAttempts, 'maxDeliveryCount = maxAttempts');
    assert.equal(props.lockDuration, `PT${Math.min(300, seconds(p.leaseMs))}S`, 'lockDuration = leaseMs (up to 5 min)');
    assert.equal(props.requiresSession, p.ordering === 'key');
  },
  'kafka-connect'(p, text) {
    const config = JSON.parse(text).config;
    // A lab policy is written as Connect's defaults (the notes say so); a kafka-connect one as its own settings.
    const own = p.system === 'kafka-connect';
    assert.equal(config['errors.tolerance'], own && p.toleranceAll ? 'all' : 'none', 'errors.tolerance = toleranceAll');
    assert.equal(config['errors.deadletterqueue.topic.name'], own && p.dlqTopic ? 'orders-dlq' : undefined, 'a DLQ topic = dlqTopic');
    assert.equal(config['errors.deadletterqueue.context.headers.enable'], String(own && p.contextHeaders), 'context headers');
    const timeout = !own ? 0 : p.retryTimeoutMs === Number.MAX_SAFE_INTEGER ? -1 : p.retryTimeoutMs;
    assert.equal(config['errors.retry.timeout'], String(timeout), 'errors.retry.timeout = retryTimeoutMs (-1: forever)');
    if (own) assert.equal(config['errors.retry.delay.max.ms'], String(p.backoff.capMs), 'errors.retry.delay.max.ms = the backoff cap');
  },
};

test('one preset per system, each with its sources, facts and a one-sentence difference', () => {
  assert.deepEqual(SYSTEMS.map((s) => s.key), KEYS);
  for (const s of SYSTEMS) {
    assert.equal(typeof s.name, 'string');
    assert.ok(s.sources.length > 0 && s.sources.every((u) => /^https:\/\/\S+$/.test(u)), s.key);
    assert.equal(s.source, s.sources.join(' '));
    assert.ok(s.facts.length >= 2 && s.facts.length <= 4, `${s.key}: 2-4 facts`);
    for (const fact of s.facts) assert.ok(typeof fact === 'string' && fact.length > 0 && fact.length <= 240, `${s.key}: ${fact}`);
    assert.ok(s.differs.length < 200, `${s.key}: differs has ${s.differs.length} characters`);
    assert.match(s.differs, /^[A-Z].*\.$/, `${s.key}: a sentence`);
    assert.doesNotMatch(s.differs.slice(0, -1), /[.!?](\s|$)/, `${s.key}: one sentence`);
    assert.equal(typeof s.snippet, 'function');
  }
});

test('every preset is accepted by the core and shares as a short link that parses back', () => {
  for (const s of SYSTEMS) {
    const q = lab.runScenario(s.scenario);
    const link = lab.formatScenario(s.scenario);
    assert.ok(link.length <= 120, `${s.key}: ${link.length} characters: ${link}`);
    const parsed = lab.parseScenario(link);
    assert.equal(lab.formatScenario(parsed), link, s.key);
    assert.deepEqual(parsed.jobs.map((j) => j.id), ['a', 'b', 'c']);
    assert.ok(parsed.world, `${s.key}: the link carries its world`);
    const again = lab.runScenario(link);
    assert.deepEqual(again.stats(), q.stats());
    assert.deepEqual(again.policy(), q.policy());
    again.dispose();
    q.dispose();
  }
});

test('every preset plays out: a and c complete, b is quarantined after the budget its system gives', () => {
  const expected = {
    sqs: { attempts: 3, reason: 'exhausted', class: 'crash' },
    rabbitmq: { attempts: 21, reason: 'exhausted', class: 'transient' },
    sidekiq: { attempts: 26, reason: 'exhausted', class: 'transient' },
    bullmq: { attempts: 1, reason: 'exhausted', class: 'transient' },
    temporal: { attempts: 1, reason: 'permanent', class: 'permanent' },
    kafka: { attempts: 3, reason: 'exhausted', class: 'transient' },
    pubsub: { attempts: 5, reason: 'exhausted', class: 'transient' },
    servicebus: { attempts: 10, reason: 'exhausted', class: 'crash' },
    'kafka-connect': { attempts: 9, reason: 'exhausted', class: 'transient' },
  };
  for (const s of SYSTEMS) {
    const q = lab.runScenario(s.scenario);
    let entry = null;
    play(q, s.scenario.world, () => { entry ??= q.quarantined()[0] ?? null; });
    assert.deepEqual(q.completed().map((j) => j.id).sort(), ['a', 'c'], s.key);
    assert.equal(entry?.id, 'b', s.key);
    assert.deepEqual({ attempts: entry.attempts, reason: entry.reason, class: entry.class }, expected[s.key], s.key);
    // A played world runs every timer, retention's included, so no preset sets one (see the test below).
    assert.equal(s.scenario.quarantine?.retentionMs ?? 0, 0, `${s.key}: no retention to play through`);
    q.dispose();
  }
});

/** What a page hands a snippet: the core's policy() and rules() for a scenario's policy. */
function inForce(policy) {
  const { jobs, world, actions, cursor, ...only } = policy;
  const q = lab.createQueue(only);
  try {
    return [q.policy(), q.rules()];
  } finally {
    q.dispose();
  }
}
const snippetOf = (s, policy) => s.snippet(...inForce(policy));

test('a snippet translates the core\'s policy in force: the rules are the core\'s, not worked out again', () => {
  for (const [name, policy] of Object.entries({ ...POLICIES, ...Object.fromEntries(SYSTEMS.map((s) => [s.key, s.scenario])) })) {
    const [p, rules] = inForce(policy);
    const n = policyInForce(p, rules);
    for (const c of lab.failureClasses) {
      const { ownBackoff, ...rule } = n.rules[c];
      assert.deepEqual(rule, rules[c], `${name}: ${c}`);
      assert.equal(ownBackoff, p.classes[c].backoff !== 'policy', `${name}: ${c}`);
    }
  }
});

test('snippets from each preset and three more policies are valid and carry the translated settings', () => {
  for (const s of SYSTEMS) {
    const policies = { [`${s.key} preset`]: s.scenario, ...POLICIES };
    for (const [name, policy] of Object.entries(policies)) {
      const label = `${s.key} from ${name}`;
      const snippet = snippetOf(s, policy);
      assert.deepEqual(Object.keys(snippet).sort(), ['language', 'text'], label);
      assertValid(snippet, label);
      const n = policyInForce(...inForce(policy));
      TRANSLATED[s.key](n, snippet.text);
      assert.ok(snippet.text.includes(`maxAttempts ${n.maxAttempts}`), `${label}: names the lab's maxAttempts`);
    }
  }
});

test('a snippet of a preset\'s parsed link is the snippet of the preset', () => {
  for (const s of SYSTEMS) {
    const parsed = lab.parseScenario(lab.formatScenario(s.scenario));
    assert.equal(snippetOf(s, parsed).text, snippetOf(s, s.scenario).text, `${s.key}: parsed`);
  }
});

test('snippets say where a lab setting has no equivalent', () => {
  const large = POLICIES['large cap'];
  for (const s of SYSTEMS) {
    const text = snippetOf(s, large).text;
    // The teaching switch, the per-class alert and the precondition row exist only in the lab.
    assert.match(text, /unsafeQuarantineOrder: a lab teaching switch/, s.key);
    assert.match(text, /alert on permanent, unknown-schema/, s.key);
    assert.match(text, /classes\.precondition \(3 attempts/, s.key);
    assert.match(text, /ordering key/, s.key);
    // In-range clamps are stated, not silent.
    if (['sqs', 'pubsub'].includes(s.key)) assert.match(text, /maxAttempts 1500: /, s.key);
    if (['sqs', 'pubsub', 'servicebus'].includes(s.key)) assert.match(text, /leaseMs 86400000: /, s.key);
  }
  // Lesson 1's immediate requeue: said wherever the system cannot retry at once.
  for (const key of ['sidekiq', 'temporal']) {
    assert.match(snippetOf(SYSTEMS.find((s) => s.key === key), POLICIES['lesson 1']).text, /backoff none: /, key);
  }
  // Jitter the system cannot draw the lab's way is named.
  for (const key of ['sidekiq', 'temporal', 'kafka', 'pubsub']) {
    assert.match(snippetOf(SYSTEMS.find((s) => s.key === key), POLICIES['exponential, full jitter']).text, /jitter full: /, key);
  }
});

test('snippet refuses what is not a queue\'s policy and rules', () => {
  const [policy, rules] = inForce(POLICIES['lesson 1']);
  for (const s of SYSTEMS) {
    assert.throws(() => s.snippet(null, rules), { name: 'TypeError', message: "policy must be a queue's policy() (every field filled in)" }, s.key);
    assert.throws(() => s.snippet({ maxAttempts: 3 }, rules), TypeError, s.key);
    assert.throws(() => s.snippet(policy, {}), { name: 'TypeError', message: "rules must be a queue's rules() (one rule per failure class)" }, s.key);
  }
});

// ---- issue 21: the snippet defects found by running them as an engineer would -------------

const system = (key) => SYSTEMS.find((s) => s.key === key);
const codeLines = (text, comment) => text.split('\n').map((l) => l.replace(comment, '')).join('\n');
const ALL_POLICIES = (s) => ({ [`${s.key} preset`]: s.scenario, ...POLICIES });

test('BullMQ: jobs are added under their own jobId, so the replay line finds them by id', () => {
  for (const [name, policy] of Object.entries(ALL_POLICIES(system('bullmq')))) {
    const text = snippetOf(system('bullmq'), policy).text;
    assert.match(text, /queue\.add\('order', \{ id \}, \{ \.\.\.jobOptions, jobId: id \}\)/, `${name}: add with jobId`);
    assert.match(text, /Job\.fromId\(queue, id\)/, `${name}: replay finds the job by the same id`);
  }
});

test('BullMQ: retry without a reset runs once more; stalls have their own budget; removeOnFail evicts lazily', () => {
  const s = system('bullmq');
  for (const [name, policy] of Object.entries(ALL_POLICIES(s))) {
    const text = snippetOf(s, policy).text;
    assert.doesNotMatch(text, /fails? again at once/, name);
    assert.match(text, /without resetAttemptsMade the job runs once more/, name);
    assert.match(text, /maxStalledCount: 1, \/\/ .*not counted in attemptsMade/, name);
    const n = policyInForce(...inForce(policy));
    if (n.quarantine.retentionMs > 0) assert.match(text, /removeOnFail: \{ age: \d+ \}, .*lazily, when a later job fails/, name);
  }
  assert.ok(s.facts.every((f) => !/fails again at once/.test(f)), 'the facts say what BullMQ does');
  assert.ok(s.facts.some((f) => /runs once more/.test(f)));
  assert.doesNotMatch(s.differs, /counts attempts as the lab does/);
});

test('Sidekiq: the snippet states its minimum version and uses only what Sidekiq 6.4.1 has', () => {
  const s = system('sidekiq');
  for (const [name, policy] of Object.entries(ALL_POLICIES(s))) {
    const text = snippetOf(s, policy).text;
    assert.match(text, /^# Needs Sidekiq 6\.4\.1 or later/m, name);
    const code = codeLines(text, /#.*$/);
    assert.doesNotMatch(code, /config\[:/, `${name}: config[...] needs Sidekiq 7`);
    assert.doesNotMatch(code, /:kill/, `${name}: :kill from sidekiq_retry_in needs 6.5.2`);
    const n = policyInForce(...inForce(policy));
    if (n.quarantine.retentionMs > 0) {
      assert.equal(number(code, /Sidekiq\.options\[:dead_timeout_in_seconds\] = (\d+)/), seconds(n.quarantine.retentionMs), name);
    }
    if (Object.entries(n.rules).some(([c, r]) => r.retry === 'never' && c !== 'crash')) assert.match(text, /# .*:kill.*Sidekiq >= 6\.5\.2/, `${name}: the permanent path names its version`);
  }
});

test('SQS: the DLQ keeps messages longer than the source queue, and a CloudWatch alarm watches its depth', () => {
  const s = system('sqs');
  for (const [name, policy] of Object.entries(ALL_POLICIES(s))) {
    const t = JSON.parse(snippetOf(s, policy).text);
    const source = t.Resources.OrdersQueue.Properties.MessageRetentionPeriod;
    const dlq = t.Resources.OrdersDLQ.Properties.MessageRetentionPeriod;
    assert.ok(Number.isInteger(source) && dlq > source, `${name}: DLQ ${dlq} s > source ${source} s`);
    const alarm = t.Resources.OrdersDLQDepthAlarm?.Properties;
    assert.ok(alarm, `${name}: a depth alarm`);
    assert.equal(alarm.Namespace, 'AWS/SQS');
    assert.deepEqual(alarm.Dimensions[0].Value, { 'Fn::GetAtt': ['OrdersDLQ', 'QueueName'] });
    assert.ok(alarm.Threshold >= 1 && Array.isArray(alarm.AlarmActions) && alarm.AlarmActions.length === 1, name);
  }
});

test('Pub/Sub: the Pub/Sub service account may publish to the dead-letter topic and subscribe to the source subscription', () => {
  const s = system('pubsub');
  for (const [name, policy] of Object.entries(ALL_POLICIES(s))) {
    const text = snippetOf(s, policy).text;
    const sa = '--member="serviceAccount:service-\\$\\{PROJECT_NUMBER\\}@gcp-sa-pubsub\\.iam\\.gserviceaccount\\.com"';
    assert.match(text, new RegExp(`gcloud pubsub topics add-iam-policy-binding orders-dlt \\\\\\n\\s+${sa} \\\\\\n\\s+--role=roles/pubsub\\.publisher`), name);
    assert.match(text, new RegExp(`gcloud pubsub subscriptions add-iam-policy-binding orders-sub \\\\\\n\\s+${sa} \\\\\\n\\s+--role=roles/pubsub\\.subscriber`), name);
    assert.match(text, /^PROJECT_NUMBER=/m, name);
  }
});

test('Temporal: maximumAttempts is the lab\'s budget, the lab\'s largest one means unlimited (0), and 0 is explained', () => {
  const s = system('temporal');
  assert.doesNotMatch(snippetOf(s, s.scenario).text, /maximumAttempts: 1000000/);
  assert.match(snippetOf(s, s.scenario).text, /maximumAttempts: 0, \/\/ unlimited/, 'the preset: Temporal\'s default');
  assert.match(snippetOf(s, { maxAttempts: 1_000_000 }).text, /maximumAttempts: 0, \/\/ .*0 means unlimited/);
  for (const [name, policy] of Object.entries(ALL_POLICIES(s))) {
    assert.match(snippetOf(s, policy).text, /maximumAttempts: \d+, \/\/ .*0 means unlimited/, name);
  }
});

test('RabbitMQ: one statement of how the delivery-limit maps to attempts, the same in the snippet and the facts', () => {
  const s = system('rabbitmq');
  const rule = 'delivery-limit L allows L returns, so L + 1 deliveries: maxAttempts N is delivery-limit N - 1';
  assert.ok(s.facts.some((f) => f.includes(rule)), 'the facts state the rule');
  for (const [name, policy] of Object.entries(ALL_POLICIES(s))) {
    const text = snippetOf(s, policy).text;
    assert.ok(text.includes(`# ${rule}`), `${name}: the snippet states the same rule`);
    assert.doesNotMatch(text, /rather than rely on delivery-limit 0/, name);
  }
  assert.equal(s.scenario.maxAttempts, 21, 'the preset: 4.x default delivery-limit 20 -> 21 deliveries');
});

test('SQS and Sidekiq presets keep their evidence: played to the end, b is still quarantined and replay(b) works', () => {
  for (const s of SYSTEMS) {
    const q = lab.runScenario(s.scenario);
    play(q, s.scenario.world);
    assert.deepEqual(q.quarantined().map((e) => e.id), ['b'], `${s.key}: b is still in quarantine at the end`);
    assert.equal(q.stats().expired, 0, s.key);
    assert.equal(q.replay('b'), true, `${s.key}: replay(b)`);
    q.dispose();
  }
});

// A snippet written under a system's own mode says what that mode plays, and carries the mode's own settings.
test('snippets follow the policy\'s mode: BullMQ uncapped and its stall budget, Sidekiq\'s own schedule and Dead set, RabbitMQ\'s unset limit', () => {
  // The precondition class on the policy's own rule, so only the cap decides whether the snippet needs a custom strategy.
  const bull = { maxAttempts: 6, system: 'bullmq', maxStalledCount: 3, classes: { precondition: { maxAttempts: 0, backoff: 'policy' } },
    backoff: { kind: 'exponential', baseMs: 500, capMs: 1000, jitter: 'none' } };
  const bullText = snippetOf(system('bullmq'), bull).text;
  // The mode has no cap, so BullMQ's built-in exponential is the mode's own delay (no custom strategy capping it).
  assert.match(bullText, /backoff: \{ type: 'exponential', delay: 500 \}/);
  assert.doesNotMatch(bullText, /backoffStrategy/);
  assert.match(bullText, /maxStalledCount: 3, \/\/ .*not counted in attemptsMade/);
  assert.match(bullText, /as the lab's bullmq mode plays it/);
  // The same policy in the lab's mode caps the delay, so the snippet needs the custom strategy.
  assert.match(snippetOf(system('bullmq'), { ...bull, system: 'lab', maxStalledCount: 1 }).text, /backoffStrategy/);

  const kiq = { maxAttempts: 4, system: 'sidekiq', deadMaxJobs: 500, backoff: { kind: 'none' },
    classes: { precondition: { maxAttempts: 0, backoff: 'policy' } } };
  const kiqText = snippetOf(system('sidekiq'), kiq).text;
  assert.doesNotMatch(kiqText, /sidekiq_retry_in do/, 'Sidekiq\'s own schedule: no block');
  assert.match(kiqText, /count\*\*4 \+ 15 \+ rand\(10\) \* \(count \+ 1\) seconds/);
  assert.match(kiqText, /Sidekiq\.options\[:dead_max_jobs\] = 500/);
  assert.match(kiqText, /180 days/);
  assert.match(snippetOf(system('sidekiq'), { ...kiq, system: 'lab', deadMaxJobs: 10000 }).text, /sidekiq_retry_in do/);
  // With a class of its own the block stays, and its default branch returns 0: Sidekiq's own schedule.
  const withClass = snippetOf(system('sidekiq'), { ...kiq, classes: {} }).text;
  assert.match(withClass, /sidekiq_retry_in do/);
  assert.match(withClass, / {4}else\n {6}0 # backoff none/);

  const rabbit = { maxAttempts: 3, system: 'rabbitmq-quorum', backoff: { kind: 'none' } };
  assert.match(snippetOf(system('rabbitmq'), rabbit).text, /"delivery-limit":2/);
  for (const [limit, words] of [['unset-3.x', /no delivery-limit\. RabbitMQ 3\.x then redelivers/], ['unset-4.x', /4\.0 and later default it to 20/]]) {
    const text = snippetOf(system('rabbitmq'), { ...rabbit, deliveryLimit: limit }).text;
    assert.doesNotMatch(text, /"delivery-limit"/, limit);
    assert.match(text, words, limit);
  }
  // A classic queue: declared as one, no delivery-limit and no quorum-only dead-lettering keys.
  const classic = snippetOf(system('rabbitmq'), { ...rabbit, deliveryLimit: 'classic-queue' }).text;
  assert.match(classic, /RabbitMQ classic queue "orders"/);
  assert.match(classic, /Declare "orders" as a classic queue/);
  assert.match(classic, /a classic queue keeps no delivery count, so no delivery-limit applies/);
  assert.match(classic, /'\{"dead-letter-exchange":"orders\.dlx"\}'/);
  assert.doesNotMatch(classic, /"delivery-limit"|dead-letter-strategy|quorum queue "orders"/);
});

test('BullMQ\'s jitter through the JS API: jitterPermille only with jitter "bullmq", refused by name otherwise', async () => {
  const { throwsWith } = await import('./helpers.mjs');
  const backoff = { kind: 'fixed', baseMs: 200, capMs: 200, jitter: 'bullmq', jitterPermille: 500 };
  const q = lab.createQueue({ maxAttempts: 4, system: 'bullmq', backoff, seed: 5 });
  try {
    assert.deepEqual(q.policy().backoff, backoff);
    q.enqueue('a', '{}');
    const delays = [];
    let last = null;
    for (let n = 0; n < 10; n++) {
      if (q.ready().length === 0 && q.advanceToNext() === null) break;
      if (last !== null) delays.push(q.now() - last);
      last = q.now();
      q.process('transient');
    }
    assert.equal(delays.length, 3);
    for (const d of delays) assert.ok(d >= 100 && d <= 199, `a delay in [100, 199]: ${d}`);
    // Through a link and back: the fraction travels with the jitter.
    const link = lab.formatScenario({ maxAttempts: 4, system: 'bullmq', backoff, seed: 5 });
    assert.match(link, /;bf200\.200b500;/);
    assert.deepEqual(lab.parseScenario(link).backoff, backoff);
  } finally {
    q.dispose();
  }
  // Other jitters leave it out of policy(), as before.
  const plain = lab.createQueue({ maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 200, capMs: 200, jitter: 'full' } });
  assert.equal('jitterPermille' in plain.policy().backoff, false);
  plain.dispose();
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, system: 'bullmq', backoff: { ...backoff, jitterPermille: 0 } }),
    RangeError, 'out-of-range', /^backoff\.jitterPermille must be an integer from 1 to 1000, got 0$/);
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, backoff: { ...backoff, jitter: 'equal', jitterPermille: 250 } }),
    RangeError, 'invalid-argument', /^backoff\.jitterPermille applies only with backoff\.jitter "bullmq" \(leave it at 500 otherwise\), got 250 with jitter "equal"$/);
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, backoff: { ...backoff, jitterPermille: '0.5' } }),
    TypeError, 'invalid-type', /^backoff\.jitterPermille must be an integer/);
});

test('the BullMQ snippet writes removeOnFailCount as removeOnFail N (with an age, { age, count }), and runs through node --check', () => {
  const bullmqSystem = SYSTEMS.find((s) => s.key === 'bullmq');
  const count = snippetOf(bullmqSystem, { maxAttempts: 2, system: 'bullmq', removeOnFailCount: 2 }).text;
  assert.match(count, /^ {2}removeOnFail: 2, \/\/ removeOnFailCount 2: each failure trims the failed set to its newest 2$/m);
  const both = snippetOf(bullmqSystem, { maxAttempts: 2, system: 'bullmq', removeOnFailCount: 3, quarantine: { retentionMs: 60_000 } }).text;
  assert.match(both, /^ {2}removeOnFail: \{ age: 60, count: 3 \},/m);
  for (const text of [count, both]) {
    const r = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: text, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

test('dlqMaxLength (rabbitmq-quorum): the DLQ\'s x-max-length drops the oldest dead letter; refused by name elsewhere', () => {
  const q = lab.createQueue({ maxAttempts: 6, system: 'rabbitmq-quorum', dlqMaxLength: 1 });
  q.enqueue('a', 'x');
  q.enqueue('b', 'y');
  q.process('permanent');
  assert.deepEqual(q.quarantined().map((e) => e.id), ['a']);
  q.process('permanent');
  assert.deepEqual(q.quarantined().map((e) => e.id), ['b']);
  assert.equal(q.stats().quarantined, 1);
  assert.throws(() => lab.createQueue({ maxAttempts: 2, system: 'bullmq', dlqMaxLength: 1 }),
    { message: /^dlqMaxLength applies only with system "rabbitmq-quorum"/ });
  assert.throws(() => lab.createQueue({ maxAttempts: 2, system: 'rabbitmq-quorum', dlqMaxLength: -1 }),
    { message: /dlqMaxLength must be an integer from 0 to 1000000000, got -1/ });
});

test('the RabbitMQ snippet writes dlqMaxLength as max-length on the dead-letter queue\'s policy', () => {
  const rabbit = SYSTEMS.find((s) => s.key === 'rabbitmq');
  const policies = (policy) => [...snippetOf(rabbit, policy).text.matchAll(/^rabbitmqctl -n "\$NODE" set_policy .* '(\{.*\})'$/gm)]
    .map((m) => JSON.parse(m[1]));
  const base = { maxAttempts: 3, system: 'rabbitmq-quorum' };
  assert.equal(policies(base).length, 1, 'no DLQ policy without a limit or a retention');
  assert.deepEqual(policies({ ...base, dlqMaxLength: 2 })[1], { 'max-length': 2 });
  assert.deepEqual(policies({ ...base, dlqMaxLength: 2, quarantine: { retentionMs: 60000 } })[1], { 'message-ttl': 60000, 'max-length': 2 });
});

test('the BullMQ and Sidekiq snippets write removeOnFail true and dead: false for the modes\' drop settings', () => {
  const bullmq = snippetOf(SYSTEMS.find((s) => s.key === 'bullmq'), { maxAttempts: 3, system: 'bullmq', removeOnFail: true }).text;
  assert.match(bullmq, /^ {2}removeOnFail: true,/m);
  const r = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: bullmq, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const sidekiq = snippetOf(SYSTEMS.find((s) => s.key === 'sidekiq'), { maxAttempts: 3, system: 'sidekiq', skipDeadSet: true }).text;
  assert.match(sidekiq, /^ {2}sidekiq_options retry: 2, dead: false$/m);
  assert.doesNotMatch(snippetOf(SYSTEMS.find((s) => s.key === 'sidekiq'), { maxAttempts: 3, system: 'sidekiq' }).text, /dead: false/);
});

test('maxLength (rabbitmq-quorum): a publish past the source\'s x-max-length dead-letters the oldest ready message as maxlen', () => {
  const q = lab.createQueue({ maxAttempts: 6, system: 'rabbitmq-quorum', maxLength: 1 });
  for (const id of ['a', 'b', 'c']) q.enqueue(id, id);
  assert.deepEqual(q.ready().map((j) => j.id), ['c']);
  const entries = q.quarantined();
  assert.deepEqual(entries.map((e) => [e.id, e.attempts, e.reason, e.systemReason]),
    [['a', 0, 'max-length', 'maxlen'], ['b', 0, 'max-length', 'maxlen']]);
  assert.deepEqual(entries[0].systemRecord['x-death'], [{ queue: 'orders', reason: 'maxlen', count: 1, time: 0 }]);
  assert.equal(entries[0].systemRecord['x-first-death-reason'], 'maxlen');
  const dead = q.timeline().find((e) => e.kind === 'quarantined' && e.id === 'a');
  assert.equal(dead.reason, 'max-length');
  assert.match(dead.explanation, /^"a" was dead-lettered \(maxlen\): a publish left orders over its maxLength/);
  assert.equal(q.process('success').id, 'c');
  // The policy reads it back; a link carries it; with no DLX the head is dropped.
  assert.equal(q.policy().maxLength, 1);
  q.dispose();
  const dropped = lab.createQueue({ maxAttempts: 6, system: 'rabbitmq-quorum', maxLength: 1, deadLetterExchange: 'none' });
  dropped.enqueue('a', 'x');
  dropped.enqueue('b', 'y');
  assert.deepEqual(dropped.discarded().map((j) => [j.id, j.reason, j.systemReason]), [['a', 'max-length', 'maxlen']]);
  dropped.dispose();
  assert.throws(() => lab.createQueue({ maxAttempts: 2, system: 'bullmq', maxLength: 1 }),
    { message: 'maxLength applies only with system "rabbitmq-quorum" (leave it at its default otherwise), got 1 with system "bullmq"' });
  assert.throws(() => lab.createQueue({ maxAttempts: 2, system: 'rabbitmq-quorum', maxLength: -1 }),
    { message: /maxLength must be an integer from 0 to 1000000000, got -1/ });
  assert.throws(() => lab.createQueue({ maxAttempts: 2, system: 'rabbitmq-quorum', maxLength: 2, antiPatterns: { dlqToSource: true } }),
    { message: /^antiPatterns\.dlqToSource must be false with a maxLength/ });
});

test('the RabbitMQ snippet writes maxLength as max-length with overflow drop-head on the orders policy', () => {
  const rabbit = SYSTEMS.find((s) => s.key === 'rabbitmq');
  const text = (policy) => snippetOf(rabbit, policy).text;
  const main = (policy) => JSON.parse(/set_policy --apply-to queues orders-retry '\^orders\$' '(\{.*\})'$/m.exec(text(policy))[1]);
  const base = { maxAttempts: 6, system: 'rabbitmq-quorum' };
  assert.deepEqual(main(base), { 'delivery-limit': 5, 'dead-letter-exchange': 'orders.dlx', 'dead-letter-strategy': 'at-least-once',
    overflow: 'reject-publish' }, 'no maxLength: as before');
  assert.doesNotMatch(text(base), /max-length/);
  // At-least-once dead-lettering needs reject-publish, which would refuse the publish: with a length limit it is left out.
  assert.deepEqual(main({ ...base, maxLength: 2 }), { 'delivery-limit': 5, 'dead-letter-exchange': 'orders.dlx', 'max-length': 2,
    overflow: 'drop-head' });
  assert.match(text({ ...base, maxLength: 2 }), /^# maxLength 2 -> max-length 2, overflow drop-head: a publish past it dead-letters \(reason maxlen\) the oldest ready message/m);
  assert.deepEqual(main({ ...base, maxLength: 2, deadLetterExchange: 'none' }), { 'delivery-limit': 5, 'max-length': 2, overflow: 'drop-head' });
});

test('messageTtlMs (rabbitmq-quorum): a ready head past its TTL is dead-lettered as expired; a delivered one is not', () => {
  const q = lab.createQueue({ maxAttempts: 6, system: 'rabbitmq-quorum', messageTtlMs: 100 });
  q.enqueue('a', 'x');
  q.enqueue('b', 'y');
  assert.equal(q.advanceToNext(), 100);  // the head's TTL is the next thing time brings
  q.advance(300);
  const entries = q.quarantined();
  assert.deepEqual(entries.map((e) => [e.id, e.attempts, e.reason, e.systemReason, e.arrivedAt]),
    [['a', 0, 'expired', 'expired', 100], ['b', 0, 'expired', 'expired', 100]]);
  assert.deepEqual(entries[0].systemRecord['x-death'], [{ queue: 'orders', reason: 'expired', count: 1, time: 100 }]);
  assert.match(q.timeline().find((e) => e.kind === 'quarantined').explanation, /^"a" was dead-lettered \(expired\): it reached the head of orders/);
  assert.equal(q.policy().messageTtlMs, 100);
  q.dispose();
  assert.throws(() => lab.createQueue({ maxAttempts: 2, system: 'lab', messageTtlMs: 100 }),
    { message: 'messageTtlMs applies only with system "rabbitmq-quorum" (leave it at its default otherwise), got 100 with system "lab"' });
});

test('the RabbitMQ snippet writes messageTtlMs as message-ttl on the orders policy', () => {
  const rabbit = SYSTEMS.find((s) => s.key === 'rabbitmq');
  const text = (policy) => snippetOf(rabbit, policy).text;
  const main = (policy) => JSON.parse(/set_policy --apply-to queues orders-retry '\^orders\$' '(\{.*\})'$/m.exec(text(policy))[1]);
  const base = { maxAttempts: 6, system: 'rabbitmq-quorum' };
  assert.deepEqual(main({ ...base, messageTtlMs: 100 }), { 'delivery-limit': 5, 'dead-letter-exchange': 'orders.dlx',
    'dead-letter-strategy': 'at-least-once', overflow: 'reject-publish', 'message-ttl': 100 });
  assert.match(text({ ...base, messageTtlMs: 100 }), /^# messageTtlMs 100 -> message-ttl 100: a message still waiting at the head/m);
  assert.doesNotMatch(text(base), /message-ttl/);
});
