// The project a page shows: the one in the URL, else the server's first.
// Asking the server here (not only in the header's picker) lets a page
// report a wrong token or an unreachable server instead of an empty project.

import { api } from './api.js';

export async function pageProject(params) {
  const chosen = params.get('project');
  if (chosen) return chosen;
  const { projects = [] } = await api.projects();
  return projects[0] ?? null;
}
