// @ts-check
/* The turn log of a table: the game's story in the engine's words.
 *
 * The server sends `log` frames (docs/server.md): lines of
 * {kind, round, turn, seat, cards, text}, where "{n}" in text stands for
 * seat n's name.  This module keeps the list and draws it; it never writes a
 * sentence of its own beyond the turn headings, and it puts every text into
 * the page with textContent.  A line's `msg` (the sentence as the engine's message) is what
 * it shows, in the page's language (i18n.js).
 *
 * Test hooks (data-testid): log (the scrolling role="log" region around an
 * <ol>), log-line (one per line: data-kind, data-round, data-turn,
 * data-seat), log-turn (a heading).
 */

import { say, t } from "./i18n.js";

/** The log after one `log` frame: cut to `from` lines, then the new ones. */
export function applyLog(lines, msg) {
  var from = typeof msg.from === "number" && msg.from >= 0 ? msg.from : 0;
  var fresh = Array.isArray(msg.lines) ? msg.lines : [];
  return lines.slice(0, Math.min(from, lines.length)).concat(fresh);
}

/**
 * A line's sentence in the page's language, "{n}" for seat n's name: its message (`msg`, the
 * engine's, rendered by i18n.js) or, from a server that sends none, its English `text`.
 */
export function lineText(line) {
  return line.msg ? say(line.msg) : line.text;
}

/** A line's sentence as nodes: names in <strong>, the rest as text. */
export function sentence(text, nameOf) {
  var frag = document.createDocumentFragment();
  var re = /\{(\d+)\}/g, last = 0, m;
  text = String(text);
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
    var b = document.createElement("strong");
    b.textContent = nameOf(Number(m[1]));
    frag.appendChild(b);
    last = re.lastIndex;
  }
  if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
  return frag;
}

/** A line's sentence as plain text, names put in. */
export function plain(text, nameOf) {
  return String(text).replace(/\{(\d+)\}/g, function (_, n) { return nameOf(Number(n)); });
}

function heading(line) {
  if (line.turn === null || line.turn === undefined) return t("End of round {round}", { round: line.round });
  return t("Round {round} · turn {turn}", { round: line.round, turn: line.turn });
}

/**
 * Draw `lines` into the <ol> of the region `box` (only what is new since the
 * last call, unless the seat names changed or the log was cut), keeping it
 * scrolled to the newest line unless the reader scrolled up.  `names`: each
 * seat's name.
 */
export function renderLog(box, lines, names) {
  var list = box.querySelector("ol");
  var key = names.join("\n");
  var nameOf = function (i) { return i < names.length ? names[i] : t("Seat {n}", { n: i + 1 }); };
  var drawn = list.__drawn || [];
  var same = list.__names === key && drawn.length <= lines.length &&
    drawn.every(function (l, i) { return l === lines[i]; });
  var atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  if (!same) {
    list.textContent = "";
    drawn = [];
  }
  var lastHead = list.__head || null;
  if (!same) lastHead = null;
  for (var i = drawn.length; i < lines.length; i++) {
    var line = lines[i];
    var head = heading(line);
    if (head !== lastHead) {
      var h = document.createElement("li");
      h.className = "log-turn";
      h.setAttribute("data-testid", "log-turn");
      h.textContent = head;
      list.appendChild(h);
      lastHead = head;
    }
    var li = document.createElement("li");
    li.className = "log-line kind-" + String(line.kind).replace(/[^a-z_]/g, "");
    li.setAttribute("data-testid", "log-line");
    li.setAttribute("data-kind", String(line.kind));
    li.setAttribute("data-round", String(line.round));
    li.setAttribute("data-turn", line.turn === null || line.turn === undefined ? "" : String(line.turn));
    li.setAttribute("data-seat", line.seat === null || line.seat === undefined ? "" : String(line.seat));
    li.appendChild(sentence(lineText(line), nameOf));
    list.appendChild(li);
  }
  list.__drawn = lines.slice();
  list.__names = key;
  list.__head = lastHead;
  if (atEnd || !same) box.scrollTop = box.scrollHeight;
}

/** The lines of the newest told turn (a reveal and what followed it), by seat. */
export function latestTurn(lines) {
  for (var i = lines.length - 1; i >= 0; i--) {
    var l = lines[i];
    if (l.turn !== null && l.turn !== undefined && l.kind !== "timer" && l.kind !== "away" && l.kind !== "back") {
      return lines.filter(function (x) { return x.round === l.round && x.turn === l.turn; });
    }
  }
  return [];
}
