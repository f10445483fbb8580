// Scenario objects and their scripted actions read once into checked copies
// for the core (the core checks ranges, names and the rules).
import { readInput } from './errors.mjs';
import { limits } from './runtime.mjs';
import {
  checkCount, checkKey, checkObject, checkRoom, checkSize, checkString, checkText, copyArray, refuseLong,
} from './checks.mjs';
import { copyAction, copyPolicy, copyWorld } from './schema.mjs';

// An action is read by its type's row of lab.schema.actions (schema.mjs).
export { copyAction };

// ---- scenarios ----------------------------------------------------------

/**
 * A checked, defaulted copy of a scenario object, built from values read once;
 * ready for the core. `bytes` bounds the UTF-8 size of its strings.
 */
function copyScenario(scenario) {
  checkObject('scenario', scenario, '{ maxAttempts: 3, jobs: [], actions: [] }');
  const policy = copyPolicy(scenario, 'scenario.');
  const jobsIn = scenario.jobs ?? [];
  const actionsIn = scenario.actions ?? [];
  const cursorIn = scenario.cursor;
  const worldIn = scenario.world;
  const jobList = copyArray('scenario.jobs', jobsIn, limits.scenarioItems);
  const actionList = copyArray('scenario.actions', actionsIn, limits.scenarioItems);
  let bytes = 0;
  const jobs = [];
  for (let i = 0; i < jobList.length; i++) {
    const job = jobList[i];
    checkObject(`scenario.jobs[${i}]`, job, "{ id: 'a', payload: '' }");
    const id = job.id;
    const payload = job.payload ?? '';
    const key = job.key ?? undefined;  // null (as views report it) is no key too
    bytes += checkText(`scenario.jobs[${i}].id`, id, limits.idBytes);
    bytes += checkText(`scenario.jobs[${i}].payload`, payload, limits.payloadBytes);
    bytes += checkKey(`scenario.jobs[${i}].key`, key);
    jobs.push(key === undefined ? { id, payload } : { id, payload, key });
  }
  const actions = [];
  for (let i = 0; i < actionList.length; i++) {
    const { action, bytes: actionBytes } = copyAction(actionList[i], `scenario.actions[${i}]`);
    bytes += actionBytes;
    actions.push(action);
  }
  const cursor = cursorIn ?? actions.length;
  checkCount('scenario.cursor', cursor);
  const copy = { ...policy, jobs, actions, cursor };
  if (worldIn !== undefined) copy.world = copyWorld('scenario.', worldIn);
  return { scenario: copy, bytes };
}

/** A scenario object read once into a checked copy, with room for it in the heap budget. */
export function readScenarioObject(scenario) {
  const { scenario: copy, bytes } = readInput('scenario', () => copyScenario(scenario));
  checkRoom(2 * bytes, 'this scenario');  // the copy in, and the queue's own
  return copy;
}

/** A scenario argument read once: { text } for link text, else { object }. */
export function readScenario(scenario) {
  if (typeof scenario !== 'string') return { object: readScenarioObject(scenario) };
  refuseLong('scenario link', scenario, limits.scenarioTextBytes);  // the core's own name for it
  checkString('scenario', scenario);
  checkSize('scenario link', scenario, limits.scenarioTextBytes);
  return { text: scenario };
}
