// @ts-check
/* What a table offers beyond the game (docs/server.md): copy your own seat's
 * link, resume a seat this browser holds, cancel a waiting table you created,
 * make a new invite for a seat of a table you created,
 * play again at the end, and hand an away player's seat to the bot.
 *
 * Hooks (data-testid): extras (the bar), copy-invite, resume-seat, cancel-table,
 * play-again, hand-over (buttons data-seat=n), reinvite-open, reinvite-seat
 * (data-seat=n), reinvite-url, reinvite-copy, reinvited (a note, data-seat=n).
 */
import { $, el } from "./dom.js";
import { seats as H } from "./held.js";
import { t } from "./i18n.js";

/** Copy `text` to the clipboard; the button says so for a moment. */
export function copy(text, button) {
  var old = button.textContent;
  function done(ok) {
    button.textContent = ok ? t("Copied") : t("Copy failed: {text}", { text: text });
    setTimeout(function () { button.textContent = old; }, 1500);
  }
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
  } else {
    done(false);
  }
}

function button(testid, text, onClick) {
  var b = el("button", "secondary", text);
  b.type = "button";
  b.setAttribute("data-testid", testid);
  b.addEventListener("click", onClick);
  return b;
}

/* The creator's way back for a player who lost their seat's secret: a new
 * invite for one seat (POST /api/tables/{id}/invite); the table sees it. */
var reinvite = { open: false, url: null, seat: null };

function drawReinvite(bar, ctx, creator) {
  bar.appendChild(button("reinvite-open", reinvite.open ? t("Close new invites") : t("New invite link…"), function () {
    reinvite.open = !reinvite.open;
    renderExtras(ctx);
  }));
  if (!reinvite.open) return;
  (ctx.table.seats || []).forEach(function (s) {
    if (s.kind !== "human") return;
    var b = button("reinvite-seat", t("New invite for {seat}", { seat: ctx.seatName(s.seat) }), function (ev) {
      ev.currentTarget.disabled = true;
      fetch("/api/tables/" + encodeURIComponent(ctx.id) + "/invite", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ creator: creator, seat: s.seat })
      }).then(function (r) {
        return r.json().then(function (b) {
          if (!r.ok) { ctx.showError(b.error || t("no new invite")); return; }
          reinvite.url = location.origin + b.invite;
          reinvite.seat = s.seat;
          renderExtras(ctx);
        });
      }, function () { ctx.showError(t("Not connected: no new invite was made.")); });
    });
    b.setAttribute("data-seat", String(s.seat));
    bar.appendChild(b);
  });
  if (reinvite.url) {
    var input = el("input");
    input.readOnly = true;
    input.value = reinvite.url;
    input.setAttribute("aria-label", t("New invite for {seat}", { seat: ctx.seatName(reinvite.seat) }));
    input.setAttribute("data-testid", "reinvite-url");
    bar.appendChild(input);
    bar.appendChild(button("reinvite-copy", t("Copy"), function (ev) { copy(reinvite.url, ev.currentTarget); }));
  }
}

/** Draw the bar: ctx = {id, table, status, seat, token, view, now, awayAfter, seatName, send, showError}. */
export function renderExtras(ctx) {
  var bar = $("extras");
  bar.textContent = "";
  var table = ctx.table;
  if (!table) { bar.hidden = true; return; }
  var held = H.get(ctx.id);
  if (ctx.token) {
    var url = location.origin + "/t/" + ctx.id + "#seat=" + ctx.token;
    bar.appendChild(button("copy-invite", t("Copy my seat's private link"), function (ev) { copy(url, ev.currentTarget); }));
  } else if (held && held.token) {
    bar.appendChild(button("resume-seat", t("You hold a seat here: resume it"), function () {
      location.hash = "seat=" + held.token;  // table.js reloads as that seat
    }));
  }
  if (ctx.status === "waiting" && held && held.creator) {
    bar.appendChild(button("cancel-table", t("Cancel this table"), function (ev) {
      ev.currentTarget.disabled = true;
      fetch("/api/tables/" + encodeURIComponent(ctx.id) + "/cancel", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ creator: held.creator })
      }).then(function (r) { return r.json().then(function (b) { if (!r.ok) ctx.showError(b.error || t("could not cancel")); }); },
        function () { ctx.showError(t("Not connected: the table was not cancelled.")); });
    }));
  }
  if ((ctx.status === "waiting" || ctx.status === "playing") && held && held.creator) {
    drawReinvite(bar, ctx, held.creator);
  }
  (table.seats || []).forEach(function (s) {
    if (!s.reinvited || table.ended) return;
    var note = el("span", "note", s.seat === ctx.seat
      ? t("The table's creator made a new invite for your seat: whoever opens it takes the seat.")
      : t("A new invite is out for {seat}'s seat.", { seat: ctx.seatName(s.seat) }));
    note.setAttribute("data-testid", "reinvited");
    note.setAttribute("data-seat", String(s.seat));
    bar.appendChild(note);
  });
  if (ctx.status === "finished" && ctx.seat !== null) {
    bar.appendChild(button("play-again", table.rematch ? t("Join the rematch") : t("Play again"), function (ev) {
      ev.currentTarget.disabled = true;
      if (!ctx.send({ type: "rematch" })) ctx.showError(t("Not connected: try again."));
    }));
  } else if (ctx.status === "finished" && table.rematch) {
    var a = el("a", "button-link", t("Watch the rematch"));
    a.href = "/t/" + table.rematch;
    a.setAttribute("data-testid", "watch-rematch");
    bar.appendChild(a);
  }
  if (ctx.status === "playing" && ctx.seat !== null && ctx.view) {
    var waiting = ctx.view.decision && ctx.view.phase === "resolve" ? [ctx.view.decision.seat] :
      (ctx.view.picked || []).map(function (p, i) { return p ? -1 : i; }).filter(function (i) { return i >= 0; });
    (table.seats || []).forEach(function (s) {
      if (s.kind !== "human" || s.seat === ctx.seat || s.stand_in || s.connected || s.away_since === null) return;
      if (waiting.indexOf(s.seat) < 0 || ctx.now - s.away_since < ctx.awayAfter) return;
      var b = button("hand-over", t("{seat} is away: let {bot} play for them", { seat: ctx.seatName(s.seat), bot: "greedy" }), function () {
        ctx.send({ type: "hand_over", seat: s.seat });
      });
      b.setAttribute("data-seat", String(s.seat));
      bar.appendChild(b);
    });
  }
  bar.hidden = !bar.childNodes.length;
}
