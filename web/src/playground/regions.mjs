// @ts-check
// Building blocks of the state regions (state-views.mjs): a region with a
// heading, a count and a keyed list that is patched in place; fact rows; a
// meter. Drawing only: every value shown is read from the core's views.
import { h } from '../shared/dom.mjs';

/** Sets text only when it changed (keeps a step's DOM writes minimal). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Shows or hides an element, touching the DOM only on a change. */
export function show(el, visible) {
  if (el.hidden === visible) el.hidden = !visible;
}

/**
 * A region: <section aria-labelledby=heading> with a count, a focusable list
 * (keyboard users can scroll a long one; it may hold no buttons), a "None" line
 * and a "… and n more" line.
 */
export function region(idPrefix, name, extraClass, emptyText) {
  const headingId = `${idPrefix}-${name.toLowerCase().replace(/\W+/g, '-')}-h`;
  const count = h('span', { class: 'dlq-count' }, '0');
  const list = h('ol', { class: 'dlq-list', tabindex: 0, 'aria-labelledby': headingId });
  const more = h('p', { class: 'dlq-more', hidden: true });
  const empty = h('p', { class: 'dlq-empty' }, emptyText);
  const head = h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, name), count);
  const section = h('section', { class: `dlq-panel dlq-state ${extraClass}`, 'aria-labelledby': headingId },
    head, list, empty, more);
  return { section, head, count, list, more, empty, nodes: new Map(), headingId };
}

/**
 * A card's key: the job and its content. A card is never reused for another
 * job, nor for the same id with another payload (a new scenario, a replayed
 * job whose payload was patched), so no card shows a stale payload.
 */
export function cardKey(item) {
  return item.gap !== undefined ? '' : `${item.id}\u0000${item.payload ?? ''}`;
}

/**
 * Patches `view.list` to show `shown` (the first LIST_CAP of `total` items, in
 * order) keyed by cardKey(): `make(item)` builds a new <li>, `update(li, item)`
 * brings one up to date.
 */
export function syncList(view, shown, total, make, update) {
  // A gap item ({ id: '', gap: n }: no job has an empty id) stands for n items not drawn in the middle.
  const drawn = shown.reduce((n, item) => n + (item.gap === undefined ? 1 : item.gap), 0);
  const want = new Set(shown.map(cardKey));
  for (const [key, li] of view.nodes) {
    if (!want.has(key)) {
      li.remove();
      view.nodes.delete(key);
    }
  }
  let expected = view.list.firstChild;
  for (const item of shown) {
    const key = cardKey(item);
    let li = view.nodes.get(key);
    if (!li) {
      li = make(item);
      view.nodes.set(key, li);
    }
    update(li, item);
    if (li !== expected) view.list.insertBefore(li, expected);
    expected = li.nextSibling;
  }
  setText(view.count, String(total));
  show(view.empty, total === 0);
  show(view.more, total > drawn);
  if (total > drawn) setText(view.more, `… and ${total - drawn} more (the Event log lists every event).`);
}

/**
 * Named facts shown as a two-column grid of name / value (".dlq-facts");
 * `set(name, value)` fills one, `null` hides its row.
 */
export function facts(names) {
  const element = h('span', { class: 'dlq-facts' });
  const rows = new Map();
  for (const [key, label] of names) {
    const k = h('span', { class: 'dlq-k' }, label);
    const v = h('span', { class: `dlq-v dlq-${key}` });
    element.append(k, v);
    rows.set(key, { k, v });
  }
  return {
    element,
    set(key, value) {
      const { k, v } = rows.get(key);
      show(k, value !== null);
      show(v, value !== null);
      if (value !== null) setText(v, value);
    },
  };
}

/** A thin bar filled to `fraction` (0…1): a picture only, its words are beside it. */
export function meter(kind) {
  const fill = h('span', { class: 'dlq-meter-fill' });
  const element = h('span', { class: `dlq-meter is-${kind}`, 'aria-hidden': 'true' }, fill);
  return {
    element,
    set(fraction) {
      const pct = `${Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 10}%`;
      if (fill.style.width !== pct) fill.style.width = pct;
    },
  };
}
