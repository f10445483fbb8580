// @ts-check
// The Config snippet panel's controller: the snippet of the system picked, from
// the policy in force (../shared/snippets.mjs), and Apply to playground (the
// edited part read back by snippet-readback.mjs, then the import's parser), one
// set-up change the core checks whole. `snippet` is the panel (snippet-view.mjs).
// The generators load when the panel is first opened: a playground never opened
// loads neither module. `load` (a test's) resolves to them; a load that fails is
// said in the panel and tried again on the next open.
import { importConfig, policyChanges } from './import.mjs';

const loadModules = () => Promise.all([import('../shared/snippets.mjs'), import('./snippet-readback.mjs')]);

export class SnippetPanel {
  #flow;
  #snippet;
  #load;
  #modules = null;  // the generators and the read-back, once loaded
  #key = null;  // the system whose snippet is on show
  #mode = null;  // the policy mode the picker last followed

  constructor(flow, snippet, { load = loadModules } = {}) {
    this.#flow = flow;
    this.#snippet = snippet;
    this.#load = load;
    snippet.bindOpen(() => this.open());
    snippet.bindSystem((key) => {
      this.#key = key;
      this.render();
    });
    snippet.bindApply((key, edited, base) => this.apply(key, edited, base));
  }

  /** Loads the generators and the read-back (once), then draws. */
  async open() {
    if (this.#modules === null) {
      const snippet = this.#snippet;
      let loaded;
      snippet.loading(true);
      try {
        loaded = await this.#load();
      } catch (error) {
        snippet.refused('The Config snippet did not load.', [`${error?.message ?? error}: check the connection, then show the snippet again.`]);
        return;
      } finally {
        snippet.loading(false);
      }
      if (this.#modules === null) {  // else a second open connected them meanwhile
        const [snippets, readback] = loaded;
        snippets.connectSnippets(this.#flow.lab);  // the core writes every snippet
        this.#modules = { ...snippets, ...readback };
        snippet.setSystems(snippets.SNIPPETS);
      }
    }
    this.render();
  }

  /**
   * Generates the snippet of the system picked from the policy in force (the core's policy()
   * and rules()). The picker follows the policy's mode when it changes to one with a snippet,
   * unless the snippet on show is the reader's edit. Nothing while the panel is closed.
   */
  render() {
    const snippet = this.#snippet;
    if (this.#modules === null || !snippet.open) return;
    const { SNIPPETS, snippetByKey, snippetForMode, canReadBack } = this.#modules;
    const { queue } = this.#flow.session;
    const policy = queue.policy();
    if (policy.system !== this.#mode) {
      this.#mode = policy.system;
      const own = snippetForMode(policy.system);
      if (own && !snippet.edited) this.#key = own.key;
    }
    this.#key ??= SNIPPETS[0].key;
    const { key, name, generate } = snippetByKey(this.#key);
    snippet.show({ key, name, ...generate(policy, queue.rules()), readable: canReadBack(key) });
  }

  /**
   * Apply to playground: the edited snippet's part the import reads (`base`, the generated
   * text the edit was made from, is what the rest must still be), through the import's parser,
   * as one set-up change over the policy now. A refusal, of an edit outside that part, the
   * parser's or the core's, is said by name and changes nothing.
   */
  apply(key, edited, base) {
    const flow = this.#flow;
    const snippet = this.#snippet;
    const { readBack, snippetByKey } = this.#modules;
    const { name } = snippetByKey(key);
    const heading = `Not applied (${name} snippet): nothing changed.`;
    const read = readBack(key, edited, base);
    if (!read.ok) {
      snippet.refused(heading, read.refusals.map((r) => r.message));
      return;
    }
    const result = importConfig(read.config);
    if (!result.ok) {
      snippet.refused(heading, result.refusals.map((r) => `${r.message} (in ${read.part})`));
      return;
    }
    const { changes, set } = policyChanges(result, flow.session.view.policy, read.keep, flow.lab.schema.policy);
    flow.pause();
    const accepted = flow.attempt(() => flow.session.setPolicy(changes), (message) => snippet.refused(heading, [`${message}.`]));
    if (!accepted) return;
    const all = [{ field: 'system', value: result.system, from: name }, ...set];
    snippet.applied(`Applied the ${name} snippet (${read.part}): ${all.length} fields set.`, all);
    flow.render({ notice: `Applied the ${name} snippet: system ${result.system}, ${set.map((s) => `${s.field} ${s.value}`).join(', ')}.` });
    this.render();
  }
}
