// The compare page's flow: fragment -> read (names checked against the core's
// tables, the link by the core) -> play each column in the core -> diff -> draw.
// A fragment or a form the page cannot read is refused by name and changes
// nothing: the comparison on show stays, and so does the URL. The controller
// holds the page's state (what is on show); the views only draw and report.
import { diffSentences } from './diff.mjs';

/** What a first visit with no fragment shows: a poison job b ahead of a healthy a, played by the world, under the lab, RabbitMQ's quorum queue and Sidekiq. */
export const DEFAULT_HASH = 'v2;m3;s1;hb:pt;jb:,a:&with=lab,rabbitmq-quorum,sidekiq';

export class CompareController {
  #model;
  #form;
  #results;
  #window;
  #shown = null;  // the request on show: { link, columns }

  constructor({ model, form, results, window }) {
    this.#model = model;
    this.#form = form;
    this.#results = results;
    this.#window = window;
  }

  start() {
    this.#form.setSystems(this.#model.systems());
    this.#form.bindCompare((input) => this.#fromForm(input));
    this.#window.addEventListener('hashchange', () => this.#fromHash());
    this.#fromHash();
  }

  /** The fragment's text, without '#'; '' when there is none. */
  #hashText() {
    const { hash } = this.#window.location;
    return hash.startsWith('#') ? hash.slice(1) : hash;
  }

  #fromHash() {
    const text = this.#hashText();
    let request;
    try {
      request = this.#model.read(text === '' ? DEFAULT_HASH : text);
    } catch (error) {
      const fallback = this.#shown === null ? ' Showing the default comparison instead.' : ' The comparison on show is unchanged.';
      this.#results.showRefusal(`This compare link could not be read: ${error.message}.${fallback}`);
      if (this.#shown === null) this.#show(this.#model.read(DEFAULT_HASH));
      return;
    }
    this.#results.showRefusal(null);
    this.#show(request);
  }

  #fromForm({ link, columns }) {
    let request;
    try {
      if (link === '') throw new Error('Scenario link is empty: expected a playground link such as v2;m3;ja:,b:;at,t,t');
      request = this.#model.read(`${link}&with=${columns.join(',')}`);
    } catch (error) {
      this.#form.showError(`Not compared: ${error.message}.`);
      return;
    }
    this.#form.showError(null);
    this.#results.showRefusal(null);
    this.#show(request);
    const hash = `#${this.#model.write(request)}`;
    if (this.#window.location.hash !== hash) this.#window.history.pushState(null, '', hash);
  }

  #show(request) {
    const results = this.#model.play(request);
    const played = results.filter((r) => !r.error);
    this.#results.render(results, diffSentences(played.map(({ label, endings }) => ({ label, endings }))));
    this.#form.show(request, this.#model.linkSystem(request.link));
    this.#shown = request;
  }
}
