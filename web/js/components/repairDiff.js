// The repair `gpurace analyze --fix` found for a race: a verified change
// shown as a unified diff, the other race whose change also removes this
// one, or why no change was found. The diff's file names and code are data
// from the upload: every line goes into the page as text.

import { api } from '../api.js';
import { h, replaceChildren } from '../dom.js';
import { isSet, RepairKind } from '../enums.js';
import { href } from '../router.js';

const KIND_WORDS = {
  REPAIR_KIND_ATOMIC: 'Make the read-modify-write atomic',
  REPAIR_KIND_BARRIER: 'Insert a barrier between the accesses',
  REPAIR_KIND_SHARED: 'Removed by the repair of another race',
  REPAIR_KIND_SCOPE: 'Widen the atomics, fences or scopes to the device',
  REPAIR_KIND_FENCE: 'Add a __threadfence() to the release or acquire',
  REPAIR_KIND_GRID_SYNC: 'Insert a grid-wide sync between the accesses',
  REPAIR_KIND_BARRIER_MOVED: 'Move the barrier out of the branch or loop threads disagree on',
};

// A kind this dashboard does not know yet still reads as its enum label.
export function repairKindWords(full) {
  return KIND_WORDS[full] ?? (isSet(full) ? RepairKind.label(full) : 'Change');
}

export function isSharedRepair(repair) {
  return repair?.kind === 'REPAIR_KIND_SHARED' || Boolean(repair?.repairedWith);
}

// The race whose repair removed this one. The API has no lookup by
// fingerprint, so this reads one page of the races of the same kernel (a
// change that removes two findings is nearly always in their kernel) and
// gives up quietly otherwise: the page then names the fingerprint alone.
export async function findRepairingRace(race) {
  const fingerprint = race?.candidate?.repair?.repairedWith;
  const kernel = race?.candidate?.kernel;
  if (!fingerprint || !kernel) return null;
  try {
    const { races = [] } = await api.races({ project: race.project, kernel, page_size: 100 });
    return races.find((r) => r.fingerprint === fingerprint && r.id !== race.id) ?? null;
  } catch {
    return null;
  }
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

// Splits a unified diff into typed lines: 'file' (---, +++ and other
// headers), 'hunk' (@@), 'add', 'remove', 'context' and 'note' ("\ No
// newline at end of file"), with the old and new line numbers of each
// line of a hunk. A hunk ends when its header's counts are used up, so a
// removed line that reads "-- x" is never taken for a file header.
export function parseUnifiedDiff(text) {
  const lines = String(text ?? '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out = [];
  let oldLeft = 0;
  let newLeft = 0;
  let oldLine = 0;
  let newLine = 0;
  for (const line of lines) {
    const mark = line.charAt(0);
    if (mark === '\\') {
      out.push({ type: 'note', text: line });
      continue;
    }
    if (oldLeft > 0 || newLeft > 0) {
      if (mark === '+' && newLeft > 0) {
        out.push({ type: 'add', text: line, newLine: newLine++ });
        newLeft--;
        continue;
      }
      if (mark === '-' && oldLeft > 0) {
        out.push({ type: 'remove', text: line, oldLine: oldLine++ });
        oldLeft--;
        continue;
      }
      if ((mark === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
        out.push({ type: 'context', text: line, oldLine: oldLine++, newLine: newLine++ });
        oldLeft--;
        newLeft--;
        continue;
      }
      // Counts that do not match the lines: read on as headers.
      oldLeft = 0;
      newLeft = 0;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLine = Number(hunk[3]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      out.push({ type: 'hunk', text: line });
    } else {
      out.push({ type: 'file', text: line });
    }
  }
  return out;
}

// The changed file as the diff names it ("+++ path", else "--- path").
function diffFile(lines) {
  const header = lines.find((l) => l.type === 'file' && l.text.startsWith('+++ ')) ??
    lines.find((l) => l.type === 'file' && l.text.startsWith('--- '));
  const name = header?.text.slice(4).replace(/\t.*$/, '') ?? '';
  return name === '/dev/null' ? '' : name;
}

// The words a screen reader hears before each changed line; the +/- mark
// stays in the line itself for the eye and for copying.
const SPOKEN = { add: 'added: ', remove: 'removed: ' };

function diffLine(line) {
  return h('span', { class: `diff-line diff-${line.type}` },
    h('span', { class: 'diff-number', 'aria-hidden': 'true' }, line.oldLine ?? ''),
    h('span', { class: 'diff-number', 'aria-hidden': 'true' }, line.newLine ?? ''),
    SPOKEN[line.type] && h('span', { class: 'visually-hidden' }, SPOKEN[line.type]),
    h('span', { class: 'diff-text' }, line.text),
    '\n');
}

// Copies through the Clipboard API, or, outside a secure context (plain
// http to a remote server), through a selected textarea.
async function writeClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { readonly: true, class: 'visually-hidden', 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

function copyButton(diff) {
  const outcome = h('span', { class: 'copy-outcome', role: 'status' });
  const button = h('button', { type: 'button', class: 'copy-patch' }, 'Copy patch');
  button.addEventListener('click', async () => {
    const copied = await writeClipboard(diff);
    replaceChildren(outcome, copied ? 'Patch copied.'
      : 'The browser did not allow copying: select the patch and copy it.');
  });
  return [button, outcome];
}

export function unifiedDiff(diff) {
  const lines = parseUnifiedDiff(diff);
  const file = diffFile(lines);
  return h('div', { class: 'diff-view' },
    h('div', { class: 'diff-toolbar' },
      h('span', { class: 'diff-file-name' }, file || 'Patch'),
      copyButton(diff)),
    h('pre', { class: 'diff', tabindex: '0', 'aria-label': file ? `Patch of ${file}` : 'Patch' },
      h('code', null, lines.map(diffLine))));
}

function stateBadge(state, text) {
  return h('span', { class: `badge repair-badge repair-badge-${state}` }, text);
}

function verifiedBody(repair) {
  return [
    h('p', { class: 'repair-kind' }, stateBadge('verified', 'Verified'), ' ',
      h('strong', null, repairKindWords(repair.kind))),
    repair.summary && h('p', { class: 'repair-summary' }, repair.summary),
    repair.prerequisite && h('p', { class: 'repair-prerequisite' },
      h('strong', null, 'Requires: '), repair.prerequisite),
    repair.buildsOnEarlier && h('p', { class: 'repair-builds-on' },
      'This change edits text that an earlier repair inserted: its diff is against the file ',
      'with the repairs listed before it applied.'),
    repair.diff
      ? unifiedDiff(repair.diff)
      : h('p', { class: 'muted no-diff' }, 'The upload carried no diff for this repair.'),
    h('p', { class: 'muted repair-note' },
      'Verified by analyzing the changed program again: this race is gone and no other ',
      'finding appeared.'),
  ];
}

function sharedBody(repair, repairingRace) {
  const fingerprint = repair.repairedWith;
  const other = repairingRace
    ? h('a', { class: 'repairing-race',
      href: href(`/races/${encodeURIComponent(repairingRace.id)}`) }, `race #${repairingRace.id}`)
    : ['race ', h('code', { class: 'fingerprint repairing-fingerprint' }, fingerprint || '—')];
  const change = repairingRace?.candidate?.repair?.summary;
  return [
    h('p', { class: 'repair-kind' }, stateBadge('shared', 'Shared'), ' ',
      h('strong', { class: 'repair-shared-text' }, 'Removed by the repair of ', other)),
    change && h('p', { class: 'repair-summary' }, 'Its change: ', change),
    repair.summary && !change && h('p', { class: 'repair-summary' }, repair.summary),
    h('p', { class: 'muted repair-note' },
      'The change made for that race also removes this one; applying it fixes both.'),
  ];
}

function unrepairedBody(repair) {
  const tried = Number(repair.candidatesTried ?? 0);
  return [
    h('p', { class: 'repair-kind' }, stateBadge('none', 'Not repaired'), ' ',
      h('strong', null, 'No verified repair was found.')),
    h('p', { class: 'repair-reason' }, repair.unrepairedReason || 'The analysis gave no reason.'),
    tried > 0 && h('p', { class: 'muted repair-tried' }, tried === 1
      ? '1 candidate change was analyzed.' : `${tried} candidate changes were analyzed.`),
  ];
}

// The "Suggested repair" card, or null when the upload had no repair for
// the race (an analysis without --fix).
export function repairSection(repair, repairingRace) {
  if (!repair) return null;
  let body;
  let state;
  if (isSharedRepair(repair)) {
    body = sharedBody(repair, repairingRace);
    state = 'shared';
  } else if (repair.verified) {
    body = verifiedBody(repair);
    state = 'verified';
  } else {
    body = unrepairedBody(repair);
    state = 'none';
  }
  return h('section',
    { class: 'card repair', 'aria-label': 'Suggested repair', dataset: { repair: state } },
    h('h2', null, 'Suggested repair'), body);
}
