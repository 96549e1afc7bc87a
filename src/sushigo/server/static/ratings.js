// @ts-check
/* The leaderboards (/ratings): an edition's best ratings, for any table size
   or one (docs/server.md, "Ratings"). */

import { $, $as, el, getJson } from "./dom.js";
import { ratingText } from "./ratings_text.js";
import { t } from "./i18n.js";

function load() {
  const edition = $as("board-edition", HTMLSelectElement).value;
  const players = $as("board-players", HTMLSelectElement).value;
  const board = $as("board-kind", HTMLSelectElement).value;
  const q = "?board=" + board + (players ? "&players=" + players : "");
  getJson("/api/ratings/" + edition + q).then(function (a) {
    const body = $("board-rows");
    body.replaceChildren(...a.ratings.map(function (/** @type {any} */ r, /** @type {number} */ i) {
      const tr = el("tr");
      tr.setAttribute("data-testid", "board-row");
      tr.appendChild(el("td", null, String(i + 1)));
      const who = el("td");
      if (r.kind === "account") {
        const link = el("a", null, r.name);
        link.href = "/u/" + encodeURIComponent(r.name);
        who.appendChild(link);
        if (r.bot) who.appendChild(el("span", "pill", t("bot")));
      } else {
        who.appendChild(document.createTextNode(t("{name} bot", { name: r.name })));
        // TRANSLATORS: the anchor: the bot whose rating is held fixed so that the others' mean something
        who.appendChild(el("span", "pill", r.anchor ? t("bot · anchor") : t("bot")));
      }
      tr.appendChild(who);
      tr.appendChild(el("td", "num", ratingText(r)));
      tr.appendChild(el("td", "num", String(r.games)));
      return tr;
    }));
    $("board-empty").hidden = a.ratings.length > 0;
    $("board").hidden = a.ratings.length === 0;
  }, function (e) {
    $("ratings-error").textContent = e.message;
    $("ratings-error").hidden = false;
  });
}

$("board-edition").addEventListener("change", load);
$("board-players").addEventListener("change", load);
$("board-kind").addEventListener("change", load);
load();
