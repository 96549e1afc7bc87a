"""Bots: the one interface every seat-filler implements, and the built-in bots.

A bot is built with a seed (``make_bot("greedy", seed=1)``) and asked for
one action at a time with :meth:`Bot.choose`, given only its seat's view:
a :class:`~sushigo.view.SeatView` in the base game (action ids of
:mod:`sushigo.actions`) or a :class:`~sushigo.party.view.PartySeatView` in
Sushi Go Party! (action ids of :mod:`sushigo.party.actions`).  Every built-in
bot plays both editions.

>>> from sushigo import Game
>>> from sushigo.view import seat_view
>>> sorted(BOTS)
['greedy', 'random']
>>> game = Game(4, seed=2)
>>> bot = make_bot("greedy", seed=7)
>>> bot.name, bot.choose(seat_view(game, 1)) in game.legal_actions(1)
('greedy', True)
>>> make_bot("clever", seed=None)
Traceback (most recent call last):
    ...
ValueError: unknown bot 'clever' (choose from: greedy, random)
"""

from __future__ import annotations

from typing import Final

from sushigo.bots.base import AnyView, Bot, NoLegalActionError, Player, legal_actions_of, play_game
from sushigo.bots.greedy import GreedyBot
from sushigo.bots.party_greedy import PartyGreedyBot
from sushigo.bots.random_bot import RandomBot

BOTS: Final[dict[str, type[Bot]]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
}
"""The built-in bots by name."""


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot called ``spec`` (case and surrounding spaces ignored), seeded with ``seed``.

    Raises :class:`ValueError` naming the known bots for anything else.
    """
    cls = BOTS.get(spec.strip().lower()) if isinstance(spec, str) else None
    if cls is None:
        raise ValueError(f"unknown bot {spec!r} (choose from: {', '.join(sorted(BOTS))})")
    return cls(seed)


__all__ = [
    "AnyView",
    "BOTS",
    "Bot",
    "GreedyBot",
    "NoLegalActionError",
    "PartyGreedyBot",
    "Player",
    "RandomBot",
    "legal_actions_of",
    "make_bot",
    "play_game",
]
