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
