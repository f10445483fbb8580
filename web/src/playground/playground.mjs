// @ts-check
// mount(element, options): one independent playground inside `element`. The
// controller (controller.mjs) wires the views (view.mjs: set-up, controls,
// share, the Why line, timeline, places, event log) to a Session (model.mjs).
// JS only adapts and draws: outcomes go to the core, and every sentence about
// a rule is the core's event `explanation`.
import { loadLab } from '../../wasm/index.mjs';
import { connectImport } from './import.mjs';
import { h, uid } from '../shared/dom.mjs';
import { siteURL } from '../shared/url.mjs';
import { embedOptions, switchRows } from './embed-options.mjs';
import { resolveFields } from './setup-fields.mjs';
import { ALL_PRESETS, Controller } from './controller.mjs';
import { PlaygroundView } from './view.mjs';
import { DEFAULT_SCENARIO, PRESETS, CAPSTONE_PRESETS, SYSTEM_PRESETS } from './presets.mjs';
import { Session } from './model.mjs';
import { loadFailure } from './load-failure.mjs';
import { nextTask } from '../shared/next-task.mjs';


/** Adds the playground's stylesheet to the document once (a <link>: CSP style-src 'self'). */
function ensureStylesheet(doc) {
  if (doc.querySelector('link[data-dlq-style]')) return;
  doc.head.append(h('link', { rel: 'stylesheet', href: siteURL('src/playground.css'), 'data-dlq-style': '' }));
}

/**
 * Mounts a playground into `element` (its children are replaced).
 * options.scenario  link text ('v1;…') or a scenario object; default: the a/b example
 * options.syncUrl   read the scenario from location.hash and keep the hash up to date
 *                   (one playground per page should do this); also enables page-wide shortcuts
 * options.linkBase  the page "Copy link" points at (default: the hash's page when syncUrl,
 *                   else this site's playground.html)
 * options.label     accessible name of the playground (default "Dead-letter queue playground")
 * What an embed shows (embed-options.mjs checks them; a bad one rejects, named):
 * options.features  'all' (default: lesson 1, the rest once a scenario uses it), 'basic'
 *                   (lesson 1 only) or a list of clock classes ordering operator durability world
 * options.panels    a list of setup presets controls state timeline log link snippet (default: all)
 * options.presets   'all', 'none' or a list of preset keys
 * options.locked    a read-only walkthrough: Back, Forward, Run and the script's position only
 * options.headingLevel  2 (default) to 5: the panels' heading level
 * options.compact   a shorter playground
 * options.switches  boolean policy fields by path ("effects.charge"), drawn as checkboxes
 * options.reportBox a box that sends a worker's report as text (the core refuses an unknown outcome)
 * options.captions  caption i is shown (in the Why line) at script position i
 * options.future    'shown' (default) or 'hidden': the script past the cursor is not drawn
 *                   (a predict question's playground) until controller.showFuture(true)
 * options.fields    set-up fields shown outside Advanced ("backoff.jitter maxAttempts";
 *                   setup-fields.mjs), checked against the core's field tables
 * Resolves to a controller: { element, session, load(scenario), loadOrAlert(scenario), link(),
 * checkGoal(goal), restore(), run(), toEnd(), crashAt(write), showFuture(shown), showFields(fields),
 * fieldLabels(fields), destroy() }. It dispatches 'dlq-change' on `element`
 * after every change it draws (detail: { cursor, length, stats }, stats as queue.stats()).
 */
export async function mount(element, options = {}) {
  ensureStylesheet(element.ownerDocument);
  const embed = embedOptions(options, ALL_PRESETS.map((p) => p.key));  // a bad option rejects before the core loads
  const lab = await labInItsOwnTask().catch((error) => {
    throw loadFailure('its core (WebAssembly)', siteURL('wasm/gen/dlq_core.wasm'), error);
  });
  embed.fields = resolveFields(embed.fields, lab.schema);  // named by the core's field tables
  embed.switches = switchRows(embed.switches, lab.schema.policy);  // the core's table names them
  // The view's parts, the core's session and the first draw are each a task of their own, not
  // one long one: a phone's main thread answers input between them.
  const view = await PlaygroundView.create(uid('dlq'), {
    lab, embed, label: options.label ?? 'Dead-letter queue playground', presets: PRESETS, capstonePresets: CAPSTONE_PRESETS,
    systemPresets: SYSTEM_PRESETS,
    restorable: !(options.scenario === undefined || options.syncUrl), landmark: Boolean(options.syncUrl),
  }, nextTask);
  const session = await Session.create(lab, DEFAULT_SCENARIO, nextTask);
  await nextTask();
  return new Controller(element, lab, options, embed, { view, session });
}

let labLoaded = false;

/**
 * loadLab(), and the first time a task boundary after it: the core's start-up
 * (instantiating the module, its bindings) and the first playground's build are
 * two tasks, not one long one.
 */
async function labInItsOwnTask() {
  const lab = await loadLab();
  connectImport(lab);  // the core reads a pasted config (import.mjs)
  if (!labLoaded) {
    await nextTask();
    labLoaded = true;
  }
  return lab;
}
