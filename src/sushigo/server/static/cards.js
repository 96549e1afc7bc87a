// @ts-check
/* Sushi Go card artwork: our own simple SVG drawings, one per card type.
 *
 * An ES module (import * as Cards from "./cards.js"):
 *   info(name)      -> {name, item, label, colour, number, hint}
 *   art(name)       -> an <svg> element (decorative, aria-hidden)
 *   element(name, {tag, mini}) -> a card element (a <button> when tag is "button")
 *   label(text)     -> a readable label for a card or a collection text
 *                      ("special_order>salmon", "face_down", "chopsticks2", ...)
 *   caption(text)   -> the caption under a small card of a collection
 *   setEdition(name) which edition's scoring lines the tooltips give
 *
 * Names are the record names of the base game (tempura ... pudding) and of
 * Sushi Go Party! (src/sushigo/engine/party/cards.py `name_in_records`).  The SVG
 * markup below is built only from the constants in this file; names coming
 * from the server are looked up in these tables and are only ever put into
 * the page as text.  Every word and figure of the rules comes from the engine
 * (words.js: sushigo.engine.guide.card_words).
 */
import { WORDS } from "./words.js";
import { say, t, tn } from "./i18n.js";

var NS = "http://www.w3.org/2000/svg";

// Background colour per menu item (a card's colour is its item's).
export var COLOURS = {
  nigiri: "#f2c14e", maki: "#e0524a", temaki: "#3f9d6b", uramaki: "#e98bb8",
  tempura: "#9a6ad0", sashimi: "#a6cf3f", dumpling: "#5b8de0", eel: "#9c5b34",
  tofu: "#c8c27a", onigiri: "#8fa3ad", edamame: "#58b368", miso_soup: "#e38b3b",
  chopsticks: "#4fc0c0", spoon: "#8797a6", menu: "#5562c4", takeout_box: "#bf9464",
  soy_sauce: "#5d4037", tea: "#c4693f", special_order: "#d94f9c", wasabi: "#6bb33a",
  pudding: "#f49ab8", green_tea_ice_cream: "#86c27a", fruit: "#ff9447",
  face_down: "#455a64", unknown: "#9e9e9e"
};

// ------------------------------------------------------------ drawings
var RICE = '<rect x="12" y="34" width="40" height="18" rx="9" fill="#fffdf5" stroke="#cfc5aa" stroke-width="1.5"/>';

function roll(cx, cy, r, inside) {
  // a maki roll seen from the end: nori ring, rice, filling
  if (inside) { // uramaki: rice outside, sesame
    return '<circle cx="' + cx + '" cy="' + cy + '" r="' + r + '" fill="#fffdf5" stroke="#b9ae92" stroke-width="1.5"/>' +
      '<circle cx="' + cx + '" cy="' + cy + '" r="' + (r * 0.55) + '" fill="#1f3b2c"/>' +
      '<circle cx="' + cx + '" cy="' + cy + '" r="' + (r * 0.32) + '" fill="#f08a5d"/>' +
      '<circle cx="' + (cx - r * 0.72) + '" cy="' + (cy - r * 0.2) + '" r="1.3" fill="#3a3a3a"/>' +
      '<circle cx="' + (cx + r * 0.7) + '" cy="' + (cy + r * 0.3) + '" r="1.3" fill="#3a3a3a"/>' +
      '<circle cx="' + (cx + r * 0.1) + '" cy="' + (cy - r * 0.78) + '" r="1.3" fill="#3a3a3a"/>';
  }
  return '<circle cx="' + cx + '" cy="' + cy + '" r="' + r + '" fill="#1f3b2c"/>' +
    '<circle cx="' + cx + '" cy="' + cy + '" r="' + (r * 0.78) + '" fill="#fffdf5"/>' +
    '<circle cx="' + cx + '" cy="' + cy + '" r="' + (r * 0.34) + '" fill="#e94e4e"/>' +
    '<circle cx="' + (cx + r * 0.22) + '" cy="' + (cy + r * 0.18) + '" r="' + (r * 0.14) + '" fill="#5cb85c"/>';
}

function rolls(n, inside) {
  if (n === 1) return roll(32, 32, 18, inside);
  if (n === 2) return roll(20, 32, 12, inside) + roll(44, 32, 12, inside);
  if (n === 3) return roll(32, 20, 11, inside) + roll(19, 42, 11, inside) + roll(45, 42, 11, inside);
  if (n === 4) return roll(20, 20, 10, inside) + roll(44, 20, 10, inside) + roll(20, 44, 10, inside) + roll(44, 44, 10, inside);
  return roll(18, 18, 9, inside) + roll(46, 18, 9, inside) + roll(32, 32, 9, inside) +
    roll(18, 46, 9, inside) + roll(46, 46, 9, inside);
}

var WATERMELON = '<path d="M4 12 A12 12 0 0 0 28 12 Z" fill="#e84a5f" stroke="#2e7d32" stroke-width="3"/>' +
  '<circle cx="11" cy="15" r="1.3" fill="#222"/><circle cx="16" cy="18" r="1.3" fill="#222"/><circle cx="21" cy="15" r="1.3" fill="#222"/>';
var PINEAPPLE = '<path d="M16 2 L12 10 L16 8 L20 10 Z" fill="#43a047"/>' +
  '<ellipse cx="16" cy="19" rx="8" ry="10" fill="#fbc02d" stroke="#b07d00" stroke-width="1.5"/>' +
  '<path d="M10 14 L22 26 M22 14 L10 26 M9 20 L16 13 M23 20 L16 13" stroke="#b07d00" stroke-width="1"/>';
var ORANGE = '<circle cx="16" cy="17" r="11" fill="#fb8c00" stroke="#c25e00" stroke-width="1.5"/>' +
  '<path d="M16 6 q4 -4 8 -2 q-3 4 -8 2" fill="#43a047"/><circle cx="12" cy="13" r="2" fill="#ffb74d"/>';
var FRUIT_ICON = { watermelon: WATERMELON, pineapple: PINEAPPLE, orange: ORANGE };

function twoFruits(a, b) {
  return '<g transform="translate(2 16)">' + FRUIT_ICON[a] + '</g>' +
    '<g transform="translate(32 16)">' + FRUIT_ICON[b] + '</g>';
}

function onigiri(shape) {
  var body;
  if (shape === "circle") body = '<circle cx="32" cy="32" r="20" fill="#fffdf5" stroke="#b9ae92" stroke-width="2"/>';
  else if (shape === "triangle") body = '<path d="M32 8 L56 52 L8 52 Z" fill="#fffdf5" stroke="#b9ae92" stroke-width="2" stroke-linejoin="round"/>';
  else if (shape === "square") body = '<rect x="12" y="12" width="40" height="40" rx="4" fill="#fffdf5" stroke="#b9ae92" stroke-width="2"/>';
  else body = '<rect x="6" y="18" width="52" height="30" rx="4" fill="#fffdf5" stroke="#b9ae92" stroke-width="2"/>';
  var nori = shape === "rectangle" ? '<rect x="26" y="18" width="12" height="30" fill="#1f3b2c"/>'
    : '<rect x="24" y="36" width="16" height="' + (shape === "circle" ? 16 : 16) + '" fill="#1f3b2c"/>';
  return body + nori;
}

function nigiri(topping, fill, stroke, extra) {
  return RICE + '<path d="M8 30 Q32 14 56 28 L54 38 Q32 30 10 40 Z" fill="' + fill +
    '" stroke="' + stroke + '" stroke-width="1.5"/>' + (extra || "") + topping;
}

var ART = {
  egg: RICE + '<rect x="9" y="22" width="46" height="16" rx="7" fill="#ffd84a" stroke="#d9a800" stroke-width="1.5"/>' +
    '<rect x="27" y="19" width="10" height="35" fill="#1f3b2c"/>',
  salmon: nigiri('<path d="M18 29 L22 35 M28 25 L31 32 M38 24 L40 31 M47 25 L48 31" stroke="#ffe3d6" stroke-width="2.5" stroke-linecap="round"/>',
    "#ff8a5c", "#d35f33"),
  squid: nigiri('<path d="M14 33 q4 -3 8 0 M25 29 q4 -3 8 0 M36 28 q4 -3 8 0 M46 30 q3 -2 6 0" stroke="#8d7fc0" fill="none" stroke-width="1.6"/>',
    "#f4f1ff", "#8d7fc0"),
  eel: nigiri('<rect x="27" y="19" width="10" height="35" fill="#1f3b2c"/><path d="M14 28 q6 -3 12 -1" stroke="#d9a07a" stroke-width="2" fill="none"/>',
    "#8a4b22", "#5a2c0f"),
  maki1: rolls(1), maki2: rolls(2), maki3: rolls(3),
  uramaki3: rolls(3, true), uramaki4: rolls(4, true), uramaki5: rolls(5, true),
  temaki: '<path d="M14 16 L52 22 L26 58 Z" fill="#1f3b2c" stroke="#0f2419" stroke-width="1.5" stroke-linejoin="round"/>' +
    '<ellipse cx="33" cy="18" rx="19" ry="7" transform="rotate(9 33 18)" fill="#fffdf5" stroke="#b9ae92"/>' +
    '<circle cx="26" cy="15" r="4" fill="#ff8a5c"/><circle cx="35" cy="14" r="3.5" fill="#7cc242"/><circle cx="43" cy="18" r="3.5" fill="#ffd84a"/>',
  tempura: '<path d="M12 46 Q10 20 36 16 Q50 14 52 24 Q40 24 30 32 Q22 40 24 52 Z" fill="#f2b33d" stroke="#b9780d" stroke-width="1.8"/>' +
    '<path d="M18 40 q3 -4 6 0 M20 30 q3 -4 6 0 M30 22 q3 -4 6 0 M40 19 q3 -4 6 0" stroke="#b9780d" stroke-width="1.4" fill="none"/>' +
    '<path d="M50 20 L60 10 L60 24 Z" fill="#ff6b4a" stroke="#c63d20" stroke-width="1.2"/>',
  sashimi: '<ellipse cx="32" cy="50" rx="26" ry="5" fill="#d9e2e8"/>' +
    '<g stroke="#c64a3e" stroke-width="1.5"><path d="M8 46 L16 18 L26 18 L20 46 Z" fill="#ff7a6b"/>' +
    '<path d="M22 46 L30 16 L40 16 L34 46 Z" fill="#ff8a7a"/><path d="M36 46 L44 18 L54 18 L48 46 Z" fill="#ff7a6b"/></g>' +
    '<path d="M14 30 L22 30 M28 28 L36 28 M42 30 L50 30" stroke="#ffe0da" stroke-width="2.5" stroke-linecap="round"/>',
  dumpling: '<path d="M6 44 Q32 4 58 44 Q32 52 6 44 Z" fill="#f6ead2" stroke="#a98a58" stroke-width="1.8"/>' +
    '<path d="M20 26 l4 7 M28 19 l2 8 M36 19 l-2 8 M44 26 l-4 7" stroke="#a98a58" stroke-width="2" stroke-linecap="round"/>',
  tofu: '<path d="M12 26 L30 17 L52 25 L34 34 Z" fill="#fffbe6" stroke="#a59d74" stroke-width="1.5" stroke-linejoin="round"/>' +
    '<path d="M12 26 L34 34 L34 55 L12 46 Z" fill="#efe7c8" stroke="#a59d74" stroke-width="1.5" stroke-linejoin="round"/>' +
    '<path d="M34 34 L52 25 L52 46 L34 55 Z" fill="#ddd3ab" stroke="#a59d74" stroke-width="1.5" stroke-linejoin="round"/>',
  onigiri_circle: onigiri("circle"), onigiri_triangle: onigiri("triangle"),
  onigiri_square: onigiri("square"), onigiri_rectangle: onigiri("rectangle"),
  edamame: '<path d="M8 40 Q12 18 32 24 Q50 30 58 16 Q58 42 34 46 Q18 50 8 40 Z" fill="#6fbf3b" stroke="#3d7a1a" stroke-width="1.8"/>' +
    '<circle cx="20" cy="36" r="5" fill="#9ad66a"/><circle cx="32" cy="36" r="5" fill="#9ad66a"/><circle cx="44" cy="32" r="5" fill="#9ad66a"/>',
  miso_soup: '<path d="M22 22 q-4 -6 0 -12 M32 22 q-4 -6 0 -12 M42 22 q-4 -6 0 -12" stroke="#9aa5ad" stroke-width="2" fill="none" stroke-linecap="round"/>' +
    '<path d="M8 30 L56 30 Q54 54 32 54 Q10 54 8 30 Z" fill="#b5402e" stroke="#7a2618" stroke-width="1.5"/>' +
    '<ellipse cx="32" cy="30" rx="24" ry="5" fill="#e9b36a"/><rect x="22" y="27" width="5" height="5" fill="#fffbe6"/>' +
    '<rect x="34" y="28" width="5" height="5" fill="#fffbe6"/><path d="M28 31 q6 -4 10 -1" stroke="#3d7a1a" stroke-width="2" fill="none"/>',
  wasabi: '<path d="M12 46 Q8 30 22 28 Q22 14 36 16 Q54 18 50 34 Q60 48 44 51 Q28 57 12 46 Z" fill="#7cc242" stroke="#4b8a1f" stroke-width="1.8"/>' +
    '<path d="M22 40 q8 -10 18 -4 M28 28 q6 -4 10 0" stroke="#b8e08a" stroke-width="2.2" fill="none" stroke-linecap="round"/>',
  chopsticks: '<g stroke-linecap="round"><line x1="12" y1="56" x2="44" y2="6" stroke="#8b5a2b" stroke-width="5"/>' +
    '<line x1="22" y1="58" x2="54" y2="10" stroke="#b0703a" stroke-width="5"/></g>' +
    '<rect x="16" y="40" width="24" height="6" rx="2" transform="rotate(-30 28 43)" fill="#c0392b"/>',
  spoon: '<ellipse cx="22" cy="20" rx="11" ry="14" transform="rotate(-40 22 20)" fill="#eef2f5" stroke="#66727d" stroke-width="2.2"/>' +
    '<line x1="29" y1="28" x2="54" y2="56" stroke="#66727d" stroke-width="6" stroke-linecap="round"/>',
  menu: '<rect x="12" y="8" width="40" height="48" rx="3" fill="#fdf6e3" stroke="#3f3a7a" stroke-width="2.2"/>' +
    '<rect x="12" y="8" width="40" height="10" fill="#3f3a7a"/>' +
    '<path d="M19 26 H45 M19 33 H41 M19 40 H45 M19 47 H37" stroke="#7a74b8" stroke-width="2.5" stroke-linecap="round"/>',
  takeout_box: '<path d="M24 20 Q32 4 40 20" fill="none" stroke="#c0392b" stroke-width="2.8"/>' +
    '<path d="M12 28 L52 28 L46 56 L18 56 Z" fill="#f7f3ec" stroke="#7d6b55" stroke-width="2" stroke-linejoin="round"/>' +
    '<path d="M12 28 L20 18 L44 18 L52 28 Z" fill="#e6dccb" stroke="#7d6b55" stroke-width="2" stroke-linejoin="round"/>' +
    '<circle cx="32" cy="42" r="6" fill="#c0392b"/>',
  soy_sauce: '<rect x="25" y="4" width="14" height="7" rx="2" fill="#d63b2f"/>' +
    '<path d="M27 11 h10 v6 q11 6 11 16 v20 q0 5 -5 5 h-22 q-5 0 -5 -5 v-20 q0 -10 11 -16 Z" fill="#2e1a10" stroke="#f3e9dc" stroke-width="1.5"/>' +
    '<rect x="20" y="34" width="24" height="12" rx="2" fill="#f5f1e6"/><circle cx="32" cy="40" r="3.5" fill="#d63b2f"/>',
  tea: '<path d="M24 20 q-4 -6 0 -12 M34 20 q-4 -6 0 -12" stroke="#f3e9dc" stroke-width="2" fill="none" stroke-linecap="round"/>' +
    '<path d="M12 24 h34 v14 q0 16 -17 16 q-17 0 -17 -16 Z" fill="#6b8f3a" stroke="#33481a" stroke-width="1.8"/>' +
    '<path d="M46 28 q10 0 10 9 q0 9 -10 9" fill="none" stroke="#33481a" stroke-width="3"/>' +
    '<path d="M18 34 h22" stroke="#a7c96f" stroke-width="2.5" stroke-linecap="round"/>',
  special_order: '<path d="M32 6 L39 24 L58 24 L43 36 L49 56 L32 44 L15 56 L21 36 L6 24 L25 24 Z" fill="#fff3b0" stroke="#7b1fa2" stroke-width="2" stroke-linejoin="round"/>' +
    '<text x="32" y="39" text-anchor="middle" font-size="16" font-weight="700" fill="#7b1fa2" font-family="sans-serif">?</text>',
  pudding: '<ellipse cx="32" cy="52" rx="24" ry="5" fill="#e3e8ec" stroke="#9aa6b0"/>' +
    '<path d="M15 50 L21 22 L43 22 L49 50 Z" fill="#f7d77a" stroke="#b48a1e" stroke-width="1.8" stroke-linejoin="round"/>' +
    '<path d="M21 22 Q32 14 43 22 L42 29 Q32 24 22 29 Z" fill="#7a4317"/>',
  green_tea_ice_cream: '<path d="M20 34 L32 60 L44 34 Z" fill="#d9a35b" stroke="#9c6b2a" stroke-width="1.6" stroke-linejoin="round"/>' +
    '<path d="M24 38 L40 38 M27 46 L37 46" stroke="#9c6b2a" stroke-width="1.2"/>' +
    '<circle cx="32" cy="24" r="15" fill="#a5d68f" stroke="#5c9a46" stroke-width="1.8"/>' +
    '<path d="M24 20 q4 -5 10 -4" stroke="#e2f5d8" stroke-width="2.5" fill="none" stroke-linecap="round"/>',
  fruit_watermelon2: twoFruits("watermelon", "watermelon"),
  fruit_pineapple2: twoFruits("pineapple", "pineapple"),
  fruit_orange2: twoFruits("orange", "orange"),
  fruit_watermelon_pineapple: twoFruits("watermelon", "pineapple"),
  fruit_watermelon_orange: twoFruits("watermelon", "orange"),
  fruit_pineapple_orange: twoFruits("pineapple", "orange"),
  face_down: '<rect x="10" y="6" width="44" height="52" rx="6" fill="#37474f" stroke="#cfd8dc" stroke-width="2"/>' +
    '<path d="M32 14 L46 32 L32 50 L18 32 Z" fill="#90a4ae"/><circle cx="32" cy="32" r="5" fill="#37474f"/>',
  unknown: '<rect x="10" y="6" width="44" height="52" rx="6" fill="#eeeeee" stroke="#757575" stroke-width="2"/>' +
    '<text x="32" y="40" text-anchor="middle" font-size="22" fill="#757575" font-family="sans-serif">?</text>'
};
ART.chopsticks1 = ART.chopsticks2 = ART.chopsticks3 = ART.chopsticks;
ART.spoon4 = ART.spoon5 = ART.spoon6 = ART.spoon;
ART.menu7 = ART.menu8 = ART.menu9 = ART.menu;
ART.takeout_box10 = ART.takeout_box11 = ART.takeout_box12 = ART.takeout_box;

// ------------------------------------------------------------ names
// Labels and scoring lines come from the engine (GET /static/words.js,
// sushigo.engine.guide.card_words), so the page says what the terminal says.
var LABELS = WORDS.labels;
var edition = "party";

/** Which edition's scoring lines the tooltips give ("base" or "party"). */
export function setEdition(name) { edition = name === "base" ? "base" : "party"; }

function itemOf(name) {
  if (has(WORDS.items, name)) return WORDS.items[name];
  return has(COLOURS, name) ? name : "unknown";
}

function numberOf(name) {
  var m = /^(chopsticks|spoon|menu|takeout_box)(\d+)$/.exec(name);
  if (m) return m[2];
  m = /^uramaki(\d)$/.exec(name);
  return m ? m[1] : "";
}

function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }

// An item's scoring line in the page's language (the engine's message; its English without one).
function hintOf(item) {
  var said = WORDS.hints_msg || { base: {}, party: {} };
  var m = (said[edition] || {})[item] || (said.party || {})[item];
  if (m) return say(m);
  return (WORDS.hints[edition] || {})[item] || (WORDS.hints.party || {})[item] || "";
}

export function info(name) {
  name = String(name);
  var item = itemOf(name);
  return {
    name: name,
    item: item,
    label: has(LABELS, name) ? t(LABELS[name]) : name,
    colour: COLOURS[item] || COLOURS.unknown,
    number: numberOf(name),
    hint: name === "face_down" ? tn("{n} point", "{n} points", WORDS.face_down_points)
      : hintOf(item)
  };
}

// TRANSLATORS: menu items (a custom menu's choices), as the cards call them
var ITEM_LABEL = { maki: t("Maki"), uramaki: t("Uramaki"), onigiri: t("Onigiri"), nigiri: t("Nigiri"),
  chopsticks: t("Chopsticks"), spoon: t("Spoon"), menu: t("Menu"), takeout_box: t("Takeout box"), fruit: t("Fruit") };

/**
 * A menu item's name ("miso_soup": "Miso soup"), in the page's language.
 * @param {string} item
 */
export function itemLabel(item) {
  return ITEM_LABEL[item] || label(item);
}

/** A readable label for a card or a collection text ("special_order>salmon"). */
export function label(text) {
  text = String(text);
  var so = /^special_order>(.+)$/.exec(text);
  if (so) {
    var what = so[1];
    var onW = /^(.+)\+wasabi$/.exec(what);
    if (onW) return t("Special order ({card} on wasabi)", { card: info(onW[1]).label });
    return t("Special order ({card})", { card: what === "face_down" ? t("a face-down card") : info(what).label });
  }
  return info(text).label;
}

export function art(name) {
  var key = has(ART, name) ? name : "unknown";
  var svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 64 64");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.innerHTML = ART[key]; // constant markup from this file only
  return svg;
}

/**
 * A card element.  `text` is a card name or a collection text
 * ("special_order>salmon", "face_down").  opts.tag: "button" or "div"
 * (default "div"); opts.mini: a small card (icon and short name).
 */
export function element(text, opts) {
  opts = opts || {};
  text = String(text);
  var copied = null;
  var base = text;
  var so = /^special_order>(.+)$/.exec(text);
  if (so) { base = "special_order"; copied = so[1].replace(/\+wasabi$/, ""); }
  var i = info(base);
  var el = document.createElement(opts.tag || "div");
  if (opts.tag === "button") el.type = "button";
  el.className = "card item-" + i.item + (opts.mini ? " mini" : "");
  el.style.setProperty("--card-colour", i.colour);
  el.setAttribute("data-card", text);
  var full = label(text);
  el.title = i.hint ? t("{card}: {hint}", { card: full, hint: i.hint }) : full;
  if (i.number) {
    var num = document.createElement("span");
    num.className = "card-num";
    num.textContent = i.number;
    el.appendChild(num);
  }
  var a = document.createElement("span");
  a.className = "card-art";
  a.appendChild(art(base));
  if (copied) {
    var small = document.createElement("span");
    small.className = "card-copy";
    small.appendChild(art(copied));
    a.appendChild(small);
  }
  el.appendChild(a);
  var n = document.createElement("span");
  // Words never break inside (a card name is a few words); a long word gets a smaller font instead.
  var word = longestWord(full);
  n.className = "card-name" + (full.length > 13 ? " long" : "") + (word >= 11 ? " word-11" : word >= 9 ? " word-9" : "");
  n.textContent = full;
  el.appendChild(n);
  return el;
}

/**
 * The width of a name's longest word, in narrow letters: a Japanese name is one word of wide
 * characters (each as wide as two letters), which only a smaller font keeps on its line.
 * @param {string} text
 */
function longestWord(text) {
  return Math.max.apply(null, text.split(/\s+/).map(function (w) {
    var width = 0;
    for (var i = 0; i < w.length; i++) width += /[\u3000-\u9fff\uff00-\uffef]/.test(w.charAt(i)) ? 2 : 1;
    return width;
  }));
}

// The caption under a small card of a collection: words never break inside either.
export function caption(text) {
  var n = document.createElement("span");
  var word = longestWord(String(text));
  n.className = "group-label" + (word >= 11 ? " word-11" : word >= 9 ? " word-9" : "");
  n.textContent = text;
  return n;
}

/**
 * What an edition is called ("base" or "party"): its `title` and its score sheet's
 * tie-break row (`tiebreak`), the engine's words in the page's language.
 * @param {string} name
 * @returns {{title: string, tiebreak: string}}
 */
export function editionWords(name) {
  var words = WORDS.editions[name] || WORDS.editions.base;
  return { title: t(words.title), tiebreak: t(words.tiebreak) };  // the engine's ids (sushigo.engine.editions)
}
