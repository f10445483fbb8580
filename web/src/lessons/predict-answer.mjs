// @ts-check
// The answers to a predict question (predict.mjs), as the core's run gives them,
// and the learner's typed order read and checked: pure functions of the lab, so
// Node tests check every question of the lesson pages with the same code.
import { quoted } from '../shared/quote.mjs';

/** A goal's id token: bare when it can be, else quoted with the goal language's escapes. */
export function goalId(id) {
  return /^[^\s;,"<>=!\\]+$/.test(id) ? id : JSON.stringify(id);
}

/** The ids of an order answer as typed: separated by spaces, commas or arrows. */
export function parseOrder(text) {
  return text.split(/[\s,>→]+/).filter((w) => w !== '' && w !== '-');
}

/**
 * The learner's order checked against the ids asked about: null when it names
 * each once, else what is wrong with it, in words.
 */
export function orderProblem(answer, ids) {
  const expected = `each of ${ids.join(', ')} once, first to last`;
  if (answer.length === 0) return `Name ${expected}.`;
  const unknown = answer.find((id) => !ids.includes(id));
  if (unknown !== undefined) return `There is no job ${quoted(unknown)} here: name ${expected}.`;
  const twice = answer.find((id, i) => answer.indexOf(id) !== i);
  if (twice !== undefined) return `${quoted(twice)} is named twice: name ${expected}.`;
  if (answer.length < ids.length) return `Missing ${ids.filter((id) => !answer.includes(id)).join(', ')}: name ${expected}.`;
  return null;
}

/**
 * The core's run of a question: the scenario played to the end of its script
 * (its world's run played on by the core when it has one). Returns the queue;
 * the caller disposes of it.
 */
export function playToEnd(lab, link) {
  let scenario = lab.parseScenario(link);
  scenario = { ...scenario, cursor: scenario.actions.length };
  if (scenario.world) scenario = lab.playWorld(scenario);
  return lab.runScenario({ ...scenario, cursor: scenario.actions.length });
}

/**
 * The choice the core's run makes true: the index of the one goal (of `goals`)
 * that holds at the end of `link`'s run, and what the core says holds for it.
 * Exactly one must hold: anything else is the author's question, refused.
 */
export function coreChoice(lab, link, goals) {
  const queue = playToEnd(lab, link);
  try {
    const checks = goals.map((goal) => queue.checkGoal(goal));
    const met = checks.flatMap((c, i) => (c.met ? [i] : []));
    if (met.length !== 1) {
      throw new Error(`choices: expected exactly one whose goal the core's run meets, got ${met.length}` +
        ` (${checks.map((c, i) => `${i + 1}: ${c.clauses.map((k) => k.actual).join('; ')}`).join(' | ')})`);
    }
    return { index: met[0], shows: [...new Set(checks[met[0]].clauses.map((c) => c.actual))] };
  } finally {
    queue.dispose();
  }
}


/**
 * An order question: the order in which the core's run of `link` completed
 * `ids`, and whether the learner's `answer` (each id once) is that order, with
 * what the core says of it.
 */
export function coreOrder(lab, link, ids, answer) {
  const queue = playToEnd(lab, link);
  try {
    const order = queue.completed(0, queue.stats().completed).map((j) => j.id).filter((id) => ids.includes(id));
    const check = queue.checkGoal(`order ${answer.map(goalId).join(', ')}`);
    return { right: check.met, order, shows: check.clauses[0].actual };
  } finally {
    queue.dispose();
  }
}
