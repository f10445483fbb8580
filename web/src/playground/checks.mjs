// @ts-check
// What the core checks of the state on show, for the page: a lesson's goal (the
// Try it boxes call controller.checkGoal), the Worst case card's bound and the
// retry-schedule card. Each is one question to the core; the two cards are asked
// again only when what they depend on changed. `card` is the schedule card
// (schedule-view.mjs ScheduleCard); `shown()` whether it is on show now.
import { isRefusal } from './flow.mjs';

/** The outage the schedule card assumes when the scenario's world has none (ms). */
const DEFAULT_OUTAGE_MS = 5000;

export class Checks {
  #flow;
  #card;
  #worstKey = '';  // the set-up and offer the Worst case bound was asked for
  #worst = null;
  #scheduleKey = '';  // the policy generation the schedule card was drawn for ('' : not drawn)

  constructor(flow, card, shown) {
    this.#flow = flow;
    this.#card = card;
    card.bindOutage(() => this.schedule(shown(), true));
  }

  /**
   * A declarative goal (docs/goals.md) against the state shown: the queue at the cursor,
   * or the queue a crash and restart just recovered. The core parses and evaluates it;
   * a bad goal throws its refusal.
   */
  goal(goal) {
    const { session } = this.#flow;
    return { ...session.queue.checkGoal(goal), recovered: session.view.last.action?.type === 'crash' };
  }

  /**
   * The Worst case card's bound: the core's, over the failures this playground can meet
   * (`outcomes`, the ones its picker offers; crashes when `leases`, its attempts hold
   * leases, as in a clock playground).
   */
  worstCase({ outcomes, leases }) {
    const key = `${this.#flow.session.view.generation}|${outcomes.join(' ')}|${leases}`;
    if (key !== this.#worstKey) {
      this.#worst = this.#flow.session.queue.worstCase({ outcomes, leases });
      this.#worstKey = key;
    }
    return this.#worst;
  }

  /**
   * The retry-schedule card, when `shown` (a clock playground that shows the state and
   * its future): the core's retrySchedule() for the policy in force, each attempt taking
   * the world's work time (or, in a script that holds leases, each lease), against the
   * outage length the reader picked (at first, the world's outage). Asked again only when
   * the policy or the leases changed, or `asked` (the reader changed the outage).
   */
  schedule(shown, asked = false) {
    const card = this.#card;
    card.show(shown);
    const { view } = this.#flow.session;
    const key = shown ? `${view.generation}|${view.leases}` : '';
    if (!asked && key === this.#scheduleKey) return;
    this.#scheduleKey = key;
    if (!shown) return;
    const { world } = view;
    // With a world its workers take workMs an attempt (never past the lease); without one, once the
    // script holds leases (view.leases, the core's) each counts to its expiry, as the run counts it.
    const timing = world ? { workMs: world.workMs } : { leases: view.leases };
    const outage = world?.outage ? world.outage.endMs - world.outage.startMs : DEFAULT_OUTAGE_MS;
    try {
      card.render(this.#flow.lab.retrySchedule(view.policy, { outageMs: card.outageMs(outage), ...timing }), timing);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      card.renderError(error.message);
    }
  }
}
