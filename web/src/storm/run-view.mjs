// @ts-check
// The run bar of the results panel: the panel's state (#results data-state, for
// styles and tests), Run / Restart and Cancel, the progress bar and its count,
// the status line (a live region), and the link to the results on show.

export class RunView {
  #results;
  #runButton;
  #cancelButton;
  #progress;
  #count;
  #status;
  #output;
  #linkLine;
  #link;

  constructor(doc = document) {
    const $ = (id) => doc.getElementById(id);
    this.#results = $('results');
    this.#runButton = $('storm-run');
    this.#cancelButton = /** @type {HTMLButtonElement} */ ($('storm-cancel'));
    this.#progress = /** @type {HTMLProgressElement} */ ($('storm-progress'));
    this.#count = $('storm-count');
    this.#status = $('storm-status');
    this.#output = $('storm-output');
    this.#linkLine = $('storm-link-line');
    this.#link = /** @type {HTMLAnchorElement} */ ($('storm-link'));
  }

  /** `handler()`: the reader pressed Cancel. */
  bindCancel(handler) { this.#cancelButton.addEventListener('click', () => handler()); }

  /** 'idle', 'running', 'done', 'cancelled', 'refused' or 'error'. */
  renderState(state) {
    this.#results.dataset.state = state;
    const running = state === 'running';
    this.#cancelButton.disabled = !running;
    this.#runButton.textContent = running ? 'Restart' : 'Run';
    this.#output.setAttribute('aria-busy', String(running));
  }

  /** The status line: what happened, in a sentence. */
  renderStatus(text) { this.#status.textContent = text; }

  /** The progress bar (0 to 1) and the count under it (not a live region: it changes many times a second). */
  renderProgress(fraction, count = '') {
    this.#progress.value = fraction;
    const percent = `${Math.floor(fraction * 100)}%`;
    this.#progress.setAttribute('aria-valuetext', count ? `${percent}, ${count}` : percent);
    this.#count.textContent = count;
  }

  /** How far the bar is, in whole percent. */
  get percent() { return Math.round(this.#progress.value * 100); }

  /** The link to what is on show (`hash`: '#…'). */
  renderLink(hash) {
    this.#link.href = hash;
    this.#link.textContent = `storm.html${hash}`;
    this.#linkLine.hidden = false;
  }

  /** On a narrow screen the results are below the form: brings them (progress, Cancel) into view. */
  reveal() {
    if (this.#results.getBoundingClientRect().top > window.innerHeight * 0.6) {
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      this.#results.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    }
  }
}
