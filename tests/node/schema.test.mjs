// lab.schema, the core's one table of every configurable field (core/base/field.h):
// index.d.ts declares exactly its fields with its kinds, and every field of every
// options object is refused by its name for a wrong type or range and takes its
// default, through the API that takes that object.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import ts from 'typescript';
import { lab, sim, root } from './helpers.mjs';

const TABLES = ['policy', 'backoff', 'classRule', 'world', 'storm', 'contention', 'schedule'];
// The simulations' tables are sim.schema's (their own module: wasm/sim.mjs); the rest lab.schema's.
const SIM_TABLES = ['storm', 'contention'];
const schemaOf = (table) => (SIM_TABLES.includes(table) ? sim.schema : lab.schema)[table];

test('lab.schema and sim.schema: one frozen table per options object, each row described', () => {
  assert.deepEqual(Object.keys(lab.schema), [...TABLES.filter((t) => !SIM_TABLES.includes(t)), 'actions']);
  assert.deepEqual(Object.keys(sim.schema), ['backoff', ...SIM_TABLES]);
  assert.ok(Object.isFrozen(lab.schema) && Object.isFrozen(sim.schema));
  // A storm's backoff is a queue's: the two modules' backoff rows are one table.
  assert.deepEqual(sim.schema.backoff, lab.schema.backoff);
  for (const table of TABLES) {
    assert.ok(Object.isFrozen(schemaOf(table)), table);
    const names = new Set();
    for (const row of schemaOf(table)) {
      const at = `${table}.${row.name}`;
      assert.ok(Object.isFrozen(row), at);
      assert.ok(!names.has(row.name), `${at} twice`);
      names.add(row.name);
      assert.match(row.name, /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)?$/, at);
      assert.ok(['integer', 'boolean', 'choice'].includes(row.kind), at);
      assert.ok(row.label.length > 0 && row.description.length > 10, `${at}: label and description`);
      assert.ok(row.description.length <= 160, `${at}: one line`);
      if (row.kind === 'integer') {
        assert.ok(Number.isSafeInteger(row.min) && Number.isSafeInteger(row.max) && row.min <= row.max, at);
        assert.ok(row.default >= row.min && row.default <= row.max, `${at}: default in range`);
      } else if (row.kind === 'choice') {
        assert.ok(row.choices.length >= 2, at);
        assert.ok(row.choices.some((c) => c.name === row.default), `${at}: default is a choice`);
      } else {
        assert.equal(typeof row.default, 'boolean', at);
      }
    }
  }
  // The lists the core owns agree with the tables that spell them.
  assert.deepEqual(lab.schema.policy.filter((r) => !r.scenario).map((r) => r.name), ['journal']);
});

// ---- index.d.ts against the table -----------------------------------------

const program = ts.createProgram([path.join(root, 'wasm/index.d.ts')], { strict: true, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(path.join(root, 'wasm/index.d.ts'));

function declared(name) {
  let found = null;
  ts.forEachChild(source, (node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text === name) found = node;
  });
  assert.ok(found, `index.d.ts declares ${name}`);
  return checker.getTypeAtLocation(found.name);
}

/**
 * { optional, type } of property `name` of `type`, or null. In a union of object
 * types (StormOptions.arrival) its type is the union of the members' that have it.
 */
function property(type, name) {
  const members = type.isUnion() ? type.types : [type];
  const found = members.map((m) => checker.getPropertyOfType(m, name)).filter(Boolean);
  if (found.length === 0) return null;
  const types = found.map((symbol) => checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, source)));
  return {
    optional: (found[0].flags & ts.SymbolFlags.Optional) !== 0,
    type: types.length === 1 ? types[0] : { union: types },
    union: type.isUnion(),
  };
}

/** The kind index.d.ts gives a type: integer (number), boolean, or the choices of a string-literal union. */
function kindOf(type) {
  if (type.union) {
    const kinds = type.union.map(kindOf);
    return kinds.every((k) => k.kind === 'choice') ? { kind: 'choice', choices: kinds.flatMap((k) => k.choices) } : kinds[0];
  }
  if (type.flags & ts.TypeFlags.Number) return { kind: 'integer' };
  if (type.flags & ts.TypeFlags.Boolean) return { kind: 'boolean' };
  const members = type.isUnion() ? type.types : [type];
  if (members.every((m) => m.flags & ts.TypeFlags.StringLiteral)) return { kind: 'choice', choices: members.map((m) => m.value) };
  return { kind: checker.typeToString(type) };
}

/**
 * Checks that `interfaceName` declares every row of `rows` (a path "a.b" through
 * the type of a) with the row's kind, optional unless required, and that it
 * declares nothing else but `structural` properties (lists and maps the tables
 * do not describe).
 */
function checkDeclares(interfaceName, rows, structural) {
  const type = declared(interfaceName);
  const groups = new Set(rows.filter((r) => r.name.includes('.')).map((r) => r.name.split('.')[0]));
  for (const row of rows) {
    const parts = row.name.split('.');
    let owner = type;
    let found = null;
    for (const [i, part] of parts.entries()) {
      found = property(owner, part);
      assert.ok(found, `${interfaceName} declares ${parts.slice(0, i + 1).join('.')}`);
      owner = found.type;
    }
    const got = kindOf(found.type);
    assert.equal(got.kind, row.kind, `${interfaceName}.${row.name}: ${row.kind} in the table`);
    if (row.kind === 'choice') {
      assert.deepEqual([...got.choices].sort(), row.choices.map((c) => c.name).sort(), `${interfaceName}.${row.name}: its choices`);
    }
    if (!found.union) assert.equal(found.optional, !row.required, `${interfaceName}.${row.name}: optional unless required`);
  }
  const top = new Set([...rows.map((r) => r.name.split('.')[0]), ...groups, ...structural]);
  for (const symbol of checker.getPropertiesOfType(type)) {
    assert.ok(top.has(symbol.name), `${interfaceName}.${symbol.name} is in lab.schema (or structural)`);
  }
}

test('index.d.ts declares every field of lab.schema and sim.schema, with its kind, and no other', () => {
  const policy = lab.schema.policy;
  checkDeclares('PolicyOptions', policy.filter((r) => r.scenario), ['backoff', 'classes']);
  checkDeclares('QueueOptions', policy, ['backoff', 'classes']);
  checkDeclares('BackoffOptions', lab.schema.backoff, []);
  checkDeclares('ClassRuleOptions', lab.schema.classRule, ['backoff']);
  checkDeclares('WorldOptions', lab.schema.world, ['behaviours']);
  checkDeclares('StormOptions', sim.schema.storm, ['backoff']);
  checkDeclares('ContentionOptions', sim.schema.contention, []);
  checkDeclares('ScheduleOptions', lab.schema.schedule, []);
  // Every failure class and outcome the d.ts names is the core's.
  assert.deepEqual(kindOf(declared('FailureClass')).choices.sort(), [...lab.failureClasses].sort());
  assert.deepEqual(kindOf(declared('Outcome')).choices.sort(), [...lab.outcomes].sort());
});

// ---- every field refused by name, and its default taken ---------------------

/** `base` with `value` at `path` ("a.b"), the group's required fields at their defaults. */
function withField(base, rows, row, value) {
  const object = structuredClone(base);
  const [group, key] = row.name.includes('.') ? row.name.split('.') : [null, row.name];
  if (group === null) {
    object[key] = value;
    return object;
  }
  object[group] = { ...(object[group] ?? {}) };
  for (const other of rows) {
    const [g, k] = other.name.split('.');
    if (g === group && other.required && k !== key) object[group][k] = other.default;
  }
  object[group][key] = value;
  return object;
}

// Each table, the API that takes its object, the object's path as messages name it.
const TARGETS = {
  policy: { base: { maxAttempts: 3 }, owner: '', take: (o) => lab.createQueue(o).dispose() },
  backoff: { base: {}, owner: 'backoff.', take: (o) => lab.createQueue({ maxAttempts: 3, backoff: o }).dispose() },
  classRule: {
    base: {}, owner: 'classes.precondition.',
    take: (o) => lab.createQueue({ maxAttempts: 3, classes: { precondition: o } }).dispose(),
  },
  world: { base: {}, owner: 'world.', typePrefix: 'scenario.', take: (o) => lab.formatScenario({ maxAttempts: 3, jobs: [], actions: [], world: o }) },
  storm: { base: { jobs: 10, maxAttempts: 3 }, owner: '', take: (o) => sim.createStorm(o).dispose() },
  contention: { base: { clients: 2, strategy: 'full' }, owner: '', take: (o) => sim.runContention(o) },
  schedule: { base: {}, owner: '', take: (o) => lab.retrySchedule({ maxAttempts: 3 }, o) },
};

// A few fields need a partner to mean anything (docs/storm.md): perSecond only with a rate, clients with a closed loop.
const PARTNERS = {
  'storm.arrival.perSecond': (o) => { o.arrival.kind = 'rate'; },
  'storm.arrival.clients': (o) => { o.arrival.kind = 'closed'; },
};

for (const table of TABLES) {
  test(`every ${table} field is refused by its name for a wrong type or range, and takes its default`, () => {
    const { base, owner, take, typePrefix = '' } = TARGETS[table];
    const rows = schemaOf(table);
    for (const row of rows) {
      const name = owner + row.name;
      const make = (value) => {
        const object = withField(base, rows, row, value);
        PARTNERS[`${table}.${row.name}`]?.(object);
        return object;
      };
      const refused = (value, Kind, pattern) => {
        assert.throws(() => take(make(value)), (error) => {
          const kind = Kind === Error ? error instanceof Error : error.constructor === Kind;
          assert.ok(kind, `${table} ${name} = ${JSON.stringify(value)}: ${error.constructor.name}: ${error.message}`);
          // A type message names the field as the caller wrote it; a range message as the core's checks do.
          const named = `${error instanceof TypeError ? typePrefix : ''}${name} must be`;
          assert.ok(error.message.startsWith(named), `${name}: ${error.message}`);
          if (pattern) assert.match(error.message, pattern);
          return true;
        });
      };
      take(make(row.default));
      if (row.kind === 'integer') {
        refused('3', TypeError);
        refused(row.max + 1, RangeError, new RegExp(`from ${row.min} to ${row.max}, got ${row.max + 1}$`));
        if (row.min > Number.MIN_SAFE_INTEGER) refused(row.min - 1, RangeError);
        refused(row.min + 0.5, RangeError);
      } else if (row.kind === 'boolean') {
        refused('yes', TypeError);
      } else {
        refused(3, TypeError);
        refused('nope', Error, new RegExp(`^${name.replaceAll('.', '\\.')} must be one of ${row.choices.map((c) => `"${c.name}"`).join(', ')}, got "nope"$`));
      }
    }
  });
}

// ---- the scripted actions' table (core/scenario/action_schema.h) ----------

const ACTION_KINDS = ['text', 'key', 'outcome', 'integer', 'boolean', 'name'];

test('lab.schema.actions: one frozen row per action type, each field described by its kind', () => {
  assert.ok(Object.isFrozen(lab.schema.actions));
  assert.deepEqual(lab.schema.actions.map((row) => row.type),
    ['process', 'replay', 'enqueue', 'lease', 'settle', 'advance', 'advanceToNext', 'releaseKey', 'redrive', 'patch', 'crash']);
  for (const row of lab.schema.actions) {
    assert.ok(Object.isFrozen(row) && row.description.length > 10, row.type);
    for (const field of row.fields) {
      const at = `${row.type}.${field.name}`;
      assert.ok(ACTION_KINDS.includes(field.kind), at);
      assert.equal(typeof field.required, 'boolean', at);
      if (field.kind === 'text') assert.ok(Number.isSafeInteger(lab.limits[field.limit]), `${at}: limit ${field.limit}`);
      if (field.kind === 'integer') assert.ok(field.min <= field.max, at);
      if (field.default !== undefined) assert.ok(!field.required, `${at}: a default only when optional`);
    }
  }
});

test('lab.schema.actions: every type round-trips through a scenario with its optional fields given and left out', () => {
  const script = [
    { type: 'enqueue', id: 'b', payload: 'p', key: 'k' },
    { type: 'enqueue', id: 'c' },
    { type: 'process', outcome: 'permanent', error: 'bad' },
    { type: 'replay', id: 'a' },
    { type: 'lease' },
    { type: 'settle', token: 'lease-1', outcome: 'permanent' },
    { type: 'advance', ms: 0 },
    { type: 'redrive', max: 1, class: 'permanent', reason: 'permanent' },
    { type: 'crash', after: 1 },
  ];
  const scenario = { maxAttempts: 3, ordering: 'none', jobs: [{ id: 'a', payload: '' }], actions: script };
  const back = lab.parseScenario(lab.formatScenario(scenario));
  assert.deepEqual(back.actions, [
    { type: 'enqueue', id: 'b', payload: 'p', key: 'k' },
    { type: 'enqueue', id: 'c', payload: '' },
    { type: 'process', outcome: 'permanent', error: 'bad' },
    { type: 'replay', id: 'a' },
    { type: 'lease' },
    { type: 'settle', token: 'lease-1', outcome: 'permanent', error: '' },
    { type: 'advance', ms: 0 },
    { type: 'redrive', max: 1, class: 'permanent', reason: 'permanent' },
    { type: 'crash', after: 1, torn: false },
  ]);
});
