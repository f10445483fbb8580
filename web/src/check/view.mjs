// @ts-check
// The Check page's view (check.html): the paste box, the drop zone and pickers, the files listed,
// the optional goals config, the examples, and the report: a summary, one group per queue (its
// attempts and worst case, then each finding with level, rule, file:line, message, skip reason and
// an "Open in playground" link) and the text as the CLI prints it. Draws what it is given and
// reports what the reader did through bindX(handler); controller.mjs owns the flow.
import { h } from '../shared/dom.mjs';
import { ms } from '../shared/time-format.mjs';

const $ = (doc, id) => doc.getElementById(id);

/** The files of a folder entry (File System API, from a drop), depth first, with their paths. */
async function entryFiles(entry, inFolder) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    return [{ name: inFolder ? entry.fullPath.replace(/^\//, '') : file.name, file, inFolder }];
  }
  const reader = entry.createReader();
  const children = [];
  for (;;) {  // readEntries gives a directory's entries in batches until an empty one
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  const nested = await Promise.all(children.map((child) => entryFiles(child, true)));
  return nested.flat();
}

// A folder's files in the order `dlq-lab check FOLDER` reads them (by path).
const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function readAll(picked) {
  const read = await Promise.all(picked.map(async ({ name, file, inFolder }) => ({ name, text: await file.text(), inFolder })));
  return [...read.filter((f) => !f.inFolder), ...read.filter((f) => f.inFolder).sort(byName)];
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class CheckView {
  #onCheck = () => {};
  /** @type {(files: { name: string, text: string, inFolder: boolean }[]) => void} */
  #onFiles = () => {};
  /** @type {(index: number) => void} */
  #onRemove = () => {};
  #onClear = () => {};
  /** @type {(id: string) => void} */
  #onExample = () => {};

  constructor(doc) {
    this.form = $(doc, 'chk-form');
    this.paste = $(doc, 'chk-paste');
    this.pasteName = $(doc, 'chk-paste-name');
    this.config = $(doc, 'chk-config');
    this.drop = $(doc, 'chk-drop');
    this.filePicker = $(doc, 'chk-files');
    this.folderPicker = $(doc, 'chk-folder');
    this.fileList = $(doc, 'chk-file-list');
    this.examples = $(doc, 'chk-examples');
    this.reads = $(doc, 'chk-reads');
    this.failure = $(doc, 'chk-failure');
    this.results = $(doc, 'chk-results');
    this.summary = $(doc, 'chk-summary');
    this.queues = $(doc, 'chk-queues');
    this.text = $(doc, 'chk-text');
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#onCheck();
    });
    for (const box of [this.paste, this.config]) {
      box.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          this.#onCheck();
        }
      });
    }
    $(doc, 'chk-clear').addEventListener('click', () => this.#onClear());
    $(doc, 'chk-pick-files').addEventListener('click', () => this.filePicker.click());
    $(doc, 'chk-pick-folder').addEventListener('click', () => this.folderPicker.click());
    const picked = (input, inFolder) => async () => {
      const files = [...input.files].map((file) => ({ name: inFolder ? file.webkitRelativePath || file.name : file.name, file, inFolder }));
      input.value = '';
      if (files.length > 0) this.#onFiles(await readAll(files));
    };
    this.filePicker.addEventListener('change', picked(this.filePicker, false));
    this.folderPicker.addEventListener('change', picked(this.folderPicker, true));
    this.drop.addEventListener('dragover', (event) => {
      event.preventDefault();
      this.drop.classList.add('is-over');
    });
    this.drop.addEventListener('dragleave', () => this.drop.classList.remove('is-over'));
    this.drop.addEventListener('drop', async (event) => {
      event.preventDefault();
      this.drop.classList.remove('is-over');
      const items = [...(event.dataTransfer?.items ?? [])].filter((item) => item.kind === 'file');
      const entries = items.map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
      const found = entries.length === items.length && entries.length > 0
        ? (await Promise.all(entries.map((entry) => entryFiles(entry, entry.isDirectory)))).flat()
        : [...(event.dataTransfer?.files ?? [])].map((file) => ({ name: file.name, file, inFolder: false }));
      if (found.length > 0) this.#onFiles(await readAll(found));
    });
  }

  /** handler(): Check (the button, or Ctrl+Enter in a box). */
  bindCheck(handler) { this.#onCheck = handler; }
  /** handler([{ name, text, inFolder }]): files dropped or picked, read. */
  bindFiles(handler) { this.#onFiles = handler; }
  /** handler(index): a listed file's Remove. */
  bindRemove(handler) { this.#onRemove = handler; }
  bindClear(handler) { this.#onClear = handler; }
  /** handler(id): an example's button. */
  bindExample(handler) { this.#onExample = handler; }

  input() {
    return { paste: this.paste.value, pasteName: this.pasteName.value, config: this.config.value };
  }

  clearInput() {
    this.paste.value = '';
  }

  showReads(reads) {
    this.reads.textContent = reads;
  }

  showExamples(examples) {
    this.examples.replaceChildren(...examples.map((example) => h('button', {
      type: 'button', class: 'chk-chip', 'data-example': example.id, onclick: () => this.#onExample(example.id),
    }, example.label)));
  }

  showFiles(files) {
    this.fileList.replaceChildren(...files.map((file, i) => h('li', {},
      h('code', {}, file.name), file.inFolder ? h('span', { class: 'chk-muted' }, ' (in a folder)') : null, ' ',
      h('button', { type: 'button', class: 'chk-link-btn', 'aria-label': `Remove ${file.name}`, onclick: () => this.#onRemove(i) }, 'Remove'))));
    this.fileList.hidden = files.length === 0;
  }

  showFailure(message) {
    this.results.hidden = true;
    this.failure.textContent = message;
    this.failure.hidden = false;
  }

  showNothing() {
    this.failure.hidden = true;
    this.results.hidden = true;
  }

  /** { report, groups (controller.mjs groupReport), text, exitCode, warning, files }. */
  showReport({ report, groups, text, exitCode, warning, files }) {
    this.failure.hidden = true;
    const { errors, warnings, notes, skipped } = report.summary;
    this.summary.replaceChildren(
      h('strong', {}, `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(notes, 'note')}`),
      skipped > 0 ? `, ${skipped} skipped` : '',
      ` in ${plural(report.queues.length, 'queue')} from ${plural(files.length, 'file')}. `,
      `dlq-lab check would exit ${exitCode}${exitCode === 0 ? ' (pass)' : ' (a failing finding)'}.`,
      warning ? h('span', { class: 'chk-warning' }, ` ${warning.trim()}`) : '');
    this.queues.replaceChildren(...groups.map((group) => this.#group(group)));
    this.text.textContent = text;
    this.results.hidden = false;
  }

  #group({ queue, findings }) {
    const head = queue === null
      ? [h('h3', {}, 'About the files')]
      : [
        h('h3', {}, h('code', {}, queue.name), h('span', { class: 'chk-muted' }, ` ${queue.system} · ${queue.file}:${queue.line}`)),
        h('p', { class: 'chk-facts' },
          `Dead-letter queue: ${queue.dlq === '' ? 'none' : queue.dlq} · `,
          `attempts: ${queue.attempts === null ? 'unbounded' : queue.attempts} · `,
          `worst case to the terminal place: ${queue.worstCaseMs === null ? 'unbounded or unknown' : ms(queue.worstCaseMs)}`),
      ];
    const items = findings.map((finding) => h('li', { class: `chk-finding is-${finding.level}${finding.skipped ? ' is-skipped' : ''}` },
      h('span', { class: 'chk-level' }, finding.level), ' ',
      h('code', { class: 'chk-rule' }, finding.rule), ' ',
      h('span', { class: 'chk-at' }, `${finding.file}:${finding.line}`),
      h('p', { class: 'chk-message' }, finding.message),
      finding.skipped ? h('p', { class: 'chk-skip' }, `Skipped: ${finding.reason}`) : null,
      finding.link ? h('a', { class: 'chk-open', href: finding.link }, 'Open in playground',
        h('span', { class: 'chk-sr' }, ` (${finding.rule}${finding.queue ? `, ${finding.queue}` : ''})`)) : null));
    return h('section', { class: 'chk-queue' }, ...head,
      items.length > 0 ? h('ul', { class: 'chk-findings' }, ...items) : h('p', { class: 'chk-muted' }, 'No finding.'));
  }
}
