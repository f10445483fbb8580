// The playground's controller (web/src/playground/controller.mjs) driven against a
// fake view (playground-fakes.mjs) and the real core: what a reader does arrives as a
// bound handler, goes into the session, and the view is drawn with what the core
// answered. Loading a link, editing the set-up, stepping, moving through the script,
// Run and Pause, presets, and every refusal: said where the reader looks, and nothing
// changes (the session's link and position are the same before and after).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, linkFixtures } from './helpers.mjs';
import { playground, state, AB } from './playground-fakes.mjs';

test('it mounts the view, draws the default scenario once and says so', () => {
  const { controller, view, element, session } = playground();
  assert.equal(view.mountedIn, element);
  assert.equal(view.isReady, true);
  assert.equal(controller.root, view.root);
  assert.equal(view.renders.length, 1);
  assert.equal(view.last.view, session.view, 'the view drawn is the one the core answered with');
  assert.equal(controller.link(), AB);
  assert.deepEqual(view.changes.at(-1), { cursor: 0, length: 3, stats: session.view.stats, recovered: false });
  assert.equal(view.keys.pageWide, false, 'only a sync-url playground takes the page\'s keys');
  controller.destroy();
  assert.equal(view.destroyed, true);
});

test('a link loads: options.scenario, load(), and every released fixture plays to the same link', () => {
  const poison = linkFixtures().find((f) => f.name === 'v1-poison.link');
  const { controller, view } = playground({ scenario: poison.link });
  assert.equal(controller.session.length, lab.parseScenario(poison.link).actions.length);
  for (const { link } of linkFixtures()) {
    controller.load(link);
    const again = playground({ scenario: controller.link() });
    assert.equal(again.controller.link(), controller.link(), link);
    assert.deepEqual(again.session.view.stats, controller.session.view.stats, link);
    again.controller.destroy();
  }
  assert.equal(view.linkAlert, null);
  controller.destroy();
});

test('a refused link: load() throws and nothing changes; loadOrAlert() shows the default and the refused text', () => {
  const { controller, view } = playground();
  view.press('Step');
  const before = state(controller);
  assert.throws(() => controller.load('v1;m3;jz'), (error) => typeof error.code === 'string');
  assert.deepEqual(state(controller), before, 'a refused load changes nothing');
  controller.loadOrAlert('v1;m3;jz');
  assert.equal(view.linkAlert.text, 'v1;m3;jz');
  assert.match(view.linkAlert.message, /./);
  assert.equal(controller.link(), AB, 'the default scenario instead');
  const refused = playground({ scenario: 'v1;m3;jz' });
  assert.equal(refused.view.linkAlert.text, 'v1;m3;jz', 'on start-up too: never a blank page');
  assert.equal(refused.controller.link(), AB);
  controller.destroy();
  refused.controller.destroy();
});

test('Step, Back, Forward, the slider, Reset and a timeline pick move through the script', () => {
  const { controller, view, session } = playground();
  view.outcome = 'transient';
  view.error = 'db timeout';
  view.press('Step');
  assert.equal(session.cursor, 1);
  assert.equal(view.last.view.stats.step, 1);
  assert.equal(view.stepErrorText, null);
  view.press('Forward');
  view.press('Forward');
  assert.equal(session.cursor, 3);
  view.press('Back');
  assert.equal(session.cursor, 2);
  view.press('Scrub', 0);
  assert.equal(session.cursor, 0);
  view.press('Scrub', 3);
  view.press('Reset');
  assert.equal(session.cursor, 0);
  const seq = session.view.timeline.at(-1).seq;
  view.press('Select', seq);
  assert.equal(session.cursor, session.cursorForEvent(seq));
  controller.destroy();
});

test('a step past the script adds to it; Undo takes the change back', () => {
  const { controller, view, session } = playground();
  view.press('Scrub', 1);
  view.outcome = 'permanent';
  view.press('Step');  // not the authored action 1: the authored script past it is dropped
  assert.ok(session.view.dropped && session.canUndo, 'the script past the cursor was dropped, and can come back');
  assert.equal(session.length, 2);
  view.press('Undo');
  assert.equal(controller.link(), AB.replace(';c0', ';c1'));
  assert.match(view.last.notice, /^Undone: the script is back/);
  controller.destroy();
});

test('a refused step is said next to the error text; nothing changes', () => {
  const { controller, view } = playground();
  const before = state(controller);
  view.outcome = 'transient';
  view.error = 'x'.repeat(70_000);
  view.press('Step');
  assert.match(view.stepErrorText, /^Step not taken: .*error/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('Step when nothing is ready says so; a quiet step (a run\'s end) says it beside Run', () => {
  const { controller, view } = playground({ scenario: 'v1;m3' });
  view.press('Step');
  assert.equal(view.last.notice, 'Nothing is ready: there is no job to process.');
  controller.destroy();
});

test('Run plays the script tick by tick, then steps until nothing is ready; Run again pauses', () => {
  const { controller, view, timers, session } = playground();
  view.press('Run');
  assert.equal(view.runningKind, 'run');
  assert.equal([...timers.intervals.values()][0].ms, 100, 'ten steps a second');
  timers.tick();
  assert.equal(session.cursor, 1);
  view.press('Run');
  assert.equal(view.runningKind, null);
  assert.equal(timers.intervals.size, 0, 'paused: no timer left');
  controller.run();
  let ticks = 0;
  while (timers.tick()) ticks += 1;
  assert.equal(session.cursor, 3);
  assert.equal(view.runningKind, null, 'the run ended by itself');
  assert.deepEqual(view.said, ['Run ended: nothing is ready.']);
  assert.equal(ticks, 3, 'two script actions, then the step that finds nothing ready');
  controller.destroy();
});

test('a reader\'s move, an edit or a new speed during a run: moves pause it, a new speed keeps it going', () => {
  const { controller, view, timers } = playground();
  view.press('Run');
  view.speed = 2;
  view.press('Speed');
  assert.equal(view.runningKind, 'run');
  assert.equal([...timers.intervals.values()][0].ms, 500);
  view.press('Back');
  assert.equal(view.runningKind, null);
  view.press('Play');
  assert.equal(view.runningKind, 'play');
  view.press('Play');
  assert.equal(view.runningKind, null);
  controller.destroy();
});

test('Max attempts: a refusal is said by the field, which is put back; nothing changes', () => {
  const { controller, view, session } = playground();
  const before = state(controller);
  view.maxAttempts = { text: '0', value: 0 };
  view.press('MaxAttempts');
  assert.equal(view.maxErrorText, 'Max attempts unchanged (still 3): maxAttempts must be an integer from 1 to 1000000, got 0.');
  assert.deepEqual(view.maxAttempts, { text: '3', value: 3 });
  view.maxAttempts = { text: ' ', value: Number.NaN };
  view.press('MaxAttempts');
  assert.equal(view.maxErrorText, 'Max attempts unchanged: the field is empty; enter a whole number from 1 to 1000000.');
  assert.deepEqual(state(controller), before);
  view.maxAttempts = { text: '5', value: 5 };
  view.press('MaxAttempts');
  assert.equal(view.maxErrorText, null);
  assert.equal(session.view.policy.maxAttempts, 5);
  controller.destroy();
});

test('Add job and Remove: a refused job is named by its field and changes nothing', () => {
  const { controller, view, session } = playground();
  view.job = { id: 'c', payload: 'charge order 3', key: null, behaviour: 'healthy', detail: '' };
  view.press('AddJob');
  assert.equal(view.jobErrorText, null);
  assert.equal(view.job.id, '', 'the fields are emptied');
  assert.equal(session.view.stats.ready, 3);
  const before = state(controller);
  view.job = { id: 'c', payload: 'again', key: null, behaviour: 'healthy', detail: '' };
  view.press('AddJob');
  assert.match(view.jobErrorText, /^Could not add the job: .*"c"/);
  assert.deepEqual(state(controller), before);
  view.press('Remove', 'c');
  assert.equal(session.view.stats.ready, 2);
  view.press('Remove', 'nobody');
  assert.match(view.refusals.at(-1)[0], /^Could not remove "nobody"/);
  controller.destroy();
});

test('a policy edit goes to the core; its refusal is said in the alert it came from and nothing changes', () => {
  const { controller, view, session } = playground();
  const alert = { name: 'backoff alert' };
  assert.equal(view.press('Policy', { backoff: { kind: 'fixed', baseMs: 250 } }, alert), true);
  assert.equal(session.view.policy.backoff.kind, 'fixed');
  assert.equal(view.alerts.get(alert), null);
  const before = state(controller);
  assert.equal(view.press('Policy', { backoff: { baseMs: -1 } }, alert), false);
  assert.match(view.alerts.get(alert), /^Not changed: .*baseMs/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('a preset loads with its summary; a crash preset plays and opens Crash and restart at the write that matters', async () => {
  const { controller, view, session } = playground();
  view.press('Preset', 'p');
  assert.match(view.last.notice, /^Poison message: .* Press Run or Forward to play it\.$/);
  assert.equal(session.cursor, 0);
  const opening = view.press('Preset', 'q');
  assert.equal(session.cursor, session.length, 'played to its end');
  assert.equal(view.crashView.opened, 0, 'the dialog opens once its module is there');
  await opening;
  assert.equal(view.crashView.opened, 1);
  assert.deepEqual(view.crashView.calls, [['findFirst']]);
  controller.destroy();
});

test('showFuture, showFields and fieldLabels: the future withheld from the cards, the fields checked by the core', () => {
  const { controller, view } = playground({}, { embed: { future: 'hidden' } });
  assert.equal(view.last.futureShown, false);
  assert.equal(view.withheld, true);
  assert.equal(view.last.shown.events.length, controller.session.view.eventsAtCursor, 'only what has happened');
  controller.showFuture(true);
  assert.equal(view.last.futureShown, true);
  assert.equal(view.withheld, false);
  controller.showFields('jitter');
  assert.deepEqual(view.pinned, ['backoff.jitter']);
  assert.throws(() => controller.showFields('jiggle'), /fields: expected .*got "jiggle"/);
  assert.deepEqual(controller.fieldLabels(['maxAttempts']).length, 1);
  controller.destroy();
});

test('captions narrate the authored script only while the history is that script', () => {
  const { controller, view } = playground({ scenario: AB }, { embed: { captions: ['zero', 'one', 'two', 'three'] } });
  assert.equal(view.last.caption, 'zero');
  view.press('Forward');
  assert.equal(view.last.caption, 'one');
  view.press('Scrub', 0);
  view.outcome = 'permanent';
  view.press('Step');
  assert.equal(view.last.caption, '', 'diverged from the authored script');
  controller.destroy();
});

test('single-key shortcuts (the view says which key was a command) go through the same flow as the buttons', () => {
  const { controller, view, session } = playground();
  view.press('Command', 'outcome', '2');
  assert.equal(view.outcome, 'transient');
  view.error = 'db timeout';
  view.press('Command', 'step');
  assert.equal(session.cursor, 1);
  view.press('Command', 'undo');
  assert.equal(session.cursor, 1, 'nothing to undo: nothing changes');
  view.press('Command', 'run');
  assert.equal(view.runningKind, 'run');
  view.press('Command', 'back');
  assert.equal(view.runningKind, null, 'a move pauses the run');
  assert.equal(session.cursor, 0);
  view.press('Command', 'preset', 'p');
  assert.match(view.last.notice, /^Poison message: /);
  view.press('Command', 'help');
  assert.equal(view.helpShown, true);
  controller.destroy();
});
