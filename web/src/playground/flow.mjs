// @ts-check
// The one loop every playground action goes through, RaftScope's: act on the
// session (one call into the core), then render. The core (or the JS API's type
// and size checks) refuses before anything changes, so a refusal only needs
// saying — next to the field it concerns, else in the action alert — and a
// running Run pauses. The playground's controller and its panel controllers
// (run-timer, url-sync, snippet-panel, import-panel, crash-panel, checks) share
// one Flow; none of them talks to the core any other way.

/**
 * A refusal from the lab API: every error it throws is an Error with a string
 * `code` ('too-large', 'out-of-range', 'invalid-type', …). Anything else is a
 * bug in the page and is rethrown, never shown as if the input were wrong.
 */
export function isRefusal(error) {
  return error instanceof Error && 'code' in error && typeof error.code === 'string';
}

export class Flow {
  /** `view`: the playground's view (view.mjs or a test's fake); `session`: model.mjs's Session. */
  constructor(lab, view, session) {
    this.lab = lab;
    this.view = view;
    this.session = session;
    /** Draws every view from the session (the controller sets it). @type {(drawn?: { notice?: string }) => void} */
    this.render = () => {};
    /** Stops a run in progress (the run timer sets it). */
    this.pause = () => {};
  }

  /** Runs `call`; on a refusal pauses, passes the API's message to `show` and returns false. */
  attempt(call, show) {
    try {
      call();
      return true;
    } catch (error) {
      this.pause();
      if (!isRefusal(error)) throw error;
      show(error.message);
      return false;
    }
  }

  /**
   * Loads a part of the view the first view does not show (view.load(part): its dialog's module);
   * true once it is there. A failed load (the network, a site redeployed under the page) is said
   * in the action alert under `what`, and the part does not open: false.
   */
  async loaded(part, what) {
    try {
      await this.view.load(part);
      return true;
    } catch (error) {
      this.view.refused(what, `it did not load (${error?.message ?? error}); check the connection, then try again`);
      return false;
    }
  }

  /** A `show` for attempt() that has no field: the action alert (cleared by the next change drawn). */
  refusedAs(what) {
    return (message) => this.view.refused(what, message);
  }

  /**
   * One capstone action (lease, settle, advance, advanceToNext, releaseKey,
   * redrive, patch, crash) through the session; `alert` ('clock', 'operator' or an
   * alert a view handed over) says a refusal; `nothing` is what to say when the
   * core finds nothing to do. True when the action was taken.
   */
  act(action, what, alert = 'clock', nothing = 'Nothing is ready: there is no job to lease.') {
    return this.take(() => this.session.act(action), what, alert, nothing);
  }

  /** One operator call through the session (`act` answers whether it was taken), drawn as act() draws an action. */
  take(act, what, alert, nothing) {
    this.pause();
    let taken = false;
    const accepted = this.attempt(() => { taken = act(); },
      (message) => this.view.alert(alert, `${what} not taken: ${message}.`));
    if (!accepted) return false;
    this.view.alert(alert, null);
    if (!taken) {
      this.render({ notice: nothing });
      return false;
    }
    this.render();
    return true;
  }

  /** An edit the core may refuse: the refusal is said in `alert` (nothing changed), else the page redraws. */
  edit(change, alert) {
    this.pause();
    const accepted = this.attempt(change, (message) => this.view.alert(alert, `Not changed: ${message}.`));
    if (!accepted) return false;
    this.view.alert(alert, null);
    this.render();
    return true;
  }

  /** Moves the cursor (a run's own move: it does not pause); true if it moved. */
  goTo(cursor) {
    let moved = false;
    this.attempt(() => { moved = this.session.goTo(cursor); }, this.refusedAs(`Could not go to action ${cursor}`));
    if (moved) this.render();
    return moved;
  }
}
