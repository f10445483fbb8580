// A world behaviour must name a job of its scenario (issue 20, item 9: the link
// fuzzer's `v2;m3;s1;ha203:x` was accepted with no job a203 anywhere). Links,
// scenario objects and every API call that takes one refuse it by name, and the
// refusal quotes the id short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const why = 'names no job of the scenario; expected the id of a set-up job or of a job an enqueue action adds';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a link whose behaviour names no job is refused by name', () => {
  throwsWith(assert, () => lab.parseScenario('v2;m3;s1;ha203:x'), RangeError, 'invalid-argument',
    new RegExp(`^scenario link: world\\.behaviours\\[0\\]\\.id "a203" ${escape(why)}$`));
  throwsWith(assert, () => lab.createSession('v2;m3;s1;hb:pu;ja:'), RangeError, 'invalid-argument',
    new RegExp(`world\\.behaviours\\[0\\]\\.id "b" ${escape(why)}$`));
  // A job an enqueue action adds counts, before the cursor or after it.
  assert.equal(lab.parseScenario('v2;m3;s1;hb:pu;ja:;as,eb:;c0').world.behaviours[0].id, 'b');
});

test('a scenario object whose behaviour names no job is refused by every call that takes one', () => {
  const scenario = {
    maxAttempts: 3, seed: 1, jobs: [{ id: 'a', payload: '' }], actions: [], cursor: 0,
    world: { behaviours: [{ id: 'a', kind: 'flaky', count: 1 }, { id: 'ghost', kind: 'poison', failure: 'permanent' }] },
  };
  const pattern = new RegExp(`world\\.behaviours\\[1\\]\\.id "ghost" ${escape(why)}$`);
  throwsWith(assert, () => lab.formatScenario(scenario), RangeError, 'invalid-argument', pattern);
  // playableActions reports a set-up it cannot play as what stopped it, with nothing played.
  const reach = lab.playableActions(scenario);
  assert.equal(reach.playable, 0);
  assert.equal(reach.stopped.code, 'invalid-argument');
  assert.match(reach.stopped.message, pattern);
  throwsWith(assert, () => lab.runScenario(scenario), RangeError, 'invalid-argument', pattern);
  throwsWith(assert, () => lab.createSession(scenario), RangeError, 'invalid-argument', pattern);
  throwsWith(assert, () => lab.playWorld(scenario), RangeError, 'invalid-argument', pattern);
  // A long id is quoted short.
  const long = { ...scenario, world: { behaviours: [{ id: 'z'.repeat(1000), kind: 'flaky', count: 1 }] } };
  assert.throws(() => lab.formatScenario(long), (error) => error.message.length < 250 && /"z{64}"… \(1000 bytes\)/.test(error.message));
  // Naming the set-up job, it loads.
  const ok = { ...scenario, world: { behaviours: [scenario.world.behaviours[0]] } };
  assert.equal(lab.formatScenario(ok), 'v2;m3;s1;ha:f1;ja:');
});

test('the set-up\'s own Remove takes the job\'s behaviour with it (Consumer crash, Reset, Remove a); only a link is refused', async () => {
  const { Session } = await import('../../web/src/playground/model.mjs');
  const { CAPSTONE_PRESETS, PRESETS, SYSTEM_PRESETS } = await import('../../web/src/playground/presets.mjs');
  const preset = [...PRESETS, ...CAPSTONE_PRESETS, ...SYSTEM_PRESETS].find((p) => p.name === 'Consumer crash');
  const session = new Session(lab, preset.scenario);
  session.goTo(0);
  session.removeJob('a');
  assert.deepEqual(session.scenario.jobs.map((j) => j.id), ['b', 'c']);
  assert.equal((session.scenario.world?.behaviours ?? []).some((b) => b.id === 'a'), false);
  // A job without a behaviour leaves the world's other behaviours as they were.
  const two = new Session(lab, { ...preset.scenario, jobs: [...preset.scenario.jobs] });
  two.removeJob('b');
  assert.deepEqual(two.scenario.world.behaviours.map((b) => b.id), ['a']);
  session.dispose();
  two.dispose();
  throwsWith(assert, () => lab.parseScenario('v2;m3;s1;hz:pt;ja:'), RangeError, 'invalid-argument', new RegExp(escape(why)));
});
