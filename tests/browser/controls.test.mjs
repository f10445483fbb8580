// Playground v2's controls, driven by accessible name like a learner would: the
// capstone's outcomes, leases, the clock, the simulated world (Play and Run), the
// operator's replay / release / redrive, snapshots, crash and restart, and the
// fixes from trying the page (step along a script, Undo, a second replay, one
// shortcut switch for every playground). Each capstone rule is shown on the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, assertClean, screenshotPath } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

async function open(hash = '', viewport) {
  const opened = await openPage(h.browser, `${h.base}playground.html${hash === '' ? '' : `#${hash}`}`, viewport ? { viewport } : undefined);
  return { ...opened, pg: playground(opened.page) };
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** A test of the controls, run at desktop and at phone size (the same accessible names at both). */
function both(name, fn) {
  for (const viewport of [DESKTOP, PHONE]) test(`${name} (${viewport.width}×${viewport.height})`, () => fn(viewport));
}

const visible = (locator) => locator.isVisible();
const lastLog = async (pg) => (await pg.logLines()).at(-1);
const position = async (pg) => (await pg.root.locator('.dlq-position').textContent()).trim();

/** Plays the loaded script to its end with Run at the fastest speed. */
async function runToEnd(pg) {
  await pg.field('Speed').selectOption('20');
  await pg.button('Run').click();
  await pg.root.locator('.dlq-run-status').filter({ hasText: /end/ }).waitFor({ timeout: 30_000 });
}

async function axe(page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

both('the capstone controls stay out of lesson 1 and appear for a capstone scenario', async (viewport) => {
  const lesson = await open('', viewport);
  assert.equal(await visible(lesson.pg.button('Lease')), false);
  assert.equal(await lesson.pg.root.locator('input[value="undeserializable"]').count(), 1);
  assert.equal(await visible(lesson.pg.root.locator('input[value="undeserializable"]')), false);
  assert.equal(await visible(lesson.pg.button('Replay')), true, 'replay by id is lesson 1 too');
  await lesson.context.close();
  const capstone = await open('v2;m3;l1000;s1;ja:,b:', viewport);
  for (const name of ['Lease', 'Next event', 'Play', 'Settle', 'Crash worker', 'Advance', 'Release key', 'Redrive', 'Snapshot', 'Crash and restart…']) {
    assert.equal(await visible(capstone.pg.button(name)), true, name);
  }
  for (const name of ['Undeserializable', 'Unknown schema', 'Precondition failed']) {
    assert.equal(await visible(capstone.pg.radio(name)), true, name);
  }
  assertClean(capstone);
  await capstone.context.close();
});

both('lease, settle, crash a worker, the next event and advance by: each is one script action', async (viewport) => {
  const { page, pg, ...opened } = await open('v2;m3;l1000;s1;ja:,b:', viewport);
  await pg.button('Lease').click();
  assert.match(await lastLog(pg), /leased "a" 1\/3 lease lease-1 until 1000/);
  await pg.radio('Unknown schema').check();
  await pg.field('Error text').fill('schema v9');
  await pg.button('Settle').click();
  assert.match((await pg.logLines()).join('\n'), /attempt "a" 1\/3 unknown-schema error "schema v9" lease lease-1 -> quarantined/);
  assert.match(await pg.why(), /schema/);
  await pg.button('Lease').click();
  await pg.button('Crash worker').click();
  assert.match((await pg.logLines()).join('\n'), /at 1000ms expired "b" 1\/3 lease lease-2/);
  await pg.button('Next event').click();
  assert.match(await pg.why(), /Nothing is waiting on the clock/);
  await pg.field('Advance by (ms)').fill('250');
  await pg.button('Advance').click();
  assert.match(await position(pg), /action 5 of 5/);
  // The link carries every action (written 120 ms after the last change): reloading it gives the same log.
  await page.waitForFunction(() => document.querySelector('input.dlq-link[id$="-link"]').value.endsWith(',w250'));
  const link = await pg.field('Link').inputValue();
  const log = await pg.logLines();
  const again = await open(link.slice(link.indexOf('#') + 1));
  assert.deepEqual(await again.pg.logLines(), log);
  assertClean({ ...opened, page });
  await opened.context.close();
  await again.context.close();
});

both('a consumer crash is counted by the queue: the world plays it, Run shows it', async (viewport) => {
  const { pg, ...opened } = await open('', viewport);
  await pg.button('Consumer crash').click();
  assert.match(await pg.why(), /lease expires/);
  await runToEnd(pg);
  const completed = await pg.root.getByRole('region', { name: 'Completed' }).locator('.dlq-list > li').allTextContents();
  assert.equal(completed.length, 3);
  assert.ok(completed.some((t) => /^a/.test(t) && /2 attempts/.test(t)), `a completed after 2 attempts: ${completed}`);
  assert.match((await pg.logLines()).join('\n'), /expired "a" 1\/3 lease lease-1/);
  assertClean(opened);
  await opened.context.close();
});

/** The times of every attempt number `n` in the log, e.g. 2 → [250, 250, …]. */
function attemptTimes(lines, n) {
  return lines.flatMap((line) => {
    const m = line.match(new RegExp(`at (\\d+)ms attempt "j\\d" ${n}/6`));
    return m ? [Number(m[1])] : [];
  });
}

both('jitter spreads the retries: without it a storm retries together, with full jitter it does not', async (viewport) => {
  const spread = {};
  for (const name of ['Storm, no jitter', 'Storm, full jitter']) {
    const { pg, ...opened } = await open('', viewport);
    await pg.button(name).click();
    await runToEnd(pg);
    const second = attemptTimes(await pg.logLines(), 2);
    assert.equal(second.length, 6, `${name}: six second attempts`);
    spread[name] = new Set(second).size;
    assertClean(opened);
    await opened.context.close();
  }
  assert.equal(spread['Storm, no jitter'], 1, 'every second attempt at the same millisecond');
  assert.ok(spread['Storm, full jitter'] >= 4, `full jitter spreads them (${spread['Storm, full jitter']} distinct times)`);
});

both('an outage outlasted by backoff completes everything; one that outlasts the budget quarantines healthy jobs', async (viewport) => {
  for (const [name, completed, quarantined] of [['Outage outlasted', 4, 0], ['Outage exhausts budget', 0, 4]]) {
    const { pg, ...opened } = await open('', viewport);
    await pg.button(name).click();
    await runToEnd(pg);
    assert.equal(await pg.root.getByRole('region', { name: 'Completed' }).locator('.dlq-list > li').count(), completed, name);
    assert.equal(await pg.root.getByRole('region', { name: 'Quarantine' }).locator('.dlq-list > li').count(), quarantined, name);
    assertClean(opened);
    await opened.context.close();
  }
});

test('a set-up change in a world scenario plays the world again under it: a longer base delay outlasts the outage', async () => {
  for (const undo of [false, true]) {
    const { page, pg, ...opened } = await open('');
    await pg.button('Outage exhausts budget').click();
    await pg.root.getByText('Advanced: time, classes, order').click();
    await pg.field('Base delay (ms)').fill('1000');
    await pg.field('Base delay (ms)').press('Tab');
    await pg.root.getByText(/The simulated world played the script past this point again under the new set-up/).first().waitFor();
    // One Undo brings the old script (and set-up) back: played to its end, the budget runs out again.
    if (undo) await pg.button('Undo').click();
    await runToEnd(pg);
    assert.equal(await pg.root.getByRole('region', { name: 'Completed' }).locator('.dlq-list > li').count(), undo ? 0 : 4);
    assert.equal(await pg.root.getByRole('region', { name: 'Quarantine' }).locator('.dlq-list > li').count(), undo ? 4 : 0);
    assertClean({ ...opened, page });
    await opened.context.close();
  }
});

both('crash during quarantine: the unsafe order lists a lost job, the safe order keeps it once', async (viewport) => {
  const { page, pg, ...opened } = await open('', viewport);
  await pg.button('Crash, unsafe order').click();
  const dialog = page.getByRole('dialog', { name: 'Crash and restart' });
  await dialog.waitFor();
  await dialog.getByText('Lost: "b".').waitFor();
  assert.deepEqual(await axe(page), [], 'crash dialog open');
  await page.screenshot({ path: screenshotPath('crash-unsafe') });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await pg.button('Crash, safe order').click();
  await dialog.getByText('Found in two places and kept once: "b".').waitFor();
  assert.equal(await dialog.getByText('Lost: none.').count(), 1);
  // Any write can be chosen by hand: the last one recovers everything.
  await dialog.getByLabel('Crash after write').fill('1');
  await dialog.getByRole('button', { name: 'Crash and restart' }).click();
  await dialog.getByText(/Restarted from 1 of \d+ writes/).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  assertClean({ ...opened });
  await opened.context.close();
});

both('Step at a scripted position steps along the script; a replaced script comes back with Undo', async (viewport) => {
  const { pg, ...opened } = await open('', viewport);  // the a/b example: t, s, s
  assert.match(await position(pg), /action 0 of 3/);
  await pg.radio('Transient failure').check();
  await pg.field('Error text').fill('db timeout');
  await pg.button('Step').click();
  assert.match(await position(pg), /action 1 of 3/, 'the scripted step was taken, the script kept');
  await pg.button('Back').click();
  await pg.radio('Permanent failure').check();
  await pg.button('Step').click();
  assert.match(await position(pg), /action 1 of 1/);
  assert.match(await pg.root.locator('.dlq-why').textContent(), /replaced the script's 3 later actions/);
  await pg.button('Undo').click();
  assert.match(await position(pg), /action 0 of 3/);
  assert.equal(await visible(pg.button('Undo')), false);
  assertClean(opened);
  await opened.context.close();
});

both('a second replay of the same id is possible and visibly returns false', async (viewport) => {
  const { pg, ...opened } = await open('v1;m1;ja:x;ap', viewport);
  await pg.field('Job to replay').fill('a');
  await pg.button('Replay').click();
  assert.match(await pg.why(), /replayed "a"/);
  await pg.button('Replay').click();
  assert.match(await pg.why(), /replay\("a"\) returned false/);
  assertClean(opened);
  await opened.context.close();
});

both('the operator releases a key and redrives the quarantine', async (viewport) => {
  const { pg, ...opened } = await open('v2;m1;s1;ok;ja:x:k,b:y:k;ap', viewport);
  await pg.field('Key to release').fill('k');
  await pg.button('Release key').click();
  assert.match(await lastLog(pg), /key-released "a" key "k"/);
  await pg.button('Release key').click();
  assert.match(await pg.why(), /No quarantined job holds key "k"/);
  await pg.button('Redrive').click();
  assert.match((await pg.logLines()).join('\n'), /replayed "a"/);
  assertClean(opened);
  await opened.context.close();
});

both('Snapshot shows the core\'s snapshot text', async (viewport) => {
  const { page, pg, ...opened } = await open('v2;m3;l1000;s1;ja:,b:;al', viewport);
  await pg.button('Snapshot').click();
  const dialog = page.getByRole('dialog', { name: 'Snapshot' });
  const text = await dialog.getByLabel('Snapshot text').inputValue();
  assert.match(text, /^dlq-snapshot 1\npolicy 3 /);
  assert.match(text, /\nlease 0 0 1000 1 active /);
  await dialog.getByRole('button', { name: 'Close' }).click();
  assertClean(opened);
  await opened.context.close();
});

both('turning single-key shortcuts off in one playground turns them off in every playground on the page', async () => {
  const opened = await openPage(h.browser, `${h.base}embed.html`);
  const { page } = opened;
  const first = playground(page, 0);
  const second = playground(page, 1);
  // A help dialog is built when it first opens (keyboard.mjs): until then it is empty.
  const helpSizes = () => page.locator('dialog.dlq-help').evaluateAll((all) => all.map((d) => d.childElementCount));
  assert.ok((await helpSizes()).every((n) => n === 0), 'no help dialog built before it is asked for');
  await first.root.getByRole('button', { name: 'Shortcuts' }).click();
  await page.getByRole('dialog').getByLabel('Single-key shortcuts').uncheck();
  await page.keyboard.press('Escape');
  const before = await second.cursor();
  await second.button('Forward').focus();
  await page.keyboard.press('f');
  assert.equal(await second.cursor(), before, 'the second playground ignores F too');
  await second.root.getByRole('button', { name: 'Shortcuts' }).click();
  // The second playground's dialog was built after the change, from the page's state.
  assert.equal(await page.getByRole('dialog').filter({ visible: true }).getByLabel('Single-key shortcuts').isChecked(), false);
  await page.keyboard.press('Escape');
  const sizes = await helpSizes();
  assert.ok(sizes[0] > 0 && sizes[1] > 0 && sizes.slice(2).every((n) => n === 0), `only the two opened dialogs are built: ${sizes}`);
  assertClean(opened);
  await opened.context.close();
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`a capstone scenario at ${viewport.width}×${viewport.height}: axe clean, no sideways scroll`, async () => {
    const { page, pg, ...opened } = await open('v2;m3;bx100.2000f;l500;s7;ok;q5000.2;ja:one:acct-7,b:two:acct-7,c:three:acct-9,d:four,e:five,f:six;ap:card%20declined,l,t:db%20timeout,l,v:schema%209,w10', viewport);
    assert.deepEqual(await axe(page), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow}px)`);
    await page.screenshot({ path: screenshotPath(`capstone-${viewport.width}`), fullPage: true });
    if (viewport.width < 600) {
      // The phone's sticky bar keeps Step and the latest explanation on screen.
      await page.mouse.wheel(0, 1500);
      const bar = pg.root.locator('.dlq-bar');
      assert.equal(await bar.isVisible(), true);
      assert.match(await bar.textContent(), /Step/);
    }
    assertClean({ ...opened, page });
    await opened.context.close();
  });
}

/** Each capstone preset, loaded by its button and moved to the end of its script with the slider's End key. */
const PRESET_CHECKS = {
  'Storm, no jitter': async (pg) => assert.equal((await pg.ids('Completed')).length, 6),
  'Storm, full jitter': async (pg) => assert.equal((await pg.ids('Completed')).length, 6),
  'Outage outlasted': async (pg) => assert.equal((await pg.ids('Completed')).length, 4),
  'Outage exhausts budget': async (pg) => assert.equal((await pg.ids('Quarantine')).length, 4),
  'Consumer crash': async (pg) => assert.match((await pg.logLines()).join('\n'), /expired "a"/),
  'Unknown schema': async (pg) => {
    assert.deepEqual(await pg.ids('Quarantine'), ['v9']);
    assert.match((await pg.logLines()).join('\n'), /alert "v9" class unknown-schema/);
  },
  'Hold the key': async (pg) => {
    const done = await pg.ids('Completed');
    assert.ok(done.indexOf('a1') < done.indexOf('a2'), `account 7 in order: ${done}`);
    assert.ok(done.indexOf('b1') < done.indexOf('a1'), `account 9 flows past: ${done}`);
    assert.doesNotMatch((await pg.logLines()).join('\n'), /reorder/);
  },
  'Skip past': async (pg) => assert.match((await pg.logLines()).join('\n'), /reorder "a2" key "acct-7" overtook "a1"/),
  'Stall all': async (pg) => assert.deepEqual(await pg.ids('Completed'), ['a1', 'a2', 'b1', 'b2']),
  'Evidence expires': async (pg) => assert.match((await pg.logLines()).join('\n'), /evidence-expired "bad"/),
  'Alarm on a burst': async (pg) => assert.match((await pg.logLines()).join('\n'), /alarm-raised "p\d" depth 2/),
};

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`every capstone preset at ${viewport.width}×${viewport.height}: its button, its summary, its rule at the end`, async () => {
    const { page, pg, ...opened } = await open('', viewport);
    for (const [name, check] of Object.entries(PRESET_CHECKS)) {
      await pg.button(name).click();
      assert.match(await pg.why(), new RegExp(`^${name.replace(/[()]/g, '\\$&')}: `), `${name} says what it shows`);
      await pg.field('Position in script').press('End');
      await check(pg);
    }
    assertClean({ ...opened, page });
    await opened.context.close();
  });
}

both('the a/b example with backoff is a v2 link under 300 characters', async (viewport) => {
  const { page, pg, ...opened } = await open('v2;m3;bx100.5000f;s1;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,n,s', viewport);
  await page.waitForFunction(() => document.querySelector('input.dlq-link[id$="-link"]').value.includes('#v2;'));
  const link = await pg.field('Link').inputValue();
  const fragment = link.slice(link.indexOf('#') + 1);
  assert.ok(fragment.length < 300, `${fragment.length} characters`);
  assertClean({ ...opened, page });
  await opened.context.close();
});

both('the Advanced set-up changes the policy and the world through the core, and names what it refuses', async (viewport) => {
  const { page, pg, ...opened } = await open('', viewport);
  await pg.root.getByText('Advanced: time, classes, order').click();
  await pg.field('Backoff').selectOption('exponential');
  await pg.field('Base delay (ms)').fill('200');
  await pg.field('Base delay (ms)').press('Tab');
  await pg.field('Jitter').selectOption('full');
  await page.waitForFunction(() => document.querySelector('input.dlq-link[id$="-link"]').value.includes(';bx200.60000f;'));
  // A cap below the base is refused by the core, named, and nothing changes.
  await pg.field('Cap (ms)').fill('100');
  await pg.field('Cap (ms)').press('Tab');
  await pg.root.getByText(/Not changed: backoff\.capMs must be an integer from backoff\.baseMs \(200\)/).waitFor();
  await page.waitForFunction(() => document.querySelector('input.dlq-link[id$="-link"]').value.includes(';bx200.60000f;'));
  // The class table and the world.
  await pg.root.getByLabel('precondition: max attempts (0: the policy\'s)').fill('3');
  await pg.root.getByLabel('precondition: max attempts (0: the policy\'s)').press('Tab');
  await pg.field('Workers').fill('4');
  await pg.field('Workers').press('Tab');
  await page.waitForFunction(() => /;fqb3\..*;y4\.100;/.test(document.querySelector('input.dlq-link[id$="-link"]').value));
  // A class's own delay: the transient class leaves the policy's backoff for a fixed 300 ms.
  await pg.root.getByLabel('transient: delay').selectOption('fixed');
  await pg.root.getByLabel('transient: base delay (ms)').fill('300');
  await pg.root.getByLabel('transient: base delay (ms)').press('Tab');
  await page.waitForFunction(() => /;ftb0\.f300\./.test(document.querySelector('input.dlq-link[id$="-link"]').value));
  assert.match(await pg.root.locator('tr', { hasText: 'transient' }).first().textContent(), /cap \d+ ms, jitter none/);
  // A base of 0 is refused by name, under the class.
  await pg.root.getByLabel('transient: base delay (ms)').fill('0');
  await pg.root.getByLabel('transient: base delay (ms)').press('Tab');
  await pg.root.getByText(/Not changed: classes\.transient\.backoff\.baseMs must be an integer/).waitFor();
  await pg.field('Workers').fill('99');
  await pg.field('Workers').press('Tab');
  await pg.root.getByText('Not changed: world.workers must be an integer from 1 to 64, got 99.').waitFor();
  assertClean({ ...opened, page });
  await opened.context.close();
});
