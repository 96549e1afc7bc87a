// @ts-check
/* Your turn is noticed: an optional sound and a browser notification when a
 * decision becomes yours while the tab is hidden.  Off until the player turns
 * it on (the choice is kept in localStorage).
 *
 * Test hooks (data-testid): notify-toggle (aria-pressed).  The page counts
 * what it did in the table's state, S.notified (sounds and notifications).
 */

import { $as } from "./dom.js";
import { t } from "./i18n.js";

var KEY = "sushigo.notify";

function stored() {
  try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
}

function beep() {
  var Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;  // older Safari
  if (!Ctx) return false;
  try {
    var ctx = new Ctx();
    var osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    setTimeout(function () { ctx.close(); }, 500);
    return true;
  } catch (e) {
    return false;
  }
}

/** Wire the toggle; returns turnStarted(text, counts), to call when a decision becomes yours. */
export function setupNotify() {
  var button = $as("notify-toggle", HTMLButtonElement);
  var on = stored();

  function show() {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? t("Alerts on") : t("Alerts off");
    button.title = on ? t("A sound and a notification when it is your turn and this tab is hidden")
      : t("Turn on a sound and a notification for your turn");
  }
  show();
  button.addEventListener("click", function () {
    on = !on;
    try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode */ }
    if (on && window.Notification && Notification.permission === "default") Notification.requestPermission();
    show();
  });

  return function turnStarted(text, counts) {
    if (!on || !document.hidden) return;
    if (beep()) counts.sounds += 1;
    if (window.Notification && Notification.permission === "granted") {
      try {
        var n = new Notification(t("Sushi Go!"), { body: text, tag: "sushigo-turn" });
        n.onclick = function () { window.focus(); n.close(); };
        counts.notifications += 1;
      } catch (e) { /* some browsers allow notifications only from a service worker */ }
    }
  };
}
