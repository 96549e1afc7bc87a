"""The one bot interface, shared by the terminal game, tournaments, the server and RL.

A bot is given a :class:`~sushigo.view.SeatView` (base game) or a
:class:`~sushigo.party.view.PartySeatView` (Sushi Go Party!): everything its
seat may know, and nothing more.  It returns one action id from
``view.legal_actions`` (the ids of :mod:`sushigo.actions` or of
:mod:`sushigo.party.actions`; in Party this covers the pick and every
decision while specials resolve).  It never sees the game, so it cannot read
hidden cards.  Bots draw randomness only from their own
:class:`random.Random`, seeded in the constructor, so the same seed and the
same views give the same picks.

>>> from sushigo import Game
>>> from sushigo.view import seat_view
>>> class FirstBot(Bot):
...     name = "first"
...     def choose(self, view):
...         return view.legal_actions[0]
>>> game = Game(3, seed=1)
>>> bot = FirstBot(seed=0)
>>> bot.choose(seat_view(game, 0)) in game.legal_actions(0)
True
"""

from __future__ import annotations

import abc
import random
from typing import ClassVar, Protocol, Sequence, Union, overload, runtime_checkable

from sushigo.actions import Action
from sushigo.game import Game
from sushigo.party.game import PartyGame
from sushigo.party.view import PartySeatView, party_seat_view
from sushigo.rules import Rules
from sushigo.view import SeatView, seat_view

AnyView = Union[SeatView, PartySeatView]
"""What a seat sees in either edition: the argument of :meth:`Player.choose`."""


class NoLegalActionError(ValueError):
    """A bot was asked to pick from a view that lists no legal action."""


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: a ``name`` and ``choose(view) -> action``.

    :class:`Bot` implements it; so may an RL policy wrapper or a network seat.
    """

    name: str

    def choose(self, view: AnyView) -> Action:
        """One action id from ``view.legal_actions`` (a base or a Party view)."""
        ...


class Bot(abc.ABC):
    """Base class of the built-in bots.

    Args:
        seed: seed for the bot's private random generator (``None``: unseeded).
        rng: a ready generator to use instead of ``seed`` (used, not copied).

    Subclasses set the class attribute :attr:`name` and implement
    :meth:`choose`.
    """

    name: ClassVar[str] = "bot"
    """Registry name of the bot (``'random'``, ``'greedy'``)."""

    rng: random.Random
    """The bot's own random generator; the only source of its randomness."""

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)

    @abc.abstractmethod
    def choose(self, view: AnyView) -> Action:
        """Pick one action id from ``view.legal_actions`` (base or Party view).

        Raises :class:`NoLegalActionError` when the view lists none (the seat
        has already picked, or the game is not waiting for picks).
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def legal_actions_of(view: AnyView) -> tuple[Action, ...]:
    """``view.legal_actions``, or :class:`NoLegalActionError` if there are none."""
    actions = view.legal_actions
    if not actions:
        raise NoLegalActionError(
            f"seat {view.seat} has nothing to pick now (round {view.round}, turn {view.turn})"
        )
    return actions


@overload
def play_game(bots: Sequence[Player], *, seed: int | None = None, rules: None = None) -> Game: ...


@overload
def play_game(bots: Sequence[Player], *, seed: int | None = None, rules: Rules) -> Game | PartyGame: ...


def play_game(
    bots: Sequence[Player],
    *,
    seed: int | None = None,
    rules: Rules | None = None,
) -> Game | PartyGame:
    """Play a whole game with one bot per seat (seat order); return the finished game.

    ``rules`` defaults to the base game for ``len(bots)`` players; Party rules
    (``Rules.party(...)``) give a :class:`~sushigo.party.game.PartyGame`.
    Every bot picks from its own seat's view only (:func:`~sushigo.view.seat_view`
    or :func:`~sushigo.party.view.party_seat_view`); in Party the game asks
    every seat in :attr:`~sushigo.party.game.PartyGame.pending_seats`, which
    while specials resolve is the one seat with a decision to make.

    >>> from sushigo.bots import RandomBot
    >>> game = play_game([RandomBot(seed=s) for s in range(3)], seed=4)
    >>> game.is_over, len(game.result().totals)
    (True, 3)
    >>> party = play_game([RandomBot(seed=s) for s in range(5)], seed=4,
    ...                   rules=Rules.party(5, "Master Menu"))
    >>> type(party).__name__, party.is_over
    ('PartyGame', True)
    """
    if rules is not None and rules.is_party:
        return _play_party(bots, PartyGame(rules, seed=seed))
    game = Game(rules if rules is not None else Rules(len(bots)), seed=seed)
    if game.players != len(bots):
        raise ValueError(f"{len(bots)} bots for a {game.players}-player game")
    while not game.is_over:
        game.play([bot.choose(seat_view(game, s)) for s, bot in enumerate(bots)])
    return game


def _play_party(bots: Sequence[Player], game: PartyGame) -> PartyGame:
    if game.players != len(bots):
        raise ValueError(f"{len(bots)} bots for a {game.players}-player game")
    while not game.is_over:
        for seat in game.pending_seats:
            game.commit(seat, bots[seat].choose(party_seat_view(game, seat)))
    return game
