// @ts-check
// The parts of a playground that its first view does not show: their modules load
// with import() on first use, so a page that never opens them never fetches them
// (the site's bundler makes each a chunk of its own). A part is one module:
//   'import'      import-view.mjs, the "Import a broker's config…" dialog;
//   'durability'  durability.mjs, the Crash and restart and snapshot dialogs.
// The Config snippet loads its generators itself (snippet-panel.mjs).
//
// load(part) resolves once the module is there, then module(part) is it. While a
// load takes longer than LOADING_DELAY_MS the status line says what is loading (a
// quick load shows nothing, so nothing flickers). A failed load rejects with the
// browser's error and is forgotten, so opening the part again tries again; the
// controller says the failure (flow.mjs loaded()).
import { h } from '../shared/dom.mjs';

/** How long a load may take before the status line says it is loading. */
export const LOADING_DELAY_MS = 150;

const PARTS = {
  import: { what: 'the import dialog', load: () => import('./import-view.mjs') },
  durability: { what: 'the durability dialogs', load: () => import('./durability.mjs') },
};

export class LazyParts {
  #loads = new Map();   // part -> the promise of its load (forgotten when it fails)
  #modules = new Map(); // part -> its module, once loaded
  #pending = [];        // what is loading, oldest first

  constructor() {
    /** The loading status line (role status): hidden unless a load is slow. */
    this.status = h('p', { class: 'dlq-hint dlq-loading', role: 'status', hidden: true });
  }

  /** Loads `part`'s module once; resolves when module(part) may be read. */
  load(part) {
    const spec = PARTS[part];
    if (spec === undefined) return Promise.reject(new Error(`lazy part must be one of ${Object.keys(PARTS).join(', ')} (got ${JSON.stringify(part)})`));
    let loading = this.#loads.get(part);
    if (loading === undefined) {
      const slow = setTimeout(() => this.#say(spec.what, true), LOADING_DELAY_MS);
      loading = spec.load().then((module) => { this.#modules.set(part, module); }).finally(() => {
        clearTimeout(slow);
        this.#say(spec.what, false);
      });
      loading.catch(() => this.#loads.delete(part));
      this.#loads.set(part, loading);
    }
    return loading;
  }

  /** `part`'s module; load(part) must have resolved (a dialog is only built after its open awaited it). */
  module(part) {
    const module = this.#modules.get(part);
    if (module === undefined) throw new Error(`lazy part ${JSON.stringify(part)} is not loaded: await load(${JSON.stringify(part)}) first`);
    return module;
  }

  #say(what, loading) {
    this.#pending = this.#pending.filter((w) => w !== what);
    if (loading) this.#pending.push(what);
    const last = this.#pending.at(-1);
    this.status.textContent = last === undefined ? '' : `Loading ${last}…`;
    this.status.hidden = last === undefined;
  }
}
