// @ts-check
// "Import a broker's config…": one broker's retry and dead-letter settings, pasted
// as text, translated into the lab's terms: a system mode and the policy fields
// that config determines. The core reads every format (core/config/: one reader per
// system, and the object-literal reader; docs/playground.md, "Import"); this module
// hands it the text and merges an accepted answer over the policy in force. The core
// still checks every value (its ranges and rules) when the controller applies the
// result as one set-up change.
//
// The contract: importConfig(text, { dlqRetention }) returns
//   { ok: true, format, system, policy, set, ignored }
//     policy: the fields to change ({ maxAttempts, backoff, leaseMs?, quarantine?, and a mode's own:
//             maxStalledCount?, deliveryLimit? }; backoff and
//             quarantine are partial: the controller merges them over the policy in force);
//     set:    [{ field, value, from }] every field set, leaf by leaf, with the broker's setting it came from;
//     ignored:[{ key, why }] keys read that change nothing in the lab (read-only counters, names);
//   or { ok: false, format, refusals: [{ key, expected, given, message }] }: every key the lab cannot
//   express, by name. A refusal changes nothing. Every value a message echoes is quoted (or isolated),
//   so no value turns the sentence around it.
import { quoted } from '../shared/quote.mjs';

// The lab whose core reads the configs. The page's entry (playground.mjs) connects the lab it
// loaded, once, before any import: modules under web/src take the core from their page
// rather than load it (one instance per page; the site's build places wasm/ for the pages).
let lab = null;

/** The most text the dialog reads (from the core, once connected): a queue's attributes or a policy are a few hundred bytes. */
export let MAX_IMPORT_CHARS = 0;
/** The longest sidekiq_options line read (refused by its length before it is read): real ones are one short line. */
export let MAX_SIDEKIQ_CHARS = 0;
/** The formats' names by key ('bullmq': 'BullMQ job options', 'sqs', 'sidekiq', 'rabbitmq'), from the core. */
export const FORMATS = {};

/** Connects the loaded lab (loadLab()) whose core reads every config; its limits and format names fill the exports. */
export function connectImport(loaded) {
  lab = loaded;
  const facts = lab.configFacts();
  MAX_IMPORT_CHARS = facts.maxImportChars;
  MAX_SIDEKIQ_CHARS = facts.maxSidekiqChars;
  Object.assign(FORMATS, facts.formats);
}

/**
 * A config object's text (JSON, or a JavaScript object literal) read by the core: { ok: true, value }
 * or { ok: false, refusal: { key, why, detail } | { key, expected, given, why } } (snippet-readback.mjs).
 */
export function readObjectText(text, name) {
  if (lab === null) throw new Error('readObjectText: connectImport(lab) first (the page connects the lab it loaded)');
  return lab.readObjectText(text, name);
}

/**
 * Text → the lab's { system, policy } with what it set, or a refusal by name (see the module's comment).
 * `dlqRetention`: the SQS dead-letter queue's MessageRetentionPeriod as typed ('' or undefined: none given).
 * @param {unknown} text
 * @param {{ dlqRetention?: string }} [options]
 */
export function importConfig(text, { dlqRetention } = {}) {
  if (typeof text !== 'string') {
    const given = quoted(text);
    return { ok: false, format: null, refusals: [{ key: 'config', expected: 'text', given, message: `config: expected text, got ${given}` }] };
  }
  if (lab === null) throw new Error('importConfig: connectImport(lab) first (the page connects the lab it loaded)');
  return lab.importConfig(text, { dlqRetention });
}

/**
 * An accepted import as one set-up change over `current` (the policy in force): the system and
 * the fields it set, backoff and quarantine merged over the current ones, which the core then
 * checks whole. `keep`: groups or fields ('backoff', 'quarantine.retentionMs') left as they are;
 * `set` is the import's list without them. `rows`: lab.schema.policy; a row's `onlyUnder` names
 * the one system whose setting it is, so each field only another system has goes back to its
 * default (listed in `set`, from "only under system X"): a new system's import resets what only
 * the old one had.
 */
export function policyChanges(result, current, keep = [], rows = []) {
  const kept = (field) => keep.some((k) => field === k || field.startsWith(`${k}.`));
  const set = result.set.filter((s) => !kept(s.field));
  const valueAt = (policy, field) => field.split('.').reduce((o, k) => o?.[k], policy);
  for (const row of rows) {
    if (row.onlyUnder === undefined || row.onlyUnder === result.system || set.some((s) => s.field === row.name)) continue;
    if (valueAt(current, row.name) === row.default) continue;
    set.push({ field: row.name, value: row.default, from: `only under system ${row.onlyUnder}: back to its default` });
  }
  const changes = { system: result.system };
  for (const { field, value } of set) {
    const [group, leaf] = field.split('.');
    if (leaf === undefined) changes[group] = value;
    else changes[group] = { ...(changes[group] ?? current[group]), [leaf]: value };
  }
  return { changes, set };
}
