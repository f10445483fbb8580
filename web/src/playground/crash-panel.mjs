// @ts-check
// Crash and restart, and the snapshot: the durability dialogs' controller
// (durability.mjs draws them). A crash is a script action: the recovered queue is
// the state from then on (time travel and links carry it). A second try from the
// same dialog replaces its first, so the reader can compare writes. The view's
// crashDialog() and snapshotDialog() are built when first asked for; their module
// loads when one is first opened (view.load('durability')).

export class CrashPanel {
  #flow;
  #dialogs;
  #crashedAt = null;  // the cursor right after the crash the open dialog carried out

  constructor(flow) {
    const { view } = flow;
    this.#flow = flow;
    this.#dialogs = { crash: () => view.crashDialog(), snapshot: () => view.snapshotDialog() };
    view.bindSnapshot(() => this.showSnapshot());
    view.bindCrashOpen(() => this.open());
    view.bindCrash((after, torn) => this.crash(after, torn));
    view.bindFind(() => this.writeThatMatters());
    view.bindUnsafeOrder((on) => this.unsafeOrder(on));
  }

  /**
   * Opens Crash and restart over the queue at the cursor (a run in progress pauses), the
   * dialogs' module loaded first; false when it did not load.
   */
  async open() {
    this.#flow.pause();
    if (!await this.#flow.loaded('durability', 'Crash and restart')) return false;
    this.#crashedAt = null;
    this.#dialogs.crash().show(this.#flow.session);
    return true;
  }

  /** Opens the dialog showing the recovery after write `after`, or (null) after the write that matters. */
  async openAt(after = null) {
    if (!await this.open()) return;
    if (after === null) this.#dialogs.crash().findFirst();
    else this.#dialogs.crash().crashAt(after);
  }

  /** The dialog's Crash and restart after write `after` (`torn`: the write half done); true when taken. */
  crash(after, torn) {
    const flow = this.#flow;
    this.#undoOwnCrash(false);
    const done = flow.act({ type: 'crash', after, torn }, 'Crash and restart', this.#dialogs.crash().alert);
    this.#crashedAt = done ? flow.session.cursor : null;
    return done;
  }

  /** The core's write that matters in the journal the dialog shows (before a crash it carried out). */
  writeThatMatters() {
    if (this.#undoOwnCrash(true)) this.#flow.render();
    return this.#flow.session.queue.writeThatMatters();
  }

  /** The crash dialog's unsafe quarantine order: a policy change; true when taken. */
  unsafeOrder(on) {
    return this.#flow.edit(() => this.#flow.session.setPolicy({ unsafeQuarantineOrder: on }), this.#dialogs.crash().alert);
  }

  /** The snapshot of the queue at the cursor, as the core writes it (taken before the dialog's module loads). */
  async showSnapshot() {
    const flow = this.#flow;
    let text = '';
    if (!flow.attempt(() => { text = flow.session.queue.snapshotText(); }, flow.refusedAs('No snapshot'))) return;
    if (!await flow.loaded('durability', 'Snapshot')) return;
    this.#dialogs.snapshot().show(text);
  }

  /** Steps back over the crash this dialog carried out, if it is the one on show; `forget` it then. */
  #undoOwnCrash(forget) {
    const { session } = this.#flow;
    if (this.#crashedAt === null || session.cursor !== this.#crashedAt) return false;
    session.goTo(this.#crashedAt - 1);
    if (forget) this.#crashedAt = null;
    return true;
  }
}
