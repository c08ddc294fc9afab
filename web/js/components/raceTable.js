// A table of races, one row each, linking to the race's detail page.

import { h } from '../dom.js';
import { classBadge, detectionBadge, reviewBadge, statusBadge } from './badge.js';
import { baseName, count, score, timestamp } from '../format.js';
import { href } from '../router.js';

function siteCell(site) {
  const loc = site?.location;
  if (!loc?.file) return h('span', { class: 'muted' }, '—');
  return h('span', { class: 'site', title: loc.file },
    h('span', { class: 'file' }, baseName(loc.file)),
    loc.line ? `:${loc.line}` : '');
}

function raceRow(race) {
  const candidate = race.candidate ?? {};
  return h('tr', { dataset: { raceId: race.id } },
    h('td', { class: 'num' }, score(candidate.score)),
    h('td', null, h('a', { href: href(`/races/${race.id}`), class: 'race-link' },
      `#${race.id}`)),
    h('td', null, classBadge(candidate.raceClass)),
    h('td', null, h('code', null, candidate.kernel || '—')),
    h('td', { class: 'sites' }, siteCell(candidate.first), h('span', { class: 'pair' }, ' ↔ '),
      siteCell(candidate.second)),
    h('td', null, statusBadge(race.status)),
    h('td', null, detectionBadge(race.detectionState)),
    h('td', null, reviewBadge(race.review?.state)),
    h('td', { class: 'num' }, String(count(race.occurrenceCount))),
    h('td', { class: 'nowrap' }, timestamp(race.lastSeen)));
}

const HEADERS = ['Score', 'Race', 'Class', 'Kernel', 'Sites', 'Status', 'Detection', 'Review',
  'Occurrences', 'Last seen'];

export function raceTable(races, caption) {
  if (races.length === 0) return h('p', { class: 'empty' }, 'No races.');
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'races' },
      caption && h('caption', null, caption),
      h('thead', null, h('tr', null, HEADERS.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', null, races.map(raceRow))));
}
