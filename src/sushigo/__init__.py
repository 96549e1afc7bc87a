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
are the public API of the engine, the same for both editions (``docs/engine.md``,
"The public API"): deeper module paths may change between versions, these do not.

>>> party = sushigo.new_game(sushigo.Rules.party(6, "Big Banquet"), seed=1)
>>> len(party.hand(0)), party.rules.menu[1]
(8, 'maki')
>>> view = sushigo.seat_view(party, 0)
>>> [sushigo.action_text(party, a) for a in view.legal_actions][:2] == view.to_json()["legal"][:2]
True
>>> import random
>>> party.random_playout(random.Random(2))
>>> sushigo.replay(sushigo.to_record(party)).result() == party.result()
True
"""

from sushigo.engine.base.actions import NUM_ACTIONS, Action, action_name, decode, encode, parse_action
from sushigo.engine.base.cards import Card, parse_card
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import Result
from sushigo.engine.editions import (
    BASE,
    PARTY,
    AnyGame,
    AnyView,
    Edition,
    Moment,
    action_text,
    action_words,
    by_game,
    by_result,
    by_view,
    edition_for,
    explain,
    new_game,
    replay,
    save_record,
    score_sheet,
    seat_view,
    spectator_view,
    story_of,
    to_record,
    view_document,
    walk,
)
from sushigo.engine.errors import GameOverError, IllegalActionError
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.game import PartyGame, PartyResult
from sushigo.engine.records import RecordError
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

__version__ = "0.7.0"

__all__ = [
    "BASE",
    "NUM_ACTIONS",
    "PARTY",
    "Action",
    "AnyGame",
    "AnyView",
    "Card",
    "Edition",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Moment",
    "PartyCard",
    "PartyGame",
    "PartyResult",
    "Phase",
    "RecordError",
    "Result",
    "Rules",
    "action_name",
    "action_text",
    "action_words",
    "by_game",
    "by_result",
    "by_view",
    "decode",
    "edition_for",
    "encode",
    "explain",
    "new_game",
    "parse_action",
    "parse_card",
    "replay",
    "save_record",
    "score_sheet",
    "seat_view",
    "spectator_view",
    "story_of",
    "to_record",
    "view_document",
    "walk",
]
