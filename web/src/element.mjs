// <dlq-playground scenario="v1;…" sync-url label="…">: the custom element
// wrapper around mount(). Each element has its own session. Only an element
// with `sync-url` reads and writes location.hash (give it to one per page).
// An author chooses what it shows with features, panels, presets, locked,
// heading-level and compact (embed-options.mjs; docs/embedding.md), and may put
// per-step captions in a child <ol class="dlq-captions"> (read before mounting:
// without JavaScript they stay as a plain list). A bad attribute is named in the
// element instead of a playground. Entry points define it with defineElement():
// on a lesson page mount() (the playground and the core) is imported when the
// first playground mounts, so a page whose playgrounds are all lazy and out of
// view is interactive before any of that code is fetched.
// `el.ready` resolves to the controller once the core is loaded and drawn (to
// null if the element was removed before that: its session is freed at once).
import { h } from './dom.mjs';
import { optionsFromAttributes } from './embed-options.mjs';

/**
 * loading="lazy": mounted when the element comes near the viewport, or in idle
 * time after the page is interactive, whichever is first, so a lesson page with
 * ten playgrounds is interactive once the ones in view are drawn.
 */
const nearView = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) entry.target.mountNow();
  }, { rootMargin: '50% 0px' })
  : null;
const idleQueue = [];
function mountWhenIdle(element) {
  idleQueue.push(element);
  if (idleQueue.length > 1) return;
  const next = () => {
    const el = idleQueue.shift();
    el?.mountNow();
    if (idleQueue.length > 0) (window.requestIdleCallback ?? setTimeout)(next, { timeout: 1000 });
  };
  (window.requestIdleCallback ?? setTimeout)(next, { timeout: 1000 });
}

export class DlqPlaygroundElement extends HTMLElement {
  static observedAttributes = ['scenario'];
  #controller = null;
  #ready = null;
  #deferred = null;  // lazy: { resolve, reject } of `ready` until mounted

  get ready() {
    return this.#ready ?? Promise.reject(new Error('dlq-playground is not connected to a document'));
  }

  /** The controller from mount(), or null before it is ready. */
  get controller() { return this.#controller; }

  /** True once mounting has begun (a lazy element in view at load begins at once). */
  get mounting() { return this.#ready !== null && this.#deferred === null; }

  connectedCallback() {
    if (this.#ready) return;
    if (this.getAttribute('loading') === 'lazy' && nearView && !this.#inView()) {
      this.#ready = new Promise((resolve, reject) => { this.#deferred = { resolve, reject }; });
      // Nothing competes with the playgrounds in view: the rest wait for the page to be interactive.
      const later = () => {
        nearView.observe(this);
        mountWhenIdle(this);
      };
      if (document.documentElement.dataset.ready === 'true') later();
      else document.addEventListener('dlq:interactive', later, { once: true });
      return;
    }
    this.#ready = this.#mount();
  }

  /** Mounts a lazy element now (near the viewport, or idle time); a no-op otherwise. */
  mountNow() {
    if (!this.#deferred) return;
    nearView?.unobserve(this);
    const { resolve, reject } = this.#deferred;
    this.#deferred = null;
    if (!this.isConnected) {
      this.#ready = null;
      resolve(null);
      return;
    }
    const ready = this.#mount();
    this.#ready = ready;
    ready.then(resolve, reject);
  }

  #inView() {
    const box = this.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }

  #mount() {
    const scenario = this.getAttribute('scenario');
    let ready;
    const options = {
      ...optionsFromAttributes(this),
      scenario: scenario ?? undefined,
      syncUrl: this.hasAttribute('sync-url'),
      linkBase: this.getAttribute('link-base') ?? undefined,
      label: this.getAttribute('label') ?? undefined,
    };
    ready = loadMount().then((mount) => mount(this, options)).then((controller) => {
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
      return controller;
    }, (error) => {
      // Never a blank box: say what failed.
      this.replaceChildren(h('p', { class: 'dlq-fatal', role: 'alert' }, `The playground could not start: ${error.message}`));
      throw error;
    });
    return ready;
  }

  attributeChangedCallback(name, oldValue, value) {
    if (name !== 'scenario' || oldValue === value || !this.#controller || value === null) return;
    this.#controller.loadOrAlert(value);
  }

  disconnectedCallback() {
    // Kept alive across moves within the page; freed when the element is really gone.
    queueMicrotask(() => {
      if (this.isConnected || !this.#controller) return;
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
