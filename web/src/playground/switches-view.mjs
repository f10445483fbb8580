// @ts-check
// The switches an author puts next to a playground (the embed's `switches`:
// boolean fields of the core's policy table, lab.schema.policy, by path), each
// a checkbox with the row's label and description. bindToggle(handler) gets
// (path, on); render(policy) shows what the core's policy says. The rule each
// switch changes is the core's.
import { h, uid } from '../shared/dom.mjs';

/** policy['a.b'] for a path. */
const valueAt = (policy, path) => path.split('.').reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), policy);

export class SwitchesView {
  /** @type {(name: string, on: boolean) => void} */
  #onToggle = () => {};
  #boxes = new Map();  // path -> checkbox

  /** `rows`: the lab.schema.policy rows to draw, in the author's order. */
  constructor(rows) {
    const items = rows.map((row) => {
      const id = uid('dlq-switch');
      const box = h('input', { type: 'checkbox', id, 'data-switch': row.name,
        onchange: () => this.#onToggle(row.name, box.checked) });
      this.#boxes.set(row.name, box);
      return h('div', { class: 'dlq-switch' }, box, ' ', h('label', { for: id }, row.label),
        h('span', { class: 'dlq-switch-note' }, row.description));
    });
    this.alert = h('p', { class: 'dlq-alert', role: 'alert', hidden: true });
    this.element = h('fieldset', { class: 'dlq-switches', hidden: rows.length === 0 },
      h('legend', {}, 'Switches'), ...items, this.alert);
  }

  bindToggle(handler) { this.#onToggle = handler; }

  render(policy) {
    for (const [path, box] of this.#boxes) box.checked = valueAt(policy, path) === true;
  }
}

/** The policy change that sets `path` to `on`, its group merged over `policy`'s. */
export function switchChange(policy, path, on) {
  const [group, key] = path.includes('.') ? path.split('.') : [null, path];
  return group === null ? { [key]: on } : { [group]: { ...policy[group], [key]: on } };
}
