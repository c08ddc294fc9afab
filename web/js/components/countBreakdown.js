// Counts of one dimension (status, class, review, detection) as labelled
// bars; each row links to the race list filtered to that value.

import { h } from '../dom.js';
import { href } from '../router.js';

// counts: the Summary's map keyed by full enum names.
export function countBreakdown(title, enumType, filterName, counts, baseParams) {
  const rows = enumType.values.map((short) => ({
    short,
    label: enumType.label(enumType.toFull(short)),
    n: Number(counts?.[enumType.toFull(short)] ?? 0),
  }));
  const max = Math.max(1, ...rows.map((r) => r.n));
  return h('section', { class: 'card breakdown', 'aria-label': title },
    h('h2', null, title),
    h('ul', null, rows.map((r) => h('li', { dataset: { value: r.short } },
      h('a', { href: href('/races', { ...baseParams, [filterName]: r.short }) },
        h('span', { class: 'breakdown-label' }, r.label),
        h('span', { class: 'breakdown-bar', 'aria-hidden': 'true' },
          h('span', { class: `fill ${filterName}-${r.short}`, style: `width: ${(100 * r.n) / max}%` })),
        h('span', { class: 'breakdown-count' }, String(r.n)))))));
}
