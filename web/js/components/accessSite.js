// One side of a race: what the access is and where, with its source.

import { h } from '../dom.js';
import { AccessKind, isSet, MemoryScope, MemorySpace } from '../enums.js';
import { location } from '../format.js';
import { sourceExcerpt } from './sourceExcerpt.js';

function accessDescription(site) {
  const kind = AccessKind.label(site.kind);
  const op = isSet(site.atomicOp) ? ` ${site.atomicOp.replace('ATOMIC_OP_', '').toLowerCase()}` : '';
  const scope = isSet(site.scope) ? `, ${MemoryScope.label(site.scope).toLowerCase()} scope` : '';
  return `${kind}${op}${scope}`;
}

function callStack(frames) {
  if (!frames?.length) return null;
  return h('ol', { class: 'call-stack' }, frames.map((frame) =>
    h('li', null, h('code', null, frame.callee ?? ''), ' called at ', location(frame.callSite))));
}

function fact(term, ...value) {
  return [h('dt', null, term), h('dd', null, ...value)];
}

export function accessSite(title, site) {
  if (!site) return h('section', { class: 'site-card' }, h('h3', null, title), h('p', null, '—'));
  const loc = site.location ?? {};
  return h('section', { class: 'site-card', 'aria-label': title },
    h('h3', null, title, ': ', h('span', { class: 'access-kind' }, accessDescription(site))),
    h('p', { class: 'site-location' }, h('span', { class: 'file' }, location(loc)),
      loc.function && [' in ', h('code', null, loc.function)]),
    sourceExcerpt(site.excerpt, loc),
    h('dl', { class: 'facts' },
      fact('Expression', h('code', { class: 'expression' }, site.expression || '—')),
      fact('Object', h('code', null, site.baseObject || '—'),
        isSet(site.space) ? ` (${MemorySpace.label(site.space).toLowerCase()} memory)` : ''),
      site.sizeBytes > 0 && fact('Size', `${site.sizeBytes} bytes`),
      site.callStack?.length > 0 && fact('Call stack', callStack(site.callStack))));
}
