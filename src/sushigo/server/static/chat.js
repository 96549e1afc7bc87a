// @ts-check
/* The table's chat and quick reactions (docs/server.md: chat, react, mute).
 *
 * Every message is put in the page as text, never as HTML.  Hooks (data-testid):
 *   chat (the panel), chat-messages (li data-testid="chat-message" data-seat=n),
 *   chat-form, chat-input, chat-send, reaction (buttons data-reaction=id),
 *   mute (buttons data-seat=n, aria-pressed), chat-off (a line when the table has no chat).
 */
import { $, $as, el } from "./dom.js";
import { t } from "./i18n.js";

/** The quick reactions, in the page's language (the server's REACTIONS, protocol.py, in English). */
export const REACTIONS = { nice: t("Nice one!"), wow: t("Wow!"), oops: t("Oops!"), moment: t("One moment, please."),
  thanks: t("Thanks!"), gg: t("Good game!") };

/** Add the messages of a `chat` frame to `list` (by their number, each once); returns the list. */
export function addMessages(list, messages) {
  var seen = {};
  list.forEach(function (m) { seen[m.n] = true; });
  (messages || []).forEach(function (m) { if (m && !seen[m.n]) { list.push(m); seen[m.n] = true; } });
  list.sort(function (a, b) { return a.n - b.n; });
  return list;
}

/** Wire the panel's form and reaction buttons once; `send(message)` sends a client message. */
export function setupChat(send, showError) {
  var form = $("chat-form");
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var input = $as("chat-input", HTMLInputElement);
    var text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text: text })) input.value = "";
    else showError(t("Not connected: your message was not sent."));
  });
  var box = form.querySelector(".reactions");
  Object.keys(REACTIONS).forEach(function (id) {
    var b = el("button", "reaction", REACTIONS[id]);
    b.type = "button";
    b.setAttribute("data-testid", "reaction");
    b.setAttribute("data-reaction", id);
    b.addEventListener("click", function () { send({ type: "react", reaction: id }); });
    box.appendChild(b);
  });
}

/** Draw the chat: ctx = {messages, muted, seat (yours or null), table (summary), seatName, send}. */
export function renderChat(ctx) {
  var panel = $("chat");
  var table = ctx.table;
  if (!table) { panel.hidden = true; return; }
  var reads = table.chat && (ctx.seat !== null || table.chat_spectators);
  panel.hidden = !table.chat && ctx.seat === null;
  var off = $("chat-off");
  off.hidden = !!table.chat;
  var ended = !!table.ended;  // read-only: the server refuses chat and mutes
  $("chat-form").hidden = !table.chat || ctx.seat === null || ended;
  var list = $("chat-messages");
  list.hidden = !reads;
  if (!reads) return;
  var key = JSON.stringify([ctx.messages.length, ctx.muted, (table.seats || []).map(function (s) { return s.name; })]);
  if (list.getAttribute("data-key") === key) return;
  list.setAttribute("data-key", key);
  list.textContent = "";
  ctx.messages.forEach(function (m) {
    if (ctx.muted.indexOf(m.seat) >= 0) return;
    var li = el("li", m.kind === "reaction" ? "chat-message reaction" : "chat-message");
    li.setAttribute("data-testid", "chat-message");
    li.setAttribute("data-seat", String(m.seat));
    li.appendChild(el("span", "who", t("{seat}:", { seat: ctx.seatName(m.seat) }) + " "));
    // a reaction in the reader's language (the server's text is English)
    var said = m.kind === "reaction" && Object.prototype.hasOwnProperty.call(REACTIONS, m.reaction) ? REACTIONS[m.reaction] : m.text;
    li.appendChild(el("span", "what", said));
    list.appendChild(li);
  });
  if (!ctx.messages.length) list.appendChild(el("li", "chat-empty", t("No messages yet.")));
  list.scrollTop = list.scrollHeight;
  // mute buttons: one per other human seat
  var mutes = $("chat-mutes");
  mutes.textContent = "";
  if (ctx.seat === null || ended) return;
  (table.seats || []).forEach(function (s) {
    if (s.seat === ctx.seat || s.kind !== "human" || !s.name) return;
    var on = ctx.muted.indexOf(s.seat) >= 0;
    var b = el("button", "link-button",
      on ? t("Unmute {seat}", { seat: ctx.seatName(s.seat) }) : t("Mute {seat}", { seat: ctx.seatName(s.seat) }));
    b.type = "button";
    b.setAttribute("data-testid", "mute");
    b.setAttribute("data-seat", String(s.seat));
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.addEventListener("click", function () { ctx.send({ type: "mute", seat: s.seat, muted: !on }); });
    mutes.appendChild(b);
  });
}
