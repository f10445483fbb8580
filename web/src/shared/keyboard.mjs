// @ts-check
// Keyboard shortcuts and the "?" help table. Shortcuts act on the playground
// that holds focus; the page's primary playground (options.globalKeys) also
// takes them when focus is on nothing in particular (the page body). Keys
// typed into text fields, and Space/Enter on a focused control, keep their
// native meaning.
import { h } from './dom.mjs';
import { PRESETS, CAPSTONE_PRESETS } from '../playground/presets.mjs';

/** A shortcut's key, shown beside its control's name (the control's aria-keyshortcuts names it to assistive technology). */
export function kbd(key) {
  return h('kbd', { 'aria-hidden': 'true' }, key);
}

/** How the page labels the core's outcomes (the core's lab.outcomes says which there are, in order). */
const OUTCOME_LABELS = { success: 'Success', transient: 'Transient failure', permanent: 'Permanent failure',
  undeserializable: 'Undeserializable', 'unknown-schema': 'Unknown schema', precondition: 'Precondition failed' };

export function outcomeLabel(outcome) {
  return OUTCOME_LABELS[outcome] ?? outcome;
}

/** Keys 1, 2, 3, … choose the core's outcomes in its order: the command is 'outcome:<n>'. */
const OUTCOME_KEYS = 9;

const SHORTCUTS = [
  ['S', 'Step: process the head with the chosen outcome', 'step'],
  ['B', 'Back: undo one step', 'back'],
  ['F', 'Forward: redo one step', 'forward'],
  ['Space', 'Run / Pause the script', 'run'],
  ['R', 'Reset to step 0', 'reset'],
  ['L', 'Lease the next job (leave it in flight)', 'lease'],
  ['N', 'Next event: move the clock to the next timer', 'next'],
  ['G', 'Play: let the simulated workers run / pause', 'play'],
  ['Z', 'Undo the change that replaced the script', 'undo'],
  ...PRESETS.map((p) => [p.key.toUpperCase(), `Preset: ${p.name}`, `preset:${p.key}`]),
  ...CAPSTONE_PRESETS.map((p) => [p.key.toUpperCase(), `Preset: ${p.name}`, `preset:${p.key}`]),
  ['?', 'Show this help', 'help'],
];

const BY_KEY = new Map(/** @type {[string, string][]} */ ([
  ...SHORTCUTS.map(([key, , command]) => [key === 'Space' ? ' ' : key.toLowerCase(), command]),
  ...Array.from({ length: OUTCOME_KEYS }, (_, i) => [String(i + 1), `outcome:${i + 1}`]),
]));

/** The help table's rows: the shortcuts, with one row per outcome (`outcomes`: lab.outcomes) after Run. */
function rows(outcomes) {
  const chosen = outcomes.slice(0, OUTCOME_KEYS).map((o, i) => [String(i + 1), `Outcome: ${outcomeLabel(o)}`]);
  const at = SHORTCUTS.findIndex(([, , command]) => command === 'run') + 1;
  return [...SHORTCUTS.slice(0, at), ...chosen, ...SHORTCUTS.slice(at)];
}

function isTyping(target) {
  if (!(target instanceof Element)) return false;
  if (/** @type {HTMLElement} */ (target).isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'range'].includes(target.type);
}

/** The command for a keydown, or null if the key is not a shortcut here. */
export function commandFor(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return null;
  if (isTyping(event.target)) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === ' ' && event.target instanceof Element &&
    event.target.closest('button, a, input, select, summary, [role="button"]')) return null;
  return BY_KEY.get(key) ?? null;
}

const STORAGE_KEY = 'dlq-lab:single-key-shortcuts';

/** Whether single-key shortcuts are on (the reader can turn them off; remembered when storage allows). */
export function shortcutsEnabled() {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) !== 'off';
  } catch {
    return true; // storage blocked: the default
  }
}

// Every playground's switch on the page: turning single-key shortcuts off in one
// turns them off in all (they share the page's keyboard).
const switches = new Set();

function rememberShortcuts(on) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

/**
 * The help dialog (a native <dialog>: Escape closes it, focus returns). It also
 * holds the switch that turns single-key shortcuts off (WCAG 2.1.4), for
 * speech-input users whose words could otherwise trigger them.
 *
 * Its content is built the first time it opens (its showModal()): a page of 19
 * playgrounds had 19 tables of shortcuts that no one had asked for, about a fifth of
 * each playground's elements. Until then the dialog is empty and closed, and the
 * switch's state is kept here, so a change in another playground still reaches it.
 */
export function helpDialog(idPrefix, { outcomes, onToggle }) {
  const headingId = `${idPrefix}-help-h`;
  const dialog = h('dialog', { class: 'dlq-help' });
  let enabled = shortcutsEnabled();
  let toggle = null;  // the switch, once the content is built
  const follow = (on) => {
    enabled = on;
    if (toggle) toggle.checked = on;
    onToggle(on);
  };
  switches.add(follow);
  const build = () => {
    toggle = h('input', { type: 'checkbox', id: `${idPrefix}-keys`, checked: enabled });
    toggle.addEventListener('change', () => {
      rememberShortcuts(toggle.checked);
      for (const other of switches) other(toggle.checked);
    });
    const close = h('button', { type: 'button', class: 'dlq-btn' }, 'Close');
    close.addEventListener('click', () => dialog.close());
    dialog.setAttribute('aria-labelledby', headingId);
    dialog.append(
      h('h2', { id: headingId }, 'Keyboard shortcuts'),
      h('table', {},
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Key'), h('th', { scope: 'col' }, 'Action'))),
        h('tbody', {}, rows(outcomes).map(([key, text]) => h('tr', {}, h('td', {}, h('kbd', {}, key)), h('td', {}, text))))),
      h('p', {}, 'In the Timeline: arrow keys move between events, Enter goes to that step. Shortcuts are ignored while you type in a field.'),
      h('p', { class: 'dlq-help-toggle' }, toggle, ' ', h('label', { for: `${idPrefix}-keys` }, 'Single-key shortcuts')),
      h('div', { class: 'dlq-help-foot' }, close));
  };
  /** Opens the dialog, its content built on the first call. */
  dialog.showModal = () => {
    if (!toggle) build();
    HTMLDialogElement.prototype.showModal.call(dialog);
  };
  /** Forgets this playground's switch (its playground is destroyed). */
  dialog.release = () => switches.delete(follow);
  return dialog;
}
