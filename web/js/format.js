// Turns proto3 JSON values into short strings for people. Proto3 JSON omits
// zero values and writes 64-bit integers as strings, so every helper accepts
// a missing or string-typed field.

export function count(value) {
  return Number(value ?? 0);
}

export function dim3(d) {
  if (!d) return '—';
  return `(${d.x ?? 0}, ${d.y ?? 0}, ${d.z ?? 0})`;
}

export function threadCoord(t) {
  if (!t) return '—';
  return `block ${dim3(t.blockIdx)} thread ${dim3(t.threadIdx)}`;
}

export function location(loc) {
  if (!loc || !loc.file) return '—';
  const line = loc.line ? `:${loc.line}` : '';
  const column = loc.line && loc.column ? `:${loc.column}` : '';
  return `${loc.file}${line}${column}`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
});

export function timestamp(value) {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateFormat.format(date);
}

export function shortCommit(commit) {
  return commit ? commit.slice(0, 10) : '—';
}

export function score(value) {
  return Number(value ?? 0).toFixed(2);
}

// The file name without its directories: what fits in a table cell.
export function baseName(path) {
  if (!path) return '';
  const cut = path.lastIndexOf('/');
  return cut < 0 ? path : path.slice(cut + 1);
}
