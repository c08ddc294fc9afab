// A table of uploads (CI analyses and runtime agent reports).

import { h, safeExternalUrl } from '../dom.js';
import { shortCommit, timestamp } from '../format.js';
import { href } from '../router.js';

function ciLink(url) {
  const safe = url && safeExternalUrl(url);
  return safe ? h('a', { href: safe, target: '_blank', rel: 'noopener noreferrer' }, 'CI job') : '—';
}

function runRow(run) {
  const meta = run.metadata ?? {};
  return h('tr', { dataset: { runId: run.runId } },
    h('td', null, h('a', { href: href(`/runs/${encodeURIComponent(run.runId ?? '')}`), class: 'run-link' },
      run.runId ?? '—')),
    h('td', null, run.kind || '—'),
    h('td', null, h('code', null, shortCommit(meta.commit))),
    h('td', null, meta.branch || '—'),
    h('td', { class: 'nowrap' }, timestamp(run.uploadedAt)),
    h('td', { class: 'num' }, String(run.racesSeen ?? 0)),
    h('td', { class: 'num added' }, `+${run.racesAdded ?? 0}`),
    h('td', { class: 'num resolved' }, `−${run.racesResolved ?? 0}`),
    h('td', null, ciLink(meta.ciJobUrl)));
}

const HEADERS = ['Run', 'Kind', 'Commit', 'Branch', 'Uploaded', 'Races seen', 'Added', 'Resolved',
  'CI'];

export function runTable(runs) {
  if (runs.length === 0) return h('p', { class: 'empty' }, 'No runs yet.');
  return h('div', { class: 'table-scroll' }, h('table', { class: 'runs' },
    h('thead', null, h('tr', null, HEADERS.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, runs.map(runRow))));
}
