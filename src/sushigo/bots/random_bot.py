"""A bot that picks uniformly at random among its legal actions (either edition).

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> game = Game(4, seed=3)
>>> view = seat_view(game, 2)
>>> RandomBot(seed=1).choose(view) == RandomBot(seed=1).choose(view)
True
>>> RandomBot(seed=1).choose(view) in view.legal_actions
True
>>> from sushigo.engine.rules import Rules
>>> from sushigo.engine.party.game import PartyGame
>>> from sushigo.engine.party.view import party_seat_view
>>> party = PartyGame(Rules.party(3, "Dinner for Two"), seed=3)
>>> RandomBot(seed=1).choose(party_seat_view(party, 0)) in party.legal_actions(0)
True
"""

from __future__ import annotations

from typing import ClassVar

from sushigo.bots.base import AnyView, Bot, legal_actions_of
from sushigo.engine.base.actions import Action


class RandomBot(Bot):
    """Uniformly random legal action (chopsticks pairs included, each pair counted once).

    Because every ordered pair is its own action, a seat with chopsticks picks
    two cards far more often than one; that is what "uniform over the legal
    actions" means, and it is the baseline the other bots are measured against.
    In Party the same holds for every decision: a special order's copies,
    the cards a spoon may ask for, the positions a takeout box may flip.
    """

    name: ClassVar[str] = "random"

    def choose(self, view: AnyView) -> Action:
        actions = legal_actions_of(view)
        return actions[self.rng.randrange(len(actions))]
