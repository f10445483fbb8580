// The playground's link (web/src/playground/url-sync.mjs) through its controller, over a
// fake view and window (playground-fakes.mjs): the share box shows the core's link after
// the debounce; with sync-url the address bar's scenario link loads, is kept up to date
// without a history entry per change, a refused one is held until the scenario changes,
// a preset leaves the link before it in the history, and a fragment that is not a
// scenario link is the browser's (the link is put straight back).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playground, AB } from './playground-fakes.mjs';

const POISON_PAIR = 'v1;m3;ja:1,b:2;at:x,s,s;c1';

test('without sync-url the address bar is never touched; the share box shows the link once the burst settles', async () => {
  const { controller, view, timers, host } = playground();
  assert.equal(view.share.url, null, 'debounced: not written during the draw');
  timers.flush();
  assert.equal(view.share.url, `https://lab.test/playground.html#${AB}`);
  view.press('Step');
  await view.share.onCopy();
  assert.notEqual(controller.link(), AB);
  assert.deepEqual(view.share.copied, [`https://lab.test/playground.html#${controller.link()}`], 'Copy link writes the pending link first');
  assert.equal(host.location.hash, '');
  assert.equal(host.pushes, 0);
  controller.destroy();
  assert.equal(timers.timeouts.size, 0, 'destroy() leaves no write pending');
});

test('sync-url: the hash\'s link loads, and each change replaces it (no history entry per step)', () => {
  const { controller, view, timers, host, session } = playground({ syncUrl: true }, { hash: `#${POISON_PAIR}` });
  assert.equal(session.cursor, 1);
  assert.equal(view.keys.pageWide, true);
  view.press('Step');
  timers.flush();
  assert.equal(host.location.hash, `#${controller.link()}`);
  assert.equal(host.pushes, 0);
  assert.equal(view.share.url, `https://lab.test/playground.html#${controller.link()}`);
  controller.destroy();
  assert.equal(host.listeners.has('hashchange'), false, 'destroy() stops listening');
});

test('sync-url: a refused hash link shows the default and stays in the address bar until the scenario changes', () => {
  const { controller, view, timers, host } = playground({ syncUrl: true }, { hash: '#v1;m3;jz' });
  assert.equal(view.linkAlert.text, 'v1;m3;jz');
  assert.equal(controller.link(), AB);
  timers.flush();
  assert.equal(host.location.hash, '#v1;m3;jz', 'held: the reader can still copy what was refused');
  view.press('Step');
  timers.flush();
  assert.equal(host.location.hash, `#${controller.link()}`);
  assert.equal(host.pushes, 1, 'a new entry: Back returns to the refused link');
  controller.destroy();
});

test('sync-url: another scenario link in the address bar loads; any other fragment gets the link put back', () => {
  const { controller, timers, host, session } = playground({ syncUrl: true });
  timers.flush();
  host.navigate(`#${POISON_PAIR}`);
  assert.equal(controller.link(), POISON_PAIR);
  assert.equal(session.cursor, 1);
  host.navigate('#top');
  assert.equal(host.location.hash, `#${POISON_PAIR}`, 'written at once, not after the debounce');
  const pushes = host.pushes;
  host.navigate(`#${POISON_PAIR}`);
  assert.equal(host.pushes, pushes, 'the same link again: nothing to load');
  controller.destroy();
});

test('sync-url: a link someone else put in the address bar is not overwritten before its hashchange arrives', () => {
  const { controller, view, timers, host } = playground({ syncUrl: true });
  timers.flush();
  view.press('Step');
  host.location.hash = `#${POISON_PAIR}`;  // its hashchange event is still to come
  timers.flush();
  assert.equal(host.location.hash, `#${POISON_PAIR}`);
  controller.destroy();
});

test('sync-url: a preset writes the pending change first, then adds a history entry so Back undoes the preset', () => {
  const { controller, view, timers, host } = playground({ syncUrl: true });
  timers.flush();
  view.press('Step');
  const stepped = controller.link();
  view.press('Preset', 'p');
  assert.equal(host.location.hash, `#${stepped}`, 'the step\'s link is written before the preset loads');
  timers.flush();
  assert.equal(host.location.hash, `#${controller.link()}`);
  assert.equal(host.pushes, 1);
  controller.destroy();
});
