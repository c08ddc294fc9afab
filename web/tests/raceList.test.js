// The race list: filters from the form and from shared links, sorting and
// pagination, against a real server filled by real uploads.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPage, screenshot } from './support/browser.js';
import { listedKernels, listedRaceIds, open, settled, signIn } from './support/dashboard.js';
import { startScenario, stopScenario } from './support/scenario.js';

const LIMIT = { timeout: 60_000 };

describe('race list', () => {
  let scenario;
  let page;

  before(async () => {
    scenario = await startScenario();
    page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
  });
  after(() => stopScenario(scenario));

  test('lists every race of the project with its sites', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop');
    const kernels = await listedKernels(page);
    assert.deepEqual([...kernels].sort(), ['counter', 'histogram', 'reduce', 'stencil']);
    await screenshot(page, 'race-list');
  });

  test('the class filter from the form narrows the list and lives in the URL', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop');
    await page.check('input[name=class][value=inter-block]');
    await page.check('input[name=class][value=scoped]');
    await page.click('form.filters button[type=submit]');
    await settled(page);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('class'), 'inter-block,scoped');
    assert.deepEqual((await listedKernels(page)).sort(), ['counter', 'histogram']);

    await page.reload();
    await settled(page);
    assert.deepEqual((await listedKernels(page)).sort(), ['counter', 'histogram']);
    assert.equal(await page.isChecked('input[name=class][value=inter-block]'), true);
    assert.equal(await page.isChecked('input[name=class][value=intra-warp]'), false);
    await screenshot(page, 'race-list-filtered');
  });

  test('a shared link opens the list with its filters applied', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop&kernel=stencil');
    assert.deepEqual(await listedKernels(page), ['stencil']);
    assert.equal(await page.inputValue('#filter-kernel'), 'stencil');

    await open(page, scenario.server, '/races?project=shop&file=histogram');
    assert.deepEqual(await listedKernels(page), ['histogram']);
  });

  test('status, detection and branch filters follow the runs', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop&branch=main&detection=resolved');
    assert.deepEqual(await listedKernels(page), ['reduce']);

    await open(page, scenario.server, '/races?project=shop&status=confirmed');
    assert.deepEqual(await listedKernels(page), ['histogram']);

    await open(page, scenario.server, `/races?project=shop&branch=${encodeURIComponent('feature/lock')}`);
    assert.deepEqual(await listedKernels(page), ['counter']);
  });

  test('new since a commit lists only the races that came after it', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop');
    await page.fill('#filter-new_since_commit', '1111111111aaaaaaaaaa');
    await page.click('form.filters button[type=submit]');
    await settled(page);
    assert.equal(new URL(page.url()).searchParams.get('new_since_commit'), '1111111111aaaaaaaaaa');
    assert.deepEqual(await listedKernels(page), ['counter']);
  });

  test('sorting by occurrences puts the race the runtime saw most first', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop');
    await page.selectOption('#filter-order_by', '-occurrences');
    await page.click('form.filters button[type=submit]');
    await settled(page);
    assert.equal(new URL(page.url()).searchParams.get('order_by'), '-occurrences');
    const counts = await page.$$eval('table.races tbody tr td:nth-child(9)',
      (cells) => cells.map((c) => Number(c.textContent)));
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
    assert.equal((await listedKernels(page))[0], 'histogram');
  });

  test('sorting by score puts the highest score first', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop&order_by=-score');
    const scores = await page.$$eval('table.races tbody tr td:first-child',
      (cells) => cells.map((c) => Number(c.textContent)));
    assert.equal(scores.length, 4);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  });

  test('pages through the races two at a time', LIMIT, async () => {
    await open(page, scenario.server, '/races?project=shop&page_size=2');
    const first = await listedRaceIds(page);
    assert.equal(first.length, 2);
    await page.click('.pager a[rel=next]');
    await settled(page);
    const second = await listedRaceIds(page);
    assert.equal(second.length, 2);
    assert.equal(new Set([...first, ...second]).size, 4);
    assert.ok(new URL(page.url()).searchParams.get('page_token'));
    assert.equal(await page.$('.pager a[rel=next]'), null);
  });

  test('no script ran from the data', LIMIT, () => {
    assert.deepEqual(page.problems, []);
  });
});
