#!/usr/bin/env node
// Writes the generated regions of wasm/index.d.ts from the core's tables, read
// through the built WebAssembly modules (lab.schema: core/policy/schema.cpp,
// core/scenario/action_schema.cpp; sim.schema: core/sim/storm.cpp): the option interfaces of
// the policy and its groups, the backoff's, the storm's and its groups', and the
// ScenarioAction union. Everything outside the regions stays hand-written.
//
//   node scripts/gen-types.mjs           rewrite the regions in place
//   node scripts/gen-types.mjs --check   exit 1 when the committed file differs
//
// A region is the text between "// @generated begin <name>" and
// "// @generated end <name>"; tests/node/gen-types.test.mjs fails when the
// committed file is not what this script writes (npm test runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TYPES_FILE = path.join(root, 'wasm/index.d.ts');

// The TypeScript alias that names a choice row's values (the alias stays
// hand-written beside its members' docs; tests/node/schema.test.mjs checks it
// spells the row's choices). A choice row not listed gets a literal union.
const CHOICE_ALIASES = {
  'policy.ordering': 'Ordering', 'policy.system': 'System', 'policy.deliveryLimit': 'DeliveryLimit',
  'policy.deadLetterExchange': 'DeadLetterExchange', 'policy.delayAt': 'DelayAt',
  'backoff.kind': 'BackoffKind', 'backoff.jitter': 'Jitter',
};
// The interface of each group of policy rows ("quarantine.retentionMs" is in QuarantineOptions).
const GROUP_TYPES = { quarantine: 'QuarantineOptions', effects: 'EffectsOptions', antiPatterns: 'AntiPatternOptions' };
// The policy's members that are objects of their own tables, not rows of its own.
const POLICY_OBJECTS = [
  ['backoff', 'BackoffOptions', 'The policy\'s backoff (lab.schema.backoff).'],
  ['classes', 'ClassOptions', 'Overrides of the class table, merged over the defaults row by row and field by field (lab.schema.classRule).'],
];
// The storm's groups of rows (sim.schema.storm: core/sim/storm.cpp): each group's
// interface, what else its member may be, and the member's doc. A group's required
// rows are required only when the group is given.
const STORM_GROUPS = {
  arrival: ['StormArrival', '', "How jobs arrive: all at 0 ms ('burst'), at a rate (open loop) or from clients (closed loop); default burst."],
  outage: ['StormOutage', ' | null', 'The dependency is down in [startMs, startMs + durationMs); default none.'],
  capacity: ['StormCapacity', ' | null', 'At most perWindow successful attempts per fixed window, counted when an attempt finishes; default none.'],
  budget: ['StormBudget', ' | string | null',
    "A retry budget (docs/storm.md \"Retry budgets\"), or the command line's text ('grpc:10:0.1', 'aws-standard', 'finagle:20:10:10000'); default none."],
  server: ['StormServer', ' | null', 'The dependency as a server (the metastable model); default none.'],
};
// The storm's members that are objects of their own tables.
const STORM_OBJECTS = [['backoff', 'BackoffOptions', "As a queue's (lab.schema.backoff); the jitter draws come from the seed's jitter stream."]];
const STORM_DOC = 'sim.createStorm()\'s options (docs/storm.md; sim.schema.storm): jobs arrive, W workers take the ready head, '
  + 'each attempt finishes workMs later and is decided by the queue\'s policy; absent fields take the core\'s defaults.';

// An action field's TypeScript type by its kind (core/scenario/action_schema.h).
const ACTION_KIND_TYPES = { text: 'string', key: 'string', outcome: 'Outcome', integer: 'number', boolean: 'boolean', name: 'string' };

const number = (n) => n.toLocaleString('en-US');
const quote = (s) => `'${s}'`;

function rowType(table, row) {
  switch (row.kind) {
    case 'integer': return 'number';
    case 'boolean': return 'boolean';
    case 'choice': return CHOICE_ALIASES[`${table}.${row.name}`] ?? row.choices.map((c) => quote(c.name)).join(' | ');
    default: throw new Error(`lab.schema.${table}.${row.name}: unknown kind ${row.kind}`);
  }
}

/** The row's one-line doc: its description, then its range and default. */
function rowDoc(row) {
  let tail;
  if (row.kind === 'integer') tail = `An integer from ${number(row.min)} to ${number(row.max)}; default ${number(row.default)}.`;
  else if (row.kind === 'choice') tail = `Default ${quote(row.default)}.`;
  else tail = `Default ${row.default}.`;
  return `${row.description} ${tail}`;
}

/** A member with its doc comment, wrapped at about 110 columns. */
function member(indent, doc, name, optional, type) {
  const lines = [];
  const words = doc.split(' ');
  let line = '';
  for (const word of words) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 110) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  const comment = lines.length === 1 && indent.length + 7 + lines[0].length <= 110
    ? [`${indent}/** ${lines[0]} */`]
    : [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
  return [...comment, `${indent}${name}${optional ? '?' : ''}: ${type};`];
}

function optionsInterface(name, doc, table, rows, extra = []) {
  const out = [`/** ${doc} */`, `export interface ${name} {`];
  for (const [key, type, text] of extra) out.push(...member('  ', text, key, true, type));
  for (const row of rows) out.push(...member('  ', rowDoc(row), row.name.split('.').pop(), !row.required, rowType(table, row)));
  out.push('}');
  return out.join('\n');
}

/** StormOptions and its groups' interfaces from sim.schema.storm; a group stands where its first row is. */
function stormInterfaces(rows) {
  const out = [`/** ${STORM_DOC} */`, 'export interface StormOptions {'];
  for (const [key, type, doc] of STORM_OBJECTS) out.push(...member('  ', doc, key, true, type));
  const seen = new Set();
  for (const row of rows) {
    const group = row.name.includes('.') ? row.name.split('.')[0] : null;
    if (group === null) {
      out.push(...member('  ', rowDoc(row), row.name, !row.required, rowType('storm', row)));
    } else if (!seen.has(group)) {
      if (!STORM_GROUPS[group]) throw new Error(`sim.schema.storm: group ${group} has no interface in STORM_GROUPS`);
      seen.add(group);
      const [type, also, doc] = STORM_GROUPS[group];
      out.push(...member('  ', doc, group, true, `${type}${also}`));
    }
  }
  out.push('}');
  const groups = [...seen].map((group) => optionsInterface(STORM_GROUPS[group][0], `StormOptions.${group}.`, 'storm',
    rows.filter((r) => r.name.startsWith(`${group}.`)).map((r) => ({ ...r, name: r.name.slice(group.length + 1) }))));
  return [out.join('\n'), ...groups].join('\n\n');
}

/** The generated regions, by name, from `schema` (lab.schema). */
export function generate(schema) {
  const policyRows = schema.policy.filter((row) => row.scenario);
  const own = policyRows.filter((row) => !row.name.includes('.'));
  const regions = {};
  const groups = [...new Set(policyRows.filter((r) => r.name.includes('.')).map((r) => r.name.split('.')[0]))];
  const groupMembers = groups.map((group) => [group, GROUP_TYPES[group], `The policy's ${group} fields; absent ones keep their defaults.`]);
  regions.PolicyOptions = optionsInterface('PolicyOptions',
    'The policy fields a scenario link carries (scenario objects take these); absent fields take the core\'s defaults.',
    'policy', own, [...POLICY_OBJECTS, ...groupMembers]);
  regions.PolicyGroups = groups.map((group) => {
    if (!GROUP_TYPES[group]) throw new Error(`lab.schema.policy: group ${group} has no interface in GROUP_TYPES`);
    const rows = policyRows.filter((r) => r.name.startsWith(`${group}.`));
    return optionsInterface(GROUP_TYPES[group], `PolicyOptions.${group}.`, 'policy', rows);
  }).join('\n\n');
  regions.BackoffOptions = optionsInterface('BackoffOptions',
    'How long a job waits after a failed attempt before it is ready again (see docs/policy.md).', 'backoff', schema.backoff);
  regions.StormOptions = stormInterfaces(schema.storm);
  const actions = schema.actions.map((type) => {
    const fields = [`type: ${quote(type.type)}`];
    for (const field of type.fields) fields.push(`${field.name}${field.required ? '' : '?'}: ${ACTION_KIND_TYPES[field.kind]}`);
    return `  /** ${type.description} */\n  | { ${fields.join('; ')} }`;
  });
  regions.ScenarioAction = `/** One scripted action (lab.schema.actions). */\nexport type ScenarioAction =\n${actions.join('\n')};`;
  return regions;
}

/** `text` with every region replaced by its generated body; throws for a region missing or unknown. */
export function rewrite(text, regions) {
  const seen = new Set();
  const out = text.replace(/(\/\/ @generated begin (\w+)[^\n]*\n)[\s\S]*?(\/\/ @generated end \2\n)/g, (all, begin, name, end) => {
    if (!(name in regions)) throw new Error(`index.d.ts: a region ${name} this script does not write`);
    seen.add(name);
    return `${begin}${regions[name]}\n${end}`;
  });
  for (const name of Object.keys(regions)) {
    if (!seen.has(name)) throw new Error(`index.d.ts: no region ${name} ("// @generated begin ${name}" … "// @generated end ${name}")`);
  }
  return out;
}

/** The tables the types come from: lab.schema's and the simulations' storm rows (sim.schema: their own module). */
export const typeTables = (lab, sim) => ({ ...lab.schema, storm: sim.schema.storm });

async function main() {
  const { loadLab, loadSim } = await import('../wasm/index.mjs');
  const [lab, sim] = await Promise.all([loadLab(), loadSim()]);
  const before = readFileSync(TYPES_FILE, 'utf8');
  const after = rewrite(before, generate(typeTables(lab, sim)));
  if (process.argv.includes('--check')) {
    if (after !== before) {
      console.error('wasm/index.d.ts differs from a fresh generation: run node scripts/gen-types.mjs');
      process.exit(1);
    }
    return;
  }
  if (after !== before) writeFileSync(TYPES_FILE, after);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
