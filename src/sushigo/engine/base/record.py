"""Records and score sheets of the original game (``docs/spec/game-record.md``, format 1).

A record holds every deal and every pick; :func:`replay_base` re-plays it
move by move with the engine and returns the finished
:class:`~sushigo.engine.base.game.Game`.  A score sheet holds only the
collections of a physical table; :func:`base_score_sheet` scores it.
Anything wrong raises :class:`~sushigo.engine.records.RecordError` with a
one-line message that says what and where (round, turn, seat).  What every
record shares is in :mod:`sushigo.engine.records`; the functions for either
edition (``to_record``, ``replay``, ``score_sheet``) are in
:mod:`sushigo.engine.editions`.

>>> from sushigo import Game
>>> game = Game(2, seed=3)
>>> while not game.is_over:
...     game.play([game.legal_actions(s)[-1] for s in range(2)])
>>> record = to_base_record(game)
>>> replay_base(record).result() == game.result()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sushigo.engine.base.actions import card_ids, encode
from sushigo.engine.base.cards import DECK_COUNT_LIST, NUM_CARD_TYPES, Card, parse_card
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import Result, score_round
from sushigo.engine.errors import GameOverError, IllegalActionError, InvalidActionError, UnknownCardError
from sushigo.engine.records import (
    RECORD_FORMAT,
    RecordError,
    add_meta_and_result,
    check_claimed_result,
    check_format,
    deal_round,
    expect,
    record_rounds,
    too_many_copies,
    type_name,
)
from sushigo.engine.rules import NUM_ROUNDS, Rules, RulesError


class UnknownCardInRecord(RecordError):
    """A name that is no card of the original game (:attr:`name`, at :attr:`where`)."""

    def __init__(self, message: str, name: str, where: str) -> None:
        super().__init__(message)
        self.name = name
        self.where = where


def to_base_record(game: Game, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game record of ``game`` (finished or not) as a JSON-ready dict.

    Adds the optional keys ``meta`` (with the seed when known, plus anything
    given) and, for a finished game, ``result``.
    """
    rounds = []
    for dealt, turns in game.history():
        rounds.append(
            {
                "hands": [[Card(c).name_in_records for c in hand] for hand in dealt],
                "turns": [
                    [[Card(c).name_in_records for c in card_ids(a)] for a in turn]
                    for turn in turns
                ],
            }
        )
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "edition": "base",
        "players": game.players,
        "options": game.rules.options(),
        "rounds": rounds,
    }
    return add_meta_and_result(record, game, meta)


def _card(name: Any, where: str) -> int:
    if not isinstance(name, str):
        raise RecordError(f"{where}: expected a card name, not {type_name(name)}")
    try:
        card = parse_card(name)
    except UnknownCardError as e:
        raise UnknownCardInRecord(f"{where}: {e}", name, where) from None
    if name != card.name_in_records:  # records spell names exactly
        raise RecordError(f"{where}: unknown card {name!r} (did you mean {card.name_in_records!r}?)")
    return int(card)


def _cards(value: Any, where: str, what: str) -> list[int]:
    expect(value, list, where, what)
    return [_card(c, f"{where}, card {i + 1}") for i, c in enumerate(value)]


def _players(data: Mapping[str, Any]) -> int:
    if "players" not in data:
        raise RecordError("missing key 'players'")
    players = expect(data["players"], int, "players", "the player count")
    if not 2 <= players <= 5:
        raise RecordError(f"players: the base game is for 2-5 players, not {players}")
    return int(players)


def replay_base(data: Mapping[str, Any]) -> Game:
    """Check a complete base-game record move by move; return the finished game.

    Raises :class:`~sushigo.engine.records.RecordError` naming the round,
    turn and seat of the first problem, including a record that stops early.
    """
    check_format(data)
    players = _players(data)
    options = data.get("options", {})
    expect(options, dict, "options", "the options")
    try:
        rules = Rules.from_options(players, options)
    except RulesError as e:
        raise RecordError(f"options: {e}") from None
    rounds = record_rounds(data)
    game = Game(rules, auto_deal=False)
    k = rules.hand_size
    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r}"
        turns = deal_round(rnd, where, players, k, lambda hand, at: _cards(hand, at, "a hand"), game.deal)
        for t, turn in enumerate(turns, start=1):
            at = f"{where}, turn {t}"
            expect(turn, list, at, "a turn")
            if len(turn) != players:
                raise RecordError(f"{at}: {len(turn)} picks for {players} players")
            actions = []
            for s, pick in enumerate(turn):
                seat_at = f"{at}, seat {s}"
                cards = _cards(pick, seat_at, "a pick")
                try:
                    actions.append(encode(cards))
                except InvalidActionError:
                    raise RecordError(
                        f"{seat_at}: a pick is one card or two (with chopsticks), not {len(cards)}"
                    ) from None
            for s, action in enumerate(actions):
                try:
                    game.check_legal(s, action)
                except (IllegalActionError, GameOverError) as e:
                    raise RecordError(f"{at}, seat {s}: illegal move: {e}") from None
            game.play(actions)
        if len(turns) < k:
            raise RecordError(
                f"{where}: the record stops early, after turn {len(turns)} of {k}"
            )
    if not game.is_over:
        raise RecordError(
            f"the record stops early, after round {len(rounds)} of {NUM_ROUNDS}"
        )
    check_claimed_result(data, game.result().to_json())
    return game


def base_score_sheet(data: Mapping[str, Any]) -> Result:
    """Score the collections of a physical table (a score sheet, 1 to 3 rounds).

    The pudding adjustment applies only when all three rounds are present.
    """
    return score_collections(base_sheet_collections(data))


def base_sheet_rules(data: Mapping[str, Any]) -> Rules:
    """The rules of a score sheet's setup (its ``players``), checked."""
    return Rules(_players(data))


def base_sheet_collections(data: Mapping[str, Any]) -> list[list[list[int]]]:
    """A score sheet's collections, checked: ``[round][seat]`` card ids in play order.

    >>> base_sheet_collections({"players": 2, "rounds": [[["wasabi", "squid"], []]]})
    [[[9, 8], []]]
    """
    players = _players(data)
    rounds = data.get("rounds")
    if rounds is None:
        raise RecordError("missing key 'rounds'")
    expect(rounds, list, "rounds", "the rounds")
    if not 1 <= len(rounds) <= NUM_ROUNDS:
        raise RecordError(f"rounds: a score sheet has 1 to {NUM_ROUNDS} rounds, not {len(rounds)}")
    k = Rules(players).hand_size
    used = [0] * NUM_CARD_TYPES
    collections_by_round: list[list[list[int]]] = []
    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r}"
        expect(rnd, list, where, "a round")
        if len(rnd) != players:
            raise RecordError(f"{where}: {len(rnd)} collections for {players} players")
        collections = []
        for s, col in enumerate(rnd):
            cards = _cards(col, f"{where}, seat {s}", "a collection")
            if len(cards) > k:
                raise RecordError(
                    f"{where}, seat {s}: {len(cards)} cards, but a {players}-player hand holds {k}"
                )
            for c in cards:
                used[c] += 1
            for c in sorted(set(cards)):  # named at the seat whose cards pass what the deck holds
                if used[c] > DECK_COUNT_LIST[c]:
                    raise too_many_copies(f"{where}, seat {s}", cards.count(c), str(Card(c)), used[c],
                                          "in all rounds", f"the deck holds {DECK_COUNT_LIST[c]}")
            collections.append(cards)
        collections_by_round.append(collections)
    return collections_by_round


def score_collections(rounds: Sequence[Sequence[Sequence[int]]]) -> Result:
    """Score per-round collections (card ids, play order): the scorekeeper's core."""
    players = len(rounds[0])
    puddings = [sum(list(rnd[s]).count(Card.PUDDING) for rnd in rounds) for s in range(players)]
    breakdowns = [score_round(rnd) for rnd in rounds]
    return Result.from_breakdowns(breakdowns, puddings, final=len(rounds) == NUM_ROUNDS)
