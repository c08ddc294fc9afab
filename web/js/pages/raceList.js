// The race list: filters in the URL, a table of races, forward pagination.

import { api } from '../api.js';
import { h } from '../dom.js';
import { pageProject } from '../project.js';
import { count } from '../format.js';
import { href, navigate } from '../router.js';
import { FILTER_NAMES, raceFilters } from '../components/raceFilters.js';
import { pager } from '../components/pager.js';
import { raceTable } from '../components/raceTable.js';

function filtersFrom(params) {
  const filters = {};
  for (const name of [...FILTER_NAMES, 'page_token']) {
    if (params.get(name)) filters[name] = params.get(name);
  }
  return filters;
}

export async function raceListPage(view, { params }) {
  const project = await pageProject(params);
  const filters = filtersFrom(params);
  document.title = `Races · ${project ?? ''} · gpurace`;
  view.append(h('h1', null, 'Races'),
    raceFilters(params, (chosen) => navigate(href('/races', chosen))));
  if (!project) {
    view.append(h('p', { class: 'empty' }, 'No project has uploaded anything yet.'));
    return;
  }
  const response = await api.races({ project, order_by: '-score', ...filters });
  const races = response.races ?? [];
  view.append(
    raceTable(races),
    pager('/races', filters, {
      nextPageToken: response.nextPageToken,
      shown: races.length,
      // A count that stopped at the server's limit reads "1,000+".
      total: response.totalCount === undefined ? undefined
        : count(response.totalCount) + (response.totalCountIsLowerBound ? '+' : ''),
    }));
}
