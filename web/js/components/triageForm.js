// The review form: sets a race's review state and comment through the API.
// The author's name is remembered in this browser for the next review.

import { api } from '../api.js';
import { h, replaceChildren } from '../dom.js';
import { isSet, ReviewState } from '../enums.js';
import { timestamp } from '../format.js';
import { errorBox } from './errorBox.js';

const AUTHOR_KEY = 'gpurace.author';

function stateSelect(current) {
  const chosen = isSet(current) ? current : 'REVIEW_STATE_UNREVIEWED';
  return h('select', { id: 'review-state', name: 'state' },
    ReviewState.values.map((short) => {
      const full = ReviewState.toFull(short);
      return h('option', { value: full, selected: full === chosen }, ReviewState.label(full));
    }));
}

function lastReview(review) {
  if (!review?.updatedAt) return h('p', { class: 'muted review-meta' }, 'Not reviewed yet.');
  return h('p', { class: 'muted review-meta' },
    `Last reviewed ${timestamp(review.updatedAt)}`, review.author ? ` by ${review.author}` : '');
}

export function triageForm(race, onSaved) {
  const review = race.review ?? {};
  const state = stateSelect(review.state);
  const comment = h('textarea', { id: 'review-comment', name: 'comment', rows: '4' });
  comment.value = review.comment ?? '';
  const author = h('input', { id: 'review-author', name: 'author', type: 'text',
    value: localStorage.getItem(AUTHOR_KEY) ?? review.author ?? '' });
  const outcome = h('div', { class: 'triage-outcome', 'aria-live': 'polite' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save review');

  const form = h('form', { class: 'triage', 'aria-label': 'Triage' },
    lastReview(review),
    h('div', { class: 'field' }, h('label', { for: 'review-state' }, 'Review state'), state),
    h('div', { class: 'field' }, h('label', { for: 'review-comment' }, 'Comment'), comment),
    h('div', { class: 'field' }, h('label', { for: 'review-author' }, 'Your name'), author),
    h('div', { class: 'filter-actions' }, save),
    outcome);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    localStorage.setItem(AUTHOR_KEY, author.value.trim());
    try {
      const updated = await api.setReview(race.id, {
        state: state.value, comment: comment.value, author: author.value.trim(),
      });
      replaceChildren(outcome, h('p', { class: 'saved', role: 'status' }, 'Review saved.'));
      onSaved(updated);
    } catch (error) {
      replaceChildren(outcome, errorBox(error));
    } finally {
      save.disabled = false;
    }
  });
  return form;
}
