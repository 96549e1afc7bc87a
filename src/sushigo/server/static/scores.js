// @ts-check
/* The score panel: the score sheet, each round's breakdown with the round
 * explained in the engine's words (view.explained: the server sends each
 * seat's figures and the races; nothing is recomputed here), the winners and
 * the record link.  Test hooks: see table.js (scores, scoresheet, breakdown,
 * explained, winners, record-link).
 */

import { $, $as, as, el } from "./dom.js";
import { groupElement as drawGroup, groups } from "./collections.js";
import { say } from "./i18n.js";

function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

function categoryLabel(c) {
  var t = String(c).replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// How a round scored, in the engine's words (view.explained: the server
// sends each seat's figures and the races; nothing is recomputed here).
export function explanation(story, seatName) {
  var box = el("div", "explained");
  box.setAttribute("data-testid", "explained");
  story.figures.forEach(function (figures, s) {
    var p = el("p", "explained-seat");
    p.appendChild(el("strong", null, seatName(s) + ": "));
    var texts = figures.map(figureText);
    p.appendChild(document.createTextNode(texts.length ? texts.join("; ") : "nothing that scores"));
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
    if (points) head.appendChild(el("span", "round-points", " " + points[i] + " points"));
    sec.appendChild(head);
    var cbox = el("div", "collection");
    cbox.setAttribute("aria-label", seatName(i) + "'s cards in round " + last.round);
    groups(col, last.on_wasabi ? last.on_wasabi[i] : null).forEach(function (g) { cbox.appendChild(drawGroup(g, null)); });
    if (!col.length) cbox.appendChild(el("span", "empty", "no cards"));
    sec.appendChild(cbox);
    if (story && story.figures[i]) {
      var ul = el("ul", "figures");
      story.figures[i].forEach(function (f) { ul.appendChild(el("li", null, figureText(f))); });
      if (!story.figures[i].length) ul.appendChild(el("li", null, "nothing that scores"));
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
 * Draw the score panel.  `t`: {view, finished, party, id, seatName(i), winnersText(),
 * ending: the game's end as sentences (the log's "game" lines, names put in),
 * record: the record's address when it is not the table's, seat: the seat this page is, for
 * the replay link}.
 */
export function renderScores(t) {
  var panel = $("scores");
  var v = t.view;
  var r = v && v.result ? v.result : null;
  var finished = t.finished;
  if (!r || (!r.rounds.length && !finished)) { panel.hidden = true; return; }
  panel.hidden = false;
  var n = r.totals.length;
  var party = t.party;
  var tbl = $("scoresheet");
  tbl.textContent = "";
  var cap = el("caption", null, finished ? "Final scores" : "Score sheet");
  tbl.appendChild(cap);
  var thead = el("thead"), hr = el("tr");
  hr.appendChild(el("th", null, "Player"));
  for (var k = 0; k < 3; k++) {
    var rh = el("th", "num", "R");
    rh.appendChild(el("span", "wide-only", "ound "));
    rh.appendChild(document.createTextNode(String(k + 1)));
    rh.title = "Round " + (k + 1);
    hr.appendChild(rh);
  }
  hr.appendChild(el("th", "num", party ? "Desserts" : "Pudding"));
  hr.appendChild(el("th", "num", "Total"));
  thead.appendChild(hr);
  tbl.appendChild(thead);
  var body = el("tbody");
  var winners = r.winners || [];
  for (var s = 0; s < n; s++) {
    var tr = el("tr");
    tr.setAttribute("data-seat", String(s));
    if (finished && winners.indexOf(s) >= 0) tr.className = "winner-row";
    var th = el("th", null, t.seatName(s));
    th.scope = "row";
    tr.appendChild(th);
    for (k = 0; k < 3; k++) {
      var cell = el("td", "num", r.rounds[k] ? r.rounds[k][s] : "–");
      cell.setAttribute("data-testid", "round-score");
      tr.appendChild(cell);
    }
    var pud = party ? (r.dessert_cards ? r.dessert_cards[s] + " card" + (r.dessert_cards[s] === 1 ? "" : "s") : "") : (r.puddings ? plural(r.puddings[s], "pudding") : "");
    var pc = el("td", "num", finished ? String(r.pudding[s]) : "–");
    if (pud) pc.title = pud;
    if (finished && pud) pc.appendChild(el("span", "sub", " (" + pud + ")"));
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
    d.appendChild(el("summary", null, "Round " + (ri + 1) + " scoring"));
    var cats = [];
    rnd.forEach(function (line) { Object.keys(line || {}).forEach(function (c) { if (cats.indexOf(c) < 0) cats.push(c); }); });
    var wrap = el("div", "table-scroll");
    var t2 = el("table", "breakdown-table");
    var h = el("tr");
    h.appendChild(el("th", null, ""));
    for (var s2 = 0; s2 < rnd.length; s2++) h.appendChild(el("th", "num", t.seatName(s2)));
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
    sumRow.appendChild(el("th", null, "Round total"));
    for (var s3 = 0; s3 < rnd.length; s3++) sumRow.appendChild(el("td", "num", r.rounds[ri] ? r.rounds[ri][s3] : ""));
    b2.appendChild(sumRow);
    t2.appendChild(b2);
    wrap.appendChild(t2);
    d.appendChild(wrap);
    var story = v.explained && v.explained[ri];
    if (story) d.appendChild(explanation(story, t.seatName));
    bd.appendChild(d);
  });
  // the end of the game in the engine's words: puddings or each seat's desserts, and the winners
  var end = (t.ending || []);
  if (finished && end.length) {
    var e = el("details", "breakdown");
    e.setAttribute("data-testid", "game-end");
    e.open = true;
    e.appendChild(el("summary", null, t.party ? "Desserts and the winner" : "Puddings and the winner"));
    var box = el("div", "explained");
    end.forEach(function (line) { box.appendChild(el("p", "explained-seat", line)); });
    e.appendChild(box);
    bd.appendChild(e);
  }

  var w = $("winners");
  w.hidden = !finished;
  w.textContent = finished ? t.winnersText() : "";
  var rec = as(panel.querySelector(".record"), HTMLElement);
  rec.hidden = !finished;
  var link = $as("record-link", HTMLAnchorElement);
  link.href = t.record || "/api/tables/" + encodeURIComponent(t.id) + "/record";
  link.setAttribute("download", "sushigo-" + t.id + ".json");
  var again = $("replay-link");  // the table page: its replay, from this seat's point of view
  if (again instanceof HTMLAnchorElement) again.href = "/t/" + encodeURIComponent(t.id) + "/replay#pov=" + (t.seat === null || t.seat === undefined ? "spectator" : t.seat);
}
