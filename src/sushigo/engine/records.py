"""The game-record file format both editions share (``docs/spec/game-record.md``, format 1).

What is the same for every record and score sheet lives here: the format
id, the size limit, reading JSON safely (:func:`load_json`), writing it
readably (:func:`dumps`) and atomically, the edition key, the checks of the
keys every record has, and :class:`RecordError`, whose one-line message
says what is wrong and where (a :class:`~sushigo.engine.messages.Told`: the
English, and the message to say it in another language).  Each edition's
own records are in :mod:`sushigo.engine.base.record` and
:mod:`sushigo.engine.party.record`; :mod:`sushigo.engine.editions` picks the
right one.

>>> edition_of({"edition": "party"}), edition_of({})
('party', 'base')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, Final, Protocol

from sushigo.engine.errors import DealError
from sushigo.engine.messages import Message, Param, msg, ntold, told, told_of
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


_FILE: Final = msg("file")
"""What :func:`load_json` and :func:`parse_json` call what they read, unless told."""


def load_json(source: str | IO[str] | IO[bytes], what: Param = _FILE) -> Any:
    """Read JSON from a path, ``'-'`` (standard input) or an open file, with size limit.

    Raises :class:`RecordError` for an unreadable, oversized or non-JSON input;
    its message calls the input ``what`` (a message, or a string shown as it is).
    """
    import sys

    try:
        if isinstance(source, str):
            if source == "-":
                if sys.stdin is None:
                    raise told(RecordError, "standard input is closed")
                raw: str | bytes = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
            else:
                with open(source, "rb") as f:
                    raw = f.read(MAX_INPUT_BYTES + 1)
        else:
            raw = source.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise told(RecordError, "no such file") from None
    except IsADirectoryError:
        raise told(RecordError, "it is a directory, not a file") from None
    except PermissionError:
        raise told(RecordError, "permission denied") from None
    except OSError as e:
        # TRANSLATORS: {why} is the system's own words (in English)
        raise told(RecordError, "cannot read it: {why}", why=str(e.strerror or e)) from None
    if len(raw) > MAX_INPUT_BYTES:
        # TRANSLATORS: {what} is what was read ("file", "record", "score sheet")
        raise told(RecordError, "{what} is too large (over {size} MiB)", what=what,
                   size=MAX_INPUT_BYTES // (1024 * 1024))
    return parse_json(raw, what)


def parse_json(raw: str | bytes, what: Param = _FILE) -> Any:
    r"""JSON text (UTF-8 bytes or a string) as Python values, every string made
    of Unicode characters: a lone surrogate escape (``"\ud800"``) is refused,
    since it can be neither printed nor stored as UTF-8.  Raises
    :class:`RecordError` with one line, which calls the input ``what``.

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
            # TRANSLATORS: {what} is what was read ("file", "record", "score sheet"); {byte}: where, from 0
            raise told(RecordError, "{what} is not UTF-8 text (byte {byte})", what=what, byte=e.start) from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        # TRANSLATORS: {what} is what was read ("file", "record", "score sheet"); {why}: the JSON reader's
        # own words (in English)
        raise told(RecordError, "{what} is not JSON: {why} at line {line}, column {column}", what=what, why=e.msg,
                   line=e.lineno, column=e.colno) from None
    except RecursionError:
        # TRANSLATORS: {what} is what was read ("file", "record", "score sheet")
        raise told(RecordError, "{what} is nested too deeply", what=what) from None
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        # TRANSLATORS: {what} is what was read ("file", "record", "score sheet"); {why}: Python's own words
        raise told(RecordError, "{what} is not usable JSON: {why}", what=what, why=" ".join(str(e).split())) from None
    if "\\u" in raw or (not decoded and not raw.isascii() and _SURROGATE.search(raw)):
        _refuse_surrogates(data, what)
    return data


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _refuse_surrogates(value: Any, what: Param) -> None:
    """Raise :class:`RecordError` if a string in ``value`` (keys too) holds a lone surrogate."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            bad = _SURROGATE.search(item)
            if bad is not None:
                code = f"\\u{ord(bad.group()):04x}"
                if not at:
                    # TRANSLATORS: {what} is what was read ("file", "record", "score sheet"); {code}: a character's
                    # code, \ud800
                    raise told(RecordError, "{what}: the document is not Unicode text (a lone surrogate, {code})",
                               what=what, code=code)
                # TRANSLATORS: {what} is what was read ("file", "record", "score sheet"); {path}: where in it,
                # names[1]; {code}: a character's code, \ud800
                raise told(RecordError, "{what}: {path} is not Unicode text (a lone surrogate, {code})", what=what,
                           path=at, code=code)
        elif isinstance(item, list):
            stack.extend((x, f"{at}[{i}]") for i, x in enumerate(item))
        elif isinstance(item, dict):
            for k, x in item.items():
                if _SURROGATE.search(k) and not at:
                    # TRANSLATORS: {what} is what was read ("file", "record", "score sheet")
                    raise told(RecordError, "{what}: a key of the document is not Unicode text (a lone surrogate)",
                               what=what)
                if _SURROGATE.search(k):
                    # TRANSLATORS: {what} is what was read ("file", "record", "score sheet"); {path}: where in it,
                    # meta.names
                    raise told(RecordError, "{what}: a key of {path} is not Unicode text (a lone surrogate)",
                               what=what, path=at)
                stack.append((x, f"{at}.{k}" if at else k))


_TYPE_NAMES: Final[dict[type, Message]] = {
    dict: msg("an object"), list: msg("a list"), str: msg("a string"), bool: msg("true/false"),
    int: msg("a whole number"), float: msg("a fraction"), type(None): msg("null"),
}


def type_name(value: Any) -> Message | str:
    """What kind of JSON value ``value`` is, in words (a message; Python's name of
    any other type).

    >>> from sushigo.engine.messages import render
    >>> render(type_name([1])), render(type_name(None)), type_name(1j)
    ('a list', 'null', 'complex')
    """
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def expect(value: Any, kind: type, where: Param, what: Param) -> Any:
    """``value`` when it is a ``kind`` (an ``int`` is no ``bool``), else :class:`RecordError`:
    at ``where`` (a place in the file: a message, or a key as a string), ``what`` must be one."""
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        # TRANSLATORS: {where}: a place in the file ("round 2, seat 1"; a key: "players"); {what}: what is there
        # ("the player count", "a hand"); {kind} and {actual}: kinds of JSON values ("a list", "a whole number")
        raise told(RecordError, "{where}: {what} must be {kind}, not {actual}", where=where, what=what,
                   kind=type_name(kind()), actual=type_name(value))
    return value


COPIES_COUNTED: Final = ("deck", "round", "kept", "entered")
"""What :func:`too_many_copies` counts, and against what."""


def too_many_copies(where: Param, here: int, name: str, total: int, limit: int, counted: str) -> RecordError:
    """A score sheet's seat whose cards of one kind pass what the deck or box
    holds, counting the seats in order: ``here`` of them in this collection
    make ``total``, more than ``limit``.  The line names the seat where the
    count passes the limit, so that a scorekeeper sees it at that player.
    ``counted`` (:data:`COPIES_COUNTED`) says what is counted: ``"deck"``, in
    all rounds against what the deck holds; ``"round"``, in this round against
    what the box holds; ``"kept"``, the desserts kept so far against what the
    box holds; ``"entered"``, the desserts kept so far against those that
    entered the deck.

    >>> print(too_many_copies("round 2, seat 1", 2, "wasabi", 7, 6, "deck"))
    round 2, seat 1: 2 wasabi cards here make 7 in all rounds, but the deck holds 6
    >>> print(too_many_copies("round 1, seat 2", 1, "squid", 4, 3, "round"))
    round 1, seat 2: 1 squid card here makes 4 in this round, but the box holds 3
    >>> print(too_many_copies("round 1, seat 0", 6, "egg", 6, 5, "deck"))
    round 1, seat 0: 6 egg cards in all rounds, but the deck holds 5
    >>> print(too_many_copies("round 2, seat 1", 2, "pudding", 9, 8, "entered"))
    round 2, seat 1: 2 pudding cards here make 9 kept so far, but only 8 entered the deck
    """
    if here == total:
        if counted == "deck":
            # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a card's name in records
            return ntold(RecordError, "{where}: {n} {name} card in all rounds, but the deck holds {limit}",
                         "{where}: {n} {name} cards in all rounds, but the deck holds {limit}", total, where=where,
                         name=name, limit=limit)
        if counted == "round":
            # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a card's name in records
            return ntold(RecordError, "{where}: {n} {name} card in this round, but the box holds {limit}",
                         "{where}: {n} {name} cards in this round, but the box holds {limit}", total, where=where,
                         name=name, limit=limit)
        if counted == "kept":
            # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a dessert card's name
            # in records
            return ntold(RecordError, "{where}: {n} {name} card kept so far, but the box holds {limit}",
                         "{where}: {n} {name} cards kept so far, but the box holds {limit}", total, where=where,
                         name=name, limit=limit)
        # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a dessert's name in records
        return ntold(RecordError, "{where}: {n} {name} card kept so far, but only {limit} entered the deck",
                     "{where}: {n} {name} cards kept so far, but only {limit} entered the deck", total, where=where,
                     name=name, limit=limit)
    if counted == "deck":
        # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a card's name in records;
        # {n} of the cards at this place make {total} in all
        return ntold(RecordError,
                     "{where}: {n} {name} card here makes {total} in all rounds, but the deck holds {limit}",
                     "{where}: {n} {name} cards here make {total} in all rounds, but the deck holds {limit}", here,
                     where=where, name=name, total=total, limit=limit)
    if counted == "round":
        # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a card's name in records;
        # {n} of the cards at this place make {total} in all
        return ntold(RecordError,
                     "{where}: {n} {name} card here makes {total} in this round, but the box holds {limit}",
                     "{where}: {n} {name} cards here make {total} in this round, but the box holds {limit}", here,
                     where=where, name=name, total=total, limit=limit)
    if counted == "kept":
        # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a dessert card's name in
        # records; {n} of the cards at this place make {total} in all
        return ntold(RecordError, "{where}: {n} {name} card here makes {total} kept so far, but the box holds {limit}",
                     "{where}: {n} {name} cards here make {total} kept so far, but the box holds {limit}", here,
                     where=where, name=name, total=total, limit=limit)
    # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); {name}: a dessert's name in records;
    # {n} of the cards at this place make {total} in all
    return ntold(RecordError,
                 "{where}: {n} {name} card here makes {total} kept so far, but only {limit} entered the deck",
                 "{where}: {n} {name} cards here make {total} kept so far, but only {limit} entered the deck", here,
                 where=where, name=name, total=total, limit=limit)


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
    # TRANSLATORS: {value} is the file's value, as JSON; {hint} is empty or " (did you mean 'party'?)"
    raise told(RecordError, "edition: this version knows 'base' and 'party', not {value}{hint}",
               value=json.dumps(value), hint=hint)


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
            raise told(RecordError, "missing key 'format' (expected {expected})", expected=repr(RECORD_FORMAT))
        raise told(RecordError, "format: expected {expected}, not {value}", expected=repr(RECORD_FORMAT),
                   value=repr(fmt))


def record_rounds(data: Mapping[str, Any]) -> list[Any]:
    """The record's ``rounds`` list (at most three)."""
    rounds = data.get("rounds")
    if rounds is None:
        raise told(RecordError, "missing key 'rounds'")
    expect(rounds, list, "rounds", msg("the rounds"))
    if len(rounds) > NUM_ROUNDS:
        raise told(RecordError, "rounds: a game has {rounds} rounds, the record has {count}", rounds=NUM_ROUNDS,
                   count=len(rounds))
    return list(rounds)


def round_part(rnd: Any, key: str, where: Param) -> list[Any]:
    """A round's ``hands`` or ``turns`` list."""
    expect(rnd, dict, where, msg("a round"))
    part = rnd.get(key)
    if part is None:
        # TRANSLATORS: {where}: a round ("round 2"); {key}: a key of the file in quotes ('hands')
        raise told(RecordError, "{where}: missing key {key}", where=where, key=repr(key))
    expect(part, list, where, key)
    return list(part)


def check_claimed_result(data: Mapping[str, Any], actual: Mapping[str, Any], hint: Param = "") -> None:
    """A record's optional ``result`` must equal the replay's (``actual``), key by key; ``hint``
    (a message that starts with a space, or ``""``) ends the line that says they differ."""
    if "result" not in data:
        return
    claimed = data["result"]
    if not isinstance(claimed, dict):
        # TRANSLATORS: {actual} is a kind of JSON value ("a list", "a whole number")
        raise told(RecordError, "result: must be an object, not {actual}", actual=type_name(claimed))
    for key in ("rounds", "pudding", "totals", "winners"):
        if key in claimed and claimed[key] != actual[key]:
            # TRANSLATORS: {key}: a key of the result (rounds, pudding, totals, winners); {claimed} and {actual}:
            # its values; {hint} is empty or an explanation in brackets, with a space in front
            raise told(RecordError, "result: the record says {key} {claimed}, replay gives {actual}{hint}", key=key,
                       claimed=repr(claimed[key]), actual=repr(actual[key]), hint=hint)


def deal_round(
    rnd: Any,
    where: Param,
    players: int,
    hand_size: int,
    read_hand: Callable[[Any, Param], list[int]],
    deal: Callable[[list[list[int]]], None],
) -> list[Any]:
    """Check a round's ``hands`` (one per seat, each read by ``read_hand``),
    ``deal`` them, and return the round's ``turns`` (at most ``hand_size``):
    the start of every round of a replay, either edition."""
    hands = round_part(rnd, "hands", where)
    if len(hands) != players:
        # TRANSLATORS: {where}: a round ("round 2")
        raise told(RecordError, "{where}: {count} hands dealt for {players} players", where=where, count=len(hands),
                   players=players)
    # TRANSLATORS: a place in a record: {where} is a round ("round 2")
    dealt = [read_hand(hand, msg("{where}, hand of seat {seat}", where=where, seat=s)) for s, hand in enumerate(hands)]
    try:
        deal(dealt)
    except DealError as e:
        # TRANSLATORS: {where}: a round ("round 2"); {why}: what is wrong with the deal
        raise told(RecordError, "{where}: impossible deal: {why}", where=where, why=told_of(e)) from None
    turns = round_part(rnd, "turns", where)
    if len(turns) > hand_size:
        # TRANSLATORS: {where}: a round ("round 2")
        raise told(RecordError, "{where}: {count} turns, but hands hold only {size} cards", where=where,
                   count=len(turns), size=hand_size)
    return turns
