// The Advanced set-up: the capstone's policy (backoff, jitter, leases, seed,
// ordering, quarantine operability, the failure-class table, the unsafe
// quarantine order) and the simulated world (workers, work time, an outage).
// It only collects values: every change goes to the core through the session,
// which checks it and replays the script; a refusal is shown here, by name.
import { h } from '../shared/dom.mjs';

/**
 * The behaviours a job can be given when it is added: [value, label]. A poison
 * job fails with one of the core's failing outcomes (`outcomes`: lab.outcomes).
 */
export function behaviours(outcomes) {
  return [
    ['healthy', 'Healthy'],
    ...outcomes.filter((o) => o !== 'success' && o !== 'transient').map((o) => [`poison:${o}`, `Poison: ${o.replace('-', ' ')}`]),
    ['flaky', 'Flaky: fails n times'],
    ['precondition', 'Precondition until T ms'],
    ['crashes', 'Crashes its worker n times'],
    ['script', 'Script of outcomes'],
  ];
}

/**
 * A behaviour object for the world from the Add-job fields (null for healthy);
 * the detail is passed as the core expects it and the core checks it.
 */
export function behaviourFromFields(choice, detail) {
  const [kind, failure] = choice.split(':');
  const number = () => (detail.trim() === '' ? NaN : Number(detail));
  switch (kind) {
    case 'healthy': return null;
    case 'poison': return { kind, failure };
    case 'flaky':
    case 'crashes': return { kind, count: number() };
    case 'precondition': return { kind, until: number() };
    case 'script': return { kind, script: detail.trim() };
    default: throw new Error(`unknown behaviour ${choice}`);
  }
}

const num = (input) => (input.value.trim() === '' ? NaN : input.valueAsNumber);

/**
 * Builds the section for the core's failure classes (`classes`: lab.failureClasses,
 * in its order). onPolicy(changes, alert) and onWorld(world, alert) apply a
 * change (they show a refusal in `alert`); onOpen() redraws when it opens or closes.
 * Returns { element, open, sync(policy, world) }.
 */
export function advancedSetup(id, { classes, onPolicy, onWorld, onOpen }) {
  // The body is built the first time the section opens: most readers never open
  // it, and the page is interactive sooner without ~80 controls it would not show.
  const details = h('details', { class: 'dlq-advanced' },
    h('summary', {}, 'Advanced: time, classes, order, durability and the simulated world'));
  let shown = null;  // the last sync()'s arguments
  let fill = null;   // the body's sync, once built
  details.addEventListener('toggle', () => {
    if (details.open && fill === null) {
      fill = build(id, { classes, onPolicy, onWorld }, details);
      if (shown) fill(...shown);
    }
    onOpen();
  });
  return {
    element: details,
    get open() { return details.open; },
    /** Shows the policy in force (queue.policy()) and the world (closed until the reader opens it). */
    sync(policy, worldNow) {
      shown = [policy, worldNow];
      if (fill) fill(policy, worldNow);
    },
  };
}

/** Builds the section's body into `details`; returns the function that shows a policy and a world in it. */
function build(id, { classes, onPolicy, onWorld }, details) {
  const f = {};
  let current = { world: {} };
  const field = (key, label, input, hint) => h('div', { class: 'dlq-field' },
    h('label', { for: `${id}-a-${key}` }, label), input, hint ? h('span', { class: 'dlq-hint' }, hint) : null);
  const number = (key, attrs = {}) => (f[key] = h('input', {
    type: 'number', id: `${id}-a-${key}`, class: 'dlq-input dlq-narrow2', min: 0, step: 1, inputmode: 'numeric', ...attrs,
  }));
  const select = (key, options) => (f[key] = h('select', { id: `${id}-a-${key}`, class: 'dlq-input' },
    options.map(([value, text]) => h('option', { value }, text))));
  const policyAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });
  const worldAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });

  const backoff = () => ({ kind: f.kind.value, baseMs: num(f.base), capMs: num(f.cap), jitter: f.jitter.value });
  const quarantine = () => ({ retentionMs: num(f.retention), alarmDepth: num(f.alarm) });
  const world = () => {
    const from = num(f.outFrom);
    const to = num(f.outTo);
    return { ...current.world, workers: num(f.workers), workMs: num(f.work),
      outage: (f.outFrom.value === '' && f.outTo.value === '') || from === to ? null : { startMs: from, endMs: to } };
  };
  const onChange = (input, apply) => input.addEventListener('change', apply);

  const policyFields = h('div', { class: 'dlq-setup-row' },
    field('kind', 'Backoff', select('kind', [['none', 'None (requeue at once)'], ['fixed', 'Fixed'], ['exponential', 'Exponential']])),
    field('jitter', 'Jitter', select('jitter', [['none', 'None'], ['full', 'Full'], ['equal', 'Equal'], ['decorrelated', 'Decorrelated']])),
    field('base', 'Base delay (ms)', number('base', { min: 1 })),
    field('cap', 'Cap (ms)', number('cap', { min: 1 })),
    field('lease', 'Lease timeout (ms)', number('lease', { min: 1 })),
    field('seed', 'Seed', number('seed')),
    field('ordering', 'Ordering', select('ordering', [['none', 'None: skip past'], ['key', 'Hold the key'], ['stall', 'Stall: head only']])),
    field('retention', 'Retention (ms)', number('retention'), '0: forever'),
    field('alarm', 'Alarm depth', number('alarm'), '0: no alarm'));
  for (const key of ['kind', 'jitter', 'base', 'cap']) onChange(f[key], () => onPolicy({ backoff: backoff() }, policyAlert));
  onChange(f.lease, () => onPolicy({ leaseMs: num(f.lease) }, policyAlert));
  onChange(f.seed, () => onPolicy({ seed: num(f.seed) }, policyAlert));
  onChange(f.ordering, () => onPolicy({ ordering: f.ordering.value }, policyAlert));
  for (const key of ['retention', 'alarm']) onChange(f[key], () => onPolicy({ quarantine: quarantine() }, policyAlert));
  f.unsafe = h('input', { type: 'checkbox', id: `${id}-a-unsafe` });
  onChange(f.unsafe, () => onPolicy({ unsafeQuarantineOrder: f.unsafe.checked }, policyAlert));
  const unsafe = h('p', { class: 'dlq-check' }, f.unsafe, ' ',
    h('label', { for: `${id}-a-unsafe` }, 'Unsafe quarantine order (teaching switch: remove from the source before writing the entry)'));

  // The class table: one row per class, retry, budget and alert.
  const rows = classes.map((name) => {
    const retry = h('select', { id: `${id}-c-${name}-retry`, class: 'dlq-input', 'aria-label': `${name}: retry` },
      h('option', { value: 'bounded' }, 'bounded'), h('option', { value: 'never' }, 'never'));
    const max = h('input', { type: 'number', id: `${id}-c-${name}-max`, class: 'dlq-input dlq-narrow', min: 0, step: 1,
      inputmode: 'numeric', 'aria-label': `${name}: max attempts (0: the policy's)` });
    const alert = h('input', { type: 'checkbox', id: `${id}-c-${name}-alert`, 'aria-label': `${name}: alert` });
    // Its delay: the policy's backoff, or its own kind and base (cap and jitter keep the class's own, shown beside).
    const delayKind = h('select', { id: `${id}-c-${name}-delay`, class: 'dlq-input', 'aria-label': `${name}: delay` },
      [['policy', 'the policy’s'], ['none', 'none'], ['fixed', 'fixed'], ['exponential', 'exponential']]
        .map(([value, text]) => h('option', { value }, text)));
    const base = h('input', { type: 'number', id: `${id}-c-${name}-base`, class: 'dlq-input dlq-narrow', min: 1, step: 1,
      inputmode: 'numeric', 'aria-label': `${name}: base delay (ms)` });
    const delay = h('span', { class: 'dlq-hint' });
    const ownBackoff = () => (delayKind.value === 'policy' ? 'policy'
      : delayKind.value === 'none' || base.hidden || base.value === '' ? { kind: delayKind.value }  // the class's own base
        : { kind: delayKind.value, baseMs: num(base) });
    const apply = () => onPolicy({ classes: { [name]: {
      retry: retry.value, maxAttempts: num(max), alert: alert.checked, backoff: ownBackoff() } } }, policyAlert);
    for (const input of [retry, max, alert, delayKind, base]) onChange(input, apply);
    f[`class-${name}`] = { retry, max, alert, delayKind, base, delay };
    return h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, retry), h('td', {}, max),
      h('td', {}, h('span', { class: 'dlq-class-delay' }, delayKind, base, delay)), h('td', {}, alert));
  });
  const table = h('table', { class: 'dlq-classes' },
    h('caption', {}, 'Failure classes: what the queue does with each kind of failure'),
    h('thead', {}, h('tr', {}, ['Class', 'Retry', 'Max attempts (0: policy)', 'Delay', 'Alert'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows));

  const worldFields = h('div', { class: 'dlq-setup-row' },
    field('workers', 'Workers', number('workers', { min: 1, max: 64 })),
    field('work', 'Work time (ms)', number('work', { min: 1 })),
    field('outFrom', 'Outage from (ms)', number('outFrom')),
    field('outTo', 'Outage to (ms)', number('outTo')));
  for (const key of ['workers', 'work', 'outFrom', 'outTo']) onChange(f[key], () => onWorld(world(), worldAlert));

  details.append(
    h('h3', {}, 'Policy'), policyFields, unsafe, policyAlert,
    // Scrolls sideways on a narrow screen instead of widening the page.
    h('div', { class: 'dlq-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Failure classes table' }, table),
    h('h3', {}, 'Simulated world'),
    h('p', { class: 'dlq-hint' }, 'Play (and Run past the script) lets simulated workers lease, work and settle on the clock. Give a job a behaviour when you add it (Key and Behaviour above).'),
    worldFields, worldAlert);

  const set = (input, value) => {
    if (input.ownerDocument.activeElement === input) return;  // the reader is typing
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else input.value = String(value);
  };
  return (policy, worldNow) => {
      current = { world: worldNow ?? {} };
      set(f.kind, policy.backoff.kind);
      set(f.jitter, policy.backoff.jitter);
      set(f.base, policy.backoff.baseMs);
      set(f.cap, policy.backoff.capMs);
      set(f.lease, policy.leaseMs);
      set(f.seed, policy.seed);
      set(f.ordering, policy.ordering);
      set(f.retention, policy.quarantine.retentionMs);
      set(f.alarm, policy.quarantine.alarmDepth);
      set(f.unsafe, policy.unsafeQuarantineOrder);
      for (const name of classes) {
        const rule = policy.classes[name];
        const row = f[`class-${name}`];
        set(row.retry, rule.retry);
        set(row.max, rule.maxAttempts);
        set(row.alert, rule.alert);
        const own = rule.backoff === 'policy' ? null : rule.backoff;
        set(row.delayKind, own ? own.kind : 'policy');
        if (own) set(row.base, own.baseMs);
        row.base.hidden = !own || own.kind === 'none';
        row.delay.textContent = rule.retry === 'never' ? 'never retried'
          : own && own.kind !== 'none' ? `ms; cap ${own.capMs} ms, jitter ${own.jitter}` : '';
      }
      const w = worldNow ?? {};
      set(f.workers, w.workers ?? 1);
      set(f.work, w.workMs ?? 100);
      set(f.outFrom, w.outage ? w.outage.startMs : '');
      set(f.outTo, w.outage ? w.outage.endMs : '');
  };
}
