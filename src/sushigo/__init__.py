"""sushigo: an exact, fast engine for Sushi Go! and Sushi Go Party!.

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
- :mod:`sushigo.party`: the Party edition (cards, menus, actions, the
  :class:`~sushigo.party.game.PartyGame` state machine, scoring, views).
- :mod:`sushigo.editions`: :func:`new_game` for either edition.

>>> party = sushigo.new_game(sushigo.Rules.party(6, "Big Banquet"), seed=1)
>>> len(party.hand(0)), party.rules.menu[1]
(8, 'maki')
"""

from sushigo.actions import NUM_ACTIONS, Action, action_name, decode, encode, parse_action
from sushigo.cards import Card, parse_card
from sushigo.editions import AnyGame, new_game
from sushigo.game import Game, GameOverError, IllegalActionError, Phase
from sushigo.party.cards import PartyCard
from sushigo.party.game import PartyGame
from sushigo.rules import Rules
from sushigo.scoring import Result

__version__ = "0.5.0"

__all__ = [
    "NUM_ACTIONS",
    "Action",
    "AnyGame",
    "Card",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "PartyCard",
    "PartyGame",
    "Phase",
    "Result",
    "Rules",
    "action_name",
    "decode",
    "encode",
    "new_game",
    "parse_action",
    "parse_card",
]
