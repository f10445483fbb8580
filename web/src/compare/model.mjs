// The compare page's adapter over the core: it reads the fragment's names
// against lab.schema and plays one scenario under each column. Every decision
// (the link's format, a value's range, whether a mode can play a script, every
// event and place) is the core's; this only asks and keeps the answers.
import { columnFields, parseCompareHash, applyColumn, formatCompareHash } from './compare-link.mjs';
import { jobEndings } from './diff.mjs';

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
    const scenario = this.#lab.parseScenario(link);
    return columns.map((column) => {
      const label = column.text;
      try {
        return { column, label, ...this.#playOne(applyColumn(scenario, column)) };
      } catch (error) {
        return { column, label, error: { code: error.code ?? 'error', message: error.message ?? String(error) } };
      }
    });
  }

  #playOne(object) {
    const lab = this.#lab;
    const columnLink = lab.formatScenario(object);  // the core checks every value the column set
    let played = lab.parseScenario(columnLink);
    if (played.world) played = lab.playWorld(played);
    played = { ...played, cursor: played.actions.length };
    const queue = lab.runScenario(played);
    try {
      const events = queue.timeline();
      const places = new Map();
      for (const event of events) {
        if (event.id && !places.has(event.id)) places.set(event.id, queue.locate(event.id)?.place ?? 'unknown');
      }
      return {
        link: columnLink,
        events,
        endings: jobEndings(events, places),
        stats: queue.stats(),
        quarantined: queue.quarantined(),
        now: queue.now(),
      };
    } finally {
      queue.dispose();
    }
  }
}
