// Debian's Chromium, headless, driven by playwright-core. The tests never
// download a browser: without a system Chromium they fail and say so.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

function chromiumPath() {
  const fromEnv = process.env.GPURACE_CHROMIUM;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium was not found on PATH: install it with scripts/install-deps.sh ' +
      '(Debian package "chromium") or set GPURACE_CHROMIUM to its path');
  }
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

// A page that records script errors and dialogs, so that a test can assert
// that untrusted data never ran as code.
export async function newPage(browser) {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  page.on('dialog', async (dialog) => {
    page.problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return page;
}

// Screenshots go outside the source tree: GPURACE_SCREENSHOT_DIR (the build
// directory under ctest) or the system's temp folder.
export async function screenshot(page, name) {
  const dir = process.env.GPURACE_SCREENSHOT_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'gpurace-web-screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
