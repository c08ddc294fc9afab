// One upload: who made it from which commit, the races it added and
// resolved, and its perf findings.

import { api } from '../api.js';
import { h, safeExternalUrl } from '../dom.js';
import { timestamp } from '../format.js';
import { href } from '../router.js';
import { perfSection } from '../components/perfTable.js';
import { raceTable } from '../components/raceTable.js';

function fact(term, ...value) {
  return [h('dt', null, term), h('dd', null, ...value)];
}

function tags(map) {
  const entries = Object.entries(map ?? {});
  if (entries.length === 0) return '—';
  return h('ul', { class: 'tags' }, entries.map(([k, v]) => h('li', null, `${k}=${v}`)));
}

function metadata(run) {
  const meta = run.metadata ?? {};
  const ci = meta.ciJobUrl && safeExternalUrl(meta.ciJobUrl);
  return h('dl', { class: 'facts summary' },
    fact('Kind', run.kind || '—'),
    fact('Project', meta.project || '—'),
    fact('Commit', h('code', null, meta.commit || '—')),
    fact('Branch', meta.branch || '—'),
    fact('Uploaded', timestamp(run.uploadedAt)),
    fact('Tool version', run.toolVersion || '—'),
    fact('Host', meta.host || '—'),
    fact('User', meta.user || '—'),
    fact('CI job', ci ? h('a', { href: ci, rel: 'noopener noreferrer' }, meta.ciJobUrl) : '—'),
    fact('Tags', tags(meta.tags)),
    fact('Races seen', String(run.racesSeen ?? 0)));
}

export async function runDetailPage(view, { args: [runId] }) {
  const detail = await api.run(runId);
  const run = detail.run ?? {};
  document.title = `Run ${run.runId ?? runId} · gpurace`;
  view.append(
    h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' },
      h('a', { href: href('/runs') }, 'Runs'), ' › ', run.runId ?? runId),
    h('h1', null, 'Run ', h('code', null, run.runId ?? runId)),
    h('section', { class: 'card' }, metadata(run)),
    h('section', { class: 'card', 'aria-labelledby': 'added-title' },
      h('h2', { id: 'added-title' }, `Races added (${detail.racesAdded?.length ?? 0})`),
      raceTable(detail.racesAdded ?? [])),
    h('section', { class: 'card', 'aria-labelledby': 'resolved-title' },
      h('h2', { id: 'resolved-title' }, `Races resolved (${detail.racesResolved?.length ?? 0})`),
      raceTable(detail.racesResolved ?? [])),
    run.kind === 'analysis' ? perfSection(detail.perfFindings ?? []) : null);
}
