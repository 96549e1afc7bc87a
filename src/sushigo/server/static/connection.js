// @ts-check
/* The table's WebSocket (protocol sushigo-ws/3, docs/server.md): connect,
 * say hello, hand every frame to the page, reconnect with backoff, ping.
 *
 * `S` is the page's state object (this module keeps ws, welcomed, retries,
 * reconnectAt, reconnectTimer and reads stop and id there); `hooks.hello()`
 * gives the hello message, `hooks.message(msg)` takes each frame and
 * `hooks.closed()` is told when the socket closes (a reconnection follows).
 */

import { $ } from "./dom.js";
import { t } from "./i18n.js";

export function makeConnection(S, hooks) {
  function setConn(state, text) {
    var c = $("connection");
    c.textContent = text;
    c.setAttribute("data-state", state);
  }

  function send(obj) {
    obj.v = 3;
    if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
    S.ws.send(JSON.stringify(obj));
    return true;
  }

  function connect() {
    if (S.stop) return;
    clearTimeout(S.reconnectTimer);
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    var ws;
    try {
      ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(S.id));
    } catch (e) {
      scheduleReconnect();
      return;
    }
    S.ws = ws;
    S.welcomed = false;
    setConn("connecting", t("Connecting…"));
    ws.onopen = function () { send(hooks.hello()); };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (!msg || typeof msg !== "object") return;
      hooks.message(msg);
    };
    ws.onclose = function () {
      if (S.ws !== ws) return;
      S.ws = null;
      S.welcomed = false;
      if (hooks.closed) hooks.closed();
      scheduleReconnect();
    };
    ws.onerror = function () { /* onclose follows */ };
  }

  function scheduleReconnect() {
    if (S.stop) { setConn("closed", t("Disconnected")); return; }
    var delay = Math.min(10000, 500 * Math.pow(2, S.retries)) + Math.floor(Math.random() * 300);
    S.retries += 1;
    S.reconnectAt = Date.now() + delay;
    S.reconnectTimer = setTimeout(connect, delay);
    tick();
  }

  /** Count down to the next try (called every half second). */
  function tick() {
    if (S.ws || S.stop) return;
    var left = Math.max(0, Math.ceil((S.reconnectAt - Date.now()) / 1000));
    setConn("closed", left > 0 ? t("Disconnected · reconnecting in {n} s", { n: left }) : t("Reconnecting…"));
  }

  setInterval(function () {
    if (S.ws && S.welcomed) send({ type: "ping" });
  }, 25000);
  window.addEventListener("online", function () {
    if (!S.ws && !S.stop) { S.retries = 0; connect(); }
  });

  return { connect: connect, send: send, setConn: setConn, tick: tick };
}
