"""Bot specs for tests: every built-in bot, search bots on a small budget."""

from __future__ import annotations

from sushigo.bots import BOTS, Bot, make_bot

SEARCH_BUDGET = {"ismcts": "ismcts:iterations=12", "flatmc": "flatmc:iterations=12"}


def fast_spec(name: str) -> str:
    """``name``, with a small iteration budget for the search bots."""
    return SEARCH_BUDGET.get(name, name)


def fast_bot(name: str, seed: int | None) -> Bot:
    """The built-in bot ``name`` (search bots on a small budget), seeded."""
    return make_bot(fast_spec(name), seed)


assert set(SEARCH_BUDGET) <= set(BOTS)
