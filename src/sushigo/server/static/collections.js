// @ts-check
/* A collection drawn as the table shows it: cards grouped by kind, a nigiri
 * on its wasabi, a count badge; each group a data-testid="group" with
 * data-card and data-count.  Used by the table's seats and the round's end
 * (and, later, the replay viewer and the scorekeeper).
 */

import { el } from "./dom.js";
import * as C from "./cards.js";
import { t } from "./i18n.js";

var NIGIRI = { egg: 1, salmon: 1, squid: 1 };

// Collections grouped by type; a nigiri on a wasabi is shown with that wasabi.
export function groups(col, onW) {
  var out = [], byKey = {}, queue = [];
  function isWasabi(t) { return t === "wasabi" || t === "special_order>wasabi"; }
  function nigiriOf(t) {
    var b = t.replace(/^special_order>/, "").replace(/\+wasabi$/, "");
    return NIGIRI[b] ? b : null;
  }
  col.forEach(function (t, i) {
    t = String(t);
    if (isWasabi(t)) {
      var g = { key: "wasabi#" + i, text: t, count: 1, indices: [i], on: null };
      out.push(g);
      queue.push(g);
      return;
    }
    if (onW && onW[i] && nigiriOf(t)) {
      var w = queue.shift();
      if (w) { w.on = t; w.indices.push(i); w.key = "wasabi+" + t; return; }
      var lone = { key: "on-wasabi+" + t, text: "wasabi", count: 1, indices: [i], on: t };
      out.push(lone);
      return;
    }
    if (byKey[t]) { byKey[t].count += 1; byKey[t].indices.push(i); return; }
    byKey[t] = { key: t, text: t, count: 1, indices: [i], on: null };
    out.push(byKey[t]);
  });
  // merge empty wasabis / identical wasabi pairs for a compact display
  var merged = [], seen = {};
  out.forEach(function (g) {
    var k = g.on ? "W+" + g.on + "|" + g.text : g.text === "wasabi" || g.text === "special_order>wasabi" ? "W|" + g.text : "C|" + g.key;
    if (seen[k]) { seen[k].count += g.count; seen[k].indices = seen[k].indices.concat(g.indices); return; }
    seen[k] = g;
    merged.push(g);
  });
  return merged;
}

/** One group as an element; `fresh` marks newly revealed positions (animated from `freshAt`). */
export function groupElement(g, fresh, freshAt) {
  var wrap = el("div", "group");
  wrap.setAttribute("data-testid", "group");
  wrap.setAttribute("data-card", g.on ? g.text + "+" + g.on : g.text);
  wrap.setAttribute("data-count", String(g.count));
  var card = C.element(g.text, { mini: true });
  if (g.on) {
    card.classList.add("with-nigiri");
    var top = C.element(g.on, { mini: true });
    top.classList.add("on-wasabi");
    var stack = el("div", "stack");
    stack.appendChild(card);
    stack.appendChild(top);
    wrap.appendChild(stack);
    var both = { nigiri: C.label(g.on), card: C.label(g.text), n: g.count };
    wrap.title = g.count > 1 ? t("{nigiri} on {card} ×{n}", both) : t("{nigiri} on {card}", both);
  } else {
    wrap.appendChild(card);
    wrap.title = g.count > 1 ? t("{card} ×{n}", { card: C.label(g.text), n: g.count }) : C.label(g.text);
  }
  var cap = C.caption(g.on ? t("{nigiri} on wasabi", { nigiri: C.label(g.on) }) : C.label(g.text));
  wrap.appendChild(cap);
  if (g.count > 1) wrap.appendChild(el("span", "count", t("×{n}", { n: g.count })));
  if (fresh && g.indices.some(function (i) { return fresh[i]; })) {
    wrap.classList.add("fresh");
    // a re-render continues the reveal animation instead of restarting it
    wrap.style.animationDelay = -Math.max(0, Date.now() - (freshAt || Date.now())) + "ms";
  }
  return wrap;
}
