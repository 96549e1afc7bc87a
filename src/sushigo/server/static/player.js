// @ts-check
/* A player's page (/u/NAME): their finished games, newest first, filtered by
   edition and table size, each with its place, score, replay and record, and
   every record at once (docs/server.md, "Accounts"). */

import { $, $as, el, getJson, postJson } from "./dom.js";
import { ratingText } from "./ratings_text.js";
import { editionWords } from "./cards.js";
import { lang, t, tn } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const e = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const k of Object.keys(attrs)) e.setAttribute(k, String(attrs[k]));
  return e;
}

/**
 * The rating after each rated game, as a line: 1500 at the start.
 * @param {string} title
 * @param {{after: number}[]} history
 * @returns {SVGElement}
 */
function chart(title, history) {
  const W = 600, H = 160, PAD = 34;
  const points = [1500].concat(history.map(function (h) { return h.after; }));
  const lo = Math.min.apply(null, points) - 20, hi = Math.max.apply(null, points) + 20;
  const x = function (/** @type {number} */ i) { return PAD + (W - 2 * PAD) * (points.length > 1 ? i / (points.length - 1) : 0); };
  const y = function (/** @type {number} */ v) { return H - PAD / 2 - (H - PAD) * (v - lo) / (hi - lo); };
  const box = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "rating-chart", role: "img",
    "aria-label": tn("{title}: from {start} to {end} over {n} rated game", "{title}: from {start} to {end} over {n} rated games",
      history.length, { title: title, start: "1500", end: String(points[points.length - 1]) }) });
  box.setAttribute("data-testid", "rating-chart");
  box.appendChild(svg("line", { x1: PAD, y1: H - PAD / 2, x2: W - PAD, y2: H - PAD / 2, class: "axis" }));
  [lo + 20, hi - 20].forEach(function (v) {
    const mark = svg("text", { x: 2, y: y(v) + 4 });
    mark.textContent = String(Math.round(v));
    box.appendChild(mark);
  });
  box.appendChild(svg("polyline", { class: "line",
    points: points.map(function (v, i) { return x(i).toFixed(1) + "," + y(v).toFixed(1); }).join(" ") }));
  return box;
}

const name = decodeURIComponent(location.pathname.replace(/^\/u\//, ""));
/** @type {number | null} */
let before = null;

/**
 * A place as a word: "1st", "2nd"... (a table seats at most 8).
 * @param {number} n
 * @returns {string}
 */
function ordinal(n) {
  // TRANSLATORS: a place in a finished game, said in "{place} of {players}" ("2nd of 4")
  const words = [t("1st"), t("2nd"), t("3rd"), t("4th"), t("5th"), t("6th"), t("7th"), t("8th")];
  return n >= 1 && n <= words.length ? words[n - 1] : String(n);  // (no table seats more)
}

/**
 * "1st of 4", "shared 1st of 4"...
 * @param {number} place  1 = first; a shared place is the average of the places shared (1.5: two first)
 * @param {number} players
 * @returns {string}
 */
function placeText(place, players) {
  const low = Math.floor(place), shared = place !== low;
  const n = shared ? low : place;
  return shared ? t("shared {place} of {players}", { place: ordinal(n), players: players })
    : t("{place} of {players}", { place: ordinal(n), players: players });
}

/**
 * One finished game as a row.
 * @param {any} g
 * @returns {HTMLLIElement}
 */
function row(g) {
  const li = el("li");
  li.setAttribute("data-testid", "game");
  li.setAttribute("data-id", String(g.table));
  const head = el("div", "t-head");
  const title = editionWords(g.edition).title;
  const menu = g.edition === "party" && g.menu ? " · " + (Array.isArray(g.menu) ? t("custom menu") : t(String(g.menu))) : "";
  head.appendChild(el("strong", null, title + menu + " · " + tn("{n} player", "{n} players", g.players)));
  if (typeof g.place === "number") {
    const won = g.place < 2;
    const pill = el("span", "pill " + (won ? "playing" : "finished"), placeText(g.place, g.players));
    pill.setAttribute("data-testid", "place");
    head.appendChild(pill);
  }
  if (g.private) head.appendChild(el("span", "pill", t("private")));
  if (typeof g.rating_change === "number") {
    const d = g.rating_change;
    const change = el("span", "rating-change " + (d > 0 ? "up" : d < 0 ? "down" : ""), (d > 0 ? "+" : "") + d);
    change.setAttribute("data-testid", "rating-change");
    change.title = t("What this rated game did to the rating");
    head.appendChild(change);
  }
  li.appendChild(head);
  const when = new Date((g.finished || g.created) * 1000).toLocaleString(lang);
  const score = Array.isArray(g.totals) ? " · " + tn("{n} point", "{n} points", g.totals[g.seat]) : "";
  li.appendChild(el("div", "t-seats", when + score));
  li.appendChild(el("div", "t-seats", (g.names || []).map(function (n, i) {
    return (n || t("Seat {n}", { n: i + 1 })) + (Array.isArray(g.totals) ? " " + g.totals[i] : "");
  }).join(", ")));
  const links = el("div", "t-links");
  const replay = el("a", null, t("Replay"));
  replay.href = g.replay;
  replay.setAttribute("data-testid", "replay-link");
  // TRANSLATORS: a link: download the game's record (a file)
  const record = el("a", null, t("Record"));
  record.href = g.record;
  record.setAttribute("download", "sushigo-" + g.table + ".json");
  record.setAttribute("data-testid", "record-link");
  links.append(replay, record);
  li.appendChild(links);
  return li;
}

/** @param {boolean} more  list older games after those shown (else start over) */
function load(more) {
  const q = new URLSearchParams();
  const edition = $as("filter-edition", HTMLSelectElement).value;
  const players = $as("filter-players", HTMLSelectElement).value;
  if (edition) q.set("edition", edition);
  if (players) q.set("players", players);
  if (more && before !== null) q.set("before", String(before));
  return getJson("/api/players/" + encodeURIComponent(name) + "/games?" + q.toString()).then(function (a) {
    const list = $("games");
    if (!more) list.replaceChildren();
    a.games.forEach(function (/** @type {any} */ g) { list.appendChild(row(g)); before = g.created; });
    $("games-empty").hidden = list.childElementCount > 0;
    $("more").hidden = !a.more;
    $("history").hidden = false;
  }, function (e) { showError(e.message); });
}

// ------------------------------------------------------------ challenging a bot account
// A signed-in visitor challenges the bot (docs/bot-api.md, "Challenges"); once the bot accepts,
// the page opens the table on the visitor's own seat ("#as=N": the session opens it).

/** @param {string} bot */
function offerChallenge(bot) {
  getJson("/api/account").then(function (a) {
    if (a.account && a.account.name === bot) return;
    $("challenge").hidden = false;
    if (!a.account) {
      $("challenge-form").hidden = true;
      $("challenge-status").textContent = t("Sign in (Your account) to challenge this bot.");
      return;
    }
    $("challenge-edition").addEventListener("change", function () {
      const most = $as("challenge-edition", HTMLSelectElement).value === "party" ? 8 : 5;
      $("challenge-players").replaceChildren(...[2, 3, 4, 5, 6, 7, 8].filter(function (n) { return n <= most; })
        .map(function (n) { return el("option", null, String(n)); }));
    });
    $("challenge-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      const body = {
        edition: $as("challenge-edition", HTMLSelectElement).value,
        players: Number($as("challenge-players", HTMLSelectElement).value),
        timer: Number($as("challenge-timer", HTMLSelectElement).value),
        rated: $as("challenge-rated", HTMLInputElement).checked,
      };
      $as("challenge-send", HTMLButtonElement).disabled = true;
      postJson("/api/challenge/" + encodeURIComponent(bot), body).then(function (r) {
        $("challenge-status").textContent = t("Challenge sent: waiting for {bot} to answer.", { bot: bot });
        watchChallenge(r.challenge.id, a.account.name);
      }, function (e) {
        $("challenge-status").textContent = e.message;
        $as("challenge-send", HTMLButtonElement).disabled = false;
      });
    });
  }, function () { /* signed out: nothing to offer */ });
}

/** @param {string} id @param {string} me */
function watchChallenge(id, me) {
  getJson("/api/challenge/" + encodeURIComponent(id)).then(function (r) {
    const c = r.challenge;
    if (c.state === "open" || c.state === "starting") {  // starting: the bot accepted, the table is being made
      setTimeout(function () { watchChallenge(id, me); }, 1000);
      return;
    }
    if (c.state === "accepted") {
      $("challenge-status").textContent = t("Accepted: opening the table.");
      getJson("/api/tables/" + encodeURIComponent(c.table)).then(function (t) {
        const mine = t.seats.find(function (/** @type {any} */ s) { return s.account === me; });
        location.href = c.url + (mine ? "#as=" + mine.seat : "");
      });
      return;
    }
    $("challenge-status").textContent = challengeEnd(c.state, c.reason);
    $as("challenge-send", HTMLButtonElement).disabled = false;
  }, function (e) { $("challenge-status").textContent = e.message; });
}

/**
 * How a challenge ended ("declined", "cancelled", "expired"), with the bot's reason if it gave one.
 * @param {string} state
 * @param {string | undefined} reason
 * @returns {string}
 */
function challengeEnd(state, reason) {
  if (state === "declined") return reason ? t("The challenge was declined: {reason}", { reason: reason }) : t("The challenge was declined.");
  if (state === "cancelled") return reason ? t("The challenge was cancelled: {reason}", { reason: reason }) : t("The challenge was cancelled.");
  // "expired" (no other state ends one)
  return reason ? t("The challenge was expired: {reason}", { reason: reason }) : t("The challenge was expired.");
}

/** @param {string} text */
function showError(text) {
  $("player-error").textContent = text;
  $("player-error").hidden = !text;
}

getJson("/api/players/" + encodeURIComponent(name)).then(function (p) {
  document.title = t("{name} · Sushi Go! online", { name: p.name });
  $("player-name").textContent = p.name;
  $("bot-mark").hidden = !p.bot;
  if (p.bot) offerChallenge(p.name);
  $("player-since").textContent = t("Playing since {date}.", { date: new Date(p.created * 1000).toLocaleDateString(lang) });
  $as("download-all", HTMLAnchorElement).href = "/api/players/" + encodeURIComponent(p.name) + "/records";
  $as("download-all", HTMLAnchorElement).setAttribute("download", "sushigo-" + p.name + ".jsonl");
  $("player").hidden = false;
  const editions = Object.keys(p.ratings || {});
  $("ratings").replaceChildren(...editions.map(function (e) {
    const title = editionWords(e).title;
    const r = p.ratings[e];
    const box = el("span", null, tn("{edition}: {rating} ({n} rated game)", "{edition}: {rating} ({n} rated games)", r.games,
      { edition: title, rating: ratingText(r) }));
    box.setAttribute("data-testid", "rating");
    return box;
  }));
  $("charts").replaceChildren(...editions.map(function (e) {
    return chart(editionWords(e).title, p.history[e] || []);
  }));
  $("player-ratings").hidden = editions.length === 0;
  load(false);
}, function (e) { showError(e.message); });

$("filter-edition").addEventListener("change", function () { load(false); });
$("filter-players").addEventListener("change", function () { load(false); });
$("more").addEventListener("click", function () { load(true); });
