"""sushigo: an exact, fast engine for Sushi Go! (the original 108-card game).

>>> import sushigo
>>> game = sushigo.Game(4, seed=1)
>>> len(game.hand(0)), len(game.legal_actions(0)) <= 8
(8, True)

The core modules use the standard library only:

- :mod:`sushigo.cards`: card ids, names and the deck.
- :mod:`sushigo.rules`: player counts, hand sizes and the named rule options.
- :mod:`sushigo.scoring`: pure scoring of collections, maki, pudding, winners.
- :mod:`sushigo.actions`: the integer action encoding (chopsticks pairs included).
- :mod:`sushigo.game`: the state machine (:class:`Game`).
- :mod:`sushigo.view`: what one seat may know; determinization for search.
- :mod:`sushigo.record`: game records, score sheets and replay.
"""

from sushigo.actions import NUM_ACTIONS, Action, action_name, decode, encode, parse_action
from sushigo.cards import Card, parse_card
from sushigo.game import Game, GameOverError, IllegalActionError, Phase
from sushigo.rules import Rules
from sushigo.scoring import Result

__version__ = "0.1.0"

__all__ = [
    "NUM_ACTIONS",
    "Action",
    "Card",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Phase",
    "Result",
    "Rules",
    "action_name",
    "decode",
    "encode",
    "parse_action",
    "parse_card",
]
