"""A finished game told again step by step, as one seat (or a spectator) saw it: the replay viewer's document.

:func:`replay_document` replays a game of either edition from its history
(the hands dealt and every move in the order made; the deck's order is never
read) and stops at every moment someone decides: each turn's picks, and in
Sushi Go Party! each decision after the reveal (chopsticks, spoon, menu,
takeout box), then once at the end of each round.  At each step it keeps the
view the table sent that seat at that moment (the engine's view document,
:meth:`~sushigo.engine.editions.Edition.view_document`: the seat's or spectator's
view, so a seat's steps show only what it knew), how many lines of the turn log it had read (the engine's narration, as
that seat reads it), and, where the seat itself decided, what it chose.  The
page (``static/replay.js``) draws these; it computes nothing.

The document is ``sushigo-replay/1`` (``docs/server.md``, "Replays").

>>> from sushigo.bots import make_bot
>>> from sushigo.bots.base import play_game
>>> game = play_game([make_bot("greedy", s) for s in range(3)], seed=2)
>>> doc = replay_document(game, 1, ["Ann", "Bo", "Cy"])
>>> len(doc["steps"]), doc["steps"][0]["kind"], doc["steps"][-1]["kind"]
(30, 'pick', 'end')
>>> from sushigo.engine.base.cards import CARD_NAMES
>>> doc["steps"][0]["view"]["hand"] == [CARD_NAMES[c] for c in game.history()[0][0][1]]
True
>>> doc["steps"][0]["view"]["known_hands"][0] is None  # seat 0's hand: not Bo's to see
True
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from sushigo.engine.editions import (
    AnyGame,
    action_said,
    action_text,
    action_words,
    edition_for,
    explained_rounds,
    replay,
    walk,
)
from sushigo.engine.menus import menu_label
from sushigo.engine.messages import msg
from sushigo.engine.narration import Line, lines_seen_by
from sushigo.engine.records import RecordError, dumps, parse_json, seat_names
from sushigo.i18n import _l, message_of
from sushigo.server.store import Store
from sushigo.server.tables import (
    FINISHED,
    AnalysisJob,
    TableError,
    TableService,
)

FORMAT: Final = "sushigo-replay/1"

Charge = Callable[[], bool]
"""Counts one replay document computed for the asker; ``False``: over their limit."""

END_KINDS: Final = ("round_end", "end")
"""The kinds of step where nobody decides: a round's end, and the game's."""


def replay_document(game: AnyGame, seat: int | None, names: Sequence[str]) -> dict[str, Any]:
    """The replay of finished ``game`` as ``seat`` saw it (``None``: a spectator), seats named ``names``.

    Raises :class:`ValueError` for a seat the game does not have or a game that is not over.
    """
    if seat is not None and not 0 <= seat < game.players:
        raise ValueError(_l("seat {seat}: the game has seats 0 to {last}", seat=str(seat), last=game.players - 1))
    if not game.is_over:
        raise ValueError(_l("a game is replayed once it is over"))
    lines: list[Line] = []
    steps: list[dict[str, Any]] = []
    edition = edition_for(game)
    for moment in walk(game, narrate=True):
        lines += moment.told
        board, chosen = moment.board, moment.chosen
        mine = chosen.get(seat) if seat is not None else None
        steps.append({
            "n": len(steps), "round": moment.round, "turn": moment.turn, "kind": moment.kind,
            "deciding": sorted(chosen), "index": moment.index if mine is not None else None,
            "chosen": None if mine is None else {"action": mine, "text": action_text(board, mine),
                                                 "words": action_words(board, mine),
                                                 "words_msg": action_said(board, mine)},
            "lines": len(lines), "rounds_done": len(board.round_breakdowns),
            "view": edition.view_document(board, seat, rounds=False),
        })
    rounds = [{**edition.round_cards(game, n), "explained": story}
              for n, story in enumerate(explained_rounds(game), start=1)]
    rules = game.rules
    doc: dict[str, Any] = {
        "format": FORMAT, "edition": rules.edition, "players": game.players, "names": list(names),
        "menu": menu_label(rules.menu),
        "options": rules.options(), "seat": seat, "result": game.result().to_json(), "rounds": rounds,
        "lines": lines_seen_by(lines, seat), "steps": steps,
    }
    return doc


UPLOAD_KEY: Final = "upload/"
"""What an uploaded record's analyses are stored under: this, then its id (a table's id has no ``/``)."""

CACHED: Final = 32
"""Replay documents kept in memory (the newest asked for)."""


def upload_id(record: dict[str, Any]) -> str:
    """An uploaded record's id: the start of the SHA-256 of its canonical text (the same game, the same id).

    >>> upload_id({"players": 2}) == upload_id({"players": 2}), len(upload_id({"players": 2}))
    (True, 20)
    """
    return hashlib.sha256(dumps(record).encode()).hexdigest()[:20]


class ReplayService:
    """Replays of finished tables and of uploaded records, and the uploads' analyses.

    A replay is computed once per seat (and the spectator) and kept while it is
    among the :data:`CACHED` newest; an uploaded record is kept in the
    database under :func:`upload_id`, so its address can be shared.
    """

    def __init__(self, tables: TableService, store: Store) -> None:
        self.tables = tables
        self.store = store
        self._cache: OrderedDict[tuple[str, int | None], dict[str, Any]] = OrderedDict()

    async def of_table(self, table_id: str, seat: int | None, charge: Charge | None = None) -> dict[str, Any]:
        """The replay of finished table ``table_id`` as ``seat`` saw it (``None``: a spectator).

        ``charge()`` is asked before a document is computed (one that is cached
        is free): ``False`` refuses it.  Raises :class:`TableError`: ``no_table``,
        ``not_finished``, ``bad_request`` (no such seat), ``rate_limited``.
        """
        summary = await self.tables.summary(table_id)
        if summary is None:
            raise TableError("no_table", _l("no table {id}", id=repr(table_id)))
        if summary["status"] != FINISHED:
            raise TableError("not_finished", _l("a game is replayed once it is finished"))
        names = [s.get("name") or f"Seat {s['seat'] + 1}" for s in summary["seats"]]
        return await self._document(table_id, seat, lambda: self.tables.record(table_id), names, charge)

    async def upload(self, body: bytes) -> tuple[str, dict[str, Any]]:
        """Check an uploaded record (JSON text of a complete game) and keep it: its id and a summary.

        Raises :class:`TableError` ``bad_request`` with the engine's one line for a bad record.
        """
        try:
            data = parse_json(body, msg("the record"))
        except RecordError as e:
            raise TableError("bad_request", _l("{why} (a game record is a JSON document)", why=message_of(e))) from None
        try:
            game = await asyncio.to_thread(replay, data)
        except RecordError as e:
            raise TableError("bad_request", _l("that is not a game record this server can replay: {why}",
                                               why=message_of(e))) from None
        rid = upload_id(data)
        await asyncio.to_thread(self.store.save_upload, rid, dumps(data) + "\n", time.time())
        return rid, {"id": rid, "edition": game.rules.edition, "players": game.players,
                     "names": _names(data, game.players), "replay": f"/replay/{rid}"}

    async def record(self, rid: str) -> str | None:
        """An uploaded record's text, or ``None``."""
        return await asyncio.to_thread(self.store.upload, rid)

    async def of_upload(self, rid: str, seat: int | None, charge: Charge | None = None) -> dict[str, Any]:
        """The replay of uploaded record ``rid`` as ``seat`` saw it, as :meth:`of_table`
        (raises ``no_table``, ``bad_request``, ``rate_limited``)."""
        return await self._document(UPLOAD_KEY + rid, seat, lambda: self.record(rid), None, charge,
                                    missing=_l("no uploaded record {id}", id=repr(rid)))

    async def upload_analysis(self, rid: str, seat: int, *, start: bool = False,
                              address: str = "") -> AnalysisJob | None:
        """The analysis of ``seat`` in uploaded record ``rid``, as :meth:`TableService.analysis`."""
        text = await self.record(rid)
        if text is None:
            raise TableError("no_table", _l("no uploaded record {id}", id=repr(rid)))
        players = json.loads(text)["players"]

        async def read() -> str:  # read once, above
            return text

        return await self.tables.record_analysis(UPLOAD_KEY + rid, players, seat, read, start=start,
                                                 address=address)

    async def _document(self, key: str, seat: int | None, read: Callable[[], Awaitable[str | None]],
                        names: list[str] | None, charge: Charge | None,
                        *, missing: str = _l("this game has no stored record")) -> dict[str, Any]:
        doc = self._cache.get((key, seat))
        if doc is not None:
            self._cache.move_to_end((key, seat))
            return doc
        if charge is not None and not charge():
            raise TableError("rate_limited", _l("this address asked for too many replays in the last minute; "
                                                "try again in a minute"))
        text = await read()
        if text is None:
            raise TableError("no_table", missing)
        data = json.loads(text)
        try:
            doc = await asyncio.to_thread(_document_of, data, seat, names)
        except ValueError as e:
            raise TableError("bad_request", message_of(e)) from None
        self._cache[(key, seat)] = doc
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return doc


def _names(data: Any, players: int) -> list[str]:
    return seat_names(data, players) or [f"Seat {i + 1}" for i in range(players)]


def _document_of(data: Any, seat: int | None, names: list[str] | None) -> dict[str, Any]:
    game = replay(data)
    return replay_document(game, seat, names if names is not None else _names(data, game.players))


__all__ = ["CACHED", "END_KINDS", "FORMAT", "UPLOAD_KEY", "ReplayService", "replay_document", "upload_id"]
