"""A bot's game stream (docs/bot-api.md, "The game stream"): one seat of a
live table as lines of JSON in the bot protocol ``sushigo-bot/1``.

:class:`BotStream` is a watcher of the table like a page's socket (the table
service attaches it to the bot's seat, so the seat counts as present): where a
socket is sent the table's frames, it turns each change into what the bot
needs, built from its seat's view by the engine
(:func:`~sushigo.bots.external.pick_message` and, when asked,
:func:`~sushigo.engine.worlds.world_document`, so hidden information stays in
the engine): a ``pick`` message whenever a decision of its seat opens, the
table's chat as the seat may read it, and ``end`` when the table ends.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final, TypeVar

from sushigo.bots.base import legal_actions_of, view_for
from sushigo.bots.external import legal_entries, pick_message
from sushigo.engine.base.actions import Action
from sushigo.engine.worlds import world_document
from sushigo.i18n import _l
from sushigo.server.protocol import UPDATES
from sushigo.server.tables import PLAYING, LiveTable, TableError
from sushigo.server.tables.model import log

OUTBOX: Final = 256
"""Lines a stream holds for a client that does not read; past it the stream ends (it may reconnect)."""
_CHAT: Final = '{"type":"chat"'
T = TypeVar("T")


class BotStream:
    """The game stream of ``seat`` at ``table``: a :class:`~sushigo.server.tables.Connection`
    whose lines wait in :attr:`lines` (``None``: the stream ends)."""

    version = UPDATES

    def __init__(self, table: LiveTable, seat: int, *, world: bool = False) -> None:
        self.table = table
        self.seat: int | None = seat
        self.world = world
        """Whether each ``pick`` carries the seat's information set (``world``)."""
        self.lines: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX)
        self._asked: int | None = None
        """The ``opened`` of the decision the last ``pick`` asked for (``None``: none waits)."""
        self._ended = False

    def send(self, text: str) -> None:
        """A frame the table sends its watchers: its chat goes on as it is; anything else is a change."""
        if text.startswith(_CHAT):
            self._put(text)
        self.look()

    def close(self, code: int, reason: str) -> None:
        self._put(json.dumps({"type": "closed", "reason": reason}))
        self._put(None)

    def look(self) -> None:
        """Tell what changed for the seat: a decision opened (``pick``), the table ended (``end``)."""
        table, seat = self.table, self.seat
        if self._ended or seat is None:
            return
        if table.status == PLAYING:
            game = table.game
            waiting = seat in game.pending_seats and not game.has_committed(seat)
            if not waiting:
                self._asked = None
            elif self._asked != table.opened[seat]:
                self._asked = table.opened[seat]
                message = pick_message(view_for(game, seat, None), table.id)
                message["seq"] = table.public_seq
                if seat in table.deadlines:
                    message["deadline"] = round(table.deadlines[seat][1], 3)
                if self.world:
                    try:
                        message["world"] = world_document(game, seat)
                    except Exception:  # never in the tests' games; the table's other watchers must not suffer
                        log.exception("table %s: seat %s's world could not be written", table.id, seat)
                self._put(json.dumps(message))
        elif table.status != "waiting":
            self._ended = True
            end: dict[str, Any] = {"type": "end", "game": table.id, "status": table.status}
            if table.game.is_over:
                end["result"] = table.game.result().to_json()
            self._put(json.dumps(end))
            self._put(None)

    def _put(self, line: str | None) -> None:
        if not put_or_end(self.lines, line, None):  # a client that does not read: the stream ends, it may reconnect
            self._ended = True


def put_or_end(queue: asyncio.Queue[T], item: T, last: T) -> bool:
    """Put ``item`` in a stream's bounded ``queue``; when its client has not read and it is full,
    empty it and leave ``last`` alone in it instead (the stream ends); whether ``item`` went in."""
    try:
        queue.put_nowait(item)
    except asyncio.QueueFull:
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(last)
        return False
    return True


def action_of(table: LiveTable, seat: int, entry: object) -> Action:
    """The action of a ``pick`` answer's entry (one of the ``legal`` entries the seat's
    ``pick`` message listed, in any case); :class:`TableError` otherwise."""
    if not isinstance(entry, list) or not entry or not all(isinstance(p, str) and len(p) < 100 for p in entry):
        raise TableError("bad_message", _l("pick: one of the legal entries of the pick message, a list of strings"))
    view = view_for(table.game, seat, None)
    legal = {tuple(p.lower() for p in e): a for e, a in zip(legal_entries(view), legal_actions_of(view))}
    action = legal.get(tuple(p.lower() for p in entry))
    if action is None:
        raise TableError("illegal", _l("{entry} is not among the legal entries now", entry=json.dumps(entry)[:80]))
    return action


__all__ = ["OUTBOX", "BotStream", "action_of", "put_or_end"]
