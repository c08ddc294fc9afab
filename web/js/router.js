// Client-side routing: the path picks the page, the query string holds the
// page's state (project, filters, page token), so every view is a URL that
// can be shared and reloaded. The server answers index.html for every
// non-API path, which makes deep links work.

import { h, replaceChildren } from './dom.js';
import { errorBox } from './components/errorBox.js';

let routes = [];
let content = null;
let renderCount = 0;

export function currentParams() {
  return new URLSearchParams(window.location.search);
}

// A dashboard link that keeps the current project.
export function href(path, params = {}) {
  const query = new URLSearchParams();
  const project = currentParams().get('project');
  if (project) query.set('project', project);
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    query.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  return render();
}

function match(pathname) {
  for (const [pattern, page] of routes) {
    const found = pattern.exec(pathname);
    if (found) return { page, args: found.slice(1).map(decodeURIComponent) };
  }
  return null;
}

function notFoundPage(view) {
  view.append(h('h1', null, 'Page not found'),
    h('p', null, 'There is no dashboard page at this address. ', h('a', { href: '/' }, 'Go to the overview'), '.'));
}

// Each page renders into a detached view that replaces the old one only if
// no newer navigation started meanwhile; a slow response cannot overwrite a
// newer page.
export async function render() {
  const ticket = ++renderCount;
  const found = match(window.location.pathname);
  const view = h('div', { class: 'page' });
  content.setAttribute('aria-busy', 'true');
  try {
    if (found) await found.page(view, { args: found.args, params: currentParams() });
    else notFoundPage(view);
  } catch (error) {
    if (error?.kind === undefined) console.error(error);
    view.append(errorBox(error));
  }
  if (ticket !== renderCount) return;
  replaceChildren(content, view);
  content.removeAttribute('aria-busy');
  document.dispatchEvent(new CustomEvent('gpurace:rendered'));
}

function isPlainLeftClick(event) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

function onClick(event) {
  const link = event.target.closest('a[href]');
  if (!link || !isPlainLeftClick(event) || link.target) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return;
  // In-page anchors such as the skip link keep the browser's behaviour.
  const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
  if (samePage && url.hash) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
}

export function startRouter(table, container) {
  routes = table;
  content = container;
  document.addEventListener('click', onClick);
  window.addEventListener('popstate', () => render());
  return render();
}
