// The "Suggested repair" card of the race detail page: a verified repair
// with its diff, a race removed by another race's repair, a race with no
// repair and why, no card for an upload without --fix; and a hostile diff
// that must stay text. The repairs come from analysis-repairs.json,
// uploaded on top of the usual scenario to a branch of its own.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseUnifiedDiff } from '../js/components/repairDiff.js';
import { newPage, screenshot } from './support/browser.js';
import { open, settled, signIn } from './support/dashboard.js';
import { FIXTURES } from './support/gpurace.js';
import { startScenario, stopScenario } from './support/scenario.js';

const LIMIT = { timeout: 60_000 };
const FIXTURE = 'analysis-repairs.json';
const HOSTILE_DIFF_FILE = 'src/<img src=x onerror=alert(3)>.cu';

const FINGERPRINTS = {
  tally: 'v1:5e1f00a1b2c3d4e5', // verified atomic repair
  tallyWrites: 'v1:5e1f00a1b2c3d4e6', // removed by the tally repair
  scan: 'v1:5ca11ab1e0000001', // no verified repair
  gridSum: 'v1:9d5c00000000beef', // grid sync, needs a cooperative launch
  shift: 'v1:0bad0bad0bad0001', // hostile file name, code and summary
  shiftWrites: 'v1:0bad0bad0bad0002', // removed by a race the server never saw
  histogram: 'v1:6a1f0c3e9b7d2a41', // from the scenario: no --fix, no repair
};

function fixtureRepair(fingerprint) {
  const result = JSON.parse(fs.readFileSync(path.join(FIXTURES, FIXTURE), 'utf8'));
  return result.candidates.find((c) => c.fingerprint === fingerprint).repair;
}

// GET of the server's own HTTP API with the read token.
async function apiGet(server, pathAndQuery) {
  const response = await fetch(`${server.baseUrl}${pathAndQuery}`,
    { headers: { Authorization: `Bearer ${server.tokens.read}` } });
  assert.equal(response.status, 200);
  return response.json();
}

// Race ids by fingerprint.
async function raceIds(server) {
  const { races } = await apiGet(server, '/api/v1/races?project=shop&page_size=100');
  return new Map(races.map((race) => [race.fingerprint, race.id]));
}

function repairCard(page) {
  return page.locator('section[aria-label="Suggested repair"]');
}

// [class, text] of each line of the card's diff, in order.
async function diffRows(card) {
  return card.locator('pre.diff .diff-line').evaluateAll((lines) => lines.map((line) => [
    [...line.classList].find((c) => c !== 'diff-line'),
    line.querySelector('.diff-text').textContent,
  ]));
}

describe('unified diff parsing', () => {
  test('types each line and numbers the lines of a hunk', () => {
    const lines = parseUnifiedDiff(fixtureRepair(FINGERPRINTS.tally).diff);
    assert.deepEqual(lines.map((l) => l.type), ['file', 'file', 'hunk', 'context', 'context',
      'context', 'context', 'remove', 'add', 'context', 'context']);
    const removed = lines.find((l) => l.type === 'remove');
    const added = lines.find((l) => l.type === 'add');
    assert.deepEqual([removed.oldLine, removed.newLine], [14, undefined]);
    assert.deepEqual([added.oldLine, added.newLine], [undefined, 14]);
    assert.deepEqual([lines.at(-1).oldLine, lines.at(-1).newLine], [16, 16]);
  });

  test('a changed line that looks like a header stays a changed line', () => {
    const diff = '--- a.cu\n+++ a.cu\n@@ -1,3 +1,3 @@\n x\n--- y\n+++ z\n w\n' +
      '\\ No newline at end of file\n--- b.cu\n+++ b.cu\n@@ -7 +7,2 @@\n-old\n+new\n+more\n';
    assert.deepEqual(parseUnifiedDiff(diff).map((l) => [l.type, l.text]), [
      ['file', '--- a.cu'], ['file', '+++ a.cu'], ['hunk', '@@ -1,3 +1,3 @@'],
      ['context', ' x'], ['remove', '--- y'], ['add', '+++ z'], ['context', ' w'],
      ['note', '\\ No newline at end of file'],
      ['file', '--- b.cu'], ['file', '+++ b.cu'], ['hunk', '@@ -7 +7,2 @@'],
      ['remove', '-old'], ['add', '+new'], ['add', '+more'],
    ]);
  });
});

describe('suggested repair', () => {
  let scenario;
  let page;
  let ids;

  before(async () => {
    scenario = await startScenario();
    await scenario.server.uploadAnalysis(FIXTURE, { commit: '4444444444dddddddddd',
      branch: 'fix/repairs' });
    ids = await raceIds(scenario.server);
    for (const [name, fingerprint] of Object.entries(FINGERPRINTS)) {
      assert.ok(ids.has(fingerprint), `the server stored the ${name} race`);
    }
    page = await newPage(scenario.browser);
    await signIn(page, scenario.server, scenario.server.tokens.read);
  });
  after(() => stopScenario(scenario));

  const openRace = (name) => open(page, scenario.server, `/races/${ids.get(FINGERPRINTS[name])}`);

  test('the race detail API carries the uploaded repair', LIMIT, async () => {
    const race = await apiGet(scenario.server, `/api/v1/races/${ids.get(FINGERPRINTS.tally)}`);
    const uploaded = fixtureRepair(FINGERPRINTS.tally);
    assert.equal(race.candidate.repair.kind, 'REPAIR_KIND_ATOMIC');
    assert.equal(race.candidate.repair.verified, true);
    assert.equal(race.candidate.repair.summary, uploaded.summary);
    assert.equal(race.candidate.repair.diff, uploaded.diff);
    assert.equal(race.candidate.repair.edits[0].newText, 'atomicAdd(&bins[b], 1)');
  });

  test('a verified repair shows its kind, summary and diff', LIMIT, async () => {
    await openRace('tally');
    const card = repairCard(page);
    assert.equal(await card.count(), 1);
    assert.equal(await card.getAttribute('data-repair'), 'verified');
    assert.equal(await card.locator('.repair-badge').textContent(), 'Verified');
    assert.match(await card.locator('.repair-kind').textContent(),
      /Make the read-modify-write atomic/);
    assert.equal(await card.locator('.repair-summary').textContent(),
      "make 'bins[b] = bins[b] + 1' atomic: atomicAdd(&bins[b], 1)");
    assert.equal(await card.locator('.repair-prerequisite, .repair-builds-on').count(), 0);
    assert.equal(await card.locator('.diff-file-name').textContent(), 'src/tally.cu');
    assert.deepEqual(await diffRows(card), [
      ['diff-file', '--- src/tally.cu'],
      ['diff-file', '+++ src/tally.cu'],
      ['diff-hunk', '@@ -10,7 +10,7 @@'],
      ['diff-context', ' __global__ void tally(const int *in, int *bins, int n) {'],
      ['diff-context', '   int i = blockIdx.x * blockDim.x + threadIdx.x;'],
      ['diff-context', '   if (i < n) {'],
      ['diff-context', '     int b = in[i] % 64;'],
      ['diff-remove', '-    bins[b] = bins[b] + 1;'],
      ['diff-add', '+    atomicAdd(&bins[b], 1);'],
      ['diff-context', '   }'],
      ['diff-context', ' }'],
    ]);
    // Old and new line numbers beside the changed lines.
    assert.deepEqual(await card.locator('.diff-remove .diff-number').allTextContents(), ['14', '']);
    assert.deepEqual(await card.locator('.diff-add .diff-number').allTextContents(), ['', '14']);
    // Added lines green, removed lines red, context plain; all monospaced.
    const look = await card.locator('pre.diff').evaluate((pre) => {
      const style = (selector) => getComputedStyle(pre.querySelector(selector));
      return {
        added: style('.diff-add').backgroundColor,
        removed: style('.diff-remove').backgroundColor,
        context: style('.diff-context').backgroundColor,
        font: getComputedStyle(pre).fontFamily,
      };
    });
    assert.deepEqual([look.added, look.removed, look.context],
      ['rgb(230, 255, 236)', 'rgb(255, 235, 233)', 'rgba(0, 0, 0, 0)']);
    assert.match(look.font, /monospace/);
    // Between the access sites and the witness.
    const headings = await page.locator('main section.card > h2').allTextContents();
    const at = headings.indexOf('Access sites');
    assert.deepEqual(headings.slice(at, at + 3), ['Access sites', 'Suggested repair', 'Static witness']);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'race-detail-repair');
    assert.deepEqual(page.problems, []);
  });

  test('Copy patch puts the diff on the clipboard', LIMIT, async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'],
      { origin: scenario.server.baseUrl });
    await openRace('tally');
    await repairCard(page).locator('button.copy-patch').click();
    await page.waitForSelector('.copy-outcome:not(:empty)');
    assert.equal(await page.textContent('.copy-outcome'), 'Patch copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()),
      fixtureRepair(FINGERPRINTS.tally).diff);
  });

  test('a grid-wide sync says what else it needs', LIMIT, async () => {
    await openRace('gridSum');
    const card = repairCard(page);
    assert.match(await card.locator('.repair-kind').textContent(),
      /Insert a grid-wide sync between the accesses/);
    assert.equal(await card.locator('.repair-prerequisite').textContent(),
      'Requires: a cooperative launch (cudaLaunchCooperativeKernel) of grid_sum');
    const changed = (await diffRows(card)).filter(([kind]) => ['diff-add', 'diff-remove'].includes(kind));
    assert.deepEqual(changed, [['diff-add', '+  cooperative_groups::this_grid().sync();']]);
  });

  test('a race removed by another repair links to that race', LIMIT, async () => {
    await openRace('tallyWrites');
    const card = repairCard(page);
    assert.equal(await card.getAttribute('data-repair'), 'shared');
    const tallyId = ids.get(FINGERPRINTS.tally);
    assert.equal(await card.locator('.repair-shared-text').textContent(),
      `Removed by the repair of race #${tallyId}`);
    assert.equal(await card.locator('.repair-summary').textContent(),
      "Its change: make 'bins[b] = bins[b] + 1' atomic: atomicAdd(&bins[b], 1)");
    assert.equal(await card.locator('pre.diff').count(), 0);
    await card.locator('a.repairing-race').click();
    await settled(page);
    assert.equal(new URL(page.url()).pathname, `/races/${tallyId}`);
    assert.equal(await repairCard(page).getAttribute('data-repair'), 'verified');
  });

  test('a race removed by the repair of an unknown race names its fingerprint', LIMIT, async () => {
    await openRace('shiftWrites');
    const card = repairCard(page);
    assert.equal(await card.getAttribute('data-repair'), 'shared');
    assert.equal(await card.locator('a.repairing-race').count(), 0);
    assert.equal(await card.locator('.repairing-fingerprint').textContent(), 'v1:feedfacefeedface');
  });

  test('a race without a verified repair says why', LIMIT, async () => {
    await openRace('scan');
    const card = repairCard(page);
    assert.equal(await card.getAttribute('data-repair'), 'none');
    assert.equal(await card.locator('.repair-badge').textContent(), 'Not repaired');
    assert.equal(await card.locator('.repair-reason').textContent(),
      fixtureRepair(FINGERPRINTS.scan).unrepairedReason);
    assert.equal(await card.locator('.repair-tried').textContent(),
      '2 candidate changes were analyzed.');
    assert.equal(await card.locator('pre.diff, button.copy-patch').count(), 0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'race-detail-unrepaired');
  });

  test('a race uploaded without --fix has no repair card', LIMIT, async () => {
    await openRace('histogram');
    assert.equal(await page.locator('main section.site-card').count(), 2, 'the page rendered');
    assert.equal(await repairCard(page).count(), 0);
    assert.doesNotMatch(await page.textContent('main'), /Suggested repair|\bnull\b|undefined/);
  });

  test('a hostile diff, file name and summary render as text', LIMIT, async () => {
    await openRace('shift');
    const card = repairCard(page);
    assert.equal(await card.locator('.diff-file-name').textContent(), HOSTILE_DIFF_FILE);
    assert.equal(await card.locator('.repair-summary').textContent(),
      'insert __syncthreads() before line 6 <img src=x onerror=alert(6)>');
    assert.match(await card.locator('.repair-builds-on').textContent(), /earlier repair/);
    const uploaded = fixtureRepair(FINGERPRINTS.shift).diff.split('\n').slice(0, -1);
    const rows = await diffRows(card);
    assert.deepEqual(rows.map(([, text]) => text), uploaded);
    assert.deepEqual(rows.map(([kind]) => kind), ['diff-file', 'diff-file', 'diff-hunk',
      'diff-context', 'diff-add', 'diff-context', 'diff-remove', 'diff-add', 'diff-context',
      'diff-note']);
    assert.equal(await page.locator('img').count(), 0, 'no <img> element was created from data');
    assert.equal(await page.locator('main b, main script, pre.diff pre').count(), 0,
      'no markup was created from data');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'race-detail-repair-hostile');
    assert.deepEqual(page.problems, [], 'no script ran and no dialog opened');
  });
});
