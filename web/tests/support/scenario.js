// The project every browser test looks at: two CI runs of project "shop"
// on main (the second fixes the reduction and adds a scoped lock race) and
// one run on a feature branch that has only the scoped lock race; then the
// runtime agent confirms the histogram race on main.

import { GpuraceServer } from './gpurace.js';
import { launchBrowser } from './browser.js';
import { reportRuntime } from './runtimeReporter.js';

export const RACES = {
  histogram: 'histogram', // inter-block, in both runs
  reduce: 'reduce', // intra-warp, fixed by the second run
  stencil: 'stencil', // intra-block, in a file with a hostile name
  counter: 'counter', // scoped, new in the second run
};

export const HOSTILE_FILE = 'src/<img src=x onerror=alert(1)>.cu';

export async function startScenario(options = {}) {
  const server = await GpuraceServer.start(options);
  await server.uploadAnalysis('analysis-commit1.json', { commit: '1111111111aaaaaaaaaa' });
  await server.uploadAnalysis('analysis-commit2.json', { commit: '2222222222bbbbbbbbbb' });
  await server.uploadAnalysis('analysis-feature.json', { commit: '3333333333cccccccccc',
    branch: 'feature/lock' });
  await reportRuntime(server, ['runtime-histogram.json'],
    { project: 'shop', commit: '2222222222bbbbbbbbbb', branch: 'main' });
  const browser = await launchBrowser();
  return { server, browser };
}

export async function stopScenario({ server, browser } = {}) {
  await browser?.close();
  await server?.stop();
}
