"""Bots: the one interface every seat-filler implements, and the built-in bots.

A bot is built with a seed (``make_bot("greedy", seed=1)``) and asked for
one action at a time with :meth:`Bot.choose`, given only its seat's view:
a :class:`~sushigo.engine.base.view.SeatView` in the base game (action ids of
:mod:`sushigo.engine.base.actions`) or a :class:`~sushigo.engine.party.view.PartySeatView` in
Sushi Go Party! (action ids of :mod:`sushigo.engine.party.actions`).  Every built-in
bot plays both editions (``learned``, a network trained on the original game,
plays Party by greedy's judgement).  Search bots (``ismcts``, ``flatmc``) set
:attr:`Bot.wants_world`: drivers build their views with :func:`view_for`,
which adds the seat's information set as a game to sample from.
A spec may carry settings (``ismcts:time=0.2``); ``cmd:COMMAND`` runs an
external bot (:mod:`sushigo.bots.external`, protocol ``sushigo-bot/1``).

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> sorted(BOTS)
['flatmc', 'greedy', 'ismcts', 'learned', 'random']
>>> game = Game(4, seed=2)
>>> bot = make_bot("greedy", seed=7)
>>> bot.name, bot.choose(seat_view(game, 1)) in game.legal_actions(1)
('greedy', True)
>>> make_bot("clever", seed=None)
Traceback (most recent call last):
    ...
ValueError: unknown bot 'clever' (choose from: flatmc, greedy, ismcts, learned, random, or cmd:COMMAND)
"""

from __future__ import annotations

from typing import Any, Final

from sushigo.bots.base import (
    AnyView,
    Bot,
    NoLegalActionError,
    Player,
    legal_actions_of,
    play_game,
    view_for,
)
from sushigo.bots.greedy import GreedyBot
from sushigo.bots.ismcts import FlatMCBot, ISMCTSBot
from sushigo.bots.learned import LearnedBot
from sushigo.bots.party_greedy import PartyGreedyBot
from sushigo.bots.random_bot import RandomBot
from sushigo.engine.messages import Words, told

BOTS: Final[dict[str, type[Bot]]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    ISMCTSBot.name: ISMCTSBot,
    FlatMCBot.name: FlatMCBot,
    LearnedBot.name: LearnedBot,
}
"""The built-in bots by name."""

EXTERNAL_PREFIX: Final = "cmd:"
"""A bot spec ``cmd:COMMAND`` runs ``COMMAND`` as an external bot (protocol ``sushigo-bot/1``)."""


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``'name:key=value,key=value'`` into the bot name and its typed settings.

    Names are case-insensitive; each setting must be one the bot declares
    (:attr:`Bot.settings`) and parse as its type.  Raises :class:`ValueError`
    with one line saying what is wrong.

    >>> parse_bot_spec("greedy")
    ('greedy', {})
    >>> parse_bot_spec("random:")
    ('random', {})
    >>> parse_bot_spec("greedy:depth=2")
    Traceback (most recent call last):
        ...
    ValueError: bot 'greedy' has no setting 'depth' (it has none)
    """
    if not isinstance(spec, str):
        raise told(ValueError, "a bot spec must be a string such as 'greedy', not {spec}", spec=repr(spec))
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    cls = BOTS.get(name)
    if cls is None:
        raise told(ValueError, "unknown bot {name} (choose from: {bots}, or cmd:COMMAND)", name=repr(name),
                   bots=Words(tuple(sorted(BOTS)), listing=True))
    settings: dict[str, Any] = {}
    for part in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if key not in cls.settings:
            if not cls.settings:
                raise told(ValueError, "bot {name} has no setting {key} (it has none)", name=repr(name), key=repr(key))
            raise told(ValueError, "bot {name} has no setting {key} (it has {known})", name=repr(name), key=repr(key),
                       known=Words(tuple(cls.settings), listing=True))
        if not eq or not value.strip():
            raise told(ValueError, "bot setting {key} of {name} needs a value: {bare}=VALUE", key=repr(key),
                       name=repr(name), bare=key)
        kind = cls.settings[key]
        try:
            settings[key] = kind(value.strip())
        except ValueError:
            raise told(ValueError, "bot setting {key}={value} of {name} is not a valid {kind}", key=key,
                       value=repr(value.strip()), name=repr(name), kind=kind.__name__) from None
    return name, settings


def make_bot(spec: str, seed: int | None = None, *, timeout: float | None = None) -> Bot:
    """The bot described by ``spec``, seeded with ``seed``.

    ``spec`` is a built-in name with optional settings (``'greedy'``,
    ``'ismcts:time=0.2'``, ``'ismcts:iterations=500,c=0.7'``) or
    ``'cmd:COMMAND'`` for an external program speaking ``sushigo-bot/1``
    (``timeout``: its time limit per decision, in seconds).  Raises
    :class:`ValueError` with one line for anything else, naming the known
    bots or settings.
    """
    if isinstance(spec, str) and spec.strip().lower().startswith(EXTERNAL_PREFIX):
        from sushigo.bots.external import ExternalBot

        command = spec.strip()[len(EXTERNAL_PREFIX):].strip()
        if not command:
            raise told(ValueError, "cmd: needs a command to run, such as cmd:'python3 mybot.py'")
        if timeout is None:
            return ExternalBot(command, seed)
        return ExternalBot(command, seed, timeout=timeout)
    name, settings = parse_bot_spec(spec)
    bot = BOTS[name](seed, **settings)
    return bot


__all__ = [
    "BOTS",
    "EXTERNAL_PREFIX",
    "AnyView",
    "Bot",
    "FlatMCBot",
    "GreedyBot",
    "ISMCTSBot",
    "LearnedBot",
    "NoLegalActionError",
    "PartyGreedyBot",
    "Player",
    "RandomBot",
    "legal_actions_of",
    "make_bot",
    "parse_bot_spec",
    "play_game",
    "view_for",
]
