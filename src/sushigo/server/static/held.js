/* The seats this browser holds, kept in localStorage ("sushigo.seats"):
 * table id -> {seat, token, creator, at}.  The tokens are sent to nobody but
 * this server: table.js says hello with them, the lobby's "Your tables" links
 * to them (#seat=TOKEN) and cancels with the creator's.  A classic script
 * (window.SushiHeld) so that the lobby and the table page share it.
 */
(function () {
  "use strict";
  var KEY = "sushigo.seats";
  var MOST = 50;

  function read() {
    try {
      var all = JSON.parse(localStorage.getItem(KEY) || "{}");
      return all && typeof all === "object" && !Array.isArray(all) ? all : {};
    } catch (e) { return {}; }
  }
  function write(all) {
    try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (e) { /* private mode: not kept */ }
  }

  window.SushiHeld = {
    /** Every table this browser holds something of, newest first: [[id, entry], ...]. */
    list: function () {
      var all = read();
      return Object.keys(all).map(function (id) { return [id, all[id]]; })
        .filter(function (p) { return p[1] && typeof p[1] === "object"; })
        .sort(function (a, b) { return (b[1].at || 0) - (a[1].at || 0); });
    },
    get: function (id) { var e = read()[id]; return e && typeof e === "object" ? e : null; },
    /** Keep `fields` (token, seat, creator) for table `id`. */
    remember: function (id, fields) {
      var all = read();
      var entry = all[id] && typeof all[id] === "object" ? all[id] : {};
      Object.keys(fields).forEach(function (k) { if (fields[k] !== undefined && fields[k] !== null) entry[k] = fields[k]; });
      entry.at = Date.now();
      all[id] = entry;
      Object.keys(all).sort(function (a, b) { return (all[b].at || 0) - (all[a].at || 0); })
        .slice(MOST).forEach(function (old) { delete all[old]; });
      write(all);
    },
    forget: function (id) { var all = read(); delete all[id]; write(all); }
  };
})();
