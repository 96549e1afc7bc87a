"""Hand-built positions for the bot and analysis tests."""

from __future__ import annotations

from sushigo.engine.base.cards import Card
from sushigo.engine.base.game import Game


def late_round_position(hand: list[Card], collection: list[Card], others: list[list[Card]]) -> Game:
    """A 3-player game late in round 1, seat 0 to pick from ``hand``."""
    game = Game(3, seed=1)
    size = len(hand)
    # put the cards back into the deck and lay out the position
    pool = game.deck + [c for h in game.hands for c in h] + [c for col in game.collections for c in col]
    for c in list(hand) + list(collection) + [c for o in others for c in o]:
        pool.remove(int(c))
    game.hands = [[int(c) for c in hand]] + [[pool.pop() for _ in range(size)] for _ in range(2)]
    game.collections = [[int(c) for c in collection]] + [[int(c) for c in o] for o in others]
    game.deck = pool
    game.turn = game.rules.hand_size - size + 1
    dealt = [tuple(h) for h in game.hands]
    game._history[-1] = (dealt, [])
    return game
