// @ts-check
// The Check page's flow (TodoMVC-style: view.mjs draws and reports what the reader did through
// bindX(handler); this owns the files gathered and asks the checker). Every judgement is the
// core's (wasm/check.mjs: the same code as `dlq-lab check`): this only gathers the files, hands
// them over with the config and the link base, and groups the report for the view.
import { EXAMPLES, EXAMPLES_DIR } from './examples.mjs';

/** The report grouped for the page: one group per queue (in the report's order), then the findings about whole files. */
export function groupReport(report) {
  const groups = report.queues.map((queue) => ({ queue, findings: [] }));
  const byName = new Map(groups.map((group) => [group.queue.name, group]));
  const files = { queue: null, findings: [] };
  for (const finding of report.findings) (byName.get(finding.queue) ?? files).findings.push(finding);
  if (files.findings.length > 0) groups.push(files);
  return groups;
}

export class CheckController {
  #view;
  #loadChecker;
  #fetchText;
  #linkBase;
  #files = [];  // [{ name, text, inFolder }] dropped, picked or from an example, in that order

  /**
   * view: CheckView (or a fake with the same bindX/show* methods); loadChecker(): Promise<Checker>;
   * fetchText(url): Promise<string>; linkBase: this site's playground.html, each finding's link's base.
   */
  constructor({ view, loadChecker, fetchText, linkBase }) {
    this.#view = view;
    this.#loadChecker = loadChecker;
    this.#fetchText = fetchText;
    this.#linkBase = linkBase;
  }

  start() {
    const view = this.#view;
    view.showExamples(EXAMPLES);
    view.bindCheck(() => this.check());
    view.bindFiles((files) => this.addFiles(files));
    view.bindRemove((index) => this.removeFile(index));
    view.bindClear(() => this.clear());
    view.bindExample((id) => this.loadExample(id));
    view.showFiles(this.#files);
    this.#loadChecker().then((checker) => view.showReads(checker.reads), () => {});
  }

  get files() { return this.#files.map((file) => ({ ...file })); }

  /** Files read from a drop or a picker: [{ name, text, inFolder }]; a name already listed is replaced. */
  addFiles(files) {
    for (const file of files) {
      const at = this.#files.findIndex((f) => f.name === file.name);
      if (at >= 0) this.#files[at] = { ...file };
      else this.#files.push({ ...file });
    }
    this.#view.showFiles(this.#files);
  }

  removeFile(index) {
    this.#files.splice(index, 1);
    this.#view.showFiles(this.#files);
  }

  clear() {
    this.#files = [];
    this.#view.showFiles(this.#files);
    this.#view.clearInput();
    this.#view.showNothing();
  }

  /** An example's files fetched from the site, in place of the files listed (the pasted text is cleared), then checked. */
  async loadExample(id) {
    const example = EXAMPLES.find((e) => e.id === id);
    if (!example) return;
    let texts;
    try {
      texts = await Promise.all(example.files.map((name) => this.#fetchText(`${EXAMPLES_DIR}/${name}`)));
    } catch (error) {
      this.#view.showFailure(`The example "${example.label}" could not be loaded: ${error?.message ?? error}`);
      return;
    }
    this.#files = example.files.map((name, i) => ({ name, text: texts[i], inFolder: false }));
    this.#view.clearInput();
    this.#view.showFiles(this.#files);
    await this.check();
  }

  /** Checks the files listed and the pasted text (under its file name) with the config, and shows the report. */
  async check() {
    const { paste, pasteName, config } = this.#view.input();
    const files = [...this.#files];
    if (paste.trim() !== '') {
      const name = pasteName.trim();
      if (name === '') {
        this.#view.showFailure('File name: expected the pasted file\'s name (such as plan.json or sidekiq.yml: the checker ' +
          'judges its format by name and content), got nothing');
        return;
      }
      files.push({ name, text: paste, inFolder: false });
    }
    if (files.length === 0) {
      this.#view.showFailure('Nothing to check: paste a file, drop files or a folder, choose them, or load an example.');
      return;
    }
    let checker;
    try {
      checker = await this.#loadChecker();
    } catch (error) {
      this.#view.showFailure(`The checker could not be loaded: ${error?.message ?? error}`);
      return;
    }
    let result;
    try {
      result = checker.check(files, { config: config.trim() === '' ? undefined : config, linkBase: this.#linkBase });
    } catch (error) {
      this.#view.showFailure(error?.message ?? String(error));
      return;
    }
    if (result.failure !== undefined) {
      this.#view.showFailure(result.failure);
      return;
    }
    this.#view.showReport({
      report: result.report, groups: groupReport(result.report), text: result.text, exitCode: result.exitCode,
      warning: result.stderr, files: files.map((file) => file.name),
    });
  }
}
