"""Fast playout policies for search: a seat's pick from the game state it is given.

Search bots play thousands of games to the end for every decision they
make, so the policy that plays them must cost microseconds.  These
functions read one seat's own hand and the public collections of a game
(a determinized copy, never the real game) and return an action id.  They
never look at another seat's hand or hidden pick, so seats can be asked
one at a time while picks stay simultaneous.

:func:`heuristic_pick` (base game) scores each card in the hand by what it
adds to the seat's collection now, with unfinished sets counted at a rough
chance of finishing them in the picks left (a cheap cousin of the
``greedy`` bot's estimate), and uses chopsticks when the second card is
worth it.  With probability ``epsilon`` it picks at random instead, which
keeps playouts varied.

>>> import random
>>> from sushigo import Card, Game, encode
>>> game = Game(2, seed=0)
>>> game.hands[0] = [Card.EGG, Card.SQUID, Card.TEMPURA]
>>> game.collections[0] = [Card.WASABI]
>>> heuristic_pick(game, 0, random.Random(1), epsilon=0.0) == encode([Card.SQUID])
True
"""

from __future__ import annotations

import random
from typing import Final

from sushigo.engine.base.cards import Card
from sushigo.engine.base.game import Game
from sushigo.engine.turns import Phase

_TEMPURA: Final = int(Card.TEMPURA)
_SASHIMI: Final = int(Card.SASHIMI)
_DUMPLING: Final = int(Card.DUMPLING)
_MAKI1: Final = int(Card.MAKI1)
_MAKI2: Final = int(Card.MAKI2)
_MAKI3: Final = int(Card.MAKI3)
_EGG: Final = int(Card.EGG)
_SALMON: Final = int(Card.SALMON)
_SQUID: Final = int(Card.SQUID)
_WASABI: Final = int(Card.WASABI)
_CHOPSTICKS: Final = int(Card.CHOPSTICKS)
_PUDDING: Final = int(Card.PUDDING)
_N: Final = 12
_DUMPLING_GAIN: Final = (1.0, 2.0, 3.0, 4.0, 5.0)
_NIGIRI: Final = {_EGG: 1.0, _SALMON: 2.0, _SQUID: 3.0}

CHOPSTICKS_THRESHOLD: Final = 2.0
"""A seat uses its chopsticks when the second-best card is worth at least this."""


def card_values(hand: list[int], collection: list[int], puddings: int, others_puddings: int) -> dict[int, float]:
    """Worth of adding each distinct card of ``hand`` to ``collection`` now.

    ``len(hand)`` is the picks left this round, this one included;
    ``puddings`` / ``others_puddings`` are the seat's and the most any other
    seat has (kept plus this round's).
    """
    left = len(hand)
    later = min(1.0, (left - 1) / 6.0) if left > 1 else 0.0
    counts = [0] * _N
    for c in collection:
        counts[c] += 1
    values: dict[int, float] = {}
    for c in hand:
        if c in values:
            continue
        if c == _TEMPURA:
            v = 5.0 if counts[_TEMPURA] % 2 else 2.5 * later
        elif c == _SASHIMI:
            r = counts[_SASHIMI] % 3
            v = 10.0 if r == 2 else (4.0 * later if r == 1 and left > 1 else 2.5 * later * later)
        elif c == _DUMPLING:
            k = counts[_DUMPLING]
            v = _DUMPLING_GAIN[k] if k < 5 else 0.0
        elif c in _NIGIRI:
            empty = counts[_WASABI] - _filled_wasabi(collection)
            v = _NIGIRI[c] * (3.0 if empty > 0 else 1.0)
        elif c == _WASABI:
            v = 4.0 * later if left > 2 else 0.0
        elif c == _MAKI1:
            v = 1.0
        elif c == _MAKI2:
            v = 2.0
        elif c == _MAKI3:
            v = 3.0
        elif c == _PUDDING:
            gap = puddings - others_puddings
            v = 3.0 if -1 <= gap <= 0 else 1.5
        else:  # chopsticks
            v = 3.0 * later if left > 3 else 0.0
        values[c] = v
    return values


def _filled_wasabi(collection: list[int]) -> int:
    empty = 0
    filled = 0
    for c in collection:
        if c == _WASABI:
            empty += 1
        elif empty and c in (_EGG, _SALMON, _SQUID):
            empty -= 1
            filled += 1
    return filled


def heuristic_pick(game: Game, seat: int, rng: random.Random, epsilon: float = 0.15) -> int:
    """A quick, mostly greedy pick for ``seat`` (base game); see the module doc."""
    hand = game.hands[seat]
    collection = game.collections[seat]
    if len(hand) == 1:
        return hand[0]
    if rng.random() < epsilon:
        actions = game.legal_actions(seat)
        return actions[int(rng.random() * len(actions))]
    mine = others = 0
    if _PUDDING in hand:
        kept = game.kept_puddings
        cols = game.collections
        mine = kept[seat] + collection.count(_PUDDING)
        others = max(kept[k] + cols[k].count(_PUDDING) for k in range(game.players) if k != seat)
    values = card_values(hand, collection, mine, others)
    best = max(values, key=values.__getitem__)
    if _CHOPSTICKS in collection:
        rest = list(hand)
        rest.remove(best)
        second_values = card_values(rest, collection + [best], mine, others)
        second = max(second_values, key=second_values.__getitem__)
        if second_values[second] >= CHOPSTICKS_THRESHOLD:
            return _N + best * _N + second
    return best


def heuristic_playout(game: Game, rng: random.Random, epsilon: float = 0.15) -> None:
    """Play ``game`` to its end with :func:`heuristic_pick` for every seat.

    Seats that committed a hidden pick this turn keep it.
    """
    seats = range(game.players)
    if game._npending:
        # the seats waiting now, listed before committing: the last commit reveals the turn, after
        # which the seats that had committed are waiting again, for the next turn
        for s in [s for s in seats if game._pending[s] is None]:
            game.commit(s, heuristic_pick(game, s, rng, epsilon))
    while game._phase is Phase.PICK:
        game._reveal([heuristic_pick(game, s, rng, epsilon) for s in seats])


__all__ = ["CHOPSTICKS_THRESHOLD", "card_values", "heuristic_pick", "heuristic_playout"]
