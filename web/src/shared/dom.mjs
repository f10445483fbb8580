// @ts-check
// Tiny DOM helpers. Contract: text only ever reaches the page through
// textContent / setAttribute, never innerHTML, so ids and payloads such as
// `<img src=x onerror=alert(1)>` always render as literal text.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * h('button', { class: 'x', type: 'button', onclick: fn }, 'text', child…)
 * Attributes whose value is null/undefined/false are skipped; `on*` functions
 * become event listeners (no inline handlers, so the strict CSP holds).
 */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** Same as h() for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let nextId = 0;
/** A document-unique id prefix, so several playgrounds can share a page. */
export function uid(prefix = 'dlq') {
  nextId += 1;
  return `${prefix}${nextId}`;
}

/**
 * Shows `message` in a field's alert and marks the field invalid; null clears both.
 * The alert is added to (and removed from) the field's aria-describedby, so a
 * hint the field already points at stays.
 */
export function fieldError(input, alert, message) {
  alertText(alert, message);
  const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((t) => t !== '' && t !== alert.id);
  if (message === null) {
    if (input.hasAttribute('aria-invalid')) input.removeAttribute('aria-invalid');
  } else {
    if (input.getAttribute('aria-invalid') !== 'true') input.setAttribute('aria-invalid', 'true');
    described.push(alert.id);
  }
  const after = described.join(' ');
  if (after === (input.getAttribute('aria-describedby') ?? '')) return;  // every Step clears its alert: most calls change nothing
  if (described.length > 0) input.setAttribute('aria-describedby', after);
  else input.removeAttribute('aria-describedby');
}

/**
 * Says `message` in an alert that belongs to no one field; null hides it. Clearing an
 * alert that is clear writes nothing (every Step clears its alert, and a write, even of
 * the same value, is a DOM mutation the next frame pays for); a message is always
 * written, so the same refusal twice is said twice.
 */
export function alertText(alert, message) {
  if (message === null && alert.hidden && alert.textContent === '') return;
  alert.hidden = message === null;
  alert.textContent = message ?? '';
}
