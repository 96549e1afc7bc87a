// @ts-check
/* The seats this browser holds, kept in localStorage ("sushigo.seats"):
 * table id -> {seat, token, creator, at}.  The tokens are sent to nobody but
 * this server: table.js says hello with them, the lobby's "Your tables" links
 * to them (#seat=TOKEN) and cancels with the creator's.  The scorekeeper keeps
 * its sheets' edit tokens the same way (`sheets`, "sushigo.sheets": sheet id ->
 * {token, at}).  An ES module: import { seats, sheets } from "./held.js".
 */

/**
 * @typedef {{seat?: number, token?: string, creator?: string, at?: number}} Held
 *   what this browser keeps of one table (or, for `sheets`, of one sheet: token and at)
 */

var MOST = 50;

/** What this browser keeps under localStorage[key]: id -> entry (with `at`), the newest MOST. */
function kept(/** @type {string} */ key) {
  /** @returns {Record<string, Held>} */
  function read() {
    try {
      var all = JSON.parse(localStorage.getItem(key) || "{}");
      return all && typeof all === "object" && !Array.isArray(all) ? all : {};
    } catch (e) { return {}; }
  }
  function write(all) {
    try { localStorage.setItem(key, JSON.stringify(all)); } catch (e) { /* private mode: not kept */ }
  }
  return {
    /**
     * Every id this browser holds something of, newest first: [[id, entry], ...].
     * @returns {Array<[string, Held]>}
     */
    list: function () {
      var all = read();
      return Object.keys(all).map(/** @returns {[string, Held]} */ function (id) { return [id, all[id]]; })
        .filter(function (p) { return p[1] && typeof p[1] === "object"; })
        .sort(function (a, b) { return (b[1].at || 0) - (a[1].at || 0); });
    },
    /** @param {string} id  @returns {Held | null} */
    get: function (id) { var e = read()[id]; return e && typeof e === "object" ? e : null; },
    /** Keep `fields` (token, seat, creator) for `id`.  @param {string} id  @param {Held} fields */
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
    /** @param {string} id */
    forget: function (id) { var all = read(); delete all[id]; write(all); }
  };
}

/** The seats this browser holds: table id -> {seat, token, creator, at}. */
export var seats = kept("sushigo.seats");
/** The scorekeeper's sheets: id -> {token (the edit token), at}. */
export var sheets = kept("sushigo.sheets");
