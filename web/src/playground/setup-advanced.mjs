// @ts-check
// The Advanced set-up: the capstone's policy (backoff, jitter, leases, seed,
// ordering, quarantine operability, the failure-class table, the unsafe
// quarantine order) and the simulated world (workers, work time, an outage).
// Its fields, labels, ranges and choices are the core's tables (lab.schema), so
// a field added there appears here. It only collects values: every change goes
// to the core through the session, which checks it and replays the script; a
// refusal is shown here, by name.
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
    ['malformed', 'Malformed until patched'],
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
    case 'malformed': return { kind };
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
 * Builds the section from the core's tables (`schema`: lab.schema) and failure
 * classes (`classes`: lab.failureClasses, in its order). onPolicy(changes, alert)
 * and onWorld(world, alert) apply a change (they show a refusal in `alert`);
 * onOpen() redraws when it opens or closes. Returns { element, open, sync(policy, world, rules) }.
 */
export function advancedSetup(id, { schema, classes, onPolicy, onWorld, onOpen }) {
  // The body is built the first time the section opens: most readers never open
  // it, and the page is interactive sooner without ~80 controls it would not show.
  const details = h('details', { class: 'dlq-advanced' },
    h('summary', {}, 'Advanced: time, classes, order, durability and the simulated world'));
  let shown = null;  // the last sync()'s arguments
  let fill = null;   // the body's sync, once built
  details.addEventListener('toggle', () => {
    if (details.open && fill === null) {
      fill = build(id, { schema, classes, onPolicy, onWorld }, details);
      if (shown) fill(...shown);
    }
    onOpen();
  });
  return {
    element: details,
    get open() { return details.open; },
    /** Shows the policy in force (queue.policy()), the class rules it resolves to (queue.rules(): a mode
     *  may retry a class the table sets to never) and the world (closed until the reader opens it). */
    sync(policy, worldNow, rulesInForce) {
      shown = [policy, worldNow, rulesInForce];
      if (fill) fill(...shown);
    },
  };
}

/** The value at `path` ("a.b") of `object`, or undefined. */
const at = (object, path) => path.split('.').reduce((o, key) => (o == null ? undefined : o[key]), object);

/** One input for a schema row: a number box, a select of its choices, or a checkbox. */
function inputFor(row, attrs) {
  switch (row.kind) {
    case 'integer': return h('input', { type: 'number', class: 'dlq-input dlq-narrow2', min: row.min, max: row.max, step: 1,
      inputmode: 'numeric', ...attrs });
    case 'choice': return h('select', { class: 'dlq-input', ...attrs },
      row.choices.map((c) => h('option', { value: c.name }, c.label)));
    case 'boolean': return h('input', { type: 'checkbox', ...attrs });
    default: throw new Error(`setup: ${row.name} has an unknown kind ${row.kind}`);
  }
}

/** The value an input holds, as its row's kind spells it (an empty number box is NaN: the core names it). */
function valueOf(row, input) {
  switch (row.kind) {
    case 'integer': return num(input);
    case 'choice': return input.value;
    default: return input.checked;
  }
}

/**
 * The fields of `rows` as inputs keyed by path, each labelled by its row; a
 * change calls `changed(row)`. `prefix` is put in front of paths ('backoff.').
 */
function fieldsFor(id, rows, prefix, changed) {
  const inputs = new Map();
  const elements = rows.map((row) => {
    const path = prefix + row.name;
    const input = inputFor(row, { id: `${id}-a-${path.replaceAll('.', '-')}`, title: row.description });
    input.addEventListener('change', () => changed(row, path));
    inputs.set(path, { row, input });
    if (row.kind === 'boolean') {
      // "Unsafe quarantine order (teaching switch: …)": the label, then its description as an aside.
      const aside = row.description.replace(/\.$/, '');
      return h('p', { class: 'dlq-check' }, input, ' ',
        h('label', { for: input.id }, `${row.label} (${aside[0].toLowerCase()}${aside.slice(1)})`));
    }
    return h('div', { class: 'dlq-field' }, h('label', { for: input.id }, row.label), input);
  });
  return { inputs, elements };
}

// A change sends its field, or its whole group ({ backoff: {…} }), as the inputs hold it.
function groupOf(inputs, path) {
  const dot = path.indexOf('.');
  if (dot < 0) return { [path]: valueOf(inputs.get(path).row, inputs.get(path).input) };
  const group = path.slice(0, dot);
  const value = {};
  for (const [p, { row, input }] of inputs) if (p.startsWith(`${group}.`)) value[p.slice(dot + 1)] = valueOf(row, input);
  return { [group]: value };
}

/**
 * The class table: one row per class, a column per field of a class rule, and
 * its delay. A change sends the class's whole rule through sendPolicy; classCells
 * maps a class to its inputs (showClassRow).
 */
function classTable(id, { schema, classes }, sendPolicy) {
  const ruleRows = schema.classRule;
  const classCells = new Map();
  const rows = classes.map((name) => {
    const cells = ruleRows.map((row) => inputFor(row, {
      id: `${id}-c-${name}-${row.name}`, 'aria-label': `${name}: ${row.label.toLowerCase()}`, title: row.description,
      ...(row.kind === 'integer' ? { class: 'dlq-input dlq-narrow' } : {}),
    }));
    // Its delay: the policy's backoff, or its own kind and base (cap and jitter keep the class's own, shown beside).
    const kinds = schema.backoff.find((row) => row.name === 'kind').choices;
    const delayKind = h('select', { id: `${id}-c-${name}-delay`, class: 'dlq-input', 'aria-label': `${name}: delay` },
      [['policy', 'the policy’s'], ...kinds.map((c) => [c.name, c.name])].map(([value, text]) => h('option', { value }, text)));
    const base = h('input', { type: 'number', id: `${id}-c-${name}-base`, class: 'dlq-input dlq-narrow', min: 1, step: 1,
      inputmode: 'numeric', 'aria-label': `${name}: base delay (ms)` });
    const delay = h('span', { class: 'dlq-hint' });
    const ownBackoff = () => (delayKind.value === 'policy' ? 'policy'
      : delayKind.value === 'none' || base.hidden || base.value === '' ? { kind: delayKind.value }  // the class's own base
        : { kind: delayKind.value, baseMs: num(base) });
    const apply = () => {
      const rule = Object.fromEntries(ruleRows.map((row, i) => [row.name, valueOf(row, cells[i])]));
      sendPolicy({ classes: { [name]: { ...rule, backoff: ownBackoff() } } });
    };
    for (const input of [...cells, delayKind, base]) input.addEventListener('change', apply);
    classCells.set(name, { cells, delayKind, base, delay });
    return h('tr', {}, h('th', { scope: 'row' }, name), cells.map((cell) => h('td', {}, cell)),
      h('td', {}, h('span', { class: 'dlq-class-delay' }, delayKind, base, delay)));
  });
  const table = h('table', { class: 'dlq-classes' },
    h('caption', {}, 'Failure classes: what the queue does with each kind of failure'),
    h('thead', {}, h('tr', {}, ['Class', ...ruleRows.map((row) => row.label), 'Delay'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows));
  return { table, classCells };
}

// Shows `value` in `input`, unless the reader is typing in it.
function showValue(input, value) {
  if (input.ownerDocument.activeElement === input) return;  // the reader is typing
  if (input.type === 'checkbox') input.checked = Boolean(value);
  else input.value = value === undefined || value === null ? '' : String(value);
}

/** Shows a class's rule in its row: its fields, its own delay, and whether it is retried. */
function showClassRow({ cells, delayKind, base, delay }, ruleRows, { rule, inForce, system }) {
  ruleRows.forEach((row, i) => showValue(cells[i], rule[row.name]));
  const own = rule.backoff === 'policy' ? null : rule.backoff;
  showValue(delayKind, own ? own.kind : 'policy');
  if (own) showValue(base, own.baseMs);
  base.hidden = !own || own.kind === 'none';
  const never = (inForce ?? rule).retry === 'never';
  delay.textContent = never ? 'never retried'
    : rule.retry === 'never' ? `set to never, but retried under ${system}`
    : own && own.kind !== 'none' ? `ms; cap ${own.capMs} ms, jitter ${own.jitter}` : '';
}

/** Builds the section's body into `details`; returns the function that shows a policy and a world in it. */
function build(id, { schema, classes, onPolicy, onWorld }, details) {
  let current = { world: {} };
  const policyAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });
  const worldAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });

  // The policy's rows but maxAttempts (the main set-up has it) and createQueue's own switches.
  const policyRows = schema.policy.filter((row) => row.scenario && !row.required);
  const policy = fieldsFor(id, [...schema.backoff.map((r) => ({ ...r, name: `backoff.${r.name}` })), ...policyRows], '',
    (row, path) => onPolicy(groupOf(policy.inputs, path), policyAlert));
  const [numbers, switches] = [policy.elements.filter((e) => e.tagName !== 'P'), policy.elements.filter((e) => e.tagName === 'P')];
  const { table, classCells } = classTable(id, { schema, classes }, (change) => onPolicy(change, policyAlert));

  const world = fieldsFor(id, schema.world, 'world.', () => onWorld(worldValue(), worldAlert));
  // An outage with both ends empty or equal is none: null.
  const worldValue = () => {
    /** @type {Record<string, any>} */
    const value = { ...current.world };
    for (const [path, { row, input }] of world.inputs) {
      const [, group, key] = path.split('.');
      if (key === undefined) value[group] = valueOf(row, input);
    }
    const [from, to] = [world.inputs.get('world.outage.startMs').input, world.inputs.get('world.outage.endMs').input];
    value.outage = (from.value === '' && to.value === '') || num(from) === num(to) ? null
      : { startMs: num(from), endMs: num(to) };
    return value;
  };

  details.append(
    h('h3', {}, 'Policy'), h('div', { class: 'dlq-setup-row' }, numbers), ...switches, policyAlert,
    // Scrolls sideways on a narrow screen instead of widening the page.
    h('div', { class: 'dlq-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Failure classes table' }, table),
    h('h3', {}, 'Simulated world'),
    h('p', { class: 'dlq-hint' }, 'Play (and Run past the script) lets simulated workers lease, work and settle on the clock. Give a job a behaviour when you add it (Key and Behaviour above).'),
    h('div', { class: 'dlq-setup-row' }, world.elements), worldAlert);

  return (policyNow, worldNow, rulesInForce) => {
    current = { world: worldNow ?? {} };
    // A field the policy leaves out (jitterPermille without jitter bullmq) shows its default.
    for (const [path, { row, input }] of policy.inputs) showValue(input, at(policyNow, path) ?? row.default);
    for (const name of classes) {
      showClassRow(classCells.get(name), schema.classRule,
        { rule: policyNow.classes[name], inForce: rulesInForce?.[name], system: policyNow.system });
    }
    // The world as a parsed link gives it, its schema defaults where it has none yet.
    for (const [path, { row, input }] of world.inputs) {
      const inWorld = at({ world: worldNow ?? {} }, path);
      const isOutage = path.startsWith('world.outage.');
      showValue(input, isOutage ? (worldNow?.outage ? inWorld : '') : inWorld ?? row.default);
    }
  };
}
