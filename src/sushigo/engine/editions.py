"""One entry point for both editions: new games, records and score sheets.

:func:`new_game` makes a :class:`~sushigo.engine.base.game.Game` for base
rules and a :class:`~sushigo.engine.party.game.PartyGame` for Party rules.
Both share the same interface: ``legal_actions(seat)``, ``pending_seats``,
``commit(seat, action)``, ``play(picks)``, ``clone()``, ``result()``,
``history()``, ``random_playout(rng)``, ``phase``, ``is_over``.
:func:`to_record`, :func:`save_record`, :func:`replay` and
:func:`score_sheet` take a game or a file of either edition (and
:func:`explain` explains a round of either, :func:`narrator` and
:func:`story_of` tell its turns) and hand it to
that edition's module (:mod:`sushigo.engine.base.record`,
:mod:`sushigo.engine.party.record`).  This is the one module that knows
both editions; neither edition imports the other.

>>> from sushigo.engine.rules import Rules
>>> new_game(Rules(3), seed=1)
<Game 3 players, round 1, turn 1>
>>> game = new_game(Rules.party(8, "Big Banquet"), seed=1)
>>> game
<PartyGame 8 players, round 1, turn 1>
>>> import random
>>> game.random_playout(random.Random(1))
>>> replay(to_record(game)).result() == game.result()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sushigo.engine.base.actions import action_name as base_action_name
from sushigo.engine.base.explain import explain_round
from sushigo.engine.base.game import Game
from sushigo.engine.base.narration import BaseNarrator
from sushigo.engine.base.narration import action_words as base_action_words
from sushigo.engine.base.record import (
    UnknownCardInRecord,
    base_score_sheet,
    replay_base,
    score_collections,
    to_base_record,
)
from sushigo.engine.base.scoring import Result
from sushigo.engine.base.view import SeatView
from sushigo.engine.base.view import seat_view as base_seat_view
from sushigo.engine.base.view import spectator_view as base_spectator_view
from sushigo.engine.narration import Line, Narrator
from sushigo.engine.party.actions import party_action_name
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.explain import explain_party_round
from sushigo.engine.party.game import PartyGame, PartyResult
from sushigo.engine.party.narration import PartyNarrator
from sushigo.engine.party.narration import action_words as party_action_words
from sushigo.engine.party.record import party_score_sheet, replay_party, to_party_record
from sushigo.engine.party.view import PartySeatView, party_seat_view
from sushigo.engine.points import RoundStory
from sushigo.engine.records import RecordError, dumps, edition_of, expect, load_json, write_atomically
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

__all__ = [
    "AnyGame",
    "AnyView",
    "Moment",
    "RecordError",
    "action_text",
    "action_words",
    "dumps",
    "edition_of",
    "explain",
    "load_json",
    "narrator",
    "new_game",
    "replay",
    "save_record",
    "score_collections",
    "score_sheet",
    "seat_view",
    "spectator_view",
    "story_of",
    "to_record",
    "walk",
    "write_atomically",
]

AnyGame = Game | PartyGame
"""A game of either edition."""

AnyView = SeatView | PartySeatView
"""A seat's or spectator's view of a game of either edition."""


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


def seat_view(game: AnyGame, seat: int | None, *, world: bool = False) -> AnyView:
    """What ``seat`` may know of ``game`` now (``None``: a spectator, public
    information only); ``world=True`` (a seat only) adds the seat's
    information set as a game (:attr:`~sushigo.engine.base.view.SeatView.world`).

    >>> from sushigo.engine.rules import Rules
    >>> seat_view(new_game(Rules(3), seed=1), 0).hand is not None
    True
    >>> seat_view(new_game(Rules.party(4, "My First Meal"), seed=1), None).hand is None
    True
    """
    if isinstance(game, PartyGame):
        return party_seat_view(game, seat, world=world)
    if seat is None:
        if world:
            raise ValueError("a spectator's view has no world")
        return base_spectator_view(game)
    return base_seat_view(game, seat, world=world)


def spectator_view(game: AnyGame) -> AnyView:
    """The public view of ``game``: collections, puddings or desserts, sizes, scores; no hand."""
    return seat_view(game, None)


def action_text(game: AnyGame, action: int) -> str:
    """The text form of action id ``action`` in ``game``'s edition, as records and
    clients write it (``"wasabi+egg"``, ``"special_order>salmon"``, ``"pass"``).

    >>> from sushigo.engine.rules import Rules
    >>> action_text(new_game(Rules(2), seed=1), 0)
    'tempura'
    """
    if isinstance(game, PartyGame):
        return party_action_name(action)
    return base_action_name(action)


def explain(game: AnyGame, round_number: int) -> RoundStory:
    """How finished round ``round_number`` of a game of either edition scored, in words
    (:func:`~sushigo.engine.base.explain.explain_round`,
    :func:`~sushigo.engine.party.explain.explain_party_round`)."""
    if isinstance(game, PartyGame):
        return explain_party_round(game, round_number)
    return explain_round(game.round_collections(round_number))


def action_words(game: AnyGame, action: int) -> str:
    """One decision of ``game`` in words (``'Tempura'``, ``'Wasabi, then Egg nigiri (chopsticks)'``)."""
    return party_action_words(action) if isinstance(game, PartyGame) else base_action_words(action)


def narrator(game: AnyGame) -> Narrator:
    """A narrator that follows ``game`` from now on (call its ``update()`` after
    each decision; :mod:`sushigo.engine.narration`)."""
    return PartyNarrator(game) if isinstance(game, PartyGame) else BaseNarrator(game)


@dataclass(frozen=True, slots=True)
class Moment:
    """One moment of a game's history where someone decides (or a round ends):
    what :func:`walk` yields, before the decisions of the moment are applied."""

    board: AnyGame
    """The game at this moment (one object, moved on after the moment: copy it to keep it)."""
    kind: str
    """``"pick"`` (every seat's simultaneous pick), a Party special deciding
    (``"chopsticks"``, ``"spoon"``, ``"menu"``, ``"takeout_box"``), ``"round_end"``,
    ``"end"`` (after a finished game's last round) or ``"now"`` (where an
    unfinished game stands)."""
    round: int
    turn: int | None
    """``None`` at a round's end."""
    chosen: Mapping[int, int]
    """Seat -> the action it decided at this moment (empty at a round's end)."""
    index: int
    """Which of the deciding seat's decisions this turn: 0 the pick, then 1, 2, ... each later one."""
    told: tuple[Line, ...] = ()
    """The story's lines since the previous moment (with ``narrate=True``)."""


def walk(game: AnyGame, *, narrate: bool = False) -> Iterator[Moment]:
    """Every moment of ``game``'s history (finished or not), in order: each
    turn's picks, in Sushi Go Party! each decision after the reveal, and each
    round's end; the one walk records, replays, the replay viewer and analysis use.

    >>> from sushigo.engine.rules import Rules
    >>> game = new_game(Rules.party(3, "Master Menu"), seed=4)
    >>> game.random_playout(random.Random(4))
    >>> moments = list(walk(game, narrate=True))
    >>> moments[0].kind, moments[0].round, moments[0].turn, sorted(moments[0].chosen)
    ('pick', 1, 1, [0, 1, 2])
    >>> moments[-1].kind, sum(len(m.told) for m in moments) == len(story_of(game))
    ('end', True)
    """
    if isinstance(game, PartyGame):
        party = PartyGame(game.rules, auto_deal=False)
        return _party_walk(game, party, _Told(narrator(party) if narrate else None))
    base = Game(game.rules, auto_deal=False)
    return _base_walk(game, base, _Told(narrator(base) if narrate else None))


class _Told:
    """The lines a narrator told since they were last taken (none without a narrator)."""

    def __init__(self, teller: Narrator | None) -> None:
        self.teller = teller
        self.lines: list[Line] = []

    def tell(self) -> None:
        if self.teller is not None:
            self.lines.extend(self.teller.update())

    def take(self) -> tuple[Line, ...]:
        out = tuple(self.lines)
        self.lines.clear()
        return out


def _end_kind(game: AnyGame, r: int, rounds: int) -> str:
    return ("end" if r == rounds else "round_end") if r < rounds or game.is_over else "now"


def _base_walk(game: Game, board: Game, told: _Told) -> Iterator[Moment]:
    history = game.history()
    for r, (dealt, turns) in enumerate(history, start=1):
        board.deal(dealt)
        for t, actions in enumerate(turns, start=1):
            yield Moment(board, "pick", r, t, dict(enumerate(actions)), 0, told.take())
            board.play(list(actions))
            told.tell()
        yield Moment(board, _end_kind(game, r, len(history)), r, None, {}, 0, told.take())


def _party_walk(game: PartyGame, board: PartyGame, told: _Told) -> Iterator[Moment]:
    history = game.history()
    players = game.players
    for r, (dealt, turns) in enumerate(history, start=1):
        board.deal(dealt)
        for t, moves in enumerate(turns, start=1):
            picks, later = moves[:players], moves[players:]
            yield Moment(board, "pick", r, t, {m.seat: m.action for m in picks}, 0, told.take())
            for m in picks:
                board.commit(m.seat, m.action)
                told.tell()
            made = [0] * players
            for move in later:
                if board.phase is Phase.DRAW:
                    board.draw(move.drawn)
                decision = board.decision
                assert decision is not None and decision.seat == move.seat, "a history out of order"
                made[move.seat] += 1
                yield Moment(board, decision.kind, r, t, {move.seat: move.action}, made[move.seat], told.take())
                board.commit(move.seat, move.action)
                told.tell()
        yield Moment(board, _end_kind(game, r, len(history)), r, None, {}, 0, told.take())


def story_of(game: AnyGame) -> list[Line]:
    """Every line of a game's story so far, told again from its history
    (the same lines a narrator that followed it from the start gave).

    >>> from sushigo.engine.rules import Rules
    >>> game = new_game(Rules.party(3, "Master Menu"), seed=4)
    >>> game.random_playout(random.Random(4))
    >>> lines = story_of(game)
    >>> lines[-1].kind, sum(line.kind == "pick" for line in lines)
    ('game', 90)
    """
    return [line for moment in walk(game, narrate=True) for line in moment.told]


def to_record(game: AnyGame, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game record of ``game`` (finished or not) as a JSON-ready dict.

    Adds the optional keys ``meta`` (with the seed when known, plus anything
    given) and, for a finished game, ``result``.
    """
    if isinstance(game, Game):
        return to_base_record(game, meta=meta)
    return to_party_record(game, meta=meta)


def save_record(game: AnyGame, path: str, *, meta: Mapping[str, Any] | None = None) -> None:
    """Write the record of ``game`` to ``path`` (atomically: a temp file, then rename)."""
    write_atomically(path, [dumps(to_record(game, meta=meta)) + "\n"])


def replay(data: Any) -> AnyGame:
    """Check a complete game record of either edition move by move; return the finished game.

    Raises :class:`~sushigo.engine.records.RecordError` naming the round,
    turn and seat of the first problem, including a record that stops early.
    """
    expect(data, dict, "record", "the record")
    if edition_of(data) == "party":
        return replay_party(data)
    try:
        return replay_base(data)
    except UnknownCardInRecord as e:
        raise _named_party_card(e) from None


def score_sheet(data: Any) -> Result | PartyResult:
    """Score the collections of a physical table (a score sheet, 1 to 3 rounds), either edition.

    The pudding adjustment applies only when all three rounds are present.
    """
    expect(data, dict, "score sheet", "the score sheet")
    if edition_of(data) == "party":
        return party_score_sheet(data)
    try:
        return base_score_sheet(data)
    except UnknownCardInRecord as e:
        raise _named_party_card(e) from None


_PARTY_NAMES = frozenset(c.name_in_records for c in PartyCard)


def _named_party_card(error: UnknownCardInRecord) -> RecordError:
    """A base file's unknown card, said to be a Party card when it is one."""
    if error.name.strip().lower() not in _PARTY_NAMES:
        return error
    return RecordError(
        f"{error.where}: unknown card {error.name!r} (a Sushi Go Party! card: Party sheets and"
        " records say \"edition\": \"party\" and name a menu)"
    )
