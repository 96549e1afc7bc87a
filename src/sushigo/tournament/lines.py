"""One line of ``games.jsonl``: the one schema the tournament writes and every
reader checks (``docs/tournaments.md``, "games.jsonl").

:func:`to_line` makes a game's line (:meth:`GameResult.to_json
<sushigo.tournament.results.GameResult.to_json>` is it), :func:`check_line`
checks a decoded line against the schema, and :func:`read_lines` reads a file's
lines with one-line errors naming the file and line.  The statistics
(:mod:`sushigo.stats`) and :func:`sushigo.tournament.read_games` both read
through these, so what the tournament writes and what they accept cannot drift
apart.

>>> line = {"game": 0, "edition": "base", "players": 2, "seats": ["greedy", "random"],
...         "totals": [30, 21], "winners": [0], "record": None}
>>> check_line(line)["winners"]
[0]
>>> check_line({**line, "winners": [1]})
Traceback (most recent call last):
...
sushigo.tournament.lines.LineError: 'winners' [1] do not all have the highest total 30
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from sushigo.i18n import _l, _ln, message_of

if TYPE_CHECKING:
    from sushigo.engine.rules import Rules

GAMES_FILE: Final = "games.jsonl"
"""The file a tournament writes into its ``--out`` folder."""

EDITIONS: Final = ("base", "party")

REQUIRED_KEYS: Final = ("game", "edition", "players", "seats", "totals", "winners", "record")
"""Keys every game line has; the tournament also writes the optional keys of :data:`OPTIONAL_KEYS`."""

OPTIONAL_KEYS: Final = ("set", "deal_seed", "menu", "bot_index", "bot_seeds", "ranks", "incidents")


class PlayedGame(Protocol):
    """What a line is made of (:class:`~sushigo.tournament.results.GameResult` has it)."""

    @property
    def game(self) -> int: ...
    @property
    def set(self) -> int: ...
    @property
    def deal_seed(self) -> int: ...
    @property
    def seats(self) -> Sequence[str]: ...
    @property
    def bot_index(self) -> Sequence[int]: ...
    @property
    def bot_seeds(self) -> Sequence[int]: ...
    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def winners(self) -> Sequence[int]: ...
    @property
    def ranks(self) -> Sequence[float]: ...
    @property
    def incidents(self) -> Sequence[Mapping[str, Any]]: ...
    @property
    def record(self) -> dict[str, Any] | None: ...


class LineError(ValueError):
    """A line that is not a game line of the schema; the message is one line."""


def to_line(game: PlayedGame, rules: Rules) -> dict[str, Any]:
    """``game``'s line (every key of :data:`REQUIRED_KEYS` and :data:`OPTIONAL_KEYS`)."""
    return {
        "game": game.game,
        "set": game.set,
        "deal_seed": game.deal_seed,
        "edition": rules.edition,
        "menu": list(rules.menu) or None,  # Sushi Go Party!'s
        "players": len(game.seats),
        "seats": list(game.seats),
        "bot_index": list(game.bot_index),
        "bot_seeds": list(game.bot_seeds),
        "totals": list(game.totals),
        "winners": list(game.winners),
        "ranks": list(game.ranks),
        "incidents": [dict(i) for i in game.incidents],
        "record": game.record,
    }


def kind_of(value: Any) -> str:
    """A JSON value's kind in words, for error messages (a :class:`~sushigo.i18n.Phrase`,
    said in the reader's language; JSON's own words ``true/false`` and ``null`` as they are)."""
    kinds: dict[type, str] = {
        # TRANSLATORS: the kind of a JSON value, as in "'game' must be a whole number, not an object"
        dict: _l("an object"),
        list: _l("a list"),
        str: _l("a string"),
        bool: "true/false",
        int: _l("a whole number"),
        # TRANSLATORS: the kind of a JSON value: a number with a decimal point, such as 2.5
        float: _l("a fraction"),
        type(None): "null",
    }
    return kinds.get(type(value), type(value).__name__)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(_is_int(x) for x in value)


def check_line(data: Any) -> dict[str, Any]:
    """``data`` itself when it is a game line of the schema, else :class:`LineError`
    saying what is wrong (the record's own content is checked by its readers)."""
    if not isinstance(data, dict):
        raise LineError(_l("a game line must be a JSON object, not {kind}", kind=kind_of(data)))
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        keys = ", ".join(repr(k) for k in missing)
        raise LineError(_ln("missing key {keys}", "missing keys {keys}", len(missing), keys=keys))
    game, edition, players = data["game"], data["edition"], data["players"]
    if not _is_int(game):
        raise LineError(_l("{key} must be a whole number, not {kind}", key=repr("game"), kind=kind_of(game)))
    if edition not in EDITIONS:
        raise LineError(_l("'edition' must be 'base' or 'party', not {edition}", edition=repr(edition)))
    if not _is_int(players) or not 2 <= players <= 8:
        raise LineError(_l("'players' must be a whole number from 2 to 8, not {players}", players=repr(players)))
    seats, totals, winners = data["seats"], data["totals"], data["winners"]
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise LineError(_l("'seats' must be a list of {players} bot specs (strings)", players=players))
    if not _ints(totals, players):
        raise LineError(_l("{key} must be a list of {players} whole numbers", key=repr("totals"), players=players))
    if (
        not isinstance(winners, list) or not winners
        or not all(_is_int(w) and 0 <= w < players for w in winners)
        or len(set(winners)) != len(winners)
    ):
        raise LineError(_l("'winners' must be a non-empty list of distinct seats 0..{last}", last=players - 1))
    best = max(totals)
    if any(totals[w] != best for w in winners):
        raise LineError(_l("'winners' {winners} do not all have the highest total {best}", winners=str(winners),
                              best=str(best)))
    record = data["record"]
    if record is not None and not isinstance(record, dict):
        raise LineError(_l("'record' must be a game record (an object) or null, not {kind}", kind=kind_of(record)))
    for key in ("set", "deal_seed"):
        if key in data and not _is_int(data[key]):
            raise LineError(_l("{key} must be a whole number, not {kind}", key=repr(key), kind=kind_of(data[key])))
    for key in ("bot_index", "bot_seeds"):
        if key in data and not _ints(data[key], players):
            raise LineError(_l("{key} must be a list of {players} whole numbers", key=repr(key), players=players))
    ranks = data.get("ranks")
    if "ranks" in data and not (isinstance(ranks, list) and len(ranks) == players
                                and all(isinstance(r, int | float) and not isinstance(r, bool) for r in ranks)):
        raise LineError(_l("'ranks' must be a list of {players} numbers", players=players))
    if "incidents" in data and not (isinstance(data["incidents"], list)
                                    and all(isinstance(i, dict) for i in data["incidents"])):
        raise LineError(_l("'incidents' must be a list of objects"))
    menu = data.get("menu")
    if menu is not None and not (isinstance(menu, list) and all(isinstance(m, str) for m in menu)):
        raise LineError(_l("'menu' must be a list of menu item names, or null"))
    return data


def read_lines(path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each game line of file ``path`` as ``(FILE:LINE, line)``, checked by
    :func:`check_line`; blank lines are skipped.  Raises :class:`LineError`
    (prefixed ``FILE:LINE``) for a line that is not UTF-8, not JSON or not a
    game line, and :class:`OSError` for a file that cannot be read."""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            source = f"{path}:{number}"
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                # TRANSLATORS: {source}: a file and line (FILE:LINE); {byte}: where in the line
                raise LineError(_l("{source}: not UTF-8 text (byte {byte})", source=source,
                                   byte=str(e.start))) from None
            if not text.strip():
                continue
            try:
                data = json.loads(text)
            except (RecursionError, ValueError) as e:
                if isinstance(e, json.JSONDecodeError):
                    # TRANSLATORS: {source}: a file and line (FILE:LINE); {why}: Python's reason, in English
                    raise LineError(_l("{source}: not JSON: {why} at column {column}", source=source, why=e.msg,
                                       column=str(e.colno))) from None
                raise LineError(_l("{source}: not JSON: unusable", source=source)) from None
            try:
                yield source, check_line(data)
            except LineError as e:
                # TRANSLATORS: {source}: a file and line (FILE:LINE); {why}: what is wrong there
                raise LineError(_l("{source}: {why}", source=source, why=message_of(e))) from None


__all__ = ["EDITIONS", "GAMES_FILE", "OPTIONAL_KEYS", "REQUIRED_KEYS", "LineError", "PlayedGame", "check_line",
           "kind_of", "read_lines", "to_line"]
