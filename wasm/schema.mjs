// Copies of the objects the core's field tables describe (lab.schema:
// core/base/field.h): a policy, a backoff, a class table, a world (and, through
// copyFields, a storm's options: storm.mjs), each read once field by field into
// a plain object for the core.
import { describe, typeError, unwrap } from './errors.mjs';
import { call, core, failureClasses, limits, schema } from './runtime.mjs';
import {
  checkBoolean, checkInteger, checkKey, checkName, checkObject, checkOutcome, checkText, copyArray,
} from './checks.mjs';

const BACKOFF_EXAMPLE = "{ kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' }";
const CLASSES_EXAMPLE = '{ precondition: { maxAttempts: 3 } }';
const CLASS_RULE_EXAMPLE = "{ retry: 'bounded', maxAttempts: 2, backoff: { kind: 'fixed', baseMs: 1000 }, alert: false }";
const QUARANTINE_EXAMPLE = '{ retentionMs: 86400000, alarmDepth: 10 }';

// The example a type error shows for a group of fields whose rows give no facts
// of their group (the storm's rows do: row.group); the tables give the names.
const GROUP_EXAMPLES = {
  backoff: BACKOFF_EXAMPLE, quarantine: QUARANTINE_EXAMPLE, outage: '{ startMs: 1000, endMs: 6000 }',
  effects: '{ charge: true, idempotencyKey: true }', antiPatterns: '{ decideBeforeCount: true }',
};

/** Names as a refusal lists them: "'burst', 'rate' or 'closed'". */
function nameList(names) {
  const quoted = names.map((name) => `'${name}'`);
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/**
 * One field of a core table (lab.schema row) type-checked by its kind: the name
 * is `owner` + its path, with `prefix` in front. Ranges and choices are the
 * core's to check; an integer's type message is the core's too (`integerMessage`:
 * the core's function that words it, given the name and the value described).
 * With `namedChoices`, a choice that is no string is refused naming its choices.
 */
function checkField(prefix, owner, row, value, { integerMessage, namedChoices }) {
  const name = owner + row.name;
  switch (row.kind) {
    case 'integer':
      if (integerMessage === undefined) {
        checkInteger(prefix, name, value, row.required);
      } else if ((value !== undefined || row.required) && typeof value !== 'number') {
        throw typeError(prefix + unwrap(call(() => integerMessage(name, describe(value)))));
      }
      break;
    case 'boolean': checkBoolean(prefix + name, value); break;
    case 'choice':
      if (namedChoices && (value !== undefined || row.required) && typeof value !== 'string') {
        throw typeError(`${prefix}${name} must be ${nameList(row.choices.map((c) => c.name))}, got ${describe(value)}`);
      }
      checkName(prefix + name, value);
      break;
    default: throw new Error(`lab.schema: ${name} has an unknown kind ${row.kind}`);
  }
}

/** What a group's refusal says it may be: its example, then its text form and null where it takes them. */
function groupExpected(example, text, nullable) {
  const forms = [example];
  if (text !== undefined) forms.push(`text such as ${text}`);
  if (nullable) forms.push('null');
  if (forms.length < 3) return forms.join(' or ');
  return `${forms.slice(0, -1).join(', ')}, or ${forms[forms.length - 1]}`;
}

/**
 * A group's value read once into `copy` (`row`: its first row): absent stays
 * absent, null (where the group may be null) stays null, a text (where the group
 * takes one: row.group.text) is checked and kept for the core to parse; anything
 * else must be an object. Returns { from, into } for its rows (into undefined:
 * no rows to read).
 */
function copyGroup(source, copy, group, row, { prefix, owner, nullable }) {
  const facts = row.group;
  const mayBeNull = facts?.nullable ?? group === nullable;
  const value = source[group];
  const name = `${prefix}${owner}${group}`;
  if (value === undefined || (value === null && mayBeNull)) {
    if (value === null) copy[group] = null;
    return {};
  }
  if (facts?.text !== undefined && typeof value === 'string') {
    checkText(name, value, limits.outcomeBytes);  // the core parses it and names what is wrong
    copy[group] = value;
    return {};
  }
  checkObject(name, value, groupExpected(facts?.example ?? GROUP_EXAMPLES[group] ?? '{}', facts?.text, mayBeNull));
  copy[group] = {};
  return { from: value, into: copy[group] };
}

/**
 * The fields of one of the core's tables (`rows`: lab.schema.policy, .backoff,
 * .classRule, .world, .storm) read once each from `source` into a plain copy for
 * the core, which fills in its defaults and checks ranges, names and pairs. A
 * path "a.b" is source.a.b; an absent field or group stays absent. A group may
 * be null (kept as null) where its rows say so (row.group), or where it is named
 * `nullable`; a row with `onlyWith` is read (and required) only when its group's
 * kind is that one. `owner` ('', 'world.', 'classes.precondition.') is the
 * object's own path, `prefix` ('' or 'scenario.') goes in front of every name.
 * `keep(row)` false skips a row; `integerMessage` and `namedChoices` as checkField.
 */
export function copyFields(source, rows, {
  prefix, owner = '', nullable = '', keep = () => true, partial = false, integerMessage, namedChoices = false,
}) {
  const copy = {};
  const groups = new Map();  // group name -> { from, into } (into undefined: absent, null or text)
  for (const row of rows) {
    if (!keep(row)) continue;
    const dot = row.name.indexOf('.');
    let from = source;
    let into = copy;
    let key = row.name;
    let checked = partial ? { ...row, required: false } : row;
    if (dot >= 0) {
      const group = row.name.slice(0, dot);
      key = row.name.slice(dot + 1);
      if (!groups.has(group)) groups.set(group, copyGroup(source, copy, group, row, { prefix, owner, nullable }));
      ({ from, into } = groups.get(group));
      if (into === undefined) continue;
      if (row.onlyWith !== undefined) {
        if (into.kind !== row.onlyWith) continue;  // another kind ignores it
        checked = { ...checked, required: true };
      }
    }
    const value = from[key];
    checkField(prefix, owner, checked, value, { integerMessage, namedChoices });
    if (value !== undefined) into[key] = value;
  }
  return copy;
}

/** A backoff object ({ kind?, baseMs?, capMs?, jitter? }) read once into a checked copy. */
export function copyBackoff(prefix, owner, source, example = BACKOFF_EXAMPLE) {
  checkObject(`${prefix}${owner}backoff`, source, example);
  return copyFields(source, schema.backoff, { prefix, owner: `${owner}backoff.` });
}

/**
 * The class overrides ({ <class>: { retry?, maxAttempts?, backoff?, alert? } })
 * read once into rows [{ name, retry, maxAttempts, backoff, alert }] for the
 * core, which merges each over its row of the class table and checks names,
 * ranges and pairs. Reading stops at the first key that is not one of the
 * core's class names: that row goes to the core alone, which refuses it by name.
 */
function copyClasses(prefix, source) {
  checkObject(`${prefix}classes`, source, CLASSES_EXAMPLE);
  const rows = [];
  for (const key of Object.keys(source)) {
    if (!failureClasses.includes(key)) {
      checkText(`${prefix}classes key`, key, limits.outcomeBytes);
      rows.push({ name: key });
      break;
    }
    const owner = `classes.${key}.`;
    const rule = source[key];
    checkObject(`${prefix}classes.${key}`, rule, CLASS_RULE_EXAMPLE);
    const backoffIn = rule.backoff;
    const row = { name: key, ...copyFields(rule, schema.classRule, { prefix, owner }) };
    // Its backoff: its own object, or the policy's by name (the core checks the name).
    if (typeof backoffIn === 'string') {
      checkName(`${prefix}${owner}backoff`, backoffIn);
      row.backoff = backoffIn;
    } else if (backoffIn !== undefined) {
      row.backoff = copyBackoff(prefix, owner, backoffIn, `${BACKOFF_EXAMPLE} or 'policy'`);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * One world behaviour ({ id, kind, failure?, count?, until?, script?, needsDependency? })
 * read once into a checked plain copy named `at`; ranges and names are the core's.
 */
export function copyBehaviour(at, item) {
  checkObject(at, item, "{ id: 'b', kind: 'flaky', count: 2 }");
  const copy = { id: item.id, kind: item.kind, failure: item.failure, count: item.count, until: item.until,
    script: item.script, needsDependency: item.needsDependency };
  checkText(`${at}.id`, copy.id, limits.idBytes);
  checkName(`${at}.kind`, copy.kind);
  if (copy.failure !== undefined) checkOutcome(`${at}.failure`, copy.failure);
  for (const field of ['count', 'until']) {
    if (copy[field] !== undefined && typeof copy[field] !== 'number') {
      throw typeError(`${at}.${field} must be an integer, got ${describe(copy[field])}`);
    }
  }
  if (copy.script !== undefined) checkText(`${at}.script`, copy.script, core.maxScriptLetters);
  checkBoolean(`${at}.needsDependency`, copy.needsDependency);
  for (const key of Object.keys(copy)) if (copy[key] === undefined) delete copy[key];
  return copy;
}

/**
 * A world object ({ workers?, workMs?, outage?: { startMs, endMs } | null,
 * behaviours?: [{ id, kind, failure?, count?, until?, script?, needsDependency? }] })
 * read once into a checked plain copy; `prefix` ('' or 'scenario.') names it.
 * Types are checked here, ranges and names by the core (core/scenario/world.h).
 */
export function copyWorld(prefix, source) {
  const name = `${prefix}world`;
  checkObject(name, source, "{ workers: 2, workMs: 100, behaviours: [{ id: 'b', kind: 'poison', failure: 'undeserializable' }] }");
  const world = copyFields(source, schema.world, { prefix, owner: 'world.', nullable: 'outage' });
  const behavioursIn = source.behaviours;
  let behaviours;
  if (behavioursIn !== undefined) {
    const list = copyArray(`${name}.behaviours`, behavioursIn, limits.scenarioItems);
    behaviours = list.map((item, i) => copyBehaviour(`${name}.behaviours[${i}]`, item));
  }
  if (behaviours !== undefined) world.behaviours = behaviours;
  return world;
}

/**
 * A policy's fields ({ maxAttempts, backoff?, leaseMs?, seed?, classes?, ordering?,
 * quarantine?: { retentionMs?, alarmDepth? }, unsafeQuarantineOrder? }: the
 * scenario's rows of lab.schema.policy) read once from `source` into a plain
 * object for the core, which fills in its defaults and checks ranges, names and
 * pairs. `prefix` names the owner in TypeErrors ('' or 'scenario.'). With
 * `partial` (an edit of some fields: session.setPolicy) no field is required.
 */
export function copyPolicy(source, prefix, { partial = false } = {}) {
  const backoffIn = source.backoff;
  const classesIn = source.classes;
  const policy = copyFields(source, schema.policy, { prefix, keep: (row) => row.scenario, partial });
  if (backoffIn !== undefined) policy.backoff = copyBackoff(prefix, '', backoffIn);
  if (classesIn !== undefined) policy.classes = copyClasses(prefix, classesIn);
  return policy;
}

/**
 * createQueue()'s `journal` switch ({ journal? }: keep the journal of durable
 * writes) read once. Scenario objects do not take it: no link carries it.
 */
export function copyJournalSwitch(source) {
  const journal = source.journal;
  checkBoolean('journal', journal);
  return { journal };
}

// ---- scripted actions (lab.schema.actions: core/scenario/action_schema.h) ----

/**
 * One action field type-checked by its kind, named `<name>.<field>`; the core
 * parses outcomes, tokens, classes and reasons and checks ranges. Returns what
 * the value adds to the copy's UTF-8 bytes (0 for a non-string).
 */
function checkActionField(name, field, value) {
  const at = `${name}.${field.name}`;
  switch (field.kind) {
    case 'text': return checkText(at, value, limits[field.limit]);
    case 'key': return checkKey(at, value, field.required);
    case 'outcome': checkOutcome(at, value); return 0;
    case 'integer': checkInteger(`${name}.`, field.name, value, field.required); return 0;
    case 'boolean': checkBoolean(at, value); return 0;
    case 'name': checkName(at, value); return 0;
    default: throw new Error(`lab.schema.actions: ${at} has an unknown kind ${field.kind}`);
  }
}

/** The action types as a refusal lists them: "'process', 'replay', … or 'crash'". */
const actionTypeList = () => nameList(schema.actions.map((row) => row.type));

/**
 * One scripted action read once into a checked copy by its type's row: every
 * field read once (a default filled in for an absent one, null read as absent
 * where the row says so), then checked in the row's order; a field the row
 * omits (absent, or its `omitted` value) is left out of the copy.
 */
export function copyAction(action, name) {
  checkObject(name, action, "{ type: 'process', outcome: 'success' }");
  const type = action.type;
  const row = schema.actions.find((r) => r.type === type);
  if (row === undefined) throw typeError(`${name}.type must be ${actionTypeList()}, got ${describe(type)}`);
  const values = row.fields.map((field) => {
    const value = action[field.name];
    if (field.default !== undefined) return value ?? field.default;
    return field.nullIsAbsent ? value ?? undefined : value;
  });
  const copy = { type };
  let bytes = 0;
  row.fields.forEach((field, i) => {
    bytes += checkActionField(name, field, values[i]);
    if (values[i] !== undefined && values[i] !== field.omitted) copy[field.name] = values[i];
  });
  return { action: copy, bytes };
}
