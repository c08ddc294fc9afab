// The client of the server's HTTP/JSON API. Every failure becomes an
// ApiError whose kind says what the user can do about it: start the server,
// fix the token, or read the server's message.

import { loadToken } from './token.js';

class ApiError extends Error {
  // kind: 'network' | 'unauthenticated' | 'forbidden' | 'not-found' | 'invalid' | 'server'
  constructor(kind, message, httpStatus = 0) {
    super(message);
    this.kind = kind;
    this.httpStatus = httpStatus;
  }
}

function kindOf(httpStatus) {
  if (httpStatus === 401) return 'unauthenticated';
  if (httpStatus === 403) return 'forbidden';
  if (httpStatus === 404) return 'not-found';
  if (httpStatus >= 400 && httpStatus < 500) return 'invalid';
  return 'server';
}

// The server's error body is {"error": {"code", "message"}}; anything else
// (a proxy's HTML page) falls back to the status line.
async function errorFrom(response) {
  let detail = `${response.status} ${response.statusText}`.trim();
  try {
    const body = await response.json();
    if (body?.error?.message) detail = body.error.message;
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiError(kindOf(response.status), detail, response.status);
}

function urlOf(path, params) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return url;
}

async function request(method, path, { params, body } = {}) {
  const headers = { Accept: 'application/json' };
  const token = loadToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(urlOf(path, params), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network',
      `Cannot reach the gpurace server at ${window.location.origin}. Is gpurace serve running?`);
  }
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

export const api = {
  projects: () => request('GET', '/api/v1/projects'),
  summary: (params) => request('GET', '/api/v1/summary', { params }),
  races: (params) => request('GET', '/api/v1/races', { params }),
  race: (id) => request('GET', `/api/v1/races/${encodeURIComponent(id)}`),
  raceHistory: (id) => request('GET', `/api/v1/races/${encodeURIComponent(id)}/history`),
  setReview: (id, review) =>
    request('PUT', `/api/v1/races/${encodeURIComponent(id)}/review`, { body: review }),
  runs: (params) => request('GET', '/api/v1/runs', { params }),
  run: (runId) => request('GET', `/api/v1/runs/${encodeURIComponent(runId)}`),
  trend: (params) => request('GET', '/api/v1/trend', { params }),
};
