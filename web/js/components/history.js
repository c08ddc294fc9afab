// The runs a race was present in (or absent from) over time.

import { h } from '../dom.js';
import { shortCommit, timestamp } from '../format.js';
import { href } from '../router.js';
import { detectionBadge, reviewBadge } from './badge.js';

export function historyTable(entries) {
  if (!entries?.length) return h('p', { class: 'muted' }, 'No history yet.');
  return h('div', { class: 'table-scroll' }, h('table', { class: 'history' },
    h('thead', null, h('tr', null, ['Run', 'Kind', 'Commit', 'Branch', 'Time', 'Present',
      'Detection'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, entries.map((entry) => {
      const run = entry.run ?? {};
      return h('tr', { class: entry.present ? 'present' : 'absent' },
        h('td', null, h('a', { href: href(`/runs/${encodeURIComponent(run.runId ?? '')}`) },
          run.runId ?? '—')),
        h('td', null, run.kind || '—'),
        h('td', null, h('code', null, shortCommit(run.metadata?.commit))),
        h('td', null, run.metadata?.branch || '—'),
        h('td', { class: 'nowrap' }, timestamp(run.uploadedAt)),
        h('td', null, entry.present ? 'yes' : 'no'),
        h('td', null, detectionBadge(entry.detectionState)));
    }))));
}

// Every review the race has had, oldest first, as the server records them.
export function reviewHistory(reviews) {
  if (!reviews?.length) return null;
  return h('ol', { class: 'review-history', 'aria-label': 'Review history' },
    reviews.map((review) => h('li', null,
      h('span', { class: 'nowrap' }, timestamp(review.updatedAt)), ' ', reviewBadge(review.state),
      review.author && [' by ', h('strong', null, review.author)],
      review.comment && [': ', h('span', { class: 'review-comment' }, review.comment)])));
}
