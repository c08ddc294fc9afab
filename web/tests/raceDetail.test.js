// The race detail page: both sites side by side with their source, why the
// pair races, its history; and a hostile file name that must stay text.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPage, screenshot } from './support/browser.js';
import { open, settled, signIn } from './support/dashboard.js';
import { HOSTILE_FILE, startScenario, stopScenario } from './support/scenario.js';

const LIMIT = { timeout: 60_000 };

// Opens the detail page of the one race of `kernel` by clicking its row.
async function openRaceOf(page, server, kernel) {
  await open(page, server, `/races?project=shop&kernel=${kernel}`);
  await page.click('table.races tbody tr a.race-link');
  await settled(page);
}

// Values the server leaves at their defaults must not leak into the page
// as "undefined", "unspecified" or stray text between the fields.
async function assertNoPlaceholders(page) {
  assert.doesNotMatch(await page.textContent('main'), /undefined|unspecified|NaN|\[object/i);
  const strayText = await page.$$eval('dl.facts, table.witness tbody', (lists) => lists.flatMap(
    (list) => [...list.childNodes].filter((n) => n.nodeType !== Node.ELEMENT_NODE).map((n) => n.textContent)));
  assert.deepEqual(strayText, []);
}

function siteCard(page, title) {
  return page.locator(`section.site-card[aria-label="${title}"]`);
}

describe('race detail', () => {
  let scenario;
  let page;

  before(async () => {
    scenario = await startScenario();
    page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
  });
  after(() => stopScenario(scenario));

  test('shows both access sites with the racing lines highlighted', LIMIT, async () => {
    await openRaceOf(page, scenario.server, 'histogram');
    assert.match(new URL(page.url()).pathname, /^\/races\/\d+$/);
    const first = siteCard(page, 'First access');
    const second = siteCard(page, 'Second access');
    assert.match(await first.locator('.site-location').textContent(), /src\/histogram\.cu:14:5/);
    assert.match(await second.locator('.site-location').textContent(), /src\/histogram\.cu:14:15/);
    assert.equal(await first.locator('.excerpt .line').count(), 7);
    assert.deepEqual(await first.locator('.excerpt .line.racing').evaluateAll(
      (lines) => lines.map((l) => l.dataset.line)), ['14']);
    assert.match(await first.locator('.line.racing .line-text').textContent(), /bins\[b\] = bins\[b\] \+ 1;/);
    assert.match(await first.locator('.expression').textContent(), /^bins\[b\]$/);
    assert.equal(await first.locator('.access-kind').textContent(), 'Write');
    assert.equal(await second.locator('.access-kind').textContent(), 'Read');
    // Side by side: the second card starts to the right of the first.
    const [a, b] = [await first.boundingBox(), await second.boundingBox()];
    assert.ok(b.x > a.x + a.width - 1, 'the two sites are side by side');
    await screenshot(page, 'race-detail-histogram');
  });

  test('explains the race: class, missing synchronization, witness, host facts', LIMIT, async () => {
    await openRaceOf(page, scenario.server, 'histogram');
    assert.equal(await page.textContent('.badges .badge-class'), 'Inter-block');
    assert.equal(await page.textContent('.defect'), 'Atomic vs plain');
    const witness = await page.textContent('table.witness');
    assert.match(witness, /block \(0, 0, 0\) thread \(0, 0, 0\)/);
    assert.match(witness, /block \(1, 0, 0\) thread \(0, 0, 0\)/);
    assert.match(witness, /n = 1024/);
    const facts = await page.textContent('ul.assumptions');
    assert.match(facts, /bins has 64 ints/);
    assert.match(facts, /Launch dims/);
    assert.match(await page.textContent('.summary'), /histogram<<<4, 256>>>\(d_in, d_bins, n\)/);
    await assertNoPlaceholders(page);
  });

  test('shows what the runtime detector saw', LIMIT, async () => {
    await openRaceOf(page, scenario.server, 'histogram');
    assert.equal(await page.textContent('.badges .badge-status'), 'Confirmed');
    const rows = page.locator('table.runtime tbody tr');
    assert.equal(await rows.count(), 1);
    const cells = await rows.first().locator('td').allTextContents();
    const [device, grid, block, threads, count] = cells;
    assert.equal(device, 'NVIDIA H100 80GB HBM3 (sm_90)');
    assert.equal(grid, '(4, 1, 1)');
    assert.equal(block, '(256, 1, 1)');
    assert.match(threads, /block \(0, 0, 0\) thread \(3, 0, 0\)/);
    assert.match(threads, /block \(2, 0, 0\) thread \(9, 0, 0\)/);
    assert.equal(count, '17');
    await page.locator('table.runtime').scrollIntoViewIfNeeded();
    await screenshot(page, 'race-detail-runtime');
  });

  test('history lists the runs the race was seen in', LIMIT, async () => {
    await openRaceOf(page, scenario.server, 'histogram');
    const commits = await page.$$eval('table.history tbody tr.present td:nth-child(3)',
      (cells) => cells.map((c) => c.textContent));
    assert.ok(commits.includes('1111111111'), `history commits: ${commits}`);
    assert.ok(commits.includes('2222222222'), `history commits: ${commits}`);
  });

  test('a hostile file name and expression render as text', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop&kernel=stencil');
    assert.match(await page.textContent('table.races'), /<img src=x onerror=alert\(1\)>\.cu:3/);
    await page.click('table.races tbody tr a.race-link');
    await settled(page);
    const location = await siteCard(page, 'First access').locator('.site-location .file').textContent();
    assert.equal(location, `${HOSTILE_FILE}:3:3`);
    assert.equal(await siteCard(page, 'Second access').locator('.expression').textContent(),
      'halo[threadIdx.x]<b>bold</b>');
    assert.match(await page.textContent('table.witness'), /n = <script>alert\(2\)<\/script>/);
    assert.equal(await page.locator('img').count(), 0, 'no <img> element was created from data');
    await assertNoPlaceholders(page);
    assert.equal(await page.locator('main b, main script').count(), 0, 'no markup was created from data');
    await screenshot(page, 'race-detail-hostile');
    assert.deepEqual(page.problems, [], 'no script ran and no dialog opened');
  });
});
