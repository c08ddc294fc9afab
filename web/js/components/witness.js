// The static witness: a concrete pair of threads and parameter values under
// which the two accesses touch the same bytes.

import { h } from '../dom.js';
import { dim3, threadCoord } from '../format.js';

function namedValues(values) {
  if (!values?.length) return '—';
  return h('ul', { class: 'named-values' }, values.map((v) =>
    h('li', null, h('code', null, v.name ?? ''), ' = ', h('code', null, v.value ?? ''))));
}

function row(label, ...value) {
  return h('tr', null, h('th', { scope: 'row' }, label), h('td', null, ...value));
}

export function witnessTable(witness) {
  if (!witness) return h('p', { class: 'muted' }, 'No witness was recorded.');
  return h('table', { class: 'key-value witness' },
    h('tbody', null,
      row('Thread 1', threadCoord(witness.first)),
      row('Thread 2', threadCoord(witness.second)),
      row('Block dims', dim3(witness.blockDim)),
      row('Grid dims', dim3(witness.gridDim)),
      row('Parameters', namedValues(witness.parameters)),
      witness.index && row('Index', h('code', null, witness.index)),
      row('Byte offset', String(witness.byteOffset ?? 0)),
      witness.firstLocals?.length > 0 && row('Thread 1 locals', namedValues(witness.firstLocals)),
      witness.secondLocals?.length > 0 && row('Thread 2 locals', namedValues(witness.secondLocals))));
}
