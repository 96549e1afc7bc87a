"""One door for both editions: an :class:`Edition` per edition, and the functions of the flat API.

Everything that differs between the original game and Sushi Go Party! is
reached through the :class:`Edition` of a game, rules, view or record
(:func:`edition_for`): a new game, seat and spectator views, the view
document clients render, action text and words, narration, explanations,
the history walk, records, replays and score sheets.  No module outside
``sushigo.engine`` tests which edition it holds; code with a strategy per
edition (bots) names both and lets :func:`by_view` (or :func:`by_game`,
:meth:`Edition.select`) choose.

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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeVar

from sushigo.engine.base.actions import NUM_ACTIONS
from sushigo.engine.base.actions import action_name as base_action_name
from sushigo.engine.base.cards import Card
from sushigo.engine.base.explain import explain_round
from sushigo.engine.base.game import Game
from sushigo.engine.base.narration import BaseNarrator
from sushigo.engine.base.narration import action_said as base_action_said
from sushigo.engine.base.narration import action_words as base_action_words
from sushigo.engine.base.record import (
    UnknownCardInRecord,
    base_score_sheet,
    replay_base,
    score_collections,
    to_base_record,
)
from sushigo.engine.base.scoring import Result
from sushigo.engine.base.view import SeatView, determinize, on_wasabi, round_hands, seat_members
from sushigo.engine.base.view import seat_view as base_seat_view
from sushigo.engine.base.view import spectator_view as base_spectator_view
from sushigo.engine.menus import menu_name
from sushigo.engine.messages import N_, Label, Param, Words, as_json, msg, render, told
from sushigo.engine.narration import Line, Narrator
from sushigo.engine.party.actions import PARTY_NUM_ACTIONS, party_action_name
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.explain import explain_party_round
from sushigo.engine.party.game import PartyGame, PartyResult
from sushigo.engine.party.narration import PartyNarrator
from sushigo.engine.party.narration import action_said as party_action_said
from sushigo.engine.party.narration import action_words as party_action_words
from sushigo.engine.party.record import party_score_sheet, replay_party, to_party_record
from sushigo.engine.party.view import PartySeatView, determinize_party, party_seat_view, played_cards
from sushigo.engine.points import RoundStory
from sushigo.engine.records import RecordError, dumps, edition_of, expect, load_json, write_atomically
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

__all__ = [
    "BASE",
    "EDITIONS",
    "PARTY",
    "AnyGame",
    "AnyView",
    "Edition",
    "Moment",
    "RecordError",
    "action_said",
    "action_text",
    "action_words",
    "by_game",
    "by_result",
    "by_view",
    "dumps",
    "edition_for",
    "edition_of",
    "explain",
    "explained_rounds",
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
    "view_document",
    "walk",
    "write_atomically",
]

AnyGame = Game | PartyGame
"""A game of either edition."""

AnyView = SeatView | PartySeatView
"""A seat's or spectator's view of a game of either edition."""


T = TypeVar("T")
R = TypeVar("R")


class Edition:
    """What one edition does its own way, behind one door: :data:`BASE` and
    :data:`PARTY` are the two instances (:func:`edition_for` finds a thing's).

    >>> from sushigo.engine.rules import Rules
    >>> party = edition_for(Rules.party(3, "Master Menu"))
    >>> party, party.name, edition_for("base") is BASE
    (<Edition party>, 'party', True)
    >>> game = party.new_game(Rules.party(3, "Master Menu"), seed=2)
    >>> party.action_text(game.legal_actions(0)[0]) in party.view_document(game, 0)["legal"]
    True
    """

    name: ClassVar[str]
    """``"base"`` or ``"party"``: the ``edition`` of rules, records and views."""
    title: ClassVar[str]
    tiebreak_name: ClassVar[str]
    """What breaks a tie on points, as a score sheet's row says it (``"Puddings"``, ``"Desserts"``)."""
    tiebreak_key: ClassVar[str]
    """The member of a result (object and ``to_json()`` alike) that breaks a tie on points:
    ``"puddings"``, ``"dessert_cards"`` (Party's ``"desserts"`` are dessert points)."""
    num_actions: ClassVar[int]
    """How many action ids the edition's encoding has (ids are ``0 .. num_actions - 1``)."""

    def __repr__(self) -> str:
        return f"<Edition {self.name}>"

    def select(self, base: T, party: T) -> T:
        """The one of two per-edition things that is this edition's (for code
        with a strategy per edition, such as a bot: ``edition_for(view).select(self._base, self._party)``)."""
        raise NotImplementedError

    def new_game(self, rules: Rules, *, seed: int | None = None, rng: random.Random | None = None,
                 auto_deal: bool = True) -> AnyGame:
        raise NotImplementedError

    def seat_view(self, game: AnyGame, seat: int | None, *, world: bool = False) -> AnyView:
        """What ``seat`` (``None``: a spectator) may know of ``game`` now (see :func:`seat_view`)."""
        raise NotImplementedError

    def determinize(self, view: AnyView, rng: random.Random) -> AnyGame:
        """One game consistent with everything ``view`` shows, its unseen cards dealt with ``rng``."""
        raise NotImplementedError

    def action_text(self, action: int) -> str:
        """Action id ``action``'s text form, as records and clients write it."""
        raise NotImplementedError

    def action_words(self, action: int) -> str:
        """Action id ``action`` in words."""
        raise NotImplementedError

    def action_said(self, action: int, label: bool = False) -> Any:
        """Action id ``action`` in words as a message's JSON (:func:`~sushigo.engine.messages.as_json`),
        for a front end to say in its reader's language: as a sentence's object (``"to pass"``),
        or with ``label`` as a label (``"Pass"``)."""
        raise NotImplementedError

    def card_name(self, card: int) -> str:
        """Card id ``card``'s name in records (``"squid"``, ``"miso_soup"``)."""
        raise NotImplementedError

    def narrator(self, game: AnyGame) -> Narrator:
        raise NotImplementedError

    def explain(self, game: AnyGame, round_number: int) -> RoundStory:
        raise NotImplementedError

    def walk(self, game: AnyGame, *, narrate: bool = False) -> Iterator[Moment]:
        raise NotImplementedError

    def to_record(self, game: AnyGame, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def replay(self, data: dict[str, Any]) -> AnyGame:
        raise NotImplementedError

    def score_sheet(self, data: dict[str, Any]) -> Result | PartyResult:
        raise NotImplementedError

    def round_cards(self, game: AnyGame, done: int) -> dict[str, Any]:
        """Finished round ``done``'s collections: ``round``, ``collections`` (record
        names, or Party collection texts) and ``on_wasabi`` (public: all of it was revealed)."""
        raise NotImplementedError

    def tiebreak(self, result: Result | PartyResult) -> tuple[int, ...]:
        """What breaks a tie on points, per seat: puddings, or Party dessert cards."""
        raise NotImplementedError

    def tiebreak_of(self, result: Mapping[str, Any]) -> tuple[int, ...]:
        """:meth:`tiebreak` of a result as stored (its ``to_json()``).

        >>> from sushigo.engine.rules import Rules
        >>> game = PARTY.new_game(Rules.party(3, "My First Meal"), seed=2)
        >>> game.random_playout(random.Random(2))
        >>> PARTY.tiebreak_of(game.result().to_json()) == PARTY.tiebreak(game.result())
        True
        """
        return tuple(result[self.tiebreak_key])

    def words(self) -> dict[str, str]:
        """What a front end calls the edition: ``title`` and ``tiebreak`` (a score sheet's row).

        >>> PARTY.words()
        {'title': 'Sushi Go Party!', 'tiebreak': 'Desserts'}
        """
        return {"title": self.title, "tiebreak": self.tiebreak_name}

    def describe(self, rules: Rules) -> str:
        """The game ``rules`` make, in a few words.

        >>> from sushigo.engine.rules import Rules
        >>> BASE.describe(Rules(3, pass_both_ways=True)), PARTY.describe(Rules.party(4, "My First Meal"))
        ('Sushi Go! (pass both ways)', 'Sushi Go Party! (My First Meal)')
        """
        return render(self.described(rules))

    def described(self, rules: Rules) -> Param:
        """:meth:`describe` as a message, for a reader in any language."""
        raise NotImplementedError

    def view_document(self, game: AnyGame, seat: int | None, explained: list[dict[str, Any]] | None = None,
                      *, rounds: bool = True) -> dict[str, Any]:
        """Everything a client renders for ``seat`` (``None``: a spectator), one
        document for both editions: the view's :meth:`to_json` and

        - ``last_round``: the newest finished round's :meth:`round_cards` (or ``None``);
        - ``explained``: every finished round's scoring in words (:func:`explained_rounds`;
          ``explained``, the rounds explained before, is extended in place);
        - ``passes``: where hands go after this turn, ``"left"`` (to the next seat) or ``"right"``;
        - ``choices``: what the seat may send now, each ``{"action", "text", "words", "words_msg"}``
          (``words_msg``: the words as a message, :func:`action_said`):
          its legal actions, or, while its pick is hidden and may change, what it
          may change it to (a spectator's: empty);
        - a seat's ``pass_to`` and ``receive_from``, ``change_to`` and ``change_to_text``
          (while its pick is hidden, else empty) and ``committed_text`` (its hidden pick's text).

        ``rounds=False`` leaves ``last_round`` and ``explained`` ``None`` (for a caller that has them).
        """
        return self.view_documents(game, explained, rounds=rounds)(seat)

    def view_documents(self, game: AnyGame, explained: list[dict[str, Any]] | None = None,
                       *, rounds: bool = True, kept: dict[str, Any] | None = None
                       ) -> Callable[[int | None], dict[str, Any]]:
        """Seat -> its :meth:`view_document` at this moment of ``game``, for many seats at
        once: what seats share (the public view, the rounds) is built once.  Valid
        while the game does not change.  ``kept``: a dict the caller keeps for this
        game from moment to moment, where what changes only when a round ends (the
        newest finished round's cards) is kept.

        >>> from sushigo.engine.rules import Rules
        >>> game = BASE.new_game(Rules(4), seed=3)
        >>> of = BASE.view_documents(game)
        >>> all(of(s) == BASE.view_document(game, s) for s in (None, 0, 1, 2, 3))
        True
        """
        done = len(game.round_breakdowns)
        last_round = None
        if rounds and done:
            newest = kept.get("last_round") if kept is not None else None
            if newest is not None and newest[0] == done:
                last_round = newest[1]
            else:
                last_round = self.round_cards(game, done)
                if kept is not None:
                    kept["last_round"] = (done, last_round)
        told = explained_rounds(game, explained) if rounds else None
        view_json = self._view_json(game, kept)
        text, words, said = self.action_text, self.action_words, self.action_said
        step, players = game.pass_step, game.players
        passes = "left" if step > 0 else "right"

        def of(seat: int | None) -> dict[str, Any]:
            out = view_json(seat)
            out["last_round"] = last_round
            out["explained"] = told
            out["passes"] = passes
            if seat is None:
                out["choices"] = []
                return out
            change = game.change_choices(seat)
            committed = game.committed_action(seat)
            out["pass_to"] = (seat + step) % players
            out["receive_from"] = (seat - step) % players
            out["change_to"] = change
            out["change_to_text"] = [text(a) for a in change]
            out["committed_text"] = None if committed is None else text(committed)
            now = change if committed is not None and change else out["legal_actions"]
            out["choices"] = [{"action": a, "text": text(a), "words": words(a), "words_msg": said(a)} for a in now]
            return out

        return of

    def _view_json(self, game: AnyGame, kept: dict[str, Any] | None = None
                   ) -> Callable[[int | None], dict[str, Any]]:
        """Seat -> ``seat_view(game, seat).to_json()`` (a new dict each time), for many seats at once
        (``kept``: as for :meth:`view_documents`)."""
        return lambda seat: self.seat_view(game, seat).to_json()


def _remembered(name: Callable[[int], T], count: int) -> Callable[[int], T]:
    """``name`` (an action's text or words, which depend on the action alone) with each
    action's answer kept once asked: a view document names every choice, every time."""
    known: list[T | None] = [None] * count

    def named(action: int) -> T:
        if type(action) is not int or not 0 <= action < count:
            return name(action)  # its own error for what is not an action
        text = known[action]
        if text is None:
            text = known[action] = name(action)
        return text

    return named


def _base(game: object) -> Game:
    if not isinstance(game, Game):
        raise TypeError(f"the original game's edition was given {type(game).__name__}")
    return game


def _party(game: object) -> PartyGame:
    if not isinstance(game, PartyGame):
        raise TypeError(f"Sushi Go Party!'s edition was given {type(game).__name__}")
    return game


_VARIANTS: Final = {
    # TRANSLATORS: the base game's variants, in brackets after its name ("Sushi Go! (pass both ways, reshuffle)")
    "pass_both_ways": N_("pass both ways"), "reshuffle": N_("reshuffle"),
}
"""The words of the base game's rule options in :meth:`Edition.described`."""

_BASE_TEXT: Final = _remembered(base_action_name, NUM_ACTIONS)
_BASE_WORDS: Final = _remembered(base_action_words, NUM_ACTIONS)
_PARTY_TEXT: Final = _remembered(party_action_name, PARTY_NUM_ACTIONS)
_PARTY_WORDS: Final = _remembered(party_action_words, PARTY_NUM_ACTIONS)
_BASE_SAID: Final = _remembered(lambda action: as_json(base_action_said(action)), NUM_ACTIONS)
_PARTY_SAID: Final = _remembered(lambda action: as_json(party_action_said(action)), PARTY_NUM_ACTIONS)
_PARTY_LABEL_SAID: Final = _remembered(lambda action: as_json(party_action_said(action, label=True)),
                                       PARTY_NUM_ACTIONS)


class _BaseEdition(Edition):
    name = "base"
    title = N_("Sushi Go!")
    tiebreak_name = N_("Puddings")
    tiebreak_key = "puddings"
    num_actions = NUM_ACTIONS

    def select(self, base: T, party: T) -> T:
        return base

    def new_game(self, rules: Rules, *, seed: int | None = None, rng: random.Random | None = None,
                 auto_deal: bool = True) -> Game:
        return Game(rules, seed=seed, rng=rng, auto_deal=auto_deal)

    def seat_view(self, game: AnyGame, seat: int | None, *, world: bool = False) -> SeatView:
        if seat is None:
            if world:
                raise told(ValueError, "a spectator's view has no world")
            return base_spectator_view(_base(game))
        return base_seat_view(_base(game), seat, world=world)

    def _view_json(self, game: AnyGame, kept: dict[str, Any] | None = None
                   ) -> Callable[[int | None], dict[str, Any]]:
        base = _base(game)
        # Between two reveals only who has picked changes in public: the spectator's view
        # of a turn is kept and its "picked" brought up to date.
        turn = (base.round, base.turn, base.phase)
        newest = kept.get("spectator") if kept is not None else None
        if newest is not None and newest[0] == turn:
            spectator = dict(newest[1])
            spectator["picked"] = [base.has_committed(s) for s in range(base.players)]
        else:
            spectator = base_spectator_view(base).to_json()
            if kept is not None:
                kept["spectator"] = (turn, dict(spectator))
        history: list[list[list[int]]] = []

        def of(seat: int | None) -> dict[str, Any]:
            if seat is None:
                return dict(spectator)
            if not history:
                history.extend(round_hands(base))
            # a seat sees what a spectator sees, and its own members (hidden information: engine.base.view)
            return {**spectator, **seat_members(base, seat, history, spectator["known_cards"])}

        return of

    def determinize(self, view: AnyView, rng: random.Random) -> Game:
        if not isinstance(view, SeatView):
            raise TypeError(f"the original game's edition was given {type(view).__name__}")
        return determinize(view, rng)

    def action_text(self, action: int) -> str:
        return _BASE_TEXT(action)

    def action_words(self, action: int) -> str:
        return _BASE_WORDS(action)

    def action_said(self, action: int, label: bool = False) -> Any:
        return _BASE_SAID(action)

    def card_name(self, card: int) -> str:
        return Card(card).name_in_records

    def narrator(self, game: AnyGame) -> Narrator:
        return BaseNarrator(_base(game))

    def explain(self, game: AnyGame, round_number: int) -> RoundStory:
        return explain_round(_base(game).round_collections(round_number))

    def walk(self, game: AnyGame, *, narrate: bool = False) -> Iterator[Moment]:
        board = Game(game.rules, auto_deal=False)
        return _base_walk(_base(game), board, _Told(BaseNarrator(board) if narrate else None))

    def to_record(self, game: AnyGame, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return to_base_record(_base(game), meta=meta)

    def replay(self, data: dict[str, Any]) -> Game:
        try:
            return replay_base(data)
        except UnknownCardInRecord as e:
            raise _named_party_card(e) from None

    def score_sheet(self, data: dict[str, Any]) -> Result:
        try:
            return base_score_sheet(data)
        except UnknownCardInRecord as e:
            raise _named_party_card(e) from None

    def round_cards(self, game: AnyGame, done: int) -> dict[str, Any]:
        cols = _base(game).round_collections(done)
        return {"round": done, "collections": [[c.name_in_records for c in col] for col in cols],
                "on_wasabi": on_wasabi(cols)}

    def tiebreak(self, result: Result | PartyResult) -> tuple[int, ...]:
        if not isinstance(result, Result):
            raise TypeError(f"the original game's edition was given {type(result).__name__}")
        return tuple(getattr(result, self.tiebreak_key))

    def described(self, rules: Rules) -> Param:
        variants = [Label(_VARIANTS.get(o, o.replace("_", " "))) for o, on in rules.options().items() if on]
        if not variants:
            return Label(self.title)
        # TRANSLATORS: a game in a few words: {title}: the edition (Sushi Go!, Sushi Go Party!); {details}: its menu
        # or its variants
        return msg("{title} ({details})", title=Label(self.title), details=Words(tuple(variants), listing=True))


class _PartyEdition(Edition):
    name = "party"
    title = N_("Sushi Go Party!")
    tiebreak_name = N_("Desserts")
    tiebreak_key = "dessert_cards"
    num_actions = PARTY_NUM_ACTIONS

    def select(self, base: T, party: T) -> T:
        return party

    def new_game(self, rules: Rules, *, seed: int | None = None, rng: random.Random | None = None,
                 auto_deal: bool = True) -> PartyGame:
        return PartyGame(rules, seed=seed, rng=rng, auto_deal=auto_deal)

    def seat_view(self, game: AnyGame, seat: int | None, *, world: bool = False) -> PartySeatView:
        return party_seat_view(_party(game), seat, world=world)

    def determinize(self, view: AnyView, rng: random.Random) -> PartyGame:
        if not isinstance(view, PartySeatView):
            raise TypeError(f"Sushi Go Party!'s edition was given {type(view).__name__}")
        return determinize_party(view, rng)

    def action_text(self, action: int) -> str:
        return _PARTY_TEXT(action)

    def action_words(self, action: int) -> str:
        return _PARTY_WORDS(action)

    def action_said(self, action: int, label: bool = False) -> Any:
        return _PARTY_LABEL_SAID(action) if label else _PARTY_SAID(action)

    def card_name(self, card: int) -> str:
        return PartyCard(card).name_in_records

    def narrator(self, game: AnyGame) -> Narrator:
        return PartyNarrator(_party(game))

    def explain(self, game: AnyGame, round_number: int) -> RoundStory:
        return explain_party_round(_party(game), round_number)

    def walk(self, game: AnyGame, *, narrate: bool = False) -> Iterator[Moment]:
        board = PartyGame(game.rules, auto_deal=False)
        return _party_walk(_party(game), board, _Told(PartyNarrator(board) if narrate else None))

    def to_record(self, game: AnyGame, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return to_party_record(_party(game), meta=meta)

    def replay(self, data: dict[str, Any]) -> PartyGame:
        return replay_party(data)

    def score_sheet(self, data: dict[str, Any]) -> PartyResult:
        return party_score_sheet(data)

    def round_cards(self, game: AnyGame, done: int) -> dict[str, Any]:
        cols = [played_cards(col) for col in _party(game).round_collections(done)]
        return {"round": done, "collections": [[p.text for p in col] for col in cols],
                "on_wasabi": [[p.on_wasabi for p in col] for col in cols]}

    def tiebreak(self, result: Result | PartyResult) -> tuple[int, ...]:
        if not isinstance(result, PartyResult):
            raise TypeError(f"Sushi Go Party!'s edition was given {type(result).__name__}")
        return tuple(getattr(result, self.tiebreak_key))

    def described(self, rules: Rules) -> Param:
        name = menu_name(rules.menu)
        # TRANSLATORS: a Sushi Go Party! menu of the player's own making; {items}: its cards (as in game records)
        menu = Label(name) if name else msg("custom menu: {items}", items=", ".join(rules.menu[1:]))
        return msg("{title} ({details})", title=Label(self.title), details=menu)


BASE: Edition = _BaseEdition()
"""The original Sushi Go!."""
PARTY: Edition = _PartyEdition()
"""Sushi Go Party!."""
EDITIONS: Mapping[str, Edition] = {e.name: e for e in (BASE, PARTY)}
"""Each edition by its name."""


def edition_for(thing: Rules | AnyGame | AnyView | str | int) -> Edition:
    """The :class:`Edition` of rules, a game, a view (anything with ``rules``) or
    an edition's name (an int is a player count: base rules).

    >>> from sushigo.engine.rules import Rules
    >>> edition_for(new_game(Rules(2), seed=1)), edition_for("party")
    (<Edition base>, <Edition party>)
    """
    if isinstance(thing, str):
        if thing not in EDITIONS:
            raise told(ValueError, "unknown edition {name}: one of {editions}", name=repr(thing),
                       editions=Words(tuple(EDITIONS), listing=True))
        return EDITIONS[thing]
    if isinstance(thing, int):
        return BASE
    rules = thing if isinstance(thing, Rules) else thing.rules
    return EDITIONS[rules.edition]


def by_view(view: AnyView, base: Callable[[SeatView], R], party: Callable[[PartySeatView], R]) -> R:
    """``base(view)`` or ``party(view)``, whichever takes ``view``'s edition: for code
    with a strategy per edition (a bot's choice, an analysis's playout).

    >>> from sushigo.engine.rules import Rules
    >>> view = seat_view(new_game(Rules.party(3, "Master Menu"), seed=1), 0)
    >>> by_view(view, base=lambda v: "base", party=lambda v: v.menu[0])
    'nigiri'
    """
    if isinstance(view, PartySeatView):
        return party(view)
    return base(view)


def by_game(game: AnyGame, base: Callable[[Game], R], party: Callable[[PartyGame], R]) -> R:
    """``base(game)`` or ``party(game)``, whichever takes ``game``'s edition (see :func:`by_view`)."""
    if isinstance(game, PartyGame):
        return party(game)
    return base(game)


def by_result(result: Result | PartyResult, base: Callable[[Result], R], party: Callable[[PartyResult], R]) -> R:
    """``base(result)`` or ``party(result)``, whichever takes ``result``'s edition (see :func:`by_view`)."""
    if isinstance(result, PartyResult):
        return party(result)
    return base(result)


def new_game(
    rules: Rules | int,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    auto_deal: bool = True,
) -> AnyGame:
    """A new game of the edition ``rules`` names (an int means base rules)."""
    if isinstance(rules, int):
        rules = Rules(rules)
    return edition_for(rules).new_game(rules, seed=seed, rng=rng, auto_deal=auto_deal)


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
    return edition_for(game).seat_view(game, seat, world=world)


def spectator_view(game: AnyGame) -> AnyView:
    """The public view of ``game``: collections, puddings or desserts, sizes, scores; no hand."""
    return seat_view(game, None)


def view_document(game: AnyGame, seat: int | None, explained: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The document a client renders for ``seat`` (``None``: a spectator): :meth:`Edition.view_document`.

    >>> from sushigo.engine.rules import Rules
    >>> doc = view_document(new_game(Rules(2), seed=1), 0)
    >>> doc["edition"], doc["choices"][0]["text"] == doc["legal"][0], doc["last_round"]
    ('base', True, None)
    """
    return edition_for(game).view_document(game, seat, explained)


def explained_rounds(game: AnyGame, done: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every finished round's scoring in the engine's words (public: every
    card of a finished round was revealed), as ``RoundStory.to_json()``: each
    seat's figures (``category``, ``count``, ``points``, ``text``) and the races.

    A finished round never changes: ``done``, the rounds explained before
    (a live table keeps them), is extended rather than explained again.
    """
    done = [] if done is None else done
    edition = edition_for(game)
    for number in range(len(done) + 1, len(game.round_breakdowns) + 1):
        done.append(edition.explain(game, number).to_json())
    return list(done)


def action_text(game: AnyGame, action: int) -> str:
    """The text form of action id ``action`` in ``game``'s edition, as records and
    clients write it (``"wasabi+egg"``, ``"special_order>salmon"``, ``"pass"``).

    >>> from sushigo.engine.rules import Rules
    >>> action_text(new_game(Rules(2), seed=1), 0)
    'tempura'
    """
    return edition_for(game).action_text(action)


def explain(game: AnyGame, round_number: int) -> RoundStory:
    """How finished round ``round_number`` of a game of either edition scored, in words
    (:func:`~sushigo.engine.base.explain.explain_round`,
    :func:`~sushigo.engine.party.explain.explain_party_round`)."""
    return edition_for(game).explain(game, round_number)


def action_words(game: AnyGame, action: int) -> str:
    """One decision of ``game`` in words (``'Tempura'``, ``'Wasabi, then Egg nigiri (chopsticks)'``)."""
    return edition_for(game).action_words(action)


def action_said(game: AnyGame, action: int, label: bool = False) -> Any:
    """One decision of ``game`` in words, as a message's JSON (the ``words_msg`` of views,
    hints and analyses: :func:`action_words` in any language); with ``label``, as a label
    (``"Pass"`` where the words say ``"to pass"``).

    >>> action_said(Game(Rules(2)), 0)
    {'label': 'Tempura'}
    >>> from sushigo.engine.messages import from_json, render
    >>> render(from_json(action_said(Game(Rules(2)), 126))) == action_words(Game(Rules(2)), 126)
    True
    """
    return edition_for(game).action_said(action, label)


def narrator(game: AnyGame) -> Narrator:
    """A narrator that follows ``game`` from now on (call its ``update()`` after
    each decision; :mod:`sushigo.engine.narration`)."""
    return edition_for(game).narrator(game)


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
    return edition_for(game).walk(game, narrate=narrate)


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
    return edition_for(game).to_record(game, meta=meta)


def save_record(game: AnyGame, path: str, *, meta: Mapping[str, Any] | None = None) -> None:
    """Write the record of ``game`` to ``path`` (atomically: a temp file, then rename)."""
    write_atomically(path, [dumps(to_record(game, meta=meta)) + "\n"])


def replay(data: Any) -> AnyGame:
    """Check a complete game record of either edition move by move; return the finished game.

    Raises :class:`~sushigo.engine.records.RecordError` naming the round,
    turn and seat of the first problem, including a record that stops early.
    """
    expect(data, dict, msg("record"), msg("the record"))
    return EDITIONS[edition_of(data)].replay(data)


def score_sheet(data: Any) -> Result | PartyResult:
    """Score the collections of a physical table (a score sheet, 1 to 3 rounds), either edition.

    The pudding adjustment applies only when all three rounds are present.
    """
    expect(data, dict, msg("score sheet"), msg("the score sheet"))
    return EDITIONS[edition_of(data)].score_sheet(data)


_PARTY_NAMES = frozenset(c.name_in_records for c in PartyCard)


def _named_party_card(error: UnknownCardInRecord) -> RecordError:
    """A base file's unknown card, said to be a Party card when it is one."""
    if error.name.strip().lower() not in _PARTY_NAMES:
        return error
    return told(RecordError, '{where}: unknown card {name} (a Sushi Go Party! card: Party sheets and records say '
                '"edition": "party" and name a menu)', where=error.where, name=repr(error.name))
