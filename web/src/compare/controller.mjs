// @ts-check
// The compare page's flow: fragment -> read (names checked against the core's
// tables, the link by the core) -> play each column in the core -> diff -> draw.
// A fragment or a form the page cannot read is refused by name and changes
// nothing: the comparison on show stays, and so does the URL. The controller
// holds the page's state (what is on show); the views only draw and report.
// Each column is played in tasks of its own, a call into the core each: a first
// call compiles the core's code for it (the browser compiles WebAssembly lazily),
// and a page that played every column in one task held a phone's main thread for
// its whole length. The diff and the drawing are tasks of their own too.
import { diffSentences } from './diff.mjs';
import { scenarioLinkFrom } from '../shared/url.mjs';
import { nextTask } from '../shared/next-task.mjs';

/** What a first visit with no fragment shows: a poison job b ahead of a healthy a, played by the world, under the lab, RabbitMQ's quorum queue and Sidekiq. */
export const DEFAULT_HASH = 'v2;m3;s1;hb:pt;jb:,a:&with=lab,rabbitmq-quorum,sidekiq';

export class CompareController {
  #model;
  #form;
  #results;
  #window;
  #shown = null;  // the request on show: { link, columns }
  #pause;
  #turn = 0;  // bumped by every request: a comparison still playing for an older one stops

  /** `pause()`: resolves in a later task (setTimeout by default), between two steps of a comparison. */
  constructor({ model, form, results, window, pause = nextTask }) {
    this.#model = model;
    this.#form = form;
    this.#results = results;
    this.#window = window;
    this.#pause = pause;
  }

  /**
   * Binds the form and the fragment and shows the fragment's comparison (from the next task:
   * its first read compiles the core's code for it); resolves once it is drawn.
   */
  async start() {
    this.#form.setSystems(this.#model.systems());
    this.#form.bindCompare((input) => this.#fromForm(input));
    this.#window.addEventListener('hashchange', () => this.#fromHash());
    await this.#pause();
    return this.#fromHash();
  }

  /** The fragment's text, without '#'; '' when there is none. */
  #hashText() {
    const { hash } = this.#window.location;
    return hash.startsWith('#') ? hash.slice(1) : hash;
  }

  /** Shows the fragment's comparison (or says why not); resolves once it is drawn. */
  async #fromHash() {
    const text = this.#hashText();
    let request;
    try {
      request = this.#model.read(text === '' ? DEFAULT_HASH : text);
    } catch (error) {
      const fallback = this.#shown === null ? ' Showing the default comparison instead.' : ' The comparison on show is unchanged.';
      this.#results.showRefusal(`This compare link could not be read: ${error.message}.${fallback}`);
      if (this.#shown === null) await this.#show(this.#model.read(DEFAULT_HASH));
      else this.#turn += 1;  // a comparison still playing for an earlier fragment is not the one on show
      return;
    }
    this.#results.showRefusal(null);
    await this.#show(request);
  }

  /**
   * The form's Compare. The scenario link may be a full URL, a #fragment or the bare link
   * (scenarioLinkFrom, as everywhere a link is taken). A refusal is named in the form and
   * clears the comparison below it (it was of another request, not this one); the URL stays.
   * Resolves once the comparison is drawn and its link is in the address bar.
   */
  async #fromForm({ link, columns }) {
    let request;
    try {
      if (link === '') throw new Error('Scenario link is empty: expected a playground link such as v2;m3;ja:,b:;at,t,t');
      request = this.#model.read(`${scenarioLinkFrom(link, 'Scenario link')}&with=${columns.join(',')}`);
    } catch (error) {
      this.#turn += 1;
      this.#form.showError(`Not compared: ${error.message}.`);
      this.#results.clear();
      this.#shown = null;
      return;
    }
    this.#form.showError(null);
    this.#results.showRefusal(null);
    if (!await this.#show(request)) return;  // a later request took over
    const hash = `#${this.#model.write(request)}`;
    if (this.#window.location.hash !== hash) this.#window.history.pushState(null, '', hash);
  }

  /**
   * Plays and draws `request`. The diff is read from the played results only; when a job is
   * still in flight at the script's end, the page says so and offers the request played to
   * its end (that job failing every time), since a difference may come after the script stops.
   * One column a task; resolves to false when a later request took over before it was drawn.
   */
  async #show(request) {
    const turn = ++this.#turn;
    const stale = () => turn !== this.#turn;
    await this.#pause();
    if (stale()) return false;
    const scenario = this.#model.scenarioOf(request.link);
    const results = [];
    for (const column of request.columns) {
      await this.#pause();
      if (stale()) return false;
      results.push(await this.#model.playColumn(scenario, column, this.#pause));
    }
    await this.#pause();
    if (stale()) return false;
    const played = results.filter((r) => !r.error);
    const sentences = diffSentences(played.map(({ label, endings, paths }) => ({ label, endings, paths })));
    const unsettled = this.#model.unsettled(played);
    const ended = unsettled.length === 0 ? null : this.#model.playedToEnd(request, unsettled, scenario);
    const toEnd = ended === null ? null : { ids: unsettled, hash: this.#model.write(ended) };
    await this.#pause();
    if (stale()) return false;
    this.#results.render(results, sentences, toEnd);
    this.#form.show(request, this.#model.linkSystem(request.link));
    this.#shown = request;
    return true;
  }
}
