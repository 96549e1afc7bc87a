/* Small DOM (and fetch) helpers shared by the page's modules. */

/** The element with data-testid `testid` (inside `root`, default the document). */
export function $(testid, root) {
  return (root || document).querySelector('[data-testid="' + testid + '"]');
}

/** A new element with a class and text (always as text, never HTML). */
export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/** fetch(url, opts) answering the JSON body, or failing with the server's one-line `error`. */
export function getJson(url, opts) {
  return fetch(url, opts).then(function (r) {
    return r.json().catch(function () { return {}; }).then(function (body) {
      if (!r.ok) throw new Error(body && body.error ? body.error : "the server answered " + r.status);
      return body;
    });
  });
}
