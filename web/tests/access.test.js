// The overview and runs pages, and what the dashboard says when it cannot
// get data: a wrong token, or a server that went away.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPage, screenshot } from './support/browser.js';
import { open, settled, signIn } from './support/dashboard.js';
import { startScenario, stopScenario } from './support/scenario.js';

const LIMIT = { timeout: 60_000 };

describe('overview, runs and access', () => {
  let scenario;

  before(async () => {
    scenario = await startScenario();
  });
  after(() => stopScenario(scenario));

  test('the overview counts races and draws the trend over runs', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
    await open(page, scenario.server, '/?project=shop&branch=main');
    assert.equal(await page.textContent('.headline:first-child .headline-count'), '4');
    assert.equal(await page.textContent('.breakdown li[data-value=inter-block] .breakdown-count'), '1');
    assert.equal(await page.textContent('.breakdown li[data-value=resolved] .breakdown-count'), '1');
    // The trend has a point per CI analysis; the runs list also has the
    // agent's runtime report.
    assert.equal(await page.locator('svg.trend-chart circle.dot-open').count(), 2);
    assert.deepEqual((await page.locator('section table.runs tbody tr td:nth-child(2)').allTextContents()).sort(),
      ['analysis', 'analysis', 'runtime']);
    assert.doesNotMatch(await page.textContent('main'), /undefined|unspecified|NaN/i);
    await screenshot(page, 'overview');

    // A count links to the race list with that filter.
    await page.click('.breakdown li[data-value=resolved] a');
    await settled(page);
    assert.equal(new URL(page.url()).searchParams.get('detection'), 'resolved');
    assert.equal(await page.locator('table.races tbody tr').count(), 1);
    await page.close();
  });

  test('a run shows the races it added and resolved', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
    await open(page, scenario.server, '/runs?project=shop&branch=main');
    const rows = page.locator('table.runs tbody tr');
    assert.equal(await rows.count(), 3);
    // The second commit's analysis.
    await rows.filter({ hasText: 'analysis' }).filter({ hasText: '2222222222' }).locator('a.run-link').click();
    await settled(page);
    const added = await page.$$eval('section:has(#added-title) table.races tbody td:nth-child(4)',
      (cells) => cells.map((c) => c.textContent));
    const resolved = await page.$$eval('section:has(#resolved-title) table.races tbody td:nth-child(4)',
      (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(added, ['counter']);
    assert.deepEqual(resolved, ['reduce']);
    await screenshot(page, 'run-detail');
    await page.close();
  });

  test('a run lists its perf findings apart from its races, worst first, by kind', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
    await open(page, scenario.server, '/runs?project=shop&branch=main');
    const rows = page.locator('table.runs tbody tr');
    await rows.filter({ hasText: 'analysis' }).filter({ hasText: '2222222222' }).locator('a.run-link').click();
    await settled(page);
    const kernels = () => page.$$eval('table.perf tbody td:nth-child(3)',
      (cells) => cells.map((c) => c.textContent));
    // The proof is not kept and the 2-way conflict outside a loop is under
    // the threshold: the 32-way conflict, then the stride-2 load.
    assert.deepEqual(await kernels(), ['transpose', 'gather']);
    assert.match(await page.textContent('#perf-title'), /Perf findings \(2\)/);
    await page.selectOption('#perf-kind', 'uncoalesced');
    assert.deepEqual(await kernels(), ['gather']);
    // The witness's stride, and the value proved to cost nothing.
    const launch = await page.textContent('table.perf tbody tr:first-child td:nth-child(7)');
    assert.match(launch, /stride=2/);
    assert.match(launch, /free when stride = 1/);
    await page.selectOption('#perf-kind', '');
    await page.check('#perf-below');
    assert.deepEqual(await kernels(), ['transpose', 'gather', 'stencil']);
    // Perf findings are not races: the race tables are unchanged.
    const added = await page.$$eval('section:has(#added-title) table.races tbody td:nth-child(4)',
      (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(added, ['counter']);
    await screenshot(page, 'run-perf-findings');
    await page.close();
  });

  test('a wrong token is reported as such', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, 'not-a-real-token');
    await open(page, scenario.server, '/races?project=shop');
    const box = page.locator('main .error-box');
    assert.equal(await box.getAttribute('data-error-kind'), 'unauthenticated');
    assert.match(await box.textContent(), /Wrong or missing API token/);
    assert.equal(await page.locator('table.races').count(), 0);
    await screenshot(page, 'wrong-token');

    // Without a project in the URL the page cannot even list projects: it
    // says why instead of showing an empty project.
    await open(page, scenario.server, '/');
    assert.equal(await page.getAttribute('main .error-box', 'data-error-kind'), 'unauthenticated');
    await page.close();
  });

  test('an unreachable server is reported as such', LIMIT, async () => {
    const page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
    await open(page, scenario.server, '/?project=shop');
    await scenario.server.stop();
    await page.locator('.nav-links a', { hasText: 'Races' }).click();
    await settled(page);
    const box = page.locator('main .error-box');
    assert.equal(await box.getAttribute('data-error-kind'), 'network');
    assert.match(await box.textContent(), /Server unreachable/);
    await screenshot(page, 'server-unreachable');
    await page.close();
  });
});
