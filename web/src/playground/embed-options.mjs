// @ts-check
// What an author chooses for one embedded playground (attributes of
// <dlq-playground>, or mount() options): the controls and panels shown, the
// presets offered, a locked walkthrough, the heading level, a compact height and
// per-step captions. Parsed and checked here, once; a bad value is refused with
// a message that names the option, what it takes and what it got.
import { quoted } from '../shared/quote.mjs';

/** Capabilities beyond lesson 1, each with the controls it brings. */
export const FEATURES = ['clock', 'classes', 'ordering', 'operator', 'durability', 'world'];
/** The parts of a playground an author can show or leave out. */
export const PANELS = ['setup', 'presets', 'controls', 'state', 'timeline', 'log', 'link', 'snippet', 'ledger'];

export class EmbedOptionError extends Error {
  constructor(option, expected, got) {
    super(`${option}: expected ${expected}, got ${quoted(got)}`);
    this.name = 'EmbedOptionError';
    this.option = option;
  }
}

const words = (value) => String(value).trim().split(/[\s,]+/).filter((w) => w !== '');

/**
 * features: 'all' (default: lesson 1's controls, the rest shown once a scenario
 * uses them), 'basic' (lesson 1's only), or a list of FEATURES (lesson 1's plus
 * exactly those, always). Returns null for 'all', else a Set.
 */
function parseFeatures(value) {
  if (value === undefined || value === null) return null;
  const list = Array.isArray(value) ? value : words(value);
  if (list.length === 1 && list[0] === 'all') return null;
  if (list.length === 1 && list[0] === 'basic') return new Set();
  const bad = list.find((w) => !FEATURES.includes(w));
  if (bad !== undefined || list.length === 0) {
    throw new EmbedOptionError('features', `"all", "basic" or a list of ${FEATURES.join(', ')}`, Array.isArray(value) ? value.join(' ') : value);
  }
  return new Set(list);
}

/** panels: a list of PANELS (default: all of them). */
function parsePanels(value) {
  if (value === undefined || value === null) return new Set(PANELS);
  const list = Array.isArray(value) ? value : words(value);
  const bad = list.find((w) => !PANELS.includes(w));
  if (bad !== undefined || list.length === 0) {
    throw new EmbedOptionError('panels', `a list of ${PANELS.join(', ')}`, Array.isArray(value) ? value.join(' ') : value);
  }
  return new Set(list);
}

/** presets: 'all' (default), 'none', or a list of preset keys among `known`. Returns null for all, else a Set. */
function parsePresets(value, known) {
  if (value === undefined || value === null) return null;
  const list = Array.isArray(value) ? value : words(value);
  if (list.length === 1 && list[0] === 'all') return null;
  if (list.length === 1 && list[0] === 'none') return new Set();
  const bad = list.find((w) => !known.includes(w));
  if (bad !== undefined || list.length === 0) {
    throw new EmbedOptionError('presets', `"all", "none" or a list of preset keys (${known.join(' ')})`, Array.isArray(value) ? value.join(' ') : value);
  }
  return new Set(list);
}

function parseHeadingLevel(value) {
  if (value === undefined || value === null) return 2;
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 2 || n > 5) throw new EmbedOptionError('heading-level', 'an integer from 2 to 5', value);
  return n;
}

/** future: 'shown' (default: the script past the cursor is drawn faint) or 'hidden' (a predict question's playground). */
function parseFuture(value) {
  if (value === undefined || value === null) return true;
  const word = String(value).trim();
  if (word === 'shown') return true;
  if (word === 'hidden') return false;
  throw new EmbedOptionError('future', '"shown" or "hidden"', value);
}

function parseCaptions(value) {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((c) => typeof c !== 'string')) {
    throw new EmbedOptionError('captions', 'an array of strings (caption i is shown at script position i)', value);
  }
  return value;
}

/** switches: a list of words (paths of the policy's boolean fields; switchRows checks them once the core is loaded). */
function parseSwitches(value) {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value.map(String) : words(value);
  if (list.length === 0) throw new EmbedOptionError('switches', 'a list of the policy\'s boolean fields, such as "effects.charge"', value);
  return list;
}

/**
 * The lab.schema.policy rows an embed's `switches` name (boolean fields a
 * scenario carries, e.g. "effects.charge antiPatterns.countInBody"), in the
 * author's order; throws EmbedOptionError naming the first unknown one.
 */
export function switchRows(paths, policyRows) {
  const booleans = policyRows.filter((r) => r.kind === 'boolean' && r.scenario);
  const bad = paths.find((w) => !booleans.some((r) => r.name === w));
  if (bad !== undefined) throw new EmbedOptionError('switches', `a list of ${booleans.map((r) => r.name).join(', ')}`, paths.join(' '));
  return paths.map((w) => booleans.find((r) => r.name === w));
}

/** A bad value quoted in a message: at most this many characters of it. */
const QUOTE_MAX = 80;
const quote = (value) => {
  const text = String(value);
  return text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
};

/**
 * link-base: the page "Copy link" points at, an absolute http(s) URL or one
 * relative to the page (`./playground.html`, `playground.html`, `/playground.html`,
 * `""` for the page itself), resolved against `baseURI` (the document's). Returns
 * the absolute URL, or undefined when not given; anything else is refused.
 */
export function resolveLinkBase(value, baseURI) {
  if (value === undefined || value === null) return undefined;
  const expected = 'a URL, absolute (http or https) or relative to the page, such as "./playground.html"';
  if (typeof value !== 'string') throw new EmbedOptionError('link-base', expected, quote(value));
  let url;
  try {
    url = new URL(value, baseURI);
  } catch {
    throw new EmbedOptionError('link-base', expected, quote(value));
  }
  const page = new URL(baseURI);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== page.protocol) {
    throw new EmbedOptionError('link-base', expected, quote(value));
  }
  url.hash = '';
  return url.href;
}

/**
 * Checked embed options from mount() options (camelCase) — attributes are turned
 * into these by the element. Throws EmbedOptionError for the first bad one.
 */
export function embedOptions(options, presetKeys) {
  return {
    switches: parseSwitches(options.switches),
    reportBox: Boolean(options.reportBox),
    features: parseFeatures(options.features),
    panels: parsePanels(options.panels),
    presets: parsePresets(options.presets, presetKeys),
    locked: Boolean(options.locked),
    headingLevel: parseHeadingLevel(options.headingLevel),
    compact: Boolean(options.compact),
    captions: parseCaptions(options.captions),
    futureShown: parseFuture(options.future),
    // The set-up fields shown outside Advanced (setup-fields.mjs checks the names against the core's tables).
    fields: options.fields ?? null,
    // Checked here so a bad one rejects mount() by name; the link is made from
    // options.linkBase by url.mjs (urlFor), which resolves it the same way.
    linkBase: resolveLinkBase(options.linkBase, globalThis.document?.baseURI ?? 'http://localhost/'),
  };
}

/** Mount options from a <dlq-playground>'s attributes (unset ones left out). */
export function optionsFromAttributes(element) {
  const attr = (name) => (element.hasAttribute(name) ? element.getAttribute(name) : undefined);
  const captions = element.querySelector(':scope > ol.dlq-captions');
  return {
    features: attr('features'),
    panels: attr('panels'),
    presets: attr('presets'),
    locked: element.hasAttribute('locked'),
    headingLevel: attr('heading-level'),
    compact: element.hasAttribute('compact'),
    future: attr('future'),
    fields: attr('fields'),
    switches: attr('switches'),
    reportBox: element.hasAttribute('report-box'),
    captions: captions ? [...captions.children].map((li) => li.textContent.replace(/\s+/g, ' ').trim()) : undefined,
  };
}

/**
 * Renames the playground's headings for the level an author's page needs: its
 * panels' h2 become h<level>, their groups' h3 h<level + 1>. Dialogs keep theirs
 * (a modal is its own outline). Ids, attributes and children move over.
 */
export function setHeadingLevel(root, level) {
  if (level === 2) return;
  for (const heading of root.querySelectorAll('h2, h3')) {
    if (heading.closest('dialog')) continue;
    const next = root.ownerDocument.createElement(`h${level + (heading.tagName === 'H3' ? 1 : 0)}`);
    for (const { name, value } of heading.attributes) next.setAttribute(name, value);
    next.append(...heading.childNodes);
    heading.replaceWith(next);
  }
}
