// @ts-check
/* The account page's "Bot account" panel: make the signed-in account a bot
 * account, then list, make and revoke its API tokens (docs/bot-api.md).  A new
 * token is shown once, here; the server keeps only its hash.
 *
 * Test hooks (data-testid): bot-panel, bot-off, bot-form, bot-password,
 * bot-submit, bot-error, bot-on, tokens (its items: token, each with
 * token-revoke), token-new, token-form, token-label, token-password,
 * token-submit, token-error. */

import { $, $as, el, getJson, postJson } from "./dom.js";
import { lang, t } from "./i18n.js";

/** @param {number | null} time */
function when(time) { return time ? new Date(time * 1000).toLocaleString(lang) : t("never"); }

function listTokens() {
  getJson("/api/account/tokens").then(function (r) {
    var list = $("tokens");
    list.replaceChildren();
    (r.tokens || []).forEach(function (/** @type {any} */ token) {
      var li = el("li", "token");
      li.setAttribute("data-testid", "token");
      li.appendChild(el("span", null, t("{label} · made {made} · last used {used}",
        { label: token.label, made: when(token.created), used: when(token.used) }) + " "));
      var revoke = el("button", null, t("Revoke"));
      revoke.type = "button";
      revoke.setAttribute("data-testid", "token-revoke");
      revoke.setAttribute("aria-label", t("Revoke the token {label}", { label: token.label }));
      revoke.addEventListener("click", function () {
        revoke.disabled = true;
        postJson("/api/account/tokens/revoke", { id: token.id }).then(listTokens, function (e) {
          $("token-error").textContent = e.message;
          revoke.disabled = false;
        });
      });
      li.appendChild(revoke);
      list.appendChild(li);
    });
    if (!list.childNodes.length) list.appendChild(el("li", "empty", t("No tokens yet.")));
  }, function (e) { $("token-error").textContent = e.message; });
}

/** Show the panel for `account` (signed in). @param {{bot?: boolean}} account */
export function showBot(account) {
  $("bot-off").hidden = !!account.bot;
  $("bot-on").hidden = !account.bot;
  if (account.bot) listTokens();
}

/** Wire the panel's forms; `changed` is told the account once it is a bot. @param {(a: any) => void} changed */
export function setupBot(changed) {
  $("bot-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var password = $as("bot-password", HTMLInputElement);
    $("bot-error").textContent = "";
    postJson("/api/account/bot", { password: password.value }).then(function (r) {
      password.value = "";
      changed(r.account);
    }, function (e) { $("bot-error").textContent = e.message; });
  });
  $("token-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var label = $as("token-label", HTMLInputElement), password = $as("token-password", HTMLInputElement);
    $("token-error").textContent = "";
    postJson("/api/account/tokens", { label: label.value, password: password.value }).then(function (r) {
      label.value = password.value = "";
      var shown = $("token-new");
      shown.replaceChildren(el("span", null, t("Your new token (shown this once; copy it now):") + " "), el("code", null, r.token));
      shown.hidden = false;
      listTokens();
    }, function (e) { $("token-error").textContent = e.message; });
  });
}
