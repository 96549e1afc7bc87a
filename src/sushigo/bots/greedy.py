"""A one-ply greedy bot: it takes the pick that leaves its collection worth the most.

For every legal action (chopsticks pairs included, in their play order) the
bot places the cards in a copy of its collection and estimates what that
collection will be worth at the end of the round, plus its share of the
end-of-game pudding award:

* scored points now, from :mod:`sushigo.engine.base.scoring` (tempura pairs, sashimi
  triples, the dumpling table, nigiri with wasabi in play order);
* unfinished sets (a lone tempura, one or two sashimi, the next dumplings)
  and empty wasabi, each counted at the chance of finishing them in the picks
  left this round (the hand size says how many), so they fade to nothing at
  the end of the round;
* the maki race: the maki award against the other seats' visible roll icons,
  averaged over how far the totals may still move this round;
* the pudding race: the same for the end-of-game pudding award, with the
  uncertainty shrinking as the game goes on, so puddings count for more in
  later rounds;
* chopsticks: worth something while enough picks remain to use them.

Ties are broken by the bot's own random generator, so a seeded bot is
reproducible.  It reads only its :class:`~sushigo.engine.base.view.SeatView`.  Given a
Sushi Go Party! view (:class:`~sushigo.engine.party.view.PartySeatView`) it plays
by the Party judgement of :mod:`sushigo.bots.party_greedy` instead.

>>> from sushigo import Card, Game, encode
>>> from sushigo.engine.base.view import seat_view
>>> game = Game(2, seed=0)
>>> game.hands[0] = [Card.EGG, Card.SQUID, Card.TEMPURA]
>>> game.collections[0] = [Card.WASABI]
>>> bot = GreedyBot(seed=0)
>>> bot.choose(seat_view(game, 0)) == encode([Card.SQUID])
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import ClassVar, Final

from sushigo.bots.base import AnyView, Bot, legal_actions_of
from sushigo.bots.estimates import WASABI_BONUS, best_action, completion_chance, race_value
from sushigo.bots.party_greedy import party_action_values
from sushigo.engine.base.actions import Action, card_ids
from sushigo.engine.base.cards import DECK_COUNTS, DECK_SIZE, MAKI_ICONS, NIGIRI, Card, count_cards
from sushigo.engine.base.scoring import (
    dumpling_points,
    maki_awards,
    maki_icons,
    nigiri_points,
    pudding_awards,
    wasabi_pairs,
)
from sushigo.engine.base.view import SeatView
from sushigo.engine.editions import by_view
from sushigo.engine.rules import HAND_SIZES, NUM_ROUNDS

_TEMPURA: Final = int(Card.TEMPURA)
_SASHIMI: Final = int(Card.SASHIMI)
_DUMPLING: Final = int(Card.DUMPLING)
_WASABI: Final = int(Card.WASABI)
_CHOPSTICKS: Final = int(Card.CHOPSTICKS)
_PUDDING: Final = int(Card.PUDDING)


CHOPSTICKS_VALUE: Final = 4.0
"""Worth of one usable chopsticks early in a round (an extra good card later)."""

_FREQ: Final[dict[str, float]] = {
    "tempura": DECK_COUNTS[Card.TEMPURA] / DECK_SIZE,
    "sashimi": DECK_COUNTS[Card.SASHIMI] / DECK_SIZE,
    "dumpling": DECK_COUNTS[Card.DUMPLING] / DECK_SIZE,
    "nigiri": sum(DECK_COUNTS[c] for c in NIGIRI) / DECK_SIZE,
}


class _Estimator:
    """End-of-round worth of a collection for one seat, given its view (memoised per part)."""

    def __init__(self, view: SeatView, seat: int) -> None:
        hand = view.hand or ()
        self.picks_left = max(0, len(hand) - 1)
        """Picks this seat makes this round after the current one."""
        n = view.players
        own = view.collections[seat]
        self.others_icons = [maki_icons(view.collections[k]) for k in range(n) if k != seat]
        self.kept_puddings = view.puddings[seat] - own.count(Card.PUDDING)
        self.others_puddings = [view.puddings[k] for k in range(n) if k != seat]
        later_picks = (NUM_ROUNDS - view.round) * HAND_SIZES[n]
        self.maki_spread = round(3.0 * math.sqrt(self.picks_left))
        self.pudding_spread = math.ceil(math.sqrt(0.1 * (self.picks_left + later_picks)))
        self._cache: dict[tuple[str, int], float] = {}

    def _memo(self, key: str, count: int, compute: Callable[[int], float]) -> float:
        value = self._cache.get((key, count))
        if value is None:
            value = self._cache[(key, count)] = compute(count)
        return value

    def _chance(self, need: int, kind: str) -> float:
        return completion_chance(need, self.picks_left, _FREQ[kind])

    def tempura(self, count: int) -> float:
        return 5.0 * (count // 2) + (5.0 * self._chance(1, "tempura") if count % 2 else 0.0)

    def sashimi(self, count: int) -> float:
        missing = (3 - count % 3) % 3
        partial = 10.0 * self._chance(missing, "sashimi") if missing else 0.0
        return 10.0 * (count // 3) + partial

    def dumpling(self, count: int) -> float:
        value = float(dumpling_points(count))
        for more in range(1, 5 - count + 1):
            gain = dumpling_points(count + more) - dumpling_points(count + more - 1)
            value += gain * self._chance(more, "dumpling")
        return value

    def wasabi(self, empty: int) -> float:
        return sum(WASABI_BONUS * self._chance(k, "nigiri") for k in range(1, empty + 1))

    def chopsticks(self, count: int) -> float:
        if count == 0 or self.picks_left < 2:
            return 0.0
        usable = min(1.0, (self.picks_left - 1) / 5.0)
        return CHOPSTICKS_VALUE * usable * (1.0 + 0.2 * (count - 1))

    def maki(self, icons: int) -> float:
        return race_value(icons, self.others_icons, maki_awards, self.maki_spread)

    def pudding(self, puddings: int) -> float:
        return race_value(puddings, self.others_puddings, pudding_awards, self.pudding_spread)

    def value(self, collection: Sequence[int]) -> float:
        """Estimated worth of ``collection`` (play order) at the end of the round."""
        counts = count_cards(collection)
        empty_wasabi = counts[_WASABI] - len(wasabi_pairs(collection))
        icons = sum(MAKI_ICONS[c] * n for c, n in enumerate(counts))
        return (
            self._memo("tempura", counts[_TEMPURA], self.tempura)
            + self._memo("sashimi", counts[_SASHIMI], self.sashimi)
            + self._memo("dumpling", counts[_DUMPLING], self.dumpling)
            + nigiri_points(collection)
            + self._memo("wasabi", empty_wasabi, self.wasabi)
            + self._memo("chopsticks", counts[_CHOPSTICKS], self.chopsticks)
            + self._memo("maki", icons, self.maki)
            + self._memo("pudding", self.kept_puddings + counts[_PUDDING], self.pudding)
        )


def base_action_values(view: SeatView) -> dict[Action, float]:
    """The estimated worth of the collection after each legal action of an original-game view."""
    actions = legal_actions_of(view)
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to pick for")
    estimate = _Estimator(view, seat)
    base = [int(c) for c in view.collections[seat]]
    values: dict[Action, float] = {}
    for action in actions:
        cards = card_ids(action)
        collection = base[:]
        if len(cards) == 2:
            collection.remove(_CHOPSTICKS)  # the chopsticks go back into the hand
        collection.extend(cards)
        values[action] = estimate.value(collection)
    return values


class GreedyBot(Bot):
    """Takes the legal pick whose resulting collection is worth most (see the module doc)."""

    name: ClassVar[str] = "greedy"

    def action_values(self, view: AnyView) -> dict[Action, float]:
        """The estimated worth of the collection after each legal action.

        Only differences between actions matter.  A Party view is valued by
        :func:`sushigo.bots.party_greedy.party_action_values`.

        >>> from sushigo import Card, Game, encode
        >>> from sushigo.engine.base.view import seat_view
        >>> game = Game(3, seed=0)
        >>> game.hands[0] = [Card.SASHIMI, Card.SALMON]
        >>> game.collections[0] = [Card.SASHIMI, Card.SASHIMI]
        >>> values = GreedyBot().action_values(seat_view(game, 0))
        >>> values[encode([Card.SASHIMI])] > values[encode([Card.SALMON])]
        True
        """
        return by_view(view, base=base_action_values, party=party_action_values)

    def choose(self, view: AnyView) -> Action:
        return best_action(legal_actions_of(view), lambda: self.action_values(view), self.rng)
