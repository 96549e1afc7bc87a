/* The shape of /static/words.js, which the server writes from the engine
 * (sushigo.engine.guide.card_words and each Edition's words(); server/routes/pages.py) as `export const WORDS = {...};`.
 * No words.js file lives here: this declaration is for the type check only (tsc -p .).
 */
export const WORDS: {
  /** Each card's label, by record name ("maki2", "fruit_watermelon_orange", ...). */
  labels: Record<string, string>;
  /** Each card's menu item ("maki2" -> "maki"). */
  items: Record<string, string>;
  /** Each item's scoring line, per edition. */
  hints: { base: Record<string, string>; party: Record<string, string> };
  /** The scoring lines as the engine's messages (i18n.js says them in the page's language). */
  hints_msg: { base: Record<string, object>; party: Record<string, object> };
  /** Rounds in a game. */
  rounds: number;
  /** What a card a takeout box flipped face down scores. */
  face_down_points: number;
  /** Every total a seat can hold of one round's uramaki places, sorted. */
  uramaki_race_points: number[];
  /** What each edition is called: its title, and the score sheet's tie-break row ("Puddings", "Desserts"). */
  editions: Record<string, { title: string; tiebreak: string }>;
};
