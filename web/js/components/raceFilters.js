// The race list's filter form. It reads its initial values from the URL and
// submits by navigating to a new URL, so the filters are always shareable.

import { h } from '../dom.js';
import { DetectionState, RaceClass, RaceStatus, ReviewState } from '../enums.js';

// Query parameters the race list understands, in the API's own names.
export const FILTER_NAMES = ['branch', 'status', 'class', 'kernel', 'file', 'review', 'detection',
  'new_since_commit', 'new_since_run', 'order_by', 'page_size'];

const ORDERS = [
  ['-score', 'Score, highest first'],
  ['-last_seen', 'Last seen, newest first'],
  ['-occurrences', 'Occurrences, most first'],
];

function listOf(params, name) {
  return (params.get(name) ?? '').split(',').filter(Boolean);
}

function textField(params, name, label, placeholder) {
  const id = `filter-${name}`;
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name, type: 'text', value: params.get(name) ?? '', placeholder }));
}

function checkboxGroup(params, name, legend, enumType) {
  const chosen = new Set(listOf(params, name));
  return h('fieldset', { class: 'field checks' },
    h('legend', null, legend),
    enumType.values.map((value) => h('label', null,
      h('input', { type: 'checkbox', name, value, checked: chosen.has(value) }),
      ` ${enumType.label(enumType.toFull(value))}`)));
}

function orderSelect(params) {
  const current = params.get('order_by') || '-score';
  return h('div', { class: 'field' },
    h('label', { for: 'filter-order_by' }, 'Sort by'),
    h('select', { id: 'filter-order_by', name: 'order_by' },
      ORDERS.map(([value, text]) => h('option', { value, selected: value === current }, text))));
}

// Collects the form into query parameters: checkbox groups become one
// comma-separated value, as the API takes them.
function formParams(form) {
  const data = new FormData(form);
  const params = {};
  for (const name of FILTER_NAMES) {
    const values = data.getAll(name).map((v) => String(v).trim()).filter(Boolean);
    if (values.length) params[name] = values.join(',');
  }
  return params;
}

export function raceFilters(params, onApply) {
  const form = h('form', { class: 'filters', 'aria-label': 'Race filters' },
    h('div', { class: 'filter-row' },
      textField(params, 'branch', 'Branch', 'any'),
      textField(params, 'kernel', 'Kernel', 'any'),
      textField(params, 'file', 'File contains', 'any'),
      textField(params, 'new_since_commit', 'New since commit', 'commit'),
      orderSelect(params)),
    h('div', { class: 'filter-row' },
      checkboxGroup(params, 'status', 'Status', RaceStatus),
      checkboxGroup(params, 'class', 'Class', RaceClass),
      checkboxGroup(params, 'review', 'Review', ReviewState),
      checkboxGroup(params, 'detection', 'Detection', DetectionState)),
    h('div', { class: 'filter-actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Apply filters'),
      h('button', { type: 'reset', onclick: (event) => {
        event.preventDefault();
        onApply({});
      } }, 'Clear')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onApply(formParams(form));
  });
  return form;
}
