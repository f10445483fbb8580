// The lesson pages and the home page, as a newcomer meets them:
//   - every exercise of every lesson solved by clicks alone: its solution link is read by
//     the core (lab.parseScenario) and turned into the clicks a learner would make (set-up
//     fields for a changed policy, an outcome and Step per process, Lease, Settle, Next
//     event, Advance by, Replay, Redrive, Run for a simulated world, Crash and restart);
//     the page then shows ✓ (the core checked the goal) and fires dlq-goal;
//   - axe finds nothing (at 320 px: on the page and the first of each widget); headings nest (one h1, no level skipped); no sideways scrolling
//     at 320 px; with JavaScript off the prose is all there and each playground says it
//     needs JavaScript;
//   - the real-system buttons load a preset and show a snippet from the policy in force;
//   - the home page links both lessons, and an old index.html#v1;… link lands on the playground.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';
import { AxeBuilder, start, openPage, assertClean, screenshotPath, mountAll, axeViolations } from './harness.mjs';

let h;
let lab;
before(async () => { [h, lab] = await Promise.all([start(), loadLab()]); });
after(async () => { await h?.close(); });

const LESSONS = ['lesson-1.html', 'lesson-2.html'];
const OUTCOME_NAMES = {
  success: 'Success', transient: 'Transient failure', permanent: 'Permanent failure',
  undeserializable: 'Undeserializable', 'unknown-schema': 'Unknown schema', precondition: 'Precondition failed',
};

/** Locators for the playground inside <dlq-playground id=…>. */
function embedded(page, id) {
  const root = page.locator(`#${id} section.dlq`);
  return {
    root,
    button: (name) => root.getByRole('button', { name, exact: true }),
    field: (name) => root.getByLabel(name, { exact: true }),
    radio: (name) => root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name, exact: true }),
  };
}

async function openAdvanced(pg) {
  const details = pg.root.locator('details.dlq-advanced');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
}

async function setField(pg, label, value) {
  const field = pg.field(label);
  if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(String(value));
  else {
    await field.fill(String(value));
    await field.press('Tab');
  }
}

/** The set-up changes a learner makes to turn the start's policy into the solution's. */
async function applyPolicy(page, pg, from, to) {
  const changes = [];
  if (from.maxAttempts !== to.maxAttempts) changes.push(['Max attempts', to.maxAttempts]);
  const b0 = from.backoff;
  const b1 = to.backoff;
  if (b0.kind !== b1.kind) changes.push(['Backoff', b1.kind]);
  if (b0.baseMs !== b1.baseMs) changes.push(['Base delay (ms)', b1.baseMs]);
  if (b0.capMs !== b1.capMs) changes.push(['Cap (ms)', b1.capMs]);
  if (b0.jitter !== b1.jitter) changes.push(['Jitter', b1.jitter]);
  if (from.leaseMs !== to.leaseMs) changes.push(['Lease timeout (ms)', to.leaseMs]);
  if (from.seed !== to.seed) changes.push(['Seed', to.seed]);
  if (from.ordering !== to.ordering) changes.push(['Ordering', to.ordering]);
  if ((from.delayAt ?? 'broker') !== (to.delayAt ?? 'broker')) changes.push(['Delay lives in', to.delayAt ?? 'broker']);
  if (from.quarantine.retentionMs !== to.quarantine.retentionMs) changes.push(['Retention (ms)', to.quarantine.retentionMs]);
  if (from.quarantine.alarmDepth !== to.quarantine.alarmDepth) changes.push(['Alarm depth', to.quarantine.alarmDepth]);
  for (const [label, value] of changes) {
    if (label !== 'Max attempts') await openAdvanced(pg);
    await setField(pg, label, value);
  }
  // The side-effect and anti-pattern switches: the checkboxes the embed puts beside the controls.
  for (const group of ['effects', 'antiPatterns']) {
    for (const [key, on] of Object.entries(to[group])) {
      if (from[group][key] !== on) await pg.root.locator(`input[data-switch="${group}.${key}"]`).setChecked(on);
    }
  }
  if (Boolean(from.unsafeQuarantineOrder) !== Boolean(to.unsafeQuarantineOrder)) {
    // The switch is also in Crash and restart, for playgrounds that show no set-up.
    await pg.button('Crash and restart…').click();
    const dialog = pg.root.getByRole('dialog', { name: 'Crash and restart' });
    await dialog.getByLabel(/^Unsafe order/).setChecked(Boolean(to.unsafeQuarantineOrder));
    await dialog.getByRole('button', { name: 'Close' }).click();
  }
}

async function outcome(pg, name, error) {
  await pg.radio(OUTCOME_NAMES[name]).check();
  if (name !== 'success') await pg.field('Error text').fill(error ?? '');
}

/** One script action, as clicks. */
async function act(pg, action) {
  switch (action.type) {
    case 'process':
      await outcome(pg, action.outcome, action.error);
      await pg.button('Step').click();
      break;
    case 'replay':
      await pg.field('Job to replay').fill(action.id);
      await pg.button('Replay').click();
      break;
    case 'lease': await pg.button('Lease').click(); break;
    case 'settle': {
      const inFlight = pg.root.getByRole('combobox', { name: 'In flight', exact: true });
      await inFlight.selectOption(action.token, { timeout: 8000 }).catch(async (error) => {
        throw new Error(`settle ${action.token}: In flight offers ${JSON.stringify(await inFlight.locator('option').allTextContents())} (${error.message.split('\n')[0]})`);
      });
      await outcome(pg, action.outcome, action.error);
      await pg.button('Settle').click();
      break;
    }
    case 'advance':
      await setField(pg, 'Advance by (ms)', action.ms);
      await pg.button('Advance').click();
      break;
    case 'advanceToNext': await pg.button('Next event').click(); break;
    case 'releaseKey':
      await pg.field('Key to release').fill(action.key);
      await pg.button('Release key').click();
      break;
    case 'redrive':
      await setField(pg, 'Redrive up to', action.max);
      await pg.field('Entries').selectOption(action.class !== undefined ? `class:${action.class}`
        : action.reason !== undefined ? `reason:${action.reason}` : '');
      await pg.button('Redrive').click();
      break;
    case 'patch': {  // the card's Fix payload…, then Patch and replay: the patch and the replay after it
      const card = pg.root.locator(`.dlq-quarantine .dlq-list > li[data-id="${action.id}"]`);
      await card.locator('.dlq-patch > summary').click();
      await card.getByRole('textbox', { name: `New payload for ${action.id}` }).fill(action.payload);
      await card.getByRole('button', { name: `Patch and replay ${action.id}`, exact: true }).click();
      break;
    }
    default: throw new Error(`no click for ${action.type}`);
  }
}

/** Solves one exercise by clicks: returns what the page said. */
async function solve(page, exercise) {
  const [id, solution, crash] = await Promise.all(['for', 'solution', 'solution-crash'].map((a) => exercise.getAttribute(a)));
  const start = lab.parseScenario(await page.locator(`#${id}`).getAttribute('scenario'));
  const goal = lab.parseScenario(solution);
  const pg = embedded(page, id);
  await exercise.getByRole('button', { name: 'Start again' }).click();
  await applyPolicy(page, pg, start, goal);
  if (start.world && (start.actions ?? []).length === 0) {
    // A simulated world: the workers play it (Run plays the script, then the world).
    await setField(pg, 'Speed', '20');
    await pg.button('Run').click();
  } else {
    // A start that is already played (its script past the set-up) is the solution's prefix: the learner acts the rest.
    const played = (start.actions ?? []).slice(0, start.cursor ?? 0);
    const prefix = played.length > 0 && JSON.stringify(goal.actions.slice(0, played.length)) === JSON.stringify(played);
    const rest = goal.actions.slice(prefix ? played.length : 0);
    for (let i = 0; i < rest.length; i++) {
      await act(pg, rest[i]);
      // Patch and replay makes both actions: the replay of the patched job is done with it.
      if (rest[i].type === 'patch' && rest[i + 1]?.type === 'replay' && rest[i + 1].id === rest[i].id) i++;
    }
  }
  if (crash !== null) {
    await pg.button('Crash and restart…').click();
    const dialog = pg.root.getByRole('dialog', { name: 'Crash and restart' });
    if (crash === '') {
      await dialog.getByRole('button', { name: 'Find the write that matters' }).click();
    } else {
      await dialog.getByLabel('Crash after write').fill(crash);
      await dialog.getByRole('button', { name: 'Crash and restart', exact: true }).click();
    }
  }
  try {
    await exercise.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor({ timeout: 30_000 });
  } catch (error) {
    const clauses = await exercise.locator('.dlq-goal-clauses li').allTextContents();
    const recovery = crash === null ? '' : await pg.root.locator('.dlq-recovery').textContent();
    throw new Error(`${id}: the goal was not met by clicks: ${clauses.join(' | ')} ${recovery} (${error.message.split('\n')[0]})`);
  }
  if (crash !== null) await pg.root.getByRole('dialog', { name: 'Crash and restart' }).getByRole('button', { name: 'Close' }).click();
}

for (const lesson of LESSONS) {
  test(`${lesson}: every exercise is solved by clicks alone, and the core's ✓ shows`, async () => {
    const opened = await openPage(h.browser, `${h.base}${lesson}`);
    const { page } = opened;
    await page.evaluate(() => {
      window.goals = [];
      document.addEventListener('dlq-goal', (e) => window.goals.push(e.detail.goal));
    });
    // An exercise with no solution link (a refused report is no script action) is solved in ideas.test.mjs.
    const exercises = page.locator('dlq-exercise[solution]');
    const count = await exercises.count();
    assert.ok(count >= 6, `${count} exercises`);
    await mountAll(page);
    await exercises.first().locator('.dlq-goal-status').waitFor();
    for (let i = 0; i < count; i++) {
      const exercise = exercises.nth(i);
      // Not met before the learner acts.
      assert.match(await exercise.locator('.dlq-goal-status').textContent(), /^Not yet/, `exercise ${i + 1} starts unmet`);
      await solve(page, exercise);
    }
    const goals = await page.evaluate(() => window.goals);
    assert.equal(goals.length, count, 'one dlq-goal per exercise');
    assertClean(opened);
    await opened.context.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 320, height: 720 }]) {
    test(`${lesson} at ${viewport.width}px: axe clean, headings nest, no sideways scroll`, async () => {
      const opened = await openPage(h.browser, `${h.base}${lesson}`, { viewport });
      const { page } = opened;
      await mountAll(page);
      await page.locator('dlq-exercise .dlq-goal-status').first().waitFor();
      // One predict answered, so its reveal is checked too (the lesson map and the pinned fields are drawn).
      const predict = page.locator('dlq-predict').first();
      await predict.locator('.predict-choice').first().click();
      await predict.getByRole('button', { name: 'Check my answer' }).click();
      await predict.locator('.predict-result').filter({ hasText: 'The answer:' }).waitFor();
      // The first width checks every widget; the second, the page and the first of each widget.
      assert.deepEqual(await axeViolations(page, { firstOfEach: viewport.width !== 1280 }), []);
      const levels = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
        .filter((el) => !el.closest('dialog') && el.getClientRects().length > 0)
        .map((el) => Number(el.tagName[1])));
      assert.equal(levels.filter((l) => l === 1).length, 1, 'one h1');
      for (let i = 1; i < levels.length; i++) assert.ok(levels[i] <= levels[i - 1] + 1, `h${levels[i - 1]} then h${levels[i]}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, 'no sideways scrolling');
      if (viewport.width === 1280) await page.screenshot({ path: screenshotPath(lesson.replace('.html', '')), fullPage: false });
      assertClean(opened);
      await opened.context.close();
    });
  }

  test(`${lesson} without JavaScript: the prose is there, each playground says it needs JavaScript`, async () => {
    const context = await h.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${h.base}${lesson}`);
    const playgrounds = await page.locator('dlq-playground').count();
    assert.ok(playgrounds >= 6);
    assert.equal(await page.getByText('This interactive playground needs JavaScript.').count(), playgrounds);
    const words = (await page.locator('main').innerText()).split(/\s+/).length;
    assert.ok(words > 2500, `${words} words of prose`);
    for (const exercise of await page.locator('dlq-exercise').all()) assert.match(await exercise.innerText(), /Try it/);
    await context.close();
  });
}

test('real systems: a button loads the system\'s defaults, says where the lab differs, and shows a snippet from the policy', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const systems = page.locator('dlq-systems');
  await systems.scrollIntoViewIfNeeded();  // its playground mounts as the reader comes near, and its buttons with it
  await systems.getByRole('button', { name: 'Load Amazon SQS' }).click();
  await systems.getByText(/^Where the lab differs: SQS counts receives/).waitFor();
  const snippet = await systems.locator('pre code').textContent();
  assert.match(snippet, /"maxReceiveCount": 3/);
  assert.equal(await systems.getByRole('button', { name: 'Load Amazon SQS' }).getAttribute('aria-pressed'), 'true');
  await systems.getByRole('button', { name: 'Load Sidekiq' }).click();
  assert.match(await systems.locator('pre code').textContent(), /sidekiq_options retry: 25/);
  assertClean(opened);
  await opened.context.close();
});

test('real systems in lesson 2: Kafka Connect loads its own mode, plays its retry window and shows its connector JSON', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const systems = page.locator('dlq-systems');
  await systems.scrollIntoViewIfNeeded();
  const load = systems.getByRole('button', { name: /^Load Kafka Connect/ });
  await load.click();
  await systems.getByText(/^Where the lab differs: Kafka Connect retries for a length of time/).waitFor();
  await systems.getByText(/^Kafka Connect: a sink connector as teams set it up to keep going .*not its defaults, which stop the task/).waitFor();
  const snippet = await systems.locator('pre code').textContent();
  const config = JSON.parse(snippet).config;
  assert.equal(config['errors.tolerance'], 'all');
  assert.equal(config['errors.deadletterqueue.topic.name'], 'orders-dlq');
  assert.equal(config['errors.retry.timeout'], '60000');
  assert.equal(await load.getAttribute('aria-pressed'), 'true');
  // The snippet is written from the playground's own queue (policy()): a lab-mode queue would read
  // errors.tolerance none, so these settings show the playground beside it now runs the kafka-connect mode.
  assert.match(config['dlq-lab.policy'], /^maxAttempts 1; backoff exponential 300\.\.60000 ms; .*ordering stall/);
  assertClean(opened);
  await opened.context.close();
});

test('the home page links both lessons and the playground; an old index.html scenario link lands on the playground', async () => {
  const opened = await openPage(h.browser, null);
  const { page } = opened;
  await page.goto(`${h.base}index.html`);
  for (const name of [/Lesson 1: poison messages/, /Lesson 2: time, leases/, /^The playground$/]) {
    assert.equal(await page.getByRole('main').getByRole('link', { name }).count(), 1, String(name));
  }
  // Each lesson card counts its exercises from the lesson page (fetched): wait for both counts.
  for (const card of await page.locator('.home-progress').all()) await card.getByText(/exercises done/).waitFor();
  const results = await new AxeBuilder({ page }).analyze();
  assert.deepEqual(results.violations.map((v) => v.id), []);
  await page.setViewportSize({ width: 320, height: 720 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scroll at 320 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('about:blank');
  await page.goto(`${h.base}index.html#v1;m3;ja:x,b:y;at:db%20timeout;c0`);
  await page.waitForURL(/playground\.html#v1;m3;ja:x,b:y/);
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('section.dlq .dlq-list > li .dlq-id').first().textContent(), 'a');
  assertClean(opened);
  await opened.context.close();
});

test('an embed with a bad attribute names it instead of showing a playground', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const message = await page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.setAttribute('features', 'clok');
    document.querySelector('main').append(el);
    try { await el.ready; } catch { /* shown in the element */ }
    return el.textContent;
  });
  assert.equal(message, 'The playground could not start: features: expected "all", "basic" or a list of clock, classes, ordering, operator, durability, world, got "clok"');
  await opened.context.close();
});

test('an exercise with a goal the core refuses, or a for that names no playground, says so by name', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  // The goal is read by the core, which comes with the playground: it is named once l1-tail mounts.
  await page.locator('#l1-tail').scrollIntoViewIfNeeded();
  const texts = await page.evaluate(async () => {
    const out = [];
    for (const [target, goal] of [['l1-tail', 'attempts b >> 3'], ['nowhere', 'completed a']]) {
      const el = document.createElement('dlq-exercise');
      el.setAttribute('for', target);
      el.setAttribute('goal', goal);
      document.querySelector('main').append(el);
      for (let i = 0; i < 100 && !el.querySelector('.dlq-fatal'); i++) await new Promise((r) => setTimeout(r, 20));
      out.push(el.querySelector('.dlq-fatal')?.textContent ?? '(nothing said)');
    }
    return out;
  });
  assert.match(texts[0], /^This exercise could not start: goal: clause 1 "attempts b >> 3": expected a comparison/);
  assert.equal(texts[1], 'This exercise could not start: for: expected the id of a <dlq-playground> on this page, got "nowhere".');
  await opened.context.close();
});
