// @ts-check
// The compare page's fragment: a scenario link and the columns to play it under.
//
//   #<scenario link>&with=<column>,<column>[,<column>[,<column>]]
//   <column> := <part>(:<part>)*      <part> := <system> | <field>=<value>
//
// e.g. #v2;m3;s1;ja:,b:;at,t,t&with=lab,rabbitmq-quorum,sidekiq:maxAttempts=5
//
// A column names at most one system (none: the link's own) and any number of
// policy overrides, each a field of lab.schema (policy rows a scenario carries,
// backoff rows as "backoff.<name>"). The names come from the core's tables,
// passed in as `fields`; this module only reads and writes the text and puts a
// column's values on a scenario object. Ranges, choices and whether a script
// can play are the core's to decide (formatScenario / runScenario).

export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;
const WITH = '&with=';

/** A refusal that names what was wrong; nothing is changed by whoever catches it. */
export class CompareLinkError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CompareLinkError';
    this.code = 'invalid-argument';
  }
}

const quote = (text) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text);

/**
 * The fields a column may set, from lab.schema: { systems: [name…], fields: Map(name -> row) }.
 * `system` is the column's mode, not an override; `journal` is no scenario's.
 */
export function columnFields(schema) {
  const systemRow = schema.policy.find((row) => row.name === 'system');
  const fields = new Map();
  for (const row of schema.policy) if (row.scenario && row.name !== 'system') fields.set(row.name, row);
  for (const row of schema.backoff) fields.set(`backoff.${row.name}`, row);
  return { systems: systemRow.choices.map((c) => c.name), fields };
}

/** A value as its row's kind reads it: an integer's digits, true/false, or a choice's name. */
function readValue(row, name, text, where) {
  if (row.kind === 'integer') {
    if (!/^[0-9]{1,16}$/.test(text)) throw new CompareLinkError(`${where}: ${name} takes a whole number, got ${quote(text)}`);
    return Number(text);
  }
  if (row.kind === 'boolean') {
    if (text !== 'true' && text !== 'false') throw new CompareLinkError(`${where}: ${name} takes true or false, got ${quote(text)}`);
    return text === 'true';
  }
  if (text === '') throw new CompareLinkError(`${where}: ${name} takes one of ${row.choices.map((c) => c.name).join(', ')}, got nothing`);
  return text;  // a choice: the core names what it takes when it is not one
}

/** One column's text -> { system (or null: the link's), overrides: [[field, value]…], text }. */
export function parseColumn(text, { systems, fields }, where = 'column') {
  if (text === '') throw new CompareLinkError(`${where} is empty: expected a system (${systems.join(', ')}) or field=value overrides`);
  let system = null;
  const overrides = [];
  for (const part of text.split(':')) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (!systems.includes(part)) {
        throw new CompareLinkError(`${where}: no system is named ${quote(part)}; expected one of ${systems.join(', ')} or field=value`);
      }
      if (system !== null) throw new CompareLinkError(`${where} names two systems, ${system} and ${part}: expected at most one`);
      system = part;
      continue;
    }
    const name = part.slice(0, eq);
    const row = fields.get(name);
    if (!row) throw new CompareLinkError(`${where}: no policy field is named ${quote(name)}; expected one of ${[...fields.keys()].join(', ')}`);
    if (overrides.some(([n]) => n === name)) throw new CompareLinkError(`${where} sets ${name} twice`);
    overrides.push([name, readValue(row, name, part.slice(eq + 1), where)]);
  }
  return { system, overrides, text: formatColumn({ system, overrides }) };
}

/** A column's text: its system first, then its overrides in the order given. */
export function formatColumn({ system, overrides }) {
  return [...(system === null ? [] : [system]), ...overrides.map(([name, value]) => `${name}=${value}`)].join(':');
}

/**
 * The fragment's text (without '#') -> { link, columns }. Refuses, by name, a
 * fragment without `&with=`, fewer than 2 or more than 4 columns, an unknown
 * system or field, a bad value, and two columns that are the same.
 */
export function parseCompareHash(text, fields) {
  const at = text.lastIndexOf(WITH);
  if (at < 0) {
    throw new CompareLinkError(`the compare link needs ${WITH}: expected #<scenario link>${WITH}<system>,<system>…, got ${quote(text)}`);
  }
  const link = text.slice(0, at);
  if (link === '') throw new CompareLinkError(`the compare link has no scenario link before ${WITH}`);
  const parts = text.slice(at + WITH.length).split(',');
  if (parts.length < MIN_COLUMNS || parts.length > MAX_COLUMNS) {
    throw new CompareLinkError(`with= takes ${MIN_COLUMNS} to ${MAX_COLUMNS} columns, got ${parts.length}`);
  }
  const columns = parts.map((part, i) => parseColumn(decodeURIComponentSafe(part), fields, `column ${i + 1}`));
  columns.forEach((column, i) => {
    const same = columns.findIndex((other) => other.text === column.text);
    if (same < i) throw new CompareLinkError(`column ${i + 1} (${column.text || 'the link as it is'}) repeats column ${same + 1}`);
  });
  return { link, columns };
}

/** A browser may hand the fragment back percent-encoded; a part that is not valid escapes stays as written. */
function decodeURIComponentSafe(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** { link, columns } -> the fragment's text (without '#'). */
export function formatCompareHash({ link, columns }) {
  return `${link}${WITH}${columns.map(formatColumn).join(',')}`;
}

/** The scenario object a column plays: a copy of `scenario` with its system and overrides set. */
export function applyColumn(scenario, { system, overrides }) {
  const object = structuredClone(scenario);
  if (system !== null) object.system = system;
  for (const [name, value] of overrides) {
    const path = name.split('.');
    let target = object;
    for (const key of path.slice(0, -1)) {
      target[key] = { ...(target[key] ?? {}) };
      target = target[key];
    }
    target[path.at(-1)] = value;
  }
  return object;
}
