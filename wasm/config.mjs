// The config readers of the core (core/config/config.h) for JavaScript: a broker's
// pasted config read into the lab's system and policy fields, or refused by name.
// Conversion only, as the rest of this folder: which format, what it sets and every
// refusal's words come from the core. index.mjs puts these on the lab
// (lab.importConfig, lab.configFacts, lab.writeSnippet); web/src/playground/import.mjs is the page's caller.

import { unwrap } from './errors.mjs';

/**
 * `text` read by the core: { ok: true, format, system, policy, set, ignored } or
 * { ok: false, format, refusals }. `dlqRetention`: the SQS dead-letter queue's
 * MessageRetentionPeriod as given (undefined: none). `enter(fn)` runs fn(core) as
 * one crossing into the module. A text past the core's limit is refused by its
 * length before it is copied.
 */
export function readConfig(enter, facts, text, dlqRetention) {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  if (text.length > facts.maxImportChars) return enter((core) => core.importConfigTooLong(text.length));
  // Any value given travels as JSON text, read by the core's own reader (a string, a number, null…).
  let given = '';
  if (dlqRetention !== undefined) {
    given = JSON.stringify(dlqRetention) ?? 'null';
    if (given.length > facts.maxImportChars) given = JSON.stringify(`${given.slice(0, facts.maxImportChars)}`);
  }
  return enter((core) => core.importConfig(text, given));
}

/**
 * `text` read by the core's object-text reader (JSON, or a JavaScript object literal: JSON5):
 * { ok: true, value } or { ok: false, refusal } (core/config/internal/object_text.h). `name`:
 * the argument, as a refusal calls it. A text past the core's limit is refused by its length.
 */
export function readObjectText(enter, facts, text, name) {
  if (typeof text !== 'string' || typeof name !== 'string') throw new TypeError('text and name must be strings');
  if (text.length > facts.maxImportChars) {
    return { ok: false, refusal: { key: name, expected: `at most ${facts.maxImportChars} characters`, given: `${text.length}`, why: 'is too long' } };
  }
  return enter((core) => core.readObjectText(text, name));
}

/**
 * `key`'s snippet of `inForce` (web/src/shared/snippets.mjs, policyInForce's object) written by
 * the core (core/config/config.h, WriteSnippet): { language, text }. A key no writer has is a
 * RangeError (code invalid-argument) naming the keys the core writes.
 */
export function writeSnippet(enter, key, inForce) {
  if (typeof key !== 'string' || inForce === null || typeof inForce !== 'object') {
    throw new TypeError('writeSnippet: key must be a string and inForce a policy in force (policyInForce)');
  }
  return unwrap(enter((core) => core.writeSnippet(key, JSON.stringify(inForce))));
}

/** { formats: { bullmq: 'BullMQ job options', … }, maxImportChars, maxSidekiqChars }, frozen. */
export function configFacts(enter) {
  const facts = enter((core) => core.configFacts());
  Object.freeze(facts.formats);
  return Object.freeze(facts);
}
