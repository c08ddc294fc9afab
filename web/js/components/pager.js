// Forward pagination with the server's opaque page tokens. The token is in
// the URL, so the browser's back button returns to the previous page.

import { h } from '../dom.js';
import { href } from '../router.js';

// `params` are the page's current query parameters without the token.
export function pager(path, params, { nextPageToken, shown, total }) {
  const onFirstPage = !params.page_token;
  const base = { ...params, page_token: undefined };
  const summary = total === undefined
    ? `${shown} shown`
    : `${shown} shown of ${total}`;
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    h('span', { class: 'pager-summary' }, summary),
    !onFirstPage && h('a', { href: href(path, base), class: 'button' }, '« First page'),
    nextPageToken && h('a', { href: href(path, { ...base, page_token: nextPageToken }), class: 'button', rel: 'next' }, 'Next page »'));
}
