// @ts-check
/* The score panel: the score sheet, each round's breakdown with the round
 * explained in the engine's words (view.explained: the server sends each
 * seat's figures and the races; nothing is recomputed here), the winners and
 * the record link.  Test hooks: see table.js (scores, scoresheet, breakdown,
 * explained, winners, record-link).
 */

import { $, $as, as, el } from "./dom.js";
import { groupElement as drawGroup, groups } from "./collections.js";
import { say, t, tn } from "./i18n.js";

// A breakdown row's name in the page's language: its category is a menu item ("miso_soup"), its
// English name that item's ("Miso soup"), a message of the engine's and the terminal's.
function categoryLabel(c) {
  var words = String(c).replace(/_/g, " ");
  return t(words.charAt(0).toUpperCase() + words.slice(1));
}

/**
 * A translated sentence as nodes: each `{field}` of `fields` is its node (or its text), the rest
 * is text ("{name}: {figures}" with the name in <strong>).
 * @param {string} text
 * @param {Record<string, Node | string>} fields
 */
export function withNodes(text, fields) {
  var frag = document.createDocumentFragment();
  var re = /\{(\w+)\}/g, last = 0, m;
  while ((m = re.exec(text)) !== null) {
    if (!Object.prototype.hasOwnProperty.call(fields, m[1])) continue;
    if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
    var part = fields[m[1]];
    frag.appendChild(typeof part === "string" ? document.createTextNode(part) : part);
    last = re.lastIndex;
  }
  if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
  return frag;
}

// How a round scored, in the engine's words (view.explained: the server
// sends each seat's figures and the races; nothing is recomputed here).
export function explanation(story, seatName) {
  var box = el("div", "explained");
  box.setAttribute("data-testid", "explained");
  story.figures.forEach(function (figures, s) {
    var p = el("p", "explained-seat");
    var texts = figures.map(figureText);
    p.appendChild(withNodes(t("{name}: {figures}"), { name: el("strong", null, seatName(s)),
      figures: texts.length ? texts.join("; ") : t("nothing that scores") }));
    box.appendChild(p);
  });
  addRaces(box, story);
  return box;
}

/** A figure of a round's score in the page's language (its `msg`; its English `text` without one). */
export function figureText(f) {
  return f.msg ? say(f.msg) : f.text;
}

/** A round's races (maki, temaki, uramaki) as sentences in the page's language. */
export function raceSentences(story) {
  return story.races.map(function (race, i) {
    var m = story.races_msg && story.races_msg[i];
    return m ? say({ sentence: m }) : race.charAt(0).toUpperCase() + race.slice(1) + ".";
  });
}

/** A round's races (maki, temaki, uramaki), a sentence each, added to `box`. */
export function addRaces(box, story) {
  raceSentences(story).forEach(function (race) { box.appendChild(el("p", "explained-race", race)); });
}

/**
 * A finished round's cards seat by seat, each with its points and figures, then the races: the
 * round-end panels of the table and the replay viewer.  `last`: {round, collections, on_wasabi}
 * (view.last_round), `story`: the round explained (may be missing), `points`: the round's points.
 */
export function roundEndSeats(box, last, story, points, seatName) {
  var grid = el("div", "round-end-seats");
  (last.collections || []).forEach(function (col, i) {
    var sec = el("section", "round-end-seat");
    sec.setAttribute("data-testid", "round-end-seat");
    sec.setAttribute("data-seat", String(i));
    var head = el("h3", null, seatName(i));
    if (points) head.appendChild(el("span", "round-points", " " + tn("{n} point", "{n} points", points[i])));
    sec.appendChild(head);
    var cbox = el("div", "collection");
    cbox.setAttribute("aria-label", t("{name}'s cards in round {round}", { name: seatName(i), round: last.round }));
    groups(col, last.on_wasabi ? last.on_wasabi[i] : null).forEach(function (g) { cbox.appendChild(drawGroup(g, null)); });
    if (!col.length) cbox.appendChild(el("span", "empty", t("no cards")));
    sec.appendChild(cbox);
    if (story && story.figures[i]) {
      var ul = el("ul", "figures");
      story.figures[i].forEach(function (f) { ul.appendChild(el("li", null, figureText(f))); });
      if (!story.figures[i].length) ul.appendChild(el("li", null, t("nothing that scores")));
      sec.appendChild(ul);
    }
    grid.appendChild(sec);
  });
  box.appendChild(grid);
  if (story) {
    var races = el("div", "explained");
    races.setAttribute("data-testid", "explained");
    addRaces(races, story);
    box.appendChild(races);
  }
}

/**
 * A round's column heading: "Round 2", shortened to "R2" on a narrow screen (the words the short
 * form leaves out are the .wide-only part, when the short form is the long one less a middle part).
 */
function roundHeading(th, round) {
  var long = t("Round {round}", { round: round });
  // TRANSLATORS: the short "Round {round}" of a narrow score sheet's column.
  var short = t("R{round}", { round: round });
  th.title = long;
  var lead = 0;
  while (lead < short.length && short.charAt(lead) === long.charAt(lead)) lead++;
  var tail = 0;
  while (tail < short.length - lead && short.charAt(short.length - 1 - tail) === long.charAt(long.length - 1 - tail)) tail++;
  if (lead + tail < short.length || lead + tail > long.length) { th.textContent = long; return; }  // none: the long one
  th.appendChild(document.createTextNode(long.slice(0, lead)));
  th.appendChild(el("span", "wide-only", long.slice(lead, long.length - tail)));
  th.appendChild(document.createTextNode(long.slice(long.length - tail)));
}

/**
 * Draw the score panel.  `page`: {view, finished, party, id, seatName(i), winnersText(),
 * ending: the game's end as sentences (the log's "game" lines, names put in),
 * record: the record's address when it is not the table's, seat: the seat this page is, for
 * the replay link}.
 */
export function renderScores(page) {
  var panel = $("scores");
  var v = page.view;
  var r = v && v.result ? v.result : null;
  var finished = page.finished;
  if (!r || (!r.rounds.length && !finished)) { panel.hidden = true; return; }
  panel.hidden = false;
  var n = r.totals.length;
  var party = page.party;
  var tbl = $("scoresheet");
  tbl.textContent = "";
  var cap = el("caption", null, finished ? t("Final scores") : t("Score sheet"));
  tbl.appendChild(cap);
  var thead = el("thead"), hr = el("tr");
  hr.appendChild(el("th", null, t("Player")));
  for (var k = 0; k < 3; k++) {
    var rh = el("th", "num");
    roundHeading(rh, k + 1);
    hr.appendChild(rh);
  }
  hr.appendChild(el("th", "num", party ? t("Desserts") : t("Pudding")));
  hr.appendChild(el("th", "num", t("Total")));
  thead.appendChild(hr);
  tbl.appendChild(thead);
  var body = el("tbody");
  var winners = r.winners || [];
  for (var s = 0; s < n; s++) {
    var tr = el("tr");
    tr.setAttribute("data-seat", String(s));
    if (finished && winners.indexOf(s) >= 0) tr.className = "winner-row";
    var th = el("th", null, page.seatName(s));
    th.scope = "row";
    tr.appendChild(th);
    for (k = 0; k < 3; k++) {
      var cell = el("td", "num", r.rounds[k] ? r.rounds[k][s] : "–");
      cell.setAttribute("data-testid", "round-score");
      tr.appendChild(cell);
    }
    var pud = party ? (r.dessert_cards ? tn("{n} card", "{n} cards", r.dessert_cards[s]) : "")
      : (r.puddings ? tn("{n} pudding", "{n} puddings", r.puddings[s]) : "");
    var pc = el("td", "num", finished ? String(r.pudding[s]) : "–");
    if (pud) pc.title = pud;
    // TRANSLATORS: the puddings or dessert cards behind a seat's dessert points, in brackets ("(3 puddings)").
    if (finished && pud) pc.appendChild(el("span", "sub", " " + t("({what})", { what: pud })));
    tr.appendChild(pc);
    var tot = el("td", "num total", r.totals[s]);
    tot.setAttribute("data-testid", "total");
    tr.appendChild(tot);
    body.appendChild(tr);
  }
  tbl.appendChild(body);

  // Per round breakdown, newest open.
  var bd = $("breakdowns");
  var openBefore = {};
  Array.prototype.forEach.call(bd.querySelectorAll("details"), function (d) { openBefore[d.getAttribute("data-round")] = d.open; });
  bd.textContent = "";
  var rounds = r.breakdown || [];
  rounds.forEach(function (rnd, ri) {
    var d = el("details", "breakdown");
    d.setAttribute("data-testid", "breakdown");
    d.setAttribute("data-round", String(ri + 1));
    var newest = ri === rounds.length - 1;
    d.open = openBefore.hasOwnProperty(String(ri + 1)) ? openBefore[String(ri + 1)] : newest;
    d.appendChild(el("summary", null, t("Round {round} scoring", { round: ri + 1 })));
    var cats = [];
    rnd.forEach(function (line) { Object.keys(line || {}).forEach(function (c) { if (cats.indexOf(c) < 0) cats.push(c); }); });
    var wrap = el("div", "table-scroll");
    var t2 = el("table", "breakdown-table");
    var h = el("tr");
    h.appendChild(el("th", null, ""));
    for (var s2 = 0; s2 < rnd.length; s2++) h.appendChild(el("th", "num", page.seatName(s2)));
    var th2 = el("thead");
    th2.appendChild(h);
    t2.appendChild(th2);
    var b2 = el("tbody");
    cats.forEach(function (c) {
      var row = el("tr");
      row.appendChild(el("th", null, categoryLabel(c)));
      rnd.forEach(function (line) { row.appendChild(el("td", "num", line && line[c] !== undefined ? line[c] : 0)); });
      b2.appendChild(row);
    });
    var sumRow = el("tr", "sum");
    sumRow.appendChild(el("th", null, t("Round total")));
    for (var s3 = 0; s3 < rnd.length; s3++) sumRow.appendChild(el("td", "num", r.rounds[ri] ? r.rounds[ri][s3] : ""));
    b2.appendChild(sumRow);
    t2.appendChild(b2);
    wrap.appendChild(t2);
    d.appendChild(wrap);
    var story = v.explained && v.explained[ri];
    if (story) d.appendChild(explanation(story, page.seatName));
    bd.appendChild(d);
  });
  // the end of the game in the engine's words: puddings or each seat's desserts, and the winners
  var end = (page.ending || []);
  if (finished && end.length) {
    var e = el("details", "breakdown");
    e.setAttribute("data-testid", "game-end");
    e.open = true;
    e.appendChild(el("summary", null, page.party ? t("Desserts and the winner") : t("Puddings and the winner")));
    var box = el("div", "explained");
    end.forEach(function (line) { box.appendChild(el("p", "explained-seat", line)); });
    e.appendChild(box);
    bd.appendChild(e);
  }

  var w = $("winners");
  w.hidden = !finished;
  w.textContent = finished ? page.winnersText() : "";
  var rec = as(panel.querySelector(".record"), HTMLElement);
  rec.hidden = !finished;
  var link = $as("record-link", HTMLAnchorElement);
  link.href = page.record || "/api/tables/" + encodeURIComponent(page.id) + "/record";
  link.setAttribute("download", "sushigo-" + page.id + ".json");
  var again = $("replay-link");  // the table page: its replay, from this seat's point of view
  if (again instanceof HTMLAnchorElement) again.href = "/t/" + encodeURIComponent(page.id) + "/replay#pov=" + (page.seat === null || page.seat === undefined ? "spectator" : page.seat);
}
