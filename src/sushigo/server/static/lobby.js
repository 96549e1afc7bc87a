// @ts-check
/* The lobby: create a table, list open tables and finished games.
 *
 * Talks to GET /api/options, POST /api/tables, GET /api/tables (docs/server.md).
 * Server strings (names, menus, errors) are put into the page with textContent only.
 *
 * Stable hooks for tests (data-testid):
 *   create-form, edition-base / edition-party (radios), players (select),
 *   seat-rows holding one select data-testid="seat-kind" data-seat=n per seat
 *   (values "human" or "bot:NAME"), base-options,
 *   party-options, menu (select: official names or "custom"), custom-menu,
 *   custom-slots (selects data-testid="custom-item" data-group=roll|appetizer|special|dessert),
 *   menu-preview, opt-NAME for each rule option the server lists (GET /api/options
 *   rule_options, drawn by fillRuleOptions: opt-pass_both_ways, opt-uramaki_split, ...),
 *   timer, seed, create-submit, learn-button (a "Learn to play" table: this edition
 *   and menu, you and two greedy bots);
 *   created (after creating): invites (li data-testid="invite" data-seat=n with an
 *   <input data-testid="invite-url"> and a data-testid="copy" button; the spectator
 *   row has data-testid="spectate" with data-testid="spectate-link"),
 *   opt-private, opt-chat, opt-chat_spectators, opt-hints, opt-rated;
 *   play-button ("Play as seat N": opens the first human seat's invite), new-table;
 *   my-tables (the seats this browser holds, held.js: li data-testid="my-table" data-id
 *   data-status with data-testid="resume-link", "cancel-table", "forget-table");
 *   lobby-error (one line); tables-open / tables-finished (li data-testid="table-row"
 *   data-id data-status; inside: data-testid="watch-link", "totals", "replay-link", "record-link").
 *
 * The page's state is one object, L; its phase, L.phase, changes only in transition(event),
 * along these moves (an event the phase has no move for is ignored):
 *
 *   phase     the page                                        event -> next phase
 *   form      the form to create a table                      create -> creating, learn -> learning
 *   creating  the new table is asked for (the button waits)   created -> created, failed -> form
 *   created   its invites and the spectators' link            new-table -> form
 *   learning  a "Learn to play" table is asked for; once      failed -> form
 *             made, the page opens its seat
 *
 * The lists of tables (open, finished, yours) are no phase: they refresh beside any phase.
 */
import { $, $as, as, el } from "./dom.js";
import { ratingText } from "./ratings_text.js";
import * as C from "./cards.js";
import { seats as Held } from "./held.js";
import { setupPlayNow } from "./playnow.js";
import { lang, t, tn } from "./i18n.js";

var FALLBACK = {
  bots: ["flatmc", "greedy", "ismcts", "learned", "random"],
  menus: {
    "My First Meal": ["maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "green_tea_ice_cream"],
    "Sushi Go!": ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"],
    "Party Sampler": ["temaki", "tempura", "dumpling", "tofu", "wasabi", "menu", "green_tea_ice_cream"],
    "Master Menu": ["temaki", "onigiri", "tofu", "sashimi", "spoon", "takeout_box", "fruit"],
    "Points Platter": ["uramaki", "onigiri", "dumpling", "edamame", "special_order", "tea", "green_tea_ice_cream"],
    "Cutthroat Combo": ["temaki", "eel", "tofu", "miso_soup", "spoon", "soy_sauce", "pudding"],
    "Big Banquet": ["maki", "tempura", "dumpling", "eel", "spoon", "chopsticks", "green_tea_ice_cream"],
    "Dinner for Two": ["uramaki", "onigiri", "tofu", "miso_soup", "menu", "special_order", "fruit"]
  },
  default_menu: "My First Meal",
  editions: { base: [2, 5], party: [2, 8] },
  timer: [5, 3600],
  /** @type {RuleOption[]} the rule options the form offers (none until the server lists them) */
  rule_options: []
};

/**
 * A rule option as GET /api/options lists it (the engine's RuleOption.to_json()).
 * @typedef {{name: string, edition: string, kind: string, default: any, label: string,
 *            choices?: Array<{value: string, words: string}>, min?: number, max?: number}} RuleOption
 */
var GROUPS = {
  roll: ["maki", "temaki", "uramaki"],
  appetizer: ["tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup"],
  special: ["chopsticks", "spoon", "menu", "takeout_box", "soy_sauce", "tea", "special_order", "wasabi"],
  dessert: ["pudding", "green_tea_ice_cream", "fruit"]
};
/** @type {Array<[string, number]>} the custom menu's slots: [group, index in the group] */
var SLOTS = [["roll", 0], ["appetizer", 0], ["appetizer", 1], ["appetizer", 2],
  ["special", 0], ["special", 1], ["dessert", 0]];
var CUSTOM_DEFAULT = { roll: ["maki"], appetizer: ["tempura", "sashimi", "dumpling"],
  special: ["chopsticks", "wasabi"], dessert: ["pudding"] };
var ITEM_ICON = { nigiri: "salmon", maki: "maki2", uramaki: "uramaki4", onigiri: "onigiri_triangle",
  chopsticks: "chopsticks1", spoon: "spoon4", menu: "menu7", takeout_box: "takeout_box10",
  fruit: "fruit_watermelon_orange" };

/** @typedef {"form" | "creating" | "created" | "learning"} Phase */

/** @type {Record<Phase, Record<string, Phase>>} each phase's events and where they lead */
var MOVES = {
  form: { create: "creating", learn: "learning" },
  creating: { created: "created", failed: "form" },
  created: { "new-table": "form" },
  learning: { failed: "form" }
};

var L = {
  /** @type {Phase} */
  phase: "form",     // changed by transition() only
  opts: FALLBACK,    // the server's options (GET /api/options), FALLBACK until they come
  created: null,     // the table made (POST /api/tables's answer), in phase created
  account: null      // the signed-in account's name (GET /api/account), null: a guest
};

/**
 * Move L.phase on `event` (see the table above); false, and no move, when its phase has none.
 * @param {string} event
 */
function transition(event) {
  var to = MOVES[L.phase][event];
  if (!to) return false;
  L.phase = to;
  return true;
}

function showError(text) {
  var e = $("lobby-error");
  e.textContent = text || "";
  e.hidden = !text;
}

function api(method, path, body) {
  var init = { method: method, headers: { "Accept": "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(path, init).then(function (r) {
    return r.text().then(function (text) {
      var data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      if (!r.ok) {
        var msg = data && typeof data.error === "string" ? data.error : "HTTP " + r.status;
        throw new Error(msg);
      }
      return data;
    });
  });
}

// ------------------------------------------------------------ form
function edition() {
  return as(document.querySelector('input[name="edition"]:checked'), HTMLInputElement).value;
}

function range() {
  var r = L.opts.editions && L.opts.editions[edition()];
  return Array.isArray(r) && r.length === 2 ? r : edition() === "party" ? [2, 8] : [2, 5];
}

function fillPlayers() {
  var sel = $as("players", HTMLSelectElement);
  var keep = Number(sel.value) || 4;
  var r = range();
  sel.textContent = "";
  for (var n = r[0]; n <= r[1]; n++) {
    var o = el("option", null, tn("{n} player", "{n} players", n));
    o.value = String(n);
    sel.appendChild(o);
  }
  sel.value = String(Math.max(r[0], Math.min(r[1], keep)));
}

function botChoices() {
  var bots = Array.isArray(L.opts.bots) ? L.opts.bots.slice() : FALLBACK.bots.slice();
  var i = bots.indexOf("greedy");
  if (i > 0) { bots.splice(i, 1); bots.unshift("greedy"); }
  return bots;
}

function fillSeats() {
  var box = $("seat-rows");
  var n = Number($as("players", HTMLSelectElement).value);
  var old = Array.prototype.map.call(box.querySelectorAll("select"), function (s) { return s.value; });
  box.textContent = "";
  var bots = botChoices();
  for (var i = 0; i < n; i++) {
    var row = el("div", "seat-row");
    var id = "seat-kind-" + i;
    var lab = el("label", null, t("Seat {n}", { n: i + 1 }));
    lab.htmlFor = id;
    var sel = el("select");
    sel.id = id;
    sel.setAttribute("data-testid", "seat-kind");
    sel.setAttribute("data-seat", String(i));
    var h = el("option", null, t("Human (invite link)"));
    h.value = "human";
    sel.appendChild(h);
    bots.forEach(function (b) {
      var o = el("option", null, t("Bot: {name}", { name: b }));
      o.value = "bot:" + b;
      sel.appendChild(o);
    });
    sel.value = old[i] || (i === 0 ? "human" : "bot:" + bots[0]);
    row.appendChild(lab);
    row.appendChild(sel);
    box.appendChild(row);
  }
}

function fillMenus() {
  var sel = $as("menu", HTMLSelectElement);
  sel.textContent = "";
  var menus = L.opts.menus || FALLBACK.menus;
  Object.keys(menus).forEach(function (name) {
    var o = el("option", null, t(name));  // an official menu's name (the engine marks them)
    o.value = name;
    sel.appendChild(o);
  });
  var c = el("option", null, t("Custom menu…"));
  c.value = "custom";
  sel.appendChild(c);
  sel.value = menus[L.opts.default_menu] ? L.opts.default_menu : Object.keys(menus)[0];
  var slots = $("custom-slots");
  slots.textContent = "";
  SLOTS.forEach(function (slot, k) {
    var group = slot[0], idx = slot[1];
    var f = el("div", "field");
    var id = "custom-" + k;
    var lab = el("label", null, slotLabel(group, idx));
    lab.htmlFor = id;
    var s = el("select");
    s.id = id;
    s.setAttribute("data-testid", "custom-item");
    s.setAttribute("data-group", group);
    GROUPS[group].forEach(function (item) {
      var o = el("option", null, C.itemLabel(item));
      o.value = item;
      s.appendChild(o);
    });
    s.value = CUSTOM_DEFAULT[group][idx];
    s.addEventListener("change", preview);
    f.appendChild(lab);
    f.appendChild(s);
    slots.appendChild(f);
  });
}

/**
 * A custom menu's slot as its select's label: "Roll", "Appetizer 1"..., "Special 2", "Dessert".
 * @param {string} group @param {number} idx  its index in the group
 */
function slotLabel(group, idx) {
  // TRANSLATORS: the slots of a custom menu, by kind of dish (Sushi Go Party!'s menu groups)
  if (group === "roll") return t("Roll");
  if (group === "appetizer") return t("Appetizer {n}", { n: idx + 1 });
  if (group === "special") return t("Special {n}", { n: idx + 1 });
  return t("Dessert");
}

/** The menu chosen: an official one's name, or a custom menu's items. */
function chosenMenu() {
  var v = $as("menu", HTMLSelectElement).value;
  return v !== "custom" ? v : customItems();
}

/** The custom menu's items, nigiri first. */
function customItems() {
  var items = ["nigiri"];
  document.querySelectorAll('[data-testid="custom-item"]').forEach(function (s) {
    items.push(as(s, HTMLSelectElement).value);
  });
  return items;
}

function preview() {
  var box = $("menu-preview");
  box.textContent = "";
  var v = $as("menu", HTMLSelectElement).value;
  var menus = L.opts.menus || FALLBACK.menus;
  var items = v === "custom" ? customItems() : ["nigiri"].concat(menus[v] || []);
  items.forEach(function (item) {
    var card = C.element(ITEM_ICON[item] || item, { mini: true });
    card.title = C.itemLabel(item);
    var wrap = el("div", "group");
    wrap.appendChild(card);
    wrap.appendChild(el("span", "group-label", C.itemLabel(item)));
    box.appendChild(wrap);
  });
}

function syncEdition() {
  var party = edition() === "party";
  $("party-options").hidden = !party;
  $("base-options").hidden = party;
  fillPlayers();
  fillSeats();
  preview();
}

function body() {
  var n = Number($as("players", HTMLSelectElement).value);
  var seats = Array.prototype.map.call(document.querySelectorAll('[data-testid="seat-kind"]'), function (s) { return s.value; });
  var b = { edition: edition(), players: n, seats: seats.slice(0, n) };
  if (b.edition === "party") b.menu = chosenMenu();
  var options = chosenOptions(b.edition);
  if (Object.keys(options).length) b.options = options;
  var timer = $as("timer", HTMLInputElement).value.trim();
  if (timer) b.timer = Number(timer);
  var hours = $as("turn-hours", HTMLInputElement).value.trim();
  if (hours) b.turn_hours = Number(hours);
  var seed = $as("seed", HTMLInputElement).value.trim();
  if (seed) b.seed = Number(seed);
  if ($as("opt-private", HTMLInputElement).checked) b.private = true;
  if (!$as("opt-chat", HTMLInputElement).checked) b.chat = false;
  if ($as("opt-chat_spectators", HTMLInputElement).checked) b.chat_spectators = true;
  if ($as("opt-hints", HTMLInputElement).checked) b.hints = true;
  if ($as("opt-rated", HTMLInputElement).checked) b.rated = true;
  return b;
}

/**
 * Draw every rule option the server lists, each edition's in its own part of the form
 * (data-testid "opt-NAME"; the engine's words).
 * @param {RuleOption[]} list
 */
function fillRuleOptions(list) {
  ["base", "party"].forEach(function (edition) {
    var box = /** @type {HTMLElement} */ (document.querySelector('[data-rule-options="' + edition + '"]'));
    box.textContent = "";
    list.filter(function (o) { return o.edition === edition; }).forEach(function (o) {
      box.appendChild(ruleOptionField(o));
    });
  });
}

/** @param {RuleOption} o */
function ruleOptionField(o) {
  if (o.kind === "switch") {
    var label = el("label", "inline");
    var box = el("input");
    box.type = "checkbox";
    box.id = o.name;
    box.checked = o.default === true;
    box.setAttribute("data-testid", "opt-" + o.name);
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + t(o.label)));
    return label;
  }
  var field = el("div", "field");
  var name = el("label", null, t(o.label));
  name.setAttribute("for", o.name);
  field.appendChild(name);
  var input;
  if (o.kind === "choice") {
    input = el("select");
    (o.choices || []).forEach(function (c) {
      var opt = el("option", null, t(c.words));
      opt.value = c.value;
      input.appendChild(opt);
    });
  } else {
    input = el("input");
    input.type = "number";
    input.min = String(o.min);
    input.max = String(o.max);
  }
  input.id = o.name;
  input.value = String(o.default);
  input.setAttribute("data-testid", "opt-" + o.name);
  field.appendChild(input);
  return field;
}

/**
 * The rule options of `edition` the form changed from their defaults, by name.
 * @param {string} edition
 * @returns {Record<string, boolean | number | string>}
 */
function chosenOptions(edition) {
  /** @type {Record<string, boolean | number | string>} */
  var out = {};
  L.opts.rule_options.forEach(function (o) {
    var input = /** @type {HTMLInputElement | null} */ (document.getElementById(o.name));
    if (o.edition !== edition || !input) return;
    var value = o.kind === "switch" ? input.checked : o.kind === "number" ? Number(input.value) : input.value;
    if (value !== o.default && !(o.kind === "number" && !input.value.trim())) out[o.name] = value;
  });
  return out;
}

function validate(b) {
  if (b.seats.indexOf("human") < 0) return t("At least one seat must be a human.");
  var tr = L.opts.timer;
  if (b.timer !== undefined && (!Number.isInteger(b.timer) || b.timer < tr[0] || b.timer > tr[1])) {
    // (the bounds as the form takes them: 3600, not "3,600")
    return t("The timer is a whole number of seconds from {low} to {high}.", { low: String(tr[0]), high: String(tr[1]) });
  }
  if (b.turn_hours !== undefined && (!Number.isInteger(b.turn_hours) || b.turn_hours < 1 || b.turn_hours > 72)) {
    return t("A turn-based table gives each move a whole number of hours from 1 to 72.");
  }
  if (b.turn_hours !== undefined && b.timer !== undefined) return t("Choose seconds per move or hours per move, not both.");
  if (b.seed !== undefined && (!Number.isInteger(b.seed) || b.seed < 0)) return t("The seed is a whole number ≥ 0.");
  if (Array.isArray(b.menu)) {
    var seen = {};
    for (var i = 0; i < b.menu.length; i++) {
      if (seen[b.menu[i]]) return t("The custom menu lists {item} twice.", { item: C.itemLabel(b.menu[i]) });
      seen[b.menu[i]] = true;
    }
  }
  return "";
}

function absolute(path) {
  return location.origin + path;
}

function copyText(text, button) {
  function done(ok) {
    var old = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", old);
    button.textContent = ok ? t("Copied") : t("Select and copy");
    setTimeout(function () { button.textContent = old; }, 1500);
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, function () { fallback(); });
  } else {
    fallback();
  }
  function fallback() {
    var input = button.parentNode.querySelector("input");
    var ok = false;
    if (input) {
      input.focus();
      input.select();
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    }
    done(ok);
  }
}

function inviteRow(label, url, testid, seat) {
  var li = el("li");
  li.setAttribute("data-testid", testid);
  if (seat !== null) li.setAttribute("data-seat", String(seat));
  li.appendChild(el("span", "who", label));
  var input = el("input");
  input.readOnly = true;
  input.value = url;
  // TRANSLATORS: a text field holding an invitation link; {who}: "Seat 2" or "Spectators"
  input.setAttribute("aria-label", t("{who} link", { who: label }));
  input.setAttribute("data-testid", testid === "invite" ? "invite-url" : "spectate-url");
  input.addEventListener("focus", function () { input.select(); });
  li.appendChild(input);
  var copy = el("button", "copy", t("Copy"));
  copy.type = "button";
  copy.setAttribute("data-testid", "copy");
  copy.addEventListener("click", function () { copyText(url, copy); });
  li.appendChild(copy);
  var open = el("a", null, t("Open"));
  open.href = url;
  open.setAttribute("data-testid", testid === "invite" ? "invite-link" : "spectate-link");
  li.appendChild(open);
  return li;
}

function showCreated(res) {
  L.created = res;
  if (res.creator) Held.remember(res.id, { creator: res.creator });
  myTables();
  var list = $("invites");
  list.textContent = "";
  /** @type {{seat: number, invite: string} | null} */
  var firstHuman = null;
  (res.seats || []).forEach(function (s) {
    if (s.kind === "human" && typeof s.invite === "string") {
      if (firstHuman === null) firstHuman = s;
      list.appendChild(inviteRow(t("Seat {n}", { n: s.seat + 1 }), absolute(s.invite), "invite", s.seat));
    } else {
      var li = el("li");
      li.setAttribute("data-testid", "bot-seat");
      li.appendChild(el("span", "who", t("Seat {n}", { n: s.seat + 1 })));
      li.appendChild(el("span", null, botText(s)));
      list.appendChild(li);
    }
  });
  list.appendChild(inviteRow(t("Spectators"), absolute(res.spectate || "/t/" + res.id), "spectate", null));
  var play = $("play-button");
  if (firstHuman) {
    play.hidden = false;
    play.textContent = t("Play as seat {n}", { n: firstHuman.seat + 1 });
    play.onclick = function () { location.href = absolute(firstHuman.invite); };
  } else {
    play.hidden = true;
  }
  $("create-form").hidden = true;
  $("new-table-intro").hidden = true;
  $("created").hidden = false;
  play.focus();
}

$("create-form").addEventListener("submit", function (ev) {
  ev.preventDefault();
  var b = body();
  var problem = validate(b);
  if (problem) { showError(problem); return; }
  if (!transition("create")) return;
  showError("");
  var btn = $as("create-submit", HTMLButtonElement);
  btn.disabled = true;
  api("POST", "/api/tables", b).then(function (res) {
    transition("created");
    showCreated(res);
    refresh();
  }, function (err) {
    transition("failed");
    showError(err.message);
  }).then(function () { btn.disabled = false; });
});
// Learn to play: this edition and menu, you and two greedy bots, the page teaches as you go.
$("learn-button").addEventListener("click", function () {
  if (!transition("learn")) return;
  var b = body();
  b.players = 3;
  b.seats = ["human", "bot:greedy", "bot:greedy"];
  b.learn = true;
  delete b.timer;
  delete b.turn_hours;
  var btn = $as("learn-button", HTMLButtonElement);
  btn.disabled = true;
  showError("");
  api("POST", "/api/tables", b).then(function (res) {
    var me = (res.seats || []).filter(function (x) { return x.kind === "human"; })[0];
    location.href = absolute(me.invite);
  }, function (err) {
    transition("failed");
    showError(err.message);
    btn.disabled = false;
  });
});
$("new-table").addEventListener("click", function () {
  transition("new-table");
  $("created").hidden = true;
  $("new-table-intro").hidden = false;
  $("create-form").hidden = false;
});
Array.prototype.forEach.call(document.querySelectorAll('input[name="edition"]'), function (r) {
  r.addEventListener("change", syncEdition);
});
$("players").addEventListener("change", fillSeats);
$("menu").addEventListener("change", function () {
  $("custom-menu").hidden = $as("menu", HTMLSelectElement).value !== "custom";
  preview();
});

// ------------------------------------------------------------ tables
function seatText(s) {
  if (s.kind === "bot") return botText(s);
  if (!s.name) return t("open seat");
  var who = (s.account_bot ? t("{name} (bot)", { name: String(s.name) }) : String(s.name)) + seatRating(s);
  return s.connected ? who : t("{name} (away)", { name: who });
}

// An account's rating beside its name (" (1532)", " (1500?)" while provisional); nothing for a guest.
function seatRating(s) {
  var r = s.rating;
  if (!s.account || !r || typeof r.rating !== "number") return "";
  return " (" + ratingText(r) + ")";
}

// A bot's one name (the server gives it), with its settings when it has any.
function botText(s) {
  var spec = String(s.bot || "bot");
  var name = s.name ? String(s.name) : t("{name} bot", { name: spec.split(":")[0] });
  return spec.indexOf(":") >= 0 ? name + " (" + spec + ")" : name;
}

function tableTitle(table) {
  var s = C.editionWords(table.edition).title;
  if (table.edition === "party" && table.menu) s += " · " + (Array.isArray(table.menu) ? t("custom menu") : t(String(table.menu)));
  return s + " · " + tn("{n} player", "{n} players", table.players);
}

function when(ts) {
  if (typeof ts !== "number") return "";
  try { return new Date(ts * 1000).toLocaleString(lang); } catch (e) { return ""; }
}

/**
 * A table row's tag (`kind`: its class and its test hook, KIND-tag), with a tooltip.
 * @param {HTMLElement} head @param {string} kind @param {string} text @param {string} title
 */
function pill(head, kind, text, title) {
  var tag = el("span", "pill " + kind, text);
  tag.setAttribute("data-testid", kind + "-tag");
  if (title) tag.title = title;
  head.appendChild(tag);
}

/**
 * A table's status ("waiting", "playing", "finished", "cancelled", "abandoned") as its pill says it.
 * @param {string} status
 */
function statusWord(status) {
  // TRANSLATORS: a table's status, shown in a small tag
  if (status === "waiting") return t("waiting");
  if (status === "playing") return t("playing");
  if (status === "finished") return t("finished");
  if (status === "cancelled") return t("cancelled");
  if (status === "abandoned") return t("abandoned");
  return status;
}

function tableRow(table) {
  var li = el("li");
  li.setAttribute("data-testid", "table-row");
  li.setAttribute("data-id", String(table.id));
  li.setAttribute("data-status", String(table.status));
  var head = el("div", "t-head");
  head.appendChild(el("strong", null, tableTitle(table)));
  head.appendChild(el("span", "pill " + String(table.status), statusWord(String(table.status))));
  var w = when(table.created);
  if (w) head.appendChild(el("span", "small-label", w));
  if (table.turn_based && typeof table.timer === "number") {
    pill(head, "turn-based", t("turn-based · {n} h a move", { n: Math.round(table.timer / 3600) }), "");
  }
  if (table.rated) pill(head, "rated", t("rated"), t("The game changes its players' ratings"));
  if (table.hints) pill(head, "hints", t("hints"), t("Each player sees an estimate of their choices"));
  if (table.seeded) pill(head, "seeded", t("seeded deal"), t("Its creator chose the seed, so could know every hand"));
  if (table.watching) {
    var watching = el("span", "small-label", tn("{n} watching", "{n} watching", table.watching));
    watching.setAttribute("data-testid", "watching");
    head.appendChild(watching);
  }
  li.appendChild(head);
  var seats = Array.isArray(table.seats) ? table.seats : [];
  if (table.status === "finished" && Array.isArray(table.totals)) {
    var winners = Array.isArray(table.winners) ? table.winners : [];
    var parts = seats.map(function (s, i) {
      var name = s.kind === "bot" ? botText(s) : String(s.name || t("Seat {n}", { n: i + 1 })) + seatRating(s);
      return (winners.indexOf(i) >= 0 ? "★ " : "") + name + " " + table.totals[i];
    });
    var tot = el("div", "t-seats", parts.join(" · "));
    tot.setAttribute("data-testid", "totals");
    li.appendChild(tot);
  } else {
    var joined = seats.filter(function (s) { return s.kind === "bot" || s.name; }).length;
    var line = el("div", "t-seats", t("{joined}/{seats} seated: {who}",
      { joined: joined, seats: seats.length, who: seats.map(seatText).join(", ") }));
    li.appendChild(line);
  }
  var links = el("div", "t-links");
  var watch = el("a", null, table.status === "finished" ? t("View final table") : t("Watch"));
  watch.href = "/t/" + encodeURIComponent(String(table.id));
  watch.setAttribute("data-testid", "watch-link");
  links.appendChild(watch);
  if (table.status === "finished") {
    var rp = el("a", null, t("Replay"));
    rp.href = "/t/" + encodeURIComponent(String(table.id)) + "/replay";
    rp.setAttribute("data-testid", "replay-link");
    links.appendChild(rp);
  }
  if (table.status === "finished" || table.status === "abandoned") {
    var rec = el("a", null, table.status === "finished" ? t("Download game record") : t("Download the partial record"));
    rec.href = "/api/tables/" + encodeURIComponent(String(table.id)) + "/record";
    rec.setAttribute("download", "sushigo-" + String(table.id) + ".json");
    rec.setAttribute("data-testid", "record-link");
    links.appendChild(rec);
  }
  li.appendChild(links);
  return li;
}

function refresh() {
  return api("GET", "/api/tables").then(function (data) {
    var tables = data && Array.isArray(data.tables) ? data.tables : [];
    var open = $("tables-open"), fin = $("tables-finished");
    open.textContent = "";
    fin.textContent = "";
    var nOpen = 0, nFin = 0;
    tables.forEach(function (table) {
      if (!table || typeof table !== "object") return;
      if (table.status !== "waiting" && table.status !== "playing") { fin.appendChild(tableRow(table)); nFin++; }
      else { open.appendChild(tableRow(table)); nOpen++; }
    });
    $("tables-open-empty").hidden = nOpen > 0;
    $("tables-finished-empty").hidden = nFin > 0;
  }, function (err) {
    showError(t("Could not list tables: {error}", { error: err.message }));
  });
}

/** "Your tables": what this browser holds (held.js), each with its summary from the server. */
function myTables() {
  var held = Held.list().slice(0, 20);
  var list = $("my-tables");
  $("my-tables-panel").hidden = !held.length;
  if (!held.length) { list.textContent = ""; return Promise.resolve(); }
  return Promise.all(held.map(function (p) {
    return api("GET", "/api/tables/" + encodeURIComponent(p[0])).then(function (table) { return [p, table]; },
      function () { return [p, null]; });
  })).then(function (rows) {
    list.textContent = "";
    rows.forEach(function (row) {
      var id = row[0][0], entry = row[0][1], table = row[1];
      if (!table) { Held.forget(id); return; }  // no such table any more
      var li = tableRow(table);
      li.setAttribute("data-testid", "my-table");
      var links = li.querySelector(".t-links");
      if (entry.token) {
        var resume = el("a", "primary-link", table.status === "finished" ? t("Open your seat") : t("Resume"));
        resume.href = "/t/" + encodeURIComponent(id) + "#seat=" + encodeURIComponent(entry.token);
        resume.setAttribute("data-testid", "resume-link");
        links.insertBefore(resume, links.firstChild);
      }
      if (entry.creator && table.status === "waiting") {
        var cancel = el("button", "link-button", t("Cancel table"));
        cancel.type = "button";
        cancel.setAttribute("data-testid", "cancel-table");
        cancel.addEventListener("click", function () {
          cancel.disabled = true;
          api("POST", "/api/tables/" + encodeURIComponent(id) + "/cancel", { creator: entry.creator })
            .then(function () { myTables(); refresh(); }, function (err) { showError(err.message); cancel.disabled = false; });
        });
        links.appendChild(cancel);
      }
      var forget = el("button", "link-button", t("Forget"));
      forget.type = "button";
      forget.setAttribute("data-testid", "forget-table");
      forget.title = t("Remove from this list (the seat's link still works)");
      forget.addEventListener("click", function () { Held.forget(id); myTables(); });
      links.appendChild(forget);
      list.appendChild(li);
    });
    $("my-tables-panel").hidden = !list.childNodes.length;
  }).then(accountTables);
}

/** The signed-in account's seats at open tables this browser does not hold: Resume opens them with "#as=N". */
function accountTables() {
  if (!L.account) return Promise.resolve();
  return api("GET", "/api/account/tables").then(function (data) {
    var list = $("my-tables");
    list.querySelectorAll('[data-testid="account-table"]').forEach(function (old) { old.remove(); });  // drawn anew
    var held = {};
    Held.list().forEach(function (p) { held[p[0]] = true; });
    (data && Array.isArray(data.tables) ? data.tables : []).forEach(function (entry) {
      var table = entry.table;
      if (!table || held[table.id] || !Array.isArray(entry.seats) || !entry.seats.length) return;
      var li = tableRow(table);
      li.setAttribute("data-testid", "account-table");
      if (Array.isArray(entry.your_turn) && entry.your_turn.length) {  // tables waiting on you first
        var turn = el("span", "pill waiting", t("your turn"));
        turn.setAttribute("data-testid", "your-turn");
        li.querySelector(".t-head").appendChild(turn);
        li.setAttribute("data-your-turn", "true");
      }
      var resume = el("a", "primary-link", t("Resume"));
      resume.href = "/t/" + encodeURIComponent(String(table.id)) + "#as=" + String(entry.seats[0]);
      resume.setAttribute("data-testid", "resume-link");
      var links = li.querySelector(".t-links");
      links.insertBefore(resume, links.firstChild);
      if (li.getAttribute("data-your-turn")) list.insertBefore(li, list.firstChild);
      else list.appendChild(li);
    });
    var waiting = list.querySelectorAll('[data-your-turn="true"]').length;
    $("waiting-on-you").textContent = waiting === 0 ? ""
      : tn("{n} table waits on your move.", "{n} tables wait on your move.", waiting);
    $("waiting-on-you").hidden = waiting === 0;
    $("my-tables-panel").hidden = !list.childNodes.length;
  }, function () { /* the browser's own tables still show */ });
}

function fillTimer() {
  $as("timer", HTMLInputElement).min = String(L.opts.timer[0]);
  $as("timer", HTMLInputElement).max = String(L.opts.timer[1]);
}

// ------------------------------------------------------------ start
fillTimer();
syncEdition();
fillMenus();
preview();
api("GET", "/api/account").then(function (a) {  // a guest keeps "Sign in"
  setupPlayNow(a && a.account ? a.account : null);
  if (a && a.account) {
    L.account = a.account.name;
    $("my-tables-hint").textContent = t("The seats this browser holds, and your account's at tables still open.");
    $("account-link").textContent = a.account.name;
    $("account-link").setAttribute("aria-label", t("Your account: {name}", { name: a.account.name }));
    accountTables();
  }
}, function () { setupPlayNow(null); /* the link still leads to the account page */ });

api("GET", "/api/options").then(function (o) {
  if (o && typeof o === "object") {
    L.opts = {
      bots: Array.isArray(o.bots) && o.bots.length ? o.bots : FALLBACK.bots,
      menus: o.menus && typeof o.menus === "object" ? o.menus : FALLBACK.menus,
      default_menu: typeof o.default_menu === "string" ? o.default_menu : FALLBACK.default_menu,
      editions: o.editions && typeof o.editions === "object" ? o.editions : FALLBACK.editions,
      timer: Array.isArray(o.timer) && o.timer.length === 2 ? o.timer : FALLBACK.timer,
      rule_options: Array.isArray(o.rule_options) ? o.rule_options : []
    };
    fillRuleOptions(L.opts.rule_options);
    fillTimer();
    fillPlayers();
    fillSeats();
    fillMenus();
    preview();
  }
}, function (err) { showError(t("Could not load the options: {error}", { error: err.message })); });
refresh();
myTables();
setInterval(function () { if (!document.hidden) refresh(); }, 5000);
