// Every upload of the project, newest first.

import { api } from '../api.js';
import { h } from '../dom.js';
import { pageProject } from '../project.js';
import { pager } from '../components/pager.js';
import { runTable } from '../components/runTable.js';

export async function runsPage(view, { params }) {
  const project = await pageProject(params);
  document.title = `Runs · ${project ?? ''} · gpurace`;
  view.append(h('h1', null, 'Runs'));
  if (!project) {
    view.append(h('p', { class: 'empty' }, 'No project has uploaded anything yet.'));
    return;
  }
  const filters = {};
  for (const name of ['branch', 'page_token']) {
    if (params.get(name)) filters[name] = params.get(name);
  }
  const response = await api.runs({ project, page_size: 25, ...filters });
  const runs = response.runs ?? [];
  view.append(runTable(runs),
    pager('/runs', filters, { nextPageToken: response.nextPageToken, shown: runs.length }));
}
