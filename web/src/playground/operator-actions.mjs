// @ts-check
// The capstone's actions, each one crossing into the core through the flow
// (flow.mjs): the clock (Lease, Settle, Crash worker, Next event, Advance), the
// operator (Replay, Release key, Redrive, Patch and replay) and a worker's report
// typed as text. The view reads what the reader chose (outcome, lease, error
// text); a refusal is said next to the controls it came from and changes nothing.
// It binds the view's controls for them itself.

const NOTHING_IN_FLIGHT = 'Nothing is in flight: lease a job first.';

export class OperatorActions {
  #flow;

  constructor(flow) {
    this.#flow = flow;
    const { view } = flow;
    view.bindLease(() => this.lease());
    view.bindNextEvent(() => this.nextEvent());
    view.bindSettle(() => this.settle());
    view.bindCrashWorker(() => this.crashWorker());
    view.bindAdvance((ms) => this.advance(ms));
    view.bindReplay((id, how) => this.replay(id, how));
    view.bindReleaseKey((key) => this.releaseKey(key));
    view.bindRedrive((max, only, perSecond) => this.redrive(max, only, perSecond));
    view.bindPatchAndReplay((id, payload) => this.patchAndReplay(id, payload));
    view.bindReport((text) => this.report(text));
  }

  lease() {
    this.#flow.act({ type: 'lease' }, 'Lease');
  }

  /** Settles the lease chosen in the Settle list with the outcome chosen. */
  settle() {
    const lease = this.#chosenLease();
    if (lease === null) {
      this.#flow.render({ notice: NOTHING_IN_FLIGHT });
      return;
    }
    const { view } = this.#flow;
    const outcome = view.chosenOutcome();
    const error = outcome === 'success' ? '' : view.errorText();
    this.#flow.act({ type: 'settle', token: lease.token, outcome, error }, 'Settle');
  }

  /**
   * The worker holding the chosen lease dies: it never settles. The clock moves to
   * the lease's expiry, where the queue (not the worker) decides the attempt.
   */
  crashWorker() {
    const lease = this.#chosenLease();
    if (lease === null) {
      this.#flow.render({ notice: NOTHING_IN_FLIGHT });
      return;
    }
    this.#flow.act({ type: 'advance', ms: lease.expiresAt - this.#flow.session.view.stats.now }, 'Crash worker');
  }

  nextEvent() {
    this.#flow.act({ type: 'advanceToNext' }, 'Next event', 'clock',
      'Nothing is waiting on the clock: no due time, lease or retention is pending.');
  }

  advance(ms) {
    this.#flow.act({ type: 'advance', ms }, 'Advance');
  }

  releaseKey(key) {
    this.#flow.act({ type: 'releaseKey', key }, 'Release key', 'operator',
      `No quarantined job holds key "${key}": nothing to release.`);
  }

  /** Redrive up to `max` entries matching `only` ({ class } or { reason }), at once or (`perSecond`) paced. */
  redrive(max, only, perSecond) {
    const nothing = only.class === undefined && only.reason === undefined ? 'The quarantine is empty: nothing to redrive.'
      : `No quarantine entry ${only.class !== undefined ? `of class ${only.class}` : `with reason ${only.reason}`}: nothing to redrive.`;
    if (perSecond === null) this.#flow.act({ type: 'redrive', max, ...only }, 'Redrive', 'operator', nothing);
    else this.#flow.take(() => this.#flow.session.redriveAtRate(perSecond, only), 'Redrive', 'operator', nothing);
  }

  /** Replays `id` from the quarantine; `fromField`: typed in the operator's field (the notice says replay() returned false). */
  replay(id, { fromField = false, resetAttempts = true } = {}) {
    const flow = this.#flow;
    flow.pause();
    let replayed = false;
    if (!flow.attempt(() => { replayed = flow.session.replay(id, { resetAttempts }); }, flow.refusedAs(`Replay of "${id}" refused`))) return;
    if (!replayed) {
      // The session counts each false replay (a goal's refused-replays); the notice says how many so far.
      const count = flow.session.view.refusedReplays;
      flow.render({ notice: fromField
        ? `replay("${id}") returned false: "${id}" is not in quarantine at this step, so nothing changed (${count} refused ${count === 1 ? 'replay' : 'replays'} so far).`
        : `"${id}" is not in quarantine at this step.` });
      return;
    }
    flow.render();
    // The replayed entry's button is gone; keep keyboard focus somewhere sensible.
    if (!flow.view.focusWithin() || flow.view.focusLost()) flow.view.focusStep();
  }

  /**
   * An operator's fix, made visible: the entry's payload patched (one 'patch' action, a
   * 'patched' event), then the job replayed (a second action); each steps back on its own.
   */
  patchAndReplay(id, payload) {
    if (!this.#flow.act({ type: 'patch', id, payload }, `Patch of "${id}"`, 'operator',
      `"${id}" is not in quarantine at this step: nothing to patch.`)) return;
    this.replay(id);
  }

  /** A report typed as text: the core parses the outcome; its refusal is shown, and nothing changed. */
  report(text) {
    const flow = this.#flow;
    const { session, view } = flow;
    flow.pause();
    let refusal = null;
    const taken = flow.attempt(() => session.report(text, text === 'success' ? '' : view.errorText()),
      (message) => { refusal = message; });
    if (!taken) session.view = session.freshView();  // the refusal count is the core's
    view.renderReport(refusal, session.view.refused);
    flow.render();
  }

  /** The in-flight lease chosen in the Settle list (the earliest to expire by default), or null. */
  #chosenLease() {
    const token = this.#flow.view.chosenToken();
    return this.#flow.session.view.leased.find((l) => l.token === token) ?? null;
  }
}
