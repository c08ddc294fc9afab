// The trend of open races over runs, drawn as inline SVG: a line for the
// races open after each run, bars for the races it added and resolved.
// The same numbers are available as a table for screen readers.

import { h, s } from '../dom.js';
import { shortCommit, timestamp } from '../format.js';

const WIDTH = 760;
const HEIGHT = 260;
const MARGIN = { top: 16, right: 16, bottom: 44, left: 44 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

// A round axis maximum with at most five grid lines.
function axisTicks(max) {
  const step = Math.max(1, Math.ceil(max / 4));
  const ticks = [];
  for (let v = 0; v <= Math.max(max, step); v += step) ticks.push(v);
  return ticks;
}

function scales(points) {
  const max = Math.max(1, ...points.flatMap((p) => [p.open ?? 0, p.added ?? 0, p.resolved ?? 0]));
  const ticks = axisTicks(max);
  const top = ticks[ticks.length - 1];
  const slot = PLOT_W / points.length;
  return {
    ticks,
    slot,
    x: (i) => MARGIN.left + slot * (i + 0.5),
    y: (v) => MARGIN.top + PLOT_H - (PLOT_H * v) / top,
  };
}

function grid({ ticks, y }) {
  return ticks.map((v) => s('g', { class: 'tick' },
    s('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(v), y2: y(v) }),
    s('text', { x: MARGIN.left - 8, y: y(v) + 4, 'text-anchor': 'end' }, String(v))));
}

function bars(points, { slot, x, y }) {
  const width = Math.min(14, slot / 4);
  return points.map((p, i) => [
    s('rect', { class: 'bar-added', x: x(i) - width, y: y(p.added ?? 0), width,
      height: y(0) - y(p.added ?? 0) }),
    s('rect', { class: 'bar-resolved', x: x(i), y: y(p.resolved ?? 0), width,
      height: y(0) - y(p.resolved ?? 0) }),
  ]);
}

function openLine(points, { x, y }) {
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i)},${y(p.open ?? 0)}`).join(' ');
  return [
    s('path', { class: 'line-open', d: path }),
    points.map((p, i) => s('circle', { class: 'dot-open', cx: x(i), cy: y(p.open ?? 0), r: 4 },
      s('title', null, `${shortCommit(p.commit)}: ${p.open ?? 0} open, +${p.added ?? 0} new, −${p.resolved ?? 0} resolved`))),
  ];
}

// Commit labels, thinned out so they never overlap.
function xLabels(points, { slot, x }) {
  const every = Math.ceil(70 / slot);
  return points.map((p, i) => (i % every === 0 || i === points.length - 1) &&
    s('text', { class: 'x-label', x: x(i), y: HEIGHT - MARGIN.bottom + 18, 'text-anchor': 'middle' },
      shortCommit(p.commit).slice(0, 7)));
}

function legend() {
  const item = (cls, text) => h('li', null, h('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' }), text);
  return h('ul', { class: 'legend' },
    item('swatch-open', 'Open races'), item('swatch-added', 'New in run'),
    item('swatch-resolved', 'Resolved in run'));
}

function dataTable(points) {
  return h('details', { class: 'chart-data' }, h('summary', null, 'Show as table'),
    h('table', null,
      h('thead', null, h('tr', null, ['Commit', 'Time', 'Open', 'New', 'Resolved', 'Confirmed']
        .map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', null, points.map((p) => h('tr', null,
        h('td', null, h('code', null, shortCommit(p.commit))), h('td', null, timestamp(p.time)),
        h('td', { class: 'num' }, String(p.open ?? 0)), h('td', { class: 'num' }, String(p.added ?? 0)),
        h('td', { class: 'num' }, String(p.resolved ?? 0)),
        h('td', { class: 'num' }, String(p.confirmed ?? 0)))))));
}

export function trendChart(points) {
  if (!points?.length) return h('p', { class: 'empty' }, 'No runs yet: the trend starts with the first upload.');
  const sc = scales(points);
  const last = points[points.length - 1];
  return h('figure', { class: 'trend' },
    s('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'trend-title',
      class: 'trend-chart' },
    s('title', { id: 'trend-title' },
      `Open races over ${points.length} runs; ${last.open ?? 0} open after the latest`),
    grid(sc), bars(points, sc), openLine(points, sc), xLabels(points, sc)),
    h('figcaption', null, legend()),
    dataTable(points));
}
