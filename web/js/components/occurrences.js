// The runtime detector's sightings of a race: where and how it ran.

import { h } from '../dom.js';
import { count, dim3, shortCommit, threadCoord, timestamp } from '../format.js';

function device(info) {
  if (!info?.name) return '—';
  return info.smArchitecture ? `${info.name} (${info.smArchitecture})` : info.name;
}

function threadPair(witness) {
  if (!witness) return '—';
  return h('span', null, threadCoord(witness.first), h('br'), threadCoord(witness.second));
}

const HEADERS = ['Device', 'Grid', 'Block', 'Thread pair', 'Count', 'First seen', 'Last seen',
  'Commit', 'Branch'];

export function runtimeConfirmations(occurrences) {
  const runtime = (occurrences ?? []).filter((o) => o.source === 'runtime');
  if (runtime.length === 0) {
    return h('p', { class: 'muted' }, 'The runtime detector has not observed this race yet.');
  }
  return h('div', { class: 'table-scroll' }, h('table', { class: 'runtime' },
    h('thead', null, h('tr', null, HEADERS.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, runtime.map((o) => h('tr', null,
      h('td', null, device(o.device)),
      h('td', { class: 'nowrap' }, dim3(o.gridDim)),
      h('td', { class: 'nowrap' }, dim3(o.blockDim)),
      h('td', { class: 'nowrap' }, threadPair(o.witness)),
      h('td', { class: 'num' }, String(count(o.count))),
      h('td', { class: 'nowrap' }, timestamp(o.firstSeen)),
      h('td', { class: 'nowrap' }, timestamp(o.lastSeen)),
      h('td', null, h('code', null, shortCommit(o.commit))),
      h('td', null, o.branch || '—'))))));
}
