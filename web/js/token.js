// The API token lives in localStorage so that it survives reloads and is
// shared by the tabs of one browser; it is sent only to this origin.

const KEY = 'gpurace.token';

export function loadToken() {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function saveToken(token) {
  const trimmed = token.trim();
  if (trimmed) localStorage.setItem(KEY, trimmed);
  else localStorage.removeItem(KEY);
}
