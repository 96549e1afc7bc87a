// @ts-check
/* "Learn to play": on a table created with learn=true the page teaches as the
 * game goes.  Before the first pick it lays out each dish of this table and the
 * demonstrations of GET /api/tables/{id}/rules (the engine's words and
 * examples); then it guides one pick, reveal and pass; afterwards it points at
 * the log and at each round's explained score, and explains each special when
 * you have to decide for it.  The rules themselves are never written here.
 *
 * Test hooks (data-testid): lesson (data-step: intro | pick | reveal | play),
 * lesson-next (the button that moves on), lesson-dish, lesson-demo.
 */

import { el } from "./dom.js";
import { dishRow, dishWords, howToPlay } from "./rules.js";
import { lang, t } from "./i18n.js";

/**
 * A lesson for table `tableId`; `changed` redraws the page.  Returns {active(), holds(),
 * render(box, game)}, where game gives
 * {view, seat, status, seatName, myTurn, picked}.
 */
export function makeLesson(tableId, changed) {
  var KEY = "sushigo.lesson." + tableId;
  var step = null;
  var rules = null;
  var drawnKey = null;
  try { step = sessionStorage.getItem(KEY); } catch (e) { step = null; }

  function go(next) {
    step = next;
    try { sessionStorage.setItem(KEY, next); } catch (e) { /* private mode */ }
    changed();
  }

  function load() {
    if (rules !== null) return;
    rules = "loading";
    fetch("/api/tables/" + encodeURIComponent(tableId) + "/rules").then(function (r) { return r.json(); })
      .then(function (data) { rules = data; drawnKey = null; changed(); })
      .catch(function () { rules = null; });
  }

  function button(text, next) {
    var b = el("button", "primary", text);
    b.type = "button";
    b.setAttribute("data-testid", "lesson-next");
    b.setAttribute("data-focus", "lesson-next");
    b.addEventListener("click", function () { go(next); });
    return b;
  }

  return {
    /** Is this a lesson table still teaching. */
    active: function (table) { return !!(table && table.learn) && step !== "done"; },
    /**
     * Does the lesson hold the hand back (the introduction comes first; a lesson opened
     * after the first turn starts at "play", as render() decides).
     */
    holds: function (table, game) {
      var later = !!(game.view && (game.view.round > 1 || game.view.turn > 1));
      return !!(table && table.learn) && (step === "intro" || (step === null && !later)) && game.status === "playing";
    },
    render: function (box, table, game) {
      if (!table || !table.learn || game.status === "waiting" || !game.view) { box.hidden = true; return; }
      load();
      var v = game.view;
      if (step === null) step = v.round === 1 && v.turn === 1 ? "intro" : "play";
      if (step === "pick" && (v.turn > 1 || v.round > 1)) step = "reveal";
      var key = [step, v.round, v.turn, v.decision ? v.decision.kind + v.decision.seat : "", game.status,
        rules && rules.dishes ? 1 : 0].join("|");
      box.hidden = false;
      box.setAttribute("data-step", step);
      if (key === drawnKey) return;
      drawnKey = key;
      box.textContent = "";
      box.appendChild(el("h2", null, t("Learn to play")));
      if (step === "intro") {
        if (!rules || !rules.dishes) { box.appendChild(el("p", null, t("Loading the dishes of this table…"))); return; }
        var how = el("ul", "how-to-play");
        howToPlay(rules).forEach(function (line) { how.appendChild(el("li", null, line)); });
        box.appendChild(how);
        box.appendChild(el("h3", null, t("The dishes at this table")));
        var list = el("ul", "dishes");
        rules.dishes.forEach(function (d) { list.appendChild(dishRow(d, "lesson-dish", null, true)); });
        box.appendChild(list);
        box.appendChild(el("h3", null, t("Before the first pick, look at these")));
        var demos = el("ul", "dishes");
        rules.demonstrations.forEach(function (d) { demos.appendChild(dishRow(d, "lesson-demo", t("Scores: {example}"), true)); });
        box.appendChild(demos);
        box.appendChild(button(t("Start: make my first pick"), "pick"));
      } else if (step === "pick") {
        box.appendChild(el("p", null, t("Your first pick: choose one card of your hand to keep (tap it, or Tab to it and press Enter). Everyone picks at the same time, face down: nobody sees your card until all have picked.")));
      } else if (step === "reveal") {
        var n = v.players;
        var to = game.seat === null ? 0 : ((game.seat + 1) % n);
        var from = game.seat === null ? 0 : ((game.seat - 1 + n) % n);
        box.appendChild(el("p", null, t("Everyone revealed their card at once: each collection below grew by one, and the game log says who played what. Then the hands moved on: you gave the rest of yours to {to} and now hold the hand {from} had.",
          { to: game.seatName(to), from: game.seatName(from) })));
        box.appendChild(el("p", null, t("Keep picking: the log tells every turn, and at the end of each round its score is explained card by card. The Rules button shows every dish again.")));
        box.appendChild(button(t("Got it"), "play"));
      } else if (step === "play") {
        var d = v.decision && v.decision.seat === game.seat && v.phase === "resolve" ? v.decision : null;
        /** @type {{name: string, rule: string} | null} */
        var dish = null;
        if (d && rules && rules.dishes) {
          rules.dishes.forEach(function (x) { if (x.item === d.kind) dish = x; });
        }
        if (dish) {
          var words = dishWords(dish);
          // the dish's name within a sentence: in lower case, but German writes every noun with a capital
          var name = lang === "de" ? words.name : words.name.toLocaleLowerCase(lang);
          // TRANSLATORS: {dish} is a dish's name ("chopsticks"), {rule} how it scores.
          box.appendChild(el("p", null, t("Your {dish}: {rule}", { dish: name, rule: words.rule })));
        } else if (game.status === "finished") {
          box.appendChild(el("p", null, t("That was a whole game. Each round's score is explained below, and the record can be downloaded. Start another from the lobby, against bots or with friends.")));
        } else {
          box.appendChild(el("p", null, t("Round {round}, turn {turn}: pick a card. What everyone played is in the log; the Rules button shows how each dish scores.",
            { round: v.round, turn: v.turn })));
        }
        var stop = el("button", "link-button", t("Hide the lessons"));
        stop.type = "button";
        stop.addEventListener("click", function () { go("done"); });
        box.appendChild(stop);
      }
    }
  };
}
