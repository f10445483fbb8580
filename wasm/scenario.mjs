// Scenario objects and their scripted actions read once into checked copies
// for the core (the core checks ranges, names and the rules).
import { describe, readInput, typeError } from './errors.mjs';
import { limits } from './runtime.mjs';
import {
  checkBoolean, checkCount, checkInteger, checkKey, checkName, checkObject, checkOutcome, checkRoom, checkSize,
  checkString, checkText, copyArray, refuseLong,
} from './checks.mjs';
import { copyPolicy, copyWorld } from './schema.mjs';

// The scripted action types copyAction() reads, for its message.
const ACTION_TYPES =
  "'process', 'replay', 'enqueue', 'lease', 'settle', 'advance', 'advanceToNext', 'releaseKey', 'redrive', 'patch' or 'crash'";

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

/** One scripted action read once into a checked copy; every type is named, any other refused. */
export function copyAction(action, name) {
  checkObject(name, action, "{ type: 'process', outcome: 'success' }");
  const type = action.type;
  switch (type) {
    case 'process': {
      const outcome = action.outcome;
      const error = action.error ?? '';
      checkOutcome(`${name}.outcome`, outcome);
      return { action: { type, outcome, error }, bytes: checkText(`${name}.error`, error, limits.errorTextBytes) };
    }
    case 'replay': {
      const id = action.id;
      const bytes = checkText(`${name}.id`, id, limits.idBytes);
      // resetAttempts false: BullMQ's job.retry() without a reset (the core refuses it under other systems).
      if (action.resetAttempts === undefined) return { action: { type, id }, bytes };
      checkBoolean(`${name}.resetAttempts`, action.resetAttempts);
      return { action: action.resetAttempts ? { type, id } : { type, id, resetAttempts: false }, bytes };
    }
    case 'enqueue': {
      const id = action.id;
      const payload = action.payload ?? '';
      const key = action.key ?? undefined;
      const bytes = checkText(`${name}.id`, id, limits.idBytes) + checkText(`${name}.payload`, payload, limits.payloadBytes) +
        checkKey(`${name}.key`, key);
      return { action: key === undefined ? { type, id, payload } : { type, id, payload, key }, bytes };
    }
    case 'patch': {  // an operator's fix of a quarantined job's payload (the core refuses any other job)
      const id = action.id;
      const payload = action.payload;
      const bytes = checkText(`${name}.id`, id, limits.idBytes) + checkText(`${name}.payload`, payload, limits.payloadBytes);
      return { action: { type, id, payload }, bytes };
    }
    case 'releaseKey': {
      const key = action.key;
      return { action: { type, key }, bytes: checkKey(`${name}.key`, key, true) };
    }
    case 'redrive': {
      const { max, class: only, reason } = action;
      checkInteger(`${name}.`, 'max', max, true);
      checkName(`${name}.class`, only);  // the core parses the class and the reason
      checkName(`${name}.reason`, reason);
      const copy = { type, max };
      if (only !== undefined) copy.class = only;
      if (reason !== undefined) copy.reason = reason;
      return { action: copy, bytes: 0 };
    }
    case 'crash': {
      const after = action.after;
      const torn = action.torn ?? false;
      checkInteger(`${name}.`, 'after', after, true);
      checkBoolean(`${name}.torn`, torn);
      return { action: { type, after, torn }, bytes: 0 };
    }
    case 'lease':
    case 'advanceToNext':
      return { action: { type }, bytes: 0 };
    case 'settle': {
      const token = action.token;
      const outcome = action.outcome;
      const error = action.error ?? '';
      // The core has no limit of its own for a token ("lease-<n>"); an id's bounds the copy.
      let bytes = checkText(`${name}.token`, token, limits.idBytes);
      checkOutcome(`${name}.outcome`, outcome);
      bytes += checkText(`${name}.error`, error, limits.errorTextBytes);
      return { action: { type, token, outcome, error }, bytes };
    }
    case 'advance': {
      const ms = action.ms;
      checkInteger(`${name}.`, 'ms', ms, true);
      return { action: { type, ms }, bytes: 0 };
    }
    default:
      throw typeError(`${name}.type must be ${ACTION_TYPES}, got ${describe(type)}`);
  }
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
