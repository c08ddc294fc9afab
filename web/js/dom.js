// Builds DOM nodes from data. Every string a caller passes as a child becomes
// a text node, so values from the server (file names, expressions, review
// comments) can never turn into markup: the dashboard has no innerHTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function setAttributes(el, attrs) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

// Missing values (undefined, null, false, '') add nothing, so callers can
// write `value && node`.
function appendChildren(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false || child === '') continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// h('a', {href: '/races', class: 'x'}, 'text', otherNode)
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  appendChildren(el, children);
  return el;
}

// The same for SVG elements, which need their namespace.
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttributes(el, attrs);
  appendChildren(el, children);
  return el;
}

export function replaceChildren(el, ...children) {
  el.replaceChildren();
  appendChildren(el, children);
}

// Only http(s) links from data are followed; anything else (javascript:,
// data:) would run in the dashboard's origin.
export function safeExternalUrl(url) {
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
