// @ts-check
/* "Analyse my game" on a finished table (docs/server.md, /api/tables/{id}/analysis):
 * the server's analysis of your seat's decisions, made on its worker pool from
 * what you knew at each one (docs/analysis.md). The page renders the server's
 * document: it computes nothing.
 *
 * Hooks (data-testid): analysis (the panel), analyse (the button), analysis-progress,
 * analysis-summary, eval-graph (an <svg>, one point per decision: data-testid="eval-point",
 * data-label when it was one), mistakes (a list: data-testid="mistake", data-label,
 * data-round, data-turn), learn (the "Learn from your mistakes" button); while learning:
 * retry (the panel: data-round, data-turn), retry-hand (the hand then), retry-choice (a button
 * per legal action, data-action=<text form>), retry-answer (after choosing), retry-next.
 */
import { $, as, el, getJson } from "./dom.js";
import * as Cards from "./cards.js";
import { lang, say, t, tn, wordsOf } from "./i18n.js";

var SVG = "http://www.w3.org/2000/svg";
export var MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
var A = { watcher: null, learning: null };

/** `x` with `digits` decimals, as the page's language writes them ("2.50"). */
export function fixed(x, digits) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A seat's count of one label, with its mark ("2 mistakes (?)"). */
function counted(label, n) {
  var mark = { mark: MARKS[label] };
  if (label === "inaccuracy") return tn("{n} inaccuracy ({mark})", "{n} inaccuracies ({mark})", n, mark);
  if (label === "mistake") return tn("{n} mistake ({mark})", "{n} mistakes ({mark})", n, mark);
  return tn("{n} blunder ({mark})", "{n} blunders ({mark})", n, mark);
}

/** What a decision after the reveal was (its kind: "takeout_box"), in words. */
function kindWords(kind) {
  // TRANSLATORS: the kind of a decision after the reveal, in a mistake's heading ("round 2, turn 3 (chopsticks)").
  if (kind === "chopsticks") return t("chopsticks");
  if (kind === "spoon") return t("spoon");
  if (kind === "menu") return t("menu");
  if (kind === "takeout_box") return t("takeout box");
  return String(kind).replace("_", " ");
}

/**
 * One seat's analysis job on the server, fetched, and polled while it runs: the table's
 * "Analyse my game" and the replay viewer share it.  `render` is called on every change.
 * watch(base, seat): follow seat `seat` of the game at `base` ("/api/tables/ID" or
 * "/api/replays/ID"; seat null: nothing); start(): ask for the analysis; job, error: the latest.
 */
export function jobWatcher(render) {
  var W = { key: null, base: null, seat: null, job: null, error: "", timer: null };
  function call(start) {
    var key = W.key;
    var opts = start ? { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: W.seat }) } : {};
    getJson(W.base + "/analysis" + (start ? "" : "?seat=" + W.seat), opts).then(function (job) {
      if (key !== W.key) return;
      W.job = job;
      W.error = "";
      if (start) poll();
      else if (job.status === "queued" || job.status === "running") W.timer = setTimeout(poll, 1000);
      render();
    }, function (e) { if (key === W.key) { W.error = e.message; render(); } });
  }
  function poll() { clearTimeout(W.timer); call(false); }
  W.watch = function (base, seat) {
    var key = seat === null ? null : base + "|" + seat;
    if (key === W.key) return;
    clearTimeout(W.timer);
    W.key = key; W.base = base; W.seat = seat; W.job = null; W.error = "";
    if (key !== null) poll();  // a finished game: show an analysis made before, if any
  };
  W.start = function () { W.error = ""; call(true); };
  return W;
}

/**
 * Draw a watched job into `box`: its error, then, until it is done, the button that starts it
 * (`words.blurb`, `words.label`) or its progress (`words.progress(done, total)`, its line), returning
 * null; once done, the summary line, returning the seat's analysis ({seat, summary, decisions}).
 */
export function drawJob(box, W, words) {
  if (W.error) {
    var err = el("p", "error", W.error);
    err.setAttribute("role", "alert");
    box.appendChild(err);
  }
  var job = W.job;
  if (!job || job.status === "none" || job.status === "failed") {
    box.appendChild(el("p", "small-label", words.blurb));
    var b = el("button", "primary", job && job.status === "failed" ? t("Try the analysis again") : words.label);
    b.type = "button";
    b.setAttribute("data-testid", "analyse");
    b.addEventListener("click", W.start);
    box.appendChild(b);
    return null;
  }
  if (job.status !== "done") {
    var p = el("p", null, job.total ? words.progress(job.done, job.total) : t("Waiting for the server's analysis queue…"));
    p.setAttribute("data-testid", "analysis-progress");
    var bar = el("progress");
    bar.max = job.total || 1;
    bar.value = job.done;
    box.appendChild(p);
    box.appendChild(bar);
    return null;
  }
  var seat = job.analysis.seats[0], s = seat.summary;
  var counts = ["inaccuracy", "mistake", "blunder"].map(function (k) { return counted(k, s[k]); });
  var sum = el("p", "analysis-summary", tn("Average loss {loss} points a decision over {n} decision: {counts}.",
    "Average loss {loss} points a decision over {n} decisions: {counts}.", s.decisions,
    { loss: fixed(s.mean_loss, 2), counts: say({ words: counts, listing: true }) }));
  sum.setAttribute("data-testid", "analysis-summary");
  box.appendChild(sum);
  return seat;
}

/**
 * The evaluation graph: one point per decision at the margin of the choice made.
 * `opts` (the replay viewer): {current: the decision shown now (data-current="true"),
 * choose(i): called when point i is clicked or chosen with the keyboard}.
 */
export function graph(decisions, opts) {
  opts = opts || {};
  var n = decisions.length, w = Math.max(n - 1, 1) * 24 + 40, h = 140;
  var margins = decisions.map(function (d) {
    var played = d.values.filter(function (v) { return v.action === d.played; })[0];
    return played ? played.margin : 0;
  });
  var top = Math.max(0, Math.max.apply(null, margins)), bottom = Math.min(0, Math.min.apply(null, margins));
  var span = (top - bottom) || 1;
  function x(i) { return 20 + i * 24; }
  function y(m) { return 10 + (top - m) / span * (h - 20); }
  var svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  svg.setAttribute("data-testid", "eval-graph");
  svg.setAttribute("role", opts.choose ? "group" : "img");
  svg.setAttribute("aria-label", t("Your expected final margin after each decision, from {low} to {high} points",
    { low: fixed(bottom, 1), high: fixed(top, 1) }));
  /** @param {string} tag  @param {Record<string, string | number>} attrs  @returns {SVGElement} */
  function add(tag, attrs) {
    var e = as(document.createElementNS(SVG, tag), SVGElement);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    svg.appendChild(e);
    return e;
  }
  add("line", { x1: 0, x2: w, y1: y(0), y2: y(0), class: "eval-zero" });
  [top, 0, bottom].forEach(function (m, k) {
    if (k !== 1 && Math.abs(m) < 0.05) return;
    var label = add("text", { x: 2, y: Math.min(h - 2, Math.max(10, y(m) - 2)), class: "eval-axis" });
    label.textContent = (m > 0 ? "+" : "") + fixed(m, 1);
  });
  decisions.forEach(function (d, i) {
    if (i > 0 && d.round !== decisions[i - 1].round) {
      add("line", { x1: x(i) - 12, x2: x(i) - 12, y1: 0, y2: h, class: "eval-round" });
    }
  });
  add("polyline", { points: margins.map(function (m, i) { return x(i) + "," + y(m); }).join(" "), class: "eval-line" });
  decisions.forEach(function (d, i) {
    var c = add("circle", { cx: x(i), cy: y(margins[i]), r: d.label ? 5 : 3, class: "eval-point " + (d.label || "") });
    c.setAttribute("data-testid", "eval-point");
    if (d.label) c.setAttribute("data-label", d.label);
    if (opts.current === i) { c.setAttribute("data-current", "true"); c.classList.add("current"); }
    if (opts.choose) {
      c.setAttribute("tabindex", "0");
      c.setAttribute("role", "button");
      c.addEventListener("click", function () { opts.choose(i); });
      c.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.choose(i); }
      });
    }
    var tip = document.createElementNS(SVG, "title");
    var said = { round: d.round, turn: d.turn, choice: wordsOf(d, "played_words"), mark: MARKS[d.label], margin: fixed(margins[i], 1) };
    tip.textContent = d.label ? t("Round {round}, turn {turn}: {choice} {mark}, expected margin {margin}", said)
      : t("Round {round}, turn {turn}: {choice}, expected margin {margin}", said);
    c.appendChild(tip);
  });
  return svg;
}

/** Draw the panel: ctx = {id, status, seat, render}. */
export function renderAnalysis(ctx) {
  var box = $("analysis");
  if (ctx.status !== "finished" || ctx.seat === null) { box.hidden = true; return; }
  if (!A.watcher) A.watcher = jobWatcher(ctx.render);
  A.watcher.watch("/api/tables/" + encodeURIComponent(ctx.id), ctx.seat);
  box.hidden = false;
  box.textContent = "";
  box.appendChild(el("h2", null, t("Your game, analysed")));
  var seat = drawJob(box, A.watcher, { label: t("Analyse my game"),
    progress: function (done, total) {
      return tn("Analysing your game… {done} of {n} decision", "Analysing your game… {done} of {n} decisions", total, { done: done });
    },
    blurb: t("Every decision you made, valued from what you knew then: what each choice was worth in expected final points, and where another was better.") });
  if (!seat) return;
  box.appendChild(el("p", "small-label", t("Your expected final margin over the best other player after each decision:")));
  if (seat.decisions.length) box.appendChild(graph(seat.decisions));
  var list = el("ol", "mistakes");
  list.setAttribute("data-testid", "mistakes");
  seat.decisions.forEach(function (d) {
    if (!d.label) return;
    var li = el("li", "mistake " + d.label);
    li.setAttribute("data-testid", "mistake");
    li.setAttribute("data-label", d.label);
    li.setAttribute("data-round", String(d.round));
    li.setAttribute("data-turn", String(d.turn));
    var said = { round: d.round, turn: d.turn, mark: MARKS[d.label], played: wordsOf(d, "played_words"), best: wordsOf(d, "best_words"),
      loss: fixed(d.loss, 1) };
    li.appendChild(el("strong", null, t("Round {round}, turn {turn} {mark}", said) + " "));
    li.appendChild(document.createTextNode(d.label === "inaccuracy"
      ? t("You chose {played}; {best} was better by {loss} points (a inaccuracy).", said)
      : d.label === "mistake" ? t("You chose {played}; {best} was better by {loss} points (a mistake).", said)
        : t("You chose {played}; {best} was better by {loss} points (a blunder).", said)));
    list.appendChild(li);
  });
  if (!list.childNodes.length) list.appendChild(el("li", null, t("No inaccuracy, mistake or blunder: well played.")));
  box.appendChild(list);
  var mistakes = seat.decisions.filter(function (d) { return d.label; });
  if (!mistakes.length) return;
  if (!A.learning) {
    var learn = el("button", "secondary", t("Learn from your mistakes"));
    learn.type = "button";
    learn.setAttribute("data-testid", "learn");
    learn.addEventListener("click", function () { A.learning = { i: 0, chosen: null }; ctx.render(); });
    box.appendChild(learn);
    return;
  }
  box.appendChild(retry(ctx, mistakes));
}

// "Learn from your mistakes": each labelled decision again, the choice first, the answer after.
function retry(ctx, mistakes) {
  var L = A.learning, d = mistakes[L.i];
  var sec = el("section", "retry");
  sec.setAttribute("data-testid", "retry");
  sec.setAttribute("data-round", String(d.round));
  sec.setAttribute("data-turn", String(d.turn));
  var which = { i: L.i + 1, n: mistakes.length, round: d.round, turn: d.turn, kind: kindWords(d.kind) };
  sec.appendChild(el("h3", null, d.kind !== "pick" ? t("Mistake {i} of {n}: round {round}, turn {turn} ({kind})", which)
    : t("Mistake {i} of {n}: round {round}, turn {turn}", which)));
  var hand = el("div", "retry-hand");
  hand.setAttribute("data-testid", "retry-hand");
  (d.hand || []).forEach(function (name) { hand.appendChild(Cards.element(name, { mini: true })); });
  sec.appendChild(el("p", null, t("Your hand was:")));
  sec.appendChild(hand);
  sec.appendChild(el("p", null, L.chosen === null ? t("What would you choose now?") : t("You chose:")));
  // the choices in a fixed order (by their text), so the order gives nothing away
  var choices = d.values.slice().sort(function (a, b) { return a.action < b.action ? -1 : a.action > b.action ? 1 : 0; });
  var row = el("div", "actions");
  choices.forEach(function (v) {
    var b = el("button", "secondary" + (L.chosen === v.action ? " selected" : ""), wordsOf(v, "words"));
    b.type = "button";
    b.setAttribute("data-testid", "retry-choice");
    b.setAttribute("data-action", v.action);
    b.disabled = L.chosen !== null;
    b.addEventListener("click", function () { L.chosen = v.action; ctx.render(); });
    row.appendChild(b);
  });
  sec.appendChild(row);
  if (L.chosen !== null) {
    var mine = d.values.filter(function (v) { return v.action === L.chosen; })[0];
    var best = d.values[0];
    var said = { best: wordsOf(best, "words"), mine: wordsOf(mine, "words"), gives: fixed(mine.loss, 1),
      played: wordsOf(d, "played_words"), loss: fixed(d.loss, 1) };
    var ans = el("p", "retry-answer", L.chosen === best.action
      ? t("Right: {best} was the best choice. In the game you chose {played} ({loss} points below the best).", said)
      : t("{mine} gives up {gives} points against {best}, the best choice. In the game you chose {played} ({loss} points below the best).", said));
    ans.setAttribute("data-testid", "retry-answer");
    sec.appendChild(ans);
    var next = el("button", "primary", L.i + 1 < mistakes.length ? t("Next mistake") : t("Done"));
    next.type = "button";
    next.setAttribute("data-testid", "retry-next");
    next.addEventListener("click", function () {
      A.learning = L.i + 1 < mistakes.length ? { i: L.i + 1, chosen: null } : null;
      ctx.render();
    });
    sec.appendChild(next);
  }
  return sec;
}
