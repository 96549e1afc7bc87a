// @ts-check
/* The table page: one seat (or a spectator) of an online game, protocol
 * sushigo-ws/3 (docs/server.md).
 *
 * The address is /t/{id}; "#seat=TOKEN" makes the page that seat, no token:
 * spectator.  The display name lives in localStorage ("sushigo.name").
 * Every text that comes from the server is put into the page with
 * textContent, never as HTML.
 *
 * Stable hooks for tests (data-testid), besides those of extras.js and chat.js:
 *   connection      (connection.js) connection status ("Connected", "Reconnecting in 2 s"...);
 *                   data-state="open|connecting|closed"
 *   table-info      edition / menu;  round-info: "Round 2 · turn 3"
 *   seeded-tag      "seeded deal" on a table whose creator chose the seed
 *   timer           move timer countdown (hidden without a deadline)
 *   name-form, name-input, name-submit, name-error   the name form
 *   rename          button that shows the name form again
 *   status          one-line game status ("Pick a card", "Waiting for 2 players"...)
 *   error           the last error message from the server (role=alert)
 *   hand-section    your hand and choices (hidden for spectators)
 *   passing         who you pass to and receive from
 *   decision        what the pending Party decision is
 *   hand            your hand; holds buttons data-testid="card" (data-card=name,
 *                   data-index=position).  A card that is a legal single-card
 *                   choice now has data-action=<action id> and is enabled;
 *                   clicking it (or Enter/Space) sends that pick.  In
 *                   chopsticks mode (original game) the first click selects
 *                   a card and the second sends the pair.
 *   hand-section    data-changing="true" while your pick is hidden and may be changed
 *                   (the hand offers the other cards; data-testid="withdraw" takes it back)
 *   chopsticks-bar  holds the button data-testid="chopsticks-toggle"
 *   actions         buttons data-testid="action" data-action=<id> for every
 *                   other legal action (pass, special orders, spoon requests,
 *                   a menu's drawn cards, takeout flips); data-kind says which
 *   pairs           <details> listing every chopsticks pair as data-testid="action"
 *                   buttons (data-kind="pair")
 *   seats           holds one data-testid="seat" per seat (data-seat=n,
 *                   data-me="true" for yours, data-picked, data-connected);
 *                   inside: seat-name, seat-score, collection (groups
 *                   data-testid="group" data-card=... data-count=...),
 *                   desserts, revealed (the cards of the latest reveal)
 *   round-end       the last reveal of a round kept on screen (data-round=n): every
 *                   seat's final collection (round-end-seat, groups as above), the
 *                   round explained (explained), and the button continue (the next
 *                   round's hand shows once you press it; a spectator goes on by
 *                   itself after a few seconds).  On the final screen: round 3.
 *   notice          what just happened to you that you did not do (time ran out)
 *   hints           on a table with hints (table.hints), while you decide: your estimate of
 *                   each choice from the server's hint message (hint-row per action, best
 *                   first, data-action=<id>, data-best="true" on the best), or "Thinking..."
 *   lesson          on a "Learn to play" table (table.learn): the lesson (lesson.js)
 *   notify-toggle   sound and notification for your turn while the tab is hidden (notify.js)
 *   log             the turn log (role="log"), drawn by log.js: log-line per line
 *   rules-button, rules-panel   the table's dishes and how they score (rules.js);
 *                   with its memory aid on, each seat shows known-hand: the cards
 *                   the view says you know are in that seat's hand (view.known_cards)
 *   analysis        on a finished table, your seat's analysis: "Analyse my game" (analysis.js)
 *   scores          the score panel; scoresheet (a <table>, rows
 *                   data-seat=n with a cell data-testid="total"),
 *                   breakdowns (per round <details data-testid="breakdown">,
 *                   each with the round explained: data-testid="explained"),
 *                   game-end (the puddings or desserts and the winners, in the
 *                   engine's words), winners (when finished), record-link (when finished)
 *
 * The page's state is one object, S (exported: `(await import("/static/table.js")).S` in a
 * console or a test).  Its phase, S.phase, changes only in transition(event), which reads
 * what the events left in S (the socket's welcome, the server's state, your pick...):
 *
 *   phase       the page                                          next phases
 *   connecting  no welcome yet, or the socket is reconnecting     any but sent
 *   waiting     the table waits for its players (names typed)      lesson, deciding, others, ended
 *   lesson      a "Learn to play" introduction holds the hand      deciding, others, ended
 *   deciding    a decision is yours: a pick, or a Party special    sent, others, round-end, ended
 *   sent        your pick (or take-back) is on its way             changing, deciding, others, round-end, ended
 *   changing    your pick is hidden and may change until the       sent, deciding, others, round-end, ended
 *               last seat picks (the hand offers the other cards)
 *   others      the others decide (and a spectator watches)        deciding, changing, round-end, ended
 *   round-end   a round's last reveal is kept until you continue   deciding, others, lesson, round-end, ended
 *   ended       finished, cancelled or abandoned                   -
 *   refused     the server will not open this seat or table        -
 *
 * Besides these, every phase but refused goes back to connecting when the socket closes,
 * and any phase may be refused (a spent or wrong invite).  Events: welcome, state, ack,
 * error, pick, withdraw, continue, lesson, closed.  The name form is no phase: it shows over
 * any phase while S.nameWanted (a seat without a name, or "Change name").
 */
import { $, $as, as, el } from "./dom.js";
import { makeConnection } from "./connection.js";
import { groupElement as drawGroup, groups } from "./collections.js";
import { renderScores as drawScores, roundEndSeats } from "./scores.js";
import { applyLog, latestTurn, lineText, plain, renderLog } from "./log.js";
import { memoryOn, setupRules } from "./rules.js";
import { setupNotify } from "./notify.js";
import { makeLesson } from "./lesson.js";
import { addMessages, renderChat, setupChat } from "./chat.js";
import { renderExtras } from "./extras.js";
import { renderAnalysis } from "./analysis.js";
import * as C from "./cards.js";
import { seats as Held } from "./held.js";
import { WORDS } from "./words.js";
import { lang, say, t, tn, wordsOf } from "./i18n.js";


var NAME_KEY = "sushigo.name";

/**
 * One action this seat may send now (the view's `choices`).
 * @typedef {{action: number, text: string, words?: string}} Choice
 *   action: its id, to send; text: its record text ("wasabi+egg"); words: the engine's words
 */
/**
 * The server's view document of a seat (docs/server.md): what this page reads of it.
 * @typedef {Object} View
 * @property {string} [edition]
 * @property {number} players
 * @property {number} round
 * @property {number} turn
 * @property {string} phase            "pick", "resolve", "over"...
 * @property {number | null} seat
 * @property {string[] | null} hand
 * @property {Choice[]} [choices]      what the seat may send now
 * @property {number[]} [legal_actions]
 * @property {string[]} [legal]
 * @property {number | null} [committed]  the seat's hidden pick
 * @property {string | null} [committed_text]
 * @property {number[]} [change_to]
 * @property {string[]} [change_to_text]
 * @property {any} [decision]          the pending Party decision {kind, seat, card, drawn, asks (in words), asks_msg}
 * @property {string[][]} collections
 * @property {boolean[]} [picked]
 * @property {any} [last_round]
 * @property {any[]} [explained]
 * @property {any} [result]
 */

/** @typedef {"connecting" | "waiting" | "lesson" | "deciding" | "sent" | "changing" | "others" | "round-end" | "ended" | "refused"} Phase */

/** @type {Record<Phase, Phase[]>} the phases each phase may go to (besides connecting and refused: see above) */
var NEXT = {
  connecting: ["waiting", "lesson", "deciding", "changing", "others", "round-end", "ended"],
  waiting: ["lesson", "deciding", "others", "ended"],
  lesson: ["deciding", "others", "ended"],
  deciding: ["sent", "others", "round-end", "ended"],
  sent: ["changing", "deciding", "others", "round-end", "ended"],
  changing: ["sent", "deciding", "others", "round-end", "ended"],
  others: ["deciding", "changing", "round-end", "ended"],
  "round-end": ["deciding", "others", "lesson", "ended"],
  ended: [],
  refused: []
};

// ------------------------------------------------------------ state
var m = /^\/t\/([^/?#]+)/.exec(location.pathname);
var S = {
  /** @type {Phase} */
  phase: "connecting",  // changed by transition() only
  id: m ? decodeURIComponent(m[1]) : "",
  token: tokenFromHash(),
  asSeat: accountSeatFromHash(),  // "#as=N": the seat of the account signed in here (no secret needed)
  ws: null,
  seq: null,            // newest seq from state/progress/ack
  stateSeq: null,       // seq of the newest state
  pickedAt: null,       // stateSeq at which we sent our pick (blocks a second one)
  sentAction: null,
  status: null,
  table: null,
  view: null,
  hint: null,           // the newest hint message (a table with hints)
  seat: null,
  deadline: null,
  welcomed: false,
  retries: 0,
  reconnectAt: 0,
  reconnectTimer: null,
  stop: false,
  fresh: null,          // {seat: {index: true}} newly revealed cards
  freshTimer: null,
  revealed: null,       // {seat: [texts]} latest reveal
  chopMode: false,
  chopFirst: null,      // hand index of the first chopsticks card
  nameWanted: false,
  nameSent: null,
  focusKey: null,
  sentIndex: null,
  keepFocus: false,
  localDeadline: null,  // [stateSeq, unix seconds]: estimate when the server sends none
  lastError: "",
  log: [],              // the turn log (log frames)
  roundSeen: null,      // the newest finished round whose end was shown and continued
  holding: null,        // the finished round shown now (round-end panel), or null
  holdTimer: null,
  noticeAt: 0,
  myTurn: false,        // was a decision yours at the last render (to notice a new one)
  notified: { sounds: 0, notifications: 0 },
  chat: [],             // the chat this seat may read (chat.js)
  muted: [],            // the seats whose chat it muted
  awayAfter: 60,        // seconds before an away seat may be handed to the bot (GET /api/options)
  holdUntil: 0,         // when a spectator's round-end goes on by itself
  freshAt: 0,           // when the newest reveal came (its cards are highlighted a moment)
  passedAt: 0,          // when a new hand came from the neighbour (it slides in)
  passedFrom: "left",
  roundEndKey: ""       // what the round-end panel shows (drawn again only when it changes)
};
export { S };

/**
 * The phase that what S holds now makes (see the table above).
 * @returns {Phase}
 */
function phaseNow() {
  if (S.stop) return "refused";
  if (!S.welcomed) return "connecting";
  if (S.status === "finished" || S.status === "cancelled" || S.status === "abandoned") return "ended";
  if (S.status !== "playing" || !S.view) return "waiting";
  if (S.holding !== null) return "round-end";
  if (lesson && lesson.holds(S.table, { status: S.status, view: S.view })) return "lesson";
  if (S.seat === null) return "others";
  if (S.pickedAt !== null) return "sent";
  if (!choicesOf(S.view).length) return "others";
  return changing(S.view) ? "changing" : "deciding";
}

/**
 * The page took in `event` (one of the events above): its phase follows what S holds now.
 * The only place S.phase changes; a move the table above does not list is a mistake of
 * this page, said in the console.
 * @param {string} event
 */
function transition(event) {
  var from = S.phase, to = phaseNow();
  if (to !== from && to !== "connecting" && to !== "refused" && NEXT[from].indexOf(to) < 0) {
    console.warn("table page: " + from + " -> " + to + " on " + event + " is not in its state machine");
  }
  S.phase = to;
}

function tokenFromHash() {
  var h = location.hash.replace(/^#/, "");
  var parts = h.split("&");
  for (var i = 0; i < parts.length; i++) {
    var kv = parts[i].split("=");
    if (kv[0] === "seat" && kv[1]) return decodeURIComponent(kv.slice(1).join("="));
  }
  return null;
}

/** The N of "#as=N" (the signed-in account's seat), or null. */
function accountSeatFromHash() {
  var parts = location.hash.replace(/^#/, "").split("&");
  for (var i = 0; i < parts.length; i++) {
    var kv = parts[i].split("=");
    if (kv[0] === "as" && /^[0-9]{1,2}$/.test(kv[1] || "")) return Number(kv[1]);
  }
  return null;
}

function storedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; }
}
function storeName(n) {
  try { localStorage.setItem(NAME_KEY, n); } catch (e) { /* private mode */ }
}

// ------------------------------------------------------------ socket
var conn = makeConnection(S, {
  hello: function () {
    var name = S.token ? (storedName() || null) : null;
    S.nameSent = name;
    var hello = { type: "hello", token: S.token, name: name, last_seq: S.seq };
    if (!S.token && S.asSeat !== null) hello.seat = S.asSeat;  // the account's seat: the session cookie opens it
    return hello;
  },
  message: function (msg) { handle(msg); },
  closed: function () { transition("closed"); }  // the next welcome draws the page again
});
var connect = conn.connect, send = conn.send, setConn = conn.setConn;

// ------------------------------------------------------------ messages
function newerSeq(seq) {
  if (typeof seq === "number" && (S.seq === null || seq > S.seq)) S.seq = seq;
}

function handle(msg) {
  switch (msg.type) {
    case "update":
      // one frame per event (sushigo-ws/3): its parts are the messages of those types, in this order
      if (msg.log) onLog(msg.log);
      if (msg.state) onState(msg.state);
      if (msg.progress) handle(Object.assign({ type: "progress" }, msg.progress));
      if (msg.ack) handle(Object.assign({ type: "ack" }, msg.ack));
      break;
    case "welcome":
      S.welcomed = true;
      S.retries = 0;
      S.seat = typeof msg.seat === "number" ? msg.seat : null;
      if (S.seat !== null && typeof msg.token === "string") {
        // the invite claimed this seat: from now on only this secret opens it (the invite is spent)
        S.token = msg.token;
        history.replaceState(null, "", location.pathname + location.search + "#seat=" + encodeURIComponent(msg.token));
      }
      S.pickedAt = null;
      S.chat = [];  // the server sends the whole chat again after the log
      if (S.seat !== null && S.token) Held.remember(S.id, { token: S.token, seat: S.seat });
      newerSeq(msg.seq);
      setConn("open", t("Connected"));
      if (msg.table && typeof msg.table === "object" && msg.table.seats) S.table = msg.table;
      maybeAskName();
      transition("welcome");
      render();
      break;
    case "state":
      onState(msg);
      break;
    case "progress":
      newerSeq(msg.seq);
      if (S.view && Array.isArray(msg.picked)) S.view.picked = msg.picked.slice();
      render();
      break;
    case "seats":
      if (S.table && Array.isArray(msg.seats)) S.table.seats = msg.seats;
      maybeAskName();
      render();
      break;
    case "ack":
      // The ack may come after the state its pick produced: it then changes nothing.
      newerSeq(msg.seq);
      if (typeof msg.action === "number" && (S.stateSeq === null || msg.seq > S.stateSeq)) S.sentAction = msg.action;
      S.pickedAt = null;  // stored: a change of mind (which keeps the seq: nobody else may learn of it) may follow
      showError("");
      transition("ack");
      render();
      break;
    case "error":
      onError(msg);
      break;
    case "log":
      onLog(msg);
      break;
    case "chat":
      addMessages(S.chat, msg.messages);
      render();
      break;
    case "muted":
      S.muted = Array.isArray(msg.seats) ? msg.seats.slice() : [];
      render();
      break;
    case "rematch":
      // your seat at the new table (and, if you made it, its creator token): kept in this browser, then opened
      Held.remember(msg.table, typeof msg.creator === "string"
        ? { token: msg.token, seat: msg.seat, creator: msg.creator } : { token: msg.token, seat: msg.seat });
      location.href = msg.url;
      break;
    case "hint":
      S.hint = msg;
      render();
      break;
    case "pong":
      break;
    default:
      break;
  }
}

var turnStarted = null;  // set by setupNotify
var lesson = null;       // set at start (lesson.js)
var AUTO_CONTINUE = 8; // seconds a spectator looks at a round's end

function onLog(msg) {
  var before = S.log.length;
  S.log = applyLog(S.log, msg);
  // time ran out for you: say so where you look, not only in the log
  for (var i = Math.min(before, msg.from || 0); i < S.log.length; i++) {
    var line = S.log[i];
    if (line.kind === "timer" && line.seat === S.seat && S.seat !== null && i >= before) {
      showNotice(plain(lineText(line), seatName));
    }
  }
  render();
}

function showNotice(text) {
  var n = $("notice");
  n.textContent = text;
  n.hidden = !text;
  S.noticeAt = Date.now();
}

// A round just ended: keep its last reveal on screen until the player continues.
function updateHold(v) {
  var last = v && v.last_round ? v.last_round.round : null;
  if (S.roundSeen === null) {
    // on joining: a round that ended before this turn's picks is not shown again
    S.roundSeen = last === null ? 0 : (v.turn > 1 || v.phase !== "pick" || (v.picked || []).some(Boolean) ? last : last - 1);
  }
  if (S.status === "playing" && last !== null && last > S.roundSeen && S.holding === null) {
    S.holding = last;
    clearTimeout(S.holdTimer);
    if (S.seat === null) {
      S.holdUntil = Date.now() + AUTO_CONTINUE * 1000;
      S.holdTimer = setTimeout(continueRound, AUTO_CONTINUE * 1000);
    }
    S.keepFocus = true;
  }
  if (S.status === "finished") { S.holding = null; clearTimeout(S.holdTimer); }
}

function continueRound() {
  clearTimeout(S.holdTimer);
  if (S.holding !== null) S.roundSeen = S.holding;
  S.holding = null;
  S.keepFocus = true;
  transition("continue");
  render();
}

function onError(msg) {
  var code = String(msg.code || "error");
  var text = String(msg.message || code);
  if (code === "bad_name") {
    S.nameWanted = true;
    $("name-error").textContent = text;
    render();
    return;
  }
  if (code === "not_signed_in" || code === "not_your_seat" || code === "needs_account" || code === "already_seated") {
    // "#as=N" without the account's session, or a rated table's seat without one: nothing to take here
    S.asSeat = null;
    S.stop = true;
    showError(code === "not_signed_in"
      ? t("Sign in (the account page) to take your seat here; meanwhile you can watch: open the table's address without #as.")
      : code === "needs_account"
        ? t("This is a rated table: sign in (the account page), then open this invite again.")
        : say({ sentence: text }));  // the server's words, as a sentence
    if (S.ws) S.ws.close();
    transition("error");
    render();
    return;
  }
  if (code === "bad_token" || code === "seat_taken" || code === "no_table" || code === "wrong_process") {
    S.stop = true;
    if (code === "seat_taken") {
      // the seat is someone else's now: show nothing of it, and keep no spent secret (the creator token stays)
      var held = Held.get(S.id);
      Held.forget(S.id);
      if (held && held.creator) Held.remember(S.id, { creator: held.creator });
      S.seat = null; S.view = null; S.table = null; S.token = null; S.welcomed = false; S.log = [];
    }
    showError(code === "bad_token"
      ? t("This invite link is not valid for this table ({why}).", { why: text })
      : code === "seat_taken"
        ? t("This seat has been taken; ask the table to hand it back (its creator can make a new invite). You can still watch: open the table's address without #seat.")
        : t("This table cannot be opened here ({why}).", { why: text }));
    if (S.ws) S.ws.close();
    transition("error");
    render();
    return;
  }
  S.pickedAt = null;  // the pick (or take-back) was refused: choose again
  showError(text);
  transition("error");
  render();
}

function showError(text) {
  var e = $("error");
  S.lastError = text;
  e.textContent = text;
  e.hidden = !text;
}

function onState(msg) {
  newerSeq(msg.seq);
  var prev = S.view;
  S.stateSeq = msg.seq;
  S.status = msg.status;
  if (msg.table && typeof msg.table === "object") S.table = msg.table;
  if (typeof msg.seat === "number") S.seat = msg.seat;
  S.deadline = typeof msg.deadline === "number" ? msg.deadline : null;
  var v = msg.view && typeof msg.view === "object" ? msg.view : null;
  S.view = v;
  C.setEdition(edition());
  if (S.pickedAt !== null && S.pickedAt !== S.stateSeq) S.pickedAt = null;
  var texts = choiceTexts(v);
  if (!texts.length || !sameHand(prev, v)) S.chopFirst = null;
  if (!texts.some(isPair)) S.chopMode = false;
  computeFresh(prev, v);
  // a new hand came from the neighbour: it slides in from that side (not on a round's first turn)
  if (v && prev && Array.isArray(v.hand) && v.turn > 1 && (v.turn !== prev.turn || v.round !== prev.round)) {
    S.passedAt = Date.now();
    S.passedFrom = v.passes === "right" ? "right" : "left";
  }
  if (v) updateHold(v);
  if (v && v.committed === null) { S.sentAction = null; S.sentIndex = null; }
  if (msg.status !== "playing") showError("");
  maybeAskName();
  transition("state");
  render();
}

function sameHand(a, b) {
  return a && b && a.round === b.round && a.turn === b.turn &&
    JSON.stringify(a.hand) === JSON.stringify(b.hand);
}

function computeFresh(prev, v) {
  if (!v || !prev || !Array.isArray(v.collections) || !Array.isArray(prev.collections)) return;
  if (v.round !== prev.round || v.phase === "over") { // collections were cleared
    S.fresh = null;
    S.revealed = null;
    return;
  }
  var fresh = {}, revealed = {}, any = false;
  for (var s = 0; s < v.collections.length; s++) {
    var now = v.collections[s] || [], before = prev.collections[s] || [];
    if (now.length > before.length) {
      fresh[s] = {};
      revealed[s] = [];
      for (var i = before.length; i < now.length; i++) {
        fresh[s][i] = true;
        revealed[s].push(now[i]);
      }
      any = true;
    }
  }
  if (!any) return;
  S.fresh = fresh;
  S.freshAt = Date.now();
  S.revealed = revealed;
  clearTimeout(S.freshTimer);
  S.freshTimer = setTimeout(function () { S.fresh = null; }, 2500);
}

// ------------------------------------------------------------ actions
function edition() {
  if (S.view && S.view.edition) return S.view.edition;
  if (S.table && S.table.edition) return S.table.edition;
  return "base";
}

/**
 * What this seat may send now, as the server lists it (the view's `choices`): its legal
 * actions, or, while its pick is hidden and may change, what it may change it to.  The one
 * source of what the page offers (hand, chopsticks pairs, other actions, the hints' check).
 * @param {View | null} v
 * @returns {Choice[]}
 */
function choicesOf(v) {
  return v && Array.isArray(v.choices) ? v.choices : [];
}

/** The text form of each choice ("wasabi+egg"), in the server's order. */
function choiceTexts(/** @type {View | null} */ v) {
  return choicesOf(v).map(function (c) { return c.text; });
}

/** Is this seat's pick hidden and may it still change it (until the last seat picks). */
function changing(/** @type {View | null} */ v) {
  return !!v && v.committed !== null && v.committed !== undefined && choicesOf(v).length > 0;
}

// The text form of an action id, as the server gave it (the hidden pick, or one of the seat's
// choices): the page decodes no action number.
function actionText(/** @type {number | null} */ a) {
  var v = S.view;
  if (a === null || a === undefined || !v) return String(a);
  if (a === v.committed && typeof v.committed_text === "string") return v.committed_text;
  var found = choicesOf(v).filter(function (c) { return c.action === a; })[0];
  return found ? found.text : String(a);
}

function isPair(text) { return /^[a-z0-9_]+\+[a-z0-9_]+$/.test(text) && text.indexOf(">") < 0; }

function actionLabel(text) {
  var v = S.view, kind = v && v.decision ? v.decision.kind : null;
  if (text === "pass") {
    if (kind === "chopsticks") return t("Don't use the chopsticks");
    if (kind === "spoon") return t("Don't use the spoon");
    if (kind === "takeout_box") return t("Stop flipping");
    return t("Pass");
  }
  var f = /^flip:(\d+)$/.exec(text);
  if (f) {
    var idx = Number(f[1]);
    var col = v && v.seat !== null && v.collections ? v.collections[v.seat] || [] : [];
    return col[idx] !== undefined ? t("Flip {card} (#{n})", { card: C.label(col[idx]), n: idx + 1 })
      : t("Flip card {n} (#{n})", { n: idx + 1 });
  }
  if (isPair(text)) {
    var p = text.split("+");
    return t("Chopsticks: {first}, then {second}", { first: C.label(p[0]), second: C.label(p[1]) });
  }
  var so = /^special_order>(.+)$/.exec(text);
  if (so && kind !== "spoon" && kind !== "menu" && kind !== "chopsticks") {
    var what = so[1].replace(/\+wasabi$/, "");
    var onWasabi = /\+wasabi$/.test(so[1]);
    if (what === "face_down") return onWasabi ? t("Copy a face-down card on a wasabi") : t("Copy a face-down card");
    return onWasabi ? t("Copy {card} on a wasabi", { card: C.label(what) }) : t("Copy {card}", { card: C.label(what) });
  }
  var lab = C.label(text);
  if (kind === "spoon") return t("Ask for {card}", { card: lab });
  if (kind === "menu") return t("Take {card}", { card: lab });
  if (kind === "chopsticks") return t("Play {card}", { card: lab });
  return lab;
}

/**
 * What a Party decision asks of its seat, in the page's language: the engine's message
 * (`asks_msg`: sushigo.engine.party.game.DECISION_ASKS), its English `asks` from an older server.
 */
function asks(/** @type {{kind: string, asks?: string, asks_msg?: any}} */ d) {
  return d.asks_msg ? say(d.asks_msg) : d.asks || t("decide");
}

/** Is a decision yours now (a pick, a change of your hidden pick, a Party special). */
function canPick() {
  return S.phase === "deciding" || S.phase === "changing";
}

function pick(/** @type {number} */ action) {
  if (!canPick()) return;
  if (!choicesOf(S.view).some(function (c) { return c.action === action; })) return;
  if (changing(S.view) && action === S.view.committed) return;
  if (!send({ type: "pick", seq: S.seq, action: action })) {
    showError(t("Not connected: your pick was not sent."));
    return;
  }
  S.pickedAt = S.stateSeq;
  S.sentAction = action;
  S.sentIndex = null;
  S.chopFirst = null;
  S.chopMode = false;
  showError("");
  transition("pick");
  render();
}

/** Take back your hidden pick (until the last seat picks). */
function withdraw() {
  var v = S.view;
  if (!changing(v) || S.pickedAt !== null) return;
  if (!send({ type: "withdraw", seq: S.seq })) { showError(t("Not connected: try again.")); return; }
  S.pickedAt = S.stateSeq;
  transition("withdraw");
  render();
}
$("withdraw").addEventListener("click", withdraw);

// ------------------------------------------------------------ names
function seatCount() {
  return S.table && S.table.seats ? S.table.seats.length : S.view ? S.view.players : 0;
}

function seatName(i) {
  var s = S.table && S.table.seats ? S.table.seats[i] : null;
  if (s && s.name) return s.account_bot ? t("{name} (bot)", { name: String(s.name) }) : String(s.name);  // a bot account's seat says so
  // TRANSLATORS: a bot's seat; {bot}: the bot's name (greedy, random...)
  if (s && s.kind === "bot") return t("{bot} bot", { bot: s.bot ? String(s.bot).split(":")[0] : t("bot") });
  return t("Seat {n}", { n: i + 1 });
}

/** Whether this page's seat belongs to an account (it bears the account's name: nothing to ask or change). */
function accountsSeat() {
  var s = S.seat !== null && S.table && S.table.seats ? S.table.seats[S.seat] : null;
  return !!(s && s.account);
}

function maybeAskName() {
  if (accountsSeat()) { S.nameWanted = false; return; }
  if (!S.token || S.seat === null || !S.table) return;
  var s = S.table.seats ? S.table.seats[S.seat] : null;
  if (!s || s.name) return;
  var stored = storedName();
  if (!stored) { S.nameWanted = true; return; }
  // a name typed before the welcome arrived: send it now (once)
  if (S.welcomed && S.nameSent !== stored) {
    S.nameSent = stored;
    send({ type: "name", name: stored });
  }
}

$("name-form").addEventListener("submit", function (ev) {
  ev.preventDefault();
  var input = $as("name-input", HTMLInputElement);
  var name = input.value.replace(/\s+/g, " ").trim();
  if (!name) { $("name-error").textContent = t("Please type a name."); return; }
  if (name.length > 24) { $("name-error").textContent = tn("At most {n} character.", "At most {n} characters.", 24); return; }
  storeName(name);
  $("name-error").textContent = "";
  S.nameWanted = false;
  if (S.welcomed) { S.nameSent = name; send({ type: "name", name: name }); }
  else if (!S.ws) { S.retries = 0; connect(); }
  render();
});
$("rename").addEventListener("click", function () {
  S.nameWanted = true;
  render();
  $("name-input").focus();
});

// ------------------------------------------------------------ rendering
function render() {
  var active = document.activeElement;
  var focusKey = active && active.getAttribute ? active.getAttribute("data-focus") : null;
  if (focusKey) S.focusKey = focusKey;
  var hadFocus = !!focusKey || S.keepFocus;
  renderTop();
  renderNameForm();
  renderStatus();
  renderHand();
  if (lesson) lesson.render($("lesson"), S.table, { view: S.view, seat: S.seat, status: S.status, seatName: seatName });
  renderRoundEnd();
  renderSeats();
  drawScores({ view: S.view, finished: S.status === "finished", party: edition() === "party", id: S.id, seat: S.seat,
    seatName: seatName, winnersText: winnersText,
    ending: S.log.filter(function (l) { return l.kind === "game"; }).map(function (l) { return plain(lineText(l), seatName); }) });
  renderLog($("log"), S.log, Array.from({ length: seatCount() }, function (_, i) { return seatName(i); }));
  $("withdraw").hidden = !(changing(S.view) && S.status === "playing");
  renderChat({ messages: S.chat, muted: S.muted, seat: S.seat, table: S.table, seatName: seatName, send: send });
  drawExtras();
  renderAnalysis({ id: S.id, status: S.status, seat: S.seat, render: render });
  renderTimer();
  var mineNow = canPick();
  if (mineNow && !S.myTurn && turnStarted) turnStarted($("status").textContent, S.notified);
  S.myTurn = mineNow;
  if (S.noticeAt && Date.now() - S.noticeAt > 12000) { showNotice(""); S.noticeAt = 0; }
  // Keep the keyboard where it was: the same card or button, else the first choice.
  if (hadFocus && (!document.activeElement || document.activeElement === document.body)) {
    var again = focusable(S.focusKey ? document.querySelector('[data-focus="' + S.focusKey + '"]') : null);
    if (!again) {
      again = focusable(document.querySelector('[data-testid="lesson-next"], [data-testid="continue"]:not([hidden]), [data-testid="hand"] [data-action]:enabled, [data-testid="actions"] [data-testid="action"]:enabled'));
    }
    if (again) {
      again.focus({ preventScroll: true });
      S.keepFocus = false;
    } else {
      S.keepFocus = true; // no choice now: focus the next one when it comes
    }
  } else if (document.activeElement && document.activeElement !== document.body) {
    S.keepFocus = false;
  }
}

/** `e` when the keyboard may go there (not a disabled button), else null. */
function focusable(/** @type {Element | null} */ e) {
  return e instanceof HTMLElement && !(e instanceof HTMLButtonElement && e.disabled) ? e : null;
}

function renderTop() {
  var table = S.table, v = S.view;
  // the memory aid shows the cards the view says a seat may know (both editions' views have them)
  as(document.querySelector(".memory"), HTMLElement).hidden = !(v && Array.isArray(v.known_cards)) || S.seat === null;
  var info = "";
  if (table || v) {
    var ed = edition();
    info = C.editionWords(ed).title;
    var menu = table && table.menu ? table.menu : null;
    if (menu) info += " · " + (Array.isArray(menu) ? t("custom menu") : t(String(menu)));
    var n = seatCount();
    if (n) info += " · " + tn("{n} player", "{n} players", n);
    if (S.seat === null && S.welcomed) info += " · " + t("watching");
  }
  $("table-info").textContent = info;
  $("seeded-tag").hidden = !(table && table.seeded);
  var r = "";
  if (v && S.status === "playing") r = t("Round {round} of {rounds} · turn {turn}", { round: v.round, rounds: WORDS.rounds, turn: v.turn });
  else if (S.status === "finished") r = t("Game over");
  $("round-info").textContent = r;
  $("rename").hidden = !(S.token && S.seat !== null && S.welcomed && !(S.table && S.table.ended)) || accountsSeat();
  document.title = S.status === "finished" ? t("Game over · Sushi Go! table")
    : canPick() ? t("Your turn · Sushi Go! table") : t("Sushi Go! table");
}

function renderNameForm() {
  var form = $("name-form");
  var show = !!(S.token && S.nameWanted && !S.stop && !(S.table && S.table.ended));
  if (show && form.hidden) {
    $as("name-input", HTMLInputElement).value = storedName();
  }
  form.hidden = !show;
}

function waitingSeats() {
  var v = S.view;
  if (!v) return [];
  if (v.decision && v.phase === "resolve") return [v.decision.seat];
  var out = [];
  (v.picked || []).forEach(function (p, i) { if (!p) out.push(i); });
  return out;
}

/** The parts of a status line, one after the other. */
function parts(/** @type {string[]} */ said) { return said.join(" · "); }

function renderStatus() {
  var st = $("status"), text;
  var v = S.view;
  if (!S.table && !v) {
    text = S.stop ? t("Cannot join this table.") : t("Connecting…");
  } else if (S.status === "cancelled" || S.status === "abandoned") {
    text = S.status === "cancelled" ? t("This table was cancelled by its creator.")
      : t("This table was abandoned: nothing happened at it for too long.");
  } else if (S.status === "waiting" || (!v && S.status !== "finished")) {
    var seats = S.table ? S.table.seats || [] : [];
    var missing = seats.filter(function (s) { return s.kind === "human" && !(s.joined && s.name); }).length;
    text = missing ? tn("Waiting for {n} player to join", "Waiting for {n} players to join", missing) : t("Starting…");
    if (S.token && S.nameWanted) text = parts([text, t("type your name to join")]);
  } else if (S.status === "finished") {
    text = t("Game over · {winners}", { winners: winnersText() });
  } else if (S.phase === "lesson") {
    text = t("Learn to play: read about the dishes of this table, then start");
  } else if (S.holding !== null) {
    text = S.seat === null
      ? t("Round {round} is over: see how it scored; round {next} follows in a moment", { round: S.holding, next: S.holding + 1 })
      : t("Round {round} is over: see how it scored, then continue", { round: S.holding });
  } else if (v && v.decision && v.phase === "resolve") {
    var d = v.decision;
    if (d.seat === S.seat) {
      text = canPick() ? t("Your turn: use your {card}", { card: C.label(d.card) }) : t("Sent · waiting…");
    } else {
      text = t("Waiting for {seat} ({card})", { seat: seatName(d.seat), card: C.label(d.card) });
    }
  } else {
    var w = waitingSeats();
    if (canPick() && changing(v)) {
      var said = [t("You picked {choice}", { choice: actionLabel(actionText(v.committed)) }),
        t("until everyone has picked you may choose another card")];
      if (w.length) said.push(tn("waiting for {n} player", "waiting for {n} players", w.length));
      text = parts(said);
    } else if (canPick()) {
      text = S.chopMode ? t("Your turn: pick a card (chopsticks: pick two)") : t("Your turn: pick a card");
      if (w.length > 1) text = parts([text, tn("{n} player still picking", "{n} players still picking", w.length)]);
    } else if (w.length) {
      var yours = S.seat !== null && (v.committed !== null && v.committed !== undefined || S.sentAction !== null);
      var waits = tn("Waiting for {n} player", "Waiting for {n} players", w.length);
      text = yours ? parts([t("You picked {choice}", {
        choice: actionLabel(actionText(v.committed !== null && v.committed !== undefined ? v.committed : S.sentAction)) }), waits])
        : waits;
    } else {
      text = t("Revealing…");
    }
  }
  st.textContent = text;
  st.setAttribute("data-your-turn", canPick() ? "true" : "false");
}

function winnersText() {
  var r = S.view && S.view.result;
  var winners = S.table && Array.isArray(S.table.winners) ? S.table.winners : r ? r.winners : [];
  var totals = S.table && Array.isArray(S.table.totals) ? S.table.totals : r ? r.totals : [];
  if (!winners || !winners.length) return t("no winner");
  var names = winners.map(function (w) {
    return totals[w] !== undefined ? t("{seat} ({points})", { seat: seatName(w), points: totals[w] }) : seatName(w);
  });
  return tn("Winner: {seats}", "Winners: {seats}", winners.length, { seats: say({ words: names, listing: true }) });
}

function passInfo() {
  var v = S.view;
  if (!v || S.seat === null) return "";
  var to = v.pass_to, from = v.receive_from;
  if (v.players === 2) return t("You and {seat} swap hands after each turn.", { seat: seatName(to) });
  var names = { to: seatName(to), from: seatName(from) };
  return v.passes === "right" ? t("You pass to {to} (right) and receive from {from}.", names)
    : t("You pass to {to} (left) and receive from {from}.", names);
}

function renderHand() {
  var sec = $("hand-section");
  var v = S.view;
  if (!v || S.seat === null || !Array.isArray(v.hand) || S.status !== "playing" || S.holding !== null ||
      S.phase === "lesson") {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  sec.setAttribute("data-changing", changing(v) ? "true" : "false");  // a hidden pick you may still change
  var mine = canPick();
  var choices = choicesOf(v);
  var legal = choices.map(function (c) { return c.text; }), ids = choices.map(function (c) { return c.action; });
  var decision = v.decision && v.phase === "resolve" ? v.decision : null;
  var myDecision = decision && decision.seat === S.seat;
  $("passing").textContent = passInfo();
  $("hand-title").textContent = t("Your hand ({n})", { n: v.hand.length });

  var dec = $("decision");
  if (myDecision) {
    dec.hidden = false;
    dec.textContent = t("Your {card}: {asks}.", { card: C.label(decision.card), asks: asks(decision) });
  } else {
    dec.hidden = true;
    dec.textContent = "";
  }

  // Which choices the hand's cards stand for.
  var handPicks = !decision || (myDecision && decision.kind === "chopsticks");
  var covered = {};
  var hand = $("hand");
  hand.textContent = "";
  v.hand.forEach(function (name, i) {
    var b = C.element(name, { tag: "button" });
    b.setAttribute("data-testid", "card");
    b.setAttribute("data-index", String(i));
    b.setAttribute("data-focus", "card-" + i);
    var k = handPicks ? legal.indexOf(name) : -1;
    var enabled = false;
    if (k >= 0) {
      covered[k] = true;
      b.setAttribute("data-action", String(ids[k]));
      enabled = mine;
    }
    if (S.chopMode && mine && handPicks) {
      enabled = chopCandidate(i);
      if (S.chopFirst === i) { b.classList.add("selected"); b.setAttribute("aria-pressed", "true"); enabled = true; }
    }
    // a special order is played by choosing what it copies: the card points at those choices
    var copies = handPicks && mine && name === "special_order" && k < 0 &&
      legal.some(function (x) { return /^special_order>/.test(x); });
    if (copies) {
      enabled = true;
      b.setAttribute("aria-describedby", "copy-title");
      b.title = t("Special order: choose below what it copies");
    }
    if (!enabled) { b.disabled = true; b.classList.add("unplayable"); }
    var sent = S.sentAction !== null ? S.sentAction : v.committed;
    if (sent !== null && sent !== undefined && (!mine || changing(v)) && actionText(sent) === name && !hand.querySelector(".chosen") &&
        (S.sentIndex === null || S.sentIndex === i || v.hand[S.sentIndex] !== name)) {
      b.classList.add("chosen");
    }
    b.addEventListener("click", function () { onCardClick(i); });
    hand.appendChild(b);
  });
  hand.classList.toggle("my-turn", mine && !!handPicks);
  var passing = S.passedAt && Date.now() - S.passedAt < 700;
  hand.classList.toggle("passed-in", !!passing);
  hand.classList.toggle("from-right", !!passing && S.passedFrom === "right");
  if (passing) hand.style.animationDelay = -(Date.now() - S.passedAt) + "ms";

  // Chopsticks (original game: pairs before the reveal).
  var pairs = [];
  legal.forEach(function (x, k) { if (isPair(x)) { pairs.push(k); covered[k] = true; } });
  var bar = $("chopsticks-bar");
  bar.textContent = "";
  bar.hidden = !(pairs.length && mine);
  if (pairs.length && mine) {
    var tog = el("button", "toggle" + (S.chopMode ? " on" : ""),
      S.chopMode ? (S.chopFirst === null ? t("Chopsticks on: pick your first card") : t("Now pick the second card"))
        : t("Use chopsticks (take 2 cards)"));
    tog.type = "button";
    tog.setAttribute("data-testid", "chopsticks-toggle");
    tog.setAttribute("data-focus", "chop-toggle");
    tog.setAttribute("aria-pressed", S.chopMode ? "true" : "false");
    tog.addEventListener("click", function () {
      S.chopMode = !S.chopMode;
      S.chopFirst = null;
      render();
    });
    bar.appendChild(tog);
    if (S.chopMode) {
      var cancel = el("button", "link-button", t("Cancel"));
      cancel.type = "button";
      cancel.addEventListener("click", function () { S.chopMode = false; S.chopFirst = null; render(); });
      bar.appendChild(cancel);
    }
  }
  var pd = $("pairs");
  var plist = pd.querySelector(".pair-list");
  plist.textContent = "";
  pd.hidden = !(pairs.length && mine);
  pairs.forEach(function (k) {
    plist.appendChild(actionButton(ids[k], legal[k], "pair", mine));
  });

  // Every other choice; a decision's "pass" first (a spoon may offer two dozen cards).
  var acts = $("actions");
  acts.textContent = "";
  var order = legal.map(function (x, k) { return k; });
  order.sort(function (a, b) { return Number(legal[b] === "pass") - Number(legal[a] === "pass") || a - b; });
  var copyTitle = false;
  order.forEach(function (k) {
    var choice = legal[k];
    if (covered[k]) return;
    var kind = choice === "pass" ? "pass" : /^flip:/.test(choice) ? "flip" : /^special_order>/.test(choice) && !decision ? "special_order"
      : decision ? decision.kind : "card";
    if (kind === "special_order" && !copyTitle) {
      copyTitle = true;
      var title = el("p", "actions-title", t("Your special order copies one of your cards of this round:"));
      title.id = "copy-title";
      acts.appendChild(title);
    }
    acts.appendChild(actionButton(ids[k], choice, kind, mine));
  });
  acts.hidden = !acts.childNodes.length;
  renderHints(mine);
}

/** `x` with one decimal, as the page's language writes it (rounded as toFixed does). */
function tenths(/** @type {number} */ x) {
  return Number(x.toFixed(1)).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
}

// The server's estimate of each choice (a table with hints; docs/server.md, "hint").
function hintFits(h, v) {
  if (!h || !v || h.round !== v.round || h.turn !== v.turn || !Array.isArray(h.legal)) return false;
  var a = h.legal.slice().sort(), b = choiceTexts(v).sort();
  return a.length === b.length && a.every(function (x, i) { return x === b[i]; });
}

function renderHints(mine) {
  var box = $("hints");
  box.textContent = "";
  var v = S.view;
  if (!(S.table && S.table.hints) || !mine || !v || choicesOf(v).length < 2) { box.hidden = true; return; }
  box.hidden = false;
  box.appendChild(el("h3", null, t("Hint")));
  var h = hintFits(S.hint, v) ? S.hint : null;
  if (!h) {
    box.appendChild(el("p", "hint-wait", t("Thinking about your choices…")));
    return;
  }
  if (h.busy) {
    box.appendChild(el("p", "hint-wait", t("The server is busy: no hint for this decision.")));
    return;
  }
  box.appendChild(el("p", "hint-note", tn(
    "From what you know now, {n} playout each: the expected final margin over the best other player, and the chance to win.",
    "From what you know now, {n} playouts each: the expected final margin over the best other player, and the chance to win.",
    h.samples)));
  var list = el("ol", "hint-list");
  var head = el("li", "hint-row hint-head");
  head.setAttribute("aria-hidden", "true");
  [
    // TRANSLATORS: a column head of the hint table (short): the choice
    t("choice"),
    // TRANSLATORS: a column head of the hint table (short): the choice's expected final margin over the best other player
    t("margin"),
    // TRANSLATORS: a column head of the hint table (short): the choice's chance to win
    t("win"),
    // TRANSLATORS: a column head of the hint table (short): what the choice loses against the best choice
    t("vs best")
  ].forEach(function (x) { head.appendChild(el("span", null, x)); });
  list.appendChild(head);
  h.actions.forEach(function (a, i) {
    var li = el("li", "hint-row" + (i === 0 ? " best" : ""));
    li.setAttribute("data-testid", "hint-row");
    li.setAttribute("data-action", String(a.action));
    if (i === 0) li.setAttribute("data-best", "true");
    li.appendChild(el("span", "hint-name", wordsOf(a, "words")));
    li.appendChild(el("span", "hint-margin", (a.margin >= 0 ? "+" : "−") + tenths(Math.abs(a.margin))));
    // TRANSLATORS: a chance to win, in percent
    li.appendChild(el("span", "hint-win", t("{n}%", { n: Math.round(100 * a.win) })));
    li.appendChild(el("span", "hint-loss", i === 0 ? t("best") : "−" + tenths(a.loss)));
    list.appendChild(li);
  });
  box.appendChild(list);
}

function actionButton(id, text, kind, enabled) {
  var b;
  var cardLike = kind !== "pass" && kind !== "pair" && kind !== "flip";
  if (cardLike) {
    b = C.element(text, { tag: "button", mini: true });
    b.classList.add("action-card");
    var cap = b.querySelector(".card-name");
    if (cap) cap.textContent = actionLabel(text);
  } else if (kind === "flip") {
    var f = /^flip:(\d+)$/.exec(text);
    var col = S.view.collections[S.view.seat] || [];
    b = C.element(col[Number(f[1])] || "face_down", { tag: "button", mini: true });
    b.classList.add("action-card", "flip");
    b.querySelector(".card-name").textContent = actionLabel(text);
  } else {
    b = el("button", "action-button", actionLabel(text));
    b.type = "button";
  }
  b.title = actionLabel(text);
  b.setAttribute("aria-label", actionLabel(text));
  b.setAttribute("data-testid", "action");
  b.setAttribute("data-action", String(id));
  b.setAttribute("data-text", text);
  b.setAttribute("data-kind", kind);
  b.setAttribute("data-focus", "action-" + id);
  if (!enabled) b.disabled = true;
  b.addEventListener("click", function () { pick(id); });
  return b;
}

function chopCandidate(/** @type {number} */ i) {
  var v = S.view, name = v.hand[i], texts = choiceTexts(v);
  if (S.chopFirst === null) {
    return texts.some(function (x) { return isPair(x) && x.split("+")[0] === name; });
  }
  if (S.chopFirst === i) return true;
  return texts.indexOf(v.hand[S.chopFirst] + "+" + name) >= 0;
}

function onCardClick(i) {
  var card = S.view && S.view.hand ? S.view.hand[i] : null;
  if (card === "special_order" && !document.querySelector('[data-testid="hand"] [data-index="' + i + '"][data-action]')) {
    var first = document.querySelector('[data-testid="actions"] [data-kind="special_order"]:enabled');
    if (first instanceof HTMLElement) { first.focus(); first.scrollIntoView({ block: "nearest" }); }
    return;
  }
  var v = S.view;
  if (!canPick()) return;
  if (S.chopMode) {
    if (S.chopFirst === null) {
      if (chopCandidate(i)) { S.chopFirst = i; render(); }
      return;
    }
    if (S.chopFirst === i) { S.chopFirst = null; render(); return; }
    var k = choiceTexts(v).indexOf(v.hand[S.chopFirst] + "+" + v.hand[i]);
    if (k >= 0) pick(choicesOf(v)[k].action);
    return;
  }
  var decision = v.decision && v.phase === "resolve" ? v.decision : null;
  if (decision && decision.kind !== "chopsticks") return;
  var j = choiceTexts(v).indexOf(v.hand[i]);
  if (j >= 0) {
    pick(choicesOf(v)[j].action);
    S.sentIndex = i;
    render();
  }
}



function renderSeats() {
  var box = $("seats");
  box.textContent = "";
  var table = S.table, v = S.view;
  var n = seatCount();
  if (!n) return;
  var order = [];
  var first = S.seat !== null ? S.seat : 0;
  for (var k = 0; k < n; k++) order.push((first + k) % n);
  var newest = latestTurn(S.log);  // what each seat did just now
  var waiting = S.status === "playing" ? waitingSeats() : [];
  var result = v && v.result ? v.result : null;
  order.forEach(function (i) {
    var s = table && table.seats ? table.seats[i] || {} : {};
    var sec = el("section", "seat panel");
    sec.setAttribute("data-testid", "seat");
    sec.setAttribute("data-seat", String(i));
    if (i === S.seat) { sec.setAttribute("data-me", "true"); sec.classList.add("me"); }
    var picked = v && v.picked ? !!v.picked[i] : false;
    sec.setAttribute("data-picked", picked ? "true" : "false");
    sec.setAttribute("data-connected", s.connected || s.kind === "bot" ? "true" : "false");

    var head = el("header", "seat-head");
    var dot = el("span", "dot");
    var connected = s.kind === "bot" || !!s.connected;
    dot.classList.add(s.kind === "bot" ? "bot" : connected ? "online" : s.joined ? "away" : "empty");
    dot.title = s.kind === "bot" ? t("bot") : connected ? t("connected") : s.joined ? t("joined, not connected") : t("not joined yet");
    head.appendChild(dot);
    var nm = el("span", "seat-name", seatName(i));
    nm.setAttribute("data-testid", "seat-name");
    head.appendChild(nm);
    if (i === S.seat) head.appendChild(el("span", "badge you", t("you")));
    if (s.kind === "bot") head.appendChild(el("span", "badge bot", t("bot")));
    else if (!s.joined) head.appendChild(el("span", "badge", t("not joined")));
    else if (s.stand_in) head.appendChild(el("span", "badge away", t("away: {bot} plays", { bot: s.stand_in })));
    else if (!connected) head.appendChild(el("span", "badge away", t("away")));
    if (S.status === "playing" && v) {
      if (waiting.indexOf(i) >= 0) head.appendChild(el("span", "badge thinking", v.decision && v.phase === "resolve" ? t("deciding…") : t("picking…")));
      else if (picked) head.appendChild(el("span", "badge picked", t("✓ picked")));
    }
    if (result && result.winners && S.status === "finished" && result.winners.indexOf(i) >= 0) {
      head.appendChild(el("span", "badge winner", t("winner")));
    }
    sec.appendChild(head);

    if (v) {
      var meta = el("div", "seat-meta");
      var total = result && result.totals ? result.totals[i] : 0;
      var sc = el("span", "seat-score", t("Score {points}", { points: total }));
      sc.setAttribute("data-testid", "seat-score");
      meta.appendChild(sc);
      // TRANSLATORS: how many cards a seat holds in its hand
      if (S.status === "playing" && v.hand_sizes) meta.appendChild(el("span", null, t("Hand {n}", { n: v.hand_sizes[i] })));
      if (edition() !== "party" && v.puddings) meta.appendChild(el("span", null, t("Puddings {n}", { n: v.puddings[i] })));
      sec.appendChild(meta);

      var col = v.collections ? v.collections[i] || [] : [];
      var cbox = el("div", "collection");
      cbox.setAttribute("data-testid", "collection");
      cbox.setAttribute("aria-label", t("{seat}'s cards", { seat: seatName(i) }));
      var onW = v.on_wasabi ? v.on_wasabi[i] : null;
      var fresh = S.fresh ? S.fresh[i] : null;
      groups(col, onW).forEach(function (g) { cbox.appendChild(drawGroup(g, fresh, S.freshAt)); });
      if (!col.length) cbox.appendChild(el("span", "empty", S.status === "playing" ? t("no cards yet this round") : ""));
      if (col.length || S.status === "playing") sec.appendChild(cbox);

      var des = edition() === "party" && v.desserts ? v.desserts[i] || [] : [];
      if (des.length) {
        var dbox = el("div", "desserts");
        dbox.setAttribute("data-testid", "desserts");
        dbox.appendChild(el("span", "small-label", t("Desserts kept:")));
        groups(des, null).forEach(function (g) { dbox.appendChild(drawGroup(g, null)); });
        sec.appendChild(dbox);
      }
      var known = v.known_cards ? v.known_cards[i] : null;
      var whole = v.known_hands && Array.isArray(v.known_hands[i]);
      if (memoryOn() && i !== S.seat && Array.isArray(known) && known.length && S.status === "playing") {
        var held = { cards: say({ words: known.map(function (x) { return C.label(x); }), listing: true }) };
        var kh = el("p", "known-hand", whole ? t("Holds: {cards}", held) : t("Holds, among others: {cards}", held));
        kh.setAttribute("data-testid", "known-hand");
        sec.appendChild(kh);
      }
      var told = newest.filter(function (l) { return l.seat === i && l.round === v.round; });
      if (told.length && S.status === "playing") {
        var rv = el("p", "revealed", t("Just now: {said}", { said: told.map(function (l) { return plain(lineText(l), seatName); }).join(" ") }));
        rv.setAttribute("data-testid", "revealed");
        sec.appendChild(rv);
      }
    }
    box.appendChild(sec);
  });
}


// The round's last reveal, kept: final collections and how the round scored.
function renderRoundEnd() {
  var box = $("round-end");
  var v = S.view;
  var number = S.holding !== null ? S.holding : S.status === "finished" && v && v.last_round ? v.last_round.round : null;
  var last = v && v.last_round;
  if (number === null || !last || last.round !== number) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.setAttribute("data-round", String(number));
  var key = number + "|" + S.status + "|" + JSON.stringify((S.table && S.table.seats || []).map(function (x) { return x.name; }));
  if (S.roundEndKey === key) { updateCountdown(box); return; }
  S.roundEndKey = key;
  box.textContent = "";
  var finished = S.status === "finished";
  var h = el("h2", null, finished ? t("The last round's cards") : t("End of round {round}", { round: number }));
  h.id = "round-end-title";
  box.setAttribute("aria-labelledby", h.id);
  box.appendChild(h);
  roundEndSeats(box, last, v.explained && v.explained[number - 1],
    v.result && v.result.rounds && v.result.rounds[number - 1], seatName);
  if (!finished) {
    var row = el("div", "round-end-actions");
    var b = el("button", "primary", t("Continue to round {round}", { round: number + 1 }));
    b.type = "button";
    b.setAttribute("data-testid", "continue");
    b.setAttribute("data-focus", "continue");
    b.addEventListener("click", continueRound);
    row.appendChild(b);
    var cd = el("span", "countdown");
    cd.setAttribute("data-testid", "countdown");
    row.appendChild(cd);
    box.appendChild(row);
    updateCountdown(box);
  }
}

function updateCountdown(box) {
  var cd = box.querySelector(".countdown");
  if (!cd) return;
  cd.textContent = S.seat === null && S.holding !== null && S.holdUntil
    ? t("Round {round} in {n} s", { round: S.holding + 1, n: Math.max(0, Math.ceil((S.holdUntil - Date.now()) / 1000)) }) : "";
}


function currentDeadline() {
  if (S.deadline !== null) return S.deadline;
  // No deadline from the server but a move timer: count from when this decision arrived.
  var timer = S.table && typeof S.table.timer === "number" ? S.table.timer : null;
  if (timer === null) return null;
  if (!S.localDeadline || S.localDeadline[0] !== S.stateSeq) S.localDeadline = [S.stateSeq, Date.now() / 1000 + timer];
  return S.localDeadline[1];
}


function renderTimer() {
  var timer = $("timer");
  var deadline = S.status === "playing" && canPick() ? currentDeadline() : null;
  if (deadline === null) {
    timer.hidden = true;
    return;
  }
  var left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  timer.hidden = false;
  if (left >= 3600) {  // a turn-based table's move: hours and minutes
    var hours = Math.floor(left / 3600), minutes = Math.floor((left % 3600) / 60);
    timer.textContent = t("Time {hours} h {minutes} min", { hours: hours, minutes: ("0" + minutes).slice(-2) });
    timer.setAttribute("aria-label", t("{hours} hours {minutes} minutes left to decide", { hours: hours, minutes: minutes }));
  } else {
    // TRANSLATORS: the time left to decide; {clock}: minutes:seconds ("1:05")
    timer.textContent = t("Time {clock}", { clock: Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2) });
    timer.setAttribute("aria-label", tn("{n} second left to decide", "{n} seconds left to decide", left));
  }
  timer.classList.toggle("urgent", left <= 10);
}

function drawExtras() {
  renderExtras({ id: S.id, table: S.table, status: S.status, seat: S.seat, token: S.token, view: S.view,
    now: Date.now() / 1000, awayAfter: S.awayAfter, seatName: seatName, send: send, showError: showError });
}

setInterval(function () {
  renderTimer();
  if (S.status === "playing") drawExtras();  // a hand-over becomes possible once a player has been away long enough
  if (S.holding !== null) updateCountdown($("round-end"));
  conn.tick();
}, 500);

window.addEventListener("hashchange", function () {
  var tok = tokenFromHash();
  if (tok !== S.token || (!tok && accountSeatFromHash() !== S.asSeat)) location.reload();
});

if (!S.id) {
  showError(t("No table in this address."));
} else {
  if (S.token) Held.remember(S.id, { token: S.token });
  fetch("/api/options").then(function (r) { return r.json(); }).then(function (o) {
    if (typeof o.away_after === "number") S.awayAfter = o.away_after;
  }, function () { /* the default stands */ });
  setupChat(send, showError);
  setupRules(S.id, render);
  turnStarted = setupNotify();
  lesson = makeLesson(S.id, function () { transition("lesson"); render(); });
  render();
  connect();
}
