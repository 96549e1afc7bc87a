// @ts-check
/* Play now (the lobby's first panel): one button per edition puts this page in
 * the queue (docs/server.md, "Play now"); the page asks the server how its place
 * goes about once a second, offers "Sit down" when a table is found, and opens
 * the table once everyone has.  The place's ticket is kept in localStorage so
 * that a reload keeps the place; a signed-in player's page asks for the
 * account's place without one (a notification may open the lobby on another
 * device).  The server decides who plays whom.
 *
 * Test hooks (data-testid): play-panel, play-base, play-party, play-menu,
 * play-size-N, play-bots, play-rated, play-name, waiting-base, waiting-party,
 * play-waiting, play-wait-text, play-leave, play-matched, play-match-text,
 * play-confirm, play-decline, play-status. */

import { editionWords } from "./cards.js";
import { $, $as, el, getJson, postJson } from "./dom.js";
import { currentSubscription } from "./push.js";
import { t, tn } from "./i18n.js";

var TICKET_KEY = "sushigo.play";
var NAME_KEY = "sushigo.name";

/** @type {{ticket: string | null, timer: number | null, account: boolean, push: boolean, known: boolean, sizes: any}} */
var P = { ticket: null, timer: null, account: false, push: false, known: false,
  sizes: { base: [2, 3, 4, 5], party: [2, 3, 4, 5, 6, 7, 8] } };

function store(ticket) {
  try {
    if (ticket) localStorage.setItem(TICKET_KEY, ticket); else localStorage.removeItem(TICKET_KEY);
  } catch (e) { /* private mode: the place lasts as long as the page */ }
}

function stored() {
  try { return localStorage.getItem(TICKET_KEY); } catch (e) { return null; }
}

/** @param {string} text */
function say(text) { $("play-status").textContent = text; }

/** @param {"form" | "waiting" | "matched"} part */
function showPart(part) {
  $("play-form").hidden = part !== "form";
  $("play-waiting").hidden = part !== "waiting";
  $("play-matched").hidden = part !== "matched";
}

/** @param {number} seconds */
function secs(seconds) {
  var s = Math.max(0, Math.round(seconds));
  return s < 60 ? t("{s} s", { s: s }) : t("{min} min {s} s", { min: Math.floor(s / 60), s: s % 60 });
}

/** The page as the place's status says. @param {any} st */
function render(st) {
  if (st.state !== "gone") P.known = true;
  if (st.state === "waiting") {
    showPart("waiting");
    document.title = t("Sushi Go! online");
    var others = Math.max(0, (st.waiting || 1) - 1);
    var title = editionWords(st.edition).title;
    $("play-wait-text").textContent = t("Looking for players ({game}): {waited} so far; {others}.", {
      game: st.menu ? t("{edition}, {menu}", { edition: title, menu: t(st.menu) }) : title,
      waited: secs(st.waited),
      others: others === 0 ? t("nobody else is waiting yet")
        : tn("{n} other player waiting", "{n} other players waiting", others)
    }) + " " + (st.bots_in > 0 ? t("Bots take the empty seats in {time}.", { time: secs(st.bots_in) })
      : t("Bots are taking the empty seats."));
  } else if (st.state === "matched" || st.state === "starting") {
    showPart("matched");
    $("play-match-text").textContent = t("A table of {n} is ready: {who}.", { n: st.players, who: matchedWho(st) }) + " "
      + (st.state === "starting" ? t("Setting the table...") : st.confirmed
        ? t("Waiting for the others to sit down ({ready} of {n}).", { ready: st.ready, n: (st.people || []).length })
        : t("Sit down within {time}.", { time: secs(st.confirm_in) }));
    $as("play-confirm", HTMLButtonElement).disabled = !!st.confirmed || st.state === "starting";
    document.title = t("Table found! Sushi Go!");
  } else if (st.state === "seated") {
    forget();
    say(t("Your table is ready."));
    location.href = st.url;
  } else {
    forget();
    showPart("form");
    document.title = t("Sushi Go! online");
    say(st.reason ? t("You are out of the queue: {reason}.", { reason: st.reason }) : t("You are out of the queue."));
  }
}

/**
 * Who sits at a table found: its people ("Ana, Ben") and its bots, the bot accounts among them by name.
 * @param {any} st
 * @returns {string}
 */
function matchedWho(st) {
  var people = (st.people || []).join(", ");
  var named = st.bot_accounts || [];
  if (!st.bots) return people;
  if (!named.length) return tn("{people} and {n} bot", "{people} and {n} bots", st.bots, { people: people });
  // TRANSLATORS: {n} is always 1 here: the one bot, {bot} its name
  if (st.bots === 1) return t("{people} and {n} bot ({bot})", { people: people, n: 1, bot: named[0] });
  var names = named.reduce(function (/** @type {string} */ first, /** @type {string} */ last) {
    return t("{first} and {last}", { first: first, last: last });
  });
  return tn("{people} and {n} bot, {bots} among them", "{people} and {n} bots, {bots} among them", st.bots,
    { people: people, bots: names });
}

/** This page holds no place any more: no polling, no ticket kept. */
function forget() {
  stop();
  store(null);
  P.ticket = null;
  P.known = false;
}

function stop() {
  if (P.timer !== null) clearTimeout(P.timer);
  P.timer = null;
}

function poll() {
  stop();
  if (!P.ticket && !P.account) return;
  postJson("/api/play/status", { ticket: P.ticket, push: P.push }).then(function (st) {
    render(st);
    if (st.state !== "seated" && st.state !== "gone") P.timer = window.setTimeout(poll, 1000);
  }, function (err) {
    if (err.status === 404) {  // none (any more): the form, and a word only if there was one
      if (P.known) render({ state: "gone" }); else { forget(); showPart("form"); }
      return;
    }
    say(t("The queue did not answer ({error}); trying again.", { error: err.message }));
    P.timer = window.setTimeout(poll, 3000);
  });
}

/** @param {string} edition */
function join(edition) {
  var sizes = [];
  P.sizes[edition].forEach(function (n) {
    var box = /** @type {HTMLInputElement | null} */ ($("play-size-" + n));
    if (box && box.checked) sizes.push(n);
  });
  if (!sizes.length) { say(t("Choose at least one table size.")); return; }
  var name = $as("play-name", HTMLInputElement).value.replace(/\s+/g, " ").trim();
  if (!P.account && !name) { say(t("Type the name the table will show.")); $("play-name").focus(); return; }
  if (!P.account) { try { localStorage.setItem(NAME_KEY, name); } catch (e) { /* private mode */ } }
  var menu = $as("play-menu", HTMLSelectElement).value;
  var body = { edition: edition, sizes: sizes, bots_after: Number($as("play-bots", HTMLSelectElement).value),
    rated: P.account && $as("play-rated", HTMLInputElement).checked, push: P.push,
    menu: edition === "party" && menu ? menu : null, name: P.account ? null : name };
  say("");
  postJson("/api/play/join", body).then(function (st) {
    P.ticket = st.ticket;
    store(st.ticket);
    render(st);
    P.timer = window.setTimeout(poll, 1000);
  }, function (err) { say(err.message); });
}

function leave() {
  var ticket = P.ticket;
  forget();
  showPart("form");
  document.title = t("Sushi Go! online");
  if (ticket || P.account) postJson("/api/play/leave", { ticket: ticket }).then(function () { say(t("You left the queue.")); },
    function () { say(t("You left the queue.")); });
}

function counts() {
  getJson("/api/play").then(function (q) {
    ["base", "party"].forEach(function (e) {
      var n = q.waiting[e] || 0;
      $("waiting-" + e).textContent = n === 0 ? t("nobody waiting") : tn("{n} waiting", "{n} waiting", n);
    });
  }, function () { /* the next round tries again */ });
}

/** Fill the panel and wire it; `account` is the signed-in account, or null. @param {any} account */
export function setupPlayNow(account) {
  P.account = !!account;
  $("play-rated-row").hidden = !account;
  $("play-name-row").hidden = !!account;
  try { $as("play-name", HTMLInputElement).value = localStorage.getItem(NAME_KEY) || ""; } catch (e) { /* none */ }
  getJson("/api/play").then(function (q) {
    P.sizes = q.sizes;
    var menu = $as("play-menu", HTMLSelectElement);
    menu.replaceChildren(el("option", null, t("any menu")));
    as0(menu).value = "";
    q.menus.forEach(function (m) { var o = el("option", null, t(m)); o.value = m; menu.appendChild(o); });
    var bots = $as("play-bots", HTMLSelectElement);
    bots.replaceChildren();
    q.bot_waits.forEach(function (s) { var o = el("option", null, t("after {time}", { time: secs(s) })); o.value = String(s); bots.appendChild(o); });
    bots.value = "30";
  });
  counts();
  window.setInterval(counts, 5000);
  $("play-base").addEventListener("click", function () { join("base"); });
  $("play-party").addEventListener("click", function () { join("party"); });
  $("play-leave").addEventListener("click", leave);
  $("play-decline").addEventListener("click", leave);
  $("play-confirm").addEventListener("click", function () {
    if (!P.ticket && !P.account) return;
    $as("play-confirm", HTMLButtonElement).disabled = true;
    postJson("/api/play/confirm", { ticket: P.ticket }).then(render, function (err) { say(err.message); });
  });
  currentSubscription().then(function (sub) { P.push = !!(sub && account); });
  P.ticket = stored();
  showPart("form");
  if (P.ticket || P.account) poll();  // a place this browser (or this account) holds
}

/** The "any menu" option's select (its first option's value is ""). @param {HTMLSelectElement} menu */
function as0(menu) { var first = /** @type {HTMLOptionElement} */ (menu.options[0]); first.value = ""; return menu; }
