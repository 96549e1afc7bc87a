// @ts-check
/* The scorekeeper of a table playing with real cards (/score, /score/{id}).
 *
 * The page keeps, per round and seat, how many of each *entry* the table sees
 * (a card, a nigiri on its wasabi, a special order's copy...).  Which entries a
 * setup has, and in which order their cards go into the score sheet, come from
 * the server (POST /api/score/setup, sushigo.engine.sheets); every point and
 * every sentence comes from POST /api/score?explain=true.  Nothing here knows a
 * scoring rule.  The sheet is kept on the server (/api/sheets, an edit token
 * in the link) and in localStorage, so a reload, a closed tab or a lost
 * network loses nothing: entries made offline are sent when it returns.
 *
 * Test hooks (data-testid): setup, edition-base/-party, menu, custom-menu,
 * players, name-N, start, import, guide-button, guide-panel, dish, sheet,
 * round-tabs (tab-N), seat-N (aria-pressed, data-points), entry (data-key,
 * data-count), more/fewer, count, race, figures, figure, done, next-round,
 * round-summary, race-line, seat-error, sheet-error, sheet-note, scoresheet,
 * end, winners, share, export, image, sync, readonly.
 *
 * The page's state is one object, S; its phase, S.phase, changes only in transition(event),
 * along these moves (an event the phase has no move for is ignored):
 *
 *   phase     the page                                   event -> next phase
 *   start     nothing yet                                setup -> setup (/score), open -> opening (/score/{id})
 *   setup     the form: a new sheet, or a file           submit, import -> creating
 *   creating  the server sets the sheet up and keeps it  created -> keeping, failed -> setup (the form says why)
 *   opening   a sheet's address: its copy is fetched     edit -> keeping (an edit token), watch -> watching,
 *             (or this browser's unsent one is taken)    failed -> failed
 *   keeping   entering cards; saved as you go            -
 *   watching  read-only (no edit token): polled          -
 *   failed    the sheet could not be opened (a line says why)  -
 *
 * How the sheet is saved (S.dirty, the sync line: saving, saved, offline) is no phase: it
 * runs beside keeping.
 */

import { el, $, $as, as } from "./dom.js";
import { copy } from "./extras.js";
import { dishRow } from "./rules.js";
import * as Cards from "./cards.js";
import { sheets as HELD } from "./held.js";  // the edit tokens of the sheets this browser keeps
import { WORDS } from "./words.js";
import { lang, say, t, tn, wordsOf } from "./i18n.js";
import { figureText, raceSentences } from "./scores.js";

var LOCAL = "sushigo.sheet.";   // + id: {doc, dirty}
var ROLL_CATEGORIES = ["maki", "temaki", "uramaki"];  // awards that need every collection of the round
var RACE_POINTS = WORDS.uramaki_race_points;  // what a seat can hold of a round's uramaki places (the engine's)
var ROUNDS = WORDS.rounds;                     // a game's rounds

/** @typedef {"start" | "setup" | "creating" | "opening" | "keeping" | "watching" | "failed"} Phase */

/** @type {Record<Phase, Record<string, Phase>>} each phase's events and where they lead */
var MOVES = {
  start: { setup: "setup", open: "opening" },
  setup: { submit: "creating", import: "creating" },
  creating: { created: "keeping", failed: "setup" },
  opening: { edit: "keeping", watch: "watching", failed: "failed" },
  keeping: {},
  watching: {},
  failed: {}
};

var S = {
  /** @type {Phase} */
  phase: "start",  // changed by transition() only
  changes: 0,      // edits made (a save says "Saved" only when no edit came meanwhile)
  setup: null, entries: {}, doc: null, story: null, error: null, note: null,
  round: 0, seat: 0, id: null, token: null, readonly: false, dirty: false, version: 0,
  online: true, timer: null
};

/**
 * Move S.phase on `event` (see the table above); false, and no move, when its phase has none.
 * @param {string} event
 */
function transition(event) {
  var to = MOVES[S.phase][event];
  if (!to) return false;
  S.phase = to;
  return true;
}

function readJSON(key, fallback) {
  try { var v = JSON.parse(localStorage.getItem(key) || "null"); return v === null ? fallback : v; } catch (e) { return fallback; }
}
function writeJSON(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: the server keeps it */ }
}

function post(url, body, method) {
  return fetch(url, { method: method || "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
    .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, status: r.status, body: j }; }); });
}

function names() { return S.doc.meta.names; }
/** The table's names for a sheet's players: its meta's, "Player N" (from 1, in the page's language) for the rest. */
function namesOf(sheet) {
  var meta = sheet.meta && typeof sheet.meta === "object" ? sheet.meta : {};
  var out = Array.isArray(meta.names) ? meta.names.slice(0, sheet.players).map(String) : [];
  for (var s = out.length; s < sheet.players; s++) out.push(t("Player {n}", { n: s + 1 }));
  return out;
}
function named(text) {
  return String(text).replace(/\{(\d+)\}/g, function (m, n) { return names()[+n] || m; });
}

// ------------------------------------------------------------ the sheet document

function entry(key) {
  if (S.entries[key]) return S.entries[key];
  var labels = S.story && S.story.explain && S.story.explain.labels;
  return labels && labels[key] ? labels[key] : { key: key, label: key, tokens: key.split(" "), rank: 0, cards: [], group: "other" };
}

function collection(counts) {
  var order = Object.keys(S.entries);
  var keys = Object.keys(counts).filter(function (k) { return counts[k] > 0; });
  keys.sort(function (a, b) {
    var ea = entry(a), eb = entry(b);
    return ea.rank - eb.rank || order.indexOf(a) - order.indexOf(b);
  });
  var out = [];
  keys.forEach(function (k) {
    for (var i = 0; i < counts[k]; i++) out.push.apply(out, entry(k).tokens);
  });
  return out;
}

/** The score sheet (docs/spec/game-record.md) of what has been entered. */
function sheetOf(doc) {
  var m = doc.meta;
  var sheet = { players: doc.players, rounds: m.entries.map(function (r) { return r.map(collection); }) };
  if (doc.edition === "party") {
    sheet.edition = "party";
    sheet.menu = doc.menu;
    sheet.options = doc.options || {};
    // A round's race points count once every collection of it is in: until then a
    // place entered for one seat would be a place nobody else has reached yet.
    if (S.setup && S.setup.race) {
      sheet.uramaki = m.entries.map(function (x, r) {
        return (m.entered[r] || []).length === doc.players ? m.race[r] : zeros(doc.players);
      });
    }
  } else if (doc.options && doc.options.pass_both_ways) {
    m.pass_both_ways = true;
  }
  sheet.meta = m;
  return sheet;
}

function emptyRound(players) {
  var r = [];
  for (var s = 0; s < players; s++) r.push({});
  return r;
}
function zeros(players) { var r = []; for (var s = 0; s < players; s++) r.push(0); return r; }

// ------------------------------------------------------------ talking to the server

function setSync(text, state) {
  var s = $("sync");
  s.textContent = text;
  s.setAttribute("data-state", state || "");
}

var pending = null;
function changed() {
  S.dirty = true;
  S.note = null;  // what is saved from now on is this page's: its meta says what its rounds say
  S.changes = (S.changes || 0) + 1;
  keepLocal();
  render();
  clearTimeout(pending);
  if (!S.readonly) setSync(t("Saving…"), "saving");  // from the change on, not only once the request leaves
  pending = setTimeout(flush, 250);
}

function keepLocal() {
  if (S.id && !S.readonly) writeJSON(LOCAL + S.id, { doc: sheetOf(S.doc), dirty: S.dirty });
}

function score() {
  var sheet = sheetOf(S.doc);
  return post("/api/score?explain=true", sheet).then(function (r) {
    S.online = true;
    if (r.ok) { S.story = r.body; S.error = null; } else { S.error = r.body; }
    render();
  });
}

function flush() {
  if (S.readonly) return Promise.resolve();
  var sheet = sheetOf(S.doc);
  var changes = S.changes;
  setSync(t("Saving…"), "saving");
  return score().then(function () {
    return post("/api/sheets/" + encodeURIComponent(S.id), { token: S.token, sheet: sheet }, "PUT");
  }).then(function (r) {
    if (!r.ok) { setSync(r.body.error || t("Not saved"), "closed"); return; }
    S.version = r.body.version;
    if (S.changes !== changes) return;  // changed meanwhile: that change's own save says "Saved"
    S.dirty = false;
    keepLocal();
    setSync(t("Saved"), "open");
  }).catch(function () {
    S.online = false;
    setSync(t("Offline: kept on this phone"), "closed");
    render();
  });
}

setInterval(function () {
  if (S.phase === "watching") poll();
  else if (S.phase === "keeping" && S.dirty) flush();
}, 5000);
window.addEventListener("online", function () { if (S.dirty) flush(); });

function poll() {
  fetch("/api/sheets/" + encodeURIComponent(S.id)).then(function (r) { return r.json(); }).then(function (j) {
    S.online = true;
    if (j.version && j.version !== S.version) {
      S.version = j.version;
      adopt(j.sheet).catch(function (e) { S.error = { error: String(e.message || e) }; render(); });
    }
    setSync(t("Watching"), "open");
  }).catch(function () { S.online = false; setSync(t("Offline"), "closed"); render(); });
}

/** Take a stored or imported sheet: its setup, and its entries.  Its rounds are the
 * sheet (docs/spec/game-record.md), scored by the server as they are.  The counts in its
 * meta are kept only where they say what the rounds say (this page wrote both); otherwise
 * they are dropped for the server's reading of the rounds, and S.note says so.  A sheet
 * the server refuses opens only with counts that write exactly its rounds (its impossible
 * entry is then shown where it is); otherwise it is refused with the server's line. */
function adopt(sheet) {
  var setupDoc = { players: sheet.players, edition: sheet.edition || "base", menu: sheet.menu, options: sheet.options };
  return post("/api/score/setup", setupDoc).then(function (r) {
    if (!r.ok) throw new Error(r.body.error);
    useSetup(r.body);
    var meta = sheet.meta && typeof sheet.meta === "object" ? sheet.meta : {};
    var players = sheet.players;
    var doc = { players: players, edition: setupDoc.edition, menu: r.body.menu, options: sheet.options || {}, meta: {
      names: namesOf(sheet),
      edited: Array.isArray(meta.edited) ? meta.edited : [],
      entered: Array.isArray(meta.entered) ? meta.entered : [],
      race: Array.isArray(sheet.uramaki) ? sheet.uramaki : [],
      entries: countsFit(meta.entries, players) ? meta.entries : null
    } };
    return post("/api/score?explain=true", sheet).then(function (r2) {
      var m = doc.meta;
      var read = r2.ok ? r2.body.explain.rounds.map(function (rnd) { return rnd.entries; }) : null;
      var kept = m.entries && (writesRounds(doc, sheet.rounds) || (read && sameCounts(m.entries, read)));
      S.note = null;
      if (!kept) {
        if (!read) throw new Error(said(r2.body, m.names, true));
        if (meta.entries !== undefined) {  // dropped, with the bookkeeping that went with them
          S.note = metaDropped(m.entries, read, m.names);
          m.entered = [];
          m.edited = [];
        }
        m.entries = read;
        read.forEach(function (rnd, i) { if (!m.entered[i]) m.entered[i] = rnd.map(function (c, s2) { return s2; }); });
      }
      S.doc = doc;
      S.story = r2.ok ? r2.body : S.story;
      S.error = r2.ok ? null : r2.body;
    });
  }).then(function () { fillRaces(); render(); });
}

/** Whether a meta's counts have the sheet's shape: rounds of one object of counts per player. */
function countsFit(entries, players) {
  return Array.isArray(entries) && entries.length >= 1 && entries.length <= ROUNDS && entries.every(function (rnd) {
    return Array.isArray(rnd) && rnd.length === players && rnd.every(function (counts) {
      return counts !== null && typeof counts === "object" && !Array.isArray(counts) && Object.keys(counts).every(function (k) {
        return Number.isInteger(counts[k]) && counts[k] >= 0;
      });
    });
  });
}

/** Whether these counts write exactly these rounds (what this page saves with them). */
function writesRounds(doc, rounds) {
  return JSON.stringify(doc.meta.entries.map(function (r) { return r.map(collection); })) === JSON.stringify(rounds);
}

function sameSeat(a, b) {
  var keys = function (c) { return Object.keys(c || {}).filter(function (k) { return c[k] > 0; }).sort(); };
  var ka = keys(a), kb = keys(b);
  return ka.length === kb.length && ka.every(function (k, i) { return k === kb[i] && a[k] === b[k]; });
}

function sameCounts(a, b) {
  return a.length === b.length && a.every(function (rnd, r) {
    return rnd.length === b[r].length && rnd.every(function (c, s) { return sameSeat(c, b[r][s]); });
  });
}

/** The note for a sheet whose meta's counts were dropped, naming where they first differ. */
function metaDropped(counts, read, who) {
  if (!counts) {
    // TRANSLATORS: "sushigo score" is a command (the same scoring on a terminal): keep it as it is.
    return t("This sheet's meta did not match its rounds: the rounds are scored, as sushigo score scores them, and the meta's counts were dropped.");
  }
  for (var r = 0; r < read.length; r++) {
    for (var s = 0; s < read[r].length; s++) {
      if (!counts[r] || !sameSeat(counts[r][s], read[r][s])) {
        return t("This sheet's meta did not match its rounds (from round {round}, {name}): the rounds are scored, as sushigo score scores them, and the meta's counts were dropped.",
          { round: r + 1, name: who[s] });
      }
    }
  }
  return t("This sheet's meta did not match its rounds (from round {round}): the rounds are scored, as sushigo score scores them, and the meta's counts were dropped.",
    { round: read.length + 1 });
}

function fillRaces() {
  var m = S.doc.meta;
  m.entries.forEach(function (r, i) {
    if (!m.race[i]) m.race[i] = zeros(S.doc.players);
    if (!m.entered[i]) m.entered[i] = [];
  });
}

function useSetup(setup) {
  S.setup = setup;
  S.entries = {};
  setup.entries.forEach(function (e) { S.entries[e.key] = e; });
  Cards.setEdition(setup.edition);
  $("guide-button").hidden = false;
  drawGuide(setup);
}

// ------------------------------------------------------------ the guide card

function drawGuide(setup) {
  var body = $("guide-panel").querySelector(".rules-body");
  body.textContent = "";
  body.appendChild(el("p", "muted", t("Read it aloud before the first pick; lay out the examples to show them.")));
  var list = el("ul", "dishes");
  setup.dishes.forEach(function (d) { list.appendChild(dishRow(d, "dish")); });
  body.appendChild(list);
  if (setup.demonstrations.length) {
    body.appendChild(el("h3", null, t("A demonstration")));
    var demo = el("ul", "dishes");
    setup.demonstrations.forEach(function (d) { demo.appendChild(dishRow(d, "demonstration", t("On the table: {example}"), true)); });
    body.appendChild(demo);
  }
}

function openGuide(show) {
  var panel = $("guide-panel");
  panel.hidden = !show;
  $("guide-button").setAttribute("aria-expanded", show ? "true" : "false");
  (show ? panel.querySelector("h2") : $("guide-button")).focus();
}

// ------------------------------------------------------------ rendering

function roundStory(r) {
  return S.story && S.story.explain && S.story.explain.rounds[r] ? S.story.explain.rounds[r] : null;
}
function allIn(r) { return (S.doc.meta.entered[r] || []).length === S.doc.players; }
/** The scorer's line with its place in words, the table's names for its seats: "Round 1,
 * Ana: 11 cards, ..." (the engine counts seats from 0, the page names them, "Player N"
 * from 1).  A card's position in the sheet is left out, the page having ordered the
 * cards, unless the sheet is a file someone wrote (withCard).  The scorer's own words
 * (`rest`) are the server's, as it sends them. */
function said(error, who, withCard) {
  var w = error.where || {};
  if (w.round === undefined) return error.error;
  var m = /^(?:uramaki, )?round \d+(?:, seat \d+)?(?:, card (\d+))?: ([\s\S]*)$/.exec(String(error.error));
  var seats = who || names();
  var place = { round: w.round, error: m ? m[2] : String(error.error), card: withCard && m && m[1] ? Number(m[1]) : null,
    name: w.seat !== undefined ? seats[w.seat] || t("Player {n}", { n: w.seat + 1 }) : null };
  if (place.name === null) {
    return place.card === null ? t("Round {round}: {error}", place) : t("Round {round}, card {card}: {error}", place);
  }
  return place.card === null ? t("Round {round}, {name}: {error}", place) : t("Round {round}, {name}, card {card}: {error}", place);
}

/** Whether the seat panel on screen shows the impossible entry (else the banner does). */
function errorShown() {
  return errorAt(S.round, S.seat);
}

function errorAt(r, s) {
  if (!S.error) return false;
  var w = S.error.where || {};
  return w.round === r + 1 && (w.seat === undefined || w.seat === s);
}

function render() {
  if (!S.doc) return;
  $("setup").hidden = true;
  $("my-sheets").hidden = true;
  $("sheet").hidden = false;
  $("readonly").hidden = !S.readonly;
  if (S.round >= S.doc.meta.entries.length) S.round = S.doc.meta.entries.length - 1;
  var banner = $("sheet-error");
  var offline = !S.online ? t("Offline: your entries are kept on this phone; the scores update when the connection returns.") : "";
  // an impossible entry is named at its round and player: in that player's panel, or up here
  var elsewhere = S.error && !errorShown() ? said(S.error) : "";
  banner.hidden = !elsewhere && !offline;
  banner.textContent = elsewhere || offline;
  var note = $("sheet-note");
  note.hidden = !S.note;
  note.textContent = S.note || "";
  renderTabs();
  renderRound();
  renderTotals();
}

function renderTabs() {
  var nav = $("round-tabs");
  nav.textContent = "";
  S.doc.meta.entries.forEach(function (r, i) {
    var b = el("button", "sk-tab", t("Round {round}", { round: i + 1 }));
    b.type = "button";
    b.setAttribute("data-testid", "tab-" + (i + 1));
    if (i === S.round) b.setAttribute("aria-current", "true");
    // TRANSLATORS: a round tab's mark, when a round was changed after the next one began.
    if (S.doc.meta.edited.indexOf(i + 1) >= 0) b.appendChild(el("span", "sk-edited", " " + t("edited")));
    if (S.error && (S.error.where || {}).round === i + 1) b.classList.add("has-error");
    b.addEventListener("click", function () { S.round = i; S.seat = firstOpenSeat(i); render(); });
    nav.appendChild(b);
  });
  var last = S.doc.meta.entries.length - 1;
  if (!S.readonly && last < ROUNDS - 1 && allIn(last) && !S.error) {  // no next round while an entry is impossible
    var next = el("button", "sk-tab primary", t("Start round {round}", { round: last + 2 }));
    next.type = "button";
    next.setAttribute("data-testid", "next-round");
    next.addEventListener("click", function () {
      S.doc.meta.entries.push(emptyRound(S.doc.players));
      S.doc.meta.race.push(zeros(S.doc.players));
      S.doc.meta.entered.push([]);
      S.round = last + 1;
      S.seat = 0;
      changed();
    });
    nav.appendChild(next);
  }
}

function firstOpenSeat(r) {
  for (var s = 0; s < S.doc.players; s++) if ((S.doc.meta.entered[r] || []).indexOf(s) < 0) return s;
  return 0;
}

function seatPoints(r, s) {
  if (S.error) return null;  // no points while an entry is impossible
  var res = S.story && S.story.rounds;
  return res && res[r] ? res[r][s] : null;
}

function renderRound() {
  var box = $("round");
  box.textContent = "";
  var r = S.round, m = S.doc.meta;
  var seats = el("div", "sk-seats");
  seats.setAttribute("role", "group");
  seats.setAttribute("aria-label", t("Players, round {round}", { round: r + 1 }));
  names().forEach(function (name, s) {
    var b = el("button", "sk-seat");
    b.type = "button";
    b.setAttribute("data-testid", "seat-" + s);
    b.setAttribute("aria-pressed", s === S.seat ? "true" : "false");
    var pts = seatPoints(r, s);
    b.setAttribute("data-points", pts === null ? "" : String(pts));
    b.appendChild(el("span", "sk-seat-name", name));
    // TRANSLATORS: a seat's points, short ("11 pts").
    b.appendChild(el("span", "sk-seat-points", pts === null ? "" : tn("{n} pts", "{n} pts", pts)));
    if (m.entered[r].indexOf(s) >= 0) b.appendChild(el("span", "sk-seat-done", t("✓ entered")));
    if (errorAt(r, s)) b.classList.add("has-error");
    b.addEventListener("click", function () { S.seat = s; render(); });
    seats.appendChild(b);
  });
  box.appendChild(seats);
  box.appendChild(seatPanel(r, S.seat));
  box.appendChild(roundSummary(r));
}

function seatPanel(r, s) {
  var m = S.doc.meta;
  var counts = m.entries[r][s];
  var panel = el("section", "panel sk-collection");
  panel.setAttribute("aria-labelledby", "sk-who");
  var head = el("h2", null, t("{name} · round {round}", { name: names()[s], round: r + 1 }));
  head.id = "sk-who";
  panel.appendChild(head);
  var n = collection(counts).length;
  panel.appendChild(el("p", "muted", tn("{n} card entered; a hand is {size}.", "{n} cards entered; a hand is {size}.", n,
    { size: S.setup.hand_size })));
  if (errorAt(r, s)) {
    var err = el("p", "sk-error", said(S.error));
    err.setAttribute("data-testid", "seat-error");
    err.setAttribute("role", "alert");
    panel.appendChild(err);
  }
  if (!S.readonly) panel.appendChild(grid(r, s, counts));
  else panel.appendChild(kept(counts));
  if (S.setup.race) {
    var lab = el("label", "sk-race", t("Uramaki race points this round") + " ");
    var sel = el("select");
    sel.setAttribute("data-testid", "race");
    sel.disabled = S.readonly;
    RACE_POINTS.forEach(function (p) { var o = el("option", null, String(p)); o.value = String(p); sel.appendChild(o); });
    sel.value = String(m.race[r][s] || 0);
    sel.addEventListener("change", function () { m.race[r][s] = +sel.value; edited(r); changed(); });
    lab.appendChild(sel);
    panel.appendChild(lab);
  }
  panel.appendChild(figures(r, s));
  if (!S.readonly) {
    var done = el("button", "primary sk-done", m.entered[r].indexOf(s) >= 0 ? t("Next player")
      : t("Done: {name}'s cards are in", { name: names()[s] }));
    done.type = "button";
    done.setAttribute("data-testid", "done");
    done.addEventListener("click", function () {
      if (m.entered[r].indexOf(s) < 0) m.entered[r].push(s);
      S.seat = allIn(r) ? (s + 1) % S.doc.players : firstOpenSeat(r);
      changed();
      var active = $("seat-" + S.seat);
      if (active) active.focus();
    });
    panel.appendChild(done);
  }
  return panel;
}

function kept(counts) {
  var list = el("ul", "sk-kept");
  Object.keys(counts).forEach(function (k) {
    // TRANSLATORS: how many of an entry a collection holds ("2 × Salmon nigiri").
    if (counts[k] > 0) list.appendChild(el("li", null, t("{n} × {entry}", { n: counts[k], entry: wordsOf(entry(k), "label") })));
  });
  return list;
}

function edited(r) {
  var m = S.doc.meta;
  if (r < m.entries.length - 1 && m.edited.indexOf(r + 1) < 0) m.edited.push(r + 1);
}

var OPEN_GROUPS = {};  // the folded groups (special orders, takeout boxes) the scorekeeper opened

function grid(r, s, counts) {
  var wrap = el("div", "sk-grid");
  var groups = [];
  var byGroup = {};
  var keys = Object.keys(S.entries);
  Object.keys(counts).forEach(function (k) { if (keys.indexOf(k) < 0 && counts[k] > 0) keys.push(k); });
  keys.forEach(function (k) {
    var e = entry(k);
    if (!byGroup[e.group]) { byGroup[e.group] = { label: wordsOf(e, "group_label") || e.group, keys: [] }; groups.push(e.group); }
    byGroup[e.group].keys.push(k);
  });
  groups.forEach(function (g) {
    var extra = g === "special_order" || g === "takeout_box";
    var used = byGroup[g].keys.some(function (k) { return counts[k] > 0; });
    var holder;
    if (extra) {
      // open while used, or while the scorekeeper keeps it open (a re-render after the server scored does not close it)
      var details = el("details", "sk-group");
      details.open = used || !!OPEN_GROUPS[g];
      details.addEventListener("toggle", function () { OPEN_GROUPS[g] = details.open; });
      details.appendChild(el("summary", null, byGroup[g].label));
      holder = details;
    } else {
      holder = el("div", "sk-group");
      holder.appendChild(el("h3", null, byGroup[g].label));
    }
    byGroup[g].keys.forEach(function (k) { holder.appendChild(entryRow(r, s, k, counts)); });
    wrap.appendChild(holder);
  });
  return wrap;
}

function entryRow(r, s, key, counts) {
  var e = entry(key);
  var row = el("div", "sk-entry");
  row.setAttribute("data-testid", "entry");
  row.setAttribute("data-key", key);
  row.setAttribute("data-count", String(counts[key] || 0));
  var art = el("span", "sk-art");
  art.setAttribute("aria-hidden", "true");
  (e.cards || []).forEach(function (c, i) { art.appendChild(Cards.element(e.tokens[i] && e.tokens[i].indexOf("special_order>") === 0 ? e.tokens[i].replace(/\+wasabi$/, "") : c, { mini: true })); });
  row.appendChild(art);
  row.appendChild(el("span", "sk-label", wordsOf(e, "label")));
  function button(text, delta, testid, words) {
    var b = el("button", "sk-step", text);
    b.type = "button";
    b.setAttribute("data-testid", testid);
    b.setAttribute("aria-label", words);
    if (delta < 0 && !(counts[key] > 0)) b.disabled = true;
    b.addEventListener("click", function () {
      counts[key] = Math.max(0, (counts[key] || 0) + delta);
      if (!counts[key]) delete counts[key];
      edited(r);
      changed();
      var again = document.querySelector('[data-testid="entry"][data-key="' + CSS.escape(key) + '"] [data-testid="' + testid + '"]');
      if (again instanceof HTMLButtonElement && !again.disabled) again.focus();
    });
    return b;
  }
  var who = { entry: wordsOf(e, "label"), name: names()[s] };
  row.appendChild(button("−", -1, "fewer", t("One fewer {entry} for {name}", who)));
  var count = el("output", "sk-count", String(counts[key] || 0));
  count.setAttribute("data-testid", "count");
  count.setAttribute("aria-live", "polite");
  row.appendChild(count);
  row.appendChild(button("+", 1, "more", t("One more {entry} for {name}", who)));
  return row;
}

function figures(r, s) {
  var list = el("ul", "sk-figures");
  list.setAttribute("data-testid", "figures");
  var story = roundStory(r);
  if (!story || S.error) {
    list.appendChild(el("li", "muted", S.error ? t("Scores wait for the impossible entry above to be fixed.") : t("Scoring…")));
    return list;
  }
  var waiting = !allIn(r);
  story.figures[s].forEach(function (f) {
    var pending = waiting && ROLL_CATEGORIES.indexOf(f.category) >= 0;
    var li = el("li", "sk-figure" + (pending ? " muted" : ""));
    li.setAttribute("data-testid", "figure");
    li.setAttribute("data-category", f.category);
    li.setAttribute("data-points", pending ? "" : String(f.points));
    li.textContent = pending ? pendingRolls(f) : figureText(f);
    list.appendChild(li);
  });
  if (!story.figures[s].length) list.appendChild(el("li", "muted", t("Nothing that scores yet.")));
  return list;
}

/** A roll figure waiting for the round's other collections ("3 maki: awarded once ..."). */
function pendingRolls(f) {
  if (f.category === "maki") {
    return tn("{n} maki: awarded once every collection of the round is in",
      "{n} maki: awarded once every collection of the round is in", f.count);
  }
  if (f.category === "temaki") {
    return tn("{n} temaki: awarded once every collection of the round is in",
      "{n} temaki: awarded once every collection of the round is in", f.count);
  }
  return tn("{n} uramaki: awarded once every collection of the round is in",
    "{n} uramaki: awarded once every collection of the round is in", f.count);
}

function roundSummary(r) {
  var box = el("section", "panel sk-summary");
  box.setAttribute("data-testid", "round-summary");
  box.appendChild(el("h2", null, t("Round {round}", { round: r + 1 })));
  var story = roundStory(r);
  var done = (S.doc.meta.entered[r] || []).length;
  if (!allIn(r)) {
    box.appendChild(el("p", "muted", tn("{done} of {n} collection in; the roll awards come once all are in.",
      "{done} of {n} collections in; the roll awards come once all are in.", S.doc.players, { done: done })));
  } else if (S.error) {
    box.appendChild(el("p", "muted", t("No scores while an entry is impossible.")));
  } else if (story) {
    raceSentences(story).forEach(function (line) {
      var p = el("p", "sk-race-line", line);
      p.setAttribute("data-testid", "race-line");
      box.appendChild(p);
    });
    var pts = S.story.rounds[r];
    // the engine's words for a round's points (sushigo.engine.narration.scores_line), the names put in
    var each = names().map(function (n, s) { return t("{seat} {points}", { seat: n, points: pts[s] }); });
    box.appendChild(el("p", null, t("Round {round} scored: {scores}.", { round: r + 1, scores: say({ words: each, listing: true }) })));
  }
  return box;
}

function renderTotals() {
  var tbl = $("scoresheet");
  tbl.textContent = "";
  var res = S.story && !S.error && S.story.rounds.length === S.doc.meta.entries.length ? S.story : null;
  var head = el("tr");
  head.appendChild(el("th", null, ""));
  names().forEach(function (n) { var th = el("th", null, n); th.scope = "col"; head.appendChild(th); });
  var thead = el("thead"); thead.appendChild(head); tbl.appendChild(thead);
  var body = el("tbody");
  function row(label, values, testid) {
    var tr = el("tr");
    tr.setAttribute("data-testid", testid);
    var th = el("th", null, label); th.scope = "row"; tr.appendChild(th);
    values.forEach(function (v) { tr.appendChild(el("td", null, v === null || v === undefined ? "–" : String(v))); });
    body.appendChild(tr);
  }
  var blank = names().map(function () { return null; });
  S.doc.meta.entries.forEach(function (x, r) {
    row(S.doc.meta.edited.indexOf(r + 1) >= 0 ? t("Round {round} (edited)", { round: r + 1 }) : t("Round {round}", { round: r + 1 }),
      res && res.rounds[r] || blank, "sheet-round");
  });
  if (res) {
    // the dessert (an item: "green_tea_ice_cream") by its name ("Green tea ice cream", the engine's message)
    var dessert = res.explain.dessert.replace(/_/g, " ");
    row(t("{dessert} kept", { dessert: t(dessert.charAt(0).toUpperCase() + dessert.slice(1)) }), res.explain.kept, "sheet-kept");
  }
  var desserts = Cards.editionWords(S.doc.edition).tiebreak;
  var over = S.doc.meta.entries.length === ROUNDS;
  row(over ? desserts : t("{row} (after round {round})", { row: desserts, round: ROUNDS }), res && over ? res.pudding : blank,
    "sheet-dessert");
  row(t("Total"), res ? res.totals : blank, "sheet-total");
  tbl.appendChild(body);
  var end = $("end");
  end.textContent = "";
  if (res && res.explain.end && allIn(ROUNDS - 1)) {
    end.appendChild(el("h3", null, t("End of the game")));
    var said = res.explain.end.lines_msg;
    (res.explain.end.lines || []).forEach(function (line, i) {
      end.appendChild(el("p", null, named(said && said[i] ? say({ sentence: said[i] }) : line.charAt(0).toUpperCase() + line.slice(1) + ".")));
    });
    (res.explain.end.figures || []).forEach(function (f, s) {
      end.appendChild(el("p", null, t("{name}: {figures}", { name: names()[s], figures: figureText(f) })));
    });
    var winners = res.explain.end.winners_msg ? say(res.explain.end.winners_msg) : res.explain.end.winners;
    var w = el("p", "winners", named(winners));
    w.setAttribute("data-testid", "winners");
    end.appendChild(w);
  }
}

// ------------------------------------------------------------ export, share, image

function download(name, blob) {
  var a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function drawImage() {
  var res = S.story && !S.error ? S.story : null;
  var cols = S.doc.players + 1, w = Math.max(480, 140 + cols * 110), rows = S.doc.meta.entries.length + 3;
  var c = document.createElement("canvas");
  c.width = w; c.height = 120 + rows * 44 + 60;
  var g = c.getContext("2d");
  g.fillStyle = "#fffdf9"; g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = "#2b2522"; g.font = "bold 26px sans-serif";
  g.fillText(t("{edition} score sheet", { edition: Cards.editionWords(S.doc.edition).title }), 24, 44);
  g.font = "15px sans-serif";
  g.fillStyle = "#6d625a";
  g.fillText(new Date().toLocaleDateString(lang) + (S.doc.edition === "party" && typeof S.doc.menu === "object" ? " · " + say({ words: S.doc.menu.map(Cards.itemLabel), listing: true }) : ""), 24, 68);
  g.fillStyle = "#2b2522";
  g.font = "16px sans-serif";
  var y = 96;
  function line(label, values, bold) {
    g.font = (bold ? "bold " : "") + "18px sans-serif";
    g.fillText(label, 24, y);
    values.forEach(function (v, i) { g.fillText(String(v === null || v === undefined ? "–" : v), 160 + i * 110, y); });
    y += 44;
  }
  line("", names(), true);
  S.doc.meta.entries.forEach(function (x, r) { line(t("Round {round}", { round: r + 1 }), res && res.rounds[r] || []); });
  if (res && S.doc.meta.entries.length === ROUNDS) line(Cards.editionWords(S.doc.edition).tiebreak, res.pudding);
  line(t("Total"), res ? res.totals : [], true);
  if (res && res.explain.end) {
    g.font = "16px sans-serif";
    g.fillText(named(res.explain.end.winners_msg ? say(res.explain.end.winners_msg) : res.explain.end.winners), 24, y);
  }
  c.toBlob(function (blob) { download("sushigo-score-sheet.png", blob); });
}

function wireActions() {
  $("export").addEventListener("click", function () {
    download("sushigo-score-sheet.json", new Blob([JSON.stringify(sheetOf(S.doc), null, 1)], { type: "application/json" }));
  });
  $("image").addEventListener("click", drawImage);
  $("share").addEventListener("click", function () {
    var link = location.origin + "/score/" + S.id;
    $("share-note").textContent = t("Anyone with this link can watch (not edit): {link}", { link: link });
    copy(link, $("share"));
  });
  $("guide-button").addEventListener("click", function () { openGuide($("guide-panel").hidden); });
  $("guide-close").addEventListener("click", function () { openGuide(false); });
  $("guide-panel").addEventListener("keydown", function (ev) { if (ev.key === "Escape") openGuide(false); });
}

// ------------------------------------------------------------ setup

/** The sheets this browser keeps (newest first), to go back to one. */
function listMine() {
  var box = $("my-sheets");
  var list = box.querySelector("ul");
  HELD.list().slice(0, 10).forEach(function (pair) {
    var id = pair[0], token = pair[1].token;
    if (typeof token !== "string") return;
    var local = readJSON(LOCAL + id, null);
    var doc = local && local.doc;
    if (!doc || !doc.meta || !Array.isArray(doc.meta.names)) return;
    var li = el("li");
    var a = el("a", null, t("{names} · {edition} · round {round}", { names: say({ words: doc.meta.names.map(String), listing: true }),
      edition: Cards.editionWords(doc.edition).title, round: (doc.rounds || []).length }));
    a.href = "/score/" + encodeURIComponent(id) + "#edit=" + encodeURIComponent(token);
    a.setAttribute("data-testid", "my-sheet");
    li.appendChild(a);
    list.appendChild(li);
  });
  box.hidden = !list.children.length;
}

function setupForm(options) {
  var form = $("setup");
  form.hidden = false;
  listMine();
  var menu = $as("menu", HTMLSelectElement);
  Object.keys(options.menus).forEach(function (name) { var o = el("option", null, t(name)); o.value = name; menu.appendChild(o); });
  var custom = el("option", null, t("Custom menu…")); custom.value = ""; menu.appendChild(custom);
  menu.value = options.default_menu;
  var players = $as("players", HTMLSelectElement);
  function party() { return as(form.querySelector('input[name="edition"]:checked'), HTMLInputElement).value === "party"; }
  function sync() {
    var range = options.editions[party() ? "party" : "base"];
    var was = +players.value || 4;
    players.textContent = "";
    for (var n = range[0]; n <= range[1]; n++) { var o = el("option", null, String(n)); o.value = String(n); players.appendChild(o); }
    players.value = String(Math.min(Math.max(was, range[0]), range[1]));
    $("party-setup").hidden = !party();
    $("base-setup").hidden = party();
    $("custom-menu").hidden = $("custom-label").hidden = menu.value !== "";
    var box = $("names");
    var old = Array.prototype.map.call(box.querySelectorAll("input"), function (i) { return i.value; });
    if (old.length === +players.value) return;
    box.textContent = "";
    for (var s = 0; s < +players.value; s++) {
      var lab = el("label", null, t("Player {n}", { n: s + 1 }) + " ");
      var input = el("input");
      input.setAttribute("data-testid", "name-" + s);
      input.maxLength = options.max_name || 24;
      input.autocomplete = "off";
      input.placeholder = t("Player {n}", { n: s + 1 });
      input.value = old[s] || "";
      lab.appendChild(input);
      box.appendChild(lab);
    }
  }
  form.addEventListener("change", function (ev) {
    var target = ev.target;
    if (target === players || target === menu || (target instanceof HTMLInputElement && target.name === "edition")) sync();
  });
  players.value = "4";
  sync();
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!transition("submit")) return;  // already creating
    var n = +players.value;
    var doc = { players: n, edition: party() ? "party" : "base", options: {} };
    if (party()) {
      doc.menu = menu.value || $as("custom-menu", HTMLInputElement).value.split(",").map(function (x) { return x.trim(); }).filter(Boolean);
      doc.options = { uramaki_split: $as("opt-uramaki_split", HTMLSelectElement).value, wasabi_colour: $as("opt-wasabi_colour", HTMLSelectElement).value,
                      two_player_pudding_penalty: $as("opt-two_player_pudding_penalty", HTMLInputElement).checked };
    } else if ($as("opt-pass_both_ways", HTMLInputElement).checked) {
      doc.options = { pass_both_ways: true };
    }
    var who = Array.prototype.map.call($("names").querySelectorAll("input"), function (i, s) {
      return i.value.trim() || t("Player {n}", { n: s + 1 });
    });
    var setupDoc = { players: n, edition: doc.edition, menu: doc.menu, options: doc.edition === "party" ? doc.options : undefined };
    $("setup-error").textContent = "";
    post("/api/score/setup", setupDoc).then(function (r) {
      if (!r.ok) throw new Error(r.body.error);
      useSetup(r.body);
      doc.menu = r.body.menu;
      doc.meta = { names: who, edited: [], entered: [[]], race: [zeros(n)], entries: [emptyRound(n)] };
      S.doc = doc;
      return create();
    }).catch(function (e) { transition("failed"); $("setup-error").textContent = String(e.message || e); });
  });
  var picker = $as("import", HTMLInputElement);
  picker.addEventListener("change", function () {
    var file = picker.files[0];
    if (!file || !transition("import")) return;
    file.text().then(function (text) {
      var sheet;
      try { sheet = JSON.parse(text); } catch (e) { throw new Error(t("that file is not JSON")); }
      if (!sheet || typeof sheet !== "object" || !Array.isArray(sheet.rounds)) {
        throw new Error(t("that file is not a score sheet (docs/spec/game-record.md)"));
      }
      return adopt(sheet).then(create);
    }).catch(function (e) { transition("failed"); $("setup-error").textContent = String(e.message || e); });
  });
}

function create() {
  return post("/api/sheets", { sheet: sheetOf(S.doc) }).then(function (r) {
    if (!r.ok) throw new Error(r.body.error);
    S.id = r.body.id;
    S.token = r.body.token;
    S.version = r.body.version;
    HELD.remember(S.id, { token: S.token });
    history.replaceState(null, "", "/score/" + S.id + "#edit=" + S.token);
    transition("created");
    S.round = 0; S.seat = 0;
    keepLocal();
    setSync(t("Saved"), "open");
    return score();
  });
}

function start() {
  wireActions();
  var m = /^\/score\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  if (!m) {
    transition("setup");
    fetch("/api/options").then(function (r) { return r.json(); }).then(setupForm);
    return;
  }
  transition("open");
  S.id = m[1];
  var fromLink = /(?:^#|&)edit=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (fromLink) HELD.remember(S.id, { token: fromLink[1] });
  var held = HELD.get(S.id);
  S.token = held && typeof held.token === "string" ? held.token : null;
  S.readonly = !S.token;
  // Entries this browser has not sent yet win; otherwise the server's copy (another
  // phone may have kept score since), or this browser's when the server can't be reached.
  var local = S.readonly ? null : readJSON(LOCAL + S.id, null);
  function fromLocal() {
    return adopt(local.doc).then(function () { S.dirty = !!local.dirty; if (S.dirty) flush(); });
  }
  var ready = local && local.doc && local.dirty ? fromLocal()
    : fetch("/api/sheets/" + encodeURIComponent(S.id)).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) throw new Error(j.error);
        S.version = j.version;
        return adopt(j.sheet);
      });
    }, function (e) { if (local && local.doc) return fromLocal(); throw e; });
  ready.then(function () {
    transition(S.readonly ? "watch" : "edit");
    S.seat = firstOpenSeat(S.round = S.doc.meta.entries.length - 1);
    setSync(S.readonly ? t("Watching") : t("Saved"), "open");
    render();
  }).catch(function (e) {
    transition("failed");
    $("sheet").hidden = false;
    var banner = $("sheet-error");
    banner.hidden = false;
    banner.textContent = String(e.message || e);
    setSync("", "closed");
  });
}

start();
