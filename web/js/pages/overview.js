// The project at a glance: what is open now, how that changed over runs,
// and the latest uploads.

import { api } from '../api.js';
import { h } from '../dom.js';
import { pageProject } from '../project.js';
import { DetectionState, RaceClass, RaceStatus, ReviewState } from '../enums.js';
import { href, navigate } from '../router.js';
import { countBreakdown } from '../components/countBreakdown.js';
import { runTable } from '../components/runTable.js';
import { trendChart } from '../components/trendChart.js';

function headline(label, n, link) {
  return h('a', { class: 'headline', href: link },
    h('span', { class: 'headline-count' }, String(n)), h('span', null, label));
}

function headlines(summary, base) {
  const status = summary.byStatus ?? {};
  const detection = summary.byDetection ?? {};
  const review = summary.byReview ?? {};
  return h('div', { class: 'headlines' },
    headline('races', summary.total ?? 0, href('/races', base)),
    headline('confirmed at run time', status.RACE_STATUS_CONFIRMED ?? 0,
      href('/races', { ...base, status: 'confirmed' })),
    headline('new', detection.DETECTION_STATE_NEW ?? 0, href('/races', { ...base, detection: 'new' })),
    headline('unreviewed', review.REVIEW_STATE_UNREVIEWED ?? 0,
      href('/races', { ...base, review: 'unreviewed' })));
}

function branchForm(branch) {
  const input = h('input', { id: 'overview-branch', name: 'branch', type: 'text', value: branch,
    placeholder: 'all branches' });
  const form = h('form', { class: 'inline-form' },
    h('label', { for: 'overview-branch' }, 'Branch'), input,
    h('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    navigate(href('/', { branch: input.value.trim() }));
  });
  return form;
}

export async function overviewPage(view, { params }) {
  const project = await pageProject(params);
  const branch = params.get('branch') ?? '';
  document.title = `${project ?? 'Overview'} · gpurace`;
  if (!project) {
    view.append(h('h1', null, 'Overview'),
      h('p', { class: 'empty' }, 'No project has uploaded anything yet. Upload an analysis with gpurace upload.'));
    return;
  }
  const query = { project, branch };
  const [summary, trend, runs] = await Promise.all([
    api.summary(query), api.trend({ ...query, max_points: 30 }), api.runs({ ...query, page_size: 8 }),
  ]);
  const base = branch ? { branch } : {};
  view.append(
    h('div', { class: 'page-head' }, h('h1', null, project), branchForm(branch)),
    headlines(summary, base),
    h('div', { class: 'breakdowns' },
      countBreakdown('By status', RaceStatus, 'status', summary.byStatus, base),
      countBreakdown('By class', RaceClass, 'class', summary.byClass, base),
      countBreakdown('By review', ReviewState, 'review', summary.byReview, base),
      countBreakdown('By detection', DetectionState, 'detection', summary.byDetection, base)),
    h('section', { class: 'card', 'aria-labelledby': 'trend-heading' },
      h('h2', { id: 'trend-heading' }, 'Open races over runs'), trendChart(trend.points)),
    h('section', { class: 'card', 'aria-labelledby': 'runs-heading' },
      h('h2', { id: 'runs-heading' }, 'Latest runs'), runTable(runs.runs ?? []),
      h('p', null, h('a', { href: href('/runs', base) }, 'All runs »'))));
}
