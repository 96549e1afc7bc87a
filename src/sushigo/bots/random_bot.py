"""A bot that picks uniformly at random among its legal actions.

>>> from sushigo import Game
>>> from sushigo.view import seat_view
>>> game = Game(4, seed=3)
>>> view = seat_view(game, 2)
>>> RandomBot(seed=1).choose(view) == RandomBot(seed=1).choose(view)
True
>>> RandomBot(seed=1).choose(view) in view.legal_actions
True
"""

from __future__ import annotations

from typing import ClassVar

from sushigo.actions import Action
from sushigo.bots.base import Bot, legal_actions_of
from sushigo.view import SeatView


class RandomBot(Bot):
    """Uniformly random legal action (chopsticks pairs included, each pair counted once).

    Because every ordered pair is its own action, a seat with chopsticks picks
    two cards far more often than one; that is what "uniform over the legal
    actions" means, and it is the baseline the other bots are measured against.
    """

    name: ClassVar[str] = "random"

    def choose(self, view: SeatView) -> Action:
        actions = legal_actions_of(view)
        return actions[self.rng.randrange(len(actions))]
