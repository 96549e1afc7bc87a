"""Random play for tests that wants chopsticks turns to happen often."""

from __future__ import annotations

import random

from sushigo import Game
from sushigo.engine.base.actions import NUM_SINGLE_ACTIONS


def random_actions(game: Game, rng: random.Random, pair_chance: float = 0.5) -> list[int]:
    """One random legal action per seat; when a chopsticks pair is legal it is
    taken with probability ``pair_chance`` (a random pair), else any legal action."""
    actions = []
    for s in range(game.players):
        legal = game.legal_actions(s)
        pairs = [a for a in legal if a >= NUM_SINGLE_ACTIONS]
        actions.append(rng.choice(pairs) if pairs and rng.random() < pair_chance else rng.choice(legal))
    return actions
