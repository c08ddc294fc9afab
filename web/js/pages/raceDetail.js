// One race: both access sites side by side, why it races (class, missing
// synchronization, witness, host facts), the repair `gpurace analyze --fix`
// suggests, what the runtime saw, its history across runs, and the triage
// form.

import { api } from '../api.js';
import { h, replaceChildren } from '../dom.js';
import { isSet, MemoryScope, SyncDefect } from '../enums.js';
import { count, location, score, timestamp } from '../format.js';
import { href } from '../router.js';
import { accessSite } from '../components/accessSite.js';
import { assumptionList, imprecisionList } from '../components/assumptions.js';
import { classBadge, detectionBadge, reviewBadge, statusBadge } from '../components/badge.js';
import { historyTable, reviewHistory } from '../components/history.js';
import { runtimeConfirmations } from '../components/occurrences.js';
import { findRepairingRace, isSharedRepair, repairSection } from '../components/repairDiff.js';
import { triageForm } from '../components/triageForm.js';
import { witnessTable } from '../components/witness.js';

function missingSync(candidate) {
  const defect = SyncDefect.label(candidate.defect);
  if (!isSet(candidate.insufficientScope)) return defect;
  return `${defect} (${MemoryScope.label(candidate.insufficientScope).toLowerCase()} scope is too narrow)`;
}

function launchSite(site) {
  if (!site?.location?.file && !site?.expression) return 'No launch seen: analyzed alone';
  return h('span', null, site.expression && h('code', null, site.expression),
    site.location?.file && [' at ', location(site.location)]);
}

function fact(term, ...value) {
  return [h('dt', null, term), h('dd', null, ...value)];
}

function summary(race) {
  const candidate = race.candidate ?? {};
  return h('dl', { class: 'facts summary' },
    fact('Missing synchronization', h('strong', { class: 'defect' }, missingSync(candidate))),
    fact('Kernel', h('code', null, candidate.kernel || '—')),
    fact('Launch site', launchSite(candidate.launchSite)),
    fact('Score', score(candidate.score)),
    fact('Occurrences', String(count(race.occurrenceCount))),
    fact('First seen', timestamp(race.firstSeen)),
    fact('Last seen', timestamp(race.lastSeen)),
    fact('Fingerprint', h('code', { class: 'fingerprint' }, race.fingerprint || '—')));
}

function section(title, ...body) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h('section', { class: 'card', 'aria-labelledby': id },
    h('h2', { id }, title), ...body);
}

function badges(race) {
  return [classBadge(race.candidate?.raceClass), statusBadge(race.status),
    detectionBadge(race.detectionState), reviewBadge(race.review?.state)];
}

export async function raceDetailPage(view, { args: [id] }) {
  const [race, history] = await Promise.all([api.race(id), api.raceHistory(id)]);
  const candidate = race.candidate ?? {};
  const repairingRace = isSharedRepair(candidate.repair) ? await findRepairingRace(race) : null;
  document.title = `Race #${race.id} · gpurace`;
  const badgeRow = h('p', { class: 'badges' }, badges(race));
  const onSaved = (updated) => replaceChildren(badgeRow, badges(updated));

  view.append(
    h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' },
      h('a', { href: href('/races') }, 'Races'), ' › ', `#${race.id}`),
    h('h1', null, `Race #${race.id}`, candidate.kernel && [' in ', h('code', null, candidate.kernel)]),
    badgeRow,
    candidate.message && h('p', { class: 'race-message' }, candidate.message),
    h('div', { class: 'detail-top' },
      section('Summary', summary(race)),
      section('Triage', triageForm(race, onSaved))),
    section('Access sites', h('div', { class: 'site-pair' },
      accessSite('First access', candidate.first),
      accessSite('Second access', candidate.second))),
    // No card at all for an upload without --fix.
    ...(candidate.repair ? [repairSection(candidate.repair, repairingRace)] : []),
    section('Static witness', witnessTable(candidate.witness)),
    section('Runtime confirmations', runtimeConfirmations(race.occurrences)),
    section('Host facts', assumptionList(candidate.assumptions),
      candidate.imprecisions?.length > 0 && [h('h3', null, 'Imprecisions that lowered the score'),
        imprecisionList(candidate.imprecisions)]),
    section('History', historyTable(history.entries), reviewHistory(history.reviews)));
}
