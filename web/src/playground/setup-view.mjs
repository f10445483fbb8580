// @ts-check
// The "Set-up" panel: the share box and Shortcuts in its head, the presets, Max
// attempts, a job to add (with its key and behaviour), the capstone's presets
// and the Advanced set-up (setup-advanced.mjs). A view: it builds its DOM once
// and says what the reader did through bindX(handler); the controller decides.
import { h, fieldError } from '../shared/dom.mjs';
import { kbd } from '../shared/keyboard.mjs';
import { advancedSetup, behaviours } from './setup-advanced.mjs';

export class SetupView {
  /** @type {(key: string) => void} */
  #onPreset = () => {};
  /** @type {(changes: object, alert: HTMLElement) => boolean} */
  #onPolicy = () => false;
  /** @type {(world: object, alert: HTMLElement) => boolean} */
  #onWorld = () => false;
  #onAdvancedOpen = () => {};

  /**
   * `presets` / `capstonePresets` / `systemPresets`: the presets offered ({ key, name, summary });
   * `outcomes`, `classes` and `schema`: the core's lists and field tables; `share`: the share box's element;
   * `headingLevel`: the embed's (the Advanced set-up's headings follow it when built).
   */
  constructor(id, { presets, capstonePresets, systemPresets, outcomes, classes, schema, share, headingLevel }) {
    this.#id = id;
    // A one-letter key is the preset's shortcut; the real systems' word keys have none.
    const shortcut = (p) => p.key.length === 1;
    const chip = (p) => h('button', {
      type: 'button', class: 'dlq-btn dlq-chip', title: p.summary, 'data-preset': p.key,
      ...(shortcut(p) ? { 'aria-keyshortcuts': p.key.toUpperCase() } : {}),
      onclick: () => this.#onPreset(p.key),
    }, p.name, shortcut(p) ? kbd(p.key.toUpperCase()) : null);
    this.presets = h('div', { class: 'dlq-presets', role: 'group', 'aria-labelledby': `${id}-presets` },
      h('span', { class: 'dlq-label', id: `${id}-presets` }, 'Presets'), presets.map(chip));
    this.capstonePresets = h('div', { class: 'dlq-presets dlq-presets-capstone', role: 'group', 'aria-labelledby': `${id}-presets2` },
      h('span', { class: 'dlq-label', id: `${id}-presets2` }, 'Capstone'), capstonePresets.map(chip));
    this.systemPresets = h('div', { class: 'dlq-presets dlq-presets-systems', role: 'group', 'aria-labelledby': `${id}-presets3` },
      h('span', { class: 'dlq-label', id: `${id}-presets3` }, 'Real systems'), systemPresets.map(chip));
    this.importButton = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', 'aria-haspopup': 'dialog' }, 'Import a broker\'s config…');
    this.help = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', 'aria-keyshortcuts': '?' }, 'Shortcuts', kbd('?'));

    this.maxAttempts = h('input', { type: 'number', id: `${id}-max`, min: 1, step: 1, class: 'dlq-input dlq-narrow', inputmode: 'numeric' });
    this.maxAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-max-err` });
    this.jobId = h('input', { type: 'text', id: `${id}-jobid`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    this.payload = h('input', { type: 'text', id: `${id}-payload`, class: 'dlq-input', autocomplete: 'off', spellcheck: 'false' });
    this.jobAlert = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true, id: `${id}-job-err` });
    this.jobKey = h('input', { type: 'text', id: `${id}-jobkey`, class: 'dlq-input dlq-narrow2', autocomplete: 'off', spellcheck: 'false' });
    this.behaviour = h('select', { id: `${id}-beh`, class: 'dlq-input' }, behaviours(outcomes).map(([value, text]) => h('option', { value }, text)));
    this.behaviourArg = h('input', { type: 'text', id: `${id}-beharg`, class: 'dlq-input dlq-narrow2', autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': `${id}-beharg-hint` });
    this.jobExtra = h('div', { class: 'dlq-setup-row dlq-job-extra' },
      this.keyField = h('div', { class: 'dlq-field' }, h('label', { for: `${id}-jobkey` }, 'Key'), this.jobKey),
      this.behaviourFields = h('div', { class: 'dlq-field' }, h('label', { for: `${id}-beh` }, 'Behaviour'), this.behaviour),
      this.behaviourDetail = h('div', { class: 'dlq-field' }, h('label', { for: `${id}-beharg` }, 'Behaviour detail'), this.behaviourArg),
      this.behaviourHint = h('p', { class: 'dlq-hint dlq-basis', id: `${id}-beharg-hint` },
        'Behaviour detail: n for flaky and crashes, T in ms for precondition, letters s t p u v q c for a script. ' +
        'Behaviours play with Play, or with Run past the script.'));
    this.addJob = h('button', { type: 'button', class: 'dlq-btn' }, 'Add job');
    this.advanced = advancedSetup(id, {
      schema, classes,
      onPolicy: (changes, alert) => this.#onPolicy(changes, alert),
      onWorld: (world, alert) => this.#onWorld(world, alert),
      onOpen: () => {
        // Built when first opened: its headings follow the embed's level then.
        if (!this.advanced.element.dataset.levelled) {
          this.advanced.element.dataset.levelled = 'true';
          if (headingLevel !== 2) {
            for (const h3 of this.advanced.element.querySelectorAll('h3')) {
              const next = h(`h${headingLevel + 1}`, {}, ...h3.childNodes);
              h3.replaceWith(next);
            }
          }
        }
        this.#hidePinned();
        this.#onAdvancedOpen();
      },
    });
    this.element = h('section', { class: 'dlq-panel dlq-setup', 'aria-labelledby': `${id}-setup-h` },
      this.head = h('div', { class: 'dlq-panel-head' }, h('h2', { id: `${id}-setup-h` }, 'Set-up'), share, this.help),
      this.presets,
      h('div', { class: 'dlq-setup-row' },
        h('div', { class: 'dlq-field' }, h('label', { for: `${id}-max` }, 'Max attempts'), this.maxAttempts),
        h('div', { class: 'dlq-field dlq-grow' }, h('label', { for: `${id}-jobid` }, 'Job id'), this.jobId),
        h('div', { class: 'dlq-field dlq-grow2' }, h('label', { for: `${id}-payload` }, 'Payload'), this.payload),
        this.addJob),
      this.jobExtra,
      this.maxAlert, this.jobAlert,
      h('p', { class: 'dlq-hint' }, 'A job joins the ready tail at the current step; one that has not run yet can be removed from Ready. Presets load a script: play it with Forward or Run.'),
      this.capstonePresets,
      this.systemPresets,
      h('p', { class: 'dlq-import-row' }, this.importButton, ' ',
        h('span', { class: 'dlq-hint' }, 'BullMQ job options, SQS queue attributes, a sidekiq_options line or a RabbitMQ policy: the playground takes that system\'s mode and settings, or says by name what it cannot express.')),
      this.advanced.element);
  }

  #pinned = [];
  #id = '';

  /** Fields shown outside Advanced (setup-fields.mjs) are left out of it: one field, one label. */
  leaveOutOfAdvanced(paths) {
    this.#pinned = paths;
    this.#hidePinned();
  }

  #hidePinned() {
    for (const path of this.#pinned) {
      const input = this.advanced.element.querySelector(`#${this.#id}-a-${path.replaceAll('.', '-')}`);
      const field = input?.closest('.dlq-field');
      field?.remove();  // its input stays in the Advanced set-up's group (kept in step by its sync), off the page
    }
  }

  // ---- what the reader does ---------------------------------------------------

  /** `handler(key)`: a preset's chip. */
  bindPreset(handler) { this.#onPreset = handler; }
  /** "Import a broker's config…" (opens the import dialog). */
  bindImportOpen(handler) { this.importButton.addEventListener('click', () => handler()); }
  /** Shortcuts (the help dialog). */
  bindHelp(handler) { this.help.addEventListener('click', () => handler()); }
  /** A new Max attempts (the field's change). */
  bindMaxAttempts(handler) { this.maxAttempts.addEventListener('change', () => handler()); }
  /** Add job, or Enter in one of its fields. */
  bindAddJob(handler) {
    this.addJob.addEventListener('click', () => handler());
    for (const input of [this.jobId, this.payload, this.jobKey, this.behaviourArg]) {
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') handler(); });
    }
  }
  /** `handler(changes, alert)`: the Advanced set-up's policy changes; true when taken. */
  bindPolicy(handler) { this.#onPolicy = handler; }
  /** `handler(world, alert)`: the Advanced set-up's world; true when taken. */
  bindWorld(handler) { this.#onWorld = handler; }
  /** The Advanced set-up opened or closed. */
  bindAdvancedOpen(handler) { this.#onAdvancedOpen = handler; }

  // ---- what the controller reads -----------------------------------------------

  /** The Max attempts field as typed ('' when blank) and as a number. */
  maxAttemptsInput() {
    return { text: this.maxAttempts.value, value: this.maxAttempts.valueAsNumber };
  }

  /** The job to add: id, payload, key (null when blank), behaviour choice and its detail. */
  jobInput() {
    return {
      id: this.jobId.value, payload: this.payload.value, key: this.jobKey.value === '' ? null : this.jobKey.value,
      behaviour: this.behaviour.value, detail: this.behaviourArg.value,
    };
  }

  get advancedOpen() {
    return this.advanced.open;
  }

  // ---- what the controller shows -----------------------------------------------

  /** Max attempts' alert; null clears it. `restore`: the value to put back in the field. */
  maxError(message, restore) {
    fieldError(this.maxAttempts, this.maxAlert, message);
    if (restore !== undefined) this.maxAttempts.value = restore;
  }

  /** The job fields' alert; null clears it. */
  jobError(message) {
    fieldError(this.jobId, this.jobAlert, message);
  }

  /** Empties the job fields after a job was added. */
  clearJob() {
    this.jobId.value = '';
    this.payload.value = '';
    this.jobKey.value = '';
    this.behaviourArg.value = '';
    this.behaviour.value = 'healthy';
  }

  focusJobId() {
    this.jobId.focus();
  }

  /** The budget in force (unless the reader is typing in the field). */
  render(stats) {
    if (document.activeElement !== this.maxAttempts) this.maxAttempts.value = String(stats.maxAttempts);
  }

  /** The Advanced set-up's fields: the policy, the class rules in force and the world. */
  renderAdvanced(policy, world, rulesInForce) {
    this.advanced.sync(policy, world, rulesInForce);
  }
}
