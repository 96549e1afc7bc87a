// @ts-check
/* Small DOM (and fetch) helpers shared by the page's modules. */

import { t } from "./i18n.js";

/**
 * The element with data-testid `testid` (inside `root`, default the document).
 * @param {string} testid
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export function $(testid, root) {
  return /** @type {HTMLElement} */ ((root || document).querySelector('[data-testid="' + testid + '"]'));
}

/**
 * `e`, checked to be a `type` (HTMLInputElement, HTMLSelectElement...), so that its caller
 * may use what that kind of element has (value, checked, disabled...).
 * @template {Element} T
 * @param {EventTarget | null} e
 * @param {{new (): T, prototype: T}} type
 * @returns {T}
 */
export function as(e, type) {
  if (!(e instanceof type)) throw new TypeError("expected a " + type.name + ", found " + e);
  return e;
}

/**
 * The element with data-testid `testid`, checked to be a `type` (see as()).
 * @template {Element} T
 * @param {string} testid
 * @param {{new (): T, prototype: T}} type
 * @param {ParentNode} [root]
 * @returns {T}
 */
export function $as(testid, type, root) {
  return as($(testid, root), type);
}

/**
 * A new element with a class and text (always as text, never HTML).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string | null} [cls]
 * @param {unknown} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/**
 * fetch(url, opts) answering the JSON body, or failing with the server's one-line `error` (in the
 * page's language: the server says it so) and the answer's HTTP `status` (what a script may test).
 * @param {string} url
 * @param {RequestInit} [opts]
 * @returns {Promise<any>}
 */
export function getJson(url, opts) {
  return fetch(url, opts).then(function (r) {
    return r.json().catch(function () { return {}; }).then(function (body) {
      if (!r.ok) {
        throw Object.assign(new Error(body && body.error ? body.error : t("the server answered {status}", { status: String(r.status) })),
          { status: r.status });
      }
      return body;
    });
  });
}

/**
 * POST `body` as JSON to `url`: the answer's JSON, or failing with the server's one-line `error`.
 * @param {string} url
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export function postJson(url, body) {
  return getJson(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept": "application/json" },
    body: JSON.stringify(body === undefined ? {} : body),
  });
}
