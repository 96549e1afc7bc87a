"""sushigo: an exact, fast engine for Sushi Go! and Sushi Go Party!.

>>> import sushigo
>>> game = sushigo.Game(4, seed=1)
>>> len(game.hand(0)), len(game.legal_actions(0)) <= 8
(8, True)

The package has layers (``docs/architecture.md``): :mod:`sushigo.engine`
holds the rules of both editions (standard library only); :mod:`sushigo.sim`,
:mod:`sushigo.bots`, :mod:`sushigo.envs`, :mod:`sushigo.tournament`,
:mod:`sushigo.stats`, :mod:`sushigo.server` and :mod:`sushigo.terminal` are
built on it; :mod:`sushigo.cli` is the command line on top.  The names below
are the public API of the engine.

>>> party = sushigo.new_game(sushigo.Rules.party(6, "Big Banquet"), seed=1)
>>> len(party.hand(0)), party.rules.menu[1]
(8, 'maki')
"""

from sushigo import _moved
from sushigo.engine.base.actions import NUM_ACTIONS, Action, action_name, decode, encode, parse_action
from sushigo.engine.base.cards import Card, parse_card
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import Result
from sushigo.engine.editions import AnyGame, new_game
from sushigo.engine.errors import GameOverError, IllegalActionError
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

__version__ = "0.6.0"

_moved.install()  # the module names of 0.5 and earlier keep working, with a DeprecationWarning

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
