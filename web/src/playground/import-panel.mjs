// @ts-check
// The import dialog's controller: a broker's config in the lab's terms
// (import.mjs), applied as one set-up change (the system and the policy fields it
// determines; backoff and quarantine merged over the policy in force), which the
// core checks whole. A refusal, the translation's or the core's, is said by name
// in the dialog and changes nothing; an accepted import lists every field it set,
// and those only the old system had, reset (lab.schema's onlyUnder). The view's
// importDialog() is the dialog (import-view.mjs), built when first asked for; its
// module loads when the dialog is first opened (view.load('import')).
import { FORMATS, importConfig, policyChanges } from './import.mjs';

export class ImportPanel {
  #flow;
  #dialog;

  constructor(flow) {
    this.#flow = flow;
    this.#dialog = () => flow.view.importDialog();
    flow.view.bindImportOpen(() => this.open());
    flow.view.bindImport((text, options) => this.import(text, options));
  }

  /** Opens the dialog (a run in progress pauses), its module loaded first; false when it did not load. */
  async open() {
    this.#flow.pause();
    if (!await this.#flow.loaded('import', 'Import a broker\'s config')) return false;
    this.#dialog().show();
    return true;
  }

  /** The dialog's Import: `text` as pasted, `options` ({ dlqRetention }). */
  import(text, options) {
    const flow = this.#flow;
    const dialog = this.#dialog();
    const result = importConfig(text, options);
    const what = result.format === null ? 'the config' : FORMATS[result.format];
    const heading = `Not imported (${what}): nothing changed.`;
    if (!result.ok) {
      dialog.refused(heading, result.refusals.map((r) => r.message));
      return;
    }
    const { changes, set: changed } = policyChanges(result, flow.session.view.policy, [], flow.lab.schema.policy);
    flow.pause();
    const accepted = flow.attempt(() => flow.session.setPolicy(changes), (message) => {
      // The core names its field; say which broker setting that field came from.
      const from = changed.filter((s) => message.includes(s.field)).map((s) => `${s.field} from ${s.from}`);
      dialog.refused(heading, [`${message}${from.length ? ` (${from.join('; ')})` : ''}.`]);
    });
    if (!accepted) return;
    const set = [{ field: 'system', value: result.system, from: what }, ...changed];
    dialog.accepted(`Imported ${what}: ${set.length} fields set.`, set, result.ignored);
    flow.render({ notice: `Imported ${what}: system ${result.system}, ${set.slice(1).map((s) => `${s.field} ${s.value}`).join(', ')}.` });
  }
}
