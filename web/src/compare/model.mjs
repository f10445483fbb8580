// @ts-check
// The compare page's adapter over the core: it reads the fragment's names
// against lab.schema and plays one scenario under each column. Every decision
// (the link's format, a value's range, whether a mode can play a script, every
// event and place) is the core's; this only asks and keeps the answers.
import { columnFields, parseCompareHash, applyColumn, formatCompareHash } from './compare-link.mjs';
import { jobEndings, jobPaths, settled } from './diff.mjs';

/** Runs `steps` (a generator) to its end at once: its return value. */
function finish(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export class CompareModel {
  #lab;
  #fields;

  constructor(lab) {
    this.#lab = lab;
    this.#fields = columnFields(lab.schema);
  }

  /** The systems a column may name, in the core's order, with their labels (lab.schema.policy's system row). */
  systems() {
    return this.#lab.schema.policy.find((row) => row.name === 'system').choices;
  }

  /** The fragment's text -> { link, columns }, or throws the refusal (a CompareLinkError or the core's error). */
  read(hashText) {
    const request = parseCompareHash(hashText, this.#fields);
    this.#lab.parseScenario(request.link);  // the link itself: the core names what is wrong with it
    return request;
  }

  /** The system a link names (the core's reading; 'lab' when it names none). */
  linkSystem(link) {
    return this.#lab.parseScenario(link).system;
  }

  /** A request's fragment text, as read() takes it. */
  write(request) {
    return formatCompareHash(request);
  }

  /**
   * Plays `request.link` under each column, to the end of its script (and the
   * world's run, when the link carries a world). Each result is either
   * { column, label, link, events, endings, stats, quarantined } or
   * { column, label, error } with the core's refusal.
   */
  play({ link, columns }) {
    const scenario = this.scenarioOf(link);
    return columns.map((column) => finish(this.#columnSteps(scenario, column)));
  }

  /** A request's link read by the core (a scenario object), for playColumn. */
  scenarioOf(link) {
    return this.#lab.parseScenario(link);
  }

  /**
   * One column of play(): `scenario` (scenarioOf) played under `column`, or the core's refusal.
   * Each of its calls into the core is made in a task of its own (`pause()` resolves in a later
   * one): on a first visit each compiles the core's code for it, 5 to 12 ms apiece on this
   * machine, and a phone's main thread is held for the sum if they run in one task.
   */
  async playColumn(scenario, column, pause) {
    const steps = this.#columnSteps(scenario, column);
    try {
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return step.value;
        await pause();
      }
    } finally {
      steps.return(undefined);  // a queue still open is disposed of (its finally)
    }
  }

  /** The column's play as steps, one core call each: yields between them, returns play()'s result. */
  *#columnSteps(scenario, column) {
    const label = column.text;
    try {
      const played = yield* this.#playOne(applyColumn(scenario, column));
      return { column, label, ...played };
    } catch (error) {
      return { column, label, error: { code: error.code ?? 'error', message: error.message ?? String(error) } };
    }
  }

  /** The jobs some played column leaves in flight at the end (ready, delayed, leased: not settled), in order. */
  unsettled(results) {
    const ids = [];
    for (const r of results) {
      for (const [id, { place }] of r.endings ?? []) if (!settled(place) && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /**
   * `request` played to its end: the same set-up and columns, each job of `ids` failing
   * every time (a transient poison job) and the world playing the jobs out instead of the
   * script, so each column's later deliveries, and where the job ends, are on show.
   * The core formats the link (and checks it); null when it refuses. `scenario`: the link
   * as scenarioOf() read it, when the caller has it.
   */
  playedToEnd({ link, columns }, ids, scenario = this.scenarioOf(link)) {
    const lab = this.#lab;
    const world = scenario.world ?? {};
    const behaviours = [...(world.behaviours ?? []).filter((b) => !ids.includes(b.id)),
      ...ids.map((id) => ({ id, kind: 'poison', failure: 'transient' }))];
    try {
      const ended = lab.formatScenario({ ...scenario, actions: [], cursor: 0, world: { ...world, behaviours } });
      return { link: ended, columns };
    } catch {
      return null;
    }
  }

  *#playOne(object) {
    const lab = this.#lab;
    const columnLink = lab.formatScenario(object);  // the core checks every value the column set
    yield;
    let played = lab.parseScenario(columnLink);
    yield;
    if (played.world) {
      played = lab.playWorld(played);
      yield;
    }
    played = { ...played, cursor: played.actions.length };
    const queue = lab.runScenario(played);
    try {
      yield;
      const events = queue.timeline();
      const places = new Map();
      for (const event of events) {
        if (event.id && !places.has(event.id)) places.set(event.id, queue.locate(event.id)?.place ?? 'unknown');
      }
      yield;
      return {
        link: columnLink,
        events,
        endings: jobEndings(events, places),
        paths: jobPaths(events),
        stats: queue.stats(),
        quarantined: queue.quarantined(),
        now: queue.now(),
      };
    } finally {
      queue.dispose();
    }
  }
}
