// @ts-check
// <dlq-playground scenario="v1;…" sync-url label="…">: the custom element
// wrapper around mount(). Each element has its own session. Only an element
// with `sync-url` reads and writes location.hash (give it to one per page).
// An author chooses what it shows with features, panels, presets, locked,
// heading-level and compact (embed-options.mjs; docs/playground.md), and may put
// per-step captions in a child <ol class="dlq-captions"> (read before mounting:
// without JavaScript they stay as a plain list). A bad attribute is named in the
// element instead of a playground. Entry points define it with defineElement():
// on a lesson page mount() (the playground and the core) is imported when the
// first playground mounts, so a page whose playgrounds are all lazy and out of
// view is interactive before any of that code is fetched.
// `el.ready` resolves to the controller once the core is loaded and drawn (to
// null if the element was removed before that: its session is freed at once).
// Removed from the page, the playground is destroyed (or its refusal forgotten);
// added again, it mounts afresh and dispatches 'dlq-mount' (detail { controller }) once ready, so the
// elements beside it (<dlq-exercise>, <dlq-systems>) bind to the new controller.
// After mounting only `scenario` is watched; every other attribute is read once,
// when the playground mounts (docs/playground.md says which).
// A lazy element waiting to mount reserves about a playground's height (inline
// min-height, removed once it mounts), so only those near the viewport count as
// in view.
import { h } from '../shared/dom.mjs';
import { nextTask } from '../shared/next-task.mjs';
import { siteURL } from '../shared/url.mjs';
import { optionsFromAttributes, resolveLinkBase } from './embed-options.mjs';
import { loadFailure } from './load-failure.mjs';

/** The height a lazy element reserves while it waits (px): about a drawn playground's. */
export const LAZY_HEIGHT = { full: 760, compact: 600 };

/**
 * loading="lazy": mounted when the element comes within a screen's height of the
 * viewport, and not before: a phone pays for the playgrounds its reader scrolls to,
 * and a lesson page with ten playgrounds is interactive, and then quiet, once the
 * ones in view are drawn.
 */
const nearView = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) /** @type {DlqPlaygroundElement} */ (entry.target).mountNow();
  }, { rootMargin: '100% 0px' })
  : null;
// Every mount takes its turn, one a task, in the order they asked: a page of 200
// eager embeds draws them one after another instead of all in one long task.
let turns = Promise.resolve();
function inTurn(build) {
  const mine = turns.then(nextTask).then(build);
  turns = mine.then(() => {}, () => {});
  return mine;
}

export class DlqPlaygroundElement extends HTMLElement {
  static observedAttributes = ['scenario'];
  #controller = null;
  #ready = null;
  #deferred = null;  // lazy: { resolve, reject } of `ready` until mounted
  #refused = false;  // the last mount was refused (a bad attribute, or the core failed to load)

  get ready() {
    return this.#ready ?? Promise.reject(new Error('dlq-playground is not connected to a document'));
  }

  /** The controller from mount(), or null before it is ready. */
  get controller() { return this.#controller; }

  /** True once mounting has begun (a lazy element in view at load begins at once). */
  get mounting() { return this.#ready !== null && this.#deferred === null; }

  connectedCallback() {
    if (this.#ready) return;
    if (this.getAttribute('loading') === 'lazy' && nearView) {
      this.#ready = new Promise((resolve, reject) => { this.#deferred = { resolve, reject }; });
      DlqPlaygroundElement.#place(this);
      return;
    }
    this.#ready = this.#mount();
  }

  // Lazy elements connected in one task are placed together, in a microtask: all
  // styles read, then every reserved height written, then every box measured, so
  // a page of 200 costs one style and one layout pass, not 200 of each.
  static #unplaced = [];
  static #placing = null;

  /** Resolves once every lazy element connected so far knows whether it is in view (and began mounting if so). */
  static placed() {
    return DlqPlaygroundElement.#placing ?? Promise.resolve();
  }

  static #place(element) {
    DlqPlaygroundElement.#unplaced.push(element);
    DlqPlaygroundElement.#placing ??= Promise.resolve().then(() => {
      const batch = DlqPlaygroundElement.#unplaced;
      DlqPlaygroundElement.#unplaced = [];
      DlqPlaygroundElement.#placing = null;
      const reserves = batch.map((el) => el.#reserveFor());
      batch.forEach((el, i) => el.#reserve(reserves[i]));
      const inView = batch.map((el) => el.#inView());
      batch.forEach((el, i) => (inView[i] ? el.mountNow() : el.#waitForView()));
    });
  }

  /** Out of view: nothing competes with the playgrounds in view; once the page is interactive it watches for the reader to come near. */
  #waitForView() {
    const later = () => nearView.observe(this);
    if (document.documentElement.dataset.ready === 'true') later();
    else document.addEventListener('dlq:interactive', later, { once: true });
  }

  /**
   * Mounts a lazy element now (it came near the viewport); a no-op otherwise.
   * Returns the mount's promise when it began one, else null.
   */
  mountNow() {
    if (!this.#deferred) return null;
    nearView?.unobserve(this);
    const { resolve, reject } = this.#deferred;
    this.#deferred = null;
    if (!this.isConnected) {
      this.#release();
      this.#ready = null;
      resolve(null);
      return null;
    }
    const ready = this.#mount();
    this.#ready = ready;
    ready.then(resolve, reject);
    return ready;
  }

  #reserved = false;

  /**
   * What a lazy element waiting to mount reserves (null: nothing, the author set a
   * min-height). It is as tall as a drawn playground at least
   * (an empty custom element is inline and 0 px tall; one holding only its
   * captions list a few lines), so the ones below the fold are out of view.
   * An author's own min-height is left alone.
   */
  #reserveFor() {
    const style = getComputedStyle(this);
    if (style.minHeight !== 'auto' && style.minHeight !== '0px') return null;
    return { display: style.display === 'inline' ? 'block' : null,
      minHeight: `${this.hasAttribute('compact') ? LAZY_HEIGHT.compact : LAZY_HEIGHT.full}px` };
  }

  /** Writes what #reserveFor() read (reads nothing: a batch of these costs no layout). */
  #reserve(reserve) {
    if (!reserve) return;
    this.#reserved = true;
    if (reserve.display) this.style.display = reserve.display;
    this.style.minHeight = reserve.minHeight;
  }

  #release() {
    if (!this.#reserved) return;
    this.#reserved = false;
    this.style.removeProperty('min-height');
    this.style.removeProperty('display');
    if (this.getAttribute('style') === '') this.removeAttribute('style');
  }

  #inView() {
    const box = this.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }

  #mount() {
    const scenario = this.getAttribute('scenario');
    let ready;
    let options;
    try {
      options = {
        ...optionsFromAttributes(this),
        scenario: scenario ?? undefined,
        syncUrl: this.hasAttribute('sync-url'),
        // Relative to this page, resolved now (as a link in the page would be); a bad one is refused by name.
        linkBase: resolveLinkBase(this.getAttribute('link-base') ?? undefined, this.ownerDocument.baseURI),
        label: this.getAttribute('label') ?? undefined,
      };
    } catch (error) {
      this.#release();
      this.#refused = true;
      this.#showRefusal(error);
      return Promise.reject(error);
    }
    // The reserved height stays until the playground is drawn: released earlier, this
    // element would shrink and pull the next lazy one into view (and so on down the page).
    const loaded = loadMount().catch((error) => { throw loadFailure('its modules', siteURL('src/playground.mjs'), error); });
    ready = loaded.then((mount) => inTurn(() => (this.isConnected ? mount(this, options) : null))).then((controller) => {
      if (controller === null) {  // removed before its turn came: nothing was built
        this.#release();
        if (this.#ready === ready) this.#ready = null;
        return null;
      }
      this.#release();
      if (!this.isConnected) {
        // Removed while the core was loading: free the session (wasm heap,
        // page-wide listeners) now; connecting again mounts afresh.
        controller.destroy();
        if (this.#ready === ready) this.#ready = null;
        return null;
      }
      this.#controller = controller;
      // A scenario attribute set while loading is applied now (the latest value wins).
      const now = this.getAttribute('scenario');
      if (now !== null && now !== scenario) controller.loadOrAlert(now);
      this.dispatchEvent(new CustomEvent('dlq-mount', { detail: { controller } }));
      return controller;
    }, (error) => {
      this.#release();
      this.#refused = true;
      // Never a blank box: say what failed.
      this.#showRefusal(error);
      throw error;
    });
    return ready;
  }

  /**
   * The refusal in place of the playground. The captions list (the author's, read when
   * the playground mounts) is kept, so the element mounts whole once fixed and added again.
   */
  #showRefusal(error) {
    const captions = this.querySelector(':scope > ol.dlq-captions');
    this.replaceChildren(h('p', { class: 'dlq-fatal', role: 'alert' }, `The playground could not start: ${error.message}`),
      ...(captions ? [captions] : []));
  }

  attributeChangedCallback(name, oldValue, value) {
    if (name !== 'scenario' || oldValue === value || !this.#controller || value === null) return;
    this.#controller.loadOrAlert(value);
  }

  disconnectedCallback() {
    // Kept alive across moves within the page; freed when the element is really gone.
    queueMicrotask(() => {
      if (this.isConnected) return;
      if (this.#refused) {
        // A refused element mounts afresh when it is added again (its attributes may be fixed by then).
        this.#refused = false;
        this.#ready = null;
        return;
      }
      if (!this.#controller) return;
      this.#controller.destroy();
      this.#controller = null;
      this.#ready = null;
    });
  }
}

/** How mount() is reached: given by the page's entry point (see defineElement). */
let loadMount = () => import('./playground.mjs').then((m) => m.mount);

/**
 * Defines <dlq-playground> (once per page). `load` resolves to mount(): the
 * playground page passes the one it imported (no extra request before drawing);
 * a lesson page passes a dynamic import, fetched when a playground first mounts.
 */
export function defineElement(load) {
  if (customElements.get('dlq-playground')) return;
  loadMount = load;
  customElements.define('dlq-playground', DlqPlaygroundElement);
}
