// @ts-check
// The set-up fields an exercise needs, outside Advanced (the embed's `fields`
// option, e.g. fields="backoff.jitter backoff.baseMs maxAttempts"): named by
// their path in a scenario object and checked against the core's field tables
// (lab.schema), so a field the core does not have is refused by name. A short
// name that ends exactly one path ("jitter", "baseMs", "workers") names that
// path. The view builds one input per field from its schema row (the Advanced
// set-up's labels, ranges and choices) and sends changes like the Advanced
// set-up does: the whole group, merged over the policy or world in force.
import { h } from '../shared/dom.mjs';
import { EmbedOptionError } from './embed-options.mjs';

/** Every field an embed may pin: path -> { row, group } (group 'policy', 'backoff' or 'world'). */
export function fieldCatalogue(schema) {
  const fields = new Map();
  fields.set('maxAttempts', { row: schema.policy.find((r) => r.name === 'maxAttempts'), group: 'maxAttempts' });
  for (const row of schema.backoff) fields.set(`backoff.${row.name}`, { row, group: 'backoff' });
  for (const row of schema.policy.filter((r) => r.scenario && !r.required)) {
    if (row.kind !== 'boolean') fields.set(row.name, { row, group: row.name.includes('.') ? row.name.split('.')[0] : 'policy' });
  }
  for (const row of schema.world) if (!row.name.includes('.')) fields.set(`world.${row.name}`, { row, group: 'world' });
  return fields;
}

/**
 * The embed's `fields` (a list, as a string of names or an array) as paths of
 * fieldCatalogue(schema), in the author's order; null when not given. Refused,
 * by name, with EmbedOptionError('fields', …).
 */
export function resolveFields(value, schema) {
  if (value === undefined || value === null) return null;
  const words = Array.isArray(value) ? value : String(value).trim().split(/[\s,]+/).filter((w) => w !== '');
  const catalogue = fieldCatalogue(schema);
  const paths = [...catalogue.keys()];
  const expected = `a list of set-up fields (${paths.join(', ')}; or a name ending exactly one of them)`;
  if (words.length === 0) throw new EmbedOptionError('fields', expected, Array.isArray(value) ? value.join(' ') : value);
  return words.map((word) => {
    if (catalogue.has(word)) return word;
    const ends = paths.filter((p) => p.endsWith(`.${word}`));
    if (ends.length === 1) return ends[0];
    throw new EmbedOptionError('fields', expected, word);
  }).filter((p, i, all) => all.indexOf(p) === i);
}

/** A field's label, as the Advanced set-up shows it (which then leaves that field out: one field, one label). */
export function fieldLabel(path, schema) {
  return fieldCatalogue(schema).get(path).row.label;
}

const at = (object, path) => path.split('.').reduce((o, key) => (o == null ? undefined : o[key]), object);

/**
 * The pinned fields' row. onPolicy(changes) and onWorld(world) apply a change;
 * maxAttempts goes through onMaxAttempts(n) as the main field's does.
 */
export class PinnedFieldsView {
  #policy = null;
  #world = null;
  /** @type {(changes: object, alert: HTMLElement) => void} */
  #onPolicy = () => {};
  /** @type {(world: object, alert: HTMLElement) => void} */
  #onWorld = () => {};
  /** @type {(value: number, alert: HTMLElement) => void} */
  #onMax = () => {};

  /**
   * `paths`: resolveFields()'s; `shared`: path -> an input the set-up already
   * shows outside Advanced (Max attempts), focused instead of a second copy.
   */
  constructor(id, { schema, paths, shared = new Map() }) {
    const catalogue = fieldCatalogue(schema);
    this.shared = new Map(paths.filter((p) => shared.has(p)).map((p) => [p, shared.get(p)]));
    this.alert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });
    this.inputs = new Map(paths.filter((p) => !shared.has(p)).map((path) => {
      const { row, group } = catalogue.get(path);
      const attrs = { id: `${id}-p-${path.replaceAll('.', '-')}`, title: row.description, 'data-field': path };
      const input = row.kind === 'choice'
        ? h('select', { class: 'dlq-input', ...attrs }, row.choices.map((c) => h('option', { value: c.name }, c.label)))
        : h('input', { type: 'number', class: 'dlq-input dlq-narrow2', min: row.min, max: row.max, step: 1, inputmode: 'numeric', ...attrs });
      input.addEventListener('change', () => this.#changed(path, group, row, input));
      return [path, { input, row, group, label: fieldLabel(path, schema) }];
    }));
    this.paths = paths;
    this.element = h('div', { class: 'dlq-pinned', role: 'group', 'aria-labelledby': `${id}-pinned-h`, hidden: this.inputs.size === 0 },
      h('p', { class: 'dlq-label dlq-pinned-title', id: `${id}-pinned-h` }, 'Set-up for this exercise'),
      h('div', { class: 'dlq-setup-row' }, [...this.inputs.values()].map(({ input, label }) =>
        h('div', { class: 'dlq-field' }, h('label', { for: input.id }, label), input))),
      this.alert);
  }

  bindPolicy(handler) { this.#onPolicy = handler; }
  bindWorld(handler) { this.#onWorld = handler; }
  bindMaxAttempts(handler) { this.#onMax = handler; }

  #changed(path, group, row, input) {
    const value = row.kind === 'choice' ? input.value : (input.value.trim() === '' ? NaN : input.valueAsNumber);
    if (group === 'maxAttempts') this.#onMax(value, this.alert);
    else if (group === 'world') this.#onWorld({ ...(this.#world ?? {}), [path.slice('world.'.length)]: value }, this.alert);
    else if (group === 'policy') this.#onPolicy({ [path]: value }, this.alert);
    else {
      const key = path.slice(group.length + 1);
      this.#onPolicy({ [group]: { ...(this.#policy?.[group] ?? {}), [key]: value } }, this.alert);
    }
  }

  /** Shows the policy and world in force (a field the reader is typing in is left alone). */
  sync(policy, world) {
    this.#policy = policy;
    this.#world = world;
    for (const [path, { input, row }] of this.inputs) {
      if (input.ownerDocument.activeElement === input) continue;
      const value = path.startsWith('world.') ? (at(world ?? {}, path.slice(6)) ?? row.default) : at(policy, path);
      input.value = value === undefined || value === null ? '' : String(value);
    }
  }

  /** Focuses (and scrolls to) the first of `paths` pinned here; false when none is. */
  focus(paths) {
    const input = paths.map((p) => this.inputs.get(p)?.input ?? this.shared.get(p)).find(Boolean);
    if (!input) return false;
    for (const el of [this.element, ...this.shared.values()]) el.classList.remove('is-called');
    void this.element.offsetWidth;  // restart the highlight
    for (const p of paths) (this.inputs.has(p) ? this.element : this.shared.get(p))?.classList.add('is-called');
    input.focus();
    input.scrollIntoView?.({ block: 'center' });
    return true;
  }
}
