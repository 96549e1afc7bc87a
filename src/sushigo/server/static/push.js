// @ts-check
/* Notifications on this device (Web Push): the player turns them on (the
 * browser asks for permission, the page subscribes with the server's VAPID key
 * and sends the subscription to the server, for the signed-in account) and
 * off (unsubscribed here and forgotten there).  docs/server.md, "Notifications".
 *
 * Test hooks (data-testid): push-toggle (aria-pressed), push-status. */

import { $, $as, getJson, postJson } from "./dom.js";
import { t } from "./i18n.js";

/** @param {string} text base64url */
function bytes(text) {
  var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  var raw = atob(b64 + "===".slice((b64.length + 3) % 4));
  var out = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Whether this browser can get Web Push notifications at all. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** This device's push subscription, or null (none, or no support). @returns {Promise<PushSubscription | null>} */
export function currentSubscription() {
  if (!pushSupported()) return Promise.resolve(null);
  return navigator.serviceWorker.getRegistration("/").then(function (reg) {
    return reg ? reg.pushManager.getSubscription() : null;
  }).catch(function () { return null; });
}

function turnOn() {
  return Notification.requestPermission().then(function (permission) {
    if (permission !== "granted") throw new Error(t("the browser did not allow notifications for this site"));
    return navigator.serviceWorker.register("/sw.js", { scope: "/" });
  }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (reg) {
    return getJson("/api/push/key").then(function (k) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(k.key) });
    });
  }).then(function (sub) {
    return postJson("/api/push/subscribe", sub.toJSON());
  });
}

function turnOff() {
  return currentSubscription().then(function (sub) {
    if (!sub) return null;
    var endpoint = sub.endpoint;
    return sub.unsubscribe().then(function () { return postJson("/api/push/unsubscribe", { endpoint: endpoint }); });
  });
}

/** Wire the toggle of the signed-in account's page. */
export function setupPush() {
  var button = $as("push-toggle", HTMLButtonElement);
  var status = $("push-status");
  /** @param {boolean} on @param {string} [text] */
  function show(on, text) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? t("Turn notifications off on this device") : t("Turn notifications on for this device");
    var said = on
      ? t("This device is told when it is your move on a turn-based table or a play-now table is ready, even with the page closed.")
      : t("This device gets no notifications.");
    status.textContent = text || said;
  }
  if (!pushSupported()) {
    button.disabled = true;
    show(false, t("This browser cannot show notifications with the page closed."));
    return;
  }
  currentSubscription().then(function (sub) {
    if (!sub) { show(false); return; }
    postJson("/api/push/status", { endpoint: sub.endpoint }).then(function (r) { show(!!r.on); },
      function () { show(false); });
  });
  button.addEventListener("click", function () {
    var on = button.getAttribute("aria-pressed") === "true";
    button.disabled = true;
    (on ? turnOff() : turnOn()).then(function () { show(!on); }, function (err) {
      var why = String(err && err.message || err).split("\n")[0];
      show(on, on ? t("Notifications could not be turned off: {why}", { why: why })
        : t("Notifications could not be turned on: {why}", { why: why }));
    }).then(function () { button.disabled = false; });
  });
}
