// <dlq-playground scenario="v1;…" sync-url label="…">: the custom element
// wrapper around mount(). Each element has its own session. Only an element
// with `sync-url` reads and writes location.hash (give it to one per page).
// An author chooses what it shows with features, panels, presets, locked,
// heading-level and compact (embed-options.mjs; docs/embedding.md), and may put
// per-step captions in a child <ol class="dlq-captions"> (read before mounting:
// without JavaScript they stay as a plain list). A bad attribute is named in the
// element instead of a playground.
// `el.ready` resolves to the controller once the core is loaded and drawn (to
// null if the element was removed before that: its session is freed at once).
import { mount } from './playground.mjs';
import { h } from './dom.mjs';
import { optionsFromAttributes } from './embed-options.mjs';

export class DlqPlaygroundElement extends HTMLElement {
  static observedAttributes = ['scenario'];
  #controller = null;
  #ready = null;

  get ready() {
    return this.#ready ?? Promise.reject(new Error('dlq-playground is not connected to a document'));
  }

  /** The controller from mount(), or null before it is ready. */
  get controller() { return this.#controller; }

  connectedCallback() {
    if (this.#ready) return;
    const scenario = this.getAttribute('scenario');
    const ready = mount(this, {
      ...optionsFromAttributes(this),
      scenario: scenario ?? undefined,
      syncUrl: this.hasAttribute('sync-url'),
      linkBase: this.getAttribute('link-base') ?? undefined,
      label: this.getAttribute('label') ?? undefined,
    }).then((controller) => {
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
    this.#ready = ready;
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

if (!customElements.get('dlq-playground')) customElements.define('dlq-playground', DlqPlaygroundElement);
