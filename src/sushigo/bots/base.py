"""The one bot interface, shared by the terminal game, tournaments, the server and RL.

A bot is given a :class:`~sushigo.engine.base.view.SeatView` (base game) or a
:class:`~sushigo.engine.party.view.PartySeatView` (Sushi Go Party!): everything its
seat may know, and nothing more.  It returns one action id from
``view.legal_actions`` (the ids of :mod:`sushigo.engine.base.actions` or of
:mod:`sushigo.engine.party.actions`; in Party this covers the pick and every
decision while specials resolve).  It never sees the game, so it cannot read
hidden cards.  Bots draw randomness only from their own
:class:`random.Random`, seeded in the constructor, so the same seed and the
same views give the same picks.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
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
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, overload, runtime_checkable

from sushigo.engine.base.actions import Action
from sushigo.engine.base.game import Game
from sushigo.engine.editions import AnyView as _AnyView
from sushigo.engine.editions import new_game, seat_view
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules

AnyView = _AnyView  # one name for a view of either edition (sushigo.engine.editions.AnyView)
"""What a seat sees in either edition: the argument of :meth:`Player.choose`."""


class NoLegalActionError(ValueError):
    """A bot was asked to pick from a view that lists no legal action."""


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: a ``name`` and ``choose(view) -> action``.

    :class:`Bot` implements it; so may an RL policy wrapper or a network seat.
    Optional, used when present: ``wants_world`` (see :attr:`Bot.wants_world`),
    ``start_game``, ``end_game`` and ``close`` (see :class:`Bot`).
    """

    @property
    def name(self) -> str:
        """A short name for the seat-filler (``'greedy'``)."""
        ...

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

    wants_world: ClassVar[bool] = False
    """Whether drivers should hand this bot views that carry the seat's
    information set as a game (``view.world``), which search bots sample
    from with :func:`sushigo.engine.base.view.determinize`.  It costs a copy of the game
    per view, so only bots that need it ask."""

    settings: ClassVar[dict[str, type]] = {}
    """The keyword settings the constructor takes (``ismcts:time=0.2``), with their types."""

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

    def start_game(self, game_id: str, seat: int, rules: Rules) -> None:  # noqa: B027  optional no-op hook
        """Called before a game in which this bot takes seat ``seat`` (default: nothing).

        Drivers that run many games (:func:`play_game`, tournaments) call it;
        an external program learns of a new game this way.
        """

    def end_game(self, game_id: str, result: dict[str, Any]) -> None:  # noqa: B027  optional no-op hook
        """Called once a game is over, with its result as JSON (default: nothing)."""

    def close(self) -> None:  # noqa: B027  optional no-op hook
        """Release what the bot holds (a subprocess, say); default: nothing."""

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
def play_game(
    bots: Sequence[Player], *, seed: int | None = None, rules: None = None, game_id: str | None = None
) -> Game: ...


@overload
def play_game(
    bots: Sequence[Player], *, seed: int | None = None, rules: Rules, game_id: str | None = None
) -> Game | PartyGame: ...


def play_game(
    bots: Sequence[Player],
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    game_id: str | None = None,
) -> Game | PartyGame:
    """Play a whole game with one bot per seat (seat order); return the finished game.

    ``rules`` defaults to the base game for ``len(bots)`` players; Party rules
    (``Rules.party(...)``) give a :class:`~sushigo.engine.party.game.PartyGame`.
    Bots that have them get ``start_game(game_id, seat, rules)`` before and
    ``end_game(game_id, result)`` after (``game_id`` defaults to ``seed-S``).
    Every bot picks from its own seat's view only (:func:`~sushigo.engine.base.view.seat_view`
    or :func:`~sushigo.engine.party.view.party_seat_view`); in Party the game asks
    every seat in :attr:`~sushigo.engine.party.game.PartyGame.pending_seats`, which
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
    rules = rules if rules is not None else Rules(len(bots))
    if rules.players != len(bots):
        raise ValueError(f"{len(bots)} bots for a {rules.players}-player game")
    game = new_game(rules, seed=seed)
    game_id = str(game_id) if game_id is not None else f"seed-{seed}"
    for seat, bot in enumerate(bots):
        start = getattr(bot, "start_game", None)
        if start is not None:
            start(game_id, seat, rules)
    while not game.is_over:
        for seat in game.pending_seats:
            game.commit(seat, bots[seat].choose(view_for(game, seat, bots[seat])))
    result = game.result().to_json()
    for bot in bots:
        end = getattr(bot, "end_game", None)
        if end is not None:
            end(game_id, result)
    return game


def view_for(game: Game | PartyGame, seat: int, player: object) -> AnyView:
    """The view a driver hands to ``player`` at ``seat``: with the seat's
    information set as a game (see :func:`sushigo.engine.base.view.seat_view`) when the
    player sets ``wants_world = True`` (search bots), else without it.
    """
    return seat_view(game, seat, world=bool(getattr(player, "wants_world", False)))
