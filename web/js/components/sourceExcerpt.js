// Source lines around an access, numbered, with the racing lines marked.

import { h } from '../dom.js';

function racingLines(loc) {
  const first = loc?.line ?? 0;
  const last = Math.max(first, loc?.endLine ?? 0);
  return (n) => first > 0 && n >= first && n <= last;
}

export function sourceExcerpt(excerpt, loc) {
  const lines = excerpt?.lines ?? [];
  if (lines.length === 0) {
    return h('p', { class: 'muted no-excerpt' }, 'The upload carried no source for this site.');
  }
  const start = excerpt.firstLine ?? 1;
  const isRacing = racingLines(loc);
  return h('pre', { class: 'excerpt', tabindex: '0', 'aria-label': `Source of ${loc?.file ?? 'the site'}` },
    h('code', null, lines.map((text, i) => {
      const n = start + i;
      const racing = isRacing(n);
      return h('span', { class: racing ? 'line racing' : 'line', dataset: { line: n } },
        h('span', { class: 'line-number', 'aria-hidden': 'true' }, String(n)),
        racing && h('span', { class: 'visually-hidden' }, 'racing line: '),
        h('span', { class: 'line-text' }, text),
        '\n');
    })));
}
