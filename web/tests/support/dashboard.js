// Helpers that drive the dashboard the way a person does: through its
// token field, its links and its forms.

// Resolves once the current page has finished rendering.
export async function settled(page) {
  await page.waitForSelector('main#content:not([aria-busy]) > .page');
}

export async function open(page, server, pathAndQuery) {
  await page.goto(server.baseUrl + pathAndQuery);
  await settled(page);
}

// Enters a token in the header's token field, as a user does.
export async function signIn(page, server, token) {
  await page.goto(`${server.baseUrl}/`);
  await page.fill('#token-input', token);
  await page.click('#token-form button[type=submit]');
  await settled(page);
}

// The ids of the races in the race table, in display order.
export async function listedRaceIds(page) {
  return page.$$eval('table.races tbody tr', (rows) => rows.map((row) => row.dataset.raceId));
}

export async function listedKernels(page) {
  return page.$$eval('table.races tbody tr td:nth-child(4)', (cells) => cells.map((c) => c.textContent));
}
