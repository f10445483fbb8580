// @ts-check
// Snapshots and "Crash and restart": two dialogs over the core's durability
// (docs/snapshot-format.md). The crash dialog lists the journal of durable
// writes of the queue at the cursor (since its creation or last restart), lets
// the reader pick the write after which the process dies (torn or not, safe or
// unsafe order), and carries the crash out as a script action: the session's
// recovered queue is then the playground's state. Nothing about recovery is
// decided here: the core's session does it.
import { h } from '../shared/dom.mjs';
import { blockedSelected, copyText } from '../shared/clipboard.mjs';

function dialogShell(id, title, body) {
  const headingId = `${id}-h`;
  const close = h('button', { type: 'button', class: 'dlq-btn' }, 'Close');
  const dialog = h('dialog', { class: 'dlq-help dlq-dialog', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, title), body, h('div', { class: 'dlq-help-foot' }, close));
  close.addEventListener('click', () => dialog.close());
  return dialog;
}

/** The snapshot dialog: the text, its size, and Copy. */
export function snapshotDialog(idPrefix) {
  const id = `${idPrefix}-snap`;
  const text = h('textarea', { id: `${id}-text`, class: 'dlq-input dlq-snapshot-text', readonly: true, rows: 12, spellcheck: 'false' });
  const size = h('p', { class: 'dlq-hint' });
  const status = h('span', { role: 'status' });
  const copy = h('button', { type: 'button', class: 'dlq-btn' }, 'Copy snapshot');
  copy.addEventListener('click', () => copyText(text.value, { status, field: text, blocked: blockedSelected('text') }));
  const dialog = dialogShell(id, 'Snapshot', [
    h('p', {}, 'The whole state as the core writes it: versioned, canonical (equal states give equal texts) and checksummed. lab.restoreQueue(text) gives this queue back.'),
    h('label', { for: `${id}-text`, class: 'dlq-label' }, 'Snapshot text'), text, size, h('p', {}, copy, ' ', status)]);
  dialog.show = (value) => {
    text.value = value;
    size.textContent = `${value.length.toLocaleString('en')} characters, ${value.split('\n').length - 1} lines.`;
    status.textContent = '';
    dialog.showModal();
  };
  return dialog;
}

const describeWrite = (w) => `${w.op}${w.id === null ? '' : ` "${w.id}"`}`;
const quotedIds = (jobs) => jobs.map((j) => `"${j.id}"`).join(', ') || 'none';

/**
 * The journal list and the slider's label. The list shows a window of writes
 * around the crash point, so a journal of 20,000 writes opens as fast as one of
 * 20 (the slider reaches every write). reset(writes) takes a new journal;
 * mark() follows the slider.
 */
function journalWindow(list, k, kOut) {
  const WINDOW = 200;
  let journal = [];
  let shownFrom = -1;
  return {
    get journal() { return journal; },
    reset(writes) {
      journal = writes;
      shownFrom = -1;
    },
    mark() {
      const at = Number(k.value);
      kOut.textContent = journal.length === 0 ? 'no writes' : `after write ${at} of ${journal.length}: ${describeWrite(journal[at - 1])}`;
      const from = Math.max(0, Math.min(at - 1 - WINDOW / 2, journal.length - WINDOW));
      if (from !== shownFrom) {
        shownFrom = from;
        const items = journal.slice(from, from + WINDOW).map((w, i) => h('li', { value: from + i + 1 }, describeWrite(w)));
        if (from > 0) items.unshift(h('li', { class: 'dlq-journal-gap', 'aria-hidden': 'true' }, `… ${from} earlier writes`));
        const after = journal.length - from - WINDOW;
        if (after > 0) items.push(h('li', { class: 'dlq-journal-gap', 'aria-hidden': 'true' }, `… ${after} later writes`));
        list.replaceChildren(...items);
      }
      for (const li of list.children) li.classList.toggle('is-crash', Number(li.getAttribute('value')) === at);
    },
  };
}

/** What recovery kept, found twice, or lost, read from the session's view after the crash. */
function recoveryReport(view) {
  const crash = view.last.crash;
  const events = view.timeline.slice(view.eventsAtCursor - crash.lost.length - crash.duplicated.length, view.eventsAtCursor);
  return [
    h('p', {}, `Restarted from ${crash.applied} of ${crash.journal} writes${crash.tornDiscarded ? ', and a torn half-write detected and discarded' : ''}.`),
    h('p', { class: crash.lost.length > 0 ? 'dlq-lost' : '' }, crash.lost.length === 0 ? 'Lost: none.' : `Lost: ${crash.lost.map((x) => `"${x}"`).join(', ')}.`),
    h('p', {}, crash.duplicated.length === 0 ? 'Found in two places: none.' : `Found in two places and kept once: ${crash.duplicated.map((x) => `"${x}"`).join(', ')}.`),
    events.length > 0 ? h('ul', {}, events.map((e) => h('li', {}, e.explanation))) : null,
    h('p', {}, `After the restart: ready ${quotedIds(view.ready.filter((j) => j.gap === undefined))}; in flight ${quotedIds(view.leased)}; ` +
      `quarantine ${quotedIds(view.quarantined)}; completed ${quotedIds(view.completed)}. The playground now shows this state; Back goes to before the crash.`)];
}

/** The crash dialog's body, in reading order, over its controls. */
function crashBody(id, { unsafe, alert, list, k, kOut, torn, run, find, result }) {
  return [
    h('p', {}, 'Every change is a fixed sequence of durable writes: a move writes its destination, then removes the job from its source. Pick the write after which the process dies; recovery replays the journal up to it, and the restarted queue becomes the playground\'s state.'),
    h('p', { class: 'dlq-check' }, unsafe, ' ', h('label', { for: `${id}-unsafe` }, 'Unsafe order: a move into quarantine removes the job from its source first')),
    alert,
    h('label', { for: `${id}-list`, class: 'dlq-label' }, 'Journal since the queue was created (or last restarted)'), list,
    h('div', { class: 'dlq-field' }, h('label', { for: `${id}-k` }, 'Crash after write'), k, kOut),
    h('p', { class: 'dlq-check' }, torn, ' ', h('label', { for: `${id}-torn` }, 'Torn: the next write is half on disk')),
    h('div', { class: 'dlq-buttons' }, run, find),
    result];
}

/**
 * The crash dialog over a playground's session. onUnsafe(on) switches the
 * policy's unsafe order (true if the journal changed); onCrash(after, torn)
 * carries the crash out as a script action (true when the core took it), so
 * the recovered queue is the playground's state, its loss on the timeline and
 * in the link; onFind() is the core's write that matters ({ after, rank } or
 * null). The result shown here is read back from the session's view.
 */
export function crashDialog(idPrefix, { onUnsafe, onCrash, onFind }) {
  const id = `${idPrefix}-crash`;
  const list = h('ol', { class: 'dlq-journal', id: `${id}-list`, tabindex: 0 });  // it scrolls: reachable by keyboard
  const k = h('input', { type: 'range', id: `${id}-k`, class: 'dlq-scrub', min: 1, max: 1, value: 1, step: 1 });
  const kOut = h('output', { for: `${id}-k` });
  const torn = h('input', { type: 'checkbox', id: `${id}-torn` });
  const unsafe = h('input', { type: 'checkbox', id: `${id}-unsafe` });
  const alert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });
  const result = h('div', { class: 'dlq-recovery', role: 'status' });
  const run = h('button', { type: 'button', class: 'dlq-btn dlq-primary' }, 'Crash and restart');
  const find = h('button', { type: 'button', class: 'dlq-btn' }, 'Find the write that matters');
  const writes = journalWindow(list, k, kOut);
  const mark = () => writes.mark();
  let session = null;

  /** Crashes after write `after` (a script action), then says what recovery kept, found twice, or lost. */
  const show = (after) => {
    if (!onCrash(after, torn.checked)) {
      result.replaceChildren(h('p', {}, alert.hidden ? 'Recovery refused.' : `Recovery refused: ${alert.textContent}`));
      return;
    }
    result.replaceChildren(...recoveryReport(session.view));
  };
  k.addEventListener('input', mark);
  run.addEventListener('click', () => show(Number(k.value)));
  // The write that matters most: the first that loses a job, else the first that
  // leaves one in quarantine and its source, else the first that doubles any. The
  // core finds it in one pass over the journal (onFind); only that crash is carried out.
  find.addEventListener('click', () => {
    const best = onFind();
    if (best === null) {
      result.replaceChildren(h('p', {}, 'No write loses or doubles a job in this run.'));
      return;
    }
    k.value = String(best.after);
    mark();
    show(best.after);
  });
  unsafe.addEventListener('change', () => {
    if (onUnsafe(unsafe.checked)) dialog.show(session);
  });

  const dialog = dialogShell(id, 'Crash and restart', crashBody(id, { unsafe, alert, list, k, kOut, torn, run, find, result }));
  dialog.alert = alert;
  /** Moves to the first write where a crash loses or doubles a job, and carries that crash out. */
  dialog.findFirst = () => find.click();
  /** Crashes after write `after` (clamped to the journal). */
  dialog.crashAt = (after) => {
    k.value = String(Math.min(Math.max(1, after), writes.journal.length));
    mark();
    show(Number(k.value));
  };
  /**
   * Opens on the playground's session at its cursor: the journal of its queue
   * since creation (or the last restart). A crash tried again from this dialog
   * replaces the one it carried out before (the playground goes back one first).
   */
  dialog.show = (current) => {
    session = current;
    writes.reset(current.queue.journal());
    unsafe.checked = Boolean(current.view.policy.unsafeQuarantineOrder);
    k.max = String(Math.max(1, writes.journal.length));
    k.value = String(writes.journal.length);
    result.replaceChildren();
    mark();
    if (!dialog.open) dialog.showModal();
  };
  return dialog;
}
