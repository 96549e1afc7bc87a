"""One entry point for both editions.

:func:`new_game` makes a :class:`~sushigo.game.Game` for base rules and a
:class:`~sushigo.party.game.PartyGame` for Party rules.  Both share the
same interface: ``legal_actions(seat)``, ``pending_seats``, ``commit(seat,
action)``, ``play(picks)``, ``clone()``, ``result()``, ``history()``,
``random_playout(rng)``, ``phase``, ``is_over``.

>>> from sushigo.rules import Rules
>>> new_game(Rules(3), seed=1)
<Game 3 players, round 1, turn 1>
>>> new_game(Rules.party(8, "Big Banquet"), seed=1)
<PartyGame 8 players, round 1, turn 1>
"""

from __future__ import annotations

import random
from typing import Union

from sushigo.game import Game
from sushigo.party.game import PartyGame
from sushigo.rules import Rules

AnyGame = Union[Game, PartyGame]
"""A game of either edition."""


def new_game(
    rules: Rules | int,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    auto_deal: bool = True,
) -> AnyGame:
    """A new game of the edition ``rules`` names (an int means base rules)."""
    if isinstance(rules, Rules) and rules.is_party:
        return PartyGame(rules, seed=seed, rng=rng, auto_deal=auto_deal)
    return Game(rules, seed=seed, rng=rng, auto_deal=auto_deal)
