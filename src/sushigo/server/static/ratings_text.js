// @ts-check
/* How a rating reads on the pages (docs/server.md, "Ratings"). */

/**
 * A rating as shown: "1532", or "1500?" while provisional.
 * @param {{rating: number, provisional: boolean}} r
 * @returns {string}
 */
export function ratingText(r) {
  return String(r.rating) + (r.provisional ? "?" : "");
}
