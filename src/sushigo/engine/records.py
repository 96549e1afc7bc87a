"""The game-record file format both editions share (``docs/spec/game-record.md``, format 1).

What is the same for every record and score sheet lives here: the format
id, the size limit, reading JSON safely (:func:`load_json`), writing it
readably (:func:`dumps`) and atomically, the edition key, the checks of the
keys every record has, and :class:`RecordError`, whose one-line message
says what is wrong and where.  Each edition's own records are in
:mod:`sushigo.engine.base.record` and :mod:`sushigo.engine.party.record`;
:mod:`sushigo.engine.editions` picks the right one.

>>> edition_of({"edition": "party"}), edition_of({})
('party', 'base')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, Final, Protocol

from sushigo.engine.errors import DealError
from sushigo.engine.names import did_you_mean
from sushigo.engine.rules import NUM_ROUNDS

RECORD_FORMAT: Final = "sushigo-record/1"
MAX_INPUT_BYTES: Final = 4 * 1024 * 1024
"""Largest record or score sheet accepted (4 MiB; a real record is a few KiB)."""


class _Result(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class Recordable(Protocol):
    """What writing a record needs of a game of either edition."""

    @property
    def seed(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def result(self) -> _Result: ...


class RecordError(ValueError):
    """A broken record or score sheet; the message says what is wrong and where."""


# ----------------------------------------------------------------- writing


def add_meta_and_result(
    record: dict[str, Any], game: Recordable, meta: Mapping[str, Any] | None
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
    return parse_json(raw, what)


def parse_json(raw: str | bytes, what: str = "file") -> Any:
    r"""JSON text (UTF-8 bytes or a string) as Python values, every string made
    of Unicode characters: a lone surrogate escape (``"\ud800"``) is refused,
    since it can be neither printed nor stored as UTF-8.  Raises
    :class:`RecordError` with one line.

    >>> parse_json(b'{"names": ["Ana"]}')
    {'names': ['Ana']}
    >>> try:
    ...     parse_json(b'{"names": ["Ana", "\\ud800"]}', "sheet")
    ... except RecordError as e:
    ...     print(e)
    sheet: names[1] is not Unicode text (a lone surrogate, \ud800)
    """
    decoded = isinstance(raw, bytes)  # strict UTF-8 holds no surrogate: only an escape makes one
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"{what} is not UTF-8 text (byte {e.start})") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise RecordError(f"{what} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{what} is nested too deeply") from None
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        raise RecordError(f"{what} is not usable JSON: {' '.join(str(e).split())}") from None
    if "\\u" in raw or (not decoded and not raw.isascii() and _SURROGATE.search(raw)):
        _refuse_surrogates(data, what)
    return data


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _refuse_surrogates(value: Any, what: str) -> None:
    """Raise :class:`RecordError` if a string in ``value`` (keys too) holds a lone surrogate."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            bad = _SURROGATE.search(item)
            if bad is not None:
                raise RecordError(f"{what}: {at or 'the document'} is not Unicode text "
                                  f"(a lone surrogate, \\u{ord(bad.group()):04x})")
        elif isinstance(item, list):
            stack.extend((x, f"{at}[{i}]") for i, x in enumerate(item))
        elif isinstance(item, dict):
            for k, x in item.items():
                if _SURROGATE.search(k):
                    raise RecordError(f"{what}: a key of {at or 'the document'} is not Unicode text "
                                      "(a lone surrogate)")
                stack.append((x, f"{at}.{k}" if at else k))


def type_name(value: Any) -> str:
    return {
        dict: "an object", list: "a list", str: "a string", bool: "true/false",
        int: "a whole number", float: "a fraction", type(None): "null",
    }.get(type(value), type(value).__name__)


def expect(value: Any, kind: type, where: str, what: str) -> Any:
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise RecordError(f"{where}: {what} must be {type_name(kind())}, not {type_name(value)}")
    return value


def too_many_copies(where: str, here: int, name: str, total: int, counted: str, limit: str) -> RecordError:
    """A score sheet's seat whose cards of one kind pass what the deck or box
    holds, counting the seats in order: ``here`` of them in this collection
    make ``total`` ``counted``, but ``limit``.  The line names the seat where
    the count passes the limit, so that a scorekeeper sees it at that player.

    >>> print(too_many_copies("round 2, seat 1", 2, "wasabi", 7, "in all rounds", "the deck holds 6"))
    round 2, seat 1: 2 wasabi cards here make 7 in all rounds, but the deck holds 6
    >>> print(too_many_copies("round 1, seat 2", 1, "squid", 4, "in this round", "the box holds 3"))
    round 1, seat 2: 1 squid card here makes 4 in this round, but the box holds 3
    >>> print(too_many_copies("round 1, seat 0", 6, "egg", 6, "in all rounds", "the deck holds 5"))
    round 1, seat 0: 6 egg cards in all rounds, but the deck holds 5
    """
    if here == total:
        return RecordError(f"{where}: {total} {name} cards {counted}, but {limit}")
    cards = "card here makes" if here == 1 else "cards here make"
    return RecordError(f"{where}: {here} {name} {cards} {total} {counted}, but {limit}")


EDITIONS: Final = ("base", "party")


def edition_of(data: Mapping[str, Any]) -> str:
    """The edition a record or score sheet names (``'base'`` when it names none).

    Raises :class:`RecordError` for any other value, with a suggestion when
    it is nearly right.

    >>> edition_of({"edition": "party"}), edition_of({})
    ('party', 'base')
    >>> edition_of({"edition": "Party"})  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    sushigo.engine.records.RecordError: edition: this version knows 'base' and 'party', not "Party"
    (did you mean 'party'?)
    """
    value = data.get("edition", "base")
    if isinstance(value, str) and value in EDITIONS:
        return value
    hint = did_you_mean(value, EDITIONS) if isinstance(value, str) else ""
    raise RecordError(f"edition: this version knows 'base' and 'party', not {json.dumps(value)}{hint}")


def seat_names(data: Any, players: int) -> list[str] | None:
    """The players' names a record's ``meta`` gives (one string per seat), else ``None``.

    >>> seat_names({"meta": {"names": ["Ann", "Bo"]}}, 2), seat_names({}, 2)
    (['Ann', 'Bo'], None)
    """
    if isinstance(data, dict):
        meta = data.get("meta")
        if isinstance(meta, dict):
            names = meta.get("names")
            if (
                isinstance(names, list)
                and len(names) == players
                and all(isinstance(n, str) for n in names)
            ):
                return [str(n) for n in names]
    return None


def check_format(data: Mapping[str, Any]) -> None:
    """The record's ``format`` key must name this format."""
    fmt = data.get("format")
    if fmt != RECORD_FORMAT:
        if fmt is None:
            raise RecordError(f"missing key 'format' (expected {RECORD_FORMAT!r})")
        raise RecordError(f"format: expected {RECORD_FORMAT!r}, not {fmt!r}")


def record_rounds(data: Mapping[str, Any]) -> list[Any]:
    """The record's ``rounds`` list (at most three)."""
    rounds = data.get("rounds")
    if rounds is None:
        raise RecordError("missing key 'rounds'")
    expect(rounds, list, "rounds", "the rounds")
    if len(rounds) > NUM_ROUNDS:
        raise RecordError(f"rounds: a game has {NUM_ROUNDS} rounds, the record has {len(rounds)}")
    return list(rounds)


def round_part(rnd: Any, key: str, where: str) -> list[Any]:
    """A round's ``hands`` or ``turns`` list."""
    expect(rnd, dict, where, "a round")
    part = rnd.get(key)
    if part is None:
        raise RecordError(f"{where}: missing key {key!r}")
    expect(part, list, where, key)
    return list(part)


def check_claimed_result(data: Mapping[str, Any], actual: Mapping[str, Any], hint: str = "") -> None:
    """A record's optional ``result`` must equal the replay's (``actual``), key by key."""
    if "result" not in data:
        return
    claimed = data["result"]
    if not isinstance(claimed, dict):
        raise RecordError(f"result: must be an object, not {type_name(claimed)}")
    for key in ("rounds", "pudding", "totals", "winners"):
        if key in claimed and claimed[key] != actual[key]:
            raise RecordError(
                f"result: the record says {key} {claimed[key]!r}, replay gives {actual[key]!r}{hint}"
            )


def deal_round(
    rnd: Any,
    where: str,
    players: int,
    hand_size: int,
    read_hand: Callable[[Any, str], list[int]],
    deal: Callable[[list[list[int]]], None],
) -> list[Any]:
    """Check a round's ``hands`` (one per seat, each read by ``read_hand``),
    ``deal`` them, and return the round's ``turns`` (at most ``hand_size``):
    the start of every round of a replay, either edition."""
    hands = round_part(rnd, "hands", where)
    if len(hands) != players:
        raise RecordError(f"{where}: {len(hands)} hands dealt for {players} players")
    dealt = [read_hand(hand, f"{where}, hand of seat {s}") for s, hand in enumerate(hands)]
    try:
        deal(dealt)
    except DealError as e:
        raise RecordError(f"{where}: impossible deal: {e}") from None
    turns = round_part(rnd, "turns", where)
    if len(turns) > hand_size:
        raise RecordError(f"{where}: {len(turns)} turns, but hands hold only {hand_size} cards")
    return turns
