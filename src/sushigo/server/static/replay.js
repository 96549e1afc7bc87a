// @ts-check
/* The replay viewer: a finished game step by step, as one seat or a spectator saw it
 * (docs/server.md, "Replays").
 *
 * Addresses: /t/{id}/replay (a finished table), /replay/{upload id} (an uploaded record),
 * /replay (the upload form).  "#pov=N&step=K" names the point of view (a seat number, or
 * "spectator") and the step; the page keeps it up to date so that an address shows a moment.
 * The server sends the whole sushigo-replay/1 document for the point of view: every step's
 * view (the engine's, so a seat's steps show only what it knew), the log as that seat read it,
 * each round explained.  This page draws them and computes nothing; every text from the server
 * goes into the page with textContent.
 *
 * Hooks (data-testid): upload, upload-file, upload-text, upload-submit, upload-error (the form);
 * controls, pov (a <select>: "" for the spectator, else the seat), first, prev, next, last,
 * step-info, scrubber (a range), mistake-nav, prev-mistake, next-mistake; moment (this step:
 * data-kind, data-round, data-turn; inside: replay-hand with data-testid="card" and data-chosen
 * on the chosen card(s), chosen, decision-info, step-analysis with step-value rows data-action,
 * data-best, data-played, better); round-end (round-end-seat, explained); seats (seat,
 * data-seat, seat-score, collection, revealed); replay-analysis (analyse, analysis-progress,
 * analysis-summary, eval-graph with eval-point buttons, mistakes with mistake buttons
 * data-step); log (log.js); scores (scores.js); error.
 *
 * The page's state is one object, R; its phase, R.phase, changes only in transition(event),
 * along these moves (an event the phase has no move for is ignored):
 *
 *   phase      the page                                      event -> next phase
 *   start      nothing yet                                   upload -> upload (/replay), load -> loading
 *                                                            (a replay's address), lost -> lost (any other)
 *   upload     the form: a record file or pasted text        send -> uploading
 *   uploading  the record is sent; once stored, the page     failed -> upload (the form says why)
 *              opens its replay
 *   loading    a point of view's document is fetched         loaded -> viewing, failed -> failed,
 *                                                            kept -> viewing (failed: the shown one stays),
 *                                                            load -> loading (another, chosen meanwhile)
 *   viewing    one step of the game (R.step), as R.pov saw   load -> loading (another point of view)
 *   failed     the replay could not be loaded                -
 *   lost       not a replay address                          -
 *
 * Moving between steps is no phase: R.step changes within viewing.
 */
import { $, $as, el, getJson } from "./dom.js";
import { groupElement as drawGroup, groups } from "./collections.js";
import { renderScores, roundEndSeats } from "./scores.js";
import { latestTurn, lineText, plain, renderLog } from "./log.js";
import { drawJob, fixed, graph, jobWatcher, MARKS } from "./analysis.js";
import * as C from "./cards.js";
import { say, t, tn, wordsOf } from "./i18n.js";

var END_KINDS = ["round_end", "end"];  // steps where nobody decides (sushigo.server.replays.END_KINDS)
var path = location.pathname;
/** @typedef {"start" | "upload" | "uploading" | "loading" | "viewing" | "failed" | "lost"} Phase */

/** @type {Record<Phase, Record<string, Phase>>} each phase's events and where they lead */
var MOVES = {
  start: { upload: "upload", load: "loading", lost: "lost" },
  upload: { send: "uploading" },
  uploading: { failed: "upload" },
  loading: { loaded: "viewing", failed: "failed", kept: "viewing", load: "loading" },
  viewing: { load: "loading" },
  failed: {},
  lost: {}
};

var R = {
  /** @type {Phase} */
  phase: "start",  // changed by transition() only
  id: null, kind: null, pov: null, doc: null, docs: {}, step: 0
};

/**
 * Move R.phase on `event` (see the table above); false, and no move, when its phase has none.
 * @param {string} event
 */
function transition(event) {
  var to = MOVES[R.phase][event];
  if (!to) return false;
  R.phase = to;
  return true;
}
var W = jobWatcher(function () { render(); });  // the point of view's analysis (analysis.js)

var m = /^\/t\/([^/?#]+)\/replay\/?$/.exec(path);
if (m) { R.kind = "table"; R.id = decodeURIComponent(m[1]); }
m = /^\/replay\/([^/?#]+)\/?$/.exec(path);
if (m) { R.kind = "upload"; R.id = decodeURIComponent(m[1]); }

function replayUrl(pov) {
  var q = pov === null ? "" : "?seat=" + pov;
  return R.kind === "table" ? "/api/tables/" + encodeURIComponent(R.id) + "/replay" + q
    : "/api/replays/" + encodeURIComponent(R.id) + q;
}
function apiBase() {
  return R.kind === "table" ? "/api/tables/" + encodeURIComponent(R.id) : "/api/replays/" + encodeURIComponent(R.id);
}

function sentence(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : text; }

function showError(text) {
  var e = $("error");
  e.hidden = !text;
  e.textContent = text || "";
}

// ------------------------------------------------------------ the upload form

function setupUpload() {
  $("upload").hidden = false;
  $("upload-link").hidden = true;
  document.title = t("Replay a game record · Sushi Go!");
  var form = $("upload-form"), err = $("upload-error");
  var file = $as("upload-file", HTMLInputElement);
  file.addEventListener("change", function () {
    var f = file.files && file.files[0];
    if (!f) return;
    f.text().then(function (text) { $as("upload-text", HTMLTextAreaElement).value = text; err.textContent = ""; },
      function () { err.textContent = t("That file could not be read."); });
  });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = $as("upload-text", HTMLTextAreaElement).value.trim();
    if (!text) { err.textContent = t("Choose a record file or paste a record first."); return; }
    if (!transition("send")) return;
    err.textContent = "";
    $as("upload-submit", HTMLButtonElement).disabled = true;
    getJson("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: text })
      .then(function (up) { location.href = up.replay; },
        function (x) { transition("failed"); err.textContent = sentence(x.message); $as("upload-submit", HTMLButtonElement).disabled = false; });
  });
}

// ------------------------------------------------------------ loading

function readHash() {
  var h = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    var p = kv.split("=");
    if (p.length === 2) h[p[0]] = decodeURIComponent(p[1]);
  });
  var pov = /^\d{1,2}$/.test(h.pov || "") ? Number(h.pov) : null;
  var step = /^\d{1,4}$/.test(h.step || "") ? Number(h.step) : 0;
  return { pov: pov, step: step };
}

function writeHash() {
  var h = "#pov=" + (R.pov === null ? "spectator" : R.pov) + "&step=" + R.step;
  if (location.hash !== h) history.replaceState(null, "", h);
}

function load(pov, step) {
  if (!transition("load")) return Promise.resolve();
  var key = pov === null ? "spectator" : String(pov);
  var have = R.docs[key];
  var got = have ? Promise.resolve(have) : getJson(replayUrl(pov));
  return got.then(function (doc) {
    R.docs[key] = doc;
    R.doc = doc;
    R.pov = doc.seat;
    R.step = Math.max(0, Math.min(step, doc.steps.length - 1));
    transition("loaded");
    showError("");
    loadAnalysis();
    render();
  }, function (e) {
    transition(R.doc ? "kept" : "failed");
    showError(t("This replay could not be loaded: {error}", { error: e.message }));
    if (R.doc) render();
  });
}

function loadAnalysis() { W.watch(apiBase(), R.pov); }

// ------------------------------------------------------------ moving

function go(step) {
  if (!R.doc) return;
  var n = R.doc.steps.length;
  var to = Math.max(0, Math.min(n - 1, step));
  if (to === R.step) return;
  R.step = to;
  render();
}

function decisions() {
  var job = W.job;
  return job && job.status === "done" && job.analysis ? job.analysis.seats[0].decisions : [];
}

function decisionKey(round, turn, index) { return round + "|" + turn + "|" + index; }

// The step where each analysed decision was made, and the decision made at each step.
function analysed() {
  var byKey = {}, out = { stepOf: [], atStep: {} };
  R.doc.steps.forEach(function (s) {
    if (s.chosen) byKey[decisionKey(s.round, s.turn, s.index)] = s.n;
  });
  decisions().forEach(function (d, i) {
    var n = byKey[decisionKey(d.round, d.turn, d.index)];
    out.stepOf.push(n === undefined ? null : n);
    if (n !== undefined) out.atStep[n] = i;
  });
  return out;
}

function mistakeSteps() {
  var a = analysed();
  return decisions().map(function (d, i) { return d.label ? a.stepOf[i] : null; })
    .filter(function (n) { return n !== null; });
}

function goMistake(dir) {
  var steps = mistakeSteps();
  var next = dir > 0 ? steps.filter(function (n) { return n > R.step; })[0]
    : steps.filter(function (n) { return n < R.step; }).pop();
  if (next !== undefined) go(next);
}

function setupControls() {
  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(R.step - 1); });
  $("next").addEventListener("click", function () { go(R.step + 1); });
  $("last").addEventListener("click", function () { go(R.doc ? R.doc.steps.length - 1 : 0); });
  var scrubber = $as("scrubber", HTMLInputElement);
  scrubber.addEventListener("input", function () { go(Number(scrubber.value)); });
  $("prev-mistake").addEventListener("click", function () { goMistake(-1); });
  $("next-mistake").addEventListener("click", function () { goMistake(1); });
  var pov = $as("pov", HTMLSelectElement);
  pov.addEventListener("change", function () {
    var v = pov.value;
    load(v === "" ? null : Number(v), R.step);
  });
  document.addEventListener("keydown", function (e) {
    if (!R.doc || e.altKey || e.ctrlKey || e.metaKey) return;
    var target = e.target, tag = target instanceof Element ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    var moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (moves[e.key]) { e.preventDefault(); go(R.step + moves[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(R.doc.steps.length - 1); }
    else if (e.key === "[") { e.preventDefault(); goMistake(-1); }
    else if (e.key === "]") { e.preventDefault(); goMistake(1); }
  });
}

// ------------------------------------------------------------ drawing

function seatName(i) {
  var names = R.doc ? R.doc.names : [];
  return i !== null && i !== undefined && i < names.length ? names[i] : t("Seat {n}", { n: Number(i) + 1 });
}

function edition() { return R.doc ? R.doc.edition : "base"; }

function stepTitle(s) {
  if (s.kind === "end") return t("The end of the game");
  if (s.kind === "round_end") return t("The end of round {round}", { round: s.round });
  return t("Round {round}, turn {turn}", { round: s.round, turn: s.turn });
}

function winnersText(result) {
  var w = result && result.winners ? result.winners : [];
  if (!w.length) return t("no winner");
  var names = say({ words: w.map(function (i) { return t("{name} ({points})", { name: seatName(i), points: result.totals[i] }); }),
    listing: true });
  return w.length > 1 ? t("Winners: {names}", { names: names }) : t("Winner: {names}", { names: names });
}

/** What a Party decision asks of its seat, in the page's language (the view's `asks_msg`, the engine's message). */
function asks(d) {
  return d.asks_msg ? say(d.asks_msg) : d.asks || t("decide");
}

function render() {
  var doc = R.doc;
  if (!doc) return;
  var s = doc.steps[R.step];
  writeHash();
  renderTop(doc);
  renderControls(doc, s);
  renderMoment(doc, s);
  renderRoundEnd(doc, s);
  renderSeats(doc, s);
  renderAnalysisPanel(doc, s);
  var lines = doc.lines.slice(0, s.lines);
  $("log-panel").hidden = false;
  renderLog($("log"), lines, doc.names.map(function (_, i) { return seatName(i); }));
  var view = Object.assign({}, s.view, {
    explained: doc.rounds.slice(0, s.rounds_done).map(function (r) { return r.explained; }) });
  renderScores({ view: view, finished: s.kind === "end", party: edition() === "party", id: R.id,
    seatName: seatName, winnersText: function () { return winnersText(s.view.result); },
    record: apiBase() + "/record",
    ending: lines.filter(function (l) { return l.kind === "game"; }).map(function (l) { return plain(lineText(l), seatName); }) });
}

function renderTop(doc) {
  var title = C.editionWords(doc.edition).title;
  var what = doc.menu ? t("{edition} · {menu}", { edition: title, menu: typeof doc.menu === "string" ? t(doc.menu) : t("custom menu") })
    : title;
  $("table-info").textContent = t("Replay · {game} · {players}",
    { game: what, players: tn("{n} player", "{n} players", doc.players) });
  document.title = t("Replay · {game} · Sushi Go!", { game: what });
  var link = $as("table-link", HTMLAnchorElement);
  link.hidden = R.kind !== "table";
  if (R.kind === "table") link.href = "/t/" + encodeURIComponent(R.id);
}

function renderControls(doc, s) {
  $("controls").hidden = false;
  var sel = $as("pov", HTMLSelectElement);
  var want = R.pov === null ? "" : String(R.pov);
  if (sel.options.length !== doc.players + 1) {
    sel.textContent = "";
    var o = el("option", null, t("a spectator (no hands)"));
    o.value = "";
    sel.appendChild(o);
    doc.names.forEach(function (_, i) {
      var op = el("option", null, seatName(i));
      op.value = String(i);
      sel.appendChild(op);
    });
  }
  sel.value = want;
  var n = doc.steps.length;
  $("step-info").textContent = t("{title} · step {step} of {n}", { title: stepTitle(s), step: R.step + 1, n: n });
  $as("first", HTMLButtonElement).disabled = $as("prev", HTMLButtonElement).disabled = R.step === 0;
  $as("next", HTMLButtonElement).disabled = $as("last", HTMLButtonElement).disabled = R.step === n - 1;
  var sc = $as("scrubber", HTMLInputElement);
  sc.max = String(n - 1);
  sc.value = String(R.step);
  sc.setAttribute("aria-valuetext", stepTitle(s));
  var marks = mistakeSteps();
  $("mistake-nav").hidden = !marks.length;
  $as("prev-mistake", HTMLButtonElement).disabled = !marks.some(function (k) { return k < R.step; });
  $as("next-mistake", HTMLButtonElement).disabled = !marks.some(function (k) { return k > R.step; });
}

// Which cards of the hand the chosen action played (for the highlight; the words come from the server).
function chosenCards(text) {
  if (!text || text === "pass" || /^flip:/.test(text)) return [];
  if (text.indexOf(">") >= 0) return [text.split(">")[0]];  // a special order played as a copy
  return text.split("+");  // one card, or a chopsticks pair
}

function renderMoment(doc, s) {
  var box = $("moment");
  box.hidden = false;
  box.textContent = "";
  box.setAttribute("data-kind", s.kind);
  box.setAttribute("data-round", String(s.round));
  box.setAttribute("data-turn", s.turn === null ? "" : String(s.turn));
  box.appendChild(el("h2", null, stepTitle(s)));
  var v = s.view, me = R.pov;
  var decision = v.decision && s.kind !== "pick" && END_KINDS.indexOf(s.kind) < 0 ? v.decision : null;
  if (s.kind === "pick") {
    box.appendChild(el("p", null, me === null
      ? t("Everyone picks a card from their hand, face down; the cards are revealed together. A spectator sees no hand.")
      : t("Everyone picks a card from their hand, face down; the cards are revealed together.")));
  } else if (decision) {
    var info = el("p", "decision", t("{name}'s {card}: {asks}.",
      { name: seatName(decision.seat), card: C.label(decision.card), asks: asks(decision) }));
    info.setAttribute("data-testid", "decision-info");
    box.appendChild(info);
  } else if (s.kind === "round_end") {
    box.appendChild(el("p", null, t("Every card of round {round} is on the table: how it scored is below.", { round: s.round })));
  } else {
    box.appendChild(el("p", "winners", t("{sentence}.", { sentence: winnersText(v.result) })));
  }
  if (me !== null && Array.isArray(v.hand) && v.hand.length && END_KINDS.indexOf(s.kind) < 0) {
    box.appendChild(el("p", "small-label", s.chosen ? t("{name}'s hand:", { name: seatName(me) })
      : t("{name}'s hand ({name} is not deciding now):", { name: seatName(me) })));
    var hand = el("div", "hand replay-hand");
    hand.setAttribute("data-testid", "replay-hand");
    var want = s.chosen && (s.kind === "pick" || s.kind === "chopsticks") ? chosenCards(s.chosen.text) : [];
    v.hand.forEach(function (name) {
      var card = C.element(name, {});
      card.setAttribute("data-testid", "card");
      card.setAttribute("data-card", name);
      var k = want.indexOf(name);
      if (k >= 0) {
        want.splice(k, 1);
        card.setAttribute("data-chosen", "true");
        card.classList.add("chosen");
      }
      hand.appendChild(card);
    });
    box.appendChild(hand);
  }
  if (decision && me === decision.seat && decision.drawn && decision.drawn.length) {
    var drawn = el("div", "hand replay-hand");
    decision.drawn.forEach(function (name) { drawn.appendChild(C.element(name, { mini: true })); });
    box.appendChild(el("p", "small-label", t("Drawn from the deck:")));
    box.appendChild(drawn);
  }
  if (s.chosen) {
    var ch = el("p", "chosen", t("{name} chose {choice}.", { name: seatName(me), choice: wordsOf(s.chosen, "words") }));
    ch.setAttribute("data-testid", "chosen");
    box.appendChild(ch);
  }
  var a = analysed(), i = a.atStep[R.step];
  if (i !== undefined) box.appendChild(stepAnalysis(decisions()[i]));
}

// The analysis of the decision made at this step: each choice's value, best first.
function stepAnalysis(d) {
  var sec = el("section", "step-analysis" + (d.label ? " " + d.label : ""));
  sec.setAttribute("data-testid", "step-analysis");
  var said = { mark: MARKS[d.label], best: wordsOf(d, "best_words"), loss: fixed(d.loss, 1) };
  var head = d.label === "inaccuracy" ? t("An inaccuracy {mark}: {best} was better by {loss} points.", said)
    : d.label === "mistake" ? t("A mistake {mark}: {best} was better by {loss} points.", said)
      : d.label === "blunder" ? t("A blunder {mark}: {best} was better by {loss} points.", said)
        : d.played === d.best ? t("The best choice, by the analysis.")
          : t("Within {loss} points of the best choice ({best}).", said);
  var h = el("p", "step-verdict", head);
  if (d.label) h.setAttribute("data-testid", "better");
  sec.appendChild(h);
  var tbl = el("table", "value-table");
  var cap = el("caption", "small-label", t("Expected final margin over the best other player, from what {name} knew then",
    { name: seatName(R.pov) }));
  tbl.appendChild(cap);
  var hr = el("tr");
  [t("Choice"), t("Margin"), t("Loss")].forEach(function (text, k) { hr.appendChild(el("th", k ? "num" : null, text)); });
  var thead = el("thead");
  thead.appendChild(hr);
  tbl.appendChild(thead);
  var body = el("tbody");
  d.values.forEach(function (val, k) {
    var tr = el("tr", (val.action === d.played ? "played " : "") + (k === 0 ? "best" : ""));
    tr.setAttribute("data-testid", "step-value");
    tr.setAttribute("data-action", val.action);
    if (k === 0) tr.setAttribute("data-best", "true");
    if (val.action === d.played) tr.setAttribute("data-played", "true");
    var name = el("td", null, wordsOf(val, "words") || val.action);
    // TRANSLATORS: a badge on the choice made, in the table of a decision's choices.
    if (val.action === d.played) name.appendChild(el("span", "badge you", t("chosen")));
    tr.appendChild(name);
    tr.appendChild(el("td", "num", (val.margin >= 0 ? "+" : "−") + fixed(Math.abs(val.margin), 1)));
    // TRANSLATORS: the "Loss" column of the best choice (it loses nothing).
    tr.appendChild(el("td", "num", k === 0 ? t("best") : "−" + fixed(val.loss, 1)));
    body.appendChild(tr);
  });
  tbl.appendChild(body);
  var wrap = el("div", "table-scroll");
  wrap.appendChild(tbl);
  sec.appendChild(wrap);
  return sec;
}

function renderRoundEnd(doc, s) {
  var box = $("round-end");
  if (END_KINDS.indexOf(s.kind) < 0) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = "";
  box.setAttribute("data-round", String(s.round));
  var round = doc.rounds[s.round - 1];
  box.appendChild(el("h2", null, t("Round {round}'s cards and how they scored", { round: s.round })));
  roundEndSeats(box, round, round.explained,
    s.view.result && s.view.result.rounds ? s.view.result.rounds[s.round - 1] : null, seatName);
}

function renderSeats(doc, s) {
  var box = $("seats");
  box.textContent = "";
  var v = s.view, n = doc.players;
  var first = R.pov !== null ? R.pov : 0;
  var newest = latestTurn(doc.lines.slice(0, s.lines));
  var result = v.result;
  var playing = END_KINDS.indexOf(s.kind) < 0;
  for (var k = 0; k < n; k++) {
    var i = (first + k) % n;
    var sec = el("section", "seat panel");
    sec.setAttribute("data-testid", "seat");
    sec.setAttribute("data-seat", String(i));
    if (i === R.pov) { sec.classList.add("me"); sec.setAttribute("data-me", "true"); }
    var head = el("header", "seat-head");
    var nm = el("span", "seat-name", seatName(i));
    nm.setAttribute("data-testid", "seat-name");
    head.appendChild(nm);
    // TRANSLATORS: a badge on the seat whose point of view the replay shows.
    if (i === R.pov) head.appendChild(el("span", "badge you", t("seen by")));
    if (s.deciding.indexOf(i) >= 0 && s.kind !== "pick") head.appendChild(el("span", "badge thinking", t("deciding")));
    if (s.kind === "end" && result && result.winners.indexOf(i) >= 0) head.appendChild(el("span", "badge winner", t("winner")));
    sec.appendChild(head);
    var meta = el("div", "seat-meta");
    // TRANSLATORS: a seat's score so far ("Score 23").
    var sc = el("span", "seat-score", t("Score {points}", { points: result && result.totals ? result.totals[i] : 0 }));
    sc.setAttribute("data-testid", "seat-score");
    meta.appendChild(sc);
    // TRANSLATORS: how many cards a seat's hand holds ("Hand 7").
    if (playing && v.hand_sizes) meta.appendChild(el("span", null, t("Hand {n}", { n: v.hand_sizes[i] })));
    if (edition() !== "party" && v.puddings) meta.appendChild(el("span", null, t("Puddings {n}", { n: v.puddings[i] })));
    sec.appendChild(meta);
    var col = v.collections ? v.collections[i] || [] : [];
    if (playing) {
      var cbox = el("div", "collection");
      cbox.setAttribute("data-testid", "collection");
      cbox.setAttribute("aria-label", t("{name}'s cards", { name: seatName(i) }));
      groups(col, v.on_wasabi ? v.on_wasabi[i] : null).forEach(function (g) { cbox.appendChild(drawGroup(g, null)); });
      if (!col.length) cbox.appendChild(el("span", "empty", t("no cards yet this round")));
      sec.appendChild(cbox);
    }
    var des = edition() === "party" && v.desserts ? v.desserts[i] || [] : [];
    if (des.length) {
      var dbox = el("div", "desserts");
      dbox.appendChild(el("span", "small-label", t("Desserts kept:")));
      groups(des, null).forEach(function (g) { dbox.appendChild(drawGroup(g, null)); });
      sec.appendChild(dbox);
    }
    var told = newest.filter(function (l) { return l.seat === i && l.round === s.round; });
    if (told.length && playing) {
      var rv = el("p", "revealed", t("Last turn: {lines}", { lines: told.map(function (l) { return plain(lineText(l), seatName); }).join(" ") }));
      rv.setAttribute("data-testid", "revealed");
      sec.appendChild(rv);
    }
    box.appendChild(sec);
  }
}

function renderAnalysisPanel(doc, s) {
  var box = $("replay-analysis");
  box.hidden = false;
  box.textContent = "";
  var who = { name: seatName(R.pov) };
  box.appendChild(el("h2", null, R.pov === null ? t("Analysis") : t("{name}'s decisions, analysed", who)));
  if (R.pov === null) {
    box.appendChild(el("p", "small-label", t("Choose a player above (\u201cSeen by\u201d) to see what their decisions were worth.")));
    return;
  }
  var seat = drawJob(box, W, { label: t("Analyse {name}'s decisions", who),
    progress: function (done, total) {
      return tn("Analysing… {done} of {n} decision", "Analysing… {done} of {n} decisions", total, { done: done });
    },
    blurb: t("Every decision {name} made, valued from what they knew then: what each choice was worth in expected final points, and where another was better.", who) });
  if (!seat) return;
  var a = analysed();
  var current = a.atStep[R.step];
  if (current === undefined) {  // between decisions: the latest one before this step
    a.stepOf.forEach(function (n, i) { if (n !== null && n <= R.step) current = i; });
  }
  if (seat.decisions.length) {
    box.appendChild(el("p", "small-label", t("Expected final margin after each decision (choose a point to go there):")));
    box.appendChild(graph(seat.decisions, { current: current, choose: function (i) {
      if (a.stepOf[i] !== null) go(a.stepOf[i]);
    } }));
  }
  var list = el("ol", "mistakes");
  list.setAttribute("data-testid", "mistakes");
  seat.decisions.forEach(function (d, i) {
    if (!d.label || a.stepOf[i] === null) return;
    var li = el("li", "mistake " + d.label);
    var b2 = el("button", "link-button", t("Round {round}, turn {turn} {mark} {played}; {best} was better by {loss} points",
      { round: d.round, turn: d.turn, mark: MARKS[d.label], played: wordsOf(d, "played_words"), best: wordsOf(d, "best_words"), loss: fixed(d.loss, 1) }));
    b2.type = "button";
    b2.setAttribute("data-testid", "mistake");
    b2.setAttribute("data-label", d.label);
    b2.setAttribute("data-step", String(a.stepOf[i]));
    if (a.stepOf[i] === R.step) b2.setAttribute("aria-current", "step");
    b2.addEventListener("click", function () { go(a.stepOf[i]); });
    li.appendChild(b2);
    list.appendChild(li);
  });
  if (!list.childNodes.length) list.appendChild(el("li", null, t("No inaccuracy, mistake or blunder: well played.")));
  box.appendChild(list);
}

// ------------------------------------------------------------ start

if (!R.kind) {
  if (/^\/replay\/?$/.test(path)) {
    transition("upload");
    setupUpload();
  } else {
    transition("lost");
    showError(t("This is not a replay address."));
  }
} else {
  setupControls();
  var start = readHash();
  load(start.pov, start.step);
}
