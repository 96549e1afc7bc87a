// @ts-check
/* The rules panel of a table: its dishes, each with how it scores and an
 * example, from GET /api/tables/{id}/rules (the engine's words and numbers:
 * nothing here knows a rule).  One tap or key away from any moment of the game.
 *
 * Test hooks (data-testid): rules-button (aria-expanded), rules-panel,
 * rules-close, dish (data-item), memory-toggle (the memory aid: show the
 * cards you know are in the other hands, from what passed you this round).
 */

import { $as, as, el } from "./dom.js";
import * as Cards from "./cards.js";
import { say, t } from "./i18n.js";

var MEMORY_KEY = "sushigo.memory";

/** Is the memory aid on (kept in localStorage). */
export function memoryOn() {
  try { return localStorage.getItem(MEMORY_KEY) === "1"; } catch (e) { return false; }
}

/** A dish's name, rule and example in the page's language (the engine's messages, `d.msg`). */
export function dishWords(d) {
  if (!d.msg) return { name: d.name, rule: d.rule, example: d.example };
  return { name: say(d.msg.name), rule: say(d.msg.rule), example: say(d.msg.example) };
}

/** The how-to-play lines of a rules answer in the page's language. */
export function howToPlay(data) {
  return data.how_to_play_msg ? data.how_to_play_msg.map(function (m) { return say(m); }) : (data.how_to_play || []);
}

/**
 * One dish as a list item: its cards, name, scoring line and example (`lead`: the example's line, a
 * translated sentence with the field {example}: t("Example: {example}") by default).
 */
export function dishRow(d, testid, lead, all) {
  var li = el("li", "dish");
  li.setAttribute("data-testid", testid);
  li.setAttribute("data-item", String(d.item));
  var art = el("span", "dish-art");
  art.setAttribute("aria-hidden", "true");
  (d.cards || []).slice(0, all ? undefined : 1).forEach(function (c) { art.appendChild(Cards.element(c, { mini: true })); });
  li.appendChild(art);
  var text = el("div", "dish-text");
  var said = dishWords(d);
  text.appendChild(el("strong", "dish-name", said.name));
  text.appendChild(el("span", "dish-rule", " " + said.rule));
  var line = lead || t("Example: {example}");
  text.appendChild(el("span", "dish-example", line.replace("{example}", function () { return said.example; })));
  li.appendChild(text);
  return li;
}

/**
 * Wire the button and the panel; `changed` is called when the memory aid is switched.
 */
export function setupRules(tableId, changed) {
  var button = $as("rules-button", HTMLButtonElement);
  var panel = $as("rules-panel", HTMLElement);
  var body = panel.querySelector(".rules-body");
  var loaded = false;

  function load() {
    if (loaded) return;
    loaded = true;
    body.textContent = t("Loading…");
    fetch("/api/tables/" + encodeURIComponent(tableId) + "/rules").then(function (r) {
      if (!r.ok) throw new Error(t("the rules could not be loaded ({status})", { status: String(r.status) }));
      return r.json();
    }).then(function (data) { draw(data); }).catch(function (e) {
      loaded = false;
      body.textContent = String(e.message || e);
    });
  }

  function draw(data) {
    body.textContent = "";
    var how = el("ul", "how-to-play");
    howToPlay(data).forEach(function (line) { how.appendChild(el("li", null, line)); });
    body.appendChild(how);
    var list = el("ul", "dishes");
    (data.dishes || []).forEach(function (d) { list.appendChild(dishRow(d, "dish")); });
    body.appendChild(list);
  }

  function open(show) {
    panel.hidden = !show;
    button.setAttribute("aria-expanded", show ? "true" : "false");
    if (show) {
      load();
      as(panel.querySelector("h2"), HTMLElement).focus();
    } else {
      button.focus();
    }
  }

  button.addEventListener("click", function () { open(panel.hidden); });
  panel.querySelector('[data-testid="rules-close"]').addEventListener("click", function () { open(false); });
  panel.addEventListener("keydown", function (ev) { if (ev.key === "Escape") open(false); });

  var memory = $as("memory-toggle", HTMLInputElement, panel);
  memory.checked = memoryOn();
  memory.addEventListener("change", function () {
    try { localStorage.setItem(MEMORY_KEY, memory.checked ? "1" : "0"); } catch (e) { /* private mode */ }
    changed();
  });
}
