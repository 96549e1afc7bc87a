/**
 * The pages' words in the reader's language.  The server sends each page translated, its
 * `<html lang>` set (the `lang` cookie of the switch, else the browser's languages); this module
 * loads that language's catalog (`/i18n/{lang}.json`, made from the same gettext catalogs as
 * the server's and the terminal's: sushigo.i18n) and renders with it:
 *
 *   t("Sit down")                         a message (its id is the English text)
 *   t("Round {round}", {round: 2})        with its {fields} filled (numbers in the language's digits)
 *   tn("{n} card", "{n} cards", n)        a message with a plural form, chosen for n
 *   say(line.msg, names)                  an engine message (a story line, a figure, a dish): the same
 *                                         rendering as sushigo.engine.messages.render, never re-worded here
 *
 * Every `[data-language]` select becomes the language switch: it remembers the choice in the
 * `lang` cookie (a year) and reloads the page in it.
 */

const LANG = document.documentElement.lang || "en";
const ENGLISH = { lang: "en", plurals: 2, messages: {}, languages: { en: "English" } };

async function load() {
  try {
    const answer = await fetch("/i18n/" + encodeURIComponent(LANG) + ".json");
    if (answer.ok) return await answer.json();
  } catch (e) { /* offline: the ids are English */ }
  return ENGLISH;
}

const CATALOG = await load();
const NUMBERS = new Intl.NumberFormat(CATALOG.lang);
const PLURALS = new Intl.PluralRules(CATALOG.lang);

/** The language the page speaks (a code: "en", "fr", ...). */
export const lang = CATALOG.lang;

/** `n` as the language writes numbers. */
export function number(n) {
  return typeof n === "number" && Number.isFinite(n) ? NUMBERS.format(n) : String(n);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, function (whole, name) {
    if (!(name in params)) return whole;
    var v = params[name];
    return typeof v === "number" ? number(v) : String(v);
  });
}

// The form for n: gettext's order (one, then the others) as the language's plural rules choose
// (sushigo.i18n keeps each catalog's Plural-Forms equal to these rules; a test checks it).
function form(forms, n) {
  if (CATALOG.plurals === 1) return forms[0];
  return forms[PLURALS.select(n) === "one" ? 0 : Math.min(1, forms.length - 1)];
}

/** Message `id` in the page's language, its `{fields}` filled from `params`. */
export function t(id, params) {
  var found = CATALOG.messages[id];
  return fill(typeof found === "string" ? found : id, params);
}

/** A message with a plural form: `one`/`many` are the English forms; `n` is also the field {n}. */
export function tn(one, many, n, params) {
  var found = CATALOG.messages[one];
  var text = Array.isArray(found) ? form(found, n) : (n === 1 ? one : many);
  return fill(text, Object.assign({ n: n }, params || {}));
}

function join(words, listing) {
  if (words.length <= 1) return words.join("");
  var out = listing ? words[words.length - 1]
    : t("{first} and {last}", { first: words[words.length - 2], last: words[words.length - 1] });
  var rest = words.slice(0, listing ? -1 : -2);
  for (var i = rest.length - 1; i >= 0; i--) out = t("{first}, {rest}", { first: rest[i], rest: out });
  return out;
}

/**
 * `o[key]`, English words the server sent (an action's `words`, an analysis's `played_words`), in
 * the page's language when their message came beside them (`o[key + "_msg"]`).
 * @param {any} o
 * @param {string} key
 * @returns {string}
 */
export function wordsOf(o, key) {
  var m = o ? o[key + "_msg"] : null;
  return m ? say(m) : o && o[key] !== undefined && o[key] !== null ? String(o[key]) : "";
}

/**
 * An engine message (its JSON: sushigo.engine.messages.as_json) in the page's language, seats as
 * `names` (without names, `{n}`).
 */
export function say(m, names) {
  if (m === null || m === undefined) return "";
  if (typeof m === "number") return number(m);
  if (typeof m === "string") return m;
  if ("id" in m) {
    var fields = {};
    Object.keys(m.params || {}).forEach(function (k) { fields[k] = say(m.params[k], names); });
    var found = CATALOG.messages[m.id];
    var text;
    if (m.plural) {
      var n = m.params.n;
      text = Array.isArray(found) ? form(found, n) : (n === 1 ? m.id : m.plural);
    } else {
      text = typeof found === "string" ? found : m.id;
    }
    return text.replace(/\{(\w+)\}/g, function (whole, k) { return k in fields ? fields[k] : whole; });
  }
  if ("seat" in m) return names && names[m.seat] !== undefined ? names[m.seat] : "{" + m.seat + "}";
  if ("label" in m) return t(m.label);
  if ("words" in m) return join(m.words.map(function (w) { return say(w, names); }), !!m.listing);
  if ("sentence" in m) {
    var said = say(m.sentence, names);
    return t("{sentence}.").replace("{sentence}", said.charAt(0).toUpperCase() + said.slice(1));
  }
  return "";
}

/** Turn `select` into the language switch (every page's `[data-language]` is one). */
export function languageSwitch(select) {
  if (select.options.length) return;
  Object.keys(CATALOG.languages).forEach(function (code) {
    var option = document.createElement("option");
    option.value = code;
    option.textContent = CATALOG.languages[code];
    option.lang = code;
    if (code === CATALOG.lang) option.selected = true;
    select.appendChild(option);
  });
  select.addEventListener("change", function () {
    document.cookie = "lang=" + encodeURIComponent(select.value) + "; path=/; max-age=31536000; SameSite=Lax";
    location.reload();
  });
}

document.querySelectorAll("select[data-language]").forEach(languageSwitch);
