"""Who sits where, on which deal, with which seeds: the tournament schedule.

A tournament seats all ``n`` listed bots at every game.  Games come in *sets*
of ``n``: game ``g`` is game ``i = g % n`` of set ``j = g // n`` and seats
listed bot ``k`` at seat ``(k + i) % n`` in even sets and at seat
``(i - k) % n`` in odd sets, so within a set every bot plays every seat, and
over two sets every bot passes to, and receives from, each neighbour in
the listed order equally often (a rotation alone would always pass the same
bot's leftovers to the same bot).  With duplicate deals (the default) the games of a set share one
deal seed, so every bot plays every seat of the same shuffled deck; without,
each game gets its own.  Everything about game ``g`` is a pure function of
the tournament seed ``S`` and ``g`` (:func:`derive_seed`), so any backend,
worker count or order plays the very same games.

>>> specs = ["greedy", "random", "random"]
>>> [g.bot_index for g in schedule(["a", "b", "c"], 6, seed=1)]  # the bot at each seat
[(0, 1, 2), (2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2), (2, 1, 0)]
>>> [g.seats for g in schedule(specs, 3, seed=1)]
[('greedy', 'random', 'random'), ('random', 'greedy', 'random'), ('random', 'random', 'greedy')]
>>> len({g.deal_seed for g in schedule(specs, 3, seed=1)})
1
>>> len({g.deal_seed for g in schedule(specs, 3, seed=1, duplicate=False)})
3
>>> scheduled_game(specs, 1, seed=1) == schedule(specs, 3, seed=1)[1]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sushigo.engine.messages import Told
from sushigo.i18n import Phrase, _l, message_of

SEED_PREFIX: Final = "sushigo-tournament"
"""First part of every key :func:`derive_seed` hashes."""

SEED_BITS: Final = 48
"""Derived seeds are ``0 <= seed < 2**48`` (exact in JSON and in JavaScript)."""


class TournamentError(ValueError):
    """A tournament that can't be run as asked; the message is one line.

    ``usage`` is true for a bad request (a bot, a seat count, a rule option),
    false for a problem of the surroundings (an output folder, a missing Ray).
    """

    def __init__(self, message: str, *, usage: bool = True) -> None:
        super().__init__(message)
        self.usage = usage


def one_line(error: BaseException) -> str:
    """``error``'s message on one line (runs of white space made one space): its
    :class:`~sushigo.i18n.Phrase` or :class:`~sushigo.engine.messages.Told` when it was
    raised with one (said in the reader's language where it leaves), else (or when its
    English is not one line already) its plain text.

    >>> one_line(ValueError("two\\n  lines")), type(one_line(TournamentError(_l("no  {x}", x="y")))).__name__
    ('two lines', 'str')
    >>> type(one_line(TournamentError(_l("--ray-address is for --backend ray")))).__name__
    'Phrase'
    """
    message = message_of(error)
    flat = " ".join(message.split())
    return message if isinstance(message, Phrase | Told) and flat == message else flat


def derive_seed(seed: int, *parts: object) -> int:
    """A seed in ``[0, 2**48)`` that depends only on ``seed`` and ``parts``.

    It hashes the text ``sushigo-tournament:S:part:part...`` (with SHA-512,
    through :class:`random.Random`), so it is the same on every machine, in
    every process and in every Python version that keeps ``random``'s seeding.

    >>> derive_seed(7, "deal", "set", 0) == derive_seed(7, "deal", "set", 0)
    True
    >>> derive_seed(7, "deal", "set", 0) == derive_seed(7, "deal", "set", 1)
    False
    """
    key = ":".join([SEED_PREFIX, str(seed), *(str(p) for p in parts)])
    return random.Random(key).getrandbits(SEED_BITS)


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game of the schedule, before it is played."""

    game: int
    """Index of the game in the tournament, from 0."""
    set: int
    """Index of its set: ``game // n``."""
    deal_seed: int
    """Seed of the deal (:class:`~sushigo.engine.base.game.Game` / :class:`~sushigo.engine.party.game.PartyGame`)."""
    seats: tuple[str, ...]
    """The bot spec at each seat."""
    bot_index: tuple[int, ...]
    """The listed bot (index into the tournament's specs) at each seat."""
    bot_seeds: tuple[int, ...]
    """The seed of the bot at each seat."""
    tournament_seed: int
    """The tournament seed ``S`` everything above derives from."""

    @property
    def game_id(self) -> str:
        """The game id bots are told in ``start_game`` and ``end_game``."""
        return f"tournament-{self.tournament_seed}-game-{self.game}"

    def seat_of(self, bot: int) -> int:
        """The seat of listed bot ``bot`` in this game."""
        return self.bot_index.index(bot)


def scheduled_game(
    specs: Sequence[str], game: int, *, seed: int, duplicate: bool = True
) -> ScheduledGame:
    """Game ``game`` of a tournament of ``specs`` with tournament seed ``seed``.

    The deal seed is derived from ``(seed, set)`` with duplicate deals, from
    ``(seed, game)`` without; bot ``k``'s seed from ``(seed, game, k)``.
    """
    n = len(specs)
    if n < 1 or game < 0:
        raise TournamentError(_l("a game needs bots and a game index of 0 or more"))
    set_index, turn = divmod(game, n)
    if duplicate:
        deal_seed = derive_seed(seed, "deal", "set", set_index)
    else:
        deal_seed = derive_seed(seed, "deal", "game", game)
    if set_index % 2 == 0:
        bot_index = tuple((seat - turn) % n for seat in range(n))
    else:
        bot_index = tuple((turn - seat) % n for seat in range(n))
    return ScheduledGame(
        game=game,
        set=set_index,
        deal_seed=deal_seed,
        seats=tuple(specs[k] for k in bot_index),
        bot_index=bot_index,
        bot_seeds=tuple(derive_seed(seed, "game", game, "bot", k) for k in bot_index),
        tournament_seed=seed,
    )


def schedule(
    specs: Sequence[str], games: int, *, seed: int, duplicate: bool = True
) -> list[ScheduledGame]:
    """The first ``games`` games of a tournament of ``specs`` (see :func:`scheduled_game`).

    When ``games`` is not a multiple of ``len(specs)`` the last set is cut
    short: its first ``games % n`` rotations are played, so seats are
    balanced only up to that last partial set.
    """
    return [scheduled_game(specs, g, seed=seed, duplicate=duplicate) for g in range(games)]
