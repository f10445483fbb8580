// <dlq-playground scenario="v1;…" sync-url label="…">: the custom element
// wrapper around mount(). Each element has its own session. Only an element
// with `sync-url` reads and writes location.hash (give it to one per page).
// `el.ready` resolves to the controller once the core is loaded and drawn.
import { mount } from './playground.mjs';
import { h } from './dom.mjs';

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
    this.#ready = mount(this, {
      scenario: this.getAttribute('scenario') ?? undefined,
      syncUrl: this.hasAttribute('sync-url'),
      linkBase: this.getAttribute('link-base') ?? undefined,
      label: this.getAttribute('label') ?? undefined,
    }).then((controller) => {
      this.#controller = controller;
      return controller;
    }, (error) => {
      // Never a blank box: say what failed.
      this.replaceChildren(h('p', { class: 'dlq-fatal', role: 'alert' }, `The playground could not start: ${error.message}`));
      throw error;
    });
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
