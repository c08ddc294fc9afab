// Explains a failed request in terms of what the user can do next.

import { h } from '../dom.js';
import { loadToken } from '../token.js';

function advice(error) {
  switch (error.kind) {
    case 'network':
      return 'Check that gpurace serve is running and reachable, then reload the page.';
    case 'unauthenticated':
      return loadToken()
        ? 'The API token was not accepted. Enter a valid token in the API token field.'
        : 'This server requires an API token. Enter one in the API token field.';
    case 'forbidden':
      return "The API token's role does not allow this. Ask an admin for a token with a higher role.";
    default:
      return '';
  }
}

const TITLES = {
  network: 'Server unreachable',
  unauthenticated: 'Wrong or missing API token',
  forbidden: 'Not allowed',
  'not-found': 'Not found',
  invalid: 'Request rejected',
  server: 'Server error',
  internal: 'The page failed to render',
};

export function errorBox(error) {
  // An error without a kind is a bug in the page itself, not a server answer.
  const kind = error.kind ?? 'internal';
  const title = TITLES[kind] ?? 'Error';
  return h('div', { class: `error-box error-${kind}`, role: 'alert', dataset: { errorKind: kind } },
    h('strong', null, title),
    h('p', null, error.message),
    advice(error) && h('p', { class: 'advice' }, advice(error)));
}
