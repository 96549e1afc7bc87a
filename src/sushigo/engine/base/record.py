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
from sushigo.engine.messages import Param, Told, msg, told, told_of
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
    """A name that is no card of the original game (:attr:`name`, at :attr:`where`: a place
    in the file as a message, or a string)."""

    def __init__(self, message: str, name: str, where: Param) -> None:
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


def _card(name: Any, where: Param) -> int:
    if not isinstance(name, str):
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1, card 1"); {actual}: a kind of JSON
        # value ("a list", "a whole number")
        raise told(RecordError, "{where}: expected a card name, not {actual}", where=where, actual=type_name(name))
    try:
        card = parse_card(name)
    except UnknownCardError as e:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1, card 1"); {why}: what is wrong there
        raise UnknownCardInRecord(Told(msg("{where}: {why}", where=where, why=told_of(e))), name, where) from None
    if name != card.name_in_records:  # records spell names exactly
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1, card 1"); {name} and {exact}: card
        # names in quotes
        raise told(RecordError, "{where}: unknown card {name} (did you mean {exact}?)", where=where, name=repr(name),
                   exact=repr(card.name_in_records))
    return int(card)


def _cards(value: Any, where: Param, what: Param) -> list[int]:
    expect(value, list, where, what)
    # TRANSLATORS: a place in a file: {where} is a place ("round 2, turn 3, seat 1"), {card} counts from 1
    return [_card(c, msg("{where}, card {card}", where=where, card=i + 1)) for i, c in enumerate(value)]


def _players(data: Mapping[str, Any]) -> int:
    if "players" not in data:
        raise told(RecordError, "missing key 'players'")
    players = expect(data["players"], int, "players", msg("the player count"))
    if not 2 <= players <= 5:
        raise told(RecordError, "players: the base game is for 2-5 players, not {players}", players=players)
    return int(players)


def replay_base(data: Mapping[str, Any]) -> Game:
    """Check a complete base-game record move by move; return the finished game.

    Raises :class:`~sushigo.engine.records.RecordError` naming the round,
    turn and seat of the first problem, including a record that stops early.
    """
    check_format(data)
    players = _players(data)
    options = data.get("options", {})
    expect(options, dict, "options", msg("the options"))
    try:
        rules = Rules.from_options(players, options)
    except RulesError as e:
        # TRANSLATORS: {why}: what is wrong with the rule options
        raise told(RecordError, "options: {why}", why=told_of(e)) from None
    rounds = record_rounds(data)
    game = Game(rules, auto_deal=False)
    k = rules.hand_size
    for r, rnd in enumerate(rounds, start=1):
        # TRANSLATORS: a place in a record or score sheet
        where = msg("round {round}", round=r)
        turns = deal_round(rnd, where, players, k, lambda hand, at: _cards(hand, at, msg("a hand")), game.deal)
        for t, turn in enumerate(turns, start=1):
            # TRANSLATORS: a place in a record: {where} is a round ("round 2")
            at = msg("{where}, turn {turn}", where=where, turn=t)
            expect(turn, list, at, msg("a turn"))
            if len(turn) != players:
                # TRANSLATORS: {where}: a place in the record ("round 2, turn 3")
                raise told(RecordError, "{where}: {count} picks for {players} players", where=at, count=len(turn),
                           players=players)
            actions = []
            for s, pick in enumerate(turn):
                # TRANSLATORS: a place in a record or score sheet: {where} is a place ("round 2, turn 3")
                seat_at = msg("{where}, seat {seat}", where=at, seat=s)
                cards = _cards(pick, seat_at, msg("a pick"))
                try:
                    actions.append(encode(cards))
                except InvalidActionError:
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1")
                    raise told(RecordError, "{where}: a pick is one card or two (with chopsticks), not {count}",
                               where=seat_at, count=len(cards)) from None
            for s, action in enumerate(actions):
                try:
                    game.check_legal(s, action)
                except (IllegalActionError, GameOverError) as e:
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {why}: why the move
                    # is illegal
                    seat_at = msg("{where}, seat {seat}", where=at, seat=s)
                    raise told(RecordError, "{where}: illegal move: {why}", where=seat_at, why=told_of(e)) from None
            game.play(actions)
        if len(turns) < k:
            # TRANSLATORS: {where}: a round ("round 2"); {turns}: the turns a round has
            raise told(RecordError, "{where}: the record stops early, after turn {turn} of {turns}", where=where,
                       turn=len(turns), turns=k)
    if not game.is_over:
        raise told(RecordError, "the record stops early, after round {round} of {rounds}", round=len(rounds),
                   rounds=NUM_ROUNDS)
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
        raise told(RecordError, "missing key 'rounds'")
    expect(rounds, list, "rounds", msg("the rounds"))
    if not 1 <= len(rounds) <= NUM_ROUNDS:
        raise told(RecordError, "rounds: a score sheet has 1 to {most} rounds, not {count}", most=NUM_ROUNDS,
                   count=len(rounds))
    k = Rules(players).hand_size
    used = [0] * NUM_CARD_TYPES
    collections_by_round: list[list[list[int]]] = []
    for r, rnd in enumerate(rounds, start=1):
        where = msg("round {round}", round=r)
        expect(rnd, list, where, msg("a round"))
        if len(rnd) != players:
            # TRANSLATORS: {where}: a round of the score sheet ("round 2")
            raise told(RecordError, "{where}: {count} collections for {players} players", where=where,
                       count=len(rnd), players=players)
        collections = []
        for s, col in enumerate(rnd):
            seat_at = msg("{where}, seat {seat}", where=where, seat=s)
            cards = _cards(col, seat_at, msg("a collection"))
            if len(cards) > k:
                # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {size}: the cards of a hand
                raise told(RecordError, "{where}: {count} cards, but a {players}-player hand holds {size}",
                           where=seat_at, count=len(cards), players=players, size=k)
            for c in cards:
                used[c] += 1
            for c in sorted(set(cards)):  # named at the seat whose cards pass what the deck holds
                if used[c] > DECK_COUNT_LIST[c]:
                    raise too_many_copies(seat_at, cards.count(c), str(Card(c)), used[c], DECK_COUNT_LIST[c], "deck")
            collections.append(cards)
        collections_by_round.append(collections)
    return collections_by_round


def score_collections(rounds: Sequence[Sequence[Sequence[int]]]) -> Result:
    """Score per-round collections (card ids, play order): the scorekeeper's core."""
    players = len(rounds[0])
    puddings = [sum(list(rnd[s]).count(Card.PUDDING) for rnd in rounds) for s in range(players)]
    breakdowns = [score_round(rnd) for rnd in rounds]
    return Result.from_breakdowns(breakdowns, puddings, final=len(rounds) == NUM_ROUNDS)
