// Snapshots and "Crash and restart": two dialogs over the core's durability
// (docs/snapshot-format.md). The crash dialog lists the journal of durable
// writes of the queue at the cursor (since its creation), lets the reader pick
// the write after which the process dies (torn or not, safe or unsafe order),
// and shows what the core's recovery kept, found twice, or lost. Nothing about
// recovery is decided here: lab.recover() does it.
import { h } from './dom.mjs';

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
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text.value);
      status.textContent = 'Copied.';
    } catch {
      text.focus();
      text.select();
      status.textContent = 'Copying is blocked here: the text is selected, copy it with Ctrl+C.';
    }
  });
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

/** The crash dialog. onUnsafe(on) switches the policy's order (the page replays the script). */
/**
 * onUnsafe(on) switches the policy's unsafe order (true if the journal changed);
 * onRecovered(queue) receives each recovery the reader runs (and owns that queue:
 * it disposes it).
 */
export function crashDialog(idPrefix, { lab, onUnsafe, onRecovered }) {
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
  let journal = [];
  let session = null;

  const describe = (w) => `${w.op}${w.id === null ? '' : ` "${w.id}"`}`;
  const mark = () => {
    kOut.textContent = journal.length === 0 ? 'no writes' : `after write ${k.value} of ${journal.length}: ${describe(journal[Number(k.value) - 1])}`;
    for (const [i, li] of [...list.children].entries()) li.classList.toggle('is-crash', i + 1 === Number(k.value));
  };
  /** Recovery after write `after`: { lost, duplicated, queue } (the caller disposes the queue). */
  const recover = (after) => lab.recover(null, journal, { crashAfter: after, torn: torn.checked });

  const show = () => {
    let r;
    try {
      r = recover(Number(k.value));
    } catch (error) {
      if (!(error instanceof Error) || typeof error.code !== 'string') throw error;
      result.replaceChildren(h('p', {}, `Recovery refused: ${error.message}.`));
      return;
    }
    try {
      const events = r.queue.timeline().filter((e) => e.kind === 'lost' || e.kind === 'kept-once');
      result.replaceChildren(
        h('p', {}, `Restarted from ${r.applied} of ${journal.length} writes${r.tornDiscarded ? ', and a torn half-write detected and discarded' : ''}.`),
        h('p', { class: r.lost.length > 0 ? 'dlq-lost' : '' }, r.lost.length === 0 ? 'Lost: none.' : `Lost: ${r.lost.map((x) => `"${x}"`).join(', ')}.`),
        h('p', {}, r.duplicated.length === 0 ? 'Found in two places: none.' : `Found in two places and kept once: ${r.duplicated.map((x) => `"${x}"`).join(', ')}.`),
        events.length > 0 ? h('ul', {}, events.map((e) => h('li', {}, e.explanation))) : null,
        h('p', {}, `After the restart: ready ${r.queue.ready().map((j) => `"${j.id}"`).join(', ') || 'none'}; ` +
          `in flight ${r.queue.leased().map((j) => `"${j.id}"`).join(', ') || 'none'}; ` +
          `quarantine ${r.queue.quarantined().map((j) => `"${j.id}"`).join(', ') || 'none'}; ` +
          `completed ${r.queue.completed().map((j) => `"${j.id}"`).join(', ') || 'none'}.`));
    } catch (error) {
      r.queue.dispose();
      throw error;
    }
    onRecovered(r.queue);
  };

  k.addEventListener('input', mark);
  run.addEventListener('click', show);
  // The write that matters most: the first that loses a job, else the first that
  // leaves one in quarantine and its source, else the first that doubles any.
  find.addEventListener('click', () => {
    let best = null;
    for (let after = 1; after <= journal.length; after++) {
      const r = recover(after);
      const rank = r.lost.length > 0 ? 3
        : r.queue.timeline().some((e) => e.kind === 'kept-once' && e.place === 'quarantine') ? 2
          : r.duplicated.length > 0 ? 1 : 0;
      r.queue.dispose();
      if (rank > (best?.rank ?? 0)) best = { rank, after };
      if (rank === 3) break;
    }
    if (best === null) {
      result.replaceChildren(h('p', {}, 'No write loses or doubles a job in this run.'));
      return;
    }
    k.value = String(best.after);
    mark();
    show();
  });
  unsafe.addEventListener('change', () => {
    if (onUnsafe(unsafe.checked)) dialog.show(session);
  });

  const dialog = dialogShell(id, 'Crash and restart', [
    h('p', {}, 'Every change is a fixed sequence of durable writes: a move writes its destination, then removes the job from its source. Pick the write after which the process dies; recovery replays the journal up to it.'),
    h('p', { class: 'dlq-check' }, unsafe, ' ', h('label', { for: `${id}-unsafe` }, 'Unsafe order: a move into quarantine removes the job from its source first')),
    alert,
    h('label', { for: `${id}-list`, class: 'dlq-label' }, 'Journal since the queue was created'), list,
    h('div', { class: 'dlq-field' }, h('label', { for: `${id}-k` }, 'Crash after write'), k, kOut),
    h('p', { class: 'dlq-check' }, torn, ' ', h('label', { for: `${id}-torn` }, 'Torn: the next write is half on disk')),
    h('div', { class: 'dlq-buttons' }, run, find),
    result]);
  dialog.alert = alert;
  /** Moves to the first write where a crash loses or doubles a job, and shows that recovery. */
  dialog.findFirst = () => find.click();
  /** Shows the recovery after write `after` (clamped to the journal). */
  dialog.crashAt = (after) => {
    k.value = String(Math.min(Math.max(1, after), journal.length));
    mark();
    show();
  };
  /** Opens on the queue at the cursor: its journal since creation. */
  dialog.show = (current) => {
    session = current;
    journal = current.queue.journal();
    unsafe.checked = Boolean(current.queue.policy().unsafeQuarantineOrder);
    list.replaceChildren(...journal.map((w) => h('li', {}, describe(w))));
    k.max = String(Math.max(1, journal.length));
    k.value = String(journal.length);
    result.replaceChildren();
    mark();
    if (!dialog.open) dialog.showModal();
  };
  return dialog;
}
