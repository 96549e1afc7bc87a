"""Bot specs for tests (every built-in bot, search bots on a small budget) and random game positions."""

from __future__ import annotations

import random

from sushigo.bots import BOTS, Bot, make_bot
from sushigo.engine.party.game import PartyGame
from sushigo.engine.turns import Phase

SEARCH_BUDGET = {"ismcts": "ismcts:iterations=12", "flatmc": "flatmc:iterations=12"}


def fast_spec(name: str) -> str:
    """``name``, with a small iteration budget for the search bots."""
    return SEARCH_BUDGET.get(name, name)


def fast_bot(name: str, seed: int | None) -> Bot:
    """The built-in bot ``name`` (search bots on a small budget), seeded."""
    return make_bot(fast_spec(name), seed)


def random_commits(game: PartyGame, rng: random.Random, steps: int, stop_at_resolve: bool = False) -> None:
    """Commit up to ``steps`` random legal actions, the first pending seat each time, until the game
    ends (or, with ``stop_at_resolve``, until a special's decision is due)."""
    for _ in range(steps):
        if game.is_over or (stop_at_resolve and game.phase is Phase.RESOLVE):
            return
        seat = game.pending_seats[0]
        game.commit(seat, rng.choice(game.legal_actions(seat)))


assert set(SEARCH_BUDGET) <= set(BOTS)
