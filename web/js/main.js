// Starts the dashboard: the header (project picker, token field, navigation)
// and the router that renders the page for the current URL.

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { currentParams, navigate, render, startRouter } from './router.js';
import { loadToken, saveToken } from './token.js';
import { overviewPage } from './pages/overview.js';
import { raceListPage } from './pages/raceList.js';
import { raceDetailPage } from './pages/raceDetail.js';
import { runsPage } from './pages/runs.js';
import { runDetailPage } from './pages/runDetail.js';

const ROUTES = [
  [/^\/$/, overviewPage],
  [/^\/races\/?$/, raceListPage],
  [/^\/races\/([^/]+)$/, raceDetailPage],
  [/^\/runs\/?$/, runsPage],
  [/^\/runs\/([^/]+)$/, runDetailPage],
];

function setUpTokenForm() {
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  input.value = loadToken();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    saveToken(input.value);
    await loadProjects();
    await render();
  });
}

// Pages read the project from the URL; a bare URL gets the first one.
function addProjectToUrl(project) {
  const params = currentParams();
  params.set('project', project);
  history.replaceState(null, '', `${window.location.pathname}?${params}`);
}

// The picker lists the server's projects; a failure here is reported by the
// page itself, which makes the same kind of request.
async function loadProjects() {
  const select = document.getElementById('project-select');
  let projects = [];
  try {
    projects = (await api.projects()).projects ?? [];
  } catch {
    projects = [];
  }
  const chosen = currentParams().get('project') ?? projects[0] ?? '';
  if (chosen && !currentParams().get('project')) addProjectToUrl(chosen);
  const names = chosen && !projects.includes(chosen) ? [chosen, ...projects] : projects;
  replaceChildren(select,
    names.length === 0 && h('option', { value: '' }, 'no projects'),
    names.map((name) => h('option', { value: name, selected: name === chosen }, name)));
  select.disabled = names.length === 0;
}

function setUpProjectPicker() {
  const select = document.getElementById('project-select');
  select.addEventListener('change', () => {
    const page = window.location.pathname.startsWith('/runs') ? '/runs'
      : window.location.pathname.startsWith('/races') ? '/races' : '/';
    navigate(`${page}?${new URLSearchParams({ project: select.value })}`);
  });
}

function markCurrentNavLink() {
  const path = window.location.pathname;
  for (const link of document.querySelectorAll('.nav-links a')) {
    const target = link.pathname;
    const current = target === '/' ? path === '/' : path.startsWith(target);
    if (current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
    link.search = new URLSearchParams(
      currentParams().get('project') ? { project: currentParams().get('project') } : {}).toString();
  }
}

async function start() {
  setUpTokenForm();
  setUpProjectPicker();
  document.addEventListener('gpurace:rendered', markCurrentNavLink);
  await loadProjects();
  await startRouter(ROUTES, document.getElementById('content'));
}

start();
