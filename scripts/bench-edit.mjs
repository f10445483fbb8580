// A set-up edit's cost at the boundary (issue 32): a policy edit in the playground
// at 1,000 jobs, counted by an instrumented wrapper around the session (calls and
// the JSON bytes of their arguments and answers) and by lab.crossings (calls into
// wasm). Counts, not times: the same on every machine.
//
//   before: the round trip the page made until now: the whole scenario out
//           (session.scenario()), edited in JS, the whole scenario back in (change()).
//   after:  the page's path now, web/src/playground/model.mjs setPolicy: one call
//           with the edited fields (session.setPolicy()).
//
// The view each edit answers with is the render's, the same before and after; its
// bytes are left out. Run alone: node scripts/bench-edit.mjs
import { fileURLToPath } from 'node:url';
import { Session as PlaygroundSession } from '../web/src/playground/model.mjs';

export const EDIT_JOBS = 1000;
const EDIT = { backoff: { kind: 'fixed', baseMs: 250 } };

/** A session of `lab` whose method calls are counted: { session, calls, bytes } (bytes without the views). */
function instrumented(lab, scenario) {
  const meter = { calls: 0, bytes: 0 };
  const size = (value) => (value === undefined ? 0 : JSON.stringify(value).length);
  const inner = lab.createSession(scenario);
  const session = new Proxy(inner, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args) => {
        meter.calls += 1;
        const answer = value.apply(target, args);
        const isView = answer !== null && typeof answer === 'object' && 'eventsAtCursor' in answer;
        meter.bytes += size(args) + (isView ? 0 : size(answer));
        return answer;
      };
    },
  });
  return { session, meter };
}

function scenarioOf(jobs) {
  const list = Array.from({ length: jobs }, (_, i) => ({ id: `job-${i}`, payload: `payload ${i}` }));
  return { maxAttempts: 3, jobs: list, actions: [], cursor: 0 };
}

/** { before, after }: each { calls, crossings, bytes } for one policy edit at `jobs` jobs. */
export function measurePolicyEdit(lab, jobs = EDIT_JOBS) {
  const scenario = scenarioOf(jobs);
  const measure = (edit) => {
    const { session, meter } = instrumented(lab, scenario);
    const model = new PlaygroundSession({ createSession: () => session }, scenario);
    meter.calls = 0;
    meter.bytes = 0;
    const crossings = lab.crossings;
    edit(model, session);
    const out = { calls: meter.calls, crossings: lab.crossings - crossings, bytes: meter.bytes };
    model.dispose();
    return out;
  };
  const before = measure((model, session) => {
    const { jobs: j, actions, cursor, world, ...policy } = session.scenario();
    const next = { ...policy, jobs: j, actions, cursor, ...EDIT };
    if (world !== undefined) next.world = world;
    model.view = session.change(next, { replayWorld: true });
  });
  const after = measure((model) => model.setPolicy(EDIT));
  return { jobs, before, after };
}

/** The lines `npm run bench` prints: before, after, and the aim (1 crossing, O(1) bytes). */
export function policyEditLines({ jobs, before, after }) {
  const fmt = (n) => n.toLocaleString('en-US');
  const row = (name, m) => `${name.padEnd(8)} ${String(m.calls).padStart(5)}  ${String(m.crossings).padStart(9)}  ${fmt(m.bytes).padStart(11)}`;
  const met = after.crossings === 1 && after.bytes < 1024;
  return [
    `\npolicy edit at ${fmt(jobs)} jobs (set-up bytes: arguments and answers as JSON, the view aside)`,
    'path      calls  crossings        bytes',
    row('before', before),
    row('after', after),
    `aim: 1 crossing and O(1) bytes (under 1 KB whatever the jobs): ${after.crossings} crossing, ${fmt(after.bytes)} bytes, ${met ? 'met' : 'missed'}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { loadLab } = await import('dlq-lab');
  const lab = await loadLab();
  for (const line of policyEditLines(measurePolicyEdit(lab))) console.log(line);
}
