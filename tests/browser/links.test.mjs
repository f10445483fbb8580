// Scenario links: every released fixture keeps loading (its event log equals
// the fixture timeline), and bad links show a specific alert (named by the
// core's error code: malformed, out of range, too long, …) over a clean default
// scenario — never a blank page. Fragments that are not scenario links at all
// are tested in url-sync.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { start, openPage, playground, setFragment, FIXTURES, SCREENSHOTS, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });


const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.link')).sort();

test('there are fixture links to check', () => {
  assert.ok(fixtures.length >= 4, `found ${fixtures.length}`);
});

// The fixtures share one page, as a reader pasting one link after another into the address bar
// would: the first loads with the page, each next one by a change of the fragment (the same
// reading of the link as at load; a fresh page for each cost a second of CPU apiece).
let shared = null;
after(async () => { await shared?.context.close(); });

/** The event log once it equals `expected`, or what it was after 8 s. */
async function logWhenLoaded(pg, expected) {
  let lines = [];
  for (const deadline = Date.now() + 8000; Date.now() < deadline;) {
    lines = await pg.logLines();
    if (JSON.stringify(lines) === JSON.stringify(expected)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return lines;
}

for (const name of fixtures) {
  test(`fixture ${name} loads with the expected event log`, async () => {
    const link = readFileSync(path.join(FIXTURES, name), 'utf8').trim();
    const expected = readFileSync(path.join(FIXTURES, name.replace(/\.link$/, '.timeline.txt')), 'utf8').trimEnd().split('\n');
    if (shared === null) {
      shared = await openPage(h.browser, `${h.base}playground.html#${link}`);
    } else {
      await setFragment(shared.page, link);
    }
    const opened = shared;
    const pg = playground(opened.page);
    assert.deepEqual(await logWhenLoaded(pg, expected), expected);
    assert.equal(await opened.page.getByRole('alert').count(), 0);
    const { parsed, playable } = await opened.page.evaluate(async (text) => {
      const { loadLab } = await import('./wasm/index.mjs');
      const lab = await loadLab();
      return { parsed: lab.parseScenario(text), playable: lab.playableActions(text).playable };
    }, link);
    assert.equal(await pg.cursor(), parsed.cursor);
    // The page keeps the whole scenario: the link it gives (the Link field) is the fixture's,
    // policy and all (a redo tail that no longer plays is dropped, as docs/playground.md says).
    if (playable === parsed.actions.length) {
      await opened.page.waitForFunction((text) => {
        const field = document.querySelector('input.dlq-link[id$="-link"]');
        return field !== null && decodeURIComponent(field.value).endsWith(decodeURIComponent(`#${text}`));
      }, link);
    }
    // The clock's kinds appear in the legend only when the timeline has them.
    const kinds = new Set(parsed.actions.map((a) => a.type));
    const leasedInLegend = opened.page.locator('.dlq-legend li[data-kind="leased"]');
    assert.equal(await leasedInLegend.isVisible(), kinds.has('lease'), 'the "Leased" legend entry');
    if (name === 'v2-backoff-jitter.link') {
      await opened.page.screenshot({ path: path.join(SCREENSHOTS, 'v2-backoff-jitter.png'), fullPage: true });
    }
    assertClean(opened);
  });
}

const BAD_LINKS = [
  ['malformed', '#v1;garbage', /This link is malformed and could not be loaded: scenario link is malformed at character 4: expected ';m' and the policy's maxAttempts, got 'g'/],
  ['out-of-range', '#v1;m0', /This link has a value out of range: scenario link: maxAttempts must be an integer from 1 to 1000000, got 0\./],
  ['cursor past the script', '#v1;m3;ja:x;as;c5', /This link has a value out of range: scenario link: the cursor must be from 0 to 1 \(the number of actions\), got 5\./],
  ['a script the core refuses', '#v1;m3;ja:x;arb', /This link is well-formed but describes a run that cannot happen: .*replay\("b"\)/],
  // (the core's wording of the size limit is being reworded: match what both say)
  ['over-long', `#v1;m3;ja:${'x'.repeat(9000)}`, /This link is too long to load: scenario link .*\b8192\b.*\b9009\b|This link is too long to load: scenario link .*\b9009\b.*\b8192\b/],
  ['future version', '#v3;m3;ja:x', /This link uses a version of the link format that this page cannot read: scenario link is format v3; this build of dlq-lab reads v1 and v2 \(the link needs a newer dlq-lab\)/],
  ['older unknown version', '#v0;m3;ja:x', /This link uses a version of the link format that this page cannot read: scenario link is format v0; this build of dlq-lab reads v1 and v2\./],
];

for (const [kind, hash, message] of BAD_LINKS) {
  test(`a ${kind} link shows its alert and the default scenario`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html${hash}`);
    const pg = playground(opened.page);
    const alert = opened.page.getByRole('alert');
    assert.equal(await alert.count(), 1);
    assert.match(await alert.textContent(), message);
    assert.match(await alert.textContent(), /Showing the default scenario instead\./);
    if (kind !== 'malformed') assert.doesNotMatch(await alert.textContent(), /malformed/, 'only a malformed link is called malformed');
    // Not blank: the clean default (the a/b example at step 0) is there and works.
    assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
    assert.equal(await pg.step(), 0);
    await pg.button('Step').click();
    assert.equal(await pg.step(), 1);
    assertClean(opened);
    await opened.context.close();
  });
}

test('a bad link typed into the address bar later also alerts; a good one loads', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await page.evaluate(() => { location.hash = 'v9;m1'; });
  await page.getByRole('alert').waitFor();
  assert.match(await page.getByRole('alert').textContent(), /version of the link format that this page cannot read/);
  await pg.button('Dismiss').click();
  assert.equal(await page.getByRole('alert').count(), 0);
  const link = readFileSync(path.join(FIXTURES, 'v1-poison.link'), 'utf8').trim();
  await page.evaluate((text) => { location.hash = text; }, link);
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.step === '3');
  assert.deepEqual(await pg.ids('Quarantine'), ['poison']);
  assertClean(opened);
  await opened.context.close();
});
