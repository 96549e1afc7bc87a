// @ts-check
/* What each Sushi Go Party! decision after the reveal asks of its seat, in one place for the
 * table page and the replay viewer (view.decision.kind: chopsticks, spoon, menu, takeout_box). */

import { WORDS } from "./words.js";

export var DECISION_WORDS = {
  chopsticks: "play one more card from your hand, or pass",
  spoon: "name a card to ask for, or pass",
  menu: "choose one of the cards drawn",
  takeout_box: "flip earlier cards face down (" + WORDS.face_down_points + " points each), or stop"
};
