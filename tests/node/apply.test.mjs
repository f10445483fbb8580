// q.apply(action) and lab.scenarioFeatures(): the core's own action application and
// its link-version decision, exported so no caller writes them again in JS.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, rng, throwsWith } from './helpers.mjs';

const OUTCOMES = ['success', 'transient', 'permanent', 'precondition'];

function randomAction(pick, q, n) {
  switch (pick(10)) {
    case 0: case 1: case 2: return { type: 'process', outcome: OUTCOMES[pick(4)], error: pick(2) ? 'boom' : '' };
    case 3: return { type: 'enqueue', id: `n${n}`, payload: `p${pick(5)}` };
    case 4: return { type: 'lease' };
    case 5: return { type: 'settle', token: q.leased()[0]?.token ?? 'lease-1', outcome: OUTCOMES[pick(4)], error: '' };
    case 6: return { type: 'advance', ms: pick(3000) };
    case 7: return { type: 'replay', id: q.quarantined()[0]?.id ?? 'a' };
    case 8: return { type: 'redrive', max: 1 };
    default: return { type: 'crash', after: 1 + pick(12), torn: pick(3) === 0 };
  }
}

test('apply() plays an action exactly as a script does, over 200 random scripts; a refusal changes nothing', () => {
  const pick = rng(19);
  for (let run = 0; run < 200; run++) {
    const policy = { maxAttempts: 1 + pick(4), backoff: { kind: 'fixed', baseMs: 500 } };
    const jobs = [{ id: 'a', payload: 'x' }, { id: 'b', payload: 'y' }];
    const q = lab.runScenario({ ...policy, jobs, actions: [] });
    const played = [];
    try {
      for (let n = 0; n < 12; n++) {
        const action = randomAction(pick, q, n);
        const before = q.snapshotText();
        let report;
        try {
          report = q.apply(action);
        } catch (error) {
          assert.match(error.message, /^apply: /, error.message);
          assert.equal(q.snapshotText(), before, `refused ${JSON.stringify(action)} changed the queue`);
          continue;
        }
        played.push(action);
        assert.equal(report === null, action.type !== 'crash');
        if (report !== null) assert.ok(report.applied <= report.journal && Array.isArray(report.lost));
        // The same actions as a script give the same queue.
        const script = lab.runScenario({ ...policy, jobs, actions: played });
        try {
          assert.equal(q.snapshotText(), script.snapshotText(), `run ${run}: after ${JSON.stringify(played)}`);
        } finally {
          script.dispose();
        }
      }
    } finally {
      q.dispose();
    }
  }
});

test('apply() refuses a bad action by name and changes nothing', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'x');
  const before = q.snapshotText();
  throwsWith(assert, () => q.apply(null), TypeError, 'invalid-type', /^action must be an object/);
  throwsWith(assert, () => q.apply({ type: 'fly' }), TypeError, 'invalid-type', /^action\.type must be /);
  throwsWith(assert, () => q.apply({ type: 'process', outcome: 'maybe' }), RangeError, 'invalid-argument', /^action\.outcome must be one of/);
  throwsWith(assert, () => q.apply({ type: 'advance', ms: -1 }), RangeError, 'out-of-range', /ms must be an integer/);
  throwsWith(assert, () => q.apply({ type: 'replay', id: 'a' }), Error, 'not-found', /^apply: replay\("a"\) found no such job in quarantine$/);
  assert.equal(q.snapshotText(), before);
  q.dispose();
});

test('a crash applied to a restored queue restarts from its snapshot, not from creation', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'x');
  const snapshot = q.snapshot();  // the journal starts again here
  q.enqueue('b', 'y');
  q.apply({ type: 'process', outcome: 'success' });
  const report = q.apply({ type: 'crash', after: 0 });
  assert.equal(report.applied, 0);
  const restored = lab.restoreQueue(snapshot);
  assert.equal(q.snapshotText(), restored.snapshotText());
  restored.dispose();
  q.dispose();
});

test('scenarioFeatures(): the link version the core writes a scenario in, and whether it is lesson 1\'s', () => {
  const base = { maxAttempts: 3, jobs: [{ id: 'a', payload: '' }], actions: [{ type: 'process', outcome: 'transient' }] };
  assert.deepEqual(lab.scenarioFeatures(base), { version: 1, lessonOne: true });
  for (const extra of [{ seed: 9 }, { ordering: 'key' }, { backoff: { kind: 'fixed' } },
    { actions: [{ type: 'advance', ms: 5 }] }, { world: { workers: 2 } }, { actions: [{ type: 'crash', after: 1 }] }]) {
    const scenario = { ...base, ...extra };
    const features = lab.scenarioFeatures(scenario);
    assert.deepEqual(features, { version: 2, lessonOne: false }, JSON.stringify(extra));
    assert.ok(lab.formatScenario(scenario).startsWith('v2;'), JSON.stringify(extra));
  }
  assert.ok(lab.formatScenario(base).startsWith('v1;') || !lab.formatScenario(base).startsWith('v2;'));
  throwsWith(assert, () => lab.scenarioFeatures({ maxAttempts: 0 }), RangeError, 'out-of-range', /^maxAttempts must be/);
});
