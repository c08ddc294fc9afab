// The host facts and analysis assumptions a verdict rests on, and the
// imprecisions that lowered its score.

import { h } from '../dom.js';
import { AssumptionRole, HostFactKind, ImprecisionKind, isSet } from '../enums.js';
import { location } from '../format.js';

export function assumptionList(assumptions) {
  if (!assumptions?.length) return h('p', { class: 'muted' }, 'No host facts were involved.');
  return h('ul', { class: 'assumptions' }, assumptions.map((a) => h('li', null,
    h('span', { class: 'fact-kind' }, HostFactKind.label(a.kind)),
    isSet(a.role) && h('span', { class: 'fact-role' }, AssumptionRole.label(a.role)),
    h('span', { class: 'fact-text' }, a.description ?? ''),
    a.location?.file && h('span', { class: 'fact-location' }, location(a.location)))));
}

export function imprecisionList(imprecisions) {
  if (!imprecisions?.length) return null;
  return h('ul', { class: 'imprecisions' }, imprecisions.map((i) => h('li', null,
    h('span', { class: 'fact-kind' }, ImprecisionKind.label(i.kind)),
    h('span', { class: 'fact-text' }, i.detail ?? ''),
    i.location?.file && h('span', { class: 'fact-location' }, location(i.location)))));
}
