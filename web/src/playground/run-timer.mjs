// @ts-check
// Run and Play: the timer that plays a playground on its own. Run plays the rest
// of the script, then the scenario's world (when it has one), else steps with the
// chosen outcome until nothing is ready; Play runs the simulated workers. Each
// tick is one action through the flow (flow.mjs), so a refusal pauses the run.
// `timers` ({ setInterval, clearInterval }) is the page's clock; a test passes its own.

export class RunTimer {
  #flow;
  #timers;
  #step;
  #timer = 0;
  #kind = null;  // 'run' or 'play' while the timer runs

  /** `step({ quiet })`: the controller's Step (true when a step was taken). */
  constructor(flow, { step, timers = globalThis }) {
    this.#flow = flow;
    this.#step = step;
    this.#timers = timers;
    flow.pause = () => this.pause();
  }

  /** 'run', 'play' or null. */
  get running() {
    return this.#kind;
  }

  toggleRun() {
    if (this.#timer) this.pause(); else this.#run();
  }

  /** Play: the simulated workers (the scenario's world, else healthy jobs and one worker) run from here. */
  togglePlay() {
    if (this.#timer && this.#kind === 'play') {
      this.pause();
      return;
    }
    this.pause();
    this.#start('play', () => (this.#forward() ?? this.#worldStep()));
  }

  /** A new speed: a run (or play) in progress goes on at it. */
  changeSpeed() {
    if (!this.#timer) return;
    const kind = this.#kind;
    this.pause();
    if (kind === 'play') this.togglePlay(); else this.#run();
  }

  pause() {
    if (!this.#timer) return;
    this.#timers.clearInterval(this.#timer);
    this.#timer = 0;
    this.#kind = null;
    this.#flow.view.running(null);
  }

  /** The last explanation stays on show when the run ends. */
  #run() {
    this.#start('run', () => {
      const moved = this.#forward();
      if (moved !== null) return moved;
      if (this.#flow.session.world !== null) return this.#worldStep();
      return this.#step({ quiet: true });
    });
  }

  /** The script's next action while the cursor is inside it (true if it moved); null past its end. */
  #forward() {
    const { session } = this.#flow;
    return session.cursor < session.length ? this.#flow.goTo(session.cursor + 1) : null;
  }

  /** The world's next action (the core chooses it), recorded like a click; false when nothing will happen. */
  #worldStep() {
    const flow = this.#flow;
    let acted = false;
    if (!flow.attempt(() => { acted = flow.session.worldStep(); }, flow.refusedAs('The world stopped'))) return false;
    if (!acted) {
      flow.view.say('Played to the end: nothing more will happen.');
      return false;
    }
    flow.render();
    return true;
  }

  #start(kind, tick) {
    const { view } = this.#flow;
    const interval = 1000 / view.stepsPerSecond();
    this.#kind = kind;
    view.running(kind);
    this.#timer = this.#timers.setInterval(() => {
      if (!tick()) this.pause(); // the end, or a refusal (already shown)
    }, interval);
  }
}
