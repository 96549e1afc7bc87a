/* Small DOM helpers shared by the page's modules. */

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
