// The perf findings of a run (`gpurace analyze --perf`): bank conflicts
// and uncoalesced accesses, worst first, with a kind filter of their own.
// They are not races: no lifecycle, no triage, one list per run.

import { h, replaceChildren } from '../dom.js';
import { PerfKind } from '../enums.js';
import { baseName } from '../format.js';

function ratio(finding) {
  const cost = finding.cost ?? 0;
  const best = finding.best || 1;
  return cost / best;
}

function costText(finding) {
  if (finding.kind === 'PERF_KIND_BANK_CONFLICT') return `${finding.cost ?? 0}-way`;
  return `${finding.cost ?? 0} sectors (best ${finding.best ?? 0})`;
}

function dims(d) {
  return d ? `(${d.x ?? 0},${d.y ?? 0},${d.z ?? 0})` : '—';
}

// "blockDim (32,1,1) pitch=32", and the values proved free: "free when
// pitch = 33".
function launchCell(finding) {
  const values = (finding.parameters ?? []).map((p) => `${p.name}=${p.value}`).join(' ');
  const free = (finding.freeWhen ?? []).map((c) => `${c.name} = ${c.equals ?? 0}`);
  return h('td', { class: 'nowrap' },
    `blockDim ${dims(finding.blockDim)}${values ? ` ${values}` : ''}`,
    free.length ? h('div', { class: 'free-when' }, `free when ${free.join(' or ')}`) : null);
}

function perfRow(finding) {
  const loc = finding.site?.location ?? {};
  return h('tr', { dataset: { kind: PerfKind.toShort(finding.kind), fingerprint: finding.fingerprint } },
    h('td', { class: 'num' }, `${ratio(finding).toFixed(1)}×`),
    h('td', null, PerfKind.label(finding.kind)),
    h('td', null, h('code', null, finding.kernel || '—')),
    h('td', null, h('span', { class: 'site', title: loc.file ?? '' },
      h('span', { class: 'file' }, baseName(loc.file ?? '')), loc.line ? `:${loc.line}` : ''),
      ' ', h('code', null, finding.site?.expression ?? '')),
    h('td', { class: 'num' }, costText(finding)),
    h('td', null, finding.inLoop ? 'yes' : 'no'),
    launchCell(finding),
    h('td', null, finding.message ?? ''));
}

const HEADERS = ['Cost ×', 'Kind', 'Kernel', 'Access', 'Cost', 'In a loop', 'Witness launch',
  'Why'];

function table(findings) {
  if (findings.length === 0) return h('p', { class: 'empty' }, 'No perf findings.');
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'perf' },
      h('thead', null, h('tr', null, HEADERS.map((title) => h('th', { scope: 'col' }, title)))),
      h('tbody', null, findings.map(perfRow))));
}

// `findings` as the server sends them; proofs are never stored, and those
// under the threshold show only when asked for.
export function perfSection(findings) {
  const list = h('div', { class: 'perf-list' });
  const kind = h('select', { id: 'perf-kind', name: 'perf_kind' },
    h('option', { value: '' }, 'All kinds'),
    PerfKind.values.map((value) => h('option', { value }, PerfKind.label(PerfKind.toFull(value)))));
  const below = h('input', { type: 'checkbox', id: 'perf-below', name: 'perf_below' });
  const render = () => {
    const shown = findings.filter((f) =>
      (!kind.value || PerfKind.toShort(f.kind) === kind.value) && (below.checked || !f.belowThreshold));
    replaceChildren(list, table(shown));
  };
  kind.addEventListener('change', render);
  below.addEventListener('change', render);
  render();
  return h('section', { class: 'card', 'aria-labelledby': 'perf-title' },
    h('h2', { id: 'perf-title' },
      `Perf findings (${findings.filter((f) => !f.belowThreshold).length})`),
    h('div', { class: 'filters perf-filters' },
      h('label', { for: 'perf-kind' }, 'Kind '), kind,
      h('label', { for: 'perf-below' }, below, ' also under the threshold')),
    list);
}
