// @ts-check
/* The account page (/account): sign in, sign up, recover with a code; once
   signed in, sign out, a new password, new recovery codes, deleting the
   account. The server decides everything (docs/server.md, "Accounts"); the
   session is an HTTP-only cookie this script never sees. */

import { $, $as, as, el, getJson, postJson } from "./dom.js";
import { setupPush } from "./push.js";
import { setupBot, showBot } from "./bots.js";
import { lang, t, tn } from "./i18n.js";

/** @typedef {{name: string, created: number, bot?: boolean}} Account */

/**
 * Show `text` in the element `testid` (empty: hide it).
 * @param {string} testid
 * @param {string} text
 */
function say(testid, text) {
  const box = $(testid);
  box.textContent = text;
  if (box.classList.contains("error")) box.hidden = !text;
}

/**
 * The page as `account` sees it (null: signed out).
 * @param {Account | null} account
 */
function show(account) {
  say("account-note", "");
  say("password-done", "");
  $("signed-out").hidden = account !== null;
  $("signed-in").hidden = account === null;
  if (account !== null) {
    $("account-name").textContent = account.name;
    $as("profile-link", HTMLAnchorElement).href = "/u/" + encodeURIComponent(account.name);
    $as("password-username", HTMLInputElement).value = account.name;
    const since = new Date(account.created * 1000);
    $("account-since").textContent = t("Your account since {date}.", { date: since.toLocaleDateString(lang) });
    showBot(account);
  }
}

/**
 * Show recovery codes once; `then` runs when the player says they saved them.
 * @param {string[]} codes
 * @param {() => void} then
 */
function showCodes(codes, then) {
  const list = $("codes");
  list.replaceChildren(...codes.map(function (c) { return el("li", null, c); }));
  $("codes-panel").hidden = false;
  $("signed-out").hidden = true;
  $("signed-in").hidden = true;
  $("copy-codes").onclick = function () {
    navigator.clipboard.writeText(codes.join("\n")).then(function () {
      $("copy-codes").textContent = t("Copied");
    }, function () {
      $("copy-codes").textContent = t("Select the codes to copy them");
    });
  };
  $("codes-saved").onclick = function () {
    $("codes-panel").hidden = true;
    list.replaceChildren();
    then();
  };
  $("codes-saved").focus();
}

/**
 * Submit form `testid` as JSON to `path`: `done` gets the answer; a refusal is shown in `testid-error`.
 * @param {string} form
 * @param {string} path
 * @param {(answer: any) => void} done
 */
function wire(form, path, done) {
  const f = $as(form, HTMLFormElement);
  const error = form.replace(/-form$/, "") + "-error";
  f.addEventListener("submit", function (ev) {
    ev.preventDefault();
    say(error, "");
    /** @type {Record<string, string>} */
    const body = {};
    for (const input of Array.from(f.querySelectorAll("input[name]"))) {
      const i = as(input, HTMLInputElement);
      if (i.name !== "username") body[i.name] = i.value;
    }
    const button = as(f.querySelector('button[type="submit"]'), HTMLButtonElement);
    button.disabled = true;
    postJson(path, body).then(function (answer) {
      f.reset();
      done(answer);
    }, function (e) {
      say(error, e.message);
    }).finally(function () { button.disabled = false; });
  });
}

wire("signin-form", "/api/account/signin", function (a) { show(a.account); });
wire("signup-form", "/api/account/signup", function (a) {
  showCodes(a.recovery_codes, function () { show(a.account); });
});
wire("recover-form", "/api/account/recover", function (a) {
  show(a.account);  // (clears the notes: say the new one after)
  $as("recover", HTMLDetailsElement).open = false;
  say("account-note", tn("Your new password is set; {n} recovery code is left.",
    "Your new password is set; {n} recovery codes are left.", a.recovery_codes_left));
});
wire("password-form", "/api/account/password", function () {
  say("password-done", t("Your password is changed; every other browser was signed out."));
});
wire("codes-form", "/api/account/codes", function (a) {
  showCodes(a.recovery_codes, function () { $("signed-in").hidden = false; });
});
wire("delete-form", "/api/account/delete", function () {
  show(null);
  say("account-error", t("Your account is deleted."));
});

$("signout").addEventListener("click", function () {
  postJson("/api/account/signout").then(function () { show(null); }, function (e) { say("account-error", e.message); });
});

getJson("/api/account").then(function (a) { show(a.account); }, function (e) {
  say("account-error", e.message);
  show(null);
});

setupPush();
setupBot(show);
