// @ts-check
// The playground's link: the share box's URL (Copy link) and, with sync-url, the
// address bar's fragment. The core formats the link; this module only decides
// when to ask (debounced after a burst of changes: formatting a 1,000-job
// scenario takes a few ms) and how to write the hash without losing a link
// someone else put there. `share` is the share box (share-view.mjs ShareView);
// `host` the window (location, history, hashchange) and `timers` its
// setTimeout/clearTimeout; a test passes its own.
import { linkFromHash, isScenarioLink, siteURL, urlFor } from '../shared/url.mjs';
import { isRefusal } from './flow.mjs';

const DEBOUNCE_MS = 120;

export class UrlSync {
  #flow;
  #share;
  #options;
  #host;
  #timers;
  #timer = 0;
  #lastHash = null;  // with sync-url: the fragment text this playground last wrote or read
  #held = null;  // with sync-url: the link shown instead of a refused hash link (see #writeHash)
  #pushNext = false;  // the next hash write adds a history entry (after a preset)
  #currentUrl = null;
  #onHashChange = null;

  /** `options`: mount()'s ({ syncUrl, linkBase }). */
  constructor(flow, share, { options, host = globalThis, timers = globalThis }) {
    this.#flow = flow;
    this.#share = share;
    this.#options = options;
    this.#host = host;
    this.#timers = timers;
    share.bindCopy(() => this.copy());
  }

  /** With sync-url, the scenario link in the address bar at start ('' when there is none), else ''. */
  initialLink() {
    if (!this.#options.syncUrl) return '';
    this.#lastHash = linkFromHash(this.#host.location.hash);  // read: the first write may replace it
    return isScenarioLink(this.#lastHash) ? this.#lastHash : '';
  }

  /** The link text for the current state (the core formats it); throws the core's refusal. */
  link() {
    const link = this.#flow.session.link();  // one call: the core formats it, no view rebuilt
    if (link.text !== undefined) return link.text;
    const error = /** @type {RangeError & { code?: string }} */ (new RangeError(link.message));
    error.code = link.error;
    throw error;
  }

  /**
   * A link read from the hash was loaded (`refused`: it was not, and the default is
   * shown): a refused one stays in the address bar until the scenario shown changes.
   */
  loadedFromHash(refused) {
    this.#held = refused ? this.link() : null;
  }

  /**
   * sync-url: only a scenario link (url.mjs SCENARIO_LINK) is a scenario. Any other
   * fragment — emptied, '#', an in-page anchor — is the browser's (it scrolls as usual);
   * the scenario stays and its link is put straight back (replaceState: no history
   * entry, no scroll), so a reload keeps the work. Returns the link to load, or null.
   */
  hashChanged() {
    const text = linkFromHash(this.#host.location.hash);
    if (!isScenarioLink(text)) {
      this.#held = null;
      this.flush(true);
      return null;
    }
    if (text === this.#lastHash) return null;
    this.#lastHash = text;
    return text;
  }

  /** `handler()`: the address bar's fragment changed (read it with hashChanged()); until destroy(). */
  listen(handler) {
    this.#onHashChange = handler;
    this.#host.addEventListener('hashchange', handler);
  }

  /** The next hash write adds a history entry, so Back returns to the link before (a preset). */
  pushNext() {
    this.#pushNext = true;
  }

  /** Formats the link (and writes the hash, with syncUrl) after the burst of changes settles. */
  schedule() {
    this.#timers.clearTimeout(this.#timer);
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = 0;
      this.#write();
    }, DEBOUNCE_MS);
  }

  /** Writes the link now if a write is pending (or `always`), instead of at the end of the debounce. */
  flush(always = false) {
    if (!always && !this.#timer) return;
    this.#timers.clearTimeout(this.#timer);
    this.#timer = 0;
    this.#write();
  }

  async copy() {
    this.flush(true);
    if (!this.#currentUrl) return;
    await this.#share.copyLink(this.#currentUrl);
  }

  destroy() {
    this.#timers.clearTimeout(this.#timer);
    this.#timer = 0;
    if (this.#onHashChange) this.#host.removeEventListener('hashchange', this.#onHashChange);
  }

  #write() {
    let link;
    try {
      link = this.link();
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.#share.renderNone(error.message);
      this.#currentUrl = null;
      this.#writeHash('');
      return;
    }
    const base = this.#options.linkBase ?? (this.#options.syncUrl ? this.#host.location.href : siteURL('playground.html'));
    const url = urlFor(base, link);
    this.#share.render(url, url !== this.#currentUrl);
    this.#currentUrl = url;
    this.#writeHash(link);
  }

  /**
   * Writes `text` as the fragment (with sync-url). It does not overwrite a scenario
   * link someone else put there since this playground last wrote or read it: that
   * change's hashchange event is still to come and loads it. A non-scenario fragment
   * holds nothing to keep and is overwritten. While the link to write is still the one
   * shown instead of a refused hash link (#held), the address bar keeps the refused
   * text; the first change writes a new history entry, so Back returns to it.
   */
  #writeHash(text) {
    if (!this.#options.syncUrl) return;
    const { location, history } = this.#host;
    const current = linkFromHash(location.hash);
    if (isScenarioLink(current) && current !== this.#lastHash) return;
    let push = this.#pushNext;
    if (this.#held !== null) {
      if (text === this.#held) return;
      this.#held = null;
      push = true;
    }
    if (current !== text) {
      const url = text === '' ? location.pathname + location.search : `#${text}`;
      if (push && isScenarioLink(current)) history.pushState(null, '', url);
      else history.replaceState(history.state, '', url);
    }
    this.#pushNext = false;
    this.#lastHash = text;
  }
}
