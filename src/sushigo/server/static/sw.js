// @ts-check
/* The service worker (served as /sw.js, its scope the whole site): it shows the
 * Web Push notifications the server sends (a play-now table is ready, a
 * turn-based table waits on you) with the pages closed, and a click opens the
 * page the notification names, on this site only (docs/server.md, "Notifications").
 * A notification's payload is {title, body, url, tag}: public facts, never a card. */

/** @type {any} */
var sw = self;

sw.addEventListener("install", function () { sw.skipWaiting(); });
sw.addEventListener("activate", function (/** @type {any} */ event) { event.waitUntil(sw.clients.claim()); });

sw.addEventListener("push", function (/** @type {any} */ event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var title = typeof data.title === "string" ? data.title : "Sushi Go!";
  event.waitUntil(sw.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : "sushigo",
    data: { url: typeof data.url === "string" ? data.url : "/" },
  }));
});

sw.addEventListener("notificationclick", function (/** @type {any} */ event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", sw.location.origin);
  if (url.origin !== sw.location.origin) return;  // a notification opens this site's pages only
  event.waitUntil(sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (/** @type {any[]} */ list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === url.href && "focus" in list[i]) return list[i].focus();
    }
    return sw.clients.openWindow(url.href);
  }));
});
