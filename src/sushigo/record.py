"""Game records and score sheets (``docs/spec/game-record.md``, format 1).

A record holds every deal and every pick; :func:`replay` re-plays it move by
move with the engine and returns the finished :class:`~sushigo.game.Game`.
A score sheet holds only the collections of a physical table;
:func:`score_sheet` scores it.  Anything wrong raises :class:`RecordError`
with a one-line message that says what and where (round, turn, seat).

>>> from sushigo import Game
>>> game = Game(2, seed=3)
>>> while not game.is_over:
...     game.play([game.legal_actions(s)[-1] for s in range(2)])
>>> record = to_record(game)
>>> replay(record).result() == game.result()
True
"""

from __future__ import annotations

import json
from typing import IO, TYPE_CHECKING, Any, Final, Iterable, Mapping, Sequence

from sushigo.actions import InvalidActionError, card_ids, encode
from sushigo.cards import DECK_COUNT_LIST, NUM_CARD_TYPES, Card, UnknownCardError, did_you_mean, parse_card
from sushigo.game import DealError, Game, GameOverError, IllegalActionError
from sushigo.rules import NUM_ROUNDS, Rules, RulesError
from sushigo.scoring import Result, score_round

if TYPE_CHECKING:  # sushigo.party.record imports this module: import it lazily
    from sushigo.party.game import PartyGame, PartyResult

RECORD_FORMAT: Final = "sushigo-record/1"
MAX_INPUT_BYTES: Final = 4 * 1024 * 1024
"""Largest record or score sheet accepted (4 MiB; a real record is a few KiB)."""


class RecordError(ValueError):
    """A broken record or score sheet; the message says what is wrong and where."""


# ----------------------------------------------------------------- writing


def to_record(game: Game | PartyGame, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game record of ``game`` (finished or not) as a JSON-ready dict.

    Adds the optional keys ``meta`` (with the seed when known, plus anything
    given) and, for a finished game, ``result``.  A Party game gets a Party
    record (:func:`sushigo.party.record.to_party_record`).
    """
    if not isinstance(game, Game):
        from sushigo.party.record import to_party_record

        return to_party_record(game, meta=meta)
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
    return _add_meta_and_result(record, game, meta)


def _add_meta_and_result(
    record: dict[str, Any], game: Game | PartyGame, meta: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Add the optional keys: ``meta`` (the seed when known, plus ``meta``)
    and, for a finished game, ``result``."""
    meta_out: dict[str, Any] = {}
    if game.seed is not None:
        meta_out["seed"] = game.seed
    meta_out.update(meta or {})
    if meta_out:
        record["meta"] = meta_out
    if game.is_over:
        record["result"] = game.result().to_json()
    return record


def dumps(obj: Any, *, width: int = 100) -> str:
    """Readable, diff-friendly JSON: a value that fits in ``width`` columns, or a
    list of plain values, stays on one line (so a record has one line per
    dealt hand and per turn).

    >>> print(dumps({"players": 2, "turns": [[["egg"], ["wasabi", "squid"]]]}, width=45))
    {
     "players": 2,
     "turns": [[["egg"], ["wasabi", "squid"]]]
    }
    """
    return _dump(obj, 0, width)


def _dump(obj: Any, indent: int, width: int) -> str:
    flat = json.dumps(obj, separators=(", ", ": "))
    if len(flat) + indent <= width or not isinstance(obj, (dict, list)) or not obj:
        return flat
    if isinstance(obj, list) and not any(isinstance(v, (dict, list)) for v in obj):
        return flat  # a hand or a row of scores: always one line
    pad = " " * (indent + 1)
    if isinstance(obj, dict):
        items = [f"{pad}{json.dumps(k)}: {_dump(v, indent + 1, width)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _dump(v, indent + 1, width) for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def save_record(game: Game | PartyGame, path: str, *, meta: Mapping[str, Any] | None = None) -> None:
    """Write the record of ``game`` to ``path`` (atomically: a temp file, then rename)."""
    write_atomically(path, [dumps(to_record(game, meta=meta)) + "\n"])


def write_atomically(path: str, chunks: Iterable[str]) -> None:
    """Write ``chunks`` of text to ``path`` through a temporary file in the same
    folder, renamed over ``path`` at the end: a reader sees the old file or
    the whole new one, and a failure leaves no partial file behind."""
    import os
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".sushigo-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for chunk in chunks:
                f.write(chunk)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ----------------------------------------------------------------- reading


def load_json(source: str | IO[str] | IO[bytes], what: str = "file") -> Any:
    """Read JSON from a path, ``'-'`` (standard input) or an open file, with size limit.

    Raises :class:`RecordError` for an unreadable, oversized or non-JSON input.
    """
    import sys

    try:
        if isinstance(source, str):
            if source == "-":
                if sys.stdin is None:
                    raise RecordError("standard input is closed")
                raw: str | bytes = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
            else:
                with open(source, "rb") as f:
                    raw = f.read(MAX_INPUT_BYTES + 1)
        else:
            raw = source.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise RecordError("no such file") from None
    except IsADirectoryError:
        raise RecordError("it is a directory, not a file") from None
    except PermissionError:
        raise RecordError("permission denied") from None
    except OSError as e:
        raise RecordError(f"cannot read it: {e.strerror or e}") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise RecordError(f"{what} is too large (over {MAX_INPUT_BYTES // (1024 * 1024)} MiB)")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"{what} is not UTF-8 text (byte {e.start})") from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as e:
        raise RecordError(f"{what} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{what} is nested too deeply") from None
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        raise RecordError(f"{what} is not usable JSON: {' '.join(str(e).split())}") from None


def _type_name(value: Any) -> str:
    return {
        dict: "an object", list: "a list", str: "a string", bool: "true/false",
        int: "a whole number", float: "a fraction", type(None): "null",
    }.get(type(value), type(value).__name__)


def _expect(value: Any, kind: type, where: str, what: str) -> Any:
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise RecordError(f"{where}: {what} must be {_type_name(kind())}, not {_type_name(value)}")
    return value


def _card(name: Any, where: str) -> int:
    if not isinstance(name, str):
        raise RecordError(f"{where}: expected a card name, not {_type_name(name)}")
    try:
        card = parse_card(name)
    except UnknownCardError as e:
        from sushigo.party.cards import PartyCard

        if name.strip().lower() in {c.name_in_records for c in PartyCard}:
            raise RecordError(f"{where}: unknown card {name!r} (a Sushi Go Party! card: "
                              "Party sheets and records say \"edition\": \"party\" and name a menu)") from None
        raise RecordError(f"{where}: {e}") from None
    if name != card.name_in_records:  # records spell names exactly
        raise RecordError(f"{where}: unknown card {name!r} (did you mean {card.name_in_records!r}?)")
    return int(card)


def _cards(value: Any, where: str, what: str) -> list[int]:
    _expect(value, list, where, what)
    return [_card(c, f"{where}, card {i + 1}") for i, c in enumerate(value)]


def _players(data: Mapping[str, Any]) -> int:
    if "players" not in data:
        raise RecordError("missing key 'players'")
    players = _expect(data["players"], int, "players", "the player count")
    if not 2 <= players <= 5:
        raise RecordError(f"players: the base game is for 2-5 players, not {players}")
    return int(players)


def replay(data: Any) -> Game | PartyGame:
    """Check a complete game record move by move; return the finished game.

    Raises :class:`RecordError` naming the round, turn and seat of the first
    problem, including a record that stops early.  A record with edition
    ``"party"`` is replayed by :func:`sushigo.party.record.replay_party`.
    """
    _expect(data, dict, "record", "the record")
    if edition_of(data) == "party":
        from sushigo.party.record import replay_party

        return replay_party(data)
    return _replay_base(data)


EDITIONS: Final = ("base", "party")


def edition_of(data: Mapping[str, Any]) -> str:
    """The edition a record or score sheet names (``'base'`` when it names none).

    Raises :class:`RecordError` for any other value, with a suggestion when
    it is nearly right.

    >>> edition_of({"edition": "party"}), edition_of({})
    ('party', 'base')
    >>> edition_of({"edition": "Party"})
    Traceback (most recent call last):
    ...
    sushigo.record.RecordError: edition: this version knows 'base' and 'party', not "Party" (did you mean 'party'?)
    """
    value = data.get("edition", "base")
    if isinstance(value, str) and value in EDITIONS:
        return value
    hint = did_you_mean(value, EDITIONS) if isinstance(value, str) else ""
    raise RecordError(f"edition: this version knows 'base' and 'party', not {json.dumps(value)}{hint}")


def _check_format(data: Mapping[str, Any]) -> None:
    """The record's ``format`` key must name this format."""
    fmt = data.get("format")
    if fmt != RECORD_FORMAT:
        if fmt is None:
            raise RecordError(f"missing key 'format' (expected {RECORD_FORMAT!r})")
        raise RecordError(f"format: expected {RECORD_FORMAT!r}, not {fmt!r}")


def _record_rounds(data: Mapping[str, Any]) -> list[Any]:
    """The record's ``rounds`` list (at most three)."""
    rounds = data.get("rounds")
    if rounds is None:
        raise RecordError("missing key 'rounds'")
    _expect(rounds, list, "rounds", "the rounds")
    if len(rounds) > NUM_ROUNDS:
        raise RecordError(f"rounds: a game has {NUM_ROUNDS} rounds, the record has {len(rounds)}")
    return list(rounds)


def _round_part(rnd: Any, key: str, where: str) -> list[Any]:
    """A round's ``hands`` or ``turns`` list."""
    _expect(rnd, dict, where, "a round")
    part = rnd.get(key)
    if part is None:
        raise RecordError(f"{where}: missing key {key!r}")
    _expect(part, list, where, key)
    return list(part)


def _replay_base(data: Mapping[str, Any]) -> Game:
    _check_format(data)
    players = _players(data)
    options = data.get("options", {})
    _expect(options, dict, "options", "the options")
    try:
        rules = Rules.from_options(players, options)
    except RulesError as e:
        raise RecordError(f"options: {e}") from None
    rounds = _record_rounds(data)
    game = Game(rules, auto_deal=False)
    k = rules.hand_size
    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r}"
        hands = _round_part(rnd, "hands", where)
        if len(hands) != players:
            raise RecordError(f"{where}: {len(hands)} hands dealt for {players} players")
        dealt = [_cards(h, f"{where}, hand of seat {s}", "a hand") for s, h in enumerate(hands)]
        try:
            game.deal(dealt)
        except DealError as e:
            raise RecordError(f"{where}: impossible deal: {e}") from None
        turns = _round_part(rnd, "turns", where)
        if len(turns) > k:
            raise RecordError(f"{where}: {len(turns)} turns, but hands hold only {k} cards")
        for t, turn in enumerate(turns, start=1):
            at = f"{where}, turn {t}"
            _expect(turn, list, at, "a turn")
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
    if "result" in data:
        claimed = data["result"]
        actual = game.result().to_json()
        if not isinstance(claimed, dict):
            raise RecordError(f"result: must be an object, not {_type_name(claimed)}")
        for key in ("rounds", "pudding", "totals", "winners"):
            if key in claimed and claimed[key] != actual[key]:
                raise RecordError(
                    f"result: the record says {key} {claimed[key]!r}, replay gives {actual[key]!r}"
                )
    return game


def score_sheet(data: Any) -> Result | PartyResult:
    """Score the collections of a physical table (a score sheet, 1 to 3 rounds).

    The pudding adjustment applies only when all three rounds are present.
    A sheet with edition ``"party"`` is scored by
    :func:`sushigo.party.record.party_score_sheet`.
    """
    _expect(data, dict, "score sheet", "the score sheet")
    if edition_of(data) == "party":
        from sushigo.party.record import party_score_sheet

        return party_score_sheet(data)
    players = _players(data)
    rounds = data.get("rounds")
    if rounds is None:
        raise RecordError("missing key 'rounds'")
    _expect(rounds, list, "rounds", "the rounds")
    if not 1 <= len(rounds) <= NUM_ROUNDS:
        raise RecordError(f"rounds: a score sheet has 1 to {NUM_ROUNDS} rounds, not {len(rounds)}")
    k = Rules(players).hand_size
    used = [0] * NUM_CARD_TYPES
    collections_by_round: list[list[list[int]]] = []
    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r}"
        _expect(rnd, list, where, "a round")
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
            collections.append(cards)
        collections_by_round.append(collections)
    for card, count in enumerate(used):
        if count > DECK_COUNT_LIST[card]:
            raise RecordError(
                f"{count} {Card(card)} cards in all rounds, but the deck holds {DECK_COUNT_LIST[card]}"
            )
    return score_collections(collections_by_round)


def score_collections(rounds: Sequence[Sequence[Sequence[int]]]) -> Result:
    """Score per-round collections (card ids, play order): the scorekeeper's core."""
    players = len(rounds[0])
    puddings = [sum(list(rnd[s]).count(Card.PUDDING) for rnd in rounds) for s in range(players)]
    breakdowns = [score_round(rnd) for rnd in rounds]
    return Result.from_breakdowns(breakdowns, puddings, final=len(rounds) == NUM_ROUNDS)
