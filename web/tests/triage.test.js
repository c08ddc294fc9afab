// Triage through the dashboard: the review is written through the API and
// is still there after a reload; a read-only token is told it may not.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPage, screenshot } from './support/browser.js';
import { open, settled, signIn } from './support/dashboard.js';
import { startScenario, stopScenario } from './support/scenario.js';

const LIMIT = { timeout: 60_000 };
const COMMENT = 'Bins are per-thread in the <real> kernel; "atomicAdd" is not needed & fine';

async function raceUrlOf(page, server, kernel) {
  await open(page, server, `/races?project=shop&kernel=${kernel}`);
  return page.getAttribute('table.races tbody tr a.race-link', 'href');
}

describe('triage', () => {
  let scenario;

  before(async () => {
    scenario = await startScenario();
  });
  after(() => stopScenario(scenario));

  test('a review state and comment survive a reload', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.store);
    const raceUrl = await raceUrlOf(page, scenario.server, 'reduce');
    await open(page, scenario.server, raceUrl);
    assert.equal(await page.inputValue('#review-state'), 'REVIEW_STATE_UNREVIEWED');

    await page.selectOption('#review-state', 'REVIEW_STATE_FALSE_POSITIVE');
    await page.fill('#review-comment', COMMENT);
    await page.fill('#review-author', 'dana');
    await page.click('form.triage button[type=submit]');
    await page.waitForSelector('.triage-outcome .saved');
    assert.equal(await page.textContent('.badges .badge-review'), 'False positive');

    await page.reload();
    await settled(page);
    assert.equal(await page.inputValue('#review-state'), 'REVIEW_STATE_FALSE_POSITIVE');
    assert.equal(await page.inputValue('#review-comment'), COMMENT);
    assert.equal(await page.textContent('.badges .badge-review'), 'False positive');
    assert.match(await page.textContent('.review-meta'), /by dana/);
    await screenshot(page, 'triage-after-reload');

    // The list's review filter sees the new state too.
    await open(page, scenario.server, '/races?project=shop&review=false-positive');
    assert.deepEqual(await page.$$eval('table.races tbody tr td:nth-child(4)',
      (cells) => cells.map((c) => c.textContent)), ['reduce']);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a read-only token can browse but is told it may not triage', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
    const raceUrl = await raceUrlOf(page, scenario.server, 'stencil');
    await open(page, scenario.server, raceUrl);
    await page.selectOption('#review-state', 'REVIEW_STATE_CONFIRMED');
    await page.click('form.triage button[type=submit]');
    await page.waitForSelector('.triage-outcome .error-box');
    assert.equal(await page.getAttribute('.triage-outcome .error-box', 'data-error-kind'), 'forbidden');
    assert.match(await page.textContent('.triage-outcome .error-box'), /Not allowed/);
    await screenshot(page, 'triage-read-only');

    await page.reload();
    await settled(page);
    assert.equal(await page.inputValue('#review-state'), 'REVIEW_STATE_UNREVIEWED');
    await page.close();
  });
});
