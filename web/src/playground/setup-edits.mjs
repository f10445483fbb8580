// @ts-check
// The set-up's edits, each one crossing into the core through the flow
// (flow.mjs): Add job, Remove, Max attempts, and the policy and world fields
// (Advanced, the pinned fields, the switches). A refusal is said next to its
// field (the field put back) and changes nothing. It binds the view's set-up
// fields itself.
import { behaviourFromFields } from './setup-advanced.mjs';
import { switchChange } from './switches-view.mjs';

export class SetupEdits {
  #flow;

  constructor(flow) {
    this.#flow = flow;
    const { view } = flow;
    view.bindMaxAttempts(() => this.maxAttemptsField());
    view.bindAddJob(() => this.addJob());
    view.bindRemove((id) => this.removeJob(id));
    view.bindPolicy((changes, alert) => this.policy(changes, alert));
    view.bindWorld((world, alert) => this.world(world, alert));
    view.bindPinned(this);
    view.bindSwitch((path, on, alert) => this.policy(switchChange(flow.session.view.policy, path, on), alert));
  }

  /** Policy changes (Advanced, the pinned fields, a switch, the crash dialog's order); a refusal goes to `alert`. */
  policy(changes, alert) {
    return this.#flow.edit(() => this.#flow.session.setPolicy(changes), alert);
  }

  world(world, alert) {
    return this.#flow.edit(() => this.#flow.session.setWorld(world), alert);
  }

  /** A pinned Max attempts field's `n`. */
  maxAttempts(n, alert) {
    return this.#flow.edit(() => this.#flow.session.setMaxAttempts(n), alert);
  }

  /** The set-up's Max attempts field, as typed. */
  maxAttemptsField() {
    const { view, session, lab } = this.#flow;
    const current = String(session.view.policy.maxAttempts);
    this.#flow.pause();
    const field = view.maxAttemptsInput();
    if (field.text.trim() === '') {
      view.maxError(`Max attempts unchanged: the field is empty; enter a whole number from 1 to ${lab.maxAttemptsLimit}.`, current);
      return;
    }
    const accepted = this.#flow.attempt(() => session.setMaxAttempts(field.value),
      (message) => view.maxError(`Max attempts unchanged (still ${current}): ${message}.`, current));
    if (!accepted) return;
    view.maxError(null);
    this.#flow.render();
  }

  addJob() {
    const { view, session } = this.#flow;
    const job = view.jobInput();
    const accepted = this.#flow.attempt(() => {
      const behaviour = behaviourFromFields(job.behaviour, job.detail);
      session.addJob(job.id, job.payload, { key: job.key, behaviour });
    }, (message) => view.jobError(`Could not add the job: ${message}.`));
    if (!accepted) return;
    view.jobError(null);
    view.clearJob();
    this.#flow.render();
    view.focusJobId();
  }

  removeJob(id) {
    const { view, session } = this.#flow;
    const wasFocused = view.focusWithin();
    if (!this.#flow.attempt(() => session.removeJob(id), this.#flow.refusedAs(`Could not remove "${id}"`))) return;
    this.#flow.render();
    if (wasFocused && view.focusLost()) view.focusJobId();
  }
}
